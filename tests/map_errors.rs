//! Map validation: each test breaks one fact of a small valid variant
//! (`tests/fixtures/maps/mini.toml`) and checks, through `corbeau::map::parse_variant`, the
//! exact problem reported: its key (where in the file) and its message (what is wrong).
//! The shipped variants must load.

use std::path::Path;

use corbeau::map::{MapError, MapProblem, load_variant, load_variant_file, parse_variant};

const FILE: &str = "mini.toml";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/maps")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn mini() -> String {
    fixture("mini.toml")
}

/// The mini variant with one piece of text replaced (it must occur exactly once).
#[track_caller]
fn mini_with(from: &str, to: &str) -> String {
    let text = mini();
    assert_eq!(
        text.matches(from).count(),
        1,
        "`{from}` should occur once in mini.toml"
    );
    text.replacen(from, to, 1)
}

/// The problems found in a variant text that must not load.
#[track_caller]
fn problems(text: &str) -> Vec<MapProblem> {
    match parse_variant(FILE, text) {
        Ok(_) => panic!("the variant loaded, but it has a mistake"),
        Err(MapError::Invalid { file, problems }) => {
            assert_eq!(file, FILE);
            problems
        }
        Err(other) => panic!("expected problems with the facts, got: {other}"),
    }
}

/// Exactly this one problem is reported.
#[track_caller]
fn assert_only_problem(text: &str, key: &str, message: &str) {
    let found = problems(text);
    let expected = vec![MapProblem {
        key: key.to_string(),
        message: message.to_string(),
    }];
    assert_eq!(found, expected);
}

/// The TOML reading error of a text that is not a variant file at all.
#[track_caller]
fn syntax_error(text: &str) -> String {
    match parse_variant(FILE, text) {
        Err(MapError::Syntax { file, reason }) => {
            assert_eq!(file, FILE);
            reason
        }
        Ok(_) => panic!("the variant loaded"),
        Err(other) => panic!("expected a TOML error, got: {other}"),
    }
}

