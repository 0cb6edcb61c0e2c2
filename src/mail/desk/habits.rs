//! What players coming from other judges write: a draw naming houses, a secret
//! of their own (`SET PASSWORD`), a player's `PREVIEW` of their own orders, and the
//! commands of other judges that corbeau lacks, answered without holding up the orders.

use crate::game::{Action, HouseKey, Revealed, Vote};
use crate::report::game_text::ending_text;
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::{Keyword, Located};
use super::section::ReplySection;
use super::{Desk, Role, house_name};

impl Desk<'_> {
    /// `DRAW <house> <house>…`: a vote for a draw shared by these houses only.
    pub(super) fn draw_with(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        written: &[String],
    ) {
        let Some(house) = self.require_house(located) else {
            return;
        };
        let Some(houses) = self.read_houses(game, located, |read| {
            written
                .iter()
                .map(|h| read(h))
                .collect::<Result<Vec<_>, _>>()
        }) else {
            return;
        };
        let vote = Some(Vote::DrawWith(houses));
        if !self.act(game, located, Action::Vote { house, vote }) {
            return;
        }
        let Some(session) = game.as_ref() else {
            return;
        };
        let (g, variant) = (session.game(), session.variant());
        // The game keeps the plain draw when the houses named are every survivor.
        let names: Vec<String> = match g.seats().iter().find_map(|s| {
            (Some(s.house()) == self.own_house().as_ref())
                .then(|| s.vote().cloned())
                .flatten()
        }) {
            Some(Vote::DrawWith(houses)) => houses
                .iter()
                .map(|h| house_name(variant, h, self.lang))
                .collect(),
            _ => Vec::new(),
        };
        let message = if names.is_empty() {
            say!(self.lang, "habits.vote_draw_all")
        } else {
            let houses = say!(self.lang, "words.and_list", names);
            say!(self.lang, "habits.vote_draw_with", houses)
        };
        let ending = g.ending().map(|e| ending_text(e, variant, self.lang));
        self.section(
            located.line,
            &located.text,
            ReplySection::Done { message, ending },
        );
    }

    fn own_house(&self) -> Option<HouseKey> {
        match &self.role {
            Role::House(house) => Some(house.clone()),
            _ => None,
        }
    }

    /// `SET PASSWORD <new>`: the signed-on player's secret, or the moderator's. The new
    /// secret is hidden from the reply's quotes (`reply::masked`) and never repeated.
    pub(super) fn password(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        secret: String,
    ) {
        let house = match &self.role {
            Role::House(house) => Some(house.clone()),
            Role::Moderator => None,
            Role::Nobody => {
                self.require_house(located);
                return;
            }
        };
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

    /// `PREVIEW` by a player: the house's orders adjudicated now against every other
    /// house holding, on a copy; only the house's own results are shown.
    pub(super) fn player_preview(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let (Some(house), Some(session)) = (self.own_house(), game.as_ref()) else {
            return Ok(());
        };
        let variant = session.variant();
        let trial = session.game().trial(variant, Some(&house), self.now);
        match trial {
            Ok((trial, record)) => {
                let record = crate::report::phase_record(variant, record);
                let preview = |results| ReplySection::Preview { results };
                // The trial's next phase is never opened: the deadline it would have is
                // not shown, only the real one, with the house's orders.
                self.results_section(located, preview, &trial, variant, &record, false)?;
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
        }
        // The trial plays the current phase only: orders kept for later ones are said.
        self.blocks_section(game);
        Ok(())
    }

    /// After `PRÊT`: the waives beyond the house's builds, ignored, are said.
    pub(super) fn spare_waives(&mut self, game: &Option<Session<'_>>, located: &Located) {
        let (Some(house), Some(session)) = (self.own_house(), game.as_ref()) else {
            return;
        };
        let count = session.game().spare_waives(session.variant(), &house);
        if count > 0 {
            // Under the `READY` it answers, which is quoted there already.
            let message = say!(self.lang, "habits.spare_waives", count);
            self.section(located.line, "", ReplySection::Note { message });
        }
    }

    /// `ORDRES` / `PARTIAL ORDERS` taken: remembered until an order line follows it.
    pub(super) fn orders_opened(&mut self, located: &Located) {
        if matches!(self.role, Role::House(_)) {
            self.orders_header = Some(located.clone());
        }
    }

    /// An `ORDRES` / `PARTIAL ORDERS` line with no order line after it: said, so that the
    /// player knows nothing was changed (the orders they meant may have gone astray).
    pub(super) fn no_order_followed(&mut self) {
        let Some(located) = self.orders_header.take() else {
            return;
        };
        let message = say!(self.lang, "habits.no_order_followed");
        self.section(located.line, &located.text, ReplySection::Note { message });
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
            return self.map(game, located, None);
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

    /// A command of another judge: said unknown, with ours when there is one; the
    /// orders around it are read as if it were not there.
    pub(super) fn foreign(&mut self, located: &Located, written: &str, here: Option<Keyword>) {
        let here = here.map(|k| k.usage(self.lang));
        let message = say!(self.lang, "habits.foreign", command = written, here);
        self.error(located, message);
    }
}
