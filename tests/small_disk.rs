//! Little disk left: on a small file system (a tmpfs, mounted when the tests run as root)
//! filled to 60–300 KB, `corbeau ingest` of mail after mail and `corbeau tick` each end
//! within seconds, with 0 (the mail was acted on) or 75 (nothing was done: the mail
//! server keeps it and tries again). Once space is freed, every mail that got 0 has its
//! one answer and every mail that got 75 none.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::judge::mail;

const HOUSES: [&str; 3] = ["stark", "lannister", "baratheon"];
/// Longer than any run of a command on a small disk should take, even under load.
const LIMIT: Duration = Duration::from_secs(30);

/// A tmpfs mounted for the test, unmounted when dropped.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = fs::remove_dir(&self.0);
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn mount(name: &str) -> Option<Mounted> {
    let dir = std::env::temp_dir().join(format!("corbeau-small-{name}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let status = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=3m", "tmpfs"])
        .arg(&dir)
        .status()
        .ok()?;
    if !status.success() {
        let _ = fs::remove_dir(&dir);
        return None;
    }
    Some(Mounted(dir))
}

fn corbeau(root: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    c.current_dir(root)
        .env("CORBEAU_CONFIG", root.join("corbeau.toml"))
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_NOW")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_POISON")
        .env("CORBEAU_STORE_WAIT", "2");
    c
}

/// Runs the command with `stdin`, killed (and the test failed) past [`LIMIT`].
fn bounded(c: &mut Command, stdin: &str, what: &str) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > LIMIT {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: still running after {LIMIT:?} on a nearly full disk: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn free_kb(dir: &Path) -> u64 {
    let out = Command::new("df").arg("-Pk").arg(dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .unwrap()
}

/// A judge on the tmpfs at `root` with a running game, then the disk filled to `left` KB.
fn judge(root: &Path, left: u64) {
    fs::write(
        root.join("corbeau.toml"),
        "data_dir = \"data\"\n[judge]\naddress = \"juge@example.org\"\n\
         admin = \"admin@example.org\"\n[mail]\nreplies_per_hour = 0\n",
    )
    .unwrap();
    let ok = |args: &[&str]| {
        let out = bounded(corbeau(root).args(args), "", "setup");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    };
    ok(&["game", "new", "g", "--players", "3", "--no-pictures"]);
    for house in HOUSES {
        let address = format!("{house}@example.org");
        ok(&[
            "player",
            "add",
            "g",
            house,
            &address,
            "--secret",
            "secret-1234",
        ]);
    }
    ok(&["game", "start", "g"]);
    let fill = free_kb(root).saturating_sub(left);
    let mut file = fs::File::create(root.join("fill")).unwrap();
    let block = vec![0u8; 1024];
    for _ in 0..fill {
        if file.write_all(&block).is_err() {
            break;
        }
    }
    file.sync_all().unwrap();
}

#[test]
fn ingest_and_tick_end_with_0_or_75_on_a_nearly_full_disk() {
    if !is_root() {
        println!("skipped: needs root to mount a tmpfs");
        return;
    }
    for left in [60, 100, 200, 300] {
        let Some(mounted) = mount(&left.to_string()) else {
            println!("skipped: mounting a tmpfs failed");
            return;
        };
        let root = mounted.0.clone();
        judge(&root, left);
        let mut codes = Vec::new();
        for n in 0..25 {
            let house = HOUSES[n % HOUSES.len()];
            let body = format!(
                "PARTIE g {house} secret-1234\nPRESSE À {}\nbonjour {n}\nFIN PRESSE\nORDRES\nA win H\nFIN",
                HOUSES[(n + 1) % HOUSES.len()]
            );
            let raw = mail(
                &format!("{house}@example.org"),
                &format!("d{left}-{n}@example.org"),
                &body,
            );
            let out = bounded(corbeau(&root).arg("ingest"), &raw, "ingest");
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(75),
                "{left} KB left, mail {n}: {code:?} {}",
                String::from_utf8_lossy(&out.stderr)
            );
            codes.push(code == Some(0));
        }
        let out = bounded(corbeau(&root).arg("tick"), "", "tick");
        let code = out.status.code();
        assert!(code == Some(0) || code == Some(75), "tick: {code:?}");
        // Space freed: the judge catches up (a mail the outbox folder could not take
        // waits for its back-off, which `outbox --retry` skips).
        fs::remove_file(root.join("fill")).unwrap();
        let out = bounded(corbeau(&root).args(["outbox", "--retry"]), "", "outbox");
        assert_eq!(out.status.code(), Some(0));
        let out = bounded(corbeau(&root).arg("tick"), "", "tick");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut answers = vec![0; codes.len()];
        for entry in fs::read_dir(root.join("data/outbox")).unwrap() {
            let text = fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            for (n, count) in answers.iter_mut().enumerate() {
                // Its answer, not a word that it was set aside.
                if text.contains(&format!("In-Reply-To: <d{left}-{n}@example.org>"))
                    && text.contains(":: corbeau: reply")
                {
                    *count += 1;
                }
            }
        }
        for (n, (acted, count)) in codes.iter().zip(&answers).enumerate() {
            let expected = usize::from(*acted);
            assert_eq!(
                *count,
                expected,
                "{left} KB left, mail {n}: exit {}, {count} answer(s)",
                if *acted { 0 } else { 75 }
            );
        }
        assert!(codes.iter().any(|c| !c), "{left} KB: the disk never filled");
    }
}

/// The answers in the outbox folder to the mail `<id>`.
fn answers_to(root: &Path, id: &str) -> usize {
    let Ok(dir) = fs::read_dir(root.join("data/outbox")) else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| fs::read_to_string(e.path()).ok())
        .filter(|t| t.contains(&format!("In-Reply-To: <{id}>")) && t.contains(":: corbeau: reply"))
        .count()
}

