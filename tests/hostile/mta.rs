//! The judge behind a mail server: `corbeau ingest` exits 75 on a temporary failure and
//! then has done nothing (the retry is acted on once), a mail that cannot be handled is
//! quarantined without stopping the mails behind it, raw mails are pruned after the
//! retention, lateness is judged by the time the mail reached the judge, a hung sendmail
//! is stopped, and a person typing on stdin does not hold the store.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::support::judge::{corbeau, deliver, files, mail, mails_to, root, run, said};

const GAME: &str = "bataille";

#[test]
fn a_busy_store_gives_75_and_nothing_done_then_the_retry_is_acted_on_once() {
    let dir = root("busy", "");
    let raw = mail("bob@example.org", "busy@example.org", "AIDE");
    let held = crate::support::backend::open_store(&dir.join("data"));
    let out = run(corbeau(&dir).arg("ingest"), &raw);
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));
    assert!(files(&dir.join("data/incoming/new")).is_empty());
    assert!(files(&dir.join("data/incoming/tmp")).is_empty());
    drop(held);
    // Nothing kept, so no later pass acts on it behind the mail server's back.
    let out = run(corbeau(&dir).arg("tick"), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(mails_to(&dir, "bob@example.org").is_empty());
    // The mail server's retry: acted on; a second delivery of it: found done.
    for _ in 0..2 {
        let out = run(corbeau(&dir).arg("ingest"), &raw);
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    }
    assert_eq!(mails_to(&dir, "bob@example.org").len(), 1);
}

#[test]
fn a_missing_maildir_or_configuration_gives_75_and_nothing_done() {
    let dir = root("nomaildir", "");
    fs::remove_dir_all(dir.join("inbox")).unwrap();
    let raw = mail("bob@example.org", "nomaildir@example.org", "AIDE");
    let out = run(corbeau(&dir).arg("ingest"), &raw);
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));
    assert!(said(&out).contains("inbox"), "{}", said(&out));
    assert!(files(&dir.join("data/incoming/new")).is_empty());
    let out = run(
        corbeau(&dir)
            .arg("ingest")
            .env("CORBEAU_CONFIG", dir.join("nowhere.toml")),
        &raw,
    );
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));
    // Not a mail at all: retrying cannot help.
    let out = run(corbeau(&dir).arg("ingest"), "\n");
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    // Once the Maildir is back, the retry is answered, once.
    for sub in ["inbox/new", "inbox/cur", "inbox/tmp"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let out = run(corbeau(&dir).arg("ingest"), &raw);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(mails_to(&dir, "bob@example.org").len(), 1);
}

/// What decides between "left for the retry, 75" and "quarantined" for a mail: the store
/// failing (busy, a read or write error, a copy that cannot be made) or refusing to be
/// used as it is waits; a damaged store, a template that breaks, a bug and the game's
/// refusal do not.
#[test]
fn a_store_failure_during_a_mail_waits_and_nothing_else_does() {
    use corbeau::game::{GameError, SecretFailure};
    use corbeau::mail::maildir::is_temporary;
    use corbeau::service::{Bug, ServiceError};
    use corbeau::store::StoreError;
    let path = std::path::PathBuf::from("data/db");
    let waits = [
        StoreError::Locked(path.clone()),
        StoreError::Io(sled::Error::Unsupported("disk full".into())),
        StoreError::Backup {
            path: path.clone(),
            reason: "no room".into(),
        },
        StoreError::NewerSchema { path, found: 9 },
    ];
    for e in waits {
        let e = ServiceError::from(e);
        assert!(is_temporary(&e), "{e:?}");
    }
    let final_ = [
        ServiceError::from(StoreError::Corrupt("bad value".into())),
        ServiceError::from(StoreError::Exists("bataille".into())),
        ServiceError::Bug(Bug::NoPhaseRecord),
        ServiceError::Game(GameError::NothingToRollback),
        ServiceError::Game(GameError::Secret(SecretFailure::Random("no bytes".into()))),
    ];
    for e in final_ {
        assert!(!is_temporary(&e), "{e:?}");
    }
}

