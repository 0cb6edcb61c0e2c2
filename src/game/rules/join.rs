//! A stranger takes a seat by mail (issue 23): a free seat of an open game at once
//! (`JOIN`), a vacant one of an open game at once, any other house on the moderator's
//! word (`TAKEOVER`, then `APPROVE` or `REJECT`). docs/email.md, "Joining a game".

use chrono::{DateTime, Utc};

use crate::lang::Lang;
use crate::map::Variant;

use crate::game::event::Event;
use crate::game::model::{Game, GameStatus, SeatRequest};
use crate::game::{GameError, HouseKey};

use super::NOT_OVER;
use super::seats::{check_address, same_address};

/// The most requests for houses that may wait in one game: one a house at most, so a
/// game's seats bound it already; this stops nothing more than a bug.
const MAX_SEAT_REQUESTS: usize = 64;

impl Game {
    /// Refuses an address that already plays a house of the game (resigned players
    /// aside: they left) or moderates it: one address, one seat.
    fn check_newcomer(&self, address: &str) -> Result<String, GameError> {
        let address = check_address(address)?;
        let plays = self.seats.iter().any(|s| {
            !s.resigned
                && s.player
                    .as_ref()
                    .is_some_and(|p| same_address(&p.address, &address))
        });
        let moderates = self
            .moderator
            .as_ref()
            .is_some_and(|m| same_address(&m.address, &address));
        if plays || moderates {
            return Err(GameError::AlreadyInGame {
                game: self.id.clone(),
            });
        }
        Ok(address)
    }

    /// `JOIN`: `address` takes the house asked for, or the first free one in the
    /// variant's order, in an open game still forming; the game starts when it is full
    /// and the moderator asked for it (`start_when_full`).
    pub(in crate::game) fn join(
        &mut self,
        variant: &Variant,
        address: &str,
        house: Option<HouseKey>,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if !self.settings.open {
            return Err(GameError::GameClosed {
                game: self.id.clone(),
            });
        }
        self.require("join", &[GameStatus::Forming])?;
        let address = self.check_newcomer(address)?;
        let free = self.free_houses();
        let house = match house {
            Some(house) => {
                self.plays(&house)?;
                if !free.contains(&house) {
                    return Err(GameError::HousePlayed(house));
                }
                house
            }
            None => free.first().cloned().ok_or_else(|| GameError::NoFreeSeat {
                game: self.id.clone(),
            })?,
        };
        let seated =
            self.seat_player(house.clone(), address.clone(), None, Some(lang), false, now)?;
        self.seat_requests.retain(|r| r.house != house);
        self.joined(variant, vec![seated], house, address, now)
    }

    /// After a seat taken by mail: the moderator's news of it, and the start of a
    /// forming game whose last seat it was, if the moderator asked for it
    /// (`start_when_full`).
    fn joined(
        &mut self,
        variant: &Variant,
        mut events: Vec<Event>,
        house: HouseKey,
        address: String,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let left = self.free_houses().len();
        let start =
            self.status == GameStatus::Forming && left == 0 && self.settings.start_when_full;
        events.push(Event::Joined {
            house,
            address,
            left,
            started: start,
        });
        if start {
            self.start(variant, now)?;
            events.push(Event::Started {
                deadline: self.deadline,
            });
        }
        Ok(events)
    }

    /// `TAKEOVER`: a vacant seat (never taken, resigned, removed) of an open game is
    /// `address`'s at once; a house in civil disorder, or any house of a closed game,
    /// waits for the moderator's word. A played house of an open game is refused: its
    /// player is there.
    pub(in crate::game) fn take_over(
        &mut self,
        variant: &Variant,
        address: &str,
        house: HouseKey,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        self.require("take over a house", NOT_OVER)?;
        self.plays(&house)?;
        let address = self.check_newcomer(address)?;
        let seat = self
            .seat(&house)
            .ok_or_else(|| GameError::HouseNotInGame(house.clone()))?;
        let vacant = seat.player.is_none() || seat.resigned;
        let disorder = seat.civil_disorder;
        if self.settings.open && vacant {
            let events = self.give_seat(&house, address.clone(), lang, now)?;
            return self.joined(variant, events, house, address, now);
        }
        if self.settings.open && !disorder {
            return Err(GameError::HousePlayed(house));
        }
        if self.seat_requests.iter().any(|r| r.house == house) {
            return Err(GameError::AlreadyAsked(house));
        }
        if self.seat_requests.len() >= MAX_SEAT_REQUESTS {
            return Err(GameError::AlreadyAsked(house));
        }
        self.seat_requests.push(SeatRequest {
            house: house.clone(),
            address: address.clone(),
            lang,
            asked: now,
        });
        Ok(vec![Event::SeatAsked { house, address }])
    }

    /// `APPROVE house`: the address that asked for it takes it.
    pub(in crate::game) fn approve(
        &mut self,
        house: &HouseKey,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        self.require("take over a house", NOT_OVER)?;
        self.plays(house)?;
        let at = self
            .seat_requests
            .iter()
            .position(|r| r.house == *house)
            .ok_or_else(|| GameError::NoSeatRequest(house.clone()))?;
        let request = self.seat_requests.remove(at);
        // The address may have taken another seat since it asked.
        let address = self.check_newcomer(&request.address)?;
        self.give_seat(house, address, request.lang, now)
    }

    /// `REJECT house`: the request is dropped, and its address told.
    pub(in crate::game) fn reject(&mut self, house: &HouseKey) -> Result<Event, GameError> {
        self.plays(house)?;
        let at = self
            .seat_requests
            .iter()
            .position(|r| r.house == *house)
            .ok_or_else(|| GameError::NoSeatRequest(house.clone()))?;
        let request = self.seat_requests.remove(at);
        Ok(Event::SeatRefused {
            house: request.house,
            address: request.address,
            lang: request.lang,
        })
    }

    /// Gives `house` to `address`: a new secret, its player (if any, resigned or not)
    /// told that the house is someone else's now.
    fn give_seat(
        &mut self,
        house: &HouseKey,
        address: String,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let outgoing = self
            .seat(house)
            .and_then(|s| s.player.as_ref())
            .map(|p| (p.address.clone(), p.lang));
        let replace = outgoing.is_some();
        let seated = self.seat_player(house.clone(), address, None, Some(lang), replace, now)?;
        self.seat_requests.retain(|r| r.house != *house);
        let mut events = Vec::new();
        if let Some((address, lang)) = outgoing {
            events.push(Event::SeatLost {
                house: house.clone(),
                address,
                lang,
                removed: false,
            });
        }
        events.push(seated);
        Ok(events)
    }
}
