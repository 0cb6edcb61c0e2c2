//! A judge's directory for the tests that drive the binary as a mail server would: a
//! configuration, an inbound Maildir `inbox`, the store in `data`.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

/// A judge's directory: configuration, an inbound Maildir `inbox`, the store in `data`.
pub fn root(name: &str, extra: &str) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let dir =
        std::env::temp_dir().join(format!("corbeau-mta-{name}-{}-{nanos}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for sub in ["inbox/new", "inbox/cur", "inbox/tmp"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }
    fs::write(
        dir.join("corbeau.toml"),
        format!(
            "data_dir = \"data\"\n[judge]\naddress = \"juge@example.org\"\nadmin = \"admin@example.org\"\n\
             [mail]\nmaildir = \"inbox\"\n{extra}"
        ),
    )
    .unwrap();
    dir
}

pub fn corbeau(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    c.current_dir(dir)
        .env("CORBEAU_CONFIG", dir.join("corbeau.toml"))
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_NOW")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_POISON")
        .env("CORBEAU_STORE_WAIT", "0.3");
    c
}

pub fn run(c: &mut Command, stdin: &str) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that exits before reading its input (a missing configuration: exit 75)
    // closes the pipe first: that is its answer, not the test's failure.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

pub fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub fn mail(from: &str, id: &str, body: &str) -> String {
    format!("From: {from}\r\nSubject: test\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n")
}

/// The mails in the outbox folder addressed to `to`.
pub fn mails_to(dir: &Path, to: &str) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir.join("data/outbox")) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .filter_map(|e| fs::read_to_string(e.path()).ok())
        .filter(|t| t.contains(&format!("To: {to}\r\n")))
        .collect()
}

pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Puts a mail into `inbox/new` under `name`, with this modification time.
pub fn deliver(dir: &Path, name: &str, raw: &str, modified: SystemTime) {
    let tmp = dir.join("inbox/tmp").join(name);
    fs::write(&tmp, raw).unwrap();
    fs::File::options()
        .write(true)
        .open(&tmp)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    fs::rename(&tmp, dir.join("inbox/new").join(name)).unwrap();
}
