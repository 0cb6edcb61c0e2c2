//! Moving a game to a new version of its variant (`corbeau game variant`): allowed only
//! when everything the game holds still reads with the new version, so that a moderator
//! fixing a typo in a province's name or a missing adjacency can go on, and a variant
//! that would lose a house, a unit or an order is refused with every reason.

use std::collections::BTreeSet;
use std::rc::Rc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::map::{Variant, scope};
use crate::position::{read_position, write_position};

use super::HouseKey;
use super::model::{Game, PhaseRecord, StoredOrder};

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
    Order { house: HouseKey, text: String },
    /// A position of the history does not read (its results could not be shown).
    History { number: u32, reason: String },
}

/// `game` moved to the variant `new`, `old` being the version it plays now: every typed
/// value it holds (and its `history` holds) written with `old`'s ids and read back with
/// `new`'s, as the store will read them. Refused with everything `new` cannot read.
pub fn move_to_variant(
    game: &Game,
    old: &Rc<Variant>,
    new: &Rc<Variant>,
    pin: crate::map::PinnedVariant,
    history: &[PhaseRecord],
) -> Result<Game, Vec<Incompatibility>> {
    let mut problems = Vec::new();
    let ids = |v: &Variant| -> BTreeSet<String> { v.houses.iter().map(|h| h.id.clone()).collect() };
    let (before, after) = (ids(old), ids(new));
    if before != after {
        problems.push(Incompatibility::Houses {
            missing: before.difference(&after).cloned().collect(),
            added: after.difference(&before).cloned().collect(),
        });
        // Nothing else can be read in terms of houses that are not there.
        return Err(problems);
    }
    if let Err(e) = read_position(new, &game.id, &write_position(old, &game.position)) {
        problems.push(Incompatibility::Position {
            reason: e.to_string(),
        });
    }
    for seat in &game.seats {
        for order in &seat.orders {
            if carried::<StoredOrder>(order, old, new).is_err() {
                problems.push(Incompatibility::Order {
                    house: seat.house.clone(),
                    text: order.order.text.clone(),
                });
            }
        }
    }
    for record in history {
        if let Err(reason) = carried(record, old, new) {
            problems.push(Incompatibility::History {
                number: record.number(),
                reason,
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut moved =
        carried(game, old, new).map_err(|reason| vec![Incompatibility::Position { reason }])?;
    // What the store will write of the game under `new` must read back under `new`: a
    // game that does not is lost to every later command, this one's undoing included.
    carried(&moved, new, new).map_err(|reason| vec![Incompatibility::Position { reason }])?;
    moved.variant = pin;
    Ok(moved)
}

/// A value written as the store writes it with `old`, read back with `new`.
fn carried<T: Serialize + DeserializeOwned>(
    value: &T,
    old: &Rc<Variant>,
    new: &Rc<Variant>,
) -> Result<T, String> {
    let written = scope::within(old, || serde_json::to_value(value)).map_err(|e| e.to_string())?;
    scope::within(new, || serde_json::from_value(written)).map_err(|e| e.to_string())
}
