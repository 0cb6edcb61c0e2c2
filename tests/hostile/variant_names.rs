//! Variant files that could brick the store: a name holding `<`, `:` or
//! `#` used to pass `map check` and `game new`, and the game could then never be read
//! again. Every name now round-trips through the store; what cannot (an id or a dragon's
//! name that is no plain word) is refused by `map check`, `game new` and `game variant`
//! with its place in the file, and a refused move changes nothing.

use std::fs;
use std::process::{Command, Output};

use super::support::cli::{CliJudge, NOW};

/// `corbeau map check FILE` in the judge's folder (it takes no data folder).
fn map_check(j: &CliJudge, file: &str) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(["map", "check", file])
        .current_dir(&j.root)
        .env_remove("CORBEAU_LANG")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

const WESTEROS: &str = include_str!("../../games/westeros.toml");

/// Westeros with punctuation in every kind of name a variant holds: house names, an
/// adjective, aliases, a province's name, its English name and its aliases.
fn punctuated() -> String {
    WESTEROS
        .replacen("name = \"Stark\"", "name = \"Stark <Nord>\"", 1)
        .replacen("adjective = \"Stark\"", "adjective = \"Stark: du <Nord>\"", 1)
        .replacen("\"STA\"]", "\"STA\", \"S#1 <- x\"]", 1)
        .replacen("name = \"Lannister\"", "name = \"A:B\"", 1)
        .replacen("name = \"Baratheon\"", "name = \"Baratheon # cerf\"", 1)
        .replacen(
            "name = \"Winterfell\"",
            "name = \"Winterfell: #1 <- Nord\"\nnames = { en = \"Winter:fell <North>\" }\naliases = [\"W/F, le fort\"]",
            1,
        )
}

fn three_players(j: &CliJudge, game: &str, variant: &str) {
    j.ok(&["game", "new", game, "--variant", variant, "--players", "3"]);
    for house in ["stark", "lannister", "baratheon"] {
        let address = format!("{house}@example.org");
        j.ok(&["player", "add", game, house, &address]);
    }
    j.ok(&["game", "start", game]);
}

fn submit(j: &CliJudge, game: &str, house: &str, orders: &str) {
    let file = j.root.join(format!("{game}-{house}.txt"));
    fs::write(&file, orders).unwrap();
    j.ok(&["orders", "submit", game, house, file.to_str().unwrap()]);
}

#[test]
fn punctuated_names_play_and_move_back_and_forth() {
    let j = CliJudge::new("hostile", "punctuated-names");
    fs::write(j.root.join("odd.toml"), punctuated()).unwrap();
    let checked = map_check(&j, "odd.toml");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success() && said.contains("odd.toml: ok"),
        "{said}"
    );
    three_players(&j, "g", "odd.toml");
    let shown = j.ok(&["game", "show", "g"]);
    assert!(
        shown.contains("Stark <Nord>") && shown.contains("A:B"),
        "{shown}"
    );
    submit(&j, "g", "stark", "A win -> roc\nA moa H\nF bla H\n");
    submit(&j, "g", "lannister", "A lan H\n");
    let processed = j.ok(&["game", "process", "g"]);
    assert!(processed.contains("(roc)"), "{processed}");
    let history = j.ok(&["history", "g"]);
    assert!(history.contains("298"), "{history}");
    // The plain built-in version and back, a phase played in between.
    j.ok(&["game", "variant", "g", "westeros"]);
    submit(&j, "g", "stark", "A roc -> win\n");
    j.ok(&["game", "process", "g"]);
    j.ok(&["game", "variant", "g", "odd.toml"]);
    for args in [
        &["game", "show", "g"][..],
        &["game", "show", "g", "--json"],
        &["history", "g"],
        &["history", "g", "2"],
        &["export", "g"],
        &["game", "audit", "g"],
    ] {
        j.ok(args);
    }
    let shown = j.ok(&["game", "show", "g", "--lang", "en"]);
    assert!(shown.contains("Stark <Nord>"), "{shown}");
    j.ok(&["game", "rollback", "g"]);
    j.ok(&["game", "process", "g"]);
    j.ok(&["game", "show", "g"]);
}

/// A variant file with `old` replaced by `new` (once, and it must be there).
fn edited(old: &str, new: &str) -> String {
    assert!(WESTEROS.contains(old), "{old}");
    WESTEROS.replacen(old, new, 1)
}

