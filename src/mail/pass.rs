//! One pass of the judge's work by mail, as `tick` does it once and `serve` does it in a
//! loop: prune old raw mails, read the new mail (the spool and the configured Maildir),
//! process the games that are due and send their reminders, turn notices into mails, and
//! drain the outbox.
//!
//! The command line runs a pass on a [`Hold::dir`]: the store is opened for each step and
//! let go after it, and in the reading of mail it is let go between two mails as soon as
//! another process waits for it (`Service::someone_waits`), so that a moderator's command
//! beside a pass of thousands of mails waits for one mail, not for the pass; the same
//! between two games processed or reminded, and between two notices turned into mails.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::service::{Bug, Service, ServiceError, TickReport};

use super::maildir::{self, IngestReport, Isolation, MaildirError};
use super::notify::queue_notices_streaming;
use super::send::{DrainReport, drain_for};
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
    Service(#[from] ServiceError),
}

impl PassError {
    /// Whether the same pass may work later without anyone changing anything: the store
    /// in use or failing to write, a Maildir that cannot be read or written.
    pub fn is_temporary(&self) -> bool {
        match self {
            PassError::Maildir(_) => true,
            PassError::Service(e) => maildir::is_temporary(e),
        }
    }
}

/// How a pass gets at the store.
pub enum Hold<'a> {
    /// Opened by the caller, held for the whole pass (the library's callers, benches).
    Open(&'a Service),
    /// Opened for each step, or each run of mails, and let go between them.
    Dir(Box<Keeper>),
}

/// The store of a data directory, opened when needed.
pub struct Keeper {
    dir: PathBuf,
    /// How long an opening waits for another process.
    wait: Duration,
    open: Option<Service>,
    /// How a mail in hand when a process died is tried again alone, if it can be.
    isolation: Option<Isolation>,
    /// How many times the store was let go.
    releases: u64,
}

/// How long, after letting the store go, a pass lets the waiting processes take it
/// before it opens it again (each waits its own turn: this only bounds a stale knock).
const YIELD: Duration = Duration::from_secs(2);

/// How long a held store's lock, let go for a while (docs/storage.md, "Several judges at
/// once"), is waited for again: as long as a command waits to open the store.
const OPEN_WAIT: Duration = Duration::from_secs(5);

