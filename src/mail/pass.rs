//! One pass of the judge's work by mail, as `tick` does it once and `serve` does it in a
//! loop: read the new mail (the spool and the configured Maildir), process the games that
//! are due and send their reminders, turn notices into mails, and drain the outbox.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::game::GameError;
use crate::service::{Service, TickReport};

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

/// One pass at `now`.
pub fn pass(
    service: &Service,
    config: &Config,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<PassReport, PassError> {
    let mut report = PassReport::default();
    maildir::create(&maildir::spool(config))?;
    for dir in maildirs(config) {
        let one = maildir::ingest_maildir(service, config, &dir, now)?;
        report.ingest.answered += one.answered;
        report.ingest.duplicates += one.duplicates;
        report.ingest.ignored += one.ignored;
        report.ingest.unreadable.extend(one.unreadable);
        report.ingest.failed.extend(one.failed);
    }
    report.tick = service.tick(now)?;
    report.queued = queue_notices(service, config, now)?;
    report.drain = drain(&service.store, transport, &config.judge, now)
        .map_err(|e| PassError::Game(e.into()))?;
    Ok(report)
}
