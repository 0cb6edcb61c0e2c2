//! Rule editions (docs/rules.md, "Rule editions"), through the binary: `corbeau datc` runs
//! the DATC v3.0 copy with every edition case under its own rules; `corbeau adjudicate
//! --rules`; a game made with `corbeau game new --rules 1971` whose mailed orders show a
//! convoy only those rules allow, in the results in French and in English; the setting
//! changed before the start and refused after it, with the reason in both languages.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;

use chrono::DateTime;
use support::judge::{Clocked, body_of, root, run, said};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";

/// The DATC's kidnapping (6.G.2): a German fleet convoys an English army to the
/// province the Russian fleet leaves. Only the 1971 rules let it carry the army.
const KIDNAP: &str = "phase spring 1901 movement\n\
                      unit england: A nwy\n\
                      unit russia: F swe\n\
                      unit germany: F ska\n";

fn datc(file: &str) -> String {
    let out = run(
        std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("CORBEAU_LANG")
            .args(["datc", file]),
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_datc_v3_copy_runs_every_case_each_under_its_edition() {
    let out = datc("tests/datc/datc-v3.0.case");
    assert!(
        out.contains("171 passed, 0 failed, 0 skipped"),
        "{}",
        out.lines().last().unwrap_or("")
    );
    for id in [
        "6.G.2-1971",
        "6.G.2-1982",
        "6.G.4-1971",
        "6.G.4-1982",
        "6.G.7-1971",
        "6.G.7-dptg",
        "6.G.19-1971",
        "6.J.11-1971",
    ] {
        assert!(out.contains(&format!("\n{id} passed\n")), "{id}:\n{out}");
    }
}

/// The edition cases that differ from the 2023 rules fail when their `rules` line is
/// taken away: the line is what makes them pass, not a loose check.
#[test]
fn the_1971_cases_fail_under_the_2023_rules() {
    let text = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datc/datc-v3.0.case"),
    )
    .unwrap();
    let dir = support::TempDir::new("editions", "datc-2023");
    let mut kept = String::new();
    let mut keep = false;
    for line in text.lines() {
        if line.starts_with("case ") {
            keep = ["6.G.2-1971", "6.G.7-1971", "6.G.19-1971", "6.J.11-1971"]
                .iter()
                .any(|id| line.starts_with(&format!("case {id} ")));
        }
        if keep && line != "rules 1971" {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let file = dir.path().join("without-rules.case");
    fs::write(&file, &kept).unwrap();
    let out = run(
        std::process::Command::new(env!("CARGO_BIN_EXE_corbeau")).args([
            "datc",
            "-q",
            file.to_str().unwrap(),
        ]),
        "",
    );
    let text = said(&out);
    assert!(text.contains("0 passed, 4 failed"), "{text}");
}

#[test]
fn adjudicate_takes_the_rules_and_names_them_in_the_results() {
    let dir = support::TempDir::new("editions", "adjudicate");
    let turn = dir.path().join("turn.txt");
    fs::write(
        &turn,
        format!(
            "{KIDNAP}England: A nwy -> swe\nRussia: F swe -> nwy\nGermany: F ska convoys nwy -> swe\n"
        ),
    )
    .unwrap();
    let adjudicate = |extra: &[&str]| {
        let mut args = vec!["adjudicate", "--variant", "classique", "--lang", "en"];
        args.extend_from_slice(extra);
        args.push(turn.to_str().unwrap());
        let out = run(
            std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
                .env_remove("CORBEAU_LANG")
                .args(&args),
            "",
        );
        (out.status.code(), said(&out))
    };
    let (code, old) = adjudicate(&[]);
    assert_eq!(code, Some(0), "{old}");
    assert!(!old.contains(":: rules:"), "{old}");
    assert!(!old.contains("Rules:"), "{old}");
    let (code, kidnapped) = adjudicate(&["--rules", "1971"]);
    assert_eq!(code, Some(0), "{kidnapped}");
    assert!(kidnapped.contains(":: rules: 1971\n"), "{kidnapped}");
    assert!(kidnapped.contains("Rules: 1971 edition"), "{kidnapped}");
    // The army and the fleet swap (and the convoy succeeds) only under 1971 rules.
    assert!(kidnapped.contains("succeeded=3 failed=0"), "{kidnapped}");
    assert!(old.contains("succeeded=0 failed=3"), "{old}");
    let (code, json) = adjudicate(&["--rules", "1971", "--json"]);
    assert_eq!(code, Some(0), "{json}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["rules"], "1971");
    let (code, refused) = adjudicate(&["--rules", "2000"]);
    assert_ne!(code, Some(0), "{refused}");
    assert!(refused.contains("2023, 1982, 1971"), "{refused}");
    // In the language asked for with `--lang`, not the environment's default.
    assert!(refused.contains("unknown rules"), "{refused}");
}

support::judge::clocked_judge!(Judge);

impl Judge {
    fn new(name: &str) -> Judge {
        let at = DateTime::parse_from_rfc3339(NOW).unwrap().to_utc();
        Judge(Clocked::new(root(&format!("editions-{name}"), ""), at))
    }

    /// A classic game on `rules` with England played in English, Russia and Germany in
    /// French, the others by nobody's orders, started on the kidnapping position.
    fn kidnapping(&self, game: &str, rules: Option<&str>) {
        let mut args = vec![
            "game",
            "new",
            game,
            "--variant",
            "classique",
            "--moderator",
            MODERATOR,
            "--no-pictures",
        ];
        if let Some(rules) = rules {
            args.extend(["--rules", rules]);
        }
        self.ok(&args);
        let houses = [
            "austria", "england", "france", "germany", "italy", "russia", "turkey",
        ];
        for house in houses {
            let lang = if house == "england" { "en" } else { "fr" };
            self.ok(&[
                "player",
                "add",
                game,
                house,
                &format!("{house}@example.org"),
                "--secret",
                "secret-de-maison-2026",
                "--player-lang",
                lang,
            ]);
        }
        self.ok(&["game", "start", game]);
        let position = self.dir.join(format!("{game}.pos"));
        fs::write(&position, KIDNAP).unwrap();
        self.ok(&[
            "game",
            "edit",
            game,
            position.to_str().unwrap(),
            "--reason",
            "the DATC kidnapping",
        ]);
    }

    /// Each house's orders by mail, then the phase processed; the results mail of
    /// England (English) and of Russia (French).
    fn play(&mut self, game: &str) -> (String, String) {
        for (house, sign_on, orders) in [
            ("england", "SIGNON", "A nwy -> swe"),
            ("russia", "PARTIE", "F swe -> nwy"),
            ("germany", "PARTIE", "F ska convoys nwy -> swe"),
        ] {
            let from = format!("{house}@example.org");
            let answers = self.post(
                &from,
                &format!("{sign_on} {game} {house} secret-de-maison-2026\n{orders}\n"),
            );
            assert_eq!(answers.len(), 1, "{house}: {answers:?}");
        }
        self.ok(&["game", "process", game]);
        self.ok(&["tick"]);
        let results = |to: &str| {
            self.news(to)
                .into_iter()
                .map(|m| body_of(&m))
                .find(|b| b.contains(":: counts:"))
                .unwrap_or_else(|| panic!("no results for {to}"))
        };
        (
            results("england@example.org"),
            results("russia@example.org"),
        )
    }
}

#[test]
fn a_game_by_mail_on_1971_rules_carries_a_kidnapped_army_in_both_languages() {
    let mut j = Judge::new("mail");
    j.kidnapping("vieux", Some("1971"));
    let shown = j.ok(&["game", "show", "vieux"]);
    assert!(shown.contains("Règles : édition 1971"), "{shown}");
    let (en, fr) = j.play("vieux");
    for text in [&en, &fr] {
        assert!(text.contains(":: rules: 1971\n"), "{text}");
    }
    assert!(en.contains("Rules: 1971 edition"), "{en}");
    assert!(fr.contains("Règles : édition 1971"), "{fr}");
    // The English army lands in Sweden, the Russian fleet in Norway: nothing fails.
    for text in [&en, &fr] {
        assert!(text.contains("succeeded=3 failed=0"), "{text}");
        assert!(text.contains(": A swe\n"), "{text}");
        assert!(text.contains(": F nwy\n"), "{text}");
    }
    assert!(!en.contains("failed:"), "{en}");
    assert!(!fr.contains("échoué"), "{fr}");
}

/// The same orders on the default rules: the German convoy shows no English intent, the
/// army goes by land and bounces off the fleet coming the other way.
#[test]
fn the_same_game_on_the_default_rules_bounces() {
    let mut j = Judge::new("default");
    j.kidnapping("neuf", None);
    let (en, fr) = j.play("neuf");
    assert!(!en.contains(":: rules:"), "{en}");
    assert!(!en.contains("Rules:"), "{en}");
    assert!(!fr.contains("Règles"), "{fr}");
    for text in [&en, &fr] {
        assert!(text.contains("succeeded=0 failed=3"), "{text}");
    }
    assert!(en.contains("failed"), "{en}");
    assert!(fr.contains("échoué"), "{fr}");
}

#[test]
fn the_rules_change_before_the_start_and_are_refused_after_it_in_both_languages() {
    let j = Judge::new("set");
    j.ok(&[
        "game",
        "new",
        "reglee",
        "--variant",
        "classique",
        "--moderator",
        MODERATOR,
    ]);
    let changed = j.ok(&["game", "set", "reglee", "--rules", "dptg", "--lang", "en"]);
    assert!(changed.contains("rules: 2023 → dptg"), "{changed}");
    let changed = j.ok(&["game", "set", "reglee", "--rules", "1971"]);
    assert!(changed.contains("règles : dptg → 1971"), "{changed}");
    let unknown = run(
        &mut j.command(&["game", "set", "reglee", "--rules", "2000"]),
        "",
    );
    assert_ne!(unknown.status.code(), Some(0));
    assert!(
        said(&unknown).contains("règles « 2000 » inconnues"),
        "{}",
        said(&unknown)
    );
    for house in [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ] {
        j.ok(&[
            "player",
            "add",
            "reglee",
            house,
            &format!("{house}@example.org"),
        ]);
    }
    j.ok(&["game", "start", "reglee"]);
    for (lang, reason) in [
        (
            "fr",
            "les règles ne changent plus une fois la partie commencée",
        ),
        ("en", "the rules cannot change once the game has started"),
    ] {
        let refused = run(
            &mut j.command(&["game", "set", "reglee", "--rules", "2023", "--lang", lang]),
            "",
        );
        assert_ne!(refused.status.code(), Some(0));
        assert!(
            said(&refused).contains(reason),
            "{lang}: {}",
            said(&refused)
        );
        assert!(
            said(&refused).contains("1971"),
            "{lang}: {}",
            said(&refused)
        );
    }
    let shown = j.ok(&["game", "show", "reglee", "--lang", "en"]);
    assert!(shown.contains("Rules: 1971 edition"), "{shown}");
}
