//! `corbeau publish`: a static, read-only site of the games, for any web server (or none:
//! the files open from disk). An index of the games, and a page per game with its current
//! map and every played phase: the map after it with its orders drawn, its public results
//! and the broadcast press sent while it was played. What is published and what never is:
//! docs/publish.md.
//!
//! Publishing is two steps: [`prepare`] reads what it needs from the store (and only for
//! the games that changed, with [`Mode::Changed`]), then [`Work::write`] draws and writes
//! without the store, so that `serve` lets the store go before the slow part.
//!
//! Every file is written to a temporary name and renamed, so that a reader never sees half
//! a page; a page is rewritten only when its text changed, and a picture is drawn only when
//! what it shows changed (a fingerprint per picture is kept in the game's folder: played
//! phases do not change, except after a rollback, whose phase then goes).

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use chrono::{DateTime, Utc};
use minijinja::Value;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::draw::DrawError;
use crate::game::{Game, PhaseRecord};
use crate::lang::Lang;
use crate::map::{Owner, Variant, scope};
use crate::position::write_position;
use crate::report::RenderError;
use crate::report::game_text::{
    Audience, ending_text, phase_text, record_results_or_builtin, status_word,
};
use crate::say;
use crate::service::picture::{
    Format, PictureError, current_picture, phase_picture, replay_picture,
};
use crate::service::{Broadcast, Bug, Service, ServiceError};

mod pages;
pub use pages::GAME_JSON_FORMAT;

/// The file that marks a directory as a site corbeau writes: a directory without it that
/// is not empty is refused, so that a wrong path cannot have corbeau remove files.
pub const SITE_MARKER: &str = ".corbeau-site";

/// In each game's folder: the page's stamp and each picture's fingerprint.
const MANIFEST: &str = ".corbeau-publish.json";

/// The folder of the game pages, inside the site.
const GAMES: &str = "games";

const STYLE: &str = include_str!("style.css");

/// The templates of the pages (`templates/{fr,en}/`).
pub const INDEX_TEMPLATE: &str = "publish-index.html";
pub const GAME_TEMPLATE: &str = "publish-game.html";
pub const PHASE_TEMPLATE: &str = "publish-phase.html";

/// Where and how to publish.
#[derive(Debug, Clone)]
pub struct Site {
    pub dir: PathBuf,
    /// The index's language (the judge's); each game page is in its game's language.
    pub lang: Lang,
    /// A directory of templates overriding the built-in ones.
    pub templates: Option<PathBuf>,
}

/// Which games to write again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every game (the pages are still only rewritten when their text changed, and the
    /// pictures only drawn when what they show changed).
    All,
    /// Only the games whose stored state or audit trail changed since they were
    /// published (`serve`, `tick`): the others are not even read further.
    Changed,
}

/// What a publication did.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct PublishReport {
    pub games: usize,
    /// Games not changed since they were published, left alone ([`Mode::Changed`]).
    pub unchanged: usize,
    /// Pages (and the style sheet) written because their text changed.
    pub pages: usize,
    pub pictures_drawn: usize,
    pub pictures_kept: usize,
    /// Files and game folders removed (rolled-back phases, deleted games).
    pub removed: usize,
    /// Games that could not be published, with the reason (the others are).
    pub errors: Vec<(String, String)>,
}

impl PublishReport {
    /// Whether the site changed.
    pub fn wrote(&self) -> bool {
        self.pages + self.pictures_drawn + self.removed > 0
    }
}

/// Why nothing could be published.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("{}: not empty and not a site written by corbeau (no {SITE_MARKER} file)", .0.display())]
    NotASite(PathBuf),
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl PublishError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (PublishError::NotASite(dir), _) => say!(
                lang,
                "publish_error.not_a_site",
                dir = dir.display().to_string(),
                marker = SITE_MARKER
            ),
            (PublishError::Io { path, source }, _) => say!(
                lang,
                "publish_error.cannot_write",
                path = path.display().to_string(),
                error = source.to_string()
            ),
            (PublishError::Service(e), lang) => e.message(lang),
            (e, _) => e.to_string(),
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> PublishError + '_ {
    move |source| PublishError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What one game's page needs, read from the store.
