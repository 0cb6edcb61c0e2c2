//! What can happen to a game, as changes of a [`Game`] value: creation, players, start,
//! orders, readiness, votes, pauses, extensions, processing, rollback and end. Nothing
//! here touches the store: the caller saves the changed game (and the phase record) in
//! one transaction, so a refused action (an `Err`) changes nothing.

use chrono::{DateTime, TimeDelta, Utc};

use crate::judge::{
    Adjudication, GivenOrder, PhaseKind, Position, Report, adjudicate, adjustment_counts,
    free_home_centres,
};
use crate::lang::Lang;
use crate::map::{HouseId, Owner, PinnedVariant, Variant};
use crate::position::read_position;

use super::GameError;
use super::calendar::Absence;
use super::model::{
    Ending, Game, GameStatus, Moderator, PhaseRecord, Player, Seat, Settings, Submission,
    SubmitMode, Trigger, Vote,
};
use super::orders::{OrderLines, given_orders, merge, read_submission};
use super::span::Span;
use super::victory::{board_ending, survivors, vote_ending};

/// States in which players and the moderator may still change a game.
const NOT_OVER: &[GameStatus] = &[GameStatus::Forming, GameStatus::Running, GameStatus::Paused];
/// The most orders a house keeps for one phase: far more than any house of any variant
/// has units and builds, repeated orders for one unit counted too.
pub const MAX_ORDERS: usize = 200;
/// States in which orders, votes and phases happen.
const IN_PLAY: &[GameStatus] = &[GameStatus::Running, GameStatus::Paused];

/// A phase as the judge decided it: the position before, the orders given and the
/// adjudication. The game does not word it: the report layer makes its views (the results,
/// the answer to a house's orders) from it.
#[derive(Debug, Clone)]
pub struct Adjudicated {
    pub before: Position,
    pub orders: Vec<GivenOrder>,
    pub adjudication: Adjudication,
}

/// What makes the stored results of a phase (`PhaseRecord::results`, docs/results-format.md)
/// from its adjudication: given by the caller (the report layer's), so that the game words
/// nothing; the game keeps the typed results it returns.
pub type ResultsMaker<'a> = &'a dyn Fn(&Variant, &Adjudicated) -> super::results::ResultsView;

/// What a moderator gives to create a game.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub id: String,
    pub name: Option<String>,
    pub variant: String,
    pub players: u8,
    pub settings: Settings,
    pub moderator: Option<Moderator>,
}

/// Game ids are used in commands and mail subjects: short, lowercase, no spaces.
pub fn check_game_id(id: &str) -> Result<(), GameError> {
    let ok = (1..=32).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(GameError::BadGameId(id.to_string()))
    }
}

/// A game's full name as every mail and page shows it: one line (a line break in it would
/// forge lines of the mails' text, such as the `:: key: value` lines programs read),
/// control characters as spaces, at most 100 characters.
fn one_line(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ").chars().take(100).collect()
}

/// A new game, forming: its seats are the houses of the setup for its number of players.
/// `pin` names the content of `variant`, which the store keeps for the game's whole life.
pub fn create(
    new: NewGame,
    variant: &Variant,
    pin: PinnedVariant,
    now: DateTime<Utc>,
) -> Result<Game, GameError> {
    check_game_id(&new.id)?;
    new.settings.schedule.validate()?;
    let setup = variant
        .setup(new.players)
        .ok_or_else(|| GameError::NoSetup {
            variant: variant.id.clone(),
            players: new.players,
            available: variant.setups.iter().map(|s| s.players).collect(),
        })?;
    let position =
        Position::starting(variant, Some(new.players)).ok_or_else(|| GameError::NoSetup {
            variant: variant.id.clone(),
            players: new.players,
            available: Vec::new(),
        })?;
    Ok(Game {
        name: new
            .name
            .map(|n| one_line(&n))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| new.id.clone()),
        id: new.id,
        variant: pin,
        players: new.players,
        status: GameStatus::Forming,
        settings: new.settings,
        moderator: new.moderator,
        seats: setup
            .houses
            .iter()
            .map(|&h| Seat::new(&variant.house(h).id))
            .collect(),
        phase: position.phase,
        position,
        played: 0,
        opened: None,
        deadline: None,
        extended: Span::ZERO,
        reminders_sent: 0,
        paused_left: None,
        submissions: Vec::new(),
        created: now,
        ending: None,
        deciding: Vec::new(),
        wake: None,
        observers: Vec::new(),
        absence_base: None,
        grace_told: false,
        observer_requests: Vec::new(),
    })
}

