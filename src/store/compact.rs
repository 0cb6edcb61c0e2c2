//! Rewriting the store's files without the values it no longer holds.
//!
//! sled keeps a replaced value in its files until it reuses their space, which may be
//! never: the unkeyed sieves of earlier versions (`game::secret`), removed from every
//! value when this version first opens a store, would stay readable in the files of a
//! copied data directory. So that first opening also copies every tree, as it is now, into
//! a new database (`compact.new/` in the data directory) and puts the new files in place
//! of the old ones.
//!
//! The swap is made crash-safe by two marks and renames, each atomic:
//! 1. the new database is written whole and synced, then `compact.new/READY` is written:
//!    before it, a crash leaves the old store, which is cleaned and copied again at the
//!    next opening (the copy half made is removed);
//! 2. from `READY` on the swap goes forward at every opening until it is done: the old
//!    files (`conf`, `db`, `snap.*`, `blobs/`) are moved into `compact.old/`, then
//!    `compact.old/DONE` is written, then the new files are moved into the data
//!    directory, then `compact.new/` and `compact.old/` are removed.
//!
//! Every opening of the store takes the lock of the file `store.gate` in the data
//! directory while it opens sled, and a rewrite keeps it from its start to the end of the
//! swap: no process opens a store half swapped.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::StoreError;

const NEW: &str = "compact.new";
const OLD: &str = "compact.old";
const READY: &str = "READY";
const DONE: &str = "DONE";
const GATE: &str = "store.gate";

/// A file operation of the rewrite that failed: the store cannot be opened for now (a
/// full disk, permissions), as when sled itself cannot open it.
fn io(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Open {
        path: path.to_path_buf(),
        source: sled::Error::Io(std::io::Error::new(e.kind(), format!("{what}: {e}"))),
    }
}

/// The lock held while the store in `dir` is opened (and, for a rewrite, swapped).
pub(super) struct Gate {
    _file: File,
}

impl Gate {
    /// Waits for the gate of `dir` (created with the directory if need be), then finishes
    /// a swap a crash interrupted.
    pub(super) fn take(dir: &Path) -> Result<Gate, StoreError> {
        fs::create_dir_all(dir).map_err(|e| io("cannot create", dir, e))?;
        let path = dir.join(GATE);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io("cannot open", &path, e))?;
        file.lock().map_err(|e| io("cannot lock", &path, e))?;
        finish(dir)?;
        Ok(Gate { _file: file })
    }
}

/// Whether a rewrite of the store in `dir` was marked ready and is not finished: its files
/// may be aside, in `compact.old/` and `compact.new/`, until the next opening.
pub(super) fn pending(dir: &Path) -> bool {
    dir.join(NEW).join(READY).is_file()
}

/// Whether `name`, an entry of the data directory, is one of sled's own files.
fn sled_file(name: &str) -> bool {
    matches!(name, "conf" | "db" | "blobs") || name.starts_with("snap.")
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io("cannot sync", dir, e))
}

fn mark(path: &Path) -> Result<(), StoreError> {
    File::create(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| io("cannot write", path, e))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, StoreError> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io("cannot read", dir, e))? {
        let entry = entry.map_err(|e| io("cannot read", dir, e))?;
        found.push((
            entry.file_name().to_string_lossy().into_owned(),
            entry.path(),
        ));
    }
    Ok(found)
}

fn remove_all(path: &Path) -> Result<(), StoreError> {
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io("cannot remove", path, e)),
        _ => Ok(()),
    }
}

/// For the tests of crash safety: stops the process at the named step of a rewrite, as a
/// kill there would.
#[cfg(feature = "test-hooks")]
fn crash_point(step: &str) {
    if std::env::var("CORBEAU_TEST_COMPACT_CRASH").is_ok_and(|s| s == step) {
        std::process::abort();
    }
}

#[cfg(not(feature = "test-hooks"))]
fn crash_point(_step: &str) {}

/// Copies every tree of `db` into a new database in `dir/compact.new`, with `marks`
/// written into its `meta` tree, synced, then marked ready.
pub(super) fn copy(dir: &Path, db: &sled::Db, marks: &[(&str, &[u8])]) -> Result<(), StoreError> {
    let new = dir.join(NEW);
    remove_all(&new)?;
    {
        let copy = sled::Config::new()
            .path(&new)
            .cache_capacity(super::cache_bytes())
            .open()?;
        for name in db.tree_names() {
            let (from, to) = (db.open_tree(&name)?, copy.open_tree(&name)?);
            for entry in from.iter() {
                let (key, value) = entry?;
                to.insert(key, value)?;
            }
        }
        let meta = copy.open_tree("meta")?;
        for (key, value) in marks {
            meta.insert(key, *value)?;
        }
        // The sequences of the audit trail, the notices and the outbox come from sled's
        // own counter, which is no tree: the copy's must go on from the old one's, or new
        // entries would sort first and overwrite old ones. sled has no way to set it but
        // to draw ids (an increment each, persisted once in a million).
        let next = db.generate_id()?;
        while copy.generate_id()? < next {}
        copy.flush()?;
    }
    crash_point("copied");
    sync_dir(&new)?;
    mark(&new.join(READY))?;
    crash_point("ready");
    Ok(())
}

/// Finishes a swap begun ([`copy`] marked it ready) or cleans up after one: see the
/// module's steps. The caller holds the gate, and no database of `dir` is open.
pub(super) fn finish(dir: &Path) -> Result<(), StoreError> {
    let (new, old) = (dir.join(NEW), dir.join(OLD));
    if new.join(READY).is_file() {
        if !old.join(DONE).is_file() {
            fs::create_dir_all(&old).map_err(|e| io("cannot create", &old, e))?;
            for (name, path) in entries(dir)? {
                if sled_file(&name) {
                    fs::rename(&path, old.join(&name)).map_err(|e| io("cannot move", &path, e))?;
                }
            }
            sync_dir(dir)?;
            crash_point("moved-old");
            mark(&old.join(DONE))?;
        }
        for (name, path) in entries(&new)? {
            if name != READY {
                fs::rename(&path, dir.join(&name)).map_err(|e| io("cannot move", &path, e))?;
                crash_point("moving-new");
            }
        }
        sync_dir(dir)?;
        fs::remove_file(new.join(READY)).map_err(|e| io("cannot remove", &new, e))?;
        crash_point("moved-new");
    }
    // A copy never marked ready is half made: the old store is whole beside it.
    remove_all(&new)?;
    remove_all(&old)?;
    Ok(())
}