#[test]
fn a_poison_mail_is_quarantined_and_the_mail_behind_it_is_answered() {
    let dir = root("poison", "");
    let now = SystemTime::now();
    deliver(
        &dir,
        "1.poison",
        &mail("eve@example.org", "p@example.org", "POISON"),
        now,
    );
    deliver(
        &dir,
        "2.good",
        &mail("bob@example.org", "g@example.org", "AIDE"),
        now,
    );
    let out = run(
        corbeau(&dir)
            .arg("tick")
            .env("CORBEAU_POISON", "panic:POISON"),
        "",
    );
    let text = said(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("mis de côté : 1.poison"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert_eq!(
        files(&dir.join("inbox/cur")),
        ["1.poison:2,FS", "2.good:2,S"]
    );
    assert!(files(&dir.join("inbox/new")).is_empty());
    assert_eq!(mails_to(&dir, "bob@example.org").len(), 1);
    let log = fs::read_to_string(dir.join("data/quarantine.log")).unwrap();
    assert!(log.contains("1.poison:2,FS"), "{log}");
    assert!(log.contains("CORBEAU_POISON"), "{log}");
    let told = mails_to(&dir, "admin@example.org");
    assert_eq!(told.len(), 1);
    assert!(told[0].contains("eve@example.org"), "{}", told[0]);
    assert!(
        told[0].contains("son expéditeur en est averti"),
        "{}",
        told[0]
    );
    // The sender is answered: nothing was done, the administrator is told.
    let answer = mails_to(&dir, "eve@example.org");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].contains("In-Reply-To: <p@example.org>"),
        "{}",
        answer[0]
    );
    assert!(
        answer[0].contains("n'a pas pu traiter votre courrier"),
        "{}",
        answer[0]
    );
    assert!(
        answer[0].contains("L'administrateur du juge en est averti"),
        "{}",
        answer[0]
    );
}

#[test]
fn an_automatic_mail_set_aside_is_not_answered() {
    let dir = root("poisonauto", "");
    deliver(
        &dir,
        "1.poison",
        &format!(
            "Auto-Submitted: auto-replied\r\n{}",
            mail("robot@example.org", "r@example.org", "POISON")
        ),
        SystemTime::now(),
    );
    let out = run(
        corbeau(&dir)
            .arg("tick")
            .env("CORBEAU_POISON", "panic:POISON"),
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(files(&dir.join("inbox/cur")), ["1.poison:2,FS"]);
    assert!(mails_to(&dir, "robot@example.org").is_empty());
    assert_eq!(mails_to(&dir, "admin@example.org").len(), 1);
}

#[test]
fn a_mail_that_kills_the_judge_is_tried_alone_then_set_aside_and_its_sender_answered() {
    let dir = root("killer", "");
    let now = SystemTime::now();
    deliver(
        &dir,
        "1.killer",
        &mail("Eve <eve@example.org>", "k@example.org", "KILLER"),
        now,
    );
    deliver(
        &dir,
        "2.good",
        &mail("bob@example.org", "g2@example.org", "AIDE"),
        now,
    );
    // It kills the pass that has it in hand.
    let out = run(
        corbeau(&dir)
            .arg("tick")
            .env("CORBEAU_POISON", "abort:KILLER"),
        "",
    );
    assert_ne!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(files(&dir.join("inbox/new")), ["1.killer", "2.good"]);
    // The next pass tries it alone, in a child that dies of it while the pass lives: set
    // aside, and the mail behind it answered in the same pass.
    let out = run(
        corbeau(&dir)
            .arg("tick")
            .env("CORBEAU_POISON", "abort:KILLER"),
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(said(&out).contains("une fois seul"), "{}", said(&out));
    assert_eq!(
        files(&dir.join("inbox/cur")),
        ["1.killer:2,FS", "2.good:2,S"]
    );
    assert!(!dir.join("data/handling").exists());
    assert_eq!(mails_to(&dir, "bob@example.org").len(), 1);
    let told = mails_to(&dir, "admin@example.org");
    assert_eq!(told.len(), 1);
    assert!(told[0].contains("eve@example.org"), "{}", told[0]);
    // Its sender is answered from its headers alone (it is not parsed again).
    let answer = mails_to(&dir, "eve@example.org");
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0].contains("In-Reply-To: <k@example.org>"),
        "{}",
        answer[0]
    );
}