struct GameWork {
    game: Game,
    variant: Rc<Variant>,
    stamp: String,
    /// None: unchanged since published ([`Mode::Changed`]), nothing more was read.
    history: Option<History>,
}

struct History {
    records: Vec<PhaseRecord>,
    broadcasts: Vec<(DateTime<Utc>, Broadcast)>,
}

/// Everything read from the store: [`Work::write`] needs it no longer.
pub struct Work {
    site: Site,
    games: Vec<GameWork>,
    /// Games that could not be read (a variant file gone bad), with the reason: their
    /// folder is kept as it was.
    failed: Vec<(String, String)>,
}

/// Reads from the store what the publication needs.
pub fn prepare(service: &Service, site: &Site, mode: Mode) -> Result<Work, PublishError> {
    check_site(&site.dir)?;
    let mut games = Vec::new();
    let mut failed = Vec::new();
    for (id, game) in service.each_game()? {
        let read = game.and_then(|game| Ok((service.variant(game.variant())?, game)));
        let (variant, game) = match read {
            Ok(read) => read,
            Err(e) => {
                failed.push((id, e.message(site.lang)));
                continue;
            }
        };
        let last = service.last_audit(game.id())?;
        let stamp = fingerprint(&[
            env!("CARGO_PKG_VERSION").as_bytes(),
            site.lang.code().as_bytes(),
            &scope::within(&variant, || serde_json::to_vec(&game)).unwrap_or_default(),
            &serde_json::to_vec(&last).unwrap_or_default(),
        ]);
        let folder = site.dir.join(GAMES).join(game.id());
        let unchanged = mode == Mode::Changed
            && holds_no_link(&folder)
            && folder.join("index.html").is_file()
            && Manifest::read(&folder).stamp == stamp;
        let history = if unchanged {
            None
        } else {
            let records = service.history(game.id())?;
            let audit = service.audit_trail(game.id())?;
            Some(History {
                records,
                broadcasts: Broadcast::in_audit(&audit),
            })
        };
        games.push(GameWork {
            game,
            variant,
            stamp,
            history,
        });
    }
    Ok(Work {
        site: site.clone(),
        games,
        failed,
    })
}

/// Reads and writes at once: [`prepare`] then [`Work::write`].
pub fn publish(service: &Service, site: &Site, mode: Mode) -> Result<PublishReport, PublishError> {
    prepare(service, site, mode)?.write()
}

