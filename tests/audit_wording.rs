//! The audit trail a moderator reads (`corbeau game audit`) is worded when it is shown, in
//! the command line's language, from the catalogue: a vote, a draw, a phase processed, in
//! French and in English, with no Rust `Some(…)`/`None`/`Draw` in sight; `--json` keeps
//! the stable codes and typed values.

#![allow(clippy::unwrap_used)]

mod support;
use support::cli::CliJudge;
use support::copy_dir;

const GAME: &str = "bataille";

/// The moderator's shell, on a data folder of its own.
type Judge = CliJudge;

/// A three-player game started, a phase processed by the moderator, Stark voting a draw
/// then withdrawing, Tully conceding to Stark, then the moderator ending it in a draw.
fn played() -> Judge {
    let j = Judge::new("audit", "vote");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    for house in ["stark", "lannister", "baratheon"] {
        let address = format!("{house}@example.org");
        j.ok(&["player", "add", GAME, house, &address]);
    }
    j.ok(&["game", "start", GAME]);
    j.ok(&["game", "process", GAME]);
    j.ok(&["player", "vote", GAME, "stark", "draw"]);
    j.ok(&["player", "vote", GAME, "stark", "none"]);
    j.ok(&["player", "vote", GAME, "baratheon", "concede", "stark"]);
    j.ok(&["game", "end", GAME, "--draw"]);
    j
}

/// No trace of Rust's `Debug` or of the stored form in a text for people.
#[track_caller]
fn no_debug(text: &str) {
    for bad in [
        "Some(",
        "None",
        "Draw",
        "Concede(",
        "Replace",
        "Partial",
        "Moderator)",
    ] {
        assert!(!text.contains(bad), "`{bad}` in:\n{text}");
    }
}

#[test]
fn the_audit_of_votes_and_a_draw_reads_in_french_and_in_english() {
    let j = played();
    let fr = j.ok(&["game", "audit", GAME]);
    no_debug(&fr);
    for line in [
        "3 joueurs sur westeros",
        "partie commencée, date limite : ",
        "jouée par le modérateur",
        "stark : vote la nulle",
        "stark : retire son vote",
        "baratheon : concède la partie à stark",
        "Partie terminée : match nul entre ",
    ] {
        assert!(fr.contains(line), "`{line}` not in:\n{fr}");
    }
    let en = j.ok(&["game", "audit", GAME, "--lang", "en"]);
    no_debug(&en);
    for line in [
        "3 players on westeros",
        "game started, deadline: ",
        "processed by the moderator",
        "stark: votes for a draw",
        "stark: withdraws its vote",
        "baratheon: concedes the game to stark",
        "Game over: draw between ",
    ] {
        assert!(en.contains(line), "`{line}` not in:\n{en}");
    }
    // The same entries, one reading each: only the words differ.
    assert_eq!(fr.lines().count(), en.lines().count(), "{fr}\n{en}");
}

#[test]
fn the_audit_as_json_keeps_codes_and_typed_values() {
    let j = played();
    let json: serde_json::Value =
        serde_json::from_str(&j.ok(&["game", "audit", GAME, "--json"])).unwrap();
    let votes: Vec<&serde_json::Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "vote")
        .map(|a| &a["lines"][0])
        .collect();
    assert_eq!(
        votes,
        [
            &serde_json::json!({"code": "vote", "house": "stark", "vote": {"vote": "draw"}}),
            &serde_json::json!({"code": "vote", "house": "stark", "vote": null}),
            &serde_json::json!({
                "code": "vote", "house": "baratheon", "vote": {"vote": "concede", "house": "stark"}
            }),
        ]
    );
}

/// The entries a store of schema 1 wrote (an English sentence each, no lines) still show,
/// as they were written, next to the new ones worded in the reader's language.
#[test]
fn old_audit_entries_show_as_they_were_written() {
    let j = Judge::new("audit", "v1");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v1");
    copy_dir(&fixture.join("data"), &j.root.join("data"));
    copy_dir(&fixture.join("variants"), &j.root.join("variants"));
    j.ok(&["game", "pause", GAME]);
    let fr = j.ok(&["game", "audit", GAME]);
    assert!(
        fr.contains("moderator    create         3 players on westeros\n"),
        "{fr}"
    );
    assert!(fr.contains("stark: 3 line(s), Replace\n"), "{fr}");
    assert!(fr.trim_end().ends_with("partie suspendue"), "{fr}");
    let en = j.ok(&["game", "audit", GAME, "--lang", "en"]);
    assert!(en.trim_end().ends_with("game paused"), "{en}");
}

/// A vote the command line cannot read is refused in the moderator's language.
#[test]
fn an_unknown_vote_is_refused_in_the_commands_language() {
    let j = Judge::new("audit", "bad-vote");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    for (lang, said) in [
        ("fr", "vote inconnu « bidule »"),
        ("en", "unknown vote `bidule`"),
    ] {
        let out = j.run_at(
            support::cli::NOW,
            &["player", "vote", GAME, "stark", "bidule", "--lang", lang],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{lang}: accepted");
        assert!(stderr.contains(said), "{lang}: {stderr}");
    }
}
