//! The store: games, their phase history, audit trails and queued notices, in a sled
//! database. Every change of one command or one phase is one transaction, flushed to disk
//! before the command reports success: after a crash the store holds the state before or
//! the state after, never a mix.
//!
//! Trees (keys are bytes; values are JSON so that a moderator's `export` and a future
//! migration can read them):
//! - `meta`: `schema` → the schema version (u32, big-endian);
//! - `games`: game id → [`Game`];
//! - `phases`: game id, 0, history index (u32 BE) → [`PhaseRecord`];
//! - `audit`: game id, 0, sequence (u64 BE) → [`AuditEntry`];
//! - `wake`: time (i64 BE, sign-flipped), game id → game id: which games `tick` must read;
//! - `notices`: sequence (u64 BE) → [`Notice`], for the mail layer to turn into mails;
//! - `outbox`: sequence (u64 BE) → [`Envelope`]: mails stored (headers and body bytes),
//!   not yet accepted by the transport, without the stretches they share with others;
//! - `pieces`: piece key → bytes: a stretch several mails of the outbox carry (a results
//!   picture), kept once; `piece_counts`: piece key → how many mails name it (u64 BE)
//!   (`pieces.rs`);
//! - `seen`: Message-ID → time (i64 BE): mails already acted on (deduplication);
//! - `replies`: `a`, address → [`ReplyWindow`]: the judge's answers to that address in the
//!   current hour (the cap of `[mail] replies_per_hour`); `t`, window start (time key),
//!   address → nothing: the same windows by age, so that expired ones are pruned without
//!   reading them all;
//! - `guards`: `house\0<game>\0<house>` or `moderator\0<game>` →
//!   [`Guard`]: failed sign-ons, counted by the service (`service::auth`; the record in [`guard`]);
//! - `held`: sequence (u64 BE) → [`HeldNotice`]: notices to a game's moderator held back
//!   by the hourly cap of `[mail.caps] moderator_notices_per_hour`, told in one digest
//!   once the hour is over (an older store simply has none);
//! - `seats`: normalised address, 0, time taken (time key), game id, 0, house id →
//!   nothing: the seats an address took, read by the address and a time, for the
//!   per-address bound of `[judge] seats_per_day` ([`SeatTaken`]);
//! - `records`: normalised address, 0, game id, 0, kind (`p` a phase due, `r` a
//!   resignation, `d` a civil disorder, `f` a game finished), history index (u32 BE) →
//!   [`RecordMark`]: what the judge saw each address do, written with the game's change
//!   that made it (an older store starts with the tree empty: records count from then);
//! - `variants`: [`VariantHash`] → the variant's TOML text (UTF-8, not JSON): the content
//!   each game is pinned to, kept once however many games play it (schema 2).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sled::transaction::ConflictableTransactionError;

use crate::game::{AuditEntry, Game, Notice, PhaseRecord, PlayerRecord, RecordMark};
use crate::map::{PinnedVariant, Variant, VariantHash, parse_variant, scope};

mod compact;
mod copy;
pub mod envelope;
pub mod guard;
mod kv;
mod migrate;
pub mod pg;
mod pieces;

use kv::{Tree, TxResult, TxTree};
pub use pg::DatabaseUrl;

pub use envelope::Envelope;
pub use guard::Guard;

/// The version of the layout above; bumped (with a migration step) when it changes.
pub const SCHEMA_VERSION: u32 = 2;

/// Free bytes the store leaves on its disk: a write that would start below it is refused
/// (a transient failure) before sled is asked. sled 0.34 writes its log from a background
/// thread; when that write fails for want of space, a flush may wait for ever on a
/// signal that never comes, and the process idles until something kills it. Kept free,
/// the reserve also lets the writes that only remove (a mail sent, a notice told) go
/// through on a nearly full disk.
pub const RESERVE: u64 = 1024 * 1024;

/// How long `open` waits for a store another process holds.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the store {} is in use by another corbeau process (is `corbeau serve` running?)",
        .0.display()
    )]
    Locked(PathBuf),
    #[error("cannot open the store {}: {source}", .path.display())]
    Open { path: PathBuf, source: sled::Error },
    #[error(
        "the store {} was written by a newer corbeau (schema {found}, this one knows up to {SCHEMA_VERSION}): upgrade corbeau",
        .path.display()
    )]
    NewerSchema { path: PathBuf, found: u32 },
    #[error("the store is damaged: {0}")]
    Corrupt(String),
    #[error("the game {0} already exists")]
    Exists(String),
    #[error("store: {0}")]
    Io(#[from] sled::Error),
    /// The database answered with an error, or the connection broke in the middle.
    #[error("store: the database: {0}")]
    Database(#[from] postgres::Error),
    #[error("cannot reach the database of the store {url}: {reason}; nothing was changed")]
    Unreachable { url: String, reason: String },
    #[error(
        "the store {0} is in use by another corbeau process (a judge's pass): try again in a moment"
    )]
    LockedDatabase(String),
    #[error(
        "the database of the store has tables of a newer corbeau (layout {found}, this one knows up to {}): upgrade corbeau",
        pg::LAYOUT_VERSION
    )]
    NewerDatabase { found: u32 },
    /// A write to the database by a connection that had let the store's lock go: a
    /// judge's mistake, refused so that it cannot overwrite another judge's change.
    #[error("a write to the store without its lock was refused: nothing was changed")]
    WriteUnlocked,
    /// `store copy` into a store that holds something.
    #[error("the store {0} is not empty: nothing was copied")]
    NotEmpty(String),
    /// A schema-1 store cannot move to schema 2: a game's variant file cannot be read (or
    /// is no longer a valid variant). Nothing was changed.
    #[error(
        "cannot migrate the store {} to schema {SCHEMA_VERSION}: the game {game} plays the variant {file}, which cannot be used any more ({reason}); put the file back where it was (a relative path is read from the directory corbeau runs in) and run again: nothing was changed",
        .path.display()
    )]
    Migration {
        path: PathBuf,
        game: String,
        file: String,
        reason: String,
    },
    /// The disk of the store has less than [`RESERVE`] free: nothing is written, so that
    /// sled never meets a full disk in the middle of a write (a flush that then waits for
    /// ever).
    #[error(
        "the disk of the store {} is nearly full ({free} bytes free, {RESERVE} kept in reserve): nothing was written",
        .path.display()
    )]
    NoRoom { path: PathBuf, free: u64 },
    /// The copy of the store kept before a migration could not be made: nothing was
    /// migrated.
    #[error(
        "cannot keep a copy of the store before migrating it, in {}: {reason}; nothing was changed",
        .path.display()
    )]
    Backup { path: PathBuf, reason: String },
}

/// The opened store.
pub struct Store {
    path: PathBuf,
    backend: Backend,
    meta: Tree,
    games: Tree,
    phases: Tree,
    audit: Tree,
    wake: Tree,
    notices: Tree,
    outbox: Tree,
    pieces: Tree,
    piece_counts: Tree,
    seen: Tree,
    replies: Tree,
    guards: Tree,
    variants: Tree,
    held: Tree,
    seats: Tree,
    records: Tree,
    standby: Tree,
    /// The variants read from `variants` so far, parsed: a game's places and houses are
    /// read and written with its own ([`scope`]).
    parsed: RefCell<HashMap<VariantHash, Rc<Variant>>>,
}

/// An address on the judge's standby list: people willing to take a house over in any
/// game, told when a moderator announces free houses (docs/email.md, "Standby list").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Standby {
    pub address: String,
    pub lang: crate::lang::Lang,
    pub since: DateTime<Utc>,
}

/// The key of an address on the standby list: the address as the judge compares
/// addresses.
fn standby_key(address: &str) -> String {
    address.trim().to_ascii_lowercase()
}

/// The key in `meta` of when the standby list was last told of a game's free houses.
fn announced_key(game: &str) -> String {
    format!("standby-announced\0{game}")
}

/// A stored game by id, read or with the reason it could not be.
pub type StoredGame = (String, Result<Game, StoreError>);

/// How long a window of the reply cap lasts.
pub const REPLY_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// The answers the judge gave one address since `since` (at most [`REPLY_WINDOW`] ago).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReplyWindow {
    pub since: DateTime<Utc>,
    pub count: u32,
}

/// One more answer to `address` at `at`, counted in the commit that queues it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replied {
    pub address: String,
    pub at: DateTime<Utc>,
}

/// A notice the moderator was not sent, its hourly cap spent: told in the digest of its
/// window, which ends at `until`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeldNotice {
    /// The moderator's address, as it was when the notice was held.
    pub address: String,
    /// The family of notices the cap counts together (`mail::notify`).
    pub family: String,
    pub until: DateTime<Utc>,
    pub notice: Notice,
}

