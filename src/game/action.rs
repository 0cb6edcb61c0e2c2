//! The changes a moderator, a player, an observer or the judge can ask of a game, whether
//! by the command line, by mail or by the clock: [`Game::may`] says who may ask what, and
//! [`Game::execute`] carries one out and says what happened, as [`Event`]s. Every change
//! to a game goes through here.

use chrono::{DateTime, Utc};

use crate::judge::Phase;
use crate::lang::Lang;
use crate::map::Variant;
use crate::position::write_position;

use super::actor::Actor;
use super::calendar::parse_local_time;
use super::event::{Event, Missed, Revealed};
use super::lifecycle::ResultsMaker;
use super::model::{
    Ending, Game, Observer, ObserverRequest, PhaseRecord, SubmitMode, Trigger, Vote,
};
use super::orders::OrderLines;
use super::secret::{hash_secret, new_secret, secret_matches};
use super::setting::Setting;
use super::span::Span;
use super::{GameError, survivors};

/// Requests to observe a game waiting for confirmation, at most.
pub const MAX_OBSERVER_REQUESTS: usize = 20;

/// How long the token of a request to observe is good for.
pub const OBSERVER_TOKEN_LIFE: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// A phase named by a guard (`process`, `rollback`): the action is done only if it is
/// the phase meant. Read once at the edge; kept as written for the refusal.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseGuard {
    pub phase: Phase,
    pub written: String,
}

impl PhaseGuard {
    /// Reads a guard as `game show` writes a phase (`printemps 299, mouvements`) or as the
    /// store does (`spring 299 movement`).
    pub fn read(written: &str) -> Result<PhaseGuard, GameError> {
        let phase = crate::position::parse_phase(written)
            .ok_or_else(|| GameError::BadPhase(written.to_string()))?;
        Ok(PhaseGuard {
            phase,
            written: written.to_string(),
        })
    }

    /// Refuses a phase other than the one meant.
    pub fn check(&self, current: Phase) -> Result<(), GameError> {
        if self.phase == current {
            Ok(())
        } else {
            Err(GameError::WrongPhase {
                given: self.written.clone(),
                current,
            })
        }
    }
}

/// How the moderator ends a game (houses as written; resolved when carried out).
#[derive(Debug, Clone, PartialEq)]
pub enum EndBy {
    Win(Vec<String>),
    Draw,
    Concede(String),
    Abandon,
}

/// One change of a game. Houses are given as written (an id, a name, a close misspelling)
/// and resolved against the variant.
#[derive(Debug, Clone)]
pub enum Action {
    Start,
    Pause,
    Resume,
    Extend(Span),
    /// Process the current phase; `expected`, when given, must be it (a guard).
    Process {
        expected: Option<PhaseGuard>,
        trigger: Trigger,
    },
    End(EndBy),
    /// Seats a player (or gives a seat to a new one: `replace`), with the secret given or
    /// a new one, in the language given or the game's.
    Seat {
        house: String,
        address: String,
        secret: Option<String>,
        lang: Option<Lang>,
        replace: bool,
    },
    Remove {
        house: String,
    },
    /// A house's orders; `expected`, when given, must be the phase being played.
    Submit {
        house: String,
        lines: OrderLines,
        mode: SubmitMode,
        source: String,
        expected: Option<PhaseGuard>,
    },
    Ready {
        house: String,
        ready: bool,
    },
    /// A `READY` of the same mail put back to what it was, the mail's orders refused.
    WithdrawReady {
        house: String,
        ready: bool,
    },
    Vote {
        house: String,
        vote: Option<Vote>,
    },
    /// An absence, dates as written in the game's time zone.
    Absence {
        house: String,
        from: String,
        to: String,
    },
    Edit {
        position: String,
        reason: String,
    },
    Resign {
        house: String,
    },
    /// Undoes the last processed phase, `last` (read from the store); `expected`, when
    /// given, must name it.
    Rollback {
        last: Box<PhaseRecord>,
        expected: Option<PhaseGuard>,
    },
    /// Allows or forbids observers; forbidding ends the current observers and the
    /// requests waiting for confirmation.
    Observers {
        allowed: bool,
    },
    /// Turns the pictures of the game's mails on or off (docs/email.md, "Pictures").
    Pictures {
        on: bool,
    },
    /// The language of a house's player, or (none) the moderator's and the game's.
    Language {
        house: Option<String>,
        lang: Lang,
    },
    /// A player's new address.
    Address {
        house: String,
        address: String,
    },
    /// An address asks to observe: it gets a token to confirm with.
    AskObserve {
        address: String,
        lang: Lang,
    },
    /// The address that asked confirms with its token; at most `cap` observers.
    ConfirmObserve {
        address: String,
        token: String,
        cap: usize,
    },
    /// An observer stops, with its secret.
    Unobserve {
        address: String,
        secret: String,
    },
    /// The clock's reminders and grace notices due now (and the wake time moved on).
    Remind,
    /// Mail to these addresses came back: their players are flagged.
    Bounced {
        addresses: Vec<String>,
        reason: String,
    },
    /// Changes a setting (the game's rules: [`Game::change_setting`]).
    Set(Setting),
    /// The mail system refused for good a mail to this address (set aside unsent).
    Undeliverable {
        address: String,
        reason: String,
    },
}

