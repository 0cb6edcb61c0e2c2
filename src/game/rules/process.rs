//! Processing a phase (the judge's adjudication and the next phase's opening),
//! rolling it back, correcting the position, and ending the game.

use chrono::{DateTime, Utc};

use crate::judge::{Adjudication, GivenOrder, Position, adjudicate_under};
use crate::map::Variant;
use crate::position::{read_position, write_position};

use crate::game::GameError;
use crate::game::action::{EndBy, PhaseGuard};
use crate::game::event::{Event, Missed};
use crate::game::model::{Ending, Game, GameStatus, PhaseRecord, Trigger};
use crate::game::victory::{board_ending, survivors, vote_ending};

use super::clock::next_base;
use super::{IN_PLAY, NOT_OVER};
use crate::game::HouseKey;

/// A phase as the judge decided it: the position before, the orders given and the
/// adjudication. The game does not word it: the report layer makes its views (the results,
/// the answer to a house's orders) from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudicated {
    pub before: Position,
    pub orders: Vec<GivenOrder>,
    pub adjudication: Adjudication,
    /// A player's trial of its own orders: what is shown of it is that house's only.
    pub shown_to: Option<HouseKey>,
}

impl Game {
    /// The current phase adjudicated on a copy, nothing kept (`PREVIEW`). For a house
    /// (a player's preview), only its orders are given, every other house's units
    /// holding as if without orders, and the record says that only that house's part
    /// of the results may be shown: a player learns nothing of the orders the others
    /// sent.
    pub fn trial(
        &self,
        variant: &Variant,
        house: Option<&HouseKey>,
        now: DateTime<Utc>,
    ) -> Result<(Game, PhaseRecord<Adjudicated>), GameError> {
        let mut trial = self.clone();
        if let Some(house) = house {
            trial.plays(house)?;
            // The other houses hold, those the bot would play too: a player's trial
            // shows nothing of what others will do.
            trial.settings.bots = false;
            for seat in trial.seats.iter_mut().filter(|s| &s.house != house) {
                seat.orders.clear();
            }
        }
        let mut record = trial.process(variant, now, Trigger::Moderator)?;
        if let Some(house) = house {
            record.results.shown_to = Some(house.clone());
            record.ending = None;
        }
        Ok((trial, record))
    }

    /// Adjudicates the current phase with the orders received (missing orders hold), and
    /// moves the game to the next phase. Returns the record to keep in the history, with
    /// the judge's decision, which the report layer puts in the results format.
    pub fn process(
        &mut self,
        variant: &Variant,
        now: DateTime<Utc>,
        trigger: Trigger,
    ) -> Result<PhaseRecord<Adjudicated>, GameError> {
        self.require("process", IN_PLAY)?;
        let before_game = self.clone();
        let position = self.position.clone();
        let deciding = self.houses_deciding(variant, &position);
        // After the copy `rollback` restores: played again, the phase asks the bot anew.
        let bots = self.bot_houses(&deciding);
        self.give_bot_orders(variant, &position, &bots);
        let given = self.given_orders(variant);
        let mut adjudication = adjudicate_under(variant, &position, &given, self.settings.rules);
        crate::game::weather::advance_weather(variant, &self.id, &mut adjudication.after);
        let (missed, civil_disorder) = self.count_missed(&deciding);
        let orders = self.written_orders();
        let after = &adjudication.after;
        self.position = after.clone();
        self.phase = after.phase;
        self.played += 1;
        let ending = board_ending(variant, self, &position, after)
            .or_else(|| vote_ending(&survivors(variant, self, after), self));
        let results = Adjudicated {
            before: position.clone(),
            orders: given,
            adjudication,
            shown_to: None,
        };
        let record = PhaseRecord {
            index: before_game.played,
            phase: position.phase,
            opened: before_game.opened,
            deadline: before_game.deadline,
            processed: now,
            trigger,
            position_before: position.clone(),
            submissions: std::mem::take(&mut self.submissions),
            orders,
            results,
            position_after: self.position.clone(),
            civil_disorder,
            missed,
            ending: ending.clone(),
            bots,
            game_before: Box::new(before_game),
        };
        match ending {
            Some(ending) => self.finish(ending, now),
            None => {
                let base = next_base(
                    &self.settings.schedule,
                    self.phase.kind,
                    record.deadline,
                    trigger,
                    now,
                );
                self.open_phase(variant, base, now)?;
            }
        }
        Ok(record)
    }