/// Everything one command changes, written in one transaction.
#[derive(Debug, Default)]
pub struct Commit<'a> {
    /// The game as it was read (none: a new game, which must not exist yet).
    pub before: Option<&'a Game>,
    pub game: Option<&'a Game>,
    pub record: Option<&'a PhaseRecord>,
    /// The history index of a record to remove (rollback).
    pub drop_record: Option<u32>,
    pub audit: Vec<AuditEntry>,
    pub notices: Vec<Notice>,
    /// Mails to queue in the outbox.
    pub mails: Vec<Envelope>,
    /// The Message-ID of the mail this change answers: marked as seen.
    pub seen: Option<String>,
    /// An answer counted against the sender's hourly cap.
    pub replied: Option<Replied>,
    /// Other hourly counters of the mail layer's caps (`mail::caps`), kept in the same
    /// tree as the answers: their keys begin with a NUL-separated kind, which no address
    /// holds.
    pub counted: Vec<Replied>,
    /// An outbox mail written again in place (set aside as failed).
    pub outbox_update: Option<(u64, &'a Envelope)>,
    /// Sign-on counters to write (`None`: to forget), by key.
    pub guards: Vec<(String, Option<Guard>)>,
    /// Seats taken by an address (`seats`), written with the game that seats it.
    pub seats: Vec<SeatTaken>,
    /// Addresses put on the standby list (`Some`) or taken off it (`None`).
    pub standby: Vec<(String, Option<Standby>)>,
    /// Games whose free houses the standby list was told of, and when.
    pub announced: Vec<(String, DateTime<Utc>)>,
    /// Marks on players' records (`records`), written with the change that made them.
    pub marks: Vec<Marked>,
}

/// A mark on an address's record, in one game at one phase of its history (a game
/// finished: at its last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub address: String,
    pub game: String,
    pub index: u32,
    pub mark: RecordMark,
}

/// The key of an address in `records`: the address as the judge compares them, then 0.
fn record_prefix(address: &str) -> Vec<u8> {
    let mut k = crate::game::Address::new(address)
        .as_str()
        .as_bytes()
        .to_vec();
    k.push(0);
    k
}

fn record_key(marked: &Marked) -> Vec<u8> {
    let mut k = record_prefix(&marked.address);
    k.extend_from_slice(marked.game.as_bytes());
    k.push(0);
    k.push(match marked.mark {
        RecordMark::Phase { .. } => b'p',
        RecordMark::Resigned => b'r',
        RecordMark::Disorder => b'd',
        RecordMark::Finished => b'f',
    });
    k.extend_from_slice(&marked.index.to_be_bytes());
    k
}

/// The game and history index of a key of `records`.
fn record_place(key: &[u8]) -> Option<(&[u8], u32)> {
    let rest = &key[key.iter().position(|b| *b == 0)? + 1..];
    let (names, index) = rest.split_at(rest.len().checked_sub(4)?);
    let game = names.get(..names.len().checked_sub(2)?)?;
    Some((game, u32::from_be_bytes(index.try_into().ok()?)))
}

/// A seat an address took: what the `seats` tree keeps, so that the seats an address
/// took lately are read by its key, not by reading every game. A hint, not the truth:
/// the reader checks each seat in its game (the player may have left it since).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatTaken {
    pub address: String,
    pub at: DateTime<Utc>,
    pub game: String,
    pub house: String,
}

/// The key of an address in `seats`: the address as the judge compares addresses
/// (`game::same_address`: trimmed, ASCII case folded), then 0.
fn seat_prefix(address: &str) -> Vec<u8> {
    let mut k = address.trim().to_ascii_lowercase().into_bytes();
    k.push(0);
    k
}

fn seat_key(seat: &SeatTaken) -> Vec<u8> {
    let mut k = seat_prefix(&seat.address);
    k.extend_from_slice(&time_key(seat.at));
    k.extend_from_slice(seat.game.as_bytes());
    k.push(0);
    k.extend_from_slice(seat.house.as_bytes());
    k
}

/// The memory sled may keep of the store's pages, in bytes, for every store this process
/// opens; sled's own default (1 GB) let a deadline's outgoing mails fill it. The same
/// default as `[store] cache_mb`'s, for the stores a process opens without reading one.
static CACHE_BYTES: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(16 * 1024 * 1024);

/// Sets the memory sled may keep for the stores opened after this (`[store] cache_mb`).
pub fn set_cache_mb(mb: u64) {
    CACHE_BYTES.store(
        mb.max(1).saturating_mul(1024 * 1024),
        std::sync::atomic::Ordering::Relaxed,
    );
}

