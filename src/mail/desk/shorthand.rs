//! njudge's shorthand for who writes: `SIGNON Fgame secret` (France in `game`), `SIGNON
//! Mgame secret` (its moderator) and `SIGNON game F secret`, read against the games of
//! this judge before the mail's game is chosen, since the game id itself is only known
//! once the letter is taken off. A form is read so only where it cannot be mistaken: the
//! word as written names no game here, and the letter is one of the game's variant.

use std::collections::HashMap;

use crate::map::Variant;
use crate::service::{Service, ServiceError};
use std::rc::Rc;

use super::super::command::{Command, CommandError, Keyword, Located};
use super::fold_id;

/// How many game ids one mail's shorthand may look up: a mail has one sign-on that
/// counts, so a few cover every honest mail and a mail of hundreds costs no more.
const MAX_LOOKUPS: usize = 4;

/// What a sign-on's words turn out to mean once the games are known.
enum Reading {
    House { game: String, house: String },
    Moderator { game: String },
}

/// Rewrites the sign-ons written in njudge's shorthand into the plain ones, in place.
pub(crate) fn read_sign_ons(
    service: &Service,
    commands: &mut [Located],
) -> Result<(), ServiceError> {
    let mut games = Games {
        service,
        known: HashMap::new(),
    };
    for located in commands.iter_mut() {
        let rewritten = match &located.command {
            // `SIGNON Fgame secret`: two words, which the parser refuses as a sign-on
            // without its house.
            Err(CommandError::Arguments {
                keyword: Keyword::SignOn,
                found,
                ..
            }) => {
                let words: Vec<&str> = found.split_whitespace().collect();
                match words[..] {
                    [word, secret, ..] => games
                        .prefixed(word)?
                        .map(|reading| (reading, secret.to_string())),
                    _ => None,
                }
            }
            Ok(Command::SignOn {
                game,
                house,
                secret,
            }) => {
                if games.exists(game)? {
                    // `SIGNON game F secret`: the house as one letter.
                    games
                        .letter_house(game, house)?
                        .map(|reading| (reading, secret.clone()))
                } else {
                    // `SIGNON Fgame secret merci`: the word after the game is the secret.
                    let secret = house
                        .split_whitespace()
                        .next()
                        .unwrap_or(secret)
                        .to_string();
                    games.prefixed(game)?.map(|reading| (reading, secret))
                }
            }
            _ => None,
        };
        if let Some((reading, secret)) = rewritten {
            located.command = Ok(match reading {
                Reading::House { game, house } => Command::SignOn {
                    game,
                    house,
                    secret,
                },
                Reading::Moderator { game } => Command::Moderator { game, secret },
            });
        }
    }
    Ok(())
}

/// The games looked up so far, by folded id: their variant, or none.
struct Games<'s> {
    service: &'s Service,
    known: HashMap<String, Option<Rc<Variant>>>,
}

impl Games<'_> {
    fn variant(&mut self, id: &str) -> Result<Option<Rc<Variant>>, ServiceError> {
        let id = fold_id(id);
        if let Some(known) = self.known.get(&id) {
            return Ok(known.clone());
        }
        if self.known.len() >= MAX_LOOKUPS {
            return Ok(None);
        }
        let variant = match self.service.find_game(&id)? {
            Some(game) => Some(self.service.variant(game.variant())?),
            None => None,
        };
        self.known.insert(id, variant.clone());
        Ok(variant)
    }

    /// Whether the game is stored: a key looked up, the game not read, so that a plain
    /// sign-on costs nothing more than before.
    fn exists(&mut self, id: &str) -> Result<bool, ServiceError> {
        let id = fold_id(id);
        if let Some(known) = self.known.get(&id) {
            return Ok(known.is_some());
        }
        self.service.has_game(&id)
    }

    /// `Fgame`: the game `game` and its house `F`, when `fgame` is no game here.
    fn prefixed(&mut self, word: &str) -> Result<Option<Reading>, ServiceError> {
        let mut chars = word.chars();
        let (Some(letter), rest) = (chars.next(), chars.as_str()) else {
            return Ok(None);
        };
        if !letter.is_ascii_alphabetic() || rest.is_empty() || self.exists(word)? {
            return Ok(None);
        }
        let Some(variant) = self.variant(rest)? else {
            return Ok(None);
        };
        Ok(reading(&variant, rest, letter))
    }

    /// `SIGNON game F secret`: the house written as its letter, when no house of the
    /// variant is called so.
    fn letter_house(&mut self, game: &str, house: &str) -> Result<Option<Reading>, ServiceError> {
        let mut chars = house.trim().chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Ok(None);
        };
        let Some(variant) = self.variant(game)? else {
            return Ok(None);
        };
        if !letter.is_ascii_alphabetic() || variant.house_by_name(house).is_some() {
            return Ok(None);
        }
        Ok(reading(&variant, game, letter))
    }
}

fn reading(variant: &Variant, game: &str, letter: char) -> Option<Reading> {
    let game = game.to_string();
    if letter.eq_ignore_ascii_case(&'m') {
        return Some(Reading::Moderator { game });
    }
    let house = variant.house_by_letter(letter)?;
    Some(Reading::House {
        game,
        house: variant.house(house).id.clone(),
    })
}

/// njudge's convoy path (`A Yor-Nth-Nwy`) checked against the house's own convoy orders:
/// one note for each sea of a path where none of its fleets is ordered to convoy that
/// army there. Only the house's own orders are read, so that the reply tells nothing of
/// another house's; the judge itself never reads the path (docs/email.md).
pub(super) fn convoy_path_notes(
    variant: &Variant,
    orders: &[crate::game::StoredOrder],
    lang: crate::lang::Lang,
) -> Vec<String> {
    use crate::order::Instruction;
    let name = |p: crate::map::ProvinceId| variant.province(p).name_in(lang).to_string();
    let mut notes = Vec::new();
    for stored in orders {
        let (Instruction::Move { to, path, .. }, Some(from)) = (&stored.order.action, stored.unit)
        else {
            continue;
        };
        for sea in path {
            let convoyed = orders.iter().any(|other| {
                other.unit == Some(sea.province)
                    && matches!(&other.order.action, Instruction::Convoy { unit, to: there }
                        if there.province == to.province
                            && unit.at.is_none_or(|at| at.province == from))
            });
            if !convoyed {
                notes.push(crate::say!(
                    lang,
                    "shorthand.path_unconvoyed",
                    order = stored.order.text,
                    sea = name(sea.province),
                    to = name(to.province),
                ));
            }
        }
    }
    notes
}