impl Work {
    /// Draws and writes the site. A game that fails is reported and the others go on.
    pub fn write(self) -> Result<PublishReport, PublishError> {
        let site = &self.site;
        let mut report = PublishReport {
            games: self.games.len() + self.failed.len(),
            errors: self.failed.clone(),
            ..PublishReport::default()
        };
        let games_dir = site.dir.join(GAMES);
        own_dir(&games_dir, &mut report)?;
        if write_if_changed(&site.dir.join("style.css"), STYLE.as_bytes())? {
            report.pages += 1;
        }
        for work in &self.games {
            if work.history.is_none() {
                report.unchanged += 1;
                continue;
            }
            if let Err(e) = write_game(site, work, &mut report) {
                report.errors.push((
                    work.game.id().to_string(),
                    e.message(work.game.settings().lang),
                ));
            }
        }
        // Folders of games no longer in the store go (the folder is the site's own).
        let ids: Vec<&str> = self
            .games
            .iter()
            .map(|w| w.game.id())
            .chain(self.failed.iter().map(|(id, _)| id.as_str()))
            .collect();
        for entry in fs::read_dir(&games_dir).map_err(io_error(&games_dir))? {
            let entry = entry.map_err(io_error(&games_dir))?;
            let name = entry.file_name();
            if !ids.iter().any(|id| name == **id) {
                let path = entry.path();
                // The entry's own type, not its target's: a link goes, never what it
                // points to.
                let real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                let removed = if real_dir {
                    fs::remove_dir_all(&path)
                } else {
                    fs::remove_file(&path)
                };
                removed.map_err(io_error(&path))?;
                report.removed += 1;
            }
        }
        // A temporary file of the site's own left by a publication that died.
        for entry in fs::read_dir(&site.dir).map_err(io_error(&site.dir))? {
            let entry = entry.map_err(io_error(&site.dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let plain = entry
                .file_type()
                .is_ok_and(|t| t.is_file() || t.is_symlink());
            if name.starts_with('.') && name.ends_with(".tmp") && plain {
                fs::remove_file(entry.path()).map_err(io_error(&entry.path()))?;
                report.removed += 1;
            }
        }
        let index = render_index(site, &self.games)?;
        if write_if_changed(&site.dir.join("index.html"), index.as_bytes())? {
            report.pages += 1;
        }
        Ok(report)
    }
}

/// Makes `dir` (inside the site) a real directory: a symbolic link or a file in its place
/// is removed first, so that nothing written or cleaned there ever lands outside the site.
fn own_dir(dir: &Path, report: &mut PublishReport) -> Result<(), PublishError> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => {
            fs::remove_file(dir).map_err(io_error(dir))?;
            report.removed += 1;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(dir)(e)),
    }
    fs::create_dir(dir).map_err(io_error(dir))
}

/// Whether `path` is a symbolic link (not followed).
fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Whether `folder` is a real directory with no link among its entries (a game's folder
/// with one is written again, which removes it).
fn holds_no_link(folder: &Path) -> bool {
    !is_link(folder)
        && fs::read_dir(folder).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .all(|e| e.file_type().is_ok_and(|t| !t.is_symlink()))
        })
}

/// A directory corbeau may write into: new, empty, or marked as its site.
fn check_site(dir: &Path) -> Result<(), PublishError> {
    let marker = dir.join(SITE_MARKER);
    if marker.is_file() {
        return Ok(());
    }
    match fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(PublishError::NotASite(dir.to_path_buf()));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(io_error(dir))?;
        }
        Err(e) => return Err(io_error(dir)(e)),
    }
    fs::write(
        &marker,
        "A site written by corbeau publish: its files are rewritten and removed by it.\n",
    )
    .map_err(io_error(&marker))
}

/// The fingerprints kept in a game's folder.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    /// The stamp of the game as last published.
    stamp: String,
    /// Each picture file's fingerprint.
    pictures: BTreeMap<String, String>,
}

impl Manifest {
    /// The manifest of a folder; a missing or unreadable one is empty (everything is
    /// then drawn again, which is safe).
    fn read(folder: &Path) -> Manifest {
        fs::read(folder.join(MANIFEST))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }
}

/// A picture the page shows, and whether it must be drawn.
struct PictureJob<'a> {
    file: String,
    fingerprint: String,
    drawn: Drawn<'a>,
}

/// What a picture of the site shows.
enum Drawn<'a> {
    /// The board as it stands.
    Current,
    /// The board after a played phase, its orders drawn.
    Phase(&'a PhaseRecord),
    /// A finished game's every phase, animated.
    Replay,
}

