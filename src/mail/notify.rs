//! Queued notices (results, reminders, the game's events) turned into mails: one per
//! recipient, in the recipient's language. A notice and its mails change places in one
//! transaction, so a crash never loses the news nor tells it twice.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::Config;
use crate::game::{Game, HouseKey, Notice, NoticeKind, PhaseRecord};
use crate::lang::Lang;
use crate::map::{Variant, VariantHash};
use crate::report::game_text::{Audience, Reader, ending_text, phase_text, record_results_for};
use crate::report::summary::{grey_authors_text, summary_body};
use crate::report::{PhaseAsk, format_deadline};
use crate::service::{HeldNotice, NoticeTold, REPLY_WINDOW, Replied, Service, ServiceError};
use rayon::prelude::*;

use super::board;
use super::compose::{compose, mail, subject};
use super::outmail::{Attachment, OutMail};
use super::pass::Hold;

/// Turns every queued notice into mails in the outbox, and the notices held back by the
/// moderators' cap into their digest once their hour is over; returns how many mails.
pub fn queue_notices(
    service: &Service,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<Notified, ServiceError> {
    queue_notices_holding(&mut Hold::Open(service), config, now)
}

/// [`queue_notices`] getting the store from `hold`, let go between two notices when
/// another process waits for it.
pub fn queue_notices_holding(
    hold: &mut Hold<'_>,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<Notified, ServiceError> {
    queue_notices_streaming(hold, config, now, |_| Ok(()))
}

/// How many notices a run holds, per thread of the pool: a run's notices are told in one
/// transaction, and its mails then sent.
const RUN_PER_THREAD: usize = 2;

/// How many runs have their pictures drawn ahead of the one being written: a deadline's
/// notices are mostly not results (a game's reminders and news come with them), so a run
/// may hold one picture or none, and one run ahead would leave cores idle. Few enough that
/// the pictures in hand stay a few megabytes.
const RUNS_AHEAD: usize = 3;

/// [`queue_notices_holding`], calling `between` after each run of notices told (the
/// pass drains the outbox there, so that a deadline's thousands of mails leave as they
/// are written instead of waiting in the store for the last one). The notices are read a
/// run at a time, whatever their number. The pictures of the next runs' results are
/// drawn on every core (rayon's threads, which live as long as the process) while a run
/// is written and sent; the store stays on this thread.
pub fn queue_notices_streaming(
    hold: &mut Hold<'_>,
    config: &Config,
    now: DateTime<Utc>,
    mut between: impl FnMut(&mut Hold<'_>) -> Result<(), ServiceError>,
) -> Result<Notified, ServiceError> {
    let mut notified = Notified::default();
    notified.queued += queue_digests(hold.service()?, config, now)?;
    let per_run = rayon::current_num_threads().max(1) * RUN_PER_THREAD;
    let mut drawing = Drawing::new();
    // The runs read and being drawn, by number; the last notice read; whether the queue
    // was read to its end.
    let mut ahead: VecDeque<(usize, Vec<(u64, Notice)>)> = VecDeque::new();
    let mut after = None;
    let mut read_all = false;
    loop {
        // Writing mails takes the store, drawing only the cores.
        while !read_all && ahead.len() <= RUNS_AHEAD {
            let chunk = hold.service()?.pending_notices_after(after, per_run)?;
            let Some(&(last, _)) = chunk.last() else {
                read_all = true;
                break;
            };
            after = Some(last);
            let read = read_ahead(hold.service()?, &chunk, &mut drawing.variants)?;
            ahead.push_back((drawing.start(read), chunk));
        }
        let Some((run, chunk)) = ahead.pop_front() else {
            return Ok(notified);
        };
        let releases = hold.releases();
        drawing.wait_for(run);
        let mut told = Told::default();
        for (key, notice) in &chunk {
            queue_one(
                hold,
                config,
                now,
                (*key, notice),
                &mut drawing,
                &mut told,
                &mut notified,
            )?;
        }
        // The run's notices and their mails in one transaction, on disk, before any of
        // the mails goes to a transport: a crash then never tells a notice twice.
        told.write(hold.service()?)?;
        hold.service()?.sync()?;
        between(hold)?;
        // Another process had the store meanwhile: what was read for the runs ahead may
        // be of a phase since rolled back, or told since; they are read again.
        if hold.releases() != releases {
            drawing.forget_before(drawing.started);
            ahead.clear();
            after = chunk.last().map(|&(key, _)| key);
            read_all = false;
        }
    }
}

/// The pictures being drawn ahead, on rayon's threads: runs are numbered from 0 in the
/// order they are started, and their pictures come back by notice key.
struct Drawing {
    /// The pictures received, not yet taken by their mails.
    drawn: Drawn,
    sender: std::sync::mpsc::Sender<(usize, Drawn)>,
    receiver: std::sync::mpsc::Receiver<(usize, Drawn)>,
    /// How many runs were started.
    started: usize,
    /// The runs whose pictures came back.
    done: std::collections::HashSet<usize>,
    /// Runs numbered below this are of a store read before another process had it: their
    /// pictures are dropped when they come back.
    stale_below: usize,
    /// Each variant read, shared with the drawing threads: copied once per pass, as the
    /// store's own are not for other threads.
    variants: HashMap<VariantHash, Arc<Variant>>,
    /// The phases played that the pictures are drawn from, and their games, by notice
    /// key: their mails tell them without reading them again.
    records: HashMap<u64, (PhaseRecord, Game)>,
}

/// The notices of a run told so far, written to the store together, and the games they
/// read (a game's notices follow one another: it is read once for them all).
#[derive(Default)]
struct Told {
    notices: Vec<NoticeTold>,
    games: HashMap<String, (Rc<Variant>, Game)>,
}

impl Told {
    /// Writes the notices told so far, in one transaction (not yet synced).
    fn write(&mut self, service: &Service) -> Result<(), ServiceError> {
        service.notices_told_unsynced(&self.notices)?;
        self.notices.clear();
        Ok(())
    }
}

impl Drawing {
    fn new() -> Drawing {
        let (sender, receiver) = std::sync::mpsc::channel();
        Drawing {
            drawn: Drawn::new(),
            sender,
            receiver,
            started: 0,
            done: Default::default(),
            stale_below: 0,
            variants: HashMap::new(),
            records: HashMap::new(),
        }
    }

    /// Starts drawing a run's pictures (a run without any counts as started all the same);
    /// returns its number.
    fn start(&mut self, read: Vec<Ahead>) -> usize {
        for (key, game, record, _, _) in &read {
            self.records.insert(*key, (record.clone(), game.clone()));
        }
        let run = self.started;
        self.started += 1;
        let sender = self.sender.clone();
        rayon::spawn(move || {
            // A drawing that failed leaves its pictures to be drawn with their mails.
            let drawn =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| draw(jobs(&read))))
                    .unwrap_or_default();
            // Nobody waits any more when the pass stopped on an error.
            let _ = sender.send((run, drawn));
        });
        run
    }

    /// Waits until the pictures of `run` came back (those of other runs that come first
    /// are kept for their turn).
    fn wait_for(&mut self, run: usize) {
        while run < self.started && !self.done.contains(&run) {
            let Ok((came, drawn)) = self.receiver.recv() else {
                return;
            };
            self.done.insert(came);
            if came >= self.stale_below {
                self.drawn.extend(drawn);
            }
        }
    }

    /// Drops the pictures in hand, and those of runs below `run` still being drawn.
    fn forget_before(&mut self, run: usize) {
        self.drawn.clear();
        self.records.clear();
        self.stale_below = run;
    }
}

