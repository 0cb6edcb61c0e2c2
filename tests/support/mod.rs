//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod backend;
pub mod cli;
pub mod due;
pub mod judge;
pub mod pg;
pub mod store_copy;
pub mod world;

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use std::{env, fs};

use corbeau::game::AuditEntry;

/// The text with every run of blanks (line breaks of wrapped lines too) made one space.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The secret a welcome mail's text gives (`Votre secret : …`, `Your secret: …`).
pub fn secret_in(text: &str) -> String {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("Votre secret : ")
                .or_else(|| l.strip_prefix("Your secret: "))
        })
        .unwrap_or_else(|| panic!("no secret in {text}"))
        .trim()
        .to_string()
}

/// A mail as a golden file shows it: who it goes to, its subject, its body.
pub fn rendered(mail: &corbeau::mail::outmail::OutMail) -> String {
    format!(
        "To: {}\nSubject: {}\n\n{}",
        mail.to, mail.subject, mail.body
    )
}

/// Compares `actual` with `tests/golden/<name>`; with `CORBEAU_BLESS=1`, writes it instead.
#[track_caller]
pub fn assert_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if env::var_os("CORBEAU_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with CORBEAU_BLESS=1 to create it)",
            path.display()
        )
    });
    pretty_assertions::assert_eq!(expected, actual, "golden {}", path.display());
}

/// The environment variable that keeps the tests' temporary folders (and the clusters of
/// their PostgreSQL servers) after the tests, to look at a failure: `1`, or any value but
/// `0` and the empty one.
pub const KEEP: &str = "CORBEAU_KEEP_TEST_DIRS";

/// Whether the developer asked to keep the tests' folders ([`KEEP`]).
pub fn keep_test_dirs() -> bool {
    env::var_os(KEEP).is_some_and(|v| !v.is_empty() && v != "0")
}

/// A fresh folder under the system's temporary directory, named after the test file
/// (`what`) and the test (`name`), removed with everything in it when dropped, whether
/// the test passed or failed, unless [`KEEP`] asks to keep it.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(what: &str, name: &str) -> TempDir {
        // The nanoseconds keep two runs of one test (or a folder a killed run left) apart.
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = env::temp_dir().join(format!(
            "corbeau-{what}-{name}-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if keep_test_dirs() {
            eprintln!("kept ({KEEP}): {}", self.0.display());
            return;
        }
        if std::thread::panicking() {
            // Said where a failed test's output is shown: how to look at the folder.
            eprintln!(
                "removed {} ({KEEP}=1 keeps the tests' folders)",
                self.0.display()
            );
        }
        backend::release(&self.0);
        let _ = fs::remove_dir_all(&self.0);
        // A store whose data folder is this one keeps the judge's key beside it
        // (`<folder>.key`, docs/configuration.md): it goes with the folder.
        let mut key = self.0.clone().into_os_string();
        key.push(".key");
        let _ = fs::remove_file(key);
    }
}

/// Copies a directory tree (a fixture store, before a test changes it).
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        let target = to.join(entry.file_name());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        }
    }
}

/// An audit trail as English lines, `actor action: line / line detail`, for assertions.
pub fn audit_text(entries: &[AuditEntry]) -> String {
    entries
        .iter()
        .map(|a| {
            let lines: Vec<String> = a
                .lines
                .iter()
                .map(|l| l.say(corbeau::lang::Lang::En, chrono_tz::UTC))
                .collect();
            format!(
                "{} {}: {} {}\n",
                a.actor,
                a.action,
                lines.join(" / "),
                a.detail
            )
        })
        .collect()
}

/// The code a mail to a new address gives to confirm it (`ADRESSE <address> <code>`,
/// `ADDRESS <address> <code>`).
pub fn address_code(text: &str, address: &str) -> String {
    let text = flat(text);
    ["ADRESSE", "ADDRESS"]
        .iter()
        .find_map(|k| text.split(&format!("{k} {address} ")).nth(1))
        .and_then(|rest| rest.split(['`', ' ']).next())
        .unwrap_or_else(|| panic!("no code for {address} in {text}"))
        .to_string()
}

/// A store's sled database opened by the test itself: sled's background flusher may hold
/// the lock of a handle just dropped for a moment, on a loaded machine.
pub fn open_sled(path: &Path) -> sled::Db {
    let mut tries = 0;
    loop {
        match sled::open(path) {
            Ok(db) => return db,
            Err(_) if tries < 200 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => panic!("{}: {e:?}", path.display()),
        }
    }
}
