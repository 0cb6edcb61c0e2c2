//! The order parser against grammar/orders.ebnf: its examples, the seed's lines, French and
//! English forms, coasts, errors, the DATC's order files, and never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;

use corbeau::lang::Lang;
use corbeau::map::{UnitKind, Variant, load_variant, parse_variant};
use corbeau::order::{
    Instruction, Location, Order, OrderError, UnitSpec, parse_order, parse_orders, parse_unit_line,
};
use pretty_assertions::assert_eq;
use proptest::prelude::*;

/// A small Westeros: the seed's provinces, multi-word names, a two-coast Winterfell and
/// the dragon Balerion.
const MINI_WESTEROS: &str = r#"
[variant]
id = "mini-westeros"
name = "Mini Westeros"
first_year = 298

[victory]
centres = 3

[[house]]
id = "stark"
name = "Stark"
home = ["win"]

[[house]]
id = "targaryen"
name = "Targaryen"
home = ["pey"]
builds = ["army", "fleet", "dragon"]
dragon_names = ["Meraxès", "Vhagar"]

[[province]]
id = "ner"
name = "Néra"
kind = "land"
aliases = ["Blackwater"]
army = ["som", "por", "boi", "pla"]

[[province]]
id = "som"
name = "Sombreval"
kind = "coast"
aliases = ["Duskendale"]
supply = true
army = ["ner", "por"]
fleet = ["bnr", "gos"]

[[province]]
id = "por"
name = "Port-Réal"
kind = "coast"
aliases = ["King's Landing"]
supply = true
army = ["ner", "som", "boi"]
fleet = ["bnr"]

[[province]]
id = "pla"
name = "Port-Lannis"
kind = "land"
aliases = ["Lannisport"]
army = ["ner"]

[[province]]
id = "boi"
name = "Bois-du-Roi"
kind = "land"
aliases = ["Kingswood"]
army = ["ner", "por", "cla"]

[[province]]
id = "cla"
name = "Presqu'île de Claquepince"
kind = "coast"
aliases = ["Claquepince", "Crackclaw Point"]
army = ["boi"]
fleet = ["crb"]

[[province]]
id = "goe"
name = "Goëville"
kind = "coast"
aliases = ["Gulltown"]
fleet = ["crb"]

[[province]]
id = "pey"
name = "Peyredragon"
kind = "coast"
aliases = ["Dragonstone"]
supply = true
fleet = ["gos"]

[[province]]
id = "win"
name = "Winterfell"
kind = "coast"
supply = true
  [[province.coasts]]
  id = "ouest"
  aliases = ["o", "w", "west", "co", "côte ouest"]
  fleet = ["bgl"]
  [[province.coasts]]
  id = "est"
  aliases = ["e", "east", "ce", "côte est"]
  fleet = ["mfr"]

[[province]]
id = "gos"
name = "Le Gosier"
kind = "sea"
aliases = ["Gosier", "The Gullet"]
fleet = ["som", "bnr", "pey"]

[[province]]
id = "bnr"
name = "Baie de la Néra"
kind = "sea"
aliases = ["Blackwater Bay"]
fleet = ["som", "gos", "por"]

[[province]]
id = "crb"
name = "Baie des Crabes"
kind = "sea"
aliases = ["Bay of Crabs"]
fleet = ["cla", "goe"]

[[province]]
id = "bgl"
name = "Baie de Glace"
kind = "sea"
aliases = ["Bay of Ice"]
fleet = ["win/ouest"]

[[province]]
id = "mfr"
name = "Mer Frissonnante"
kind = "sea"
aliases = ["Shivering Sea"]
fleet = ["win/est"]

[[unit]]
house = "stark"
kind = "army"
at = "ner"

[[unit]]
house = "stark"
kind = "fleet"
at = "crb"

[[unit]]
house = "targaryen"
kind = "dragon"
at = "pey"
name = "Balerion"

[[setup]]
players = 2
houses = ["stark", "targaryen"]
"#;

/// A small classic map: the provinces the DATC-style examples use, with `spa` and `stp`
/// on two coasts and jDip's and DATC v3's abbreviations as aliases.
const MINI_CLASSIC: &str = r#"
[variant]
id = "mini-classic"
name = "Mini classic"
first_year = 1901

