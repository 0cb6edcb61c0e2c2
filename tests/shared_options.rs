//! The shared options (`--config`, `--data`, `--lang`, `--json`) before or after the
//! command's name: `corbeau --config F game list` is `corbeau game list --config F`; written
//! in both places the one after the name counts, and both beat the environment; a command
//! that does not take one refuses it in either place. And every corbeau command line of
//! docs/deploy.md is accepted as written, so that the guide cannot drift from the CLI.

mod support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use support::TempDir;

/// The path of `name` in the test's folder, as a command line writes it.
fn file(dir: &TempDir, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// A configuration whose store is `data` in the test's folder, in `lang`.
fn config(dir: &TempDir, data: &str, lang: &str) -> String {
    let path = file(dir, &format!("{data}.toml"));
    let text = format!(
        "data_dir = {:?}\nlang = \"{lang}\"\n\n[judge]\naddress = \"juge@example.org\"\n",
        file(dir, data)
    );
    fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
    path
}

/// Runs corbeau in `dir` with none of the caller's corbeau settings, plus `env`.
fn run_env(dir: &TempDir, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    command
        .args(args)
        .current_dir(&**dir)
        .env("CORBEAU_NOW", "2026-03-23T08:00:00Z")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_LOG");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("corbeau {args:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "corbeau {args:?}:\n{stderr}");
    out
}

/// Runs a command that must succeed; its standard output.
#[track_caller]
fn ok(dir: &TempDir, args: &[&str]) -> String {
    ok_env(dir, &[], args)
}

#[track_caller]
fn ok_env(dir: &TempDir, env: &[(&str, &str)], args: &[&str]) -> String {
    let out = run_env(dir, env, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "corbeau {args:?}: {:?}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Runs a command that must be refused with exit code 1; its standard error.
#[track_caller]
fn refused(dir: &TempDir, args: &[&str]) -> String {
    let out = run_env(dir, &[], args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "corbeau {args:?}:\n{stderr}");
    assert!(out.stdout.is_empty(), "corbeau {args:?} printed on stdout");
    stderr
}

/// The games a `game list --json` lists, by name.
fn games(json: &str) -> Vec<String> {
    let list: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}:\n{json}"));
    list.as_array()
        .unwrap_or_else(|| panic!("not a list:\n{json}"))
        .iter()
        .map(|g| g["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn config_before_or_after_the_command_opens_the_configured_store() {
    let dir = TempDir::new("shared", "config");
    let config = config(&dir, "store", "en");
    ok(&dir, &["--config", &config, "game", "new", "avant"]);
    ok(&dir, &["game", "new", "apres", "--config", &config]);
    ok(&dir, &["game", "--config", &config, "new", "milieu"]);
    // Both games went into the configured store, in the configuration's language.
    for args in [
        vec!["--config", &config, "game", "list"],
        vec!["game", "list", "--config", &config],
    ] {
        let text = ok(&dir, &args);
        assert!(
            text.contains("avant") && text.contains("apres") && text.contains("milieu"),
            "{args:?}:\n{text}"
        );
    }
    let json = ok(&dir, &["--config", &config, "--json", "game", "list"]);
    assert_eq!(games(&json), ["apres", "avant", "milieu"]);
    assert!(Path::new(&file(&dir, "store")).is_dir());
    assert!(!Path::new(&file(&dir, "corbeau-data")).exists());
}

#[test]
fn data_before_or_after_the_command_is_the_same_store() {
    let dir = TempDir::new("shared", "data");
    let data = file(&dir, "donnees");
    ok(&dir, &["--data", &data, "game", "new", "un"]);
    ok(&dir, &["game", "new", "deux", "--data", &data]);
    assert_eq!(
        games(&ok(&dir, &["--data", &data, "game", "list", "--json"])),
        ["deux", "un"]
    );
    assert_eq!(
        games(&ok(&dir, &["game", "list", "--json", "--data", &data])),
        ["deux", "un"]
    );
    // The other store commands take it before their name too.
    ok(
        &dir,
        &[
            "--data",
            &data,
            "player",
            "add",
            "un",
            "Stark",
            "a@example.org",
        ],
    );
    let export = ok(&dir, &["--data", &data, "export", "un"]);
    assert!(export.contains("a@example.org"), "{export}");
    ok(&dir, &["--data", &data, "tick"]);
    ok(&dir, &["--data", &data, "outbox"]);
    assert!(!Path::new(&file(&dir, "corbeau-data")).exists());
}

#[test]
fn every_store_command_takes_the_shared_options_before_its_name() {
    let dir = TempDir::new("shared", "every");
    let site = file(&dir, "site");
    let commands: [&[&str]; 9] = [
        &["game", "new", "partie"],
        &["player", "add", "partie", "stark", "a@example.org"],
        &["orders", "show", "partie"],
        &["history", "partie"],
        &["export", "partie"],
        &["outbox"],
        &["tick"],
        &["publish", &site],
        &["game", "list"],
    ];
    for (n, command) in commands.iter().enumerate() {
        // A store of its own for each: the command made it, so it read `--data`.
        let data = file(&dir, &format!("d{n}"));
        if n > 0 {
            ok(&dir, &["--data", &data, "game", "new", "partie"]);
        }
        let mut args = vec!["--data", data.as_str(), "--lang", "en"];
        args.extend_from_slice(command);
        ok(&dir, &args);
        assert!(Path::new(&data).is_dir(), "{args:?}");
    }
    // `ingest` in English, with nothing on its standard input.
    let data = file(&dir, "ingest");
    let out = run_env(&dir, &[], &["--lang", "en", "--data", &data, "ingest"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nothing on stdin"), "{err}");
    assert!(!Path::new(&file(&dir, "corbeau-data")).exists());
}

#[test]
fn lang_before_or_after_the_command_speaks_that_language() {
    let dir = TempDir::new("shared", "lang");
    let data = file(&dir, "d");
    let english = "no games; `corbeau game new NAME` creates one";
    let french = "aucune partie ; `corbeau game new NOM` en crée une";
    // An empty store: `game list` makes none (a pass does).
    ok(&dir, &["--data", &data, "tick"]);
    assert!(ok(&dir, &["--lang", "en", "game", "list", "--data", &data]).contains(english));
    assert!(ok(&dir, &["game", "list", "--data", &data, "--lang", "en"]).contains(english));
    assert!(ok(&dir, &["--data", &data, "game", "list"]).contains(french));
    // The stateless commands that have a language take it before their name as well.
    let results = ok(&dir, &["--lang", "en", "adjudicate"]);
    assert!(results.contains("spring 298"), "{results}");
    let json = ok(&dir, &["--json", "adjudicate"]);
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "{json}"
    );
    let svg = file(&dir, "carte.svg");
    ok(&dir, &["--lang", "en", "map", "draw", "--out", &svg]);
    assert!(fs::metadata(&svg).is_ok_and(|m| m.len() > 0));
}

#[test]
fn written_twice_the_option_after_the_name_counts_and_both_beat_the_environment() {
    let dir = TempDir::new("shared", "order");
    let before = file(&dir, "avant");
    let after = file(&dir, "apres");
    ok(
        &dir,
        &["--data", &before, "game", "new", "ici", "--data", &after],
    );
    assert_eq!(
        games(&ok(&dir, &["--data", &after, "game", "list", "--json"])),
        ["ici"]
    );
    assert!(!Path::new(&before).exists());
    // The variable is the fallback: the option, wherever written, wins over it.
    let env = file(&dir, "env");
    ok_env(
        &dir,
        &[("CORBEAU_DATA", &env)],
        &["--data", &before, "game", "new", "la"],
    );
    assert_eq!(
        games(&ok(&dir, &["--data", &before, "game", "list", "--json"])),
        ["la"]
    );
    assert!(!Path::new(&env).exists());
    let out = run_env(
        &dir,
        &[("CORBEAU_LANG", "fr")],
        &["--lang", "en", "game", "list", "--data", &env],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corbeau: no store in "), "{err}");
    assert!(!Path::new(&env).exists());
}

#[test]
fn a_command_that_does_not_take_a_shared_option_refuses_it_before_its_name() {
    let dir = TempDir::new("shared", "refused");
    let data = file(&dir, "d");
    let err = refused(&dir, &["--data", &data, "map", "check", "westeros"]);
    assert!(
        err.contains("`--data` n'est pas une option de `corbeau map check`"),
        "{err}"
    );
    let err = refused(&dir, &["--lang", "en", "--config", &data, "datc", "x.case"]);
    assert!(
        err.contains("`--config` is not an option of `corbeau datc`"),
        "{err}"
    );
    let err = refused(&dir, &["--json", "completions", "bash"]);
    assert!(err.contains("`--json`"), "{err}");
    refused(&dir, &["--data", &data, "adjudicate"]);
    // As after the name, where clap refuses it.
    refused(&dir, &["map", "check", "westeros", "--data", &data]);
    assert!(!Path::new(&data).exists());
    // The environment variable, by contrast, stays ignored by the commands without a store.
    ok_env(
        &dir,
        &[("CORBEAU_DATA", &data)],
        &["map", "check", "westeros"],
    );
    assert!(!Path::new(&data).exists());
}

/// A `corbeau` command line of the guide: its arguments, from the program's name to the
/// end of the command (a quote, `;`, `|`, `&&`, a comment): `/usr/local/bin/corbeau`, or
/// `corbeau` first on the line, after `runuser -u corbeau --`, a pipe or a quote; not as a
/// user or group name (`-o corbeau`, a cron line's user).
fn corbeau_arguments(line: &str) -> Option<Vec<String>> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    line.match_indices("corbeau ").find_map(|(start, program)| {
        let head = &line[..start];
        let named = head.trim().is_empty()
            || head.ends_with("/usr/local/bin/")
            || head.ends_with("/usr/bin/")
            || head.ends_with("runuser -u corbeau -- ")
            || head.ends_with(|c: char| "|\"'`(".contains(c));
        let rest = &line[start + program.len()..];
        let words = shell_words(rest, head.ends_with(['"', '\'', '`']));
        let first = words.first()?;
        let option = first.starts_with("--") && first.len() > 2;
        let command = first.starts_with(|c: char| c.is_ascii_lowercase())
            && first.chars().all(|c| c.is_ascii_lowercase() || c == '-');
        (named && (option || command)).then_some(words)
    })
}

/// The words of a command line up to where the shell would end it (`;`, `|`, `&`, `#`, a
/// double quote or a backtick), a single-quoted word kept whole (a database URL with its
/// `?`); inside a quoted command (`sh -c 'corbeau tick'`) a single quote ends it instead.
fn shell_words(rest: &str, quoted: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !quoted => word.extend(chars.by_ref().take_while(|&c| c != '\'')),
            '\'' | '"' | ';' | '|' | '&' | '#' | '`' => break,
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The lines of the fenced blocks of a Markdown text, except TOML ones.
fn code_lines(markdown: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside: Option<bool> = None;
    for line in markdown.lines() {
        match (inside, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) => inside = Some(lang.trim() != "toml"),
            (Some(_), Some(_)) => inside = None,
            (Some(true), None) => lines.push(line.to_string()),
            _ => {}
        }
    }
    lines
}

#[test]
fn every_corbeau_command_line_of_the_deploy_guide_is_accepted_as_written() {
    let guide = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/deploy.md"))
        .unwrap_or_else(|e| panic!("docs/deploy.md: {e}"));
    let commands: Vec<(String, Vec<String>)> = code_lines(&guide)
        .into_iter()
        .filter_map(|line| corbeau_arguments(&line).map(|args| (line, args)))
        .collect();
    // The guide's own shape: the moderator's commands, the alias, cron. The units'
    // commands (`serve`, `tick`) are checked in tests/package_files.rs.
    let all = commands
        .iter()
        .map(|(line, _)| line.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for wanted in ["runuser -u corbeau -- corbeau --config", "ingest", "tick"] {
        assert!(
            all.contains(wanted),
            "no `{wanted}` in the guide's commands:\n{all}"
        );
    }
    let dir = TempDir::new("shared", "guide");
    for (line, args) in &commands {
        // `--help` at the end: clap reads every word before it as the command would, and
        // answers with the help of the command they name, without doing it.
        let mut with_help: Vec<&str> = args.iter().map(String::as_str).collect();
        with_help.push("--help");
        let out = run_env(&dir, &[], &with_help);
        assert!(
            out.status.success(),
            "docs/deploy.md: `{line}` is refused:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let help = String::from_utf8_lossy(&out.stdout);
        // The command's name: the first word that is neither an option nor its value.
        let mut words = args.iter().map(String::as_str);
        let mut command = None;
        while let Some(word) = words.next() {
            if ["--config", "--data", "--lang", "--now"].contains(&word) {
                words.next();
            } else if !word.starts_with('-') {
                command = Some(word);
                break;
            }
        }
        if let Some(command) = command {
            assert!(
                help.contains(&format!("Usage: corbeau {command}")),
                "`{line}`: the help is not that of `{command}`:\n{help}"
            );
        }
    }
    assert!(commands.len() >= 6, "{commands:?}");
}

/// The README's walk-through by mail, pasted in one go: its block runs as
/// written — but for its first line, the build, which the test has done — in a scratch
/// folder, prints each house's secret with its house, and ends with the results mailed.
#[test]
fn the_readme_walk_through_by_mail_runs_pasted_in_one_go() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("## Play a turn by mail")
        .nth(1)
        .expect("the README's walk-through");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("its shell block");
    let (build, script) = block.split_once('\n').unwrap();
    assert!(build.starts_with("cargo build --release"), "{build}");
    let scratch = support::TempDir::new("readme", "walk-through");
    let bin = Path::new(env!("CARGO_BIN_EXE_corbeau")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-e", "-c", script])
        .env("PATH", path)
        .env("TMPDIR", scratch.path())
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for house in [
        "PARTIE essai Stark ",
        "SIGNON essai Lannister ",
        "PARTIE essai Baratheon ",
    ] {
        assert!(stdout.contains(house), "{house}: {stdout}");
    }
    let results = stdout
        .lines()
        .filter(|l| l.starts_with("corbeau-data/outbox/") && l.ends_with(".eml"))
        .count();
    assert!(results >= 3, "the results to each house: {stdout}");
}
