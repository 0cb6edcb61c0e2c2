//! A store written by the release of schema 1 (`tests/fixtures/store-v1`, made by its
//! `make.sh` with the binary of commit dbbd48b) opens with this corbeau, and its games go
//! on: processing the next phase of each running game gives what the v1 release gave
//! (`tests/fixtures/store-v1/golden/`, written by v1 itself: never blessed from here).
//!
//! This guards every step of the typed-core redesign: whatever the store's
//! schema becomes, a v1 store must migrate and play on.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pretty_assertions::assert_eq;
use serde_json::Value;

/// The running games of the fixture, whose next phase the goldens hold.
const RUNNING: [&str; 4] = ["bataille", "retraite", "classique", "perso"];

use support::store_copy::{NOW, StoreCopy, fixture};

fn golden(name: &str) -> String {
    let path = fixture().join("golden").join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A schema-2 game as v1 showed it: schema 2 shows the variant as the game keeps it, its
/// name and the hash of its content (docs/storage.md); v1 showed the name alone, and had no
/// setting added since.
fn v1_view(game: &Value) -> Value {
    let mut game = game.clone();
    let pin = game["variant"].clone();
    let hash = pin["hash"].as_str().unwrap_or_default();
    assert!(
        hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{pin}"
    );
    game["variant"] = pin["name"].clone();
    // Settings added since v1 take their default: a v1 game's mails carry pictures.
    let settings = game["settings"].as_object_mut().unwrap();
    assert_eq!(settings.remove("pictures"), Some(Value::Bool(true)));
    // Addresses hidden and grey press authors unsaid, as v1 games read.
    assert_eq!(settings.remove("show_addresses"), Some(Value::Bool(false)));
    assert_eq!(settings.remove("reveal_grey"), Some(Value::Bool(false)));
    // Joining: a v1 game is closed, and would start when full if opened.
    assert_eq!(settings.remove("open"), Some(Value::Bool(false)));
    assert_eq!(settings.remove("start_when_full"), Some(Value::Bool(true)));
    // A v1 game plays without the bot.
    assert_eq!(settings.remove("bots"), Some(Value::Bool(false)));
    game
}

/// A results text as v1 wrote it, less what has changed since on purpose: the centre table
/// no longer lists at zero the houses holding neither centre nor unit (docs/results-format.md),
/// and a winter table says it is before the adjustments.
fn v1_text(text: &str) -> String {
    let zeros = |l: &str| {
        let words: Vec<&str> = l.split_whitespace().collect();
        l.starts_with("  ") && words.len() >= 4 && words[words.len() - 3..] == ["0", "0", "0"]
    };
    let mut out: String = text
        .split_inclusive('\n')
        .filter(|l| !zeros(l.trim_end()))
        .collect();
    for (v1, now) in [
        (
            "Centres de ravitaillement\n  Maison",
            "Centres de ravitaillement avant les constructions et dissolutions de cet hiver\n  Maison",
        ),
        (
            "Supply centres\n  House",
            "Supply centres before this winter's builds and disbands\n  House",
        ),
    ] {
        let winter = text
            .lines()
            .any(|l| l.starts_with(":: phase: ") && l.ends_with(" winter adjustment"));
        if winter {
            out = out.replace(v1, now);
        }
    }
    out
}

/// A v1 `history` list as this judge prints it: phases numbered from 1
/// as `game show` and the page number them, times in the game's zone as its deadlines.
fn v1_history(text: &str, zone: chrono_tz::Tz) -> String {
    text.lines()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let [number, .., day, time, "UTC"] = words.as_slice() else {
                return format!("{l}\n");
            };
            let phase = words[1..words.len() - 3].join(" ");
            let utc =
                chrono::NaiveDateTime::parse_from_str(&format!("{day} {time}"), "%Y-%m-%d %H:%M")
                    .unwrap()
                    .and_utc();
            format!(
                "{:>3}  {:<28} {}\n",
                number.parse::<u32>().unwrap() + 1,
                phase,
                utc.with_timezone(&zone).format("%Y-%m-%d %H:%M %Z")
            )
        })
        .collect()
}

/// The time zone each game of the fixture was made with (its make.sh).
fn zone(game: &str) -> chrono_tz::Tz {
    match game {
        "bataille" | "retraite" => chrono_tz::Europe::Paris,
        _ => chrono_tz::UTC,
    }
}