[victory]
centres = 5

[[house]]
id = "england"
name = "England"
aliases = ["ENG"]
home = ["lvp", "edi"]

[[house]]
id = "france"
name = "France"
aliases = ["FRA"]
home = ["bre", "mar"]

[[house]]
id = "russia"
name = "Russia"
aliases = ["RUS"]
home = ["stp", "mos", "war"]

[[house]]
id = "austria"
name = "Austria"
aliases = ["AUS"]
home = ["tri", "bud"]

[[province]]
id = "nth"
name = "North Sea"
kind = "sea"
fleet = ["pic", "yor", "edi"]

[[province]]
id = "pic"
name = "Picardy"
kind = "coast"
army = ["bre"]
fleet = ["nth"]

[[province]]
id = "yor"
name = "Yorkshire"
kind = "coast"
army = ["lvp", "edi"]
fleet = ["nth"]

[[province]]
id = "edi"
name = "Edinburgh"
kind = "coast"
supply = true
army = ["yor", "lvp"]
fleet = ["nth"]

[[province]]
id = "lvp"
name = "Liverpool"
kind = "coast"
supply = true
army = ["yor", "edi"]
fleet = ["iri"]

[[province]]
id = "iri"
name = "Irish Sea"
kind = "sea"
fleet = ["lvp", "mid"]

[[province]]
id = "mid"
name = "Mid-Atlantic Ocean"
kind = "sea"
aliases = ["mao"]
fleet = ["iri", "bre", "gas", "por", "spa/nc", "spa/sc"]

[[province]]
id = "bre"
name = "Brest"
kind = "coast"
supply = true
army = ["pic", "gas"]
fleet = ["mid"]

[[province]]
id = "gas"
name = "Gascony"
kind = "coast"
army = ["bre", "spa", "mar"]
fleet = ["mid", "spa/nc"]

[[province]]
id = "spa"
name = "Spain"
kind = "coast"
supply = true
army = ["gas", "por", "mar"]
  [[province.coasts]]
  id = "nc"
  aliases = ["north coast", "nord"]
  fleet = ["mid", "gas", "por"]
  [[province.coasts]]
  id = "sc"
  aliases = ["south coast", "sud"]
  fleet = ["mid", "gol", "mar", "por"]

[[province]]
id = "por"
name = "Portugal"
kind = "coast"
supply = true
army = ["spa"]
fleet = ["mid", "spa/nc", "spa/sc"]

[[province]]
id = "mar"
name = "Marseilles"
kind = "coast"
supply = true
army = ["gas", "spa"]
fleet = ["gol", "spa/sc"]

[[province]]
id = "gol"
name = "Gulf of Lyon"
kind = "sea"
aliases = ["lyo"]
fleet = ["mar", "spa/sc"]

[[province]]
id = "stp"
name = "St Petersburg"
kind = "coast"
supply = true
army = ["mos", "war"]
  [[province.coasts]]
  id = "nc"
  fleet = ["bar"]
  [[province.coasts]]
  id = "sc"
  fleet = ["bot"]

[[province]]
id = "bar"
name = "Barents Sea"
kind = "sea"
fleet = ["stp/nc"]

[[province]]
id = "bot"
name = "Gulf of Bothnia"
kind = "sea"
fleet = ["stp/sc"]

[[province]]
id = "mos"
name = "Moscow"
kind = "land"
supply = true
army = ["stp", "war"]

[[province]]
id = "war"
name = "Warsaw"
kind = "land"
supply = true
army = ["stp", "mos"]

[[province]]
id = "tri"
name = "Trieste"
kind = "coast"
supply = true
army = ["bud"]
fleet = ["adr"]

[[province]]
id = "adr"
name = "Adriatic Sea"
kind = "sea"
fleet = ["tri"]

[[province]]
id = "bud"
name = "Budapest"
kind = "land"
supply = true
army = ["tri"]

[[setup]]
players = 4
houses = ["england", "france", "russia", "austria"]
"#;

fn westeros() -> Variant {
    parse_variant("mini-westeros.toml", MINI_WESTEROS).unwrap_or_else(|e| panic!("{e}"))
}

fn classic() -> Variant {
    parse_variant("mini-classic.toml", MINI_CLASSIC).unwrap_or_else(|e| panic!("{e}"))
}