#[test]
fn the_mini_fixture_is_valid() {
    let variant = parse_variant(FILE, &mini()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(variant.provinces.len(), 5);
    assert_eq!(variant.houses.len(), 2);
    assert_eq!(variant.starting_units.len(), 3);
}

// ------------------------------------------------------------------ adjacency

#[test]
fn unknown_province_in_an_army_border() {
    assert_only_problem(
        &mini_with(r#"army = ["b", "c"]"#, r#"army = ["b", "c", "zzz"]"#),
        "[province a] army",
        "unknown province `zzz`",
    );
}

#[test]
fn unknown_province_in_a_fleet_border() {
    assert_only_problem(
        &mini_with(r#"fleet = ["c/south"]"#, r#"fleet = ["c/south", "u"]"#),
        "[province t] fleet",
        "unknown province or coast `u`",
    );
}

#[test]
fn unknown_coast_in_a_fleet_border() {
    assert_only_problem(
        &mini_with(r#"fleet = ["c/south"]"#, r#"fleet = ["c/south", "c/east"]"#),
        "[province t] fleet",
        "unknown province or coast `c/east`",
    );
}

#[test]
fn asymmetric_army_border() {
    // Gamma lists Beta, but Beta does not list Gamma.
    assert_only_problem(
        &mini_with(
            "kind = \"land\"\narmy = [\"a\", \"c\"]",
            "kind = \"land\"\narmy = [\"a\"]",
        ),
        "[province b] army",
        "asymmetric adjacency: `c` lists `b` but not the other way round",
    );
}

#[test]
fn asymmetric_fleet_border() {
    // The Tau Sea lists the south coast of Gamma, which does not list it back.
    let text = mini_with(
        "  id = \"south\"\n  aliases = [\"sc\"]\n  fleet = [\"t\"]",
        "  id = \"south\"\n  aliases = [\"sc\"]\n  fleet = []",
    );
    let found = problems(&text);
    assert!(
        found.contains(&MapProblem {
            key: "[province c] fleet".to_string(),
            message: "asymmetric adjacency: `t` lists `c/south` but not the other way round"
                .to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn fleet_border_from_an_inland_province() {
    // Beta is inland: it cannot list fleet borders at all.
    assert_only_problem(
        &mini_with(
            "kind = \"land\"\narmy = [\"a\", \"c\"]",
            "kind = \"land\"\narmy = [\"a\", \"c\"]\nfleet = [\"a\"]",
        ),
        "[province b] fleet",
        "an inland province has no fleet border (make it kind = \"coast\")",
    );
}

#[test]
fn fleet_border_into_an_inland_province() {
    // A coastal province cannot list an inland one as a fleet neighbour.
    assert_only_problem(
        &mini_with(
            r#"fleet = ["s", "c/north"]"#,
            r#"fleet = ["s", "c/north", "b"]"#,
        ),
        "[province a] fleet",
        "`b` is inland: a fleet border needs coast or sea on both sides",
    );
}

#[test]
fn fleet_border_between_two_inland_provinces() {
    // A second inland province, Delta, and a fleet border between Beta and Delta.
    let mut text = mini_with(
        "kind = \"land\"\narmy = [\"a\", \"c\"]",
        "kind = \"land\"\narmy = [\"a\", \"c\", \"d\"]\nfleet = [\"d\"]",
    );
    text.push_str(
        "\n[[province]]\nid = \"d\"\nname = \"Delta\"\nkind = \"land\"\narmy = [\"b\"]\nfleet = [\"b\"]\n",
    );
    let found = problems(&text);
    let inland = "an inland province has no fleet border (make it kind = \"coast\")".to_string();
    assert_eq!(
        found,
        vec![
            MapProblem {
                key: "[province b] fleet".to_string(),
                message: inland.clone(),
            },
            MapProblem {
                key: "[province d] fleet".to_string(),
                message: inland,
            },
        ]
    );
}

#[test]
fn army_border_into_a_sea() {
    let found = problems(&mini_with(
        r#"army = ["b", "c"]"#,
        r#"army = ["b", "c", "s"]"#,
    ));
    assert!(
        found.contains(&MapProblem {
            key: "[province a] army".to_string(),
            message: "`s`: an army border cannot touch a sea province".to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn multi_coast_province_named_without_its_coast_in_a_border() {
    // (The north coast's border with the sea is then one-sided too, and reported as such.)
    let found = problems(&mini_with(
        r#"fleet = ["a", "c/north"]"#,
        r#"fleet = ["a", "c"]"#,
    ));
    assert_eq!(
        found.first(),
        Some(&MapProblem {
            key: "[province s] fleet".to_string(),
            message: "`c` has several coasts: name one (`c/north`)".to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn multi_coast_province_with_fleet_borders_outside_its_coasts() {
    let found = problems(&mini_with(
        "kind = \"coast\"\nsupply = true\narmy = [\"a\", \"b\"]",
        "kind = \"coast\"\nsupply = true\narmy = [\"a\", \"b\"]\nfleet = [\"s\"]",
    ));
    assert_eq!(
        found.first(),
        Some(&MapProblem {
            key: "[province c] fleet".to_string(),
            message: "a province with coasts lists fleet neighbours per coast, not here"
                .to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn coastal_province_without_a_fleet_border() {
    // Alpha becomes coastal with no fleet neighbour (and the seas forget it).
    let text = mini_with(r#"fleet = ["s", "c/north"]"#, "")
        .replace(r#"fleet = ["a", "c/north"]"#, r#"fleet = ["c/north"]"#)
        .replace(r#"fleet = ["s", "a"]"#, r#"fleet = ["s"]"#);
    assert_only_problem(
        &text,
        "[province a] fleet",
        "a coastal province needs at least one fleet border (or kind = \"land\")",
    );
}

// ------------------------------------------------------------------ names and provinces

#[test]
fn duplicate_alias_of_two_provinces() {
    // `ALEF` folds to the name `Alef` of Alpha.
    assert_only_problem(
        &mini_with(
            "name = \"Beta\"\n",
            "name = \"Beta\"\naliases = [\"ALEF\"]\n",
        ),
        "[province b] aliases",
        "the name `ALEF` is already a name of province `a`",
    );
}

#[test]
fn alias_equal_to_another_province_id() {
    assert_only_problem(
        &mini_with(
            "name = \"Tau Sea\"\n",
            "name = \"Tau Sea\"\naliases = [\"c\"]\n",
        ),
        "[province t] aliases",
        "the name `c` is already a name of province `c`",
    );
}

#[test]
fn english_name_equal_to_another_provinces_alias() {
    // `names = { en = … }` is read in orders like a name: `alef` is Alpha's alias.
    assert_only_problem(
        &mini_with(
            "name = \"Beta\"\n",
            "name = \"Beta\"\nnames = { en = \"Alef\" }\n",
        ),
        "[province b] names.en",
        "the name `Alef` is already a name of province `a`",
    );
}

#[test]
fn english_name_equal_to_another_provinces_name() {
    // Folded: case and accents do not make it another name. Found at Gamma, which comes
    // after Beta in the file.
    assert_only_problem(
        &mini_with(
            "name = \"Beta\"\n",
            "name = \"Beta\"\nnames = { en = \"GAMMÁ\" }\n",
        ),
        "[province c] name",
        "the name `Gamma` is already a name of province `b`",
    );
}

#[test]
fn a_later_province_named_like_an_earlier_english_name() {
    // The collision is found whichever comes first in the file.
    assert_only_problem(
        &mini_with(
            "name = \"Alpha\"\n",
            "name = \"Alpha\"\nnames = { en = \"Bet\" }\n",
        )
        .replacen(
            "name = \"Beta\"\n",
            "name = \"Beta\"\naliases = [\"bet\"]\n",
            1,
        ),
        "[province b] aliases",
        "the name `bet` is already a name of province `a`",
    );
}

#[test]
fn an_english_name_may_repeat_the_provinces_own_alias() {
    // As Westeros does (`names = { en = "Winterfell" }`, `aliases = ["Winterfell"]`).
    let text = mini_with(
        "aliases = [\"Alef\"]\n",
        "names = { en = \"Alef\" }\naliases = [\"Alef\"]\n",
    );
    assert!(parse_variant(FILE, &text).is_ok());
}

#[test]
fn duplicate_coast_name() {
    assert_only_problem(
        &mini_with(r#"aliases = ["sc"]"#, r#"aliases = ["sc", "nc"]"#),
        "[province c] coasts south",
        "the coast name `nc` names two coasts of this province",
    );
}

#[test]
fn province_id_in_upper_case() {
    let found = problems(&mini_with("id = \"t\"", "id = \"T\""));
    assert!(
        found.contains(&MapProblem {
            key: "[province T]".to_string(),
            message: "the id must be one word of lower-case letters and digits, no space nor punctuation (e.g. `win`)".to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn a_single_coast_is_refused() {
    // Tau gets a coast list of one: a province with one coast lists its borders in `fleet`.
    let text = mini_with(
        "kind = \"sea\"\nfleet = [\"c/south\"]",
        "kind = \"sea\"\nfleet = [\"c/south\"]\n  [[province.coasts]]\n  id = \"only\"",
    );
    let found = problems(&text);
    assert!(
        found.contains(&MapProblem {
            key: "[province t] coasts".to_string(),
            message:
                "a province with one coast needs no `coasts`: list its fleet neighbours in `fleet`"
                    .to_string(),
        }),
        "{found:?}"
    );
    assert!(
        found.contains(&MapProblem {
            key: "[province t] coasts".to_string(),
            message: "only a coastal province (kind = \"coast\") can have coasts".to_string(),
        }),
        "{found:?}"
    );
}

// ------------------------------------------------------------------ houses and centres

#[test]
fn home_centre_not_a_supply_centre() {
    assert_only_problem(
        &mini_with(r#"home = ["a"]"#, r#"home = ["a", "b"]"#),
        "[house red] home",
        "home centre `b` is not a supply centre",
    );
}

#[test]
fn home_centre_unknown() {
    assert_only_problem(
        &mini_with(r#"home = ["a"]"#, r#"home = ["a", "zz"]"#),
        "[house red] home",
        "unknown province `zz`",
    );
}

#[test]
fn home_centre_of_two_houses() {
    assert_only_problem(
        &mini_with(r#"home = ["c"]"#, r#"home = ["c", "a"]"#),
        "[house blue] home",
        "`a` is already a home centre of house `red`",
    );
}

#[test]
fn dragon_builder_without_dragon_names() {
    assert_only_problem(
        &mini_with(r#"dragon_names = ["Smoke"]"#, "dragon_names = []"),
        "[house blue] dragon_names",
        "a house that may build dragons needs names for them",
    );
}

#[test]
fn house_called_neutral() {
    let found = problems(&mini_with("id = \"blue\"", "id = \"neutral\""));
    assert!(
        found.contains(&MapProblem {
            key: "[house neutral]".to_string(),
            message: "house ids must be unique and not `neutral` nor `neutre`".to_string(),
        }),
        "{found:?}"
    );
}

// ------------------------------------------------------------------ starting units and setups

#[test]
fn fleet_on_a_multi_coast_province_without_its_coast() {
    assert_only_problem(
        &mini_with(r#"at = "c/north""#, r#"at = "c""#),
        "[unit F c] at",
        "a fleet cannot stand in `c`",
    );
}

#[test]
fn fleet_inland() {
    assert_only_problem(
        &mini_with(
            "house = \"neutral\"\nkind = \"army\"",
            "house = \"neutral\"\nkind = \"fleet\"",
        ),
        "[unit F b] at",
        "a fleet cannot stand in `b`",
    );
}

#[test]
fn unknown_house_in_a_starting_unit() {
    assert_only_problem(
        &mini_with(
            "house = \"red\"\nkind = \"army\"",
            "house = \"green\"\nkind = \"army\"",
        ),
        "[unit A a] house",
        "unknown house `green`",
    );
}

#[test]
fn unknown_house_in_a_setup() {
    assert_only_problem(
        &mini_with(
            r#"houses = ["red", "blue"]"#,
            r#"houses = ["red", "green"]"#,
        ),
        "[setup 2] houses",
        "unknown house `green`",
    );
}

#[test]
fn setup_with_the_wrong_number_of_houses() {
    assert_only_problem(
        &mini_with(r#"houses = ["red", "blue"]"#, r#"houses = ["red"]"#),
        "[setup 2] houses",
        "2 players but 1 houses listed",
    );
}

#[test]
fn two_starting_units_in_one_province() {
    assert_only_problem(
        &mini_with(
            "house = \"neutral\"\nkind = \"army\"\nat = \"b\"",
            "house = \"neutral\"\nkind = \"army\"\nat = \"a\"",
        ),
        "[unit A a] at",
        "two starting units in one province",
    );
}

#[test]
fn dragon_named_like_a_province() {
    assert_only_problem(
        &mini_with(
            "house = \"neutral\"\nkind = \"army\"\nat = \"b\"",
            "house = \"neutral\"\nkind = \"dragon\"\nat = \"b\"\nname = \"Alef\"",
        ),
        "[unit D b] name",
        "the dragon name `Alef` is also a province name",
    );
}

#[test]
fn victory_needs_more_centres_than_the_map_has() {
    let found = problems(&mini_with("centres = 2", "centres = 3"));
    assert!(
        found.contains(&MapProblem {
            key: "[victory] centres".to_string(),
            message: "3 centres to win, but the map has 2 supply centres".to_string(),
        }),
        "{found:?}"
    );
}

#[test]
fn victory_problem_reported_once() {
    assert_only_problem(
        &mini_with("centres = 2", "centres = 3"),
        "[victory] centres",
        "3 centres to win, but the map has 2 supply centres",
    );
}

#[test]
fn victory_needs_at_least_one_centre() {
    assert_only_problem(
        &mini_with("centres = 2", "centres = 0"),
        "[victory] centres",
        "0 centres to win: at least 1 is needed",
    );
}

#[test]
fn setup_victory_needs_more_centres_than_the_map_has() {
    let found = problems(&mini_with(
        r#"houses = ["red", "blue"]"#,
        "houses = [\"red\", \"blue\"]\nvictory_centres = 5",
    ));
    assert!(
        found
            .iter()
            .any(|p| p.message == "5 centres to win, but the map has 2 supply centres"),
        "{found:?}"
    );
}

#[test]
fn setup_victory_problem_names_the_setup() {
    assert_only_problem(
        &mini_with(
            r#"houses = ["red", "blue"]"#,
            "houses = [\"red\", \"blue\"]\nvictory_centres = 5",
        ),
        "[setup 2] victory_centres",
        "5 centres to win, but the map has 2 supply centres",
    );
}

// ------------------------------------------------------------------ the file itself

#[test]
fn toml_syntax_error() {
    let reason = syntax_error(&mini_with("name = \"Mini\"", "name = \"Mini"));
    assert!(
        reason.contains("line 13"),
        "the reason should say where: {reason}"
    );
}

#[test]
fn unknown_key_in_a_province() {
    let reason = syntax_error(&mini_with(
        "name = \"Beta\"",
        "name = \"Beta\"\nsuply = true",
    ));
    assert!(reason.contains("unknown field `suply`"), "{reason}");
}

#[test]
fn unknown_key_at_the_top() {
    let reason = syntax_error(&format!("{}\n[scoring]\nbonus = 1\n", mini()));
    assert!(reason.contains("unknown field `scoring`"), "{reason}");
}

#[test]
fn unknown_province_kind() {
    let reason = syntax_error(&mini_with("kind = \"land\"", "kind = \"hill\""));
    assert!(reason.contains("unknown variant `hill`"), "{reason}");
}

#[test]
fn missing_required_key() {
    let reason = syntax_error(&mini_with("name = \"Tau Sea\"\n", ""));
    assert!(reason.contains("missing field `name`"), "{reason}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = mini_with(r#"home = ["a"]"#, r#"home = ["a", "b"]"#)
        .replace(
            r#"houses = ["red", "blue"]"#,
            r#"houses = ["red", "green"]"#,
        )
        .replace(r#"army = ["b", "c"]"#, r#"army = ["b", "c", "zzz"]"#);
    let found = problems(&text);
    assert_eq!(found.len(), 3, "{found:?}");
    let message = parse_variant(FILE, &text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.starts_with("mini.toml: 3 problem(s):"), "{message}");
    assert!(
        message.contains("[province a] army: unknown province `zzz`"),
        "{message}"
    );
    assert!(
        message.contains("[house red] home: home centre `b` is not a supply centre"),
        "{message}"
    );
    assert!(
        message.contains("[setup 2] houses: unknown house `green`"),
        "{message}"
    );
}

#[test]
fn a_broken_file_is_named_in_the_error() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps/asymmetric.toml");
    match load_variant_file(&path) {
        Err(MapError::Invalid { file, problems }) => {
            assert!(
                file.ends_with("tests/fixtures/maps/asymmetric.toml"),
                "{file}"
            );
            assert_eq!(
                problems,
                vec![MapProblem {
                    key: "[province b] army".to_string(),
                    message: "asymmetric adjacency: `c` lists `b` but not the other way round"
                        .to_string(),
                }]
            );
        }
        Ok(_) => panic!("asymmetric.toml loaded"),
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn a_missing_file_is_reported() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps/no-such-map.toml");
    assert!(matches!(
        load_variant_file(&path),
        Err(MapError::Unreadable { .. })
    ));
    assert!(matches!(
        load_variant("no-such-variant"),
        Err(MapError::UnknownVariant { .. })
    ));
}

// ------------------------------------------------------------------ the shipped variants

fn game(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn westeros_loads() {
    let variant = parse_variant("games/westeros.toml", &game("westeros.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(variant.id, "westeros");
    assert_eq!(variant.first_year, 298);
    assert_eq!(variant.provinces.len(), 54);
    assert_eq!(variant.houses.len(), 7);
    assert_eq!(variant.provinces.iter().filter(|p| p.supply).count(), 33);
    let multi: Vec<&str> = variant
        .provinces
        .iter()
        .filter(|p| !p.coasts.is_empty())
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(multi, ["cno", "win", "gri"]);
    let players: Vec<u8> = variant.setups.iter().map(|s| s.players).collect();
    assert_eq!(players, [7, 6, 5, 4, 3]);
    // The built-in copy is the same file.
    let embedded = load_variant("westeros").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(embedded.provinces.len(), variant.provinces.len());
}

#[test]
fn classique_loads() {
    let variant = parse_variant("games/classique.toml", &game("classique.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(variant.provinces.len(), 75);
    assert_eq!(variant.houses.len(), 7);
    assert_eq!(variant.provinces.iter().filter(|p| p.supply).count(), 34);
    assert_eq!(variant.starting_units.len(), 22);
    load_variant("classique").unwrap_or_else(|e| panic!("{e}"));
}