#[test]
fn a_v1_store_lists_and_shows_its_games_as_v1_did() {
    let copy = StoreCopy::new("store-v1", "list");
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
            list.lines()
                .any(|l| l.starts_with(game) && l.contains(state)),
            "{list}"
        );
    }
    // The mails the failed transport left in the outbox are still there.
    let outbox = copy.ok(&["outbox"]);
    assert!(outbox.contains("[bataille] Presse de Stark"), "{outbox}");
}

#[test]
fn a_v1_store_plays_its_next_phases_as_v1_did() {
    let copy = StoreCopy::new("store-v1", "play");
    for game in RUNNING {
        assert_eq!(
            v1_text(&golden(&format!("{game}.process.txt"))),
            copy.ok(&["game", "process", game]),
            "{game}: game process"
        );
        assert_eq!(
            v1_history(&golden(&format!("{game}.history.txt")), zone(game)),
            copy.ok(&["history", game]),
            "{game}: history"
        );
        assert_eq!(
            golden(&format!("{game}.history.json")),
            copy.ok(&["history", game, "--json"]),
            "{game}: history --json"
        );
        let before: Value = serde_json::from_str(&golden(&format!("{game}.after.json"))).unwrap();
        let after: Value =
            serde_json::from_str(&copy.ok(&["game", "show", game, "--json"])).unwrap();
        assert_eq!(before, v1_view(&after), "{game}: game show --json");
    }
    assert_eq!(golden("list.after.txt"), copy.ok(&["game", "list"]));
    // The audit trail of a game made by mail and by command reads.
    let audit = copy.ok(&["game", "audit", "bataille"]);
    assert!(audit.contains("process"), "{audit}");
}

/// The schema version written in a store (read with sled, no corbeau running).
fn schema(data: &Path) -> u32 {
    let db = support::open_sled(data);
    let meta = db.open_tree("meta").unwrap();
    let bytes = meta.get("schema").unwrap().unwrap();
    u32::from_be_bytes(bytes.as_ref().try_into().unwrap())
}

/// The copies of the store kept by a migration, beside it.
fn backups(copy: &StoreCopy) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(&copy.root)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("data.v1-backup-")
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

#[test]
fn the_migration_runs_once_says_so_and_keeps_the_v1_store() {
    let copy = StoreCopy::new("store-v1", "once");
    assert_eq!(schema(&copy.root.join("data")), 1);
    let first = copy.run(&["game", "list"]);
    assert!(first.status.success());
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(
        said.contains("est passé du schéma 1 au schéma 2") && said.contains("data.v1-backup-"),
        "{said}"
    );
    assert_eq!(golden("list.txt"), String::from_utf8_lossy(&first.stdout));
    let kept = backups(&copy);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(schema(&copy.root.join("data")), 2);
    // The copy is the v1 store as it was: schema 1, every game there.
    assert_eq!(schema(&kept[0]), 1);
    let db = support::open_sled(&kept[0]);
    assert_eq!(db.open_tree("games").unwrap().len(), 7);
    drop(db);
    // The next commands say nothing and copy nothing.
    let second = copy.run(&["game", "list"]);
    assert!(second.status.success());
    assert_eq!(String::from_utf8_lossy(&second.stderr), "");
    assert_eq!(backups(&copy).len(), 1);
}

