//! `player add`/`player replace`: the player's language is `--player-lang` (default: the
//! game's); the global `--lang` is only the language the command answers the moderator
//! in. Each is checked apart from the other, through the binary.

#![allow(clippy::unwrap_used)]

mod support;
use support::cli::CliJudge;

use serde_json::Value;

const GAME: &str = "langues";

/// The language of the player of `house`.
fn player_lang(j: &CliJudge, house: &str) -> String {
    let g: Value = serde_json::from_str(&j.ok(&["game", "show", GAME, "--json"])).unwrap();
    let seat = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == house)
        .unwrap();
    seat["player"]["lang"].as_str().unwrap().to_string()
}

/// A French game (the default), its moderator answered in French unless `--lang`.
fn french_game(name: &str) -> CliJudge {
    let j = CliJudge::new("player-lang", name);
    j.ok(&["game", "new", GAME, "--players", "3"]);
    j
}

#[test]
fn player_lang_sets_the_player_and_leaves_the_moderators_answer_french() {
    let j = french_game("player");
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "stark",
        "stark@example.org",
        "--player-lang",
        "en",
    ]);
    assert!(out.contains("langue du joueur : anglais"), "{out}");
    assert!(out.contains("secret du joueur"), "{out}");
    assert!(!out.contains("player's"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "en");
}

#[test]
fn lang_sets_the_answer_only_and_the_player_speaks_the_games_language() {
    let j = french_game("answer");
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "stark",
        "stark@example.org",
        "--lang",
        "en",
    ]);
    assert!(out.contains("player's language: French"), "{out}");
    assert!(out.contains("player's secret"), "{out}");
    assert!(!out.contains("joueur"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "fr");
    // Both at once, each its own.
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "lannister",
        "lannister@example.org",
        "--lang",
        "en",
        "--player-lang",
        "en",
    ]);
    assert!(out.contains("player's language: English"), "{out}");
    assert_eq!(player_lang(&j, "lannister"), "en");
    let json: Value = serde_json::from_str(&j.ok(&[
        "player",
        "add",
        GAME,
        "baratheon",
        "baratheon@example.org",
        "--player-lang",
        "en",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["lang"], "en");
}

#[test]
fn a_replacement_is_welcomed_in_its_own_language_and_the_moderator_in_theirs() {
    let j = french_game("replace");
    for house in ["stark", "lannister", "baratheon"] {
        j.ok(&[
            "player",
            "add",
            GAME,
            house,
            &format!("{house}@example.org"),
        ]);
    }
    j.ok(&["game", "start", GAME]);
    j.ok(&["tick"]);
    let before = j.outbox().len();
    let out = j.ok(&[
        "player",
        "replace",
        GAME,
        "stark",
        "arya@example.org",
        "--player-lang",
        "en",
        "--welcome",
    ]);
    assert!(out.contains("langue du joueur : anglais"), "{out}");
    assert!(out.contains("envoyé dans son courrier d'accueil"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "en");
    j.ok(&["tick"]);
    let sent = j.outbox();
    assert!(sent.len() > before);
    let to_arya: Vec<&String> = sent
        .iter()
        .filter(|m| m.contains("To: arya@example.org\r\n"))
        .collect();
    let welcome: Vec<&&String> = to_arya
        .iter()
        .filter(|m| m.contains(":: corbeau: welcome"))
        .collect();
    assert_eq!(welcome.len(), 1, "{} mails to arya", to_arya.len());
    assert!(
        welcome[0].contains("\r\nHello,\r\n"),
        "the welcome is not in English"
    );
    assert!(!welcome[0].contains("Bonjour"), "the welcome is in French");
}

/// The mails of `CliJudge::outbox` sent to `address` whose body holds `mark`.
fn mails_to<'a>(sent: &'a [String], address: &str, mark: &str) -> Vec<&'a String> {
    sent.iter()
        .filter(|m| m.contains(&format!("To: {address}\r\n")) && m.contains(mark))
        .collect()
}

/// On the classic map the powers and the variant are named in French in the
/// file and the provinces in English; each reader gets all of them in their own language,
/// in the welcome, the results and `game show`.
#[test]
fn the_classic_map_speaks_the_readers_language_whole() {
    let j = CliJudge::new("player-lang", "classic");
    j.ok(&["game", "new", "europe", "--variant", "classique"]);
    for house in [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ] {
        let lang = if house == "france" { "fr" } else { "en" };
        j.ok(&[
            "player",
            "add",
            "europe",
            house,
            &format!("{house}@example.org"),
            "--player-lang",
            lang,
            "--welcome",
        ]);
    }
    j.ok(&["game", "start", "europe"]);
    j.ok(&["game", "process", "europe"]);
    j.ok(&["tick"]);
    let sent = j.outbox();

    let welcome = mails_to(&sent, "england@example.org", ":: corbeau: welcome");
    assert_eq!(welcome.len(), 1);
    let welcome = welcome[0];
    assert!(welcome.contains("Welcome: you play England"), "{welcome}");
    assert!(welcome.contains("(Diplomacy (classic map))"), "{welcome}");
    assert!(welcome.contains("F London (lon)"), "{welcome}");
    for french in ["Angleterre", "Diplomatie", "Londres"] {
        assert!(!welcome.contains(french), "{french} in: {welcome}");
    }
    let results = mails_to(&sent, "england@example.org", ":: corbeau: classique /");
    assert_eq!(results.len(), 1);
    let results = results[0];
    assert!(results.contains("\r\nAustria\r\n"), "{results}");
    assert!(
        results.contains("Diplomacy (classic map) — results"),
        "{results}"
    );
    for french in ["Autriche", "Angleterre", "Diplomatie"] {
        assert!(!results.contains(french), "{french} in: {results}");
    }

    let bienvenue = mails_to(&sent, "france@example.org", ":: corbeau: welcome");
    assert_eq!(bienvenue.len(), 1);
    let bienvenue = bienvenue[0];
    assert!(
        bienvenue.contains("(Diplomatie (carte classique))"),
        "{bienvenue}"
    );
    assert!(bienvenue.contains("A Marseille (mar)"), "{bienvenue}");
    assert!(!bienvenue.contains("Marseilles"), "{bienvenue}");
    let resultats = mails_to(&sent, "france@example.org", ":: corbeau: classique /");
    assert_eq!(resultats.len(), 1);
    let resultats = resultats[0];
    assert!(resultats.contains("F Londres (lon)"), "{resultats}");
    assert!(resultats.contains("\r\nAngleterre\r\n"), "{resultats}");
    assert!(!resultats.contains("London"), "{resultats}");

    let show = j.ok(&["game", "show", "europe", "--lang", "en"]);
    assert!(
        show.contains("(Diplomacy (classic map), 7 players)"),
        "{show}"
    );
    assert!(show.contains("  England "), "{show}");
    assert!(!show.contains("Angleterre"), "{show}");
    let montre = j.ok(&["game", "show", "europe", "--lang", "fr"]);
    assert!(montre.contains("  Angleterre "), "{montre}");
}