/// Pictures drawn ahead for a run of notices: by notice key, by language.
type Drawn = HashMap<u64, HashMap<Lang, Option<Attachment>>>;

/// What a results notice's pictures are drawn from: its key, its game, the phase played,
/// the variant, and the languages of its readers who take pictures.
type Ahead = (u64, Game, PhaseRecord, Arc<Variant>, Vec<Lang>);

/// What the results notices of `chunk` need to have their pictures drawn ahead: one per
/// game and language of its readers who take pictures, as `mails_for` would draw them.
/// A game that cannot be read here is left to `mails_for`.
fn read_ahead(
    service: &Service,
    chunk: &[(u64, Notice)],
    variants: &mut HashMap<VariantHash, Arc<Variant>>,
) -> Result<Vec<Ahead>, ServiceError> {
    let mut read = Vec::new();
    for (key, notice) in chunk {
        let NoticeKind::Results { index } = notice.kind else {
            continue;
        };
        let Ok(Some(game)) = service.find_game(&notice.game) else {
            continue;
        };
        if !game.settings().pictures {
            continue;
        }
        let Ok(Some(record)) = service.game_phase(&game, index) else {
            continue;
        };
        let hash = game.variant().hash.clone();
        let variant = match variants.get(&hash) {
            Some(variant) => Arc::clone(variant),
            None => {
                let Ok(variant) = service.variant(game.variant()) else {
                    continue;
                };
                let shared = Arc::new(Variant::clone(&variant));
                variants.insert(hash, Arc::clone(&shared));
                shared
            }
        };
        let mut langs: Vec<Lang> = recipients(&game, notice)
            .into_iter()
            .filter(|(address, _)| wants_picture(&game, address))
            .map(|(_, lang)| lang)
            .collect();
        langs.sort_by_key(|l| l.code());
        langs.dedup();
        read.push((*key, game, record, variant, langs));
    }
    Ok(read)
}

/// One picture to draw: the notice's key, the language, what it is drawn from.
type Job<'a> = (u64, Lang, &'a Variant, &'a Game, &'a PhaseRecord);

