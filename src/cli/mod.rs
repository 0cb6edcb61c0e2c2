//! The command line: `corbeau adjudicate`, `datc`, `map check`, the moderator's `game`,
//! `player`, `orders`, `history`, `export`, mail in with `ingest`, the judge's `tick` and
//! `serve`, the built-in player's `bot arena`, `completions`.

#[macro_use]
mod out;
mod adjudicate;
mod bot;
mod clock;
mod context;
mod datc;
mod dist;
mod draw;
mod error;
mod game;
mod ingest;
mod log;
mod orders;
mod outbox;
mod publish;
mod store;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::lang::Lang;
use crate::say;

pub use error::Error;

/// corbeau: a play-by-email judge for Diplomacy-style games (Westeros, with dragons).
#[derive(Debug, Parser)]
#[command(name = "corbeau", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    shared: context::SharedArgs,
    #[command(flatten)]
    log: log::LogArgs,
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Debug, Subcommand)]
enum CliCommand {
    /// Adjudicate one phase: a variant, a position and orders give results (text or JSON).
    ///
    /// With no position and no orders, adjudicates the bundled example turn of Westeros.
    Adjudicate(adjudicate::AdjudicateArgs),
    /// Run DATC test cases (jDip text files or the project's .case files).
    Datc(datc::DatcArgs),
    /// Convert the DATC files of ../shared/datc into the project's case files.
    #[command(hide = true)]
    DatcConvert(datc::ConvertArgs),
    /// Variant files.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
    /// Stored games: create, list, show, start, pause, resume, extend, process, rollback, end.
    Game {
        #[command(subcommand)]
        command: game::GameCommand,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// The players of a stored game: add, replace, remove, ready, vote, absence.
    Player {
        #[command(subcommand)]
        command: game::PlayerCommand,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// Orders of a stored game: submit on behalf of a house, show.
    Orders {
        #[command(subcommand)]
        command: orders::OrdersCommand,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// The phases a game has played, or the results of one of them.
    History {
        #[command(flatten)]
        args: orders::HistoryArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// A whole game as JSON: settings, players, position, every phase, audit trail.
    Export {
        #[command(flatten)]
        args: orders::ExportArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// Mail in: one message on stdin (an MTA pipe, procmail), or a Maildir's new messages.
    ///
    /// The message is kept in the judge's spool first, then carried out: commands, reply,
    /// results, the outbox drained. If `corbeau serve` is running, it handles the spool.
    Ingest {
        #[command(flatten)]
        args: ingest::IngestArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// The mails waiting to be sent, with their last error; `--retry` sends them at the
    /// next pass without waiting for the back-off.
    Outbox {
        #[command(flatten)]
        args: outbox::OutboxArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// One pass of the judge: read new mail, process every game whose deadline passed,
    /// send reminders, results and replies (for cron).
    Tick {
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// The judge at work: `tick` in a loop (mail in, deadlines, outbox), until SIGTERM or
    /// Ctrl-C.
    Serve {
        #[command(flatten)]
        args: clock::ServeArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// Write the static site of the games: an index, and per game its map, every phase
    /// played with its map and public results, and the broadcast press (docs/publish.md).
    Publish {
        #[command(flatten)]
        args: publish::PublishArgs,
        #[command(flatten)]
        store: Box<context::StoreArgs>,
    },
    /// The store itself: `copy` moves it between a data directory and a PostgreSQL
    /// database, or backs it up into an empty one.
    Store {
        #[command(subcommand)]
        command: store::StoreCommand,
    },
    /// The built-in player: `arena` plays it against a holder and a random player.
    Bot {
        #[command(subcommand)]
        command: bot::BotCommand,
    },
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
    /// Write the package's man pages and shell completions into a folder (pkg/).
    #[command(hide = true)]
    PackageFiles(dist::PackageFilesArgs),
}

#[derive(Debug, Subcommand)]
enum MapCommand {
    /// Load variant files (or built-in variants by name) and list every problem found.
    Check {
        /// Paths to .toml files, or `westeros` / `classique` / `tempete`.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// List the built-in variants.
    List,
    /// Draw a position (and a phase's orders with their outcomes) as FILE.svg or FILE.png.
    Draw(draw::DrawArgs),
}

/// Runs the command line; what `main` returns.
pub fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    log::install(&cli.log);
    crate::lang::set_operator(language(cli.shared.lang));
    match hand_shared(cli, &matches).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = std::io::stdout().flush();
            log::final_error(&format!("corbeau: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}

/// Where a command takes the shared options: all of them in its store options, or some
/// in options of its own (`adjudicate --lang --json`, `map draw --lang`).
struct Takes<'a> {
    store: Option<&'a mut context::StoreArgs>,
    lang: Option<&'a mut Option<Lang>>,
    json: Option<&'a mut bool>,
}

impl CliCommand {
    fn takes(&mut self) -> Takes<'_> {
        let none = Takes {
            store: None,
            lang: None,
            json: None,
        };
        match self {
            CliCommand::Game { store, .. }
            | CliCommand::Player { store, .. }
            | CliCommand::Orders { store, .. }
            | CliCommand::History { store, .. }
            | CliCommand::Export { store, .. }
            | CliCommand::Ingest { store, .. }
            | CliCommand::Outbox { store, .. }
            | CliCommand::Tick { store }
            | CliCommand::Serve { store, .. }
            | CliCommand::Publish { store, .. } => Takes {
                store: Some(store),
                ..none
            },
            CliCommand::Adjudicate(args) => Takes {
                lang: Some(&mut args.lang),
                json: Some(&mut args.json),
                ..none
            },
            CliCommand::Map {
                command: MapCommand::Draw(args),
            } => Takes {
                lang: Some(&mut args.lang),
                ..none
            },
            CliCommand::Bot {
                command: bot::BotCommand::Arena(args),
            } => Takes {
                lang: Some(&mut args.lang),
                json: Some(&mut args.json),
                ..none
            },
            CliCommand::Datc(_)
            | CliCommand::DatcConvert(_)
            | CliCommand::Map { .. }
            | CliCommand::Completions { .. }
            | CliCommand::Store { .. }
            | CliCommand::PackageFiles(_) => none,
        }
    }
}

/// Hands the shared options written before the command's name to the command, so that
/// `corbeau --config F game list` is `corbeau game list --config F`. Written in both
/// places, the one after the name counts (as the nearer one does for `game --data A list
/// --data B`); both beat the environment variable. A command that takes none of them
/// refuses one written before its name, as clap refuses it after.
fn hand_shared(cli: Cli, matches: &ArgMatches) -> Result<Cli, Error> {
    let Cli {
        shared,
        log,
        mut command,
    } = cli;
    // The store options sit on the first subcommand (`game`), its children reading them
    // as global ones: the one place to ask whether a value was typed or came from the
    // environment.
    let sub = matches.subcommand().map(|(_, m)| m);
    let typed_after =
        |id: &str| sub.and_then(|m| m.value_source(id)) == Some(ValueSource::CommandLine);
    let name = command_name(matches);
    let lang = language(shared.lang);
    let refuse = |option: &str| {
        Error::Input(say!(
            lang,
            "cli_shared.not_an_option",
            option,
            command = name.as_str()
        ))
    };
    let takes = command.takes();
    match takes.store {
        Some(store) => {
            if shared.config.is_some() && !typed_after("config") {
                store.config = shared.config;
            }
            if shared.data.is_some() && !typed_after("data") {
                store.data = shared.data;
            }
            if shared.lang.is_some() && !typed_after("lang") {
                store.lang = shared.lang;
            }
            if shared.now.is_some() && !typed_after("now") {
                store.now = shared.now;
            }
            store.json |= shared.json;
        }
        None => {
            if shared.config.is_some() {
                return Err(refuse("--config"));
            }
            if shared.data.is_some() {
                return Err(refuse("--data"));
            }
            if shared.now.is_some() {
                return Err(refuse("--now"));
            }
            match takes.lang {
                Some(lang) if lang.is_none() => *lang = shared.lang,
                Some(_) => {}
                None if shared.lang.is_some() => return Err(refuse("--lang")),
                None => {}
            }
            match takes.json {
                Some(json) => *json |= shared.json,
                None if shared.json => return Err(refuse("--json")),
                None => {}
            }
        }
    }
    Ok(Cli {
        shared: context::SharedArgs::default(),
        log,
        command,
    })
}

/// The command's name as typed, subcommands included: `map check`.
fn command_name(matches: &ArgMatches) -> String {
    let mut words = Vec::new();
    let mut at = matches;
    while let Some((word, next)) = at.subcommand() {
        words.push(word);
        at = next;
    }
    words.join(" ")
}

fn run(cli: Cli) -> Result<(), Error> {
    // A person may be typing what the command reads on stdin: read it all before the
    // store is opened, so that nobody else waits for them meanwhile.
    let reads_stdin = match &cli.command {
        CliCommand::Orders {
            command: orders::OrdersCommand::Submit { file, .. },
            ..
        } => file.as_ref().is_none_or(|f| f.as_os_str() == "-"),
        CliCommand::Game {
            command: game::GameCommand::Edit { position, .. },
            ..
        } => position.as_os_str() == "-",
        _ => false,
    };
    if reads_stdin {
        // Its error, if any, is told by the command that reads it, in its language.
        let _ = read_input(Path::new("-"), Lang::default());
    }
    match cli.command {
        CliCommand::Adjudicate(args) => adjudicate::run(args),
        CliCommand::Datc(mut args) => {
            args.quiet = cli.log.quiet > 0;
            datc::run(args)
        }
        CliCommand::DatcConvert(args) => datc::convert(args),
        CliCommand::Map { command } => match command {
            MapCommand::Check { files } => map_check(&files),
            MapCommand::Draw(args) => draw::run(args),
            MapCommand::List => {
                for (name, _) in crate::map::EMBEDDED {
                    outln!("{name}");
                }
                Ok(())
            }
        },
        // Only `game new`, `ingest`, `tick` and `serve` may make a store where there is none.
        CliCommand::Game { command, store } => {
            let ctx = match command {
                game::GameCommand::New(_) => context::Context::open(&store)?,
                _ => context::Context::existing(&store)?,
            };
            game::run_game(&ctx, command)
        }
        CliCommand::Player { command, store } => {
            game::run_player(&context::Context::existing(&store)?, command)
        }
        CliCommand::Orders { command, store } => {
            orders::run_orders(&context::Context::existing(&store)?, command)
        }
        CliCommand::History { args, store } => {
            orders::run_history(&context::Context::existing(&store)?, args)
        }
        CliCommand::Export { args, store } => {
            orders::run_export(&context::Context::existing(&store)?, args)
        }
        CliCommand::Ingest { args, store } => ingest::run(args, &store),
        CliCommand::Outbox { args, store } => {
            outbox::run(&context::Context::existing(&store)?, args)
        }
        CliCommand::Publish { args, store } => {
            publish::run(&context::Context::existing(&store)?, args)
        }
        CliCommand::Tick { store } => clock::run_tick(&store),
        CliCommand::Serve { args, store } => clock::run_serve(&store, args),
        CliCommand::Store { command } => store::run(command),
        CliCommand::Bot { command } => bot::run(command),
        CliCommand::Completions { shell } => {
            // Written whole into memory first: the generator panics on a failed write,
            // and a reader may close the pipe early (`corbeau completions bash | head`).
            let mut text = Vec::new();
            clap_complete::generate(
                shell,
                &mut dist::completed(&Cli::command()),
                "corbeau",
                &mut text,
            );
            out!("{}", String::from_utf8_lossy(&text));
            Ok(())
        }
        CliCommand::PackageFiles(args) => dist::run(Cli::command(), args),
    }
}

fn map_check(files: &[String]) -> Result<(), Error> {
    let mut failed = 0;
    for file in files {
        match crate::map::load_variant(file)
            .and_then(|v| crate::position::check_storable(file, &v).map(|()| v))
        {
            Ok(v) => {
                let centres = v.provinces.iter().filter(|p| p.supply).count();
                outln!(
                    "{file}: ok ({} provinces, {centres} supply centres, {} houses, {} setups{})",
                    v.provinces.len(),
                    v.houses.len(),
                    v.setups.len(),
                    match &v.drawing {
                        Some(d) => format!(
                            "; drawn: {} passages, no two provinces touching without a border",
                            d.passages.len()
                        ),
                        None => "; no [drawing]".to_string(),
                    }
                );
            }
            Err(e) => {
                tracing::error!("{}", e.message(language(None)));
                failed += 1;
            }
        }
    }
    if failed > 0 {
        return Err(Error::Reported(format!(
            "{failed} variant file(s) with problems"
        )));
    }
    Ok(())
}

/// The language of messages and results: `--lang`, else `CORBEAU_LANG`, else the
/// user's locale ([`locale_lang`]), else French.
fn language(flag: Option<Lang>) -> Lang {
    flag.or_else(|| {
        std::env::var("CORBEAU_LANG")
            .ok()
            .and_then(|l| l.parse().ok())
    })
    .or_else(locale_lang)
    .unwrap_or_default()
}

/// The language of the user's locale, as POSIX ranks its variables: the first of
/// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and not empty decides (`C` or a language
/// corbeau does not speak: none).
pub(crate) fn locale_lang() -> Option<Lang> {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .and_then(|value| Lang::of_locale(&value))
}

/// Reads a file, or standard input for `-` (read once, then kept: see `run`), of at most
/// `file::MAX_FILE_BYTES`; an error is said in `lang`.
fn read_input(path: &Path, lang: Lang) -> Result<String, Error> {
    // Standard input is one stream per process and can be read only once: kept so that
    // two options naming `-` see the same text.
    static STDIN: std::sync::OnceLock<Result<String, crate::file::ReadError>> =
        std::sync::OnceLock::new();
    let read = if path.as_os_str() == "-" {
        STDIN
            .get_or_init(|| crate::file::read_text_from(std::io::stdin(), "standard input"))
            .clone()
    } else {
        crate::file::read_text(path)
    };
    read.map_err(|e| Error::Input(e.message(lang)))
}
