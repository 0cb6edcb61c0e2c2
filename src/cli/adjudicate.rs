//! `corbeau adjudicate`: a variant, a position and orders give the results of the phase,
//! as text in the moderator's language or as JSON. Stateless: nothing is stored.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use crate::case::{read_position, write_position};
use crate::judge::{GivenOrder, Position, adjudicate};
use crate::lang::Lang;
use crate::map::{Owner, Variant, load_variant};
use crate::order::parse_order;
use crate::report::{local_templates, render_results, results_json, results_view_with_orders};

use super::{Error, language, read_input};

/// The bundled example: spring 298 on Westeros, seven houses.
const EXAMPLE_ORDERS: &str = include_str!("../../games/examples/westeros-printemps-298.txt");
const EXAMPLE_NAME: &str = "games/examples/westeros-printemps-298.txt";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Order files (`-` for standard input). A file may also hold its own position (a turn
    /// file: `phase`, `unit`, `owner` … lines, then orders). None: the bundled example.
    files: Vec<PathBuf>,
    /// A built-in variant (`westeros`, `classique`) or a variant file.
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
    json: bool,
    /// Language of the results: fr (default) or en; also CORBEAU_LANG.
    #[arg(long)]
    lang: Option<Lang>,
    /// A directory of templates (fr/results.txt, en/results.txt) replacing the built-in ones.
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Write the position of the next phase to this file.
    #[arg(long, value_name = "FILE")]
    next: Option<PathBuf>,
}

/// One job: a name for messages and the text of its orders (and maybe its position).
struct Job {
    name: String,
    text: String,
}

pub fn run(args: Args) -> Result<(), Error> {
    let lang = language(args.lang);
    let variant = load_variant(&args.variant)?;
    let base = match &args.position {
        Some(path) => Some(
            read_position(&variant, &path.display().to_string(), &read_input(path)?)
                .map_err(|e| Error::Input(e.to_string()))?,
        ),
        None => None,
    };
    let jobs: Vec<Job> = if args.files.is_empty() {
        if args.position.is_some() {
            vec![Job {
                name: "-".into(),
                text: read_input(&PathBuf::from("-"))?,
            }]
        } else {
            vec![Job {
                name: EXAMPLE_NAME.into(),
                text: EXAMPLE_ORDERS.into(),
            }]
        }
    } else {
        args.files
            .iter()
            .map(|f| {
                Ok(Job {
                    name: f.display().to_string(),
                    text: read_input(f)?,
                })
            })
            .collect::<Result<_, Error>>()?
    };
    let progress = jobs.len() > 1 && std::io::stderr().is_terminal();
    let mut outputs = Vec::with_capacity(jobs.len());
    let mut failures = 0;
    for (n, job) in jobs.iter().enumerate() {
        if progress {
            eprint!("\r[{}/{}] {}\x1b[K", n + 1, jobs.len(), job.name);
        }
        match adjudicate_job(&variant, base.as_ref(), &args, lang, job) {
            Ok(output) => outputs.push((job.name.clone(), output)),
            Err(e) => {
                failures += 1;
                eprintln!("{e}");
            }
        }
    }
    if progress {
        eprintln!();
    }
    print_outputs(&args, &outputs);
    if failures > 0 {
        return Err(Error::Reported(match lang {
            Lang::Fr => format!(
                "{failures} fichier(s) d'ordres illisible(s) : rien n'a été arbitré pour eux"
            ),
            Lang::En => format!(
                "{failures} order file(s) could not be read: nothing was adjudicated for them"
            ),
        }));
    }
    Ok(())
}

fn print_outputs(args: &Args, outputs: &[(String, String)]) {
    if args.json && outputs.len() > 1 {
        let items: Vec<&str> = outputs.iter().map(|(_, o)| o.trim_end()).collect();
        println!("[\n{}\n]", items.join(",\n"));
        return;
    }
    for (name, output) in outputs {
        if outputs.len() > 1 {
            println!("==> {name} <==");
        }
        print!("{output}");
        if !output.ends_with('\n') {
            println!();
        }
    }
}

fn adjudicate_job(
    variant: &Variant,
    base: Option<&Position>,
    args: &Args,
    lang: Lang,
    job: &Job,
) -> Result<String, Error> {
    let (position_lines, order_lines) = split_turn(&job.text);
    let position = match (base, position_lines.trim().is_empty()) {
        (_, false) => read_position(variant, &job.name, &position_lines)
            .map_err(|e| Error::Input(e.to_string()))?,
        (Some(p), true) => p.clone(),
        (None, true) => Position::starting(variant, args.players).ok_or_else(|| {
            Error::Input(match lang {
                Lang::Fr => format!(
                    "la variante {} n'a pas de configuration pour {} joueurs",
                    variant.id,
                    args.players.unwrap_or(0)
                ),
                Lang::En => format!(
                    "variant {} has no setup for {} players",
                    variant.id,
                    args.players.unwrap_or(0)
                ),
            })
        })?,
    };
    let given = read_orders(variant, args, lang, &job.name, &order_lines)?;
    let adjudication = adjudicate(variant, &position, &given);
    if let Some(path) = &args.next {
        std::fs::write(path, write_position(variant, &adjudication.after))
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    }
    let view = results_view_with_orders(variant, &position, &adjudication, &given);
    if args.json {
        Ok(results_json(&view))
    } else {
        let templates = args.templates.clone().or_else(local_templates);
        render_results(&view, lang, templates.as_deref()).map_err(|e| Error::Input(e.to_string()))
    }
}

/// Splits a turn file into its position lines and its order lines (order lines keep their
/// place so that messages give the right line numbers).
fn split_turn(text: &str) -> (String, Vec<(u32, String)>) {
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
            orders.push((n as u32 + 1, line.to_string()));
        }
        position.push('\n');
    }
    (position, orders)
}

/// Parses the order lines; a line `House:` alone gives the house of the lines after it.
fn read_orders(
    variant: &Variant,
    args: &Args,
    lang: Lang,
    name: &str,
    lines: &[(u32, String)],
) -> Result<Vec<GivenOrder>, Error> {
    let source: Arc<str> = Arc::from(name);
    let house_of = |text: &str| match crate::case::house_named(variant, text) {
        Some(Owner::House(h)) => Ok(Some(h)),
        _ => Err(match lang {
            Lang::Fr => format!("{name} : maison inconnue « {text} »"),
            Lang::En => format!("{name}: unknown house `{text}`"),
        }),
    };
    let mut current = match &args.house {
        Some(h) => house_of(h).map_err(Error::Input)?,
        None => None,
    };
    let mut given = Vec::new();
    let mut errors = Vec::new();
    for (line_no, line) in lines {
        let trimmed = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = trimmed.strip_suffix(':')
            && crate::case::house_named(variant, header.trim()).is_some()
        {
            current = house_of(header.trim()).map_err(Error::Input)?;
            continue;
        }
        match parse_order(variant, &source, *line_no, line) {
            Ok(None) => {}
            Ok(Some(order)) => {
                let house = match &order.house {
                    Some(h) => match house_of(h) {
                        Ok(h) => h,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    },
                    None => current,
                };
                given.push(GivenOrder { house, order });
            }
            Err(e) => errors.push(format!(
                "{name}{} {}",
                lang.pick(" :", ":"),
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
