//! Moving a game to a new version of its variant (`corbeau game variant`): allowed only
//! when everything the game holds still reads with the new version, so that a moderator
//! fixing a typo in a province's name or a missing adjacency can go on, and a variant
//! that would lose a house, a unit or an order is refused with every reason.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::lang::Lang;
use crate::map::Variant;
use crate::order::parse_order;
use crate::position::read_position;
use crate::say;

use super::model::{Game, PhaseRecord};

/// One thing of the game the new version cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incompatibility {
    /// The houses of the two versions differ (ids).
    Houses {
        missing: Vec<String>,
        added: Vec<String>,
    },
    /// The current position does not read: a province, a unit, an owner is gone.
    Position { reason: String },
    /// A stored order of the current phase does not read.
    Order { house: String, text: String },
    /// A position of the history does not read (its results could not be shown).
    History { index: u32, reason: String },
}

impl Incompatibility {
    /// What the new version cannot read, in words (`incompatibility.*`).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Incompatibility::Houses { missing, added } => {
                say!(lang, "incompatibility.houses", missing, added)
            }
            Incompatibility::Position { reason } => {
                say!(lang, "incompatibility.position", reason)
            }
            Incompatibility::Order { house, text } => {
                say!(lang, "incompatibility.order", house, text)
            }
            Incompatibility::History { index, reason } => {
                say!(lang, "incompatibility.history", index, reason)
            }
        }
    }
}

/// What of `game` (and its `history`) the variant `new` cannot read, `old` being the
/// version the game plays now. Empty: the game may move to `new`.
pub fn variant_change_problems(
    game: &Game,
    old: &Variant,
    new: &Variant,
    history: &[PhaseRecord],
) -> Vec<Incompatibility> {
    let mut problems = Vec::new();
    let ids = |v: &Variant| -> BTreeSet<String> { v.houses.iter().map(|h| h.id.clone()).collect() };
    let (before, after) = (ids(old), ids(new));
    if before != after {
        problems.push(Incompatibility::Houses {
            missing: before.difference(&after).cloned().collect(),
            added: after.difference(&before).cloned().collect(),
        });
        // Nothing else can be read in terms of houses that are not there.
        return problems;
    }
    if let Err(e) = read_position(new, &game.id, &game.position) {
        problems.push(Incompatibility::Position {
            reason: e.to_string(),
        });
    }
    for seat in &game.seats {
        let source: Arc<str> = Arc::from(seat.house.as_str());
        for (i, order) in seat.orders.iter().enumerate() {
            let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if !matches!(parse_order(new, &source, line, &order.text), Ok(Some(_))) {
                problems.push(Incompatibility::Order {
                    house: seat.house.clone(),
                    text: order.text.clone(),
                });
            }
        }
    }
    for record in history {
        for text in [&record.position_before, &record.position_after] {
            if let Err(e) = read_position(new, &game.id, text) {
                problems.push(Incompatibility::History {
                    index: record.index,
                    reason: e.to_string(),
                });
                break;
            }
        }
    }
    problems
}
