//! Votes: a draw for all, a draw with some houses only, a concession. What a vote reads,
//! the action it asks of the game, and how the reply says it.

use crate::game::{Action, HouseKey, Vote};
use crate::report::game_text::ending_text;
use crate::say;
use crate::service::Session;

use super::super::command::Located;
use super::Desk;
use super::section::ReplySection;

impl Desk<'_> {
    pub(super) fn vote(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
        vote: Option<Vote>,
    ) {
        if self.act(
            game,
            located,
            Action::Vote {
                house,
                vote: vote.clone(),
            },
        ) {
            let ending = game.as_ref().and_then(|s| {
                let (g, v) = (s.game(), s.variant());
                g.ending().map(|e| ending_text(e, v, self.lang))
            });
            let vote = match vote {
                None => "none".to_string(),
                Some(Vote::Draw | Vote::DrawWith(_)) => "draw".to_string(),
                Some(Vote::Concede(h)) => game
                    .as_ref()
                    .map_or(h.to_string(), |s| s.variant().house_name_in(&h, self.lang)),
            };
            self.section(
                located.line,
                &located.text,
                ReplySection::Vote { vote, ending },
            );
        }
    }

    /// `DRAW <house> <house>…`: a vote for a draw shared by these houses only.
    pub(super) fn draw_with(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
        written: &[String],
    ) {
        let Some(houses) = self.read_houses(game, located, |read| {
            written
                .iter()
                .map(|h| read(h))
                .collect::<Result<Vec<_>, _>>()
        }) else {
            return;
        };
        let vote = Some(Vote::DrawWith(houses));
        let action = Action::Vote {
            house: house.clone(),
            vote,
        };
        if !self.act(game, located, action) {
            return;
        }
        let Some(session) = game.as_ref() else {
            return;
        };
        let (g, variant) = (session.game(), session.variant());
        // The game keeps the plain draw when the houses named are every survivor.
        let names: Vec<String> = match g
            .seats()
            .iter()
            .find_map(|s| (s.house() == &house).then(|| s.vote().cloned()).flatten())
        {
            Some(Vote::DrawWith(houses)) => houses
                .iter()
                .map(|h| variant.house_name_in(h, self.lang))
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
}