#[test]
fn ids_and_dragon_names_that_cannot_be_stored_are_refused_with_their_place() {
    let j = CliJudge::new("hostile", "unstorable-ids");
    let cases = [
        (
            edited("id = \"stark\"", "id = \"st:ark\"").replace("\"stark\"", "\"st:ark\""),
            "[house st:ark]",
        ),
        (
            edited("id = \"kar\"", "id = \"k#r\"").replace("\"kar\"", "\"k#r\""),
            "[province k#r]",
        ),
        (
            edited("\"Vhagar\"", "\"Vhagar la grise\""),
            "[house targaryen] dragon_names: the dragon name `Vhagar la grise`",
        ),
        (
            edited("\"Syrax\"", "\"hold\""),
            "[house targaryen] dragon_names: the dragon name `hold`",
        ),
        (
            edited(
                "[variant]\nid = \"westeros\"",
                "[variant]\nid = \"wes#teros\"",
            ),
            "[variant] id",
        ),
    ];
    for (n, (text, place)) in cases.iter().enumerate() {
        let file = format!("bad{n}.toml");
        fs::write(j.root.join(&file), text).unwrap();
        let out = map_check(&j, &file);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains(place), "{file}: {err}");
        let out = j.run_at(NOW, &["game", "new", &format!("g{n}"), "--variant", &file]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains(place), "{file}: {err}");
    }
    let list = j.ok(&["game", "list"]);
    assert!(list.starts_with("aucune partie"), "{list}");
}

#[test]
fn a_move_onto_a_file_that_cannot_be_stored_changes_nothing() {
    let j = CliJudge::new("hostile", "unstorable-move");
    three_players(&j, "g", "westeros");
    submit(&j, "g", "stark", "A win -> roc\n");
    j.ok(&["game", "process", "g"]);
    fs::write(
        j.root.join("bad.toml"),
        edited("\"Caraxès\"", "\"Cara:xès\""),
    )
    .unwrap();
    let before = j.ok(&["export", "g"]);
    let out = j.run_at(NOW, &["game", "variant", "g", "bad.toml"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("[house targaryen] dragon_names"),
        "{err}"
    );
    assert_eq!(before, j.ok(&["export", "g"]));
    j.ok(&["game", "process", "g"]);
}

mod generated {
    use corbeau::judge::{Dislodged, Phase, PhaseKind, Position, Season, Unit};
    use corbeau::map::parse_variant;
    use corbeau::position::{home_owners, read_position, unstorable, write_position};
    use proptest::prelude::*;

    /// Westeros without its picture (the names are the point, and the drawing is slow).
    fn text() -> &'static str {
        let full = super::WESTEROS;
        full.split("\n[drawing]").next().unwrap()
    }

    /// Names with the characters of the position format and of TOML (escaped by Debug).
    fn name() -> impl Strategy<Value = String> {
        "[A-Za-zé <>:#,;/'!?()\\-\\.]{1,16}"
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Whatever a house and a province are called, a position of every house (a
        /// dislodged unit included) is written and read back as it was, and the variant is
        /// not refused for it.
        #[test]
        fn any_house_or_province_name_round_trips(stark in name(), lannister in name(), winterfell in name()) {
            let text = text()
                .replacen("name = \"Stark\"", &format!("name = {stark:?}"), 1)
                .replacen("name = \"Lannister\"", &format!("name = {lannister:?}"), 1)
                .replacen("name = \"Winterfell\"", &format!("name = {winterfell:?}"), 1);
            // A name that is another house's or province's is the loader's to refuse.
            let Ok(variant) = parse_variant("generated.toml", &text) else {
                return Ok(());
            };
            prop_assert_eq!(unstorable(&variant), Vec::new());
            let mut units: Vec<Unit> = variant
                .starting_units
                .iter()
                .map(|u| Unit { owner: u.owner, kind: u.kind, region: u.region, name: u.name.clone() })
                .collect();
            let first = units.remove(0);
            let position = Position {
                phase: Phase { year: 298, season: Season::Spring, kind: PhaseKind::Retreat },
                units,
                dislodged: vec![Dislodged {
                    unit: first,
                    attacker_from: variant.province_ids().next(),
                }],
                contested: Vec::new(),
                owners: home_owners(&variant),
                weather: None,
                garrisons: Vec::new(),
                closed: Vec::new(),
            };
            let written = write_position(&variant, &position);
            let back = read_position(&variant, "generated", &written);
            prop_assert_eq!(back.as_ref(), Ok(&position), "{}", written);
        }
    }
}