/// The pictures of `read`, one a game and language. The variants are the store's, not
/// shared across threads: the drawing borrows them.
fn jobs(read: &[Ahead]) -> Vec<Job<'_>> {
    read.iter()
        .flat_map(|(key, game, record, variant, langs)| {
            langs
                .iter()
                .map(move |lang| (*key, *lang, &**variant, game, record))
        })
        .collect()
}

/// Draws `jobs` side by side, on every core.
fn draw(jobs: Vec<Job<'_>>) -> Drawn {
    let pictures: Vec<(u64, Lang, Option<Attachment>)> = jobs
        .into_par_iter()
        .map(|(key, lang, variant, game, record)| {
            (
                key,
                lang,
                board::phase_attachment(variant, game, record, lang),
            )
        })
        .collect();
    let mut drawn = Drawn::new();
    for (key, lang, picture) in pictures {
        drawn.entry(key).or_default().insert(lang, picture);
    }
    drawn
}

/// One notice turned into its mails, told in one transaction.
fn queue_one(
    hold: &mut Hold<'_>,
    config: &Config,
    now: DateTime<Utc>,
    (key, notice): (u64, &Notice),
    drawing: &mut Drawing,
    told: &mut Told,
    notified: &mut Notified,
) -> Result<(), ServiceError> {
    {
        if notified.held.iter().any(|(id, _)| *id == notice.game) {
            return Ok(());
        }
        let released = hold.breathe_after(|service| told.write(service));
        if released {
            // Another process had the store: what was drawn or read may be of a phase
            // since rolled back.
            drawing.drawn.clear();
            drawing.records.clear();
            told.games.clear();
        }
        let pictures = drawing.drawn.remove(&key).unwrap_or_default();
        let (record, drawn_game) = match drawing.records.remove(&key) {
            Some((record, game)) => (Some(record), Some(game)),
            None => (None, None),
        };
        let service = hold.service()?;
        // Told by a pass that took the store while this one let it go.
        if released
            && !service
                .pending_notices_after(key.checked_sub(1), 1)?
                .iter()
                .any(|(other, _)| *other == key)
        {
            return Ok(());
        }
        // A game that cannot be read (its store damaged) keeps its notices queued, and
        // holds back no other game's.
        let read = match told.games.get(&notice.game) {
            Some(known) => Ok(Some(known.clone())),
            // Read with the phase its picture was drawn from, the store unchanged since.
            None => match drawn_game {
                Some(game) => Ok(Some(game)),
                None => service.find_game(&notice.game),
            }
            .and_then(|game| match game {
                Some(game) => Ok(Some((service.variant(game.variant())?, game))),
                None => Ok(None),
            }),
        };
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                notified.held.push((notice.game.clone(), e));
                return Ok(());
            }
        };
        let mails = match &read {
            Some((variant, game)) => {
                let first = mails_for(
                    service,
                    config,
                    game,
                    variant,
                    notice,
                    (pictures, record),
                    now,
                );
                match first {
                    Ok(mails) => mails,
                    // A moderator's template that fails must not hold this notice and every
                    // one behind it for ever: the built-in templates tell it.
                    Err(_) if config.templates.is_some() => {
                        let builtin = Config {
                            templates: None,
                            ..config.clone()
                        };
                        mails_for(
                            service,
                            &builtin,
                            game,
                            variant,
                            notice,
                            (HashMap::new(), None),
                            now,
                        )?
                    }
                    Err(e) => return Err(e),
                }
            }
            // A game deleted since: nobody left to tell.
            None => Vec::new(),
        };
        let (mails, counted, held) = match &read {
            Some((_, game)) => cap_moderator(service, config, game, notice, mails, now)?,
            None => (mails, Vec::new(), Vec::new()),
        };
        notified.queued += mails.len();
        let capped = capped_family(&notice.kind).is_some();
        // A capped notice reads the moderator's hourly counter: those of the run's
        // notices before it are written first.
        if capped {
            told.write(service)?;
        }
        told.notices.push(NoticeTold {
            key,
            mails: mails.iter().map(OutMail::seal).collect(),
            counted,
            held,
        });
        if capped {
            told.write(service)?;
        }
        if let Some(known) = read {
            told.games.insert(notice.game.clone(), known);
        }
    }
    Ok(())
}

/// The family of notices whose copy to the game's moderator counts against the hourly
/// cap `[mail.caps] moderator_notices_per_hour`: what strangers, or anyone, can cause
/// by mail again and again (a seat asked for or taken, failed sign-ons, a bounce). The
/// game's own course (its start, results, deadlines, its end, a player who resigned, a
/// house that missed its orders) is never held, nor is any answer to the moderator's
/// own mail, which is no notice.
fn capped_family(kind: &NoticeKind) -> Option<&'static str> {
    match kind {
        NoticeKind::SeatAsked { .. } | NoticeKind::Joined { .. } => Some("seats"),
        NoticeKind::SignOnFailures { .. } => Some("sign-on"),
        NoticeKind::Undeliverable { .. } => Some("undeliverable"),
        _ => None,
    }
}

