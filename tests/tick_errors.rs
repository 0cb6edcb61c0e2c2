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

/// The moderator's shell, on a data folder of its own.
struct Judge(CliJudge);

impl std::ops::Deref for Judge {
    type Target = CliJudge;
    fn deref(&self) -> &CliJudge {
        &self.0
    }
}

impl Judge {
    fn new(name: &str) -> Judge {
        Judge(CliJudge::new("tick-errors", name))
    }

    fn run(&self, now: &str, args: &[&str]) -> Output {
        self.run_at(now, args)
    }

    /// A three-player game, started.
    fn started(&self, game: &str, variant: &str) {
        self.ok(&["game", "new", game, "--players", "3", "--variant", variant]);
        for house in ["stark", "lannister", "baratheon"] {
            let address = format!("{house}-{game}@example.org");
            self.ok(&["player", "add", game, house, &address]);
        }
        self.ok(&["game", "start", game]);
    }

    /// The keys of the store's variant contents.
    fn variant_keys(&self) -> BTreeSet<Vec<u8>> {
        let db = sled::open(self.data()).unwrap();
        let tree = db.open_tree("variants").unwrap();
        tree.iter().keys().map(|k| k.unwrap().to_vec()).collect()
    }

    fn forget_variants(&self, keys: &BTreeSet<Vec<u8>>) {
        let db = sled::open(self.data()).unwrap();
        let tree = db.open_tree("variants").unwrap();
        for key in keys {
            tree.remove(key).unwrap();
        }
        db.flush().unwrap();
    }

    /// The game as the store keeps it (bytes): it cannot be exported without its variant.
    fn stored(&self, game: &str) -> Vec<u8> {
        let db = sled::open(self.data()).unwrap();
        let tree = db.open_tree("games").unwrap();
        tree.get(game).unwrap().unwrap().to_vec()
    }

    /// The mails written to the outbox folder, as text.
    fn sent(&self) -> Vec<String> {
        let Ok(entries) = fs::read_dir(self.data().join("outbox")) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| fs::read_to_string(p).unwrap())
            .collect()
    }
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `perdue` plays a copy of Westeros whose content the store lost; `saine` plays
/// Westeros.
fn broken(name: &str) -> Judge {
    let j = lost_before_mails(name);
    // The welcome and start mails of `saine` written; those of `perdue` held.
    j.run(BEFORE, &["tick"]);
    j
}

/// The same, the variant lost before any mail of either game was written.
fn lost_before_mails(name: &str) -> Judge {
    let j = Judge::new(name);
    let westeros = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/westeros.toml");
    let copy = format!("{}\n# a copy\n", fs::read_to_string(westeros).unwrap());
    fs::write(j.root.join("copie.toml"), copy).unwrap();
    j.started("perdue", "copie.toml");
    let lost = j.variant_keys();
    j.started("saine", "westeros");
    assert_eq!(j.variant_keys().len(), 2);
    j.forget_variants(&lost);
    j
}

#[test]
fn the_notices_of_a_game_that_cannot_be_read_wait_and_hold_back_no_other_game() {
    let j = lost_before_mails("notices");
    let out = j.run(BEFORE, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("perdue : partie non traitée, laissée telle quelle : "),
        "{stdout}"
    );
    let sent = j.sent();
    for house in ["stark", "lannister", "baratheon"] {
        let to = format!("To: {house}-saine@example.org");
        assert!(sent.iter().any(|m| m.contains(&to)), "{to}: {sent:#?}");
    }
    assert!(
        !sent.iter().any(|m| m.contains("-perdue@example.org")),
        "{sent:#?}"
    );
    // Still waiting at the next pass, still reported, nothing sent twice.
    let again = j.run(BEFORE, &["tick"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again).0.contains("perdue : partie non traitée"));
    assert_eq!(j.sent().len(), sent.len());
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_french_and_the_others_go_on() {
    let j = broken("fr");
    let before = j.stored("perdue");
    let out = j.run(AFTER, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("perdue : partie non traitée, laissée telle quelle : "),
        "{stdout}"
    );
    assert!(!stdout.contains("could not be handled"), "{stdout}");
    assert!(stdout.contains("saine: traitée : "), "{stdout}");
    assert!(stderr.contains("1 erreur(s)"), "{stderr}");
    assert_eq!(j.stored("perdue"), before, "the failed game changed");
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_english() {
    let j = broken("en");
    let out = j.run(AFTER, &["tick", "--lang", "en"]);
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
    let out = j.run(AFTER, &["tick", "--lang", "en", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = value["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{value}");
    assert_eq!(errors[0][0], "perdue");
}