fn write_game(
    site: &Site,
    work: &GameWork,
    report: &mut PublishReport,
) -> Result<(), PublishError> {
    let Some(history) = &work.history else {
        return Ok(());
    };
    let game = &work.game;
    let variant: &Variant = &work.variant;
    let lang = game.settings().lang;
    let folder = site.dir.join(GAMES).join(game.id());
    own_dir(&folder, report)?;
    let old = Manifest::read(&folder);
    // The variant's content hash: a new version of the variant redraws the maps.
    let pin = game.variant().hash.to_string();
    let common = |more: &[&[u8]]| {
        let mut parts: Vec<&[u8]> = vec![
            env!("CARGO_PKG_VERSION").as_bytes(),
            lang.code().as_bytes(),
            game.name().as_bytes(),
            pin.as_bytes(),
        ];
        parts.extend_from_slice(more);
        fingerprint(&parts)
    };
    let mut jobs = vec![PictureJob {
        file: CURRENT_MAP.into(),
        fingerprint: common(&[
            write_position(variant, game.position()).as_bytes(),
            game.phase().to_string().as_bytes(),
        ]),
        drawn: Drawn::Current,
    }];
    for record in &history.records {
        let drawn = json!([
            record.index,
            record.phase,
            write_position(variant, &record.position_before),
            record.orders,
            record.results,
            write_position(variant, &record.position_after)
        ]);
        jobs.push(PictureJob {
            file: phase_file(record.index),
            fingerprint: common(&[&serde_json::to_vec(&drawn).unwrap_or_default()]),
            drawn: Drawn::Phase(record),
        });
    }
    if game.ending().is_some() && !history.records.is_empty() {
        // Drawn again whenever a phase's picture would be.
        let phases: Vec<&[u8]> = jobs[1..].iter().map(|j| j.fingerprint.as_bytes()).collect();
        jobs.push(PictureJob {
            file: REPLAY.into(),
            fingerprint: common(&[&[b"replay".as_slice()], phases.as_slice()].concat()),
            drawn: Drawn::Replay,
        });
    }
    // Drawing is the slow part: the pictures to draw are drawn side by side.
    let drawn: Vec<(usize, Result<Vec<u8>, PictureError>)> = jobs
        .iter()
        .enumerate()
        .filter(|(_, job)| {
            old.pictures.get(&job.file) != Some(&job.fingerprint)
                || !folder.join(&job.file).is_file()
        })
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(i, job)| {
            let bytes = match job.drawn {
                Drawn::Phase(record) => phase_picture(variant, game, record, lang, Format::Svg),
                Drawn::Current => current_picture(variant, game, lang, Format::Svg),
                Drawn::Replay => replay_picture(variant, game, &history.records, lang),
            };
            (i, bytes)
        })
        .collect();
    let mut manifest = Manifest {
        stamp: String::new(),
        pictures: BTreeMap::new(),
    };
    let mut failed: Option<PublishError> = None;
    let mut redrawn = vec![false; jobs.len()];
    for (i, bytes) in drawn {
        let job = &jobs[i];
        match bytes {
            Ok(bytes) => {
                write_atomic(&folder.join(&job.file), &bytes)?;
                report.pictures_drawn += 1;
                redrawn[i] = true;
            }
            // A variant without drawing data has no pictures: the pages go without.
            Err(PictureError::Draw(DrawError::NoDrawing(_))) => {}
            Err(PictureError::Game(e)) => {
                failed.get_or_insert(PublishError::Service(e.into()));
            }
            Err(PictureError::Draw(e)) => {
                failed.get_or_insert(PublishError::Service(Bug::Draw(e.to_string()).into()));
            }
        }
    }
    let mut present = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let path = folder.join(&job.file);
        if is_link(&path) {
            // Not ours: a picture is a file corbeau drew, never a link to one.
            fs::remove_file(&path).map_err(io_error(&path))?;
            report.removed += 1;
            continue;
        }
        if !path.is_file() {
            continue;
        }
        if !redrawn[i] {
            if old.pictures.get(&job.file) != Some(&job.fingerprint) {
                // Stale (its drawing failed this time): better no picture than a wrong one.
                fs::remove_file(&path).map_err(io_error(&path))?;
                report.removed += 1;
                continue;
            }
            report.pictures_kept += 1;
        }
        manifest
            .pictures
            .insert(job.file.clone(), job.fingerprint.clone());
        present.push((job.file.clone(), svg_size(&path)));
    }
    let files = render_game(site, work, history, &present)?;
    for (name, text) in &files {
        if write_if_changed(&folder.join(name), text.as_bytes())? {
            report.pages += 1;
        }
    }
    // Whatever the folder holds besides the page, its pictures and the manifest is a
    // rolled-back phase's picture or a stale temporary file: it goes.
    for entry in fs::read_dir(&folder).map_err(io_error(&folder))? {
        let entry = entry.map_err(io_error(&folder))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let wanted = name == MANIFEST
            || manifest.pictures.contains_key(&name)
            || files.iter().any(|(file, _)| *file == name);
        // Whatever it is, a link goes (the link, not its target); a folder stays.
        let plain = entry
            .file_type()
            .is_ok_and(|t| t.is_file() || t.is_symlink());
        if !wanted && plain {
            fs::remove_file(entry.path()).map_err(io_error(&entry.path()))?;
            report.removed += 1;
        }
    }
    if failed.is_none() {
        // A game with a failed picture keeps no stamp: it is tried again next time.
        manifest.stamp = work.stamp.clone();
    }
    let json = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    write_if_changed(&folder.join(MANIFEST), &json)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The results without their first lines `:: key: value`, written for programs that
