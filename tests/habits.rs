//! The habits of players coming from other judges, through the binary as a
//! mail server drives it (`corbeau ingest`, the clock fixed): a draw naming houses, a
//! secret chosen with `SET PASSWORD`, a player's `PREVIEW`, and the commands of other
//! judges in an otherwise good order mail. The answers are golden files in French and
//! English (tests/golden/habits/; CORBEAU_BLESS=1 rewrites them).

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use support::TempDir;
use support::assert_golden;
use support::judge::{mails_to, root};

const GAME: &str = "habitudes";
const NOW: &str = "2026-03-23T08:00:00Z";
const STARK: &str = "stark@example.org";
const LANNISTER: &str = "lannister@example.org";
const BARATHEON: &str = "baratheon@example.org";
const MODERATOR: &str = "mod@example.org";

/// A judge holding a running game of three on Westeros, Stark reading French and
/// Lannister and Baratheon English, with a moderator: its folder and the moderator's
/// secret.
fn judge(name: &str) -> (TempDir, String) {
    let dir = root(&format!("habits-{name}"), "");
    let out = ok(
        &dir,
        &[
            "game",
            "new",
            GAME,
            "--players",
            "3",
            "--moderator",
            MODERATOR,
            "--json",
        ],
    );
    let created: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moderator = created["moderator_secret"].as_str().unwrap().to_string();
    for (house, address, secret, lang) in [
        ("stark", STARK, "loup-gris-7", "fr"),
        ("lannister", LANNISTER, "lion-dor-42", "en"),
        ("baratheon", BARATHEON, "cerf-noir-3", "en"),
    ] {
        ok(
            &dir,
            &[
                "player",
                "add",
                GAME,
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                lang,
            ],
        );
    }
    ok(&dir, &["game", "start", GAME]);
    (dir, moderator)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    support::judge::ok_at(dir, NOW, args)
}

/// Sends a mail to the judge and returns the body of its answer to `from`.
fn send(dir: &Path, from: &str, id: &str, body: &str) -> String {
    support::judge::answer_at(dir, NOW, from, id, body)
}

fn show(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(dir, &["game", "show", GAME, "--json"])).unwrap()
}

// ================================================================= draws naming houses

#[test]
fn a_draw_naming_houses_passes_when_every_survivor_votes_for_it() {
    let (dir, moderator) = judge("draw");
    // Stark votes a draw between Stark and Lannister (in French), Lannister the same set
    // in another order (in English).
    let stark = send(
        &dir,
        STARK,
        "d1@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nNUL Stark Lannister\n"),
    );
    assert_golden("habits/draw-vote-fr.txt", &stark);
    let lannister = send(
        &dir,
        LANNISTER,
        "d2@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nDRAW Lannister, Stark\nSTATUS\n"),
    );
    assert_golden("habits/draw-vote-en.txt", &lannister);
    // A player's STATUS says nothing of the votes; the moderator's shows each.
    assert!(!lannister.contains("votes a draw"), "{lannister}");
    let status = send(
        &dir,
        MODERATOR,
        "d3@example.org",
        &format!("MODERATOR {GAME} {moderator}\nSTATUS\n"),
    );
    assert!(
        status.contains("vote la nulle entre Stark et Lannister"),
        "{status}"
    );
    assert_eq!(show(&dir)["status"], "running");
    // Baratheon, left out of it, votes for it too: it concedes its place and the draw
    // is declared, naming who drew.
    let baratheon = send(
        &dir,
        BARATHEON,
        "d4@example.org",
        &format!("SIGNON {GAME} Baratheon cerf-noir-3\nDRAW Stark Lannister\n"),
    );
    assert_golden("habits/draw-declared-en.txt", &baratheon);
    let game = show(&dir);
    assert_eq!(game["status"], "finished");
    assert_eq!(
        game["ending"],
        serde_json::json!({"result": "draw", "houses": ["stark", "lannister"]})
    );
}

