//! Maildir, both ways in: reading every new message of a Maildir (filled by Postfix,
//! procmail, mbsync or fetchmail), and the judge's own spool, where `corbeau ingest` drops
//! a message when `corbeau serve` holds the store.
//!
//! A message is moved from `new/` to `cur/` (with the Seen flag, `:2,S`) only after what
//! it asked was committed; a crash in between leaves it in `new/`, and reading it again
//! does nothing twice because its Message-ID was marked in the same commit. A message the
//! judge cannot read at all goes to `cur/` flagged (`:2,FS`) for the moderator to look
//! at: nothing is ever deleted.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::game::GameError;
use crate::service::Service;

use super::dispatch::{Handled, handle};
use super::inbound::read;

/// What reading a Maildir did.
#[derive(Debug, Default)]
pub struct IngestReport {
    pub answered: usize,
    pub duplicates: usize,
    pub ignored: usize,
    /// Messages set aside (flagged in `cur/`): file name and why.
    pub unreadable: Vec<(String, String)>,
    /// Messages left in `new/` for the next pass (the store failed): file name and why.
    pub failed: Vec<(String, String)>,
}

impl IngestReport {
    pub fn add(&mut self, handled: &Handled) {
        match handled {
            Handled::Answered { .. } => self.answered += 1,
            Handled::Duplicate => self.duplicates += 1,
            Handled::Ignored => self.ignored += 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.answered + self.duplicates + self.ignored == 0
            && self.unreadable.is_empty()
            && self.failed.is_empty()
    }
}

/// The judge's own spool: a Maildir inside the data directory.
pub fn spool(config: &Config) -> PathBuf {
    config.data_dir.join("incoming")
}

/// Reads one raw message and carries it out.
pub fn ingest_one(
    service: &Service,
    config: &Config,
    raw: &[u8],
    now: DateTime<Utc>,
) -> Result<Result<Handled, super::inbound::InboundError>, GameError> {
    let limit = usize::try_from(config.mail.max_size).unwrap_or(usize::MAX);
    match read(raw, limit) {
        Ok(mail) => handle(service, config, &mail, now).map(Ok),
        Err(e) => Ok(Err(e)),
    }
}

/// Carries out every new message of the Maildir `dir`, oldest first.
pub fn ingest_maildir(
    service: &Service,
    config: &Config,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<IngestReport, MaildirError> {
    let mut report = IngestReport::default();
    for path in new_messages(dir)? {
        let name = file_name(&path);
        let raw = match std::fs::read(&path) {
            Ok(raw) => raw,
            // Taken by another reader meanwhile.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(MaildirError::Io(path, e)),
        };
        match ingest_one(service, config, &raw, now) {
            Ok(Ok(handled)) => {
                report.add(&handled);
                mark(&path, "S")?;
            }
            Ok(Err(e)) => {
                report.unreadable.push((name, e.message(config.lang)));
                mark(&path, "FS")?;
            }
            Err(e) => report.failed.push((name, e.message(config.lang))),
        }
    }
    Ok(report)
}

impl MaildirError {
    /// The error for the moderator, in their language.
    pub fn message(&self, lang: crate::lang::Lang) -> String {
        match (self, lang) {
            (MaildirError::NotAMaildir(dir), crate::lang::Lang::Fr) => format!(
                "{} : ce n'est pas un Maildir (il lui faut les dossiers new/, cur/ et tmp/)",
                dir.display()
            ),
            _ => self.to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MaildirError {
    #[error("{}: not a Maildir (it needs the folders new/, cur/ and tmp/)", .0.display())]
    NotAMaildir(PathBuf),
    #[error("{}: {}", .0.display(), .1)]
    Io(PathBuf, io::Error),
}

/// The files of `dir/new`, by name (Maildir names start with the delivery time).
pub fn new_messages(dir: &Path) -> Result<Vec<PathBuf>, MaildirError> {
    let new = dir.join("new");
    if !new.is_dir() || !dir.join("cur").is_dir() {
        return Err(MaildirError::NotAMaildir(dir.to_path_buf()));
    }
    let entries = std::fs::read_dir(&new).map_err(|e| MaildirError::Io(new.clone(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && !file_name(p).starts_with('.'))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Moves a message from `new/` to `cur/` with these flags.
fn mark(path: &Path, flags: &str) -> Result<(), MaildirError> {
    let name = file_name(path);
    let base = name.split(":2,").next().unwrap_or(&name).to_string();
    let cur = path
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("cur"))
        .ok_or_else(|| MaildirError::NotAMaildir(path.to_path_buf()))?;
    let target = cur.join(format!("{base}:2,{flags}"));
    std::fs::rename(path, &target).map_err(|e| MaildirError::Io(target, e))
}

/// Creates `dir` as a Maildir if it is not one yet.
pub fn create(dir: &Path) -> Result<(), MaildirError> {
    for sub in ["tmp", "new", "cur"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| MaildirError::Io(d, e))?;
    }
    Ok(())
}

/// Delivers a message into a Maildir the standard way: written and synced in `tmp/`,
/// then renamed into `new/`, so a reader never sees half a message.
pub fn deliver(dir: &Path, raw: &[u8]) -> Result<PathBuf, MaildirError> {
    create(dir)?;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let name = format!(
        "{}.M{}P{}Q{}.corbeau",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = dir.join("tmp").join(&name);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| MaildirError::Io(p, e)
    };
    let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    file.write_all(raw).map_err(io(&tmp))?;
    file.sync_all().map_err(io(&tmp))?;
    let target = dir.join("new").join(&name);
    std::fs::rename(&tmp, &target).map_err(io(&target))?;
    Ok(target)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