impl Action {
    /// The audit trail's name for the action.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Start => "start",
            Action::Pause => "pause",
            Action::Resume => "resume",
            Action::Extend(_) => "extend",
            Action::Process { .. } => "process",
            Action::End(_) => "end",
            Action::Seat { replace: false, .. } => "player-add",
            Action::Seat { replace: true, .. } => "player-replace",
            Action::Remove { .. } => "player-remove",
            Action::Submit { .. } => "orders",
            Action::Ready { .. } | Action::WithdrawReady { .. } => "ready",
            Action::Vote { .. } => "vote",
            Action::Absence { .. } => "absence",
            Action::Edit { .. } => "edit-position",
            Action::Resign { .. } => "resign",
            Action::Rollback { .. } => "rollback",
            Action::Observers { .. } => "observers",
            Action::Pictures { .. } => "pictures",
            Action::Language { .. } => "language",
            Action::Address { .. } => "address",
            Action::AskObserve { .. }
            | Action::ConfirmObserve { .. }
            | Action::Unobserve { .. } => "observe",
            Action::Remind => "remind",
            Action::Bounced { .. } => "bounce",
            Action::Undeliverable { .. } => "undeliverable",
            Action::Set(_) => "set",
        }
    }

    /// The house the action is for, as written, when it is a player's action.
    fn house(&self) -> Option<&str> {
        match self {
            Action::Submit { house, .. }
            | Action::Ready { house, .. }
            | Action::WithdrawReady { house, .. }
            | Action::Vote { house, .. }
            | Action::Absence { house, .. }
            | Action::Resign { house }
            | Action::Address { house, .. }
            | Action::Language {
                house: Some(house), ..
            } => Some(house),
            _ => None,
        }
    }
}

/// Who may ask for an action.
enum Needs {
    Moderator,
    /// The house's player, or the moderator on its behalf (the command line).
    Player,
    /// The address itself (an observer's or a stranger's own request).
    Address,
    /// The judge's clock, or the moderator forcing it.
    Clock,
    /// Only the judge (what comes back from the mail system).
    Judge,
}

fn needs(action: &Action) -> Needs {
    match action {
        Action::Start
        | Action::Pause
        | Action::Resume
        | Action::Extend(_)
        | Action::End(_)
        | Action::Seat { .. }
        | Action::Remove { .. }
        | Action::Edit { .. }
        | Action::Rollback { .. }
        | Action::Observers { .. }
        | Action::Pictures { .. }
        | Action::Set(_)
        | Action::Language { house: None, .. } => Needs::Moderator,
        Action::Submit { .. }
        | Action::Ready { .. }
        | Action::WithdrawReady { .. }
        | Action::Vote { .. }
        | Action::Absence { .. }
        | Action::Resign { .. }
        | Action::Address { .. }
        | Action::Language { .. } => Needs::Player,
        Action::AskObserve { .. } | Action::ConfirmObserve { .. } | Action::Unobserve { .. } => {
            Needs::Address
        }
        Action::Process { .. } | Action::Remind => Needs::Clock,
        Action::Bounced { .. } | Action::Undeliverable { .. } => Needs::Judge,
    }
}