#[test]
fn a_named_draw_declared_by_a_french_vote_is_answered_in_french() {
    let (dir, _) = judge("draw-fr");
    for (from, id, signon) in [
        (
            LANNISTER,
            "f1@example.org",
            "SIGNON {GAME} Lannister lion-dor-42",
        ),
        (
            BARATHEON,
            "f2@example.org",
            "SIGNON {GAME} Baratheon cerf-noir-3",
        ),
    ] {
        let signon = signon.replace("{GAME}", GAME);
        send(&dir, from, id, &format!("{signon}\nDRAW Stark Lannister\n"));
    }
    let stark = send(
        &dir,
        STARK,
        "f3@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nNUL Lannister Stark\n"),
    );
    assert_golden("habits/draw-declared-fr.txt", &stark);
    assert_eq!(show(&dir)["status"], "finished");
}

#[test]
fn a_draw_naming_a_house_out_of_it_or_not_every_survivor_does_not_pass() {
    let (dir, _) = judge("draw-split");
    send(
        &dir,
        STARK,
        "s1@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nNUL Stark Lannister\n"),
    );
    send(
        &dir,
        LANNISTER,
        "s2@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nDRAW\n"),
    );
    // Naming every survivor is the plain draw; two sets differ: no draw.
    let reply = send(
        &dir,
        BARATHEON,
        "s3@example.org",
        &format!("SIGNON {GAME} Baratheon cerf-noir-3\nDRAW Baratheon Stark Lannister\n"),
    );
    assert!(
        reply.contains("draw (these houses are all those still in the game)"),
        "{reply}"
    );
    assert_eq!(show(&dir)["status"], "running");
    // A house that is not in this game shares no draw.
    let reply = send(
        &dir,
        BARATHEON,
        "s4@example.org",
        &format!("SIGNON {GAME} Baratheon cerf-noir-3\nDRAW Baratheon Martell\n"),
    );
    assert!(reply.contains("✗"), "{reply}");
    assert_eq!(show(&dir)["status"], "running");
}

// ======================================================================= SET PASSWORD

#[test]
fn set_password_changes_the_secret_and_never_repeats_it() {
    let (dir, moderator) = judge("password");
    // Too easy to guess: refused with the rule, and the old secret still works.
    let weak = send(
        &dir,
        LANNISTER,
        "p1@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nSET PASSWORD lannister1\n"),
    );
    assert!(weak.contains("at least 8 characters"), "{weak}");
    let reply = send(
        &dir,
        LANNISTER,
        "p2@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nSET PASSWORD Casterly-Rock-9\n"),
    );
    assert_golden("habits/password-en.txt", &reply);
    let reply = send(
        &dir,
        STARK,
        "p3@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nRÉGLER MOT DE PASSE Hiver-Vient-12\n"),
    );
    assert_golden("habits/password-fr.txt", &reply);
    // The old secret fails, the new one signs on.
    let old = send(
        &dir,
        LANNISTER,
        "p4@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nSTATUS\n"),
    );
    assert!(old.contains("✗"), "{old}");
    assert!(!old.contains("Signed on"), "{old}");
    let new = send(
        &dir,
        LANNISTER,
        "p5@example.org",
        &format!("SIGNON {GAME} Lannister Casterly-Rock-9\nSTATUS\n"),
    );
    assert!(new.contains("✓ Signed on: Lannister"), "{new}");
    // The moderator's own secret, when signed on as the moderator.
    send(
        &dir,
        MODERATOR,
        "p6@example.org",
        &format!("MODERATOR {GAME} {moderator}\nSET PASSWORD Maester-Aemon-3\n"),
    );
    let reply = send(
        &dir,
        MODERATOR,
        "p7@example.org",
        &format!("MODERATEUR {GAME} Maester-Aemon-3\nETAT\n"),
    );
    assert!(reply.contains("✓ Identifié(e) comme modérateur"), "{reply}");
    // No mail the judge wrote holds a chosen secret.
    for to in [LANNISTER, STARK, MODERATOR] {
        for m in mails_to(&dir, to) {
            for secret in ["Casterly-Rock-9", "Hiver-Vient-12", "Maester-Aemon-3"] {
                assert!(!m.contains(secret), "{secret} in {m}");
            }
        }
    }
}

