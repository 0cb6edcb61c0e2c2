//! `corbeau adjudicate`: a variant, a position and orders give the results of the phase,
//! as text in the moderator's language or as JSON. Stateless: nothing is stored.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::judge::{Edition, GivenOrder, Position, adjudicate_under};
use crate::lang::Lang;
use crate::map::{Owner, Variant, load_variant};
use crate::order::parse_order;
use crate::position::{read_position, write_position};
use crate::report::{local_templates, render_results, results_view_with_orders};
use crate::say;

use super::{Error, language, read_input};

/// The bundled example: spring 298 on Westeros, seven houses.
const EXAMPLE_ORDERS: &str = include_str!("../../games/examples/westeros-printemps-298.txt");
const EXAMPLE_NAME: &str = "games/examples/westeros-printemps-298.txt";

#[derive(Debug, clap::Args)]
pub(super) struct AdjudicateArgs {
    /// Order files (`-` for standard input). A file may also hold its own position (a turn
    /// file: `phase`, `unit`, `owner` … lines, then orders). None: the bundled example.
    files: Vec<PathBuf>,
    /// A built-in variant (`westeros`, `classique`, `tempete`) or a variant file.
    #[arg(long, default_value = "westeros")]
    variant: String,
    /// The position to adjudicate (docs/position-format.md); default: the starting position.
    #[arg(long)]
    position: Option<PathBuf>,
    /// Number of players, for the starting position (the absent houses' units stay neutral).
    #[arg(long)]
    players: Option<u8>,
    /// The house giving orders written without `House:`.
    #[arg(long)]
    house: Option<String>,
    /// Results as JSON (docs/results-format.md).
    #[arg(long)]
    pub(super) json: bool,
    /// Language of the results: fr (default) or en; also CORBEAU_LANG.
    #[arg(long)]
    pub(super) lang: Option<Lang>,
    /// A directory of templates (fr/results.txt, en/results.txt) replacing the built-in ones.
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Write the position of the next phase to this file.
    #[arg(long, value_name = "FILE")]
    next: Option<PathBuf>,
    /// The rulebook edition: 2023 (default), 1982, 1971 or dptg (docs/rules.md, "Rule
    /// editions").
    #[arg(long = "rules", value_name = "EDITION", default_value = "2023")]
    rules_written: String,
    /// The edition read from `--rules`, once the language of its refusal is known.
    #[arg(skip)]
    rules: Edition,
}

/// One job: a name for messages and the text of its orders (and maybe its position).
struct Job {
    name: String,
    text: String,
}

/// What one file gave: its results (text or JSON), or why it could not be adjudicated.
type JobResult = Result<Output, Error>;

/// The results of one file: as text or JSON for one file alone, a JSON line in a batch.
enum Output {
    Text(String),
    Json(serde_json::Value),
    /// One line of JSON Lines, the file's name first.
    Line(String),
}

pub(super) fn run(mut args: AdjudicateArgs) -> Result<(), Error> {
    let lang = language(args.lang);
    args.rules = args.rules_written.parse().map_err(|_| {
        Error::Input(say!(
            lang,
            "game_error.unknown_rules",
            input = args.rules_written.as_str()
        ))
    })?;
    let variant = load_variant(&args.variant).map_err(|e| Error::Input(e.message(lang)))?;
    let base = match &args.position {
        Some(path) => Some(
            read_position(
                &variant,
                &path.display().to_string(),
                &read_input(path, lang)?,
            )
            .map_err(|e| Error::Input(e.to_string()))?,
        ),
        None => None,
    };
    if args.files.is_empty() {
        let job = if args.position.is_some() {
            Job {
                name: "-".into(),
                text: read_input(&PathBuf::from("-"), lang)?,
            }
        } else {
            Job {
                name: EXAMPLE_NAME.into(),
                text: EXAMPLE_ORDERS.into(),
            }
        };
        let output = adjudicate_job(&variant, base.as_ref(), &args, lang, &job)?;
        print_one(&output);
        return Ok(());
    }
    if args.files.len() == 1 {
        let name = args.files[0].display().to_string();
        let job = Job {
            text: read_input(&args.files[0], lang)?,
            name,
        };
        let output = adjudicate_job(&variant, base.as_ref(), &args, lang, &job)?;
        print_one(&output);
        return Ok(());
    }
    batch(&args, lang, &variant, base.as_ref())
}

