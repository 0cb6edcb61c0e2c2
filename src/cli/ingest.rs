//! `corbeau ingest`: mail in. One message on stdin (for an MTA pipe, procmail or
//! fetchmail's `mda`), or with `--maildir` every new message of a Maildir.
//!
//! A mail server turns the exit code into the sender's fate, so it is exact:
//! - 0: the message was carried out (answered, found already done, or quarantined for
//!   the moderator when it cannot be handled); what follows it in the same pass
//!   (other mails, due games, the outbox) is best effort, its troubles printed only;
//! - 75 (EX_TEMPFAIL): nothing was done, try again later — the store stayed busy, the
//!   configuration, the data directory or the configured Maildir cannot be read, the
//!   disk is full, the store failed to write. The message is not kept, so it is acted on
//!   once, at the retry (a retry of a message already acted on finds its Message-ID);
//! - 1: not a mail at all (nothing on stdin): retrying cannot help.
//!
//! The message is written (synced) in the spool's `tmp/` first; once the store is held,
//! it is moved into `new/` and carried out before anything else, so that no other pass
//! can act on it while this one reports a failure.

use std::path::PathBuf;
use std::time::Duration;

use crate::lang::Lang;
use crate::mail::maildir::{self, Isolation, MessageFate, carry_out};
use crate::mail::pass::{Hold, PassError, PassReport, pass_holding};
use crate::say;
use crate::service::Service;

use super::Error;
use super::clock::{configured_transport, print_report};
use super::context::{StoreArgs, game_error, judge_key, settings};

#[derive(Debug, clap::Args)]
pub(super) struct IngestArgs {
    /// Read every new message of this Maildir (moved to cur/ once carried out) instead of
    /// one message on stdin.
    #[arg(long, value_name = "DIR")]
    maildir: Option<PathBuf>,
    /// Carry out this one message of a Maildir's `new/` alone: how a pass tries again a
    /// mail that was in hand when a process died (docs/storage.md).
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "maildir")]
    isolated: Option<PathBuf>,
}

/// How a pass of this process runs itself again to try a suspect mail alone: this
/// program, with the options that chose its configuration, data and clock.
pub(super) fn isolation(store: &StoreArgs) -> Option<Isolation> {
    let program = std::env::current_exe().ok()?;
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    if let Some(config) = &store.config {
        args.extend(["--config".into(), config.clone().into_os_string()]);
    }
    if let Some(data) = &store.data {
        args.extend(["--data".into(), data.clone().into_os_string()]);
    }
    if let Some(lang) = store.lang {
        args.extend(["--lang".into(), lang.code().into()]);
    }
    if let Some(now) = &store.now {
        args.extend(["--now".into(), now.into()]);
    }
    Some(Isolation { program, args })
}

/// `ingest --isolated FILE`: the child's side of a suspect mail tried alone.
fn run_isolated(path: &std::path::Path, store: &StoreArgs) -> Result<(), Error> {
    let (config, lang, now) = settings(store).map_err(Error::temporary)?;
    judge_key(&config, lang).map_err(Error::temporary)?;
    let service = Service::open_waiting(&config.data_dir, store_wait())
        .map_err(|e| Error::Temporary(game_error(lang, e).to_string()))?;
    maildir::carry_out_isolated(&service, &config, path, now);
    Ok(())
}

/// How long `ingest` waits for a store another process holds: a `serve` pass lets it go
/// between two mails when it sees someone waiting, a moderator's command is short. The
/// environment variable `CORBEAU_STORE_WAIT` (seconds) changes it, for tests.
fn store_wait() -> Duration {
    seconds_from_env("CORBEAU_STORE_WAIT").unwrap_or(Duration::from_secs(10))
}

/// A duration in seconds from the environment variable `name`, for tests.
fn seconds_from_env(name: &str) -> Option<Duration> {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
}

