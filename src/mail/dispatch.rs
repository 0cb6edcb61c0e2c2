//! One received mail carried out: its commands read, the sender authenticated by secret,
//! each action applied to the game, and everything it causes — the game's change, the
//! reply, press to other houses, the welcome mail of a new player, the mark that this
//! Message-ID was acted on — committed in one transaction. A mail delivered twice finds
//! its mark and does nothing; a crash before the commit leaves nothing done.
//!
//! Carrying out a mail never processes a phase by itself (except the moderator's
//! `PROCESS`): a phase made due by the last `READY` is processed by the tick of the same
//! pass (`mail::pass`).

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::Config;
use crate::game::calendar::format_deadline;
use crate::game::span::Span;
use crate::game::{
    Game, GameError, GameStatus, Observer, ObserverRequest, OrderProblem, PhaseRecord, Press,
    SubmitMode, Trigger, Vote, check_address, hash_secret, looks_like_prose, new_secret,
    secret_matches,
};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::ORDERS_TEMPLATE;
use crate::report::game_text::{
    Audience, ending_text, phase_text, record_results_for, status_word,
};
use crate::service::{Action, Effects, Service, action};

use super::command::{self, Command, CommandError, Located, PressTo, SECRET_MASK};
use super::compose::compose;
use super::inbound::Inbound;
use super::outmail::OutMail;
use super::refusal::Refusal;
use super::throttle::{Guard, Subject};

/// What became of one received mail.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// Its Message-ID was already acted on: nothing done.
    Duplicate,
    /// An automatic message (bounce, auto-reply): marked as seen, not answered.
    Ignored,
    /// Carried out and answered; the game it was about, if any.
    Answered { game: Option<String> },
}

/// Carries out one received mail that reached the judge `now`.
pub fn handle(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
) -> Result<Handled, GameError> {
    handle_arrived(service, config, mail, now, now)
}

/// Carries out one received mail at `now` that reached the judge at `arrival` (its
/// Maildir delivery or spool time, never later than `now`): the game's actions (orders,
/// `PRÊT`, votes…) are judged as of `arrival`, so that a mail that came in before the
/// deadline is on time however late the pass that reads it (docs/deadlines.md).
pub fn handle_arrived(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
    arrival: DateTime<Utc>,
) -> Result<Handled, GameError> {
    let arrival = arrival.min(now);
    if service.already_seen(&mail.message_id)? {
        return Ok(Handled::Duplicate);
    }
    if let Some(bounce) = &mail.bounce {
        super::bounces::record(service, config, mail, bounce, now)?;
        return Ok(Handled::Ignored);
    }
    // Never answer a robot, nor the judge itself (a forged From or Reply-To): either
    // would start a loop (docs/email.md, "Mail that is never answered").
    if mail.automatic || super::bounces::from_the_judge(config, mail) {
        service.mark_seen(&mail.message_id)?;
        return Ok(Handled::Ignored);
    }
    let mut script = if mail.too_large {
        command::Script::default()
    } else {
        command::parse(&mail.body)
    };
    // A mail of more commands than anyone writes is refused whole, unread: carrying out
    // each line (a secret, the names nearest to a line that is no order, a phase's
    // results quoted) is what would cost.
    let too_many = script.commands.len();
    let too_many = (too_many > MAX_COMMANDS).then_some(too_many);
    if too_many.is_some() {
        script.commands.clear();
    }
    let named = script.commands.iter().find_map(|c| match &c.command {
        Ok(Command::SignOn { game, .. })
        | Ok(Command::Moderator { game, .. })
        | Ok(Command::Observe { game })
        | Ok(Command::ConfirmObserve { game, .. })
        | Ok(Command::Unobserve { game, .. })
        | Ok(Command::Map {
            game: Some(game), ..
        }) => Some(game.clone()),
        _ => None,
    });
    let game = match &named {
        Some(game) => service.find_game(&fold_id(game))?,
        None => None,
    };
    // Until a sign-on says who writes, answer a known player of the game in their own
    // language, then in the language of the keywords used, then in the judge's.
    let known = game.as_ref().and_then(|g| {
        g.seats
            .iter()
            .filter_map(|s| s.player.as_ref())
            .find(|p| p.address == mail.from)
            .map(|p| p.lang)
    });
    let lang = known.or(script.lang).unwrap_or(config.lang);
    let id = game.map(|g| g.id);
    let actor = format!("mail {}", mail.from);
    let quota = Quota::of(service, config, &mail.from, now)?;
    let game = match id {
        Some(id) => service.update(&id, &actor, "mail", now, |game, variant, effects| {
            let mut desk = Desk::new(service, config, mail, lang, now, effects);
            desk.quota = quota;
            desk.arrival = arrival;
            desk.too_many = too_many;
            desk.run(Some((game, variant)), &script.commands)?;
            Ok(Some(game.id.clone()))
        })?,
        None => {
            let mut effects = Effects::default();
            let mut desk = Desk::new(service, config, mail, lang, now, &mut effects);
            desk.quota = quota;
            desk.arrival = arrival;
            desk.too_many = too_many;
            // A command naming a game that does not exist says so at its own line, with
            // the nearest id (`same_game`).
            desk.run(None, &script.commands)?;
            service.settle_without_game(effects)?;
            None
        }
    };
    // The last READY makes the phase due at once: the pass's tick, which follows the
    // reading of the mail, processes it.
    Ok(Handled::Answered { game })
}

/// Where the sender stands against the cap of answers per hour (`[mail]
/// replies_per_hour`): a robot that answers every mail, unmarked, would otherwise keep the
/// judge writing to it for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quota {
    /// Answered as usual.
    Open,
    /// The last answer of the hour, with a warning; silence follows until `until`.
    Last { until: DateTime<Utc> },
    /// Past the cap: the mail is carried out, not answered.
    Silent,
}