impl Game {
    /// Whether `who` may ask for `what`: the permission table of every action.
    pub fn may(&self, variant: &Variant, who: &Actor, what: &Action) -> Result<(), GameError> {
        let allowed = match (needs(what), who) {
            (_, Actor::Judge) => true,
            (Needs::Moderator | Needs::Player | Needs::Clock, Actor::Moderator) => true,
            (Needs::Player, Actor::House(own)) => what
                .house()
                .is_some_and(|h| self.house_id(variant, h).is_ok_and(|h| h == *own)),
            (Needs::Address, Actor::Observer(own) | Actor::Stranger(own)) => match what {
                Action::AskObserve { address, .. }
                | Action::ConfirmObserve { address, .. }
                | Action::Unobserve { address, .. } => same_address(address, own),
                _ => false,
            },
            _ => false,
        };
        if allowed {
            Ok(())
        } else {
            Err(GameError::NotAllowed {
                action: what.name(),
            })
        }
    }

    /// Carries out `what` for `who` at `now`, and says what happened. On an error the
    /// game may be half changed: callers drop it (the service works on a copy).
    pub fn execute(
        &mut self,
        variant: &Variant,
        results: ResultsMaker<'_>,
        who: &Actor,
        what: Action,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        self.may(variant, who, &what)?;
        let event = match what {
            Action::Start => {
                self.start(variant, now)?;
                Event::Started {
                    deadline: self.deadline,
                }
            }
            Action::Pause => {
                self.pause(now)?;
                Event::Paused
            }
            Action::Resume => {
                self.resume(now)?;
                Event::Resumed {
                    deadline: self.deadline,
                }
            }
            Action::Extend(by) => {
                let deadline = self.extend(by, now)?;
                Event::Extended { by, deadline }
            }
            Action::Process { expected, trigger } => {
                if let Some(guard) = &expected {
                    guard.check(self.phase)?;
                }
                let record = self.process(variant, now, trigger, results)?;
                let missed = record
                    .missed
                    .iter()
                    .map(|house| Missed {
                        house: house.clone(),
                        phases: self.seat(house).map_or(1, |s| s.missed),
                    })
                    .collect();
                Event::Processed {
                    record: Box::new(record),
                    trigger,
                    missed,
                }
            }
            Action::End(by) => {
                let ending = match by {
                    EndBy::Win(houses) => Ending::Win {
                        houses: houses
                            .iter()
                            .map(|h| self.house_id(variant, h))
                            .collect::<Result<Vec<_>, _>>()?,
                        reason: "moderator".into(),
                    },
                    EndBy::Draw => Ending::Draw {
                        houses: survivors(variant, self, &self.position),
                    },
                    EndBy::Concede(house) => Ending::Concession {
                        house: self.house_id(variant, &house)?,
                    },
                    EndBy::Abandon => Ending::Abandoned,
                };
                self.end(ending.clone(), now)?;
                Event::Ended { ending }
            }
            Action::Seat {
                house,
                address,
                secret,
                lang,
                replace,
            } => {
                let house = self.house_id(variant, &house)?;
                let secret = match secret {
                    Some(secret) => secret,
                    None => new_secret()?,
                };
                let hash = hash_secret(&secret)?;
                // A player seated without a language speaks the game's.
                let lang = lang.unwrap_or(self.settings.lang);
                if replace {
                    self.replace_player(&house, &address, hash, lang, now)?;
                } else {
                    self.add_player(&house, &address, hash, lang, now)?;
                }
                let address = self
                    .seat(&house)
                    .and_then(|s| s.player.as_ref())
                    .map_or(address, |p| p.address.clone());
                Event::Seated {
                    house,
                    address,
                    lang,
                    replaced: replace,
                    secret: Revealed(secret),
                }
            }
            Action::Remove { house } => {
                let house = self.house_id(variant, &house)?;
                let player = self.remove_player(&house)?;
                Event::Removed {
                    house,
                    address: player.address,
                }
            }
            Action::Submit {
                house,
                lines,
                mode,
                source,
                expected,
            } => {
                if let Some(guard) = &expected {
                    guard.check(self.phase)?;
                }
                let house = self.house_id(variant, &house)?;
                self.submit(variant, &house, &lines, mode, &source, now)?;
                Event::OrdersTaken {
                    lines: lines.len(),
                    house,
                    mode,
                }
            }
            Action::Ready { house, ready } => {
                let house = self.house_id(variant, &house)?;
                self.set_ready(&house, ready, now)?;
                Event::Ready { house, ready }
            }
            Action::WithdrawReady { house, ready } => {
                let house = self.house_id(variant, &house)?;
                self.set_ready(&house, ready, now)?;
                Event::ReadyWithdrawn { house }
            }
            Action::Vote { house, vote } => {
                let house = self.house_id(variant, &house)?;
                let ending = self.vote(variant, &house, vote.clone(), now)?;
                Event::Voted {
                    house,
                    vote,
                    ended: ending.is_some(),
                }
            }
            Action::Absence { house, from, to } => {
                let house = self.house_id(variant, &house)?;
                let zone = self.settings.schedule.time_zone;
                let start = parse_local_time(&from, zone)?;
                let end = parse_local_time(&to, zone)?;
                let moved = self.declare_absence(&house, start, end, now)?;
                Event::Absent {
                    house,
                    from: start,
                    to: end,
                    deadline: moved,
                }
            }
            Action::Edit { position, reason } => {
                let before = write_position(variant, &self.position);
                self.edit_position(variant, &position, now)?;
                let after = write_position(variant, &self.position);
                Event::Edited {
                    reason,
                    before,
                    after,
                }
            }
            Action::Resign { house } => {
                let house = self.house_id(variant, &house)?;
                self.resign(&house, now)?;
                Event::Resigned { house }
            }
            Action::Rollback { last, expected } => {
                // The guard names the phase to undo, not the one being played.
                if let Some(guard) = &expected {
                    guard.check(last.phase)?;
                }
                self.rollback(&last, now);
                Event::RolledBack {
                    index: last.index,
                    phase: last.phase,
                }
            }
            Action::Observers { allowed } => {
                self.settings.observers = allowed;
                if allowed {
                    Event::ObserversAllowed
                } else {
                    let ended = self.observers.len();
                    self.observers.clear();
                    self.observer_requests.clear();
                    Event::ObserversForbidden { ended }
                }
            }
            Action::Pictures { on } => {
                self.settings.pictures = on;
                Event::Pictures { on }
            }
            Action::Set(setting) => Event::SettingChanged {
                change: self.change_setting(setting, now)?,
            },
            Action::Language { house, lang } => {
                match &house {
                    None => self.settings.lang = lang,
                    Some(house) => {
                        let house = self.house_id(variant, house)?;
                        let player = self
                            .seat_mut(&house)
                            .and_then(|s| s.player.as_mut())
                            .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
                        player.lang = lang;
                    }
                }
                let house = house.map(|h| self.house_id(variant, &h)).transpose()?;
                Event::LanguageChanged { house, lang }
            }
            Action::Address { house, address } => self.change_address(variant, &house, &address)?,
            Action::AskObserve { address, lang } => self.ask_observe(&address, lang, now)?,
            Action::ConfirmObserve {
                address,
                token,
                cap,
            } => self.confirm_observe(&address, &token, cap, now)?,
            Action::Unobserve { address, secret } => self.unobserve(&address, &secret)?,
            Action::Remind => return Ok(self.remind(now)),
            Action::Bounced { addresses, reason } => {
                let flagged = self.flag_bounced(&addresses, &reason, now);
                return Ok(flagged
                    .into_iter()
                    .map(|(house, address)| Event::Bounced {
                        house,
                        address,
                        reason: reason.clone(),
                    })
                    .collect());
            }
            Action::Undeliverable { address, reason } => {
                let address = address.trim().to_lowercase();
                let flagged = self.flag_bounced(std::slice::from_ref(&address), &reason, now);
                let house = self
                    .seats
                    .iter()
                    .find(|s| s.player.as_ref().is_some_and(|p| p.address == address))
                    .map(|s| s.house.clone());
                // A mail to the moderator's own address tells nobody (the notice would
                // fail the same way); a player already flagged is not told about again.
                let to_moderator = self
                    .moderator
                    .as_ref()
                    .is_some_and(|m| m.address == address);
                let told = !to_moderator && (house.is_none() || !flagged.is_empty());
                Event::Undeliverable {
                    house,
                    address,
                    reason,
                    told,
                }
            }
        };
        Ok(vec![event])
    }

