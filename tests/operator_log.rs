//! The operator's log (docs/configuration.md, "Logs"): `tick` and `serve` say what each
//! pass did on standard error, with a level and a time, in the operator's language only;
//! `-v`, `-q` and `CORBEAU_LOG` choose how much; systemd's journal gets `<N>` priorities
//! and no time of ours; `--log-format json` gives one JSON object per line.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::TempDir;

const NOW: &str = "2026-03-23T08:00:00Z";

/// A judge's folder: its configuration (`lang`, and the judge's address unless
/// `address` is empty) and, with `game`, a started three-player game whose welcome mails
/// the next `tick` writes and sends.
fn judge(name: &str, lang: &str, address: &str, game: bool) -> TempDir {
    let dir = TempDir::new("operator-log", name);
    let mut config = format!("lang = \"{lang}\"\n[serve]\ninterval = 1\n");
    if !address.is_empty() {
        config.push_str(&format!("[judge]\naddress = \"{address}\"\n"));
    }
    fs::write(dir.join("corbeau.toml"), config).unwrap();
    if game {
        ok(
            &dir,
            &[
                "game",
                "new",
                "bataille",
                "--players",
                "3",
                "--variant",
                "westeros",
            ],
        );
        for house in ["stark", "lannister", "baratheon"] {
            let address = format!("{house}@example.org");
            ok(&dir, &["player", "add", "bataille", house, &address]);
        }
        ok(&dir, &["game", "start", "bataille"]);
    }
    dir
}

/// The binary in `dir`, its environment cleared of the caller's corbeau and systemd
/// settings.
fn corbeau(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    c.current_dir(dir)
        .env("CORBEAU_NOW", NOW)
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_LOG")
        .env_remove("JOURNAL_STREAM")
        .stdin(Stdio::null());
    c
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let out = corbeau(dir)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    out
}

#[track_caller]
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args, &[]);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A text log line's time and level; panics on a line that has not both.
#[track_caller]
fn stamp_and_level(line: &str) -> (String, String) {
    let mut words = line.splitn(3, ' ');
    let time = words.next().unwrap();
    chrono::DateTime::parse_from_rfc3339(time)
        .unwrap_or_else(|e| panic!("no time at the start of `{line}`: {e}"));
    let level = words.next().unwrap_or_default().to_string();
    assert!(
        [
            "ERREUR",
            "ALERTE",
            "INFO",
            "DÉBOGAGE",
            "TRACE",
            "ERROR",
            "WARN",
            "DEBUG"
        ]
        .contains(&level.as_str()),
        "no level in `{line}`"
    );
    (time.to_string(), level)
}

