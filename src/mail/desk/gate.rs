//! The one gate of a command: which game the mail is about, who writes (the sign-ons
//! of a player and of the moderator: one secret checked a mail, failures counted per
//! seat and told, never a lock), and whether the sender may ask what the command asks,
//! read from the game's own permission table ([`Needs`]). A command's family is handed
//! the command only once it passed; no family checks a role itself.

use crate::game::{ActionKind, Actor, Event, GameError, HouseKey, Needs, SubmitMode};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::format_deadline;
use crate::service::guard::Guard;
use crate::service::{AuthFailure, Claim, ServiceError, Session};

use super::super::command::{Command, Located, SECRET_MASK};
use super::super::refusal::Refusal;
use super::section::ReplySection;
use super::{Desk, fold_id};
use std::rc::Rc;

/// Who the sender turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Role {
    Nobody,
    /// Signed on as this house.
    House(HouseKey),
    Moderator,
}

/// What the mail has shown of its game and its sender, command after command.
pub(super) struct Gate {
    pub(super) role: Role,
    /// The game the mail is about, once named (even when the sign-on failed).
    pub(super) game_id: Option<String>,
    /// The variant of the mail's game: refusals name its houses in the reader's words.
    pub(super) names: Option<Rc<crate::map::Variant>>,
    /// A sign-on failed: the rest of the mail is refused for that game.
    pub(super) locked_out: bool,
    /// A secret was checked in this mail: one mail buys one guess, so every later one is
    /// refused unchecked.
    secret_spent: bool,
    /// Whether a secret written in a token's place was checked in full (one a mail).
    pub(super) holder_checked: bool,
    /// The line of the first sign-on (player or moderator), if any: what comes before it
    /// is a greeting, not orders.
    pub(super) first_sign_on: Option<usize>,
    /// The address registered for the house, when it is not the sender's.
    pub(super) owner: Option<String>,
}

impl Gate {
    pub(super) fn new() -> Gate {
        Gate {
            role: Role::Nobody,
            game_id: None,
            names: None,
            locked_out: false,
            secret_spent: false,
            holder_checked: false,
            first_sign_on: None,
            owner: None,
        }
    }
}

/// What a command asks of the mail's game and of its sender.
#[derive(Debug, Clone, Copy)]
pub(super) enum Asks {
    /// Nothing: any sender, with or without a game.
    Nothing,
    /// A sign-on: the gate reads it itself.
    SignOn,
    /// The mail's game, for any sender not locked out by a failed sign-on: what it is
    /// shown is the family's to choose (a stranger reads what is public).
    Game,
    /// What the game's table gives an action of this kind.
    Act(ActionKind),
    /// A read only some senders make, in the table's terms (status, press).
    Read(Needs),
}

