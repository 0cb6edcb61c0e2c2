//! Draining the outbox: every mail that is due goes to the transport; a mail leaves the
//! store only once the transport took it, and a failure keeps it with a later retry time.
//! So a crash or a refusing server never loses a mail. The one window left —
//! the transport took a mail and the process died before the store forgot it — sends that
//! mail again, with the same Message-ID (docs/deploy.md, "Sending mail").
//!
//! Test hooks, compiled only with the `test-hooks` feature (the tests' builds, never the
//! release binary): the environment variable `CORBEAU_CRASH`, read once per drain, makes the
//! process abort at a chosen point so that crash tests can check the claims above:
//! - `before-send`: just before the first mail is handed to the transport;
//! - `after-send`: just after the transport took the first mail, before the store forgets
//!   it.
//!
//! Any other value is ignored (other modules have hooks of their own).

use chrono::{DateTime, TimeDelta, Utc};

use super::transport::{Backoff, Transport, TransportError};
use crate::config::{Config, Judge, TransportKind};
use crate::service::{Service, ServiceError};

/// What one drain did.
#[derive(Debug, Default)]
pub struct DrainReport {
    /// Mails the transport took (now gone from the outbox).
    pub sent: usize,
    /// Mails tried and refused this time; they stay, with a later retry time.
    pub failed: Vec<FailedMail>,
    /// Mails not tried because their retry time has not come.
    pub waiting: usize,
    /// Mails set aside: refused for good, kept as failed and never tried again (the
    /// ones refused this time are also in `failed`).
    pub set_aside: usize,
    /// The drain stopped at its time budget with mails still due ([`drain_for`]).
    pub more: bool,
}

/// A mail the transport refused.
#[derive(Debug)]
pub struct FailedMail {
    pub message_id: String,
    pub to: String,
    pub error: TransportError,
    /// Failed attempts so far, this one included.
    pub attempts: u32,
    pub next_try: DateTime<Utc>,
    /// Refused for good: set aside, not tried again (`corbeau outbox` shows it).
    pub set_aside: bool,
}

/// The transport the configuration chooses, with its back-off.
pub fn transport_from(config: &Config) -> Result<Transport, TransportError> {
    let mail = &config.mail;
    let transport = match mail.transport {
        TransportKind::Outbox => Transport::folder(config.outbox_dir()),
        TransportKind::Sendmail => {
            Transport::sendmail_within(&mail.sendmail.command, mail.sendmail.timeout())
        }
        TransportKind::Smtp => Transport::smtp(&mail.smtp)?,
    };
    Ok(transport.with_backoff(Backoff::from(&mail.retry)))
}

/// Sends every mail of the outbox that is due at `now`, oldest first. Only a store error
/// stops the drain; a mail the transport refuses is recorded and the next one is tried.
pub fn drain(
    service: &Service,
    transport: &Transport,
    judge: &Judge,
    now: DateTime<Utc>,
) -> Result<DrainReport, ServiceError> {
    drain_for(service, transport, judge, now, &|| false)
}

/// [`drain`], stopping before a mail when `pause` says so (with `more` set), so that a
/// pass can let the store go to a process waiting for it, then drain the rest.
pub fn drain_for(
    service: &Service,
    transport: &Transport,
    judge: &Judge,
    now: DateTime<Utc>,
    pause: &dyn Fn() -> bool,
) -> Result<DrainReport, ServiceError> {
    let crash = CrashPoint::from_env();
    if let Some(dir) = transport.folder_dir() {
        return drain_folder(service, transport, dir, judge, now, pause, crash);
    }
    let mut report = DrainReport::default();
    let mut first = true;
    let mut down: Option<TransportError> = None;
    for (key, mail) in service.outbox()? {
        if mail.failed {
            report.set_aside += 1;
            continue;
        }
        if !first && pause() {
            report.more = true;
            break;
        }
        if mail.next_try.is_some_and(|at| at > now) {
            report.waiting += 1;
            continue;
        }
        if first && crash == Some(CrashPoint::BeforeSend) {
            std::process::abort();
        }
        // Once the server is known to be out of reach, the other mails fail with it rather
        // than each waiting out its own timeout (a drain must not block `serve` for long).
        let result = match &down {
            Some(error) => Err(error.clone()),
            None => transport.send(key, &mail, judge),
        };
        match result {
            Ok(()) => {
                if first && crash == Some(CrashPoint::AfterSend) {
                    std::process::abort();
                }
                service.outbox_sent(key)?;
                report.sent += 1;
            }
            Err(error) => {
                if error.is_unreachable() {
                    down = Some(error.clone());
                }
                refused(service, transport, key, mail, error, now, &mut report)?;
            }
        }
        first = false;
    }
    Ok(report)
}

/// How many mails of the outbox folder are written side by side, the folder then synced
/// once and the store told once: a run's worth, few enough that `pause` is heard soon.
const FOLDER_RUN: usize = 64;

/// How many threads write the outbox folder's files: where each file is synced alone (not
/// on Linux, see `FolderRun`) the work is mostly waiting for the disk, so more than the
/// cores.
const WRITERS: usize = 4;

