//! The reply: its sections as the commands make them, their assembly into the answer
//! (with the house's orders as understood), and what the quotes must hide.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::game::{Game, GameError, GameStatus, MIN_CHOSEN, Trigger, sieve_passes};
use crate::map::Variant;
use crate::report::ORDERS_TEMPLATE;
use crate::service::{Service, ServiceError};

use super::super::command::{self, Command, CommandError, Located, SECRET_MASK};
use super::super::refusal::Refusal;
use super::caps::Budget;
use super::gate::Role;
use super::gate::shown_house;
use super::section::{Placed, ReplySection};
use super::{Desk, fold_id};

impl Desk<'_> {
    pub(super) fn section(&mut self, line: usize, text: &str, section: ReplySection) {
        self.answer.sections.push(Placed {
            line,
            text: text.to_string(),
            section,
        });
    }

    /// A line the judge could not carry out, and why.
    /// A word hidden from the mail's quotes is hidden from the message too (an unknown
    /// game named by the secret's word, say).
    pub(super) fn error(&mut self, located: &Located, message: String) {
        let message = scrubbed(&message, &self.answer.hidden);
        self.section(located.line, &located.text, ReplySection::Error { message });
    }

    pub(super) fn refuse(&mut self, located: &Located, refusal: Refusal) {
        let message = refusal.message(self.lang);
        self.error(located, message);
    }

    /// A game's refusal, in the reader's language and in mail words.
    pub(super) fn game_message(&self, e: &GameError) -> String {
        super::refusal::game_error(e, self.lang, self.gate.names.as_deref())
    }

    /// The service's failure in the reader's language: the game's refusal in mail words.
    pub(super) fn service_message(&self, e: &ServiceError) -> String {
        match e {
            ServiceError::Game(e) => self.game_message(e),
            e => e.message(self.lang),
        }
    }

    /// A house's mail that leaves the phase due: the pass processes it right after this
    /// mail, so the answer says so instead of "as soon as everyone is ready" under a
    /// deadline that no longer holds (the `PRÊT` acknowledged, or the orders taken).
    fn note_course(&mut self, g: &Game) {
        let Some(trigger) = g.due(self.now) else {
            return;
        };
        let message = match trigger {
            Trigger::Deadline => crate::say!(self.lang, "flow.processed_now_late"),
            _ => crate::say!(self.lang, "flow.processed_now_ready"),
        };
        let ready = self
            .answer
            .sections
            .iter()
            .rposition(|p| p.section == ReplySection::Ready { ready: true });
        let orders = self
            .answer
            .sections
            .iter()
            .any(|p| matches!(p.section, ReplySection::Orders { .. }));
        match ready {
            Some(index) => self.answer.sections[index].section = ReplySection::Note { message },
            None if orders => self.section(0, "", ReplySection::Note { message }),
            None => {}
        }
    }

    /// The deadline as the answer to orders shows it: no longer waited for when the phase
    /// is due now; past, with the end of the grace period the judge still waits to, when
    /// orders are missing after it.
    fn deadline_as_it_stands(&self, g: &Game) -> Option<String> {
        let deadline = g.deadline().filter(|d| *d <= self.now)?;
        let zone = g.settings().schedule.time_zone;
        let text = |t| crate::report::format_deadline(t, zone, self.lang);
        if g.due(self.now).is_some() {
            return Some(crate::say!(
                self.lang,
                "flow.deadline_due",
                deadline = text(deadline)
            ));
        }
        let until = g.grace_end().filter(|end| *end > self.now)?;
        Some(crate::say!(
            self.lang,
            "flow.deadline_grace",
            deadline = text(deadline),
            until = text(until)
        ))
    }

    /// The answer to the mail: every section, then the house's orders as understood.
    pub(super) fn reply(&mut self, game: Option<(&Game, &Variant)>) -> Result<(), ServiceError> {
        // The answer to a failed sign-on is counted apart: a forger who writes in the
        // owner's name with wrong secrets must not use up the owner's answers.
        let failed = self.gate.locked_out && self.gate.role == Role::Nobody;
        let (quota, counted, cap) = if failed {
            let counted = failed_sign_on_key(&self.mail.from);
            let cap = self.config.mail.failed_sign_on_replies_per_hour;
            (
                Quota::of(self.service, cap, &counted, self.now)?,
                counted,
                cap,
            )
        } else {
            let cap = self.config.mail.replies_per_hour;
            (self.answer.quota, self.mail.from.to_string(), cap)
        };
        match quota {
            Quota::Open => {}
            Quota::Silent => return Ok(()),
            Quota::Last { until } => {
                let until = until.format("%H:%M UTC").to_string();
                let warning = Placed {
                    line: 0,
                    text: String::new(),
                    section: ReplySection::Quiet { cap, until, failed },
                };
                self.answer.sections.insert(0, warning);
            }
        }
        if !self.same_text_allows() {
            return Ok(());
        }
        self.effects.replied = Some(crate::service::Replied {
            address: counted,
            at: self.now,
        });
        if let (Role::House(_), Some((g, _))) = (&self.gate.role, game) {
            self.note_course(g);
        }
        let mut orders = None;
        if let (Role::House(house), Some((g, variant))) = (&self.gate.role, game)
            && matches!(g.status(), GameStatus::Running | GameStatus::Paused)
            && g.deciding().contains(house)
        {
            let mut view = crate::report::orders_view(g, variant, house, self.lang)?;
            if let Some(deadline) = self.deadline_as_it_stands(g) {
                view.deadline = deadline;
            }
            let text = crate::report::render_template(
                ORDERS_TEMPLATE,
                minijinja::Value::from_serialize(crate::report::localized(
                    &view, variant, self.lang,
                )),
                self.lang,
                self.config.templates.as_deref(),
            )
            .map_err(ServiceError::Render)?;
            orders = Some(text);
        }
        self.hide_sieved(game.map(|(g, _)| g))?;
        let game_ref = game.map(|(g, _)| json!({ "id": g.id(), "name": g.name() }));
        let subject = masked_subject(&self.mail.subject, &self.answer.hidden);
        // Whatever shape a line had, the words that may be a secret are hidden wherever
        // a section quotes it (the line, the refused orders, a message).
        let mut sections = json!(self.answer.sections);
        scrub_all(&mut sections, &self.answer.hidden);
        let mut data = json!({
            "game": game_ref,
            "subject": subject,
            "sections": sections,
            "orders": orders,
            "judge": self.config.judge.address,
            "owner_copy": null,
        });
        if let Some((_, variant)) = game {
            crate::report::localize(&mut data, variant, self.lang);
        }
        let answer =
            |data: serde_json::Value, to: &str| -> Result<super::outmail::OutMail, ServiceError> {
                let mail = self.compose("reply.txt", "reply", data, to, self.lang)?;
                let mail = mail.answering(Some(&self.mail.message_id), &self.mail.references);
                Ok(match game {
                    Some((g, _)) => mail.about(g.id()),
                    None => mail,
                })
            };
        // The registered address's copy says it is one, and when the mail came: its
        // reader did not write it, and may have to act. It goes without
        // the picture: one picture a mail.
        let copy = match (&self.gate.owner, game) {
            (Some(owner), Some((g, _))) => {
                let mut data = data.clone();
                let zone = g.settings().schedule.time_zone;
                data["owner_copy"] = json!({
                    "received": crate::report::format_deadline(self.arrival, zone, self.lang),
                });
                Some(answer(data, owner)?)
            }
            _ => None,
        };
        let mail = answer(data, &self.mail.from)?;
        let mail = match game {
            Some((g, variant)) => {
                // Drawn here, once the reply is known to go: a silenced sender costs
                // no drawing.
                let picture = self
                    .answer
                    .map_wanted
                    .then(|| super::board::current_attachment(variant, g, self.lang))
                    .flatten();
                if picture.is_some() {
                    self.picture_sent();
                }
                mail.carrying(picture.as_ref())
            }
            None => mail,
        };
        if let Some(mut copy) = copy {
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

impl Desk<'_> {
    /// Hides from every quote of the mail the words that may be a secret of its game
    /// (the one a command named, else the first game id among the quoted words),
    /// whatever the shape of their line: the lines the answer quotes, and the subject.
    fn hide_sieved(&mut self, game: Option<&Game>) -> Result<(), ServiceError> {
        // A line the judge read as a command quotes what the command takes (a sign-on is
        // masked by its shape): the lines it could not read are where a secret hides.
        let mut quoted: Vec<&str> = vec![self.mail.subject.as_str()];
        for placed in &self.answer.sections {
            match &placed.section {
                ReplySection::Error { .. } | ReplySection::Ignored => quoted.push(&placed.text),
                ReplySection::OrdersRefused { problems, .. } => {
                    quoted.extend(problems.iter().map(|p| p.text.as_str()));
                }
                _ => {}
            }
        }
        let found = match game {
            Some(g) => sieved(g, &quoted),
            None => match game_in_words(self.service, &quoted)? {
                Some(named) => sieved(&named, &quoted),
                None => Vec::new(),
            },
        };
        self.answer.hidden.extend(found);
        Ok(())
    }
}

/// The reply as it is made, and what it must hide or hold back.
#[derive(Default)]
pub(crate) struct Answer {
    pub(super) sections: Vec<Placed>,
    pub(crate) quota: Quota,
    /// The words hidden from the quotes of this mail's lines (secrets, and what followed
    /// them): the reply's subject hides them too.
    pub(super) hidden: Vec<String>,
    /// The line being carried out had words after its secret (ignored, and said so).
    pub(super) extra_words: bool,
    /// A code to confirm a new address was asked for in this mail: one a mail.
    pub(super) address_code_sent: bool,
    /// The mail held this many commands, more than [`super::MAX_COMMANDS`]: none was read.
    pub(crate) too_many: Option<usize>,
    /// `CARTE` was granted: the reply carries the board's picture (drawn once, however
    /// many times the mail asks, and only if the reply is sent at all).
    pub(super) map_wanted: bool,
    /// The counter of the picture `CARTE` may draw (`caps`), counted if it is sent.
    pub(super) picture_key: Option<String>,
    /// The counter of this mail's text from its sender and where it stands (`caps`).
    pub(crate) same_text: Option<(String, Budget)>,
    /// The sections of requests whose token was mailed already (`join`): a mail of
    /// nothing else is not answered.
    pub(super) repeat_request: usize,
}

/// Where the sender stands against the cap of answers per hour (`[mail]
/// replies_per_hour`): a robot that answers every mail, unmarked, would otherwise keep the
/// judge writing to it for ever.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Quota {
    /// Answered as usual.
    #[default]
    Open,
    /// The last answer of the hour, with a warning; silence follows until `until`.
    Last { until: DateTime<Utc> },
    /// Past the cap: the mail is carried out, not answered.
    Silent,
}