/// A shipped variant, if its file exists and loads (other work may not have landed yet).
fn shipped(name: &str) -> Option<Variant> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{name}.toml"));
    match corbeau::map::load_variant_file(&path) {
        Ok(v) => Some(v),
        Err(e) => {
            eprintln!("skipped on {name}: {e}");
            None
        }
    }
}

fn source() -> Arc<str> {
    Arc::from("orders.txt")
}

#[track_caller]
fn parse(variant: &Variant, line: &str) -> Order {
    match parse_order(variant, &source(), 1, line) {
        Ok(Some(order)) => order,
        Ok(None) => panic!("`{line}`: read as a blank line"),
        Err(e) => panic!("`{line}`: {e}"),
    }
}

#[track_caller]
fn error(variant: &Variant, line: &str) -> OrderError {
    match parse_order(variant, &source(), 1, line) {
        Ok(found) => panic!("`{line}`: parsed as {found:?}"),
        Err(e) => e,
    }
}

/// The compact AST of the grammar's examples: `Stark: A1@ner S ?:Balerion@gos -> som`.
fn summary(v: &Variant, order: &Order) -> String {
    let location = |l: &Location| match l.coast {
        Some(coast) => v.region_label(coast),
        None => v.province(l.province).id.clone(),
    };
    let unit = |u: &UnitSpec| {
        let mut s = u
            .kind
            .map_or_else(|| "?".to_string(), |k| k.letter().to_string());
        if let Some(n) = u.number {
            s += &n.to_string();
        }
        if let Some(name) = &u.name {
            s += &format!(":{name}");
        }
        if let Some(at) = &u.at {
            s += &format!("@{}", location(at));
        }
        s
    };
    let action = match &order.action {
        Instruction::Hold => "hold".to_string(),
        Instruction::Move { to, via_convoy, .. } => {
            let via = if *via_convoy { " via convoy" } else { "" };
            format!("-> {}{via}", location(to))
        }
        Instruction::Support { unit: u, to } => match to {
            Some(to) => format!("S {} -> {}", unit(u), location(to)),
            None => format!("S {}", unit(u)),
        },
        Instruction::Convoy { unit: u, to } => format!("C {} -> {}", unit(u), location(to)),
        Instruction::Retreat { to } => format!("R {}", location(to)),
        Instruction::Disband => "disband".to_string(),
        Instruction::Build => "build".to_string(),
        Instruction::Waive => "waive".to_string(),
    };
    let house = order
        .house
        .as_ref()
        .map_or(String::new(), |h| format!("{h}: "));
    format!("{house}{} {action}", unit(&order.unit))
}

fn location(v: &Variant, id: &str) -> Location {
    let (province, coast) = match id.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (id, None),
    };
    let province = v.province_by_id(province).unwrap();
    let coast = coast.map(|c| {
        v.province(province)
            .coasts
            .iter()
            .copied()
            .find(|&r| v.region(r).coast.as_deref() == Some(c))
            .unwrap()
    });
    Location { province, coast }
}

fn at(v: &Variant, kind: Option<UnitKind>, id: &str) -> UnitSpec {
    UnitSpec {
        kind,
        at: Some(location(v, id)),
        ..UnitSpec::default()
    }
}

// ---------------------------------------------------------------------------------------
// The grammar's examples