/// Many files: read and adjudicated on every core, a progress bar on a terminal, the
/// results printed in the order of the files, then a summary line.
fn batch(
    args: &AdjudicateArgs,
    lang: Lang,
    variant: &Variant,
    base: Option<&Position>,
) -> Result<(), Error> {
    use rayon::prelude::*;
    let start = std::time::Instant::now();
    let total = args.files.len();
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} {per_sec} {eta} {wide_msg}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results: Vec<JobResult> = args
        .files
        .par_iter()
        .map(|path| {
            let name = path.display().to_string();
            let result = read_input(path, lang).and_then(|text| {
                let job = Job { name, text };
                match adjudicate_job(variant, base, args, lang, &job)? {
                    // The JSON line is made here, on every core: `{"file": …, results}`.
                    Output::Json(serde_json::Value::Object(fields)) => {
                        let mut line = serde_json::Map::new();
                        line.insert("file".into(), job.name.into());
                        line.extend(fields);
                        Ok(Output::Line(serde_json::Value::Object(line).to_string()))
                    }
                    other => Ok(other),
                }
            });
            bar.inc(1);
            result
        })
        .collect();
    bar.finish_and_clear();
    let mut failed = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (path, result) in args.files.iter().zip(&results) {
        let name = path.display().to_string();
        let written = match result {
            Ok(Output::Line(line)) => writeln!(out, "{line}"),
            Ok(Output::Json(value)) => writeln!(out, "{value}"),
            Ok(Output::Text(text)) => {
                let newline = if text.ends_with('\n') { "" } else { "\n" };
                write!(out, "==> {name} <==\n{text}{newline}")
            }
            Err(e) => {
                tracing::error!("{e}");
                failed.push(name.clone());
                if args.json {
                    let line = serde_json::json!({"file": name, "error": e.to_string()});
                    writeln!(out, "{line}")
                } else {
                    Ok(())
                }
            }
        };
        written?;
    }
    out.flush()?;
    drop(out);
    let seconds = start.elapsed().as_secs_f64();
    let done = total - failed.len();
    let rate = if seconds > 0.0 {
        total as f64 / seconds
    } else {
        0.0
    };
    tracing::info!(
        "{}",
        say!(
            lang,
            "adjudicate.summary",
            done,
            failed = failed.len(),
            seconds = format!("{seconds:.2}"),
            rate = format!("{rate:.0}")
        )
    );
    // The results stay in memory until the process ends: no need to free them one by one.
    std::mem::forget(results);
    if failed.is_empty() {
        return Ok(());
    }
    Err(Error::Reported(say!(
        lang,
        "adjudicate.unreadable",
        count = failed.len(),
        files = failed
    )))
}

fn print_one(output: &Output) {
    match output {
        Output::Json(value) => outln!(
            "{}",
            serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
        ),
        Output::Line(line) => outln!("{line}"),
        Output::Text(text) => {
            out!("{text}");
            if !text.ends_with('\n') {
                outln!();
            }
        }
    }
}

