//! A huge mail costs the judge no more memory than a large one. Alone in its test binary:
//! a child's peak memory (wait4's ru_maxrss) counts the parent's peak when it is spawned,
//! so the parent must be small and hold no other test's buffers.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::SystemTime;
use support::judge::{corbeau, deliver, mail, mails_to, root};

/// Runs `c` with its stdin read from the file `stdin`, and returns its exit code and its
/// peak memory in bytes (wait4's ru_maxrss, which also counts this small test process's
/// peak: the child shared its memory until exec).
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives its peak memory
fn run_measured(c: &mut Command, stdin: &Path) -> (Option<i32>, u64) {
    let child = c
        .stdin(fs::File::open(stdin).unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = i32::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, whose pid std gave us; std never waits for it after.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    // ru_maxrss is in KiB on Linux.
    let peak = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
    (code, peak)
}

/// Writes a mail of `size` bytes of body to `path`, a block at a time.
fn write_huge(path: &Path, id: &str, size: usize) {
    let mut file = std::io::BufWriter::new(fs::File::create(path).unwrap());
    file.write_all(mail("bob@example.org", id, "AIDE").as_bytes())
        .unwrap();
    let line = [b'x'; 1000];
    for _ in 0..size / line.len() {
        file.write_all(&line).unwrap();
        file.write_all(b"\r\n").unwrap();
    }
    file.flush().unwrap();
}

/// A huge mail (far over `[mail] max_size`) costs the judge no more memory than a large
/// one, piped to `ingest` or read from the Maildir: it is answered that it is too large,
/// and the mail behind it is answered too.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_mail_is_refused_within_bounded_memory() {
    const HUGE: usize = 120 << 20;
    const BOUND: u64 = 100 << 20;
    let dir = root("huge", "");
    let piped = dir.join("huge.eml");
    write_huge(&piped, "huge1@example.org", HUGE);
    let (code, peak) = run_measured(corbeau(&dir).arg("ingest"), &piped);
    assert_eq!(code, Some(0));
    assert!(peak < BOUND, "ingest: {} MiB", peak >> 20);
    // The same from the Maildir, before a small mail.
    write_huge(
        &dir.join("inbox/tmp/1.M1P1.huge"),
        "huge2@example.org",
        HUGE,
    );
    fs::rename(
        dir.join("inbox/tmp/1.M1P1.huge"),
        dir.join("inbox/new/1.M1P1.huge"),
    )
    .unwrap();
    let small = mail("carol@example.org", "s@example.org", "AIDE");
    deliver(&dir, "2.M1P1.small", &small, SystemTime::now());
    let empty = dir.join("empty");
    fs::write(&empty, "").unwrap();
    let (code, peak) = run_measured(corbeau(&dir).arg("tick"), &empty);
    assert_eq!(code, Some(0));
    assert!(peak < BOUND, "tick: {} MiB", peak >> 20);
    let bob = mails_to(&dir, "bob@example.org");
    assert_eq!(bob.len(), 2, "both huge mails answered");
    assert!(bob.iter().all(|m| m.contains("256")), "{}", bob.join("\n"));
    assert_eq!(mails_to(&dir, "carol@example.org").len(), 1);
}
