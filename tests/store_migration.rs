//! A store written by the release of schema 1 (`tests/fixtures/store-v1`, made by its
//! `make.sh` with the binary of commit dbbd48b) opens with this corbeau, and its games go
//! on: processing the next phase of each running game gives what the v1 release gave
//! (`tests/fixtures/store-v1/golden/`, written by v1 itself: never blessed from here).
//!
//! This guards every step of the typed-core redesign (issue 12): whatever the store's
//! schema becomes, a v1 store must migrate and play on.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use pretty_assertions::assert_eq;

/// The running games of the fixture, whose next phase the goldens hold.
const RUNNING: [&str; 4] = ["bataille", "retraite", "classique", "perso"];

/// The time the goldens were made at (make.sh's last `at`).
const NOW: &str = "2026-03-24T14:00:00Z";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v1")
}

fn golden(name: &str) -> String {
    let path = fixture().join("golden").join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of the fixture (store, configuration, variant file) in a directory of its own.
struct Copy {
    root: PathBuf,
}

impl Copy {
    fn new(name: &str) -> Copy {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let root = std::env::temp_dir().join(format!(
            "corbeau-store-v1-{name}-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&root);
        for part in ["data", "variants"] {
            copy_dir(&fixture().join(part), &root.join(part));
        }
        fs::copy(fixture().join("corbeau.toml"), root.join("corbeau.toml")).unwrap();
        Copy { root }
    }

    /// Runs corbeau in the copy's directory (so the relative variant path of `perso`
    /// resolves as it did when the game was made), at the goldens' time.
    fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .current_dir(dir)
            .env("CORBEAU_CONFIG", self.root.join("corbeau.toml"))
            .env("CORBEAU_DATA", self.root.join("data"))
            .env("CORBEAU_NOW", NOW)
            .env_remove("CORBEAU_LANG")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.root, args)
    }

    /// What a command that must succeed printed on stdout.
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
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

#[test]
fn a_v1_store_lists_and_shows_its_games_as_v1_did() {
    let copy = Copy::new("list");
    assert_eq!(golden("list.txt"), copy.ok(&["game", "list"]));
    assert_eq!(golden("list.json"), copy.ok(&["game", "list", "--json"]));
    for game in RUNNING {
        assert_eq!(
            golden(&format!("{game}.show.txt")),
            copy.ok(&["game", "show", game]),
            "{game}"
        );
    }
    // The other states: forming, paused, ended.
    let list = copy.ok(&["game", "list"]);
    for (game, state) in [
        ("formation", "en formation"),
        ("pause", "en pause"),
        ("finie", "terminée"),
    ] {
        assert!(
            list.lines().any(|l| l.starts_with(game) && l.contains(state)),
            "{list}"
        );
    }
    // The mails the failed transport left in the outbox are still there.
    let outbox = copy.ok(&["outbox"]);
    assert!(outbox.contains("[bataille] Presse de Stark"), "{outbox}");
}

#[test]
fn a_v1_store_plays_its_next_phases_as_v1_did() {
    let copy = Copy::new("play");
    for game in RUNNING {
        assert_eq!(
            golden(&format!("{game}.process.txt")),
            copy.ok(&["game", "process", game]),
            "{game}: game process"
        );
        assert_eq!(
            golden(&format!("{game}.history.txt")),
            copy.ok(&["history", game]),
            "{game}: history"
        );
        assert_eq!(
            golden(&format!("{game}.history.json")),
            copy.ok(&["history", game, "--json"]),
            "{game}: history --json"
        );
        assert_eq!(
            golden(&format!("{game}.after.json")),
            copy.ok(&["game", "show", game, "--json"]),
            "{game}: game show --json"
        );
    }
    assert_eq!(golden("list.after.txt"), copy.ok(&["game", "list"]));
    // The audit trail of a game made by mail and by command reads.
    let audit = copy.ok(&["game", "audit", "bataille"]);
    assert!(audit.contains("process"), "{audit}");
}
