//! The moderator's running of the game: start, pause, resume, extend, process, roll
//! back, end. Each is an action of the game; what is here is what the command reads and
//! how the reply says what the game did.

use crate::game::span::Span;
use crate::game::{Action, GameError, PhaseGuard, Trigger};
use crate::report::game_text::{ending_text, phase_text, status_word};
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::super::refusal::Refusal;
use super::Desk;
use super::section::{Moderated, ReplySection};

impl Desk<'_> {
    pub(super) fn moderate(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        action: Action,
        kind: fn(Moderated) -> ReplySection,
    ) {
        if self.act(game, located, action)
            && let Some(session) = game
        {
            let (g, variant) = (session.game(), session.variant());
            let data = Moderated {
                phase: phase_text(g.phase(), self.lang),
                deadline: g.deadline_text(self.lang),
                status: status_word(g.status(), self.lang),
                ending: g
                    .ending()
                    .as_ref()
                    .map(|e| ending_text(e, variant, self.lang)),
            };
            self.section(located.line, &located.text, kind(data));
        }
    }
}

impl Desk<'_> {
    /// `TRAITER phase`: once a mail.
    pub(super) fn process(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: String,
    ) {
        if Self::phase_changed(game) {
            self.refuse(located, Refusal::ProcessOnce);
            return;
        }
        match PhaseGuard::read(&phase) {
            Ok(guard) => {
                let action = Action::Process {
                    expected: Some(guard),
                    trigger: Trigger::Moderator,
                };
                self.moderate(game, located, action, ReplySection::Processed);
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
        }
    }

    /// `PROLONGER span`: the deadline put off.
    pub(super) fn extend(&mut self, game: &mut Option<Session<'_>>, located: &Located, span: &str) {
        match span.parse::<Span>() {
            Ok(by) => self.moderate(game, located, Action::Extend(by), ReplySection::Extended),
            Err(e) => {
                let message = self.game_message(&GameError::Calendar(e));
                self.refuse(located, Refusal::BadSpan(message));
            }
        }
    }

    /// `ANNULER phase`: the last phase undone, once a mail.
    pub(super) fn rollback(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: String,
    ) -> Result<(), ServiceError> {
        // The last phase is read from the store, which does not hold yet what
        // this mail processed or undid.
        if Self::phase_changed(game) {
            self.refuse(located, Refusal::ProcessOnce);
            return Ok(());
        }
        let Some(session) = game else {
            return Ok(());
        };
        let last = session.last_phase()?;
        match (last, PhaseGuard::read(&phase)) {
            (None, _) => {
                let message = self.game_message(&GameError::NothingToRollback);
                self.error(located, message);
            }
            (Some(_), Err(e)) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
            (Some(last), Ok(guard)) => {
                let action = Action::Rollback {
                    last: Box::new(last),
                    expected: Some(guard),
                };
                self.moderate(game, located, action, ReplySection::RolledBack);
            }
        }
        Ok(())
    }
}
