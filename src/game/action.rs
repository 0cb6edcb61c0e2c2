//! The changes a moderator, a player, an observer or the judge can ask of a game, whether
//! by the command line, by mail or by the clock: [`Game::may`] says who may ask what, and
//! [`Game::execute`] carries one out and says what happened, as [`Event`]s. Every change
//! to a game goes through here.

use chrono::{DateTime, Utc};

use crate::judge::Phase;
use crate::lang::Lang;
use crate::map::Variant;

use super::Address;
use super::GameError;
use super::HouseKey;
use super::actor::Actor;
use super::event::{Event, Revealed};
use super::model::{AheadBlock, Game, PhaseRecord, SubmitMode, Trigger, Vote};
use super::orders::OrderLines;
use super::rules::same_address;
use super::setting::Setting;
use super::span::Span;

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

/// How the moderator ends a game; `H`, its houses: as written in a command (`String`)
/// until [`EndBy::read`] reads them against the game.
#[derive(Debug, Clone, PartialEq)]
pub enum EndBy<H = HouseKey> {
    Win(Vec<H>),
    Draw,
    Concede(H),
    Abandon,
}

impl EndBy<String> {
    /// The ending with its houses read by `house` (`Game::house_id`, at the edge).
    pub fn read(
        self,
        house: &mut dyn FnMut(&str) -> Result<HouseKey, GameError>,
    ) -> Result<EndBy, GameError> {
        Ok(match self {
            EndBy::Win(houses) => {
                EndBy::Win(houses.iter().map(|h| house(h)).collect::<Result<_, _>>()?)
            }
            EndBy::Draw => EndBy::Draw,
            EndBy::Concede(h) => EndBy::Concede(house(&h)?),
            EndBy::Abandon => EndBy::Abandon,
        })
    }
}

