//! The play of a game: its start, the houses deciding each phase, their orders,
//! readiness and votes, pauses and extensions.

use chrono::{DateTime, TimeDelta, Utc};

use crate::judge::{
    GivenOrder, Illegal, Outcome, PhaseKind, Position, adjudicate_under, adjustment_counts,
    free_home_centres,
};
use crate::map::{HouseId, Owner, Variant};

use crate::game::conditional::ConditionNote;
use crate::game::model::{Ending, Game, GameStatus, Seat, Submission, SubmitMode, Vote};
use crate::game::orders::{OrderLines, given_orders, merge, read_submission_noted};
use crate::game::span::Span;
use crate::game::victory::{survivors, vote_ending};
use crate::game::{GameError, HouseKey};

use super::IN_PLAY;
use super::process::Adjudicated;

/// The most orders a house keeps for one phase: far more than any house of any variant
/// has units and builds, repeated orders for one unit counted too.
pub(super) const MAX_ORDERS: usize = 200;

impl Game {
    /// Starts the game: every seat must have a player; the first deadline is set.
    pub fn start(&mut self, variant: &Variant, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("start", &[GameStatus::Forming])?;
        let missing: Vec<HouseKey> = self
            .seats
            .iter()
            .filter(|s| s.player.is_none())
            .map(|s| s.house.clone())
            .collect();
        if !missing.is_empty() {
            return Err(GameError::MissingPlayers(missing));
        }
        self.status = GameStatus::Running;
        self.open_phase(variant, now, now)
    }

    /// Opens the current phase at `now`, its deadline counted from `base` (see
    /// [`Game::next_base`]): no orders, no reminders yet.
    pub(super) fn open_phase(
        &mut self,
        variant: &Variant,
        base: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.deciding = self.houses_deciding(variant, &self.position);
        self.opened = Some(now);
        self.set_fresh_deadline(base);
        self.reminders_sent = 0;
        for seat in &mut self.seats {
            seat.orders.clear();
            seat.ordered = None;
            seat.ready = false;
        }
        self.submissions.clear();
        self.update_wake(now);
        Ok(())
    }

    /// Which houses have something to decide this phase: units to move, dislodged units
    /// to retreat, builds or disbands to make.
    pub fn houses_deciding(&self, variant: &Variant, position: &Position) -> Vec<HouseKey> {
        let adjustments = adjustment_counts(variant, position);
        self.seats
            .iter()
            .filter(|seat| {
                let Some(h) = variant.house_by_name(&seat.house) else {
                    return false;
                };
                let owned = |o: Owner| o == Owner::House(h);
                match position.phase.kind {
                    PhaseKind::Movement => position.units.iter().any(|u| owned(u.owner)),
                    PhaseKind::Retreat => position.dislodged.iter().any(|d| owned(d.unit.owner)),
                    PhaseKind::Adjustment => {
                        let delta = adjustments[usize::from(h.0)];
                        delta < 0
                            || (delta > 0 && !free_home_centres(variant, position, h).is_empty())
                    }
                }
            })
            .map(|s| s.house.clone())
            .collect()
    }

    /// Houses with something to decide, not in civil disorder, that have neither given
    /// orders nor declared themselves ready.
    pub fn waiting_for(&self) -> Vec<HouseKey> {
        self.deciding
            .iter()
            .filter(|h| {
                self.seat(h)
                    .is_some_and(|s| !s.civil_disorder && s.ordered.is_none() && !s.ready)
            })
            .cloned()
            .collect()
    }

    /// Houses with something to decide that are not in civil disorder.
    pub(super) fn active_deciders(&self) -> impl Iterator<Item = &Seat> {
        self.deciding
            .iter()
            .filter_map(|h| self.seat(h))
            .filter(|s| !s.civil_disorder)
    }

    /// Every active house with something to decide declared itself ready.
    pub fn all_ready(&self) -> bool {
        let mut any = false;
        let all = self.active_deciders().all(|s| {
            any = true;
            s.ready
        });
        any && all
    }

