//! Orders written ahead for later phases (a mail's `PHASE` blocks): kept per house, one a
//! phase, and made the house's orders when their phase begins, read then against the
//! position of that moment. A block whose phase never comes is given back to its player,
//! never dropped in silence.

use chrono::{DateTime, Utc};

use crate::judge::Phase;
use crate::map::Variant;

use crate::game::event::Event;
use crate::game::model::{AheadBlock, AheadDrop, Game, GameStatus, SubmitMode};
use crate::game::orders::OrderLines;
use crate::game::{GameError, HouseKey};

use super::IN_PLAY;

/// How many years past the current one a block may be for: further than this, a
/// veteran's typo (`F1950M` for `F1905M`) is likelier than a plan.
pub const MAX_YEARS_AHEAD: i32 = 5;
/// How many blocks a house may hold at once (a year of every phase is five).
pub const MAX_AHEAD_BLOCKS: usize = 12;
/// How many lines one block may hold: as many as the orders of one phase.
pub const MAX_AHEAD_LINES: usize = super::play::MAX_ORDERS;

impl Game {
    /// Keeps a house's block of orders for a later phase, replacing the one it had for
    /// that phase; whether it replaced one.
    pub(in crate::game) fn keep_ahead(
        &mut self,
        house: &HouseKey,
        block: AheadBlock,
    ) -> Result<bool, GameError> {
        self.require("keep orders for a later phase", IN_PLAY)?;
        if block.phase <= self.phase {
            return Err(GameError::AheadPast {
                phase: block.phase,
                current: self.phase,
            });
        }
        let last = self.phase.year.saturating_add(MAX_YEARS_AHEAD);
        if block.phase.year > last {
            return Err(GameError::AheadTooFar {
                phase: block.phase,
                last,
            });
        }
        if block.lines.len() > MAX_AHEAD_LINES {
            return Err(GameError::AheadTooLong {
                lines: block.lines.len(),
                max: MAX_AHEAD_LINES,
            });
        }
        let seat = self.seat_in(house)?;
        let replaced = seat.ahead.iter().any(|b| b.phase == block.phase);
        if !replaced && seat.ahead.len() >= MAX_AHEAD_BLOCKS {
            return Err(GameError::AheadTooMany {
                max: MAX_AHEAD_BLOCKS,
            });
        }
        seat.ahead.retain(|b| b.phase != block.phase);
        seat.ahead.push(block);
        seat.ahead.sort_by_key(|b| b.phase);
        Ok(replaced)
    }

    /// Removes every block of a house; the phases they were for.
    pub(in crate::game) fn clear_ahead(
        &mut self,
        house: &HouseKey,
    ) -> Result<Vec<Phase>, GameError> {
        self.require("clear orders for later phases", IN_PLAY)?;
        let seat = self.seat_in(house)?;
        Ok(std::mem::take(&mut seat.ahead)
            .into_iter()
            .map(|b| b.phase)
            .collect())
    }

    /// Once a phase is processed: the blocks for the phase now open become their houses'
    /// orders, those for a phase the game went past (or, the game over, every one) are
    /// given back. What happened to each, as events.
    pub(in crate::game) fn activate_ahead(
        &mut self,
        variant: &Variant,
        now: DateTime<Utc>,
    ) -> Vec<Event> {
        let over = self.status == GameStatus::Finished;
        let current = self.phase;
        let mut events = Vec::new();
        let mut due: Vec<(HouseKey, AheadBlock)> = Vec::new();
        for seat in &mut self.seats {
            let (now_or_past, later): (Vec<AheadBlock>, Vec<AheadBlock>) =
                std::mem::take(&mut seat.ahead)
                    .into_iter()
                    .partition(|b| over || b.phase <= current);
            seat.ahead = later;
            due.extend(now_or_past.into_iter().map(|b| (seat.house.clone(), b)));
        }
        for (house, block) in due {
            let why = if over {
                Some(AheadDrop::GameOver)
            } else if block.phase < current {
                Some(AheadDrop::NeverCame)
            } else if !self.deciding.contains(&house) {
                Some(AheadDrop::NothingToDecide)
            } else {
                None
            };
            if let Some(why) = why {
                events.push(Event::AheadDropped {
                    house,
                    phase: block.phase,
                    lines: block.lines,
                    why,
                });
                continue;
            }
            let lines = OrderLines::picked(block.lines.clone());
            let source = format!("ahead, {}", block.source);
            let refused = self
                .submit(variant, &house, &lines, SubmitMode::Replace, &source, now)
                .is_err();
            let ready = !refused
                && block.ready == Some(true)
                && !self.holds_illegal_orders(variant, &house)
                && self.set_ready(&house, true, now).is_ok();
            events.push(Event::AheadActivated {
                house,
                phase: block.phase,
                lines: block.lines,
                refused,
                ready,
            });
        }
        events
    }
}

/// The blocks a rollback leaves a house: those the undone phase's processing used or
/// gave back come back, and those kept since stay, the newer winning for one phase.
pub(super) fn blocks_after_rollback(
    before: &[AheadBlock],
    since: &[AheadBlock],
) -> Vec<AheadBlock> {
    let mut blocks: Vec<AheadBlock> = before
        .iter()
        .filter(|b| since.iter().all(|s| s.phase != b.phase))
        .cloned()
        .chain(since.iter().cloned())
        .collect();
    blocks.sort_by_key(|b| b.phase);
    blocks
}

impl Game {
    /// Why the house's orders `lines` are refused when read against the position now (the
    /// lines at fault), or nothing if they are taken: the answer a block's player reads
    /// when its phase began, worded by the report layer.
    pub fn problems_now(
        &self,
        variant: &Variant,
        house: &HouseKey,
        lines: &[(usize, String)],
    ) -> Vec<crate::game::OrderProblem> {
        match self.read_now(variant, house, lines) {
            Some(Err(GameError::OrdersRefused(problems))) => problems,
            _ => Vec::new(),
        }
    }

    /// What became of the `IF` blocks of the house's orders `lines` read against the
    /// position now: the branch a block's conditions chose when its phase began.
    pub fn conditions_now(
        &self,
        variant: &Variant,
        house: &HouseKey,
        lines: &[(usize, String)],
    ) -> Vec<crate::game::ConditionNote> {
        self.read_now(variant, house, lines)
            .and_then(Result::ok)
            .map(|read| read.conditions)
            .unwrap_or_default()
    }

    /// The house's orders `lines` read as a mail's are, against the position now.
    fn read_now(
        &self,
        variant: &Variant,
        house: &HouseKey,
        lines: &[(usize, String)],
    ) -> Option<Result<crate::game::orders::ReadOrders, GameError>> {
        let h = variant.house_by_name(house)?;
        let lines = OrderLines::picked(lines.to_vec());
        Some(crate::game::orders::read_submission_noted(
            variant,
            &self.position,
            h,
            &lines,
        ))
    }
}
