//! Speed of the judge and the parser, printed as figures (no pass/fail): `cargo bench`.
//! - every DATC case of tests/datc on the classic map: positions/s, orders/s;
//! - Westeros: the bundled example turn and random legal order sets;
//! - the order parser: lines/s;
//! - growth with the number of units on generated grid maps (10 … 10 000 units).

use std::fmt::Write;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use corbeau::case::{VariantCache, case_steps, read_cases};
use corbeau::judge::{GivenOrder, Position, adjudicate};
use corbeau::map::{Owner, Variant, load_variant, parse_variant};
use corbeau::order::{parse_order, parse_orders};

/// Runs `f` repeatedly for about `budget`; returns (runs, seconds).
fn time(budget: Duration, mut f: impl FnMut()) -> (u64, f64) {
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed() < budget || runs < 3 {
        f();
        runs += 1;
    }
    (runs, start.elapsed().as_secs_f64())
}

fn main() {
    let budget = Duration::from_millis(
        std::env::var("CORBEAU_BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000),
    );
    datc(budget);
    westeros(budget);
    parser(budget);
    scaling(budget);
}

fn datc(budget: Duration) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datc");
    let mut cache = VariantCache::default();
    let mut steps = Vec::new();
    for name in ["datc-v2.4.case", "datc-v3.0.case"] {
        let text = std::fs::read_to_string(root.join(name)).expect("DATC case file");
        for case in read_cases(name, &text)
            .expect("cases")
            .iter()
            .filter(|c| c.skip.is_none())
        {
            if let Ok((variant, list)) = case_steps(&mut cache, case) {
                steps.extend(list.into_iter().map(|s| (variant.clone(), s)));
            }
        }
    }
    let orders: usize = steps.iter().map(|(_, (_, o))| o.len()).sum();
    let (runs, secs) = time(budget, || {
        for (variant, (position, given)) in &steps {
            black_box(adjudicate(variant, position, given));
        }
    });
    let positions = (steps.len() as u64 * runs) as f64;
    println!(
        "classique, DATC cases: {} positions, {} orders: {:.0} positions/s, {:.0} orders/s",
        steps.len(),
        orders,
        positions / secs,
        (orders as u64 * runs) as f64 / secs
    );
}

/// A small deterministic generator, so that runs are comparable.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Random orders for every unit: hold, move to a neighbour, or support a neighbour.
fn random_orders(variant: &Variant, position: &Position, rng: &mut Lcg) -> String {
    let mut text = String::new();
    for unit in &position.units {
        let Owner::House(h) = unit.owner else {
            continue;
        };
        let from = variant.province_of(unit.region);
        let neighbours = &variant.dragon_adjacency[usize::from(from.0)];
        let here = &variant.province(from).id;
        let to = &variant.province(neighbours[rng.next(neighbours.len())]).id;
        let house = &variant.house(h).id;
        let kind = unit.kind.letter();
        let _ = match rng.next(4) {
            0 => writeln!(text, "{house}: {kind} {here} tient"),
            1 => match position.unit_in(variant, variant.names.province(to).expect("id")) {
                Some(i) => writeln!(
                    text,
                    "{house}: {kind} {here} soutient {} {to}",
                    position.units[i].kind.letter()
                ),
                None => writeln!(text, "{house}: {kind} {here} -> {to}"),
            },
            _ => writeln!(text, "{house}: {kind} {here} -> {to}"),
        };
    }
    text
}

fn given(variant: &Variant, text: &str) -> Vec<GivenOrder> {
    parse_orders(variant, "bench", text)
        .into_iter()
        .filter_map(Result::ok)
        .map(|order| GivenOrder {
            house: order
                .house
                .as_deref()
                .and_then(|h| variant.house_by_name(h)),
            order,
        })
        .collect()
}

fn westeros(budget: Duration) {
    let variant = load_variant("westeros").expect("westeros");
    let start = Position::starting(&variant, None).expect("setup");
    let mut rng = Lcg(298);
    let sets: Vec<Vec<GivenOrder>> = (0..100)
        .map(|_| given(&variant, &random_orders(&variant, &start, &mut rng)))
        .collect();
    let orders: usize = sets.iter().map(Vec::len).sum();
    let (runs, secs) = time(budget, || {
        for set in &sets {
            black_box(adjudicate(&variant, &start, set));
        }
    });
    println!(
        "westeros, 7 houses, 100 random order sets ({} units): {:.0} positions/s, {:.0} orders/s",
        start.units.len(),
        (sets.len() as u64 * runs) as f64 / secs,
        (orders as u64 * runs) as f64 / secs
    );
}

