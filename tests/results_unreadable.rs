//! Stored results that do not read as the results format (a record missing a field, as an
//! older or damaged store may hold): the game's history still opens, the phase says its
//! results cannot be shown and what is wrong, the other phases read as usual, the game
//! plays on, and nothing rewrites what was stored (docs/results-format.md, "Decisions").
//!
//! Made from a copy of the v1 fixture (`tests/fixtures/store-v1`), migrated by a first
//! command, then damaged with sled directly, no corbeau running.

#![allow(clippy::unwrap_used)]

mod support;
use support::copy_dir;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

const NOW: &str = "2026-03-24T14:00:00Z";
const GAME: &str = "bataille";
/// The phase whose results are damaged: printemps 298, mouvements.
const DAMAGED: u32 = 0;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v1")
}

struct Copy {
    root: PathBuf,
}

impl Copy {
    fn new() -> Copy {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let root = std::env::temp_dir().join(format!(
            "corbeau-results-unreadable-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&root);
        for part in ["data", "variants"] {
            copy_dir(&fixture().join(part), &root.join(part));
        }
        fs::copy(fixture().join("corbeau.toml"), root.join("corbeau.toml")).unwrap();
        Copy { root }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .current_dir(&self.root)
            .env("CORBEAU_CONFIG", self.root.join("corbeau.toml"))
            .env("CORBEAU_DATA", self.root.join("data"))
            .env("CORBEAU_NOW", NOW)
            .env_remove("CORBEAU_LANG")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// The stored record of a phase, as JSON (sled's `phases` tree: game id, 0, index).
    fn stored_record(&self, index: u32) -> Value {
        let db = sled::open(self.root.join("data")).unwrap();
        let bytes = db.open_tree("phases").unwrap().get(key(index)).unwrap();
        serde_json::from_slice(&bytes.unwrap()).unwrap()
    }

    /// Removes one field of a phase's stored results.
    fn damage(&self, index: u32, field: &str) -> Value {
        let db = sled::open(self.root.join("data")).unwrap();
        let phases = db.open_tree("phases").unwrap();
        let mut record: Value =
            serde_json::from_slice(&phases.get(key(index)).unwrap().unwrap()).unwrap();
        let results = record["results"].as_object_mut().unwrap();
        assert!(results.remove(field).is_some(), "{field}");
        phases
            .insert(key(index), serde_json::to_vec(&record).unwrap())
            .unwrap();
        db.flush().unwrap();
        record["results"].clone()
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn key(index: u32) -> Vec<u8> {
    let mut k = GAME.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&index.to_be_bytes());
    k
}

#[test]
fn a_phase_whose_results_do_not_read_is_said_and_the_history_still_opens() {
    let copy = Copy::new();
    // The first command migrates the v1 store; then its results are damaged.
    let list = copy.ok(&["history", GAME]);
    let damaged = copy.damage(DAMAGED, "counts");

    // The list of phases is the same.
    assert_eq!(list, copy.ok(&["history", GAME]));

    // The damaged phase says what is missing, and where the stored results are.
    let text = copy.ok(&["history", GAME, &DAMAGED.to_string()]);
    assert!(
        text.contains("ne peuvent pas être montrés") && text.contains("`counts`"),
        "{text}"
    );
    assert!(
        text.contains(&format!("corbeau history {GAME} {DAMAGED} --json")),
        "{text}"
    );
    let out = copy.run(&["history", GAME, &DAMAGED.to_string(), "--lang", "en"]);
    let en = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && en.contains("cannot be shown") && en.contains("`counts`"),
        "{en}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // `--json` shows them as stored: nothing was added, nothing lost.
    let json: Value =
        serde_json::from_str(&copy.ok(&["history", GAME, &DAMAGED.to_string(), "--json"])).unwrap();
    assert_eq!(json["results"], damaged);

    // The other phases read as usual.
    let next = copy.ok(&["history", GAME, "1"]);
    assert!(next.starts_with(":: corbeau: "), "{next}");
    assert!(!next.contains("ne peuvent pas"), "{next}");

    // The game plays on, the site publishes (the phase says it in its place), and the
    // damaged record is left as it was stored.
    let processed = copy.ok(&["game", "process", GAME]);
    assert!(processed.contains(":: corbeau: "), "{processed}");
    let site = copy.root.join("site");
    copy.ok(&["publish", site.to_str().unwrap()]);
    let page = fs::read_to_string(site.join("games").join(GAME).join("index.html")).unwrap();
    assert!(page.contains("ne peuvent pas être montrés"), "{page}");
    assert_eq!(copy.stored_record(DAMAGED)["results"], damaged);
}