/// The key of the moderator's hourly counter for one family of one game (a kind and a
/// NUL byte first, which no address holds: `mail::desk::caps`).
fn moderator_key(game: &str, family: &str, address: &str) -> String {
    format!("moderator-notice\0{game}\0{family}\0{address}")
}

/// Mails of a notice, counters and held copies, as [`cap_moderator`] splits them.
type Capped = (Vec<OutMail>, Vec<Replied>, Vec<HeldNotice>);

/// Applies the moderator's hourly cap to a notice's mails: under the cap the
/// moderator's copy goes and is counted; past it, it is held for the digest. The other
/// recipients' copies always go.
fn cap_moderator(
    service: &Service,
    config: &Config,
    game: &Game,
    notice: &Notice,
    mut mails: Vec<OutMail>,
    now: DateTime<Utc>,
) -> Result<Capped, ServiceError> {
    let cap = config.mail.caps.moderator_notices_per_hour;
    let (Some(family), Some(moderator)) = (capped_family(&notice.kind), game.moderator()) else {
        return Ok((mails, Vec::new(), Vec::new()));
    };
    if cap == 0 || !mails.iter().any(|m| m.to == moderator.address) {
        return Ok((mails, Vec::new(), Vec::new()));
    }
    let key = moderator_key(game.id(), family, &moderator.address);
    match service.reply_window(&key, now)? {
        Some(window) if window.count >= cap => {
            mails.retain(|m| m.to != moderator.address);
            let held = HeldNotice {
                address: moderator.address.to_string(),
                family: family.to_string(),
                until: window.since + REPLY_WINDOW,
                notice: notice.clone(),
            };
            Ok((mails, Vec::new(), vec![held]))
        }
        _ => {
            let counted = Replied {
                address: key,
                at: now,
            };
            Ok((mails, vec![counted], Vec::new()))
        }
    }
}

/// The notices one digest tells: a game's id, a family, the moderator's address.
type DigestGroup = (String, String, String);

/// Writes the digest of every group of held notices (one game, one family, one
/// moderator's address) whose hour is over: one mail that lists them, in the moderator's
/// language. Returns how many mails.
fn queue_digests(
    service: &Service,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<usize, ServiceError> {
    let mut groups: Vec<(DigestGroup, Vec<(u64, HeldNotice)>)> = Vec::new();
    for (key, held) in service.held_notices()? {
        if held.until > now {
            continue;
        }
        let group = (
            held.notice.game.clone(),
            held.family.clone(),
            held.address.clone(),
        );
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, list)) => list.push((key, held)),
            None => groups.push((group, vec![(key, held)])),
        }
    }
    let mut queued = 0;
    for ((game_id, _, address), list) in groups {
        let keys: Vec<u64> = list.iter().map(|(key, _)| *key).collect();
        let game = match service.find_game(&game_id)? {
            Some(game) => game,
            // A game deleted since: nobody left to tell.
            None => {
                service.held_told(&keys, &[])?;
                continue;
            }
        };
        let variant = service.variant(game.variant())?;
        let lang = game.settings().lang;
        let zone = game.settings().schedule.time_zone;
        let lines: Vec<String> = list
            .iter()
            .map(|(_, held)| {
                let at = format_deadline(held.notice.at, zone, lang);
                let what = digest_line(&variant, &held.notice.kind, lang);
                crate::say!(lang, "notice_digest.line", at, what)
            })
            .collect();
        let count = lines.len();
        let cap = config.mail.caps.moderator_notices_per_hour;
        let subject = crate::say!(lang, "notice_digest.subject", game = game_id, count);
        let body = crate::say!(
            lang,
            "notice_digest.body",
            game = game_id,
            count,
            cap,
            lines
        );
        let mail = mail(config, &address, subject, body, now).about(game.id());
        service.held_told(&keys, &[mail.seal()])?;
        queued += 1;
    }
    Ok(queued)
}

/// One held notice, on one line of its digest.
fn digest_line(variant: &Variant, kind: &NoticeKind, lang: Lang) -> String {
    let name = |house: &str| variant.house_name_in(house, lang);
    match kind {
        NoticeKind::SeatAsked { house, address, .. } => {
            crate::say!(
                lang,
                "notice_digest.seat_asked",
                house = name(house),
                address
            )
        }
        NoticeKind::Joined { house, address, .. } => {
            crate::say!(lang, "notice_digest.joined", house = name(house), address)
        }
        NoticeKind::SignOnFailures {
            house, failures, ..
        } => {
            let house = house.as_deref().map(name);
            crate::say!(lang, "notice_digest.sign_on_failures", house, failures)
        }
        NoticeKind::Undeliverable { address, .. } => {
            crate::say!(lang, "notice_digest.undeliverable", address)
        }
        other => crate::say!(lang, "notice_digest.other", kind = kind_word(other)),
    }
}

