//! A stranger takes a seat by mail, once its address confirmed the request
//! (`rules::consent`): a free seat of an open game (`JOIN`), a vacant one of an open
//! game, any other house on the moderator's word (`TAKEOVER`, then `APPROVE` or
//! `REJECT`). docs/email.md, "Joining a game".

use chrono::{DateTime, Utc};

use crate::lang::Lang;
use crate::map::Variant;

use crate::game::event::Event;
use crate::game::model::{Game, GameStatus, Leaving, SeatRequest};
use crate::game::{GameError, HouseKey};

use super::NOT_OVER;
use super::same_address;
use super::seats::check_address;
use crate::game::Address;

/// The most requests for houses that may wait in one game. Only confirmed requests wait
/// (each one an address that reads its mail), one per address and house: a forger can
/// only fill it with addresses of its own, and the moderator may `REJECT` them all.
pub(super) const MAX_SEAT_REQUESTS: usize = 100;

impl Game {
    /// Whether the moderator removed `address` from a seat of this game.
    pub fn ejected(&self, address: &str) -> bool {
        self.seats.iter().any(|s| {
            s.past
                .iter()
                .any(|p| p.how == Leaving::Removed && same_address(&p.address, address))
        })
    }

    /// Refuses to a stranger's own request an address the moderator removed: only the
    /// moderator seats it again.
    fn check_stranger(&self, address: &str) -> Result<Address, GameError> {
        let address = self.check_newcomer(address)?;
        if self.ejected(&address) {
            return Err(GameError::Ejected {
                game: self.id.clone(),
            });
        }
        Ok(address)
    }