    /// A player's new address: one no other player or the moderator has.
    fn change_address(
        &mut self,
        variant: &Variant,
        house: &str,
        address: &str,
    ) -> Result<Event, GameError> {
        let house = self.house_id(variant, house)?;
        let address = match self.free_address(&house, address) {
            // Another player's address would merge two houses' mail; the moderator's
            // would take the moderator's mail and name. Which of them is not said: the
            // reply must not tell who plays what.
            Ok(a)
                if self
                    .moderator
                    .as_ref()
                    .is_some_and(|m| same_address(&m.address, &a)) =>
            {
                return Err(GameError::AddressUnavailable(a));
            }
            Err(GameError::AddressTaken { address, .. }) => {
                return Err(GameError::AddressUnavailable(address));
            }
            other => other?,
        };
        let player = self
            .seat_mut(&house)
            .and_then(|s| s.player.as_mut())
            .ok_or_else(|| GameError::NoPlayer(house.clone()))?;
        // A new address starts without the old one's delivery failures.
        if player.address != address {
            player.bounced = None;
        }
        let old = std::mem::replace(&mut player.address, address.clone());
        Ok(Event::AddressChanged {
            house,
            old,
            new: address,
        })
    }

    /// Why `from` may not ask to observe (or confirm it): the moderator forbids
    /// observers, or it observes already.
    pub fn observing_refused(&self, from: &str) -> Result<(), GameError> {
        if !self.settings.observers {
            Err(GameError::ObserversForbidden)
        } else if self
            .observers
            .iter()
            .any(|o| same_address(&o.address, from))
        {
            Err(GameError::AlreadyObserving)
        } else {
            Ok(())
        }
    }