fn parser(budget: Duration) {
    let variant = load_variant("westeros").expect("westeros");
    let example = include_str!("../games/examples/westeros-printemps-298.txt");
    let lines: Vec<&str> = example
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.ends_with(':'))
        .collect();
    let source: Arc<str> = Arc::from("bench");
    let (runs, secs) = time(budget, || {
        for (n, line) in lines.iter().enumerate() {
            let _ = black_box(parse_order(&variant, &source, n as u32, line));
        }
    });
    println!(
        "parser, westeros example lines (French): {:.0} lines/s",
        (lines.len() as u64 * runs) as f64 / secs
    );
    // What a hostile mail is made of: lines that are no order, eight unknown words each,
    // each run of words compared with every name of the map for a "did you mean".
    let mut seed = 0x9e37_79b9_u32;
    let junk: Vec<String> = (0..300)
        .map(|_| {
            (0..8)
                .map(|_| {
                    (0..9)
                        .map(|_| {
                            seed ^= seed << 13;
                            seed ^= seed >> 17;
                            seed ^= seed << 5;
                            char::from(b'a' + (seed % 26) as u8)
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let (runs, secs) = time(budget, || {
        for (n, line) in junk.iter().enumerate() {
            let _ = black_box(parse_order(&variant, &source, n as u32, line));
        }
    });
    println!(
        "parser, lines of 8 unknown words: {:.0} lines/s ({:.1} ms for the 300 lines a mail may hold)",
        (junk.len() as u64 * runs) as f64 / secs,
        secs * 1000.0 / runs as f64
    );
}

/// A W×H grid of land provinces, two houses, units on every other province.
fn grid(units: usize) -> (Variant, Position) {
    let cells = units * 2;
    let width = (cells as f64).sqrt().ceil() as usize;
    let height = cells.div_ceil(width);
    let id = |x: usize, y: usize| format!("p{}", y * width + x);
    let mut toml = String::from(
        "[variant]\nid = \"grid\"\nname = \"Grid\"\nfirst_year = 1\n[victory]\ncentres = 1\n\
         [[house]]\nid = \"a\"\nname = \"A\"\nhome = [\"p0\"]\n[[house]]\nid = \"b\"\nname = \"B\"\nhome = [\"p1\"]\n\
         [[setup]]\nplayers = 2\nhouses = [\"a\", \"b\"]\n",
    );
    for y in 0..height {
        for x in 0..width {
            let mut army = Vec::new();
            if x > 0 {
                army.push(id(x - 1, y));
            }
            if x + 1 < width {
                army.push(id(x + 1, y));
            }
            if y > 0 {
                army.push(id(x, y - 1));
            }
            if y + 1 < height {
                army.push(id(x, y + 1));
            }
            let list: Vec<String> = army.iter().map(|a| format!("\"{a}\"")).collect();
            let _ = writeln!(
                toml,
                "[[province]]\nid = \"{}\"\nname = \"Cell {}\"\nkind = \"land\"\nsupply = {}\narmy = [{}]",
                id(x, y),
                y * width + x,
                y * width + x < 2,
                list.join(", ")
            );
        }
    }
    let variant = parse_variant("grid.toml", &toml).expect("generated grid");
    let mut position = Position::empty(&variant, corbeau::judge::Phase::first(1));
    for (n, p) in variant
        .province_ids()
        .enumerate()
        .filter(|(n, _)| n % 2 == 0)
        .take(units)
    {
        position.units.push(corbeau::judge::Unit {
            owner: Owner::House(corbeau::map::HouseId((n / 2 % 2) as u8)),
            kind: corbeau::map::UnitKind::Army,
            region: variant.province(p).region,
            name: None,
        });
    }
    (variant, position)
}

fn scaling(budget: Duration) {
    for units in [10, 100, 1_000, 10_000] {
        let (variant, position) = grid(units);
        let mut rng = Lcg(units as u64);
        let set = given(&variant, &random_orders(&variant, &position, &mut rng));
        let (runs, secs) = time(budget, || {
            black_box(adjudicate(&variant, &position, &set));
        });
        let per = secs / runs as f64;
        println!(
            "grid, {units:>6} units ({} provinces): {:>10.1} µs per phase, {:.0} orders/s",
            variant.provinces.len(),
            per * 1e6,
            set.len() as f64 / per
        );
    }
}
