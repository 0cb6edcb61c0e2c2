//! Who plays: seating, replacing and removing players, resigning, their addresses (a
//! change, a bounce) and their languages, and a seat's sign-on.

use chrono::{DateTime, Utc};

use crate::lang::Lang;
use crate::map::Variant;

use crate::game::GameError;
use crate::game::event::{Event, Revealed};
use crate::game::model::{Bounced, Game, Leaving, PastPlayer, Player};
use crate::game::secret::{hash_secret, new_secret, secret_matches};

use super::NOT_OVER;
use crate::game::{Address, HouseKey, same_address};

/// A valid-looking email address, once [`Address::new`] set aside a display name, the
/// spaces around and case: one `@`, something on each side, no spaces.
pub fn check_address(written: &str) -> Result<Address, GameError> {
    let checked = Address::new(written);
    let address = checked.as_str();
    let ok = match address.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !address
                    .chars()
                    .any(|c| c.is_whitespace() || c == '<' || c == '>')
        }
        None => false,
    };
    if ok {
        Ok(checked)
    } else {
        Err(GameError::BadAddress(written.trim().to_string()))
    }
}

impl Game {
    /// `address` made canonical, if it is a mail address no other house's player has.
    pub fn free_address(&self, house: &HouseKey, address: &str) -> Result<Address, GameError> {
        let address = check_address(address)?;
        let taken = self
            .seats
            .iter()
            .find(|s| s.house != *house && s.player.as_ref().is_some_and(|p| p.address == address));
        match taken {
            Some(other) => Err(GameError::AddressTaken {
                address,
                house: other.house.clone(),
            }),
            None => Ok(address),
        }
    }

    /// Seats a player; before or during the game (a seat left empty or resigned).
    pub fn add_player(
        &mut self,
        house: &HouseKey,
        address: &str,
        secret_hash: String,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("add a player", NOT_OVER)?;
        let address = self.free_address(house, address)?;
        let seat = self.seat_in(house)?;
        if let Some(p) = &seat.player
            && !seat.resigned
        {
            return Err(GameError::SeatTaken {
                house: house.clone(),
                address: p.address.clone(),
            });
        }
        if let Some(gone) = seat.player.take() {
            seat.past.push(PastPlayer {
                address: gone.address,
                joined: gone.joined,
                left: now,
                how: Leaving::Resigned,
            });
        }
        seat.player = Some(Player {
            address,
            secret: secret_hash,
            lang,
            joined: now,
            bounced: None,
            no_pictures: false,
            zone: None,
        });
        seat.resigned = false;
        seat.set_disorder(None);
        seat.missed = 0;
        Ok(())
    }

