//! The work on one received mail, split by job: the [`Desk`] reads the mail's commands in
//! order and hands each to the method of its job, which makes the reply's sections as it
//! goes.
//!
//! - [`authority`]: who writes — sign-ons (player, moderator), the count of failed ones,
//!   what a command needs the sender to be;
//! - [`orders`]: order lines gathered into sets and submitted, `PRÊT`, the trial
//!   adjudication and the results of a phase;
//! - [`press`]: press between houses and to the moderator;
//! - [`moderation`]: the moderator's commands, votes, seats, addresses, observers;
//! - [`queries`]: what a command only reads (status, list, map, history);
//! - [`reply`]: the reply's typed sections, their assembly into the answer, and what the
//!   quotes must hide.

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::game::{Action, Actor, Event, GameError, HouseKey, SubmitMode, Vote};
use crate::lang::Lang;
use crate::map::Variant;
use crate::service::{Effects, Service, ServiceError, Session};
use std::rc::Rc;

use super::command::{Command, Located, SECRET_MASK};
use super::inbound::Inbound;
use super::refusal::Refusal;

mod address;
mod ahead;
mod authority;
mod caps;
mod community;
mod habits;
mod join;
mod moderation;
mod orders;
mod press;
mod queries;
mod reply;
mod section;
mod shorthand;

pub(crate) use caps::{Budget, same_text};
pub(crate) use reply::{Quota, quoted_subject};
use reply::{lacks_its_secret, masked, may_be_a_lone_secret, script_is_empty};
use section::{Placed, ReplySection};
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

