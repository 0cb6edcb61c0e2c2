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
use crate::game::span::Span;
use crate::game::{
    Game, GameError, GameStatus, Observer, OrderProblem, PhaseRecord, Press, SubmitMode, Trigger,
    Vote, check_address, hash_secret, looks_like_prose, new_secret, secret_matches,
};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::ORDERS_TEMPLATE;
use crate::report::game_text::{
    Audience, ending_text, phase_text, record_results_for, status_word,
};
use crate::service::{Action, Effects, Service, action};
use crate::store::Commit;

use super::command::{self, Command, Located, PressTo};
use super::compose::compose;
use super::inbound::Inbound;
use super::outmail::OutMail;
use super::refusal::Refusal;

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

/// Carries out one received mail.
pub fn handle(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
) -> Result<Handled, GameError> {
    if service.store.seen(&mail.message_id)? {
        return Ok(Handled::Duplicate);
    }
    if mail.automatic {
        service.store.commit(Commit {
            seen: Some(mail.message_id.clone()),
            ..Commit::default()
        })?;
        return Ok(Handled::Ignored);
    }
    let script = if mail.too_large {
        command::Script::default()
    } else {
        command::parse(&mail.body)
    };
    let named = script.commands.iter().find_map(|c| match &c.command {
        Ok(Command::SignOn { game, .. })
        | Ok(Command::Moderator { game, .. })
        | Ok(Command::Observe { game })
        | Ok(Command::Unobserve { game, .. }) => Some(game.clone()),
        _ => None,
    });
    let game = match &named {
        Some(game) => service.store.game(&fold_id(game))?,
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
    let game = match id {
        Some(id) => service.update(&id, &actor, "mail", now, |game, variant, effects| {
            let mut desk = Desk::new(service, config, mail, lang, now, effects);
            desk.run(Some((game, variant)), &script.commands)?;
            Ok(Some(game.id.clone()))
        })?,
        None => {
            let mut effects = Effects::default();
            let mut desk = Desk::new(service, config, mail, lang, now, &mut effects);
            // A command naming a game that does not exist says so at its own line, with
            // the nearest id (`same_game`).
            desk.run(None, &script.commands)?;
            service.store.commit(Commit {
                mails: effects.mails,
                seen: effects.seen,
                ..Commit::default()
            })?;
            None
        }
    };
    // The last READY makes the phase due at once: the pass's tick, which follows the
    // reading of the mail, processes it.
    Ok(Handled::Answered { game })
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
        self.first_sign_on = commands.iter().find_map(|c| match &c.command {
            Ok(Command::SignOn { .. } | Command::Moderator { .. }) => Some(c.line),
            _ => None,
        });
        for located in commands {
            let located = &masked(located);
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
        if script_is_empty(commands) && !self.mail.too_large {
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
        match action::apply(game, variant, action, self.effects, self.now) {
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
        if self.locked_out {
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
        let refusal = if self.locked_out {
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
            } => {
                if !self.same_game(game, located, &named) {
                    return Ok(());
                }
                let Some((g, variant)) = game else {
                    return Ok(());
                };
                let seat = g
                    .house_id(variant, &house)
                    .ok()
                    .and_then(|h| g.seat(&h))
                    .filter(|s| !s.resigned);
                let player = seat.and_then(|s| s.player.as_ref().map(|p| (s, p)));
                match player {
                    Some((seat, p)) if secret_matches(&secret, &p.secret) => {
                        let house = seat.house.clone();
                        self.lang = p.lang;
                        if p.address != self.mail.from {
                            self.owner = Some(p.address.clone());
                        }
                        self.role = Role::House(house.clone());
                        self.locked_out = false;
                        self.mode = SubmitMode::Replace;
                        let name = house_name(variant, &house);
                        self.section(
                            line,
                            text,
                            "signed-on",
                            json!({ "house": name, "game": g.id }),
                        );
                    }
                    _ => {
                        self.role = Role::Nobody;
                        self.locked_out = true;
                        self.note(format!(
                            "refused sign-on as {house} from {}",
                            self.mail.from
                        ));
                        let game = g.id.clone();
                        self.refuse(located, Refusal::BadSignOn { game });
                    }
                }
            }
            Command::Moderator {
                game: named,
                secret,
            } => {
                if !self.same_game(game, located, &named) {
                    return Ok(());
                }
                let Some((g, _)) = game else {
                    return Ok(());
                };
                let id = g.id.clone();
                match &g.moderator {
                    None => self.refuse(located, Refusal::NoModerator { game: id }),
                    Some(m) if secret_matches(&secret, &m.secret) => {
                        // The moderator's language is the game's (`LANGUE` changes it).
                        self.lang = g.settings.lang;
                        self.role = Role::Moderator;
                        self.locked_out = false;
                        self.section(line, text, "moderator", json!({ "game": id }));
                    }
                    Some(_) => {
                        self.role = Role::Nobody;
                        self.locked_out = true;
                        self.note(format!("refused moderator sign-on from {}", self.mail.from));
                        self.refuse(located, Refusal::BadModeratorSecret { game: id });
                    }
                }
            }
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
            Command::Unobserve {
                game: named,
                secret,
            } => self.unobserve(game, located, &named, &secret),
            Command::Press { to, grey, body } => self.press(game, located, to, grey, &body)?,
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
                match self.service.store.last_phase(&g.id)? {
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
            .store
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
                    "variant": g.variant,
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
        let records = self.service.store.phases(&g.id)?;
        let record = match &phase {
            None => records.last(),
            Some(p) => {
                let wanted = crate::case::parse_phase(&p.replace(',', " "));
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
        match trial.process(variant, self.now, Trigger::Moderator) {
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
        if g.observers.iter().any(|o| o.address == from) {
            self.refuse(located, Refusal::AlreadyObserving);
            return Ok(());
        }
        let secret = new_secret()?;
        g.observers.push(Observer {
            address: from.clone(),
            secret: hash_secret(&secret)?,
            lang: self.lang,
            since: self.now,
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

    fn unobserve(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        secret: &str,
    ) {
        if !self.same_game(game, located, named) {
            return;
        }
        let Some((g, _)) = game else {
            return;
        };
        let before = g.observers.len();
        g.observers.retain(|o| !secret_matches(secret, &o.secret));
        if g.observers.len() == before {
            self.refuse(located, Refusal::BadObserverSecret);
        } else {
            self.note(format!("observer left ({})", self.mail.from));
            self.section(located.line, &located.text, "unobserved", json!({}));
        }
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
        let secret = new_secret()?;
        let lang = lang.unwrap_or(self.config.lang);
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
        let data = json!({
            "game": { "id": g.id, "name": g.name, "variant": variant.name },
            "house": name,
            "secret": secret,
            "judge": self.config.judge.address,
            "status": status_word(g.status, lang),
            "deadline": g.deadline_text(lang),
        });
        let mail = self.compose("welcome.txt", "welcome", data, &address, lang)?;
        self.effects.mails.push(mail.about(&g.id));
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
            self.effects.mails.push(mail.about(&id));
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
        let mut orders = None;
        if let (Role::House(house), Some((g, variant))) = (&self.role, game)
            && matches!(g.status, GameStatus::Running | GameStatus::Paused)
            && g.deciding.contains(house)
        {
            let view = g.orders_view(variant, house, self.lang)?;
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
        let data = json!({
            "game": game_ref,
            "subject": self.mail.subject,
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
            Some((g, _)) => mail.about(&g.id),
            None => mail,
        };
        if let Some(owner) = self.owner.take() {
            let mut copy = mail.clone();
            copy.to = owner;
            copy.message_id = super::outmail::new_message_id(
                super::outmail::domain_of(&self.config.judge.address),
                self.now,
            );
            self.effects.mails.push(copy);
        }
        self.effects.mails.push(mail);
        Ok(())
    }
}

/// Nothing to carry out: no line at all, or only the end marker (`FIN`).
fn script_is_empty(commands: &[Located]) -> bool {
    commands
        .iter()
        .all(|c| matches!(c.command, Ok(Command::Stop)))
}

/// The command with its secret hidden in the line quoted back: replies wait in the
/// store's outbox (and the outbox folder) as plain text, where secrets must not be, and a
/// reply copied to the registered address must not hand the secret on.
fn masked(located: &Located) -> Located {
    let secret = match &located.command {
        Ok(Command::SignOn { secret, .. })
        | Ok(Command::Moderator { secret, .. })
        | Ok(Command::Unobserve { secret, .. }) => secret.as_str(),
        _ => return located.clone(),
    };
    let mut located = located.clone();
    if let Some(at) = located.text.rfind(secret).filter(|_| !secret.is_empty()) {
        located
            .text
            .replace_range(at..at + secret.len(), SECRET_MASK);
    }
    located
}

/// The refused order lines a reply lists one by one; it counts the others.
const MAX_PROBLEMS_SHOWN: usize = 20;

/// What a secret looks like in a reply.
const SECRET_MASK: &str = "********";

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