    /// Takes a house's orders (all of them, or those of the units named). Orders are
    /// taken while the game runs or is paused, up to the end of the grace period. Whether
    /// the house, ready before, is ready no more: its orders now hold an illegal one
    /// ([`Game::holds_illegal_orders`]), and what became of the set's `IF` blocks.
    pub fn submit(
        &mut self,
        variant: &Variant,
        house: &HouseKey,
        lines: &OrderLines,
        mode: SubmitMode,
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<(bool, Vec<ConditionNote>), GameError> {
        self.require("submit orders", IN_PLAY)?;
        if self.status == GameStatus::Running
            && self.past_grace(now)
            && let Some(deadline) = self.deadline
        {
            return Err(GameError::Late {
                deadline,
                zone: self.settings.schedule.time_zone,
            });
        }
        let h = house_index(variant, house)?;
        if !self.deciding.iter().any(|d| d == house) {
            return Err(GameError::NothingToOrder {
                house: house.clone(),
            });
        }
        let read = read_submission_noted(variant, &self.position, h, lines)?;
        let seat = self.seat_in(house)?;
        let orders = merge(&seat.orders, read.orders, mode);
        if orders.len() > MAX_ORDERS {
            return Err(GameError::TooManyOrders {
                count: orders.len(),
                max: MAX_ORDERS,
            });
        }
        seat.orders = orders;
        seat.ordered = Some(now);
        seat.set_disorder(None);
        let was_ready = seat.ready;
        self.submissions.push(Submission {
            house: house.clone(),
            at: now,
            source: source.to_string(),
            mode,
            text: lines.text(),
        });
        // A READY given before these orders did not mean them: processed with an illegal
        // order, the unit would hold or be disbanded before its player reads why.
        let unready = was_ready && self.holds_illegal_orders(variant, house);
        if unready {
            self.seat_in(house)?.ready = false;
        }
        self.update_wake(now);
        Ok((unready, read.conditions))
    }

    /// Whether the judge finds one of the house's orders illegal when it reads them alone
    /// (a retreat where the unit may not go, a move out of reach, an order for no unit):
    /// the orders as the answer to them shows them. An earlier order replaced by a later
    /// one for the same unit is no mistake.
    pub fn holds_illegal_orders(&self, variant: &Variant, house: &HouseKey) -> bool {
        self.check_orders(variant, house).is_ok_and(|checked| {
            let adjudication = &checked.adjudication;
            adjudication
                .reports
                .iter()
                .filter(|(index, r)| !spare_waive(&checked, *index, &r.outcome))
                .any(|(index, r)| index.is_some() && matches!(r.outcome, Outcome::Illegal(_)))
                || adjudication
                    .rejected
                    .iter()
                    .any(|r| r.illegal != Illegal::Replaced)
        })
    }

    /// How many of the house's waives find no build left to waive (more builds and
    /// waives than the house may make): as on njudge, they are ignored, and do not keep
    /// `PRÊT` from counting (docs/email.md, "Builds and waives").
    pub fn spare_waives(&self, variant: &Variant, house: &HouseKey) -> usize {
        self.check_orders(variant, house).map_or(0, |checked| {
            checked
                .adjudication
                .reports
                .iter()
                .filter(|(index, r)| spare_waive(&checked, *index, &r.outcome))
                .count()
        })
    }

    /// The orders of every house, for the judge.
    pub fn given_orders(&self, variant: &Variant) -> Vec<GivenOrder> {
        self.seats
            .iter()
            .filter_map(|s| variant.house_by_name(&s.house).map(|h| (h, s)))
            .flat_map(|(h, s)| given_orders(h, &s.orders))
            .collect()
    }

    /// The orders of one house as the judge understands them: each order's outcome if it
    /// were adjudicated alone (so illegal ones show with their reason) and the units still
    /// without orders.
    pub fn check_orders(
        &self,
        variant: &Variant,
        house: &HouseKey,
    ) -> Result<Adjudicated, GameError> {
        let h = house_index(variant, house)?;
        let orders = self
            .seat(house)
            .map(|s| given_orders(h, &s.orders))
            .unwrap_or_default();
        let adjudication = adjudicate_under(variant, &self.position, &orders, self.settings.rules);
        Ok(Adjudicated {
            before: self.position.clone(),
            orders,
            adjudication,
            shown_to: None,
        })
    }

    pub fn set_ready(
        &mut self,
        house: &HouseKey,
        ready: bool,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("declare ready", IN_PLAY)?;
        let seat = self.seat_in(house)?;
        seat.ready = ready;
        self.update_wake(now);
        Ok(())
    }

    /// Records a house's vote; returns the ending if the votes now end the game.
    pub fn vote(
        &mut self,
        variant: &Variant,
        house: &HouseKey,
        vote: Option<Vote>,
        now: DateTime<Utc>,
    ) -> Result<Option<Ending>, GameError> {
        self.require("vote", IN_PLAY)?;
        let vote = match vote {
            Some(Vote::Concede(to)) => {
                self.plays(&to)?;
                if to == *house {
                    return Err(GameError::BadVote(to.to_string()));
                }
                Some(Vote::Concede(to))
            }
            Some(Vote::DrawWith(named)) => Some(self.draw_set(variant, named)?),
            other => other,
        };
        let seat = self.seat_in(house)?;
        seat.vote = vote;
        let ending = vote_ending(&survivors(variant, self, &self.position), self);
        if let Some(ending) = &ending {
            self.finish(ending.clone(), now);
        }
        Ok(ending)
    }

    /// A draw naming houses, each once: each must still be in the game (a house out of
    /// it shares no draw). Naming every survivor is the plain draw.
    fn draw_set(&self, variant: &Variant, named: Vec<HouseKey>) -> Result<Vote, GameError> {
        let alive = survivors(variant, self, &self.position);
        let mut houses: Vec<HouseKey> = Vec::new();
        for house in named {
            self.plays(&house)?;
            if !alive.contains(&house) {
                return Err(GameError::DrawWithout(house));
            }
            if !houses.contains(&house) {
                houses.push(house);
            }
        }
        if houses.is_empty() {
            return Err(GameError::BadVote(String::new()));
        }
        if alive.iter().all(|h| houses.contains(h)) {
            return Ok(Vote::Draw);
        }
        Ok(Vote::DrawWith(houses))
    }

    pub fn pause(&mut self, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("pause", &[GameStatus::Running])?;
        self.status = GameStatus::Paused;
        self.paused_left = self.deadline.map(|d| (d - now).num_seconds().max(0));
        self.update_wake(now);
        Ok(())
    }

    /// Resumes a paused game: the time that was left before the deadline is given back,
    /// and at least an hour, so that nobody is processed the moment the game resumes.
    pub fn resume(&mut self, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("resume", &[GameStatus::Paused])?;
        self.status = GameStatus::Running;
        let left = self.paused_left.take().unwrap_or(0).max(3600);
        self.deadline = Some(now + TimeDelta::seconds(left));
        // A fresh deadline: absences count from it (and those declared during the pause
        // move it now).
        self.absence_base = None;
        self.grace_told = false;
        self.push_past_absences(now);
        self.update_wake(now);
        Ok(())
    }

    /// Moves the deadline later by `by`, within the game's cap on extensions.
    pub fn extend(&mut self, by: Span, now: DateTime<Utc>) -> Result<DateTime<Utc>, GameError> {
        self.require("extend the deadline", IN_PLAY)?;
        let deadline = self.deadline.unwrap_or(now);
        let extended = self.settings.schedule.extend(deadline, by, self.extended)?;
        self.extended = self.extended.checked_add(by).unwrap_or(Span::MAX);
        self.deadline = Some(extended);
        if let Some(base) = &mut self.absence_base {
            // The extension moves the deadline without absences too.
            *base = self.settings.schedule.after(*base, by);
        }
        if let Some(left) = &mut self.paused_left {
            *left += by.as_delta().num_seconds();
        }
        self.grace_told = false;
        // An extension into a declared absence goes past it, as any deadline does.
        self.push_past_absences(now);
        self.update_wake(now);
        Ok(self.deadline.unwrap_or(extended))
    }
}

fn house_index(variant: &Variant, house: &HouseKey) -> Result<HouseId, GameError> {
    variant
        .house_by_name(house)
        .ok_or_else(|| GameError::HouseNotInGame(house.clone()))
}

/// Whether the report of the order at `index` is a waive beyond the house's builds.
fn spare_waive(checked: &Adjudicated, index: Option<usize>, outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Illegal(Illegal::NoBuildAllowed))
        && index
            .and_then(|i| checked.orders.get(i))
            .is_some_and(|o| matches!(o.order.action, crate::order::Instruction::Waive))
}
