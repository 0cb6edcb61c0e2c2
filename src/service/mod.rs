//! The judge's work on stored games, shared by the command line, `tick`, `serve` and the
//! mail commands: each action loads a game, changes it, and commits the change together
//! with its audit entry, its phase record and the notices it causes, in one transaction.

pub mod auth;
mod deadline;
mod door;
mod error;
pub mod picture;
mod session;

use std::path::Path;
use std::rc::Rc;

use chrono::{DateTime, Utc};

use crate::game::HouseKey;
use crate::game::{
    Action, Actor, AuditEntry, AuditLine, Event, Game, GameError, NewGame, PhaseGuard, PhaseRecord,
    Trigger, create,
};
use crate::map::{PinnedVariant, Variant, parse_variant, variant_source};
use crate::store::{Commit, Store};

pub use crate::store::NoticeTold;
/// The sign-on counter the store keeps, counted by `auth`.
pub use crate::store::guard;
pub use auth::{AuthFailure, Claim, SignedOn};
pub use door::{
    BodyBytes, Envelope, HeldNotice, REPLY_WINDOW, Replied, ReplyWindow, Shared, Standby, piece_key,
};
pub use error::{Bug, ServiceError, StorageFailure};
pub use session::{Outcome, Session};

/// What a mail or a command commits besides a game's change: mails, marks, counters.
#[derive(Debug, Default)]
pub struct Effects {
    /// Mails to queue with the change (replies, press, welcome mails), as the mail layer
    /// sealed them: headers and body bytes.
    pub mails: Vec<Envelope>,
    /// The Message-ID of the mail that asked for the change, marked as acted on.
    pub seen: Option<String>,
    /// The answer to the mail's sender, counted against the hourly cap.
    pub replied: Option<Replied>,
    /// Other hourly counters of the mail's caps (`store::Commit::counted`).
    pub counted: Vec<Replied>,
    /// Press sent to every house, signed: public, kept in the audit trail (action
    /// [`BROADCAST`]) for the published pages (`corbeau publish`).
    pub broadcasts: Vec<Broadcast>,
    /// Every other press message, kept in the audit trail (action [`PRESS`]): the press
    /// archive, the moderator's to read (`corbeau export`), never published.
    pub press: Vec<PressRecord>,
    /// Addresses put on the standby list (`Some`) or taken off it (`None`).
    pub standby: Vec<(String, Option<Standby>)>,
    /// Games whose free houses the standby list was told of, and when.
    pub announced: Vec<(String, chrono::DateTime<chrono::Utc>)>,
}

/// The audit trail's action for a press message that is no signed broadcast (private,
/// grey, to the moderator); its detail is the [`PressRecord`] as JSON.
pub const PRESS: &str = "press";

/// Who a press message went to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "houses")]
pub enum Audience {
    /// Every house (and the observers).
    All,
    /// These houses.
    Houses(Vec<HouseKey>),
    /// The moderator alone.
    Moderator,
}

/// A press message as the archive keeps it: its author even when grey (the moderator
/// always sees it), its audience and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PressRecord {
    /// The history index of the phase being played when it was sent.
    pub index: u32,
    /// The house that wrote it; none: the moderator.
    pub house: Option<HouseKey>,
    pub grey: bool,
    pub to: Audience,
    pub body: String,
}

impl PressRecord {
    /// Every press message of an audit trail — the signed broadcasts and the rest — with
    /// its time, oldest first.
    pub fn in_audit(audit: &[AuditEntry]) -> Vec<(DateTime<Utc>, PressRecord)> {
        audit
            .iter()
            .filter_map(|a| match a.action.as_str() {
                PRESS => Some((a.at, serde_json::from_str(&a.detail).ok()?)),
                BROADCAST => {
                    let b: Broadcast = serde_json::from_str(&a.detail).ok()?;
                    let record = PressRecord {
                        index: b.index,
                        house: b.house,
                        grey: false,
                        to: Audience::All,
                        body: b.body,
                    };
                    Some((a.at, record))
                }
                _ => None,
            })
            .collect()
    }
}

/// The audit trail's action for a broadcast press message; its detail is the
/// [`Broadcast`] as JSON.
pub const BROADCAST: &str = "broadcast";

/// A press message sent to every house and signed (never grey, never private): what the
/// published pages show of press.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Broadcast {
    /// The history index of the phase being played when it was sent.
    pub index: u32,
    /// The house that signed it; none: the moderator.
    pub house: Option<HouseKey>,
    pub body: String,
}

