//! The work on one received mail: the [`Desk`] reads the mail's commands in order, passes
//! each through the one [`gate`] (which game, who writes, whether the sender may ask it,
//! from the game's permission table), and hands it to its family, which asks the game
//! for an action and puts the answer in the reply. One file a family:
//!
//! - [`orders`], [`ahead`]: order lines gathered into sets and submitted, `PRÊT`, the trial
//!   adjudication, orders for later phases;
//! - [`votes`]: draws and concessions;
//! - [`press`]: press between houses and to the moderator;
//! - [`settings`]: the moderator's settings, and each sender's own (language, pictures,
//!   secret, absence);
//! - [`seats`], [`join`], [`address`], [`community`]: seats given, resigned, asked for,
//!   taken over; a player's new address; a new game;
//! - [`moderation`]: the moderator's running of the game;
//! - [`queries`]: what a command only reads (status, list, map, history, summary);
//! - [`reply`], [`section`]: the reply's typed sections, their assembly into the answer,
//!   and what the quotes must hide; [`caps`]: the bounds on what one sender costs.
//!
//! Adding a command: its variant (`mail::command`), its line in the gate's table
//! ([`gate::asks`]), its arm in [`Desk::command`], its family's method, its templates and
//! its test.

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::game::{Action, Actor, Event, GameError, HouseKey, SubmitMode, Vote};
use crate::lang::Lang;
use crate::service::{Effects, Service, ServiceError, Session};

use super::command::{Command, Located, PressTo, SECRET_MASK};
use super::inbound::Inbound;
use super::refusal::Refusal;

mod address;
mod ahead;
mod caps;
mod community;
mod gate;
mod join;
mod moderation;
mod orders;
mod press;
mod queries;
mod reply;
mod seats;
mod section;
mod settings;
mod shorthand;
mod standby;
mod votes;

pub(crate) use caps::same_text;
use gate::{Gate, Role};
use reply::{Answer, lacks_its_secret, masked, may_be_a_lone_secret, script_is_empty};
pub(crate) use reply::{Quota, quoted_subject};
use section::ReplySection;
pub(crate) use shorthand::read_sign_ons;
// The moved code names its neighbours as `super::board`, `super::refusal`…
use super::{board, outmail, refusal};

/// The most commands one mail may hold (a player's orders for every unit and a few
/// commands are a few dozen): beyond, the mail is refused whole, unread.
pub const MAX_COMMANDS: usize = 300;

use crate::game::same_address;

/// Game ids are written in lower case; players may not.
pub(crate) fn fold_id(id: &str) -> String {
    id.trim().to_lowercase()
}

/// The work on one mail: the sections of the reply as they are made.
pub(crate) struct Desk<'a> {
    service: &'a Service,
    config: &'a Config,
    mail: &'a Inbound,
    lang: Lang,
    now: DateTime<Utc>,
    /// When the mail reached the judge: the time of its game actions.
    pub(crate) arrival: DateTime<Utc>,
    /// What the mail commits besides its game's change: the reply and other mails, the
    /// mark that it was acted on, counters.
    pub(crate) effects: Effects,
    /// Which game, and who writes (`gate`).
    gate: Gate,
    /// The reply as it is made (`reply`).
    pub(crate) answer: Answer,
    /// Order lines and blocks being read (`orders`, `ahead`).
    draft: Draft,
}

/// Order lines and blocks of the mail as they are read.
#[derive(Default)]
struct Draft {
    /// Order lines waiting to be submitted as one set.
    orders: Vec<(usize, String)>,
    mode: SubmitMode,
    /// An order set of this mail was refused: a `PRÊT` of the same mail does not count.
    orders_refused: bool,
    /// A `PRÊT` of this mail that took effect: its section, the house, and the flag before,
    /// to withdraw it if an order set of the mail is refused after it.
    made_ready: Option<(usize, HouseKey, bool)>,
    /// The block of orders for a later phase being read (`PHASE`), if any.
    block: Option<ahead::Block>,
    /// The mail kept or removed blocks: the reply ends with those the house holds.
    ahead_touched: bool,
    /// An `ORDRES` / `PARTIAL ORDERS` line no order line has followed yet: said so if
    /// none comes before the next command or the end of the mail.
    orders_header: Option<Located>,
    /// `STOP`: nothing after it is read.
    stopped: bool,
}