/// Under the store's reserve (1 MiB), a piped `ingest` ends at once with 75 and nothing
/// done: sled is never asked to write on a nearly full disk, where a flush could wait
/// for ever (and the ingest idled until its 30 s limit). The same mail delivered again
/// once space is back is carried out, and answered once.
#[test]
fn a_piped_ingest_on_a_nearly_full_disk_ends_at_once_with_75_and_nothing_done() {
    if !is_root() {
        println!("skipped: needs root to mount a tmpfs");
        return;
    }
    for left in [60, 150, 300] {
        let Some(mounted) = mount(&format!("reserve-{left}")) else {
            println!("skipped: mounting a tmpfs failed");
            return;
        };
        let root = mounted.0.clone();
        judge(&root, left);
        let mails: Vec<(String, String)> = (0..3)
            .map(|n| {
                let house = HOUSES[n % HOUSES.len()];
                let id = format!("r{left}-{n}@example.org");
                let body = format!("PARTIE g {house} secret-1234\nORDRES\nA win H\nFIN");
                (
                    id.clone(),
                    mail(&format!("{house}@example.org"), &id, &body),
                )
            })
            .collect();
        for (id, raw) in &mails {
            let began = Instant::now();
            let out = bounded(corbeau(&root).arg("ingest"), raw, "ingest");
            let took = began.elapsed();
            assert_eq!(
                out.status.code(),
                Some(75),
                "{left} KB left, {id}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // A generous bound: the point is that it does not idle (30 s before).
            assert!(
                took < Duration::from_secs(10),
                "{left} KB left, {id}: {took:?}"
            );
            assert_eq!(answers_to(&root, id), 0, "{left} KB left, {id}: acted on");
        }
        // Space back: the mail server's retries are carried out, once each.
        fs::remove_file(root.join("fill")).unwrap();
        for (id, raw) in &mails {
            let out = bounded(corbeau(&root).arg("ingest"), raw, "ingest");
            assert_eq!(
                out.status.code(),
                Some(0),
                "{id}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let out = bounded(corbeau(&root).arg("ingest"), raw, "ingest again");
            assert_eq!(out.status.code(), Some(0), "{id} again");
            assert_eq!(answers_to(&root, id), 1, "{left} KB left, {id}");
        }
    }
}
