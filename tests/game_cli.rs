//! A whole game of Westeros run by a moderator through the command line only: creation,
//! players, orders (full, partial, refused, late), processing by `tick` at the deadline,
//! by `game process` and by everyone being ready, a retreat, builds, disbands, civil
//! disorder, a rollback, a win, and the refusals a moderator meets on the way. Every step
//! is checked on what the commands print and on `game show --json` / `export`.
//!
//! The clock is fixed by `CORBEAU_NOW` for every command; each test has its own data
//! directory. Goldens: `tests/golden/game/` (bless with `CORBEAU_BLESS=1`).

mod support;

use std::fs;

use pretty_assertions::assert_eq;
use serde_json::Value;

use support::assert_golden;
use support::cli::CliJudge;

const GAME: &str = "bataille";

/// A pass's summary when it wrote the three players' mails and sent them.
const WRITTEN_3_SENT_3: &str = "courriels écrits pour les parties (résultats, rappels, annonces) 3 ; \
                                courriels remis au transport (réponses comprises) 3,";

/// What this file asks of the moderator's shell beyond running a command.
trait Moderating {
    /// Runs a command that the game must refuse: exit code 1, a one-line `corbeau: …`
    /// message on standard error (its text returned), nothing on standard output, and the
    /// stored game unchanged, down to its audit trail.
    fn refused(&self, args: &[&str], stdin: Option<&str>) -> String;
    /// Gives a house's orders; the orders as understood.
    fn submit(&self, house: &str, orders: &str) -> String;
    fn json(&self, args: &[&str]) -> Value;
    /// `game show --json`.
    fn show(&self) -> Value;
    /// `export`: the game, its phases and its audit trail.
    fn export(&self) -> Value;
}

impl Moderating for CliJudge {
    #[track_caller]
    fn refused(&self, args: &[&str], stdin: Option<&str>) -> String {
        let before = self.export();
        let out = self.run(args, stdin);
        assert_eq!(
            out.code,
            1,
            "corbeau {args:?} at {} should be refused:\nstdout:\n{}\nstderr:\n{}",
            self.now(),
            out.out,
            out.err
        );
        assert_eq!(out.out, "", "corbeau {args:?}: nothing on stdout");
        assert!(out.err.starts_with("corbeau: "), "{}", out.err);
        assert_eq!(self.export(), before, "corbeau {args:?} changed the game");
        out.err
    }

    #[track_caller]
    fn submit(&self, house: &str, orders: &str) -> String {
        self.ok_with(&["orders", "submit", GAME, house, "-"], Some(orders))
    }

    #[track_caller]
    fn json(&self, args: &[&str]) -> Value {
        let text = self.ok(args);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}\n{text}"))
    }

    #[track_caller]
    fn show(&self) -> Value {
        self.json(&["game", "show", GAME, "--json"])
    }

    #[track_caller]
    fn export(&self) -> Value {
        self.json(&["export", GAME])
    }
}

/// `spring 298 movement`, from the game's `phase`.
fn phase(game: &Value) -> String {
    let p = &game["phase"];
    format!(
        "{} {} {}",
        p["season"].as_str().expect("season"),
        p["year"],
        p["kind"].as_str().expect("kind")
    )
}

fn seat<'a>(game: &'a Value, house: &str) -> &'a Value {
    game["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["house"] == house)
        .unwrap_or_else(|| panic!("no seat {house}"))
}

