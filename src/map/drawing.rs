//! Where things are on the picture of a variant: the `[drawing]` section of its file.
//!
//! A province's shape is generated, not drawn by hand: it is the union of the cells of its
//! seed points in a Voronoi diagram of every seed of the map, clipped to the frame. The map
//! maker places points (easy to review, impossible to leave a gap or an overlap), and the
//! loader proves the one property a player relies on: two provinces touch on the picture
//! only if they border in the rules. A border with no visible shared edge (an island, a
//! strait) is listed in [`Drawing::passages`] and drawn as a passage. `docs/drawing.md` says
//! why.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::load::MapProblem;
use super::variant::{ProvinceId, RegionId, Variant};
use crate::lang::Lang;

/// A point of the frame: x to the right, y downwards.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(from = "[f64; 2]")]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Point {
        Point { x, y }
    }
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// What a cell of the diagram belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Area {
    Province(ProvinceId),
    /// A `[[drawing.blank]]`, by its index: land or sea that is no province.
    Blank(usize),
}

/// Impassable land (beyond the Wall, Switzerland) or open water that is no province.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlankKind {
    Land,
    Sea,
}

/// A `[[drawing.blank]]` area.
#[derive(Debug, Clone)]
pub struct Blank {
    pub kind: BlankKind,
    /// An optional name written on it (`Au-delà du Mur`).
    pub name: Option<String>,
    /// The name in other languages (`en`: `Beyond the Wall`).
    pub names: Vec<(Lang, String)>,
    pub label: Option<Point>,
}

impl Blank {
    /// The name a reader of `lang` sees, if the area has one.
    pub fn name_in(&self, lang: Lang) -> Option<&str> {
        self.names
            .iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, n)| n.as_str())
            .or(self.name.as_deref())
    }
}

/// Where one province's things stand.
#[derive(Debug, Clone)]
pub struct ProvincePoints {
    /// Where an army, a dragon or a one-coast fleet stands.
    pub unit: Point,
    /// Where the province's abbreviation is written.
    pub label: Point,
    /// Where its supply centre is marked (supply centres only).
    pub centre: Point,
    /// Where a fleet stands on each coast of a multi-coast province.
    pub coasts: Vec<(RegionId, Point)>,
}

/// One cell of the Voronoi diagram: a convex polygon.
#[derive(Debug, Clone)]
pub struct Cell {
    pub area: Area,
    pub polygon: Vec<Point>,
}

/// A piece of a line between two different areas (or an area and the frame's edge).
#[derive(Debug, Clone, Copy)]
pub struct Edge {
    pub from: Point,
    pub to: Point,
    pub left: Area,
    /// `None`: the frame's edge.
    pub right: Option<Area>,
}

/// The picture of a variant, checked.
#[derive(Debug, Clone)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    /// Indexed by province.
    pub places: Vec<ProvincePoints>,
    pub blanks: Vec<Blank>,
    pub cells: Vec<Cell>,
    /// Every line between two areas, once.
    pub edges: Vec<Edge>,
    /// Borders of the rules with no visible shared edge: drawn as a passage between the
    /// two provinces' unit points.
    pub passages: Vec<(ProvinceId, ProvinceId)>,
}

impl Drawing {
    /// The place of a unit standing in `region` (a coast's own point for a coast).
    pub fn unit_point(&self, variant: &Variant, region: RegionId) -> Point {
        let province = variant.province_of(region);
        let place = &self.places[usize::from(province.0)];
        place
            .coasts
            .iter()
            .find(|(r, _)| *r == region)
            .map_or(place.unit, |(_, p)| *p)
    }

    /// Whether a point lies in a province's shape.
    pub fn contains(&self, province: ProvinceId, point: Point) -> bool {
        self.cells
            .iter()
            .filter(|c| c.area == Area::Province(province))
            .any(|c| inside_convex(&c.polygon, point))
    }
}

/// A shared edge shorter than this (in frame units) is not seen: the border is drawn as a
/// passage instead.
pub const MIN_VISIBLE_EDGE: f64 = 12.0;