/// A valid-looking email address: one `@`, something on each side, no spaces.
pub fn check_address(address: &str) -> Result<String, GameError> {
    let address = address.trim();
    let ok = match address.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !address
                    .chars()
                    .any(|c| c.is_whitespace() || c == '<' || c == '>')
        }
        None => false,
    };
    if ok {
        Ok(address.to_lowercase())
    } else {
        Err(GameError::BadAddress(address.to_string()))
    }
}

impl Game {
    /// The house id of a name, alias or close misspelling, which must play in this game.
    pub fn house_id(&self, variant: &Variant, name: &str) -> Result<String, GameError> {
        let house = match crate::position::house_named(variant, name) {
            Some(Owner::House(h)) => variant.house(h).id.clone(),
            _ => {
                return Err(GameError::UnknownHouse {
                    name: name.to_string(),
                    houses: self.seats.iter().map(|s| s.house.clone()).collect(),
                });
            }
        };
        if self.seat(&house).is_none() {
            return Err(GameError::HouseNotInGame(house));
        }
        Ok(house)
    }

    /// The seat of a house of this game, or the error saying it does not play here.
    fn seat_in(&mut self, house: &str) -> Result<&mut Seat, GameError> {
        self.seat_mut(house)
            .ok_or_else(|| GameError::HouseNotInGame(house.to_string()))
    }

    fn require(&self, action: &'static str, allowed: &[GameStatus]) -> Result<(), GameError> {
        if allowed.contains(&self.status) {
            Ok(())
        } else {
            Err(GameError::Status {
                action,
                status: self.status,
            })
        }
    }

    /// `address` made canonical, if it is a mail address no other house's player has.
    pub fn free_address(&self, house: &str, address: &str) -> Result<String, GameError> {
        let address = check_address(address)?;
        let taken = self
            .seats
            .iter()
            .find(|s| s.house != house && s.player.as_ref().is_some_and(|p| p.address == address));
        match taken {
            Some(other) => Err(GameError::AddressTaken {
                address,
                house: other.house.clone(),
            }),
            None => Ok(address),
        }
    }

    /// Seats a player; before or during the game (a seat left empty or resigned).
    pub fn add_player(
        &mut self,
        house: &str,
        address: &str,
        secret_hash: String,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("add a player", NOT_OVER)?;
        let address = self.free_address(house, address)?;
        let seat = self.seat_in(house)?;
        if let Some(p) = &seat.player
            && !seat.resigned
        {
            return Err(GameError::SeatTaken {
                house: house.to_string(),
                address: p.address.clone(),
            });
        }
        seat.player = Some(Player {
            address,
            secret: secret_hash,
            lang,
            joined: now,
            bounced: None,
        });
        seat.resigned = false;
        seat.civil_disorder = false;
        seat.missed = 0;
        Ok(())
    }