#[test]
fn every_example_of_the_grammar_gives_its_ast_or_its_error() {
    let grammar = include_str!("../grammar/orders.ebnf");
    let (w, c) = (westeros(), classic());
    let mut checked = 0;
    let mut failures = Vec::new();
    for (index, raw) in grammar.lines().enumerate() {
        let line = raw.trim_start();
        let Some((tag, rest)) = line.split_at_checked(3) else {
            continue;
        };
        let variant = match tag {
            "w> " | "w! " => &w,
            "c> " | "c! " => &c,
            _ => continue,
        };
        let (order, expected) = rest.rsplit_once(" = ").expect("`ORDER = EXPECTED`");
        let (order, expected) = (order.trim_end(), expected.trim());
        let got = match parse_order(variant, &source(), 1, order) {
            Ok(Some(o)) if tag.ends_with("> ") => summary(variant, &o),
            Ok(o) => format!("{o:?}"),
            Err(e) if tag.ends_with("! ") => {
                format!("{}:{} {}", e.span().line, e.span().column, e.code())
            }
            Err(e) => e.to_string(),
        };
        if got != expected {
            failures.push(format!(
                "orders.ebnf:{}: `{order}`\n   expected {expected}\n   got      {got}",
                index + 1
            ));
        }
        checked += 1;
    }
    assert!(checked > 80, "only {checked} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// The seed's lines, full AST

fn seed_lines_give_the_obvious_orders(v: &Variant) {
    let a1 = |id: &str| UnitSpec {
        kind: Some(UnitKind::Army),
        number: Some(1),
        name: None,
        at: Some(location(v, id)),
    };
    let order = parse(v, "A1 Ner tient");
    assert_eq!(order.unit, a1("ner"));
    assert_eq!(order.action, Instruction::Hold);
    assert_eq!(order.house, None);
    assert_eq!(order.text, "A1 Ner tient");
    assert_eq!((order.span.line, order.span.column), (1, 1));

    for line in ["A1 Nera -> Sombreval", "A1 Ner-> Som"] {
        let order = parse(v, line);
        assert_eq!(order.unit, a1("ner"), "{line}");
        let to = location(v, "som");
        let want = Instruction::Move {
            to,
            via_convoy: false,
            path: Vec::new(),
        };
        assert_eq!(order.action, want, "{line}");
    }

    let order = parse(v, "A1 Ner soutient Balerion Gos->Som");
    assert_eq!(order.unit, a1("ner"));
    let balerion = UnitSpec {
        kind: None,
        number: None,
        name: Some("Balerion".into()),
        at: Some(location(v, "gos")),
    };
    let want = Instruction::Support {
        unit: balerion,
        to: Some(location(v, "som")),
    };
    assert_eq!(order.action, want);

    let order = parse(v, "A Cla -> Goe");
    assert_eq!(order.unit, at(v, Some(UnitKind::Army), "cla"));
    let to = location(v, "goe");
    let want = Instruction::Move {
        to,
        via_convoy: false,
        path: Vec::new(),
    };
    assert_eq!(order.action, want);

    let order = parse(v, "F Crb A Cla->Goe");
    assert_eq!(order.unit, at(v, Some(UnitKind::Fleet), "crb"));
    let want = Instruction::Convoy {
        unit: at(v, Some(UnitKind::Army), "cla"),
        to: location(v, "goe"),
    };
    assert_eq!(order.action, want);
}

#[test]
fn seed_lines_on_the_test_map() {
    seed_lines_give_the_obvious_orders(&westeros());
}

#[test]
fn seed_lines_on_the_shipped_westeros_map() {
    if let Some(v) = shipped("westeros") {
        seed_lines_give_the_obvious_orders(&v);
    }
}

// ---------------------------------------------------------------------------------------
// Forms

#[test]
fn french_and_english_forms_agree() {
    let v = westeros();
    let pairs = [
        ("A Ner tient", "A Ner hold"),
        ("Armée Ner se déplace vers Som", "Army Ner moves to Som"),
        ("A Ner se deplace vers Som", "A Ner move to Som"),
        ("A Ner va Som", "A Ner to Som"),
        ("A Ner soutient A Som", "A Ner supports A Som"),
        ("A Ner soutient A Som -> Por", "A Ner S A Som - Por"),
        (
            "Flotte Crb convoie A Cla -> Goe",
            "Fleet Crb convoys A Cla -> Goe",
        ),
        ("A Cla -> Goe via convoi", "A Cla -> Goe via convoy"),
        ("A Cla -> Goe par convoi", "A Cla -> Goe by convoy"),
        ("A Ner retraite vers Som", "A Ner retreat to Som"),
        ("A Ner dissoudre", "A Ner disband"),
        ("dissoudre A Ner", "remove A Ner"),
        ("construire A Win", "build A Win"),
        ("A Win construire", "A Win build"),
        ("renoncer", "waive"),
    ];
    for (fr, en) in pairs {
        let (fr_order, en_order) = (parse(&v, fr), parse(&v, en));
        assert_eq!(fr_order.unit, en_order.unit, "{fr} / {en}");
        assert_eq!(fr_order.action, en_order.action, "{fr} / {en}");
    }
}

#[test]
fn case_accents_and_spacing_do_not_matter() {
    let v = westeros();
    let want = parse(&v, "A Ner -> Som");
    for line in [
        "a ner -> som",
        "ARMÉE NÉRA -> SOMBREVAL",
        "armee nera->sombreval",
        "  A\tNer  ->   Som  ",
        "A Ner→Som",
        "A Ner – Som",
        "A Ner-Som.",
        "A Ner -> Som ;",
        "A Ner -> Som # à l'aube",
        "A Néra -> Som",
    ] {
        let order = parse(&v, line);
        assert_eq!(
            (&order.unit, &order.action),
            (&want.unit, &want.action),
            "{line}"
        );
    }
}

#[test]
fn hyphenated_names_win_over_arrows() {
    let v = westeros();
    let order = parse(&v, "A Port-Réal-Bois-du-Roi");
    assert_eq!(order.unit, at(&v, Some(UnitKind::Army), "por"));
    let to = location(&v, "boi");
    let want = Instruction::Move {
        to,
        via_convoy: false,
        path: Vec::new(),
    };
    assert_eq!(order.action, want);
    let order = parse(&v, "A Bois-du-Roi-Port-Réal");
    assert_eq!(order.unit, at(&v, Some(UnitKind::Army), "boi"));
    let order = parse(&v, "A Port-Lannis-Ner");
    assert_eq!(order.unit, at(&v, Some(UnitKind::Army), "pla"));
    let order = parse(&v, "A King's Landing -> Kingswood");
    assert_eq!(order.unit, at(&v, Some(UnitKind::Army), "por"));
}

/// A name the judge's replies write with brackets reads back as written; a bracket after
/// a name is still a coast.
#[test]
fn bracketed_names_read_as_the_replies_write_them() {
    let v = load_variant("westeros").unwrap();
    for line in [
        "A Les Roches (Rivage Pierreux) -> Win",
        "A les roches(rivage pierreux)-> Win",
        "A Les Roches ( Rivage Pierreux ) -> Win",
    ] {
        let order = parse(&v, line);
        assert_eq!(order.unit, at(&v, Some(UnitKind::Army), "roc"), "{line}");
        let want = Instruction::Move {
            to: location(&v, "win"),
            via_convoy: false,
            path: Vec::new(),
        };
        assert_eq!(order.action, want, "{line}");
    }
    let order = parse(&v, "F Win (ouest) -> Les Roches (Rivage Pierreux)");
    assert_eq!(
        order
            .unit
            .at
            .and_then(|l| l.coast)
            .map(|c| v.region_label(c)),
        Some("win/ouest".to_string())
    );
    // Half a bracketed name is still read as a name and a coast, and refused as such.
    let e = error(&v, "A Les Roches (Rivage -> Win");
    assert!(
        e.message(Lang::En).contains("Rivage"),
        "{}",
        e.message(Lang::En)
    );
}

#[test]
fn coasts_in_every_form() {
    let v = classic();
    for line in [
        "F spa/nc -> mid",
        "F spa(nc) -> mid",
        "F spa (nc) -> mid",
        "F spa / nc -> mid",
        "F Spain (north coast) -> mid",
        "F spa nc -> mid",
        "F spa/NC -> mid",
        "F spa(nord) -> mid",
    ] {
        let order = parse(&v, line);
        assert_eq!(order.unit.at, Some(location(&v, "spa/nc")), "{line}");
    }
    let order = parse(&v, "F mid S F gas-spa/sc");
    let want = Instruction::Support {
        unit: at(&v, Some(UnitKind::Fleet), "gas"),
        to: Some(location(&v, "spa/sc")),
    };
    assert_eq!(order.action, want);
    let w = westeros();
    assert_eq!(
        parse(&w, "F Win (co) tient").unit.at,
        Some(location(&w, "win/ouest"))
    );
    assert_eq!(
        parse(&w, "F Win/est tient").unit.at,
        Some(location(&w, "win/est"))
    );
}

#[test]
fn a_dragon_is_named_or_typed() {
    let v = westeros();
    let order = parse(&v, "Balerion Pey -> Gos");
    assert_eq!(order.unit.name.as_deref(), Some("Balerion"));
    assert_eq!(order.unit.kind, None);
    let order = parse(&v, "D1 Pey -> Gos");
    assert_eq!(order.unit.kind, Some(UnitKind::Dragon));
    assert_eq!(order.unit.number, Some(1));
    // A dragon the map does not know, followed by a province: read as a name, for the
    // judge to report.
    let order = parse(&v, "Caraxès Pey -> Gos");
    assert_eq!(order.unit.name.as_deref(), Some("Caraxès"));
    // The classic map has no dragons: an unknown word is an unknown province.
    let c = classic();
    assert_eq!(
        error(&c, "Balerion pic -> bre").code(),
        "order.unknown_province"
    );
}

#[test]
fn orders_keep_house_text_and_place() {
    let v = westeros();
    let order = parse(&v, "   Stark : A Ner -> Som.  # d'abord");
    assert_eq!(order.house.as_deref(), Some("Stark"));
    assert_eq!(order.text, "Stark : A Ner -> Som");
    assert_eq!((order.span.line, order.span.column), (1, 4));
    assert_eq!(&*order.span.source, "orders.txt");
}

#[test]
fn blank_and_comment_lines_are_no_orders() {
    let v = westeros();
    for line in [
        "",
        "   ",
        "\t",
        "# rien",
        "   ### Turkey: A gre  # destroyed",
    ] {
        assert_eq!(parse_order(&v, &source(), 1, line), Ok(None), "{line:?}");
    }
}

#[test]
fn parse_orders_numbers_lines_and_skips_blanks() {
    let v = westeros();
    let text = "# Stark, printemps 298\nA1 Ner tient\n\nA Cla -> Goo\r\nF Crb A Cla->Goe\n";
    let results = parse_orders(&v, "mail", text);
    assert_eq!(results.len(), 3);
    assert_eq!(results[0].as_ref().unwrap().span.line, 2);
    let e = results[1].as_ref().unwrap_err();
    assert_eq!((e.span().line, e.span().column), (4, 10));
    assert_eq!(&*e.span().source, "mail");
    assert_eq!(results[2].as_ref().unwrap().span.line, 5);
}

#[test]
fn unit_lines_list_a_position() {
    let v = westeros();
    let (house, unit) = parse_unit_line(&v, "Stark: A ner").unwrap();
    assert_eq!(house.as_deref(), Some("Stark"));
    assert_eq!(unit, at(&v, Some(UnitKind::Army), "ner"));
    let balerion = UnitSpec {
        kind: Some(UnitKind::Dragon),
        number: None,
        name: Some("Balerion".into()),
        at: Some(location(&v, "pey")),
    };
    for line in [
        "Targaryen: D pey Balerion",
        "Targaryen: Balerion pey",
        "Targaryen: D Balerion pey",
        "Targaryen: Dragon Peyredragon Balerion  # le noir",
    ] {
        let (house, unit) = parse_unit_line(&v, line).unwrap();
        assert_eq!(house.as_deref(), Some("Targaryen"), "{line}");
        assert_eq!(unit, balerion, "{line}");
    }
    let (_, unit) = parse_unit_line(&v, "Stark: F win/est").unwrap();
    assert_eq!(unit.at, Some(location(&v, "win/est")));
    let c = classic();
    let (house, unit) = parse_unit_line(&c, "\tEngland: F stp/sc").unwrap();
    assert_eq!(house.as_deref(), Some("England"));
    assert_eq!(unit, at(&c, Some(UnitKind::Fleet), "stp/sc"));
    // The kind and the province are needed.
    assert_eq!(
        parse_unit_line(&v, "Stark: ner").unwrap_err().code(),
        "order.expected"
    );
    assert_eq!(
        parse_unit_line(&v, "Stark: A").unwrap_err().code(),
        "order.expected"
    );
    assert_eq!(
        parse_unit_line(&v, "").unwrap_err().code(),
        "order.expected"
    );
    let e = parse_unit_line(&v, "Stark: A nerr").unwrap_err();
    let e = e.relocated(&Arc::from("case.txt"), 7);
    assert_eq!(
        e.to_string(),
        "case.txt:7:10: unknown province `nerr`; did you mean Néra (Ner)?"
    );
}

// ---------------------------------------------------------------------------------------
// Errors

#[test]
fn an_unknown_province_gets_suggestions_in_both_languages() {
    let v = westeros();
    let e = error(&v, "A1 Ner -> Sombrevale");
    assert_eq!(
        e.message(Lang::Fr),
        "ligne 1, colonne 11 : « Sombrevale » ? vouliez-vous dire Sombreval (Som) ?"
    );
    assert_eq!(
        e.message(Lang::En),
        "line 1, column 11: unknown province `Sombrevale`; did you mean Sombreval (Som)?"
    );
    assert_eq!(
        e.to_string(),
        "orders.txt:1:11: unknown province `Sombrevale`; did you mean Sombreval (Som)?"
    );
    let e = error(&v, "A Port-Rael -> Ner");
    match &e {
        OrderError::UnknownProvince { name, nearest, .. } => {
            assert_eq!(name, "Port-Rael");
            assert_eq!(
                nearest.first().map(|n| n.shown(Lang::Fr)),
                Some("Port-Réal (Por)")
            );
        }
        other => panic!("{other:?}"),
    }
    let e = error(&v, "A Xyzzy -> Ner");
    assert_eq!(
        e.message(Lang::En),
        "line 1, column 3: unknown province `Xyzzy`"
    );
    assert_eq!(
        e.message(Lang::Fr),
        "ligne 1, colonne 3 : province inconnue « Xyzzy »"
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    let v = westeros();
    let e = error(&v, "Armée Néra -> Sômbrevale");
    assert_eq!(e.span().column, 15);
}

#[test]
fn a_misspelt_verb_is_expected_with_a_hint() {
    let v = westeros();
    let e = error(&v, "A1 Ner tien");
    assert_eq!(
        e.message(Lang::En),
        "line 1, column 8: expected an order verb (hold, ->, supports, convoys, retreat, \
         disband, build), found `tien`; did you mean `tient`?"
    );
    assert_eq!(
        e.message(Lang::Fr),
        "ligne 1, colonne 8 : on attendait un verbe (tient, ->, soutient, convoie, retraite, \
         dissoudre, construire), mais on trouve « tien » ; vouliez-vous dire « tient » ?"
    );
}

#[test]
fn a_missing_destination_is_expected_at_the_end_of_the_line() {
    let v = westeros();
    let e = error(&v, "A1 Ner ->");
    assert_eq!(
        e.message(Lang::En),
        "line 1, column 10: expected a province, found the end of the line"
    );
    assert_eq!(
        e.message(Lang::Fr),
        "ligne 1, colonne 10 : on attendait une province, mais on trouve la fin de la ligne"
    );
}

#[test]
fn an_unknown_coast_lists_the_coasts() {
    let v = westeros();
    let e = error(&v, "F Win/nord tient");
    assert_eq!(
        e.message(Lang::En),
        "line 1, column 7: unknown coast `nord` of Winterfell (Win); its coasts are ouest, est"
    );
    assert_eq!(e.code(), "order.unknown_coast");
    let e = error(&v, "F Som/est tient");
    assert_eq!(
        e.message(Lang::Fr),
        "ligne 1, colonne 7 : côte « est » : Sombreval (Som) n'a qu'une côte, ne la nommez pas"
    );
}

#[test]
fn a_line_too_long_is_refused_before_parsing() {
    let v = westeros();
    let line = format!("A Ner -> Som {}", "x".repeat(2000));
    let e = error(&v, &line);
    assert_eq!(e.code(), "order.too_long");
    assert!(
        e.message(Lang::En)
            .contains("line too long (2013 characters, at most 1000)")
    );
}

// ---------------------------------------------------------------------------------------
// The DATC's order files, on the shipped classic map

fn datc(name: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datc")
        .join(name);
    if !path.exists() {
        eprintln!("skipped: {} is absent", path.display());
        return None;
    }
    Some(std::fs::read_to_string(path).unwrap())
}

#[test]
fn every_order_and_unit_line_of_datc_v2_4_parses_on_classique() {
    let (Some(text), Some(v)) = (datc("datc_v2.4.txt"), shipped("classique")) else {
        return;
    };
    let source: Arc<str> = Arc::from("datc_v2.4.txt");
    let (mut section, mut orders, mut units, mut failures) = ("", 0, 0, Vec::new());
    for (index, line) in text.lines().enumerate() {
        let line_no = u32::try_from(index + 1).unwrap();
        if !line.starts_with([' ', '\t']) {
            section = line.split_whitespace().next().unwrap_or("");
            continue;
        }
        match section {
            "ORDERS" => {
                orders += 1;
                if let Err(e) = parse_order(&v, &source, line_no, line) {
                    failures.push(e.to_string());
                }
            }
            "PRESTATE"
            | "POSTSTATE"
            | "PRESTATE_DISLODGED"
            | "POSTSTATE_DISLODGED"
            | "PRESTATE_SUPPLYCENTER_OWNERS" => {
                if line.trim().is_empty() || line.trim_start().starts_with('#') {
                    continue;
                }
                units += 1;
                if let Err(e) = parse_unit_line(&v, line) {
                    failures.push(e.relocated(&source, line_no).to_string());
                }
            }
            "PRESTATE_RESULTS" => {
                // `SUCCESS: Austria: A ser H`: an order after the result.
                let order = line.trim_start().split_once(':').map_or(line, |(_, o)| o);
                if let Err(e) = parse_order(&v, &source, line_no, order) {
                    failures.push(e.to_string());
                }
            }
            _ => {}
        }
    }
    assert!(
        orders > 600 && units > 600,
        "{orders} orders, {units} units"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_order_of_datc_v3_json_parses_on_classique() {
    let (Some(text), Some(v)) = (datc("datc_v3.json"), shipped("classique")) else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let source: Arc<str> = Arc::from("datc_v3.json");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut check = |order: &str, unit_line: bool| {
        count += 1;
        let result = if unit_line {
            parse_unit_line(&v, order).map(|_| ())
        } else {
            parse_order(&v, &source, 1, order).map(|_| ())
        };
        if let Err(e) = result {
            failures.push(format!("`{order}`: {e}"));
        }
    };
    for case in json["cases"].as_array().unwrap() {
        let phases = [&case["orders"], &case["preceding_main_phase"]["orders"]];
        for orders in phases.into_iter().filter_map(|o| o.as_object()) {
            for order in orders.keys() {
                check(order, false);
            }
        }
        for key in ["starting_state", "civil_disorder"] {
            for unit in case[key].as_array().into_iter().flatten() {
                check(unit.as_str().unwrap(), true);
            }
        }
    }
    assert!(count > 500, "{count} orders");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Never a panic

const TOKENS: &[&str] = &[
    "A",
    "A1",
    "F",
    "D",
    "Armée",
    "Fleet",
    "Balerion",
    "Ner",
    "Som",
    "Port-Réal",
    "Bois-du-Roi",
    "Presqu'île",
    "de",
    "Claquepince",
    "Win",
    "/",
    "(",
    ")",
    "ouest",
    "co",
    "->",
    "-",
    "→",
    "–",
    "tient",
    "H",
    "soutient",
    "S",
    "convoie",
    "C",
    "se",
    "déplace",
    "vers",
    "via",
    "convoi",
    "retraite",
    "R",
    "dissoudre",
    "construire",
    "renoncer",
    "Stark:",
    ":",
    "#",
    ".",
    ";",
    " ",
    "\t",
    "é",
    "\u{301}",
    "💥",
    "9999999999999",
    "spa",
    "nc",
];

proptest! {
    #[test]
    fn parse_order_never_panics_on_any_string(line in "\\PC{0,80}") {
        let v = westeros();
        let _ = parse_order(&v, &source(), 1, &line);
        let _ = parse_unit_line(&v, &line);
    }

    #[test]
    fn parse_order_never_panics_on_grammar_tokens(
        tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..12),
        glue in proptest::collection::vec(proptest::sample::select(&["", " ", "  "][..]), 12),
    ) {
        let v = westeros();
        let line: String = tokens
            .iter()
            .zip(glue.iter())
            .flat_map(|(t, g)| [*t, *g])
            .collect();
        match parse_order(&v, &source(), 1, &line) {
            Ok(_) => {}
            Err(e) => {
                let column = usize::try_from(e.span().column).unwrap();
                prop_assert!(column <= line.chars().count() + 1, "{line:?}: {e}");
                prop_assert!(!e.message(Lang::Fr).is_empty());
            }
        }
        let _ = parse_unit_line(&v, &line);
    }
}
