//! `corbeau serve` as a moderator runs it: it reads its Maildir at each pass, lets the
//! moderator's commands use the store between passes, a `corbeau ingest` from an MTA pipe
//! that finds the store in use leaves the mail in the spool for the next pass, and SIGTERM
//! stops it cleanly between two passes.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root(name: &str) -> support::TempDir {
    let dir = support::TempDir::new("serve", name);
    fs::create_dir_all(dir.join("inbox/new")).unwrap();
    fs::create_dir_all(dir.join("inbox/cur")).unwrap();
    fs::create_dir_all(dir.join("inbox/tmp")).unwrap();
    fs::write(
        dir.join("corbeau.toml"),
        "[mail]\nmaildir = \"inbox\"\n[serve]\ninterval = 1\n",
    )
    .unwrap();
    dir
}

fn corbeau(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    c.current_dir(dir)
        .env("CORBEAU_CONFIG", dir.join("corbeau.toml"))
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_NOW")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_LOG")
        .env_remove("JOURNAL_STREAM");
    c
}

fn mail(from: &str, id: &str, body: &str) -> String {
    format!("From: {from}\r\nSubject: test\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n")
}

/// The replies in the outbox folder, addressed to `to`.
fn replies_to(dir: &Path, to: &str) -> usize {
    let Ok(entries) = fs::read_dir(dir.join("corbeau-data/outbox")) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .filter(|e| {
            fs::read_to_string(e.path()).is_ok_and(|t| t.contains(&format!("To: {to}\r\n")))
        })
        .count()
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let give_up = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < give_up, "waited in vain for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_reads_its_maildir_and_the_spool_and_stops_on_sigterm() {
    let dir = root("loop");
    let mut serve = corbeau(&dir)
        .arg("serve")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // A mail delivered into the configured Maildir.
    let raw = mail("alice@example.org", "1@example.org", "LISTE");
    fs::write(dir.join("inbox/tmp/1"), &raw).unwrap();
    fs::rename(dir.join("inbox/tmp/1"), dir.join("inbox/new/1")).unwrap();
    wait_for("the answer to the Maildir's mail", || {
        replies_to(&dir, "alice@example.org") == 1
    });
    let cur: Vec<String> = fs::read_dir(dir.join("inbox/cur"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(cur, ["1:2,S"]);

    // Between passes the store is free for the moderator.
    let list = corbeau(&dir).args(["game", "list"]).output().unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );

    // `ingest` from a pipe while another process holds the store and never lets it go:
    // 75 (the MTA keeps the mail and tries again), nothing kept, nothing done; the retry
    // once the store is free is answered once.
    let held = corbeau::store::Store::open(&dir.join("corbeau-data")).unwrap();
    let pipe = |dir: &Path| {
        let mut ingest = corbeau(dir)
            .arg("ingest")
            .env("CORBEAU_STORE_WAIT", "0.3")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        ingest
            .stdin
            .take()
            .unwrap()
            .write_all(mail("bob@example.org", "2@example.org", "HELP").as_bytes())
            .unwrap();
        ingest.wait_with_output().unwrap()
    };
    let out = pipe(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{err}");
    assert!(err.contains("in use by another corbeau process"), "{err}");
    assert_eq!(
        fs::read_dir(dir.join("corbeau-data/incoming/new"))
            .unwrap()
            .count(),
        0
    );
    drop(held);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(replies_to(&dir, "bob@example.org"), 0);
    let out = pipe(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    wait_for("the answer to the piped mail", || {
        replies_to(&dir, "bob@example.org") == 1
    });

    // SIGTERM: a clean stop, and the store is free again at once.
    let pid = serve.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let give_up = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = serve.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < give_up, "serve did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut serve.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    assert!(err.contains("arrêt propre"), "{err}");
    let list = corbeau(&dir).args(["game", "list"]).output().unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
}

#[test]
fn bad_mail_input_is_said_clearly_and_nothing_is_lost() {
    let dir = root("bad-input");
    // Not a Maildir (maybe not mounted yet): exit 75, said in the moderator's language,
    // no store touched.
    let out = corbeau(&dir)
        .args(["ingest", "--maildir", "nowhere"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{err}");
    assert!(err.contains("nowhere : ce n'est pas un Maildir"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // A file that is no mail at all is set aside, flagged, never deleted; a good mail
    // beside it is answered.
    fs::write(dir.join("inbox/new/junk"), b"\x00\x01 not a mail").unwrap();
    let raw = mail("alice@example.org", "ok@example.org", "AIDE");
    fs::write(dir.join("inbox/new/good"), raw).unwrap();
    let out = corbeau(&dir).arg("tick").output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(" ALERTE courrier illisible, mis de côté : junk"),
        "{text}"
    );
    assert_eq!(
        fs::read(dir.join("inbox/cur/junk:2,FS")).unwrap(),
        b"\x00\x01 not a mail"
    );
    assert!(dir.join("inbox/cur/good:2,S").exists());
    assert_eq!(replies_to(&dir, "alice@example.org"), 1);
}
