//! What every store command needs: the configuration, the opened store, the moderator's
//! language, the clock, and the way to print text or JSON.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::config::Config;
use crate::game::GameError;
use crate::lang::Lang;
use crate::service::{Service, ServiceError, StorageFailure};

use super::Error;
use crate::say;

/// The shared options when written before the command's name (`corbeau --config F game
/// list`): no environment variable here, so that one written after the name (or its
/// variable, read there) keeps the order of precedence of `hand_shared` in cli/mod.rs.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Shared options (before or after the command's name)")]
pub(super) struct SharedArgs {
    /// The configuration file, for the commands that use the store (docs/configuration.md).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The data directory, for the commands that use the store.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Language of messages and results: fr or en.
    #[arg(long)]
    pub lang: Option<Lang>,
    /// Output for tools, as JSON.
    #[arg(long)]
    pub json: bool,
    /// The time to act at (RFC 3339), instead of the clock: for tests and replays.
    #[arg(long, hide = true)]
    pub now: Option<String>,
}

/// Options shared by the commands that use the store.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct StoreArgs {
    /// The configuration file (default: ./corbeau.toml if present; docs/configuration.md).
    #[arg(long, global = true, env = "CORBEAU_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The data directory (default: the configuration's `data_dir`, ./corbeau-data).
    #[arg(long, global = true, env = "CORBEAU_DATA", value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Language of messages and results: fr or en (default: the configuration's).
    #[arg(long, global = true, env = "CORBEAU_LANG")]
    pub lang: Option<Lang>,
    /// Output for tools, as JSON.
    #[arg(long, global = true)]
    pub json: bool,
    /// The time to act at (RFC 3339), instead of the clock: for tests and replays.
    #[arg(long, global = true, env = "CORBEAU_NOW", hide = true)]
    pub now: Option<String>,
}

pub(super) struct Context {
    pub config: Config,
    pub service: Service,
    pub lang: Lang,
    pub json: bool,
    pub now: DateTime<Utc>,
}

impl Context {
    /// The store of the data directory, created if there is none: for `game new`.
    pub(super) fn open(args: &StoreArgs) -> Result<Context, Error> {
        Context::open_as(args, true)
    }

    /// The store of the data directory, which must be there: a command run from the wrong
    /// folder, or with the wrong `--config`, says where it looked instead of leaving an
    /// empty store behind.
    pub(super) fn existing(args: &StoreArgs) -> Result<Context, Error> {
        Context::open_as(args, false)
    }

    fn open_as(args: &StoreArgs, create: bool) -> Result<Context, Error> {
        let (config, lang, now) = settings(args)?;
        if !create && !Service::exists(&config.data_dir) {
            let dir = config.data_dir.display().to_string();
            let option = args.data.is_some();
            let config = config.source.as_ref().map(|p| p.display().to_string());
            return Err(Error::Input(say!(
                lang,
                "log.no_store",
                dir,
                option,
                config
            )));
        }
        judge_key(&config, lang)?;
        let service = Service::open(&config.data_dir).map_err(|e| game_error(lang, e))?;
        Ok(Context::with(config, service, lang, args.json, now))
    }

    pub(super) fn with(
        config: Config,
        service: Service,
        lang: Lang,
        json: bool,
        now: DateTime<Utc>,
    ) -> Context {
        Context {
            config,
            service,
            lang,
            json,
            now,
        }
    }

    /// A service error (or the game's refusal) as a command-line error in the moderator's
    /// language.
    pub(super) fn fail(&self, e: impl Into<ServiceError>) -> Error {
        game_error(self.lang, e)
    }

    /// Prints a value as JSON (with `--json`) or the text made by `text`.
    pub(super) fn print<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        print_as(self.json, value, text)
    }
}

/// Prints a value as JSON (`json`) or the text made by `text`, ended by a new line.
pub(super) fn print_as<T: Serialize>(
    json: bool,
    value: &T,
    text: impl FnOnce() -> String,
) -> Result<(), Error> {
    if json {
        let json =
            serde_json::to_string_pretty(value).map_err(|e| Error::Internal(e.to_string()))?;
        outln!("{json}");
    } else {
        let text = text();
        out!("{text}");
        if !text.ends_with('\n') {
            outln!();
        }
    }
    Ok(())
}

/// The configuration (with `--data` applied), the language and the time, without opening
/// the store.
pub(super) fn settings(args: &StoreArgs) -> Result<(Config, Lang, DateTime<Utc>), Error> {
    let mut config =
        Config::load(args.config.as_deref()).map_err(|e| Error::Input(e.to_string()))?;
    if let Some(dir) = &args.data {
        config.data_dir = dir.clone();
    }
    // The file's `lang` when it writes one, else the user's locale, else its default.
    let lang = args.lang.unwrap_or_else(|| {
        if config.lang_written {
            config.lang
        } else {
            super::locale_lang().unwrap_or(config.lang)
        }
    });
    crate::lang::set_operator(lang);
    crate::store::set_cache_mb(config.store.cache_mb);
    crate::store::set_lease_seconds(config.store.lease_seconds);
    choose_store(&config, lang)?;
    // The message catalogue follows the templates: the configured directory, else
    // ./templates (docs/wording.md); a broken override file stops the command here.
    crate::wording::install(
        config
            .templates
            .clone()
            .or_else(crate::report::local_templates),
    )
    .map_err(|e| Error::Input(e.to_string()))?;
    let now = match &args.now {
        Some(text) => DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|e| Error::Input(format!("CORBEAU_NOW / --now `{text}`: {e}")))?,
        None => Utc::now(),
    };
    Ok((config, lang, now))
}

/// Chooses where the store is for the rest of the command: `CORBEAU_STORE`, else
/// `[store] url`, else sled in the data directory. An empty `CORBEAU_STORE` means no
/// database, whatever the file says.
fn choose_store(config: &Config, lang: Lang) -> Result<(), Error> {
    let url = match std::env::var("CORBEAU_STORE") {
        Ok(text) => Some(text).filter(|t| !t.trim().is_empty()),
        Err(_) => config.store.url.clone(),
    };
    let url = url
        .map(|text| {
            text.parse::<crate::store::DatabaseUrl>()
                .map_err(|reason| Error::Input(say!(lang, "log.store_url_bad", reason)))
        })
        .transpose()?;
    crate::store::use_database(url);
    Ok(())
}

/// Installs the judge's key, the key of the sieves of the stored secrets (read from
/// `[judge] key_file`, created there at the first start), before the store is opened:
/// every command that opens the store calls it first. A key file that cannot be read or
/// holds no key stops the command with the reason.
pub(super) fn judge_key(config: &Config, lang: Lang) -> Result<(), Error> {
    crate::service::auth::install_judge_key(&config.key_file())
        .map_err(|e| Error::Input(e.message(lang)))
}

/// A service error as a command-line error in the moderator's language: a bug (a
/// template that does not render, a secret that could not be made, a damaged store) exits
/// 2; a store busy, out of reach or out of room exits 75, since the same command later
/// may work (a script or a timer retries on 75); anything else 1.
pub(super) fn game_error(lang: Lang, e: impl Into<ServiceError>) -> Error {
    let e = e.into();
    match e {
        ServiceError::Bug(_)
        | ServiceError::Render(_)
        | ServiceError::Game(GameError::Secret(_))
        | ServiceError::Store(StorageFailure::Damaged(_)) => Error::Internal(e.message(lang)),
        ServiceError::Store(StorageFailure::Transient(_)) => Error::Temporary(e.message(lang)),
        _ => Error::Input(e.message(lang)),
    }
}
