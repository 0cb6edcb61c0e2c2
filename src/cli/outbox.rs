//! `corbeau outbox`: the mails the judge has stored and no transport has taken yet, with
//! why (the last error) and when the next attempt comes; `--retry` brings every attempt
//! forward to the next pass, once the moderator has mended the cause (a password, a
//! server).

use serde_json::json;

use super::Error;
use super::context::Context;
use crate::service::Envelope;

#[derive(Debug, clap::Args)]
pub struct OutboxArgs {
    /// Try every waiting mail again at the next pass, without waiting for its back-off.
    #[arg(long)]
    retry: bool,
}

pub fn run(ctx: &Context, args: OutboxArgs) -> Result<(), Error> {
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
            return ctx
                .pick("aucun courrier en attente\n", "no mail waiting\n")
                .to_string();
        }
        let mut t = String::new();
        for (_, m) in &waiting {
            let when = match m.next_try {
                _ if m.failed => ctx
                    .pick(
                        "jamais : refusé pour de bon, mis de côté (--retry pour réessayer)",
                        "never: refused for good, set aside (--retry to try again)",
                    )
                    .into(),
                Some(at) => at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                None => ctx.pick("au prochain passage", "at the next pass").into(),
            };
            t.push_str(&format!(
                "{}  {}  {}\n    {} {} — {} {when}\n",
                m.queued.format("%Y-%m-%d %H:%M"),
                m.to,
                subject(m),
                m.attempts,
                ctx.pick("essai(s) échoué(s)", "failed attempt(s)"),
                ctx.pick("prochain", "next"),
            ));
            if let Some(e) = &m.last_error {
                t.push_str(&format!("    {e}\n"));
            }
        }
        if args.retry {
            t.push_str(ctx.pick(
                "tous seront réessayés au prochain passage (`corbeau tick` ou `serve`)\n",
                "all will be tried again at the next pass (`corbeau tick` or `serve`)\n",
            ));
        }
        t
    })
}
