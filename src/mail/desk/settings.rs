//! Settings: the moderator's settings of the game (`RÉGLER`), and what a player or the
//! moderator sets for themselves (language, pictures, secret, absences), with observers
//! allowed or not.

use crate::game::{Action, Event, HouseKey, Revealed, Setting, SettingKind};
use crate::lang::Lang;
use crate::say;
use crate::service::Session;

use super::super::command::Located;
use super::Desk;
use super::section::ReplySection;

impl Desk<'_> {
    /// `RÉGLER <réglage> <valeur>`: the value read, then the game's rules
    /// ([`Game::change_setting`]); the reply says what changed, in the moderator's words.
    pub(super) fn set(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        kind: SettingKind,
        value: &str,
    ) {
        let setting = match Setting::read(kind, value) {
            Ok(setting) => setting,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        let Some(events) = self.act_events(game, located, Action::Set(setting)) else {
            return;
        };
        let Some(session) = game else {
            return;
        };
        let g = session.game();
        for event in events {
            let Event::SettingChanged { change } = event else {
                continue;
            };
            let section = ReplySection::Set {
                change: change.say(self.lang, g.settings().schedule.time_zone),
                deadline: change
                    .moved_deadline()
                    .is_none()
                    .then(|| g.deadline_text(self.lang)),
            };
            self.section(located.line, &located.text, section);
        }
    }

    /// `LANGUE`: the moderator's changes the game's, a player's their own.
    pub(super) fn language(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: Option<HouseKey>,
        lang: Lang,
    ) {
        if self.act(game, located, Action::Language { house, lang }) {
            // The moderator's results, notices and answers, or the player's.
            self.lang = lang;
            self.section(located.line, &located.text, ReplySection::Language);
        }
    }

    /// `IMAGES oui|non`, `RÉGLER IMAGES oui|non`: the moderator's turns the game's
    /// pictures on or off, a player's their own mails' (as `LANGUE`).
    pub(super) fn pictures(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: Option<HouseKey>,
        on: bool,
    ) {
        let own = house.is_some();
        if self.act(game, located, Action::Pictures { house, on }) {
            let section = ReplySection::Pictures { on, own };
            self.section(located.line, &located.text, section);
        }
    }

    /// `SET ZONE <zone>`: the deadlines of the signed-on player's mails in that zone
    /// (`game` or `partie`: the game's again). A moderator has no house to set it for.
    pub(super) fn zone(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: Option<HouseKey>,
        written: &str,
    ) {
        let Some(house) = house else {
            let message = say!(self.lang, "zone.players_only");
            self.error(located, message);
            return;
        };
        let zone = match crate::game::read_zone(written) {
            Ok(zone) => zone,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        if self.act(game, located, Action::Zone { house, zone }) {
            let game_zone = game
                .as_ref()
                .map(|s| s.game().settings().schedule.time_zone.name().to_string());
            let message = say!(
                self.lang,
                "zone.set",
                zone = zone.map(|z| z.name().to_string()),
                game_zone
            );
            self.section(located.line, &located.text, ReplySection::Note { message });
        }
    }

    /// `SET PASSWORD <new>`: the signed-on player's secret, or the moderator's. The new
    /// secret is hidden from the reply's quotes (`reply::masked`) and never repeated.
    pub(super) fn password(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: Option<HouseKey>,
        secret: String,
    ) {
        let moderator = house.is_none();
        let action = Action::ChangeSecret {
            house,
            secret: Revealed(secret),
        };
        if self.act(game, located, action) {
            let message = say!(self.lang, "habits.secret_changed", moderator);
            self.section(
                located.line,
                &located.text,
                ReplySection::Done {
                    message,
                    ending: None,
                },
            );
        }
    }

    /// `ABSENCE from to`: a deadline falling in it is put off.
    pub(super) fn absence(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
        from: String,
        to: String,
    ) {
        if self.act(game, located, Action::Absence { house, from, to }) {
            self.section(located.line, &located.text, ReplySection::Absence);
        }
    }

    /// `OBSERVATEURS oui|non`.
    pub(super) fn observers(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        allowed: bool,
    ) {
        let action = Action::Observers { allowed };
        let removed = game.as_ref().map_or(0, |s| s.game().observers().len());
        if self.act(game, located, action) {
            let removed = if allowed { 0 } else { removed };
            let section = ReplySection::Observers { allowed, removed };
            self.section(located.line, &located.text, section);
        }
    }
}