impl Quota {
    fn of(
        service: &Service,
        config: &Config,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<Quota, GameError> {
        let cap = config.mail.replies_per_hour;
        let window = service.reply_window(address, now)?;
        Ok(match window {
            // 0: no cap.
            _ if cap == 0 => Quota::Open,
            Some(w) if w.count > cap => Quota::Silent,
            Some(w) if w.count == cap => Quota::Last {
                until: w.since + crate::service::REPLY_WINDOW,
            },
            _ => Quota::Open,
        })
    }
}

/// The most commands one mail may hold (a player's orders for every unit and a few
/// commands are a few dozen): beyond, the mail is refused whole, unread.
pub const MAX_COMMANDS: usize = 300;

/// Requests to observe a game waiting for confirmation, at most.
const MAX_OBSERVER_REQUESTS: usize = 20;

/// How long the token of a request to observe is good for.
const OBSERVER_TOKEN_LIFE: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// Whether two addresses are the same mailbox, as far as the judge can tell (domains
/// ignore case, and so do the local parts of every mail system players use).
fn same_address(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// Why `from` may not ask to observe (or confirm it): the moderator forbids observers, or
/// it observes already.
fn observing_refused(game: &Game, from: &str) -> Option<Refusal> {
    if !game.settings.observers {
        Some(Refusal::ObserversForbidden)
    } else if game
        .observers
        .iter()
        .any(|o| same_address(&o.address, from))
    {
        Some(Refusal::AlreadyObserving)
    } else {
        None
    }
}

/// Whether the game already writes to `address`: a house's player (not resigned), the
/// moderator, an observer — the addresses its results go to.
fn knows(game: &Game, address: &str) -> bool {
    let player = game
        .seats
        .iter()
        .filter(|s| !s.resigned)
        .filter_map(|s| s.player.as_ref())
        .any(|p| same_address(&p.address, address));
    let moderator = game
        .moderator
        .as_ref()
        .is_some_and(|m| same_address(&m.address, address));
    let observer = game
        .observers
        .iter()
        .any(|o| same_address(&o.address, address));
    player || moderator || observer
}

/// Game ids are written in lower case; players may not.
fn fold_id(id: &str) -> String {
    id.trim().to_lowercase()
}

/// Who the sender turned out to be.
#[derive(Debug, Clone, PartialEq)]
enum Role {
    Nobody,
    /// Signed on as this house (id).
    House(String),
    Moderator,
}

/// The work on one mail: the sections of the reply as they are made.
struct Desk<'a> {
    service: &'a Service,
    config: &'a Config,
    mail: &'a Inbound,
    lang: Lang,
    now: DateTime<Utc>,
    /// When the mail reached the judge: the time of its game actions.
    arrival: DateTime<Utc>,
    effects: &'a mut Effects,
    role: Role,
    /// The game the mail is about, once named (even when the sign-on failed).
    game_id: Option<String>,
    /// A sign-on failed: the rest of the mail is refused for that game.
    locked_out: bool,
    sections: Vec<Value>,
    /// Order lines waiting to be submitted as one set.
    orders: Vec<(usize, String)>,
    mode: SubmitMode,
    /// The address registered for the house, when it is not the sender's.
    owner: Option<String>,
    stopped: bool,
    /// The line of the first sign-on (player or moderator), if any: what comes before it
    /// is a greeting, not orders.
    first_sign_on: Option<usize>,
    /// The mail's line of each line of the order set being submitted, so that its
    /// refusals name the lines as the player numbers them.
    submitting: Vec<usize>,
    /// An order set of this mail was refused: a `PRÊT` of the same mail does not count.
    orders_refused: bool,
    /// A `PRÊT` of this mail that took effect: its section, the house, and the flag before,
    /// to withdraw it if an order set of the mail is refused after it.
    made_ready: Option<(usize, String, bool)>,
    quota: Quota,
    /// A secret was checked (or refused for the throttle) in this mail: one mail buys one
    /// guess, so every later one is refused unchecked.
    secret_spent: bool,
    /// The words hidden from the quotes of this mail's lines (secrets, and what followed
    /// them): the reply's subject hides them too.
    hidden: Vec<String>,
    /// The line being carried out had words after its secret (ignored, and said so).
    extra_words: bool,
    /// The mail held this many commands, more than [`MAX_COMMANDS`]: none was read.
    too_many: Option<usize>,
    /// The sign-on was refused unchecked by the throttle, until then (in the reader's
    /// words): the lines after it say so, never "wrong secret".
    throttled: Option<String>,
    /// `CARTE` was granted: the reply carries the board's picture (drawn once, however
    /// many times the mail asks, and only if the reply is sent at all).
    map_wanted: bool,
}

impl<'a> Desk<'a> {
    fn new(
        service: &'a Service,
        config: &'a Config,
        mail: &'a Inbound,
        lang: Lang,
        now: DateTime<Utc>,
        effects: &'a mut Effects,
    ) -> Desk<'a> {
        effects.seen = Some(mail.message_id.clone());
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
            locked_out: false,
            sections: Vec::new(),
            orders: Vec::new(),
            mode: SubmitMode::Replace,
            owner: None,
            stopped: false,
            first_sign_on: None,
            submitting: Vec::new(),
            orders_refused: false,
            made_ready: None,
            quota: Quota::Open,
            secret_spent: false,
            hidden: Vec::new(),
            extra_words: false,
            too_many: None,
            throttled: None,
            map_wanted: false,
        }
    }

    fn run(
        &mut self,
        mut game: Option<(&mut Game, &Variant)>,
        commands: &[Located],
    ) -> Result<(), GameError> {
        if self.mail.too_large {
            let refusal = Refusal::TooLarge {
                size: self.mail.size,
                limit: usize::try_from(self.config.mail.max_size).unwrap_or(usize::MAX),
            };
            self.section(
                0,
                "",
                "error",
                json!({ "message": refusal.message(self.lang) }),
            );
        }
        if let Some(count) = self.too_many {
            let refusal = Refusal::TooManyCommands {
                count,
                limit: MAX_COMMANDS,
            };
            let message = refusal.message(self.lang);
            self.section(0, "", "error", json!({ "message": message }));
        }
        self.first_sign_on = commands.iter().find_map(|c| match &c.command {
            Ok(Command::SignOn { .. } | Command::Moderator { .. }) => Some(c.line),
            _ => None,
        });
        for located in commands {
            let (located, hidden, extra) = masked(located, game.as_ref().map(|(_, v)| *v));
            let located = &located;
            self.extra_words = extra;
            self.hidden.extend(hidden);
            match &located.command {
                Ok(Command::Order(text)) => self.order(located.line, text),
                Ok(command) => {
                    self.flush_orders(&mut game);
                    self.command(&mut game, located, command.clone())?;
                }
                Err(e) => {
                    self.flush_orders(&mut game);
                    let message = e.message(self.lang);
                    self.error(located, message);
                }
            }
            if self.stopped {
                break;
            }
        }
        self.flush_orders(&mut game);
        if script_is_empty(commands) && !self.mail.too_large && self.too_many.is_none() {
            self.section(0, "", "empty", json!({}));
        }
        if !self.mail.attachments.is_empty() {
            let names = self.mail.attachments.clone();
            self.section(0, "", "attachments", json!({ "names": names }));
        }
        self.reply(game.as_ref().map(|(g, v)| (&**g, *v)))
    }

    fn section(&mut self, line: usize, text: &str, kind: &str, data: Value) {
        let mut section = json!({ "line": line, "text": text, "kind": kind });
        if let (Some(map), Value::Object(extra)) = (section.as_object_mut(), data) {
            map.extend(extra);
        }
        self.sections.push(section);
    }

    /// A line the judge could not carry out, and why.
    fn error(&mut self, located: &Located, message: String) {
        self.section(
            located.line,
            &located.text,
            "error",
            json!({ "message": message }),
        );
    }

    fn refuse(&mut self, located: &Located, refusal: Refusal) {
        let message = refusal.message(self.lang);
        self.error(located, message);
    }

    /// A game's refusal, in the reader's language and in mail words.
    fn game_message(&self, e: &GameError) -> String {
        super::refusal::game_error(e, self.lang)
    }

    fn order(&mut self, line: usize, text: &str) {
        if self.first_sign_on.is_some_and(|first| line < first) {
            self.section(line, text, "ignored", json!({}));
            return;
        }
        self.orders.push((line, text.to_string()));
    }

    /// Submits the order lines gathered so far as one set.
    fn flush_orders(&mut self, game: &mut Option<(&mut Game, &Variant)>) {
        if self.orders.is_empty() {
            return;
        }
        let mut lines = std::mem::take(&mut self.orders);
        if let Some((_, variant)) = game {
            // "Merci !" after the orders (or after `PRÊT`) is a courtesy, not a typo: lines
            // that read as prose rather than as a mistyped order, after the last line that
            // may be an order, are set aside, not held against the whole set; a block of
            // nothing but prose is no order set at all.
            let keep = lines
                .iter()
                .rposition(|(_, t)| !looks_like_prose(variant, t))
                .map_or(0, |i| i + 1);
            for (line, text) in lines.split_off(keep) {
                self.section(line, &text, "ignored", json!({}));
            }
            if lines.is_empty() {
                return;
            }
        }
        let first = lines[0].0;
        let text: String = lines.iter().map(|(_, t)| format!("{t}\n")).collect();
        let located = Located {
            line: first,
            text: lines[0].1.clone(),
            command: Ok(Command::Order(String::new())),
        };
        let house = match &self.role {
            Role::House(h) => h.clone(),
            _ => {
                let refusal = self.not_signed_on();
                let message = refusal.message(self.lang);
                let shown: Vec<&str> = lines.iter().map(|(_, t)| t.as_str()).collect();
                self.section(
                    first,
                    &shown.join("\n"),
                    "error",
                    json!({ "message": message }),
                );
                return;
            }
        };
        let action = Action::Submit {
            house,
            text,
            mode: self.mode,
            source: format!("mail {} <{}>", self.mail.from, self.mail.message_id),
            lang: self.lang,
        };
        // Order lines after a command (`PRET`, press) belong to the same set: the next
        // block of this mail adds to this one unless `ORDRES` starts a new set.
        self.mode = SubmitMode::Partial;
        let count = lines.len();
        self.submitting = lines.iter().map(|(line, _)| *line).collect();
        let refused_before = self.orders_refused;
        if self.act(game, &located, action) {
            self.section(first, "", "orders", json!({ "count": count }));
        } else if self.orders_refused && !refused_before {
            self.withdraw_ready(game);
        }
    }

    /// Orders of this mail were refused after its `PRÊT` took effect: the house is put
    /// back as it was, and the reply says so where it acknowledged the `PRÊT`.
    fn withdraw_ready(&mut self, game: &mut Option<(&mut Game, &Variant)>) {
        let (Some((index, house, before)), Some((g, _))) = (self.made_ready.take(), game) else {
            return;
        };
        if g.set_ready(&house, before, self.now).is_ok() {
            self.note(format!("{house}: ready withdrawn, orders refused"));
            if let Some(section) = self.sections.get_mut(index) {
                section["kind"] = json!("ready-refused");
            }
        }
    }

    /// Applies an action to the game; on an error the game is left as it was and the
    /// error goes into the reply. Says whether it was done.
    fn act(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        action: Action,
    ) -> bool {
        let Some((game, variant)) = game else {
            self.refuse(located, Refusal::NoGame);
            return false;
        };
        let before = (**game).clone();
        let saved_detail = self.effects.detail.clone();
        // A game action counts as of the mail's arrival (lateness), but a deadline opened
        // afresh counts from now: a start, resume or rollback read after the judge was
        // down for days would otherwise open a phase whose deadline is already past, and
        // the same pass would process it with every unit holding.
        let at = match action {
            Action::Start | Action::Resume | Action::Rollback { .. } => self.now,
            _ => self.arrival,
        };
        match action::apply(game, variant, action, self.effects, at) {
            Ok(()) => true,
            Err(e) => {
                **game = before;
                self.effects.detail = saved_detail;
                let message = match e {
                    GameError::OrdersRefused(lines) => {
                        return self.orders_refused(located, lines);
                    }
                    e => self.game_message(&e),
                };
                self.error(located, message);
                false
            }
        }
    }

    fn orders_refused(&mut self, located: &Located, problems: Vec<OrderProblem>) -> bool {
        self.orders_refused = true;
        // A mail of thousands of bad lines gets a reply of a readable size.
        let more = problems.len().saturating_sub(MAX_PROBLEMS_SHOWN);
        // Numbered in the mail, as the player sees it, not in the joined order set.
        let problems: Vec<Value> = problems
            .into_iter()
            .take(MAX_PROBLEMS_SHOWN)
            .map(|p| {
                let line = p.line;
                let p = match line.checked_sub(1).and_then(|i| self.submitting.get(i)) {
                    Some(&in_mail) => p.at_line(in_mail),
                    None => p,
                };
                json!({ "line": p.line, "text": p.text, "message": p.message(self.lang) })
            })
            .collect();
        self.section(
            located.line,
            "",
            "orders-refused",
            json!({ "problems": problems, "more": more }),
        );
        false
    }

    /// Why a player's command is refused without a sign-on: none was given, or it failed.
    fn not_signed_on(&self) -> Refusal {
        if let Some(until) = &self.throttled {
            Refusal::Throttled {
                game: self.game_id.clone().unwrap_or_default(),
                until: until.clone(),
            }
        } else if self.locked_out {
            Refusal::BadSignOn {
                game: self.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotSignedOn
        }
    }

    fn require_house(&mut self, located: &Located) -> Option<String> {
        match &self.role {
            Role::House(h) => Some(h.clone()),
            _ => {
                let refusal = self.not_signed_on();
                self.refuse(located, refusal);
                None
            }
        }
    }

    fn require_moderator(&mut self, located: &Located) -> bool {
        if self.role == Role::Moderator {
            return true;
        }
        let refusal = if let Some(until) = &self.throttled {
            Refusal::Throttled {
                game: self.game_id.clone().unwrap_or_default(),
                until: until.clone(),
            }
        } else if self.locked_out {
            Refusal::BadModeratorSecret {
                game: self.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotModerator
        };
        self.refuse(located, refusal);
        false
    }

    /// Checks that a command naming `named` stays on the mail's one game.
    fn same_game(
        &mut self,
        game: &Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
    ) -> bool {
        let named = fold_id(named);
        match (game, &self.game_id) {
            (_, Some(first)) if *first != named => {
                let first = first.clone();
                self.refuse(located, Refusal::OneGamePerMail { first });
                false
            }
            (Some((g, _)), _) if g.id == named => {
                self.game_id = Some(named);
                true
            }
            _ => {
                // An unknown game is still the mail's one game: a later sign-on for
                // another game is refused as such, not reported unknown.
                self.game_id = Some(named.clone());
                let e = self
                    .service
                    .load(&named)
                    .err()
                    .unwrap_or(GameError::UnknownGame {
                        id: named,
                        nearest: None,
                    });
                let message = self.game_message(&e);
                self.error(located, message);
                false
            }
        }
    }

    fn command(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        command: Command,
    ) -> Result<(), GameError> {
        let line = located.line;
        let text = located.text.as_str();
        match command {
            Command::Order(_) => {}
            Command::SignOn {
                game: named,
                house,
                secret,
            } => self.sign_on(game, located, &named, &house, &secret)?,
            Command::Moderator {
                game: named,
                secret,
            } => self.moderator_sign_on(game, located, &named, &secret)?,
            Command::Orders { partial } => {
                if self.require_house(located).is_some() {
                    self.mode = if partial {
                        SubmitMode::Partial
                    } else {
                        SubmitMode::Replace
                    };
                }
            }
            Command::Ready(ready) => {
                let Some(house) = self.require_house(located) else {
                    return Ok(());
                };
                // Refused orders never make a house ready: it would be processed with
                // orders it did not mean (its units holding).
                if ready && self.orders_refused {
                    self.section(line, text, "ready-refused", json!({}));
                    return Ok(());
                }
                let before = game
                    .as_ref()
                    .and_then(|(g, _)| g.seat(&house))
                    .is_some_and(|s| s.ready);
                let action = Action::Ready {
                    house: house.clone(),
                    ready,
                };
                if self.act(game, located, action) {
                    if ready {
                        self.made_ready = Some((self.sections.len(), house, before));
                    }
                    self.section(line, text, "ready", json!({ "ready": ready }));
                }
            }
            Command::Status => self.status(game, located),
            Command::List => self.list(located)?,
            Command::History(phase) => self.history(game, located, phase)?,
            Command::Draw(on) => {
                let vote = on.then_some(Vote::Draw);
                self.vote(game, located, vote);
            }
            Command::Concede(to) => self.vote(game, located, Some(Vote::Concede(to))),
            Command::Resign => {
                if let Some(house) = self.require_house(located)
                    && self.act(game, located, Action::Resign { house })
                {
                    self.section(line, text, "resigned", json!({}));
                    self.role = Role::Nobody;
                }
            }
            Command::Address(address) => self.change_address(game, located, &address),
            Command::Absence { from, to } => {
                if let Some(house) = self.require_house(located)
                    && self.act(game, located, Action::Absence { house, from, to })
                {
                    self.section(line, text, "absence", json!({}));
                }
            }
            Command::Language(lang) => {
                if self.role == Role::Moderator
                    && let Some((g, _)) = game
                {
                    // The moderator's results, notices and answers.
                    g.settings.lang = lang;
                    self.lang = lang;
                    self.note(format!("moderator: language {lang}"));
                    self.section(line, text, "language", json!({}));
                } else if let Some(house) = self.require_house(located)
                    && let Some((g, _)) = game
                    && let Some(p) = g.seat_mut(&house).and_then(|s| s.player.as_mut())
                {
                    p.lang = lang;
                    self.lang = lang;
                    self.note(format!("{house}: language {lang}"));
                    self.section(line, text, "language", json!({}));
                }
            }
            Command::Observe { game: named } => self.observe(game, located, &named)?,
            Command::ConfirmObserve { game: named, token } => {
                self.confirm_observe(game, located, &named, &token)?
            }
            Command::Observers(allowed) => {
                let action = Action::Observers { allowed };
                let removed = game.as_ref().map_or(0, |(g, _)| g.observers.len());
                if self.require_moderator(located) && self.act(game, located, action) {
                    let removed = if allowed { 0 } else { removed };
                    self.section(
                        line,
                        text,
                        "observers",
                        json!({ "allowed": allowed, "removed": removed }),
                    );
                }
            }
            Command::Unobserve {
                game: named,
                secret,
            } => self.unobserve(game, located, &named, &secret)?,
            Command::Press { to, grey, body } => self.press(game, located, to, grey, &body)?,
            Command::Map { game: named } => self.map(game, located, named.as_deref()),
            Command::Pictures(on) => {
                let action = Action::Pictures { on };
                if self.require_moderator(located) && self.act(game, located, action) {
                    self.section(line, text, "pictures", json!({ "on": on }));
                }
            }
            Command::Help => self.section(line, text, "help", json!({})),
            Command::Stop => self.stopped = true,
            Command::Start => self.moderate(game, located, Action::Start, "started"),
            Command::Process(phase) => {
                if self.phase_changed() {
                    self.refuse(located, Refusal::ProcessOnce);
                } else {
                    let action = Action::Process {
                        phase: Some(phase),
                        trigger: Trigger::Moderator,
                    };
                    self.moderate(game, located, action, "processed");
                }
            }
            Command::Preview => self.preview(game, located)?,
            Command::Pause => self.moderate(game, located, Action::Pause, "paused"),
            Command::Resume => self.moderate(game, located, Action::Resume, "resumed"),
            Command::Extend(span) => match span.parse::<Span>() {
                Ok(by) => self.moderate(game, located, Action::Extend(by), "extended"),
                Err(e) => {
                    let message = self.game_message(&GameError::Calendar(e));
                    self.refuse(located, Refusal::BadSpan(message));
                }
            },
            Command::Rollback(phase) => {
                if !self.require_moderator(located) {
                    return Ok(());
                }
                // The last phase is read from the store, which does not hold yet what
                // this mail processed or undid.
                if self.phase_changed() {
                    self.refuse(located, Refusal::ProcessOnce);
                    return Ok(());
                }
                let Some((g, _)) = game else {
                    return Ok(());
                };
                match self.service.last_phase(&g.id)? {
                    None => {
                        let message = self.game_message(&GameError::NothingToRollback);
                        self.error(located, message);
                    }
                    Some(last) => {
                        let action = Action::Rollback {
                            last: Box::new(last),
                            phase: Some(phase),
                        };
                        self.moderate(game, located, action, "rolled-back");
                    }
                }
            }
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
                self.moderate(game, located, Action::Remove { house }, "removed")
            }
            Command::EndGame(by) => self.moderate(game, located, Action::End(by), "ended"),
        }
        Ok(())
    }

    /// `PARTIE game house secret`: the one secret this mail may have checked, unless the
    /// throttle refuses it unchecked.
    fn sign_on(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        house: &str,
        secret: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, variant)) = game else {
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let (shown, _, _) = shown_house(variant, house, secret);
        let (house, secret) = match split_sign_on(variant, house, secret) {
            Some((house, secret, _, _)) => (house, secret),
            None => (house.to_string(), secret.to_string()),
        };
        let seat = g
            .house_id(variant, &house)
            .ok()
            .and_then(|h| g.seat(&h))
            .filter(|s| !s.resigned);
        let player = seat.and_then(|s| s.player.as_ref().map(|p| (s.house.clone(), p.clone())));
        let shown = shown.unwrap_or_else(|| SECRET_MASK.to_string());
        let from = self.mail.from.clone();
        // The registered address is not locked out by others' failures on its house: a
        // guesser cannot keep the player out of the game.
        let mut guards = vec![(Subject::Sender(from.clone()), true)];
        if let Some((id, p)) = &player {
            let house = Subject::House {
                game: g.id.clone(),
                house: id.clone(),
            };
            guards.push((house, !same_address(&p.address, &from)));
        }
        if let Some(until) = self.throttled(&guards)? {
            self.note(format!(
                "sign-on as {shown} from {from} refused unchecked (throttled)"
            ));
            self.lock_out();
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            self.throttled = Some(until.clone());
            let game = g.id.clone();
            self.refuse(located, Refusal::Throttled { game, until });
            return Ok(());
        }
        match player {
            Some((house, p)) if secret_matches(&secret, &p.secret) => {
                self.guards_passed(&guards)?;
                self.lang = p.lang;
                if p.address != self.mail.from {
                    self.owner = Some(p.address.clone());
                }
                self.role = Role::House(house.clone());
                self.locked_out = false;
                self.mode = SubmitMode::Replace;
                let name = house_name(variant, &house);
                self.section(
                    located.line,
                    &located.text,
                    "signed-on",
                    json!({ "house": name, "game": g.id, "extra": self.extra_words }),
                );
            }
            player => {
                // A house nobody plays puts nobody at risk: the sender is counted, nobody
                // is told.
                let target = player.map(|(house, _)| Some(house));
                self.guards_failed(&guards, target)?;
                self.lock_out();
                self.note(format!("refused sign-on as {shown} from {from}"));
                let game = g.id.clone();
                self.refuse(located, Refusal::BadSignOn { game });
            }
        }
        Ok(())
    }

    /// `MODERATEUR game secret`, as a player's sign-on.
    fn moderator_sign_on(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        secret: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let id = g.id.clone();
        let Some(moderator) = g.moderator.clone() else {
            self.refuse(located, Refusal::NoModerator { game: id });
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let from = self.mail.from.clone();
        let guards = [
            (Subject::Sender(from.clone()), true),
            (
                Subject::Moderator { game: id.clone() },
                !same_address(&moderator.address, &from),
            ),
        ];
        if let Some(until) = self.throttled(&guards)? {
            self.note(format!(
                "moderator sign-on from {from} refused unchecked (throttled)"
            ));
            self.lock_out();
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            self.throttled = Some(until.clone());
            self.refuse(located, Refusal::Throttled { game: id, until });
            return Ok(());
        }
        if secret_matches(secret, &moderator.secret) {
            self.guards_passed(&guards)?;
            // The moderator's language is the game's (`LANGUE` changes it).
            self.lang = g.settings.lang;
            self.role = Role::Moderator;
            self.locked_out = false;
            let data = json!({ "game": id, "extra": self.extra_words });
            self.section(located.line, &located.text, "moderator", data);
        } else {
            self.guards_failed(&guards, Some(None))?;
            self.lock_out();
            self.note(format!("refused moderator sign-on from {from}"));
            self.refuse(located, Refusal::BadModeratorSecret { game: id });
        }
        Ok(())
    }

    /// A sign-on failed or was refused: nothing more is done for the game in this mail.
    fn lock_out(&mut self) {
        self.role = Role::Nobody;
        self.locked_out = true;
    }

    /// The stored counter of a subject, or a fresh one.
    fn guard(&self, subject: &Subject) -> Result<Guard, GameError> {
        Ok(self
            .service
            .guard(&subject.key())?
            .unwrap_or_else(|| Guard::new(self.now)))
    }

    /// Until when the throttle refuses a secret for these subjects (those marked `true`
    /// are checked), if it does.
    fn throttled(&self, guards: &[(Subject, bool)]) -> Result<Option<DateTime<Utc>>, GameError> {
        let mut until = None;
        for (subject, _) in guards.iter().filter(|(_, checked)| *checked) {
            if let Some(key_until) = self.guard(subject)?.locked(self.now) {
                until = until.max(Some(key_until));
            }
        }
        Ok(until)
    }

    /// A right secret: the counters that exist start a new window.
    fn guards_passed(&mut self, guards: &[(Subject, bool)]) -> Result<(), GameError> {
        for (subject, _) in guards {
            if let Some(mut guard) = self.service.guard(&subject.key())? {
                guard.succeed(self.now);
                self.effects.guards.push((subject.key(), Some(guard)));
            }
        }
        Ok(())
    }

    /// A wrong secret, counted for every subject. When it starts a lockout the house's
    /// player (`notify`: `Some(Some(house))`; `Some(None)`: the moderator's sign-on) and
    /// the moderator are told, once: the house's (or the moderator's) counter remembers
    /// it, else the sender's. Expired counters are forgotten in the same transaction.
    fn guards_failed(
        &mut self,
        guards: &[(Subject, bool)],
        notify: Option<Option<String>>,
    ) -> Result<(), GameError> {
        let mut counted: Vec<(Subject, Guard)> = Vec::new();
        let mut locked_until = None;
        for (subject, _) in guards {
            let mut guard = self.guard(subject)?;
            if guard.fail(self.now) {
                locked_until = locked_until.max(guard.locked_until);
            }
            counted.push((subject.clone(), guard));
        }
        // The counter that remembers the telling: the target's if there is one.
        let teller = counted
            .iter()
            .find(|(s, _)| !matches!(s, Subject::Sender(_)))
            .or(counted.first());
        let told = teller.is_some_and(|(_, g)| g.told);
        if let (Some(until), Some(house), false) = (locked_until, notify, told) {
            for (_, guard) in &mut counted {
                guard.told = true;
            }
            let houses = house.iter().cloned().collect();
            self.effects.notify(
                crate::game::NoticeKind::SignOnThrottled { house, until },
                houses,
            );
            self.note(format!("sign-ons throttled until {until}"));
        }
        let written: Vec<String> = counted.iter().map(|(s, _)| s.key()).collect();
        for (subject, guard) in counted {
            self.effects.guards.push((subject.key(), Some(guard)));
        }
        for key in self.service.guards_to_forget(self.now)? {
            if !written.contains(&key) {
                self.effects.guards.push((key, None));
            }
        }
        Ok(())
    }

    /// This mail already processed or rolled back a phase.
    fn phase_changed(&self) -> bool {
        self.effects.record.is_some() || self.effects.drop_record.is_some()
    }

    /// An audit line of its own (a refused sign-on, a change of language or address).
    fn note(&mut self, line: String) {
        if !self.effects.detail.is_empty() {
            self.effects.detail.push('\n');
        }
        self.effects.detail.push_str(&line);
    }

    fn moderate(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        action: Action,
        kind: &str,
    ) {
        if self.require_moderator(located) && self.act(game, located, action) {
            let data = match game {
                Some((g, variant)) => json!({
                    "phase": phase_text(g.phase, self.lang),
                    "deadline": g.deadline_text(self.lang),
                    "status": status_word(g.status, self.lang),
                    "ending": g.ending.as_ref().map(|e| ending_text(e, variant, self.lang)),
                }),
                None => json!({}),
            };
            self.section(located.line, &located.text, kind, data);
        }
    }

    fn vote(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        vote: Option<Vote>,
    ) {
        if let Some(house) = self.require_house(located)
            && self.act(
                game,
                located,
                Action::Vote {
                    house,
                    vote: vote.clone(),
                },
            )
        {
            let ending = game
                .as_ref()
                .and_then(|(g, v)| g.ending.as_ref().map(|e| ending_text(e, v, self.lang)));
            let vote = match vote {
                None => "none".to_string(),
                Some(Vote::Draw) => "draw".to_string(),
                Some(Vote::Concede(h)) => {
                    game.as_ref().map_or(h.clone(), |(_, v)| house_name(v, &h))
                }
            };
            self.section(
                located.line,
                &located.text,
                "vote",
                json!({ "vote": vote, "ending": ending }),
            );
        }
    }

    fn status(&mut self, game: &mut Option<(&mut Game, &Variant)>, located: &Located) {
        let Some((g, variant)) = game else {
            self.refuse(located, Refusal::NoGame);
            return;
        };
        if self.role == Role::Nobody {
            self.require_house(located);
            return;
        }
        if let Role::House(_) = self.role {}
        let moderator = self.role == Role::Moderator;
        let houses: Vec<Value> = g
            .seats
            .iter()
            .map(|s| {
                json!({
                    "name": house_name(variant, &s.house),
                    "deciding": g.deciding.contains(&s.house),
                    "ordered": s.ordered.is_some(),
                    "ready": s.ready,
                    "player": s.player.is_some() && !s.resigned,
                    "civil_disorder": s.civil_disorder,
                    // Delivery failures concern the moderator only.
                    "bounced": moderator
                        && s.player.as_ref().is_some_and(|p| p.bounced.is_some()),
                })
            })
            .collect();
        let data = json!({
            "game": g.id,
            "name": g.name,
            "status": status_word(g.status, self.lang),
            "phase": phase_text(g.phase, self.lang),
            "deadline": g.deadline_text(self.lang),
            "houses": houses,
        });
        self.section(located.line, &located.text, "status", data);
    }

    fn list(&mut self, located: &Located) -> Result<(), GameError> {
        let games: Vec<Value> = self
            .service
            .games()?
            .iter()
            .map(|g| {
                let free = g
                    .seats
                    .iter()
                    .filter(|s| s.player.is_none() || s.resigned)
                    .count();
                json!({
                    "id": g.id,
                    "name": g.name,
                    "variant": g.variant.name,
                    "status": status_word(g.status, self.lang),
                    "phase": phase_text(g.phase, self.lang),
                    "deadline": g.deadline_text(self.lang),
                    "free": free,
                })
            })
            .collect();
        self.section(
            located.line,
            &located.text,
            "list",
            json!({ "games": games }),
        );
        Ok(())
    }

    /// `CARTE [partie]`: the board as it stands. The position is public, but a picture
    /// costs its drawing and weighs a hundred kilobytes: it goes only to an address the
    /// game already writes to (a player signed on or registered, the moderator, an
    /// observer), once a mail, and only when the reply itself is sent (the cap of
    /// answers per hour); an automatic mail is never answered at all (docs/email.md,
    /// "Pictures").
    fn map(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: Option<&str>,
    ) {
        if let Some(named) = named
            && !self.same_game(game, located, named)
        {
            return;
        }
        let Some((g, _)) = game else {
            self.refuse(located, Refusal::NoGame);
            return;
        };
        let known = self.role != Role::Nobody || (!self.locked_out && knows(g, &self.mail.from));
        if !known {
            if self.locked_out || self.throttled.is_some() {
                self.require_house(located);
            } else {
                let game = g.id.clone();
                self.refuse(located, Refusal::MapForStrangers { game });
            }
            return;
        }
        let pictures = g.settings.pictures;
        let data = json!({
            "game": g.id,
            "phase": phase_text(g.phase, self.lang),
            "deadline": g.deadline_text(self.lang),
            "status": status_word(g.status, self.lang),
            "pictures": pictures,
            "again": self.map_wanted,
        });
        self.map_wanted |= pictures;
        self.section(located.line, &located.text, "map", data);
    }

    fn history(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        phase: Option<String>,
    ) -> Result<(), GameError> {
        let Some((g, variant)) = game else {
            self.refuse(located, Refusal::NoGame);
            return Ok(());
        };
        // A player's or the moderator's command: after a refused sign-on, nothing more is
        // done for the game.
        if self.role == Role::Nobody {
            self.require_house(located);
            return Ok(());
        }
        let records = self.service.history(&g.id)?;
        let record = match &phase {
            None => records.last(),
            Some(p) => {
                let wanted = crate::position::parse_phase(&p.replace(',', " "));
                records.iter().rev().find(|r| Some(r.phase) == wanted)
            }
        };
        let Some(record) = record else {
            let refusal = match phase {
                Some(name) => Refusal::NoSuchPhase(name),
                None => Refusal::NothingPlayed,
            };
            self.refuse(located, refusal);
            return Ok(());
        };
        let current = records.last().map(|r| r.index) == Some(record.index);
        self.results_section(located, "history", g, variant, record, current)?;
        Ok(())
    }

    /// A section holding the results of a phase, as `results.txt` writes them.
    fn results_section(
        &mut self,
        located: &Located,
        kind: &str,
        game: &Game,
        variant: &Variant,
        record: &PhaseRecord,
        current: bool,
    ) -> Result<(), GameError> {
        let templates = self.config.templates.as_deref();
        // A house reads its own rejected lines, the moderator everyone's.
        let audience = match &self.role {
            Role::House(house) => Audience::House(house.clone()),
            Role::Moderator => Audience::Moderator,
            Role::Nobody => Audience::Public,
        };
        let results = record_results_for(
            game, variant, record, current, &audience, self.lang, templates,
        )
        .map_err(|e| GameError::Internal(e.to_string()))?;
        let data = json!({ "results": results });
        self.section(located.line, &located.text, kind, data);
        Ok(())
    }

    fn preview(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
    ) -> Result<(), GameError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
        let Some((g, variant)) = game else {
            return Ok(());
        };
        let mut trial = (**g).clone();
        match trial.process(
            variant,
            self.now,
            Trigger::Moderator,
            &crate::report::results_record,
        ) {
            Ok(record) => {
                self.results_section(located, "preview", &trial, variant, &record, true)?;
            }
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
        }
        Ok(())
    }

    fn change_address(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        address: &str,
    ) {
        let Some(house) = self.require_house(located) else {
            return;
        };
        let Some((g, _)) = game else {
            return;
        };
        let address = match g.free_address(&house, address) {
            // The judge's own address would make it write to itself; another player's
            // would merge two houses' mail. Which of the two is not said: the reply must
            // not tell who plays what.
            Ok(a) if self.config.judge.is_own(&a) => {
                self.note(format!("{house}: address change to {a} refused"));
                self.refuse(located, Refusal::AddressUnavailable(a));
                return;
            }
            Err(GameError::AddressTaken { address, .. }) => {
                self.note(format!("{house}: address change to {address} refused"));
                self.refuse(located, Refusal::AddressUnavailable(address));
                return;
            }
            Ok(a) => a,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        let Some(player) = g.seat_mut(&house).and_then(|s| s.player.as_mut()) else {
            return;
        };
        // A new address starts without the old one's delivery failures.
        if player.address != address {
            player.bounced = None;
        }
        let old = std::mem::replace(&mut player.address, address.clone());
        // The old address hears of the change too: a forger with the secret cannot take a
        // house away unnoticed.
        if old != self.mail.from {
            self.owner = Some(old.clone());
        }
        self.note(format!("{house}: address {old} -> {address}"));
        self.section(
            located.line,
            &located.text,
            "address",
            json!({ "address": address }),
        );
    }

    /// `OBSERVER game`: nobody observes without consent, so the request only waits for
    /// its address to confirm it; the token goes in the answer, which goes to that very
    /// address (a forged sender never sees it).
    fn observe(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        if let Some(refusal) = observing_refused(g, &from) {
            self.refuse(located, refusal);
            return Ok(());
        }
        let now = self.now;
        g.observer_requests
            .retain(|r| r.expires > now && !same_address(&r.address, &from));
        if g.observer_requests.len() >= MAX_OBSERVER_REQUESTS {
            self.refuse(located, Refusal::TooManyObserverRequests);
            return Ok(());
        }
        // Hashing the token costs as much as checking a secret: one a mail.
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let token = new_secret()?;
        let expires = now + OBSERVER_TOKEN_LIFE;
        g.observer_requests.push(ObserverRequest {
            address: from.clone(),
            token: hash_secret(&token)?,
            lang: self.lang,
            asked: now,
            expires,
        });
        let zone = g.settings.schedule.time_zone;
        let id = g.id.clone();
        self.note(format!("observer request from {from}"));
        self.section(
            located.line,
            &located.text,
            "observe-asked",
            json!({
                "game": id,
                "address": from,
                "asked": format_deadline(now, zone, self.lang),
                "expires": format_deadline(expires, zone, self.lang),
                "token": token,
            }),
        );
        Ok(())
    }

    /// `OBSERVER game CONFIRMER token`, from the address that asked: it observes from now
    /// on, with a secret to stop.
    fn confirm_observe(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        token: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        if let Some(refusal) = observing_refused(g, &from) {
            self.refuse(located, refusal);
            return Ok(());
        }
        let now = self.now;
        let request = g
            .observer_requests
            .iter()
            .position(|r| r.expires > now && same_address(&r.address, &from));
        let Some(request) = request else {
            let game = g.id.clone();
            self.refuse(located, Refusal::NoObserverRequest { game });
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let guards = [(Subject::Sender(from.clone()), true)];
        if let Some(until) = self.throttled(&guards)? {
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            let game = g.id.clone();
            self.refuse(located, Refusal::Throttled { game, until });
            return Ok(());
        }
        let hash = g.observer_requests.get(request).map(|r| r.token.clone());
        if !hash.is_some_and(|h| secret_matches(token, &h)) {
            self.guards_failed(&guards, None)?;
            self.note(format!("wrong observer token from {from}"));
            self.refuse(located, Refusal::BadObserverToken);
            return Ok(());
        }
        self.guards_passed(&guards)?;
        let asked = g.observer_requests.remove(request);
        let secret = new_secret()?;
        g.observers.push(Observer {
            address: asked.address,
            secret: hash_secret(&secret)?,
            lang: asked.lang,
            since: now,
        });
        let id = g.id.clone();
        self.note(format!("observer {from}"));
        self.section(
            located.line,
            &located.text,
            "observing",
            json!({ "game": id, "secret": secret }),
        );
        Ok(())
    }

    /// `NE PLUS OBSERVER game secret`, from the observing address: one secret checked.
    fn unobserve(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        secret: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        let Some(at) = g
            .observers
            .iter()
            .position(|o| same_address(&o.address, &from))
        else {
            self.refuse(located, Refusal::BadObserverSecret);
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let guards = [(Subject::Sender(from.clone()), true)];
        if let Some(until) = self.throttled(&guards)? {
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            let game = g.id.clone();
            self.refuse(located, Refusal::Throttled { game, until });
            return Ok(());
        }
        let hash = g.observers.get(at).map(|o| o.secret.clone());
        if hash.is_some_and(|h| secret_matches(secret, &h)) {
            self.guards_passed(&guards)?;
            g.observers.remove(at);
            self.note(format!("observer left ({from})"));
            self.section(located.line, &located.text, "unobserved", json!({}));
        } else {
            self.guards_failed(&guards, None)?;
            self.refuse(located, Refusal::BadObserverSecret);
        }
        Ok(())
    }

    fn seat(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        house: String,
        address: &str,
        lang: Option<Lang>,
        replace: bool,
    ) -> Result<(), GameError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
        if self.config.judge.is_own(address) {
            let message = self.game_message(&GameError::JudgeAddress(address.trim().into()));
            self.error(located, message);
            return Ok(());
        }
        let secret = new_secret()?;
        // A player added without a language speaks the game's.
        let lang = lang
            .or_else(|| game.as_ref().map(|(g, _)| g.settings.lang))
            .unwrap_or(self.config.lang);
        let action = Action::Seat {
            house: house.clone(),
            address: address.to_string(),
            secret_hash: hash_secret(&secret)?,
            lang,
            replace,
        };
        if !self.act(game, located, action) {
            return Ok(());
        }
        let Some((g, variant)) = game else {
            return Ok(());
        };
        let name = g
            .house_id(variant, &house)
            .map(|h| house_name(variant, &h))
            .unwrap_or(house);
        let address = check_address(address)?;
        let welcome = super::board::Welcome {
            house: &name,
            address: &address,
            secret: &secret,
            lang,
            replace,
        };
        let mail =
            super::board::welcome_mail(self.service, self.config, g, variant, &welcome, self.now)?;
        self.effects.mails.push(mail.seal());
        let kind = if replace { "replaced" } else { "added" };
        self.section(
            located.line,
            &located.text,
            kind,
            json!({ "house": name, "address": address }),
        );
        Ok(())
    }

    fn press(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        to: PressTo,
        grey: bool,
        body: &str,
    ) -> Result<(), GameError> {
        let sender = match &self.role {
            Role::House(h) => Some(h.clone()),
            Role::Moderator => None,
            Role::Nobody => {
                self.require_house(located);
                return Ok(());
            }
        };
        let Some((g, variant)) = game else {
            return Ok(());
        };
        // The moderator may always write, and anyone may write to the moderator.
        if sender.is_some() && to != PressTo::Moderator {
            let setting = g.settings.press;
            let allowed = match setting {
                Press::None => false,
                Press::Broadcast => to == PressTo::All,
                Press::Full | Press::Grey => true,
            };
            if !allowed {
                let setting = press_word(setting, self.lang);
                self.refuse(located, Refusal::PressForbidden { setting });
                return Ok(());
            }
            if grey && setting != Press::Grey {
                self.refuse(located, Refusal::GreyForbidden);
                return Ok(());
            }
        }
        let mut houses: Vec<String> = match &to {
            PressTo::All => g.seats.iter().map(|s| s.house.clone()).collect(),
            PressTo::Moderator => Vec::new(),
            PressTo::Houses(names) => {
                let mut ids = Vec::new();
                for name in names {
                    match g.house_id(variant, name) {
                        Ok(id) if !ids.contains(&id) => ids.push(id),
                        Ok(_) => {}
                        Err(e) => {
                            let message = self.game_message(&e);
                            self.error(located, message);
                            return Ok(());
                        }
                    }
                }
                ids
            }
        };
        houses.retain(|h| Some(h) != sender.as_ref());
        // Grey press to the moderator is simply signed, since the moderator always sees
        // the sender; the moderator's own press is always signed (docs/email.md, "Press").
        let grey = grey && to != PressTo::Moderator && sender.is_some();
        let from_name = match (&sender, grey) {
            (_, true) => None,
            (Some(h), false) => Some(house_name(variant, h)),
            (None, false) => None,
        };
        let to_names: Vec<String> = match &to {
            PressTo::Houses(_) => houses.iter().map(|h| house_name(variant, h)).collect(),
            _ => Vec::new(),
        };
        let mut recipients: Vec<(String, Lang, bool)> = houses
            .iter()
            .filter_map(|h| g.seat(h))
            .filter(|s| !s.resigned)
            .filter_map(|s| {
                s.player
                    .as_ref()
                    .map(|p| (p.address.clone(), p.lang, false))
            })
            .collect();
        if to == PressTo::All {
            recipients.extend(
                g.observers
                    .iter()
                    .map(|o| (o.address.clone(), o.lang, false)),
            );
        }
        recipients.retain(|(a, _, _)| *a != self.mail.from);
        // Press to houses that nobody reads (the sender's own, houses without a player)
        // is not sent: the moderator's copy alone would pass it off as delivered.
        if recipients.is_empty() && to != PressTo::Moderator {
            self.refuse(located, Refusal::NoRecipient);
            return Ok(());
        }
        // The moderator reads all press, grey press with its sender: it is how disputes
        // and abuse get settled.
        if let Some(m) = &g.moderator
            && sender.is_some()
            && m.address != self.mail.from
        {
            recipients.push((m.address.clone(), g.settings.lang, true));
        }
        let mut seen = std::collections::HashSet::new();
        recipients.retain(|(a, _, _)| seen.insert(a.clone()));
        if recipients.is_empty() {
            self.refuse(located, Refusal::NoRecipient);
            return Ok(());
        }
        let id = g.id.clone();
        let game_name = g.name.clone();
        let real_name = sender.as_ref().map(|h| house_name(variant, h));
        for (address, lang, moderator_copy) in &recipients {
            let data = json!({
                "game": { "id": id, "name": game_name },
                "from": from_name,
                "revealed": if *moderator_copy && grey { real_name.clone() } else { None },
                "moderator": sender.is_none(),
                "grey": grey,
                "broadcast": to == PressTo::All,
                "to": to_names,
                "to_moderator": to == PressTo::Moderator,
                "body": body,
            });
            let mail = self.compose("press.txt", "press", data, address, *lang)?;
            self.effects.mails.push(mail.about(&id).seal());
        }
        // Signed press to all is public: kept for the published pages (docs/publish.md).
        if to == PressTo::All && !grey {
            self.effects.broadcasts.push(crate::service::Broadcast {
                index: g.played,
                house: sender.clone(),
                body: body.to_string(),
            });
        }
        self.note(format!(
            "press from {} to {} recipient(s){}",
            sender.as_deref().unwrap_or("moderator"),
            recipients.len(),
            if grey { " (grey)" } else { "" }
        ));
        self.section(
            located.line,
            &located.text,
            "press",
            json!({ "count": recipients.len(), "to": to_names, "broadcast": to == PressTo::All, "grey": grey }),
        );
        Ok(())
    }

    fn compose(
        &self,
        template: &str,
        kind: &str,
        data: Value,
        to: &str,
        lang: Lang,
    ) -> Result<OutMail, GameError> {
        compose(self.config, template, kind, data, to, lang, self.now)
            .map_err(|e| GameError::Internal(e.to_string()))
    }

    /// The answer to the mail: every section, then the house's orders as understood.
    fn reply(&mut self, game: Option<(&Game, &Variant)>) -> Result<(), GameError> {
        match self.quota {
            Quota::Open => {}
            Quota::Silent => return Ok(()),
            Quota::Last { until } => {
                let cap = self.config.mail.replies_per_hour;
                let until = until.format("%H:%M UTC").to_string();
                let mut warning = json!({ "line": 0, "text": "", "kind": "quiet" });
                if let Some(map) = warning.as_object_mut() {
                    map.insert("cap".into(), cap.into());
                    map.insert("until".into(), until.into());
                }
                self.sections.insert(0, warning);
            }
        }
        self.effects.replied = Some(crate::service::Replied {
            address: self.mail.from.clone(),
            at: self.now,
        });
        let mut orders = None;
        if let (Role::House(house), Some((g, variant))) = (&self.role, game)
            && matches!(g.status, GameStatus::Running | GameStatus::Paused)
            && g.deciding.contains(house)
        {
            let view = crate::report::orders_view(g, variant, house, self.lang)?;
            let text = crate::report::render_template(
                ORDERS_TEMPLATE,
                minijinja::Value::from_serialize(&view),
                self.lang,
                self.config.templates.as_deref(),
            )
            .map_err(|e| GameError::Internal(e.to_string()))?;
            orders = Some(text);
        }
        let game_ref = game.map(|(g, _)| json!({ "id": g.id, "name": g.name }));
        let subject = masked_subject(&self.mail.subject, &self.hidden);
        let data = json!({
            "game": game_ref,
            "subject": subject,
            "sections": self.sections,
            "orders": orders,
            "judge": self.config.judge.address,
        });
        let mail = self.compose(
            "reply.txt",
            "reply",
            data,
            &self.mail.from.clone(),
            self.lang,
        )?;
        let mail = mail.answering(Some(&self.mail.message_id), &self.mail.references);
        let mail = match game {
            Some((g, variant)) => {
                // Drawn here, once the reply is known to go: a silenced sender costs
                // no drawing.
                let picture = self
                    .map_wanted
                    .then(|| super::board::current_attachment(variant, g, self.lang))
                    .flatten();
                mail.about(&g.id).carrying(picture.as_ref())
            }
            None => mail,
        };
        if let Some(owner) = self.owner.take() {
            let mut copy = mail.clone();
            copy.to = owner;
            copy.message_id = super::outmail::new_message_id(
                super::outmail::domain_of(&self.config.judge.address),
                self.now,
            );
            self.effects.mails.push(copy.seal());
        }
        self.effects.mails.push(mail.seal());
        Ok(())
    }
}

/// Nothing to carry out: no line at all, or only the end marker (`FIN`).
fn script_is_empty(commands: &[Located]) -> bool {
    commands
        .iter()
        .all(|c| matches!(c.command, Ok(Command::Stop)))
}

/// The command with its secret hidden in the line quoted back, and in the error that
/// quotes its arguments: replies wait in the store's outbox (and the outbox folder) as
/// plain text, where secrets must not be, and a reply copied to the registered address
/// must not hand the secret on. Everything after the secret's place is hidden, whatever
/// it is (`PARTIE g Stark s3cret merci`, a secret typed before the house): only the
/// game, the house as the map knows it and a confirmation's keyword are shown.
///
/// Returns the line to quote, the words hidden, and whether words followed the secret.
fn masked(located: &Located, variant: Option<&Variant>) -> (Located, Vec<String>, bool) {
    let Some(line) = command::secret_line(&located.text) else {
        return (located.clone(), Vec::new(), false);
    };
    let (shown, extra) = match (&located.command, variant) {
        (Ok(Command::SignOn { house, secret, .. }), Some(variant)) => {
            let (_, house_words, extra) = shown_house(variant, house, secret);
            (1 + house_words, extra)
        }
        (Ok(Command::Moderator { .. } | Command::Unobserve { .. }), _) => (1, line.words.len() > 2),
        (Ok(Command::ConfirmObserve { .. }), _) => (2, line.words.len() > 3),
        _ => (line.safe_words(), false),
    };
    let hidden: Vec<String> = line.hidden(shown).iter().map(|w| w.to_string()).collect();
    let mut quoted = located.clone();
    quoted.text = line.masked(shown);
    if let Err(CommandError::Arguments { found, .. }) = &mut quoted.command {
        *found = line.masked_rest(shown);
    }
    (quoted, hidden, extra)
}

/// The mail's subject as the reply's `Re:` quotes it: a sign-on written there (as some
/// players do) shows no more than in the body, and no word the body's quotes hid
/// appears in it.
fn masked_subject(subject: &str, hidden: &[String]) -> String {
    // `Re: Fwd: PARTIE …`: the prefixes of mail programs come before the command.
    let subject = subject.trim();
    let mut rest = subject;
    while let Some((prefix, after)) = rest.split_once(':') {
        let prefix = prefix.trim().to_lowercase();
        if !matches!(
            prefix.as_str(),
            "re" | "fwd" | "fw" | "tr" | "réf" | "ref" | "aw" | "wg"
        ) {
            break;
        }
        rest = after.trim_start();
    }
    let mut subject = match command::secret_line(rest) {
        Some(line) => {
            let shown = line.safe_words();
            let kept = subject.len() - rest.len();
            format!(
                "{}{}",
                subject.get(..kept).unwrap_or_default(),
                line.masked(shown)
            )
        }
        None => subject.to_string(),
    };
    // Words of three letters or less are courtesies (`ok`), never the judge's secrets,
    // and hiding them would maul the subject.
    for word in hidden.iter().filter(|w| w.chars().count() > 3) {
        if subject.contains(word.as_str()) {
            subject = subject.replace(word.as_str(), SECRET_MASK);
        }
    }
    subject
}

/// What of a sign-on's words may be quoted as its house: the house the map names exactly
/// (then words after the secret are extra), else the first word if the map takes it for
/// a misspelt house, else nothing (it may be the secret, typed before the house). Returns
/// the house as shown, how many words it took, and whether extra words followed.
fn shown_house(variant: &Variant, house: &str, secret: &str) -> (Option<String>, usize, bool) {
    if let Some((name, _, words, extra)) = split_sign_on(variant, house, secret) {
        return (Some(name), words, extra);
    }
    match house.split_whitespace().next() {
        Some(first) if crate::position::house_named(variant, first).is_some() => {
            (Some(first.to_string()), 1, false)
        }
        _ => (None, 0, false),
    }
}

/// A sign-on's house and secret, read with the map: the house is the longest run of
/// words after the game that names a house exactly (`Maison Stark`), the secret the word
/// after it, and words after that are extra (`merci`). `None` when no run names a house
/// exactly: the parser's reading stands (every word but the last is the house, matched
/// loosely, the last the secret). Returns the house as written, the secret, how many
/// words the house took, and whether extra words followed.
fn split_sign_on(
    variant: &Variant,
    house: &str,
    secret: &str,
) -> Option<(String, String, usize, bool)> {
    let words: Vec<&str> = house.split_whitespace().chain([secret]).collect();
    (1..words.len()).rev().find_map(|n| {
        let name = words.get(..n)?.join(" ");
        let name = name.trim_matches(|c: char| !c.is_alphanumeric());
        variant.house_by_name(name)?;
        let secret = words.get(n)?;
        Some((name.to_string(), secret.to_string(), n, n + 1 < words.len()))
    })
}
/// The refused order lines a reply lists one by one; it counts the others.
const MAX_PROBLEMS_SHOWN: usize = 20;

fn house_name(variant: &Variant, id: &str) -> String {
    variant
        .house_by_name(id)
        .map_or_else(|| id.to_string(), |h| variant.house(h).name.clone())
}

fn press_word(press: Press, lang: Lang) -> &'static str {
    match (press, lang) {
        (Press::Full, Lang::Fr) => "complète",
        (Press::Full, Lang::En) => "full",
        (Press::Broadcast, Lang::Fr) => "publique seulement",
        (Press::Broadcast, Lang::En) => "broadcast only",
        (Press::Grey, Lang::Fr) => "grise permise",
        (Press::Grey, Lang::En) => "grey allowed",
        (Press::None, Lang::Fr) => "aucune",
        (Press::None, Lang::En) => "none",
    }
}