/// The threads that write the outbox folder's files, beside those that draw: a run of
/// files is not queued behind pictures. None if they could not be started (the files
/// are then written on the store's thread).
fn writers() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(WRITERS)
            .thread_name(|i| format!("corbeau-outbox-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// [`drain_for`] into the outbox folder: each run of due mails is made into files and
/// written on the writers' threads (each file synced), the folder synced once, then the
/// store forgets the run's mails in one transaction. A mail leaves the store only once
/// its file is durable, as one at a time.
fn drain_folder(
    service: &Service,
    transport: &Transport,
    dir: &std::path::Path,
    judge: &Judge,
    now: DateTime<Utc>,
    pause: &dyn Fn() -> bool,
    crash: Option<CrashPoint>,
) -> Result<DrainReport, ServiceError> {
    use rayon::prelude::*;
    let mut report = DrainReport::default();
    let mut due = Vec::new();
    for (key, mail) in service.outbox()? {
        if mail.failed {
            report.set_aside += 1;
        } else if mail.next_try.is_some_and(|at| at > now) {
            report.waiting += 1;
        } else {
            due.push((key, mail));
        }
    }
    let write = |(key, mail): &(u64, crate::service::Envelope)| {
        Transport::folder_mail(*key, mail, judge).and_then(|file| Transport::place(dir, &file))
    };
    let mut first = true;
    let mut rest = due.into_iter().peekable();
    while rest.peek().is_some() {
        if !first && pause() {
            report.more = true;
            break;
        }
        let run: Vec<_> = rest.by_ref().take(FOLDER_RUN).collect();
        if first {
            match crash {
                Some(CrashPoint::BeforeSend) => std::process::abort(),
                Some(CrashPoint::AfterSend) => {
                    if let Some(mail) = run.first() {
                        let _ = Transport::open_run(dir)
                            .and_then(|folder| write(mail).and_then(|()| folder.settle()));
                    }
                    std::process::abort();
                }
                None => {}
            }
        }
        first = false;
        let folder = Transport::open_run(dir);
        let written: Vec<Result<(), TransportError>> = match (&folder, writers()) {
            (Err(e), _) => run.iter().map(|_| Err(e.clone())).collect(),
            (Ok(_), Some(pool)) => pool.install(|| run.par_iter().map(write).collect()),
            (Ok(_), None) => run.iter().map(write).collect(),
        };
        // Written but not yet in the folder for good: the run fails whole, and is
        // written again (in place) at its retry.
        let settled = folder.and_then(|folder| folder.settle());
        let mut sent = Vec::new();
        let mut failed = Vec::new();
        for ((key, mail), result) in run.into_iter().zip(written) {
            match result.and_then(|()| settled.clone()) {
                Ok(()) => sent.push(key),
                Err(error) => failed.push((key, mail, error)),
            }
        }
        service.outbox_sent_all(&sent)?;
        report.sent += sent.len();
        for (key, mail, error) in failed {
            refused(service, transport, key, mail, error, now, &mut report)?;
        }
    }
    Ok(report)
}

/// A mail the transport refused: kept with a later retry time, or set aside for good.
fn refused(
    service: &Service,
    transport: &Transport,
    key: u64,
    mut mail: crate::service::Envelope,
    error: TransportError,
    now: DateTime<Utc>,
    report: &mut DrainReport,
) -> Result<(), ServiceError> {
    {
        {
            mail.attempts = mail.attempts.saturating_add(1);
            let wait = transport
                .backoff()
                .wait(mail.attempts, error.is_permanent());
            let next_try = now + TimeDelta::from_std(wait).unwrap_or(TimeDelta::MAX);
            mail.next_try = Some(next_try);
            mail.last_error = Some(error.to_string());
            let set_aside = error.is_undeliverable();
            if set_aside {
                // Retrying cannot help: kept as failed, and the moderator of the game
                // it was about told, in one transaction (docs/deploy.md, "Bounces").
                super::bounces::set_aside(service, key, &mail, &error.to_string(), now)?;
                report.set_aside += 1;
            } else {
                service.outbox_retry(key, &mail)?;
            }
            report.failed.push(FailedMail {
                message_id: mail.message_id,
                to: mail.to,
                error,
                attempts: mail.attempts,
                next_try,
                set_aside,
            });
        }
    }
    Ok(())
}

/// Where `CORBEAU_CRASH` makes a drain abort (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CrashPoint {
    BeforeSend,
    AfterSend,
}

impl CrashPoint {
    #[cfg(feature = "test-hooks")]
    fn from_env() -> Option<CrashPoint> {
        match std::env::var("CORBEAU_CRASH").ok()?.as_str() {
            "before-send" => Some(CrashPoint::BeforeSend),
            "after-send" => Some(CrashPoint::AfterSend),
            _ => None,
        }
    }

    /// Without the `test-hooks` feature a drain never aborts on purpose.
    #[cfg(not(feature = "test-hooks"))]
    fn from_env() -> Option<CrashPoint> {
        None
    }
}