impl Quota {
    /// Where `counted` (an address, or [`failed_sign_on_key`] of one) stands against
    /// `cap` answers an hour (0: no cap).
    pub(crate) fn of(
        service: &Service,
        cap: u32,
        counted: &str,
        now: DateTime<Utc>,
    ) -> Result<Quota, ServiceError> {
        let window = service.reply_window(counted, now)?;
        Ok(match window {
            _ if cap == 0 => Quota::Open,
            Some(w) if w.count > cap => Quota::Silent,
            Some(w) if w.count == cap => Quota::Last {
                until: w.since + crate::service::REPLY_WINDOW,
            },
            _ => Quota::Open,
        })
    }
}

/// What the answers to an address's failed sign-ons are counted under, beside the
/// address's own answers: no address holds a NUL byte.
fn failed_sign_on_key(address: &str) -> String {
    format!("failed-sign-on\0{address}")
}

/// Nothing to carry out: no line at all, or only the end marker (`FIN`).
pub(super) fn script_is_empty(commands: &[Located]) -> bool {
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
pub(super) fn masked(
    located: &Located,
    game: Option<(&str, &Variant)>,
) -> (Located, Vec<String>, bool) {
    let Some(line) = command::secret_line(&located.text) else {
        return (located.clone(), Vec::new(), false);
    };
    // The first word is the game only if it names the mail's game: written in another
    // order (`MODERATEUR <secret> <game>`), it may be the secret itself. A request to
    // observe (`OBSERVER <game>`, one word) holds no secret.
    let lone_request = matches!(located.command, Ok(Command::Observe { .. }));
    // A request's confirmation holds its token (or the sender's secret) as its last word,
    // after `CONFIRMER`, whatever game it names (a `CREATE` names one that does not
    // exist yet): everything before it is shown.
    let confirmation = matches!(
        located.command,
        Ok(Command::Join { .. } | Command::TakeOver { .. } | Command::Create { .. })
    );
    let names_game = line
        .words
        .first()
        .is_some_and(|w| game.is_some_and(|(id, _)| fold_id(w) == id));
    // njudge's `SIGNON Fgame secret`: the house's letter glued to the game, read so only
    // where the dispatcher found that game (`read_sign_ons`).
    let glued = !names_game
        && line.keyword == command::Keyword::SignOn
        && matches!(
            (&located.command, game),
            (Ok(Command::SignOn { game: named, .. } | Command::Moderator { game: named, .. }), Some((id, _)))
                if fold_id(named) == id
                    && line.words.first().is_some_and(|w| {
                        fold_id(w).get(1..) == Some(id)
                    })
        );
    let (shown, extra) = match (&located.command, game) {
        _ if lone_request || confirmation => (line.safe_words(), false),
        _ if glued => (1, line.words.len() > 2),
        // `SIGNON game M secret`: the moderator's sign-on in njudge's form.
        (Ok(Command::Moderator { .. }), _)
            if names_game && line.keyword == command::Keyword::SignOn =>
        {
            (2, line.words.len() > 3)
        }
        _ if !names_game => (0, false),
        (Ok(Command::SignOn { house, secret, .. }), Some((_, variant))) => {
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

/// Whether `located` may be a secret written alone on the line after a sign-on that
/// lacked it: a word or two that carry out nothing (no command reads so).
pub(super) fn may_be_a_lone_secret(located: &Located) -> bool {
    located.text.split_whitespace().count() <= 2
        && matches!(&located.command, Ok(Command::Order(_)) | Err(_))
}

/// Whether `located` is a line that carries a secret but lacked one: the next line may
/// hold it.
pub(super) fn lacks_its_secret(located: &Located) -> bool {
    command::secret_line(&located.text).is_some()
        && matches!(located.command, Err(CommandError::Arguments { .. }))
}

/// `text` with every word of `hidden` (longer than three letters: shorter ones are
/// courtesies such as `ok`, never the judge's secrets) replaced by the mask.
pub(super) fn scrubbed(text: &str, hidden: &[String]) -> String {
    let mut text = text.to_string();
    for word in hidden.iter().filter(|w| w.chars().count() > 3) {
        if text.contains(word.as_str()) {
            text = text.replace(word.as_str(), SECRET_MASK);
        }
    }
    text
}

/// The mail's subject as the reply's `Re:` quotes it: a sign-on written there (as some
/// players do) shows no more than in the body, and no word the body's quotes hid
/// appears in it.
pub(super) fn masked_subject(subject: &str, hidden: &[String]) -> String {
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
    let subject = match command::secret_line(rest) {
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
    scrubbed(&subject, hidden)
}

/// The most sieve checks one mail may cost (a check is one word against one secret kept,
/// tens of microseconds): past them the words left are hidden unchecked, which costs a
/// mail quoting that much of itself some readability, never a secret.
const SIEVE_CHECKS: usize = 160;

/// The most words of a mail whose quotes name no game that are looked up as game ids:
/// a sign-on in a shape the judge does not read (`GAME essai lannister <secret>`) still
/// names its game.
const GAME_WORDS: usize = 16;

/// The hashes of every secret `game` keeps: its players', its moderator's, its
/// observers'.
fn stored_secrets(game: &Game) -> Vec<&str> {
    let players = game
        .seats()
        .iter()
        .filter_map(|s| s.player())
        .map(|p| p.secret());
    let moderator = game.moderator().map(|m| m.secret.as_str());
    let observers = game.observers().iter().map(|o| o.secret.as_str());
    players.chain(moderator).chain(observers).collect()
}

/// The words of `texts` (as written, and without the punctuation around them) that may
/// be a secret of `game`: those that pass the sieve kept beside a secret's hash. A word
/// shorter than any secret ([`MIN_CHOSEN`] characters) is never taken for one, nor the game's
/// id, a house's or a command's keyword; past [`SIEVE_CHECKS`] a word is taken for one unchecked.
pub(crate) fn sieved(game: &Game, texts: &[&str]) -> Vec<String> {
    let stored = stored_secrets(game);
    if stored.is_empty() {
        return Vec::new();
    }
    let known = |word: &str| {
        let word = fold_id(word);
        word == game.id() || game.seats().iter().any(|s| s.house().as_str() == word)
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut found = Vec::new();
    for word in texts.iter().flat_map(|t| t.split_whitespace()) {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        for candidate in [word, bare] {
            if candidate.chars().count() < MIN_CHOSEN
                || candidate.contains(SECRET_MASK)
                || seen.contains(&candidate)
                || known(candidate)
                || command::is_keyword(candidate)
            {
                continue;
            }
            seen.push(candidate);
            let unchecked = seen.len() * stored.len() > SIEVE_CHECKS;
            if unchecked || stored.iter().any(|s| sieve_passes(candidate, s)) {
                found.push(candidate.to_string());
            }
        }
    }
    found
}

/// The game a mail's lines name, when no command the judge read names one: the first
/// word that is the id of a game of the store.
pub(crate) fn game_in_words(
    service: &Service,
    texts: &[&str],
) -> Result<Option<Game>, ServiceError> {
    let mut looked: Vec<String> = Vec::new();
    for word in texts.iter().flat_map(|t| t.split_whitespace()) {
        let id = fold_id(word.trim_matches(|c: char| !c.is_alphanumeric()));
        let plausible = !id.is_empty()
            && id.len() <= 64
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
        if !plausible || looked.contains(&id) {
            continue;
        }
        if looked.len() >= GAME_WORDS {
            break;
        }
        if let Some(game) = service.find_game(&id)? {
            return Ok(Some(game));
        }
        looked.push(id);
    }
    Ok(None)
}

/// Every text of `value` (a reply's data) with the words of `hidden` masked.
pub(super) fn scrub_all(value: &mut serde_json::Value, hidden: &[String]) {
    match value {
        serde_json::Value::String(text) => *text = scrubbed(text, hidden),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| scrub_all(v, hidden)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|v| scrub_all(v, hidden)),
        _ => {}
    }
}

/// A mail's subject as a notice about it quotes it (a mail set aside): what an answer's
/// `Re:` would hide, and every word that may be a secret of `game`.
pub(crate) fn quoted_subject(subject: &str, game: Option<&Game>) -> String {
    let hidden = game.map(|g| sieved(g, &[subject])).unwrap_or_default();
    masked_subject(subject, &hidden)
}
