//! A game that `corbeau tick` cannot process is reported in the command line's language
//! (`clock.game_failed`), changes nothing, and does not stop the other games: here a game
//! whose pinned variant's content has gone from the store.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Output;

mod support;
use support::cli::CliJudge;

const BEFORE: &str = support::cli::NOW;
/// After the first deadline of a game started at `BEFORE`.
const AFTER: &str = "2026-03-27T08:00:00Z";

/// The keys of the store's variant contents.
fn variant_keys(j: &CliJudge) -> BTreeSet<Vec<u8>> {
    let db = sled::open(j.data()).unwrap();
    let tree = db.open_tree("variants").unwrap();
    tree.iter().keys().map(|k| k.unwrap().to_vec()).collect()
}

fn forget_variants(j: &CliJudge, keys: &BTreeSet<Vec<u8>>) {
    let db = sled::open(j.data()).unwrap();
    let tree = db.open_tree("variants").unwrap();
    for key in keys {
        tree.remove(key).unwrap();
    }
    db.flush().unwrap();
}

/// The game as the store keeps it (bytes): it cannot be exported without its variant.
fn stored(j: &CliJudge, game: &str) -> Vec<u8> {
    let db = sled::open(j.data()).unwrap();
    let tree = db.open_tree("games").unwrap();
    tree.get(game).unwrap().unwrap().to_vec()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `perdue` plays a copy of Westeros whose content the store lost; `saine` plays
/// Westeros.
fn broken(name: &str) -> CliJudge {
    let j = lost_before_mails(name);
    // The welcome and start mails of `saine` written; those of `perdue` held.
    j.run_at(BEFORE, &["tick"]);
    j
}

/// The same, the variant lost before any mail of either game was written.
fn lost_before_mails(name: &str) -> CliJudge {
    let j = CliJudge::new("tick-errors", name);
    let westeros = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/westeros.toml");
    let copy = format!("{}\n# a copy\n", fs::read_to_string(westeros).unwrap());
    fs::write(j.root.join("copie.toml"), copy).unwrap();
    j.started("perdue", "copie.toml");
    let lost = variant_keys(&j);
    j.started("saine", "westeros");
    assert_eq!(variant_keys(&j).len(), 2);
    forget_variants(&j, &lost);
    j
}

#[test]
fn the_notices_of_a_game_that_cannot_be_read_wait_and_hold_back_no_other_game() {
    let j = lost_before_mails("notices");
    let out = j.run_at(BEFORE, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("perdue : partie non traitée, laissée telle quelle : "),
        "{stdout}"
    );
    let sent = j.outbox();
    for house in ["stark", "lannister", "baratheon"] {
        let to = format!("To: {house}-saine@example.org");
        assert!(sent.iter().any(|m| m.contains(&to)), "{to}: {sent:#?}");
    }
    assert!(
        !sent.iter().any(|m| m.contains("-perdue@example.org")),
        "{sent:#?}"
    );
    // Still waiting at the next pass, still reported, nothing sent twice.
    let again = j.run_at(BEFORE, &["tick"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again).0.contains("perdue : partie non traitée"));
    assert_eq!(j.outbox().len(), sent.len());
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_french_and_the_others_go_on() {
    let j = broken("fr");
    let before = stored(&j, "perdue");
    let out = j.run_at(AFTER, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("perdue : partie non traitée, laissée telle quelle : "),
        "{stdout}"
    );
    assert!(!stdout.contains("could not be handled"), "{stdout}");
    assert!(stdout.contains("saine: traitée : "), "{stdout}");
    assert!(stderr.contains("1 erreur(s)"), "{stderr}");
    assert_eq!(stored(&j, "perdue"), before, "the failed game changed");
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_english() {
    let j = broken("en");
    let out = j.run_at(AFTER, &["tick", "--lang", "en"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("perdue: could not be handled, left as it was: "),
        "{stdout}"
    );
    assert!(!stdout.contains("partie non traitée"), "{stdout}");
    assert!(stdout.contains("saine: processed: "), "{stdout}");
    // As JSON, the message is in the same language.
    let j = broken("json");
    let out = j.run_at(AFTER, &["tick", "--lang", "en", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = value["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{value}");
    assert_eq!(errors[0][0], "perdue");
}