/// One change of a game. Its houses are keys, read at the edge from what a person wrote
/// (`Game::house_id`).
#[derive(Debug, Clone, strum::EnumDiscriminants)]
#[strum_discriminants(name(ActionKind), vis(pub))]
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
        house: HouseKey,
        address: Address,
        secret: Option<String>,
        lang: Option<Lang>,
        replace: bool,
    },
    Remove {
        house: HouseKey,
    },
    /// A house's orders; `expected`, when given, must be the phase being played.
    Submit {
        house: HouseKey,
        lines: OrderLines,
        mode: SubmitMode,
        source: String,
        expected: Option<PhaseGuard>,
    },
    Ready {
        house: HouseKey,
        ready: bool,
    },
    /// A `READY` of the same mail put back to what it was, the mail's orders refused.
    WithdrawReady {
        house: HouseKey,
        ready: bool,
    },
    Vote {
        house: HouseKey,
        vote: Option<Vote>,
    },
    /// An absence, dates as written in the game's time zone.
    Absence {
        house: HouseKey,
        from: String,
        to: String,
    },
    Edit {
        position: String,
        reason: String,
    },
    Resign {
        house: HouseKey,
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
    /// Turns the pictures of the game's mails on or off (docs/email.md, "Pictures"): for
    /// everyone (no house: the moderator's switch), or in one house's player's own mails.
    Pictures {
        house: Option<HouseKey>,
        on: bool,
    },
    /// The language of a house's player, or (none) the moderator's and the game's.
    Language {
        house: Option<HouseKey>,
        lang: Lang,
    },
    /// The time zone a house's player reads deadlines in (none: the game's).
    Zone {
        house: HouseKey,
        zone: Option<chrono_tz::Tz>,
    },
    /// A player's new address.
    Address {
        house: HouseKey,
        address: Address,
    },
    /// An address asks to observe: it gets a token to confirm with.
    AskObserve {
        address: Address,
        lang: Lang,
    },
    /// The address that asked confirms with its token; at most `cap` observers.
    ConfirmObserve {
        address: Address,
        token: String,
        cap: usize,
    },
    /// An observer stops, with its secret.
    Unobserve {
        address: Address,
        secret: String,
    },
    /// The clock's reminders and grace notices due now (and the wake time moved on).
    Remind,
    /// Mail to these addresses came back: their players are flagged.
    Bounced {
        addresses: Vec<Address>,
        reason: String,
    },
    /// Changes a setting (the game's rules: [`Game::change_setting`]).
    Set(Setting),
    /// The mail system refused for good a mail to this address (set aside unsent).
    Undeliverable {
        address: Address,
        reason: String,
    },
    // The habits of njudge players.
    /// A house's player (or, `house` none, the moderator) chooses a new secret.
    ChangeSecret {
        house: Option<HouseKey>,
        secret: Revealed,
    },
    // Joining a game.
    /// An address takes a free seat of an open game (the house asked for, or the first
    /// free one), its welcome in `lang`.
    Join {
        address: Address,
        house: Option<HouseKey>,
        lang: Lang,
    },
    /// An address asks for a house: at once if vacant in an open game, else on the
    /// moderator's word.
    TakeOver {
        address: Address,
        house: HouseKey,
        lang: Lang,
    },
    /// The moderator gives the house to the address that asked for it (`address`: which
    /// one, needed when several ask).
    Approve {
        house: HouseKey,
        address: Option<Address>,
    },
    /// The moderator refuses the request of `address` for the house, or every request
    /// for it (`address` none).
    Reject {
        house: HouseKey,
        address: Option<Address>,
    },
    /// A token to confirm a seat was mailed to the address, good until `expires`.
    AskSeat {
        address: Address,
        expires: DateTime<Utc>,
    },
    // Orders for later phases.
    /// A house's orders for a later phase (a mail's `PHASE` block), kept as written until
    /// that phase begins; `ready`: the readiness the block asks for then.
    KeepAhead {
        house: HouseKey,
        phase: Phase,
        lines: OrderLines,
        ready: Option<bool>,
        source: String,
    },
    /// Removes every block of orders for later phases of a house (`CLEAR`).
    ClearAhead {
        house: HouseKey,
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
            Action::Zone { .. } => "zone",
            Action::Address { .. } => "address",
            Action::AskObserve { .. }
            | Action::ConfirmObserve { .. }
            | Action::Unobserve { .. } => "observe",
            Action::Remind => "remind",
            Action::Bounced { .. } => "bounce",
            Action::Undeliverable { .. } => "undeliverable",
            Action::Set(_) => "set",
            Action::ChangeSecret { .. } => "password",
            Action::Join { .. } => "join",
            Action::TakeOver { .. } => "takeover",
            Action::Approve { .. } => "approve",
            Action::Reject { .. } => "reject",
            Action::AskSeat { .. } => "ask-seat",
            Action::KeepAhead { .. } => "orders-ahead",
            Action::ClearAhead { .. } => "clear-ahead",
        }
    }

    /// The house the action is for, when it is a player's action.
    fn house(&self) -> Option<&HouseKey> {
        match self {
            Action::Submit { house, .. }
            | Action::KeepAhead { house, .. }
            | Action::ClearAhead { house }
            | Action::Ready { house, .. }
            | Action::WithdrawReady { house, .. }
            | Action::Vote { house, .. }
            | Action::Absence { house, .. }
            | Action::Resign { house }
            | Action::Address { house, .. }
            | Action::Zone { house, .. }
            | Action::Language {
                house: Some(house), ..
            }
            | Action::ChangeSecret {
                house: Some(house), ..
            }
            | Action::Pictures {
                house: Some(house), ..
            } => Some(house),
            _ => None,
        }
    }
}

