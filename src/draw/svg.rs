//! The SVG document: sea, land and blank areas from the variant's cells, borders (coastlines
//! heavier), passages, supply centres by owner, orders (moves, supports, convoys, retreats,
//! builds and disbands; failed ones dashed in red and crossed), units by house colour and
//! kind, dislodged units with their retreat options, a title and a legend.
//!
//! The text is deterministic (same input, same bytes) so that golden files can be reviewed.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::judge::{CheckedOrder, Outcome, PhaseKind, Report, Season, retreat_options};
use crate::lang::Lang;
use crate::map::drawing::{Area, BlankKind, Drawing, Point};
use crate::map::{HouseId, Owner, ProvinceKind, RegionId, UnitKind, Variant};
use crate::order::Instruction;
use crate::say;

use super::{DrawError, FONT_FAMILY, Picture};

const SEA: &str = "#a9cbe8";
const COAST: &str = "#efe4c4";
const LAND: &str = "#ddcc9c";
const BLANK_LAND: &str = "#b9b4a8";
/// Land no unit enters is hatched: a plain grey was too close to the 30 % tints of
/// the grey and black houses (Stark, Greyjoy) to tell apart.
const HATCH: &str = "#8c877b";
const IMPASSABLE: &str = "url(#impassable)";
const BLANK_SEA: &str = "#c9dced";
const INK: &str = "#2a2a2a";
const FAILED: &str = "#d0021b";
const NEUTRAL: &str = "#d9d9d9";
const UNOWNED: &str = "#ffffff";
/// A retreat's arrow and a build's ring.
const RETREAT: &str = "#b25d00";
const BUILT: &str = "#1e8a2e";
/// A strait: water-blue, darker than the sea so that it shows on it.
const STRAIT: &str = "#3f7fb8";

/// Height of the title band, and of one legend row, in frame units at a 1 000-unit width.
const TITLE: f64 = 48.0;
const LEGEND_ROW: f64 = 30.0;

