//! `corbeau outbox`: the mails the judge has stored and no transport has taken yet, with
//! why (the last error) and when the next attempt comes; `--retry` brings every attempt
//! forward to the next pass, once the moderator has mended the cause (a password, a
//! server).

use crate::say;
use serde_json::json;

use super::Error;
use super::context::Context;
use crate::service::Envelope;

#[derive(Debug, clap::Args)]
pub(super) struct OutboxArgs {
    /// Try every waiting mail again at the next pass, without waiting for its back-off.
    #[arg(long)]
    retry: bool,
}

pub(super) fn run(ctx: &Context, args: OutboxArgs) -> Result<(), Error> {
    let service = &ctx.service;
    let mut waiting = service.outbox().map_err(|e| ctx.fail(e))?;
    if args.retry {
        for (key, mail) in &mut waiting {
            // A mail set aside as undeliverable is given another chance too: the
            // moderator retries once the address is mended (or wants to see it fail).
            let failed = std::mem::take(&mut mail.failed);
            if mail.next_try.take().is_some() || failed {
                service.outbox_retry(*key, mail).map_err(|e| ctx.fail(e))?;
            }
        }
    }
    // The subject as the envelope's header keeps it (UTF-8, not yet encoded for the wire).
    let subject = |m: &Envelope| m.header("Subject").unwrap_or_default().to_string();
    let rows: Vec<_> = waiting
        .iter()
        .map(|(_, m)| {
            json!({
                "message_id": m.message_id,
                "to": m.to,
                "subject": subject(m),
                "game": m.game,
                "queued": m.queued,
                "attempts": m.attempts,
                "next_try": m.next_try,
                "last_error": m.last_error,
                "failed": m.failed,
            })
        })
        .collect();
    ctx.print(&rows, || {
        if waiting.is_empty() {
            return say!(ctx.lang, "outbox.no_mail_waiting");
        }
        let mut t = String::new();
        for (_, m) in &waiting {
            let when = match m.next_try {
                _ if m.failed => say!(ctx.lang, "outbox.never_refused_for_good_set"),
                Some(at) => at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                None => say!(ctx.lang, "outbox.at_the_next_pass"),
            };
            t.push_str(&format!(
                "{}  {}  {}\n    {} {} — {} {when}\n",
                m.queued.format("%Y-%m-%d %H:%M"),
                m.to,
                subject(m),
                m.attempts,
                say!(ctx.lang, "outbox.failed_attempt_s"),
                say!(ctx.lang, "outbox.next"),
            ));
            if let Some(e) = &m.last_error {
                t.push_str(&format!("    {e}\n"));
            }
        }
        if args.retry {
            t.push_str(&say!(ctx.lang, "outbox.all_will_be_tried_again"));
        }
        t
    })
}