/// read the mails: a page is read by people.
fn without_header(results: &str) -> &str {
    let mut rest = results;
    while let Some(line) = rest.strip_prefix(":: ") {
        rest = line.split_once('\n').map_or("", |(_, after)| after);
    }
    rest.trim_start_matches('\n')
}

/// The map of the board as it stands.
const CURRENT_MAP: &str = "current.svg";

/// A finished game's replay: every played phase, animated (an APNG).
const REPLAY: &str = "replay.png";

/// The map after a played phase.
fn phase_file(index: u32) -> String {
    format!("phase-{index:03}.svg")
}

/// The page of a played phase.
fn phase_page(index: u32) -> String {
    format!("phase-{index:03}.html")
}

/// An SVG's width and height, from its root element's `viewBox` (its drawing units, which
/// give the map's proportions to the page before it loads); none: no `viewBox` read.
fn svg_size(path: &Path) -> Option<(u32, u32)> {
    use std::io::Read;
    let mut head = Vec::new();
    fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_end(&mut head)
        .ok()?;
    let head = String::from_utf8_lossy(&head);
    let root = &head[head.find("<svg")?..];
    let root = &root[..root.find('>')?];
    let view_box = root.split("viewBox=\"").nth(1)?.split('"').next()?;
    let numbers: Vec<f64> = view_box
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match numbers[..] {
        [_, _, w, h] if w >= 1.0 && h >= 1.0 => Some((w.round() as u32, h.round() as u32)),
        _ => None,
    }
}

/// A picture as the templates see it.
fn picture_value(present: &[(String, Option<(u32, u32)>)], file: &str) -> serde_json::Value {
    match present.iter().find(|(f, _)| f == file) {
        Some((file, size)) => json!({
            "src": file,
            "width": size.map(|s| s.0),
            "height": size.map(|s| s.1),
        }),
        None => serde_json::Value::Null,
    }
}

