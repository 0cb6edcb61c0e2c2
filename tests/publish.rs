//! `corbeau publish` (src/publish/): the static site of the games. A small game played by
//! mail at library level (press of every kind, superseded and rejected orders, a hostile
//! name) is published; its pages are golden files (tests/golden/publish/, CORBEAU_BLESS=1
//! rewrites them), nothing private reaches any file of the site, every link and picture
//! resolves, a second publication draws nothing, a rollback takes its phase away, a
//! deleted game's pages go, and a folder corbeau did not write is refused. `tick` keeps
//! the configured site up to date, and a site it cannot write stops nothing.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{Press, Settings};
use corbeau::lang::Lang;
use corbeau::publish::{Mode, PublishError, PublishReport, Site, publish};

use support::assert_golden;
use support::world::{
    BARATHEON, BARATHEON_SECRET, GAME, GameSpec, JUDGE, LANNISTER, LANNISTER_SECRET, MODERATOR,
    MODERATOR_SECRET, PLAYERS, STARK, STARK_SECRET, World,
};

const OTHER: &str = "autre";
/// A game name written to break out of the page.
const HOSTILE_NAME: &str = "La <script>alert('nom')</script> Guerre & \"Paix\"";

/// What must reach the page: the signed broadcasts.
const STARK_BROADCAST: &str =
    "Le Nord se souvient. <script>alert('presse')</script> <img src=x onerror=alert(1)>";
const MODERATOR_BROADCAST: &str = "Rappel du modérateur : soyez courtois.";
const LANNISTER_BROADCAST: &str = "Un Lannister paie toujours ses dettes.";
/// What must never reach it.
const PRIVATE_PRESS: &str = "Alliance secrète contre Baratheon";
const GREY_PRESS: &str = "Quelqu'un ment dans le Val";
const SUPERSEDED: &str = "A moa S A win";
const REJECTED: &str = "A har -> viv";

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + TimeDelta::minutes(minutes)
}

/// What this file does with a judge: a site beside its store, the two games of the golden
/// pages, and mails at so many minutes after the start.
trait Publishing {
    fn site(&self) -> Site;
    fn publish(&self, mode: Mode) -> PublishReport;
    /// The game of the golden pages: three players in French, grey press allowed, a
    /// moderator, started.
    fn create(&self);
    /// A second game, in English and still forming: the page of a game not begun.
    fn create_other(&self);
    fn mail(&mut self, from: &str, body: &str, minutes: i64);
    /// The first phase played: press of every kind, Stark's orders given twice (the first
    /// set superseded) with a line for a unit it does not have (rejected).
    fn play_first_phase(&mut self);
    fn process_at(&self, minutes: i64);
    fn page(&self, id: &str) -> String;
    /// Every page of a game, one after the other: its own and its phases'.
    fn pages(&self, id: &str) -> String;
}

impl Publishing for World {
    fn site(&self) -> Site {
        Site {
            dir: self.dir.join("site"),
            lang: Lang::Fr,
            templates: None,
        }
    }

    fn publish(&self, mode: Mode) -> PublishReport {
        let report = publish(self.service(), &self.site(), mode).unwrap();
        assert!(report.errors.is_empty(), "{report:?}");
        report
    }

    fn create(&self) {
        let spec = GameSpec {
            name: Some(HOSTILE_NAME.into()),
            ..GameSpec::westeros(
                GAME,
                Settings {
                    press: Press::Grey,
                    ..Settings::default()
                },
            )
        };
        self.create_game(spec, at(0));
        self.seat(GAME, &PLAYERS, true, at(0));
    }

    fn create_other(&self) {
        let spec = GameSpec {
            id: OTHER.into(),
            name: Some("A Song of Ice".into()),
            variant: "westeros".into(),
            players: 4,
            settings: Settings {
                lang: Lang::En,
                ..Settings::default()
            },
            moderator: None,
        };
        self.create_game(spec, at(0));
    }

    fn mail(&mut self, from: &str, body: &str, minutes: i64) {
        self.send_at(from, body, at(minutes));
    }

    fn play_first_phase(&mut self) {
        let stark = format!("PARTIE {GAME} Stark {STARK_SECRET}\n");
        self.mail(
            STARK,
            &format!("{stark}DIFFUSION\n{STARK_BROADCAST}\nFIN DIFFUSION\n{SUPERSEDED}\n"),
            10,
        );
        self.mail(
            STARK,
            &format!("{stark}A win -> moa\nF bla -> mfr\n{REJECTED}\n"),
            20,
        );
        self.mail(
            LANNISTER,
            &format!(
                "PARTIE {GAME} Lannister {LANNISTER_SECRET}\nPRESSE A Stark\n{PRIVATE_PRESS}\nFIN PRESSE\nF lan -> sdo\n"
            ),
            30,
        );
        self.mail(
            BARATHEON,
            &format!(
                "PARTIE {GAME} Baratheon {BARATHEON_SECRET}\nDIFFUSION GRISE\n{GREY_PRESS}\nFIN DIFFUSION\n"
            ),
            40,
        );
        self.mail(
            MODERATOR,
            &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nDIFFUSION\n{MODERATOR_BROADCAST}\nFIN DIFFUSION\n"),
            50,
        );
        self.process_at(60);
        // Press of the phase now being played.
        self.mail(
            LANNISTER,
            &format!(
                "PARTIE {GAME} Lannister {LANNISTER_SECRET}\nDIFFUSION\n{LANNISTER_BROADCAST}\nFIN DIFFUSION\n"
            ),
            70,
        );
    }

    fn process_at(&self, minutes: i64) {
        self.process(GAME, at(minutes));
    }

    fn page(&self, id: &str) -> String {
        fs::read_to_string(self.site().dir.join("games").join(id).join("index.html")).unwrap()
    }

    fn pages(&self, id: &str) -> String {
        all_files(&self.site().dir.join("games").join(id))
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .map(|p| fs::read_to_string(p).unwrap())
            .collect()
    }
}

/// Every file of a directory, recursively.
fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(all_files(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The text of an HTML file as a reader sees it: entities decoded.
fn decoded(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&amp;", "&")
}

/// The values of every `href="…"` and `src="…"` of a page, decoded.
fn links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(start) = rest.find(attr) {
            rest = &rest[start + attr.len()..];
            let end = rest.find('"').unwrap();
            found.push(decoded(&rest[..end]));
            rest = &rest[end..];
        }
    }
    found
}

