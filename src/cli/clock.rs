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
use super::context::{StoreArgs, game_error, settings};
use super::ingest::{isolation, pass_error};
use crate::report::game_text::phase_text;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Seconds between two passes (default: the configuration's `serve.interval`, 60).
    #[arg(long)]
    interval: Option<u64>,
}

/// One pass; the store is opened for each step (and let go between mails when someone
/// waits for it), never for the whole pass.
pub fn run_tick(store: &StoreArgs) -> Result<(), Error> {
    let (config, lang, now) = settings(store)?;
    let transport = configured_transport(&config, lang)?;
    let mut hold = Hold::dir(&config.data_dir, LOCK_WAIT);
    if let Some(isolation) = isolation(store) {
        hold = hold.isolating(isolation);
    }
    let report =
        pass_holding(&mut hold, &config, &transport, now).map_err(|e| pass_error(lang, e))?;
    print_report(lang, store.json, &report)?;
    publish_after_pass(&mut hold, &config, lang, store.json, false);
    let errors = report.tick.errors.len() + report.ingest.failed.len();
    if errors == 0 {
        Ok(())
    } else {
        Err(Error::Reported(format!(
            "{errors} {}",
            say!(lang, "clock.error_s")
        )))
    }
}

/// How long a pass's opening of the store waits for a moderator's command.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The transport of the configuration, or a clear word about what is wrong with it.
pub fn configured_transport(config: &Config, lang: Lang) -> Result<Transport, Error> {
    transport_from(config)
        .map_err(|e| Error::Input(format!("{} {e}", say!(lang, "clock.mail_configuration"))))
}

pub fn print_report(lang: Lang, json: bool, report: &PassReport) -> Result<(), Error> {
    let ctx = Printer { lang, json };
    let tick = &report.tick;
    let ingest = &report.ingest;
    let drain = &report.drain;
    // Nothing done, nothing said: cron mails whatever a job prints.
    if !ctx.json
        && tick.processed.is_empty()
        && tick.reminders.is_empty()
        && tick.errors.is_empty()
        && ingest.is_empty()
        && report.queued == 0
        && report.pruned == 0
        && drain.sent == 0
        && drain.failed.is_empty()
    {
        return Ok(());
    }
    let failed: Vec<_> = drain
        .failed
        .iter()
        .map(|f| json!({"message_id": f.message_id, "to": f.to, "error": f.error.to_string(), "attempts": f.attempts, "next_try": f.next_try, "set_aside": f.set_aside}))
        .collect();
    let errors: Vec<_> = tick
        .errors
        .iter()
        .map(|(game, e)| (game, e.message(ctx.lang)))
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
    ctx.print(&value, || {
        let mut t = String::new();
        for (game, phase) in &tick.processed {
            let phase = phase_text(*phase, ctx.lang);
            t.push_str(&format!(
                "{game}: {} {phase}\n",
                say!(ctx.lang, "clock.processed")
            ));
        }
        for (game, houses) in &tick.reminders {
            t.push_str(&format!(
                "{game}: {} {}\n",
                say!(ctx.lang, "clock.reminder_to"),
                houses
                    .iter()
                    .map(|h| h.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for (game, error) in &errors {
            t.push_str(&say!(ctx.lang, "clock.game_failed", game, error));
            t.push('\n');
        }
        if !ingest.is_empty() {
            t.push_str(&format!(
                "{} {} ({} {}, {} {})\n",
                say!(ctx.lang, "clock.mail_answered"),
                ingest.answered,
                ingest.duplicates,
                say!(ctx.lang, "clock.duplicate_s"),
                ingest.ignored,
                say!(ctx.lang, "clock.automatic_ignored"),
            ));
        }
        for (file, why) in &ingest.unreadable {
            t.push_str(&format!(
                "{} {file}: {why}\n",
                say!(ctx.lang, "clock.unreadable_mail_set_aside")
            ));
        }
        if report.pruned > 0 {
            t.push_str(&format!(
                "{} {}\n",
                report.pruned,
                say!(ctx.lang, "clock.raw_mail_s_removed_after")
            ));
        }
        for (file, why) in &ingest.failed {
            t.push_str(&format!(
                "{} {file}: {why}\n",
                say!(ctx.lang, "clock.mail_left_for_later")
            ));
        }
        if report.queued + drain.sent > 0 {
            t.push_str(&format!(
                "{} {}, {} {}\n",
                report.queued,
                say!(ctx.lang, "clock.mail_s_written"),
                drain.sent,
                say!(ctx.lang, "clock.sent"),
            ));
        }
        for f in drain.failed.iter().filter(|f| f.set_aside) {
            t.push_str(&format!(
                "{} {}: {}\n",
                say!(ctx.lang, "clock.refused_for_good_set_aside"),
                f.to,
                f.error
            ));
        }
        for f in drain.failed.iter().filter(|f| !f.set_aside) {
            t.push_str(&format!(
                "{} {} ({} {}): {}\n",
                say!(ctx.lang, "clock.sending_failed_to"),
                f.to,
                say!(ctx.lang, "clock.next_try"),
                f.next_try.format("%Y-%m-%d %H:%M:%S UTC"),
                f.error
            ));
        }
        t
    })
}

/// The judge at work. The store is opened for each step of a pass and let go between
/// mails as soon as another process waits for it, so that the moderator's commands
/// (`corbeau game …`) and a piped `corbeau ingest` wait for one mail at most; a pass that
/// finds it in use waits a little, then is skipped.
pub fn run_serve(store: &StoreArgs, args: ServeArgs) -> Result<(), Error> {
    let (config, lang, _) = settings(store)?;
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
    eprintln!(
        "corbeau serve: {} {} ({} {}s; {} {})",
        say!(lang, "clock.working_on"),
        config.data_dir.display(),
        say!(lang, "clock.one_pass_every"),
        interval.as_secs(),
        say!(lang, "clock.mail"),
        transport.describe()
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
            Err(e) => eprintln!("corbeau serve: {}", pass_error(lang, e)),
        }
        // The first pass publishes every game (the templates or corbeau may have changed
        // since the last run), the next ones the games that changed.
        publish_after_pass(&mut hold, &config, lang, store.json, first);
        first = false;
        drop(hold);
        let until = Instant::now() + interval;
        while Instant::now() < until && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    eprintln!("corbeau serve: {}", say!(lang, "clock.stopped_cleanly"));
    Ok(())
}

/// With `[publish] dir` set, brings the site up to date after a pass: read with the store,
/// which is then let go, and written without it. A failure is said and the judge goes on.
fn publish_after_pass(hold: &mut Hold<'_>, config: &Config, lang: Lang, json: bool, all: bool) {
    if config.publish.dir.is_none() {
        return;
    }
    let work = match hold.service() {
        Ok(service) => super::publish::prepare_after_pass(config, lang, service, all),
        Err(e) => {
            eprintln!("corbeau: {}", e.message(lang));
            None
        }
    };
    hold.release();
    super::publish::write_after_pass(lang, json, work);
}

/// What printing a report needs: the language and the output's form.
struct Printer {
    lang: Lang,
    json: bool,
}

impl Printer {
    fn print<T: serde::Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        super::context::print_as(self.json, value, text)
    }
}
