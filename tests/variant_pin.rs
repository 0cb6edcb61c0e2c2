//! A game keeps its variant's content from its creation: the file it was made with may be
//! edited, moved or deleted, or the process run from another directory, and the game
//! goes on unchanged. `game variant` moves it to a new version, checked for
//! compatibility and audited (docs/storage.md, "Pinned variants"; docs/games.md, "Moderator actions").

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

const WESTEROS: &str = include_str!("../games/westeros.toml");
const CLASSIQUE: &str = include_str!("../games/classique.toml");

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
            "corbeau-variant-pin-{name}-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("variants")).unwrap();
        fs::create_dir_all(root.join("elsewhere")).unwrap();
        Judge { root }
    }

    fn run_in(&self, dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .arg("--data")
            .arg(self.root.join("data"))
            .current_dir(dir)
            .env("CORBEAU_NOW", "2026-03-23T08:00:00Z")
            .env_remove("CORBEAU_LANG")
            .env_remove("CORBEAU_CONFIG")
            .env_remove("CORBEAU_DATA")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
        drop(input);
        child.wait_with_output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        self.ok_in(&self.root, args, None)
    }

    fn ok_in(&self, dir: &Path, args: &[&str], stdin: Option<&str>) -> String {
        let out = self.run_in(dir, args, stdin);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// What a refused command said on stderr (it must fail, without a panic).
    fn refused(&self, args: &[&str]) -> String {
        let out = self.run_in(&self.root, args, None);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!out.status.success(), "{args:?} succeeded: {err}");
        assert!(!err.contains("panicked"), "{err}");
        err
    }

    fn file(&self, name: &str, text: &str) {
        fs::write(self.root.join("variants").join(name), text).unwrap();
    }

    /// A 3-player game on `variants/mine.toml`, started, Stark's orders in.
    fn game(&self) {
        self.file("mine.toml", WESTEROS);
        self.ok(&[
            "game",
            "new",
            "g",
            "--variant",
            "variants/mine.toml",
            "--players",
            "3",
        ]);
        for (house, secret) in [
            ("stark", "loup-gris"),
            ("lannister", "lion-dor"),
            ("baratheon", "cerf-noir"),
        ] {
            self.ok(&[
                "player",
                "add",
                "g",
                house,
                &format!("{house}@example.org"),
                "--secret",
                secret,
            ]);
        }
        self.ok(&["game", "start", "g"]);
        self.ok_in(
            &self.root,
            &["orders", "submit", "g", "stark", "-"],
            Some("A win -> roc\nA moa H\nF bla H\n"),
        );
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

#[test]
fn editing_or_deleting_the_file_never_changes_a_running_game() {
    let j = Judge::new("edit");
    j.game();
    // The file now calls Winterfell otherwise, then is gone: the game knows neither.
    j.file(
        "mine.toml",
        &WESTEROS.replace("name = \"Winterfell\"", "name = \"Hiverfell\""),
    );
    let shown = j.ok(&["game", "process", "g", "--preview"]);
    assert!(
        shown.contains("Winterfell") && !shown.contains("Hiverfell"),
        "{shown}"
    );
    fs::remove_file(j.root.join("variants/mine.toml")).unwrap();
    let out = j.ok_in(&j.root.join("elsewhere"), &["game", "process", "g"], None);
    assert!(
        out.contains("A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)"),
        "{out}"
    );
    let list = j.ok(&["game", "list"]);
    assert!(
        list.starts_with("g  ") && list.contains("variants/mine.toml"),
        "{list}"
    );
}

#[test]
fn a_game_moves_to_a_compatible_version_and_the_audit_says_so() {
    let j = Judge::new("move");
    j.game();
    j.file(
        "renamed.toml",
        &WESTEROS.replace("name = \"Winterfell\"", "name = \"Hiverfell\""),
    );
    let out = j.ok(&["game", "variant", "g", "variants/renamed.toml"]);
    assert!(
        out.contains("g: variante : variants/mine.toml (")
            && out.contains(") -> variants/renamed.toml ("),
        "{out}"
    );
    let shown = j.ok(&["game", "process", "g", "--preview"]);
    assert!(shown.contains("Hiverfell"), "{shown}");
    let audit = j.ok(&["game", "audit", "g"]);
    assert!(
        audit.contains("set-variant")
            && audit.contains("variants/mine.toml (")
            && audit.contains("-> variants/renamed.toml ("),
        "{audit}"
    );
    // The same content again: nothing to do.
    let err = j.refused(&["game", "variant", "g", "variants/renamed.toml"]);
    assert!(
        err.contains("la partie joue déjà cette version de variants/renamed.toml"),
        "{err}"
    );
    // In English too.
    let err = j.refused(&[
        "game",
        "variant",
        "g",
        "variants/renamed.toml",
        "--lang",
        "en",
    ]);
    assert!(err.contains("the game already plays this version"), "{err}");
    // The built-in Westeros has the same houses and provinces: accepted, by its name.
    let out = j.ok(&["game", "variant", "g", "westeros"]);
    assert!(out.contains("-> westeros ("), "{out}");
    assert!(j.ok(&["game", "list"]).contains("westeros"));
}

#[test]
fn an_incompatible_version_is_refused_with_every_reason() {
    let j = Judge::new("refuse");
    j.game();
    // Other houses.
    j.file("classique.toml", CLASSIQUE);
    let err = j.refused(&["game", "variant", "g", "variants/classique.toml"]);
    assert!(
        err.contains("la partie ne peut pas passer à la variante variants/classique.toml ; rien n'a été changé")
            && err.contains("les maisons diffèrent"),
        "{err}"
    );
    // The Rocks renamed `rox`: the position and Stark's order no longer read.
    let renamed = regex_free_rename(WESTEROS, "roc", "rox");
    j.file("rox.toml", &renamed);
    let err = j.refused(&["game", "variant", "g", "variants/rox.toml", "--lang", "en"]);
    assert!(
        err.contains("the game cannot move to the variant variants/rox.toml; nothing was changed")
            && err.contains("stark's order `A win -> roc` no longer reads"),
        "{err}"
    );
    // A file that is not a variant says why.
    j.file("broken.toml", "[variant]\n");
    let err = j.refused(&["game", "variant", "g", "variants/broken.toml"]);
    assert!(err.contains("variants/broken.toml"), "{err}");
    // Nothing changed: the game still plays its own version.
    let audit = j.ok(&["game", "audit", "g"]);
    assert!(!audit.contains("set-variant"), "{audit}");
    let out = j.ok(&["game", "process", "g"]);
    assert!(out.contains("(roc)"), "{out}");
}

/// `text` with the word `from` (between non-letters) replaced by `to`.
fn regex_free_rename(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().last();
        let after = rest[at + from.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) {
            from
        } else {
            to
        });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}