/// Every link and picture of every page resolves: to a file of the site, or to an
/// element of the page (`#phase-0`). Returns how many were checked.
pub fn check_links(site: &Path) -> usize {
    let mut checked = 0;
    for page in all_files(site)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        let html = fs::read_to_string(&page).unwrap();
        for link in links(&html) {
            assert!(
                !link.contains("://") && !link.starts_with('/'),
                "{}: a link out of the site: {link}",
                page.display()
            );
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(target.is_file(), "{}: broken link {link}", page.display());
            if !fragment.is_empty() {
                let text = fs::read_to_string(&target).unwrap();
                assert!(
                    text.contains(&format!("id=\"{fragment}\"")),
                    "{}: no element #{fragment}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_published_pages_match_their_golden_files() {
    let mut w = World::new("publish", "golden");
    w.create();
    w.create_other();
    w.play_first_phase();
    let report = w.publish(Mode::All);
    assert_eq!(report.games, 2);
    // Two maps of the game played (now, after its phase), one of the game forming.
    assert_eq!(report.pictures_drawn, 3, "{report:?}");
    let site = w.site().dir;
    assert_golden(
        "publish/index.html",
        &fs::read_to_string(site.join("index.html")).unwrap(),
    );
    assert_golden("publish/westeros-1.html", &w.page(GAME));
    assert_golden(
        "publish/westeros-1-phase-000.html",
        &fs::read_to_string(site.join("games").join(GAME).join("phase-000.html")).unwrap(),
    );
    assert_golden("publish/autre.html", &w.page(OTHER));
    assert_eq!(
        fs::read_to_string(site.join("style.css")).unwrap(),
        include_str!("../src/publish/style.css")
    );
    let checked = check_links(&site);
    assert!(checked >= 10, "{checked} links");
    // The maps are the judge's SVGs, their proportions given to the page.
    let svg = fs::read_to_string(site.join("games").join(GAME).join("phase-000.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{svg:.80}"
    );
    assert!(
        w.page(GAME)
            .contains("<img src=\"current.svg\" alt=\"Carte de la position actuelle\" width=\"")
    );
}

#[test]
fn nothing_private_reaches_any_published_file() {
    let mut w = World::new("publish", "private");
    w.create();
    w.play_first_phase();
    w.publish(Mode::All);
    let site = w.site().dir;
    let mut everything = String::new();
    for file in all_files(&site) {
        let bytes = fs::read(&file).unwrap();
        everything.push_str(&decoded(&String::from_utf8_lossy(&bytes)));
        everything.push('\n');
    }
    let game = w.game(GAME);
    let mut never: Vec<String> = [
        STARK,
        LANNISTER,
        BARATHEON,
        MODERATOR,
        JUDGE,
        STARK_SECRET,
        LANNISTER_SECRET,
        BARATHEON_SECRET,
        MODERATOR_SECRET,
        "$argon2",
        PRIVATE_PRESS,
        GREY_PRESS,
        SUPERSEDED,
        REJECTED,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for seat in game.seats() {
        never.push(seat.player().unwrap().secret().to_string());
    }
    for secret in &never {
        assert!(!everything.contains(secret.as_str()), "published: {secret}");
    }
    // What is public is there: the signed broadcasts, with their author.
    let page = decoded(&w.pages(GAME));
    for public in [STARK_BROADCAST, MODERATOR_BROADCAST, LANNISTER_BROADCAST] {
        assert!(page.contains(public), "missing: {public}");
    }
    assert!(page.contains("Stark à toutes les maisons"), "{page}");
    assert!(
        page.contains("Le modérateur à toutes les maisons"),
        "{page}"
    );
}

#[test]
fn a_hostile_name_and_hostile_press_come_out_inert() {
    let mut w = World::new("publish", "hostile");
    w.create();
    w.play_first_phase();
    w.publish(Mode::All);
    // The pages, the maps and the feed: what a browser or a feed reader interprets.
    let marked_up = |p: &Path| {
        p.extension()
            .is_some_and(|e| e == "html" || e == "svg" || e == "xml")
    };
    let files: Vec<PathBuf> = all_files(&w.site().dir)
        .into_iter()
        .filter(|p| marked_up(p))
        .collect();
    assert!(files.iter().any(|f| f.ends_with("feed.xml")), "{files:?}");
    for file in files {
        let html = fs::read_to_string(&file).unwrap().to_lowercase();
        assert!(!html.contains("<img src=x"), "{}", file.display());
        assert!(!html.contains("<script"), "{}", file.display());
    }
    let page = w.pages(GAME);
    assert!(page.contains(
        "La &lt;script&gt;alert(&#x27;nom&#x27;)&lt;&#x2f;script&gt; Guerre &amp; &quot;Paix&quot;"
    ));
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
}

#[test]
fn a_second_publication_draws_and_writes_nothing() {
    let mut w = World::new("publish", "again");
    w.create();
    w.play_first_phase();
    let first = w.publish(Mode::All);
    assert!(first.pictures_drawn > 0 && first.pages > 0);
    let again = w.publish(Mode::All);
    assert_eq!(
        (again.pictures_drawn, again.pages, again.removed),
        (0, 0, 0),
        "{again:?}"
    );
    assert_eq!(again.pictures_kept, first.pictures_drawn);
    // What serve does: the games that did not change are not even read further.
    let changed = w.publish(Mode::Changed);
    assert_eq!(changed.unchanged, 1, "{changed:?}");
    // New press is a change: the page is written again, no picture drawn.
    w.mail(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nDIFFUSION\nL'hiver vient.\nFIN DIFFUSION\n"),
        80,
    );
    let press = w.publish(Mode::Changed);
    assert_eq!(
        (press.unchanged, press.pages, press.pictures_drawn),
        (0, 1, 0),
        "{press:?}"
    );
    assert!(w.page(GAME).contains("L&#x27;hiver vient."));
}

#[test]
fn a_rolled_back_phase_leaves_the_site_and_its_replay_is_drawn_anew() {
    let mut w = World::new("publish", "rollback");
    w.create();
    w.play_first_phase();
    w.process_at(90);
    w.publish(Mode::Changed);
    let folder = w.site().dir.join("games").join(GAME);
    assert!(folder.join("phase-001.svg").is_file());
    assert!(folder.join("phase-001.html").is_file());
    assert!(w.page(GAME).contains("id=\"phase-1\""));
    let before = fs::read(folder.join("phase-001.svg")).unwrap();
    w.rollback(GAME, at(100));
    let report = w.publish(Mode::Changed);
    assert!(!folder.join("phase-001.svg").exists(), "{report:?}");
    assert!(!folder.join("phase-001.html").exists(), "{report:?}");
    assert!(!w.page(GAME).contains("id=\"phase-1\""));
    assert!(report.removed >= 1, "{report:?}");
    check_links(&w.site().dir);
    // Played again with other orders: the same file name, a new picture.
    w.mail(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nA moa -> win\n"),
        110,
    );
    w.process_at(120);
    let replay = w.publish(Mode::Changed);
    assert!(replay.pictures_drawn >= 1, "{replay:?}");
    assert_ne!(fs::read(folder.join("phase-001.svg")).unwrap(), before);
    assert!(w.page(GAME).contains("id=\"phase-1\""));
}

#[test]
fn a_deleted_game_s_pages_go() {
    let mut w = World::new("publish", "deleted");
    w.create();
    w.create_other();
    w.play_first_phase();
    w.publish(Mode::All);
    let games = w.site().dir.join("games");
    assert!(games.join(OTHER).join("index.html").is_file());
    w.delete_game(OTHER);
    let report = w.publish(Mode::Changed);
    assert!(!games.join(OTHER).exists(), "{report:?}");
    let index = fs::read_to_string(w.site().dir.join("index.html")).unwrap();
    assert!(!index.contains("A Song of Ice"));
    assert!(index.contains("games&#x2f;westeros-1&#x2f;index.html"));
    check_links(&w.site().dir);
}

#[test]
fn a_folder_corbeau_did_not_write_is_refused_and_left_alone() {
    let w = World::new("publish", "foreign");
    let site = w.site();
    fs::create_dir_all(&site.dir).unwrap();
    fs::write(site.dir.join("precious.txt"), "mine").unwrap();
    let refused = publish(w.service(), &site, Mode::All);
    let Err(e @ PublishError::NotASite(_)) = refused else {
        panic!("{refused:?}")
    };
    assert!(
        e.message(Lang::Fr)
            .contains("n'est pas un site écrit par corbeau")
    );
    assert!(
        e.message(Lang::En)
            .contains("is not a site written by corbeau")
    );
    assert_eq!(
        fs::read_to_string(site.dir.join("precious.txt")).unwrap(),
        "mine"
    );
    assert_eq!(support::judge::files(&site.dir), ["precious.txt"]);
}

#[test]
fn tick_keeps_the_configured_site_up_to_date_and_a_failure_stops_nothing() {
    use support::judge::{corbeau, root, run, said};
    let dir = root("publish", "[publish]\ndir = \"site\"\n");
    let cli = |args: &[&str]| {
        let out = run(corbeau(&dir).args(args), "");
        assert!(out.status.success(), "{args:?}: {}", said(&out));
        out
    };
    cli(&["game", "new", "g1", "--players", "3"]);
    for house in ["stark", "lannister", "baratheon"] {
        cli(&[
            "player",
            "add",
            "g1",
            house,
            &format!("{house}@example.org"),
        ]);
    }
    cli(&["game", "start", "g1"]);
    cli(&["tick"]);
    let page = dir.join("site/games/g1/index.html");
    assert!(page.is_file());
    assert!(dir.join("site/games/g1/current.svg").is_file());
    assert!(!fs::read_to_string(&page).unwrap().contains("phase-0"));
    // A phase processed by the moderator between two passes: the next pass publishes it.
    cli(&["game", "process", "g1"]);
    cli(&["tick"]);
    assert!(
        fs::read_to_string(&page)
            .unwrap()
            .contains("id=\"phase-0\"")
    );
    assert!(dir.join("site/games/g1/phase-000.svg").is_file());
    check_links(&dir.join("site"));
    // A site corbeau may not write: the pass still does its work, and says why.
    let config = fs::read_to_string(dir.join("corbeau.toml")).unwrap();
    fs::write(
        dir.join("corbeau.toml"),
        config.replace("dir = \"site\"", "dir = \"foreign\""),
    )
    .unwrap();
    fs::create_dir_all(dir.join("foreign")).unwrap();
    fs::write(dir.join("foreign/notes.txt"), "mine").unwrap();
    cli(&["game", "process", "g1"]);
    let out = run(corbeau(&dir).args(["tick"]), "");
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("n'est pas un site écrit par corbeau"),
        "{}",
        said(&out)
    );
    assert_eq!(support::judge::files(&dir.join("foreign")), ["notes.txt"]);
}

// ------------------------------------------------------------------ in a browser

/// The browser of the test: `CORBEAU_CHROMIUM`, else `chromium`, `chromium-browser` or
/// `google-chrome` found in PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CORBEAU_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"]
                .into_iter()
                .map(move |name| dir.join(name))
        })
        .find(|p| p.is_file())
}

/// Runs the browser headless on a page, killed if it takes more than a minute; its
/// standard output (the DOM with `--dump-dom`).
fn browse(browser: &Path, profile: &Path, args: &[&str], page: &Path) -> String {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let out_file = profile.with_extension("out");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            // Root (CI containers) has no sandbox; the page is the test's own file.
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdout(fs::File::create(&out_file).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{} {args:?}: {status}", browser.display());
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{} {args:?}: still running after 60 s, stopped",
                browser.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    fs::read_to_string(&out_file).unwrap_or_default()
}

/// A PNG as (width, height, RGB), whatever its colour type.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let samples = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(samples)
        .flat_map(|px| {
            if samples >= 3 {
                [px[0], px[1], px[2]]
            } else {
                [px[0]; 3]
            }
        })
        .collect();
    (info.width, info.height, rgb)
}

/// The screenshot made smaller: each block of `BLOCK`×`BLOCK` pixels becomes its mean
/// colour. What is compared with the reference, and the reference itself (a small PNG a
/// person can look at).
const BLOCK: u32 = 4;

fn reduce(width: u32, height: u32, rgb: &[u8]) -> (u32, u32, Vec<u8>) {
    let (w, h) = (width / BLOCK, height / BLOCK);
    let mut out = Vec::with_capacity((w * h * 3) as usize);
    for by in 0..h {
        for bx in 0..w {
            for c in 0..3 {
                let mut sum = 0u32;
                for y in by * BLOCK..(by + 1) * BLOCK {
                    for x in bx * BLOCK..(bx + 1) * BLOCK {
                        sum += u32::from(rgb[((y * width + x) * 3 + c) as usize]);
                    }
                }
                out.push((sum / (BLOCK * BLOCK)) as u8);
            }
        }
    }
    (w, h, out)
}

fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(rgb).unwrap();
    writer.finish().unwrap();
    bytes
}