/// Who may ask for an action: the permission table, by the action's kind alone, so that
/// an edge (the mail desk) reads what a command needs before it can build the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Moderator,
    /// The house's player, or the moderator on its behalf (the command line names the
    /// house; a mail's moderator has none to name).
    Player,
    /// Whoever is signed on, for themselves: a player for its house, the moderator for
    /// the game (a language, the pictures, a secret).
    Own,
    /// The address itself (an observer's or a stranger's own request).
    Address,
    /// The judge's clock, or the moderator forcing it.
    Clock,
    /// Only the judge (what comes back from the mail system).
    Judge,
}

impl ActionKind {
    /// What the sender of an action of this kind must be.
    pub fn needs(self) -> Needs {
        match self {
            ActionKind::Start
            | ActionKind::Pause
            | ActionKind::Resume
            | ActionKind::Extend
            | ActionKind::End
            | ActionKind::Seat
            | ActionKind::Remove
            | ActionKind::Edit
            | ActionKind::Rollback
            | ActionKind::Observers
            | ActionKind::Set
            | ActionKind::Approve
            | ActionKind::Reject => Needs::Moderator,
            ActionKind::Submit
            | ActionKind::KeepAhead
            | ActionKind::ClearAhead
            | ActionKind::Ready
            | ActionKind::WithdrawReady
            | ActionKind::Vote
            | ActionKind::Absence
            | ActionKind::Resign
            | ActionKind::Address => Needs::Player,
            ActionKind::Language
            | ActionKind::Zone
            | ActionKind::Pictures
            | ActionKind::ChangeSecret => Needs::Own,
            ActionKind::AskObserve
            | ActionKind::ConfirmObserve
            | ActionKind::Unobserve
            | ActionKind::Join
            | ActionKind::TakeOver
            | ActionKind::AskSeat => Needs::Address,
            ActionKind::Process | ActionKind::Remind => Needs::Clock,
            ActionKind::Bounced | ActionKind::Undeliverable => Needs::Judge,
        }
    }
}

impl Needs {
    /// Whether `who` is of a kind these needs admit, before the action's own house or
    /// address is compared.
    pub fn admits(self, who: &Actor) -> bool {
        matches!(
            (self, who),
            (_, Actor::Judge)
                | (
                    Needs::Moderator | Needs::Player | Needs::Own | Needs::Clock,
                    Actor::Moderator
                )
                | (Needs::Player | Needs::Own, Actor::House(_))
                | (Needs::Address, Actor::Observer(_) | Actor::Stranger(_))
        )
    }
}

