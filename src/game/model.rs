//! A game as the store keeps it: its settings, its seats (one per house of the setup),
//! the current position and the orders received for the phase being played.

use chrono::{DateTime, Utc};
use serde::de::Error as _;
use serde::{Deserialize, Serialize};

use crate::judge::{Edition, Phase, Position};
use crate::lang::Lang;
use crate::map::ProvinceId;
use crate::order::Order;

use super::calendar::{Absence, Schedule};
use super::span::Span;
use super::{Address, HouseKey, same_address};

/// Where a game stands in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Created, waiting for its players and the moderator's `start`.
    Forming,
    /// Phases are being played; deadlines run.
    Running,
    /// Deadlines stopped by the moderator; orders are still accepted.
    Paused,
    /// Won, drawn, conceded or abandoned.
    Finished,
}

/// What players may send each other through the judge (the mail issue enforces it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Press {
    /// Private messages between houses and broadcasts, signed.
    #[default]
    Full,
    /// Only messages to every house.
    Broadcast,
    /// Full press, and messages may be sent unsigned (grey press).
    Grey,
    /// No press at all.
    None,
}

/// The rules a moderator chose for one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub schedule: Schedule,
    pub press: Press,
    /// Consecutive phases without orders after which a house is in civil disorder.
    pub civil_disorder_after: u32,
    /// Supply centres that win at once; none: the setup's number.
    pub victory_centres: Option<u16>,
    /// After the winter of this year the leader wins; none: the variant's last year.
    pub last_year: Option<i32>,
    /// Language of the moderator's results and notices.
    pub lang: Lang,
    /// Whether people may observe the game (`OBSERVER`); the moderator may forbid it.
    #[serde(default = "allowed")]
    pub observers: bool,
    /// Whether the judge's mails carry the board's picture (results, welcome, `CARTE`);
    /// the moderator turns it off for players on slow links. The texts stay whole.
    #[serde(default = "allowed")]
    pub pictures: bool,
    // Creating a game, who plays, summary.
    /// Whether `WHOGAME` and `SUMMARY` show the players' addresses to anyone who asks;
    /// hidden unless the moderator shows them (and in games stored before the setting).
    #[serde(default)]
    pub show_addresses: bool,
    /// Whether the mail that ends the game says who sent each grey press message; off
    /// unless the moderator turns it on (and in games stored before the setting).
    #[serde(default)]
    pub reveal_grey: bool,
    /// Joining: free seats may be taken by mail (`JOIN`), vacant ones at once
    /// (`TAKEOVER`); off in games stored before the setting existed.
    #[serde(default)]
    pub open: bool,
    /// An open game starts by itself when its last seat is taken.
    #[serde(default = "allowed")]
    pub start_when_full: bool,
    /// Houses in civil disorder and vacant seats are played by the built-in
    /// player (`src/bot`) when they have no orders; off in games stored before it.
    #[serde(default)]
    pub bots: bool,
    /// The rulebook edition the game is adjudicated under; stored only when it is not
    /// the default (2023), so games stored before the setting read as they were.
    #[serde(default, skip_serializing_if = "Edition::is_default")]
    pub rules: Edition,
    /// The reliability (percent, `PlayerRecord::reliability`) an address needs to take a
    /// seat by mail (`JOIN`, `TAKEOVER`); 0, the default, asks none. Stored only when set.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_reliability: u8,
    /// The game started with a strength-1 garrison in each home centre of each house in
    /// play (`game new --garrisons`). Stored only when set.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub garrisons: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Observers are allowed unless the moderator said otherwise (and in games stored before
/// the setting existed).
fn allowed() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            schedule: Schedule::default(),
            press: Press::Full,
            civil_disorder_after: 2,
            victory_centres: None,
            last_year: None,
            lang: Lang::Fr,
            observers: true,
            pictures: true,
            show_addresses: false,
            reveal_grey: false,
            open: false,
            start_when_full: true,
            bots: false,
            rules: Edition::default(),
            min_reliability: 0,
            garrisons: false,
        }
    }
}

