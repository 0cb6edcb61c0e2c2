//! `corbeau orders …`, `corbeau history` and `corbeau export`: orders given on behalf of a
//! house, and what the store keeps of each game.

use std::path::PathBuf;
use std::rc::Rc;

use minijinja::Value;
use serde_json::json;

use crate::game::{
    Action, Actor, Event, GameError, HouseKey, OrderLines, PhaseGuard, PhaseRecord, SubmitMode,
};
use crate::map::{Variant, scope};
use crate::report::{ORDERS_TEMPLATE, render_template};
use crate::say;

use super::Error;
use super::context::Context;
use super::game::public_game;
use crate::report::game_text::{Audience, phase_text, record_results_or_builtin};

#[derive(Debug, clap::Subcommand)]
pub(super) enum OrdersCommand {
    /// Give a house's orders (from a file, or standard input): they replace its orders,
    /// or with --partial only those of the units they name.
    Submit {
        game: String,
        house: String,
        /// The order file (`-` or nothing: standard input).
        file: Option<PathBuf>,
        /// Replace only the orders of the units named.
        #[arg(long)]
        partial: bool,
        /// Only if this is the current phase (`printemps 299 mouvements`).
        #[arg(long)]
        phase: Option<String>,
    },
    /// Show the orders received: one house's as understood, or who has ordered.
    Show { game: String, house: Option<String> },
}

/// Each block's conditions tested, or why it was set aside, on standard error (standard
/// output holds the orders, as text or JSON).
fn tell_conditions(notes: &[crate::game::ConditionNote], lang: crate::lang::Lang) {
    use crate::report::conditional::{condition_steps, refused_note};
    for note in notes {
        if let Some(message) = refused_note(note, lang) {
            eprintln!("✗ {message}");
        } else if let crate::game::ConditionNote::Read { steps } = note {
            for step in condition_steps(steps, lang) {
                eprintln!("→ {step}");
            }
        }
    }
}

pub(super) fn run_orders(ctx: &Context, command: OrdersCommand) -> Result<(), Error> {
    match command {
        OrdersCommand::Submit {
            game,
            house,
            file,
            partial,
            phase,
        } => {
            let text = super::read_input(&file.unwrap_or_else(|| PathBuf::from("-")), ctx.lang)?;
            let mode = if partial {
                SubmitMode::Partial
            } else {
                SubmitMode::Replace
            };
            let expected = phase
                .as_deref()
                .map(PhaseGuard::read)
                .transpose()
                .map_err(|e| ctx.fail(e))?;
            let submit = Action::Submit {
                house: super::game::house(ctx, &game, &house)?,
                lines: OrderLines::numbered(&text),
                mode,
                source: "cli".into(),
                expected,
            };
            let outcome = ctx
                .service
                .execute(&game, &Actor::Moderator, submit, ctx.now)
                .map_err(|e| ctx.fail(e))?;
            // What became of the set's IF blocks, apart from the orders shown.
            for event in &outcome.events {
                if let Event::OrdersTaken { conditions, .. } = event {
                    tell_conditions(conditions, ctx.lang);
                }
            }
            let house = outcome.events.iter().find_map(|e| match e {
                Event::OrdersTaken { house, .. } => Some(house),
                _ => None,
            });
            match house {
                Some(house) => show_orders(ctx, &outcome.game, house),
                None => Ok(()),
            }
        }
        OrdersCommand::Show { game, house } => {
            let g = ctx.service.load(&game).map_err(|e| ctx.fail(e))?;
            match house {
                Some(house) => {
                    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
                    let house = g.house_id(&variant, &house).map_err(|e| ctx.fail(e))?;
                    show_orders(ctx, &g, &house)
                }
                None => {
                    let rows: Vec<_> = g
                        .seats()
                        .iter()
                        .map(|s| {
                            json!({"house": s.house(), "orders": s.orders().iter().map(|o| &o.order.text).collect::<Vec<_>>(),
                                   "ordered": s.ordered(), "ready": s.ready(), "deciding": g.deciding().iter().any(|x| x == s.house())})
                        })
                        .collect();
                    ctx.print(&rows, || {
                        let mut t = format!("{} — {}\n", g.id(), phase_text(g.phase(), ctx.lang));
                        for s in g.seats() {
                            let state = if !g.deciding().iter().any(|x| x == s.house()) {
                                say!(ctx.lang, "cli_orders.nothing_to_order")
                            } else if s.ordered().is_some() {
                                format!(
                                    "{} {}",
                                    s.orders().len(),
                                    say!(ctx.lang, "cli_orders.order_s")
                                )
                            } else {
                                say!(ctx.lang, "cli_orders.no_orders")
                            };
                            let ready = if s.ready() {
                                say!(ctx.lang, "cli_orders.ready")
                            } else {
                                String::new()
                            };
                            t.push_str(&format!("  {:<12} {state}{ready}\n", s.house()));
                        }
                        t
                    })
                }
            }
        }
    }
}

/// A house's orders as understood (the `orders.txt` template).
fn show_orders(ctx: &Context, g: &crate::game::Game, house: &HouseKey) -> Result<(), Error> {
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    let view = crate::report::orders_view(g, &variant, house, ctx.lang).map_err(|e| ctx.fail(e))?;
    let templates = ctx
        .config
        .templates
        .clone()
        .or_else(crate::report::local_templates);
    ctx.print(&view, || {
        let render = |dir: Option<&std::path::Path>| {
            render_template(
                ORDERS_TEMPLATE,
                Value::from_serialize(crate::report::localized(&view, &variant, ctx.lang)),
                ctx.lang,
                dir,
            )
        };
        match render(templates.as_deref()) {
            Ok(text) => text,
            Err(e) => {
                // The orders are stored whatever their display: the built-in template, or
                // a plain word of what is kept, and the problem on standard error.
                let fallback = templates.as_ref().and_then(|_| render(None).ok());
                match fallback {
                    Some(text) => {
                        tracing::warn!("{}", super::game::template_fallback(ctx, &e));
                        text
                    }
                    None => {
                        tracing::error!("{e}");
                        let orders = g.seat(house).map_or(0, |s| s.orders().len());
                        format!(
                            "{}: {house}: {orders} {}\n",
                            g.id(),
                            say!(ctx.lang, "cli_orders.order_s_kept")
                        )
                    }
                }
            }
        }
    })
}