pub(super) fn run(args: IngestArgs, store: &StoreArgs) -> Result<(), Error> {
    if let Some(path) = &args.isolated {
        return run_isolated(path, store);
    }
    // A configuration that cannot be read now may be fixed before the mail server gives
    // up: the mail waits in its queue.
    let (mut config, lang, now) = settings(store).map_err(Error::temporary)?;
    judge_key(&config, lang).map_err(Error::temporary)?;
    let temporary = |e: maildir::MaildirError| Error::Temporary(e.message(lang));
    if let Some(dir) = &args.maildir
        && !dir.join("new").is_dir()
    {
        return Err(temporary(maildir::MaildirError::NotAMaildir(dir.clone())));
    }
    let pending = match args.maildir {
        Some(dir) => {
            config.mail.maildir = Some(dir);
            None
        }
        None => {
            // Straight to the spool, never whole in memory: a mail of any size costs
            // the judge no more than `[mail] max_size` (docs/email-ingest.md).
            let (pending, text) =
                maildir::prepare_from(&maildir::spool(&config), std::io::stdin().lock())
                    .map_err(temporary)?;
            if !text {
                return Err(Error::Input(say!(
                    lang,
                    "ingest.nothing_on_stdin_corbeau_ingest"
                )));
            }
            Some(pending)
        }
    };
    // Whatever would make the pass fail is checked before the mail is acted on.
    if let Some(dir) = &config.mail.maildir
        && (!dir.join("new").is_dir() || !dir.join("cur").is_dir())
    {
        return Err(temporary(maildir::MaildirError::NotAMaildir(dir.clone())));
    }
    let transport = configured_transport(&config, lang).map_err(Error::temporary)?;
    let watchdog = Watchdog::default();
    let mut ours = None;
    if let Some(pending) = pending {
        let service = Service::open_waiting(&config.data_dir, store_wait())
            .map_err(|e| Error::Temporary(game_error(lang, e).to_string()))?;
        // A mail that came first may still wait for the store in another `ingest`: this
        // one goes into the spool behind it, and that run's pass, which reads the spool
        // after its own mail, handles it. Otherwise whichever reached the store first
        // would go first, and of two JOINs the later could take the house the earlier
        // asked for.
        if pending.arrived_after_another() {
            pending.publish().map_err(temporary)?;
            return print_report(lang, store.json, &PassReport::default());
        }
        // Held: no other pass reads the spool until this mail is done.
        let path = pending.publish().map_err(temporary)?;
        watchdog.start(lang);
        match carry_out(&service, &config, &path, now) {
            MessageFate::Left(why) => {
                maildir::take_back(&path);
                return Err(Error::Temporary(why));
            }
            outcome => ours = Some((maildir::file_name(&path), outcome)),
        }
        watchdog.acted();
    }
    // The rest of the pass: the store is let go between mails and steps.
    let mut hold = Hold::dir(&config.data_dir, store_wait());
    if let Some(isolation) = isolation(store) {
        hold = hold.isolating(isolation);
    }
    let result = pass_holding(&mut hold, &config, &transport, now);
    drop(hold);
    let mut report = match result {
        Ok(report) => report,
        // The mail was carried out: what follows it is only reported.
        Err(e) if ours.is_some() => {
            let error = pass_error(lang, e).to_string();
            tracing::error!("{}", say!(lang, "clock.pass_failed", error));
            PassReport::default()
        }
        Err(e) => return Err(pass_error(lang, e)),
    };
    match ours {
        Some((_, MessageFate::Done(handled))) => report.ingest.add(&handled),
        Some((name, MessageFate::Quarantined(why))) => report.ingest.unreadable.push((name, why)),
        _ => {}
    }
    print_report(lang, store.json, &report)?;
    if !report.ingest.failed.is_empty() {
        // `--maildir`: the messages left in `new/` are read at the next run.
        return Err(Error::Temporary(format!(
            "{} {}",
            report.ingest.failed.len(),
            say!(lang, "ingest.mail_s_left_for_later")
        )));
    }
    Ok(())
}

/// How long a piped `ingest` may run once its mail is in the spool: a mail server waits
/// for the pipe, and a judge stuck on a write that never ends (a nearly full disk, a
/// transport that hangs) must not keep it waiting for ever.
const INGEST_LIMIT: Duration = Duration::from_secs(30);

/// The end of a piped `ingest` that runs past [`INGEST_LIMIT`]: 0 once its mail was
/// carried out (what follows it in the pass — other mails, due games, the outbox — is
/// taken up by the next pass), 75 before (nothing was committed, or the retry finds the
/// mail's Message-ID done). Stopping is as safe as a kill, which the store survives
/// (docs/storage.md, "Kill loops"). `CORBEAU_INGEST_LIMIT` (seconds) changes the limit,
/// for tests.
#[derive(Default)]
struct Watchdog {
    acted: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Watchdog {
    fn start(&self, lang: Lang) {
        let limit = seconds_from_env("CORBEAU_INGEST_LIMIT").unwrap_or(INGEST_LIMIT);
        let acted = std::sync::Arc::clone(&self.acted);
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            let acted = acted.load(std::sync::atomic::Ordering::SeqCst);
            let seconds = limit.as_secs();
            tracing::error!(
                "{}",
                say!(lang, "ingest.stopped_past_the_limit", seconds, acted)
            );
            std::process::exit(if acted { 0 } else { 75 });
        });
    }

    fn acted(&self) {
        self.acted.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A pass's failure as the command's error: temporary (75) unless retrying cannot help.
pub(super) fn pass_error(lang: Lang, e: PassError) -> Error {
    let temporary = e.is_temporary();
    let error = match e {
        PassError::Service(e) => game_error(lang, e),
        PassError::Maildir(e) => Error::Input(e.message(lang)),
    };
    if temporary { error.temporary() } else { error }
}