/// The person playing a house.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub(in crate::game) address: Address,
    /// The player's secret, salted and hashed (PHC string); never the secret itself.
    pub(in crate::game) secret: String,
    pub(in crate::game) lang: Lang,
    pub(in crate::game) joined: DateTime<Utc>,
    /// Mail to this address came back undelivered (a bounce, or a permanent refusal of
    /// the mail server): shown to the moderator until the address changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) bounced: Option<Bounced>,
    /// The time zone the player reads deadlines in (`SET ZONE`); none: the game's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) zone: Option<chrono_tz::Tz>,
    /// The player asked for mails without the board's picture (`SET PICTURES off`,
    /// docs/email.md, "Pictures"). Stored only when set: a game stored before reads
    /// as pictures on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(in crate::game) no_pictures: bool,
}

/// A delivery failure recorded against a player's address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bounced {
    pub at: DateTime<Utc>,
    /// Why, as the mail system said it.
    pub reason: String,
}

/// The game's moderator, who may act by mail with their own secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Moderator {
    pub address: Address,
    pub secret: String,
}

/// Someone who receives a game's results and notices without playing; the secret (hashed)
/// lets them stop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observer {
    pub address: Address,
    pub secret: String,
    pub lang: Lang,
    pub since: DateTime<Utc>,
}

/// A request to observe the game, waiting for the address to confirm it with the token
/// the judge mailed there: nobody is subscribed without their consent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObserverRequest {
    pub address: Address,
    /// The token, salted and hashed (PHC string).
    pub token: String,
    pub lang: Lang,
    pub asked: DateTime<Utc>,
    /// The token is refused after this time.
    pub expires: DateTime<Utc>,
}

/// A vote to end the game; `H`, the house conceded to (as written, `String`, in a
/// command not yet read against the game).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "vote", content = "house", rename_all = "lowercase")]
pub enum Vote<H = HouseKey> {
    /// A draw shared by every house still in the game.
    Draw,
    /// Concede the game to this house.
    Concede(H),
    // Draws naming houses.
    /// A draw shared by these houses only; a voter left out of them concedes its place.
    #[serde(rename = "draw-with")]
    DrawWith(Vec<H>),
}

/// One order kept for the phase being played, as it was parsed when received: the reply,
/// the moderator's trial and the deadline use it without reading the line again. Its text
/// as written and its line in what the player sent are the order's own (`order.text`,
/// `order.span`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredOrder {
    /// The province of the unit ordered (a build: the province built in), when the judge
    /// could find it; a partial resubmission replaces the orders with the same key.
    #[serde(with = "crate::map::scope::province_opt")]
    pub unit: Option<ProvinceId>,
    pub order: Order,
}

/// Orders stored before they were kept parsed (`{"unit": "win", "text": "A Win H"}`) are
/// read by parsing their text once more, with the game's variant.
impl<'de> Deserialize<'de> for StoredOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StoredOrder, D::Error> {
        #[derive(Deserialize)]
        struct Written {
            #[serde(default, with = "crate::map::scope::province_opt")]
            unit: Option<ProvinceId>,
            #[serde(default)]
            order: Option<Order>,
            #[serde(default)]
            text: Option<String>,
        }
        let written = Written::deserialize(d)?;
        let order = match (written.order, written.text) {
            (Some(order), _) => order,
            (None, Some(text)) => {
                super::orders::read_stored_text(&text).map_err(D::Error::custom)?
            }
            (None, None) => return Err(D::Error::missing_field("order")),
        };
        Ok(StoredOrder {
            unit: written.unit,
            order,
        })
    }
}

/// How a set of orders was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubmitMode {
    /// The set replaces every order of the house.
    #[default]
    Replace,
    /// The set replaces only the orders of the units it names.
    Partial,
}

/// An order set as received, kept in the phase's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    pub house: HouseKey,
    pub at: DateTime<Utc>,
    /// Where it came from: `cli`, `mail <message-id>`, `moderator`.
    pub source: String,
    pub mode: SubmitMode,
    pub text: String,
}

