//! Orders written from their meaning: an order (house, unit, instruction) chosen by a
//! source of choices, and a line that says it in one of the ways the order language
//! allows (grammar/orders.ebnf: French or English verbs, letters or words for kinds, ids or
//! names for provinces, coasts after a slash or in brackets, any arrow). Reading the line
//! back must give the order chosen. Shared by tests/order_spelling.rs (proptest) and the
//! fuzz target `orders` (fuzz/), each with its own source of choices.

#![allow(dead_code)]

use corbeau::map::{ProvinceId, UnitKind, Variant};
use corbeau::order::{Instruction, Location, UnitSpec};

/// A line, and the order it must read as.
#[derive(Debug, Clone)]
pub struct Spelled {
    pub line: String,
    pub house: Option<String>,
    pub unit: UnitSpec,
    pub action: Instruction,
}

/// Where choices come from: `pick(n)` is a number below `n` (`n` ≥ 1).
pub struct Choices<'a> {
    pick: &'a mut dyn FnMut(usize) -> usize,
}

impl<'a> Choices<'a> {
    pub fn new(pick: &'a mut dyn FnMut(usize) -> usize) -> Self {
        Choices { pick }
    }

    fn below(&mut self, n: usize) -> usize {
        if n <= 1 { 0 } else { (self.pick)(n) % n }
    }

    fn yes(&mut self) -> bool {
        self.below(2) == 1
    }

    fn one<'s>(&mut self, options: &[&'s str]) -> &'s str {
        options[self.below(options.len())]
    }

    /// One of `options`, as a player may type it.
    fn keyword(&mut self, options: &[&str]) -> String {
        let word = self.one(options);
        keyword(self, word)
    }
}

const HOLD: &[&str] = &[
    "tient sa position",
    "tient",
    "tenir",
    "tiens",
    "H",
    "hold",
    "holds",
];
const ARROW: &[&str] = &[
    "->",
    " -> ",
    "→",
    " – ",
    " — ",
    " - ",
    " se déplace vers ",
    " va vers ",
    " va ",
    " moves to ",
    " move to ",
    " to ",
];
const SUPPORT: &[&str] = &[
    "soutient", "soutenir", "soutiens", "S", "support", "supports",
];
const CONVOY: &[&str] = &["convoie", "convoient", "convoyer", "C", "convoy", "convoys"];
const RETREAT: &[&str] = &["retraite", "retraiter", "R", "retreat", "retreats"];
const DISBAND: &[&str] = &["dissoudre", "dissous", "disband", "disbands", "remove"];
const BUILD: &[&str] = &["construire", "construit", "build", "builds"];
const WAIVE: &[&str] = &["renoncer", "renonce", "waive", "waives"];
const VIA: &[&str] = &["via convoi", "par convoi", "by convoy", "via convoy"];

/// A keyword as a player may type it: as listed, in capitals or in small letters.
fn keyword(c: &mut Choices<'_>, word: &str) -> String {
    match c.below(3) {
        0 => word.to_string(),
        1 => word.to_uppercase(),
        _ => word.to_lowercase(),
    }
}

/// A province (and maybe one of its coasts) and how it is written.
fn region(c: &mut Choices<'_>, variant: &Variant) -> (Location, String) {
    let id = ProvinceId(u16::try_from(c.below(variant.provinces.len())).unwrap_or(0));
    let province = variant.province(id);
    let mut names = vec![province.id.as_str(), province.name.as_str()];
    names.extend(province.names.iter().map(|(_, n)| n.as_str()));
    let name = c.one(&names);
    let mut written = keyword(c, name);
    let mut location = Location::province(id);
    if !province.coasts.is_empty() && c.yes() {
        let coast = province.coasts[c.below(province.coasts.len())];
        let coast_id = variant.region(coast).coast.clone().unwrap_or_default();
        written = match c.below(3) {
            0 => format!("{written}/{coast_id}"),
            1 => format!("{written}({coast_id})"),
            _ => format!("{written} ({coast_id})"),
        };
        location.coast = Some(coast);
    }
    (location, written)
}