/// What [`queue_notices`] did.
#[derive(Debug, Default)]
pub struct Notified {
    /// Mails written from notices.
    pub queued: usize,
    /// Games whose notices stay queued, their game unreadable, with the reason.
    pub held: Vec<(String, ServiceError)>,
}

/// Who hears of a notice: the houses named (a reminder), else every player, the
/// moderator and the observers. A house's missed deadline or civil disorder goes to its
/// player and the moderator, who may have to find someone.
fn recipients(game: &Game, notice: &Notice) -> Vec<(String, Lang)> {
    let moderator_too = matches!(
        notice.kind,
        NoticeKind::Missed { .. } | NoticeKind::CivilDisorder { .. }
    );
    // A failed address is the moderator's business (it names the address); when the
    // moderator's own address is the one failing, nobody can be told by mail.
    if let NoticeKind::Undeliverable { address, .. } = &notice.kind {
        return game
            .moderator()
            .iter()
            .filter(|m| m.address != *address)
            .map(|m| (m.address.to_string(), game.settings().lang))
            .collect();
    }
    if let NoticeKind::SignOnFailures { house, .. } = &notice.kind {
        return throttle_recipients(game, house.as_deref());
    }
    match &notice.kind {
        // A seat taken or asked for is the moderator's business.
        NoticeKind::Joined { .. } | NoticeKind::SeatAsked { .. } => {
            return game
                .moderator()
                .iter()
                .map(|m| (m.address.to_string(), game.settings().lang))
                .collect();
        }
        // The outgoing player, or the address that asked, is in the game no more (or
        // not yet): the notice names it.
        NoticeKind::SeatLost { address, lang, .. }
        | NoticeKind::SeatRefused { address, lang, .. } => {
            return vec![(address.to_string(), *lang)];
        }
        _ => {}
    }
    let mut to: Vec<(String, Lang)> = game
        .seats()
        .iter()
        .filter(|s| notice.houses.is_empty() || notice.houses.iter().any(|x| x == s.house()))
        .filter(|s| !s.resigned())
        .filter_map(|s| s.player().map(|p| (p.address().to_string(), p.lang())))
        .collect();
    if (notice.houses.is_empty() || moderator_too)
        && let Some(m) = &game.moderator()
    {
        // `settings.lang`: the language of the moderator's results and notices.
        to.push((m.address.to_string(), game.settings().lang));
    }
    if notice.houses.is_empty() {
        to.extend(
            game.observers()
                .iter()
                .map(|o| (o.address.to_string(), o.lang)),
        );
    }
    let mut seen = std::collections::HashSet::new();
    to.retain(|(a, _)| seen.insert(a.clone()));
    to
}

/// Who hears that sign-ons failed again and again: the house's player (if the house was the
/// target) and the moderator; never the observers, nor the other houses.
fn throttle_recipients(game: &Game, house: Option<&str>) -> Vec<(String, Lang)> {
    let mut to: Vec<(String, Lang)> = house
        .and_then(|h| game.seat(h))
        .filter(|s| !s.resigned())
        .and_then(|s| s.player())
        .map(|p| (p.address().to_string(), p.lang()))
        .into_iter()
        .collect();
    if let Some(m) = &game.moderator()
        && to.iter().all(|(a, _)| *a != m.address)
    {
        to.push((m.address.to_string(), game.settings().lang));
    }
    to
}

