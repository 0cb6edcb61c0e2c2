//! What can happen to a game, as changes of a [`Game`] value, one file a job: creating
//! it (`create`), its seats and their players' addresses (`seats`), its play — start,
//! orders, readiness, votes, pauses, extensions — (`play`), its clock — deadlines,
//! absences, reminders, grace — (`clock`), processing, rollback and end (`process`) and
//! its observers (`observers`). Nothing here touches the store: the caller saves the
//! changed game (and the phase record) in one transaction, so a refused action (an
//! `Err`) changes nothing.

mod ahead;
mod bots;
mod clock;
mod consent;
mod create;
mod join;
mod observers;
mod play;
mod process;
mod seats;

pub(crate) use super::address::same_address;
pub use ahead::{MAX_AHEAD_BLOCKS, MAX_AHEAD_LINES, MAX_YEARS_AHEAD};
pub use consent::{
    Asked, CONSENT_TOKEN_LIFE, ConsentKey, MAX_CONSENT_ASKED, consent_token, consent_valid,
};
pub use create::{NewGame, check_game_id, create};
pub use observers::{MAX_OBSERVER_REQUESTS, OBSERVER_TOKEN_LIFE};
pub use process::Adjudicated;
pub use seats::check_address;

use crate::map::Variant;

use super::model::{Game, GameStatus, Seat};
use super::{GameError, HouseKey};

/// States in which players and the moderator may still change a game.
const NOT_OVER: &[GameStatus] = &[GameStatus::Forming, GameStatus::Running, GameStatus::Paused];
/// States in which orders, votes and phases happen.
const IN_PLAY: &[GameStatus] = &[GameStatus::Running, GameStatus::Paused];

impl Game {
    /// The house id of a name, alias or close misspelling, which must play in this game.
    /// Read at the edge (a mail, the command line), before the action that names it.
    pub fn house_id(&self, variant: &Variant, name: &str) -> Result<HouseKey, GameError> {
        let house = HouseKey::named(variant, name).ok_or_else(|| GameError::UnknownHouse {
            name: name.to_string(),
            houses: self.seats.iter().map(|s| s.house.clone()).collect(),
        })?;
        self.plays(&house)?;
        Ok(house)
    }

    /// Refuses a house that does not play in this game (an action made for another game).
    pub(in crate::game) fn plays(&self, house: &HouseKey) -> Result<(), GameError> {
        match self.seat(house) {
            Some(_) => Ok(()),
            None => Err(GameError::HouseNotInGame(house.clone())),
        }
    }

    /// The seat of a house of this game, or the error saying it does not play here.
    fn seat_in(&mut self, house: &HouseKey) -> Result<&mut Seat, GameError> {
        self.seat_mut(house)
            .ok_or_else(|| GameError::HouseNotInGame(house.clone()))
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