/// The orders stored for a house, as written.
fn orders(game: &Value, house: &str) -> Vec<String> {
    seat(game, house)["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| o["order"]["text"].as_str().expect("order text").to_string())
        .collect()
}

/// The lines of the position text that start with `keyword House:`, without it, sorted:
/// `units(g, "Stark")` gives `["A roc", "F bla", …]`.
fn position_lines(game: &Value, keyword: &str, house: &str) -> Vec<String> {
    let prefix = format!("{keyword} {house}: ");
    let mut lines: Vec<String> = game["position"]
        .as_str()
        .expect("position")
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

fn units(game: &Value, house: &str) -> Vec<String> {
    position_lines(game, "unit", house)
}

/// The supply centres a house owns, sorted.
fn centres(game: &Value, house: &str) -> Vec<String> {
    let mut ids: Vec<String> = position_lines(game, "owner", house)
        .iter()
        .flat_map(|l| l.split_whitespace().map(str::to_string))
        .collect();
    ids.sort();
    ids
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The game without what a rollback is expected to renew: the phase's opening, its
/// deadline and what depends on it.
fn without_clock(game: &Value) -> Value {
    let mut game = game.clone();
    let map = game.as_object_mut().expect("a game object");
    for key in ["opened", "deadline", "wake", "reminders_sent", "extended"] {
        map.remove(key);
    }
    game
}

fn played(game: &Value) -> u64 {
    game["played"].as_u64().expect("played")
}

/// Three players, three years: Stark and Baratheon lose ground, Lannister wins with 7
/// supply centres at the end of autumn 300.
#[test]
fn a_game_of_westeros_played_through_the_command_line() {
    let j = CliJudge::new("game-cli", "full");

    // ------------------------------------------------------------- creation and players
    j.at("2026-03-23T08:00:00Z");
    // No store yet: said, and none made.
    let err = j.run(&["game", "show", GAME], None);
    assert_eq!(err.code, 1);
    assert!(
        err.err.contains("corbeau: aucun stockage dans "),
        "{}",
        err.err
    );
    assert!(!j.data().exists());

    let out = j.ok(&[
        "game",
        "new",
        GAME,
        "--players",
        "3",
        "--victory-centres",
        "7",
        "--civil-disorder-after",
        "1",
    ]);
    assert!(
        out.contains("partie créée : bataille (3 joueurs, westeros)"),
        "{out}"
    );
    assert!(
        out.contains("maisons : stark, lannister, baratheon"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(g["status"], "forming");
    assert_eq!(g["settings"]["victory_centres"], 7);
    assert_eq!(g["settings"]["civil_disorder_after"], 1);
    assert_eq!(phase(&g), "spring 298 movement");
    assert_eq!(g["deadline"], Value::Null);
    let houses: Vec<&str> = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["house"].as_str().unwrap())
        .collect();
    assert_eq!(houses, ["stark", "lannister", "baratheon"]);
    assert_eq!(centres(&g, "Stark"), strings(&["bla", "moa", "win"]));

    let err = j.refused(&["game", "new", GAME, "--players", "3"], None);
    assert!(err.contains("la partie « bataille » existe déjà"), "{err}");
    let err = j.refused(&["game", "start", GAME], None);
    assert!(
        err.contains("il manque des joueurs pour : stark, lannister, baratheon"),
        "{err}"
    );
    let err = j.refused(
        &["orders", "submit", GAME, "stark", "-"],
        Some("A win -> roc\n"),
    );
    assert!(
        err.contains("impossible (donner des ordres) : la partie n'a pas commencé"),
        "{err}"
    );

    for (house, address, secret) in [
        ("stark", "stark@example.org", "loup-gris"),
        ("Lannister", "lannister@example.org", "lion-dor"),
        ("Maison Baratheon", "baratheon@example.org", "cerf-noir"),
    ] {
        let out = j.ok(&["player", "add", GAME, house, address, "--secret", secret]);
        assert!(out.contains(address) && out.contains(secret), "{out}");
    }
    let err = j.refused(
        &[
            "player",
            "add",
            GAME,
            "stark",
            "autre@example.org",
            "--secret",
            "corbeau-blanc",
        ],
        None,
    );
    assert!(err.contains("la maison stark est déjà jouée par stark@example.org"));
    let err = j.refused(
        &[
            "player",
            "add",
            GAME,
            "greyjoy",
            "kraken@example.org",
            "--secret",
            "kraken-noye",
        ],
        None,
    );
    assert!(err.contains("la maison greyjoy ne joue pas dans cette partie"));

    let out = j.ok(&["game", "start", GAME]);
    assert!(out.contains("bataille: partie commencée"), "{out}");
    assert!(
        out.contains(
            "printemps 298, mouvements — date limite : mercredi 25 mars 2026 à 20:00 (Europe/Paris)"
        ),
        "{out}"
    );
    let g = j.show();
    assert_eq!(g["status"], "running");
    assert_eq!(played(&g), 0);
    // Two days from Monday 09:00 in Paris, moved to 20:00: Wednesday 20:00 (UTC+1).
    assert_eq!(g["deadline"], "2026-03-25T19:00:00Z");
    assert_eq!(
        seat(&g, "baratheon")["player"]["address"],
        "baratheon@example.org"
    );
    assert_eq!(seat(&g, "baratheon")["player"]["secret"], "(hidden)");
    let err = j.refused(&["game", "start", GAME], None);
    assert!(err.contains("la partie est en cours"), "{err}");

    // ------------------------------------------------------------- spring 298: orders
    j.at("2026-03-24T09:00:00Z");
    let out = j.submit("stark", "Stark:\nA win -> roc\nA moa H\nF bla H\n");
    assert!(
        out.contains("A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)"),
        "{out}"
    );
    assert!(out.contains("A Moat Cailin (moa) tient"), "{out}");
    // A partial resubmission replaces the order of Moat Cailin only.
    let out = j.ok_with(
        &["orders", "submit", GAME, "stark", "-", "--partial"],
        Some("A moa -> sal\n"),
    );
    assert!(
        out.contains("A Moat Cailin (moa) -> Salvemer (sal)"),
        "{out}"
    );
    assert!(!out.contains("A Moat Cailin (moa) tient"), "{out}");
    assert_eq!(
        orders(&j.show(), "stark"),
        strings(&["A win -> roc", "F bla H", "A moa -> sal"])
    );

    // A typo refuses the whole set, says where and what was meant, and stores nothing.
    let err = j.refused(
        &["orders", "submit", GAME, "lannister", "-"],
        Some("A pie -> Nerra\nF lan H\nA mfm tien\n"),
    );
    assert!(
        err.contains("ordres refusés, rien n'a été enregistré"),
        "{err}"
    );
    assert!(
        err.contains("ligne 1, colonne 10 : « Nerra » ? vouliez-vous dire Néra (Ner) ?"),
        "{err}"
    );
    assert!(err.contains("ligne 3"), "{err}");
    assert!(err.contains("vouliez-vous dire « tient »"), "{err}");
    assert_eq!(orders(&j.show(), "lannister"), Vec::<String>::new());
    // So does an order written for another house.
    let err = j.refused(
        &["orders", "submit", GAME, "lannister", "-"],
        Some("Stark: A win H\n"),
    );
    assert!(
        err.contains("est un ordre pour la maison Stark, pas pour Lannister"),
        "{err}"
    );

    let file = j.root.join("lannister-298.txt");
    fs::write(&file, "Lannister:\nA pie -> ner\nF lan H\nA mfm H\n").unwrap();
    let out = j.ok(&[
        "orders",
        "submit",
        GAME,
        "lannister",
        file.to_str().unwrap(),
        "--phase",
        "printemps 298 mouvements",
    ]);
    assert!(
        out.contains("A Pierremouëtier (pie) -> Néra (ner)"),
        "{out}"
    );
    let out = j.submit("Baratheon", "A boi -> bie\nA che -> pas\nF acc -> boi\n");
    assert!(
        out.contains("F Accalmie (acc) -> Bois-du-Roi (boi)"),
        "{out}"
    );

    // Unknown games and houses, and a guard naming another phase.
    let err = j.refused(&["orders", "show", "batail"], None);
    assert!(
        err.contains("aucune partie « batail » (vouliez-vous dire « bataille » ?)"),
        "{err}"
    );
    let err = j.refused(
        &["orders", "submit", "nulle-part", "stark", "-"],
        Some("A win H\n"),
    );
    assert!(err.contains("aucune partie « nulle-part »"), "{err}");
    let err = j.refused(&["orders", "submit", GAME, "frey", "-"], Some("A win H\n"));
    assert!(
        err.contains("maison inconnue « frey » (maisons : stark, lannister, baratheon)"),
        "{err}"
    );
    let err = j.refused(
        &["orders", "submit", GAME, "tyrell", "-"],
        Some("A hau H\n"),
    );
    assert!(
        err.contains("la maison tyrell ne joue pas dans cette partie"),
        "{err}"
    );
    let err = j.refused(
        &[
            "orders",
            "submit",
            GAME,
            "stark",
            "-",
            "--phase",
            "automne 298 mouvements",
        ],
        Some("A win H\n"),
    );
    assert!(
        err.contains(
            "la phase en cours est « printemps 298 mouvements », pas « automne 298 mouvements » : rien n'a été fait"
        ),
        "{err}"
    );
    let err = j.refused(&["game", "rollback", GAME], None);
    assert!(err.contains("aucune phase jouée : rien à annuler"), "{err}");

    let out = j.ok(&["orders", "show", GAME]);
    assert!(out.contains("stark        3 ordre(s)"), "{out}");
    assert!(out.contains("lannister    3 ordre(s)"), "{out}");

    // ------------------------------------------------ spring 298: processed by `tick`
    // The reminder time (a day before the deadline): everyone has ordered, no reminder;
    // the mails telling the start of the game, queued until now, go to the outbox folder.
    j.at("2026-03-24T19:00:00Z");
    let log = j.log(&["tick"]);
    assert!(log.contains(WRITTEN_3_SENT_3), "{log}");
    assert!(!j.log(&["tick"]).contains("INFO passage"));
    assert_eq!(played(&j.show()), 0);
    // Past the deadline.
    j.at("2026-03-25T19:00:05Z");
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : printemps 298, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "autumn 298 movement");
    assert_eq!(played(&g), 1);
    // Counted from the deadline, not from the tick five seconds later.
    assert_eq!(g["deadline"], "2026-03-27T19:00:00Z");
    assert_eq!(units(&g, "Stark"), strings(&["A roc", "A sal", "F bla"]));
    assert_eq!(
        units(&g, "Lannister"),
        strings(&["A mfm", "A ner", "F lan"])
    );
    assert_eq!(
        units(&g, "Baratheon"),
        strings(&["A bie", "A pas", "F boi"])
    );
    assert_eq!(orders(&g, "stark"), Vec::<String>::new());
    let h = j.json(&["history", GAME, "--json"]);
    assert_eq!(h.as_array().unwrap().len(), 1);
    assert_eq!(h[0]["trigger"], "deadline");
    // Orders for a phase already played.
    let err = j.refused(
        &[
            "orders",
            "submit",
            GAME,
            "stark",
            "-",
            "--phase",
            "printemps 298 mouvements",
        ],
        Some("A roc H\n"),
    );
    assert!(
        err.contains(
            "la phase en cours est « automne 298 mouvements », pas « printemps 298 mouvements »"
        ),
        "{err}"
    );

    // ------------------------------------ autumn 298: a dislodgement, then a late order
    j.at("2026-03-26T20:00:00Z");
    // A day before the deadline: every house is reminded.
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: rappel à stark, lannister, baratheon"),
        "{out}"
    );
    j.submit("stark", "A roc H\nA sal H\nF bla H\n");
    j.submit("lannister", "A ner -> bie\nA mfm S A ner -> bie\nF lan H\n");
    j.submit("baratheon", "A bie H\nA pas -> lst\nF boi H\n");
    j.at("2026-03-27T19:00:00Z");
    let err = j.refused(
        &["orders", "submit", GAME, "baratheon", "-"],
        Some("A bie -> che\nA pas -> lst\nF boi H\n"),
    );
    assert!(
        err.contains("trop tard : la date limite était vendredi 27 mars 2026 à 20:00 (Europe/Paris) ; rien n'a été enregistré"),
        "{err}"
    );
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : automne 298, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "autumn 298 retreat");
    assert_eq!(g["deadline"], "2026-03-28T19:00:00Z");
    assert_eq!(g["deciding"], serde_json::json!(["baratheon"]));
    assert!(
        g["position"]
            .as_str()
            .unwrap()
            .contains("dislodged Baratheon: A bie <- ner"),
        "{}",
        g["position"]
    );
    let out = j.ok(&["history", GAME, "2"]);
    assert!(out.contains("échoué : délogée par Néra (ner)"), "{out}");
    assert!(
        out.contains("peut retraiter vers Chemin des Os (che)"),
        "{out}"
    );

    // ------------------------------------------- autumn 298 retreats: `game process`
    j.at("2026-03-28T09:00:00Z");
    let err = j.refused(&["orders", "submit", GAME, "stark", "-"], Some("A roc H\n"));
    assert!(
        err.contains("la maison stark n'a rien à ordonner dans cette phase"),
        "{err}"
    );
    let err = j.refused(
        &["game", "process", GAME, "--phase", "hiver 298 ajustements"],
        None,
    );
    assert!(
        err.contains(
            "la phase en cours est « automne 298 retraites », pas « hiver 298 ajustements »"
        ),
        "{err}"
    );
    let out = j.submit("baratheon", "A bie R che\n");
    assert!(
        out.contains("A Le Bief (bie) retraite vers Chemin des Os (che)"),
        "{out}"
    );
    // A preview adjudicates and stores nothing.
    let before = j.export();
    let out = j.ok(&["game", "process", GAME, "--preview"]);
    assert!(out.starts_with("APERÇU — rien n'a été enregistré"), "{out}");
    assert!(out.contains("retraite vers Chemin des Os (che)"), "{out}");
    assert_eq!(j.export(), before);

    j.at("2026-03-28T10:00:00Z");
    // The phase as `game show` writes it guards the processing.
    let text = j.ok(&["game", "show", GAME]);
    assert!(
        text.contains("Phase : automne 298, retraites (n° 3)"),
        "{text}"
    );
    assert!(
        text.contains("Date limite : samedi 28 mars 2026 à 20:00 (Europe/Paris)"),
        "{text}"
    );
    let out = j.ok(&["game", "process", GAME, "--phase", "automne 298, retraites"]);
    assert!(
        out.contains("A Le Bief (bie) retraite vers Chemin des Os (che)\n      réussi"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "winter 298 adjustment");
    // One day from Saturday 11:00 (Paris, UTC+1) is Sunday 11:00, after the change to
    // summer time: 20:00 is then 18:00 UTC.
    assert_eq!(g["deadline"], "2026-03-29T18:00:00Z");
    assert_eq!(
        units(&g, "Baratheon"),
        strings(&["A che", "A lst", "F boi"])
    );
    assert_eq!(
        centres(&g, "Stark"),
        strings(&["bla", "moa", "roc", "sal", "win"])
    );
    assert_eq!(
        centres(&g, "Lannister"),
        strings(&["bie", "lan", "mfm", "pie"])
    );
    assert_eq!(
        centres(&g, "Baratheon"),
        strings(&["acc", "boi", "che", "lst"])
    );
    assert_eq!(
        j.json(&["history", GAME, "--json"])[2]["trigger"],
        "moderator"
    );

    // ------------------------------------------------------------ winter 298: builds
    j.at("2026-03-29T09:00:00Z");
    let out = j.submit("stark", "build A win\nconstruire A moa\n");
    assert!(out.contains("construire A Winterfell (win)"), "{out}");
    j.submit("lannister", "construire A pie\n");
    j.submit("baratheon", "build F acc\n");
    j.at("2026-03-29T18:00:00Z");
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : hiver 298, ajustements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "spring 299 movement");
    assert_eq!(g["deadline"], "2026-03-31T18:00:00Z");
    assert_eq!(
        units(&g, "Stark"),
        strings(&["A moa", "A roc", "A sal", "A win", "F bla"])
    );
    assert_eq!(
        units(&g, "Lannister"),
        strings(&["A bie", "A mfm", "A pie", "F lan"])
    );
    assert_eq!(
        units(&g, "Baratheon"),
        strings(&["A che", "A lst", "F acc", "F boi"])
    );

    // ------------------------------------------------ spring 299: process, roll back
    j.at("2026-03-30T09:00:00Z");
    j.submit(
        "stark",
        "A sal -> jum\nA roc H\nF bla H\nA win H\nA moa H\n",
    );
    j.submit(
        "lannister",
        "F lan -> viv\nA bie -> che\nA mfm H\nA pie H\n",
    );
    j.submit("baratheon", "F boi -> bne\nA che H\nA lst H\nF acc H\n");
    j.at("2026-03-30T12:00:00Z");
    let before = j.show();
    let out = j.ok(&["game", "process", GAME]);
    assert!(
        out.contains("A Le Bief (bie) -> Chemin des Os (che)\n      échoué"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "autumn 299 movement");
    assert_eq!(played(&g), 5);
    assert_eq!(
        units(&g, "Lannister"),
        strings(&["A bie", "A mfm", "A pie", "F viv"])
    );

    j.at("2026-03-30T12:05:00Z");
    let err = j.refused(
        &["game", "rollback", GAME, "--phase", "hiver 298 ajustements"],
        None,
    );
    assert!(
        err.contains(
            "la dernière phase jouée est « printemps 299, mouvements », pas « hiver 298 ajustements » : rien n'a été annulé"
        ),
        "{err}"
    );
    let out = j.ok(&[
        "game",
        "rollback",
        GAME,
        "--phase",
        "printemps 299 mouvements",
    ]);
    assert!(
        out.contains("bataille: phase annulée : printemps 299, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "spring 299 movement");
    assert_eq!(played(&g), 4);
    // Everything is back as it was (position, orders, seats), with a new deadline: two
    // days from now, at 20:00 in Paris (UTC+2).
    assert_eq!(without_clock(&g), without_clock(&before));
    assert_eq!(g["deadline"], "2026-04-01T18:00:00Z");
    assert_eq!(g["opened"], "2026-03-30T12:05:00Z");
    assert_eq!(
        orders(&g, "lannister"),
        strings(&["F lan -> viv", "A bie -> che", "A mfm H", "A pie H"])
    );
    let out = j.ok(&["orders", "show", GAME, "lannister"]);
    assert!(
        out.contains("A Le Bief (bie) -> Chemin des Os (che)"),
        "{out}"
    );
    let e = j.export();
    assert_eq!(e["phases"].as_array().unwrap().len(), 4);
    let audit = e["audit"].as_array().unwrap();
    assert_eq!(audit.last().unwrap()["action"], "rollback");
    assert_eq!(
        audit.last().unwrap()["lines"],
        serde_json::json!([{
            "code": "rolled-back",
            "phase": {"season": "spring", "year": 299, "kind": "movement"}
        }])
    );
    let err = j.refused(&["history", GAME, "5"], None);
    assert!(
        err.contains("pas de phase « 5 » dans l'historique de bataille (phases jouées : 1 à 4)"),
        "{err}"
    );
    let err = j.refused(&["history", GAME, "printemps 299"], None);
    assert!(err.contains("phase illisible « printemps 299 »"), "{err}");

    // Lannister changes its mind about Le Bief only; the phase is played again.
    j.ok_with(
        &["orders", "submit", GAME, "lannister", "-", "--partial"],
        Some("A bie -> boi\n"),
    );
    j.at("2026-03-30T12:10:00Z");
    let out = j.ok(&["game", "process", GAME, "--phase", "spring 299 movement"]);
    assert!(
        out.contains("A Le Bief (bie) -> Bois-du-Roi (boi)\n      réussi"),
        "{out}"
    );
    assert!(!out.contains("Chemin des Os (che)\n      échoué"), "{out}");
    let g = j.show();
    assert_eq!(phase(&g), "autumn 299 movement");
    assert_eq!(played(&g), 5);
    assert_eq!(g["deadline"], "2026-04-01T18:00:00Z");
    assert_eq!(
        units(&g, "Lannister"),
        strings(&["A boi", "A mfm", "A pie", "F viv"])
    );
    assert_eq!(
        units(&g, "Baratheon"),
        strings(&["A che", "A lst", "F acc", "F bne"])
    );
    assert_eq!(units(&g, "Stark").len(), 5);
    let e = j.export();
    let phases = e["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 5);
    assert_eq!(phases[4]["processed"], "2026-03-30T12:10:00Z");
    let lannister = phases[4]["orders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o[0] == "lannister")
        .unwrap()[1]
        .clone();
    assert_eq!(
        lannister,
        serde_json::json!(["F lan -> viv", "A mfm H", "A pie H", "A bie -> boi"])
    );
    assert!(phases[4].get("game_before").is_none());
    assert!(
        !e.to_string().contains("argon2"),
        "secrets' hashes in export"
    );

    // --------------------------------- autumn 299: Stark gives no orders, civil disorder
    j.at("2026-03-31T09:00:00Z");
    j.submit("lannister", "F viv -> sal\nA boi H\nA mfm H\nA pie H\n");
    j.submit("baratheon", "F bne H\nA che H\nA lst H\nF acc H\n");
    let out = j.ok(&["orders", "show", GAME]);
    assert!(out.contains("stark        sans ordres"), "{out}");
    j.at("2026-04-01T18:00:01Z");
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : automne 299, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "winter 299 adjustment");
    assert_eq!(g["deadline"], "2026-04-02T18:00:00Z");
    assert_eq!(seat(&g, "stark")["civil_disorder"], true);
    assert_eq!(seat(&g, "stark")["missed"], 1);
    assert_eq!(seat(&g, "lannister")["civil_disorder"], false);
    assert_eq!(
        g["deciding"],
        serde_json::json!(["stark", "lannister", "baratheon"])
    );
    // Salvemer lost: Stark has 4 centres for 5 units, Baratheon 3 for 4.
    assert_eq!(centres(&g, "Stark"), strings(&["bla", "moa", "roc", "win"]));
    assert_eq!(
        centres(&g, "Lannister"),
        strings(&["bie", "boi", "lan", "mfm", "pie", "sal"])
    );
    assert_eq!(centres(&g, "Baratheon"), strings(&["acc", "che", "lst"]));
    let text = j.ok(&["game", "show", GAME]);
    assert!(text.contains("désordre civil"), "{text}");
    let e = j.export();
    assert_eq!(
        e["phases"][5]["civil_disorder"],
        serde_json::json!(["stark"])
    );

    // ------------------ winter 299: a disband, a build, the judge disbands for Stark
    j.at("2026-04-02T09:00:00Z");
    let out = j.submit("baratheon", "dissoudre F bne\n");
    assert!(out.contains("dissoudre F Baie de la Néra (bne)"), "{out}");
    j.submit("lannister", "build F lan\n");
    j.ok(&["player", "ready", GAME, "lannister"]);
    assert_eq!(played(&j.show()), 6);
    j.ok(&["player", "ready", GAME, "baratheon"]);
    // Everyone with orders to give (Stark is in civil disorder) is ready: the next pass
    // of the judge processes the phase before its deadline.
    j.at("2026-04-02T09:01:00Z");
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : hiver 299, ajustements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "spring 300 movement");
    assert_eq!(g["deadline"], "2026-04-04T18:00:00Z");
    assert_eq!(
        units(&g, "Stark"),
        strings(&["A moa", "A roc", "A win", "F bla"])
    );
    assert_eq!(
        units(&g, "Baratheon"),
        strings(&["A che", "A lst", "F acc"])
    );
    assert_eq!(
        units(&g, "Lannister"),
        strings(&["A boi", "A mfm", "A pie", "F lan", "F sal"])
    );
    let record = j.json(&["history", GAME, "7", "--json"]);
    assert_eq!(record["trigger"], "ready");
    let out = j.ok(&["history", GAME, "7"]);
    assert!(
        out.contains("dissoudre A Les Jumeaux (jum) (désordre civil)\n      réussi"),
        "{out}"
    );

    // ------------------------------------------------------- year 300: Lannister wins
    j.at("2026-04-03T09:00:00Z");
    j.submit(
        "lannister",
        "A pie -> har\nF sal H\nA boi H\nA mfm H\nF lan H\n",
    );
    j.submit("baratheon", "A che H\nA lst H\nF acc H\n");
    j.at("2026-04-03T10:00:00Z");
    let out = j.ok(&["game", "process", GAME]);
    assert!(
        out.contains("A Pierremouëtier (pie) -> Harrenhal (har)\n      réussi"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(phase(&g), "autumn 300 movement");
    assert_eq!(g["deadline"], "2026-04-05T18:00:00Z");
    assert_eq!(seat(&g, "stark")["missed"], 3);
    j.at("2026-04-04T10:00:00Z");
    j.submit("lannister", "A har H\n");
    j.submit("baratheon", "A che H\n");
    j.at("2026-04-05T18:00:00Z");
    let out = j.log(&["tick"]);
    assert!(
        out.contains("bataille: traitée : automne 300, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(g["status"], "finished");
    assert_eq!(g["deadline"], Value::Null);
    assert_eq!(
        g["ending"],
        serde_json::json!({"result": "win", "houses": ["lannister"], "reason": "centres:7"})
    );
    assert_eq!(centres(&g, "Lannister").len(), 7);
    let text = j.ok(&["game", "show", GAME]);
    assert!(text.starts_with("bataille"), "{text}");
    assert!(text.contains("(Westeros, 3 joueurs) : terminée"), "{text}");
    // Orders belong to a phase: a finished game shows none.
    assert!(!text.contains("ordres reçus"), "{text}");
    assert!(
        text.contains("Partie terminée : victoire de Lannister (7 centres de ravitaillement)"),
        "{text}"
    );
    let out = j.ok(&["history", GAME, "9"]);
    assert!(
        out.contains("Partie terminée : victoire de Lannister"),
        "{out}"
    );
    let e = j.export();
    assert_eq!(e["game"]["status"], "finished");
    let phases = e["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 9);
    assert_eq!(
        phases[8]["ending"]["houses"],
        serde_json::json!(["lannister"])
    );
    let list = j.ok(&["history", GAME]);
    assert_eq!(list.lines().count(), 9, "{list}");
    assert!(list.contains("  9  automne 300, mouvements"), "{list}");

    // A finished game takes no more orders and no more processing.
    j.at("2026-04-06T10:00:00Z");
    let err = j.refused(
        &["orders", "submit", GAME, "lannister", "-"],
        Some("A har H\n"),
    );
    assert!(err.contains("la partie est terminée"), "{err}");
    let err = j.refused(&["game", "process", GAME], None);
    assert!(
        err.contains("impossible (traiter la phase) : la partie est terminée"),
        "{err}"
    );
    assert!(!j.log(&["tick"]).contains("INFO passage"));
    let err = j.refused(&["game", "show", "batail", "--lang", "en"], None);
    assert!(
        err.contains("no game `batail` (did you mean `bataille`?)"),
        "{err}"
    );

    // The moderator may undo the last phase of a finished game: it runs again.
    j.at("2026-04-06T11:00:00Z");
    let out = j.ok(&["game", "rollback", GAME]);
    assert!(
        out.contains("bataille: phase annulée : automne 300, mouvements"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(g["status"], "running");
    assert_eq!(g["ending"], Value::Null);
    assert_eq!(phase(&g), "autumn 300 movement");
    assert_eq!(played(&g), 8);
    assert_eq!(g["deadline"], "2026-04-08T18:00:00Z");
    assert_eq!(orders(&g, "lannister"), strings(&["A har H"]));
    assert_eq!(centres(&g, "Lannister").len(), 6);
    j.at("2026-04-06T11:05:00Z");
    let out = j.ok(&["game", "process", GAME]);
    assert!(
        out.contains("Partie terminée : victoire de Lannister (7 centres de ravitaillement)"),
        "{out}"
    );
    let g = j.show();
    assert_eq!(g["status"], "finished");
    assert_eq!(g["ending"]["houses"], serde_json::json!(["lannister"]));
    assert_eq!(j.export()["phases"].as_array().unwrap().len(), 9);

    // Goldens: the results of three phases as the moderator reads them again.
    assert_golden(
        "game/bataille-0-printemps-298.txt",
        &j.ok(&["history", GAME, "1"]),
    );
    assert_golden(
        "game/bataille-6-winter-299-en.txt",
        &j.ok(&["history", GAME, "7", "--lang", "en"]),
    );
    assert_golden(
        "game/bataille-8-automne-300.txt",
        &j.ok(&["history", GAME, "automne 300 mouvements"]),
    );
}

/// The results of the phase that ends a game announce the ending, not a next phase that
/// will never be played.
#[test]
fn the_last_results_of_a_finished_game_announce_no_next_phase() {
    let j = CliJudge::new("game-cli", "ending");
    j.at("2026-03-23T08:00:00Z");
    j.ok(&[
        "game",
        "new",
        GAME,
        "--players",
        "3",
        "--victory-centres",
        "4",
    ]);
    for (house, secret) in [
        ("stark", "loup-gris"),
        ("lannister", "lion-dor"),
        ("baratheon", "cerf-noir"),
    ] {
        let address = format!("{house}@example.org");
        j.ok(&["player", "add", GAME, house, &address, "--secret", secret]);
    }
    j.ok(&["game", "start", GAME]);
    j.submit("lannister", "A mfm -> bie\n");
    j.at("2026-03-23T09:00:00Z");
    j.ok(&["game", "process", GAME]);
    j.at("2026-03-23T10:00:00Z");
    let out = j.ok(&["game", "process", GAME]);
    assert!(
        out.contains("Partie terminée : victoire de Lannister (4 centres de ravitaillement)"),
        "{out}"
    );
    assert_eq!(j.show()["status"], "finished");
    for (lang, next) in [("fr", "Prochaine phase"), ("en", "Next phase")] {
        let out = j.ok(&["history", GAME, "2", "--lang", lang]);
        assert!(!out.contains(next), "{out}");
    }
}

#[test]
fn history_draws_a_played_phase_with_its_orders() {
    let j = CliJudge::new("game-cli", "map");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    for house in ["stark", "lannister", "baratheon"] {
        let address = format!("{house}@example.org");
        j.ok(&["player", "add", GAME, house, &address]);
    }
    j.ok(&["game", "start", GAME]);
    j.submit("lannister", "A mfm -> bie\n");
    j.submit("baratheon", "A che -> bie\n");
    j.at("2026-03-23T09:00:00Z");
    j.ok(&["game", "process", GAME]);
    let svg = j.root.join("phase-0.svg");
    let out = j.ok(&["history", GAME, "1", "--map", svg.to_str().expect("utf-8")]);
    assert!(out.contains("mfm"), "the results are still printed: {out}");
    let text = fs::read_to_string(&svg).expect("the SVG");
    assert!(
        text.contains("Printemps 298, mouvements : résultats"),
        "title"
    );
    // The two moves into bie stand off: drawn red, dashed and crossed.
    assert!(text.contains(r##"stroke="#d0021b" stroke-width="3.0" stroke-dasharray"##));
    let png = j.root.join("phase-0.png");
    j.ok(&["history", GAME, "1", "--map", png.to_str().expect("utf-8")]);
    assert!(fs::read(&png).expect("the PNG").starts_with(b"\x89PNG"));
    let err = j.refused(&["history", GAME, "1", "--map", "carte.jpg"], None);
    assert!(err.contains(".svg ou .png"), "{err}");
}

/// The moderator's yes/no settings take their value on the command line, in either
/// language; a missing or unreadable value is refused and changes nothing.
#[test]
fn pictures_and_observers_are_turned_on_and_off_from_the_command_line() {
    let j = CliJudge::new("game-cli", "switches");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    for (command, key) in [("pictures", "pictures"), ("observers", "observers")] {
        for (word, value) in [("non", false), ("yes", true), ("no", false), ("oui", true)] {
            j.ok(&["game", command, GAME, word]);
            assert_eq!(j.show()["settings"][key], value, "{command} {word}");
        }
        // A usage error, said on stderr.
        for args in [
            vec!["game", command, GAME],
            vec!["game", command, GAME, "peut-être"],
        ] {
            let out = j.run(&args, None);
            assert_eq!(out.code, 1, "{args:?}: {}", out.err);
            assert_eq!(j.show()["settings"][key], true, "{args:?}");
        }
    }
}

/// A game's name is one line whatever the moderator types (a line break would forge lines
/// in every mail); players added without a language speak the game's.
#[test]
fn a_game_name_is_one_line_and_players_speak_the_games_language() {
    let j = CliJudge::new("game-cli", "oneline");
    j.ok(&[
        "game",
        "new",
        GAME,
        "--players",
        "3",
        "--game-lang",
        "en",
        "--name",
        "Evil\r\nBcc: victim@example.org\r\n:: phase: x",
    ]);
    let g = j.show();
    assert_eq!(g["name"], "Evil Bcc: victim@example.org :: phase: x");
    j.ok(&["player", "add", GAME, "stark", "stark@example.org"]);
    j.ok(&[
        "player",
        "add",
        GAME,
        "lannister",
        "l@example.org",
        "--player-lang",
        "fr",
    ]);
    let g = j.show();
    assert_eq!(seat(&g, "stark")["player"]["lang"], "en");
    assert_eq!(seat(&g, "lannister")["player"]["lang"], "fr");
}