    /// Gives a house to a new player: the orders already given stay, civil disorder ends.
    pub fn replace_player(
        &mut self,
        house: &str,
        address: &str,
        secret_hash: String,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
        self.require("replace a player", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        if seat.player.is_none() {
            return Err(GameError::NoPlayer(house.to_string()));
        }
        seat.player = None;
        self.add_player(house, address, secret_hash, lang, now)
    }

    /// Leaves a house without a player (its units hold until someone takes it).
    pub fn remove_player(&mut self, house: &str) -> Result<Player, GameError> {
        self.require("remove a player", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        let player = seat
            .player
            .take()
            .ok_or_else(|| GameError::NoPlayer(house.to_string()))?;
        seat.ready = false;
        seat.vote = None;
        Ok(player)
    }

    /// A player leaves the game: the house falls into civil disorder (its units hold, or
    /// are disbanded as the rules say) until the moderator seats someone else.
    pub fn resign(&mut self, house: &str, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("resign", NOT_OVER)?;
        let seat = self.seat_in(house)?;
        if seat.player.is_none() || seat.resigned {
            return Err(GameError::NoPlayer(house.to_string()));
        }
        seat.resigned = true;
        seat.civil_disorder = true;
        seat.ready = false;
        seat.vote = None;
        self.update_wake(now);
        Ok(())
    }

    /// Starts the game: every seat must have a player; the first deadline is set.
    pub fn start(&mut self, variant: &Variant, now: DateTime<Utc>) -> Result<(), GameError> {
        self.require("start", &[GameStatus::Forming])?;
        let missing: Vec<String> = self
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
    fn open_phase(
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
    pub fn houses_deciding(&self, variant: &Variant, position: &Position) -> Vec<String> {
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
    pub fn waiting_for(&self) -> Vec<String> {
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
    fn active_deciders(&self) -> impl Iterator<Item = &Seat> {
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
    /// taken while the game runs or is paused, up to the end of the grace period.
    pub fn submit(
        &mut self,
        variant: &Variant,
        house: &str,
        lines: &OrderLines,
        mode: SubmitMode,
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<(), GameError> {
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
                house: house.to_string(),
            });
        }
        let new = read_submission(variant, &self.position, h, lines)?;
        let seat = self.seat_in(house)?;
        let orders = merge(&seat.orders, new, mode);
        if orders.len() > MAX_ORDERS {
            return Err(GameError::TooManyOrders {
                count: orders.len(),
                max: MAX_ORDERS,
            });
        }
        seat.orders = orders;
        seat.ordered = Some(now);
        seat.civil_disorder = false;
        self.submissions.push(Submission {
            house: house.to_string(),
            at: now,
            source: source.to_string(),
            mode,
            text: lines.text(),
        });
        self.update_wake(now);
        Ok(())
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
    pub fn check_orders(&self, variant: &Variant, house: &str) -> Result<Adjudicated, GameError> {
        let h = house_index(variant, house)?;
        let orders = self
            .seat(house)
            .map(|s| given_orders(h, &s.orders))
            .unwrap_or_default();
        let adjudication = adjudicate(variant, &self.position, &orders);
        Ok(Adjudicated {
            before: self.position.clone(),
            orders,
            adjudication,
        })
    }

    pub fn set_ready(
        &mut self,
        house: &str,
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
        house: &str,
        vote: Option<Vote>,
        now: DateTime<Utc>,
    ) -> Result<Option<Ending>, GameError> {
        self.require("vote", IN_PLAY)?;
        let vote = match vote {
            Some(Vote::Concede(to)) => {
                let to = self.house_id(variant, &to)?;
                if to == house {
                    return Err(GameError::BadVote(to));
                }
                Some(Vote::Concede(to))
            }
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

    /// Records a player's absence; a deadline falling inside it moves past it (within the
    /// game's cap on absences), whatever set that deadline: the phase's opening, an
    /// extension or a resume. Returns the new deadline when it moved. While the game is
    /// paused the deadline is set again at the resume, which applies the absence then.
    pub fn declare_absence(
        &mut self,
        house: &str,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<DateTime<Utc>>, GameError> {
        self.require("declare an absence", NOT_OVER)?;
        if end <= start || end <= now {
            return Err(GameError::BadAbsence);
        }
        let seat = self.seat_in(house)?;
        seat.absences.retain(|a| a.end > now);
        seat.absences.push(Absence { start, end });
        let moved = self.push_past_absences(now);
        self.update_wake(now);
        Ok(moved)
    }

    /// Moves a running game's deadline past the absences it falls inside
    /// ([`Schedule::past_absences`](super::calendar::Schedule::past_absences)); the new
    /// deadline when it moved.
    pub(super) fn push_past_absences(&mut self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if self.status != GameStatus::Running {
            return None;
        }
        let deadline = self.deadline?;
        let base = self.absence_base.unwrap_or(deadline);
        let moved = self
            .settings
            .schedule
            .past_absences(deadline, base, &self.absences());
        if moved <= deadline {
            return None;
        }
        self.absence_base = Some(base);
        self.deadline = Some(moved);
        // A deadline moved out of the grace period: the players are told again if it runs.
        self.grace_told = false;
        self.update_wake(now);
        Some(moved)
    }

    /// Sets the deadline of a phase counted from `base` (its absences applied) and forgets
    /// the extensions and absence pushes of the phase before.
    fn set_fresh_deadline(&mut self, base: DateTime<Utc>) {
        let schedule = &self.settings.schedule;
        let plain = schedule.deadline(base, self.phase.kind, &[]);
        let deadline = schedule.deadline(base, self.phase.kind, &self.absences());
        self.absence_base = (deadline != plain).then_some(plain);
        self.deadline = Some(deadline);
        self.extended = Span::ZERO;
        self.grace_told = false;
    }

    /// When the judge stops waiting for missing orders: [`Schedule::grace_end`], the one
    /// rule of docs/deadlines.md (whole days on the calendar, so a day of grace across a
    /// clock change still ends at the deadline's local time).
    ///
    /// [`Schedule::grace_end`]: super::calendar::Schedule::grace_end
    pub fn grace_end(&self) -> Option<DateTime<Utc>> {
        self.deadline.map(|d| self.settings.schedule.grace_end(d))
    }

    fn past_grace(&self, now: DateTime<Utc>) -> bool {
        self.grace_end().is_some_and(|end| now >= end)
    }

    /// Whether the phase should be processed now, and why.
    pub fn due(&self, now: DateTime<Utc>) -> Option<Trigger> {
        if self.status != GameStatus::Running {
            return None;
        }
        if self.all_ready() {
            return Some(Trigger::Ready);
        }
        let deadline = self.deadline?;
        let everyone_ordered = self
            .active_deciders()
            .all(|s| s.ordered.is_some() || s.ready);
        ((now >= deadline && everyone_ordered) || self.past_grace(now)).then_some(Trigger::Deadline)
    }

    /// The reminder due now, if any: the houses to remind. Counts it as sent.
    pub fn take_reminder(&mut self, now: DateTime<Utc>) -> Option<Vec<String>> {
        let (Some(opened), Some(deadline)) = (self.opened, self.deadline) else {
            return None;
        };
        if self.status != GameStatus::Running || now >= deadline {
            return None;
        }
        let times = self.settings.schedule.reminder_times(opened, deadline);
        let passed = times.iter().filter(|&&t| t <= now).count() as u32;
        if passed <= self.reminders_sent {
            return None;
        }
        // Reminders missed while the judge was stopped are sent once, not one by one.
        self.reminders_sent = passed;
        self.update_wake(now);
        let waiting = self.waiting_for();
        (!waiting.is_empty()).then_some(waiting)
    }

    /// At the deadline, while a grace period runs: the houses still without orders, to be
    /// told that the judge waits for them until the grace period ends. Once per deadline.
    pub fn take_grace_notice(&mut self, now: DateTime<Utc>) -> Option<Vec<String>> {
        let deadline = self.deadline?;
        if self.status != GameStatus::Running
            || now < deadline
            || self.grace_told
            || self.settings.schedule.grace.is_zero()
            || self.past_grace(now)
        {
            return None;
        }
        self.grace_told = true;
        let waiting = self.waiting_for();
        (!waiting.is_empty()).then_some(waiting)
    }

    /// When the judge must look at this game again.
    pub fn update_wake(&mut self, now: DateTime<Utc>) {
        self.wake = match (self.status, self.opened, self.deadline) {
            (GameStatus::Running, Some(opened), Some(deadline)) => {
                let all_ready = self.all_ready();
                let reminder = self
                    .settings
                    .schedule
                    .reminder_times(opened, deadline)
                    .into_iter()
                    .nth(self.reminders_sent as usize);
                let end = if now < deadline {
                    deadline
                } else {
                    self.settings.schedule.grace_end(deadline)
                };
                let wake = reminder.map_or(end, |r| r.min(end));
                Some(if all_ready { now.min(wake) } else { wake })
            }
            _ => None,
        };
    }

    /// Adjudicates the current phase with the orders received (missing orders hold), and
    /// moves the game to the next phase. Returns the record to keep in the history, its
    /// results made by `results` (the report layer's `results_record`).
    pub fn process(
        &mut self,
        variant: &Variant,
        now: DateTime<Utc>,
        trigger: Trigger,
        results: ResultsMaker<'_>,
    ) -> Result<PhaseRecord, GameError> {
        self.require("process", IN_PLAY)?;
        let before_game = self.clone();
        let position = self.position.clone();
        let deciding = self.houses_deciding(variant, &position);
        let given = self.given_orders(variant);
        let adjudication = adjudicate(variant, &position, &given);
        let played = Adjudicated {
            before: position,
            orders: given,
            adjudication,
        };
        let results = results(variant, &played).into();
        let Adjudicated {
            before: position,
            adjudication,
            ..
        } = played;
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
                    seat.civil_disorder = true;
                    civil_disorder.push(seat.house.clone());
                }
            }
        }
        let orders = self
            .seats
            .iter()
            .filter(|s| !s.orders.is_empty())
            .map(|s| {
                (
                    s.house.clone(),
                    s.orders.iter().map(|o| o.order.text.clone()).collect(),
                )
            })
            .collect();
        let after = &adjudication.after;
        self.position = after.clone();
        self.phase = after.phase;
        self.played += 1;
        let ending = board_ending(variant, self, &position, after)
            .or_else(|| vote_ending(&survivors(variant, self, after), self));
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
                    seat.missed = current.missed;
                }
                seat.player.clone_from(&current.player);
                seat.absences.clone_from(&current.absences);
                seat.resigned = current.resigned;
                if current.resigned {
                    seat.civil_disorder = true;
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
}

/// Where the next phase's deadline is counted from. A phase processed at its deadline
/// counts from the deadline, not from the moment the judge got to it: otherwise a tick a
/// second late would push a 20:00 deadline to the next day's 20:00, and the cadence would
/// drift. But a judge that was stopped for long must not leave the next phase with little
/// or no time: when counting from the old deadline would give less than half a phase from
/// now, it counts from now. Early processing and the moderator's `process` count from now.
fn next_base(
    schedule: &super::calendar::Schedule,
    kind: PhaseKind,
    deadline: Option<DateTime<Utc>>,
    trigger: Trigger,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    match (trigger, deadline) {
        (Trigger::Deadline, Some(d)) if d <= now => {
            let half = schedule.span(kind).as_delta() / 2;
            if schedule.deadline(d, kind, &[]) >= now + half {
                d
            } else {
                now
            }
        }
        _ => now,
    }
}

fn house_index(variant: &Variant, house: &str) -> Result<HouseId, GameError> {
    variant
        .house_by_name(house)
        .ok_or_else(|| GameError::HouseNotInGame(house.to_string()))
}

impl PhaseRecord {
    /// The position after this phase and the reports of its orders, as a map draws them.
    /// The outcomes come from adjudicating the position before the phase again with the
    /// orders it had (the judge is deterministic); the units are the ones after it.
    pub fn played(&self, variant: &Variant) -> (Position, Vec<Report>) {
        let reports = adjudicate(
            variant,
            &self.position_before,
            &self.game_before.given_orders(variant),
        )
        .reports
        .into_iter()
        .map(|(_, r)| r)
        .collect();
        (self.position_after.clone(), reports)
    }
}