/// Bounds the cost of the diagram (quadratic in the number of seeds).
const MAX_SEEDS: usize = 4000;
const MAX_SIDE: f64 = 20_000.0;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileDrawing {
    width: f64,
    height: f64,
    #[serde(default)]
    places: BTreeMap<String, FilePlace>,
    #[serde(rename = "blank", default)]
    blanks: Vec<FileBlank>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePlace {
    seeds: Vec<Point>,
    #[serde(default)]
    unit: Option<Point>,
    #[serde(default)]
    label: Option<Point>,
    #[serde(default)]
    centre: Option<Point>,
    #[serde(default)]
    coasts: BTreeMap<String, Point>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBlank {
    kind: BlankKind,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    names: BTreeMap<Lang, String>,
    #[serde(default)]
    label: Option<Point>,
    seeds: Vec<Point>,
}

/// Where the label goes when the file does not say: under the unit.
const LABEL_BELOW: f64 = 25.0;
/// Where the supply centre goes when the file does not say: up and right of the unit.
const CENTRE_OFFSET: Point = Point { x: 20.0, y: -17.0 };

struct Checker {
    problems: Vec<MapProblem>,
    width: f64,
    height: f64,
}

impl Checker {
    fn problem(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(MapProblem {
            key: key.into(),
            message: message.into(),
        });
    }

    fn in_frame(&mut self, key: &str, point: Point) -> bool {
        let inside =
            (0.0..=self.width).contains(&point.x) && (0.0..=self.height).contains(&point.y);
        if !inside {
            self.problem(
                key,
                format!(
                    "[{}, {}] is outside the frame ({} × {})",
                    point.x, point.y, self.width, self.height
                ),
            );
        }
        inside
    }
}

/// Checks a `[drawing]` section against the variant and builds the picture's geometry.
pub(super) fn build(raw: FileDrawing, variant: &Variant) -> Result<Drawing, Vec<MapProblem>> {
    let mut check = Checker {
        problems: Vec::new(),
        width: raw.width,
        height: raw.height,
    };
    let size_ok = raw.width.is_finite()
        && raw.height.is_finite()
        && (1.0..=MAX_SIDE).contains(&raw.width)
        && (1.0..=MAX_SIDE).contains(&raw.height);
    if !size_ok {
        check.problem(
            "[drawing] width, height",
            format!("the frame must be between 1 and {MAX_SIDE} units on each side"),
        );
        return Err(check.problems);
    }
    let mut seeds: Vec<(Point, Area)> = Vec::new();
    let mut places: Vec<Option<ProvincePoints>> = vec![None; variant.provinces.len()];
    for (id, place) in &raw.places {
        let key = format!("[drawing.places {id}]");
        let Some(province) = variant.province_by_id(id) else {
            check.problem(&key, format!("unknown province `{id}`"));
            continue;
        };
        if place.seeds.is_empty() {
            check.problem(format!("{key} seeds"), "at least one seed is needed");
            continue;
        }
        for &seed in &place.seeds {
            if check.in_frame(&format!("{key} seeds"), seed) {
                seeds.push((seed, Area::Province(province)));
            }
        }
        // The renderer sizes its marks for a 1 000-unit width; so do the default offsets.
        let k = raw.width / 1000.0;
        let unit = place.unit.unwrap_or(place.seeds[0]);
        let label = place
            .label
            .unwrap_or(Point::new(unit.x, unit.y + LABEL_BELOW * k));
        let centre = place.centre.unwrap_or(Point::new(
            unit.x + CENTRE_OFFSET.x * k,
            unit.y + CENTRE_OFFSET.y * k,
        ));
        let p = variant.province(province);
        let mut coasts = Vec::new();
        for (coast, point) in &place.coasts {
            match p
                .coasts
                .iter()
                .find(|&&r| variant.region(r).coast.as_deref() == Some(coast.as_str()))
            {
                Some(&region) => coasts.push((region, *point)),
                None => check.problem(
                    format!("{key} coasts"),
                    format!("`{id}` has no coast `{coast}`"),
                ),
            }
        }
        for &region in &p.coasts {
            if !coasts.iter().any(|(r, _)| *r == region) {
                let coast = variant.region(region).coast.clone().unwrap_or_default();
                check.problem(
                    format!("{key} coasts"),
                    format!("the coast `{coast}` is not placed"),
                );
            }
        }
        places[usize::from(province.0)] = Some(ProvincePoints {
            unit,
            label,
            centre,
            coasts,
        });
    }
    let mut blanks = Vec::new();
    for (index, blank) in raw.blanks.iter().enumerate() {
        let key = format!("[[drawing.blank]] {}", index + 1);
        if blank.seeds.is_empty() {
            check.problem(format!("{key} seeds"), "at least one seed is needed");
        }
        for &seed in &blank.seeds {
            if check.in_frame(&format!("{key} seeds"), seed) {
                seeds.push((seed, Area::Blank(index)));
            }
        }
        blanks.push(Blank {
            kind: blank.kind,
            name: blank.name.clone(),
            names: blank.names.iter().map(|(l, n)| (*l, n.clone())).collect(),
            label: blank.label.or(blank.seeds.first().copied()),
        });
    }
    for province in variant.province_ids() {
        if !raw.places.contains_key(&variant.province(province).id) {
            check.problem(
                "[drawing.places]",
                format!(
                    "the province `{}` is not placed",
                    variant.province(province).id
                ),
            );
        }
    }
    if seeds.len() > MAX_SEEDS {
        check.problem(
            "[drawing]",
            format!("{} seeds: at most {MAX_SEEDS}", seeds.len()),
        );
    }
    for (i, (a, area)) in seeds.iter().enumerate() {
        if let Some((_, other)) = seeds[..i].iter().find(|(b, _)| b == a) {
            let key = area_key(variant, *area);
            check.problem(
                format!("{key} seeds"),
                format!(
                    "[{}, {}] is also a seed of {}",
                    a.x,
                    a.y,
                    area_name(variant, *other)
                ),
            );
        }
    }
    if !check.problems.is_empty() {
        return Err(check.problems);
    }
    let places: Vec<ProvincePoints> = places.into_iter().flatten().collect();
    let points: Vec<Point> = seeds.iter().map(|(p, _)| *p).collect();
    let diagram = voronoi(&points, raw.width, raw.height);
    let mut cells = Vec::with_capacity(diagram.len());
    let mut edges = Vec::new();
    let mut shared: BTreeMap<(ProvinceId, ProvinceId), f64> = BTreeMap::new();
    for (i, cell) in diagram.iter().enumerate() {
        let area = seeds[i].1;
        let n = cell.len();
        for k in 0..n {
            let (from, other) = cell[k];
            let to = cell[(k + 1) % n].0;
            let right = other.map(|j| seeds[j].1);
            if right == Some(area) {
                continue;
            }
            // Each line between two cells is seen from both: keep it once.
            if other.is_none_or(|j| j > i) {
                edges.push(Edge {
                    from,
                    to,
                    left: area,
                    right,
                });
            }
            if let (Area::Province(a), Some(Area::Province(b))) = (area, right)
                && a < b
            {
                *shared.entry((a, b)).or_default() += from.distance(to);
            }
        }
        cells.push(Cell {
            area,
            polygon: cell.iter().map(|(p, _)| *p).collect(),
        });
    }
    // `shared` counted each edge from the lower-numbered province's cells only.
    for (&(a, b), &length) in &shared {
        if !variant.dragon_adjacency[usize::from(a.0)].contains(&b) {
            check.problem(
                format!("[drawing.places {}]", variant.province(a).id),
                format!(
                    "touches `{}` on the picture ({length:.0} units of shared edge), but they do not border: move or add seeds",
                    variant.province(b).id
                ),
            );
        }
    }
    let mut passages = Vec::new();
    for a in variant.province_ids() {
        for &b in &variant.dragon_adjacency[usize::from(a.0)] {
            if a < b && shared.get(&(a, b)).copied().unwrap_or(0.0) < MIN_VISIBLE_EDGE {
                passages.push((a, b));
            }
        }
    }
    let drawing = Drawing {
        width: raw.width,
        height: raw.height,
        places,
        blanks,
        cells,
        edges,
        passages,
    };
    for province in variant.province_ids() {
        let place = &drawing.places[usize::from(province.0)];
        let id = &variant.province(province).id;
        let mut points = vec![
            ("unit".to_string(), place.unit),
            ("label".to_string(), place.label),
        ];
        if variant.province(province).supply {
            points.push(("centre".to_string(), place.centre));
        }
        for (region, point) in &place.coasts {
            let coast = variant.region(*region).coast.clone().unwrap_or_default();
            points.push((format!("coasts {coast}"), *point));
        }
        for (what, point) in points {
            if !drawing.contains(province, point) {
                check.problem(
                    format!("[drawing.places {id}] {what}"),
                    format!(
                        "[{:.0}, {:.0}] is outside the province's shape",
                        point.x, point.y
                    ),
                );
            }
        }
    }
    if check.problems.is_empty() {
        Ok(drawing)
    } else {
        Err(check.problems)
    }
}

fn area_key(variant: &Variant, area: Area) -> String {
    match area {
        Area::Province(p) => format!("[drawing.places {}]", variant.province(p).id),
        Area::Blank(i) => format!("[[drawing.blank]] {}", i + 1),
    }
}

fn area_name(variant: &Variant, area: Area) -> String {
    match area {
        Area::Province(p) => format!("`{}`", variant.province(p).id),
        Area::Blank(i) => format!("blank area {}", i + 1),
    }
}

/// Whether `point` lies in a convex polygon (either orientation), edges included.
fn inside_convex(polygon: &[Point], point: Point) -> bool {
    let n = polygon.len();
    if n < 3 {
        return false;
    }
    let mut sign = 0.0_f64;
    for k in 0..n {
        let a = polygon[k];
        let b = polygon[(k + 1) % n];
        let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x);
        if cross.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

/// The Voronoi cell of every seed, clipped to the frame `[0, width] × [0, height]`, as a
/// polygon whose vertex `k` carries the seed on the other side of the edge from vertex `k`
/// to vertex `k + 1` (`None`: the frame). Each cell is the frame cut by the half-plane of
/// every nearer seed, nearest first, stopping when no farther seed can cut it: simple,
/// exact enough, and a few milliseconds for a map's few hundred seeds.
pub fn voronoi(seeds: &[Point], width: f64, height: f64) -> Vec<Vec<(Point, Option<usize>)>> {
    let mut cells = Vec::with_capacity(seeds.len());
    let mut order: Vec<usize> = (0..seeds.len()).collect();
    for (i, &s) in seeds.iter().enumerate() {
        let mut poly: Vec<(Point, Option<usize>)> = vec![
            (Point::new(0.0, 0.0), None),
            (Point::new(width, 0.0), None),
            (Point::new(width, height), None),
            (Point::new(0.0, height), None),
        ];
        order.sort_by(|&a, &b| {
            let da = (seeds[a].x - s.x).powi(2) + (seeds[a].y - s.y).powi(2);
            let db = (seeds[b].x - s.x).powi(2) + (seeds[b].y - s.y).powi(2);
            da.total_cmp(&db)
        });
        for &j in &order {
            if j == i {
                continue;
            }
            let t = seeds[j];
            let d2 = (t.x - s.x).powi(2) + (t.y - s.y).powi(2);
            let r2 = poly
                .iter()
                .map(|(p, _)| (p.x - s.x).powi(2) + (p.y - s.y).powi(2))
                .fold(0.0, f64::max);
            // A seed farther than twice the cell's radius cannot cut it, nor can any after.
            if d2 > 4.0 * r2 {
                break;
            }
            let (a, b) = (t.x - s.x, t.y - s.y);
            let c = (t.x * t.x + t.y * t.y - s.x * s.x - s.y * s.y) / 2.0;
            poly = clip(&poly, a, b, c, j);
            if poly.is_empty() {
                break;
            }
        }
        cells.push(poly);
    }
    cells
}

/// Keeps the part of a polygon where `a·x + b·y <= c`; the new edge is tagged `tag`.
fn clip(
    poly: &[(Point, Option<usize>)],
    a: f64,
    b: f64,
    c: f64,
    tag: usize,
) -> Vec<(Point, Option<usize>)> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    let n = poly.len();
    for k in 0..n {
        let (p1, t1) = poly[k];
        let p2 = poly[(k + 1) % n].0;
        let d1 = a * p1.x + b * p1.y - c;
        let d2 = a * p2.x + b * p2.y - c;
        let cut = |d1: f64, d2: f64| {
            let t = d1 / (d1 - d2);
            Point::new(p1.x + t * (p2.x - p1.x), p1.y + t * (p2.y - p1.y))
        };
        if d1 <= 0.0 {
            out.push((p1, t1));
            if d2 > 0.0 {
                out.push((cut(d1, d2), Some(tag)));
            }
        } else if d2 <= 0.0 {
            out.push((cut(d1, d2), t1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seeds_split_the_frame_in_half() {
        let cells = voronoi(
            &[Point::new(25.0, 50.0), Point::new(75.0, 50.0)],
            100.0,
            100.0,
        );
        assert_eq!(cells.len(), 2);
        let xs: Vec<f64> = cells[0].iter().map(|(p, _)| p.x).collect();
        assert!(xs.iter().all(|&x| x <= 50.0 + 1e-9));
        assert!(cells[0].iter().any(|(_, t)| *t == Some(1)));
    }

    #[test]
    fn a_point_is_inside_its_cell_only() {
        let cells = voronoi(
            &[Point::new(25.0, 50.0), Point::new(75.0, 50.0)],
            100.0,
            100.0,
        );
        let poly: Vec<Point> = cells[1].iter().map(|(p, _)| *p).collect();
        assert!(inside_convex(&poly, Point::new(80.0, 10.0)));
        assert!(!inside_convex(&poly, Point::new(20.0, 10.0)));
    }
}