/// The browser, or none where it is not installed (the test is then skipped, and says so,
/// unless CORBEAU_REQUIRE_CHROMIUM is set: `.ci/run` sets it and installs Debian's
/// chromium).
fn required_chromium(test: &str) -> Option<PathBuf> {
    let browser = chromium();
    if browser.is_none() {
        assert!(
            std::env::var_os("CORBEAU_REQUIRE_CHROMIUM").is_none(),
            "CORBEAU_REQUIRE_CHROMIUM is set and no chromium was found (apt-get install chromium)"
        );
        eprintln!(
            "SKIPPED {test}: no chromium in PATH \
             (apt-get install chromium, or CORBEAU_CHROMIUM=/path/to/chrome)"
        );
    }
    browser
}

/// A screenshot of `page` in a window of `size`, reduced, close to the reference
/// `tests/golden/publish/<reference>` (the screenshot reduced 4 times; CORBEAU_BLESS=1
/// rewrites it).
fn assert_screenshot(w: &World, browser: &Path, page: &Path, size: (u32, u32), reference: &str) {
    let shot = w.dir.join(reference);
    browse(
        browser,
        &w.dir.join("chromium-profile"),
        &[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={},{}", size.0, size.1),
        ],
        page,
    );
    let (width, height, rgb) = decode_png(&fs::read(&shot).unwrap());
    assert_eq!((width, height), size);
    let (rw, rh, reduced) = reduce(width, height, &rgb);
    let reference_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/publish")
        .join(reference);
    if std::env::var_os("CORBEAU_BLESS").is_some() {
        fs::write(&reference_path, encode_png(rw, rh, &reduced)).unwrap();
        return;
    }
    let (ew, eh, expected) = decode_png(&fs::read(&reference_path).unwrap());
    assert_eq!((ew, eh), (rw, rh), "the size of {reference}");
    // Loose: fonts differ from one machine to another, so text moves a little; the map,
    // the colours and the layout must be where they were.
    let diffs: Vec<u32> = reduced
        .chunks(3)
        .zip(expected.chunks(3))
        .map(|(a, b)| {
            (0..3)
                .map(|c| u32::from(a[c].abs_diff(b[c])))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mean = diffs.iter().sum::<u32>() as f64 / diffs.len() as f64;
    let far = diffs.iter().filter(|d| **d > 64).count() as f64 / diffs.len() as f64;
    let close = mean < 12.0 && far < 0.12;
    // Only a screenshot that fails is kept, to be looked at: one that passes leaves
    // nothing behind.
    let kept = std::env::temp_dir().join(format!("corbeau-{reference}"));
    if !close {
        fs::copy(&shot, &kept).unwrap();
    }
    assert!(
        close,
        "the screenshot is far from {reference} (mean difference {mean:.1}, {:.1}% of blocks far); \
         screenshot kept at {}",
        far * 100.0,
        kept.display()
    );
}

/// The game pages opened in headless Chromium: the browser's own DOM has no script
/// element (the hostile name and press stayed text), every picture it names is a file,
/// and the game's page and a phase's page look as reviewed, on a phone (412 pixels wide)
/// and on a desktop (1280): tests/golden/publish/chromium-*.png.
#[test]
fn the_game_page_reads_in_headless_chromium() {
    let Some(browser) = required_chromium("the_game_page_reads_in_headless_chromium") else {
        return;
    };
    let mut w = World::new("publish", "chromium");
    w.create();
    play_years(&mut w);
    w.publish(Mode::All);
    let folder = w.site().dir.join("games").join(GAME);
    let page = folder.join("index.html");
    let profile = w.dir.join("chromium-profile");

    let dom = browse(&browser, &profile, &["--dump-dom"], &page);
    assert!(
        dom.contains("<h1>La &lt;script&gt;alert('nom')&lt;/script&gt; Guerre &amp; \"Paix\"</h1>"),
        "{dom}"
    );
    assert!(
        !dom.to_lowercase().contains("<script"),
        "a script element: {dom}"
    );
    let pictures: Vec<&str> = dom
        .split("<img ")
        .skip(1)
        .filter_map(|tag| tag.split("src=\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(pictures, ["current.svg"], "{dom}");
    for src in &pictures {
        assert!(folder.join(src).is_file(), "{src}");
    }
    assert_screenshot(&w, &browser, &page, (412, 1400), "chromium-phone.png");
    assert_screenshot(&w, &browser, &page, (1280, 900), "chromium-desktop.png");
    let phase = folder.join("phase-000.html");
    assert_screenshot(
        &w,
        &browser,
        &phase,
        (412, 1400),
        "chromium-phone-phase.png",
    );
    assert_screenshot(
        &w,
        &browser,
        &phase,
        (1280, 900),
        "chromium-desktop-phase.png",
    );
}

/// What the reading check found on a page at 412 pixels wide: the text that renders under
/// 12 CSS pixels (its size and its start), and the page's scroll width against its width.
/// A copy of the page, beside it (its links still resolve), gets a script that opens every
/// `<details>`, measures each rendered text node (an SVG's text at the size its drawing is
/// scaled to) and writes its verdict into the DOM, which the browser dumps.
#[derive(Debug, serde::Deserialize)]
struct Reading {
    small: Vec<String>,
    #[serde(rename = "scrollWidth")]
    scroll_width: u32,
    #[serde(rename = "clientWidth")]
    client_width: u32,
}

const READING_CHECK: &str = r#"<script>
(function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var small = [];
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var range = document.createRange();
  for (var n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.nodeValue.trim()) continue;
    range.selectNodeContents(n);
    if (range.getClientRects().length === 0) continue;
    var el = n.parentElement;
    var size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) {
      var m = el.getScreenCTM();
      size *= Math.sqrt(m.a * m.a + m.b * m.b);
    }
    if (size < 11.95) small.push(size.toFixed(1) + "px: " + n.nodeValue.trim().slice(0, 40));
  }
  var d = document.documentElement;
  parent.postMessage(JSON.stringify({ small: small, scrollWidth: d.scrollWidth, clientWidth: d.clientWidth }), "*");
})();
</script>"#;

/// The frame the checked copy is read in: headless Chromium lays a page out at no less
/// than 500 pixels wide whatever its window, so the copy is shown in a frame 412 pixels
/// wide (its own viewport), which posts its verdict here to be dumped.
const READING_FRAME: &str = r#"<!DOCTYPE html>
<html><body style="margin:0">
<iframe src="COPY" style="width:412px;height:900px;border:0"></iframe>
<script>
window.addEventListener("message", function (e) {
  var out = document.createElement("pre");
  out.id = "reading-verdict";
  out.textContent = e.data;
  document.body.appendChild(out);
});
</script>
</body></html>"#;

fn reading(w: &World, browser: &Path, page: &Path, extra_style: &str) -> Reading {
    let html = fs::read_to_string(page).unwrap();
    let checked = html.replace(
        "</body>",
        &format!("<style>{extra_style}</style>\n{READING_CHECK}\n</body>"),
    );
    let copy = page.with_file_name(format!(
        "reading-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    fs::write(&copy, checked).unwrap();
    let frame = page.with_file_name("reading-frame.html");
    let copy_name = copy.file_name().unwrap().to_string_lossy().into_owned();
    fs::write(&frame, READING_FRAME.replace("COPY", &copy_name)).unwrap();
    let dom = browse(
        browser,
        &w.dir.join("chromium-profile"),
        &[
            "--dump-dom",
            "--window-size=800,1000",
            "--virtual-time-budget=5000",
        ],
        &frame,
    );
    fs::remove_file(&copy).unwrap();
    fs::remove_file(&frame).unwrap();
    let verdict = dom
        .split("<pre id=\"reading-verdict\">")
        .nth(1)
        .and_then(|v| v.split("</pre>").next())
        .unwrap_or_else(|| panic!("{}: no verdict in {dom}", page.display()));
    let reading: Reading = serde_json::from_str(&decoded(verdict)).unwrap();
    assert_eq!(
        reading.client_width,
        412,
        "{}: not read at 412 px",
        page.display()
    );
    reading
}

fn assert_reads_on_a_phone(w: &World, browser: &Path, page: &Path) {
    let r = reading(w, browser, page, "");
    assert!(
        r.small.is_empty(),
        "{}: text under 12 px at 412 px: {:?}",
        page.display(),
        r.small
    );
    assert!(
        r.scroll_width <= r.client_width,
        "{}: scrolls sideways at 412 px ({} > {})",
        page.display(),
        r.scroll_width,
        r.client_width
    );
}

/// At 412 pixels wide (a phone) no text of any page renders under 12 CSS pixels
/// and no page scrolls sideways: the site's index, the game's page, every phase's page, and
/// the page of a game not begun.
#[test]
fn every_page_reads_at_412_pixels() {
    let Some(browser) = required_chromium("every_page_reads_at_412_pixels") else {
        return;
    };
    let mut w = World::new("publish", "reading");
    w.create();
    w.create_other();
    let played = play_years(&mut w);
    w.publish(Mode::All);
    let site = w.site().dir;
    let folder = site.join("games").join(GAME);
    let mut pages = vec![
        site.join("index.html"),
        folder.join("index.html"),
        site.join("games").join(OTHER).join("index.html"),
    ];
    pages.extend((0..played).map(|i| folder.join(format!("phase-{i:03}.html"))));
    for page in &pages {
        assert_reads_on_a_phone(&w, &browser, page);
    }
}

/// The reading check fails where it should: on the same page with a style sheet that
/// sets the order tables' text at 10 px, and with one that makes a block wider than the
/// screen, it reports both. A table of centres wider than the screen scrolls in its own
/// box: the page does not, unless that box lets it overflow.
#[test]
fn the_reading_check_finds_small_text_and_sideways_scrolling() {
    let Some(browser) =
        required_chromium("the_reading_check_finds_small_text_and_sideways_scrolling")
    else {
        return;
    };
    let mut w = World::new("publish", "reading-broken");
    w.create();
    w.play_first_phase();
    w.publish(Mode::All);
    let page = w.site().dir.join("games").join(GAME).join("phase-000.html");
    let small = reading(&w, &browser, &page, "table.orders td { font-size: 10px; }");
    assert!(
        small
            .small
            .iter()
            .any(|s| s.starts_with("10.0px: A Winterfell")),
        "{small:?}"
    );
    assert!(small.scroll_width <= small.client_width, "{small:?}");
    let wide = reading(&w, &browser, &page, "h1 { width: 600px; }");
    assert!(wide.scroll_width > wide.client_width, "{wide:?}");
    assert!(wide.small.is_empty(), "{wide:?}");
    // A table of centres wider than the screen scrolls in its own box, not the page.
    let index = page.with_file_name("index.html");
    let table = reading(&w, &browser, &index, "table.centres { width: 800px; }");
    assert!(table.scroll_width <= table.client_width, "{table:?}");
    let unboxed = reading(
        &w,
        &browser,
        &index,
        "table.centres { width: 800px; } .wide { overflow-x: visible; }",
    );
    assert!(unboxed.scroll_width > unboxed.client_width, "{unboxed:?}");
}

/// A game of the 2-player test map of tests/fixtures/maps/mini.toml, stored without going
/// through the service. Not `kept`: the store lacks the variant's pinned text (a damaged
/// store), so the game's variant cannot be read.
fn store_mini(w: &World, kept: bool) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps/mini.toml");
    w.store_game_of_file("mini", &file.display().to_string(), 2, kept);
}

#[test]
fn a_variant_without_drawing_has_pages_without_maps() {
    let w = World::new("publish", "nodrawing");
    store_mini(&w, true);
    let report = w.publish(Mode::All);
    assert_eq!((report.games, report.pictures_drawn), (1, 0), "{report:?}");
    let page = w.page("mini");
    assert!(page.contains("Pas de carte pour cette variante."), "{page}");
    assert!(!page.contains("<img"), "{page}");
    check_links(&w.site().dir);
}

#[test]
fn a_game_whose_variant_cannot_be_read_stops_only_its_game() {
    let mut w = World::new("publish", "broken");
    w.create();
    w.play_first_phase();
    store_mini(&w, false);
    // As if published before the file broke: its pages stay.
    let folder = w.site().dir.join("games/mini");
    fs::create_dir_all(&folder).unwrap();
    fs::write(w.site().dir.join(".corbeau-site"), "").unwrap();
    fs::write(folder.join("index.html"), "before").unwrap();
    let report = publish(w.service(), &w.site(), Mode::All).unwrap();
    assert_eq!(report.errors.len(), 1, "{report:?}");
    assert_eq!(report.errors[0].0, "mini");
    assert_eq!(
        fs::read_to_string(folder.join("index.html")).unwrap(),
        "before"
    );
    assert!(
        w.page(GAME)
            .contains(LANNISTER_BROADCAST.replace('\'', "&#x27;").as_str())
    );
}

/// A link in the site (a game's folder, the games folder, a file of a game's folder, a
/// deleted game's folder) is removed, never followed: what it points to outside the site
/// is neither written nor cleaned (a symlinked game folder had its target's
/// files deleted).
#[test]
fn links_in_the_site_are_removed_never_followed() {
    use std::os::unix::fs::symlink;
    let mut w = World::new("publish", "links");
    w.create();
    w.create_other();
    w.play_first_phase();
    w.publish(Mode::All);
    let outside = w.dir.join("outside");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("precious.txt"), "mine").unwrap();
    fs::write(outside.join("index.html"), "not corbeau's").unwrap();
    let games = w.site().dir.join("games");
    // The game's folder replaced by a link to a folder outside.
    fs::remove_dir_all(games.join(GAME)).unwrap();
    symlink(&outside, games.join(GAME)).unwrap();
    // A folder of a game no longer in the store, as a link.
    let gone = w.dir.join("gone");
    fs::create_dir_all(&gone).unwrap();
    fs::write(gone.join("precious.txt"), "mine too").unwrap();
    symlink(&gone, games.join("ghost")).unwrap();
    // A link among a game's files.
    let lone = w.dir.join("lone.txt");
    fs::write(&lone, "alone").unwrap();
    symlink(&lone, games.join(OTHER).join("extra.txt")).unwrap();
    fs::remove_file(games.join(OTHER).join("index.html")).unwrap();
    symlink(&lone, games.join(OTHER).join("index.html")).unwrap();
    let report = w.publish(Mode::Changed);
    assert_eq!(
        support::judge::files(&outside),
        ["index.html", "precious.txt"],
        "{report:?}"
    );
    assert_eq!(
        fs::read_to_string(outside.join("index.html")).unwrap(),
        "not corbeau's"
    );
    assert_eq!(support::judge::files(&gone), ["precious.txt"]);
    assert_eq!(fs::read_to_string(&lone).unwrap(), "alone");
    for folder in [GAME, OTHER] {
        let path = games.join(folder);
        assert!(!fs::symlink_metadata(&path).unwrap().is_symlink());
        assert!(
            !fs::symlink_metadata(path.join("index.html"))
                .unwrap()
                .is_symlink()
        );
        assert!(!path.join("extra.txt").exists());
    }
    assert!(fs::symlink_metadata(games.join("ghost")).is_err());
    assert!(w.page(GAME).contains("<html"));
    // The games folder itself as a link.
    let elsewhere = w.dir.join("elsewhere");
    fs::rename(&games, &elsewhere).unwrap();
    symlink(&elsewhere, &games).unwrap();
    w.publish(Mode::All);
    assert!(!fs::symlink_metadata(&games).unwrap().is_symlink());
    assert!(elsewhere.join(GAME).join("index.html").is_file());
    check_links(&w.site().dir);
}

/// D18: a game the moderator ends before its phase is processed keeps the broadcasts of
/// that phase on its page (they were dropped with the current phase).
#[test]
fn the_last_broadcasts_of_a_game_ended_mid_phase_stay_on_its_page() {
    let mut w = World::new("publish", "ended-mid-phase");
    w.create();
    w.play_first_phase();
    w.act(
        GAME,
        corbeau::game::Action::End(corbeau::game::EndBy::Draw),
        at(80),
    );
    assert!(w.game(GAME).ending().is_some());
    w.publish(Mode::All);
    let page = w.page(GAME);
    assert!(page.contains(LANNISTER_BROADCAST), "{page}");
    assert!(
        page.contains("Presse publique après la dernière phase jouée"),
        "{page}"
    );
}

/// A finished game's page links its replay, an animated PNG of one
/// frame per played phase, drawn once; a game still played has none.
#[test]
fn a_finished_game_s_page_links_its_replay() {
    let mut w = World::new("publish", "replay");
    w.create();
    w.play_first_phase();
    w.process_at(90);
    w.publish(Mode::All);
    let folder = w.site().dir.join("games").join(GAME);
    assert!(!folder.join("replay.png").exists());
    assert!(!w.page(GAME).contains("replay.png"));
    w.act(
        GAME,
        corbeau::game::Action::End(corbeau::game::EndBy::Draw),
        at(100),
    );
    w.publish(Mode::All);
    let page = w.page(GAME);
    assert!(page.contains("href=\"replay.png\""), "{page}");
    assert!(
        page.contains("Toute la partie en une image animée"),
        "{page}"
    );
    let png = fs::read(folder.join("replay.png")).unwrap();
    // The animation chunk (acTL) says how many frames: one per played phase.
    let at = png.windows(4).position(|c| c == b"acTL").unwrap();
    let frames = u32::from_be_bytes(png[at + 4..at + 8].try_into().unwrap());
    assert_eq!(frames, w.game(GAME).played());
    check_links(&w.site().dir);
    let again = w.publish(Mode::All);
    assert_eq!(again.pictures_drawn, 0, "{again:?}");
    assert!(folder.join("replay.png").is_file());
}

/// The press archive. Every press message is kept with its author
/// (a grey one's too) and audience, and `corbeau export` — the moderator's — carries it
/// whole; the site still shows only the signed broadcasts.
#[test]
fn the_press_archive_keeps_every_message_for_the_moderator_alone() {
    let mut w = World::new("publish", "archive");
    w.create();
    w.play_first_phase();
    w.publish(Mode::All);
    let data = w.config.data_dir.clone();
    w.close();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(["export", GAME, "--data"])
        .arg(&data)
        .output()
        .unwrap();
    w.reopen();
    assert!(out.status.success(), "{out:?}");
    let export: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let press = export["press"].as_array().unwrap();
    let find = |body: &str| {
        press
            .iter()
            .find(|p| p["body"].as_str().is_some_and(|b| b.contains(body)))
            .unwrap_or_else(|| panic!("{body} not archived: {press:#?}"))
    };
    let private = find(PRIVATE_PRESS);
    assert_eq!(private["house"], "lannister");
    assert_eq!(
        private["to"],
        serde_json::json!({"kind": "houses", "houses": ["stark"]})
    );
    let grey = find(GREY_PRESS);
    assert_eq!(
        (&grey["house"], &grey["grey"]),
        (&"baratheon".into(), &true.into())
    );
    assert_eq!(find(MODERATOR_BROADCAST)["house"], serde_json::Value::Null);
    assert_eq!(find(STARK_BROADCAST)["to"]["kind"], "all");
    for file in all_files(&w.site().dir) {
        let text = String::from_utf8_lossy(&fs::read(&file).unwrap()).into_owned();
        assert!(
            !decoded(&text).contains(PRIVATE_PRESS),
            "{}",
            file.display()
        );
        assert!(!decoded(&text).contains(GREY_PRESS), "{}", file.display());
    }
}

/// The game of the golden pages played on for several years: after its first phase, each
/// phase is processed with the orders given (holds otherwise) until its fourth year has
/// begun. Stark takes a centre in the first autumn, so that the chart has a line that
/// moves. The records it made.
fn play_years(w: &mut World) -> usize {
    w.play_first_phase();
    let first_year = w.game(GAME).phase().year;
    // The Stony Shore, a centre of no one's, next to Winterfell.
    w.mail(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nA win -> roc\n"),
        85,
    );
    let mut minutes = 90;
    while w.game(GAME).phase().year < first_year + 3 {
        assert!(minutes < 400, "the game does not reach its third year");
        w.process_at(minutes);
        minutes += 10;
    }
    w.game(GAME).played() as usize
}

/// What a page's stepper links to, in the order of the page: (label, href), none for a
/// step that goes nowhere (shown without a link).
fn stepper(html: &str) -> Vec<(String, Option<String>)> {
    let nav = html
        .split("<nav class=\"stepper\"")
        .nth(1)
        .and_then(|n| n.split("</nav>").next())
        .unwrap_or_else(|| panic!("no stepper: {html}"));
    nav.lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("<a href=\"") {
                let (href, rest) = rest.split_once('"')?;
                let label = rest.split_once('>')?.1.split_once("</a>")?.0;
                Some((decoded(label), Some(href.to_string())))
            } else if let Some(rest) = line.strip_prefix("<span aria-disabled=\"true\">") {
                Some((decoded(rest.split_once("</span>")?.0), None))
            } else {
                None
            }
        })
        .collect()
}

