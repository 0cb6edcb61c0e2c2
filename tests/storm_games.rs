//! A Storm of Swords in games, through the binary: the built-in `tempete` board checked
//! clean, the bots playing it with no illegal order, and a game played by mail into a
//! storm, whose results mails say the weather and the next phase's fords in French and
//! in English (goldens under tests/golden/storm/).

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;

use chrono::DateTime;
use support::assert_golden;
use support::cli::corbeau;
use support::judge::{Clocked, body_of, root};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mestre@citadelle.test";
const SECRET: &str = "secret-de-maison-2026";

/// The game's id: its own weather draw moves the marker at the opening of autumn 298, so
/// that a game put on the last fair position of the track meets the storm at once.
const GAME: &str = "tempete-3";

#[test]
fn the_built_in_board_is_checked_clean_and_listed() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tempete.toml");
    let (code, out, err) = corbeau(&["map", "check", file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ok ("), "{out}");
    let (code, out, err) = corbeau(&["map", "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l == "tempete"), "{out}");
}

/// The three-player setup leaves Greyjoy's armies standing, neutral, in the closed Pyk
/// and Pouce-Flint, and adds one at Griseaux.
#[test]
fn the_three_player_setup_keeps_neutral_armies_in_closed_provinces() {
    let dir = support::TempDir::new("storm_games", "three");
    let orders = dir.join("orders.txt");
    let next = dir.join("next.pos");
    fs::write(&orders, "").unwrap();
    let (code, _, err) = corbeau(&[
        "adjudicate",
        "--variant",
        "tempete",
        "--players",
        "3",
        "--next",
        next.to_str().unwrap(),
        orders.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = fs::read_to_string(&next).unwrap();
    for line in ["closed pyk pfl", "A pyk", "A pfl", "A gri"] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

fn arena(kinds: &str) -> serde_json::Value {
    let (code, out, err) = corbeau(&[
        "bot",
        "arena",
        "--variant",
        "tempete",
        "--games",
        "30",
        "--kinds",
        kinds,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Arrows carry no support and the storms close the fords (the arena moves the weather
/// as a game does): no player gives an order the judge refuses.
#[test]
fn the_bots_play_the_board_with_no_illegal_order() {
    for kinds in ["bot,dumb", "bot,hold,random"] {
        let json = arena(kinds);
        assert_eq!(json["variant"], "tempete", "{json}");
        assert_eq!(json["illegal_orders"], 0, "{kinds}: {json}");
    }
}

// ------------------------------------------------------------------ a game into a storm

support::judge::clocked_judge!(Judge);

/// Spring 298 on the last fair position of the track, the four houses where they start.
const SPRING: &str = "variant tempete\n\
                      phase spring 298 movement\n\
                      weather fair 2\n\
                      unit stark: A sal\nunit stark: A jum\nunit stark: A bea\n\
                      unit lannister: A dor\nunit lannister: A prt\nunit lannister: A pie\n\
                      unit baratheon: A pey\nunit baratheon: A acc\nunit baratheon: A boi\n\
                      unit greyjoy: A pyk\nunit greyjoy: A pfl\nunit greyjoy: A moa\n\
                      unit neutral: A viv\nunit neutral: A har\nunit neutral: A slv\n\
                      garrison stark: sal 1\ngarrison lannister: dor 1\n\
                      garrison lannister: prt 3 controls\ngarrison baratheon: pey 1\n\
                      garrison greyjoy: pyk 1\n";

/// Stark and Greyjoy read French, Lannister and Baratheon English.
const HOUSES: [(&str, &str); 4] = [
    ("stark", "fr"),
    ("lannister", "en"),
    ("baratheon", "en"),
    ("greyjoy", "fr"),
];

impl Judge {
    fn new(name: &str) -> Judge {
        let at = DateTime::parse_from_rfc3339(NOW).unwrap().to_utc();
        Judge(Clocked::new(root(&format!("storm-games-{name}"), ""), at))
    }

    fn create(&self) {
        self.ok(&[
            "game",
            "new",
            GAME,
            "--variant",
            "tempete",
            "--moderator",
            MODERATOR,
            "--no-pictures",
        ]);
        for (house, lang) in HOUSES {
            self.ok(&[
                "player",
                "add",
                GAME,
                house,
                &format!("{house}@example.org"),
                "--secret",
                SECRET,
                "--player-lang",
                lang,
            ]);
        }
        self.ok(&["game", "start", GAME]);
        let position = self.dir.join("spring.pos");
        fs::write(&position, SPRING).unwrap();
        self.ok(&[
            "game",
            "edit",
            GAME,
            position.to_str().unwrap(),
            "--reason",
            "the last fair position",
        ]);
    }

    /// Each house's orders by mail, the phase processed, and the results mails of Stark
    /// (French) and Lannister (English).
    fn play(&mut self, orders: &[(&str, &str)]) -> (String, String) {
        for (house, lines) in orders {
            let from = format!("{house}@example.org");
            let answers = self.post(&from, &format!("PARTIE {GAME} {house} {SECRET}\n{lines}\n"));
            assert_eq!(answers.len(), 1, "{house}: {answers:?}");
        }
        self.ok(&["game", "process", GAME]);
        self.ok(&["tick"]);
        let results = |to: &str| {
            self.news(to)
                .into_iter()
                .map(|m| body_of(&m))
                .find(|b| b.contains(":: counts:"))
                .unwrap_or_else(|| panic!("no results for {to}"))
        };
        (
            results("stark@example.org"),
            results("lannister@example.org"),
        )
    }
}

#[test]
fn a_game_by_mail_meets_the_storm_and_its_results_say_the_weather_and_the_fords() {
    let mut j = Judge::new("mail");
    j.create();
    // Spring: Stark crosses the Green Fork's ford to Salins while it is fair.
    let (fr, en) = j.play(&[
        ("stark", "A bea -> sli"),
        ("lannister", "A pie -> slv"),
        ("baratheon", "A boi H"),
        ("greyjoy", "A moa H"),
    ]);
    assert!(
        fr.contains("Pour automne 298, mouvements : Fortes pluies, gués fermés"),
        "{fr}"
    );
    assert!(en.contains("Heavy rains, fords closed"), "{en}");
    assert_golden("storm/spring-fr.txt", &fr);
    assert_golden("storm/spring-en.txt", &en);
    let shown = j.show(GAME);
    assert!(shown.to_string().contains("storm"), "{shown}");
    // Autumn, in the storm: the way back over the ford is closed; a plain border is not.
    let (fr, en) = j.play(&[
        ("stark", "A sli -> bea\nA jum -> gri"),
        ("lannister", "A pie H"),
        ("baratheon", "A boi H"),
        ("greyjoy", "A moa H"),
    ]);
    assert!(
        fr.contains("gué est fermé") || fr.contains("ford-closed"),
        "{fr}"
    );
    assert!(en.contains("the ford is closed by the weather"), "{en}");
    assert!(
        en.contains("A The Twins (jum) -> Greywater Watch (gri)\n      succeeded"),
        "{en}"
    );
    assert!(
        fr.contains("Pendant automne 298, mouvements : Fortes pluies, gués fermés"),
        "{fr}"
    );
    assert_golden("storm/autumn-fr.txt", &fr);
    assert_golden("storm/autumn-en.txt", &en);
}

// ------------------------------------------------------------------ the picture

/// Draws `position` (a position file's text) on the board as SVG.
fn picture(dir: &std::path::Path, name: &str, position: &str) -> String {
    let pos = dir.join(format!("{name}.pos"));
    let out = dir.join(format!("{name}.svg"));
    fs::write(&pos, position).unwrap();
    let (code, _, err) = corbeau(&[
        "map",
        "draw",
        "--variant",
        "tempete",
        "--position",
        pos.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    fs::read_to_string(out).unwrap()
}

/// Each ford is marked on its border, struck through in a storm only; each garrison shows
/// its strength.
#[test]
fn the_picture_draws_the_fords_as_the_weather_leaves_them_and_the_garrisons() {
    let dir = support::TempDir::new("storm_games", "picture");
    let fair = picture(&dir, "fair", SPRING);
    let storm = picture(
        &dir,
        "storm",
        &SPRING.replace("weather fair 2", "weather storm 3"),
    );
    for svg in [&fair, &storm] {
        assert_eq!(svg.matches("<g><title>bea–sli</title>").count(), 1, "{svg}");
        assert_eq!(svg.matches("<g><title>sal 1</title>").count(), 1, "{svg}");
        assert_eq!(svg.matches("<g><title>prt 3</title>").count(), 1, "{svg}");
    }
    let struck = |svg: &str| svg.matches(r##"stroke="#d0021b" stroke-width"##).count();
    // Eight fords on the board, all closed in the storm.
    assert_eq!(struck(&storm), struck(&fair) + 8);
}

// ------------------------------------------------------------------ garrisons on Westeros

/// `game new --garrisons`: a strength-1 garrison in each home centre of the houses in
/// play, none for a house left out; without it, none.
#[test]
fn the_moderator_may_add_garrisons_to_a_westeros_game() {
    let j = Judge::new("garrisons");
    for (game, extra) in [("avec", Some("--garrisons")), ("sans", None)] {
        let mut args = vec!["game", "new", game, "--players", "3", "--no-pictures"];
        args.extend(extra);
        j.ok(&args);
    }
    let with = j.ok(&["export", "avec"]);
    let without = j.ok(&["export", "sans"]);
    for line in ["garrison Stark: win 1", "garrison Lannister: lan 1"] {
        assert!(with.contains(line), "{line}: {with}");
    }
    assert!(!with.contains("garrison Martell"), "{with}");
    assert!(!without.contains("garrison "), "{without}");
}
