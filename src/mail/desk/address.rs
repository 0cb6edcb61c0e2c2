//! `ADRESSE`/`ADDRESS`: a player moves their house's mail to another address, in two
//! steps. The request mails a code to the new address; the change is made when the
//! player, signed on, sends the address again with that code. The answer to a request is
//! the same whoever the address belongs to — a stranger, another player, the moderator —
//! so that no player can learn by it who plays a game whose addresses are hidden: the
//! code only goes where nobody of the game reads, and an address of the game is refused
//! when the code comes back (which no code mailed can make happen). Only the judge's own
//! addresses, which everyone knows, are refused at once.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::game::{Action, Event, Game, GameError, HouseKey, same_address};
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::super::refusal::Refusal;
use super::Desk;
use super::section::ReplySection;

/// Days a code stays good: the day it was sent and the next (UTC), so between one and
/// two days.
const CODE_DAYS: i64 = 2;

/// Letters and digits that cannot be mistaken for one another when copied from a mail.
const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const CODE_LEN: usize = 10;

impl Desk<'_> {
    pub(super) fn change_address(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
        address: &str,
        code: Option<&str>,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let address = match crate::game::check_address(address) {
            Ok(address) => address,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return Ok(());
            }
        };
        // The judge's own address would make it write to itself; everyone knows it, so
        // refusing it at once tells nothing.
        if self.config.judge.is_own(&address) {
            self.refuse(located, Refusal::AddressUnavailable(address.into()));
            return Ok(());
        }
        let current = session
            .game()
            .seat(house.as_str())
            .and_then(|s| s.player())
            .map(|p| p.address().to_string());
        let same = current
            .as_deref()
            .is_some_and(|c| same_address(c, &address));
        match code {
            _ if same => self.move_address(session, located, house, address),
            None => self.send_code(session, located, &house, &address)?,
            Some(code) => {
                let good = address_code_matches(session.game(), &house, &address, code, self.now);
                if good {
                    self.move_address(session, located, house, address);
                } else {
                    let message = crate::say!(self.lang, "address_code.wrong", address);
                    self.error(located, message);
                }
            }
        }
        Ok(())
    }

    /// The first step: the code mailed to `address`, unless someone of the game has it;
    /// the same answer either way.
    fn send_code(
        &mut self,
        session: &mut Session<'_>,
        located: &Located,
        house: &HouseKey,
        address: &str,
    ) -> Result<(), ServiceError> {
        // One code a mail: a sender with a secret cannot make the judge write to a list
        // of strangers.
        if self.answer.address_code_sent {
            let message = crate::say!(self.lang, "address_code.one_a_mail");
            self.error(located, message);
            return Ok(());
        }
        self.answer.address_code_sent = true;
        let g = session.game();
        if in_the_game(g, house, address) {
            // The moderator reads the audit trail; the player hears nothing of it.
            session.note(Event::AddressRefused {
                house: house.clone(),
                address: address.into(),
            });
        } else if let Some(code) = address_code(g, house, address, self.now) {
            let message = crate::say!(
                self.lang,
                "address_code.mail",
                game = g.id(),
                house = session.variant().house_name_in(house, self.lang),
                address,
                code
            );
            let data = json!({
                "game": { "id": g.id(), "name": g.name() },
                "subject": super::reply::quoted_subject(&self.mail.subject, Some(g)),
                "sections": [{ "line": 0, "text": "", "kind": "note", "message": message }],
                "orders": null,
                "judge": self.config.judge.address,
                "owner_copy": null,
            });
            let mail = self.compose("reply.txt", "reply", data, address, self.lang)?;
            self.effects.mails.push(mail.about(g.id()).seal());
        }
        let message = crate::say!(self.lang, "address_code.sent", address);
        self.section(located.line, &located.text, ReplySection::Note { message });
        Ok(())
    }

    /// The second step: the house's mail goes to `address` from now on, if the game takes
    /// it.
    fn move_address(
        &mut self,
        session: &mut Session<'_>,
        located: &Located,
        house: HouseKey,
        address: crate::game::Address,
    ) {
        let action = Action::Address {
            house: house.clone(),
            address,
        };
        match session.execute(&self.actor(), action, self.arrival) {
            Ok(events) => {
                for event in events {
                    let Event::AddressChanged { old, new, .. } = event else {
                        continue;
                    };
                    // The old address hears of the change too: a forger with the secret
                    // cannot take a house away unnoticed.
                    if old != self.mail.from {
                        self.gate.owner = Some(old.into());
                    }
                    let section = ReplySection::Address {
                        address: new.into(),
                    };
                    self.section(located.line, &located.text, section);
                }
            }
            Err(GameError::AddressUnavailable(address)) => {
                session.note(Event::AddressRefused {
                    house,
                    address: address.clone(),
                });
                self.refuse(located, Refusal::AddressUnavailable(address.into()));
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
        }
    }
}

/// Whether `address` is another player's of the game, or its moderator's: no code goes
/// there (the game would refuse it anyway).
fn in_the_game(game: &Game, house: &HouseKey, address: &str) -> bool {
    let player = game
        .seats()
        .iter()
        .filter(|s| s.house() != house)
        .filter_map(|s| s.player())
        .any(|p| same_address(p.address(), address));
    let moderator = game
        .moderator()
        .is_some_and(|m| same_address(&m.address, address));
    player || moderator
}

/// The code for moving `house`'s mail to `address` on the day of `at`: a hash of them
/// and of the hash kept of the house's secret, which no player can compute (it holds a
/// salt the store alone knows) and which a new secret voids. Nothing is stored.
fn address_code(game: &Game, house: &HouseKey, address: &str, at: DateTime<Utc>) -> Option<String> {
    use blake2::{Blake2s256, Digest};
    let stored = game.seat(house.as_str())?.player()?.secret();
    // The hash itself, without the sieve that may be added beside it meanwhile.
    let kept = stored.split('~').next().unwrap_or(stored);
    let day = at.timestamp().div_euclid(86_400);
    let mut hash = Blake2s256::new();
    for part in [
        "corbeau address code",
        kept,
        game.id(),
        house.as_str(),
        &address.to_lowercase(),
        &day.to_string(),
    ] {
        hash.update(part.as_bytes());
        hash.update([0u8]);
    }
    let digest = hash.finalize();
    Some(
        digest
            .iter()
            .take(CODE_LEN)
            .map(|b| char::from(CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()]))
            .collect(),
    )
}

/// Whether `code` is the one mailed for `address` today or in the days it stays good.
fn address_code_matches(
    game: &Game,
    house: &HouseKey,
    address: &str,
    code: &str,
    now: DateTime<Utc>,
) -> bool {
    let code = code.trim().to_lowercase();
    (0..CODE_DAYS).any(|back| {
        let at = now - chrono::TimeDelta::days(back);
        address_code(game, house, address, at).is_some_and(|c| c == code)
    })
}