fn mails_for(
    service: &Service,
    config: &Config,
    game: &Game,
    variant: &Variant,
    notice: &Notice,
    (drawn, record): (HashMap<Lang, Option<Attachment>>, Option<PhaseRecord>),
    now: DateTime<Utc>,
) -> Result<Vec<OutMail>, ServiceError> {
    let to = recipients(game, notice);
    if to.is_empty() {
        return Ok(Vec::new());
    }
    let render_error = ServiceError::Render;
    // The phase record of a results notice, read once for all its recipients, and
    // whether it is the last phase played.
    let results = match &notice.kind {
        NoticeKind::Results { index } => match record
            .filter(|r| r.index == *index)
            .map_or_else(|| service.game_phase(game, *index), |r| Ok(Some(r)))?
        {
            Some(record) => {
                let last = service.last_phase_index(game.id())?;
                Some((record, last == Some(*index)))
            }
            // Rolled back before it was told: nothing to send.
            None => return Ok(Vec::new()),
        },
        _ => None,
    };
    // One text per language, audience, house asked and time zone: a house reads its own
    // rejected lines, the moderator everyone's, the others none (`Audience`); a player
    // reads at the top what the coming phase asks of their house, and every deadline in
    // the time zone they chose.
    let mut bodies: HashMap<(Lang, Audience, Option<HouseKey>, Option<chrono_tz::Tz>), String> =
        HashMap::new();
    // The end of a game tells its summary: the history, read once; its
    // replay is the game-over mail's picture.
    let history = match notice.kind {
        NoticeKind::GameOver => Some(service.history(game.id())?),
        _ => None,
    };
    // One picture per language (its title and legend are in the reader's words), drawn
    // once for all the readers of that language, not once a mail (or drawn ahead).
    let mut pictures: HashMap<Lang, Option<Attachment>> = drawn;
    let mut picture = |lang: Lang| {
        pictures
            .entry(lang)
            .or_insert_with(|| match (&results, &notice.kind) {
                (Some((record, _)), _) => board::phase_attachment(variant, game, record, lang),
                (None, NoticeKind::Started) => board::current_attachment(variant, game, lang),
                (None, NoticeKind::GameOver) => history
                    .as_deref()
                    .and_then(|records| board::replay_attachment(variant, game, records, lang)),
                _ => None,
            })
            .clone()
    };
    // Grey press is anonymous while the game runs; at its end, its authors are told
    // where the moderator said so (`SET GREY AUTHORS shown`).
    let trail = match notice.kind {
        NoticeKind::GameOver if game.settings().reveal_grey => {
            Some(service.audit_trail(game.id())?)
        }
        _ => None,
    };
    // The position the game begins with, for each house's own units in its mail.
    let start = match notice.kind {
        NoticeKind::Started => Some(game.position().clone()),
        _ => None,
    };
    let mut mails = Vec::new();
    for (address, lang) in to {
        // A player who chose a time zone reads every deadline of their mail in it.
        let zone = reader_zone(game, &address);
        let mail = crate::report::for_reader(zone, || -> Result<OutMail, ServiceError> {
            Ok(match &results {
                Some((record, is_last)) => {
                    let reader = audience_of(game, &address);
                    // The phase the results open, told only while it is the one being
                    // played (not for a phase played since, nor after the game's end).
                    let asked = match &reader {
                        Audience::House(house) if *is_last && record.ending.is_none() => {
                            Some(house.clone())
                        }
                        _ => None,
                    };
                    let key = (lang, reader.narrowed(record), asked, zone);
                    if let Entry::Vacant(slot) = bodies.entry(key.clone()) {
                        let asks = key.2.as_ref().and_then(|house| {
                            PhaseAsk::of_named(variant, &record.position_after, house)
                        });
                        let reader = Reader {
                            audience: &key.1,
                            asks: asks.as_ref(),
                        };
                        let text = record_results_for(
                            game,
                            variant,
                            record,
                            *is_last,
                            reader,
                            lang,
                            config.templates.as_deref(),
                        )
                        .map_err(render_error)?;
                        slot.insert(text);
                    }
                    let text = &bodies[&key];
                    // The phase the results are of (theirs, `phase`, is the same), read even
                    // when the stored results are not.
                    let data = json!({ "game": { "id": game.id() }, "phase": record.phase });
                    let subject = subject(config, "results", data, lang).map_err(render_error)?;
                    let picture = wants_picture(game, &address)
                        .then(|| picture(lang))
                        .flatten();
                    mail(config, &address, subject, text.clone(), now).carrying(picture.as_ref())
                }
                None => {
                    let mut data = notice_data(game, variant, &notice.kind, lang);
                    // The moderator reads the record of whoever took or asks for a seat, as
                    // the judge counts it when the notice goes.
                    if let NoticeKind::Joined { address, .. }
                    | NoticeKind::SeatAsked { address, .. } = &notice.kind
                        && let Some(Value::String(join)) =
                            data.as_object_mut().and_then(|m| m.get_mut("join"))
                    {
                        let record = service.record(address.as_str())?;
                        let said = crate::report::standing::record_text(&record, lang);
                        join.push(' ');
                        join.push_str(&crate::say!(lang, "record.of_asker", record = said));
                    }
                    // What became of orders written ahead: worded with the orders as the
                    // judge reads them now, in the reader's templates.
                    if let (Some(text), Some(map)) = (
                        crate::report::ahead::notice_text(
                            game,
                            variant,
                            &notice.kind,
                            lang,
                            config.templates.as_deref(),
                        )
                        .map_err(render_error)?,
                        data.as_object_mut(),
                    ) {
                        map.insert("ahead".into(), Value::String(text));
                    }
                    if let (Some(records), Some(map)) = (&history, data.as_object_mut()) {
                        let summary = summary_body(game, variant, records, lang);
                        map.insert("summary".into(), Value::String(summary.trim().to_string()));
                    }
                    if let (Some(trail), Some(map)) = (&trail, data.as_object_mut())
                        && let Some(grey) = grey_authors_text(game, variant, trail, lang)
                    {
                        map.insert("grey".into(), Value::String(grey.trim_end().to_string()));
                    }
                    // A reminder: the player reads what the phase asks of their house.
                    if let (
                        NoticeKind::Reminder { .. } | NoticeKind::Grace { .. },
                        Audience::House(house),
                    ) = (&notice.kind, audience_of(game, &address))
                        && let Some(map) = data.as_object_mut()
                        && let Some(asks) = PhaseAsk::of_named(variant, game.position(), &house)
                    {
                        map.insert(
                            "asks".into(),
                            crate::report::localized(&asks, variant, lang),
                        );
                    }
                    // "The game begins": each player reads what their own house commands.
                    if let (Some(position), Audience::House(house)) =
                        (&start, audience_of(game, &address))
                        && let Some(map) = data.as_object_mut()
                    {
                        let brief = board::house_brief(variant, position, &house, lang);
                        map.insert(
                            "own".into(),
                            crate::report::localized(&brief, variant, lang),
                        );
                    }
                    compose(
                        config,
                        "notice.txt",
                        kind_word(&notice.kind),
                        data,
                        &address,
                        lang,
                        now,
                    )
                    .map_err(render_error)?
                    .carrying(
                        wants_picture(game, &address)
                            .then(|| picture(lang))
                            .flatten()
                            .as_ref(),
                    )
                }
            })
        })?;
        mails.push(mail.about(game.id()));
    }
    Ok(mails)
}