#[test]
fn a_mail_in_hand_when_the_judge_is_killed_twice_from_outside_is_not_set_aside() {
    let dir = root("killedtwice", "");
    deliver(
        &dir,
        "1.slow",
        &mail("bob@example.org", "slow@example.org", "AIDE"),
        SystemTime::now(),
    );
    // As a process killed twice while this mail was in hand leaves it (the mark names
    // the mail in hand and how many handlings of it began).
    let path = dir.join("inbox/new/1.slow");
    fs::create_dir_all(dir.join("data")).unwrap();
    fs::write(
        dir.join("data/handling"),
        format!("{}\n2\n", path.display()),
    )
    .unwrap();
    let out = run(corbeau(&dir).arg("tick"), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(files(&dir.join("inbox/cur")), ["1.slow:2,S"]);
    assert_eq!(mails_to(&dir, "bob@example.org").len(), 1);
    assert!(!dir.join("data/quarantine.log").exists());
    assert!(!dir.join("data/handling").exists());
}

#[test]
fn raw_mails_are_pruned_after_the_retention() {
    let dir = root("retention", "retention_days = 30\n");
    let day = Duration::from_secs(86_400);
    let now = SystemTime::now();
    let old = now - day * 40;
    let recent = now - day * 10;
    let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).unwrap().as_secs();
    for (at, sub) in [
        (old, "inbox/cur"),
        (recent, "inbox/cur"),
        (old, "data/incoming/cur"),
    ] {
        let path = dir.join(sub);
        fs::create_dir_all(&path).unwrap();
        let file = path.join(format!("{}.M1P1.host:2,S", secs(at)));
        fs::write(&file, "From: a@example.org\r\n\r\nsecret\r\n").unwrap();
        fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }
    let out = run(corbeau(&dir).arg("tick"), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        said(&out).contains("2 courrier(s) brut(s) supprimé(s)"),
        "{}",
        said(&out)
    );
    assert_eq!(
        files(&dir.join("inbox/cur")),
        [format!("{}.M1P1.host:2,S", secs(recent))]
    );
    assert!(files(&dir.join("data/incoming/cur")).is_empty());
}

