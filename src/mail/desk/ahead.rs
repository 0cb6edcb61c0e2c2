//! Orders for later phases: a `PHASE` line opens a block that takes the order lines after
//! it, up to the next `PHASE` line, a sign-on or the end of the mail, and never hands them
//! to the current phase; the block is kept by the game, as written, when it closes.
//! `READY` / `NOT READY` (`SET NOWAIT` / `SET WAIT`) inside a block are for its phase;
//! `CLEAR` removes every block of the house.

use crate::game::{Action, ActionKind, Event, HouseKey, OrderLines, looks_like_prose};
use crate::judge::Phase;
use crate::report::game_text::phase_text;
use crate::say;
use crate::service::Session;

use super::super::command::Located;
use super::super::refusal::Refusal;
use super::Desk;
use super::gate::Role;
use super::section::ReplySection;

/// A block being read: its `PHASE` line, the phase it is for (or why it is refused
/// whole), its lines and the readiness it asks for.
pub(super) struct Block {
    line: usize,
    /// Where the block's answer goes in the reply: at its `PHASE` line, before the
    /// answers to what came after it (press is sent at once, inside a block too).
    at: usize,
    text: String,
    target: Result<Phase, String>,
    lines: Vec<(usize, String)>,
    ready: Option<bool>,
}