/// A house's place in the game: its player, and its orders for the current phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    /// The house id in the variant.
    pub(in crate::game) house: HouseKey,
    pub(in crate::game) player: Option<Player>,
    pub(in crate::game) orders: Vec<StoredOrder>,
    /// When the house last gave orders this phase (none: not yet).
    pub(in crate::game) ordered: Option<DateTime<Utc>>,
    /// Ready to have the phase processed before the deadline.
    pub(in crate::game) ready: bool,
    /// Consecutive phases with something to decide and no orders.
    pub(in crate::game) missed: u32,
    pub(in crate::game) civil_disorder: bool,
    pub(in crate::game) vote: Option<Vote>,
    pub(in crate::game) absences: Vec<Absence>,
    /// The player resigned; the seat waits for a replacement.
    pub(in crate::game) resigned: bool,
    /// The players who held the seat before, oldest first (kept since strangers may take seats by mail: a
    /// seat stored before holds none, docs/storage.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) past: Vec<PastPlayer>,
    /// Orders written ahead for later phases (`PHASE` blocks), one a phase, in the
    /// order of their phases; none in seats stored before they existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) ahead: Vec<AheadBlock>,
    /// The phase the house fell into civil disorder at (missed deadlines, or its player
    /// left); none while it is not, and in seats stored before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) disorder_since: Option<Phase>,
    /// The phases whose orders the built-in player gave this house, oldest first; none in
    /// seats stored before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) bot_phases: Vec<Phase>,
}

/// Orders written ahead for a later phase (a mail's `PHASE` block): its lines kept as
/// written, with their numbers in the mail, read as orders only when the phase begins,
/// against the position then.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AheadBlock {
    pub phase: Phase,
    pub lines: Vec<(usize, String)>,
    /// `READY` / `NOT READY` (`SET NOWAIT` / `SET WAIT`) written in the block: the
    /// house's readiness once the block is its orders; none: not ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<bool>,
    /// Where it came from, as a submission says it (`mail <message-id>`).
    pub source: String,
    pub at: DateTime<Utc>,
}

/// A player who left a seat, for the game's summary (`SUMMARY`, the game-over mail).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PastPlayer {
    pub address: Address,
    pub joined: DateTime<Utc>,
    pub left: DateTime<Utc>,
    pub how: Leaving,
}

/// How a player left a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Leaving {
    /// The moderator gave the seat to someone else.
    Replaced,
    /// The moderator removed the player.
    Removed,
    /// The player resigned, and someone took the seat.
    Resigned,
}

impl Seat {
    pub fn new(house: HouseKey) -> Seat {
        Seat {
            house,
            player: None,
            orders: Vec::new(),
            ordered: None,
            ready: false,
            missed: 0,
            civil_disorder: false,
            vote: None,
            absences: Vec::new(),
            resigned: false,
            past: Vec::new(),
            ahead: Vec::new(),
            disorder_since: None,
            bot_phases: Vec::new(),
        }
    }