impl<'a> Desk<'a> {
    pub(crate) fn new(
        service: &'a Service,
        config: &'a Config,
        mail: &'a Inbound,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Desk<'a> {
        let effects = Effects {
            seen: Some(mail.message_id.clone()),
            ..Effects::default()
        };
        Desk {
            service,
            config,
            mail,
            lang,
            now,
            arrival: now,
            effects,
            gate: Gate::new(),
            answer: Answer::default(),
            draft: Draft::default(),
        }
    }

    pub(crate) fn run(
        &mut self,
        game: &mut Option<Session<'a>>,
        commands: &[Located],
    ) -> Result<(), ServiceError> {
        // The deadlines of the reply are in the zone of the player signed on, once the
        // mail has signed on (`SET ZONE`); nothing of it outlives the mail.
        crate::report::for_reader(None, || self.run_read(game, commands))
    }

    /// The time zone of the player the mail signed on as, if they chose one.
    fn reader_zone(&self, game: &Option<Session<'_>>) -> Option<chrono_tz::Tz> {
        let Role::House(house) = &self.gate.role else {
            return None;
        };
        game.as_ref()?.game().seat(house)?.player()?.zone()
    }

    fn run_read(
        &mut self,
        game: &mut Option<Session<'a>>,
        commands: &[Located],
    ) -> Result<(), ServiceError> {
        self.gate.names = game.as_ref().map(Session::shared_variant);
        if self.mail.too_large {
            let refusal = Refusal::TooLarge {
                size: self.mail.size,
                limit: usize::try_from(self.config.mail.max_size).unwrap_or(usize::MAX),
            };
            let message = refusal.message(self.lang);
            self.section(0, "", ReplySection::Error { message });
        }
        if let Some(count) = self.answer.too_many {
            let refusal = Refusal::TooManyCommands {
                count,
                limit: MAX_COMMANDS,
            };
            let message = refusal.message(self.lang);
            self.section(0, "", ReplySection::Error { message });
        }
        self.gate.first_sign_on = commands.iter().find_map(|c| match &c.command {
            Ok(Command::SignOn { .. } | Command::Moderator { .. }) => Some(c.line),
            _ => None,
        });
        let mut secret_may_follow = false;
        for located in commands {
            if std::mem::take(&mut secret_may_follow) && may_be_a_lone_secret(located) {
                self.answer
                    .hidden
                    .extend(located.text.split_whitespace().map(str::to_string));
                let message = Refusal::SecretOnItsOwnLine.message(self.lang);
                self.section(located.line, SECRET_MASK, ReplySection::Error { message });
                continue;
            }
            secret_may_follow = lacks_its_secret(located);
            crate::report::set_reader(self.reader_zone(game));
            let known = game.as_ref().map(|s| (s.game().id(), s.variant()));
            let (located, hidden, extra) = masked(located, known);
            let located = &located;
            self.answer.extra_words = extra;
            self.answer.hidden.extend(hidden);
            match &located.command {
                Ok(Command::Order(text)) if self.in_block() => {
                    self.draft.orders_header = None;
                    self.block_line(located.line, text)
                }
                Ok(Command::Order(text)) => {
                    self.draft.orders_header = None;
                    self.order(located.line, text)
                }
                Ok(command) => {
                    self.no_order_followed();
                    self.flush_orders(game);
                    // A sign-on ends the block of the sender before it.
                    if matches!(command, Command::SignOn { .. } | Command::Moderator { .. }) {
                        self.close_block(game);
                    }
                    self.command(game, located, command.clone())?;
                }
                Err(e) => {
                    self.no_order_followed();
                    self.flush_orders(game);
                    let message = e.message(self.lang);
                    self.error(located, message);
                }
            }
            if self.draft.stopped {
                break;
            }
        }
        crate::report::set_reader(self.reader_zone(game));
        self.no_order_followed();
        self.flush_orders(game);
        // Paths are checked once the mail's every order is in: a convoy given in a later
        // block of the mail matches a path given before it.
        let first_orders = self
            .answer
            .sections
            .iter()
            .find_map(|p| matches!(p.section, ReplySection::Orders { .. }).then_some(p.line));
        if let Some(line) = first_orders {
            self.convoy_paths(game, line);
        }
        self.close_block(game);
        self.note_blocks(game);
        if script_is_empty(commands) && !self.mail.too_large && self.answer.too_many.is_none() {
            self.section(0, "", ReplySection::Empty);
        }
        if !self.mail.attachments.is_empty() {
            let names = self.mail.attachments.clone();
            self.section(0, "", ReplySection::Attachments { names });
        }
        // A repeat of a request whose token went to this address and is still good says
        // nothing more: the forger of a victim's address mails it once, not each time.
        if self.answer.repeat_request > 0
            && self.answer.sections.len() == self.answer.repeat_request
        {
            return Ok(());
        }
        self.reply(game.as_ref().map(|s| (s.game(), s.variant())))
    }

    /// Who the mail's sender is for the game, as far as this mail has shown.
    fn actor(&self) -> Actor {
        match &self.gate.role {
            Role::House(house) => Actor::House(house.clone()),
            Role::Moderator => Actor::Moderator,
            Role::Nobody => Actor::Stranger(self.mail.from.clone()),
        }
    }

    /// The house of the game a command names as written (an id, a name, a close
    /// misspelling), or the refusal in the reply.
    fn house_named(
        &mut self,
        game: &Option<Session<'_>>,
        located: &Located,
        written: &str,
    ) -> Option<HouseKey> {
        self.read_houses(game, located, |house| house(written))
    }

    /// What `read` makes of houses as written, read against the game, or the refusal.
    fn read_houses<T>(
        &mut self,
        game: &Option<Session<'_>>,
        located: &Located,
        read: impl FnOnce(&mut dyn FnMut(&str) -> Result<HouseKey, GameError>) -> Result<T, GameError>,
    ) -> Option<T> {
        let Some(session) = game else {
            self.refuse(located, Refusal::NoGame);
            return None;
        };
        let (g, variant) = (session.game(), session.variant());
        match read(&mut |written| g.house_id(variant, written)) {
            Ok(value) => Some(value),
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                None
            }
        }
    }