impl Desk<'_> {
    /// Whether a block is being read: order lines and readiness go to it.
    pub(super) fn in_block(&self) -> bool {
        self.draft.block.is_some()
    }

    /// A `PHASE` line: the block before it ends, and one for the phase named begins (the
    /// current phase named: the lines after it are plain orders).
    pub(super) fn phase_line(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: Option<Phase>,
        written: &str,
    ) {
        self.close_block(game);
        self.draft.ahead_touched = true;
        // A block is opened whoever writes: the lines after a `PHASE` line never reach
        // the current orders, and a block its sender may not keep is refused whole.
        let target = match (
            self.caller_for(ActionKind::KeepAhead.needs()),
            game.as_ref(),
            phase,
        ) {
            (Err(refusal), _, _) => Err(refusal.message(self.lang)),
            (Ok(_), None, _) => Err(Refusal::NoGame.message(self.lang)),
            (Ok(_), _, None) => Err(say!(self.lang, "ahead.unreadable", written)),
            (Ok(_), Some(session), Some(phase)) if phase == session.game().phase() => {
                let message = say!(
                    self.lang,
                    "ahead.current",
                    phase = phase_text(phase, self.lang)
                );
                self.section(located.line, &located.text, ReplySection::Note { message });
                return;
            }
            (Ok(_), _, Some(phase)) => Ok(phase),
        };
        self.draft.block = Some(Block {
            line: located.line,
            at: self.answer.sections.len(),
            text: located.text.clone(),
            target,
            lines: Vec::new(),
            ready: None,
        });
    }

    /// An order line inside a block.
    pub(super) fn block_line(&mut self, line: usize, text: &str) {
        if let Some(block) = &mut self.draft.block {
            block.lines.push((line, text.to_string()));
        }
    }

    /// `READY` / `NOT READY` inside a block: the house's readiness once the block is its
    /// orders.
    pub(super) fn block_ready(&mut self, located: &Located, ready: bool) {
        let Some(block) = &mut self.draft.block else {
            return;
        };
        block.ready = Some(ready);
        if let Ok(phase) = block.target {
            let phase = phase_text(phase, self.lang);
            let message = say!(self.lang, "ahead.ready_in_block", ready, phase);
            let done = ReplySection::Done {
                message,
                ending: None,
            };
            self.section(located.line, &located.text, done);
        }
    }

    /// Ends the block being read, if any: the game keeps it, or the reply says why not,
    /// in the reply where the block began.
    pub(super) fn close_block(&mut self, game: &mut Option<Session<'_>>) {
        let Some(block) = self.draft.block.take() else {
            return;
        };
        let (at, from) = (block.at, self.answer.sections.len());
        self.keep_block(game, block);
        let mut made: Vec<_> = self.answer.sections.drain(from..).collect();
        made.sort_by_key(|placed| placed.line);
        let at = at.min(self.answer.sections.len());
        self.answer.sections.splice(at..at, made);
    }

    fn keep_block(&mut self, game: &mut Option<Session<'_>>, mut block: Block) {
        // Prose after the last order ("Merci !") is a courtesy, as after plain orders.
        if let Some(session) = game.as_ref() {
            let variant = session.variant();
            let keep = block
                .lines
                .iter()
                .rposition(|(_, t)| !looks_like_prose(variant, t))
                .map_or(0, |i| i + 1);
            for (line, text) in block.lines.split_off(keep) {
                self.section(line, &text, ReplySection::Ignored);
            }
        }
        let count = block.lines.len();
        let refused = |desk: &mut Self, why: String| {
            let message = say!(desk.lang, "ahead.block_refused", why, lines = count);
            desk.section(block.line, &block.text, ReplySection::Error { message });
        };
        let phase = match block.target {
            Ok(phase) => phase,
            Err(why) => {
                refused(self, why);
                return;
            }
        };
        let (Role::House(house), Some(session)) = (&self.gate.role, game.as_mut()) else {
            return;
        };
        if block.lines.is_empty() {
            let message = say!(
                self.lang,
                "ahead.empty",
                phase = phase_text(phase, self.lang)
            );
            self.section(block.line, &block.text, ReplySection::Note { message });
            return;
        }
        let action = Action::KeepAhead {
            house: house.clone(),
            phase,
            lines: OrderLines::picked(block.lines.clone()),
            ready: block.ready,
            source: format!("mail {} <{}>", self.mail.from, self.mail.message_id),
        };
        match session.execute(&self.actor(), action, self.arrival) {
            Ok(events) => {
                let replaced = events
                    .iter()
                    .any(|e| matches!(e, Event::AheadKept { replaced: true, .. }));
                let message = say!(
                    self.lang,
                    "ahead.kept",
                    phase = phase_text(phase, self.lang),
                    lines = count,
                    ready = block.ready,
                    replaced
                );
                let done = ReplySection::Done {
                    message,
                    ending: None,
                };
                self.section(block.line, &block.text, done);
            }
            Err(e) => {
                let why = self.game_message(&e);
                refused(self, why);
            }
        }
    }

    /// `EFFACER` / `CLEAR`: every block of the house removed.
    pub(super) fn clear_ahead(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
    ) {
        self.draft.ahead_touched = true;
        let action = Action::ClearAhead { house };
        let Some(events) = self.act_events(game, located, action) else {
            return;
        };
        let phases: Vec<String> = events
            .iter()
            .flat_map(|e| match e {
                Event::AheadCleared { phases, .. } => phases.clone(),
                _ => Vec::new(),
            })
            .map(|p| phase_text(p, self.lang))
            .collect();
        let message = say!(self.lang, "ahead.cleared", phases);
        let done = ReplySection::Done {
            message,
            ending: None,
        };
        self.section(located.line, &located.text, done);
    }

    /// The blocks the house holds, after the mail's own: a note at the end of a reply that
    /// kept or removed some.
    pub(super) fn note_blocks(&mut self, game: &Option<Session<'_>>) {
        if !self.draft.ahead_touched {
            return;
        }
        let (Role::House(house), Some(session)) = (&self.gate.role, game.as_ref()) else {
            return;
        };
        if let Some(message) =
            crate::report::ahead::house_blocks(session.game(), house, None, self.lang)
        {
            self.section(0, "", ReplySection::Ahead { said: message });
        }
    }

    /// The blocks a `STATUS` or a player's `PREVIEW` shows: the house's own, or, to the
    /// moderator, every house's; never another house's to a player.
    pub(super) fn blocks_section(&mut self, game: &Option<Session<'_>>) {
        let Some(session) = game.as_ref() else {
            return;
        };
        let g = session.game();
        let messages: Vec<String> = match &self.gate.role {
            Role::House(house) => crate::report::ahead::house_blocks(g, house, None, self.lang)
                .into_iter()
                .collect(),
            Role::Moderator => g
                .seats()
                .iter()
                .filter_map(|s| {
                    let who = session.variant().house_name_in(s.house(), self.lang);
                    crate::report::ahead::house_blocks(g, s.house(), Some(&who), self.lang)
                })
                .collect(),
            Role::Nobody => Vec::new(),
        };
        for message in messages {
            self.section(0, "", ReplySection::Ahead { said: message });
        }
    }
}
