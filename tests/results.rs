//! Results of real adjudications on Westeros, rendered in French, English and JSON, against
//! golden files (bless with `CORBEAU_BLESS=1 cargo test --test results`).

mod support;

use std::fs;

use corbeau::judge::{Adjudication, GivenOrder, PhaseKind, Position, Season, Unit, adjudicate};
use corbeau::lang::Lang;
use corbeau::map::{Owner, UnitKind, Variant, load_variant};
use corbeau::order::parse_orders;
use corbeau::report::{
    RenderError, ResultsView, Status, render_results, results_json, results_view,
    results_view_with_orders,
};
use pretty_assertions::assert_eq;

use support::assert_golden;

/// Spring 298: a three-way standoff in Le Bief, a support cut at Moat Cailin, Baratheon
/// dislodged from Chemin des Os (retreats: Accalmie, Passe-du-Prince), a neutral army
/// dislodged from Port-Réal, an illegal fleet move, a rejected order and Balerion flying.
const SPRING: &str = "\
Stark: A win H
Stark: F bla -> mfr
Stark: A moa S A win
Stark: A har -> viv
Greyjoy: A gri -> moa
Greyjoy: F pyk -> sal
Greyjoy: F pfl -> bgl
Lannister: A mfm -> bie
Lannister: A pie -> har
Lannister: F lan -> sdo
Baratheon: A boi -> bie
Baratheon: A che -> fer
Baratheon: F acc -> bna
Tyrell: A hau -> bie
Tyrell: A mad -> che
Tyrell: F vil -> dre
Martell: A fer S A mad -> che
Targaryen: Balerion Pey -> Gos
Targaryen: A Cla -> Prt
Targaryen: F Som soutient A Cla -> Prt
";

const SPRING_RETREATS: &str = "Baratheon: A che R acc\n";

const AUTUMN: &str = "\
Tyrell: A che H
Martell: A fer S A che
Baratheon: A acc -> che
Baratheon: A boi S A acc -> che
";

/// Winter 298: Baratheon must disband one unit, Tyrell, Lannister and Targaryen may build.
const WINTER: &str = "\
Baratheon: dissoudre F bna
Tyrell: construire A mad
Tyrell: construire F hau
Lannister: renoncer
Targaryen: construire D cla
";

fn westeros() -> Variant {
    load_variant("westeros").expect("the embedded Westeros variant loads")
}

fn orders(variant: &Variant, text: &str) -> Vec<GivenOrder> {
    parse_orders(variant, "ordres.txt", text)
        .into_iter()
        .map(|parsed| {
            let order = parsed.unwrap_or_else(|e| panic!("{e}"));
            let house = order
                .house
                .as_deref()
                .and_then(|h| variant.house_by_name(h));
            GivenOrder { house, order }
        })
        .collect()
}

/// Plays a phase and returns its results view.
fn play(variant: &Variant, position: &Position, text: &str) -> (ResultsView, Adjudication) {
    let given = orders(variant, text);
    let adjudication = adjudicate(variant, position, &given);
    (
        results_view_with_orders(variant, position, &adjudication, &given),
        adjudication,
    )
}

/// The four phases of 298, each with its view.
fn year_298(variant: &Variant) -> Vec<ResultsView> {
    let mut position = Position::starting(variant, None).expect("Westeros has a full setup");
    let mut views = Vec::new();
    for text in [SPRING, SPRING_RETREATS, AUTUMN, WINTER] {
        let (view, adjudication) = play(variant, &position, text);
        views.push(view);
        position = adjudication.after;
    }
    views
}