    /// Carries out an action on the game for the sender; on an error the game is left as
    /// it was and the error goes into the reply. Says whether it was done.
    fn act(&mut self, game: &mut Option<Session<'_>>, located: &Located, action: Action) -> bool {
        self.act_events(game, located, action).is_some()
    }

    /// [`Desk::act`], with what happened.
    fn act_events(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        action: Action,
    ) -> Option<Vec<Event>> {
        let Some(session) = game else {
            self.refuse(located, Refusal::NoGame);
            return None;
        };
        // A game action counts as of the mail's arrival (lateness), but a deadline opened
        // afresh counts from now: a start, resume or rollback read after the judge was
        // down for days would otherwise open a phase whose deadline is already past, and
        // the same pass would process it with every unit holding.
        let at = match action {
            Action::Start | Action::Resume | Action::Rollback { .. } => self.now,
            _ => self.arrival,
        };
        match session.execute(&self.actor(), action, at) {
            Ok(events) => Some(events),
            Err(GameError::OrdersRefused(lines)) => {
                self.orders_refused(located, lines);
                None
            }
            Err(GameError::ReadyWithIllegalOrders(_)) => {
                let message = crate::say!(self.lang, "flow.ready_illegal");
                self.error(located, message);
                None
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                None
            }
        }
    }