    /// Puts the house in civil disorder at `phase`, or takes it out (`None`): the flag
    /// and the phase it began at move together.
    pub(in crate::game) fn set_disorder(&mut self, phase: Option<Phase>) {
        if phase.is_none() || !self.civil_disorder {
            self.disorder_since = phase;
        }
        self.civil_disorder = phase.is_some();
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Ending {
    /// One house won (by centres, at the last year, or by the moderator's decision).
    Win {
        houses: Vec<HouseKey>,
        reason: String,
    },
    /// A draw shared by these houses.
    Draw { houses: Vec<HouseKey> },
    /// Every other house conceded to this one.
    Concession { house: HouseKey },
    /// Stopped by the moderator without a result.
    Abandoned,
}

/// One game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Short name used in commands and mail subjects (`westeros-1`).
    pub(in crate::game) id: String,
    pub(in crate::game) name: String,
    /// The variant as it was when the game was created (or moved to a new version by the
    /// moderator): its name for people, the hash of the content the store keeps.
    pub(in crate::game) variant: crate::map::PinnedVariant,
    /// The number of players of the setup.
    pub(in crate::game) players: u8,
    pub(in crate::game) status: GameStatus,
    pub(in crate::game) settings: Settings,
    pub(in crate::game) moderator: Option<Moderator>,
    pub(in crate::game) seats: Vec<Seat>,
    /// The current position (stored in the position format, docs/position-format.md).
    #[serde(with = "crate::position::stored")]
    pub(in crate::game) position: Position,
    pub(in crate::game) phase: Phase,
    /// Phases processed so far: the history index of the current phase.
    pub(in crate::game) played: u32,
    /// When the current phase opened (none before the start).
    pub(in crate::game) opened: Option<DateTime<Utc>>,
    pub(in crate::game) deadline: Option<DateTime<Utc>>,
    /// How much the current phase's deadline was extended.
    pub(in crate::game) extended: Span,
    /// Reminders already sent for this phase.
    pub(in crate::game) reminders_sent: u32,
    /// While paused: the time that was left before the deadline.
    pub(in crate::game) paused_left: Option<i64>,
    /// Order sets received this phase, moved to the history when it is processed.
    pub(in crate::game) submissions: Vec<Submission>,
    pub(in crate::game) created: DateTime<Utc>,
    pub(in crate::game) ending: Option<Ending>,
    /// Houses with something to decide in the current phase (set when it opens).
    #[serde(default)]
    pub(in crate::game) deciding: Vec<HouseKey>,
    /// When the judge must next look at the game (deadline, grace, reminder); the store
    /// indexes games by it so that `tick` reads only the games due.
    pub(in crate::game) wake: Option<DateTime<Utc>>,
    /// People who receive the results without playing (`OBSERVE` by mail).
    #[serde(default)]
    pub(in crate::game) observers: Vec<Observer>,
    /// The current deadline as it was before declared absences moved it this phase (none:
    /// not moved): `max_absence` is counted from it, whatever pause or extension came
    /// between.
    #[serde(default)]
    pub(in crate::game) absence_base: Option<DateTime<Utc>>,
    /// The players without orders were told that the deadline passed and the grace period
    /// runs (once per phase).
    #[serde(default)]
    pub(in crate::game) grace_told: bool,
    /// Requests to observe, waiting for their address to confirm.
    #[serde(default)]
    pub(in crate::game) observer_requests: Vec<ObserverRequest>,
    /// Joining: requests to take a house (`TAKEOVER`) waiting for the
    /// moderator's `APPROVE` or `REJECT`, one a house at most.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) seat_requests: Vec<SeatRequest>,
    /// The addresses a token to confirm a `JOIN` or `TAKEOVER` went to, while it is good:
    /// a repeat of the request is not mailed again (bounded: `rules::consent`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) consent_asked: Vec<ConsentAsked>,
}

/// A token to confirm a seat was mailed to this address; it is good until `expires`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsentAsked {
    pub address: Address,
    pub expires: DateTime<Utc>,
}

/// What the judge knows of an address that asks for a house, for the moderator who
/// decides: read from every game of the judge when it is shown.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AskerHistory {
    /// Games in which the address holds a seat now (resigned seats aside).
    pub playing: usize,
    /// Games in which it held a seat and left it (replaced, removed, resigned).
    pub left: usize,
    /// Games it moderates.
    pub moderating: usize,
    /// Times a moderator removed it from a seat.
    pub removed: usize,
    /// The first time the judge saw it seated, if ever.
    pub first_seen: Option<DateTime<Utc>>,
}

impl AskerHistory {
    /// The history of `address` in `games`.
    pub fn of<'g>(games: impl IntoIterator<Item = &'g Game>, address: &str) -> AskerHistory {
        let mut h = AskerHistory::default();
        let seen = |t: DateTime<Utc>, h: &mut AskerHistory| {
            h.first_seen = Some(h.first_seen.map_or(t, |f| f.min(t)));
        };
        for g in games {
            if g.moderator
                .as_ref()
                .is_some_and(|m| same_address(&m.address, address))
            {
                h.moderating += 1;
                seen(g.created, &mut h);
            }
            let mut plays = false;
            let mut played = false;
            for seat in &g.seats {
                if let Some(p) = seat
                    .player
                    .as_ref()
                    .filter(|p| same_address(&p.address, address))
                {
                    seen(p.joined, &mut h);
                    if seat.resigned {
                        played = true;
                    } else {
                        plays = true;
                    }
                }
                for past in seat
                    .past
                    .iter()
                    .filter(|p| same_address(&p.address, address))
                {
                    seen(past.joined, &mut h);
                    played = true;
                    if past.how == Leaving::Removed {
                        h.removed += 1;
                    }
                }
            }
            if plays {
                h.playing += 1;
            } else if played {
                h.left += 1;
            }
        }
        h
    }
}