#[test]
fn verbose_tick_logs_each_line_with_its_time_and_level_on_stderr() {
    let dir = judge("verbose", "fr", "juge@example.org", true);
    let out = run(&dir, &["-v", "tick"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "stdout stays for tools"
    );
    let err = stderr(&out);
    let lines: Vec<_> = err.lines().collect();
    assert!(!lines.is_empty());
    for line in &lines {
        stamp_and_level(line);
    }
    let summary = lines
        .iter()
        .find(|l| l.contains(" INFO passage : courriels lus 0 "))
        .unwrap_or_else(|| panic!("no summary: {err}"));
    // What each count counts is said beside it: the welcome mails of three players.
    assert!(
        summary.contains("courriels écrits pour les parties (résultats, rappels, annonces) 3")
            && summary.contains("courriels remis au transport (réponses comprises) 3"),
        "{summary}"
    );
    // Nothing left to do: the summary at the debug level, shown with -v only.
    let again = run(&dir, &["tick", "-v"], &[]);
    let err = stderr(&again);
    let (_, level) = stamp_and_level(err.lines().next().unwrap());
    assert_eq!(level, "DÉBOGAGE", "{err}");
    assert!(err.contains("passage : courriels lus 0"), "{err}");
    // Without -v, a pass with nothing to do says nothing: cron mails what a job prints.
    let quiet = run(&dir, &["tick"], &[]);
    assert!(quiet.status.success());
    assert_eq!(stderr(&quiet), "");
    assert_eq!(String::from_utf8_lossy(&quiet.stdout), "");
}

#[test]
fn under_the_journal_lines_carry_priorities_and_no_time() {
    let dir = judge("journal", "fr", "", true);
    let log = dir.join("journal.log");
    let file = fs::File::create(&log).unwrap();
    let meta = file.metadata().unwrap();
    let stream = format!("{}:{}", meta.dev(), meta.ino());
    let out = corbeau(&dir)
        .args(["tick"])
        .env("JOURNAL_STREAM", &stream)
        .stdout(Stdio::null())
        .stderr(Stdio::from(file))
        .status()
        .unwrap();
    assert!(out.success());
    let text = fs::read_to_string(&log).unwrap();
    assert!(!text.is_empty());
    for line in text.lines() {
        let (priority, rest) = line.split_at(3);
        assert!(
            ["<3>", "<4>", "<6>", "<7>"].contains(&priority),
            "no priority: `{line}`"
        );
        assert!(
            chrono::DateTime::parse_from_rfc3339(rest.split(' ').next().unwrap()).is_err(),
            "a time of ours under the journal: `{line}`"
        );
    }
    // The default address is a warning (4), the pass's summary information (6).
    assert!(
        text.contains("<4>l'adresse du juge est encore celle par défaut"),
        "{text}"
    );
    assert!(text.contains("<6>passage : courriels lus 0"), "{text}");
    // The error that ends a command is an error (3) for the journal too.
    let log = dir.join("error.log");
    let file = fs::File::create(&log).unwrap();
    let meta = file.metadata().unwrap();
    let status = corbeau(&dir)
        .args(["game", "show", "personne"])
        .env("JOURNAL_STREAM", format!("{}:{}", meta.dev(), meta.ino()))
        .stdout(Stdio::null())
        .stderr(Stdio::from(file))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("<3>corbeau: "), "{text}");
    // A JOURNAL_STREAM that names another stream (inherited by a shell the unit started,
    // its standard error elsewhere) is not the journal: plain lines.
    let out = run(&dir, &["tick", "-v"], &[("JOURNAL_STREAM", "1:1")]);
    let err = stderr(&out);
    for line in err.lines() {
        stamp_and_level(line);
    }
}

#[test]
fn json_log_lines_each_parse_with_the_pass_fields() {
    let dir = judge("json", "fr", "juge@example.org", true);
    let out = run(&dir, &["--log-format", "json", "tick"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let events: Vec<Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("`{l}`: {e}")))
        .collect();
    for event in &events {
        assert!(event["timestamp"].is_string(), "{event}");
        assert!(event["level"].is_string(), "{event}");
        assert!(event["message"].is_string(), "{event}");
    }
    let summary = events
        .iter()
        .find(|e| e.get("mails_sent").is_some())
        .unwrap_or_else(|| panic!("no pass summary: {err}"));
    assert_eq!(summary["level"], "INFO");
    assert_eq!(summary["mails_read"], 0);
    assert_eq!(summary["mails_answered"], 0);
    assert_eq!(summary["phases_processed"], 0);
    assert_eq!(summary["mails_written"], 3);
    assert_eq!(summary["mails_sent"], 3);
    assert_eq!(summary["send_failed"], 0);
    assert_eq!(summary["errors"], 0);
    // The sentence is the operator's; the field names are identifiers.
    assert!(
        summary["message"]
            .as_str()
            .unwrap()
            .starts_with("passage : "),
        "{summary}"
    );
    // With -v, the game's own events come as JSON lines too.
    let out = run(&dir, &["tick", "--log-format", "json", "-v"], &[]);
    for line in stderr(&out).lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        assert_eq!(event["level"], "DEBUG", "{event}");
    }
}