#[derive(Debug, clap::Args)]
pub(super) struct HistoryArgs {
    game: String,
    /// One phase: its number in the history (1 is the first) or its name.
    phase: Option<String>,
    /// Also draw the phase: the position after it with its orders, as FILE.png or FILE.svg.
    #[arg(long, value_name = "FILE", requires = "phase")]
    map: Option<std::path::PathBuf>,
}

pub(super) fn run_history(ctx: &Context, args: HistoryArgs) -> Result<(), Error> {
    let g = ctx.service.load(&args.game).map_err(|e| ctx.fail(e))?;
    let records = ctx.service.history(g.id()).map_err(|e| ctx.fail(e))?;
    let Some(wanted) = args.phase else {
        let rows: Vec<_> = records
            .iter()
            .map(|r| json!({"index": r.index, "phase": r.phase, "processed": r.processed, "trigger": r.trigger}))
            .collect();
        // In the game's time zone, as its deadlines are.
        let zone = g.settings().schedule.time_zone;
        return ctx.print(&rows, || {
            let mut t = String::new();
            for r in &records {
                t.push_str(&format!(
                    "{:>3}  {:<28} {}\n",
                    r.number(),
                    phase_text(r.phase, ctx.lang),
                    r.processed.with_timezone(&zone).format("%Y-%m-%d %H:%M %Z")
                ));
            }
            if records.is_empty() {
                t.push_str(&say!(ctx.lang, "cli_orders.no_phase_played_yet"));
            }
            t
        });
    };
    let parsed = crate::position::parse_phase(&wanted);
    let number = wanted.trim().parse::<u32>().ok();
    if parsed.is_none() && number.is_none() {
        return Err(ctx.fail(GameError::BadPhase(wanted.clone())));
    }
    let record = records
        .iter()
        .find(|r| number == Some(r.number()) || parsed == Some(r.phase))
        .ok_or_else(|| {
            let (id, last) = (&g.id(), records.last().map(PhaseRecord::number));
            Error::Input(say!(ctx.lang, "history.no_such_phase", wanted, id, last))
        })?;
    if let Some(path) = &args.map {
        use crate::service::picture::{self, PictureError};
        let format = match super::draw::FileFormat::of(path, ctx.lang)? {
            super::draw::FileFormat::Png => picture::Format::Png,
            super::draw::FileFormat::Svg => picture::Format::Svg,
        };
        let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
        let bytes = picture::phase_picture(&variant, &g, record, ctx.lang, format).map_err(
            |e| match e {
                PictureError::Game(e) => ctx.fail(e),
                PictureError::Draw(e) => super::draw::draw_error(e),
            },
        )?;
        std::fs::write(path, bytes)
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?;
    }
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    if ctx.json {
        return ctx.print(&record_json(record, &variant), String::new);
    }
    let templates = ctx
        .config
        .templates
        .clone()
        .or_else(crate::report::local_templates);
    let current = record.index + 1 == g.played();
    let (text, broken) = record_results_or_builtin(
        &g,
        &variant,
        record,
        current,
        // The command line is the moderator's: every house's rejected lines.
        &Audience::Moderator,
        ctx.lang,
        templates.as_deref(),
    )?;
    out!("{text}");
    if let Some(e) = broken {
        tracing::warn!("{}", super::game::template_fallback(ctx, &e));
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub(super) struct ExportArgs {
    game: String,
}

/// The whole game as JSON: settings, players (without secrets), position, history, audit.
pub(super) fn run_export(ctx: &Context, args: ExportArgs) -> Result<(), Error> {
    let g = ctx.service.load(&args.game).map_err(|e| ctx.fail(e))?;
    let phases = ctx.service.history(g.id()).map_err(|e| ctx.fail(e))?;
    let audit = ctx.service.audit_trail(g.id()).map_err(|e| ctx.fail(e))?;
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    let value = json!({
        "format": 1,
        "game": public_game(&g, &variant),
        "phases": phases.iter().map(|r| record_json(r, &variant)).collect::<Vec<_>>(),
        // The press archive: every message with its author (grey ones too), audience
        // and text — the command line is the moderator's, who reads all press.
        "press": crate::service::PressRecord::in_audit(&audit)
            .into_iter()
            .map(|(at, p)| {
                json!({"at": at, "index": p.index, "house": p.house, "grey": p.grey, "to": p.to, "body": p.body})
            })
            .collect::<Vec<_>>(),
        "audit": audit,
    });
    let text = serde_json::to_string_pretty(&value).map_err(|e| Error::Internal(e.to_string()))?;
    outln!("{text}");
    Ok(())
}

/// A phase record as JSON without the snapshot kept for rollback (it repeats the position
/// and orders, and holds the secrets' hashes).
pub(super) fn record_json(
    record: &crate::game::PhaseRecord,
    variant: &Rc<Variant>,
) -> serde_json::Value {
    let mut value = scope::within(variant, || serde_json::to_value(record)).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.remove("game_before");
    }
    value
}
