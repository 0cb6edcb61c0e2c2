//! The service as the only door to the store: what the mail layer, the command line and
//! the publication read or write outside a game's action ([`Service::update`]), named by
//! what they want rather than by the store's trees. Every store error comes back as a
//! [`ServiceError::Store`] (transient, damaged or refused), so that no caller names the
//! store.
//!
//! The records the store keeps for the mail layer ([`Replied`], [`ReplyWindow`]) are
//! re-exported by the service, so that the mail layer reaches them through the service
//! too; the sign-on counters (`super::guard`) are the service's own (`super::auth`).

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::{Effects, Service, ServiceError};
use crate::game::{Action, Actor, AuditEntry, Game, Notice, PhaseRecord};
use crate::store::Guard;
use crate::store::{Commit, Store};

/// A queued mail as the outbox keeps it: the mail layer seals its mails into envelopes.
pub use crate::store::envelope::{BodyBytes, Envelope, Shared, piece_key};
pub use crate::store::{HeldNotice, REPLY_WINDOW, Replied, ReplyWindow, Standby};

/// Opening the store.
/// A game by id, read or with the reason it could not be.
pub(super) type GameRead = (String, Result<Game, ServiceError>);

impl Service {
    /// The service on the store of `dir`, waiting at most `wait` for another process
    /// that holds it.
    pub fn open_waiting(dir: &Path, wait: Duration) -> Result<Service, ServiceError> {
        Service::on(Store::open_waiting(dir, wait)?)
    }

    /// Whether another process waits for the store of `dir` (a pass then lets it go).
    pub fn someone_waits(dir: &Path) -> bool {
        Store::someone_waits(dir)
    }
}

/// The data directory the store lives in (tools and tests that look at its files).
impl Service {
    pub fn data_dir(&self) -> &Path {
        self.store.path()
    }

    /// Bytes the store takes on disk.
    pub fn disk_size(&self) -> Result<u64, ServiceError> {
        Ok(self.store.size_on_disk()?)
    }
}

/// Games and their history, read as they are stored.
impl Service {
    /// The game of this id, if there is one (no error for a missing game, unlike
    /// [`Service::load`]).
    pub fn find_game(&self, id: &str) -> Result<Option<Game>, ServiceError> {
        Ok(self.store.game(id)?)
    }

    /// Whether a game of this id is stored, without reading it.
    pub fn has_game(&self, id: &str) -> Result<bool, ServiceError> {
        Ok(self.store.has_game(id)?)
    }