/// Who the sender turned out to be.
#[derive(Debug, Clone, PartialEq)]
enum Role {
    Nobody,
    /// Signed on as this house.
    House(HouseKey),
    Moderator,
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
    role: Role,
    /// The game the mail is about, once named (even when the sign-on failed).
    game_id: Option<String>,
    /// The variant of the mail's game: refusals name its houses in the reader's words.
    names: Option<Rc<Variant>>,
    /// A sign-on failed: the rest of the mail is refused for that game.
    locked_out: bool,
    sections: Vec<Placed>,
    /// Order lines waiting to be submitted as one set.
    orders: Vec<(usize, String)>,
    mode: SubmitMode,
    /// The address registered for the house, when it is not the sender's.
    owner: Option<String>,
    stopped: bool,
    /// The line of the first sign-on (player or moderator), if any: what comes before it
    /// is a greeting, not orders.
    first_sign_on: Option<usize>,
    /// An order set of this mail was refused: a `PRÊT` of the same mail does not count.
    orders_refused: bool,
    /// A `PRÊT` of this mail that took effect: its section, the house, and the flag before,
    /// to withdraw it if an order set of the mail is refused after it.
    made_ready: Option<(usize, HouseKey, bool)>,
    pub(crate) quota: Quota,
    /// A secret was checked in this mail: one mail buys one guess, so every later one is
    /// refused unchecked.
    secret_spent: bool,
    /// The words hidden from the quotes of this mail's lines (secrets, and what followed
    /// them): the reply's subject hides them too.
    hidden: Vec<String>,
    /// The line being carried out had words after its secret (ignored, and said so).
    extra_words: bool,
    /// A code to confirm a new address was asked for in this mail: one a mail.
    address_code_sent: bool,
    /// The mail held this many commands, more than [`MAX_COMMANDS`]: none was read.
    pub(crate) too_many: Option<usize>,
    /// `CARTE` was granted: the reply carries the board's picture (drawn once, however
    /// many times the mail asks, and only if the reply is sent at all).
    map_wanted: bool,
    /// The counter of the picture `CARTE` may draw (`caps`), counted if it is sent.
    picture_key: Option<String>,
    /// The counter of this mail's text from its sender and where it stands (`caps`).
    pub(crate) same_text: Option<(String, Budget)>,
    /// The sections of requests whose token was mailed already (`join`): a mail of
    /// nothing else is not answered.
    repeat_request: usize,
    /// Whether a secret written in a token's place was checked in full (one a mail).
    holder_checked: bool,
    /// The block of orders for a later phase being read (`PHASE`), if any.
    block: Option<ahead::Block>,
    /// The mail kept or removed blocks: the reply ends with those the house holds.
    ahead_touched: bool,
    /// An `ORDRES` / `PARTIAL ORDERS` line no order line has followed yet: said so if
    /// none comes before the next command or the end of the mail.
    orders_header: Option<Located>,
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
            role: Role::Nobody,
            game_id: None,
            names: None,
            locked_out: false,
            sections: Vec::new(),
            orders: Vec::new(),
            mode: SubmitMode::Replace,
            owner: None,
            stopped: false,
            first_sign_on: None,
            orders_refused: false,
            made_ready: None,
            quota: Quota::Open,
            secret_spent: false,
            hidden: Vec::new(),
            extra_words: false,
            address_code_sent: false,
            too_many: None,
            map_wanted: false,
            picture_key: None,
            same_text: None,
            repeat_request: 0,
            holder_checked: false,
            block: None,
            ahead_touched: false,
            orders_header: None,
        }
    }

    pub(crate) fn run(
        &mut self,
        game: &mut Option<Session<'a>>,
        commands: &[Located],
    ) -> Result<(), ServiceError> {
        self.names = game.as_ref().map(Session::shared_variant);
        if self.mail.too_large {
            let refusal = Refusal::TooLarge {
                size: self.mail.size,
                limit: usize::try_from(self.config.mail.max_size).unwrap_or(usize::MAX),
            };
            let message = refusal.message(self.lang);
            self.section(0, "", ReplySection::Error { message });
        }
        if let Some(count) = self.too_many {
            let refusal = Refusal::TooManyCommands {
                count,
                limit: MAX_COMMANDS,
            };
            let message = refusal.message(self.lang);
            self.section(0, "", ReplySection::Error { message });
        }
        self.first_sign_on = commands.iter().find_map(|c| match &c.command {
            Ok(Command::SignOn { .. } | Command::Moderator { .. }) => Some(c.line),
            _ => None,
        });
        let mut secret_may_follow = false;
        for located in commands {
            if std::mem::take(&mut secret_may_follow) && may_be_a_lone_secret(located) {
                self.hidden
                    .extend(located.text.split_whitespace().map(str::to_string));
                let message = Refusal::SecretOnItsOwnLine.message(self.lang);
                self.section(located.line, SECRET_MASK, ReplySection::Error { message });
                continue;
            }
            secret_may_follow = lacks_its_secret(located);
            let known = game.as_ref().map(|s| (s.game().id(), s.variant()));
            let (located, hidden, extra) = masked(located, known);
            let located = &located;
            self.extra_words = extra;
            self.hidden.extend(hidden);
            match &located.command {
                Ok(Command::Order(text)) if self.in_block() => {
                    self.orders_header = None;
                    self.block_line(located.line, text)
                }
                Ok(Command::Order(text)) => {
                    self.orders_header = None;
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
            if self.stopped {
                break;
            }
        }
        self.no_order_followed();
        self.flush_orders(game);
        // Paths are checked once the mail's every order is in: a convoy given in a later
        // block of the mail matches a path given before it.
        let first_orders = self
            .sections
            .iter()
            .find_map(|p| matches!(p.section, ReplySection::Orders { .. }).then_some(p.line));
        if let Some(line) = first_orders {
            self.convoy_paths(game, line);
        }
        self.close_block(game);
        self.note_blocks(game);
        if script_is_empty(commands) && !self.mail.too_large && self.too_many.is_none() {
            self.section(0, "", ReplySection::Empty);
        }
        if !self.mail.attachments.is_empty() {
            let names = self.mail.attachments.clone();
            self.section(0, "", ReplySection::Attachments { names });
        }
        // A repeat of a request whose token went to this address and is still good says
        // nothing more: the forger of a victim's address mails it once, not each time.
        if self.repeat_request > 0 && self.sections.len() == self.repeat_request {
            return Ok(());
        }
        self.reply(game.as_ref().map(|s| (s.game(), s.variant())))
    }

    /// Who the mail's sender is for the game, as far as this mail has shown.
    fn actor(&self) -> Actor {
        match &self.role {
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

    /// Hands one command to the method of its job.
    fn command(
        &mut self,
        game: &mut Option<Session<'a>>,
        located: &Located,
        command: Command,
    ) -> Result<(), ServiceError> {
        match command {
            Command::Order(_) => {}
            Command::Diary { lines } => {
                let message = crate::say!(self.lang, "shorthand.diary_set_aside", lines);
                self.section(located.line, &located.text, ReplySection::Note { message });
            }
            Command::SignOn {
                game: named,
                house,
                secret,
            } => self.sign_on(game, located, &named, &house, &secret)?,
            Command::Moderator {
                game: named,
                secret,
            } => self.moderator_sign_on(game, located, &named, &secret)?,
            // A block always replaces the orders of its phase.
            Command::Orders { .. } if self.in_block() => {}
            Command::Ready(ready) if self.in_block() => self.block_ready(located, ready),
            Command::Orders { partial } => {
                self.orders_mode(located, partial);
                self.orders_opened(located);
            }
            Command::Ready(ready) => {
                self.ready(game, located, ready);
                if ready {
                    self.spare_waives(game, located);
                }
            }
            Command::Status => self.status(game, located),
            Command::List { game: named } => self.list(game, located, named.as_deref())?,
            Command::History { game: named, phase } => {
                self.history(game, located, named.as_deref(), phase)?
            }
            Command::Draw(on) => self.vote(game, located, on.then_some(Vote::Draw)),
            Command::Concede(to) => {
                if self.require_house(located).is_some()
                    && let Some(to) = self.house_named(game, located, &to)
                {
                    self.vote(game, located, Some(Vote::Concede(to)))
                }
            }
            Command::Resign => self.resign(game, located),
            Command::Address { address, code } => {
                self.change_address(game, located, &address, code.as_deref())?
            }
            Command::Absence { from, to } => self.absence(game, located, from, to),
            Command::Language(lang) => self.language(game, located, lang),
            Command::Observe { game: named } => self.observe(game, located, &named)?,
            Command::ConfirmObserve { game: named, token } => {
                self.confirm_observe(game, located, &named, &token)?
            }
            Command::Observers(allowed) => self.observers(game, located, allowed),
            Command::Unobserve {
                game: named,
                secret,
            } => self.unobserve(game, located, &named, &secret)?,
            Command::Press { to, grey, body } => self.press(game, located, to, grey, &body)?,
            Command::Map { game: named } => self.map(game, located, named.as_deref())?,
            Command::Pictures(on) => self.pictures(game, located, on),
            Command::Help => self.section(located.line, &located.text, ReplySection::Help),
            Command::Stop => self.stopped = true,
            Command::Start => self.moderate(game, located, Action::Start, ReplySection::Started),
            Command::Process(phase) => self.process(game, located, phase),
            Command::Preview if matches!(self.role, Role::House(_)) => {
                self.player_preview(game, located)?
            }
            Command::Preview => self.preview(game, located)?,
            Command::Pause => self.moderate(game, located, Action::Pause, ReplySection::Paused),
            Command::Resume => self.moderate(game, located, Action::Resume, ReplySection::Resumed),
            Command::Extend(span) => self.extend(game, located, &span),
            Command::Rollback(phase) => self.rollback(game, located, phase)?,
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
                if self.require_moderator(located)
                    && let Some(house) = self.house_named(game, located, &house)
                {
                    let action = Action::Remove { house };
                    self.moderate(game, located, action, ReplySection::Removed)
                }
            }
            Command::EndGame(by) => {
                if self.require_moderator(located)
                    && let Some(by) = self.read_houses(game, located, |h| by.read(h))
                {
                    self.moderate(game, located, Action::End(by), ReplySection::Ended)
                }
            }
            Command::Set { kind, value } => self.set(game, located, kind, &value),
            Command::DrawWith(houses) => self.draw_with(game, located, &houses),
            Command::Password(secret) => self.password(game, located, secret),
            Command::Foreign { written, here } => self.foreign(located, &written, here),
            Command::Create {
                game: named,
                variant,
                players,
                token,
            } => self.create(game, located, &named, variant, players, token)?,
            Command::WhoGame { game: named } => self.whogame(game, located, &named),
            Command::Summary { game: named } => self.summary(game, located, named.as_deref())?,
            Command::Get { map } => self.get(game, located, map)?,
            Command::WhoIs => self.whois(located),
            Command::Alert { house, body } => self.alert(game, located, house, &body)?,
            Command::Join {
                game: named,
                house,
                token,
            } => self.join(game, located, &named, house.as_deref(), token.as_deref())?,
            Command::TakeOver {
                game: named,
                house,
                token,
            } => self.take_over(game, located, &named, &house, token.as_deref())?,
            Command::Approve { house, address } => {
                self.decide(game, located, &house, address, true)?
            }
            Command::Reject { house, address } => {
                self.decide(game, located, &house, address, false)?
            }
            Command::Phase { phase, written } => self.phase_line(game, located, phase, &written),
            Command::ClearAhead => self.clear_ahead(game, located),
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

fn house_name(variant: &Variant, id: &str, lang: Lang) -> String {
    variant.house_by_name(id).map_or_else(
        || id.to_string(),
        |h| variant.house(h).name_in(lang).to_string(),
    )
}