    /// Gives a house to a new player: the orders already given stay, civil disorder ends.
    pub fn replace_player(
        &mut self,
        house: &HouseKey,
        address: &str,
        secret_hash: String,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("replace a player", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        let Some(gone) = seat.player.take() else {
            return Err(GameError::NoPlayer(house.clone()));
        };
        // A resigned player is no one replaced: the seat was already given up.
        let how = if seat.resigned {
            Leaving::Resigned
        } else {
            Leaving::Replaced
        };
        seat.past.push(PastPlayer {
            address: gone.address,
            joined: gone.joined,
            left: now,
            how,
        });
        self.add_player(house, address, secret_hash, lang, now)
    }

    /// Leaves a house without a player (its units hold until someone takes it).
    pub fn remove_player(
        &mut self,
        house: &HouseKey,
        now: DateTime<Utc>,
    ) -> Result<Player, GameError> {
        self.require("remove a player", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        let player = seat
            .player
            .take()
            .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
        seat.ready = false;
        seat.vote = None;
        seat.past.push(PastPlayer {
            address: player.address.clone(),
            joined: player.joined,
            left: now,
            how: Leaving::Removed,
        });
        Ok(player)
    }

    /// A player leaves the game: the house falls into civil disorder (its units hold, or
    /// are disbanded as the rules say) until the moderator seats someone else.
    pub fn resign(&mut self, house: &HouseKey, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("resign", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        if seat.player.is_none() || seat.resigned {
            return Err(GameError::NoPlayer(house.clone()));
        }
        let phase = self.phase;
        let seat = self.seat_in(house)?;
        seat.resigned = true;
        seat.set_disorder(Some(phase));
        seat.ready = false;
        seat.vote = None;
        self.update_wake(now);
        Ok(())
    }

    /// Seats a player in `house` (or, `replace`, gives the house to a new one) with the
    /// secret given or a new one, in the language given or the game's.
    pub(in crate::game) fn seat_player(
        &mut self,
        house: HouseKey,
        address: Address,
        secret: Option<String>,
        lang: Option<Lang>,
        replace: bool,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let secret = match secret {
            Some(secret) => secret,
            None => new_secret()?,
        };
        let hash = hash_secret(&secret)?;
        // A player seated without a language speaks the game's.
        let lang = lang.unwrap_or(self.settings.lang);
        if replace {
            self.replace_player(&house, &address, hash, lang, now)?;
        } else {
            self.add_player(&house, &address, hash, lang, now)?;
        }
        let address = self
            .seat(&house)
            .and_then(|s| s.player.as_ref())
            .map_or(address, |p| p.address.clone());
        Ok(Event::Seated {
            house,
            address,
            lang,
            replaced: replace,
            secret: Revealed(secret),
        })
    }

    /// The language of a house's player, or (no house) the moderator's and the game's.
    pub(in crate::game) fn change_language(
        &mut self,
        variant: &Variant,
        house: Option<HouseKey>,
        lang: Lang,
    ) -> Result<Event, GameError> {
        match &house {
            None => self.settings.lang = lang,
            Some(house) => {
                let house = self.house_id(variant, house)?;
                let player = self
                    .seat_mut(&house)
                    .and_then(|s| s.player.as_mut())
                    .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
                player.lang = lang;
            }
        }
        let house = house.map(|h| self.house_id(variant, &h)).transpose()?;
        Ok(Event::LanguageChanged { house, lang })
    }

    /// The time zone a house's player reads deadlines in (none: the game's again).
    pub(in crate::game) fn change_zone(
        &mut self,
        variant: &Variant,
        house: &HouseKey,
        zone: Option<chrono_tz::Tz>,
    ) -> Result<Event, GameError> {
        let house = self.house_id(variant, house)?;
        let player = self
            .seat_mut(&house)
            .and_then(|s| s.player.as_mut())
            .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
        player.zone = zone;
        Ok(Event::ZoneChanged { house, zone })
    }

    /// The pictures of the game's mails (no house: for everyone, the moderator's switch),
    /// or of one house's player's own mails.
    pub(in crate::game) fn change_pictures(
        &mut self,
        variant: &Variant,
        house: Option<HouseKey>,
        on: bool,
    ) -> Result<Event, GameError> {
        let house = house.map(|h| self.house_id(variant, &h)).transpose()?;
        match &house {
            None => self.settings.pictures = on,
            Some(house) => {
                let player = self
                    .seat_mut(house)
                    .and_then(|s| s.player.as_mut())
                    .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
                player.no_pictures = !on;
            }
        }
        Ok(Event::Pictures { house, on })
    }

    /// A player's new address: one no other player or the moderator has.
    pub(in crate::game) fn change_address(
        &mut self,
        variant: &Variant,
        house: &HouseKey,
        address: &str,
    ) -> Result<Event, GameError> {
        let house = self.house_id(variant, house)?;
        let address = match self.free_address(&house, address) {
            // Another player's address would merge two houses' mail; the moderator's
            // would take the moderator's mail and name. Which of them is not said: the
            // reply must not tell who plays what.
            Ok(a)
                if self
                    .moderator
                    .as_ref()
                    .is_some_and(|m| same_address(&m.address, &a)) =>
            {
                return Err(GameError::AddressUnavailable(a));
            }
            Err(GameError::AddressTaken { address, .. }) => {
                return Err(GameError::AddressUnavailable(address));
            }
            other => other?,
        };
        let player = self
            .seat_mut(&house)
            .and_then(|s| s.player.as_mut())
            .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
        // A new address starts without the old one's delivery failures.
        if player.address != address {
            player.bounced = None;
        }
        let old = std::mem::replace(&mut player.address, address.clone());
        Ok(Event::AddressChanged {
            house,
            old,
            new: address,
        })
    }

    /// Mail to `addresses` came back: their players not flagged yet are.
    pub(in crate::game) fn mail_bounced(
        &mut self,
        addresses: &[Address],
        reason: &str,
        now: DateTime<Utc>,
    ) -> Vec<Event> {
        let flagged = self.flag_bounced(addresses, reason, now);
        flagged
            .into_iter()
            .map(|(house, address)| Event::Bounced {
                house,
                address,
                reason: reason.to_string(),
            })
            .collect()
    }

    /// The mail system refused for good a mail to `address`: its player is flagged.
    pub(in crate::game) fn mail_undeliverable(
        &mut self,
        address: &str,
        reason: String,
        now: DateTime<Utc>,
    ) -> Event {
        let address = Address::new(address);
        let flagged = self.flag_bounced(std::slice::from_ref(&address), &reason, now);
        let house = self
            .seats
            .iter()
            .find(|s| s.player.as_ref().is_some_and(|p| p.address == address))
            .map(|s| s.house.clone());
        // A mail to the moderator's own address tells nobody (the notice would
        // fail the same way); a player already flagged is not told about again.
        let to_moderator = self
            .moderator
            .as_ref()
            .is_some_and(|m| m.address == address);
        let told = !to_moderator && (house.is_none() || !flagged.is_empty());
        Event::Undeliverable {
            house,
            address,
            reason,
            told,
        }
    }

    /// Flags every player at one of `addresses` not flagged yet; returns their house and
    /// address.
    fn flag_bounced(
        &mut self,
        addresses: &[Address],
        reason: &str,
        now: DateTime<Utc>,
    ) -> Vec<(HouseKey, Address)> {
        let mut flagged = Vec::new();
        for seat in &mut self.seats {
            if let Some(p) = &mut seat.player
                && addresses.contains(&p.address)
                && p.bounced.is_none()
            {
                p.bounced = Some(Bounced {
                    at: now,
                    reason: reason.to_string(),
                });
                flagged.push((seat.house.clone(), p.address.clone()));
            }
        }
        flagged
    }

    /// Checks a sign-on's secret for a seat (a house's player; `None`: the moderator):
    /// a hash kept from before the sieve takes it at the owner's right sign-on.
    pub fn signs_on(&mut self, house: Option<&HouseKey>, secret: &str) -> bool {
        let stored = match house {
            Some(house) => self
                .seat(house)
                .filter(|s| !s.resigned)
                .and_then(|s| s.player.as_ref())
                .map(|p| p.secret.clone()),
            None => self.moderator.as_ref().map(|m| m.secret.clone()),
        };
        let right = stored.is_some_and(|stored| secret_matches(secret, &stored));
        if right {
            self.sieve_secret(house, secret);
        }
        right
    }
}
