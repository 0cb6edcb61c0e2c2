//! One transaction on one game: the actions of a mail (or of a command) are carried out
//! one by one on a copy of the game, each all or nothing, and [`Session::commit`] stores
//! the game with everything their events caused — audit line, notices, phase record —
//! and the sign-on counters of its authentication (`super::auth`), with what the caller
//! adds (mails, marks, counters), in one commit of the store.

use std::rc::Rc;

use chrono::{DateTime, Utc};

use crate::game::{
    Action, Actor, AuditEntry, AuditLine, Event, Game, GameError, GameStatus, HouseKey, NewGame,
    Notice, NoticeKind, PhaseRecord, RecordMark,
};
use crate::map::Variant;
use crate::store::{Commit, Marked, SeatTaken};

use super::guard::Guard;
use super::{BROADCAST, Bug, Effects, PRESS, Service, ServiceError, audit};

/// A game being changed, and what its changes caused so far.
pub struct Session<'s> {
    pub(super) service: &'s Service,
    before: Game,
    game: Game,
    variant: Rc<Variant>,
    lines: Vec<AuditLine>,
    /// Data the audit line keeps with its lines (the positions of an edit).
    detail: String,
    notices: Vec<(NoticeKind, Vec<HouseKey>)>,
    record: Option<PhaseRecord>,
    drop_record: Option<u32>,
    /// Houses given a player or a player's new address: written to the store's index of
    /// the seats each address took.
    seated: Vec<HouseKey>,
    /// Marks on the players' records: what the judge saw them do (`game::phase_marks`).
    marks: Vec<Marked>,
    /// Sign-on counters to write or forget (`store::Commit::guards`).
    pub(super) guards: Vec<(String, Option<Guard>)>,
    /// An action carried out without a copy failed: the game may be half changed, and
    /// the session must not be committed.
    spoiled: bool,
    /// The game is new (`CREATE` by mail): the store must not hold it yet at the commit.
    fresh: bool,
}

/// What one action did: the game after, and the events.
#[derive(Debug)]
pub struct Outcome {
    pub game: Game,
    pub events: Vec<Event>,
}

impl Service {
    /// A session on the stored game of this id.
    pub fn session(&self, id: &str) -> Result<Session<'_>, ServiceError> {
        self.session_of(self.load(id)?)
    }

    /// A session on a game the caller has just read from the store (a mail reads its
    /// game once to know who writes, and is carried out on that copy: decoding the game's
    /// JSON is most of what a mail costs once its secret is checked). The store is one
    /// process's (sled), so nothing changes it in between.
    pub fn session_of(&self, before: Game) -> Result<Session<'_>, ServiceError> {
        let variant = self.variant(before.variant())?;
        Ok(Session {
            service: self,
            game: before.clone(),
            before,
            variant,
            lines: Vec::new(),
            detail: String::new(),
            notices: Vec::new(),
            record: None,
            drop_record: None,
            seated: Vec::new(),
            marks: Vec::new(),
            guards: Vec::new(),
            spoiled: false,
            fresh: false,
        })
    }

    /// A session on a game created now (`CREATE` by mail), not stored until the commit,
    /// which refuses it if a game of that id was stored in between. Its variant is read
    /// now, as `corbeau game new` reads it.
    pub fn session_new(
        &self,
        new: NewGame,
        now: DateTime<Utc>,
    ) -> Result<Session<'_>, ServiceError> {
        let (pin, variant, text) = self.read_variant(&new.variant)?;
        let game = crate::game::create(new, &variant, pin, now)?;
        // Content-addressed and harmless if the commit fails: a variant text kept twice is
        // one entry.
        self.store.keep_variant(&game.variant().hash, &text)?;
        let created = Event::Created {
            players: game.players(),
            variant: game.variant().to_string(),
        };
        let mut session = self.session_of(game)?;
        session.fresh = true;
        session.note(created);
        Ok(session)
    }

    /// Carries out one action on a stored game and commits it, audited under the
    /// actor's and the action's names.
    pub fn execute(
        &self,
        id: &str,
        who: &Actor,
        what: Action,
        now: DateTime<Utc>,
    ) -> Result<Outcome, ServiceError> {
        let name = what.name();
        let mut session = self.session(id)?;
        let events = session.execute_alone(who, what, now)?;
        let game = session.commit(&who.audit_name(), name, Effects::default(), now)?;
        Ok(Outcome { game, events })
    }
}

