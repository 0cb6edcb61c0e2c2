//! The Storm of Swords mechanics in the variant format (docs/variant-format.md): the toy
//! board of the cases (tests/variant/storm.toml) loads and `corbeau map check` passes it;
//! each mechanic's mistake is reported with its place in the file; the position format
//! writes and reads back the weather, the garrisons and the closed provinces; a setup
//! closes its provinces and adds its neutrals; the bot plays the board with no illegal
//! order. The judge's side is in tests/variant/storm.case (run by tests/datc.rs).

mod support;

use std::path::Path;

use corbeau::judge::{Garrison, Position};
use corbeau::map::{MapError, MapProblem, Owner, UnitKind, parse_variant};
use corbeau::position::{read_position, write_position};
use support::cli::corbeau;

const FILE: &str = "storm.toml";

fn toy() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variant/storm.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn mini() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps/mini.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The toy board with one piece of text replaced (it must occur exactly once).
#[track_caller]
fn toy_with(from: &str, to: &str) -> String {
    let text = toy();
    assert_eq!(text.matches(from).count(), 1, "`{from}` should occur once");
    text.replacen(from, to, 1)
}

#[track_caller]
fn problems(text: &str) -> Vec<MapProblem> {
    match parse_variant(FILE, text) {
        Ok(_) => panic!("the variant loaded, but it has a mistake"),
        Err(MapError::Invalid { problems, .. }) => problems,
        Err(other) => panic!("expected problems with the facts, got: {other}"),
    }
}

/// Exactly this one problem is reported.
#[track_caller]
fn only(text: &str, key: &str, message: &str) {
    let expected = vec![MapProblem {
        key: key.to_string(),
        message: message.to_string(),
    }];
    assert_eq!(problems(text), expected);
}

#[test]
fn the_toy_board_is_checked_clean_through_the_binary() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variant/storm.toml");
    let (code, out, err) = corbeau(&["map", "check", &path.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("ok (10 provinces, 6 supply centres, 3 houses, 2 setups"),
        "{out}"
    );
}

#[test]
fn a_mistake_is_reported_by_the_binary_with_its_place() {
    let dir = support::TempDir::new("storm", "mistake");
    let file = dir.join("bad.toml");
    let text = toy_with(
        "kind = \"arrow\"\nhouse = \"greyjoy\"",
        "kind = \"arrow\"\nhouse = \"grejoy\"",
    );
    std::fs::write(&file, text).expect("write");
    let (code, out, err) = corbeau(&["map", "check", &file.display().to_string()]);
    assert_ne!(code, 0);
    assert!(
        format!("{out}{err}").contains("[border pyk-fin] house: unknown house `grejoy`"),
        "{out}{err}"
    );
}

#[test]
fn the_toy_board_carries_every_mechanic() {
    let v = parse_variant(FILE, &toy()).unwrap_or_else(|e| panic!("{e}"));
    assert!(v.armies_only);
    assert_eq!(v.borders.len(), 3);
    let weather = v.weather.as_ref().expect("weather");
    assert_eq!(weather.track, vec![0, 1]);
    assert_eq!(weather.step_percent, 50);
    assert_eq!(v.garrisons.len(), 2);
    assert_eq!(v.victory.points, Some(6));
    let kl = v.province_by_id("kl").expect("kl");
    assert_eq!(v.claim_of(kl), 3);
    let twn = v.province_by_id("twn").expect("twn");
    assert!(v.province(twn).town && !v.province(twn).supply);
    // No house of an army-only board builds fleets, even one that says nothing.
    assert!(v.houses.iter().all(|h| h.builds == vec![UnitKind::Army]));
}

// ------------------------------------------------------------------ borders

#[test]
fn a_border_for_an_unknown_house_is_refused() {
    only(
        &toy_with(
            "kind = \"arrow\"\nhouse = \"greyjoy\"",
            "kind = \"arrow\"\nhouse = \"grejoy\"",
        ),
        "[border pyk-fin] house",
        "unknown house `grejoy`",
    );
}

#[test]
fn a_border_listed_twice_is_refused() {
    let text = format!(
        "{}\n[[border]]\nbetween = [\"hrh\", \"rvr\"]\nkind = \"arrow\"\n",
        toy()
    );
    only(&text, "[border hrh-rvr]", "this border is listed twice");
}

