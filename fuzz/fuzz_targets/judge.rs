//! The adjudicator on the built-in maps: the bytes move the starting units about, give
//! them orders, then play the retreats and adjustments that follow. Every unit gets one
//! outcome, and each next position is one a board can hold.
#![no_main]

#[path = "common.rs"]
mod common;

use std::collections::HashSet;
use std::sync::Arc;

use corbeau::judge::PhaseKind;
use corbeau::judge::{GivenOrder, Position, adjudicate};
use corbeau::map::{Owner, RegionId, UnitKind, Variant};
use corbeau::order::{Instruction, Location, Order, SourcePos, UnitSpec};
use libfuzzer_sys::fuzz_target;

/// Bytes taken one at a time; zeros once spent.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> usize {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                usize::from(b)
            }
            None => 0,
        }
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> Option<T> {
        if from.is_empty() {
            return None;
        }
        let n = (self.next() << 8) | self.next();
        from.get(n % from.len()).copied()
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn location(variant: &Variant, region: RegionId) -> Location {
    let province = variant.province_of(region);
    Location {
        province,
        coast: (variant.province(province).region != region).then_some(region),
    }
}

fn spec(variant: &Variant, kind: UnitKind, region: RegionId) -> UnitSpec {
    UnitSpec {
        kind: Some(kind),
        at: Some(location(variant, region)),
        ..UnitSpec::default()
    }
}

fn order(unit: UnitSpec, action: Instruction) -> GivenOrder {
    GivenOrder {
        house: None,
        order: Order {
            house: None,
            unit,
            action,
            span: SourcePos {
                source: Arc::from("fuzz"),
                line: 1,
                column: 1,
            },
            text: String::new(),
        },
    }
}

/// The starting units moved to places the bytes choose, one unit a province.
fn scrambled(variant: &Variant, bytes: &mut Bytes<'_>) -> Option<Position> {
    let mut position = Position::starting(variant, None)?;
    let regions: Vec<RegionId> = variant.region_ids().collect();
    let moves = bytes.next() % 8;
    for _ in 0..moves {
        let Some(i) = bytes.pick(&(0..position.units.len()).collect::<Vec<_>>()) else {
            break;
        };
        let Some(to) = bytes.pick(&regions) else {
            break;
        };
        let unit = &position.units[i];
        let taken = position
            .units
            .iter()
            .any(|u| variant.province_of(u.region) == variant.province_of(to));
        if !taken && variant.can_stand(unit.kind, to) {
            position.units[i].region = to;
        }
    }
    if bytes.next() % 4 == 0 {
        position
            .units
            .truncate(position.units.len().saturating_sub(bytes.next() % 4));
    }
    Some(position)
}

fn movement_orders(
    variant: &Variant,
    position: &Position,
    bytes: &mut Bytes<'_>,
) -> Vec<GivenOrder> {
    let regions: Vec<RegionId> = variant.region_ids().collect();
    let units: Vec<(UnitKind, RegionId)> =
        position.units.iter().map(|u| (u.kind, u.region)).collect();
    let mut orders = Vec::new();
    let count = bytes.next() % (units.len() + 3);
    for _ in 0..count {
        let Some((kind, region)) = bytes.pick(&units) else {
            break;
        };
        let other = bytes.pick(&units).unwrap_or((kind, region));
        let to = bytes.pick(&regions).unwrap_or(region);
        let action = match bytes.next() % 6 {
            0 => Instruction::Hold,
            1 | 2 => Instruction::Move {
                to: location(variant, to),
                via_convoy: bytes.next() % 4 == 0,
                path: Vec::new(),
            },
            3 => Instruction::Support {
                unit: spec(variant, other.0, other.1),
                to: None,
            },
            4 => Instruction::Support {
                unit: spec(variant, other.0, other.1),
                to: Some(location(variant, to)),
            },
            _ => Instruction::Convoy {
                unit: spec(variant, other.0, other.1),
                to: location(variant, to),
            },
        };
        orders.push(order(spec(variant, kind, region), action));
    }
    orders
}

fn retreat_orders(
    variant: &Variant,
    position: &Position,
    bytes: &mut Bytes<'_>,
) -> Vec<GivenOrder> {
    let regions: Vec<RegionId> = variant.region_ids().collect();
    let mut orders = Vec::new();
    for d in &position.dislodged {
        let unit = spec(variant, d.unit.kind, d.unit.region);
        match bytes.next() % 3 {
            0 => {}
            1 => orders.push(order(unit, Instruction::Disband)),
            _ => {
                let to = bytes.pick(&regions).unwrap_or(d.unit.region);
                orders.push(order(
                    unit,
                    Instruction::Retreat {
                        to: location(variant, to),
                    },
                ));
            }
        }
    }
    orders
}

fn adjustment_orders(
    variant: &Variant,
    position: &Position,
    bytes: &mut Bytes<'_>,
) -> Vec<GivenOrder> {
    let regions: Vec<RegionId> = variant.region_ids().collect();
    let kinds = [UnitKind::Army, UnitKind::Fleet, UnitKind::Dragon];
    let mut orders = Vec::new();
    let count = bytes.next() % 8;
    for _ in 0..count {
        match bytes.next() % 3 {
            0 => {
                if let Some(u) = bytes.pick(
                    &position
                        .units
                        .iter()
                        .map(|u| (u.kind, u.region))
                        .collect::<Vec<_>>(),
                ) {
                    orders.push(order(spec(variant, u.0, u.1), Instruction::Disband));
                }
            }
            1 => {
                let kind = bytes.pick(&kinds).unwrap_or(UnitKind::Army);
                let region = bytes.pick(&regions).unwrap_or(RegionId(0));
                orders.push(order(spec(variant, kind, region), Instruction::Build));
            }
            _ => orders.push(order(UnitSpec::default(), Instruction::Waive)),
        }
    }
    orders
}

/// What any position the judge hands on must be.
fn check_board(variant: &Variant, position: &Position) {
    assert_eq!(position.owners.len(), variant.provinces.len());
    let mut provinces = HashSet::new();
    for unit in &position.units {
        assert!(
            variant.can_stand(unit.kind, unit.region),
            "{unit:?} cannot stand there"
        );
        assert!(
            provinces.insert(variant.province_of(unit.region)),
            "two units in the province of {unit:?}"
        );
        if let Owner::House(h) = unit.owner {
            assert!(usize::from(h.0) < variant.houses.len());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    common::with_variant(data, |variant, rest| {
        let mut bytes = Bytes(rest);
        let Some(mut position) = scrambled(variant, &mut bytes) else {
            return;
        };
        check_board(variant, &position);
        for _ in 0..4 {
            let orders = match position.phase.kind {
                PhaseKind::Movement => movement_orders(variant, &position, &mut bytes),
                PhaseKind::Retreat => retreat_orders(variant, &position, &mut bytes),
                PhaseKind::Adjustment => adjustment_orders(variant, &position, &mut bytes),
            };
            let adjudication = adjudicate(variant, &position, &orders);
            let ordered: Vec<_> = match position.phase.kind {
                PhaseKind::Movement => position.units.iter().collect(),
                PhaseKind::Retreat => position.dislodged.iter().map(|d| &d.unit).collect(),
                PhaseKind::Adjustment => Vec::new(),
            };
            for unit in ordered {
                let reports = adjudication
                    .reports
                    .iter()
                    .filter(|(_, r)| {
                        r.unit == Some((unit.kind, unit.region)) && r.owner == unit.owner
                    })
                    .count();
                assert_eq!(reports, 1, "{unit:?} in {:?}", position.phase);
            }
            for (index, _) in &adjudication.reports {
                assert!(index.is_none_or(|i| i < orders.len()));
            }
            check_board(variant, &adjudication.after);
            if position.phase.kind == PhaseKind::Movement {
                // A movement phase leaves as many units, on the board or dislodged
                // (neutral units dislodged with nowhere to go leave the board).
                let kept = adjudication.after.units.len()
                    + adjudication.after.dislodged.len()
                    + adjudication.disbanded.len();
                assert!(kept >= position.units.len());
            }
            position = adjudication.after;
            if bytes.is_empty() {
                break;
            }
        }
    });
});