/// A colour the page may put in a style attribute: `#rgb` or `#rrggbb` only.
fn safe_colour(colour: &str) -> Option<&str> {
    let hex = colour.strip_prefix('#')?;
    ((hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then_some(colour)
}

fn press_values(
    variant: &Variant,
    lang: Lang,
    broadcasts: &[(DateTime<Utc>, Broadcast)],
    index: u32,
) -> Vec<serde_json::Value> {
    broadcasts
        .iter()
        .filter(|(_, b)| b.index == index)
        .map(|(at, b)| {
            json!({
                "from": b.house.as_ref().map(|h| variant.house_name_in(h, lang)),
                "at": at.format("%Y-%m-%d %H:%M UTC").to_string(),
                "body": b.body,
            })
        })
        .collect()
}

/// The files of a game's folder besides its maps, by name: its page (`index.html`), a
/// page per played phase, `game.json` and `feed.xml`.
fn render_game(
    site: &Site,
    work: &GameWork,
    history: &History,
    present: &[(String, Option<(u32, u32)>)],
) -> Result<Vec<(String, String)>, PublishError> {
    let game = &work.game;
    let variant: &Variant = &work.variant;
    let lang = game.settings().lang;
    let centres = game.position().centre_counts(variant);
    let houses: Vec<_> = game
        .seats()
        .iter()
        .filter_map(|seat| {
            let id = variant.house_by_name(seat.house())?;
            let house = variant.house(id);
            let units = game
                .position()
                .units
                .iter()
                .filter(|u| u.owner == Owner::House(id))
                .count();
            Some(json!({
                "name": house.name_in(lang),
                "colour": safe_colour(&house.colour),
                "centres": centres.get(usize::from(id.0)).copied().unwrap_or(0),
                "units": units,
                "civil_disorder": seat.civil_disorder(),
            }))
        })
        .collect();
    // The swatch of each house in the order tables, by the id the results give.
    let colours: serde_json::Map<String, serde_json::Value> = variant
        .houses
        .iter()
        .map(|h| (h.id.clone(), json!(safe_colour(&h.colour))))
        .collect();
    let templates = site.templates.as_deref();
    let records = &history.records;
    let mut phases = Vec::new();
    let mut entries = Vec::new();
    for record in records {
        let current = record.index + 1 == game.played();
        let (results, broken) = record_results_or_builtin(
            game,
            variant,
            record,
            current,
            &Audience::Public,
            lang,
            templates,
        )?;
        if let Some(e) = broken {
            // The built-in templates did the page; the moderator's broken one is said.
            tracing::warn!("{e}");
        }
        let name = phase_text(record.phase, lang);
        let results = without_header(&results).to_string();
        entries.push(pages::FeedEntry {
            index: record.index,
            title: name.clone(),
            updated: record.processed.to_rfc3339(),
            results: results.clone(),
        });
        phases.push(json!({
            "index": record.index,
            "href": phase_page(record.index),
            "phase": name,
            "processed": record.processed.format("%Y-%m-%d %H:%M UTC").to_string(),
            "picture": picture_value(present, &phase_file(record.index)),
            "view": pages::public_results(record, variant, lang),
            "results": results,
            "press": press_values(variant, lang, &history.broadcasts, record.index),
        }));
    }
    let playing = game.ending().is_none();
    let game_data = json!({
        "id": game.id(),
        "name": game.name(),
        "variant": variant.name_in(lang),
        "players": game.players(),
        "status": status_word(game.status(), lang),
        "phase": playing.then(|| phase_text(game.phase(), lang)),
        "deadline": (playing && game.deadline().is_some()).then(|| game.deadline_text(lang)),
        "ending": game.ending().map(|e| ending_text(e, variant, lang)),
        "played": game.played(),
        // Named only when it is not the default edition, which goes without saying.
        "rules": (!game.settings().rules.is_default())
            .then(|| say!(lang, "rules.named", rules = game.settings().rules.code())),
    });
    // The weather of the phase being played, on a variant with weather.
    let weather = playing
        .then(|| crate::report::weather_view(variant, game.position(), game.position()))
        .flatten()
        .map(|w| crate::report::localized(&w, variant, lang));
    let first = records.first().map(|r| phase_page(r.index));
    let last = records.last().map(|r| phase_page(r.index));
    let data = json!({
        "root": "../../",
        "game": game_data,
        "houses": houses,
        "weather": weather,
        "current": {
            "picture": picture_value(present, CURRENT_MAP),
            // Press of the phase being played; in a game ended before its phase was
            // processed, the last words said.
            "press": press_values(variant, lang, &history.broadcasts, game.played()),
        },
        "steps": { "first": first, "last": last },
        "chart": pages::centre_chart(variant, records, lang),
        "replay": picture_value(present, REPLAY),
        "phases": phases.iter().rev().collect::<Vec<_>>(),
    });
    let mut files = vec![(
        "index.html".to_string(),
        crate::report::render_template(
            GAME_TEMPLATE,
            Value::from_serialize(&data),
            lang,
            templates,
        )?,
    )];
    for (i, phase) in phases.iter().enumerate() {
        let href = |j: Option<usize>| j.and_then(|j| phases.get(j)).map(|p| p["href"].clone());
        let data = json!({
            "root": "../../",
            "game": game_data,
            "colours": colours,
            "steps": {
                "first": (i > 0).then(|| href(Some(0))),
                "previous": (i > 0).then(|| href(i.checked_sub(1))),
                "next": href(Some(i + 1)),
                "last": (i + 1 < phases.len()).then(|| href(phases.len().checked_sub(1))),
            },
            "number": i + 1,
            "count": phases.len(),
            "p": phase,
        });
        files.push((
            phase_page(records[i].index),
            crate::report::render_template(
                PHASE_TEMPLATE,
                Value::from_serialize(&data),
                lang,
                templates,
            )?,
        ));
    }
    let json = pages::game_json(game, variant, records, lang);
    // Compact: indented, the file of a long game is about twice as heavy.
    let mut json = serde_json::to_string(&json).unwrap_or_default();
    json.push('\n');
    files.push(("game.json".to_string(), json));
    files.push(("feed.xml".to_string(), pages::feed(game, &entries)));
    Ok(files)
}

fn render_index(site: &Site, games: &[GameWork]) -> Result<String, PublishError> {
    let lang = site.lang;
    let rows: Vec<_> = games
        .iter()
        .map(|w| {
            let g = &w.game;
            json!({
                "id": g.id(),
                "name": g.name(),
                "variant": w.variant.name_in(lang),
                "phase": if g.ending().is_none() { Some(phase_text(g.phase(), lang)) } else { None },
                "status": status_word(g.status(), lang),
                "ending": g.ending().map(|e| ending_text(e, &w.variant, lang)),
                "played": g.played(),
                "href": format!("{GAMES}/{}/index.html", g.id()),
            })
        })
        .collect();
    let data = json!({ "root": "", "games": rows });
    Ok(crate::report::render_template(
        INDEX_TEMPLATE,
        Value::from_serialize(&data),
        lang,
        site.templates.as_deref(),
    )?)
}

/// Writes `bytes` to `path` through a temporary file renamed over it, unless the file
/// already holds them. Whether it wrote.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, PublishError> {
    // A link in the file's place is replaced by the file (the rename does not follow it).
    if !is_link(path) && fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

/// Writes through a temporary file in the same folder, renamed over the target: a reader
/// (the web server) sees the old file or the new one, never half of one.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), PublishError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    // Created new, so that a link left at that name is never written through.
    let _ = fs::remove_file(&tmp);
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut file| io::Write::write_all(&mut file, bytes))
        .map_err(io_error(&tmp))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_error(path)(e)
    })
}

/// A stable fingerprint of some bytes (64-bit FNV-1a, each part's length mixed in so
/// that parts cannot run into each other): the same on every machine and every build.
fn fingerprint(parts: &[&[u8]]) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    for part in parts {
        for byte in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_stable_and_part_boundaries_count() {
        assert_eq!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"ab", b"c"]));
        assert_ne!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"a", b"bc"]));
        assert_eq!(fingerprint(&[]), "cbf29ce484222325");
    }

    #[test]
    fn only_plain_hex_colours_reach_a_style_attribute() {
        assert_eq!(safe_colour("#a0b1c2"), Some("#a0b1c2"));
        assert_eq!(safe_colour("#fff"), Some("#fff"));
        for bad in ["red", "#12345", "#zzzzzz", "#fff;background:url(x)", ""] {
            assert_eq!(safe_colour(bad), None, "{bad}");
        }
    }
}