impl Game {
    /// Whether `who` may ask for `what`: the permission table of every action.
    pub fn may(&self, who: &Actor, what: &Action) -> Result<(), GameError> {
        // The kind admits the sender; a house asks for itself, an address for itself.
        let allowed = ActionKind::from(what).needs().admits(who)
            && match who {
                Actor::Judge | Actor::Moderator => true,
                Actor::House(own) => what.house() == Some(own),
                Actor::Observer(own) | Actor::Stranger(own) => match what {
                    Action::AskObserve { address, .. }
                    | Action::ConfirmObserve { address, .. }
                    | Action::Unobserve { address, .. }
                    | Action::Join { address, .. }
                    | Action::TakeOver { address, .. }
                    | Action::AskSeat { address, .. } => same_address(address, own),
                    _ => false,
                },
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
        who: &Actor,
        what: Action,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        self.may(who, &what)?;
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
                return self.process_guarded(variant, expected, trigger, now);
            }
            Action::End(by) => self.end_by(variant, by, now)?,
            Action::Seat {
                house,
                address,
                secret,
                lang,
                replace,
            } => {
                self.plays(&house)?;
                // The player who had the house (resigned or not) hears it is given away.
                let outgoing = self
                    .seat(&house)
                    .and_then(|s| s.player.as_ref())
                    .map(|p| (p.address.clone(), p.lang));
                let seated =
                    self.seat_player(house.clone(), address, secret, lang, replace, now)?;
                self.seat_requests.retain(|r| r.house != house);
                let mut events = Vec::new();
                if let Some((address, lang)) = outgoing {
                    events.push(Event::SeatLost {
                        house,
                        address,
                        lang,
                        removed: false,
                    });
                }
                events.push(seated);
                return Ok(events);
            }
            Action::Remove { house } => {
                self.plays(&house)?;
                let player = self.remove_player(&house, now)?;
                return Ok(vec![
                    Event::Removed {
                        house: house.clone(),
                        address: player.address.clone(),
                    },
                    Event::SeatLost {
                        house,
                        address: player.address,
                        lang: player.lang,
                        removed: true,
                    },
                ]);
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
                self.plays(&house)?;
                let (unready, conditions) =
                    self.submit(variant, &house, &lines, mode, &source, now)?;
                Event::OrdersTaken {
                    lines: lines.len(),
                    house,
                    mode,
                    unready,
                    conditions,
                }
            }
            Action::Ready { house, ready } => {
                self.plays(&house)?;
                if ready && self.holds_illegal_orders(variant, &house) {
                    return Err(GameError::ReadyWithIllegalOrders(house));
                }
                self.set_ready(&house, ready, now)?;
                Event::Ready { house, ready }
            }
            Action::WithdrawReady { house, ready } => {
                self.plays(&house)?;
                self.set_ready(&house, ready, now)?;
                Event::ReadyWithdrawn { house }
            }
            Action::Vote { house, vote } => {
                self.plays(&house)?;
                let ending = self.vote(variant, &house, vote.clone(), now)?;
                Event::Voted {
                    house,
                    vote,
                    ended: ending.is_some(),
                }
            }
            Action::Absence { house, from, to } => self.absent(variant, &house, &from, &to, now)?,
            Action::Edit { position, reason } => self.edit(variant, &position, reason, now)?,
            Action::Resign { house } => {
                self.plays(&house)?;
                self.resign(&house, now)?;
                Event::Resigned { house }
            }
            Action::Rollback { last, expected } => self.rollback_guarded(&last, expected, now)?,
            Action::Observers { allowed } => self.allow_observers(allowed),
            Action::Pictures { house, on } => self.change_pictures(variant, house, on)?,
            Action::Set(setting) => Event::SettingChanged {
                change: self.change_setting(setting, now)?,
            },
            Action::Language { house, lang } => self.change_language(variant, house, lang)?,
            Action::Zone { house, zone } => self.change_zone(variant, &house, zone)?,
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
                return Ok(self.mail_bounced(&addresses, &reason, now));
            }
            Action::Undeliverable { address, reason } => {
                self.mail_undeliverable(&address, reason, now)
            }
            Action::ChangeSecret { house, secret } => {
                self.change_secret(variant, house.as_ref(), &secret.0)?;
                Event::SecretChanged { house }
            }
            Action::Join {
                address,
                house,
                lang,
            } => return self.join(variant, &address, house, lang, now),
            Action::TakeOver {
                address,
                house,
                lang,
            } => return self.take_over(variant, &address, house, lang, now),
            Action::Approve { house, address } => {
                return self.approve(&house, address.as_deref(), now);
            }
            Action::Reject { house, address } => return self.reject(&house, address.as_deref()),
            Action::AskSeat { address, expires } => self.remember_consent(&address, expires, now),
            Action::KeepAhead {
                house,
                phase,
                lines,
                ready,
                source,
            } => {
                self.plays(&house)?;
                let count = lines.len();
                let block = AheadBlock {
                    phase,
                    lines: lines.lines().to_vec(),
                    ready,
                    source,
                    at: now,
                };
                let replaced = self.keep_ahead(&house, block)?;
                Event::AheadKept {
                    house,
                    phase,
                    lines: count,
                    replaced,
                }
            }
            Action::ClearAhead { house } => {
                self.plays(&house)?;
                let phases = self.clear_ahead(&house)?;
                Event::AheadCleared { house, phases }
            }
        };
        Ok(vec![event])
    }
}
