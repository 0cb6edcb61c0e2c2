//! What a command only reads: the game's status, the list of games, the board's picture,
//! a phase's results.

use crate::game::Game;
use crate::report::game_text::{ending_text, phase_text, status_word, vote_text};
use crate::report::standing::records_block;
use crate::report::summary::{summary_text, whogame_text};
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::{Keyword, Located};
use super::super::refusal::Refusal;
use super::gate::Caller;
use super::gate::Role;
use super::section::{GameLine, HouseState, ReplySection};
use super::{Desk, same_address};

/// Whether the game already writes to `address`: a house's player (not resigned), the
/// moderator, an observer — the addresses its results go to.
pub(super) fn knows(game: &Game, address: &str) -> bool {
    let player = game
        .seats()
        .iter()
        .filter(|s| !s.resigned())
        .filter_map(|s| s.player())
        .any(|p| same_address(p.address(), address));
    let moderator = game
        .moderator()
        .as_ref()
        .is_some_and(|m| same_address(&m.address, address));
    let observer = game
        .observers()
        .iter()
        .any(|o| same_address(&o.address, address));
    player || moderator || observer
}

impl Desk<'_> {
    pub(super) fn status(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        caller: &Caller,
    ) {
        let Some(session) = game else {
            return;
        };
        let (g, variant) = (session.game(), session.variant());
        let moderator = *caller == Caller::Moderator;
        let houses: Vec<HouseState> = g
            .seats()
            .iter()
            .map(|s| {
                HouseState {
                    name: variant.house_name_in(s.house(), self.lang),
                    deciding: g.deciding().iter().any(|x| x == s.house()),
                    ordered: s.ordered().is_some(),
                    ready: s.ready(),
                    player: s.player().is_some() && !s.resigned(),
                    civil_disorder: s.civil_disorder(),
                    // Delivery failures concern the moderator only.
                    bounced: moderator && s.player().is_some_and(|p| p.bounced().is_some()),
                    // Votes are the moderator's to see: players only learn the ending.
                    vote: s
                        .vote()
                        .filter(|_| moderator)
                        .map(|v| vote_text(v, variant, self.lang)),
                }
            })
            .collect();
        let data = ReplySection::Status {
            game: g.id().to_string(),
            name: g.name().to_string(),
            status: status_word(g.status(), self.lang),
            phase: phase_text(g.phase(), self.lang),
            deadline: g.deadline_text(self.lang),
            houses,
            ending: g.ending().map(|e| ending_text(e, variant, self.lang)),
        };
        self.section(located.line, &located.text, data);
        self.blocks_section(game);
    }

    /// `LISTE [partie]`: every game of the judge, or only the one named (njudge's `LIST
    /// <game>`), as the full list shows it.
    pub(super) fn list(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        named: bool,
    ) -> Result<(), ServiceError> {
        let only = game
            .as_ref()
            .filter(|_| named)
            .map(|s| s.game().id().to_string());
        let games: Vec<GameLine> = self
            .service
            .games()?
            .iter()
            .filter(|g| only.as_deref().is_none_or(|id| g.id() == id))
            .map(|g| {
                let free_houses = g.free_houses();
                let free = free_houses.len();
                let join = self.how_to_join(g, &free_houses);
                GameLine {
                    id: g.id().to_string(),
                    name: g.name().to_string(),
                    variant: g.variant().name.clone(),
                    status: status_word(g.status(), self.lang),
                    phase: phase_text(g.phase(), self.lang),
                    deadline: g.deadline_text(self.lang),
                    free,
                    join,
                }
            })
            .collect();
        self.section(located.line, &located.text, ReplySection::List { games });
        Ok(())
    }

    /// Joining: for a game with free seats, which houses are free and the command that
    /// takes one (`JOIN` while an open game forms, `TAKEOVER` once it runs), or, for a
    /// game that is not open, the one that asks its moderator for one.
    pub(super) fn how_to_join(&self, g: &Game, free: &[crate::game::HouseKey]) -> Option<String> {
        if free.is_empty() || g.status() == crate::game::GameStatus::Finished {
            return None;
        }
        // A closed game's seats are the moderator's to give: TAKEOVER asks for one.
        let open = g.settings().open;
        let variant = self.service.variant(g.variant()).ok();
        let houses: Vec<String> = free
            .iter()
            .map(|h| match &variant {
                Some(v) => v.house_name_in(h, self.lang),
                None => h.to_string(),
            })
            .collect();
        let forming = g.status() == crate::game::GameStatus::Forming;
        Some(crate::say!(
            self.lang,
            "join.list_open",
            houses,
            game = g.id(),
            forming,
            open
        ))
    }

    /// `CARTE [partie]`: the board as it stands. The position is public, but a picture
    /// costs its drawing and weighs a hundred kilobytes: it goes only to an address the
    /// game already writes to (a player signed on or registered, the moderator, an
    /// observer), once a mail, and only when the reply itself is sent (the cap of
    /// answers per hour); an automatic mail is never answered at all (docs/email.md,
    /// "Pictures").
    pub(super) fn map(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let g = session.game();
        if self.gate.role == Role::Nobody && !knows(g, &self.mail.from) {
            let game = g.id().to_string();
            self.refuse(located, Refusal::MapForStrangers { game });
            return Ok(());
        }
        // One picture a mail, and a few an hour for each seat (`caps`).
        let held = match g.settings().pictures && !self.answer.map_wanted {
            true => self.picture_allowed(g)?,
            false => None,
        };
        let pictures = g.settings().pictures && held.is_none();
        let data = ReplySection::Map {
            game: g.id().to_string(),
            phase: phase_text(g.phase(), self.lang),
            deadline: g.deadline_text(self.lang),
            status: status_word(g.status(), self.lang),
            pictures,
            again: self.answer.map_wanted,
            held,
        };
        self.answer.map_wanted |= pictures;
        self.section(located.line, &located.text, data);
        Ok(())
    }

    /// `HISTORIQUE [partie] [phase]`: a phase's results. Anyone may ask, as on njudge:
    /// a stranger reads what the results mailed to everyone and the published site say,
    /// the phases already played; a player, their own rejected lines too.
    pub(super) fn history(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: Option<String>,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let (g, variant) = (session.game(), session.variant());
        let records = self.service.history(g.id())?;
        let record = match &phase {
            None => records.last(),
            Some(p) => {
                let wanted = crate::position::parse_phase(p);
                records.iter().rev().find(|r| Some(r.phase) == wanted)
            }
        };
        let Some(record) = record else {
            let refusal = match phase {
                Some(name) => Refusal::NoSuchPhase(name),
                None => Refusal::NothingPlayed,
            };
            self.refuse(located, refusal);
            return Ok(());
        };
        let current = records.last().map(|r| r.index) == Some(record.index);
        let history = |results| ReplySection::History { results };
        self.results_section(located, history, g, variant, record, current)?;
        Ok(())
    }
}