/// A game of three started at `start`: its deadline.
fn started_game(dir: &Path, start: &str) -> String {
    let ok = |args: &[&str]| {
        let out = run(corbeau(dir).args(args).env("CORBEAU_NOW", start), "");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", said(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    ok(&["game", "new", GAME, "--players", "3"]);
    for (house, secret) in [
        ("stark", "loup-gris"),
        ("lannister", "lion-dor"),
        ("baratheon", "cerf-noir"),
    ] {
        let address = format!("{house}@example.org");
        ok(&["player", "add", GAME, house, &address, "--secret", secret]);
    }
    ok(&["game", "start", GAME]);
    let show: serde_json::Value =
        serde_json::from_str(&ok(&["game", "show", GAME, "--json"])).unwrap();
    show["deadline"].as_str().unwrap().to_string()
}

#[test]
fn lateness_is_judged_by_the_time_the_mail_reached_the_judge() {
    let dir = root("arrival", "");
    let deadline = started_game(&dir, "2026-03-23T08:00:00Z");
    let deadline = chrono::DateTime::parse_from_rfc3339(&deadline).unwrap();
    let at = |offset: i64| {
        let t = deadline.timestamp() + offset;
        (
            t,
            UNIX_EPOCH + Duration::from_secs(u64::try_from(t).unwrap()),
        )
    };
    // Stark's mail reached the judge a minute before the deadline; Lannister's a day
    // after (past any grace). The pass reads both two days after the deadline, and its
    // forged Date: header says Lannister wrote in time.
    let (t, m) = at(-60);
    deliver(
        &dir,
        &format!("{t}.M1P1.stark"),
        &mail(
            "stark@example.org",
            "s@example.org",
            &format!("PARTIE {GAME} stark loup-gris\nORDRES\nA win -> cno\nFIN"),
        ),
        m,
    );
    let (t, m) = at(86_400);
    deliver(
        &dir,
        &format!("{t}.M1P1.lannister"),
        &format!(
            "Date: Mon, 1 Jan 2024 00:00:00 +0000\r\n{}",
            mail(
                "lannister@example.org",
                "l@example.org",
                &format!("PARTIE {GAME} lannister lion-dor\nORDRES\nA pie H\nFIN"),
            )
        ),
        m,
    );
    let pass = (deadline + chrono::TimeDelta::days(2)).to_rfc3339();
    let out = run(corbeau(&dir).arg("tick").env("CORBEAU_NOW", &pass), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let stark = mails_to(&dir, "stark@example.org").join("\n");
    assert!(!stark.contains("trop tard"), "{stark}");
    let lannister = mails_to(&dir, "lannister@example.org").join("\n");
    assert!(lannister.contains("trop tard"), "{lannister}");
}

/// An executable shell script `name` in `dir`.
fn script(dir: &Path, name: &str, text: &str) {
    let script = dir.join(name);
    fs::write(&script, text).unwrap();
    let mut perms = fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&script, perms).unwrap();
}

#[test]
fn a_hung_sendmail_is_stopped_after_its_timeout_and_the_mail_kept() {
    let dir = root(
        "sendmail",
        "transport = \"sendmail\"\n[mail.sendmail]\ncommand = \"./hung-sendmail\"\ntimeout = 1\n",
    );
    script(&dir, "hung-sendmail", "#!/bin/sh\nsleep 30\n");
    let began = Instant::now();
    let out = run(
        corbeau(&dir).arg("ingest"),
        &mail("bob@example.org", "hung@example.org", "AIDE"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(began.elapsed() < Duration::from_secs(10));
    assert!(
        said(&out).contains("no answer within 1 s"),
        "{}",
        said(&out)
    );
    let out = run(corbeau(&dir).args(["outbox", "--json"]), "");
    assert!(said(&out).contains("bob@example.org"), "{}", said(&out));
}

/// A pass that never ends once the mail is acted on (a transport that hangs past its
/// own timeout, a write that never returns on a nearly full disk): the mail server is
/// not kept waiting; `ingest` stops at its limit with 0, the answer kept for the next
/// pass.
#[test]
fn a_piped_ingest_stuck_after_acting_stops_at_its_limit_with_0() {
    let dir = root(
        "stuck",
        "transport = \"sendmail\"\n[mail.sendmail]\ncommand = \"./stuck-sendmail\"\ntimeout = 120\n",
    );
    script(&dir, "stuck-sendmail", "#!/bin/sh\nexec sleep 60\n");
    let began = Instant::now();
    let out = run(
        corbeau(&dir).arg("ingest").env("CORBEAU_INGEST_LIMIT", "2"),
        &mail("bob@example.org", "stuck@example.org", "AIDE"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
    assert!(
        said(&out).contains("toujours en cours après 2 s : arrêté. Le courriel a été exécuté"),
        "{}",
        said(&out)
    );
    let out = run(corbeau(&dir).args(["outbox", "--json"]), "");
    assert!(said(&out).contains("bob@example.org"), "{}", said(&out));
}

#[test]
fn a_moderator_typing_orders_does_not_hold_the_store() {
    let dir = root("typing", "");
    // `tick` makes the store; the commands that need one create none.
    let out = run(corbeau(&dir).args(["tick"]), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let mut typing = corbeau(&dir)
        .args(["orders", "submit", GAME, "stark"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = typing.stdin.take().unwrap();
    stdin.write_all(b"A win -> cno\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // Still typing: the store is free for everyone else.
    let began = Instant::now();
    let out = run(corbeau(&dir).args(["game", "list"]), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(began.elapsed() < Duration::from_secs(2));
    drop(stdin);
    let out = typing.wait_with_output().unwrap();
    // The game does not exist: said once the orders are read.
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
}
