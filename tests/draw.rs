//! Pictures of the board: the `[drawing]` data of the shipped variants (every province
//! placed, no two provinces touching that do not border, every border visible), the
//! loader's errors on bad drawing data, the SVG (structure, languages, determinism, a
//! golden file), the PNG (size bound, house colours where the units stand) and
//! `corbeau map draw` through the binary.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use support::cli::corbeau;

use corbeau::draw::{PNG_WIDTH, Picture, png, svg};
use corbeau::judge::{GivenOrder, Position, Report, adjudicate};
use corbeau::lang::Lang;
use corbeau::map::drawing::{Area, MIN_VISIBLE_EDGE};
use corbeau::map::{MapError, MapProblem, ProvinceId, Variant, load_variant, parse_variant};
use corbeau::order::parse_order;

const EXAMPLE: &str = include_str!("../games/examples/westeros-printemps-298.txt");

fn variant(name: &str) -> Variant {
    load_variant(name).unwrap_or_else(|e| panic!("{e}"))
}

/// The example turn's orders, by house.
fn example_orders(variant: &Variant) -> Vec<GivenOrder> {
    let source: Arc<str> = Arc::from("example");
    let mut house = None;
    let mut given = Vec::new();
    for (n, line) in EXAMPLE.lines().enumerate() {
        let trimmed = line.split('#').next().unwrap_or("").trim();
        if let Some(name) = trimmed.strip_suffix(':') {
            house = variant.house_by_name(name.trim());
            continue;
        }
        if let Some(order) =
            parse_order(variant, &source, n as u32 + 1, line).unwrap_or_else(|e| panic!("{e:?}"))
        {
            given.push(GivenOrder { house, order });
        }
    }
    given
}

/// The picture of a played turn, as the results mail draws it: the position after the
/// turn, with the turn's orders.
fn turn_picture<'a>(
    v: &'a Variant,
    after: &'a Position,
    reports: &'a [Report],
    before: &Position,
    lang: Lang,
) -> Picture<'a> {
    Picture {
        variant: v,
        position: after,
        orders: reports,
        played: Some(before.phase),
        title: "Westeros",
        lang,
    }
}

/// The picture of a position with no orders drawn.
fn still_picture<'a>(
    v: &'a Variant,
    position: &'a Position,
    title: &'a str,
    lang: Lang,
) -> Picture<'a> {
    Picture {
        variant: v,
        position,
        orders: &[],
        played: None,
        title,
        lang,
    }
}

/// The position after the example turn and the turn's reports.
fn example_turn(variant: &Variant) -> (Position, Vec<Report>, Position) {
    let before = Position::starting(variant, None).expect("a full setup");
    let adjudication = adjudicate(variant, &before, &example_orders(variant));
    let reports = adjudication.reports.into_iter().map(|(_, r)| r).collect();
    (adjudication.after, reports, before)
}

// ------------------------------------------------------------------ the shipped drawings

/// The length of shared edge between every two provinces, from the drawing's edges.
fn shared_edges(variant: &Variant) -> BTreeMap<(ProvinceId, ProvinceId), f64> {
    let drawing = variant.drawing.as_ref().expect("a drawing");
    let mut shared = BTreeMap::new();
    for edge in &drawing.edges {
        if let (Area::Province(a), Some(Area::Province(b))) = (edge.left, edge.right)
            && a != b
        {
            *shared.entry((a.min(b), a.max(b))).or_insert(0.0) += edge.from.distance(edge.to);
        }
    }
    shared
}

