//! `corbeau store copy`: a store moved between a data directory and a PostgreSQL
//! database, or backed up into an empty one (docs/storage.md, "Moving a store").

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Error;
use super::context::game_error;
use crate::lang::Lang;
use crate::say;
use crate::service::ServiceError;
use crate::store::{DatabaseUrl, Store, StoreError};

#[derive(Debug, clap::Subcommand)]
pub(super) enum StoreCommand {
    /// Copy every game, mail and record of a store into an empty one: each side a data
    /// directory or a PostgreSQL URL (postgresql://…).
    Copy(CopyArgs),
}

#[derive(Debug, clap::Args)]
pub(super) struct CopyArgs {
    /// The store to read: a data directory, or a PostgreSQL URL.
    #[arg(long, value_name = "DIR|URL")]
    from: String,
    /// The store to write, which must hold nothing yet: a data directory (created if
    /// need be), or a PostgreSQL URL (its tables created if need be).
    #[arg(long, value_name = "DIR|URL")]
    to: String,
    /// Language of the messages: fr or en.
    #[arg(long, env = "CORBEAU_LANG")]
    lang: Option<Lang>,
}

/// How long the copy waits for a judge that holds either store.
const WAIT: Duration = Duration::from_secs(5);

/// One side of a copy, parsed from its argument.
enum Place {
    Dir(PathBuf),
    Database(Box<DatabaseUrl>),
}

impl Place {
    fn parse(text: &str, lang: Lang) -> Result<Place, Error> {
        if text.starts_with("postgresql://") || text.starts_with("postgres://") {
            text.parse()
                .map(|url| Place::Database(Box::new(url)))
                .map_err(|reason| Error::Input(say!(lang, "log.store_url_bad", reason)))
        } else {
            Ok(Place::Dir(PathBuf::from(text)))
        }
    }

    fn shown(&self) -> String {
        match self {
            Place::Dir(dir) => dir.display().to_string(),
            Place::Database(url) => url.shown().to_string(),
        }
    }

    fn holds_store(&self) -> bool {
        match self {
            Place::Dir(dir) => Store::files_exist(dir),
            Place::Database(url) => Store::database_exists(url),
        }
    }

    fn open(&self) -> Result<Store, StoreError> {
        match self {
            Place::Dir(dir) => Store::open_files(dir, WAIT),
            // The data directory of a database's store keeps only the spool and the
            // outbox folder, which a copy never touches.
            Place::Database(url) => Store::open_database(Path::new("."), url, WAIT),
        }
    }
}

pub(super) fn run(command: StoreCommand) -> Result<(), Error> {
    let StoreCommand::Copy(args) = command;
    let lang = args
        .lang
        .unwrap_or_else(|| super::locale_lang().unwrap_or(Lang::Fr));
    crate::lang::set_operator(lang);
    let from = Place::parse(&args.from, lang)?;
    let to = Place::parse(&args.to, lang)?;
    let (from_shown, to_shown) = (from.shown(), to.shown());
    if !from.holds_store() {
        return Err(Error::Input(say!(
            lang,
            "store_copy.no_source",
            from = from_shown
        )));
    }
    let fail = |e: StoreError| game_error(lang, ServiceError::from(e));
    let source = from.open().map_err(fail)?;
    let target = to.open().map_err(fail)?;
    let count = source.copy_to(&target).map_err(fail)?;
    outln!(
        "{}",
        say!(
            lang,
            "store_copy.copied",
            count,
            from = from_shown,
            to = to_shown
        )
    );
    Ok(())
}