/// A game of several years has a page per played phase with a stepper (first,
/// previous, next, last) across all of them, each phase's orders as a table per house with
/// their outcomes, and a supply-centre chart over the years with its figures as a table.
#[test]
fn a_game_of_several_years_has_a_stepper_order_tables_and_a_centre_chart() {
    let mut w = World::new("publish", "years");
    w.create();
    let played = play_years(&mut w);
    assert!(played >= 6, "{played} phases");
    w.publish(Mode::All);
    let folder = w.site().dir.join("games").join(GAME);
    let page = |name: &str| fs::read_to_string(folder.join(name)).unwrap();
    let name = |i: usize| format!("phase-{i:03}.html");
    for i in 0..played {
        let html = page(&name(i));
        let steps = stepper(&html);
        let hrefs: Vec<Option<String>> = steps.iter().map(|(_, h)| h.clone()).collect();
        let first = (i > 0).then(|| name(0));
        let previous = (i > 0).then(|| name(i - 1));
        let next = (i + 1 < played).then(|| name(i + 1));
        let last = (i + 1 < played).then(|| name(played - 1));
        assert_eq!(
            hrefs,
            [first, previous, next, last],
            "{}: {steps:?}",
            name(i)
        );
        assert!(html.contains(&format!("{} / {played}", i + 1)), "{html}");
        assert!(html.contains("rel=\"next\"") == (i + 1 < played));
        assert!(html.contains("rel=\"prev\"") == (i > 0));
        // The reader may zoom.
        assert!(
            html.contains(
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            )
        );
    }
    // The first phase's orders, a table per house, with the outcomes the results give.
    let first = decoded(&page(&name(0)));
    assert!(first.contains("<table class=\"orders\">"), "{first}");
    assert!(first.contains("Stark</caption>"), "{first}");
    assert!(first.contains("Lannister</caption>"), "{first}");
    assert!(
        first.contains(
            "<tr class=\"failed\"><td>A Winterfell (win) -> Moat Cailin (moa)</td>\n\
             <td>échoué : ne peut pas déloger une unité de sa propre maison</td></tr>"
        ),
        "{first}"
    );
    let second = decoded(&page(&name(1)));
    assert!(
        second.contains(
            "<tr class=\"succeeded\"><td>A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)</td>"
        ),
        "{second}"
    );
    // A unit of a house that gave no order holds, and says so.
    assert!(first.contains("tient (aucun ordre)</td>"), "{first}");
    // The game's page: the stepper to the first and the last phase, every phase listed,
    // the chart with a line per house holding centres.
    let index = page("index.html");
    assert_eq!(
        stepper(&index)
            .iter()
            .map(|(_, h)| h.clone())
            .collect::<Vec<_>>(),
        [Some(name(0)), Some(name(played - 1))]
    );
    for i in 0..played {
        assert!(index.contains(&format!("<li id=\"phase-{i}\"><a href=\"{}\">", name(i))));
    }
    let lines = index.matches("<polyline class=\"series\"").count();
    let houses_holding = w.game(GAME).seats().len();
    assert_eq!(lines, houses_holding, "{index}");
    let rows = index
        .split("<table class=\"centres\">")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap();
    // The start, then the end of each year played (the fourth is begun, not ended).
    let years = rows.matches("<tr><th>").count() - 1;
    assert_eq!(years, 1 + 3, "{rows}");
    assert!(rows.contains("<tr><th>Début</th>"), "{rows}");
    check_links(&w.site().dir);
}