#[test]
fn a_border_also_listed_as_an_army_border_is_refused() {
    only(
        &toy_with(
            "army = [\"moa\", \"fin\"]",
            "army = [\"moa\", \"fin\", \"hrh\"]",
        )
        .replacen(
            "army = [\"moa\", \"cas\", \"kl\"]",
            "army = [\"moa\", \"cas\", \"kl\", \"rvr\"]",
            1,
        ),
        "[border rvr-hrh] between",
        "these provinces list each other in `army` too: a border has one kind",
    );
}

#[test]
fn a_ford_between_a_sea_and_land_is_refused() {
    let text = format!(
        "{}\n[[border]]\nbetween = [\"s\", \"b\"]\nkind = \"ford\"\n\n[weather]\ntrack = [\"fair\"]\n  [[weather.state]]\n  id = \"fair\"\n  name = \"Fair\"\n  fords = \"open\"\n",
        mini()
    );
    only(
        &text,
        "[border s-b] between",
        "`s` is a sea: a ford is an army border between land provinces",
    );
}

#[test]
fn a_border_of_one_province_or_an_unknown_one_is_refused() {
    only(
        &toy_with(
            "between = [\"pyk\", \"kl\"]",
            "between = [\"pyk\", \"pyk\"]",
        ),
        "[border pyk-pyk] between",
        "a province cannot border itself",
    );
    only(
        &toy_with(
            "between = [\"pyk\", \"kl\"]",
            "between = [\"pyk\", \"atl\"]",
        ),
        "[border pyk-atl] between",
        "unknown province `atl`",
    );
}

// ------------------------------------------------------------------ weather

#[test]
fn fords_without_weather_are_refused() {
    let text = toy();
    let start = text.find("[weather]").expect("weather");
    let end = text.find("[[garrison]]").expect("garrison");
    let without = format!("{}{}", &text[..start], &text[end..]);
    only(
        &without,
        "[weather]",
        "fords are used but there is no [weather]",
    );
}

#[test]
fn a_weather_track_must_name_known_states_and_start_on_it() {
    only(
        &toy_with(
            "track = [\"fair\", \"storm\"]",
            "track = [\"fair\", \"snow\"]",
        ),
        "[weather] track",
        "unknown weather state `snow`",
    );
    only(
        &toy_with("start = 0\n", "start = 2\n"),
        "[weather] start",
        "2 is past the track's end (its positions are 0 to 1)",
    );
    only(
        &toy_with("step_percent = 50", "step_percent = 150"),
        "[weather] step_percent",
        "a chance is at most 100",
    );
}

#[test]
fn weather_without_fords_is_refused() {
    only(
        &toy_with(
            "between = [\"rvr\", \"hrh\"]\nkind = \"ford\"",
            "between = [\"rvr\", \"hrh\"]\nkind = \"arrow\"",
        ),
        "[weather]",
        "there is no ford: the weather would change nothing",
    );
}

// ------------------------------------------------------------------ garrisons

#[test]
fn garrisons_are_checked() {
    only(
        &toy_with(
            "at = \"win\"\nhouse = \"stark\"\nstrength = 1",
            "at = \"kl\"\nhouse = \"stark\"\nstrength = 1",
        ),
        "[garrison kl]",
        "two garrisons in one province",
    );
    only(
        &toy_with("strength = 1", "strength = 0"),
        "[garrison win] strength",
        "a garrison's strength is at least 1",
    );
    only(
        &toy_with(
            "house = \"stark\"\nstrength = 1",
            "house = \"stark\"\nstrength = 1\ncontrols = true",
        )
        .replacen(
            "at = \"win\"\nhouse = \"stark\"",
            "at = \"moa\"\nhouse = \"stark\"",
            1,
        ),
        "[garrison moa] controls",
        "only a supply centre is controlled: this province is none",
    );
}

// ------------------------------------------------------------------ towns, claims, victory

#[test]
fn a_town_is_not_a_supply_centre() {
    only(
        &toy_with(
            "kind = \"land\"\ntown = true",
            "kind = \"land\"\ntown = true\nsupply = true",
        ),
        "[province twn] town",
        "a town is not a supply centre",
    );
}