    /// Whether a request to observe from `from` would be taken before its token is made
    /// (what the mail desk asks before it spends the mail's one hash on it).
    pub fn may_ask_to_observe(&self, from: &str, now: DateTime<Utc>) -> Result<(), GameError> {
        self.observing_refused(from)?;
        let waiting = self
            .observer_requests
            .iter()
            .filter(|r| r.expires > now && !same_address(&r.address, from))
            .count();
        if waiting >= MAX_OBSERVER_REQUESTS {
            return Err(GameError::TooManyObserverRequests);
        }
        Ok(())
    }

    /// Nobody observes without consent: the request waits for its address to confirm
    /// it, with the token the answer carries there.
    fn ask_observe(
        &mut self,
        from: &str,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        self.may_ask_to_observe(from, now)?;
        self.observer_requests
            .retain(|r| r.expires > now && !same_address(&r.address, from));
        let token = new_secret()?;
        let expires = now + OBSERVER_TOKEN_LIFE;
        self.observer_requests.push(ObserverRequest {
            address: from.to_string(),
            token: hash_secret(&token)?,
            lang,
            asked: now,
            expires,
        });
        Ok(Event::ObserverAsked {
            address: from.to_string(),
            token: Revealed(token),
            expires,
        })
    }

    /// Whether a confirmation from `from` would be looked at before its token is checked
    /// (what the mail desk asks before it spends the mail's one hash on it).
    pub fn may_confirm_observing(
        &self,
        from: &str,
        cap: usize,
        now: DateTime<Utc>,
    ) -> Result<usize, GameError> {
        self.observing_refused(from)?;
        let request = self
            .observer_requests
            .iter()
            .position(|r| r.expires > now && same_address(&r.address, from))
            .ok_or_else(|| GameError::NoObserverRequest {
                game: self.id.clone(),
            })?;
        // Each observer gets every result with its picture: their number is capped. The
        // request is kept until it expires, for the moderator to see (`game show`) and
        // for a confirmation once an observer has left.
        if self.observers.len() >= cap {
            return Err(GameError::ObserversFull {
                game: self.id.clone(),
                cap,
            });
        }
        Ok(request)
    }

