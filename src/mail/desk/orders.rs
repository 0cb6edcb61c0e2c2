//! Orders: the order lines of a mail gathered into sets and submitted, `PRÊT` withdrawn
//! when a set is refused, and the results of a phase (played, or tried by the moderator).

use crate::game::{
    Action, ConditionNote, Event, Game, HouseKey, OrderLines, OrderProblem, PhaseRecord,
    SubmitMode, Trigger, looks_like_prose,
};
use crate::map::Variant;
use crate::report::PhaseAsk;
use crate::report::game_text::{Audience, Reader, record_results_for};
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::{Command, Located};
use super::gate::Caller;
use super::section::{RefusedLine, ReplySection};
use super::{Desk, Role};

/// The refused order lines a reply lists one by one; it counts the others.
pub(super) const MAX_PROBLEMS_SHOWN: usize = 20;

impl Desk<'_> {
    pub(super) fn order(&mut self, line: usize, text: &str) {
        if self.gate.first_sign_on.is_some_and(|first| line < first) {
            self.section(line, text, ReplySection::Ignored);
            return;
        }
        self.draft.orders.push((line, text.to_string()));
    }

    /// Submits the order lines gathered so far as one set.
    pub(super) fn flush_orders(&mut self, game: &mut Option<Session<'_>>) {
        if self.draft.orders.is_empty() {
            return;
        }
        let mut lines = std::mem::take(&mut self.draft.orders);
        if let Some(session) = game {
            let variant = session.variant();
            // "Merci !" after the orders (or after `PRÊT`) is a courtesy, not a typo: lines
            // that read as prose rather than as a mistyped order, after the last line that
            // may be an order, are set aside, not held against the whole set; a block of
            // nothing but prose is no order set at all.
            let keep = lines
                .iter()
                .rposition(|(_, t)| !looks_like_prose(variant, t))
                .map_or(0, |i| i + 1);
            for (line, text) in lines.split_off(keep) {
                self.section(line, &text, ReplySection::Ignored);
            }
            if lines.is_empty() {
                return;
            }
        }
        let first = lines[0].0;
        let located = Located {
            line: first,
            text: lines[0].1.clone(),
            command: Ok(Command::Order(String::new())),
        };
        let house = match &self.gate.role {
            Role::House(h) => h.clone(),
            _ => {
                let refusal = self.not_signed_on();
                let message = refusal.message(self.lang);
                let shown: Vec<&str> = lines.iter().map(|(_, t)| t.as_str()).collect();
                self.section(first, &shown.join("\n"), ReplySection::Error { message });
                return;
            }
        };
        let count = lines.len();
        let action = Action::Submit {
            house,
            lines: OrderLines::picked(lines),
            mode: self.draft.mode,
            source: format!("mail {} <{}>", self.mail.from, self.mail.message_id),
            expected: None,
        };
        // Order lines after a command (`PRET`, press) belong to the same set: the next
        // block of this mail adds to this one unless `ORDRES` starts a new set.
        self.draft.mode = SubmitMode::Partial;
        let refused_before = self.draft.orders_refused;
        if let Some(events) = self.act_events(game, &located, action) {
            self.section(first, "", ReplySection::Orders { count });
            let unready = events
                .iter()
                .any(|e| matches!(e, Event::OrdersTaken { unready: true, .. }));
            if unready {
                self.unready(first);
            }
            let conditions = events.into_iter().find_map(|e| match e {
                Event::OrdersTaken { conditions, .. } => Some(conditions),
                _ => None,
            });
            if self.conditions(conditions.unwrap_or_default()) && !refused_before {
                self.withdraw_ready(game);
            }
        } else if self.draft.orders_refused && !refused_before {
            self.withdraw_ready(game);
        }
    }

    /// What became of the set's `IF` blocks: the conditions tested and the branch taken,
    /// or the lines set aside and why. A block set aside counts as refused orders for the
    /// mail's `PRÊT`: the house meant orders that were not taken. Says whether one was.
    fn conditions(&mut self, notes: Vec<ConditionNote>) -> bool {
        let mut refused = false;
        for note in notes {
            if let Some(message) = crate::report::conditional::refused_note(&note, self.lang) {
                refused = true;
                if let ConditionNote::Refused { first, text, .. } = note {
                    self.section(first, &text, ReplySection::Error { message });
                }
            } else if let ConditionNote::Read { steps } = note {
                let line = steps.first().map_or(0, |s| s.line);
                let steps = crate::report::conditional::condition_steps(&steps, self.lang);
                self.section(line, "", ReplySection::Conditional { steps });
            }
        }
        if refused {
            self.draft.orders_refused = true;
        }
        refused
    }

    /// Notes on the convoy paths of the house's orders that its own convoys do not match.
    pub(super) fn convoy_paths(&mut self, game: &Option<Session<'_>>, line: usize) {
        let (Some(session), Role::House(house)) = (game, &self.gate.role) else {
            return;
        };
        let Some(seat) = session.game().seat(house) else {
            return;
        };
        let notes =
            super::shorthand::convoy_path_notes(session.variant(), seat.orders(), self.lang);
        for message in notes {
            self.section(line, "", ReplySection::Note { message });
        }
    }

    /// The game took the house's readiness back: its orders now hold an illegal one. A
    /// `PRÊT` of this mail says so where it was acknowledged; one of an earlier mail, here.
    fn unready(&mut self, line: usize) {
        let message = crate::say!(self.lang, "flow.unready");
        match self.draft.made_ready.take() {
            Some((index, _, _)) if index < self.answer.sections.len() => {
                self.answer.sections[index].section = ReplySection::Note { message };
            }
            _ => self.section(line, "", ReplySection::Note { message }),
        }
    }

    /// Orders of this mail were refused after its `PRÊT` took effect: the house is put
    /// back as it was, and the reply says so where it acknowledged the `PRÊT`.
    pub(super) fn withdraw_ready(&mut self, game: &mut Option<Session<'_>>) {
        let (Some((index, house, before)), Some(session)) = (self.draft.made_ready.take(), game)
        else {
            return;
        };
        let withdraw = Action::WithdrawReady {
            house,
            ready: before,
        };
        if session.execute(&self.actor(), withdraw, self.now).is_ok()
            && let Some(section) = self.answer.sections.get_mut(index)
        {
            section.section = ReplySection::ReadyRefused;
        }
    }

    pub(super) fn orders_refused(
        &mut self,
        located: &Located,
        problems: Vec<OrderProblem>,
    ) -> bool {
        self.draft.orders_refused = true;
        // A mail of thousands of bad lines gets a reply of a readable size.
        let more = problems.len().saturating_sub(MAX_PROBLEMS_SHOWN);
        // Numbered in the mail, as the player sees it (the lines were given with their
        // numbers).
        let problems: Vec<RefusedLine> = problems
            .into_iter()
            .take(MAX_PROBLEMS_SHOWN)
            .map(|p| RefusedLine {
                line: p.line,
                message: p.message(self.lang),
                text: p.text,
            })
            .collect();
        self.section(
            located.line,
            "",
            ReplySection::OrdersRefused { problems, more },
        );
        false
    }

    pub(super) fn preview(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        caller: &Caller,
    ) -> Result<(), ServiceError> {
        if let Caller::House(house) = caller {
            return self.player_preview(game, located, house);
        }
        let Some(session) = game else {
            return Ok(());
        };
        let variant = session.variant();
        // A trial on a copy, never stored.
        let mut trial = session.game().clone();
        match trial.process(variant, self.now, Trigger::Moderator) {
            Ok(record) => {
                let record = crate::report::phase_record(variant, record);
                let preview = |results| ReplySection::Preview { results };
                self.results_section(located, preview, &trial, variant, &record, true)?;
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
        }
        Ok(())
    }

    /// A section holding the results of a phase, as `results.txt` writes them.
    pub(super) fn results_section(
        &mut self,
        located: &Located,
        kind: fn(String) -> ReplySection,
        game: &Game,
        variant: &Variant,
        record: &PhaseRecord,
        current: bool,
    ) -> Result<(), ServiceError> {
        let templates = self.config.templates.as_deref();
        // A house reads its own rejected lines, the moderator everyone's.
        let audience = match &self.gate.role {
            Role::House(house) => Audience::House(house.clone()),
            Role::Moderator => Audience::Moderator,
            Role::Nobody => Audience::Public,
        };
        let results = record_results_for(
            game, variant, record, current, &audience, self.lang, templates,
        )
        .map_err(ServiceError::Render)?;
        self.section(located.line, &located.text, kind(results));
        Ok(())
    }
}