#[test]
fn claim_points_belong_to_centres_of_a_game_won_by_points() {
    only(
        &toy_with("town = true\n", "town = true\nclaim = 2\n"),
        "[province twn] claim",
        "only a supply centre has claim points",
    );
    let by_centres = toy_with("points = 6\n", "centres = 4\n");
    let found = problems(&by_centres);
    assert!(
        found.contains(&MapProblem {
            key: "[province win] claim".to_string(),
            message: "claim points need a victory by points (`[victory] points`)".to_string(),
        }),
        "{found:?}"
    );
    only(
        &toy_with("points = 6\n", "points = 13\n"),
        "[victory] points",
        "13 points to win, but the map's centres are worth 12",
    );
}

#[test]
fn the_points_tie_break_needs_a_victory_by_points() {
    let text = mini().replacen("[victory]\n", "[victory]\ntie_break = [\"points\"]\n", 1);
    only(
        &text,
        "[victory] tie_break",
        "`points` needs a victory by points (`[victory] points`)",
    );
}

// ------------------------------------------------------------------ armies only

#[test]
fn an_army_only_variant_refuses_fleets_and_seas() {
    let text = mini().replacen("first_year", "armies_only = true\nfirst_year", 1);
    let found = problems(&text);
    for (key, message) in [
        (
            "[province s] kind",
            "the variant has armies only (`armies_only`): no sea province",
        ),
        (
            "[unit F c/north] kind",
            "the variant has armies only (`armies_only`): no fleet",
        ),
    ] {
        assert!(
            found.contains(&MapProblem {
                key: key.to_string(),
                message: message.to_string()
            }),
            "{key}: {found:?}"
        );
    }
    only(
        &toy_with(
            "home = [\"pyk\"]\n",
            "home = [\"pyk\"]\nbuilds = [\"army\", \"fleet\"]\n",
        ),
        "[house greyjoy] builds",
        "the variant has armies only (`armies_only`): no fleet may be built",
    );
}

// ------------------------------------------------------------------ setups

#[test]
fn a_setup_may_close_a_province_with_a_starting_unit_but_not_list_it_twice() {
    // Seed 001's three-player game leaves Greyjoy's army on the closed Pyke.
    let text = toy_with("closed = [\"cld\"]", "closed = [\"pyk\"]");
    let v = parse_variant(FILE, &text).unwrap_or_else(|e| panic!("{e}"));
    let two = Position::starting(&v, Some(2)).expect("two players");
    let pyk = v.province_by_id("pyk").expect("pyk");
    assert_eq!(two.closed, vec![pyk]);
    assert!(
        two.units
            .iter()
            .any(|u| v.province_of(u.region) == pyk && u.owner == Owner::Neutral)
    );
    only(
        &toy_with("closed = [\"cld\"]", "closed = [\"cld\", \"cld\"]"),
        "[setup 2] closed",
        "`cld` listed twice",
    );
}

#[test]
fn a_setups_neutral_unit_needs_a_free_province() {
    only(
        &toy_with(
            "{ kind = \"army\", at = \"fin\" }",
            "{ kind = \"army\", at = \"win\" }",
        ),
        "[setup 2] neutral A win",
        "two starting units in one province",
    );
    only(
        &toy_with(
            "{ kind = \"army\", at = \"fin\" }",
            "{ kind = \"army\", at = \"cld\" }",
        ),
        "[setup 2] neutral A cld",
        "`cld` is closed in this setup",
    );
}

#[test]
fn a_setup_closes_its_provinces_adds_its_neutrals_and_keeps_the_garrisons() {
    let v = parse_variant(FILE, &toy()).unwrap_or_else(|e| panic!("{e}"));
    let two = Position::starting(&v, Some(2)).expect("two players");
    let id = |name: &str| v.province_by_id(name).expect(name);
    assert_eq!(two.closed, vec![id("cld")]);
    let fin = two
        .units
        .iter()
        .find(|u| v.province_of(u.region) == id("fin"))
        .expect("a neutral army in fin");
    assert_eq!(fin.owner, Owner::Neutral);
    // Greyjoy is out: its army stays, neutral.
    assert!(
        two.units
            .iter()
            .any(|u| v.province_of(u.region) == id("pyk") && u.owner == Owner::Neutral)
    );
    // Lannister's garrison keeps King's Landing owned with no army there.
    let lannister = v.house_by_name("lannister").expect("lannister");
    assert_eq!(two.owners[usize::from(id("kl").0)], Some(lannister));
    assert_eq!(two.garrisons.len(), 2);
    assert_eq!(two.weather, Some(0));
    let three = Position::starting(&v, Some(3)).expect("three players");
    assert!(three.closed.is_empty());
}