    /// Hands one command, once through the gate, to its family.
    fn command(
        &mut self,
        game: &mut Option<Session<'a>>,
        located: &Located,
        command: Command,
    ) -> Result<(), ServiceError> {
        let Some(caller) = self.admit(game, located, &command) else {
            return Ok(());
        };
        // The gate hands a player's command only to a signed-on house.
        let house = caller.house();
        match command {
            // Who writes (`gate`).
            Command::SignOn { house, secret, .. } => {
                self.sign_on(game, located, &house, &secret)?
            }
            Command::Moderator { secret, .. } => self.moderator_sign_on(game, located, &secret)?,
            // Orders and readiness (`orders`, `ahead`).
            Command::Order(_) => {}
            // A block always replaces the orders of its phase.
            Command::Orders { .. } if self.in_block() => {}
            Command::Orders { partial } => {
                self.orders_mode(partial);
                self.orders_opened(located);
            }
            Command::Ready(ready) if self.in_block() => self.block_ready(located, ready),
            Command::Ready(ready) => {
                if let Some(house) = house {
                    self.ready(game, located, house.clone(), ready);
                    if ready {
                        self.spare_waives(game, located, &house);
                    }
                }
            }
            Command::Phase { phase, written } => self.phase_line(game, located, phase, &written),
            Command::ClearAhead => {
                if let Some(house) = house {
                    self.clear_ahead(game, located, house)
                }
            }
            Command::Preview => self.preview(game, located, &caller)?,
            // Votes (`votes`).
            Command::Draw(on) => {
                if let Some(house) = house {
                    self.vote(game, located, house, on.then_some(Vote::Draw))
                }
            }
            Command::Concede(to) => {
                if let (Some(house), Some(to)) = (house, self.house_named(game, located, &to)) {
                    self.vote(game, located, house, Some(Vote::Concede(to)))
                }
            }
            Command::DrawWith(houses) => {
                if let Some(house) = house {
                    self.draw_with(game, located, house, &houses)
                }
            }
            // Press (`press`).
            Command::Press { to, grey, body } => {
                self.press(game, located, house, to, grey, &body)?
            }
            Command::Alert { house: to, body } => {
                self.press(game, located, None, PressTo::Houses(vec![to]), false, &body)?
            }
            // A player's or the moderator's own settings (`settings`).
            Command::Language(lang) => self.language(game, located, house, lang),
            Command::Pictures(on) => self.pictures(game, located, house, on),
            Command::Zone(written) => self.zone(game, located, house, &written),
            Command::Password(secret) => self.password(game, located, house, secret),
            Command::Absence { from, to } => {
                if let Some(house) = house {
                    self.absence(game, located, house, from, to)
                }
            }
            Command::Set { kind, value } => self.set(game, located, kind, &value),
            Command::Observers(allowed) => self.observers(game, located, allowed),
            // Seats and joining (`seats`, `join`, `address`, `community`).
            Command::Resign => {
                if let Some(house) = house {
                    self.resign(game, located, house)
                }
            }
            Command::Address { address, code } => {
                if let Some(house) = house {
                    self.change_address(game, located, house, &address, code.as_deref())?
                }
            }
            Command::Observe { .. } => self.observe(game, located)?,
            Command::ConfirmObserve { token, .. } => self.confirm_observe(game, located, &token)?,
            Command::Unobserve { secret, .. } => self.unobserve(game, located, &secret)?,
            Command::Join { house, token, .. } => {
                self.join(game, located, house.as_deref(), token.as_deref())?
            }
            Command::TakeOver { house, token, .. } => {
                self.take_over(game, located, &house, token.as_deref())?
            }
            Command::Standby { on, token } => self.standby(located, on, token.as_deref())?,
            Command::Announce => self.announce(game, located)?,
            Command::AddPlayer {
                house,
                address,
                lang,
            } => self.seat(game, located, house, &address, lang, false)?,
            Command::ReplacePlayer {
                house,
                address,
                lang,
            } => self.seat(game, located, house, &address, lang, true)?,
            Command::RemovePlayer(house) => {
                if let Some(house) = self.house_named(game, located, &house) {
                    let action = Action::Remove { house };
                    self.moderate(game, located, action, ReplySection::Removed)
                }
            }
            Command::Approve { house, address } => {
                self.decide(game, located, &house, address, true)?
            }
            Command::Reject { house, address } => {
                self.decide(game, located, &house, address, false)?
            }
            Command::Create {
                game: named,
                variant,
                players,
                token,
            } => self.create(game, located, &named, variant, players, token)?,
            // The moderator's running of the game (`moderation`).
            Command::Start => self.moderate(game, located, Action::Start, ReplySection::Started),
            Command::Pause => self.moderate(game, located, Action::Pause, ReplySection::Paused),
            Command::Resume => self.moderate(game, located, Action::Resume, ReplySection::Resumed),
            Command::Extend(span) => self.extend(game, located, &span),
            Command::Process(phase) => self.process(game, located, phase),
            Command::Rollback(phase) => self.rollback(game, located, phase)?,
            Command::EndGame(by) => {
                if let Some(by) = self.read_houses(game, located, |h| by.read(h)) {
                    self.moderate(game, located, Action::End(by), ReplySection::Ended)
                }
            }
            // What a command only reads (`queries`).
            Command::Status => self.status(game, located, &caller),
            Command::List { game: named } => self.list(game, located, named.is_some())?,
            Command::History { phase, .. } => self.history(game, located, phase)?,
            Command::Map { .. } => self.map(game, located)?,
            Command::WhoGame { .. } => self.whogame(game, located)?,
            Command::Summary { .. } => self.summary(game, located)?,
            Command::Get { map } => self.get(game, located, map)?,
            Command::WhoIs => self.whois(located),
            Command::Record => self.record(located)?,
            Command::Help => self.section(located.line, &located.text, ReplySection::Help),
            Command::Foreign { written, here } => self.foreign(located, &written, here),
            Command::Diary { lines } => {
                let message = crate::say!(self.lang, "shorthand.diary_set_aside", lines);
                self.section(located.line, &located.text, ReplySection::Note { message });
            }
            Command::Stop => self.draft.stopped = true,
        }
        Ok(())
    }

    /// This mail already processed or rolled back a phase.
    fn phase_changed(game: &Option<Session<'_>>) -> bool {
        game.as_ref().is_some_and(Session::phase_changed)
    }

    /// An audit line of what was asked and refused, or done outside the game (a refused
    /// sign-on, press sent).
    fn note(game: &mut Option<Session<'_>>, line: Event) {
        if let Some(session) = game {
            session.note(line);
        }
    }
}
