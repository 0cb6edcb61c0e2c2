//! The operator's log: what the judge did and what went wrong, as `tracing` events on
//! standard error, each line with its level and time, in the operator's language (the
//! sentences come from the message catalogue like every other one; the field names of
//! `--log-format json` are identifiers). Standard output keeps what a command is asked
//! for (`game show`, `--json` reports), so that a pipe never reads a log line.
//!
//! How much is said: `-v` (debug), `-vv` (trace), `-q` (warnings and errors), `-qq`
//! (errors), `-qqq` (nothing); `CORBEAU_LOG` (tracing's filter syntax:
//! `info`, `corbeau::cli=debug`…) wins over them, so that a unit file or a crontab can set
//! it once. Under systemd, whose journal stamps each line itself and reads its priority
//! from a `<N>` prefix (sd-daemon(3)), the lines carry that prefix and no time of their
//! own; systemd says so through `JOURNAL_STREAM`, which names the stream it connected to
//! standard error: a process whose standard error went elsewhere (a shell started from the
//! unit, a redirection) writes plain lines.

use std::io::Write;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::sync::OnceLock;

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::{EnvFilter, LevelFilter};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

use crate::lang::{Lang, operator};
use crate::say;

/// The form of the log lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum LogFormat {
    /// A time, a level and a sentence per line.
    #[default]
    Text,
    /// One JSON object per event and per line: time, level, target, message and the
    /// event's fields (a pass's counts).
    Json,
}

/// The log options, before or after the command's name.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Log (before or after the command's name)")]
pub(super) struct LogArgs {
    /// More log lines on standard error: -v the debug ones, -vv the trace ones
    /// (CORBEAU_LOG wins over it).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`:
    /// only its failures and summary).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub quiet: u8,
    /// The log lines' form: text, or one JSON object per line.
    #[arg(
        long,
        value_enum,
        global = true,
        default_value_t,
        value_name = "FORMAT"
    )]
    pub log_format: LogFormat,
}

/// Starts the log for this process, as the options and `CORBEAU_LOG` say.
pub(super) fn install(args: &LogArgs) {
    let level = match i16::from(args.verbose) - i16::from(args.quiet) {
        2.. => LevelFilter::TRACE,
        1 => LevelFilter::DEBUG,
        0 => LevelFilter::INFO,
        -1 => LevelFilter::WARN,
        -2 => LevelFilter::ERROR,
        _ => LevelFilter::OFF,
    };
    let by_level = || {
        EnvFilter::builder()
            .with_default_directive(level.into())
            .parse_lossy("")
    };
    let mut refused = None;
    let filter = match std::env::var("CORBEAU_LOG") {
        Ok(spec) if !spec.trim().is_empty() => match EnvFilter::try_new(&spec) {
            Ok(filter) => filter,
            Err(_) => {
                refused = Some(spec);
                by_level()
            }
        },
        _ => by_level(),
    };
    let layer = Lines {
        format: args.log_format,
        journal: journal(),
    };
    // A second start (a test calling `main` twice) keeps the first log.
    let _ = tracing::subscriber::set_global_default(
        tracing_subscriber::registry().with(filter).with(layer),
    );
    if let Some(spec) = refused {
        tracing::warn!(
            filter = spec.as_str(),
            "{}",
            say!(operator(), "log.bad_filter", spec)
        );
    }
}

/// The message that ends a command, on standard error, as the journal reads an error
/// when it is the journal's stream.
pub(super) fn final_error(text: &str) {
    let line = if journal() {
        prefixed(3, text)
    } else {
        format!("{text}\n")
    };
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Whether standard error is systemd's journal stream: `JOURNAL_STREAM` is
/// `device:inode` of the stream systemd connected, compared with standard error's own.
fn journal() -> bool {
    static JOURNAL: OnceLock<bool> = OnceLock::new();
    *JOURNAL.get_or_init(|| {
        let Some(value) = std::env::var_os("JOURNAL_STREAM") else {
            return false;
        };
        let Some((dev, ino)) = value.to_str().and_then(|v| v.split_once(':')) else {
            return false;
        };
        let (Ok(dev), Ok(ino)) = (dev.parse::<u64>(), ino.parse::<u64>()) else {
            return false;
        };
        let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() else {
            return false;
        };
        std::fs::File::from(fd)
            .metadata()
            .is_ok_and(|m| m.dev() == dev && m.ino() == ino)
    })
}

/// Each line of `text` with the journal's priority prefix.
fn prefixed(priority: u8, text: &str) -> String {
    text.lines().map(|l| format!("<{priority}>{l}\n")).collect()
}

/// The syslog priority of a level (sd-daemon(3)): err, warning, info, debug.
fn priority(level: Level) -> u8 {
    match level {
        Level::ERROR => 3,
        Level::WARN => 4,
        Level::INFO => 6,
        _ => 7,
    }
}

/// The level as the operator reads it.
fn level_word(lang: Lang, level: Level) -> String {
    match level {
        Level::ERROR => say!(lang, "log.error"),
        Level::WARN => say!(lang, "log.warn"),
        Level::INFO => say!(lang, "log.info"),
        Level::DEBUG => say!(lang, "log.debug"),
        _ => say!(lang, "log.trace"),
    }
}

/// Writes each event as one line (or, for a sentence of several lines, one block).
struct Lines {
    format: LogFormat,
    journal: bool,
}

impl<S: Subscriber> Layer<S> for Lines {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let level = *event.metadata().level();
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let text = match self.format {
            LogFormat::Text if self.journal => fields.message,
            LogFormat::Text => {
                format!("{now} {} {}", level_word(operator(), level), fields.message)
            }
            LogFormat::Json => {
                let mut object = Map::new();
                if !self.journal {
                    object.insert("timestamp".into(), now.into());
                }
                object.insert("level".into(), level.as_str().into());
                object.insert("target".into(), event.metadata().target().into());
                object.insert("message".into(), fields.message.into());
                object.extend(fields.values);
                Value::Object(object).to_string()
            }
        };
        let line = if self.journal {
            prefixed(priority(level), &text)
        } else {
            format!("{text}\n")
        };
        // A log that cannot be written has nowhere to say so.
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

/// An event's sentence and fields.
#[derive(Default)]
struct Fields {
    message: String,
    values: Map<String, Value>,
}

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        if field.name() == "message" {
            self.message = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
        } else {
            self.values.insert(field.name().into(), value);
        }
    }
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.put(field, format!("{value:?}").into());
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, value.into());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, value.into());
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, value.into());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, value.into());
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, value.into());
    }
}
