//! `corbeau ingest`: mail in. One message on stdin (for an MTA pipe or procmail) is first
//! delivered into the judge's spool Maildir, so that it is safe on disk before anything
//! else happens, then carried out with the rest of a pass (replies and results sent). When
//! `corbeau serve` holds the store, the message waits in the spool for its next pass.
//! With `--maildir`, every new message of that Maildir is carried out.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use crate::game::GameError;
use crate::mail::maildir::{self, deliver};
use crate::mail::pass::pass;
use crate::service::Service;
use crate::store::{Store, StoreError};

use super::Error;
use super::clock::{fail, print_report, transport};
use super::context::{Context, StoreArgs, game_error, settings};

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// Read every new message of this Maildir (moved to cur/ once carried out) instead of
    /// one message on stdin.
    #[arg(long, value_name = "DIR")]
    maildir: Option<PathBuf>,
}

pub fn run(args: IngestArgs, store: &StoreArgs) -> Result<(), Error> {
    let (mut config, lang, now) = settings(store)?;
    if args.maildir.is_none() {
        let mut raw = Vec::new();
        std::io::stdin()
            .read_to_end(&mut raw)
            .map_err(|e| Error::Input(format!("stdin: {e}")))?;
        if raw.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::Input(
                lang.pick(
                    "rien sur l'entrée standard : `corbeau ingest` lit un courrier (RFC 5322)",
                    "nothing on stdin: `corbeau ingest` reads one mail (RFC 5322)",
                )
                .into(),
            ));
        }
        deliver(&maildir::spool(&config), &raw).map_err(|e| Error::Input(e.message(lang)))?;
    }
    if let Some(dir) = args.maildir {
        if !dir.join("new").is_dir() {
            return Err(Error::Input(
                maildir::MaildirError::NotAMaildir(dir).message(lang),
            ));
        }
        config.mail.maildir = Some(dir);
    }
    // The mail is safe in the spool: no need to wait long for a store someone holds.
    let opened = Store::open_waiting(&config.data_dir, Duration::from_millis(500))
        .map_err(GameError::from)
        .and_then(Service::on);
    let service = match opened {
        Ok(service) => service,
        Err(GameError::Store(StoreError::Locked(_))) => {
            eprintln!(
                "corbeau ingest: {}",
                lang.pick(
                    "le juge en service (`corbeau serve`) traitera ce courrier à son prochain passage",
                    "the running judge (`corbeau serve`) will handle this mail at its next pass",
                )
            );
            return Ok(());
        }
        Err(e) => return Err(game_error(lang, e)),
    };
    let ctx = Context::with(config, service, lang, store.json, now);
    let transport = transport(&ctx)?;
    let report = pass(&ctx.service, &ctx.config, &transport, now).map_err(|e| fail(&ctx, e))?;
    print_report(&ctx, &report)
}