/// Checks `value` against `schema`, a JSON Schema using only the keywords below (any
/// other is refused, so that the schema cannot say what this check would not test): the
/// places where it does not hold, by JSON pointer.
fn schema_errors(
    root: &serde_json::Value,
    schema: &serde_json::Value,
    value: &serde_json::Value,
    at: &str,
) -> Vec<String> {
    use serde_json::Value as J;
    let mut errors = Vec::new();
    let J::Object(rules) = schema else {
        panic!("{at}: a schema that is not an object")
    };
    for (key, rule) in rules {
        match key.as_str() {
            "$schema" | "$id" | "$defs" | "title" | "description" => {}
            "$ref" => {
                let name = rule.as_str().unwrap().strip_prefix("#/$defs/").unwrap();
                errors.extend(schema_errors(root, &root["$defs"][name], value, at));
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    J::Array(list) => list.iter().map(|t| t.as_str().unwrap()).collect(),
                    t => vec![t.as_str().unwrap()],
                };
                let fits = types.iter().any(|t| match *t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    other => panic!("{at}: type {other} not checked"),
                });
                if !fits {
                    errors.push(format!("{at}: not of type {types:?}: {value}"));
                }
            }
            "enum" => {
                if !rule.as_array().unwrap().contains(value) {
                    errors.push(format!("{at}: {value} not in {rule}"));
                }
            }
            "required" => {
                for field in rule.as_array().unwrap() {
                    let field = field.as_str().unwrap();
                    if value.is_object() && value.get(field).is_none() {
                        errors.push(format!("{at}: no {field}"));
                    }
                }
            }
            "properties" => {
                if let J::Object(fields) = value {
                    for (name, sub) in rule.as_object().unwrap() {
                        if let Some(v) = fields.get(name) {
                            errors.extend(schema_errors(root, sub, v, &format!("{at}/{name}")));
                        }
                    }
                }
            }
            "additionalProperties" => {
                assert_eq!(rule, &J::Bool(false), "{at}: only false is checked");
                if let J::Object(fields) = value {
                    for name in fields.keys() {
                        if rules["properties"].get(name).is_none() {
                            errors.push(format!("{at}: unexpected field {name}"));
                        }
                    }
                }
            }
            "items" => {
                if let J::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        errors.extend(schema_errors(root, rule, item, &format!("{at}/{i}")));
                    }
                }
            }
            "maxItems" => {
                if value
                    .as_array()
                    .is_some_and(|a| a.len() as u64 > rule.as_u64().unwrap())
                {
                    errors.push(format!("{at}: more than {rule} items"));
                }
            }
            "minimum" => {
                if value.as_i64().is_some_and(|n| n < rule.as_i64().unwrap()) {
                    errors.push(format!("{at}: {value} under {rule}"));
                }
            }
            "anyOf" => {
                let each: Vec<Vec<String>> = rule
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|sub| schema_errors(root, sub, value, at))
                    .collect();
                if !each.iter().any(Vec::is_empty) {
                    errors.push(format!("{at}: fits none of {rule}"));
                    errors.extend(each.into_iter().flatten());
                }
            }
            other => panic!("{at}: keyword {other} not checked"),
        }
    }
    errors
}

