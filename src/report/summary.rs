//! Who plays a game (`WHOGAME`) and its summary (`SUMMARY`, the game-over mail): what
//! anyone may read of a game, in the reader's language. Neither names an address unless
//! the game's setting shows them (`SET ADDRESSES`), nor says anything of the orders of
//! the phase being played beyond whether a house gave some.

use std::collections::BTreeMap;

use crate::game::{AuditEntry, AuditLine, Game, GameStatus, Leaving, PhaseRecord, Seat};
use crate::judge::Position;
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

use super::game_text::{ending_text, phase_text, status_word};

/// The first line of both texts: the game, its variant, where it stands.
fn heading(game: &Game, lang: Lang) -> String {
    let status = status_word(game.status(), lang);
    let phase = match game.status() {
        GameStatus::Running | GameStatus::Paused => Some(phase_text(game.phase(), lang)),
        GameStatus::Forming | GameStatus::Finished => None,
    };
    say!(
        lang,
        "whogame.heading",
        name = game.name(),
        id = game.id(),
        variant = game.variant().name.as_str(),
        status,
        phase
    )
}

/// Whether the built-in player gives this house's orders while the game runs: the
/// game's bot setting on, the house in civil disorder or without a player.
fn bot_plays(game: &Game, seat: &Seat) -> bool {
    let playing = matches!(game.status(), GameStatus::Running | GameStatus::Paused);
    let unplayed = seat.civil_disorder() || seat.player().is_none() || seat.resigned();
    playing && game.settings().bots && unplayed
}

/// The seat's player as anyone may read it: the bot when it plays the house, the
/// address if shown, else only whether someone holds the seat.
fn holder(game: &Game, seat: &Seat, lang: Lang) -> String {
    if bot_plays(game, seat) {
        return say!(lang, "disorder.bot_plays");
    }
    match seat.player() {
        Some(_) if seat.resigned() => say!(lang, "whogame.resigned"),
        Some(p) if game.settings().show_addresses => {
            say!(lang, "whogame.played_by", address = p.address())
        }
        Some(_) => say!(lang, "whogame.seated"),
        None => say!(lang, "whogame.vacant"),
    }
}

/// `WHOGAME`: each house, seated or vacant, and while the game is played whether it
/// ordered, is ready, is in civil disorder.
pub fn whogame_text(game: &Game, variant: &Variant, lang: Lang) -> String {
    let playing = matches!(game.status(), GameStatus::Running | GameStatus::Paused);
    let mut text = heading(game, lang);
    text.push('\n');
    let width = name_width(game, variant, lang);
    for seat in game.seats() {
        let mut states = vec![holder(game, seat, lang)];
        if playing {
            let deciding = game.deciding().iter().any(|h| h == seat.house());
            if !deciding {
                states.push(say!(lang, "whogame.nothing_to_order"));
            } else if seat.ordered().is_some() {
                states.push(say!(lang, "whogame.ordered"));
            } else {
                states.push(say!(lang, "whogame.not_ordered"));
            }
            if seat.ready() {
                states.push(say!(lang, "whogame.ready"));
            }
        }
        if seat.civil_disorder() {
            states.push(say!(lang, "whogame.civil_disorder"));
        }
        let count = seat.bot_phases().len();
        if count > 0 {
            states.push(say!(lang, "disorder.bot_played", count));
        }
        let name = variant.house_name_in(seat.house(), lang);
        text.push_str(&format!("  {name:<width$}  {}\n", states.join(", ")));
    }
    text
}

fn name_width(game: &Game, variant: &Variant, lang: Lang) -> usize {
    game.seats()
        .iter()
        .map(|s| variant.house_name_in(s.house(), lang).chars().count())
        .max()
        .unwrap_or(0)
}

/// The centres of each house in `position`, by the game's seats.
fn centres(game: &Game, variant: &Variant, position: &Position) -> Vec<usize> {
    let counts = position.centre_counts(variant);
    game.seats()
        .iter()
        .map(|s| {
            variant
                .house_by_name(s.house())
                .and_then(|h| counts.get(h.0 as usize).copied())
                .unwrap_or(0)
        })
        .collect()
}

/// `SUMMARY` and the game-over mail: the supply centres of each house at the start and
/// at the end of each year played, the players of each seat (those replaced too), and
/// the result. `records` is the game's history, oldest first.
pub fn summary_text(game: &Game, variant: &Variant, records: &[PhaseRecord], lang: Lang) -> String {
    let mut text = heading(game, lang);
    text.push('\n');
    text.push_str(&summary_body(game, variant, records, lang));
    text.push('\n');
    let result = match game.ending() {
        Some(ending) => say!(
            lang,
            "summary.result",
            ending = ending_text(ending, variant, lang)
        ),
        None => say!(lang, "summary.no_result"),
    };
    text.push_str(&result);
    text.push('\n');
    text
}

