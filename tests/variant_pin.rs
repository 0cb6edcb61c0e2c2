//! A game keeps its variant's content from its creation: the file it was made with may be
//! edited, moved or deleted, or the process run from another directory, and the game
//! goes on unchanged. `game variant` moves it to a new version, checked for
//! compatibility and audited (docs/storage.md, "Pinned variants"; docs/games.md, "Moderator actions").

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;

use support::cli::CliJudge;

const WESTEROS: &str = include_str!("../games/westeros.toml");
const CLASSIQUE: &str = include_str!("../games/classique.toml");

/// A judge's folder with a `variants/` folder for the game's variant files and a folder
/// `elsewhere` to run commands from.
fn judge(name: &str) -> CliJudge {
    let j = CliJudge::new("variant-pin", name);
    fs::create_dir_all(j.root.join("variants")).unwrap();
    fs::create_dir_all(j.root.join("elsewhere")).unwrap();
    j
}

/// What a refused command said on stderr (it must fail, without a panic).
fn refused(j: &CliJudge, args: &[&str]) -> String {
    let out = j.run(args, None);
    assert!(out.code != 0, "{args:?} succeeded: {}", out.err);
    out.err
}

/// Writes a variant file of the judge's `variants/` folder.
fn file(j: &CliJudge, name: &str, text: &str) {
    fs::write(j.root.join("variants").join(name), text).unwrap();
}

/// A 3-player game on `variants/mine.toml`, started, Stark's orders in.
fn game(j: &CliJudge) {
    file(j, "mine.toml", WESTEROS);
    j.ok(&[
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
        j.ok(&[
            "player",
            "add",
            "g",
            house,
            &format!("{house}@example.org"),
            "--secret",
            secret,
        ]);
    }
    j.ok(&["game", "start", "g"]);
    j.ok_with(
        &["orders", "submit", "g", "stark", "-"],
        Some("A win -> roc\nA moa H\nF bla H\n"),
    );
}

#[test]
fn editing_or_deleting_the_file_never_changes_a_running_game() {
    let j = judge("edit");
    game(&j);
    // The file now calls Winterfell otherwise, then is gone: the game knows neither.
    file(
        &j,
        "mine.toml",
        &WESTEROS.replace("name = \"Winterfell\"", "name = \"Hiverfell\""),
    );
    let shown = j.ok(&["game", "process", "g", "--preview"]);
    assert!(
        shown.contains("Winterfell") && !shown.contains("Hiverfell"),
        "{shown}"
    );
    fs::remove_file(j.root.join("variants/mine.toml")).unwrap();
    let out = j.run_in(
        &j.root.join("elsewhere"),
        support::cli::NOW,
        &["game", "process", "g"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = String::from_utf8(out.stdout).unwrap();
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
    let j = judge("move");
    game(&j);
    file(
        &j,
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
    let err = refused(&j, &["game", "variant", "g", "variants/renamed.toml"]);
    assert!(
        err.contains("la partie joue déjà cette version de variants/renamed.toml"),
        "{err}"
    );
    // In English too.
    let err = refused(
        &j,
        &[
            "game",
            "variant",
            "g",
            "variants/renamed.toml",
            "--lang",
            "en",
        ],
    );
    assert!(err.contains("the game already plays this version"), "{err}");
    // The built-in Westeros has the same houses and provinces: accepted, by its name.
    let out = j.ok(&["game", "variant", "g", "westeros"]);
    assert!(out.contains("-> westeros ("), "{out}");
    assert!(j.ok(&["game", "list"]).contains("westeros"));
}

#[test]
fn an_incompatible_version_is_refused_with_every_reason() {
    let j = judge("refuse");
    game(&j);
    // Other houses.
    file(&j, "classique.toml", CLASSIQUE);
    let err = refused(&j, &["game", "variant", "g", "variants/classique.toml"]);
    assert!(
        err.contains("la partie ne peut pas passer à la variante variants/classique.toml ; rien n'a été changé")
            && err.contains("les maisons diffèrent"),
        "{err}"
    );
    // The Rocks renamed `rox`: the position and Stark's order no longer read.
    let renamed = regex_free_rename(WESTEROS, "roc", "rox");
    file(&j, "rox.toml", &renamed);
    let err = refused(
        &j,
        &["game", "variant", "g", "variants/rox.toml", "--lang", "en"],
    );
    assert!(
        err.contains("the game cannot move to the variant variants/rox.toml; nothing was changed")
            && err.contains("stark's order `A win -> roc` no longer reads"),
        "{err}"
    );
    // A file that is not a variant says why.
    file(&j, "broken.toml", "[variant]\n");
    let err = refused(&j, &["game", "variant", "g", "variants/broken.toml"]);
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