    /// Refuses an address that already plays a house of the game (resigned players
    /// aside: they left) or moderates it: one address, one seat.
    fn check_newcomer(&self, address: &str) -> Result<Address, GameError> {
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

    /// The house a `JOIN` from `address` would take now, or why it may not: what the
    /// mail desk asks before it mails a token, and again when it comes back.
    pub fn may_join(
        &self,
        address: &str,
        house: Option<&HouseKey>,
    ) -> Result<(Address, HouseKey), GameError> {
        if !self.settings.open {
            return Err(GameError::GameClosed {
                game: self.id.clone(),
            });
        }
        self.require("join", &[GameStatus::Forming])?;
        let address = self.check_stranger(address)?;
        let free = self.free_houses();
        let house = match house {
            Some(house) => {
                self.plays(house)?;
                if !free.contains(house) {
                    return Err(GameError::HousePlayed(house.clone()));
                }
                house.clone()
            }
            None => free.first().cloned().ok_or_else(|| GameError::NoFreeSeat {
                game: self.id.clone(),
            })?,
        };
        Ok((address, house))
    }

    /// `JOIN`, confirmed: `address` takes the house asked for, or the first free one in
    /// the variant's order, in an open game still forming; the game starts when it is
    /// full and the moderator asked for it (`start_when_full`). Nothing is held for a
    /// request waiting for its confirmation: the first confirmed takes the seat.
    pub(in crate::game) fn join(
        &mut self,
        variant: &Variant,
        address: &str,
        house: Option<HouseKey>,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let (address, house) = self.may_join(address, house.as_ref())?;
        let seated =
            self.seat_player(house.clone(), address.clone(), None, Some(lang), false, now)?;
        self.seat_requests.retain(|r| r.house != house);
        self.forget_consent(&address);
        self.joined(variant, vec![seated], house, address, now)
    }

    /// A seat taken: the memory of the token mailed to its address goes.
    fn forget_consent(&mut self, address: &str) {
        self.consent_asked
            .retain(|a| !same_address(&a.address, address));
    }

    /// After a seat taken by mail: the moderator's news of it, and the start of a
    /// forming game whose last seat it was, if the moderator asked for it
    /// (`start_when_full`).
    fn joined(
        &mut self,
        variant: &Variant,
        mut events: Vec<Event>,
        house: HouseKey,
        address: Address,
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

    /// Whether a `TAKEOVER` of `house` from `address` would be looked at: what the mail
    /// desk asks before it mails a token, and again when it comes back.
    pub fn may_take_over(&self, address: &str, house: &HouseKey) -> Result<Address, GameError> {
        self.require("take over a house", NOT_OVER)?;
        self.plays(house)?;
        let address = self.check_stranger(address)?;
        let seat = self
            .seat(house)
            .ok_or_else(|| GameError::HouseNotInGame(house.clone()))?;
        let vacant = seat.player.is_none() || seat.resigned;
        if self.settings.open && !vacant && !seat.civil_disorder {
            return Err(GameError::HousePlayed(house.clone()));
        }
        Ok(address)
    }

    /// `TAKEOVER`, confirmed: a vacant seat (never taken, resigned, removed) of an open
    /// game is `address`'s at once; a house in civil disorder, or any house of a closed
    /// game, waits for the moderator's word, among every other confirmed request (one
    /// per address and house). A played house of an open game is refused: its player is
    /// there.
    pub(in crate::game) fn take_over(
        &mut self,
        variant: &Variant,
        address: &str,
        house: HouseKey,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let address = self.may_take_over(address, &house)?;
        let vacant = self
            .seat(&house)
            .is_some_and(|s| s.player.is_none() || s.resigned);
        self.forget_consent(&address);
        if self.settings.open && vacant {
            let events = self.give_seat(&house, address.clone(), lang, now)?;
            return self.joined(variant, events, house, address, now);
        }
        if self
            .seat_requests
            .iter()
            .any(|r| r.house == house && same_address(&r.address, &address))
        {
            return Err(GameError::AlreadyAsked(house));
        }
        if self.seat_requests.len() >= MAX_SEAT_REQUESTS {
            return Err(GameError::TooManySeatRequests);
        }
        self.seat_requests.push(SeatRequest {
            house: house.clone(),
            address: address.clone(),
            lang,
            asked: now,
        });
        Ok(vec![Event::SeatAsked { house, address }])
    }

    /// The requests for `house` the moderator's answer names: the one of `address`, or
    /// without an address the one request there is (several: the answer must name one).
    fn requests_named(
        &self,
        house: &HouseKey,
        address: Option<&str>,
        all: bool,
    ) -> Result<Vec<usize>, GameError> {
        let asking: Vec<usize> = self
            .seat_requests
            .iter()
            .enumerate()
            .filter(|(_, r)| r.house == *house)
            .filter(|(_, r)| address.is_none_or(|a| same_address(&r.address, a)))
            .map(|(i, _)| i)
            .collect();
        if asking.is_empty() {
            return Err(GameError::NoSeatRequest(house.clone()));
        }
        if asking.len() > 1 && !all {
            return Err(GameError::WhichRequest {
                house: house.clone(),
                addresses: asking
                    .iter()
                    .filter_map(|&i| self.seat_requests.get(i))
                    .map(|r| r.address.clone())
                    .collect(),
            });
        }
        Ok(asking)
    }

    /// `APPROVE house [address]`: the address that asked for it takes it; the other
    /// requests for the house are refused, and told.
    pub(in crate::game) fn approve(
        &mut self,
        house: &HouseKey,
        address: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        self.require("take over a house", NOT_OVER)?;
        self.plays(house)?;
        let at = self.requests_named(house, address, false)?;
        let Some(request) = at.first().and_then(|&i| self.seat_requests.get(i)).cloned() else {
            return Err(GameError::NoSeatRequest(house.clone()));
        };
        // The address may have taken another seat since it asked.
        let address = self.check_newcomer(&request.address)?;
        let others: Vec<SeatRequest> = self
            .seat_requests
            .iter()
            .filter(|r| r.house == *house && !same_address(&r.address, &address))
            .cloned()
            .collect();
        let mut events = self.give_seat(house, address, request.lang, now)?;
        events.extend(others.into_iter().map(|r| Event::SeatRefused {
            house: r.house,
            address: r.address,
            lang: r.lang,
        }));
        Ok(events)
    }

    /// `REJECT house [address]`: the request of the address, or every request for the
    /// house, dropped, and each address told.
    pub(in crate::game) fn reject(
        &mut self,
        house: &HouseKey,
        address: Option<&str>,
    ) -> Result<Vec<Event>, GameError> {
        self.plays(house)?;
        let at = self.requests_named(house, address, true)?;
        let mut events = Vec::new();
        for i in at.into_iter().rev() {
            if i < self.seat_requests.len() {
                let request = self.seat_requests.remove(i);
                events.push(Event::SeatRefused {
                    house: request.house,
                    address: request.address,
                    lang: request.lang,
                });
            }
        }
        events.reverse();
        Ok(events)
    }

    /// Gives `house` to `address`: a new secret, its player (if any, resigned or not)
    /// told that the house is someone else's now.
    fn give_seat(
        &mut self,
        house: &HouseKey,
        address: Address,
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