/// A unit and how it is written: by its kind (a letter, maybe numbered, or a word), by a
/// dragon's name, or by its province alone.
fn unit(c: &mut Choices<'_>, variant: &Variant) -> (UnitSpec, String) {
    let dragons: Vec<&str> = variant
        .houses
        .iter()
        .flat_map(|h| h.dragon_names.iter().map(String::as_str))
        .collect();
    let (at, place) = region(c, variant);
    let kind = [UnitKind::Army, UnitKind::Fleet, UnitKind::Dragon][c.below(3)];
    let mut spec = UnitSpec {
        at: Some(at),
        ..UnitSpec::default()
    };
    let written = match c.below(5) {
        0 => place,
        1 if !dragons.is_empty() => {
            let name = c.one(&dragons).to_string();
            spec.name = Some(name.clone());
            if c.yes() {
                spec.kind = Some(UnitKind::Dragon);
                format!("{} {name} {place}", keyword(c, "D"))
            } else {
                format!("{name} {place}")
            }
        }
        2 => {
            spec.kind = Some(kind);
            let words: &[&str] = match kind {
                UnitKind::Army => &["Armée", "Army"],
                UnitKind::Fleet => &["Flotte", "Fleet"],
                UnitKind::Dragon => &["Dragon"],
            };
            format!("{} {place}", c.keyword(words))
        }
        _ => {
            spec.kind = Some(kind);
            let number = if c.yes() {
                let n = c.below(99) + 1;
                spec.number = Some(u32::try_from(n).unwrap_or(1));
                n.to_string()
            } else {
                String::new()
            };
            format!("{}{number} {place}", keyword(c, &kind.letter().to_string()))
        }
    };
    (spec, written)
}

/// An order chosen by `c` on `variant`, and a line that says it.
pub fn spell(c: &mut Choices<'_>, variant: &Variant) -> Spelled {
    let house = (c.below(4) == 0).then(|| {
        let h = &variant.houses[c.below(variant.houses.len())];
        let mut names = vec![h.id.as_str(), h.name.as_str()];
        names.extend(h.aliases.iter().map(String::as_str));
        c.one(&names).to_string()
    });
    let (spec, who) = unit(c, variant);
    let (unit, action, body) = match c.below(9) {
        0 => (
            spec,
            Instruction::Hold,
            format!("{who} {}", c.keyword(HOLD)),
        ),
        1 => {
            let (to, place) = region(c, variant);
            let via_convoy = c.yes();
            let via = if via_convoy {
                format!(" {}", c.keyword(VIA))
            } else {
                String::new()
            };
            let arrow = c.keyword(ARROW);
            (
                spec,
                Instruction::Move {
                    to,
                    via_convoy,
                    path: Vec::new(),
                },
                format!("{who}{arrow}{place}{via}"),
            )
        }
        2 => {
            let (supported, whom) = unit(c, variant);
            let verb = c.keyword(SUPPORT);
            if c.yes() {
                let (to, place) = region(c, variant);
                let arrow = c.keyword(ARROW);
                (
                    spec,
                    Instruction::Support {
                        unit: supported,
                        to: Some(to),
                    },
                    format!("{who} {verb} {whom}{arrow}{place}"),
                )
            } else {
                (
                    spec,
                    Instruction::Support {
                        unit: supported,
                        to: None,
                    },
                    format!("{who} {verb} {whom}"),
                )
            }
        }
        3 => {
            let (convoyed, whom) = unit(c, variant);
            let (to, place) = region(c, variant);
            let arrow = c.keyword(ARROW);
            let verb = c.keyword(CONVOY);
            (
                spec,
                Instruction::Convoy { unit: convoyed, to },
                format!("{who} {verb} {whom}{arrow}{place}"),
            )
        }
        4 => {
            let (to, place) = region(c, variant);
            let verb = c.keyword(RETREAT);
            let towards = match c.below(3) {
                0 => " vers",
                1 => " to",
                _ => "",
            };
            (
                spec,
                Instruction::Retreat { to },
                format!("{who} {verb}{towards} {place}"),
            )
        }
        // A disband or a build: the verb before or after the unit.
        kind @ (5 | 6) => {
            let (verbs, instruction) = if kind == 5 {
                (DISBAND, Instruction::Disband)
            } else {
                (BUILD, Instruction::Build)
            };
            let verb = c.keyword(verbs);
            let line = if c.yes() {
                format!("{verb} {who}")
            } else {
                format!("{who} {verb}")
            };
            (spec, instruction, line)
        }
        7 => (UnitSpec::default(), Instruction::Waive, c.keyword(WAIVE)),
        _ => {
            // The seed's convoy without a verb: the fleet, then the army's move.
            let (convoyed, whom) = unit(c, variant);
            let (to, place) = region(c, variant);
            let arrow = c.keyword(ARROW);
            (
                spec,
                Instruction::Convoy { unit: convoyed, to },
                format!("{who} {whom}{arrow}{place}"),
            )
        }
    };
    let trailer = match c.below(4) {
        0 => ".",
        1 => " ;",
        2 => "  # un commentaire",
        _ => "",
    };
    let line = match &house {
        Some(h) => format!("{h}: {body}{trailer}"),
        None => format!("{body}{trailer}"),
    };
    Spelled {
        line,
        house,
        unit,
        action,
    }
}