fn adjudicate_job(
    variant: &Variant,
    base: Option<&Position>,
    args: &AdjudicateArgs,
    lang: Lang,
    job: &Job,
) -> Result<Output, Error> {
    let (position_lines, order_lines) = split_turn(&job.text);
    let position = match (base, position_lines.trim().is_empty()) {
        (_, false) => read_position(variant, &job.name, &position_lines)
            .map_err(|e| Error::Input(e.to_string()))?,
        (Some(p), true) => p.clone(),
        (None, true) => starting_position(variant, args.players, lang)?,
    };
    let given = read_orders(
        variant,
        args.house.as_deref(),
        lang,
        &job.name,
        &order_lines,
    )?;
    let adjudication = adjudicate_under(variant, &position, &given, args.rules);
    if let Some(path) = &args.next {
        std::fs::write(path, write_position(variant, &adjudication.after))
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    }
    let view = results_view_with_orders(variant, &position, &adjudication, &given);
    if args.json {
        // Plain structs of strings and numbers: serializing cannot fail.
        serde_json::to_value(&view)
            .map(Output::Json)
            .map_err(|e| Error::Input(e.to_string()))
    } else {
        let templates = args.templates.clone().or_else(local_templates);
        render_results(&view, variant, lang, templates.as_deref())
            .map(Output::Text)
            .map_err(|e| Error::Input(e.to_string()))
    }
}

/// Splits a turn file into its position lines and its order lines (order lines keep their
/// place so that messages give the right line numbers; they are read where they lie).
fn split_turn(text: &str) -> (String, Vec<(u32, &str)>) {
    const KEYWORDS: [&str; 6] = [
        "variant",
        "phase",
        "owner",
        "unit",
        "dislodged",
        "contested",
    ];
    let mut position = String::new();
    let mut orders = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let first = line.split_whitespace().next().unwrap_or("");
        if KEYWORDS.contains(&first) {
            position.push_str(line);
        } else {
            orders.push((n as u32 + 1, line));
        }
        position.push('\n');
    }
    (position, orders)
}

/// Parses the order lines (with their line numbers); a line `House:` alone gives the
/// house of the lines after it, `house` that of the lines before any. Every unreadable
/// line is reported, and then no order is returned.
pub(super) fn read_orders(
    variant: &Variant,
    house: Option<&str>,
    lang: Lang,
    name: &str,
    lines: &[(u32, impl AsRef<str>)],
) -> Result<Vec<GivenOrder>, Error> {
    let source: Arc<str> = Arc::from(name);
    let house_of = |text: &str| match crate::position::house_named(variant, text) {
        Some(Owner::House(h)) => Ok(Some(h)),
        _ => Err(say!(lang, "adjudicate.unknown_house", name, text)),
    };
    let mut current = match house {
        Some(h) => house_of(h).map_err(Error::Input)?,
        None => None,
    };
    let mut given = Vec::new();
    let mut errors = Vec::new();
    for (line_no, line) in lines {
        let line = line.as_ref();
        let trimmed = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = trimmed.strip_suffix(':')
            && crate::position::house_named(variant, header.trim()).is_some()
        {
            match house_of(header.trim()) {
                Ok(h) => current = h,
                Err(e) => errors.push(e),
            }
            continue;
        }
        match parse_order(variant, &source, *line_no, line) {
            Ok(None) => {}
            Ok(Some(order)) => {
                // Orders come house by house: the order before most often names the
                // same house, already looked up.
                let same = given.last().filter(|g: &&GivenOrder| {
                    g.order.house.is_some() && g.order.house == order.house
                });
                let house = match (&order.house, same) {
                    (Some(_), Some(last)) => last.house,
                    (Some(h), None) => match house_of(h) {
                        Ok(h) => h,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    },
                    (None, _) => current,
                };
                given.push(GivenOrder { house, order });
            }
            Err(e) => errors.push(format!(
                "{name}{} {}",
                say!(lang, "adjudicate.text"),
                e.message(lang)
            )),
        }
    }
    if errors.is_empty() {
        Ok(given)
    } else {
        Err(Error::Input(errors.join("\n")))
    }
}

/// The starting position of a variant for a number of players (default: its full setup),
/// or the error saying it has no setup for that many.
pub(super) fn starting_position(
    variant: &Variant,
    players: Option<u8>,
    lang: Lang,
) -> Result<Position, Error> {
    Position::starting(variant, players).ok_or_else(|| {
        Error::Input(say!(
            lang,
            "adjudicate.no_setup",
            variant = variant.id,
            players = players.unwrap_or(0)
        ))
    })
}
