//! `corbeau tick` (one pass of the judge's clock, for cron) and `corbeau serve` (the same
//! in a loop, stopping cleanly on SIGTERM or Ctrl-C).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::json;

use crate::service::TickReport;

use super::Error;
use super::context::Context;
use crate::report::game_text::phase_text;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Seconds between two passes (default: the configuration's `serve.interval`, 60).
    #[arg(long)]
    interval: Option<u64>,
}

pub fn run_tick(ctx: &Context) -> Result<(), Error> {
    let report = ctx.service.tick(ctx.now).map_err(|e| ctx.fail(e))?;
    print_report(ctx, &report)?;
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Reported(format!(
            "{} {}",
            report.errors.len(),
            ctx.pick("partie(s) en erreur", "game(s) failed")
        )))
    }
}

fn print_report(ctx: &Context, report: &TickReport) -> Result<(), Error> {
    // Nothing done, nothing said: cron mails whatever a job prints.
    if !ctx.json
        && report.processed.is_empty()
        && report.reminders.is_empty()
        && report.errors.is_empty()
    {
        return Ok(());
    }
    let value = json!({
        "processed": report.processed,
        "reminders": report.reminders,
        "errors": report.errors,
    });
    ctx.print(&value, || {
        let mut t = String::new();
        for (game, phase) in &report.processed {
            // The report names the phase in the store's words (`spring 298 movement`).
            let phase = crate::case::parse_phase(phase)
                .map_or_else(|| phase.clone(), |p| phase_text(p, ctx.lang));
            t.push_str(&format!(
                "{game}: {} {phase}\n",
                ctx.pick("traitée :", "processed:")
            ));
        }
        for (game, houses) in &report.reminders {
            t.push_str(&format!(
                "{game}: {} {}\n",
                ctx.pick("rappel à", "reminder to"),
                houses.join(", ")
            ));
        }
        for (game, error) in &report.errors {
            t.push_str(&format!("{game}: {error}\n"));
        }
        t
    })
}

pub fn run_serve(ctx: &Context, args: ServeArgs) -> Result<(), Error> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| Error::Internal(format!("signal handler: {e}")))?;
    let interval = args.interval.map_or_else(
        || ctx.config.serve.interval(),
        |s| Duration::from_secs(s.max(1)),
    );
    eprintln!(
        "corbeau serve: {} {} ({} {}s)",
        ctx.pick("au travail sur", "working on"),
        ctx.service.store.path().display(),
        ctx.pick("un passage toutes les", "one pass every"),
        interval.as_secs()
    );
    while !stop.load(Ordering::SeqCst) {
        // A fixed --now would replay the same instant for ever: serve follows the clock.
        let report = ctx.service.tick(Utc::now()).map_err(|e| ctx.fail(e))?;
        if !report.processed.is_empty() || !report.reminders.is_empty() || !report.errors.is_empty()
        {
            print_report(ctx, &report)?;
        }
        let until = Instant::now() + interval;
        while Instant::now() < until && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    eprintln!(
        "corbeau serve: {}",
        ctx.pick("arrêt propre", "stopped cleanly")
    );
    Ok(())
}