    /// Every game that can be read, by id (a game whose variant's content is damaged is
    /// left out: see [`Service::each_game`]).
    /// When `address` took each seat it holds in an open game, of those it took after
    /// `since` (resigned seats, and games closed since, left out): the seats the store's
    /// index names for the address, each checked in its game. No other game is read.
    pub fn seats_held_since(
        &self,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, ServiceError> {
        let mut named: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for seat in self.store.seats_taken(address, since)? {
            let houses = named.entry(seat.game).or_default();
            if !houses.contains(&seat.house) {
                houses.push(seat.house);
            }
        }
        let mut held = Vec::new();
        for (id, houses) in named {
            let Some(game) = self.store.game(&id)? else {
                continue;
            };
            if !game.settings().open {
                continue;
            }
            held.extend(
                game.seats()
                    .iter()
                    .filter(|s| !s.resigned() && houses.iter().any(|h| h == s.house().as_str()))
                    .filter_map(|s| s.player())
                    .filter(|p| crate::game::same_address(p.address(), address))
                    .map(|p| p.joined())
                    .filter(|joined| *joined > since),
            );
        }
        Ok(held)
    }

    pub fn games(&self) -> Result<Vec<Game>, ServiceError> {
        Ok(self
            .store
            .games()?
            .into_iter()
            .filter_map(|(_, game)| game.ok())
            .collect())
    }

    /// Every game, by id, each read on its own: one that cannot be read comes with the
    /// reason and stops no other (`game list`, `publish`).
    pub fn each_game(&self) -> Result<Vec<GameRead>, ServiceError> {
        Ok(self
            .store
            .games()?
            .into_iter()
            .map(|(id, game)| (id, game.map_err(ServiceError::from)))
            .collect())
    }

    /// Every game's id, in order.
    pub fn game_ids(&self) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.game_ids()?)
    }

    /// The phases a game played, oldest first.
    pub fn history(&self, id: &str) -> Result<Vec<PhaseRecord>, ServiceError> {
        Ok(self.store.phases(id)?)
    }

    /// One phase of a game's history, by index.
    pub fn phase_played(&self, id: &str, index: u32) -> Result<Option<PhaseRecord>, ServiceError> {
        Ok(self.store.phase(id, index)?)
    }

    /// [`Service::phase_played`] of a game in hand (not read again).
    pub fn game_phase(&self, game: &Game, index: u32) -> Result<Option<PhaseRecord>, ServiceError> {
        Ok(self.store.game_phase(game, index)?)
    }

    /// The index of the last phase a game played.
    pub fn last_phase_index(&self, id: &str) -> Result<Option<u32>, ServiceError> {
        Ok(self.store.last_phase_index(id)?)
    }

    /// The last phase a game played.
    pub fn last_phase(&self, id: &str) -> Result<Option<PhaseRecord>, ServiceError> {
        Ok(self.store.last_phase(id)?)
    }

    /// What the judge saw an address do across its games (`game::PlayerRecord`).
    pub fn record(&self, address: &str) -> Result<crate::game::PlayerRecord, ServiceError> {
        Ok(self.store.record(address)?)
    }

    /// A game's audit trail, oldest first.
    pub fn audit_trail(&self, id: &str) -> Result<Vec<AuditEntry>, ServiceError> {
        Ok(self.store.audit(id)?)
    }

    /// The last line of a game's audit trail.
    pub fn last_audit(&self, id: &str) -> Result<Option<AuditEntry>, ServiceError> {
        Ok(self.store.last_audit(id)?)
    }
}

/// Mails already acted on (deduplication), and what a mail about no game does.
impl Service {
    /// Whether a mail with this Message-ID was already acted on.
    pub fn already_seen(&self, message_id: &str) -> Result<bool, ServiceError> {
        Ok(self.store.seen(message_id)?)
    }

    /// Marks a mail as acted on, doing nothing else with it (a robot's mail, a bounce
    /// that concerns no game).
    pub fn mark_seen(&self, message_id: &str) -> Result<(), ServiceError> {
        self.store.commit(Commit {
            seen: Some(message_id.to_string()),
            ..Commit::default()
        })?;
        Ok(())
    }

    /// Commits what a mail about no game did, in one transaction: its mails, its mark as
    /// seen, its answer counted against the cap. What concerns a game (notices, audit,
    /// records, sign-on counters) has no place here and is not written.
    pub fn settle_without_game(&self, effects: Effects) -> Result<(), ServiceError> {
        self.store.commit(Commit {
            mails: effects.mails,
            seen: effects.seen,
            replied: effects.replied,
            counted: effects.counted,
            standby: effects.standby,
            announced: effects.announced,
            ..Commit::default()
        })?;
        Ok(())
    }
}

/// The cap of answers per address and hour (`[mail] replies_per_hour`).
impl Service {
    /// The judge's key for consent tokens: derived from the judge's key file (installed
    /// when the store is opened), so that a copy of the store cannot make tokens. A
    /// process without that key (a library user's) keeps one in the store instead, made
    /// the first time it is asked for.
    pub fn consent_key(&self) -> Result<crate::game::ConsentKey, ServiceError> {
        use crate::game::ConsentKey;
        if let Some(key) = crate::game::derived_key("consent tokens")
            .and_then(|bytes| ConsentKey::from_bytes(&bytes))
        {
            return Ok(key);
        }
        if let Some(key) = self
            .store
            .consent_key()?
            .and_then(|b| ConsentKey::from_bytes(&b))
        {
            return Ok(key);
        }
        let fresh = ConsentKey::fresh().map_err(ServiceError::Game)?;
        let kept = self.store.keep_consent_key(fresh.bytes())?;
        Ok(ConsentKey::from_bytes(&kept).unwrap_or(fresh))
    }

