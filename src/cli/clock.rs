//! `corbeau tick` (one pass of the judge's clock, for cron) and `corbeau serve` (the same
//! in a loop, stopping cleanly on SIGTERM or Ctrl-C).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::json;

use crate::mail::pass::{Hold, PassReport, pass_holding};
use crate::mail::send::transport_from;
use crate::mail::transport::Transport;
use crate::say;

use crate::config::Config;
use crate::lang::Lang;
use crate::service::Service;

use super::Error;
use super::context::{StoreArgs, game_error, judge_key, settings};
use super::ingest::{isolation, pass_error};
use crate::report::game_text::phase_text;

#[derive(Debug, clap::Args)]
pub(super) struct ServeArgs {
    /// Seconds between two passes (default: the configuration's `serve.interval`, 60).
    #[arg(long)]
    interval: Option<u64>,
}

/// One pass; the store is opened for each step (and let go between mails when someone
/// waits for it), never for the whole pass.
pub(super) fn run_tick(store: &StoreArgs) -> Result<(), Error> {
    let (config, lang, now) = settings(store)?;
    judge_key(&config, lang)?;
    warn_default_address(&config, lang);
    let transport = configured_transport(&config, lang)?;
    let mut hold = Hold::dir(&config.data_dir, LOCK_WAIT);
    if let Some(isolation) = isolation(store) {
        hold = hold.isolating(isolation);
    }
    let report =
        pass_holding(&mut hold, &config, &transport, now).map_err(|e| pass_error(lang, e))?;
    print_report(lang, store.json, &report)?;
    publish_after_pass(&mut hold, &config, lang, false);
    let errors = report.tick.errors.len() + report.ingest.failed.len();
    if errors > 0 {
        return Err(Error::Reported(format!(
            "{errors} {}",
            say!(lang, "clock.error_s")
        )));
    }
    // Mail the transport could not take this time waits in the outbox for the next pass:
    // 75 tells cron or a timer's unit that trying again later is the cure.
    let count = report.drain.failed.iter().filter(|f| !f.set_aside).count();
    if count > 0 {
        return Err(Error::Temporary(say!(lang, "clock.mail_not_sent", count)));
    }
    Ok(())
}

/// Warns when the judge still answers from the default address, which no player can
/// write back to.
pub(super) fn warn_default_address(config: &Config, lang: Lang) {
    if config.judge.address != crate::config::Judge::default().address {
        return;
    }
    let config = config.source.as_ref().map(|p| p.display().to_string());
    tracing::warn!(
        address = crate::config::Judge::default().address.as_str(),
        "{}",
        say!(lang, "clock.default_address", config)
    );
}

/// How long a pass's opening of the store waits for a moderator's command.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The transport of the configuration, or a clear word about what is wrong with it.
pub(super) fn configured_transport(config: &Config, lang: Lang) -> Result<Transport, Error> {
    transport_from(config)
        .map_err(|e| Error::Input(format!("{} {e}", say!(lang, "clock.mail_configuration"))))
}