/// An address asking for a house, waiting for the moderator's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatRequest {
    pub house: HouseKey,
    pub address: Address,
    /// The language the address wrote in: its welcome, or its refusal, is in it.
    pub lang: Lang,
    pub asked: DateTime<Utc>,
}

impl Game {
    /// The seat of a house (its key, or its id as the variant writes it).
    pub fn seat(&self, house: impl AsRef<str>) -> Option<&Seat> {
        let house = house.as_ref();
        self.seats.iter().find(|s| s.house == house)
    }

    pub(crate) fn seat_mut(&mut self, house: impl AsRef<str>) -> Option<&mut Seat> {
        let house = house.as_ref();
        self.seats.iter_mut().find(|s| s.house == house)
    }

    /// Every absence declared by the game's players.
    pub fn absences(&self) -> Vec<Absence> {
        self.seats
            .iter()
            .flat_map(|s| s.absences.iter().copied())
            .collect()
    }
}

/// Why a phase was processed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Trigger {
    /// The deadline (and grace period) passed.
    Deadline,
    /// Every house with something to decide was ready.
    Ready,
    /// The moderator's `process`.
    Moderator,
}

/// One processed phase, kept for ever: what it started from, what was received, what the
/// judge decided. The game makes it with the judge's decision (`R` =
/// [`crate::game::Adjudicated`]); the report layer puts that in the results format
/// (`report::phase_record`), once, and the store keeps that form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhaseRecord<R = super::results::PhaseResults> {
    /// Its place in the game's history, from 0.
    pub index: u32,
    pub phase: Phase,
    pub opened: Option<DateTime<Utc>>,
    pub deadline: Option<DateTime<Utc>>,
    pub processed: DateTime<Utc>,
    pub trigger: Trigger,
    #[serde(with = "crate::position::stored")]
    pub position_before: Position,
    pub submissions: Vec<Submission>,
    /// The orders adjudicated, per house.
    pub orders: Vec<(HouseKey, Vec<String>)>,
    /// The results (docs/results-format.md).
    pub results: R,
    #[serde(with = "crate::position::stored")]
    pub position_after: Position,
    /// Houses that fell into civil disorder at this phase.
    pub civil_disorder: Vec<HouseKey>,
    /// Houses that had something to decide and gave no orders (those already in civil
    /// disorder left out).
    #[serde(default)]
    pub missed: Vec<HouseKey>,
    /// The game ended with this phase.
    pub ending: Option<Ending>,
    /// The houses whose orders the built-in player gave (their orders are in
    /// `orders`); none in records written before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<HouseKey>,
    /// The game just before processing: what `rollback` restores.
    pub game_before: Box<Game>,
}

impl<R> PhaseRecord<R> {
    /// Its number as people read it, from 1: the same in `game show` (the phase being
    /// played is the next number), `history`, the results and the page.
    pub fn number(&self) -> u32 {
        self.index + 1
    }

    /// The same record with its results in another form: the judge's decision put in
    /// the results format by the report layer.
    pub fn with_results<S>(self, results: S) -> PhaseRecord<S> {
        PhaseRecord {
            index: self.index,
            phase: self.phase,
            opened: self.opened,
            deadline: self.deadline,
            processed: self.processed,
            trigger: self.trigger,
            position_before: self.position_before,
            submissions: self.submissions,
            orders: self.orders,
            results,
            position_after: self.position_after,
            civil_disorder: self.civil_disorder,
            missed: self.missed,
            ending: self.ending,
            bots: self.bots,
            game_before: self.game_before,
        }
    }
}

/// One line of a game's audit trail: every moderator action and judge decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    pub at: DateTime<Utc>,
    /// `moderator`, `judge`, or `house:<id>`.
    pub actor: String,
    /// `create`, `start`, `process`, `rollback`, `edit-position`, …
    pub action: String,
    /// What happened, worded when shown (docs/storage.md, "Audit trail"); empty in the
    /// entries written before these lines existed, whose `detail` says it in English.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<super::audit::AuditLine>,
    /// Data kept with the lines, not a sentence: a broadcast as JSON, the positions
    /// before and after an edit; in older entries, the English sentence.
    #[serde(default)]
    pub detail: String,
}