// ------------------------------------------------------------------ the position format

#[test]
fn weather_garrisons_and_closed_provinces_are_written_and_read_back() {
    let v = parse_variant(FILE, &toy()).unwrap_or_else(|e| panic!("{e}"));
    let mut position = Position::starting(&v, Some(2)).expect("two players");
    position.weather = Some(1);
    position.garrisons.push(Garrison {
        owner: Owner::Neutral,
        province: v.province_by_id("pyk").expect("pyk"),
        strength: 3,
        controls: false,
    });
    let text = write_position(&v, &position);
    assert!(text.contains("weather storm 1\n"), "{text}");
    assert!(
        text.contains("garrison Lannister: kl 2 controls\n"),
        "{text}"
    );
    assert!(text.contains("garrison neutral: pyk 3\n"), "{text}");
    assert!(text.contains("closed cld\n"), "{text}");
    let back = read_position(&v, "position", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, position);
}

#[test]
fn a_position_without_the_new_lines_reads_as_before() {
    let v = parse_variant(FILE, &toy()).unwrap_or_else(|e| panic!("{e}"));
    let text = "variant tempete-essai\nphase spring 299 movement\nunit Stark: A win\n";
    let position = read_position(&v, "old", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(position.weather, None);
    assert!(position.garrisons.is_empty() && position.closed.is_empty());
    // No weather line: the marker stands where the track starts, in fair weather.
    assert!(position.fords_open(&v));
}

#[test]
fn a_bad_weather_or_garrison_line_is_refused_with_its_line() {
    let v = parse_variant(FILE, &toy()).unwrap_or_else(|e| panic!("{e}"));
    let bad = |line: &str| {
        read_position(&v, "p", &format!("phase spring 299 movement\n{line}\n"))
            .expect_err(line)
            .to_string()
    };
    assert_eq!(
        bad("weather snow"),
        "p:2: unknown weather `snow` (known: fair, storm)"
    );
    assert_eq!(
        bad("weather storm 0"),
        "p:2: `0`: no position of the weather track in `storm`"
    );
    assert_eq!(
        bad("garrison Stark: win 0"),
        "p:2: `0`: a garrison's strength is a number from 1 to 255"
    );
    assert_eq!(
        bad("garrison Stark: win 1\ngarrison Lannister: win 2"),
        "p:3: two garrisons in win"
    );
}

// ------------------------------------------------------------------ the bot

#[test]
fn the_bot_plays_the_toy_board_with_no_illegal_order() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variant/storm.toml");
    let (code, out, err) = corbeau(&[
        "bot",
        "arena",
        "--variant",
        &path.display().to_string(),
        "--games",
        "30",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["illegal_orders"], 0, "{json}");
}

// ------------------------------------------------------------------ the weather in a game

/// The weather steps a game on the toy board goes through, phase after phase, with every
/// house holding.
fn weather_of_a_game(id: &str) -> Vec<Option<usize>> {
    use chrono::{TimeDelta, TimeZone, Utc};
    use corbeau::game::{HouseKey, NewGame, Settings, Trigger, create};
    use corbeau::map::{PinnedVariant, VariantHash};

    let text = toy();
    let variant = parse_variant(FILE, &text).unwrap_or_else(|e| panic!("{e}"));
    let t0 = Utc
        .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
        .single()
        .expect("time");
    let new = NewGame {
        id: id.into(),
        name: None,
        variant: "tests/variant/storm.toml".into(),
        players: 3,
        settings: Settings::default(),
        moderator: None,
    };
    let pin = PinnedVariant {
        name: "tests/variant/storm.toml".into(),
        hash: VariantHash::of(&text),
    };
    let mut game = create(new, &variant, pin, t0).unwrap_or_else(|e| panic!("{e}"));
    for h in ["stark", "lannister", "greyjoy"] {
        game.add_player(
            &HouseKey::from(h),
            &format!("{h}@example.org"),
            "hash".into(),
            corbeau::lang::Lang::Fr,
            t0,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    game.start(&variant, t0).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = vec![game.position().weather];
    for n in 1..=4 {
        let now = t0 + TimeDelta::days(7 * n);
        if game.process(&variant, now, Trigger::Moderator).is_err() {
            break;
        }
        seen.push(game.position().weather);
    }
    seen
}

#[test]
fn the_weather_of_a_game_is_its_own_and_moves_by_its_draw() {
    let first = weather_of_a_game("orage");
    assert_eq!(first[0], Some(0), "the marker starts where the track says");
    assert!(first.len() > 2, "{first:?}");
    assert!(first.iter().all(|w| matches!(w, Some(0 | 1))), "{first:?}");
    // The same game gets the same weather.
    assert_eq!(weather_of_a_game("orage"), first);
    // Over a few games and phases at 50 %, the marker moves somewhere and stays elsewhere.
    let all: Vec<Vec<Option<usize>>> = (0..6)
        .map(|n| weather_of_a_game(&format!("g{n}")))
        .collect();
    let moved = all.iter().any(|w| w.windows(2).any(|p| p[0] != p[1]));
    let stayed = all.iter().any(|w| w.windows(2).any(|p| p[0] == p[1]));
    assert!(moved && stayed, "{all:?}");
}

// ------------------------------------------------------------------ what the judge leaves

/// The position after the one phase of a case written inline, on the toy board.
fn after_one_phase(lines: &str) -> (std::sync::Arc<corbeau::map::Variant>, Position) {
    use corbeau::case::{VariantCache, case_steps, read_cases};
    let text = format!("case t\nvariant tests/variant/storm.toml\n{lines}\nend\n");
    let cases = read_cases("inline", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut cache = VariantCache::default();
    let (variant, steps) = case_steps(&mut cache, &cases[0]).unwrap_or_else(|e| panic!("{e}"));
    let (position, given) = steps.into_iter().next().expect("one step");
    let after = corbeau::judge::adjudicate(&variant, &position, &given).after;
    (variant, after)
}

#[test]
fn a_taken_garrison_leaves_the_position_and_a_held_one_stays() {
    let (v, taken) = after_one_phase(
        "garrison lannister: cas 1\nunit stark: A hrh\nunit stark: A kl\n\
         order stark: A hrh -> cas\norder stark: A kl soutient A hrh -> cas",
    );
    assert!(taken.garrisons.is_empty(), "{:?}", taken.garrisons);
    let (_, held) =
        after_one_phase("garrison lannister: cas 1\nunit stark: A hrh\norder stark: A hrh -> cas");
    assert_eq!(held.garrisons.len(), 1);
    assert_eq!(
        held.garrisons[0].province,
        v.province_by_id("cas").expect("cas")
    );
    // Its own house's army walks in without a fight, and the garrison stays.
    let (_, own) = after_one_phase(
        "garrison lannister: cas 1\nunit lannister: A hrh\norder lannister: A hrh -> cas",
    );
    assert_eq!(own.garrisons.len(), 1);
    assert!(
        own.units
            .iter()
            .any(|u| u.region == v.province(v.province_by_id("cas").expect("cas")).region)
    );
}

#[test]
fn a_town_changes_hands_after_autumn_and_is_no_centre() {
    let (v, after) = after_one_phase(
        "phase autumn 299 movement\nowner stark: win rvr\nunit stark: A moa\nunit stark: A win\n\
         order stark: A moa -> twn",
    );
    let stark = v.house_by_name("stark").expect("stark");
    assert_eq!(
        after.owners[usize::from(v.province_by_id("twn").expect("twn").0)],
        Some(stark)
    );
    assert_eq!(after.centre_counts(&v)[usize::from(stark.0)], 2);
}

#[test]
fn a_controlling_garrison_keeps_its_centre_owned_with_no_unit() {
    let (v, after) = after_one_phase(
        "phase autumn 299 movement\nowner stark: win rvr kl\ngarrison lannister: kl 2 controls\nunit stark: A win",
    );
    let lannister = v.house_by_name("lannister").expect("lannister");
    assert_eq!(
        after.owners[usize::from(v.province_by_id("kl").expect("kl").0)],
        Some(lannister)
    );
}
