//! One pass of the judge's work by mail, as `tick` does it once and `serve` does it in a
//! loop: prune old raw mails, read the new mail (the spool and the configured Maildir),
//! process the games that are due and send their reminders, turn notices into mails, and
//! drain the outbox.
//!
//! The command line runs a pass on a [`Hold::dir`]: the store is opened for each step and
//! let go after it, and in the reading of mail it is let go between two mails as soon as
//! another process waits for it (`Store::someone_waits`), so that a moderator's command
//! beside a pass of thousands of mails waits for one mail, not for the pass.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::game::GameError;
use crate::service::{Service, TickReport};
use crate::store::Store;

use super::maildir::{self, IngestReport, MaildirError};
use super::notify::queue_notices;
use super::send::{DrainReport, drain};
use super::transport::Transport;

/// What one pass did.
#[derive(Debug, Default)]
pub struct PassReport {
    pub ingest: IngestReport,
    pub tick: TickReport,
    /// Mails written from notices.
    pub queued: usize,
    pub drain: DrainReport,
    /// Raw mails removed from `cur/` after the retention.
    pub pruned: usize,
}

/// The Maildirs a pass reads: the judge's spool, and the configured one if any.
pub fn maildirs(config: &Config) -> Vec<PathBuf> {
    let mut dirs = vec![maildir::spool(config)];
    dirs.extend(config.mail.maildir.clone());
    dirs
}

#[derive(Debug, thiserror::Error)]
pub enum PassError {
    #[error(transparent)]
    Maildir(#[from] MaildirError),
    #[error("{0}")]
    Game(#[from] GameError),
}

impl PassError {
    /// Whether the same pass may work later without anyone changing anything: the store
    /// in use or failing to write, a Maildir that cannot be read or written.
    pub fn is_temporary(&self) -> bool {
        match self {
            PassError::Maildir(_) => true,
            PassError::Game(e) => maildir::is_temporary(e),
        }
    }
}

/// How a pass gets at the store.
pub enum Hold<'a> {
    /// Opened by the caller, held for the whole pass (the library's callers, benches).
    Open(&'a Service),
    /// Opened for each step, or each run of mails, and let go between them.
    Dir(Keeper),
}

/// The store of a data directory, opened when needed.
pub struct Keeper {
    dir: PathBuf,
    /// How long an opening waits for another process.
    wait: Duration,
    open: Option<Service>,
}

/// How long the store is held for mails with nobody waiting before it is let go anyway:
/// a bound for a process that waits without saying so.
const BATCH: Duration = Duration::from_secs(1);

/// How long, after letting the store go, a pass lets the waiting processes take it
/// before it opens it again (each waits its own turn: this only bounds a stale knock).
const YIELD: Duration = Duration::from_secs(2);

impl<'a> Hold<'a> {
    /// The store of `dir`, opened when a step needs it, waiting at most `wait` for it.
    pub fn dir(dir: impl Into<PathBuf>, wait: Duration) -> Hold<'a> {
        Hold::Dir(Keeper {
            dir: dir.into(),
            wait,
            open: None,
        })
    }

    /// The store, opened if it is not.
    pub fn service(&mut self) -> Result<&Service, GameError> {
        match self {
            Hold::Open(service) => Ok(service),
            Hold::Dir(keeper) => {
                if keeper.open.is_none() {
                    let store = Store::open_waiting(&keeper.dir, keeper.wait)?;
                    keeper.open = Some(Service::on(store)?);
                }
                keeper
                    .open
                    .as_ref()
                    .ok_or(GameError::Internal("store".into()))
            }
        }
    }

    /// Lets the store go (a held [`Hold::Open`] stays open).
    pub fn release(&mut self) {
        if let Hold::Dir(keeper) = self {
            keeper.open = None;
        }
    }

    /// Between two mails, or after a step: lets the store go if another process waits
    /// for it, and gives it time to take it.
    pub fn breathe(&mut self, held_since: &mut Instant) {
        let Hold::Dir(keeper) = self else {
            return;
        };
        if keeper.open.is_none() {
            *held_since = Instant::now();
            return;
        }
        let waits = Store::someone_waits(&keeper.dir);
        if !waits && held_since.elapsed() < BATCH {
            return;
        }
        keeper.open = None;
        let give_up = Instant::now() + YIELD;
        if waits {
            // A waiting process polls every 20 ms and takes its knock away once it has
            // the store; the next opening then waits for it in turn.
            std::thread::sleep(Duration::from_millis(5));
            while Store::someone_waits(&keeper.dir) && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        *held_since = Instant::now();
    }
}

/// One pass at `now` on a store the caller holds.
pub fn pass(
    service: &Service,
    config: &Config,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<PassReport, PassError> {
    pass_holding(&mut Hold::Open(service), config, transport, now)
}

/// One pass at `now`, getting the store from `hold` step by step.
pub fn pass_holding(
    hold: &mut Hold<'_>,
    config: &Config,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<PassReport, PassError> {
    let mut report = PassReport::default();
    maildir::create(&maildir::spool(config))?;
    report.pruned = maildir::prune_all(config, now);
    for dir in maildirs(config) {
        maildir::read_maildir(hold, config, &dir, now, &mut report.ingest)?;
    }
    let mut since = Instant::now();
    hold.breathe(&mut since);
    report.tick = hold.service()?.tick(now)?;
    hold.breathe(&mut since);
    report.queued = queue_notices(hold.service()?, config, now)?;
    hold.breathe(&mut since);
    report.drain = drain(&hold.service()?.store, transport, &config.judge, now)
        .map_err(|e| PassError::Game(e.into()))?;
    hold.release();
    Ok(report)
}