impl Broadcast {
    /// The broadcasts of an audit trail, with their time, oldest first (an entry that
    /// does not read is left out: the trail is the moderator's, the pages only show it).
    pub fn in_audit(audit: &[AuditEntry]) -> Vec<(DateTime<Utc>, Broadcast)> {
        audit
            .iter()
            .filter(|a| a.action == BROADCAST)
            .filter_map(|a| Some((a.at, serde_json::from_str(&a.detail).ok()?)))
            .collect()
    }
}

/// What one `tick` did.
#[derive(Debug, Default)]
pub struct TickReport {
    /// Games processed: id and the phase played.
    pub processed: Vec<(String, crate::judge::Phase)>,
    /// Reminders queued: game id and houses.
    pub reminders: Vec<(String, Vec<HouseKey>)>,
    /// Games that could not be handled, with the reason (the others go on), worded by
    /// whoever reports them, in their reader's language.
    pub errors: Vec<(String, ServiceError)>,
}

pub struct Service {
    store: Store,
}

impl Service {
    pub fn open(dir: &Path) -> Result<Service, ServiceError> {
        Service::on(Store::open(dir)?)
    }

    /// Whether `dir` holds a store (opening one that does not creates it).
    pub fn exists(dir: &Path) -> bool {
        Store::exists(dir)
    }

    pub fn on(store: Store) -> Result<Service, ServiceError> {
        Ok(Service { store })
    }

    /// The variant a game is pinned to, read from the store (never from the file the
    /// game was created with) once per process.
    pub fn variant(&self, pin: &PinnedVariant) -> Result<Rc<Variant>, ServiceError> {
        Ok(self.store.pinned(pin)?)
    }

    /// Reads a built-in variant or a variant file now, to pin a game to it: the pin, the
    /// variant checked, and the text the store must keep ([`Store::keep_variant`]).
    fn read_variant(
        &self,
        name: &str,
    ) -> Result<(PinnedVariant, Rc<Variant>, String), ServiceError> {
        let source = variant_source(name)?;
        let pin = PinnedVariant {
            name: name.to_string(),
            hash: source.hash(),
        };
        // A content the store already keeps is the same text: parsed once per process.
        let variant = match self.store.variant_text(&pin.hash)? {
            Some(_) => self.store.pinned(&pin)?,
            None => self
                .store
                .remember(&pin.hash, parse_variant(&source.file, &source.text)?),
        };
        // A game of this variant must read back what the store writes of it.
        crate::position::check_storable(&source.file, &variant)?;
        Ok((pin, variant, source.text))
    }

    /// A stored game; an unknown id gets the nearest existing one as a suggestion.
    pub fn load(&self, id: &str) -> Result<Game, ServiceError> {
        if let Some(game) = self.store.game(id)? {
            return Ok(game);
        }
        let ids = self.store.game_ids()?;
        let nearest =
            crate::map::nearest_of(id, ids.iter().map(|other| (other.as_str(), other)), 0.8)
                .cloned();
        Err(GameError::UnknownGame {
            id: id.to_string(),
            nearest,
        }
        .into())
    }