    /// Counts a phase missed by each deciding house that gave no orders and did not
    /// declare itself ready, and puts those past the game's limit in civil disorder:
    /// the houses that missed this phase, and those that fell into civil disorder.
    fn count_missed(&mut self, deciding: &[HouseKey]) -> (Vec<HouseKey>, Vec<HouseKey>) {
        let mut civil_disorder = Vec::new();
        let mut missed = Vec::new();
        let limit = self.settings.civil_disorder_after;
        for seat in &mut self.seats {
            if !deciding.contains(&seat.house) {
                continue;
            }
            if seat.ordered.is_some() || seat.ready {
                seat.missed = 0;
            } else {
                // A house already in civil disorder is expected to give nothing: the
                // moderator was told when it fell into it.
                if !seat.civil_disorder {
                    missed.push(seat.house.clone());
                }
                seat.missed += 1;
                if limit > 0 && seat.missed >= limit && !seat.civil_disorder {
                    seat.set_disorder(Some(self.phase));
                    civil_disorder.push(seat.house.clone());
                }
            }
        }
        (missed, civil_disorder)
    }

    /// Each house's orders as written, for the phase's record.
    fn written_orders(&self) -> Vec<(HouseKey, Vec<String>)> {
        self.seats
            .iter()
            .filter(|s| !s.orders.is_empty())
            .map(|s| {
                (
                    s.house.clone(),
                    s.orders.iter().map(|o| o.order.text.clone()).collect(),
                )
            })
            .collect()
    }

    /// Undoes the last processed phase: the phase is played again with the orders it had,
    /// but nobody is ready any more (else, with everyone ready, the next tick would replay
    /// it at once with the same orders), and a fresh deadline counted from now. What is not
    /// the phase's play stays as it is now: the players (a replacement or a new address
    /// since), their absences, the moderator, the observers and the settings.
    pub fn rollback(&mut self, last: &PhaseRecord, now: DateTime<Utc>) {
        let mut restored = (*last.game_before).clone();
        for seat in &mut restored.seats {
            seat.ready = false;
            if let Some(current) = self.seat(&seat.house) {
                if seat.player != current.player {
                    // Someone new since: their seat's standing is theirs, not the old one's.
                    seat.civil_disorder = current.civil_disorder;
                    seat.disorder_since = current.disorder_since;
                    seat.missed = current.missed;
                }
                seat.player.clone_from(&current.player);
                seat.absences.clone_from(&current.absences);
                seat.ahead = super::ahead::blocks_after_rollback(&seat.ahead, &current.ahead);
                seat.resigned = current.resigned;
                if current.resigned {
                    seat.civil_disorder = true;
                    seat.disorder_since = seat.disorder_since.or(current.disorder_since);
                }
            }
        }
        restored.moderator.clone_from(&self.moderator);
        restored.observers.clone_from(&self.observers);
        restored.settings.clone_from(&self.settings);
        // A version of the variant the moderator moved the game to since stays: it was
        // checked against every position of the history (`game variant`).
        restored.variant.clone_from(&self.variant);
        if self.status == GameStatus::Paused {
            // The moderator's pause since holds.
            restored.status = GameStatus::Paused;
        }
        if restored.status == GameStatus::Paused {
            // Still paused: the deadline is given back at the resume, a phase's length.
            restored.paused_left = Some(
                restored
                    .settings
                    .schedule
                    .span(restored.phase.kind)
                    .as_delta()
                    .num_seconds(),
            );
        }
        restored.opened = Some(now);
        restored.set_fresh_deadline(now);
        restored.reminders_sent = 0;
        restored.update_wake(now);
        *self = restored;
    }