fn game_json_schema() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/game-json.schema.json");
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Each game's `game.json` holds its public data (every phase with its position
/// and public results) in the form docs/game-json.schema.json gives, and nothing private;
/// a game not begun has one too. The check finds what is wrong in a damaged copy.
#[test]
fn game_json_follows_its_schema_and_holds_only_public_data() {
    let mut w = World::new("publish", "json");
    w.create();
    w.create_other();
    let played = play_years(&mut w);
    w.publish(Mode::All);
    let schema = game_json_schema();
    let games = w.site().dir.join("games");
    let read = |id: &str| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(games.join(id).join("game.json")).unwrap())
            .unwrap()
    };
    let data = read(GAME);
    assert_eq!(
        schema_errors(&schema, &schema, &data, ""),
        Vec::<String>::new()
    );
    let other = read(OTHER);
    assert_eq!(
        schema_errors(&schema, &schema, &other, ""),
        Vec::<String>::new()
    );
    assert_eq!(other["phases"], serde_json::json!([]));
    assert_eq!(data["name"], HOSTILE_NAME);
    let phases = data["phases"].as_array().unwrap();
    assert_eq!(phases.len(), played);
    for (i, phase) in phases.iter().enumerate() {
        assert_eq!(phase["index"], i);
        assert!(
            games
                .join(GAME)
                .join(phase["page"].as_str().unwrap())
                .is_file()
        );
    }
    assert_eq!(data["houses"].as_array().unwrap().len(), PLAYERS.len());
    // The first phase: Stark's orders as carried out, and no trace of the rejected line or
    // of the set it replaced.
    let text = data.to_string();
    for private in [
        SUPERSEDED,
        REJECTED,
        PRIVATE_PRESS,
        GREY_PRESS,
        STARK,
        STARK_SECRET,
    ] {
        assert!(!text.contains(private), "game.json holds {private}");
    }
    assert!(text.contains("\"order\":\"A win -> moa\""), "{text}");
    // Damaged copies do not pass: the check is not a formality.
    let mut extra = data.clone();
    extra["secret"] = "x".into();
    let mut rejected = data.clone();
    rejected["phases"][0]["results"]["rejected"] = serde_json::json!([{ "written": REJECTED }]);
    let mut season = data.clone();
    season["phases"][1]["phase"]["season"] = "summer".into();
    let mut missing = data.clone();
    missing["phases"][0]
        .as_object_mut()
        .unwrap()
        .remove("position");
    for (bad, why) in [
        (extra, ": unexpected field secret"),
        (rejected, "/phases/0/results/rejected: more than 0 items"),
        (season, "/phases/1/phase/season: \"summer\" not in"),
        (missing, "/phases/0: no position"),
    ] {
        let errors = schema_errors(&schema, &schema, &bad, "");
        assert!(
            errors.iter().any(|e| e.starts_with(why)),
            "{why}: {errors:?}"
        );
    }
}