impl<'a> Hold<'a> {
    /// The store of `dir`, opened when a step needs it, waiting at most `wait` for it.
    pub fn dir(dir: impl Into<PathBuf>, wait: Duration) -> Hold<'a> {
        Hold::Dir(Box::new(Keeper {
            dir: dir.into(),
            wait,
            open: None,
            isolation: None,
            releases: 0,
        }))
    }

    /// The same hold, trying each mail that was in hand when a process died alone, in a
    /// child process run as `isolation` says (docs/storage.md, "Mail that cannot be
    /// handled").
    pub fn isolating(mut self, isolation: Isolation) -> Hold<'a> {
        if let Hold::Dir(keeper) = &mut self {
            keeper.isolation = Some(isolation);
        }
        self
    }

    /// How a suspect mail is tried alone, if this hold can.
    pub fn isolation(&self) -> Option<Isolation> {
        match self {
            Hold::Dir(keeper) => keeper.isolation.clone(),
            Hold::Open(_) => None,
        }
    }

    /// The store, opened if it is not.
    pub fn service(&mut self) -> Result<&Service, ServiceError> {
        match self {
            Hold::Open(service) => Ok(service),
            Hold::Dir(keeper) => {
                if keeper.open.is_none() {
                    keeper.open = Some(Service::open_waiting(&keeper.dir, keeper.wait)?);
                }
                keeper.open.as_ref().ok_or(Bug::StoreNotOpen.into())
            }
        }
    }

    /// Lets the store go (a held [`Hold::Open`] stays open).
    pub fn release(&mut self) {
        if let Hold::Dir(keeper) = self
            && keeper.open.take().is_some()
        {
            keeper.releases += 1;
        }
    }

    /// How many times the store was let go so far: another process may have changed it
    /// since this count was read if it differs.
    pub fn releases(&self) -> u64 {
        match self {
            Hold::Dir(keeper) => keeper.releases,
            Hold::Open(_) => 0,
        }
    }

    /// How long an opening of the store waits for another process.
    pub fn wait(&self) -> Duration {
        match self {
            Hold::Dir(keeper) => keeper.wait,
            Hold::Open(_) => OPEN_WAIT,
        }
    }

    /// Between two mails, or after a step: lets the store go if another process waits
    /// for it, and gives it time to take it. Says whether it did (what was read before
    /// may have changed since).
    pub fn breathe(&mut self) -> bool {
        self.breathe_after(|_| Ok(()))
    }

    /// [`Hold::breathe`], writing with `before` what must be in the store before another
    /// process has it (a run of notices told); if that fails, the store is kept.
    pub fn breathe_after(
        &mut self,
        before: impl FnOnce(&Service) -> Result<(), ServiceError>,
    ) -> bool {
        let Hold::Dir(keeper) = self else {
            return false;
        };
        if keeper.open.is_none() {
            return false;
        }
        // Opening the store again costs more than a mail: let it go only for someone.
        if !Service::someone_waits(&keeper.dir) {
            return false;
        }
        // What this pass wrote (a run of notices told) is on disk before another process
        // reads the store; if it cannot be, the store is kept.
        if let Some(open) = keeper.open.as_ref()
            && (before(open).is_err() || open.sync().is_err())
        {
            return false;
        }
        keeper.open = None;
        keeper.releases += 1;
        // A waiting process polls every 20 ms and takes its knock away once it has the
        // store; the next opening then waits for it in turn.
        let give_up = Instant::now() + YIELD;
        std::thread::sleep(Duration::from_millis(5));
        while Service::someone_waits(&keeper.dir) && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    /// Whether another process waits for the store this hold has (never for
    /// [`Hold::Open`]); asks the file system at most every 20 ms.
    pub fn waits(&self) -> impl Fn() -> bool + use<> {
        let dir = match self {
            Hold::Dir(keeper) => Some(keeper.dir.clone()),
            _ => None,
        };
        let last = std::cell::Cell::new(Instant::now());
        move || {
            let Some(dir) = &dir else { return false };
            if last.get().elapsed() < Duration::from_millis(20) {
                return false;
            }
            last.set(Instant::now());
            Service::someone_waits(dir)
        }
    }
}

/// The outbox, the store let go between two mails when someone waits for it. A mail the
/// transport refused gets a later retry time and is not tried again in this pass.
fn drain_all(
    hold: &mut Hold<'_>,
    config: &Config,
    transport: &Transport,
    now: DateTime<Utc>,
    report: &mut DrainReport,
) -> Result<(), ServiceError> {
    // Told out of reach by an earlier drain of this pass: not tried again before the next.
    if report.failed.iter().any(|f| f.error.is_unreachable()) {
        return Ok(());
    }
    loop {
        let waits = hold.waits();
        let run = drain_for(hold.service()?, transport, &config.judge, now, &waits)?;
        report.sent += run.sent;
        // A server out of reach costs one timeout per pass, not one per run.
        let down = run.failed.iter().any(|f| f.error.is_unreachable());
        report.failed.extend(run.failed);
        report.waiting = run.waiting;
        if !run.more || down {
            return Ok(());
        }
        hold.breathe();
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
    hold.breathe();
    super::deadline::tick_due(hold, now, &mut report.tick)?;
    hold.breathe();
    // The outbox is drained after each run of notices told, not only at the end: a
    // deadline of a thousand games writes ten thousand mails, which would otherwise all
    // wait in the store (and in its memory) for the last one.
    let mut drained = DrainReport::default();
    let notified = queue_notices_streaming(hold, config, now, |hold| {
        drain_all(hold, config, transport, now, &mut drained)
    })?;
    report.queued = notified.queued;
    // Told as the games `tick` could not handle (once each): left as they are, the
    // others went on.
    for (game, error) in notified.held {
        if !report.tick.errors.iter().any(|(id, _)| *id == game) {
            report.tick.errors.push((game, error));
        }
    }
    hold.breathe();
    drain_all(hold, config, transport, now, &mut drained)?;
    report.drain = drained;
    hold.release();
    Ok(report)
}