/// What a command asks, by its kind: the table the gate reads. A new command does not
/// compile until it says.
pub(super) fn asks(command: &Command) -> Asks {
    use ActionKind as K;
    match command {
        Command::Order(_) | Command::Orders { .. } => Asks::Act(K::Submit),
        Command::SignOn { .. } | Command::Moderator { .. } => Asks::SignOn,
        Command::Ready(_) => Asks::Act(K::Ready),
        // A block is opened whoever writes, and refused whole if its sender may not keep
        // it (`ahead`): no line after a `PHASE` line reaches the current orders.
        Command::Phase { .. } => Asks::Nothing,
        Command::ClearAhead => Asks::Act(K::ClearAhead),
        Command::Draw(_) | Command::Concede(_) | Command::DrawWith(_) => Asks::Act(K::Vote),
        Command::Resign => Asks::Act(K::Resign),
        Command::Address { .. } => Asks::Act(K::Address),
        Command::Absence { .. } => Asks::Act(K::Absence),
        Command::Language(_) => Asks::Act(K::Language),
        Command::Pictures(_) => Asks::Act(K::Pictures),
        Command::Zone(_) => Asks::Act(K::Zone),
        Command::Password(_) => Asks::Act(K::ChangeSecret),
        Command::Observe { .. } => Asks::Act(K::AskObserve),
        Command::ConfirmObserve { .. } => Asks::Act(K::ConfirmObserve),
        Command::Unobserve { .. } => Asks::Act(K::Unobserve),
        Command::Join { .. } => Asks::Act(K::Join),
        Command::TakeOver { .. } => Asks::Act(K::TakeOver),
        Command::Observers(_) => Asks::Act(K::Observers),
        Command::Start => Asks::Act(K::Start),
        Command::Pause => Asks::Act(K::Pause),
        Command::Resume => Asks::Act(K::Resume),
        Command::Extend(_) => Asks::Act(K::Extend),
        Command::Process(_) => Asks::Act(K::Process),
        Command::Rollback(_) => Asks::Act(K::Rollback),
        Command::EndGame(_) => Asks::Act(K::End),
        Command::AddPlayer { .. } | Command::ReplacePlayer { .. } => Asks::Act(K::Seat),
        Command::RemovePlayer(_) => Asks::Act(K::Remove),
        Command::Set { .. } => Asks::Act(K::Set),
        Command::Approve { .. } => Asks::Act(K::Approve),
        Command::Reject { .. } => Asks::Act(K::Reject),
        Command::Status | Command::Preview | Command::Press { .. } => Asks::Read(Needs::Own),
        Command::Alert { .. } | Command::Announce => Asks::Read(Needs::Moderator),
        Command::History { .. }
        | Command::Summary { .. }
        | Command::WhoGame { .. }
        | Command::Map { .. } => Asks::Game,
        Command::List { .. }
        | Command::Create { .. }
        | Command::Get { .. }
        | Command::WhoIs
        | Command::Record
        | Command::Help
        | Command::Stop
        | Command::Foreign { .. }
        | Command::Diary { .. }
        | Command::Standby { .. } => Asks::Nothing,
    }
}

/// Who a command that passed the gate is carried out for.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Caller {
    /// The house's player, signed on.
    House(HouseKey),
    Moderator,
    /// The mail's sender by its address: a stranger's or an observer's own request, or a
    /// command anyone may send.
    Sender,
}

impl Caller {
    /// The house a player's command is for: the gate hands a player's command only to a
    /// signed-on house.
    pub(super) fn house(&self) -> Option<HouseKey> {
        match self {
            Caller::House(house) => Some(house.clone()),
            _ => None,
        }
    }
}

