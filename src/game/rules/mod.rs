//! What can happen to a game, as changes of a [`Game`] value, one file a job: creating
//! it (`create`), its seats and their players' addresses (`seats`), its play — start,
//! orders, readiness, votes, pauses, extensions — (`play`), its clock — deadlines,
//! absences, reminders, grace — (`clock`), processing, rollback and end (`process`) and
//! its observers (`observers`). Nothing here touches the store: the caller saves the
//! changed game (and the phase record) in one transaction, so a refused action (an
//! `Err`) changes nothing.

mod clock;
mod create;
mod observers;
mod play;
mod process;
mod seats;

pub use create::{NewGame, check_game_id, create};
pub use observers::{MAX_OBSERVER_REQUESTS, OBSERVER_TOKEN_LIFE};
pub use process::{Adjudicated, ResultsMaker};
pub use seats::{check_address, same_address};

use crate::map::{Owner, Variant};

use super::GameError;
use super::model::{Game, GameStatus, Seat};

/// States in which players and the moderator may still change a game.
const NOT_OVER: &[GameStatus] = &[GameStatus::Forming, GameStatus::Running, GameStatus::Paused];
/// States in which orders, votes and phases happen.
const IN_PLAY: &[GameStatus] = &[GameStatus::Running, GameStatus::Paused];

impl Game {
    /// The house id of a name, alias or close misspelling, which must play in this game.
    pub fn house_id(&self, variant: &Variant, name: &str) -> Result<String, GameError> {
        let house = match crate::position::house_named(variant, name) {
            Some(Owner::House(h)) => variant.house(h).id.clone(),
            _ => {
                return Err(GameError::UnknownHouse {
                    name: name.to_string(),
                    houses: self.seats.iter().map(|s| s.house.clone()).collect(),
                });
            }
        };
        if self.seat(&house).is_none() {
            return Err(GameError::HouseNotInGame(house));
        }
        Ok(house)
    }

    /// The seat of a house of this game, or the error saying it does not play here.
    fn seat_in(&mut self, house: &str) -> Result<&mut Seat, GameError> {
        self.seat_mut(house)
            .ok_or_else(|| GameError::HouseNotInGame(house.to_string()))
    }

    fn require(&self, action: &'static str, allowed: &[GameStatus]) -> Result<(), GameError> {
        if allowed.contains(&self.status) {
            Ok(())
        } else {
            Err(GameError::Status {
                action,
                status: self.status,
            })
        }
    }
}