/// Writes the picture as an SVG document.
pub fn svg(picture: &Picture<'_>) -> Result<String, DrawError> {
    let variant = picture.variant;
    let drawing = variant
        .drawing
        .as_ref()
        .ok_or_else(|| DrawError::no_drawing(variant, picture.lang))?;
    let k = drawing.width / 1000.0;
    let title_h = TITLE * k;
    let houses_rows = legend_houses(picture).len().div_ceil(4) as f64;
    let legend_h = (4.0 + houses_rows) * LEGEND_ROW * k + 12.0 * k;
    let total_h = title_h + drawing.height + legend_h;
    let mut out = String::with_capacity(64 * 1024);
    let w = drawing.width;
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{total_h:.0}" viewBox="0 0 {w} {total_h:.0}" font-family="{FONT_FAMILY}">
<style>
.b{{fill:none;stroke:{INK};stroke-width:{b:.2}}}
.c{{fill:none;stroke:#3b3b3b;stroke-width:{c:.2};stroke-linejoin:round}}
.s{{fill:none;stroke:#6f9cc4;stroke-width:{s:.2}}}
.l{{font-size:{fl:.1}px;text-anchor:middle;fill:#1d1d1d;stroke:#ffffff;stroke-width:{halo:.1};stroke-linejoin:round;paint-order:stroke}}
.u{{stroke-width:{us:.2};stroke-linejoin:round}}
.t{{font-size:{ft:.1}px;fill:#1d1d1d}}
.g{{font-size:{fg:.1}px;fill:#1d1d1d}}
</style>
<defs><pattern id="impassable" width="{hw:.2}" height="{hw:.2}" patternUnits="userSpaceOnUse"><rect width="{hw:.2}" height="{hw:.2}" fill="{BLANK_LAND}"/><path d="M-{hs:.2} {hs:.2}L{hs:.2} -{hs:.2}M0 {hw:.2}L{hw:.2} 0M{hl:.2} {hh:.2}L{hh:.2} {hl:.2}" stroke="{HATCH}" stroke-width="{hs:.2}"/></pattern></defs>
{BOARD}<rect width="{w}" height="{total_h:.0}" fill="#f7f3ea"/>
<g transform="translate(0 {title_h:.1})">
"##,
        b = 1.0 * k,
        c = 2.2 * k,
        s = 0.9 * k,
        fl = 13.0 * k,
        halo = 3.0 * k,
        us = 1.6 * k,
        ft = 24.0 * k,
        fg = 14.0 * k,
        // An upright tile with its diagonal (and the corners of its neighbours'), 9 px
        // at the mail's 1 000 px: each row of pixels repeats exactly, which suits deflate.
        hw = 9.0 * k,
        hs = 2.2 * k,
        hl = 9.0 * k - 2.2 * k,
        hh = 9.0 * k + 2.2 * k,
    );
    areas(&mut out, picture, drawing);
    borders(&mut out, variant, drawing, k);
    passages(&mut out, variant, drawing, k);
    blank_names(&mut out, drawing, picture.lang, k);
    out.push_str("</g>\n");
    // The legend's marks are the same for every position: on the board, under the map
    // (nothing of a position is drawn there).
    let legend_top = title_h + drawing.height;
    legend_marks(&mut out, picture, drawing, legend_top, k);
    let _ = writeln!(
        out,
        "{BOARD_END}<g transform=\"translate(0 {title_h:.1})\">"
    );
    tints(&mut out, picture, drawing);
    centres(&mut out, picture, drawing, k);
    fords(&mut out, picture, drawing, k);
    garrisons(&mut out, picture, drawing, k);
    orders(&mut out, picture, drawing, k);
    units(&mut out, picture, drawing, k);
    dislodged(&mut out, picture, drawing, k);
    // Last on the map, over the arrows and the units: no order or unit ever hides a
    // province's name; the opaque halo keeps it readable where a line runs under it.
    let _ = write!(
        out,
        "</g>\n{LABELS}<g transform=\"translate(0 {title_h:.1})\">\n"
    );
    labels(&mut out, variant, drawing);
    let _ = write!(out, "</g>\n{LABELS_END}");
    title(&mut out, picture, k);
    legend_dragon(&mut out, picture, drawing, legend_top, k);
    legend_houses_rows(&mut out, picture, drawing, legend_top, k);
    out.push_str("</svg>\n");
    Ok(out)
}

fn area_colour(variant: &Variant, drawing: &Drawing, area: Area) -> &'static str {
    match area {
        Area::Province(p) => match variant.province(p).kind {
            ProvinceKind::Sea => SEA,
            ProvinceKind::Coast => COAST,
            ProvinceKind::Land => LAND,
        },
        Area::Blank(i) => match drawing.blanks[i].kind {
            BlankKind::Land => BLANK_LAND,
            BlankKind::Sea => BLANK_SEA,
        },
    }
}

fn is_sea(variant: &Variant, drawing: &Drawing, area: Area) -> bool {
    match area {
        Area::Province(p) => variant.province(p).kind == ProvinceKind::Sea,
        Area::Blank(i) => drawing.blanks[i].kind == BlankKind::Sea,
    }
}

/// How much of the house's colour tints the land it owns: enough to tell the houses
/// apart at a glance, little enough that the units in the full colour stand out.
const TINT: f64 = 0.3;

/// Where the board begins and ends in the document: the ground, the borders, the passages
/// and the blank areas' names, the same for every position of a variant in one language.
/// A picture rasterises them once and draws each position over a copy (`png.rs`); what
/// lies between the two marks must not depend on the position.
pub(super) const BOARD: &str = "<!--board-->\n";
pub(super) const BOARD_END: &str = "<!--/board-->\n";

/// Where the provinces' names begin and end: the same for every position of a variant,
/// drawn over the map after everything of the position. A picture draws them once into
/// a see-through layer and lays it over each position (`png.rs`); what lies between the
/// two marks must not depend on the position either.
pub(super) const LABELS: &str = "<!--labels-->\n";
pub(super) const LABELS_END: &str = "<!--/labels-->\n";

/// Each area's cells as the subpaths of one path: one shape, so that no seam shows
/// between two cells of one province, whether filled opaque or see-through.
fn area_paths(drawing: &Drawing) -> BTreeMap<Area, String> {
    let mut paths: BTreeMap<Area, String> = BTreeMap::new();
    for cell in &drawing.cells {
        let path = paths.entry(cell.area).or_default();
        for (i, p) in cell.polygon.iter().enumerate() {
            let _ = write!(
                path,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { "L" },
                p.x,
                p.y
            );
        }
        path.push('Z');
    }
    paths
}

/// Land a house owns (the owner of its supply centre) takes a light tint of the house's
/// colour: the house's colour laid see-through over the plain ground, above the borders
/// (which the tint darkens a little), so that the board under it never changes. A land
/// province without a centre has no owner in the position, so it stays plain. The tint
/// carries the province's name too: it is what a pointer finds there.
fn tints(out: &mut String, picture: &Picture<'_>, drawing: &Drawing) {
    let variant = picture.variant;
    for (area, path) in area_paths(drawing) {
        let Area::Province(p) = area else { continue };
        if variant.province(p).kind == ProvinceKind::Sea {
            continue;
        }
        let owner = picture
            .position
            .owners
            .get(usize::from(p.0))
            .copied()
            .flatten();
        if let Some(h) = owner {
            let _ = writeln!(
                out,
                r#"<path d="{path}" fill="{}" fill-opacity="{TINT}"><title>{}</title></path>"#,
                variant.house(h).colour,
                xml_text(variant.province(p).name_in(picture.lang))
            );
        }
    }
}

/// One path per area in its plain colour, whoever owns it (the owners' tints come later,
/// over the board: [`tints`]): its cells as subpaths, stroked in their own colour so that
/// no seam shows between two cells of one province. A province's path carries its full name in
/// the reader's language as its `<title>` (a browser shows it on hover).
fn areas(out: &mut String, picture: &Picture<'_>, drawing: &Drawing) {
    let variant = picture.variant;
    let paths = area_paths(drawing);
    // The sea is the map's background: painting its areas again would double the work
    // of the rasteriser for nothing.
    let _ = writeln!(
        out,
        r#"<rect width="{:.1}" height="{:.1}" fill="{SEA}"/>"#,
        drawing.width, drawing.height
    );
    for (area, path) in &paths {
        let colour = area_colour(variant, drawing, *area);
        let title = match area {
            Area::Province(p) => format!(
                "<title>{}</title>",
                xml_text(variant.province(*p).name_in(picture.lang))
            ),
            Area::Blank(_) => String::new(),
        };
        // A sea with no name to carry is the background already.
        if colour == SEA && title.is_empty() {
            continue;
        }
        if colour == SEA {
            // There for its name only: see-through (the background is the sea), yet
            // filled, so that a pointer over it finds the title.
            let _ = writeln!(
                out,
                r#"<path d="{path}" fill="{SEA}" fill-opacity="0">{title}</path>"#
            );
            continue;
        }
        // The seams are stroked in the plain grey: a hatch along every cell's edge
        // would draw the cells' outlines.
        let (fill, stroke) = if colour == BLANK_LAND {
            (IMPASSABLE, BLANK_LAND)
        } else {
            (colour, colour)
        };
        let _ = writeln!(
            out,
            r#"<path d="{path}" fill="{fill}" stroke="{stroke}" stroke-width="1.2">{title}</path>"#
        );
    }
}

/// Borders between areas: coastlines heavy, land borders thin, sea borders light.
fn borders(out: &mut String, variant: &Variant, drawing: &Drawing, _k: f64) {
    let mut coast = String::new();
    let mut land = String::new();
    let mut sea = String::new();
    for edge in &drawing.edges {
        let Some(right) = edge.right else { continue };
        let (a, b) = (
            is_sea(variant, drawing, edge.left),
            is_sea(variant, drawing, right),
        );
        let path = match (a, b) {
            (true, true) => &mut sea,
            (false, false) => &mut land,
            _ => &mut coast,
        };
        let _ = write!(
            path,
            "M{:.1} {:.1}L{:.1} {:.1}",
            edge.from.x, edge.from.y, edge.to.x, edge.to.y
        );
    }
    let _ = writeln!(out, r#"<path class="s" d="{sea}"/>"#);
    let _ = writeln!(out, r#"<path class="b" d="{land}"/>"#);
    let _ = writeln!(out, r#"<path class="c" d="{coast}"/>"#);
}

/// A border with no visible shared edge (a strait, an island's crossing): a band of water
/// between the two provinces' unit points, light blue and round-ended, with no
/// arrowhead, unlike a support (dark, dashed, with a head).
fn passages(out: &mut String, variant: &Variant, drawing: &Drawing, k: f64) {
    for &(a, b) in &drawing.passages {
        let pa = drawing.places[usize::from(a.0)].unit;
        let pb = drawing.places[usize::from(b.0)].unit;
        let (from, to) = (towards(pa, pb, 14.0 * k), towards(pb, pa, 14.0 * k));
        let _ = writeln!(
            out,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}" {}><title>{}–{}</title></path>"##,
            from.x,
            from.y,
            to.x,
            to.y,
            strait_style(k),
            variant.province(a).id,
            variant.province(b).id,
        );
    }
}

/// Each ford as a mark across the middle of the border it crosses (where the two
/// provinces share no edge, half-way between them): open, a pale ring of stepping stones
/// on the river's blue; closed by the weather, struck through in red.
fn fords(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    let variant = picture.variant;
    let open = picture.position.fords_open(variant);
    for border in variant
        .borders
        .iter()
        .filter(|b| b.kind == crate::map::BorderKind::Ford)
    {
        let (a, b) = border.between;
        let shared: Vec<&crate::map::drawing::Edge> = drawing
            .edges
            .iter()
            .filter(|e| {
                let ends = (e.left, e.right);
                ends == (Area::Province(a), Some(Area::Province(b)))
                    || ends == (Area::Province(b), Some(Area::Province(a)))
            })
            .collect();
        let at = match shared.get(shared.len() / 2) {
            Some(e) => Point {
                x: f64::midpoint(e.from.x, e.to.x),
                y: f64::midpoint(e.from.y, e.to.y),
            },
            None => {
                let (pa, pb) = (
                    drawing.places[usize::from(a.0)].unit,
                    drawing.places[usize::from(b.0)].unit,
                );
                Point {
                    x: f64::midpoint(pa.x, pb.x),
                    y: f64::midpoint(pa.y, pb.y),
                }
            }
        };
        let _ = write!(
            out,
            r##"<g><title>{}–{}</title><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{STRAIT}" stroke="#ffffff" stroke-width="{:.1}" stroke-dasharray="{:.1} {:.1}"/>"##,
            variant.province(a).id,
            variant.province(b).id,
            at.x,
            at.y,
            6.0 * k,
            2.4 * k,
            3.0 * k,
            2.0 * k,
        );
        if !open {
            let d = 7.0 * k;
            let _ = write!(
                out,
                r##"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{FAILED}" stroke-width="{:.1}" stroke-linecap="round"/>"##,
                at.x - d,
                at.y - d,
                at.x + d,
                at.y + d,
                at.x - d,
                at.y + d,
                at.x + d,
                at.y - d,
                2.4 * k,
            );
        }
        out.push_str("</g>\n");
    }
}

/// Each garrison as a small square in its house's colour (grey when neutral) beside the
/// province's supply centre, with its strength written in it.
fn garrisons(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    let variant = picture.variant;
    for g in &picture.position.garrisons {
        let place = &drawing.places[usize::from(g.province.0)];
        let fill = match g.owner {
            Owner::House(h) => variant.house(h).colour.as_str(),
            Owner::Neutral => NEUTRAL,
        };
        let side = 14.0 * k;
        let (x, y) = (place.centre.x + 10.0 * k, place.centre.y - 7.0 * k);
        let _ = writeln!(
            out,
            r##"<g><title>{} {}</title><rect x="{x:.1}" y="{y:.1}" width="{side:.1}" height="{side:.1}" fill="{fill}" stroke="{INK}" stroke-width="{:.1}"/><text x="{:.1}" y="{:.1}" font-size="{:.1}px" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="{INK}" stroke-width="{:.1}" paint-order="stroke">{}</text></g>"##,
            variant.province(g.province).id,
            g.strength,
            1.0 * k,
            x + side / 2.0,
            y + side - 3.0 * k,
            11.0 * k,
            2.0 * k,
            g.strength,
        );
    }
}

/// How a passage is drawn, on the map and in the legend.
fn strait_style(k: f64) -> String {
    format!(
        r##"stroke="{STRAIT}" stroke-width="{:.1}" stroke-linecap="round" stroke-dasharray="{:.1} {:.1}" fill="none""##,
        5.0 * k,
        10.0 * k,
        6.0 * k
    )
}

/// The names of blank areas, with a halo: on hatched land the stripes would cut the
/// letters.
fn blank_names(out: &mut String, drawing: &Drawing, lang: Lang, k: f64) {
    for blank in &drawing.blanks {
        if let (Some(name), Some(at)) = (blank.name_in(lang), blank.label) {
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="{:.1}" font-style="italic" text-anchor="middle" fill="#5d5a52" stroke="#f7f3ea" stroke-width="{:.1}" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
                at.x,
                at.y,
                14.0 * k,
                3.0 * k,
                xml_text(name)
            );
        }
    }
}

/// Supply centres: a ringed dot in the owner's colour, white when nobody owns it.
fn centres(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    let variant = picture.variant;
    for p in variant.province_ids() {
        if !variant.province(p).supply {
            continue;
        }
        let at = drawing.places[usize::from(p.0)].centre;
        let fill = match picture
            .position
            .owners
            .get(usize::from(p.0))
            .copied()
            .flatten()
        {
            Some(h) => variant.house(h).colour.as_str(),
            None => UNOWNED,
        };
        let _ = writeln!(
            out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="{INK}" stroke-width="{:.1}"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{INK}" stroke-width="{:.1}"/>"#,
            at.x,
            at.y,
            5.5 * k,
            1.2 * k,
            at.x,
            at.y,
            8.5 * k,
            0.9 * k,
        );
    }
}

fn labels(out: &mut String, variant: &Variant, drawing: &Drawing) {
    for p in variant.province_ids() {
        let at = drawing.places[usize::from(p.0)].label;
        let id = variant.province(p).id.to_uppercase();
        let _ = writeln!(
            out,
            r#"<text class="l" x="{:.1}" y="{:.1}">{}</text>"#,
            at.x,
            at.y,
            xml_text(&id)
        );
    }
}

/// Where a region's unit stands.
fn point(picture: &Picture<'_>, drawing: &Drawing, region: RegionId) -> Point {
    drawing.unit_point(picture.variant, region)
}

/// The point of a province (its unit point) for supports and convoys, which name provinces.
fn province_point(drawing: &Drawing, province: crate::map::ProvinceId) -> Point {
    drawing.places[usize::from(province.0)].unit
}

/// `from` moved `by` units towards `to`.
fn towards(from: Point, to: Point, by: f64) -> Point {
    let d = from.distance(to);
    if d < 1e-6 {
        return from;
    }
    let t = (by / d).min(0.5);
    Point::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)
}

/// An arrowhead at `tip`, pointing away from `back`.
fn arrowhead(out: &mut String, back: Point, tip: Point, size: f64, fill: &str) {
    let d = back.distance(tip).max(1e-6);
    let (ux, uy) = ((tip.x - back.x) / d, (tip.y - back.y) / d);
    let base = Point::new(tip.x - ux * size, tip.y - uy * size);
    let (nx, ny) = (-uy * size * 0.5, ux * size * 0.5);
    let _ = writeln!(
        out,
        r#"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{fill}"/>"#,
        tip.x,
        tip.y,
        base.x + nx,
        base.y + ny,
        base.x - nx,
        base.y - ny
    );
}

/// A red cross: the mark of an order that failed.
fn cross(out: &mut String, at: Point, size: f64, k: f64) {
    let _ = writeln!(
        out,
        r#"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{FAILED}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
        at.x - size,
        at.y - size,
        at.x + size,
        at.y + size,
        at.x - size,
        at.y + size,
        at.x + size,
        at.y - size,
        3.0 * k
    );
}

struct Stroke<'a> {
    colour: &'a str,
    width: f64,
    dash: Option<(f64, f64)>,
}

/// A line from `from` to `to`, bent through `via` when given; an arrowhead at the end.
fn arrow(
    out: &mut String,
    from: Point,
    via: Option<Point>,
    to: Point,
    stroke: &Stroke<'_>,
    k: f64,
) {
    let dash = stroke
        .dash
        .map(|(a, b)| format!(r#" stroke-dasharray="{a:.1} {b:.1}""#))
        .unwrap_or_default();
    let head = 11.0 * k;
    let back = via.unwrap_or(from);
    let end = towards(to, back, head * 0.6);
    match via {
        Some(v) => {
            let _ = writeln!(
                out,
                r#"<path d="M{:.1} {:.1}Q{:.1} {:.1} {:.1} {:.1}" fill="none" stroke="{}" stroke-width="{:.1}"{dash}/>"#,
                from.x, from.y, v.x, v.y, end.x, end.y, stroke.colour, stroke.width
            );
        }
        None => {
            let _ = writeln!(
                out,
                r#"<path d="M{:.1} {:.1}L{:.1} {:.1}" fill="none" stroke="{}" stroke-width="{:.1}"{dash}/>"#,
                from.x, from.y, end.x, end.y, stroke.colour, stroke.width
            );
        }
    }
    arrowhead(out, back, to, head, stroke.colour);
}

/// The orders of the phase: drawn under the units, failed ones in red with a cross.
fn orders(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    for report in picture.orders {
        order(out, picture, drawing, report, k);
    }
}

fn order(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, report: &Report, k: f64) {
    let failed = !matches!(report.outcome, Outcome::Succeeded);
    // A waive is about no unit: nothing to draw.
    let Some((_, region)) = report.unit else {
        return;
    };
    let from = point(picture, drawing, region);
    let colour = if failed { FAILED } else { INK };
    let unit_gap = 14.0 * k;
    // The judge turns an illegal order into a hold; the picture shows what was written
    // (a support of a move the unit cannot reach, say), in red and crossed.
    let command = match (&report.outcome, &report.command, &report.text) {
        (Outcome::Illegal(_), CheckedOrder::Hold, Some(text)) => {
            as_written(picture.variant, text).unwrap_or(CheckedOrder::Hold)
        }
        _ => report.command.clone(),
    };
    match &command {
        CheckedOrder::Hold | CheckedOrder::Waive => {}
        CheckedOrder::Move { to, via_convoy } => {
            let target = point(picture, drawing, *to);
            let stroke = Stroke {
                colour,
                width: 3.0 * k,
                dash: (failed || *via_convoy).then_some((8.0 * k, 5.0 * k)),
            };
            let start = towards(from, target, unit_gap);
            let tip = towards(target, from, unit_gap * 0.6);
            arrow(out, start, None, tip, &stroke, k);
            if failed {
                cross(out, mid(start, tip), 6.0 * k, k);
            }
        }
        CheckedOrder::Retreat { to } => {
            let target = point(picture, drawing, *to);
            let stroke = Stroke {
                colour: if failed { FAILED } else { RETREAT },
                width: 3.0 * k,
                dash: failed.then_some((8.0 * k, 5.0 * k)),
            };
            let start = towards(from, target, unit_gap);
            let tip = towards(target, from, unit_gap * 0.6);
            arrow(out, start, None, tip, &stroke, k);
            if failed {
                cross(out, mid(start, tip), 6.0 * k, k);
            }
        }
        CheckedOrder::SupportHold { unit } => {
            let target = province_point(drawing, *unit);
            let start = towards(from, target, unit_gap);
            let end = towards(target, from, 17.0 * k);
            let _ = writeln!(
                out,
                r#"<path d="M{:.1} {:.1}L{:.1} {:.1}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-dasharray="{:.1} {:.1}"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-dasharray="{:.1} {:.1}"/>"#,
                start.x,
                start.y,
                end.x,
                end.y,
                2.0 * k,
                4.0 * k,
                3.0 * k,
                target.x,
                target.y,
                17.0 * k,
                2.0 * k,
                4.0 * k,
                3.0 * k
            );
            if failed {
                cross(out, mid(start, end), 5.0 * k, k);
            }
        }
        CheckedOrder::SupportMove { unit, to, .. } => {
            let supported = province_point(drawing, *unit);
            let target = province_point(drawing, *to);
            let stroke = Stroke {
                colour,
                width: 2.0 * k,
                dash: Some((4.0 * k, 3.0 * k)),
            };
            let start = towards(from, supported, unit_gap);
            let via = mid(supported, target);
            let tip = towards(target, via, unit_gap * 1.3);
            arrow(out, start, Some(via), tip, &stroke, k);
            if failed {
                cross(out, mid(start, via), 5.0 * k, k);
            }
        }
        CheckedOrder::Convoy { army, to } => {
            let army_at = province_point(drawing, *army);
            let target = province_point(drawing, *to);
            let stroke = Stroke {
                colour: if failed { FAILED } else { "#1f5fa8" },
                width: 2.0 * k,
                dash: Some((1.5 * k, 3.5 * k)),
            };
            // From the army through the fleet to where it lands: the route the fleet carries.
            let start = towards(army_at, from, unit_gap);
            let tip = towards(target, from, unit_gap * 1.3);
            arrow(out, start, Some(from), tip, &stroke, k);
            if failed {
                cross(out, mid(start, from), 6.0 * k, k);
            }
        }
        CheckedOrder::Disband => {
            cross(out, from, 13.0 * k, k);
        }
        CheckedOrder::Build { .. } => {
            let _ = writeln!(
                out,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="{:.1}"/>"##,
                from.x,
                from.y,
                18.0 * k,
                if failed { FAILED } else { BUILT },
                3.0 * k
            );
        }
    }
}

/// The shape of an order as written, read again from its text: where it points, without
/// asking whether it is legal.
fn as_written(variant: &Variant, text: &str) -> Option<CheckedOrder> {
    let source: std::sync::Arc<str> = std::sync::Arc::from("");
    let order = crate::order::parse_order(variant, &source, 1, text)
        .ok()
        .flatten()?;
    let region = |l: &crate::order::Location| {
        l.coast
            .unwrap_or_else(|| variant.province(l.province).region)
    };
    Some(match order.action {
        Instruction::Hold | Instruction::Waive | Instruction::Build | Instruction::Disband => {
            return None;
        }
        Instruction::Move { to, via_convoy, .. } => CheckedOrder::Move {
            to: region(&to),
            via_convoy,
        },
        Instruction::Retreat { to } => CheckedOrder::Retreat { to: region(&to) },
        Instruction::Support { unit, to: None } => CheckedOrder::SupportHold {
            unit: unit.at?.province,
        },
        Instruction::Support { unit, to: Some(to) } => CheckedOrder::SupportMove {
            unit: unit.at?.province,
            to: to.province,
            coast: to.coast,
        },
        Instruction::Convoy { unit, to } => CheckedOrder::Convoy {
            army: unit.at?.province,
            to: to.province,
        },
    })
}

fn mid(a: Point, b: Point) -> Point {
    Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
}

fn units(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    for unit in &picture.position.units {
        let at = point(picture, drawing, unit.region);
        unit_symbol(out, picture.variant, unit.owner, unit.kind, at, 1.0, k);
    }
}

/// A dislodged unit: drawn smaller beside its province, ringed in red, with a dotted line to
/// each province it may retreat to.
fn dislodged(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, k: f64) {
    let variant = picture.variant;
    let retreating = picture.position.phase.kind == PhaseKind::Retreat;
    for (index, d) in picture.position.dislodged.iter().enumerate() {
        let home = point(picture, drawing, d.unit.region);
        let at = Point::new(home.x + 15.0 * k, home.y + 13.0 * k);
        if retreating {
            for option in retreat_options(variant, picture.position, index) {
                let target = point(picture, drawing, option);
                let start = towards(at, target, 10.0 * k);
                let end = towards(target, at, 8.0 * k);
                let _ = writeln!(
                    out,
                    r#"<path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="{FAILED}" stroke-width="{:.1}" stroke-dasharray="{:.1} {:.1}" fill="none"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{FAILED}"/>"#,
                    start.x,
                    start.y,
                    end.x,
                    end.y,
                    1.6 * k,
                    2.0 * k,
                    3.0 * k,
                    end.x,
                    end.y,
                    3.0 * k
                );
            }
        }
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#ffffff" stroke="{FAILED}" stroke-width="{:.1}"/>"##,
            at.x,
            at.y,
            13.0 * k,
            2.5 * k
        );
        unit_symbol(out, variant, d.unit.owner, d.unit.kind, at, 0.75, k);
    }
}

/// Fill and outline of a unit: the house's colour; neutral units light grey with a dashed
/// outline. The outline is white on dark colours so that the shape stays visible.
fn unit_colours(variant: &Variant, owner: Owner) -> (String, &'static str, bool) {
    match owner {
        Owner::House(h) => {
            let colour = variant.house(h).colour.clone();
            let outline = if luminance(&colour) < 0.35 {
                "#ffffff"
            } else {
                "#1a1a1a"
            };
            (colour, outline, false)
        }
        Owner::Neutral => (NEUTRAL.to_string(), "#1a1a1a", true),
    }
}

/// Relative luminance of `#rrggbb` (0 black, 1 white); unreadable colours count as mid-grey.
fn luminance(colour: &str) -> f64 {
    let hex = colour.trim_start_matches('#');
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|s| u8::from_str_radix(s, 16).ok())
            .map_or(0.5, |v| f64::from(v) / 255.0)
    };
    if hex.len() != 6 {
        return 0.5;
    }
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

/// Symbols in a 24-unit box centred on the unit's point.
/// Army: a shield. Fleet: a ship with a sail. Dragon: spread wings, a long neck and a tail.
const ARMY: &str = "M-10 -9L10 -9L10 1Q10 8 0 12Q-10 8 -10 1Z";
const FLEET: &str = "M-13 2L13 2L8 9L-8 9ZM-1 1L-1 -12L9 -1Z";
const DRAGON: &str = "M0 -3L-4 -6L-9 -12L-9 -7L-15 -10L-12 -3L-16 -2L-8 1L-4 1L-5 6L-9 10L-3 8L0 5L3 8L9 10L5 6L4 1L8 1L16 -2L12 -3L15 -10L9 -7L9 -12L4 -6L2 -8L3 -12L0 -13L-1 -9Z";

/// Units are drawn larger than their 24-unit box: they are what a player looks for first.
const UNIT_SCALE: f64 = 1.3;

fn unit_symbol(
    out: &mut String,
    variant: &Variant,
    owner: Owner,
    kind: UnitKind,
    at: Point,
    scale: f64,
    k: f64,
) {
    let (fill, outline, neutral) = unit_colours(variant, owner);
    let shape = match kind {
        UnitKind::Army => ARMY,
        UnitKind::Fleet => FLEET,
        UnitKind::Dragon => DRAGON,
    };
    let dash = if neutral {
        r#" stroke-dasharray="3 2""#
    } else {
        ""
    };
    let s = scale * k * UNIT_SCALE;
    let _ = writeln!(
        out,
        r#"<path class="u" transform="translate({:.1} {:.1}) scale({s:.2})" d="{shape}" fill="{fill}" stroke="{outline}"{dash}/>"#,
        at.x, at.y
    );
}

fn phase_words(phase: crate::judge::Phase, lang: Lang) -> String {
    let season = match phase.season {
        Season::Spring => say!(lang, "picture.spring"),
        Season::Autumn => say!(lang, "picture.autumn"),
        Season::Winter => say!(lang, "picture.winter"),
    };
    let kind = match phase.kind {
        PhaseKind::Movement => say!(lang, "picture.movements"),
        PhaseKind::Retreat => say!(lang, "picture.retreats"),
        PhaseKind::Adjustment => say!(lang, "picture.adjustments"),
    };
    format!("{season} {}, {kind}", phase.year)
}

fn title(out: &mut String, picture: &Picture<'_>, k: f64) {
    let lang = picture.lang;
    let words = match picture.played {
        Some(played) => format!(
            "{}{}",
            phase_words(played, lang),
            say!(lang, "picture.results")
        ),
        None => phase_words(picture.position.phase, lang),
    };
    let _ = writeln!(
        out,
        r#"<text class="t" x="{:.1}" y="{:.1}">{} — {}</text>"#,
        14.0 * k,
        33.0 * k,
        xml_text(picture.title),
        xml_text(&words)
    );
}

/// Where the legend's rows and columns lie: (first row's middle, row height, column width).
fn legend_grid(drawing: &Drawing, top: f64, k: f64) -> (f64, f64, f64) {
    let row = LEGEND_ROW * k;
    (top + 10.0 * k + row / 2.0, row, drawing.width / 4.0)
}

/// A legend sample's words, right of the sample at (`x`, `y`).
fn legend_text(out: &mut String, x: f64, y: f64, text: &str, k: f64) {
    let _ = writeln!(
        out,
        r#"<text class="g" x="{:.1}" y="{:.1}">{}</text>"#,
        x + 26.0 * k,
        y + 5.0 * k,
        xml_text(text)
    );
}

/// The house whose colour the legend's unit samples take.
fn legend_sample(variant: &Variant) -> Owner {
    variant
        .house_ids()
        .next()
        .map_or(Owner::Neutral, Owner::House)
}

/// Whether a house of the variant may build a dragon: then the legend shows one always.
fn builds_dragons(variant: &Variant) -> bool {
    variant
        .houses
        .iter()
        .any(|h| h.builds.contains(&UnitKind::Dragon))
}

/// The legend's four rows of marks under the map: unit kinds, neutral units, supply
/// centres, order marks. They depend on the variant and the language only (a dragon
/// standing in a variant where no house builds one is [`legend_dragon`]'s).
fn legend_marks(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, top: f64, k: f64) {
    let variant = picture.variant;
    let lang = picture.lang;
    let (y0, row, col) = legend_grid(drawing, top, k);
    let mut x = 14.0 * k;
    let text_at = |out: &mut String, x: f64, y: f64, text: &str| legend_text(out, x, y, text, k);
    // An order mark's sample: a short arrow and its name.
    let sample_arrow = |out: &mut String, x: f64, y: f64, stroke: &Stroke, name: &str| {
        arrow(
            out,
            Point::new(x - 6.0 * k, y),
            None,
            Point::new(x + 18.0 * k, y),
            stroke,
            k,
        );
        text_at(out, x + 4.0 * k, y, name);
    };
    // Row 1: the units.
    let sample = legend_sample(variant);
    let kinds = [
        (UnitKind::Army, say!(lang, "picture.army_a")),
        (UnitKind::Fleet, say!(lang, "picture.fleet_f")),
        (UnitKind::Dragon, say!(lang, "picture.dragon_d")),
    ];
    // Dragons in the legend only where a house may build one or one stands on the board
    // (that one: `legend_dragon`).
    let dragons = builds_dragons(variant);
    for (kind, name) in kinds {
        if kind == UnitKind::Dragon && !dragons {
            x += col;
            continue;
        }
        unit_symbol(
            out,
            variant,
            sample,
            kind,
            Point::new(x + 6.0 * k, y0),
            0.9,
            k,
        );
        text_at(out, x, y0, &name);
        x += col;
    }
    unit_symbol(
        out,
        variant,
        Owner::Neutral,
        UnitKind::Army,
        Point::new(x + 6.0 * k, y0),
        0.9,
        k,
    );
    text_at(out, x, y0, &say!(lang, "picture.neutral_unit"));
    // Row 2: centres, moves, supports, convoys.
    let y = y0 + row;
    x = 14.0 * k;
    let _ = writeln!(
        out,
        r#"<circle cx="{:.1}" cy="{y:.1}" r="{:.1}" fill="{UNOWNED}" stroke="{INK}" stroke-width="{:.1}"/><circle cx="{:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="{INK}" stroke-width="{:.1}"/>"#,
        x + 6.0 * k,
        5.5 * k,
        1.2 * k,
        x + 6.0 * k,
        8.5 * k,
        0.9 * k
    );
    text_at(out, x, y, &say!(lang, "picture.centre_owner_s_colour"));
    x += col;
    let solid = Stroke {
        colour: INK,
        width: 3.0 * k,
        dash: None,
    };
    sample_arrow(out, x, y, &solid, &say!(lang, "picture.move"));
    x += col;
    let support = Stroke {
        colour: INK,
        width: 2.0 * k,
        dash: Some((4.0 * k, 3.0 * k)),
    };
    sample_arrow(out, x, y, &support, &say!(lang, "picture.support"));
    x += col;
    let convoy = Stroke {
        colour: "#1f5fa8",
        width: 2.0 * k,
        dash: Some((1.5 * k, 3.5 * k)),
    };
    sample_arrow(out, x, y, &convoy, &say!(lang, "picture.convoy"));
    // Row 3: failed orders, dislodged units, retreats, passages.
    let y = y0 + 2.0 * row;
    x = 14.0 * k;
    let failed = Stroke {
        colour: FAILED,
        width: 3.0 * k,
        dash: Some((8.0 * k, 5.0 * k)),
    };
    arrow(
        out,
        Point::new(x - 6.0 * k, y),
        None,
        Point::new(x + 18.0 * k, y),
        &failed,
        k,
    );
    cross(out, Point::new(x + 4.0 * k, y), 5.0 * k, k);
    text_at(out, x + 4.0 * k, y, &say!(lang, "picture.failed_order"));
    x += col;
    let _ = writeln!(
        out,
        r##"<circle cx="{:.1}" cy="{y:.1}" r="{:.1}" fill="#ffffff" stroke="{FAILED}" stroke-width="{:.1}"/>"##,
        x + 6.0 * k,
        13.0 * k,
        2.5 * k
    );
    unit_symbol(
        out,
        variant,
        sample,
        UnitKind::Army,
        Point::new(x + 6.0 * k, y),
        0.75,
        k,
    );
    text_at(
        out,
        x + 4.0 * k,
        y,
        &say!(lang, "picture.dislodged_retreats_dotted"),
    );
    x += 2.0 * col;
    let _ = writeln!(
        out,
        r##"<path d="M{:.1} {y:.1}L{:.1} {y:.1}" {}/>"##,
        x - 6.0 * k,
        x + 18.0 * k,
        strait_style(k)
    );
    text_at(out, x + 4.0 * k, y, &say!(lang, "picture.passage_strait"));
    // Row 4: what the other marks mean — the ground no unit enters, retreats, builds and
    // disbands.
    let y = y0 + 3.0 * row;
    x = 14.0 * k;
    let _ = writeln!(
        out,
        r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{IMPASSABLE}" stroke="{INK}" stroke-width="{:.1}"/>"#,
        x - 4.0 * k,
        y - 8.0 * k,
        20.0 * k,
        16.0 * k,
        1.0 * k
    );
    text_at(out, x, y, &say!(lang, "picture.impassable"));
    x += col;
    let retreat = Stroke {
        colour: RETREAT,
        width: 3.0 * k,
        dash: None,
    };
    sample_arrow(out, x, y, &retreat, &say!(lang, "picture.retreat"));
    x += col;
    let _ = writeln!(
        out,
        r#"<circle cx="{:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="{BUILT}" stroke-width="{:.1}"/>"#,
        x + 6.0 * k,
        10.0 * k,
        3.0 * k
    );
    text_at(out, x + 4.0 * k, y, &say!(lang, "picture.build"));
    x += col;
    cross(out, Point::new(x + 6.0 * k, y), 8.0 * k, k);
    text_at(out, x + 4.0 * k, y, &say!(lang, "picture.disband"));
}

/// The dragon's sample in the legend's first row, for a dragon standing in a variant
/// where no house builds one (where one does, the sample is one of [`legend_marks`]).
fn legend_dragon(out: &mut String, picture: &Picture<'_>, drawing: &Drawing, top: f64, k: f64) {
    let variant = picture.variant;
    let standing = picture
        .position
        .units
        .iter()
        .any(|u| u.kind == UnitKind::Dragon);
    if builds_dragons(variant) || !standing {
        return;
    }
    let (y0, _, col) = legend_grid(drawing, top, k);
    let x = 14.0 * k + 2.0 * col;
    unit_symbol(
        out,
        variant,
        legend_sample(variant),
        UnitKind::Dragon,
        Point::new(x + 6.0 * k, y0),
        0.9,
        k,
    );
    legend_text(out, x, y0, &say!(picture.lang, "picture.dragon_d"), k);
}

/// The legend's rows of houses under its marks, four a row, each with its colour and its
/// number of centres.
fn legend_houses_rows(
    out: &mut String,
    picture: &Picture<'_>,
    drawing: &Drawing,
    top: f64,
    k: f64,
) {
    let variant = picture.variant;
    let lang = picture.lang;
    let (y0, row, col) = legend_grid(drawing, top, k);
    let text_at = |out: &mut String, x: f64, y: f64, text: &str| legend_text(out, x, y, text, k);
    // Then the houses, four a row, with their supply centres.
    for (i, h) in legend_houses(picture).into_iter().enumerate() {
        let y = y0 + (4 + i / 4) as f64 * row;
        let x = 14.0 * k + (i % 4) as f64 * col;
        let house = variant.house(h);
        let centres = picture
            .position
            .owners
            .iter()
            .filter(|o| **o == Some(h))
            .count();
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" stroke="{INK}" stroke-width="{:.1}"/>"#,
            x - 4.0 * k,
            y - 8.0 * k,
            20.0 * k,
            16.0 * k,
            house.colour,
            1.0 * k
        );
        let words = say!(
            lang,
            "picture_legend.centres",
            house = house.name_in(lang),
            centres
        );
        text_at(out, x, y, &words);
    }
}

/// The houses the legend lists: those with a centre or a unit on the board (a house not
/// played in a smaller game would show "0 centres"); every house on an empty board.
fn legend_houses(picture: &Picture<'_>) -> Vec<HouseId> {
    let position = picture.position;
    let present = |h: HouseId| {
        let owner = Owner::House(h);
        position.owners.contains(&Some(h))
            || position.units.iter().any(|u| u.owner == owner)
            || position.dislodged.iter().any(|d| d.unit.owner == owner)
    };
    let houses: Vec<HouseId> = picture
        .variant
        .house_ids()
        .filter(|&h| present(h))
        .collect();
    if houses.is_empty() {
        picture.variant.house_ids().collect()
    } else {
        houses
    }
}

/// Text for XML (the SVG, the published feed): the characters that could end it escaped
/// (text is only ever put in content or in attributes between double quotes, so `'` needs
/// nothing), and the characters XML 1.0 forbids (control characters a game's name or a
/// press message might hold) left out: either would make the whole document unreadable.
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}