fn cache_bytes() -> u64 {
    CACHE_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

/// How long a judge's claim on a game lasts (`[store] lease_seconds`): past it, a judge
/// that died no longer keeps the game from the others.
static LEASE_SECONDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(60);

/// Sets how long the claims of this process last, from the configuration.
pub fn set_lease_seconds(seconds: u64) {
    LEASE_SECONDS.store(seconds.max(1), std::sync::atomic::Ordering::Relaxed);
}

fn lease() -> std::time::Duration {
    std::time::Duration::from_secs(LEASE_SECONDS.load(std::sync::atomic::Ordering::Relaxed))
}

/// Where a store is kept: sled's files in the data directory, or a PostgreSQL database.
enum Backend {
    Sled(sled::Db),
    Pg(Rc<pg::Connection>),
}

/// The database the command line chose (`[store] url`, `CORBEAU_STORE`): when set, every
/// opening of a store by its data directory opens the database instead, and the data
/// directory keeps only the mail spool and the outbox folder.
static DATABASE: std::sync::Mutex<Option<DatabaseUrl>> = std::sync::Mutex::new(None);

/// Chooses where [`Store::open`] keeps the store for the rest of the process (none: sled
/// in the data directory, the default).
pub fn use_database(url: Option<DatabaseUrl>) {
    if let Ok(mut chosen) = DATABASE.lock() {
        *chosen = url;
    }
}

/// The database chosen by [`use_database`], if any.
pub fn chosen_database() -> Option<DatabaseUrl> {
    DATABASE.lock().ok().and_then(|chosen| chosen.clone())
}

impl Store {
    /// Opens (or creates) the store in `dir`, checking and migrating its schema. A store in
    /// use by another process is waited for a little (a moderator's command and a cron
    /// `tick` may meet), then refused with a clear message.
    ///
    /// On PostgreSQL it waits in the lock's queue, ahead of the judges, which poll
    /// ([`Store::open_waiting`]): a moderator's command waits for the mail in hand only.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        match chosen_database() {
            Some(url) => Store::open_database_in_turn(dir, &url, LOCK_WAIT, pg::Turn::Queue),
            None => Store::open_files(dir, LOCK_WAIT),
        }
    }

    /// Whether `dir` holds a store: sled writes its `conf` and `db` files at the first
    /// opening; a rewrite of its files a crash interrupted may have moved them aside.
    pub fn exists(dir: &Path) -> bool {
        match chosen_database() {
            Some(url) => pg::exists(&url),
            None => Store::files_exist(dir),
        }
    }

    /// Whether the database `url` holds a store's tables (one that cannot be reached
    /// says yes: opening it then says why).
    pub fn database_exists(url: &DatabaseUrl) -> bool {
        pg::exists(url)
    }

    /// Whether `dir` holds sled's files of a store.
    pub fn files_exist(dir: &Path) -> bool {
        dir.join("conf").is_file() || dir.join("db").is_file() || compact::pending(dir)
    }

    /// Opens the store, waiting at most `wait` for another process to let it go.
    /// While it waits, a file `waiting.<pid>` in `dir` says so: a long `serve` pass lets
    /// the store go between two mails when it sees one ([`Store::someone_waits`]).
    pub fn open_waiting(dir: &Path, wait: std::time::Duration) -> Result<Store, StoreError> {
        match chosen_database() {
            Some(url) => Store::open_database_in_turn(dir, &url, wait, pg::Turn::Poll),
            None => Store::open_files(dir, wait),
        }
    }

    /// Opens the store of sled's files in `dir`, whatever [`use_database`] chose.
    pub fn open_files(dir: &Path, wait: std::time::Duration) -> Result<Store, StoreError> {
        let give_up = std::time::Instant::now() + wait;
        let mut knock: Option<Knock> = None;
        loop {
            match Store::open_once(dir) {
                Err(StoreError::Locked(_)) if std::time::Instant::now() < give_up => {
                    if knock.is_none() {
                        knock = Knock::at(dir);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                result => return result,
            }
        }
    }

    /// Whether another process is waiting for the store in `dir` (a knock younger than
    /// [`KNOCK_LIFE`]: one left by a killed process is soon ignored).
    pub fn someone_waits(dir: &Path) -> bool {
        if let Some(url) = chosen_database() {
            return pg::someone_waits(&url);
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        let now = std::time::SystemTime::now();
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix(KNOCK_PREFIX) else {
                return false;
            };
            let fresh = e
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|at| now.duration_since(at).unwrap_or_default() < KNOCK_LIFE);
            // A process interrupted while it waited (Ctrl-C) leaves its knock behind.
            if !fresh || !alive(pid) {
                let _ = std::fs::remove_file(e.path());
                return false;
            }
            true
        })
    }

    /// Opens the store once, under its gate (`compact`): checks and migrates it, and
    /// rewrites its files the first time this version opens a store of an earlier one, so
    /// that no value it dropped stays in them.
    fn open_once(dir: &Path) -> Result<Store, StoreError> {
        let _gate = compact::Gate::take(dir)?;
        let store = Store::open_sled(dir)?;
        if !store.migrate()? {
            return Ok(store);
        }
        let Backend::Sled(db) = &store.backend else {
            return Ok(store);
        };
        compact::copy(dir, db, &[(migrate::SIEVES_KEYED, &[1])])?;
        drop(store);
        compact::finish(dir)?;
        let store = Store::open_sled(dir)?;
        store.migrate()?;
        Ok(store)
    }

    fn open_sled(dir: &Path) -> Result<Store, StoreError> {
        let db = match sled::Config::new()
            .path(dir)
            .cache_capacity(cache_bytes())
            .open()
        {
            // sled 0.34 writes a snapshot as `snap.<lsn>.generating`, synced, then renamed;
            // a process killed before the rename leaves that file behind, and the next open
            // takes it for the newest snapshot and reports corruption. Such a file is
            // never a finished snapshot: remove it and open again, from the last finished
            // snapshot and the log.
            Err(sled::Error::Corruption { .. }) if remove_unfinished_snapshots(dir) => {
                sled::Config::new()
                    .path(dir)
                    .cache_capacity(cache_bytes())
                    .open()
            }
            other => other,
        };
        let db = db.map_err(|source| {
            let locked = matches!(&source, sled::Error::Io(e)
                if e.kind() == std::io::ErrorKind::WouldBlock || e.to_string().contains("lock"));
            if locked {
                StoreError::Locked(dir.to_path_buf())
            } else {
                StoreError::Open {
                    path: dir.to_path_buf(),
                    source,
                }
            }
        })?;
        let tree = |name: &str| Ok::<_, StoreError>(Tree::Sled(db.open_tree(name)?));
        Store::with_trees(dir, tree, Backend::Sled(db.clone()))
    }

    /// Opens the store kept in the database `url` (the data directory `dir` keeps the
    /// mail spool and the outbox folder), waiting at most `wait` for another judge that
    /// holds it; creates its tables in an empty database.
    pub fn open_database(
        dir: &Path,
        url: &DatabaseUrl,
        wait: std::time::Duration,
    ) -> Result<Store, StoreError> {
        Store::open_database_in_turn(dir, url, wait, pg::Turn::Queue)
    }

    fn open_database_in_turn(
        dir: &Path,
        url: &DatabaseUrl,
        wait: std::time::Duration,
        turn: pg::Turn,
    ) -> Result<Store, StoreError> {
        let db = Rc::new(pg::Connection::open(url, wait, turn)?);
        let tree = |name: &str| {
            let table = pg::TREES
                .iter()
                .find(|t| **t == name)
                .ok_or_else(|| StoreError::Corrupt(format!("no table for the tree {name}")))?;
            Ok(Tree::Pg(kv::PgTree {
                db: db.clone(),
                table,
            }))
        };
        let store = Store::with_trees(dir, tree, Backend::Pg(db.clone()))?;
        store.migrate()?;
        Ok(store)
    }

    fn with_trees(
        dir: &Path,
        tree: impl Fn(&str) -> Result<Tree, StoreError>,
        backend: Backend,
    ) -> Result<Store, StoreError> {
        Ok(Store {
            path: dir.to_path_buf(),
            meta: tree("meta")?,
            games: tree("games")?,
            phases: tree("phases")?,
            audit: tree("audit")?,
            wake: tree("wake")?,
            notices: tree("notices")?,
            outbox: tree("outbox")?,
            pieces: tree("pieces")?,
            piece_counts: tree("piece_counts")?,
            seen: tree("seen")?,
            replies: tree("replies")?,
            guards: tree("guards")?,
            variants: tree("variants")?,
            held: tree("held")?,
            seats: tree("seats")?,
            records: tree("records")?,
            standby: tree("standby")?,
            parsed: RefCell::new(HashMap::new()),
            backend,
        })
    }

    /// Where the store is, for messages: its data directory, or its database's URL
    /// without the password.
    pub fn location(&self) -> String {
        match &self.backend {
            Backend::Sled(_) => self.path.display().to_string(),
            Backend::Pg(db) => db.url.shown().to_string(),
        }
    }

    /// Makes the store's writes durable: sled's log flushed to disk (a database's commit
    /// is durable already).
    fn flush(&self) -> Result<(), StoreError> {
        if let Backend::Sled(db) = &self.backend {
            db.flush()?;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses a write that adds to the store when its disk has less than [`RESERVE`]
    /// free. A disk whose free space cannot be read is taken as roomy: the write then
    /// meets the disk as before.
    fn room(&self) -> Result<(), StoreError> {
        // A database's disk is the server's: it refuses a write itself, without hanging.
        if let Backend::Pg(_) = self.backend {
            return Ok(());
        }
        match free_bytes(&self.path) {
            Some(free) if free < RESERVE => Err(StoreError::NoRoom {
                path: self.path.clone(),
                free,
            }),
            _ => Ok(()),
        }
    }

    /// Checks the schema and migrates the store to this version's; says whether its files
    /// must then be rewritten (`compact`).
    fn migrate(&self) -> Result<bool, StoreError> {
        let meta = &self.meta;
        let found = match meta.get("schema")? {
            Some(v) => u32::from_be_bytes(
                v.as_slice()
                    .try_into()
                    .map_err(|_| StoreError::Corrupt("schema version".into()))?,
            ),
            // A store without a version is a new one: nothing to migrate.
            None => {
                meta.insert("schema", SCHEMA_VERSION.to_be_bytes())?;
                self.flush()?;
                SCHEMA_VERSION
            }
        };
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: self.path.clone(),
                found,
            });
        }
        if found < SCHEMA_VERSION {
            // Writes the new version in the migration's own transaction.
            migrate::migrate(self, meta, found)?;
        }
        // An opening of an up-to-date store writes nothing (a nearly full disk opens as
        // well as any), once its old sieves are gone and its seats indexed.
        self.index_seats(meta)?;
        migrate::drop_unkeyed_sieves(self, meta)
    }

    /// The text of a pinned variant (none: the store does not have it, which only a
    /// damaged store can give).
    pub fn variant_text(&self, hash: &VariantHash) -> Result<Option<String>, StoreError> {
        match self.variants.get(hash.as_str())? {
            Some(bytes) => String::from_utf8(bytes.to_vec())
                .map(Some)
                .map_err(|_| StoreError::Corrupt(format!("variant {hash} is not UTF-8"))),
            None => Ok(None),
        }
    }

    /// Keeps a variant's text under its hash, before the commit of the game that names
    /// it. Written outside that commit's transaction: a text is keyed by its own hash, so
    /// writing it again changes nothing, and a text left without a game (the commit
    /// failed) is never read.
    pub fn keep_variant(&self, hash: &VariantHash, text: &str) -> Result<(), StoreError> {
        self.room()?;
        if !self.variants.contains_key(hash.as_str())? {
            self.variants.insert(hash.as_str(), text.as_bytes())?;
        }
        Ok(())
    }

    /// The variant a pin names, parsed once per process. Its text was checked when it was
    /// kept: a text missing or unreadable is a damaged store.
    pub fn pinned(&self, pin: &PinnedVariant) -> Result<Rc<Variant>, StoreError> {
        if let Some(v) = self.parsed.borrow().get(&pin.hash) {
            return Ok(v.clone());
        }
        let text = self.variant_text(&pin.hash)?.ok_or_else(|| {
            StoreError::Corrupt(format!(
                "the content of the variant {} ({}) is missing",
                pin.name, pin.hash
            ))
        })?;
        let variant = parse_variant(&pin.name, &text).map_err(|e| {
            StoreError::Corrupt(format!("the variant {} ({}): {e}", pin.name, pin.hash))
        })?;
        Ok(self.remember(&pin.hash, variant))
    }

    /// Keeps a variant read from its file, parsed, for the games pinned to it.
    pub fn remember(&self, hash: &VariantHash, variant: Variant) -> Rc<Variant> {
        let variant = Rc::new(variant);
        self.parsed
            .borrow_mut()
            .insert(hash.clone(), variant.clone());
        variant
    }

    /// The variant a stored game is pinned to, read from its JSON.
    fn variant_of(&self, game: &[u8]) -> Result<Rc<Variant>, StoreError> {
        #[derive(serde::Deserialize)]
        struct Pinned {
            variant: PinnedVariant,
        }
        let pinned: Pinned = decode(game, "game")?;
        self.pinned(&pinned.variant)
    }

    fn decode_game(&self, bytes: &[u8]) -> Result<Game, StoreError> {
        let variant = self.variant_of(bytes)?;
        scope::within(&variant, || decode(bytes, "game"))
    }

    pub fn game(&self, id: &str) -> Result<Option<Game>, StoreError> {
        self.games
            .get(id)?
            .map(|v| self.decode_game(&v))
            .transpose()
    }

    /// Whether a game of this id is stored, without reading it.
    pub fn has_game(&self, id: &str) -> Result<bool, StoreError> {
        self.games.contains_key(id)
    }

    /// Every game, in id order, each read on its own: a game that cannot be read (the
    /// content of its variant damaged) is given with the reason, and stops no other.
    pub fn games(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.games
            .iter()
            .map(|item| {
                let (id, bytes) = item?;
                let id = String::from_utf8_lossy(&id).into_owned();
                Ok((id, self.decode_game(&bytes)))
            })
            .collect()
    }

    /// Damages the store as a lost variant text would (tests of what stops and what
    /// goes on).
    #[doc(hidden)]
    pub fn forget_variant_for_tests(&self, hash: &VariantHash) -> Result<(), StoreError> {
        self.variants.remove(hash.as_str())?;
        self.parsed.borrow_mut().remove(hash);
        Ok(())
    }

    /// The variant a game's phase records are read with: the game's (a move to a new
    /// version checked that they read with it).
    fn records_variant(&self, id: &str) -> Result<Rc<Variant>, StoreError> {
        match self.games.get(id)? {
            Some(game) => self.variant_of(&game),
            None => Err(StoreError::Corrupt(format!(
                "phase records of a game that is not there: {id}"
            ))),
        }
    }

    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.games
            .iter()
            .map(|item| Ok(String::from_utf8_lossy(&item?.0).into_owned()))
            .collect()
    }

    /// The ids of the games whose wake time has come.
    pub fn due_games(&self, now: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let end = time_key(now);
        let mut ids = Vec::new();
        let last = end_of(&end);
        for item in self
            .wake
            .range(Bound::Unbounded, Bound::Included(last.as_slice()))
        {
            let (_, id) = item?;
            ids.push(String::from_utf8_lossy(&id).into_owned());
        }
        ids.dedup();
        Ok(ids)
    }

    /// Whether the games due are claimed one by one ([`Store::claim_due`]): on
    /// PostgreSQL, where several judges share the store; sled has one process.
    pub fn claims_games(&self) -> bool {
        matches!(self.backend, Backend::Pg(_))
    }

    /// Claims at most `count` of the games whose wake time has come, leaving out `skip`
    /// and those another judge holds a live claim on (docs/storage.md, "Several judges at
    /// once"). On sled, where nobody else can claim, the games due but `skip`, all of
    /// them.
    pub fn claim_due(
        &self,
        now: DateTime<Utc>,
        skip: &[String],
        count: usize,
    ) -> Result<Vec<String>, StoreError> {
        let Backend::Pg(db) = &self.backend else {
            let mut due = self.due_games(now)?;
            due.retain(|id| !skip.contains(id));
            return Ok(due);
        };
        let last = end_of(&time_key(now));
        let skip: Vec<Vec<u8>> = skip.iter().map(|id| id.as_bytes().to_vec()).collect();
        Ok(db
            .claim(&last, &skip, count, lease())?
            .into_iter()
            .map(|id| String::from_utf8_lossy(&id).into_owned())
            .collect())
    }

    /// Whether this store's claim on `id` is still live and its own (always on sled).
    pub fn holds_claim(&self, id: &str) -> Result<bool, StoreError> {
        match &self.backend {
            Backend::Pg(db) => db.holds_claim(id.as_bytes()),
            Backend::Sled(_) => Ok(true),
        }
    }

    /// Gives up this store's claims on `ids`.
    pub fn unclaim(&self, ids: &[String]) -> Result<(), StoreError> {
        if let Backend::Pg(db) = &self.backend {
            let ids: Vec<Vec<u8>> = ids.iter().map(|id| id.as_bytes().to_vec()).collect();
            db.unclaim(&ids)?;
        }
        Ok(())
    }

    /// Lets the store's lock go while this process keeps reading (PostgreSQL; sled's
    /// file stays held): every write is refused until [`Store::take_again`].
    pub fn let_go(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Pg(db) => db.let_go(),
            Backend::Sled(_) => Ok(()),
        }
    }

    /// Takes the lock let go by [`Store::let_go`] again, waiting at most `wait`.
    pub fn take_again(&self, wait: std::time::Duration) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Pg(db) => db.take_again(wait),
            Backend::Sled(_) => Ok(()),
        }
    }

    /// Lets the lock go and takes it again, waiting at most `wait`, when another process
    /// waits for it (PostgreSQL): the connection, and what was read, stay.
    pub fn give_way(&self, wait: std::time::Duration) -> Result<(), StoreError> {
        let Backend::Pg(db) = &self.backend else {
            return Ok(());
        };
        if !pg::someone_waits(&db.url) {
            return Ok(());
        }
        db.let_go()?;
        db.take_again(wait)
    }

    /// A game and the bytes it was read from, to tell later whether it changed since.
    pub fn game_read(&self, id: &str) -> Result<Option<(Vec<u8>, Game)>, StoreError> {
        match self.games.get(id)? {
            Some(bytes) => {
                let game = self.decode_game(&bytes)?;
                Ok(Some((bytes, game)))
            }
            None => Ok(None),
        }
    }

    /// Whether the game `id` is stored as `bytes` (none: not stored).
    pub fn game_is(&self, id: &str, bytes: Option<&[u8]>) -> Result<bool, StoreError> {
        Ok(self.games.get(id)?.as_deref() == bytes)
    }

    /// The history of a game, oldest first.
    pub fn phases(&self, id: &str) -> Result<Vec<PhaseRecord>, StoreError> {
        let mut records = self
            .phases
            .scan_prefix(prefix(id))
            .map(|item| item.map(|(_, v)| v))
            .peekable();
        if records.peek().is_none() {
            return Ok(Vec::new());
        }
        let variant = self.records_variant(id)?;
        scope::within(&variant, || records.map(|v| decode(&v?, "phase")).collect())
    }

    pub fn phase(&self, id: &str, index: u32) -> Result<Option<PhaseRecord>, StoreError> {
        let Some(bytes) = self.phases.get(phase_key(id, index))? else {
            return Ok(None);
        };
        let variant = self.records_variant(id)?;
        scope::within(&variant, || decode(&bytes, "phase")).map(Some)
    }

    /// [`Store::phase`] of a game in hand: its variant is known, the game is not read.
    pub fn game_phase(&self, game: &Game, index: u32) -> Result<Option<PhaseRecord>, StoreError> {
        let Some(bytes) = self.phases.get(phase_key(game.id(), index))? else {
            return Ok(None);
        };
        let variant = self.pinned(game.variant())?;
        scope::within(&variant, || decode(&bytes, "phase")).map(Some)
    }

    /// The index of the last phase a game played, its record left unread.
    pub fn last_phase_index(&self, id: &str) -> Result<Option<u32>, StoreError> {
        let start = prefix(id);
        let Some(key) = self.phases.last_key_with_prefix(&start)? else {
            return Ok(None);
        };
        let index = key
            .get(start.len()..)
            .and_then(|tail| <[u8; 4]>::try_from(tail).ok())
            .ok_or_else(|| StoreError::Corrupt(format!("a phase key of {id}")))?;
        Ok(Some(u32::from_be_bytes(index)))
    }

    pub fn last_phase(&self, id: &str) -> Result<Option<PhaseRecord>, StoreError> {
        let Some((_, bytes)) = self.phases.last_with_prefix(&prefix(id))? else {
            return Ok(None);
        };
        let variant = self.records_variant(id)?;
        scope::within(&variant, || decode(&bytes, "phase")).map(Some)
    }

    pub fn audit(&self, id: &str) -> Result<Vec<AuditEntry>, StoreError> {
        self.audit
            .scan_prefix(prefix(id))
            .map(|item| decode(&item?.1, "audit"))
            .collect()
    }

    /// The last line of a game's audit trail: whether anything happened to the game since
    /// a line was seen (`corbeau publish` and `serve` skip the games that did not change).
    pub fn last_audit(&self, id: &str) -> Result<Option<AuditEntry>, StoreError> {
        self.audit
            .last_with_prefix(&prefix(id))?
            .map(|(_, v)| decode(&v, "audit"))
            .transpose()
    }

    /// Every queued notice, oldest first, with its key.
    pub fn notices(&self) -> Result<Vec<(u64, Notice)>, StoreError> {
        sequenced(&self.notices, "notice")
    }

    /// At most `limit` queued notices after the one of key `after`, oldest first: a pass
    /// reads them a run at a time, whatever their number.
    pub fn notices_after(
        &self,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<(u64, Notice)>, StoreError> {
        let after = after.map(u64::to_be_bytes);
        self.notices
            .page(after.as_ref().map(|k| k.as_slice()), limit)?
            .into_iter()
            .map(|(k, v)| {
                let key = k
                    .as_slice()
                    .try_into()
                    .map(u64::from_be_bytes)
                    .map_err(|_| StoreError::Corrupt("notice key".into()))?;
                Ok((key, decode(&v, "notice")?))
            })
            .collect()
    }

    /// Writes one command's changes atomically and durably.
    pub fn commit(&self, commit: Commit<'_>) -> Result<(), StoreError> {
        self.room()?;
        let [audit_keys, notice_keys, mail_keys] =
            self.new_key_runs([commit.audit.len(), commit.notices.len(), commit.mails.len()])?;
        // The game's places and houses are written with the variant it plays (a record
        // with the game's: a rollback has the game it changes).
        let (game_json, record_json) = match commit.game.or(commit.before) {
            Some(game) => {
                let variant = self.pinned(game.variant())?;
                scope::within(&variant, || {
                    Ok::<_, StoreError>((
                        commit.game.map(encode).transpose()?,
                        commit.record.map(encode).transpose()?,
                    ))
                })?
            }
            None => (None, None),
        };
        let audit_json = encode_all(&commit.audit)?;
        let notice_json = encode_all(&commit.notices)?;
        let mail_cuts = commit
            .mails
            .iter()
            .map(pieces::cut)
            .collect::<Result<Vec<_>, _>>()?;
        // A mail written again names the pieces it named: their counts stay.
        let update_json = commit
            .outbox_update
            .map(|(key, mail)| Ok::<_, StoreError>((key, pieces::cut(mail)?.json)))
            .transpose()?;
        let touches_game = commit.game.is_some() || commit.before.is_some();
        let id = commit
            .game
            .or(commit.before)
            .map(|g| g.id().to_string())
            .unwrap_or_default();
        let seen_at = Utc::now().timestamp().to_be_bytes();
        if let Some(at) = commit
            .replied
            .iter()
            .chain(&commit.counted)
            .map(|r| r.at)
            .max()
        {
            self.prune_replies(at)?;
        }
        let guard_json = commit
            .guards
            .iter()
            .map(|(key, guard)| Ok((key.as_bytes(), guard.as_ref().map(encode).transpose()?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let seat_keys: Vec<Vec<u8>> = commit.seats.iter().map(seat_key).collect();
        let standby_json = commit
            .standby
            .iter()
            .map(|(address, entry)| {
                Ok((
                    standby_key(address),
                    entry.as_ref().map(encode).transpose()?,
                ))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let announced_json = commit
            .announced
            .iter()
            .map(|(game, at)| Ok((announced_key(game), encode(at)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let mark_json = commit
            .marks
            .iter()
            .map(|m| Ok((record_key(m), encode(&m.mark)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        // A phase rolled back leaves no mark: played again, it marks as it is played then.
        let unmarked = match commit.drop_record {
            Some(index) => self.marks_of_phase(&id, index)?,
            None => Vec::new(),
        };
        let trees = [
            &self.games,
            &self.phases,
            &self.audit,
            &self.wake,
            &self.notices,
            &self.outbox,
            &self.pieces,
            &self.piece_counts,
            &self.seen,
            &self.replies,
            &self.guards,
            &self.seats,
            &self.standby,
            &self.meta,
            &self.records,
        ];
        let result = kv::transaction(&trees, |trees| {
            let [
                games,
                phases,
                audit,
                wake,
                notices,
                outbox,
                pieces,
                piece_counts,
                seen,
                replies,
                guards,
                seats,
                standby,
                meta,
                records,
            ] = trees
            else {
                return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                    "the trees of a commit".into(),
                )));
            };
            for key in &seat_keys {
                seats.insert(key.as_slice(), [])?;
            }
            for (key, json) in &standby_json {
                match json {
                    Some(json) => standby.insert(key.as_bytes(), json.as_slice())?,
                    None => standby.remove(key.as_bytes())?,
                };
            }
            for (key, json) in &announced_json {
                meta.insert(key.as_bytes(), json.as_slice())?;
            }
            for key in &unmarked {
                records.remove(key.as_slice())?;
            }
            for (key, json) in &mark_json {
                records.insert(key.as_slice(), json.as_slice())?;
            }
            if touches_game {
                if commit.before.is_none() && games.get(id.as_bytes())?.is_some() {
                    return Err(ConflictableTransactionError::Abort(StoreError::Exists(
                        id.clone(),
                    )));
                }
                if let Some(old) = commit.before.and_then(|g| g.wake()) {
                    wake.remove(wake_key(old, &id))?;
                }
                match (commit.game, &game_json) {
                    (Some(game), Some(json)) => {
                        games.insert(id.as_bytes(), json.as_slice())?;
                        if let Some(at) = game.wake() {
                            wake.insert(wake_key(at, &id), id.as_bytes())?;
                        }
                    }
                    _ => {
                        games.remove(id.as_bytes())?;
                    }
                }
            }
            if let (Some(record), Some(json)) = (commit.record, &record_json) {
                phases.insert(phase_key(&id, record.index), json.as_slice())?;
            }
            if let Some(index) = commit.drop_record {
                phases.remove(phase_key(&id, index))?;
            }
            put_all(audit, &id, &audit_keys, &audit_json)?;
            put_sequenced(notices, &notice_keys, &notice_json)?;
            put_mails(outbox, pieces, piece_counts, &mail_keys, &mail_cuts)?;
            if let Some((key, json)) = &update_json {
                rewrite_waiting(outbox, *key, json)?;
            }
            if let Some(message_id) = &commit.seen {
                seen.insert(message_id.as_bytes(), seen_at)?;
            }
            for (key, json) in &guard_json {
                match json {
                    Some(json) => guards.insert(*key, json.as_slice())?,
                    None => guards.remove(*key)?,
                };
            }
            for replied in commit.replied.iter().chain(&commit.counted) {
                count_reply(replies, replied)?;
            }
            Ok(())
        });
        self.finish(result)
    }

    /// A transaction's outcome, flushed to disk when it committed.
    fn finish(&self, result: Result<(), StoreError>) -> Result<(), StoreError> {
        result?;
        self.flush()
    }

    fn new_keys(&self, n: usize) -> Result<Vec<u64>, StoreError> {
        match &self.backend {
            Backend::Sled(db) => (0..n)
                .map(|_| db.generate_id().map_err(StoreError::from))
                .collect(),
            Backend::Pg(db) => db.generate_ids(n),
        }
    }

    /// New keys for several trees at once, in increasing order from the first run to the
    /// last, as drawn one run after the other: one question to a database.
    fn new_key_runs<const N: usize>(
        &self,
        counts: [usize; N],
    ) -> Result<[Vec<u64>; N], StoreError> {
        let mut keys = self.new_keys(counts.iter().sum())?.into_iter();
        Ok(counts.map(|n| keys.by_ref().take(n).collect()))
    }

    /// Whether a mail with this Message-ID was already acted on.
    /// The seats `address` took at `since` or later, as `seats` keeps them: read by the
    /// address's key, oldest first.
    pub fn seats_taken(
        &self,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<SeatTaken>, StoreError> {
        let prefix = seat_prefix(address);
        let mut from = prefix.clone();
        from.extend_from_slice(&time_key(since));
        let mut to = prefix.clone();
        if let Some(last) = to.last_mut() {
            *last = 1;
        }
        let mut taken = Vec::new();
        for item in self.seats.range(
            Bound::Included(from.as_slice()),
            Bound::Excluded(to.as_slice()),
        ) {
            let (key, _) = item?;
            let Some(rest) = key.get(prefix.len()..) else {
                continue;
            };
            let (Some(time), Some(names)) = (rest.get(..8), rest.get(8..)) else {
                continue;
            };
            let Ok(time) = <[u8; 8]>::try_from(time) else {
                continue;
            };
            let seconds = (u64::from_be_bytes(time) ^ (1 << 63)) as i64;
            let names = String::from_utf8_lossy(names);
            let (Some(at), Some((game, house))) =
                (DateTime::from_timestamp(seconds, 0), names.split_once('\0'))
            else {
                continue;
            };
            taken.push(SeatTaken {
                address: address.to_string(),
                at,
                game: game.to_string(),
                house: house.to_string(),
            });
        }
        Ok(taken)
    }

    /// The record of an address: its marks in every game, summed.
    pub fn record(&self, address: &str) -> Result<PlayerRecord, StoreError> {
        let mut record = PlayerRecord::default();
        for item in self.records.scan_prefix(record_prefix(address)) {
            let mark: RecordMark = decode(&item?.1, "record")?;
            mark.add_to(&mut record);
        }
        Ok(record)
    }

    /// The keys of the marks a game's phase left, whoever they mark (a rollback's, read
    /// before its transaction: rare enough to read the whole tree).
    fn marks_of_phase(&self, game: &str, index: u32) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut keys = Vec::new();
        for item in self.records.iter() {
            let (key, _) = item?;
            if let Some((g, i)) = record_place(&key)
                && g == game.as_bytes()
                && i == index
                && matches!(
                    key.len().checked_sub(5).and_then(|k| key.get(k)),
                    Some(b'p' | b'd')
                )
            {
                keys.push(key.to_vec());
            }
        }
        Ok(keys)
    }

    /// Fills `seats` from the games, once (a store of an earlier version has the tree
    /// empty): every seat a player holds, when they took it. Marked done in `meta`.
    fn index_seats(&self, meta: &Tree) -> Result<(), StoreError> {
        if meta.contains_key(SEATS_INDEXED)? {
            return Ok(());
        }
        for (id, game) in self.games()? {
            let Ok(game) = game else {
                continue;
            };
            for seat in game.seats() {
                if let Some(player) = seat.player() {
                    let key = seat_key(&SeatTaken {
                        address: player.address().to_string(),
                        at: player.joined(),
                        game: id.clone(),
                        house: seat.house().to_string(),
                    });
                    self.seats.insert(key, [])?;
                }
            }
        }
        meta.insert(SEATS_INDEXED, [1])?;
        self.flush()?;
        Ok(())
    }

    pub fn seen(&self, message_id: &str) -> Result<bool, StoreError> {
        self.seen.contains_key(message_id.as_bytes())
    }

    /// The answers given to `address` in its current window (none once it is over).
    pub fn reply_window(
        &self,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<ReplyWindow>, StoreError> {
        Ok(self
            .replies
            .get(reply_key(address))?
            .map(|v| decode::<ReplyWindow>(&v, "reply window"))
            .transpose()?
            .filter(|w| now < w.since + REPLY_WINDOW))
    }

    /// Forgets the windows that ended before `now`. Outside the commit's transaction
    /// (sled's transactions cannot scan): an expired window counts as none anyway.
    fn prune_replies(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
        let mut end = vec![b't'];
        end.extend_from_slice(&time_key(now - REPLY_WINDOW));
        for item in self.replies.range(
            Bound::Included(b"t".as_slice()),
            Bound::Excluded(end.as_slice()),
        ) {
            let (key, _) = item?;
            let address = key.get(9..).unwrap_or_default();
            let mut window = vec![b'a'];
            window.extend_from_slice(address);
            // A window started again since has another `t` key; keep it.
            let current = self
                .replies
                .get(&window)?
                .map(|v| decode::<ReplyWindow>(&v, "reply window"))
                .transpose()?;
            if current.is_none_or(|w| w.since + REPLY_WINDOW <= now) {
                self.replies.remove(&window)?;
            }
            self.replies.remove(key)?;
        }
        Ok(())
    }

    /// Sets a mail aside for good (the transport refused it permanently), with the notices
    /// that tell the moderator and the game whose player's address failed, in one
    /// transaction.
    pub fn outbox_failed(
        &self,
        key: u64,
        mail: &Envelope,
        before: Option<&Game>,
        game: Option<&Game>,
        notices: Vec<Notice>,
        audit: Vec<AuditEntry>,
    ) -> Result<(), StoreError> {
        let mut mail = mail.clone();
        mail.failed = true;
        self.commit(Commit {
            before,
            game,
            audit,
            notices,
            outbox_update: Some((key, &mail)),
            ..Commit::default()
        })
    }

    /// Turns a queued notice into the mails that tell it, in one transaction: the notice
    /// is never both gone and unsent, and a notice already gone (told by another judge)
    /// queues nothing.
    /// With the notice, the hourly counters of the mails it sent (`counted`) and the
    /// copies the cap held back (`held`), in the same transaction.
    pub fn notice_to_mails(
        &self,
        key: u64,
        mails: &[Envelope],
        counted: &[Replied],
        held: &[HeldNotice],
    ) -> Result<(), StoreError> {
        self.notices_to_mails_unsynced(&[NoticeTold {
            key,
            mails: mails.to_vec(),
            counted: counted.to_vec(),
            held: held.to_vec(),
        }])?;
        self.flush()
    }

    /// [`Store::notice_to_mails`] for several notices in one transaction (one commit on
    /// PostgreSQL), atomic but not yet on disk on sled: a run of notices is written to
    /// disk at once by [`Store::sync`], which must come before any of its mails is handed
    /// to a transport (a crash before it forgets the run's notices and their mails
    /// together, and the news is told again by the next pass, once). Each notice with its
    /// mails, counters and held copies; a notice already gone (told by another judge)
    /// queues nothing.
    pub fn notices_to_mails_unsynced(&self, told: &[NoticeTold]) -> Result<(), StoreError> {
        if told.is_empty() {
            return Ok(());
        }
        self.room()?;
        let mails: Vec<&Envelope> = told.iter().flat_map(|t| &t.mails).collect();
        let helds: Vec<&HeldNotice> = told.iter().flat_map(|t| &t.held).collect();
        let [keys, held_keys] = self.new_key_runs([mails.len(), helds.len()])?;
        let cuts = mails
            .iter()
            .map(|m| pieces::cut(m))
            .collect::<Result<Vec<_>, _>>()?;
        let held_json = helds
            .iter()
            .map(|h| encode(*h))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(at) = told.iter().flat_map(|t| &t.counted).map(|r| r.at).max() {
            self.prune_replies(at)?;
        }
        let trees = [
            &self.notices,
            &self.outbox,
            &self.pieces,
            &self.piece_counts,
            &self.replies,
            &self.held,
        ];
        kv::transaction(&trees, |trees| {
            let [notices, outbox, pieces, piece_counts, replies, held] = trees else {
                return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                    "the trees of a notice's mails".into(),
                )));
            };
            // Told already by another judge that had the store meanwhile: its mails
            // are queued, these would be the same news twice.
            let notice_keys: Vec<[u8; 8]> = told.iter().map(|t| t.key.to_be_bytes()).collect();
            let queued = notices.contains_each(&notice_keys)?;
            // Each notice's share of the keys and values, in the order they were made.
            let (mut at, mut held_at) = (0, 0);
            for (t, queued) in told.iter().zip(queued) {
                let (mails, helds) = (at..at + t.mails.len(), held_at..held_at + t.held.len());
                (at, held_at) = (mails.end, helds.end);
                if !queued {
                    continue;
                }
                notices.remove(t.key.to_be_bytes())?;
                put_mails(
                    outbox,
                    pieces,
                    piece_counts,
                    &keys[mails.clone()],
                    &cuts[mails],
                )?;
                put_sequenced(held, &held_keys[helds.clone()], &held_json[helds])?;
                for replied in &t.counted {
                    count_reply(replies, replied)?;
                }
            }
            Ok(())
        })
    }

    /// Writes to disk what was written since the last time (sled; PostgreSQL's commits
    /// are on disk already).
    pub fn sync(&self) -> Result<(), StoreError> {
        self.flush()
    }

    /// The notices held back by the moderators' cap, oldest first, with their keys.
    pub fn held_notices(&self) -> Result<Vec<(u64, HeldNotice)>, StoreError> {
        sequenced(&self.held, "held notice")
    }

    /// Replaces held notices by the digest mails that tell them, in one transaction.
    pub fn held_to_mails(&self, keys: &[u64], mails: &[Envelope]) -> Result<(), StoreError> {
        self.room()?;
        let mail_keys = self.new_keys(mails.len())?;
        let cuts = mails
            .iter()
            .map(pieces::cut)
            .collect::<Result<Vec<_>, _>>()?;
        let trees = [&self.held, &self.outbox, &self.pieces, &self.piece_counts];
        let result = kv::transaction(&trees, |trees| {
            let [held, outbox, pieces, piece_counts] = trees else {
                return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                    "the trees of a digest".into(),
                )));
            };
            // The same digest, told already by another judge meanwhile.
            for key in keys {
                if held.get(key.to_be_bytes())?.is_none() {
                    return Ok(());
                }
            }
            for key in keys {
                held.remove(key.to_be_bytes())?;
            }
            put_mails(outbox, pieces, piece_counts, &mail_keys, &cuts)?;
            Ok(())
        });
        self.finish(result)
    }

    /// Every mail waiting in the outbox, oldest first, with its key, whole.
    pub fn outbox(&self) -> Result<Vec<(u64, Envelope)>, StoreError> {
        let mut read = HashMap::new();
        sequenced_with(&self.outbox, "outbox", migrate::outbox_entry)?
            .into_iter()
            .map(|(key, mail)| Ok((key, pieces::splice(mail, &self.pieces, &mut read)?)))
            .collect()
    }

    /// Records a failed attempt (the mail stays, with its retry time, naming the pieces
    /// it named).
    pub fn outbox_retry(&self, key: u64, mail: &Envelope) -> Result<(), StoreError> {
        self.room()?;
        let json = pieces::cut(mail)?.json;
        let result = kv::transaction(&[&self.outbox], |trees| {
            let [outbox] = trees else {
                return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                    "the tree of the outbox".into(),
                )));
            };
            rewrite_waiting(outbox, key, &json)
        });
        self.finish(result)
    }

    /// Removes mails the transport accepted, and the pieces no mail left names, in one
    /// transaction and one write to disk.
    pub fn outbox_sent_all(&self, keys: &[u64]) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let keys: Vec<[u8; 8]> = keys.iter().map(|k| k.to_be_bytes()).collect();
        let trees = [&self.outbox, &self.pieces, &self.piece_counts];
        let result = kv::transaction(&trees, |trees| {
            let [outbox, pieces, piece_counts] = trees else {
                return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                    "the trees of the outbox".into(),
                )));
            };
            pieces::remove_mails(outbox, pieces, piece_counts, &keys)
        });
        self.finish(result)
    }

    /// Removes a mail the transport accepted.
    pub fn outbox_sent(&self, key: u64) -> Result<(), StoreError> {
        self.outbox_sent_all(&[key])
    }

    /// The sign-on counter under `key` (`service::auth::Subject::key`), if any.
    pub fn guard(&self, key: &str) -> Result<Option<Guard>, StoreError> {
        self.guards
            .get(key.as_bytes())?
            .map(|v| decode(&v, "guard"))
            .transpose()
    }

    /// The keys of the sign-on counters to forget at `now`: those expired, then the
    /// oldest beyond [`guard::MAX_ENTRIES`]. A damaged entry is forgotten too.
    pub fn guards_to_forget(&self, now: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let mut forget = Vec::new();
        let mut kept = Vec::new();
        for item in self.guards.iter() {
            let (key, value) = item?;
            let key = String::from_utf8_lossy(&key).into_owned();
            match decode::<Guard>(&value, "guard") {
                Ok(guard) if !guard.expired(now) => kept.push((guard.last, key)),
                _ => forget.push(key),
            }
        }
        if kept.len() > guard::MAX_ENTRIES {
            kept.sort();
            let excess = kept.len() - guard::MAX_ENTRIES;
            forget.extend(kept.into_iter().take(excess).map(|(_, key)| key));
        }
        Ok(forget)
    }

    /// The judge's key for consent tokens (`game::ConsentKey`), as kept; none before the
    /// first is made.
    pub fn consent_key(&self) -> Result<Option<Vec<u8>>, StoreError> {
        self.meta.get("consent-key")
    }

    /// Keeps the judge's key for consent tokens, unless one is kept already; returns the
    /// key kept.
    pub fn keep_consent_key(&self, key: &[u8]) -> Result<Vec<u8>, StoreError> {
        let kept = self.meta.insert_if_absent(b"consent-key", key)?;
        self.flush()?;
        Ok(kept)
    }

    /// The judge's standby list, in the order addresses joined it.
    pub fn standby(&self) -> Result<Vec<Standby>, StoreError> {
        let mut list: Vec<Standby> = self
            .standby
            .iter()
            .map(|item| {
                let (_, value) = item?;
                decode(&value, "standby")
            })
            .collect::<Result<_, StoreError>>()?;
        list.sort_by_key(|s| s.since);
        Ok(list)
    }

    /// When the standby list was last told of a game's free houses, if ever.
    pub fn standby_announced(&self, game: &str) -> Result<Option<DateTime<Utc>>, StoreError> {
        self.meta
            .get(announced_key(game))?
            .map(|v| decode(&v, "standby announcement"))
            .transpose()
    }

    /// Bytes the store takes on disk.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        match &self.backend {
            Backend::Sled(db) => Ok(db.size_on_disk()?),
            Backend::Pg(db) => db.size(),
        }
    }
}