/// What of a sign-on's words may be quoted as its house: the house the map names exactly
/// (then words after the secret are extra), else the first word if the map takes it for
/// a misspelt house, else nothing (it may be the secret, typed before the house). Returns
/// the house as shown, how many words it took, and whether extra words followed.
pub(super) fn shown_house(
    variant: &Variant,
    house: &str,
    secret: &str,
) -> (Option<String>, usize, bool) {
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
pub(super) fn split_sign_on(
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

impl Desk<'_> {
    /// Why a player's command is refused without a sign-on: none was given, or it failed.
    pub(super) fn not_signed_on(&self) -> Refusal {
        if self.gate.locked_out {
            Refusal::BadSignOn {
                game: self.gate.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotSignedOn
        }
    }

    /// The gate: the game a command names (one a mail), the game it needs, and whether
    /// its sender may ask it. `None` when it may not, its refusal in the reply.
    pub(super) fn admit(
        &mut self,
        game: &Option<Session<'_>>,
        located: &Located,
        command: &Command,
    ) -> Option<Caller> {
        let asks = asks(command);
        // A game is named to be created, not read.
        let read = command
            .game()
            .filter(|_| !matches!(command, Command::Create { .. }));
        if let Some(named) = read
            && !self.same_game(game, located, named)
        {
            return None;
        }
        match asks {
            Asks::Nothing | Asks::SignOn => Some(Caller::Sender),
            Asks::Game | Asks::Read(_) if game.is_none() => {
                self.refuse(located, Refusal::NoGame);
                None
            }
            Asks::Game => self.open_to_sender(located).then_some(Caller::Sender),
            Asks::Read(needs) => self.may_ask(located, needs),
            Asks::Act(kind) => {
                let caller = self.may_ask(located, kind.needs())?;
                if game.is_none() {
                    self.refuse(located, Refusal::NoGame);
                    return None;
                }
                Some(caller)
            }
        }
    }

    /// Whether the mail's game may be read by its sender. After a refused sign-on,
    /// nothing more is done for the game: not even what a stranger may read, lest a
    /// guesser learn whether the game is the one they aimed at.
    pub(super) fn open_to_sender(&mut self, located: &Located) -> bool {
        if self.gate.locked_out {
            let refusal = self.not_signed_on();
            self.refuse(located, refusal);
        }
        !self.gate.locked_out
    }

    /// Whether the sender, as far as the mail has shown, is of a kind the game's table
    /// admits for `needs`; else the refusal that tells what to send first, in the reply.
    fn may_ask(&mut self, located: &Located, needs: Needs) -> Option<Caller> {
        match self.caller_for(needs) {
            Ok(caller) => Some(caller),
            Err(refusal) => {
                self.refuse(located, refusal);
                None
            }
        }
    }

    /// Who the sender is for a command with these needs, or why it may not send it.
    pub(super) fn caller_for(&self, needs: Needs) -> Result<Caller, Refusal> {
        // A request by an address is the sender's own, whoever signed on.
        if needs == Needs::Address {
            return Ok(Caller::Sender);
        }
        let actor = match &self.gate.role {
            Role::House(house) => Actor::House(house.clone()),
            Role::Moderator => Actor::Moderator,
            // A stranger asks only for itself (above).
            Role::Nobody => return Err(self.refusal(needs)),
        };
        // By mail, a house's action is its player's: the moderator has no house to name
        // (the command line acts for a house).
        if needs == Needs::Player && matches!(actor, Actor::Moderator) {
            return Err(Refusal::HouseCommand);
        }
        if !needs.admits(&actor) {
            return Err(self.refusal(needs));
        }
        Ok(match actor {
            Actor::House(house) => Caller::House(house),
            _ => Caller::Moderator,
        })
    }

    /// What a sender who may not ask for `needs` is told to send first.
    fn refusal(&self, needs: Needs) -> Refusal {
        match needs {
            Needs::Moderator | Needs::Clock | Needs::Judge if self.gate.locked_out => {
                Refusal::BadModeratorSecret {
                    game: self.gate.game_id.clone().unwrap_or_default(),
                }
            }
            Needs::Moderator | Needs::Clock | Needs::Judge => Refusal::NotModerator,
            _ => self.not_signed_on(),
        }
    }

    /// Checks that a command naming `named` stays on the mail's one game.
    fn same_game(&mut self, game: &Option<Session<'_>>, located: &Located, named: &str) -> bool {
        let named = fold_id(named);
        match (game, &self.gate.game_id) {
            (_, Some(first)) if *first != named => {
                let first = first.clone();
                self.refuse(located, Refusal::OneGamePerMail { first });
                false
            }
            (Some(session), _) if session.game().id() == named => {
                self.gate.game_id = Some(named);
                true
            }
            _ => {
                // An unknown game is still the mail's one game: a later sign-on for
                // another game is refused as such, not reported unknown.
                self.gate.game_id = Some(named.clone());
                let e = self
                    .service
                    .load(&named)
                    .err()
                    .unwrap_or(ServiceError::Game(GameError::UnknownGame {
                        id: named,
                        nearest: None,
                    }));
                let message = self.service_message(&e);
                self.error(located, message);
                false
            }
        }
    }

    /// `PARTIE game house secret`: the one secret this mail may have checked. The right
    /// secret is always accepted, whoever failed before (docs/email.md, "Sign-on, secrets
    /// and throttling").
    pub(super) fn sign_on(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: &str,
        secret: &str,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        if self.gate.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.gate.secret_spent = true;
        let variant = session.variant();
        let (shown, _, _) = shown_house(variant, house, secret);
        let (house, secret) = match split_sign_on(variant, house, secret) {
            Some((house, secret, _, _)) => (house, secret),
            None => (house.to_string(), secret.to_string()),
        };
        let g = session.game();
        let shown = shown.unwrap_or_else(|| SECRET_MASK.to_string());
        let id = g.id().to_string();
        let zone = g.settings().schedule.time_zone;
        // A name that is no house of the map claims no seat: nothing to check or count.
        let signed = match g.house_id(variant, &house) {
            Ok(house) => session
                .authenticate(
                    Claim::House(house.clone()),
                    &secret,
                    &self.mail.from,
                    self.now,
                )?
                .map(|signed| (house, signed)),
            Err(_) => Err(AuthFailure::Vacant),
        };
        match signed {
            Ok((house, signed)) => {
                let elsewhere = signed.elsewhere.is_some();
                self.signed_on(signed.lang, signed.elsewhere);
                let name = session.variant().house_name_in(&house, self.lang);
                self.gate.role = Role::House(house);
                self.draft.mode = SubmitMode::Replace;
                let section = ReplySection::SignedOn {
                    house: name,
                    game: id,
                    extra: self.answer.extra_words,
                    elsewhere,
                };
                self.section(located.line, &located.text, section);
                self.failed_sign_ons(signed.failed, zone);
            }
            Err(_) => {
                self.lock_out();
                session.note(Event::SignOnRefused {
                    claimed: Some(shown),
                    from: self.mail.from.clone(),
                });
                self.refuse(located, Refusal::BadSignOn { game: id });
            }
        }
        Ok(())
    }

    /// `MODERATEUR game secret`, as a player's sign-on. From another address than the
    /// moderator's, the moderator gets a copy of the answer.
    pub(super) fn moderator_sign_on(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        secret: &str,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let g = session.game();
        let id = g.id().to_string();
        let zone = g.settings().schedule.time_zone;
        // Said before the one secret of the mail is spent: no secret is checked.
        if g.moderator().is_none() {
            self.refuse(located, Refusal::NoModerator { game: id });
            return Ok(());
        }
        if self.gate.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.gate.secret_spent = true;
        match session.authenticate(Claim::Moderator, secret, &self.mail.from, self.now)? {
            Ok(signed) => {
                let elsewhere = signed.elsewhere.is_some();
                self.signed_on(signed.lang, signed.elsewhere);
                self.gate.role = Role::Moderator;
                let data = ReplySection::Moderator {
                    game: id,
                    extra: self.answer.extra_words,
                    elsewhere,
                };
                self.section(located.line, &located.text, data);
                self.failed_sign_ons(signed.failed, zone);
            }
            Err(_) => {
                self.lock_out();
                session.note(Event::SignOnRefused {
                    claimed: None,
                    from: self.mail.from.clone(),
                });
                self.refuse(located, Refusal::BadModeratorSecret { game: id });
            }
        }
        Ok(())
    }

    /// Whether a command that checks or makes a secret may: the game would look at it,
    /// and this mail has not spent its one hash yet (then it is spent).
    pub(super) fn spends_secret(
        &mut self,
        located: &Located,
        checked: Result<(), GameError>,
    ) -> bool {
        if let Err(e) = checked {
            let message = self.game_message(&e);
            self.error(located, message);
            return false;
        }
        if self.gate.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return false;
        }
        self.gate.secret_spent = true;
        true
    }

    /// A right secret: the answer is in the owner's language, and goes to their
    /// registered address too when the sender's is another.
    fn signed_on(&mut self, lang: Lang, elsewhere: Option<String>) {
        self.lang = lang;
        self.gate.locked_out = false;
        if elsewhere.is_some() {
            self.gate.owner = elsewhere;
        }
    }

    /// A sign-on failed or was refused: nothing more is done for the game in this mail.
    pub(super) fn lock_out(&mut self) {
        self.gate.role = Role::Nobody;
        self.gate.locked_out = true;
    }

    /// The answer's section on the failures the owner is told of.
    fn failed_sign_ons(&mut self, failed: Option<Guard>, zone: chrono_tz::Tz) {
        if let Some(failed) = failed {
            let section = ReplySection::FailedSignOns {
                count: failed.failures,
                first: format_deadline(failed.first, zone, self.lang),
                last: format_deadline(failed.last, zone, self.lang),
            };
            self.section(0, "", section);
        }
    }
}