#[test]
fn no_two_provinces_touch_on_the_picture_unless_they_border() {
    for name in ["westeros", "classique"] {
        let v = variant(name);
        let mut wrong = Vec::new();
        for (&(a, b), &length) in &shared_edges(&v) {
            if !v.dragon_adjacency[usize::from(a.0)].contains(&b) {
                wrong.push(format!(
                    "{}–{} ({length:.1})",
                    v.province(a).id,
                    v.province(b).id
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "{name}: touching without a border: {wrong:?}"
        );
    }
}

#[test]
fn every_border_is_a_visible_edge_or_a_drawn_passage() {
    for name in ["westeros", "classique"] {
        let v = variant(name);
        let drawing = v.drawing.as_ref().expect("a drawing");
        let shared = shared_edges(&v);
        let mut borders = 0;
        for a in v.province_ids() {
            for &b in &v.dragon_adjacency[usize::from(a.0)] {
                if a >= b {
                    continue;
                }
                borders += 1;
                let visible = shared.get(&(a, b)).copied().unwrap_or(0.0) >= MIN_VISIBLE_EDGE;
                let passage = drawing.passages.contains(&(a, b));
                assert!(
                    visible != passage,
                    "{name}: {}–{}: visible edge {visible}, passage {passage}",
                    v.province(a).id,
                    v.province(b).id
                );
            }
        }
        // Passages are for islands and straits: a few, not a way around drawing the map.
        assert!(
            drawing.passages.len() * 10 <= borders,
            "{name}: {} passages for {borders} borders",
            drawing.passages.len()
        );
    }
}

#[test]
fn every_province_has_its_points_inside_its_shape() {
    for name in ["westeros", "classique"] {
        let v = variant(name);
        let drawing = v.drawing.as_ref().expect("a drawing");
        assert_eq!(drawing.places.len(), v.provinces.len());
        for p in v.province_ids() {
            let place = &drawing.places[usize::from(p.0)];
            assert!(
                drawing.contains(p, place.unit),
                "{name} {}",
                v.province(p).id
            );
            assert!(
                drawing.contains(p, place.label),
                "{name} {}",
                v.province(p).id
            );
            assert_eq!(
                place.coasts.len(),
                v.province(p).coasts.len(),
                "{name} {}: every coast placed",
                v.province(p).id
            );
            for (_, point) in &place.coasts {
                assert!(drawing.contains(p, *point), "{name} {}", v.province(p).id);
            }
        }
        for cell in &drawing.cells {
            for point in &cell.polygon {
                assert!(
                    (0.0..=drawing.width).contains(&point.x)
                        && (0.0..=drawing.height).contains(&point.y),
                    "{name}: a shape leaves the frame at {point:?}"
                );
            }
        }
    }
}

// ------------------------------------------------------------------ loader errors

fn mini() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/maps/mini.toml");
    std::fs::read_to_string(path).expect("mini.toml")
}

/// The mini variant (a, b, c land; s, t seas) drawn in a 100 × 100 frame: s at the top,
/// a left, c right (its north coast on s, its south coast on t), b below them, t in the
/// bottom right corner, blank land along the bottom.
const MINI_DRAWING: &str = r#"
[drawing]
width = 100
height = 100

[drawing.places]
s = { seeds = [[50, 2]] }
a = { seeds = [[20, 35]] }
b = { seeds = [[50, 65]] }
c = { seeds = [[80, 40]], coasts = { north = [82, 30], south = [85, 52] } }
t = { seeds = [[95, 97]] }

[[drawing.blank]]
kind = "land"
seeds = [[40, 95], [65, 97]]
"#;

#[track_caller]
fn drawing_problems(drawing: &str) -> Vec<MapProblem> {
    match parse_variant("mini.toml", &format!("{}{drawing}", mini())) {
        Ok(_) => panic!("the variant loaded, but its drawing has a mistake"),
        Err(MapError::Invalid { problems, .. }) => problems,
        Err(other) => panic!("expected problems with the facts, got: {other}"),
    }
}

#[track_caller]
fn assert_only_problem(drawing: &str, key: &str, message: &str) {
    assert_eq!(
        drawing_problems(drawing),
        vec![MapProblem {
            key: key.to_string(),
            message: message.to_string(),
        }]
    );
}

#[test]
fn the_mini_drawing_is_valid() {
    let v = parse_variant("mini.toml", &format!("{}{MINI_DRAWING}", mini()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(v.drawing.is_some());
}

#[test]
fn a_province_left_out_of_the_drawing_is_reported() {
    assert_only_problem(
        &MINI_DRAWING.replace("b = { seeds = [[50, 65]] }\n", ""),
        "[drawing.places]",
        "the province `b` is not placed",
    );
}

#[test]
fn a_seed_outside_the_frame_is_reported() {
    assert_only_problem(
        &MINI_DRAWING.replace("[[20, 35]]", "[[20, 35], [-3, 40]]"),
        "[drawing.places a] seeds",
        "[-3, 40] is outside the frame (100 × 100)",
    );
}

#[test]
fn a_coast_left_unplaced_is_reported() {
    assert_only_problem(
        &MINI_DRAWING.replace(", south = [85, 52]", ""),
        "[drawing.places c] coasts",
        "the coast `south` is not placed",
    );
}

#[test]
fn an_unknown_province_or_coast_is_reported() {
    assert_only_problem(
        &MINI_DRAWING.replace("t = {", "z = { seeds = [[5, 5]] }\nt = {"),
        "[drawing.places z]",
        "unknown province `z`",
    );
    assert_only_problem(
        &MINI_DRAWING.replace("south = [85, 52]", "south = [85, 52], east = [95, 50]"),
        "[drawing.places c] coasts",
        "`c` has no coast `east`",
    );
}

#[test]
fn a_point_outside_its_province_is_reported() {
    assert_only_problem(
        &MINI_DRAWING.replace(
            "a = { seeds = [[20, 35]] }",
            "a = { seeds = [[20, 35]], label = [85, 45] }",
        ),
        "[drawing.places a] label",
        "[85, 45] is outside the province's shape",
    );
}

#[test]
fn two_provinces_touching_without_a_border_are_reported() {
    // Moving t up between a and b makes it touch them: t borders only c.
    let problems = drawing_problems(&MINI_DRAWING.replace("[[95, 97]]", "[[40, 80]]"));
    assert!(
        problems.iter().any(|p| p.key == "[drawing.places a]"
            && p.message.starts_with("touches `t` on the picture")
            && p.message
                .ends_with("but they do not border: move or add seeds")),
        "{problems:?}"
    );
}

#[test]
fn a_variant_without_drawing_loads_but_has_no_map() {
    let v = parse_variant("mini.toml", &mini()).unwrap_or_else(|e| panic!("{e}"));
    assert!(v.drawing.is_none());
    let position = Position::starting(&v, None).expect("setup");
    let picture = still_picture(&v, &position, "Mini", Lang::En);
    let error = svg(&picture).expect_err("no drawing, no map");
    assert!(
        error.to_string().contains("has no [drawing] section"),
        "{error}"
    );
}

// ------------------------------------------------------------------ SVG

#[test]
fn the_svg_has_a_title_a_legend_and_every_unit_in_the_readers_language() {
    let v = variant("westeros");
    let (after, reports, before) = example_turn(&v);
    for (lang, words) in [
        (
            Lang::Fr,
            [
                "Printemps 298, mouvements : résultats",
                "armée (A)",
                "ordre échoué",
            ],
        ),
        (
            Lang::En,
            ["Spring 298, movement: results", "army (A)", "failed order"],
        ),
    ] {
        let picture = turn_picture(&v, &after, &reports, &before, lang);
        let text = svg(&picture).expect("svg");
        for w in words {
            assert!(text.contains(w), "{lang}: `{w}` missing");
        }
        // One symbol per unit and per legend sample (army, fleet, dragon, neutral, dislodged).
        let symbols = text.matches(r#"<path class="u""#).count();
        assert_eq!(symbols, after.units.len() + after.dislodged.len() + 5);
        // Every province's abbreviation is written.
        for p in &v.provinces {
            assert!(text.contains(&format!(">{}</text>", p.id.to_uppercase())));
        }
        assert_eq!(
            text,
            svg(&picture).expect("svg"),
            "the same input, the same bytes"
        );
    }
}

#[test]
fn failed_orders_are_red_and_crossed() {
    let v = variant("westeros");
    let (after, reports, before) = example_turn(&v);
    let failed = reports.iter().filter(|r| !r.outcome.succeeded()).count();
    assert!(failed > 0, "the example turn has failed orders");
    let picture = turn_picture(&v, &after, &reports, &before, Lang::Fr);
    let text = svg(&picture).expect("svg");
    // One cross per failed order (holds draw nothing), two more in the legend (a failed
    // order, a disband).
    // An illegal order is drawn as written (the judge made it a hold): crossed too.
    let holds_failed = reports
        .iter()
        .filter(|r| {
            !r.outcome.succeeded()
                && !matches!(r.outcome, corbeau::judge::Outcome::Illegal(_))
                && matches!(r.command, corbeau::judge::CheckedOrder::Hold)
        })
        .count();
    let crosses = text
        .matches(r##"stroke="#d0021b" stroke-width="3.0" stroke-linecap="round""##)
        .count();
    assert_eq!(crosses, failed - holds_failed + 2);
}

/// The golden SVG of the example turn: reviewable text; `CORBEAU_BLESS=1` rewrites it.
#[test]
fn the_example_turn_matches_its_golden_svg() {
    let v = variant("westeros");
    let (after, reports, before) = example_turn(&v);
    let picture = turn_picture(&v, &after, &reports, &before, Lang::En);
    let text = svg(&picture).expect("svg");
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/draw/westeros-spring-298.svg");
    if std::env::var_os("CORBEAU_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&path, &text).expect("bless");
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (CORBEAU_BLESS=1 writes it)", path.display()));
    assert!(
        golden == text,
        "{} differs (CORBEAU_BLESS=1 rewrites it; read the diff)",
        path.display()
    );
}

// ------------------------------------------------------------------ PNG

/// Decodes a PNG into (width, height, RGB bytes).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, ::png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn hex(colour: &str) -> [u8; 3] {
    let c = colour.trim_start_matches('#');
    let channel = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).expect("hex");
    [channel(0), channel(2), channel(4)]
}

#[test]
fn the_westeros_png_is_small_and_shows_each_house_colour_where_its_units_stand() {
    let v = variant("westeros");
    let (after, reports, before) = example_turn(&v);
    let picture = turn_picture(&v, &after, &reports, &before, Lang::Fr);
    let bytes = png(&picture, PNG_WIDTH).expect("png");
    assert!(bytes.len() < 250_000, "{} bytes", bytes.len());
    // The starting position: every house's armies, in their colour at the unit's point.
    let start = Position::starting(&v, None).expect("setup");
    let picture = still_picture(&v, &start, "Westeros", Lang::Fr);
    let bytes = png(&picture, PNG_WIDTH).expect("png");
    let (width, _, rgb) = decode(&bytes);
    assert_eq!(width, PNG_WIDTH);
    let drawing = v.drawing.as_ref().expect("a drawing");
    let scale = f64::from(PNG_WIDTH) / drawing.width;
    let mut checked = 0;
    for unit in &start.units {
        let corbeau::map::Owner::House(h) = unit.owner else {
            continue;
        };
        if unit.kind != corbeau::map::UnitKind::Army {
            continue;
        }
        let at = drawing.unit_point(&v, unit.region);
        // The shield's middle; the map is drawn under a 48-unit title band.
        let (x, y) = ((at.x * scale) as usize, ((at.y + 48.0) * scale) as usize);
        let i = (y * width as usize + x) * 3;
        let found = [rgb[i], rgb[i + 1], rgb[i + 2]];
        let wanted = hex(&v.house(h).colour);
        let close = found
            .iter()
            .zip(wanted)
            .all(|(&f, w)| (i32::from(f) - i32::from(w)).abs() <= 12);
        assert!(
            close,
            "{} army at {}: found {found:?}, wanted {wanted:?}",
            v.house(h).name,
            v.region_label(unit.region)
        );
        checked += 1;
    }
    assert!(checked >= 7, "{checked} armies checked");
}

#[test]
fn the_classique_png_is_small() {
    let v = variant("classique");
    let start = Position::starting(&v, None).expect("setup");
    let picture = still_picture(&v, &start, "Diplomatie", Lang::En);
    let bytes = png(&picture, PNG_WIDTH).expect("png");
    assert!(bytes.len() < 250_000, "{} bytes", bytes.len());
    assert!(bytes.starts_with(b"\x89PNG"));
}

// ------------------------------------------------------------------ the binary

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("draw");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn map_draw_writes_a_png_or_an_svg_by_the_file_name() {
    let png_path = scratch("w.png");
    let (code, _, err) = corbeau(&["map", "draw", "--out", png_path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png_path).expect("the PNG");
    assert!(bytes.starts_with(b"\x89PNG"));
    assert_eq!(decode(&bytes).0, PNG_WIDTH);

    let svg_path = scratch("c.svg");
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/examples/westeros-printemps-298.txt");
    let (code, _, err) = corbeau(&[
        "map",
        "draw",
        "--lang",
        "en",
        example.to_str().expect("utf-8"),
        "--out",
        svg_path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg_path).expect("the SVG");
    assert!(text.starts_with("<svg"));
    assert!(text.contains("Westeros — Spring 298, movement: results"));

    let classique = scratch("classique.png");
    let (code, _, err) = corbeau(&[
        "map",
        "draw",
        "--variant",
        "classique",
        "--out",
        classique.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&classique).expect("the PNG").len() < 250_000);
}

#[test]
fn map_draw_refuses_an_unknown_picture_format_and_bad_orders_writing_nothing() {
    let path = scratch("w.gif");
    let (code, _, err) = corbeau(&["map", "draw", "--out", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(err.contains("doit finir par .svg ou .png"), "{err}");
    assert!(!path.exists());

    let orders = scratch("bad-orders.txt");
    std::fs::write(&orders, "Stark:\nA win -> nowhere\n").expect("write");
    let out = scratch("never.png");
    let (code, _, err) = corbeau(&[
        "map",
        "draw",
        orders.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad-orders.txt"), "{err}");
    assert!(!out.exists());
}

#[test]
fn map_check_says_the_drawing_was_checked() {
    let (code, out, err) = corbeau(&["map", "check", "westeros", "classique"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.matches("no two provinces touching without a border")
            .count(),
        2,
        "{out}"
    );
}

// ------------------------------------------------------------------ the map says more

/// A turn with an illegal support (Pie cannot reach Winterfell) beside legal moves: the
/// judge makes it a hold, the picture draws it as written, red and crossed.
fn illegal_support_turn(v: &Variant) -> (Position, Vec<Report>, Position) {
    let before = Position::starting(v, None).expect("a full setup");
    let source: Arc<str> = Arc::from("test");
    let order = |house: &str, line: &str| GivenOrder {
        house: v.house_by_name(house),
        order: parse_order(v, &source, 1, line)
            .expect("reads")
            .expect("an order"),
    };
    let given = vec![
        order("Stark", "A Win -> Roc"),
        order("Greyjoy", "A Gri -> Sal"),
        order("Lannister", "A Pie soutient A Mfm -> Win"),
        order("Lannister", "A Mfm -> Ner"),
    ];
    let adjudication = adjudicate(v, &before, &given);
    let reports: Vec<Report> = adjudication.reports.into_iter().map(|(_, r)| r).collect();
    (adjudication.after, reports, before)
}

#[test]
fn an_illegal_support_is_drawn_red_and_crossed_and_labels_lie_above_everything() {
    let v = variant("westeros");
    let (after, reports, before) = illegal_support_turn(&v);
    assert!(
        reports
            .iter()
            .any(|r| matches!(r.outcome, corbeau::judge::Outcome::Illegal(_))),
        "the support is illegal"
    );
    let picture = turn_picture(&v, &after, &reports, &before, Lang::Fr);
    let text = svg(&picture).expect("svg");
    // The support, bent through the supported unit, in red and dashed.
    assert!(
        text.lines().any(|l| l.contains('Q')
            && l.contains(r##"stroke="#d0021b" stroke-width="2.0" stroke-dasharray"##)),
        "no red support curve"
    );
    // Labels after every order and unit of the map, so nothing covers them.
    let map = &text[..text.find(r#"<text class="t""#).expect("a title")];
    let first_label = map.find(r#"class="l""#).expect("labels");
    for mark in [
        r#"class="u""#,
        r##"fill="none" stroke="#d0021b""##,
        r#"stroke-linecap="round"/>"#,
    ] {
        let last = map.rfind(mark).expect(mark);
        assert!(last < first_label, "{mark} drawn over a label");
    }
    // Each province's full name in the reader's language, as its title.
    assert!(text.contains("<title>Winterfell</title>"));
    let titles = text.matches("</title></path>").count();
    assert!(titles >= v.province_ids().count(), "{titles} titles");
    assert_golden_svg("westeros-illegal-support.svg", &text);
}

/// Compares with `tests/golden/draw/NAME`; `CORBEAU_BLESS=1` rewrites it.
fn assert_golden_svg(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/draw")
        .join(name);
    if std::env::var_os("CORBEAU_BLESS").is_some() {
        std::fs::write(&path, text).expect("bless");
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (CORBEAU_BLESS=1 writes it)", path.display()));
    assert!(
        golden == text,
        "{} differs (CORBEAU_BLESS=1 rewrites it; read the diff)",
        path.display()
    );
}

/// Land a house owns is tinted with its colour; the straits are drawn unlike supports.
#[test]
fn owned_land_is_tinted_and_straits_are_not_supports() {
    let v = variant("westeros");
    let start = Position::starting(&v, None).expect("a full setup");
    let picture = still_picture(&v, &start, "Westeros", Lang::En);
    let text = svg(&picture).expect("svg");
    let win = v.province_by_id("win").expect("win");
    let stark = start.owners[usize::from(win.0)].expect("Stark owns Winterfell");
    let colour = hex(&v.house(stark).colour);
    let fill_of = |line: &str| {
        line.split("fill=\"#")
            .nth(1)
            .map(|f| hex(&format!("#{}", &f[..6])))
            .expect("a fill")
    };
    let mut lines = text
        .lines()
        .filter(|l| l.contains("<title>Winterfell</title>"));
    // The plain ground on the board, then the house's colour laid see-through over it:
    // nearer the ground than the house.
    let ground = lines.next().expect("Winterfell's ground");
    assert_eq!(fill_of(ground), hex("#efe4c4"));
    let tint = lines.next().expect("Winterfell's tint");
    assert_eq!(fill_of(tint), colour, "{tint}");
    assert!(tint.contains(r#"fill-opacity="0.3""#), "{tint}");
    let board_end = text.find("<!--/board-->").expect("the board's end");
    assert!(text.find(tint).expect("the tint") > board_end);
    // A passage is a round-ended blue band; a support is dark and dashed with a head.
    let passages: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("</title></path>") && l.contains('–'))
        .collect();
    assert!(!passages.is_empty());
    for l in passages {
        assert!(l.contains(r##"stroke="#3f7fb8""##), "{l}");
        assert!(!l.contains("#5a4a2a"), "{l}");
    }
}

/// The replay: an animated PNG, one frame per played phase, each with its
/// orders drawn; within the bound docs/drawing.md states.
#[test]
fn a_replay_is_an_animated_png_of_one_frame_per_phase_within_its_bound() {
    let v = variant("westeros");
    let (after, reports, before) = example_turn(&v);
    let (after2, reports2, before2) = illegal_support_turn(&v);
    let frame = |after, reports, before| turn_picture(&v, after, reports, before, Lang::Fr);
    let frames = [
        frame(&after, &reports, &before),
        frame(&after2, &reports2, &before2),
        frame(&after, &reports, &before),
    ];
    let bytes = corbeau::draw::replay(&frames, corbeau::draw::REPLAY_WIDTH).expect("a replay");
    println!("replay of {} frames: {} bytes", frames.len(), bytes.len());
    let decoder = ::png::Decoder::new(std::io::Cursor::new(&bytes[..]));
    let mut reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    assert_eq!(info.width, corbeau::draw::REPLAY_WIDTH);
    let control = info.animation_control().expect("animated");
    assert_eq!(control.num_frames, 3);
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    for _ in 0..3 {
        reader.next_frame(&mut buf).expect("a frame");
    }
    // docs/drawing.md: at most 40 KB for the first frame and 15 KB for each next one.
    assert!(
        bytes.len() <= 40_000 + 15_000 * (frames.len() - 1),
        "{} bytes",
        bytes.len()
    );
}