    fn confirm_observe(
        &mut self,
        from: &str,
        token: &str,
        cap: usize,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let request = self.may_confirm_observing(from, cap, now)?;
        let hash = self.observer_requests.get(request).map(|r| r.token.clone());
        if !hash.is_some_and(|h| secret_matches(token, &h)) {
            return Err(GameError::BadObserverToken);
        }
        let asked = self.observer_requests.remove(request);
        let secret = new_secret()?;
        self.observers.push(Observer {
            address: asked.address,
            secret: hash_secret(&secret)?,
            lang: asked.lang,
            since: now,
        });
        Ok(Event::ObserverJoined {
            address: from.to_string(),
            secret: Revealed(secret),
        })
    }

    /// Whether `from` observes the game (what the mail desk asks before it spends the
    /// mail's one hash on a secret).
    pub fn observer_at(&self, from: &str) -> Result<usize, GameError> {
        self.observers
            .iter()
            .position(|o| same_address(&o.address, from))
            .ok_or(GameError::BadObserverSecret)
    }

    fn unobserve(&mut self, from: &str, secret: &str) -> Result<Event, GameError> {
        let at = self.observer_at(from)?;
        let hash = self.observers.get(at).map(|o| o.secret.clone());
        if !hash.is_some_and(|h| secret_matches(secret, &h)) {
            return Err(GameError::BadObserverSecret);
        }
        self.observers.remove(at);
        Ok(Event::ObserverLeft {
            address: from.to_string(),
        })
    }

    /// The clock's look at a game not due: reminders and the grace notice due now; a
    /// wake time that has passed with nothing to do is moved on.
    fn remind(&mut self, now: DateTime<Utc>) -> Vec<Event> {
        let mut events = Vec::new();
        let houses = self.take_reminder(now);
        if let (Some(houses), Some(deadline)) = (houses, self.deadline) {
            events.push(Event::Reminded { houses, deadline });
        }
        // The deadline passed and a grace period runs: the houses without orders are
        // told, once, until when the judge waits for them.
        let late = self.take_grace_notice(now);
        if let (Some(houses), Some(deadline), Some(until)) = (late, self.deadline, self.grace_end())
        {
            events.push(Event::GraceRuns {
                houses,
                deadline,
                until,
            });
        }
        self.update_wake(now);
        events
    }

    /// Flags every player at one of `addresses` not flagged yet; returns their house and
    /// address.
    fn flag_bounced(
        &mut self,
        addresses: &[String],
        reason: &str,
        now: DateTime<Utc>,
    ) -> Vec<(String, String)> {
        let mut flagged = Vec::new();
        for seat in &mut self.seats {
            if let Some(p) = &mut seat.player
                && addresses.contains(&p.address)
                && p.bounced.is_none()
            {
                p.bounced = Some(super::Bounced {
                    at: now,
                    reason: reason.to_string(),
                });
                flagged.push((seat.house.clone(), p.address.clone()));
            }
        }
        flagged
    }

    /// Checks a sign-on's secret for a seat (a house's player; `None`: the moderator):
    /// a hash kept from before the sieve takes it at the owner's right sign-on.
    pub fn signs_on(&mut self, house: Option<&str>, secret: &str) -> bool {
        let stored = match house {
            Some(house) => self
                .seat(house)
                .filter(|s| !s.resigned)
                .and_then(|s| s.player.as_ref())
                .map(|p| p.secret.clone()),
            None => self.moderator.as_ref().map(|m| m.secret.clone()),
        };
        let right = stored.is_some_and(|stored| secret_matches(secret, &stored));
        if right {
            self.sieve_secret(house, secret);
        }
        right
    }
}

/// Whether two addresses are the same mailbox, as far as the judge can tell (domains
/// ignore case, and so do the local parts of every mail system players use).
pub fn same_address(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}
