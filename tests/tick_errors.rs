//! A game that `corbeau tick` cannot process is reported in the command line's language
//! (`clock.game_failed`), changes nothing, and does not stop the other games: here a game
//! whose pinned variant's content has gone from the store.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{SystemTime, UNIX_EPOCH};

const BEFORE: &str = "2026-03-23T08:00:00Z";
/// After the first deadline of a game started at `BEFORE`.
const AFTER: &str = "2026-03-27T08:00:00Z";

struct Judge {
    root: PathBuf,
}

impl Judge {
    fn new(name: &str) -> Judge {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let root = std::env::temp_dir().join(format!(
            "corbeau-tick-errors-{name}-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        Judge { root }
    }

    fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    fn run(&self, now: &str, args: &[&str]) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .arg("--data")
            .arg(self.data())
            .current_dir(&self.root)
            .env("CORBEAU_NOW", now)
            .env_remove("CORBEAU_LANG")
            .env_remove("CORBEAU_CONFIG")
            .env_remove("CORBEAU_DATA")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        out
    }

    #[track_caller]
    fn ok(&self, args: &[&str]) {
        let out = self.run(BEFORE, args);
        assert!(out.status.success(), "{args:?}: {out:?}");
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

    fn export(&self, game: &str) -> String {
        let out = self.run(BEFORE, &["export", game]);
        String::from_utf8(out.stdout).unwrap()
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
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
    let j = Judge::new(name);
    let westeros = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/westeros.toml");
    let copy = format!("{}\n# a copy\n", fs::read_to_string(westeros).unwrap());
    fs::write(j.root.join("copie.toml"), copy).unwrap();
    j.started("perdue", "copie.toml");
    let lost = j.variant_keys();
    j.started("saine", "westeros");
    assert_eq!(j.variant_keys().len(), 2);
    // The welcome and start mails written while the content was there (writing a
    // notice of a game whose variant is lost stops the whole pass: not this test's case).
    j.ok(&["tick"]);
    j.forget_variants(&lost);
    j
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_french_and_the_others_go_on() {
    let j = broken("fr");
    let before = j.export("perdue");
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
    assert_eq!(j.export("perdue"), before, "the failed game changed");
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