/// The bytes an unprivileged process may still write on the file system of `dir`.
fn free_bytes(dir: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: `path` is a NUL-terminated string and `stat` a zeroed struct that
        // statvfs(3) fills; neither outlives the call.
        let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
        if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
            return None;
        }
        #[allow(clippy::unnecessary_cast)]
        let bytes = (stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64);
        Some(bytes)
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// The name of the files that say a process waits for the store.
const KNOCK_PREFIX: &str = "waiting.";

/// How long a knock counts: longer than any wait for the store.
pub const KNOCK_LIFE: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether the process `pid` (as written in a knock's name) still runs.
fn alive(pid: &str) -> bool {
    let Ok(pid) = pid.parse::<i32>() else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    #[cfg(unix)]
    {
        // SAFETY: kill(2) with signal 0 sends nothing; it only checks that the process
        // exists (EPERM: it exists, under another user).
        let found = unsafe { libc::kill(pid, 0) } == 0;
        found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        pid > 0
    }
}

/// A process's knock, removed when it stops waiting.
struct Knock(PathBuf);

impl Knock {
    fn at(dir: &Path) -> Option<Knock> {
        let path = dir.join(format!("{KNOCK_PREFIX}{}", std::process::id()));
        std::fs::write(&path, b"").ok().map(|()| Knock(path))
    }
}

impl Drop for Knock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Removes every `snap.*.generating` file of the store (any other name starting with
/// `snap.` would be read as a snapshot too); says whether there was one.
fn remove_unfinished_snapshots(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut found = false;
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        let unfinished = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .is_some_and(|n| n.starts_with("snap.") && n.ends_with(".generating"));
        if unfinished {
            found |= std::fs::remove_file(&path).is_ok();
        }
    }
    found
}

fn reply_key(address: &str) -> Vec<u8> {
    let mut k = vec![b'a'];
    k.extend_from_slice(address.as_bytes());
    k
}

/// Adds one answer to the address's window, or starts a new window.
fn count_reply(replies: &TxTree<'_>, replied: &Replied) -> TxResult<()> {
    let key = reply_key(&replied.address);
    let current = match replies.get(&key)? {
        Some(v) => Some(
            decode::<ReplyWindow>(&v, "reply window")
                .map_err(ConflictableTransactionError::Abort)?,
        ),
        None => None,
    };
    let window = match current {
        Some(w) if replied.at < w.since + REPLY_WINDOW => ReplyWindow {
            since: w.since,
            count: w.count.saturating_add(1),
        },
        _ => {
            let mut by_age = vec![b't'];
            by_age.extend_from_slice(&time_key(replied.at));
            by_age.extend_from_slice(replied.address.as_bytes());
            replies.insert(by_age, [])?;
            ReplyWindow {
                since: replied.at,
                count: 1,
            }
        }
    };
    let json = encode(&window).map_err(ConflictableTransactionError::Abort)?;
    replies.insert(key, json)?;
    Ok(())
}

fn put_all(tree: &TxTree<'_>, id: &str, keys: &[u64], values: &[Vec<u8>]) -> TxResult<()> {
    for (key, json) in keys.iter().zip(values) {
        let mut k = prefix(id);
        k.extend_from_slice(&key.to_be_bytes());
        tree.insert(k, json.as_slice())?;
    }
    Ok(())
}

/// A notice told: its key, and what replaces it (its mails, the hourly counters of the
/// capped mails it sent, the copies the cap held back).
#[derive(Debug, Default)]
pub struct NoticeTold {
    pub key: u64,
    pub mails: Vec<Envelope>,
    pub counted: Vec<Replied>,
    pub held: Vec<HeldNotice>,
}

/// Queues mails in the outbox under `keys`, the pieces they name counted.
fn put_mails(
    outbox: &TxTree<'_>,
    pieces: &TxTree<'_>,
    counts: &TxTree<'_>,
    keys: &[u64],
    mails: &[pieces::Cut<'_>],
) -> TxResult<()> {
    for (key, mail) in keys.iter().zip(mails) {
        outbox.insert(key.to_be_bytes(), mail.json.as_slice())?;
    }
    pieces::shelve(pieces, counts, mails.iter().flat_map(|m| &m.pieces))
}

/// Writes an outbox mail again (an attempt failed, or it is set aside), only while it
/// still waits: one sent meanwhile may have taken its pieces, and must not come back.
fn rewrite_waiting(outbox: &TxTree<'_>, key: u64, json: &[u8]) -> TxResult<()> {
    if outbox.get(key.to_be_bytes())?.is_some() {
        outbox.insert(key.to_be_bytes(), json)?;
    }
    Ok(())
}

fn put_sequenced(tree: &TxTree<'_>, keys: &[u64], values: &[Vec<u8>]) -> TxResult<()> {
    for (key, json) in keys.iter().zip(values) {
        tree.insert(key.to_be_bytes(), json.as_slice())?;
    }
    Ok(())
}

/// The values of a tree keyed by sequence numbers, oldest first, with their keys.
fn sequenced<T: DeserializeOwned>(tree: &Tree, what: &str) -> Result<Vec<(u64, T)>, StoreError> {
    sequenced_with(tree, what, |v| decode(v, what))
}

/// [`sequenced`] with the values read by `read` (the outbox reads older entries too).
fn sequenced_with<T>(
    tree: &Tree,
    what: &str,
    read: impl Fn(&[u8]) -> Result<T, StoreError>,
) -> Result<Vec<(u64, T)>, StoreError> {
    tree.iter()
        .map(|item| {
            let (k, v) = item?;
            let key = k
                .as_slice()
                .try_into()
                .map(u64::from_be_bytes)
                .map_err(|_| StoreError::Corrupt(format!("{what} key")))?;
            Ok((key, read(&v)?))
        })
        .collect()
}

fn encode_all<T: Serialize>(values: &[T]) -> Result<Vec<Vec<u8>>, StoreError> {
    values.iter().map(encode).collect()
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// Game ids hold no NUL byte, so `id, 0` prefixes only that game's keys.
fn prefix(id: &str) -> Vec<u8> {
    let mut k = id.as_bytes().to_vec();
    k.push(0);
    k
}

fn phase_key(id: &str, index: u32) -> Vec<u8> {
    let mut k = prefix(id);
    k.extend_from_slice(&index.to_be_bytes());
    k
}

/// The `meta` key that says `seats` was filled from the games.
const SEATS_INDEXED: &str = "seats-indexed";

/// A time as bytes that sort like the times (the sign bit flipped).
fn time_key(at: DateTime<Utc>) -> [u8; 8] {
    ((at.timestamp() as u64) ^ (1 << 63)).to_be_bytes()
}

fn wake_key(at: DateTime<Utc>, id: &str) -> Vec<u8> {
    let mut k = time_key(at).to_vec();
    k.extend_from_slice(id.as_bytes());
    k
}

/// The last key of a given time: every wake key of that second sorts before it.
fn end_of(time: &[u8; 8]) -> Vec<u8> {
    let mut k = time.to_vec();
    k.push(0xff);
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NoticeKind;

    fn mail(to: &str) -> Envelope {
        Envelope {
            message_id: format!("{to}.1@judge"),
            to: to.into(),
            game: Some("g".into()),
            queued: DateTime::<Utc>::UNIX_EPOCH,
            headers: Vec::new(),
            body: envelope::BodyBytes(b"news\r\n".to_vec()),
            attempts: 0,
            next_try: None,
            last_error: None,
            failed: false,
            shared: Vec::new(),
        }
    }

    /// A mail to `to` whose body carries each of `pieces` (key, bytes) between its lines.
    fn carrying(to: &str, pieces: &[(&str, &[u8])]) -> Envelope {
        let mut body = format!("news for {to}\r\n").into_bytes();
        let mut shared = Vec::new();
        for (key, bytes) in pieces {
            body.extend_from_slice(b"--part\r\n\r\n");
            shared.push(envelope::Shared {
                at: body.len(),
                len: bytes.len(),
                key: (*key).into(),
            });
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"--part--\r\n");
        Envelope {
            body: envelope::BodyBytes(body),
            shared,
            ..mail(to)
        }
    }

    /// The pieces the store keeps, each with how many mails name it.
    fn kept_pieces(store: &Store) -> Vec<(String, usize, u64)> {
        store
            .pieces
            .iter()
            .map(|entry| {
                let (key, bytes) = entry.expect("piece");
                let count = store
                    .piece_counts
                    .get(&key)
                    .expect("count")
                    .expect("counted");
                let count = u64::from_be_bytes(count.as_slice().try_into().expect("u64"));
                (String::from_utf8(key).expect("key"), bytes.len(), count)
            })
            .collect()
    }

    /// Mails that carry one picture keep it once in the store, whole when read back; a
    /// mail written again (a failed attempt) keeps naming it; the picture goes with the
    /// last mail that carries it, a picture of other mails stays.
    #[test]
    fn a_picture_several_mails_carry_is_kept_once_until_the_last_is_sent() {
        let dir = std::env::temp_dir().join(format!("corbeau-pieces-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open_files(&dir, std::time::Duration::ZERO).expect("store");
        let map = vec![b'M'; 5000];
        let other = vec![b'O'; 300];
        let mails = vec![
            carrying("a@example.org", &[("map", &map)]),
            carrying("b@example.org", &[("map", &map), ("other", &other)]),
            carrying("c@example.org", &[("map", &map)]),
            mail("d@example.org"),
        ];
        store
            .commit(Commit {
                mails: mails.clone(),
                ..Commit::default()
            })
            .expect("queued");
        assert_eq!(
            kept_pieces(&store),
            [("map".to_string(), 5000, 3), ("other".to_string(), 300, 1)]
        );
        let stored: usize = store.outbox.iter().map(|e| e.expect("mail").1.len()).sum();
        assert!(
            stored < 5000,
            "the picture stored with a mail: {stored} bytes"
        );
        let read = store.outbox().expect("outbox");
        let read_mails: Vec<&Envelope> = read.iter().map(|(_, m)| m).collect();
        assert_eq!(read_mails, mails.iter().collect::<Vec<_>>());
        let keys: Vec<u64> = read.iter().map(|(k, _)| *k).collect();
        let mut tried = read[1].1.clone();
        tried.attempts = 1;
        store.outbox_retry(keys[1], &tried).expect("retry");
        assert_eq!(store.outbox().expect("outbox")[1].1, tried);
        store.outbox_sent_all(&keys[..2]).expect("sent");
        assert_eq!(kept_pieces(&store), [("map".to_string(), 5000, 1)]);
        store.outbox_sent(keys[2]).expect("sent");
        assert_eq!(kept_pieces(&store), []);
        // A failed attempt told of a mail sent meanwhile does not bring it back.
        store.outbox_retry(keys[2], &read[2].1).expect("retry");
        assert!(store.piece_counts.is_empty().expect("counts"));
        assert_eq!(store.outbox().expect("outbox").len(), 1);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two judges read the same notices and tell them in turn (each a run at a time):
    /// the second finds them told and queues nothing, so no player gets the same news
    /// twice; a notice not yet told in the same run is still told.
    #[test]
    fn a_run_of_notices_told_again_queues_only_those_not_told() {
        let dir = std::env::temp_dir().join(format!("corbeau-told-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open_files(&dir, std::time::Duration::ZERO).expect("store");
        let notice = |game: &str| Notice {
            game: game.into(),
            at: DateTime::<Utc>::UNIX_EPOCH,
            kind: NoticeKind::Started,
            houses: Vec::new(),
        };
        store
            .commit(Commit {
                notices: vec![notice("a"), notice("b")],
                ..Commit::default()
            })
            .expect("notices");
        let keys: Vec<u64> = store.notices().expect("read").iter().map(|n| n.0).collect();
        let told = |key: u64, to: &str| NoticeTold {
            key,
            mails: vec![mail(to)],
            counted: Vec::new(),
            held: Vec::new(),
        };
        // The first judge tells the first notice.
        store
            .notices_to_mails_unsynced(&[told(keys[0], "x@example.org")])
            .expect("first");
        // The second, which read both before, tells both.
        store
            .notices_to_mails_unsynced(&[
                told(keys[0], "y@example.org"),
                told(keys[1], "z@example.org"),
            ])
            .expect("second");
        let to: Vec<String> = store
            .outbox()
            .expect("outbox")
            .into_iter()
            .map(|(_, m)| m.to)
            .collect();
        assert_eq!(to, ["x@example.org", "z@example.org"]);
        assert!(store.notices().expect("read").is_empty());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