impl Desk<'_> {
    /// `ORDRES [partiel]`: the next order lines replace the house's set, or add to it.
    pub(super) fn orders_mode(&mut self, partial: bool) {
        self.draft.mode = if partial {
            SubmitMode::Partial
        } else {
            SubmitMode::Replace
        };
    }

    /// `PRÊT` / `PAS PRÊT`.
    pub(super) fn ready(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
        ready: bool,
    ) {
        let line = located.line;
        let text = located.text.as_str();
        // Refused orders never make a house ready: it would be processed with
        // orders it did not mean (its units holding).
        if ready && self.draft.orders_refused {
            self.section(line, text, ReplySection::ReadyRefused);
            return;
        }
        let before = game
            .as_ref()
            .and_then(|s| s.game().seat(&house))
            .is_some_and(|s| s.ready());
        let action = Action::Ready {
            house: house.clone(),
            ready,
        };
        if self.act(game, located, action) {
            if ready {
                self.draft.made_ready = Some((self.answer.sections.len(), house, before));
            }
            self.section(line, text, ReplySection::Ready { ready });
        }
    }
}

impl Desk<'_> {
    /// `PREVIEW` by a player: the house's orders adjudicated now against every other
    /// house holding, on a copy; only the house's own results are shown.
    pub(super) fn player_preview(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: &HouseKey,
    ) -> Result<(), ServiceError> {
        let Some(session) = game.as_ref() else {
            return Ok(());
        };
        let variant = session.variant();
        let trial = session.game().trial(variant, Some(house), self.now);
        // What the phase being tried asks of the house: the phase the player orders for
        // now, not the one the trial would open.
        let asks = PhaseAsk::of_named(variant, session.game().position(), house);
        match trial {
            Ok((trial, record)) => {
                let record = crate::report::phase_record(variant, record);
                let audience = Audience::House(house.clone());
                let reader = Reader {
                    audience: &audience,
                    asks: asks.as_ref(),
                };
                // The trial's next phase is never opened: the deadline it would have is
                // not shown, only the real one, with the house's orders.
                let results = record_results_for(
                    &trial,
                    variant,
                    &record,
                    false,
                    reader,
                    self.lang,
                    self.config.templates.as_deref(),
                )
                .map_err(ServiceError::Render)?;
                self.section(
                    located.line,
                    &located.text,
                    ReplySection::Preview { results },
                );
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
    pub(super) fn spare_waives(
        &mut self,
        game: &Option<Session<'_>>,
        located: &Located,
        house: &HouseKey,
    ) {
        let Some(session) = game.as_ref() else {
            return;
        };
        let count = session.game().spare_waives(session.variant(), house);
        if count > 0 {
            // Under the `READY` it answers, which is quoted there already.
            let message = say!(self.lang, "habits.spare_waives", count);
            self.section(located.line, "", ReplySection::Note { message });
        }
    }

    /// `ORDRES` / `PARTIAL ORDERS` taken: remembered until an order line follows it.
    pub(super) fn orders_opened(&mut self, located: &Located) {
        if matches!(self.gate.role, Role::House(_)) {
            self.draft.orders_header = Some(located.clone());
        }
    }
}

impl Desk<'_> {
    /// An `ORDRES` / `PARTIAL ORDERS` line with no order line after it: said, so that the
    /// player knows nothing was changed (the orders they meant may have gone astray).
    pub(super) fn no_order_followed(&mut self) {
        let Some(located) = self.draft.orders_header.take() else {
            return;
        };
        let message = say!(self.lang, "habits.no_order_followed");
        self.section(located.line, &located.text, ReplySection::Note { message });
    }
}
