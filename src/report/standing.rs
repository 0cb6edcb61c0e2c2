//! Players' records across the judge's games, in words: one line for a record, and the
//! block `WHOGAME` adds under the seats (never an address).

use crate::game::{Game, PlayerRecord};
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

/// A record in one line: the reliability first, then what it is made of.
pub fn record_text(record: &PlayerRecord, lang: Lang) -> String {
    say!(
        lang,
        "record.line",
        reliability = record.reliability(),
        new = record.is_new(),
        due = record.due,
        ordered = record.ordered,
        resigned = record.resigned,
        disorders = record.disorders,
        finished = record.finished
    )
}

/// `WHOGAME`'s records block: each seat's record, its player's (`records` holds one per
/// seat, in the game's order: none for a seat no one plays).
pub fn records_block(
    game: &Game,
    variant: &Variant,
    records: &[Option<PlayerRecord>],
    lang: Lang,
) -> String {
    let names: Vec<String> = game
        .seats()
        .iter()
        .map(|s| variant.house_name_in(s.house(), lang))
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut text = say!(lang, "record.whogame_heading");
    text.push('\n');
    for (name, record) in names.iter().zip(records) {
        let said = match record {
            Some(record) => record_text(record, lang),
            None => say!(lang, "record.no_player"),
        };
        // Wrapped past the names' column, so that the names stay a column of their own.
        let column = width + 4;
        let said = super::render::wrap(&said, Some(78usize.saturating_sub(column).max(30)), None);
        for (i, line) in said.lines().enumerate() {
            match i {
                0 => text.push_str(&format!("  {name:<width$}  {line}\n")),
                _ => text.push_str(&format!("{:column$}{line}\n", "")),
            }
        }
    }
    text
}