// =================================================================== a player's PREVIEW

#[test]
fn a_players_preview_tries_its_own_orders_only_and_stores_nothing() {
    let (dir, _) = judge("preview");
    let before = show(&dir);
    // Lannister's orders are in: Stark's preview neither uses nor shows them.
    send(
        &dir,
        LANNISTER,
        "v1@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nA pie -> ner\n"),
    );
    let stark = send(
        &dir,
        STARK,
        "v2@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nA win -> cno\nAPERÇU\n"),
    );
    assert_golden("habits/preview-fr.txt", &stark);
    assert!(!stark.contains("Lannister"), "{stark}");
    let lannister = send(
        &dir,
        LANNISTER,
        "v3@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nPREVIEW\n"),
    );
    assert_golden("habits/preview-en.txt", &lannister);
    assert!(!lannister.contains("Stark"), "{lannister}");
    // Nothing was processed or stored.
    let game = show(&dir);
    assert_eq!(game["played"], 0, "{game}");
    assert_eq!(game["phase"], before["phase"], "{game}");
    assert_eq!(game["position"], before["position"], "{game}");
}

// ============================================================ commands of other judges

#[test]
fn commands_of_other_judges_are_answered_and_the_orders_around_them_taken() {
    let (dir, _) = judge("foreign");
    let reply = send(
        &dir,
        LANNISTER,
        "f1@example.org",
        &format!(
            "SIGNON {GAME} Lannister lion-dor-42\nA pie -> ner\nSET NOWAIT\nWHOIS jaime\n\
             GET info\nF lan H\nSET PREFERENCE stark\n"
        ),
    );
    assert_golden("habits/foreign-en.txt", &reply);
    let game = show(&dir);
    let seat = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "lannister")
        .unwrap();
    assert_eq!(seat["ready"], true, "{seat}");
    assert_eq!(seat["orders"].as_array().unwrap().len(), 2, "{seat}");
    let reply = send(
        &dir,
        STARK,
        "f2@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nA win -> cno\nMANUAL\nSET WAIT\nF bla H\n"),
    );
    assert_golden("habits/foreign-fr.txt", &reply);
}

#[test]
fn a_misspelt_province_is_suggested_in_the_readers_language() {
    let (dir, _) = judge("suggest");
    let english = send(
        &dir,
        LANNISTER,
        "m1@example.org",
        &format!("SIGNON {GAME} Lannister lion-dor-42\nA pie -> Kingswod\n"),
    );
    let french = send(
        &dir,
        STARK,
        "m2@example.org",
        &format!("PARTIE {GAME} Stark loup-gris-7\nA win -> Chateau-Noire\n"),
    );
    assert!(english.contains("did you mean"), "{english}");
    assert!(!english.contains("Bois-du-Roi"), "{english}");
    assert!(english.contains("Kingswood"), "{english}");
    assert!(french.contains("Château-Noir (Cno)"), "{french}");
}

#[test]
fn the_command_line_votes_a_draw_naming_houses_as_the_mail_does() {
    let (dir, _) = judge("cli-draw");
    ok(
        &dir,
        &[
            "player",
            "vote",
            GAME,
            "stark",
            "draw",
            "stark",
            "lannister",
        ],
    );
    let game = show(&dir);
    let stark = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "stark")
        .unwrap();
    assert_eq!(
        stark["vote"],
        serde_json::json!({"vote": "draw-with", "house": ["stark", "lannister"]})
    );
    let audit = ok(&dir, &["game", "audit", GAME, "--lang", "en"]);
    assert!(
        audit.contains("stark: votes a draw between stark and lannister"),
        "{audit}"
    );
}
