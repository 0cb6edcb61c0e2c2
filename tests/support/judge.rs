//! A judge's directory for the tests that drive the binary as a mail server would: a
//! configuration, an inbound Maildir `inbox`, the store in `data`.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::SystemTime;

use super::TempDir;

/// A judge's directory: configuration, an inbound Maildir `inbox`, the store in `data`;
/// removed when dropped, its database too (see [`TempDir`]).
pub fn root(name: &str, extra: &str) -> TempDir {
    let dir = TempDir::new("mta", name);
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
    // The configuration keeps the store in `data`, beside it, unless it names a database
    // of its own (the tests of the store on PostgreSQL): that one it keeps.
    let own_database = fs::read_to_string(dir.join("corbeau.toml"))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|config| config.get("store").and_then(|s| s.get("url")).is_some());
    if own_database {
        c.env_remove("CORBEAU_STORE");
    } else {
        super::backend::for_command(&mut c, &dir.join("data"));
    }
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

/// A judge's folder driven through the binary with its clock fixed at `at`: what the
/// tests of mail commands share (a command, a mail handed in by `corbeau ingest` as a
/// mail server does, the answers to it, the mails that answer none, a pass).
pub struct Clocked {
    pub dir: PathBuf,
    pub at: chrono::DateTime<chrono::Utc>,
    mails: usize,
    /// The folder, removed with its database when the judge is dropped; none for a
    /// second look at a folder another owns ([`Clocked::over`]).
    _owned: Option<TempDir>,
}

impl Clocked {
    pub fn new(dir: TempDir, at: chrono::DateTime<chrono::Utc>) -> Clocked {
        Clocked {
            dir: dir.to_path_buf(),
            at,
            mails: 0,
            _owned: Some(dir),
        }
    }

    /// A judge on a folder that another owns, and removes.
    pub fn over(dir: &Path, at: chrono::DateTime<chrono::Utc>) -> Clocked {
        Clocked {
            dir: dir.to_path_buf(),
            at,
            mails: 0,
            _owned: None,
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = corbeau(&self.dir);
        c.args(args).env("CORBEAU_NOW", self.at.to_rfc3339());
        c
    }

    /// Runs a command that must succeed; its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = run(&mut self.command(args), "");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", said(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Seats each player of `players`, (house, address, secret, language), in `game`.
    pub fn seat_players(&self, game: &str, players: &[(&str, &str, &str, &str)]) {
        for (house, address, secret, lang) in players {
            self.ok(&[
                "player",
                "add",
                game,
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                lang,
            ]);
        }
    }

    /// `game show <id> --json`.
    pub fn show(&self, id: &str) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["game", "show", id, "--json"])).unwrap()
    }

    /// Hands a mail in through `corbeau ingest`; the answers to it (none, or one), as
    /// whole mails.
    pub fn post(&mut self, from: &str, body: &str) -> Vec<String> {
        self.mails += 1;
        let id = format!("m{}@example.net", self.mails);
        let out = run(&mut self.command(&["ingest"]), &mail(from, &id, body));
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        mails_to(&self.dir, from)
            .into_iter()
            .filter(|m| m.contains(&format!("In-Reply-To: <{id}>")))
            .collect()
    }

    /// The mails to `to` that answer no mail (welcomes, notices, results, digests),
    /// oldest first, line ends as `\n`, each given once.
    pub fn news(&self, to: &str) -> Vec<String> {
        let seen = self.dir.join(format!("seen-{to}"));
        let before: Vec<String> = fs::read_to_string(&seen)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let mut new: Vec<(String, String)> = fs::read_dir(self.dir.join("data/outbox"))
            .map(|d| d.filter_map(Result::ok).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                (name, fs::read_to_string(e.path()).unwrap())
            })
            .filter(|(_, t)| t.contains(&format!("To: {to}\r\n")) && !t.contains("In-Reply-To:"))
            .filter(|(name, _)| !before.contains(name))
            .collect();
        new.sort();
        let names: Vec<String> = before
            .into_iter()
            .chain(new.iter().map(|(n, _)| n.clone()))
            .collect();
        fs::write(&seen, names.join("\n")).unwrap();
        new.into_iter()
            .map(|(_, t)| t.replace("\r\n", "\n"))
            .collect()
    }

    /// A pass of the judge (`corbeau tick`) at `at`.
    pub fn tick(&mut self, at: chrono::DateTime<chrono::Utc>) {
        self.at = at;
        self.ok(&["tick"]);
    }
}

/// A mail's body (after its headers), line ends as `\n`.
pub fn body_of(mail: &str) -> String {
    let mail = mail.replace("\r\n", "\n");
    mail.split_once("\n\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or(mail)
}

/// `struct $name(Clocked)`, which reads as the [`Clocked`] it wraps: a test file's judge
/// adds its own methods (its games, its answers) to the shared ones.
#[allow(unused_macros)]
macro_rules! clocked_judge {
    ($name:ident) => {
        struct $name($crate::support::judge::Clocked);

        impl std::ops::Deref for $name {
            type Target = $crate::support::judge::Clocked;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }

        impl std::ops::DerefMut for $name {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.0
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use clocked_judge;

/// A command of the judge in `dir` with its clock at `now` (RFC 3339).
pub fn at(dir: &Path, now: &str, args: &[&str]) -> Command {
    let mut c = corbeau(dir);
    c.args(args).env("CORBEAU_NOW", now);
    c
}

/// Runs a command at `now` that must succeed; its standard output.
pub fn ok_at(dir: &Path, now: &str, args: &[&str]) -> String {
    let out = run(&mut at(dir, now, args), "");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", said(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Hands a mail (Message-ID `id`) in at `now` and returns the body of its one answer.
pub fn answer_at(dir: &Path, now: &str, from: &str, id: &str, body: &str) -> String {
    let out = run(&mut at(dir, now, &["ingest"]), &mail(from, id, body));
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let replies: Vec<String> = mails_to(dir, from)
        .into_iter()
        .filter(|m| m.contains(&format!("In-Reply-To: <{id}>")))
        .collect();
    assert_eq!(replies.len(), 1, "answers to {id}: {replies:?}");
    body_of(&replies[0])
}
