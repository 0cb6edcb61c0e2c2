//! What anyone may ask of the judge by mail, as on njudge: a new game (`CREATE`, from the
//! addresses the configuration allows, once the address confirms it), who plays a game (`WHOGAME`) and its summary
//! (`SUMMARY`); and the moderator's `ALERT`, a press message to one house.

use chrono::{DateTime, TimeDelta, Utc};

use crate::game::{
    Asked, Ending, Game, GameError, Moderator, NewGame, Settings, consent_token, consent_valid,
    hash_secret, new_secret,
};
use crate::map::{EMBEDDED, MapError};
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::section::ReplySection;
use super::{Desk, fold_id, same_address};

/// The window of `[judge] creations_per_day`.
const CREATION_WINDOW: TimeDelta = TimeDelta::hours(24);

/// Whether `game` counts against the creations of the day: created in the window, and
/// not abandoned before its start. The exception is what keeps a forger from spending a
/// creator's quota: the forged games' secrets go to the creator's own address, who
/// abandons them and has the quota back (docs/email.md, "CREATE").
fn counts(game: &Game, now: DateTime<Utc>) -> bool {
    let recent = game.created() + CREATION_WINDOW > now;
    let dropped = game.played() == 0 && matches!(game.ending(), Some(Ending::Abandoned));
    recent && !dropped
}

/// Whether `game` counts against `address`'s creations of the day.
fn counts_for(game: &Game, address: &str, now: DateTime<Utc>) -> bool {
    let mine = game
        .moderator()
        .is_some_and(|m| same_address(&m.address, address));
    mine && counts(game, now)
}

impl<'a> Desk<'a> {
    /// `CREATE <game> [VARIANT <name>] [PLAYERS <n>]`: a new game, forming, moderated by
    /// the sender, who gets the moderator's secret in the answer (and only there).
    pub(super) fn create(
        &mut self,
        game: &mut Option<Session<'a>>,
        located: &Located,
        named: &str,
        variant: Option<String>,
        players: Option<u8>,
        token: Option<String>,
    ) -> Result<(), ServiceError> {
        let id = fold_id(named);
        let first = game
            .as_ref()
            .map(|s| s.game().id().to_string())
            .or_else(|| self.gate.game_id.clone());
        match first {
            Some(first) if first == id => {
                let message = self.game_message(&GameError::GameExists(id));
                self.error(located, message);
                return Ok(());
            }
            Some(first) => {
                let message = say!(self.lang, "create.other_game", game = first);
                self.error(located, message);
                return Ok(());
            }
            None => {}
        }
        let address = self.mail.from.clone();
        if !self.config.judge.may_create(&address) {
            let message = say!(self.lang, "create.not_allowed", address);
            self.error(located, message);
            return Ok(());
        }
        let games = self.service.games()?;
        let recent = |mine: bool| -> Vec<DateTime<Utc>> {
            games
                .iter()
                .filter(|g| {
                    if mine {
                        counts_for(g, &address, self.now)
                    } else {
                        counts(g, self.now)
                    }
                })
                .map(Game::created)
                .collect()
        };
        let until = |created: &[DateTime<Utc>]| {
            let oldest = created.iter().min().copied().unwrap_or(self.now);
            crate::report::format_deadline(
                oldest + CREATION_WINDOW,
                Settings::default().schedule.time_zone,
                self.lang,
            )
        };
        let bound = |cap: u32| usize::try_from(cap).unwrap_or(usize::MAX);
        let mine = recent(true);
        if mine.len() >= bound(self.config.judge.creations_per_day) {
            let (count, until) = (mine.len(), until(&mine));
            let message = say!(self.lang, "create.too_many", address, count, until);
            self.error(located, message);
            return Ok(());
        }
        // A judge open to `anyone` is open to many addresses: a bound across them.
        let all = recent(false);
        if all.len() >= bound(self.config.judge.games_per_day) {
            let (count, until) = (all.len(), until(&all));
            let message = say!(self.lang, "create.judge_full", count, until);
            self.error(located, message);
            return Ok(());
        }
        if let Err(e) = crate::game::check_game_id(&id) {
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        // A mail names a built-in variant only: a path would read the judge's own files.
        let variant = variant.map_or_else(|| "westeros".to_string(), |v| fold_id(&v));
        let Some((_, text)) = EMBEDDED.iter().find(|(name, _)| *name == variant) else {
            let e = GameError::Variant(MapError::UnknownVariant {
                name: variant,
                known: EMBEDDED
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        };
        // Without a number of players, the variant's largest setup: every house.
        let setups: Vec<u8> = crate::map::parse_variant(&variant, text)
            .map(|v| v.setups.iter().map(|s| s.players).collect())
            .unwrap_or_default();
        let players = match players {
            Some(n) => n,
            None => setups.iter().copied().max().unwrap_or(0),
        };
        // Checked before the token is mailed: a confirmation of what cannot be made would
        // only be refused then.
        if !setups.contains(&players) {
            let e = GameError::NoSetup {
                variant,
                players,
                available: setups,
            };
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        // Nothing is made until the address confirms: a forged `CREATE` spends no bound.
        let key = self.service.consent_key()?;
        let asked = Asked::Create {
            game: id.clone(),
            variant: variant.clone(),
            players,
        };
        let Some(token) = token else {
            if let Some((token, expires)) = consent_token(&key, &asked, &address, self.now) {
                let zone = Settings::default().schedule.time_zone;
                let section = super::join::consent_section(
                    self.lang, &asked, &address, &token, expires, zone,
                );
                self.section(located.line, &located.text, section);
            }
            return Ok(());
        };
        if let Err(e) = consent_valid(&key, &asked, &address, &token, self.now)
            && !self.holds_secret(&token)?
        {
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        // The moderator's secret costs a hash: one a mail.
        if !self.spends_secret(located, Ok(())) {
            return Ok(());
        }
        let (secret, hash) = match new_secret().and_then(|s| Ok((hash_secret(&s)?, s))) {
            Ok((hash, secret)) => (secret, hash),
            Err(e) => return Err(ServiceError::Game(e)),
        };
        let settings = Settings {
            lang: self.lang,
            ..Settings::default()
        };
        let new = NewGame {
            id: id.clone(),
            name: None,
            variant,
            players,
            settings,
            moderator: Some(Moderator {
                address: address.clone(),
                secret: hash,
            }),
        };
        let session = match self.service.session_new(new, self.now) {
            Ok(session) => session,
            Err(ServiceError::Game(e)) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let g = session.game();
        let houses: Vec<String> = g
            .seats()
            .iter()
            .map(|s| session.variant().house_name_in(s.house(), self.lang))
            .collect();
        let text = say!(
            self.lang,
            "create.created",
            id = g.id(),
            variant = g.variant().name.as_str(),
            players = g.players(),
            houses = houses.join(", "),
            secret
        );
        self.gate.game_id = Some(id);
        *game = Some(session);
        self.section(
            located.line,
            &located.text,
            ReplySection::Created { said: text },
        );
        Ok(())
    }
}