/// Each game's `feed.xml` is an Atom feed (RFC 4287) of its played phases: the
/// feed's id, title, updated, author and links, and per phase an entry with its own id,
/// title, updated time and a link to the phase's page, its public results as content.
#[test]
fn the_feed_is_atom_with_an_entry_per_phase() {
    let mut w = World::new("publish", "feed");
    w.create();
    let played = play_years(&mut w);
    w.publish(Mode::All);
    let folder = w.site().dir.join("games").join(GAME);
    let text = fs::read_to_string(folder.join("feed.xml")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    const ATOM: &str = "http://www.w3.org/2005/Atom";
    let feed = doc.root_element();
    assert_eq!(
        (feed.tag_name().namespace(), feed.tag_name().name()),
        (Some(ATOM), "feed")
    );
    let child = |node: roxmltree::Node<'_, '_>, name: &str| -> Vec<String> {
        node.children()
            .filter(|c| {
                c.is_element()
                    && c.tag_name().name() == name
                    && c.tag_name().namespace() == Some(ATOM)
            })
            .map(|c| c.text().unwrap_or_default().to_string())
            .collect()
    };
    let one = |node: roxmltree::Node<'_, '_>, name: &str| -> String {
        let found = child(node, name);
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        found[0].clone()
    };
    let iri = |id: &str| {
        assert!(id.starts_with("urn:uuid:") && id.len() == 45, "{id}");
    };
    let time = |t: &str| DateTime::parse_from_rfc3339(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    iri(&one(feed, "id"));
    assert_eq!(decoded(&one(feed, "title")), HOSTILE_NAME);
    let updated = time(&one(feed, "updated"));
    let author = feed
        .children()
        .find(|c| c.tag_name().name() == "author")
        .unwrap();
    assert_eq!(one(author, "name"), "corbeau");
    let links = |node: roxmltree::Node<'_, '_>| -> Vec<(String, String)> {
        node.children()
            .filter(|c| c.tag_name().name() == "link")
            .map(|c| {
                (
                    c.attribute("rel").unwrap_or("alternate").to_string(),
                    c.attribute("href").unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        links(feed),
        [
            ("self".to_string(), "feed.xml".to_string()),
            ("alternate".into(), "index.html".into())
        ]
    );
    let entries: Vec<_> = feed
        .children()
        .filter(|c| c.tag_name().name() == "entry")
        .collect();
    assert_eq!(entries.len(), played);
    let mut ids = Vec::new();
    for (n, entry) in entries.iter().enumerate() {
        let index = played - 1 - n;
        let id = one(*entry, "id");
        iri(&id);
        ids.push(id);
        assert!(!one(*entry, "title").is_empty());
        assert!(time(&one(*entry, "updated")) <= updated);
        let page = format!("phase-{index:03}.html");
        assert_eq!(links(*entry), [("alternate".to_string(), page.clone())]);
        assert!(folder.join(&page).is_file());
        assert!(!one(*entry, "content").is_empty());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), played, "entry ids are not unique");
    // The newest first; the first phase's results, Stark's move as carried out.
    assert_eq!(time(&one(entries[0], "updated")), updated);
    let oldest = one(*entries.last().unwrap(), "content");
    assert!(
        oldest.contains("Winterfell (win) -> Moat Cailin (moa)"),
        "{oldest}"
    );
    assert!(!text.contains(REJECTED) && !text.contains(SUPERSEDED));
    // Published again, the feed is the same file: its ids do not move.
    let again = w.publish(Mode::All);
    assert_eq!(again.pages, 0, "{again:?}");
}