    /// The answers given to `address` in its current window (none once it is over).
    pub fn reply_window(
        &self,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<ReplyWindow>, ServiceError> {
        Ok(self.store.reply_window(address, now)?)
    }
}

/// The sign-on counters of authentication (`super::auth`).
impl Service {
    /// The counter stored under `key` (`auth::Subject::key`), if any.
    pub fn guard(&self, key: &str) -> Result<Option<Guard>, ServiceError> {
        Ok(self.store.guard(key)?)
    }

    /// The keys of the counters to forget at `now` (expired, or the oldest beyond the
    /// most kept).
    pub fn guards_to_forget(&self, now: DateTime<Utc>) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.guards_to_forget(now)?)
    }
}

/// Notices and the outbox: what the judge has to tell, and the mails waiting for the
/// transport.
impl Service {
    /// The notices not yet turned into mails, oldest first, with their keys.
    pub fn pending_notices(&self) -> Result<Vec<(u64, Notice)>, ServiceError> {
        Ok(self.store.notices()?)
    }

    /// At most `limit` pending notices after the one of key `after`, oldest first.
    pub fn pending_notices_after(
        &self,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<(u64, Notice)>, ServiceError> {
        Ok(self.store.notices_after(after, limit)?)
    }

    /// [`Service::notice_told`] for several notices, in one transaction, not yet on
    /// disk: [`Service::sync`] must follow before any of the mails goes to a transport.
    pub fn notices_told_unsynced(&self, told: &[super::NoticeTold]) -> Result<(), ServiceError> {
        Ok(self.store.notices_to_mails_unsynced(told)?)
    }

    /// Writes what was written since to disk.
    pub fn sync(&self) -> Result<(), ServiceError> {
        Ok(self.store.sync()?)
    }

    /// Forgets mails the transport took, in one transaction.
    pub fn outbox_sent_all(&self, keys: &[u64]) -> Result<(), ServiceError> {
        Ok(self.store.outbox_sent_all(keys)?)
    }

    /// Replaces a notice by the mails that tell it, in one transaction.
    /// With the hourly counters of the capped mails it sent and the copies the cap held
    /// back.
    pub fn notice_told(
        &self,
        key: u64,
        mails: &[Envelope],
        counted: &[Replied],
        held: &[HeldNotice],
    ) -> Result<(), ServiceError> {
        Ok(self.store.notice_to_mails(key, mails, counted, held)?)
    }

    /// The notices held back by the moderators' hourly cap, oldest first, with their keys.
    pub fn held_notices(&self) -> Result<Vec<(u64, HeldNotice)>, ServiceError> {
        Ok(self.store.held_notices()?)
    }

    /// Replaces held notices by their digest mails, in one transaction.
    pub fn held_told(&self, keys: &[u64], mails: &[Envelope]) -> Result<(), ServiceError> {
        Ok(self.store.held_to_mails(keys, mails)?)
    }

    /// Queues mails that concern no game's change (a quarantine notice).
    pub fn queue_mails(&self, mails: Vec<Envelope>) -> Result<(), ServiceError> {
        self.store.commit(Commit {
            mails,
            ..Commit::default()
        })?;
        Ok(())
    }

    /// Every mail waiting in the outbox, oldest first, with its key.
    pub fn outbox(&self) -> Result<Vec<(u64, Envelope)>, ServiceError> {
        Ok(self.store.outbox()?)
    }

    /// Forgets a mail the transport took.
    pub fn outbox_sent(&self, key: u64) -> Result<(), ServiceError> {
        Ok(self.store.outbox_sent(key)?)
    }

    /// Writes a mail of the outbox again (a failed attempt, its retry time).
    pub fn outbox_retry(&self, key: u64, mail: &Envelope) -> Result<(), ServiceError> {
        Ok(self.store.outbox_retry(key, mail)?)
    }

    /// Sets aside a mail for good, with what it does to the game it was about (the
    /// judge's action on the game as read: a player's address flagged, the moderator
    /// told), in one transaction.
    pub fn outbox_set_aside(
        &self,
        key: u64,
        mail: &Envelope,
        about: Option<(Game, Action)>,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let Some((before, action)) = about else {
            return Ok(self
                .store
                .outbox_failed(key, mail, None, None, Vec::new(), Vec::new())?);
        };
        let name = action.name();
        let mut session = self.session_of(before)?;
        session.execute_alone(&Actor::Judge, action, now)?;
        let (before, game, notices, audit) = session.into_parts("judge", name, now);
        Ok(self
            .store
            .outbox_failed(key, mail, Some(&before), Some(&game), notices, audit)?)
    }
}

/// The store itself, past the door: only for tests that shape a store no action makes (a
/// game deleted under its published pages, a game whose pinned variant is missing). No
/// production path calls it; everything else goes through the methods above. Compiled only
/// for tests (the `test-hooks` feature, which `cargo test` turns on).
#[cfg(any(test, feature = "test-hooks"))]
impl Service {
    #[doc(hidden)]
    pub fn store_for_tests(&self) -> &Store {
        &self.store
    }
}

/// What a test's shaping of a game asks to be told (see [`Service::shape_for_tests`]).
#[cfg(any(test, feature = "test-hooks"))]
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct TestNotices(pub Vec<(crate::game::NoticeKind, Vec<crate::game::HouseKey>)>);

#[cfg(any(test, feature = "test-hooks"))]
impl TestNotices {
    pub fn notify(&mut self, kind: crate::game::NoticeKind, houses: Vec<crate::game::HouseKey>) {
        self.0.push((kind, houses));
    }
}

/// Games shaped past the game's actions: only for tests that set up a state quickly (a
/// seated game without hashing a secret per player) or one no action makes (a hash kept
/// from before the sieve). No production path calls it; compiled only for tests.
#[cfg(any(test, feature = "test-hooks"))]
impl Service {
    #[doc(hidden)]
    pub fn shape_for_tests<T>(
        &self,
        id: &str,
        actor: &str,
        action: &str,
        now: DateTime<Utc>,
        change: impl FnOnce(
            &mut Game,
            &crate::map::Variant,
            &mut TestNotices,
        ) -> Result<T, crate::game::GameError>,
    ) -> Result<T, ServiceError> {
        let before = self.load(id)?;
        let variant = self.variant(before.variant())?;
        let mut game = before.clone();
        let mut told = TestNotices::default();
        let value = change(&mut game, &variant, &mut told)?;
        let notices = told
            .0
            .into_iter()
            .map(|(kind, houses)| Notice {
                game: game.id().to_string(),
                at: now,
                kind,
                houses,
            })
            .collect();
        // As a trail line with nothing to say, none is written.
        let _ = (actor, action);
        // Seats shaped here are indexed as a seat taken by an action would be.
        let seats = game
            .seats()
            .iter()
            .filter_map(|s| {
                let player = s.player()?;
                Some(crate::store::SeatTaken {
                    address: player.address().to_string(),
                    at: player.joined(),
                    game: game.id().to_string(),
                    house: s.house().to_string(),
                })
            })
            .collect();
        self.store.commit(Commit {
            before: Some(&before),
            game: Some(&game),
            notices,
            seats,
            ..Commit::default()
        })?;
        Ok(value)
    }
}

/// The judge's standby list (`mail::desk::standby`).
impl Service {
    /// The addresses on the list, in the order they joined it.
    pub fn standby(&self) -> Result<Vec<Standby>, ServiceError> {
        Ok(self.store.standby()?)
    }

    /// When the list was last told of the game's free houses, if ever.
    pub fn standby_announced(&self, game: &str) -> Result<Option<DateTime<Utc>>, ServiceError> {
        Ok(self.store.standby_announced(game)?)
    }
}