impl Desk<'_> {
    /// `WHOGAME <game>`: the seats of the game, for anyone.
    pub(super) fn whogame(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let mut text = whogame_text(session.game(), session.variant(), self.lang);
        // Each seat's record, beside the seats and in their order: what the judge saw its
        // player do across its games, never their address.
        let records = session
            .game()
            .seats()
            .iter()
            .map(|s| {
                s.player()
                    .filter(|_| !s.resigned())
                    .map(|p| self.service.record(p.address().as_str()))
                    .transpose()
            })
            .collect::<Result<Vec<_>, ServiceError>>()?;
        text.push('\n');
        text.push_str(&records_block(
            session.game(),
            session.variant(),
            &records,
            self.lang,
        ));
        self.section(
            located.line,
            &located.text,
            ReplySection::WhoGame {
                said: text.trim_end().to_string(),
            },
        );
        Ok(())
    }

    /// `SUMMARY [game]`: centres by year, players, result, for anyone; without a game,
    /// the one the mail signed on to (as njudge's `SUMMARY` after `SIGNON`).
    pub(super) fn summary(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let records = self.service.history(session.game().id())?;
        let text = summary_text(session.game(), session.variant(), &records, self.lang);
        self.section(
            located.line,
            &located.text,
            ReplySection::Summary {
                said: text.trim_end().to_string(),
            },
        );
        Ok(())
    }

    /// njudge's `GET <file>`: its files are not kept here. `GET map` gets the board's
    /// picture as `MAP` does; any other file, the help, with where to find the rest.
    pub(super) fn get(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        map: bool,
    ) -> Result<(), ServiceError> {
        if map && game.is_some() {
            if self.open_to_sender(located) {
                self.map(game, located)?;
            }
            return Ok(());
        }
        let message = say!(self.lang, "habits.get", map);
        self.section(located.line, &located.text, ReplySection::Note { message });
        self.section(0, "", ReplySection::Help);
        Ok(())
    }

    /// njudge's `WHOIS <address>`: this judge tells no one's address; what it has instead.
    pub(super) fn whois(&mut self, located: &Located) {
        let message = say!(self.lang, "habits.whois");
        self.section(located.line, &located.text, ReplySection::Note { message });
    }

    /// `RECORD`: the record of the address the mail came from, and only that one: the
    /// reply goes to that address, so asking in someone else's name tells the forger
    /// nothing.
    pub(super) fn record(&mut self, located: &Located) -> Result<(), ServiceError> {
        let address = crate::game::Address::new(&self.mail.from);
        let record = self.service.record(address.as_str())?;
        let message = say!(
            self.lang,
            "record.reply",
            address = address.as_str(),
            record = crate::report::standing::record_text(&record, self.lang)
        );
        self.section(located.line, &located.text, ReplySection::Note { message });
        Ok(())
    }

    /// A command of another judge: said unknown, with ours when there is one; the
    /// orders around it are read as if it were not there.
    pub(super) fn foreign(&mut self, located: &Located, written: &str, here: Option<Keyword>) {
        let here = here.map(|k| k.usage(self.lang));
        let message = say!(self.lang, "habits.foreign", command = written, here);
        self.error(located, message);
    }
}