/// Says what a pass did: in the operator's log (one event per game processed, per
/// reminder, per trouble, and a summary with every count as a field: info when the pass did
/// something, debug when it found nothing to do, so that cron, which mails whatever a job
/// prints, stays quiet), and with `--json` as one JSON object on one line of standard
/// output for tools.
pub(super) fn print_report(lang: Lang, json: bool, report: &PassReport) -> Result<(), Error> {
    let tick = &report.tick;
    let ingest = &report.ingest;
    let drain = &report.drain;
    let errors: Vec<_> = tick
        .errors
        .iter()
        .map(|(game, e)| (game, e.message(lang)))
        .collect();
    for (game, phase) in &tick.processed {
        let phase = phase_text(*phase, lang);
        tracing::info!(
            game = game.as_str(),
            phase = phase.as_str(),
            "{}",
            say!(lang, "clock.processed", game, phase)
        );
    }
    for (game, houses) in &tick.reminders {
        let houses = houses
            .iter()
            .map(|h| h.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        tracing::info!(
            game = game.as_str(),
            houses = houses.as_str(),
            "{}",
            say!(lang, "clock.reminder_to", game, houses)
        );
    }
    for (game, error) in &errors {
        tracing::error!(
            game = game.as_str(),
            "{}",
            say!(lang, "clock.game_failed", game, error)
        );
    }
    for (file, why) in &ingest.unreadable {
        tracing::warn!(
            file = file.as_str(),
            "{}",
            say!(lang, "clock.unreadable_mail_set_aside", file, why)
        );
    }
    if report.pruned > 0 {
        let count = report.pruned;
        tracing::info!(
            raw_mails_pruned = count,
            "{}",
            say!(lang, "clock.raw_mail_s_removed_after", count)
        );
    }
    for (file, why) in &ingest.failed {
        tracing::warn!(
            file = file.as_str(),
            "{}",
            say!(lang, "clock.mail_left_for_later", file, why)
        );
    }
    for f in &drain.failed {
        let to = f.to.as_str();
        let error = f.error.to_string();
        if f.set_aside {
            tracing::error!(
                to,
                message_id = f.message_id.as_str(),
                "{}",
                say!(lang, "clock.refused_for_good_set_aside", to, error)
            );
        } else {
            let next_try = f.next_try.format("%Y-%m-%d %H:%M:%S UTC").to_string();
            tracing::warn!(
                to,
                message_id = f.message_id.as_str(),
                attempts = f.attempts,
                "{}",
                say!(lang, "clock.sending_failed_to", to, next_try, error)
            );
        }
    }
    let counts = Counts::of(report);
    let summary = say!(
        lang,
        "clock.pass_done",
        read = counts.read,
        answered = ingest.answered,
        duplicates = ingest.duplicates,
        ignored = ingest.ignored,
        set_aside = ingest.unreadable.len(),
        left = ingest.failed.len(),
        phases = tick.processed.len(),
        reminders = tick.reminders.len(),
        written = report.queued,
        sent = drain.sent,
        send_failed = drain.failed.len(),
        waiting = drain.waiting,
        errors = counts.errors
    );
    macro_rules! summary {
        ($level:expr) => {
            tracing::event!(
                $level,
                mails_read = counts.read,
                mails_answered = ingest.answered,
                mails_duplicate = ingest.duplicates,
                mails_ignored = ingest.ignored,
                mails_set_aside = ingest.unreadable.len(),
                mails_left = ingest.failed.len(),
                phases_processed = tick.processed.len(),
                games_reminded = tick.reminders.len(),
                mails_written = report.queued,
                mails_sent = drain.sent,
                send_failed = drain.failed.len(),
                mails_waiting = drain.waiting,
                raw_mails_pruned = report.pruned,
                errors = counts.errors,
                "{summary}"
            )
        };
    }
    if counts.busy {
        summary!(tracing::Level::INFO);
    } else {
        summary!(tracing::Level::DEBUG);
    }
    if !json {
        return Ok(());
    }
    let failed: Vec<_> = drain
        .failed
        .iter()
        .map(|f| json!({"message_id": f.message_id, "to": f.to, "error": f.error.to_string(), "attempts": f.attempts, "next_try": f.next_try, "set_aside": f.set_aside}))
        .collect();
    let value = json!({
        "processed": tick
            .processed
            .iter()
            .map(|(game, phase)| (game, phase.to_string()))
            .collect::<Vec<_>>(),
        "reminders": tick.reminders,
        "errors": errors,
        "mail": {
            "answered": ingest.answered,
            "duplicates": ingest.duplicates,
            "ignored": ingest.ignored,
            "unreadable": ingest.unreadable,
            "failed": ingest.failed,
            "queued": report.queued,
            "sent": drain.sent,
            "send_failed": failed,
            "waiting": drain.waiting,
            "pruned": report.pruned,
        },
    });
    // One line per pass: a tool reading `serve --json` takes each line as it comes.
    outln!("{value}");
    Ok(())
}

/// The counts of a pass that its summary adds up.
struct Counts {
    /// Messages taken from the Maildirs, whatever became of them.
    read: usize,
    /// Games not handled and mails left for later.
    errors: usize,
    /// Whether the pass did or met anything worth an operator's line.
    busy: bool,
}

impl Counts {
    fn of(report: &PassReport) -> Counts {
        let ingest = &report.ingest;
        let tick = &report.tick;
        let drain = &report.drain;
        let read = ingest.answered
            + ingest.duplicates
            + ingest.ignored
            + ingest.unreadable.len()
            + ingest.failed.len();
        let errors = tick.errors.len() + ingest.failed.len();
        let busy = read > 0
            || errors > 0
            || !tick.processed.is_empty()
            || !tick.reminders.is_empty()
            || report.queued > 0
            || report.pruned > 0
            || drain.sent > 0
            || !drain.failed.is_empty();
        Counts { read, errors, busy }
    }
}

/// The judge at work. The store is opened for each step of a pass and let go between
/// mails as soon as another process waits for it, so that the moderator's commands
/// (`corbeau game …`) and a piped `corbeau ingest` wait for one mail at most; a pass that
/// finds it in use waits a little, then is skipped.
pub(super) fn run_serve(store: &StoreArgs, args: ServeArgs) -> Result<(), Error> {
    let (config, lang, _) = settings(store)?;
    judge_key(&config, lang)?;
    let transport = configured_transport(&config, lang)?;
    // Refuse at once what would fail every pass (a store of a newer corbeau, say).
    drop(Service::open(&config.data_dir).map_err(|e| game_error(lang, e))?);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| Error::Internal(format!("signal handler: {e}")))?;
    let interval = args.interval.map_or_else(
        || config.serve.interval(),
        |s| Duration::from_secs(s.max(1)),
    );
    warn_default_address(&config, lang);
    let dir = config.data_dir.display().to_string();
    let seconds = interval.as_secs();
    let route = transport.describe_in(lang);
    tracing::info!(
        data_dir = dir.as_str(),
        interval = seconds,
        "{}",
        say!(lang, "clock.serve_started", dir, seconds, route)
    );
    let mut first = true;
    while !stop.load(Ordering::SeqCst) {
        let mut hold = Hold::dir(&config.data_dir, LOCK_WAIT);
        if let Some(isolation) = isolation(store) {
            hold = hold.isolating(isolation);
        }
        // A fixed --now would replay the same instant for ever: serve follows the clock.
        match pass_holding(&mut hold, &config, &transport, Utc::now()) {
            Ok(report) => print_report(lang, store.json, &report)?,
            // A Maildir gone missing or a store error is said, and the judge goes on.
            Err(e) => {
                let error = pass_error(lang, e).to_string();
                tracing::error!("{}", say!(lang, "clock.pass_failed", error));
            }
        }
        // The first pass publishes every game (the templates or corbeau may have changed
        // since the last run), the next ones the games that changed.
        publish_after_pass(&mut hold, &config, lang, first);
        first = false;
        drop(hold);
        let until = Instant::now() + interval;
        while Instant::now() < until && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    tracing::info!("{}", say!(lang, "clock.stopped_cleanly"));
    Ok(())
}

/// With `[publish] dir` set, brings the site up to date after a pass: read with the store,
/// which is then let go, and written without it. A failure is said and the judge goes on.
fn publish_after_pass(hold: &mut Hold<'_>, config: &Config, lang: Lang, all: bool) {
    if config.publish.dir.is_none() {
        return;
    }
    let work = match hold.service() {
        Ok(service) => super::publish::prepare_after_pass(config, lang, service, all),
        Err(e) => {
            tracing::error!("{}", e.message(lang));
            None
        }
    };
    hold.release();
    super::publish::write_after_pass(lang, work);
}
