//! `corbeau game end GAME --draw | --win … | --concede … | --abandon`: exactly one result.
//! Before, the result group took the game as one of its members: every result was
//! refused ("the argument '<GAME>' cannot be used with '--draw'") and `game end GAME`
//! alone abandoned the game.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use support::TempDir;

fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(args)
        .arg("--data")
        .arg(data)
        .current_dir(std::env::temp_dir())
        .env("CORBEAU_NOW", "2026-03-23T08:00:00Z")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A running game of three in the data folder of a judge, removed (its key beside it
/// too) when dropped.
fn running(name: &str) -> TempDir {
    let data = TempDir::new("game-end", name);
    assert!(
        run(&data, &["game", "new", "g", "--players", "3"])
            .status
            .success()
    );
    for house in ["stark", "lannister", "baratheon"] {
        let address = format!("{house}@example.org");
        let secret = format!("secret-{house}");
        let out = run(
            &data,
            &["player", "add", "g", house, &address, "--secret", &secret],
        );
        assert!(out.status.success());
    }
    assert!(run(&data, &["game", "start", "g"]).status.success());
    data
}

#[test]
fn each_result_ends_the_game_so() {
    for (args, said) in [
        (
            vec!["--draw"],
            "match nul entre Stark, Lannister et Baratheon",
        ),
        (vec!["--win", "stark"], "Stark"),
        (vec!["--concede", "lannister"], "Lannister"),
        (vec!["--abandon"], "abandonnée"),
    ] {
        let data = running(&args[0].replace('-', ""));
        let mut command = vec!["game", "end", "g"];
        command.extend(&args);
        let out = run(&data, &command);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("Partie terminée") && text.contains(said),
            "{text}"
        );
    }
}

#[test]
fn no_result_or_two_are_refused_and_the_game_goes_on() {
    let data = running("none");
    for (args, why) in [
        (vec![], "required arguments were not provided"),
        (vec!["--draw", "--abandon"], "cannot be used with"),
    ] {
        let mut command = vec!["game", "end", "g"];
        command.extend(&args);
        let out = run(&data, &command);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(why),
            "{args:?}: {err}"
        );
    }
    let list = String::from_utf8(run(&data, &["game", "list"]).stdout).unwrap();
    assert!(list.contains("en cours"), "{list}");
}