/// The time zone the player at `address` chose for their deadlines, if they play here.
fn reader_zone(game: &Game, address: &str) -> Option<chrono_tz::Tz> {
    game.seats()
        .iter()
        .filter(|s| !s.resigned())
        .filter_map(|s| s.player())
        .find(|p| crate::game::same_address(p.address().as_str(), address))
        .and_then(|p| p.zone())
}

/// Whether the mail to `address` carries the board's picture: not when it is a player's
/// who turned their own pictures off (`SET PICTURES off`); the game's switch is read where
/// the picture is drawn.
fn wants_picture(game: &Game, address: &str) -> bool {
    !game.seats().iter().any(|s| {
        !s.resigned()
            && s.player()
                .is_some_and(|p| p.address() == address && !p.pictures())
    })
}

/// Who an address is in the game, for the results it may read: the moderator, a house's
/// player, or anybody else (observers).
fn audience_of(game: &Game, address: &str) -> Audience {
    if game
        .moderator()
        .as_ref()
        .is_some_and(|m| m.address == address)
    {
        return Audience::Moderator;
    }
    game.seats()
        .iter()
        .find(|s| !s.resigned() && s.player().is_some_and(|p| p.address() == address))
        .map_or(Audience::Public, |s| Audience::House(s.house().clone()))
}

fn kind_word(kind: &NoticeKind) -> &'static str {
    match kind {
        NoticeKind::Started => "started",
        NoticeKind::Results { .. } => "results",
        NoticeKind::Reminder { .. } => "reminder",
        NoticeKind::PlayerReplaced { .. } => "replaced",
        NoticeKind::Resigned { .. } => "resigned",
        NoticeKind::DeadlineChanged { .. } => "deadline",
        NoticeKind::Paused => "paused",
        NoticeKind::Resumed => "resumed",
        NoticeKind::RolledBack { .. } => "rolled-back",
        NoticeKind::GameOver => "game-over",
        NoticeKind::Grace { .. } => "grace",
        NoticeKind::Missed { .. } => "missed",
        NoticeKind::CivilDisorder { .. } => "civil-disorder",
        NoticeKind::Undeliverable { .. } => "undeliverable",
        NoticeKind::SignOnFailures { .. } => "sign-on-failures",
        NoticeKind::Joined { .. } => "joined",
        NoticeKind::SeatAsked { .. } => "seat-asked",
        NoticeKind::SeatLost { .. } => "seat-lost",
        NoticeKind::SeatRefused { .. } => "seat-refused",
        NoticeKind::AheadActivated { .. } => "ahead-activated",
        NoticeKind::AheadDropped { .. } => "ahead-dropped",
    }
}

