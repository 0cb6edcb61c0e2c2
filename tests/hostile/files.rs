//! Files named on the command line are read up to 16 MB and no further: `corbeau map check
//! /dev/zero` used to fill the memory (6 GB) before saying anything.

use std::fs;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::support::cli::CliJudge;

/// `corbeau ARGS` in `j`'s folder, killed (and the test failed) if it runs for more than
/// 30 s: a read that does not stop at the cap would run until the memory is gone.
fn bounded(j: &CliJudge, args: &[&str], lang: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    crate::support::backend::for_command(&mut command, &j.data());
    let mut child = command
        .args(args)
        .current_dir(&j.root)
        .env("CORBEAU_LANG", lang)
        .env_remove("CORBEAU_CONFIG")
        .env("CORBEAU_DATA", j.data())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("corbeau {args:?} still reading after 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

fn refused(out: &Output, said: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(said), "{err}");
}

#[test]
fn map_check_of_an_endless_file_stops_at_the_cap() {
    let j = CliJudge::new("hostile", "dev-zero");
    let out = bounded(&j, &["map", "check", "/dev/zero"], "fr");
    refused(
        &out,
        "/dev/zero : plus de 16 MB, le plus que corbeau lit d'un fichier",
    );
    let out = bounded(&j, &["adjudicate", "--variant", "/dev/zero"], "en");
    refused(
        &out,
        "/dev/zero: larger than 16 MB, the most corbeau reads of a file",
    );
}

#[test]
fn oversize_position_and_order_files_are_refused_with_their_name() {
    let j = CliJudge::new("hostile", "oversize");
    // Orders that would read: the size alone refuses them.
    let big = "A win H\n".repeat(16 * 1024 * 1024 / 8 + 1);
    fs::write(j.root.join("big.txt"), &big).unwrap();
    let out = bounded(&j, &["adjudicate", "--position", "big.txt"], "en");
    refused(&out, "big.txt: larger than 16 MB");
    let out = bounded(&j, &["adjudicate", "big.txt"], "fr");
    refused(&out, "big.txt : plus de 16 MB");
    j.ok(&["game", "new", "g", "--players", "3"]);
    for house in ["stark", "lannister", "baratheon"] {
        let address = format!("{house}@example.org");
        j.ok(&["player", "add", "g", house, &address]);
    }
    j.ok(&["game", "start", "g"]);
    let out = bounded(&j, &["orders", "submit", "g", "stark", "big.txt"], "fr");
    refused(
        &out,
        "big.txt : plus de 16 MB, le plus que corbeau lit d'un fichier",
    );
    let out = bounded(
        &j,
        &[
            "game", "edit", "g", "big.txt", "--reason", "x", "--lang", "en",
        ],
        "fr",
    );
    refused(&out, "big.txt: larger than 16 MB");
    let shown = j.ok(&["orders", "show", "g", "stark"]);
    assert!(shown.contains("(aucun ordre)"), "{shown}");
}

#[test]
fn an_endless_configuration_or_template_stops_at_the_cap() {
    use std::os::unix::fs::symlink;
    let j = CliJudge::new("hostile", "endless-config");
    let out = bounded(&j, &["game", "list", "--config", "/dev/zero"], "en");
    refused(
        &out,
        "cannot read the configuration: /dev/zero: larger than 16 MB",
    );
    // A moderator's results template that never ends.
    let templates = j.root.join("templates");
    fs::create_dir_all(templates.join("en")).unwrap();
    symlink("/dev/zero", templates.join("en").join("results.txt")).unwrap();
    let out = bounded(
        &j,
        &["adjudicate", "--templates", "templates", "--lang", "en"],
        "en",
    );
    refused(&out, "results.txt: larger than 16 MB");
}