#[test]
fn corbeau_log_wins_over_the_flags() {
    let dir = judge("filter", "fr", "", true);
    // warn: the pass's information is filtered out even with -v; the warning stays.
    let out = run(&dir, &["-v", "tick"], &[("CORBEAU_LOG", "warn")]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let levels: Vec<_> = err.lines().map(|l| stamp_and_level(l).1).collect();
    assert_eq!(levels, ["ALERTE"], "{err}");
    // debug for corbeau's clock: the pass with nothing to do is said, even with -q.
    let out = run(
        &dir,
        &["-q", "tick"],
        &[("CORBEAU_LOG", "corbeau::cli::clock=debug")],
    );
    let err = stderr(&out);
    assert!(err.contains(" DÉBOGAGE passage : courriels lus 0"), "{err}");
    // A filter that does not parse is said, and the flags serve.
    let out = run(&dir, &["-q", "tick"], &[("CORBEAU_LOG", "corbeau=loud")]);
    let err = stderr(&out);
    assert!(
        err.contains("CORBEAU_LOG `corbeau=loud` n'est pas un filtre valide"),
        "{err}"
    );
}

#[test]
fn quiet_keeps_only_warnings_and_errors() {
    let dir = judge("quiet", "fr", "", true);
    let out = run(&dir, &["tick", "-q"], &[]);
    assert!(out.status.success());
    let err = stderr(&out);
    let levels: Vec<_> = err.lines().map(|l| stamp_and_level(l).1).collect();
    assert_eq!(levels, ["ALERTE"], "{err}");
    assert!(err.contains("corbeau@localhost"), "{err}");
    let dir = judge("quieter", "fr", "", true);
    let out = run(&dir, &["-qq", "tick"], &[]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
}

/// `serve` on `dir` until its second pass is told, then SIGTERM: its stdout and stderr.
fn serve_two_passes(dir: &Path, args: &[&str]) -> (String, String) {
    let out_file = dir.join("serve.out");
    let err_file = dir.join("serve.err");
    let mut serve = corbeau(dir)
        .args(args)
        .env_remove("CORBEAU_NOW")
        .stdout(fs::File::create(&out_file).unwrap())
        .stderr(fs::File::create(&err_file).unwrap())
        .spawn()
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(30);
    let passes = || {
        let out = fs::read_to_string(&out_file).unwrap_or_default();
        let err = fs::read_to_string(&err_file).unwrap_or_default();
        out.lines().count().max(
            err.lines()
                .filter(|l| l.contains("passage :") || l.contains("pass:"))
                .count(),
        )
    };
    while passes() < 2 {
        assert!(Instant::now() < give_up, "serve made no two passes");
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = serve.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    assert!(serve.wait().unwrap().success());
    (
        fs::read_to_string(&out_file).unwrap(),
        fs::read_to_string(&err_file).unwrap(),
    )
}

#[test]
fn a_french_operator_reads_french_lines_only_and_an_english_one_english_only() {
    let dir = judge("french", "fr", "", true);
    let (out, err) = serve_two_passes(&dir, &["-v", "serve"]);
    assert_eq!(out, "");
    for line in err.lines() {
        stamp_and_level(line);
    }
    for french in [
        "au travail sur",
        "dossier d'envoi",
        "ALERTE l'adresse du juge est encore celle par défaut",
        "INFO passage : courriels lus 0",
        "DÉBOGAGE passage : courriels lus 0",
        "INFO arrêt propre",
    ] {
        assert!(err.contains(french), "{french}: {err}");
    }
    for english in [
        "outbox folder",
        "working on",
        "pass:",
        "mails",
        "stopped",
        " WARN ",
        " DEBUG ",
        "is still",
    ] {
        assert!(!err.contains(english), "{english}: {err}");
    }
    let dir = judge("english", "en", "", true);
    let (_, err) = serve_two_passes(&dir, &["serve", "-v"]);
    for english in [
        "working on",
        "outbox folder",
        "WARN the judge's address is still the default one",
        "INFO pass: mails read 0",
        "DEBUG pass: mails read 0",
        "INFO stopped cleanly",
    ] {
        assert!(err.contains(english), "{english}: {err}");
    }
    for french in [
        "au travail",
        "dossier",
        "passage",
        "arrêt",
        "courriel",
        "ALERTE",
    ] {
        assert!(!err.contains(french), "{french}: {err}");
    }
}

#[test]
fn serve_json_prints_one_line_per_pass() {
    let dir = judge("serve-json", "fr", "juge@example.org", true);
    let (out, _) = serve_two_passes(&dir, &["serve", "--json"]);
    let passes: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("`{l}`: {e}")))
        .collect();
    assert!(passes.len() >= 2, "{out}");
    // The first pass sends the welcome mails (and, past the deadline by the clock, the
    // results); the second has nothing to send.
    assert!(passes[0]["mail"]["sent"].as_u64() >= Some(3), "{out}");
    assert_eq!(passes[1]["mail"]["sent"], 0, "{out}");
}