fn render(view: &ResultsView, variant: &Variant, lang: Lang) -> String {
    render_results(view, variant, lang, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn spring_results_golden_in_french_english_and_json() {
    let variant = westeros();
    let views = year_298(&variant);
    let spring = &views[0];
    assert_golden(
        "results-westeros-spring-fr.txt",
        &render(spring, &variant, Lang::Fr),
    );
    assert_golden(
        "results-westeros-spring-en.txt",
        &render(spring, &variant, Lang::En),
    );
    assert_golden("results-westeros-spring.json", &results_json(spring));
}

#[test]
fn winter_results_golden_with_centre_table() {
    let variant = westeros();
    let views = year_298(&variant);
    let winter = &views[3];
    assert_eq!(winter.phase.season, Season::Winter);
    assert!(winter.centres.is_some(), "a winter shows the centre table");
    assert_golden(
        "results-westeros-winter-fr.txt",
        &render(winter, &variant, Lang::Fr),
    );
    assert_golden(
        "results-westeros-winter-en.txt",
        &render(winter, &variant, Lang::En),
    );
}

#[test]
fn spring_view_explains_each_outcome() {
    let variant = westeros();
    let spring = &year_298(&variant)[0];
    let line = |house: &str, unit: &str| {
        spring
            .houses
            .iter()
            .filter(|h| h.house.as_ref().map_or("neutral", |h| h.id.as_str()) == house)
            .flat_map(|h| &h.orders)
            .find(|o| o.unit.as_ref().is_some_and(|u| u.at.id == unit))
            .unwrap_or_else(|| panic!("no line for {house} {unit}"))
    };
    let ids = |o: &corbeau::report::OrderLine| -> Vec<String> {
        o.outcome.provinces.iter().map(|p| p.id.clone()).collect()
    };
    let bie = line("tyrell", "hau");
    assert_eq!(bie.outcome.reason.as_deref(), Some("standoff"));
    assert_eq!(ids(bie), ["mfm", "boi"]);
    let moa = line("stark", "moa");
    assert_eq!(
        (moa.outcome.reason.as_deref(), ids(moa)),
        (Some("support-cut"), vec!["gri".to_string()])
    );
    let che = line("baratheon", "che");
    assert!(che.dislodged, "A che is dislodged");
    assert_eq!(
        che.dislodged_by.as_ref().map(|p| p.id.as_str()),
        Some("mad")
    );
    let pyk = line("greyjoy", "pyk");
    assert_eq!(pyk.outcome.status, Status::Illegal);
    assert_eq!(
        pyk.order, "F pyk H",
        "an illegal order leaves the unit holding"
    );
    let balerion = line("targaryen", "pey");
    assert_eq!(balerion.order, "D pey -> gos");
    assert_eq!(
        balerion.unit.as_ref().and_then(|u| u.dragon.as_deref()),
        Some("Balerion")
    );
    assert_eq!(line("targaryen", "som").order, "F som S A cla -> prt");
    let dislodged: Vec<(&str, Vec<&str>)> = spring
        .dislodged
        .iter()
        .map(|d| {
            (
                d.unit.at.id.as_str(),
                d.retreats.iter().map(|p| p.id.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(dislodged, [("che", vec!["acc", "pas"]), ("prt", vec![])]);
    assert_eq!(spring.rejected.len(), 1);
    assert_eq!(
        spring.rejected[0].written.as_deref(),
        Some("Stark: A har -> viv")
    );
    assert_eq!(spring.next.kind, PhaseKind::Retreat);
    assert!(spring.centres.is_none(), "no centre table in spring");
}

#[test]
fn view_without_orders_still_reports_rejections() {
    let variant = westeros();
    let position = Position::starting(&variant, None).expect("full setup");
    let given = orders(&variant, SPRING);
    let adjudication = adjudicate(&variant, &position, &given);
    let view = results_view(&variant, &position, &adjudication);
    assert_eq!(view.rejected.len(), 1);
    assert_eq!(view.rejected[0].written, None);
    assert_eq!(view.rejected[0].outcome.code, "illegal:no-such-unit");
    render(&view, &variant, Lang::Fr);
}

#[test]
fn autumn_results_show_centres_after_retreats() {
    let variant = westeros();
    let views = year_298(&variant);
    let autumn = &views[2];
    let table = autumn
        .centres
        .as_ref()
        .expect("autumn without retreats shows the centres");
    let baratheon = table
        .rows
        .iter()
        .find(|r| r.house.id == "baratheon")
        .expect("a row");
    assert_eq!(
        (
            baratheon.centres.len(),
            baratheon.units,
            baratheon.adjustment
        ),
        (2, 3, -1)
    );
}

#[test]
fn a_template_directory_overrides_the_embedded_one() {
    let variant = westeros();
    let spring = &year_298(&variant)[0];
    let dir = support::TempDir::new("results", "templates");
    fs::create_dir_all(dir.join("fr")).expect("temp dir");
    fs::write(
        dir.join("fr/results.txt"),
        "{{ variant.id }} {{ counts.lines }}\n",
    )
    .expect("write");
    let text =
        render_results(spring, &variant, Lang::Fr, Some(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text, "westeros 23\n");
    // English has no override there: the embedded template is used.
    let english =
        render_results(spring, &variant, Lang::En, Some(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(english.starts_with(":: corbeau: westeros / spring 298 / movement\n"));
    fs::write(dir.join("fr/results.txt"), "{% for x in %}\n").expect("write");
    let error = render_results(spring, &variant, Lang::Fr, Some(&dir)).expect_err("a syntax error");
    assert!(matches!(error, RenderError::Template { .. }));
    let message = error.to_string();
    assert!(
        message.contains("fr/results.txt") && message.contains("line 1"),
        "{message}"
    );
}

/// The seed's orders, normalized: a convoy to Goëville and a support for Balerion.
#[test]
fn seed_orders_are_normalized() {
    let variant = westeros();
    let mut position = Position::starting(&variant, None).expect("full setup");
    let region = |id: &str| {
        let province = variant.province_by_id(id).expect("a Westeros province");
        variant.province(province).region
    };
    let targaryen = variant.house_by_name("targaryen").expect("Targaryen");
    for unit in &mut position.units {
        if unit.name.as_deref() == Some("Balerion") {
            unit.region = region("gos");
        }
    }
    for (kind, at) in [(UnitKind::Fleet, "crb"), (UnitKind::Army, "ner")] {
        position.units.push(Unit {
            owner: Owner::House(targaryen),
            kind,
            region: region(at),
            name: None,
        });
    }
    let text = "\
Targaryen: A Cla -> Goe
Targaryen: F Crb A Cla->Goe
Targaryen: A1 Ner soutient Balerion Gos->Som
Targaryen: Balerion Gos -> Som
Targaryen: F Som -> Bne
";
    let (view, _) = play(&variant, &position, text);
    let orders: Vec<(&str, &str)> = view
        .houses
        .iter()
        .flat_map(|h| &h.orders)
        .filter(|o| o.written.is_some())
        .map(|o| (o.order.as_str(), o.outcome.code.as_str()))
        .collect();
    assert_eq!(
        orders,
        [
            ("D gos -> som", "succeeded"),
            ("F som -> bne", "succeeded"),
            ("A cla -> goe via convoy", "succeeded"),
            ("F crb C A cla -> goe", "succeeded"),
            ("A ner S D gos -> som", "succeeded"),
        ]
    );
}

#[test]
fn every_phase_of_298_renders_in_both_languages_within_78_columns() {
    let variant = westeros();
    for view in year_298(&variant) {
        for lang in [Lang::Fr, Lang::En] {
            let text = render(&view, &variant, lang);
            let long: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("::") && l.chars().count() > 78)
                .collect();
            assert!(
                long.is_empty(),
                "{} {lang}: lines over 78 columns: {long:#?}",
                view.phase
            );
        }
    }
}

/// Every failure and illegal code the judge can give has its wording in both languages.
#[test]
fn every_outcome_code_has_wording_in_both_templates() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let judge = fs::read_to_string(root.join("src/judge/outcome.rs")).expect("outcome.rs");
    let codes: Vec<&str> = judge
        .lines()
        .filter_map(|l| l.trim().split_once(" => \""))
        .filter(|(variant, _)| variant.starts_with("Failure::") || variant.starts_with("Illegal::"))
        .filter_map(|(_, rest)| rest.strip_suffix("\","))
        .collect();
    assert!(codes.len() > 30, "codes found in outcome.rs: {codes:?}");
    for lang in ["fr", "en"] {
        let macros = fs::read_to_string(root.join("templates").join(lang).join("macros.txt"))
            .expect("macros.txt");
        let missing: Vec<&&str> = codes
            .iter()
            .filter(|c| !macros.contains(&format!("\"{c}\"")))
            .collect();
        assert!(
            missing.is_empty(),
            "templates/{lang}/macros.txt has no wording for {missing:?}"
        );
    }
}

/// A unit with nowhere to retreat is disbanded at once; the results still say who
/// dislodged it. Balerion on Peyredragon has two neighbours: one the attack comes from,
/// the other held by the supporting fleet.
#[test]
fn trapped_unit_is_reported_dislodged_and_disbanded() {
    let variant = westeros();
    let mut position = Position::starting(&variant, None).expect("full setup");
    let baratheon = variant.house_by_name("baratheon").expect("Baratheon");
    for at in ["gos", "bna"] {
        let province = variant.province_by_id(at).expect("a sea");
        position.units.push(Unit {
            owner: Owner::House(baratheon),
            kind: UnitKind::Fleet,
            region: variant.province(province).region,
            name: None,
        });
    }
    let text = "Baratheon: F gos -> pey\nBaratheon: F bna S F gos -> pey\n";
    let (view, _) = play(&variant, &position, text);
    let trapped: Vec<(&str, Option<&str>, bool, usize)> = view
        .dislodged
        .iter()
        .map(|d| {
            (
                d.unit.at.id.as_str(),
                d.by.as_ref().map(|p| p.id.as_str()),
                d.disbanded,
                d.retreats.len(),
            )
        })
        .collect();
    assert_eq!(trapped, [("pey", Some("gos"), true, 0)]);
    let balerion = view
        .houses
        .iter()
        .flat_map(|h| &h.orders)
        .find(|o| o.unit.as_ref().is_some_and(|u| u.at.id == "pey"))
        .expect("a line for Balerion");
    assert!(balerion.dislodged);
    assert_eq!(balerion.outcome.code, "dislodged");
    let text = render(&view, &variant, Lang::Fr);
    let expected = "  Targaryen : D Peyredragon (pey, Balerion), délogée par Le Gosier (gos)\n      dissoute (aucune retraite possible)\n";
    assert!(text.contains(expected), "{text}");
}

/// A move that loses to a stronger, supported move into the same province was
/// beaten, not held in a standoff; the results say who beat it, in both languages, and a
/// true standoff keeps its words.
#[test]
fn a_move_beaten_by_a_stronger_one_is_not_called_a_standoff() {
    let variant = load_variant("classique").expect("the embedded classic map loads");
    let position = Position::starting(&variant, None).expect("the classic map has a setup");
    let (view, _) = play(
        &variant,
        &position,
        "\
Austria: A vie -> gal
Austria: A bud S A vie -> gal
Russia: A war -> gal
Germany: A mun -> bur
France: A par -> bur
",
    );
    let outcome = |unit: &str| {
        view.houses
            .iter()
            .flat_map(|h| &h.orders)
            .find(|o| o.unit.as_ref().is_some_and(|u| u.at.id == unit))
            .map(|o| o.outcome.clone())
            .unwrap_or_else(|| panic!("no line for {unit}"))
    };
    let war = outcome("war");
    // The judge's code is kept; only the reason the words read changes.
    assert_eq!(war.code, "standoff");
    assert_eq!(war.reason.as_deref(), Some("beaten"));
    let from: Vec<&str> = war.provinces.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(from, ["vie"]);
    assert_eq!(outcome("mun").reason.as_deref(), Some("standoff"));
    assert_eq!(outcome("par").reason.as_deref(), Some("standoff"));

    let en = render(&view, &variant, Lang::En);
    assert!(
        en.contains("beaten by the stronger move from Vienna (vie)"),
        "{en}"
    );
    assert!(!en.contains("standoff with Vienna"), "{en}");
    assert!(en.contains("standoff with Paris (par)"), "{en}");
    let fr = render(&view, &variant, Lang::Fr);
    assert!(
        fr.contains("battu par le mouvement plus fort venu de Vienne (vie)"),
        "{fr}"
    );
    assert!(!fr.contains("standoff avec Vienne"), "{fr}");
}

/// The centre table lists the houses in the game only (a three-player game
/// leaves four houses out, not at zero), and a winter table says it is the position before
/// that winter's builds and disbands.
#[test]
fn the_centre_table_lists_the_houses_in_play_and_a_winter_one_says_when() {
    let variant = westeros();
    let mut position = Position::starting(&variant, Some(3)).expect("Westeros plays with three");
    let mut autumn = None;
    for _ in 0..2 {
        let (view, adjudication) = play(&variant, &position, "");
        autumn = Some(view);
        position = adjudication.after;
    }
    let autumn = autumn.expect("two phases played");
    let table = autumn
        .centres
        .as_ref()
        .expect("autumn ends with the centre table");
    let playing: Vec<&str> = table
        .rows
        .iter()
        .filter(|r| !r.centres.is_empty())
        .map(|r| r.house.id.as_str())
        .collect();
    assert_eq!(playing.len(), 3, "{playing:?}");
    let en = render(&autumn, &variant, Lang::En);
    let table_text = en
        .split("Supply centres")
        .nth(1)
        .expect("the table is rendered");
    let listed = table
        .rows
        .iter()
        .filter(|r| table_text.contains(&format!("\n  {} ", r.house.name)))
        .count();
    assert_eq!(listed, 3, "{en}");
    assert!(!en.contains("before this winter"), "{en}");

    let winter = &year_298(&variant)[3];
    let en = render(winter, &variant, Lang::En);
    assert!(
        en.contains("Supply centres before this winter's builds and disbands\n"),
        "{en}"
    );
    let fr = render(winter, &variant, Lang::Fr);
    assert!(
        fr.contains(
            "Centres de ravitaillement avant les constructions et dissolutions de cet hiver\n"
        ),
        "{fr}"
    );
}