#[test]
fn a_variant_file_gone_refuses_the_migration_and_changes_nothing() {
    let copy = StoreCopy::new("store-v1", "gone");
    // From another directory, `variants/perso.toml` (relative, as the moderator gave it)
    // is not there.
    let elsewhere = copy.root.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let out = copy.run_in(&elsewhere, &["game", "list"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("the game perso plays the variant variants/perso.toml")
            && said.contains("nothing was changed"),
        "{said}"
    );
    assert!(!said.contains("panicked"), "{said}");
    assert_eq!(schema(&copy.root.join("data")), 1);
    assert!(backups(&copy).is_empty());
    // A file that is there but no longer a variant refuses it too.
    fs::write(copy.root.join("variants/perso.toml"), "[variant]\n").unwrap();
    let out = copy.run(&["game", "list"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the game perso plays the variant"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(schema(&copy.root.join("data")), 1);
    // Once the file is back, it migrates and plays on.
    fs::copy(
        fixture().join("variants/perso.toml"),
        copy.root.join("variants/perso.toml"),
    )
    .unwrap();
    assert_eq!(golden("list.txt"), copy.ok(&["game", "list"]));
    assert_eq!(schema(&copy.root.join("data")), 2);
}

#[test]
fn after_the_migration_the_variant_file_is_never_read_again() {
    let copy = StoreCopy::new("store-v1", "pinned");
    copy.ok(&["game", "list"]);
    fs::remove_file(copy.root.join("variants/perso.toml")).unwrap();
    let elsewhere = copy.root.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let out = copy.run_in(&elsewhere, &["game", "process", "perso"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        golden("perso.process.txt"),
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn mail_piped_while_the_migration_is_refused_waits_with_75() {
    let copy = StoreCopy::new("store-v1", "mta");
    for sub in ["inbox/new", "inbox/cur", "inbox/tmp"] {
        fs::create_dir_all(copy.root.join(sub)).unwrap();
    }
    let elsewhere = copy.root.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let raw = "From: bob@example.org\r\nSubject: liste\r\nMessage-ID: <mta-1@example.org>\r\n\r\nLISTE\r\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .arg("ingest")
        .current_dir(&elsewhere)
        .env("CORBEAU_CONFIG", copy.root.join("corbeau.toml"))
        .env("CORBEAU_DATA", copy.root.join("data"))
        .env("CORBEAU_NOW", NOW)
        .env_remove("CORBEAU_LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        // The judge may stop before reading it all: what matters is its exit code.
        let _ = input.write_all(raw.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    // The MTA keeps the mail and tries again: no bounce while the administrator puts
    // the variant file back.
    assert_eq!(out.status.code(), Some(75), "{said}");
    assert!(said.contains("variants/perso.toml"), "{said}");
    assert_eq!(schema(&copy.root.join("data")), 1);
}

/// The v1 outbox's mails, as v1 stored them (read with sled, no corbeau running).
fn v1_outbox(data: &Path) -> Vec<Value> {
    let db = support::open_sled(data);
    let outbox = db.open_tree("outbox").unwrap();
    outbox
        .iter()
        .values()
        .map(|v| serde_json::from_slice(&v.unwrap()).unwrap())
        .collect()
}

#[test]
fn the_v1_outbox_mails_are_sent_after_the_migration_as_v1_queued_them() {
    let copy = StoreCopy::new("store-v1", "outbox");
    let queued = v1_outbox(&copy.root.join("data"));
    assert!(queued.len() >= 2, "{queued:?}");
    // The outbox folder now, rather than the sendmail that always failed.
    let config = fs::read_to_string(copy.root.join("corbeau.toml")).unwrap();
    fs::write(
        copy.root.join("corbeau.toml"),
        config.replace("transport = \"sendmail\"", "transport = \"outbox\""),
    )
    .unwrap();
    // Listed with their recipient and subject, read from the converted envelopes.
    let listed: Value = serde_json::from_str(&copy.ok(&["outbox", "--json"])).unwrap();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), queued.len());
    for (old, new) in queued.iter().zip(listed) {
        for field in ["message_id", "to", "subject", "game", "attempts"] {
            assert_eq!(old[field], new[field], "{field}");
        }
    }
    copy.ok(&["outbox", "--retry"]);
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(copy.root.join("inbox").join(sub)).unwrap();
    }
    copy.ok(&["tick"]);
    let folder = copy.root.join("data/outbox");
    let mut sent: Vec<Vec<u8>> = fs::read_dir(&folder)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| fs::read(e.path()).unwrap())
        .collect();
    sent.sort();
    for old in &queued {
        let id = old["message_id"].as_str().unwrap();
        let raw = sent
            .iter()
            .find(|raw| String::from_utf8_lossy(raw).contains(id))
            .unwrap_or_else(|| panic!("{id} not sent"));
        let parsed = mail_parser::MessageParser::default().parse(raw).unwrap();
        assert_eq!(parsed.message_id(), Some(id));
        assert_eq!(
            parsed.to().unwrap().first().unwrap().address(),
            old["to"].as_str()
        );
        assert_eq!(
            parsed.from().unwrap().first().unwrap().address(),
            Some("juge@example.org")
        );
        assert_eq!(parsed.subject(), old["subject"].as_str());
        assert_eq!(
            parsed.in_reply_to().as_text(),
            old["in_reply_to"].as_str(),
            "In-Reply-To"
        );
        assert_eq!(
            parsed.header_raw("X-Corbeau-Game").map(str::trim),
            old["game"].as_str()
        );
        assert_eq!(
            parsed.date().unwrap().to_timestamp(),
            chrono::DateTime::parse_from_rfc3339(old["queued"].as_str().unwrap())
                .unwrap()
                .timestamp(),
            "Date is the time queued"
        );
        let body = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert_eq!(Some(body.as_str()), old["body"].as_str());
    }
    assert!(
        copy.ok(&["outbox", "--json"]).trim() == "[]",
        "every mail left the outbox"
    );
}