/// Something players or the moderator must be told, queued in the same transaction as
/// the change that caused it; the mail layer turns it into mails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub game: String,
    pub at: DateTime<Utc>,
    pub kind: NoticeKind,
    /// The houses concerned (empty: every player and the moderator).
    pub houses: Vec<HouseKey>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NoticeKind {
    Started,
    /// The results of the phase with this history index.
    Results {
        index: u32,
    },
    /// A reminder to houses without orders, with the deadline.
    Reminder {
        deadline: DateTime<Utc>,
    },
    PlayerReplaced {
        house: HouseKey,
    },
    /// A player resigned: the moderator should find someone for the house.
    Resigned {
        house: HouseKey,
    },
    DeadlineChanged {
        deadline: DateTime<Utc>,
    },
    Paused,
    Resumed,
    RolledBack {
        phase: Phase,
    },
    GameOver,
    /// The deadline passed without these houses' orders: the judge waits for them until
    /// `until`, the end of the grace period.
    Grace {
        deadline: DateTime<Utc>,
        until: DateTime<Utc>,
    },
    /// A house gave no orders for a phase (told to its player and the moderator);
    /// `missed`: phases in a row.
    Missed {
        house: HouseKey,
        phase: Phase,
        missed: u32,
    },
    /// A house fell into civil disorder (told to its player and the moderator).
    CivilDisorder {
        house: HouseKey,
        phase: Phase,
    },
    /// Mail to a participant's address could not be delivered (a bounce, or a mail server
    /// that refused it for good): told to the moderator only.
    Undeliverable {
        /// The house whose player's address failed, if it is a player's.
        house: Option<HouseKey>,
        address: Address,
        reason: String,
    },
    /// Sign-ons as this house (none: as the moderator) failed again and again, since
    /// `since`; none was refused unchecked. Told to the house's player and the moderator,
    /// once until the owner signs on. (A notice of the lockouts of earlier versions reads
    /// as this one, its end as `since`.)
    #[serde(alias = "sign-on-throttled")]
    SignOnFailures {
        house: Option<HouseKey>,
        #[serde(default)]
        failures: u32,
        #[serde(alias = "until")]
        since: DateTime<Utc>,
    },
    // Joining a game.
    /// A stranger took a free seat by `JOIN` (or a vacant one by `TAKEOVER`): told to the
    /// moderator, with the seats still free, and whether the game started, full.
    Joined {
        house: HouseKey,
        address: Address,
        left: usize,
        started: bool,
    },
    /// An address asks for a house (`TAKEOVER`): told to the moderator, who answers
    /// `APPROVE` or `REJECT`.
    SeatAsked {
        house: HouseKey,
        address: Address,
    },
    /// The house was given to someone else, or its player removed: told to the outgoing
    /// player's address only, in their language.
    SeatLost {
        house: HouseKey,
        address: Address,
        lang: Lang,
        removed: bool,
    },
    /// The moderator refused a request for the house: told to the address that asked.
    SeatRefused {
        house: HouseKey,
        address: Address,
        lang: Lang,
    },
    // Orders for later phases.
    /// The house's orders written ahead for the phase that just began became its orders
    /// (`refused`: the judge refused them then, and the house has none): told to its
    /// player, with the lines as written.
    AheadActivated {
        house: HouseKey,
        phase: Phase,
        lines: Vec<(usize, String)>,
        refused: bool,
        /// The block said `READY` (`SET NOWAIT`), and the house is ready.
        #[serde(default)]
        ready: bool,
    },
    /// The house's orders written ahead for a phase were not used, and why: told to its
    /// player, with the lines as written.
    AheadDropped {
        house: HouseKey,
        phase: Phase,
        lines: Vec<(usize, String)>,
        why: AheadDrop,
    },
}

/// Why orders written ahead were not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AheadDrop {
    /// The game went past the phase without playing it (no retreat because nothing was
    /// dislodged, no adjustment because nothing changed).
    NeverCame,
    /// The phase began, but the house had nothing to decide in it.
    NothingToDecide,
    /// The game ended before the phase.
    GameOver,
}