    /// Creates and stores a new game.
    pub fn create(
        &self,
        new: NewGame,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<Game, ServiceError> {
        let (pin, variant, text) = self.read_variant(&new.variant)?;
        let game = create(new, &variant, pin, now)?;
        self.store.keep_variant(&game.variant().hash, &text)?;
        let lines = Event::Created {
            players: game.players(),
            variant: game.variant().to_string(),
        }
        .trace()
        .line;
        self.store.commit(Commit {
            before: None,
            game: Some(&game),
            audit: vec![audit(
                now,
                actor,
                "create",
                lines.into_iter().collect(),
                String::new(),
            )],
            ..Commit::default()
        })?;
        Ok(game)
    }

    /// Moves a game to another version of its variant (a built-in name or a file, read
    /// now), if the new version reads everything the game holds: its houses, position,
    /// stored orders and history. Returns the game after and the pin it had.
    pub fn set_variant(
        &self,
        id: &str,
        name: &str,
        actor: &str,
        now: DateTime<Utc>,
    ) -> Result<(Game, PinnedVariant), ServiceError> {
        let before = self.load(id)?;
        let (pin, new, text) = self.read_variant(name)?;
        if pin == *before.variant() {
            return Err(GameError::VariantUnchanged {
                name: pin.name.clone(),
            }
            .into());
        }
        let old = self.variant(before.variant())?;
        let history = self.store.phases(id)?;
        let game = crate::game::move_to_variant(&before, &old, &new, pin, &history).map_err(
            |problems| GameError::VariantIncompatible {
                file: name.to_string(),
                problems,
            },
        )?;
        self.store.keep_variant(&game.variant().hash, &text)?;
        let lines = Event::VariantChanged {
            from: before.variant().name.clone(),
            from_hash: before.variant().hash.short().to_string(),
            to: game.variant().name.clone(),
            to_hash: game.variant().hash.short().to_string(),
        }
        .trace()
        .line;
        self.store.commit(Commit {
            before: Some(&before),
            game: Some(&game),
            audit: vec![audit(
                now,
                actor,
                "set-variant",
                lines.into_iter().collect(),
                String::new(),
            )],
            ..Commit::default()
        })?;
        Ok((game, before.variant().clone()))
    }

    /// Processes the current phase of a game and stores it; `expected` guards against
    /// processing another phase than the one the moderator looked at.
    pub fn process(
        &self,
        id: &str,
        who: &Actor,
        trigger: Trigger,
        expected: Option<PhaseGuard>,
        now: DateTime<Utc>,
    ) -> Result<(Game, PhaseRecord), ServiceError> {
        self.process_read(self.load(id)?, who, trigger, expected, now)
    }

    /// [`Service::process`] of a game just read from the store (see [`Service::session_of`]).
    fn process_read(
        &self,
        before: Game,
        who: &Actor,
        trigger: Trigger,
        expected: Option<PhaseGuard>,
        now: DateTime<Utc>,
    ) -> Result<(Game, PhaseRecord), ServiceError> {
        let mut session = self.session_of(before)?;
        session.execute_alone(who, Action::Process { expected, trigger }, now)?;
        let record = session.record().cloned().ok_or(Bug::NoPhaseRecord)?;
        let game = session.commit(&who.audit_name(), "process", Effects::default(), now)?;
        Ok((game, record))
    }

    /// Adjudicates the current phase without storing anything.
    pub fn preview(&self, id: &str, now: DateTime<Utc>) -> Result<PhaseRecord, ServiceError> {
        let mut game = self.load(id)?;
        let variant = self.variant(game.variant())?;
        let record = game.process(&variant, now, Trigger::Moderator)?;
        Ok(crate::report::phase_record(&variant, record))
    }

    /// Undoes the last processed phase; `expected` must name it, when given.
    pub fn rollback(
        &self,
        id: &str,
        who: &Actor,
        expected: Option<PhaseGuard>,
        now: DateTime<Utc>,
    ) -> Result<(Game, PhaseRecord), ServiceError> {
        let last = self
            .store
            .last_phase(id)?
            .ok_or(GameError::NothingToRollback)?;
        let rollback = Action::Rollback {
            last: Box::new(last.clone()),
            expected,
        };
        let outcome = self.execute(id, who, rollback, now)?;
        Ok((outcome.game, last))
    }

    /// One pass of the judge's clock: every game whose wake time has come is processed if
    /// due, or reminded. A game that fails is reported and the others go on.
    pub fn tick(&self, now: DateTime<Utc>) -> Result<TickReport, ServiceError> {
        let mut report = TickReport::default();
        for id in self.due_games(now)? {
            self.tick_one(&id, now, &mut report);
        }
        Ok(report)
    }

    /// The games whose wake time has come: what [`Service::tick`] goes through.
    pub fn due_games(&self, now: DateTime<Utc>) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.due_games(now)?)
    }

    /// One game of [`Service::tick`], read again (another process may have changed it
    /// since the list was read): processed if due, else reminded, its failure reported.
    pub fn tick_one(&self, id: &str, now: DateTime<Utc>, report: &mut TickReport) {
        if let Err(e) = self.tick_game(id, now, report) {
            report.errors.push((id.to_string(), e));
        }
    }

    fn tick_game(
        &self,
        id: &str,
        now: DateTime<Utc>,
        report: &mut TickReport,
    ) -> Result<(), ServiceError> {
        let game = self.load(id)?;
        if let Some(trigger) = game.due(now) {
            let (_, record) = self.process_read(game, &Actor::Judge, trigger, None, now)?;
            report.processed.push((id.to_string(), record.phase));
            return Ok(());
        }
        let mut session = self.session_of(game)?;
        let events = session.execute_alone(&Actor::Judge, Action::Remind, now)?;
        session.commit("judge", "remind", Effects::default(), now)?;
        for event in events {
            if let Event::Reminded { houses, .. } = event {
                report.reminders.push((id.to_string(), houses));
            }
        }
        Ok(())
    }
}

fn audit(
    at: DateTime<Utc>,
    actor: &str,
    action: &str,
    lines: Vec<AuditLine>,
    detail: String,
) -> AuditEntry {
    AuditEntry {
        at,
        actor: actor.to_string(),
        action: action.to_string(),
        lines,
        detail,
    }
}