fn notice_data(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Value {
    let house = match kind {
        NoticeKind::PlayerReplaced { house }
        | NoticeKind::Resigned { house }
        | NoticeKind::Missed { house, .. }
        | NoticeKind::CivilDisorder { house, .. } => variant
            .house_by_name(house)
            .map(|h| variant.house(h).name_in(lang).to_string()),
        NoticeKind::SignOnFailures {
            house: Some(house), ..
        } => variant
            .house_by_name(house)
            .map(|h| variant.house(h).name_in(lang).to_string()),
        _ => None,
    };
    let (failures, since) = match kind {
        NoticeKind::SignOnFailures {
            failures, since, ..
        } => (
            Some(*failures),
            Some(format_deadline(
                *since,
                game.settings().schedule.time_zone,
                lang,
            )),
        ),
        _ => (None, None),
    };
    let zone = game.settings().schedule.time_zone;
    // The phase the notice is about, when it is not the one being played (a missed
    // deadline is told once the phase is processed).
    let (missed_phase, missed_kind, missed) = match kind {
        NoticeKind::Missed {
            phase, missed: n, ..
        } => (Some(*phase), Some(*phase), Some(*n)),
        NoticeKind::CivilDisorder { phase, .. } => (Some(*phase), Some(*phase), None),
        _ => (None, None, None),
    };
    json!({
        "kind": kind_word(kind),
        "game": { "id": game.id(), "name": game.name() },
        "phase": phase_text(game.phase(), lang),
        "deadline": game.deadline_text(lang),
        "deadline_utc": game.deadline().map(|d| d.to_rfc3339()),
        "house": house,
        "ending": game.ending().map(|e| ending_text(e, variant, lang)),
        "grace_end": match kind {
            NoticeKind::Grace { until, .. } => Some(format_deadline(*until, zone, lang)),
            _ => None,
        },
        "missed_phase": missed_phase.map(|p| phase_text(p, lang)),
        "missed_kind": missed_kind.map(|p| p.kind),
        "missed": missed,
        "civil_disorder_after": game.settings().civil_disorder_after,
        "bots": game.settings().bots,
        "failure": match kind {
            NoticeKind::Undeliverable { address, reason, house } => json!({
                "address": address,
                "reason": reason,
                "house": house.as_ref().map(|h| variant
                    .house_by_name(h)
                    .map_or_else(|| h.to_string(), |i| variant.house(i).name_in(lang).to_string())),
            }),
            _ => Value::Null,
        },
        "failures": failures,
        "since": since,
        "join": join_text(game, variant, kind, lang),
        "join_subject": match kind {
            NoticeKind::Joined { .. } => Some(crate::say!(lang, "join.subject_joined")),
            NoticeKind::SeatAsked { .. } => Some(crate::say!(lang, "join.subject_asked")),
            NoticeKind::SeatLost { .. } => Some(crate::say!(lang, "join.subject_lost")),
            NoticeKind::SeatRefused { .. } => Some(crate::say!(lang, "join.subject_refused")),
            _ => None,
        },
        "ahead_subject": crate::report::ahead::notice_subject(kind, lang),
        "disorder": disorder_text(game, variant, kind, lang),
        "state": match kind {
            NoticeKind::SeatAsked { house, .. } => game.seat(house).map(|seat| {
                let name = variant.house_name_in(house, lang);
                seat_state(game, seat, &name, lang)
            }),
            _ => None,
        },
    })
}

/// What becomes of a house that fell into civil disorder or whose player left: who
/// plays it from now on, as the game's bot setting really has it, and the line that
/// takes it over.
fn disorder_text(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Option<Value> {
    let (NoticeKind::CivilDisorder { house, .. } | NoticeKind::Resigned { house }) = kind else {
        return None;
    };
    let name = variant.house_name_in(house, lang);
    let resigned = matches!(kind, NoticeKind::Resigned { .. });
    let bot = game.settings().bots;
    let who = crate::say!(lang, "disorder.who_plays", house = name, bot, resigned);
    // A vacant seat of an open game is taken at once; any other, the moderator gives.
    let at_once = game.settings().open && resigned;
    let take = crate::say!(
        lang,
        "disorder.take_over",
        game = game.id(),
        id = house.to_string(),
        at_once
    );
    Some(json!({ "who": who, "take": take }))
}

/// A house's state as the moderator weighs a request for it: in civil disorder since
/// when, phases missed, whether the bot plays it.
fn seat_state(game: &Game, seat: &crate::game::Seat, house: &str, lang: Lang) -> String {
    let vacant = seat.player().is_none() || seat.resigned();
    let bot = game.settings().bots && (seat.civil_disorder() || vacant);
    crate::say!(
        lang,
        "disorder.state",
        house,
        disorder = seat.civil_disorder(),
        since = seat.disorder_since().map(|p| phase_text(p, lang)),
        vacant,
        resigned = seat.resigned(),
        missed = seat.missed(),
        bot,
        bot_count = seat.bot_phases().len()
    )
}

/// The sentence of a notice about a seat taken, asked for, lost or refused: worded here, from the message catalogue, and shown as it is by the template.
fn join_text(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Option<String> {
    let name = |house: &str| variant.house_name_in(house, lang);
    let id = game.id();
    Some(match kind {
        NoticeKind::Joined {
            house,
            address,
            left,
            started,
        } => crate::say!(
            lang,
            "join.notice_joined",
            house = name(house),
            address,
            left,
            started,
            phase = phase_text(game.phase(), lang),
            deadline = game.deadline_text(lang)
        ),
        NoticeKind::SeatAsked { house, address } => crate::say!(
            lang,
            "join.notice_asked",
            house = name(house),
            id = house.to_string(),
            address,
            game = id
        ),
        NoticeKind::SeatLost { house, removed, .. } => crate::say!(
            lang,
            "join.notice_lost",
            house = name(house),
            removed,
            game = id
        ),
        NoticeKind::SeatRefused { house, .. } => {
            crate::say!(lang, "join.notice_refused", house = name(house), game = id)
        }
        _ => return None,
    })
}