/// Read access: only the game changes a game (`Game::execute`).
impl Game {
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn variant(&self) -> &crate::map::PinnedVariant {
        &self.variant
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn status(&self) -> GameStatus {
        self.status
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn moderator(&self) -> Option<&Moderator> {
        self.moderator.as_ref()
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn played(&self) -> u32 {
        self.played
    }

    pub fn opened(&self) -> Option<DateTime<Utc>> {
        self.opened
    }

    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        self.deadline
    }

    pub fn extended(&self) -> Span {
        self.extended
    }

    pub fn reminders_sent(&self) -> u32 {
        self.reminders_sent
    }

    pub fn paused_left(&self) -> Option<i64> {
        self.paused_left
    }

    pub fn submissions(&self) -> &[Submission] {
        &self.submissions
    }

    pub fn created(&self) -> DateTime<Utc> {
        self.created
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    pub fn deciding(&self) -> &[HouseKey] {
        &self.deciding
    }

    pub fn wake(&self) -> Option<DateTime<Utc>> {
        self.wake
    }

    pub fn observers(&self) -> &[Observer] {
        &self.observers
    }

    pub fn absence_base(&self) -> Option<DateTime<Utc>> {
        self.absence_base
    }

    pub fn grace_told(&self) -> bool {
        self.grace_told
    }

    pub fn observer_requests(&self) -> &[ObserverRequest] {
        &self.observer_requests
    }

    /// The requests to take a house waiting for the moderator (`TAKEOVER`).
    pub fn consent_asked(&self) -> &[ConsentAsked] {
        &self.consent_asked
    }

    pub fn seat_requests(&self) -> &[SeatRequest] {
        &self.seat_requests
    }

    /// The houses nobody plays (never taken, or resigned), in the variant's order: those
    /// `JOIN` and `LIST` offer.
    pub fn free_houses(&self) -> Vec<HouseKey> {
        self.seats
            .iter()
            .filter(|s| s.player.is_none() || s.resigned)
            .map(|s| s.house.clone())
            .collect()
    }
}

/// Read access: only the game changes a seat (`Game::execute`).
impl Seat {
    pub fn house(&self) -> &HouseKey {
        &self.house
    }

    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }

    pub fn orders(&self) -> &[StoredOrder] {
        &self.orders
    }

    pub fn ordered(&self) -> Option<DateTime<Utc>> {
        self.ordered
    }

    pub fn ready(&self) -> bool {
        self.ready
    }

    pub fn missed(&self) -> u32 {
        self.missed
    }

    pub fn civil_disorder(&self) -> bool {
        self.civil_disorder
    }

    /// The phase the house fell into civil disorder at, when it is in it and the game
    /// kept it.
    pub fn disorder_since(&self) -> Option<Phase> {
        self.disorder_since.filter(|_| self.civil_disorder)
    }

    /// The phases the built-in player gave this house's orders for, oldest first.
    pub fn bot_phases(&self) -> &[Phase] {
        &self.bot_phases
    }

    pub fn vote(&self) -> Option<&Vote> {
        self.vote.as_ref()
    }

    pub fn absences(&self) -> &[Absence] {
        &self.absences
    }

    /// The players who held the seat before, oldest first.
    pub fn past(&self) -> &[PastPlayer] {
        &self.past
    }

    pub fn resigned(&self) -> bool {
        self.resigned
    }

    /// The orders written ahead for later phases, in the order of their phases.
    pub fn ahead(&self) -> &[AheadBlock] {
        &self.ahead
    }
}

/// Read access: only the game changes a player (`Game::execute`).
impl Player {
    pub fn address(&self) -> &Address {
        &self.address
    }

    pub fn secret(&self) -> &str {
        &self.secret
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn joined(&self) -> DateTime<Utc> {
        self.joined
    }

    pub fn bounced(&self) -> Option<&Bounced> {
        self.bounced.as_ref()
    }

    /// Whether the player's results and notices carry the board's picture.
    pub fn pictures(&self) -> bool {
        !self.no_pictures
    }

    /// The time zone the player chose to read deadlines in, if any.
    pub fn zone(&self) -> Option<chrono_tz::Tz> {
        self.zone
    }
}