impl Session<'_> {
    /// The game as the session's actions left it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The variant, to keep beyond the session's borrow.
    pub fn shared_variant(&self) -> Rc<Variant> {
        Rc::clone(&self.variant)
    }

    /// Carries out one action: done whole, or (an error) not at all.
    pub fn execute(
        &mut self,
        who: &Actor,
        what: Action,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let mut changed = self.game.clone();
        let events = changed.execute(&self.variant, who, what, now)?;
        self.game = changed;
        self.record_events(&events);
        Ok(events)
    }

    /// [`Session::execute`] for a session of one action, which its caller drops on an
    /// error: the game is changed in place, without the copy that would let the session
    /// go on (the clock's and the command line's path, once per game).
    pub(super) fn execute_alone(
        &mut self,
        who: &Actor,
        what: Action,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, GameError> {
        let done = self.game.execute(&self.variant, who, what, now);
        match done {
            Ok(events) => {
                self.record_events(&events);
                Ok(events)
            }
            Err(e) => {
                self.spoiled = true;
                Err(e)
            }
        }
    }

    /// What the events call for at the commit: audit lines, notices, the phase record.
    fn record_events(&mut self, events: &[Event]) {
        for event in events {
            self.trace(event);
            match event {
                // Put in the results format here, once: the store keeps that form.
                Event::Processed { record, .. } => {
                    let game = self.game.id().to_string();
                    let marks = crate::game::phase_marks(record);
                    self.marks
                        .extend(marks.into_iter().map(|(address, mark)| Marked {
                            address: address.to_string(),
                            game: game.clone(),
                            index: record.index,
                            mark,
                        }));
                    self.record = Some(crate::report::phase_record(
                        &self.variant,
                        (**record).clone(),
                    ));
                }
                Event::RolledBack { index, .. } => {
                    self.drop_record = Some(*index);
                    let index = *index;
                    self.marks.retain(|m| m.index != index);
                }
                Event::Resigned { house } => {
                    if let Some(player) = self.game.seat(house).and_then(|s| s.player()) {
                        self.marks.push(Marked {
                            address: player.address().to_string(),
                            game: self.game.id().to_string(),
                            index: self.game.played(),
                            mark: RecordMark::Resigned,
                        });
                    }
                }
                Event::Seated { house, .. } | Event::AddressChanged { house, .. } => {
                    self.seated.push(house.clone());
                }
                _ => {}
            }
        }
    }

    /// Checks a sign-on's secret for a seat (a house's id; `None`: the moderator's).
    pub fn signs_on(&mut self, house: Option<&HouseKey>, secret: &str) -> bool {
        self.game.signs_on(house, secret)
    }

    /// What was asked and refused, or done beside the game's rules (a refused sign-on,
    /// press sent): its line and notices, as any event's.
    pub fn note(&mut self, event: Event) {
        self.trace(&event);
    }

    fn trace(&mut self, event: &Event) {
        let trace = event.trace();
        self.lines.extend(trace.line);
        if let Some(data) = trace.data {
            if !self.detail.is_empty() {
                self.detail.push('\n');
            }
            self.detail.push_str(&data);
        }
        self.notices.extend(trace.notices);
    }

    /// The phase this session processed, as the store will keep it.
    pub(super) fn record(&self) -> Option<&PhaseRecord> {
        self.record.as_ref()
    }

    /// This session processed or rolled back a phase already.
    pub fn phase_changed(&self) -> bool {
        self.record.is_some() || self.drop_record.is_some()
    }

    /// The last phase the game played, as the store holds it (before this session).
    pub fn last_phase(&self) -> Result<Option<PhaseRecord>, ServiceError> {
        self.service.last_phase(self.game.id())
    }

    /// The game before and after, the notices and the audit entry of the session (for a
    /// commit of the store that is not [`Session::commit`]'s).
    pub(super) fn into_parts(
        self,
        actor: &str,
        action: &str,
        now: DateTime<Utc>,
    ) -> (Game, Game, Vec<Notice>, Vec<AuditEntry>) {
        // Only the last deadline of a session is news: a mail that moves it ten times
        // (`RÉGLER ÉCHÉANCE`, `PROLONGER`) mails every player once, not ten times.
        let last_deadline = self
            .notices
            .iter()
            .rposition(|(kind, _)| matches!(kind, NoticeKind::DeadlineChanged { .. }));
        let notices = self
            .notices
            .into_iter()
            .enumerate()
            .filter(|(i, (kind, _))| {
                !matches!(kind, NoticeKind::DeadlineChanged { .. }) || Some(*i) == last_deadline
            })
            .map(|(_, notice)| notice)
            .map(|(kind, houses)| Notice {
                game: self.game.id().to_string(),
                at: now,
                kind,
                houses,
            })
            .collect();
        let entries = if self.lines.is_empty() && self.detail.is_empty() {
            Vec::new()
        } else {
            vec![audit(now, actor, action, self.lines, self.detail)]
        };
        (self.before, self.game, notices, entries)
    }

    /// Stores the game and everything the session caused, with `extra` (mails, marks,
    /// counters), in one transaction; the trail's entry is `actor`'s `action`. Returns the
    /// game as stored.
    pub fn commit(
        mut self,
        actor: &str,
        action: &str,
        extra: Effects,
        now: DateTime<Utc>,
    ) -> Result<Game, ServiceError> {
        if self.spoiled {
            return Err(Bug::SpoiledSession.into());
        }
        let service = self.service;
        let record = self.record.clone();
        let drop_record = self.drop_record;
        let guards = std::mem::take(&mut self.guards);
        let fresh = self.fresh;
        let seated = std::mem::take(&mut self.seated);
        let mut marks = std::mem::take(&mut self.marks);
        let (before, game, notices, mut entries) = self.into_parts(actor, action, now);
        // As the game holds them at the end: the address and the time of each seat.
        let seats = seated
            .iter()
            .filter_map(|house| {
                let player = game.seat(house)?.player()?;
                Some(SeatTaken {
                    address: player.address().to_string(),
                    at: player.joined(),
                    game: game.id().to_string(),
                    house: house.to_string(),
                })
            })
            .collect();
        // However it ended (a last phase, votes, the moderator), once: the game's status
        // moves to finished in one session only.
        if before.status() != GameStatus::Finished && game.status() == GameStatus::Finished {
            marks.extend(
                crate::game::finished_marks(&game)
                    .into_iter()
                    .map(|address| Marked {
                        address: address.to_string(),
                        game: game.id().to_string(),
                        index: game.played(),
                        mark: RecordMark::Finished,
                    }),
            );
        }
        let author = |house: &Option<HouseKey>| {
            house
                .as_ref()
                .map_or_else(|| "moderator".to_string(), |h| format!("house:{h}"))
        };
        for broadcast in &extra.broadcasts {
            let detail =
                serde_json::to_string(broadcast).map_err(|e| Bug::Broadcast(e.to_string()))?;
            entries.push(audit(
                now,
                &author(&broadcast.house),
                BROADCAST,
                Vec::new(),
                detail,
            ));
        }
        for press in &extra.press {
            let detail = serde_json::to_string(press).map_err(|e| Bug::Broadcast(e.to_string()))?;
            entries.push(audit(now, &author(&press.house), PRESS, Vec::new(), detail));
        }
        service.store.commit(Commit {
            before: (!fresh).then_some(&before),
            game: Some(&game),
            record: record.as_ref(),
            drop_record,
            audit: entries,
            notices,
            mails: extra.mails,
            seen: extra.seen,
            replied: extra.replied,
            counted: extra.counted,
            guards,
            seats,
            standby: extra.standby,
            announced: extra.announced,
            marks,
            ..Commit::default()
        })?;
        Ok(game)
    }
}