    /// Ends the game.
    pub fn finish(&mut self, ending: Ending, now: DateTime<Utc>) {
        self.status = GameStatus::Finished;
        self.ending = Some(ending);
        self.deadline = None;
        self.update_wake(now);
    }

    /// Ends the game by the moderator's decision.
    pub fn end(&mut self, ending: Ending, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("end the game", NOT_OVER)?;
        self.finish(ending, now);
        Ok(())
    }

    /// Replaces the position (the moderator's correction); orders given so far are kept
    /// only if the phase is unchanged.
    pub fn edit_position(
        &mut self,
        variant: &Variant,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("edit the position", NOT_OVER)?;
        let position = read_position(variant, &self.id, text)
            .map_err(|e| GameError::BadPosition(e.to_string()))?;
        let same_phase = position.phase == self.phase;
        self.phase = position.phase;
        self.position = position;
        if !same_phase && self.status != GameStatus::Forming {
            self.open_phase(variant, now, now)?;
        } else {
            self.deciding = self.houses_deciding(variant, &self.position);
        }
        Ok(())
    }

    /// The moderator's or the clock's `process`, its guard checked first; the houses
    /// that missed the phase, with how many phases in a row each has missed.
    pub(in crate::game) fn process_guarded(
        &mut self,
        variant: &Variant,
        expected: Option<PhaseGuard>,
        trigger: Trigger,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        if let Some(guard) = &expected {
            guard.check(self.phase)?;
        }
        let record = self.process(variant, now, trigger)?;
        // After the phase's own record: the orders written ahead for the next phase are
        // read against the position it opens with.
        let ahead = self.activate_ahead(variant, now);
        let missed = record
            .missed
            .iter()
            .map(|house| Missed {
                house: house.clone(),
                phases: self.seat(house).map_or(1, |s| s.missed),
            })
            .collect();
        let mut events = vec![Event::Processed {
            record: Box::new(record),
            trigger,
            missed,
        }];
        events.extend(ahead);
        Ok(events)
    }

    /// Undoes `last`, if the guard, when given, names it (the phase to undo, not the one
    /// being played).
    pub(in crate::game) fn rollback_guarded(
        &mut self,
        last: &PhaseRecord,
        expected: Option<PhaseGuard>,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        if let Some(guard) = &expected {
            guard.check(last.phase)?;
        }
        self.rollback(last, now);
        Ok(Event::RolledBack {
            index: last.index,
            phase: last.phase,
        })
    }

    /// Ends the game as the moderator says (its houses must play here).
    pub(in crate::game) fn end_by(
        &mut self,
        variant: &Variant,
        by: EndBy,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let ending = match by {
            EndBy::Win(houses) => {
                houses.iter().try_for_each(|h| self.plays(h))?;
                Ending::Win {
                    houses,
                    reason: "moderator".into(),
                }
            }
            EndBy::Draw => Ending::Draw {
                houses: survivors(variant, self, &self.position),
            },
            EndBy::Concede(house) => {
                self.plays(&house)?;
                Ending::Concession { house }
            }
            EndBy::Abandon => Ending::Abandoned,
        };
        self.end(ending.clone(), now)?;
        Ok(Event::Ended { ending })
    }

    /// The moderator's correction of the position, with the position before and after
    /// it for the audit trail.
    pub(in crate::game) fn edit(
        &mut self,
        variant: &Variant,
        position: &str,
        reason: String,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let before = write_position(variant, &self.position);
        self.edit_position(variant, position, now)?;
        let after = write_position(variant, &self.position);
        Ok(Event::Edited {
            reason,
            before,
            after,
        })
    }
}