/// The supply centres of each seat (in the game's order of seats) at the start (year
/// `None`) and at the end of each year played: after the winter's builds, or the
/// autumn's.
pub fn centres_by_year(
    game: &Game,
    variant: &Variant,
    records: &[PhaseRecord],
) -> Vec<(Option<i32>, Vec<usize>)> {
    let mut years: BTreeMap<i32, &Position> = BTreeMap::new();
    for record in records {
        years.insert(record.phase.year, &record.position_after);
    }
    let start = records
        .first()
        .map_or_else(|| game.position(), |r| &r.position_before);
    std::iter::once((None, centres(game, variant, start)))
        .chain(
            years
                .iter()
                .map(|(year, position)| (Some(*year), centres(game, variant, position))),
        )
        .collect()
}

/// The centres by year and the players, without the heading and the result: what the
/// game-over mail adds under the result it states.
pub fn summary_body(game: &Game, variant: &Variant, records: &[PhaseRecord], lang: Lang) -> String {
    let mut text = String::new();
    let width = name_width(game, variant, lang).max(say!(lang, "summary.house").chars().count());
    let columns: Vec<(String, Vec<usize>)> = centres_by_year(game, variant, records)
        .into_iter()
        .map(|(year, counts)| {
            let title = year.map_or_else(|| say!(lang, "summary.start"), |y| y.to_string());
            (title, counts)
        })
        .collect();
    text.push('\n');
    text.push_str(&say!(lang, "summary.centres"));
    text.push('\n');
    let head: Vec<String> = columns
        .iter()
        .map(|(title, _)| format!("{title:>6}"))
        .collect();
    text.push_str(&format!(
        "  {:<width$}{}\n",
        say!(lang, "summary.house"),
        head.join("")
    ));
    for (i, seat) in game.seats().iter().enumerate() {
        let name = variant.house_name_in(seat.house(), lang);
        let row: Vec<String> = columns
            .iter()
            .map(|(_, counts)| format!("{:>6}", counts.get(i).copied().unwrap_or(0)))
            .collect();
        text.push_str(&format!("  {name:<width$}{}\n", row.join("")));
    }
    text.push('\n');
    text.push_str(&say!(lang, "summary.players"));
    text.push('\n');
    let shown = game.settings().show_addresses;
    for seat in game.seats() {
        let name = variant.house_name_in(seat.house(), lang);
        let mut line = format!("  {name:<width$}  {}", holder(game, seat, lang));
        if let Some(p) = seat.player().filter(|_| !seat.resigned()) {
            let since = p.joined().format("%Y-%m-%d").to_string();
            line.push_str(&say!(lang, "summary.since", since));
        }
        text.push_str(&line);
        text.push('\n');
        if !seat.bot_phases().is_empty() {
            let phases: Vec<String> = seat
                .bot_phases()
                .iter()
                .map(|p| phase_text(*p, lang))
                .collect();
            let said = say!(lang, "disorder.bot_phases", phases);
            let line = format!("  {:<width$}  {said}", "");
            text.push_str(&super::render::wrap(&line, Some(78), Some(width + 4)));
            text.push('\n');
        }
        for past in seat.past() {
            let how = match past.how {
                Leaving::Replaced => say!(lang, "summary.replaced"),
                Leaving::Removed => say!(lang, "summary.removed"),
                Leaving::Resigned => say!(lang, "summary.resigned"),
            };
            let from = past.joined.format("%Y-%m-%d").to_string();
            let to = past.left.format("%Y-%m-%d").to_string();
            let who = shown.then(|| past.address.clone());
            text.push_str(&format!(
                "  {:<width$}  {}\n",
                "",
                say!(lang, "summary.before", who, how, from, to)
            ));
        }
    }
    text
}

/// Who sent the game's grey press, from its audit trail (which keeps each message's
/// sender, never its text): one line a message, its date and its author. `None` when the
/// game sent none. Only for the mail that ends a game whose moderator reveals them.
pub fn grey_authors_text(
    game: &Game,
    variant: &Variant,
    trail: &[AuditEntry],
    lang: Lang,
) -> Option<String> {
    let zone = game.settings().schedule.time_zone;
    let lines: Vec<String> = trail
        .iter()
        .flat_map(|entry| entry.lines.iter().map(move |line| (entry.at, line)))
        .filter_map(|(at, line)| match line {
            AuditLine::Press {
                from: Some(house),
                recipients,
                grey: true,
            } => {
                let when = super::format_deadline(at, zone, lang);
                let house = variant.house_name_in(house, lang);
                let count = *recipients;
                Some(format!(
                    "  {}\n",
                    say!(lang, "summary.grey_line", when, house, count)
                ))
            }
            _ => None,
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "{}\n{}",
        say!(lang, "summary.grey_heading"),
        lines.concat()
    ))
}
