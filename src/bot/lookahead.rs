//! The bot's movement phase: the yardstick's plans improved by looking ahead with the judge.
//!
//! The other houses' orders are predicted by the yardstick itself, drawn with a few seeds of
//! its own; each candidate set of orders for the house is adjudicated against every
//! prediction, and scored by the position it leaves: centres held and taken, units kept,
//! and the values of the provinces the units stand in (the next phases' prospects). The
//! search starts from the best of a few yardstick plans, then changes one unit at a time
//! (or a move with a support for it) while that raises the expected score, within a fixed
//! number of adjudications: a fixed count, not a clock, so that the same seed gives the
//! same orders on every machine.

use crate::judge::{Edition, GivenOrder, Position, Season, Unit, adjudicate_under};
use crate::map::{HouseId, Owner, RegionId, Variant};
use crate::order::{Instruction, Order};

use super::movement;
use super::value::Values;
use super::{Orders, Rng, location};

/// Predictions of the other houses' orders each candidate is played against.
const SAMPLES: u64 = 2;
/// Yardstick plans of the house's own the search may start from (the first with the seed
/// given, the others with seeds drawn from it).
const STARTS: u64 = 3;
/// At most this many adjudications a decision: the time it costs grows with it. At about
/// 25 to 50 microseconds an adjudication, it keeps a decision near 10 ms at worst.
const BUDGET: usize = 220;

/// What a unit kept on the board is worth, against a centre.
const UNIT: f64 = 5.0;
/// A dislodged unit may still retreat: worth a little.
const DISLODGED: f64 = 1.0;
/// A centre the house will own if the position stays: after an autumn, it is owned; after
/// a spring, it is a promise (or a threat) for the autumn.
const CENTRE_AUTUMN: f64 = 12.0;
const CENTRE_SPRING: f64 = 5.0;
/// How much the spread values of the provinces the units stand in count: where they can go
/// next.
const PROSPECT: f64 = 0.1;
/// A change must gain at least this much to be taken, so that noise does not move units.
const GAIN: f64 = 1e-6;

/// The house's movement orders, one for each of its units.
pub(super) fn movement(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    seed: u64,
    edition: Edition,
) -> Vec<Order> {
    let own: Vec<usize> = (0..position.units.len())
        .filter(|&i| position.units[i].owner == Owner::House(house))
        .collect();
    if own.is_empty() {
        return Vec::new();
    }
    let values = Values::new(variant, position, house);
    let mut search = Search {
        variant,
        position,
        house,
        values: &values,
        own: &own,
        samples: predictions(variant, position, house, seed),
        spent: 0,
        edition,
    };
    // The starts: the yardstick's plans for the house, with the seed given and others.
    let mut best: Vec<Order> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    for k in 0..STARTS {
        let s = if k == 0 { seed } else { draw(seed, 100 + k) };
        let mut rng = Rng::new(s, house);
        let plan = movement::plan(variant, position, house, &values, &mut rng);
        if plan.len() != own.len() || (k > 0 && plan == best) {
            continue;
        }
        let score = search.score(&plan);
        if score > best_score {
            best_score = score;
            best = plan;
        }
    }
    if best.len() != own.len() {
        return best;
    }
    search.improve(&mut best, &mut best_score);
    finish(variant, position, &own, best)
}

/// A seed for the `k`-th draw of a decision: never the seed itself, so that a yardstick
/// seated with the same seed is predicted, not read.
fn draw(seed: u64, k: u64) -> u64 {
    let mut rng = Rng(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next();
    rng.next()
}

/// The other houses' orders, as the yardstick would give them, for each sample.
fn predictions(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    seed: u64,
) -> Vec<Vec<GivenOrder>> {
    let mut others: Vec<HouseId> = position
        .units
        .iter()
        .filter_map(|u| match u.owner {
            Owner::House(h) if h != house => Some(h),
            _ => None,
        })
        .collect();
    others.sort_unstable();
    others.dedup();
    let values: Vec<Values> = others
        .iter()
        .map(|&h| Values::new(variant, position, h))
        .collect();
    (0..SAMPLES)
        .map(|k| {
            let s = draw(seed, k);
            others
                .iter()
                .zip(&values)
                .flat_map(|(&h, v)| {
                    let mut rng = Rng::new(s, h);
                    movement::plan(variant, position, h, v, &mut rng)
                        .into_iter()
                        .map(move |order| GivenOrder {
                            house: Some(h),
                            order,
                        })
                })
                .collect()
        })
        .collect()
}

struct Search<'a> {
    variant: &'a Variant,
    position: &'a Position,
    house: HouseId,
    values: &'a Values,
    /// The house's units (indices into `position.units`), in the order of the plan.
    own: &'a [usize],
    samples: Vec<Vec<GivenOrder>>,
    /// Adjudications done so far.
    spent: usize,
    /// The rules the game is played under.
    edition: Edition,
}

impl Search<'_> {
    fn unit(&self, k: usize) -> &Unit {
        &self.position.units[self.own[k]]
    }

    fn exhausted(&self) -> bool {
        self.spent + self.samples.len().max(1) > BUDGET
    }

    /// The mean score of the position the plan leaves, over the predictions.
    fn score(&mut self, plan: &[Order]) -> f64 {
        let mut total = 0.0;
        let samples = self.samples.len().max(1);
        for k in 0..samples {
            let mut given: Vec<GivenOrder> = self.samples.get(k).cloned().unwrap_or_default();
            given.extend(plan.iter().map(|order| GivenOrder {
                house: Some(self.house),
                order: order.clone(),
            }));
            let done = adjudicate_under(self.variant, self.position, &given, self.edition);
            self.spent += 1;
            total += self.worth(&done.after);
        }
        total / samples as f64
    }

    /// What the position after the phase is worth to the house.
    fn worth(&self, after: &Position) -> f64 {
        let v = self.variant;
        let mine = Owner::House(self.house);
        let mut standing: Vec<Option<Owner>> = vec![None; v.provinces.len()];
        let mut score = 0.0;
        for u in &after.units {
            let p = v.province_of(u.region);
            standing[usize::from(p.0)] = Some(u.owner);
            if u.owner == mine {
                score += UNIT + PROSPECT * self.values.of(u.kind, p);
            }
        }
        score += DISLODGED
            * after
                .dislodged
                .iter()
                .filter(|d| d.unit.owner == mine)
                .count() as f64;
        let centre = if self.position.phase.season == Season::Autumn {
            CENTRE_AUTUMN
        } else {
            CENTRE_SPRING
        };
        for (i, province) in v.provinces.iter().enumerate() {
            if !province.supply {
                continue;
            }
            let ours = match standing[i] {
                Some(owner) => owner == mine,
                None => self.position.owners[i] == Some(self.house),
            };
            if ours {
                score += centre;
            }
        }
        score
    }

    /// Changes one unit's order at a time (or a move and a support for it) while that
    /// raises the score, the units nearest to others first, within the budget.
    fn improve(&mut self, plan: &mut Vec<Order>, score: &mut f64) {
        let order = self.by_contact();
        loop {
            let mut better = false;
            for &k in &order {
                if self.exhausted() {
                    return;
                }
                if convoying(&plan[k]) {
                    continue;
                }
                let mut best: Option<(f64, Vec<Order>)> = None;
                for candidate in self.alternatives(plan, k) {
                    if self.exhausted() {
                        break;
                    }
                    let s = self.score(&candidate);
                    if s > *score + GAIN && best.as_ref().is_none_or(|(b, _)| s > *b) {
                        best = Some((s, candidate));
                    }
                }
                if let Some((s, candidate)) = best {
                    *score = s;
                    *plan = candidate;
                    better = true;
                }
            }
            if !better {
                return;
            }
        }
    }

    /// The house's units (positions in the plan) worth searching, the most in contact
    /// with other units first: a unit nobody can meet keeps the yardstick's order.
    fn by_contact(&self) -> Vec<usize> {
        let v = self.variant;
        let mine = Owner::House(self.house);
        let mut near: Vec<u32> = vec![0; v.provinces.len()];
        for u in &self.position.units {
            if u.owner == mine {
                continue;
            }
            let p = v.province_of(u.region);
            near[usize::from(p.0)] += 1;
            for q in super::value::reach(v, u.kind, u.region) {
                near[usize::from(q.0)] += 1;
            }
        }
        let mut contact: Vec<(u32, usize)> = (0..self.own.len())
            .map(|k| {
                let u = self.unit(k);
                let here = near[usize::from(v.province_of(u.region).0)];
                let around: u32 = super::value::reach(v, u.kind, u.region)
                    .iter()
                    .map(|q| near[usize::from(q.0)])
                    .sum();
                (here + around, k)
            })
            .filter(|&(c, _)| c > 0)
            .collect();
        contact.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        contact.into_iter().map(|(_, k)| k).collect()
    }

    /// The plans that differ from `plan` by unit `k`'s order: hold, each move, a support
    /// to hold of an own unit or of an own unit's move it can reach; and each move into a
    /// province another unit stands in, with a support for it by another own unit.
    fn alternatives(&self, plan: &[Order], k: usize) -> Vec<Vec<Order>> {
        let v = self.variant;
        let mine = Owner::House(self.house);
        let unit = self.unit(k);
        let here = v.province_of(unit.region);
        let mut actions: Vec<Instruction> = vec![Instruction::Hold];
        let mut attacks: Vec<RegionId> = Vec::new();
        for to in movement::moves(v, self.position, unit) {
            let p = v.province_of(to);
            if self.values.occupant[usize::from(p.0)]
                .is_some_and(|o| self.position.units[o].owner != mine)
            {
                attacks.push(to);
            }
            actions.push(Instruction::Move {
                to: location(v, to),
                via_convoy: false,
                path: Vec::new(),
            });
        }
        let writer = Orders::new(v);
        for (j, given) in plan.iter().enumerate() {
            if j == k {
                continue;
            }
            let other = self.unit(j);
            let spec = writer.other(other).0;
            match &given.action {
                Instruction::Move {
                    to,
                    via_convoy: false,
                    ..
                } => {
                    if to.province != here
                        && crate::judge::can_support_into(v, self.position, unit, to.province)
                    {
                        actions.push(Instruction::Support {
                            unit: spec,
                            to: Some(*to),
                        });
                    }
                }
                Instruction::Move { .. } => {}
                _ => {
                    let p = v.province_of(other.region);
                    if crate::judge::can_support_into(v, self.position, unit, p) {
                        actions.push(Instruction::Support {
                            unit: spec,
                            to: None,
                        });
                    }
                }
            }
        }
        let mut out: Vec<Vec<Order>> = Vec::new();
        for action in actions {
            if action == plan[k].action {
                continue;
            }
            let mut candidate = plan.to_vec();
            candidate[k] = written(v, unit, action);
            out.push(candidate);
        }
        // An attack with a support: the supporter leaves whatever it was doing.
        for to in attacks {
            let p = v.province_of(to);
            let target = location(v, to);
            for j in 0..self.own.len() {
                if j == k || convoying(&plan[j]) {
                    continue;
                }
                let other = self.unit(j);
                if v.province_of(other.region) == p
                    || !crate::judge::can_support_into(v, self.position, other, p)
                {
                    continue;
                }
                let mut candidate = plan.to_vec();
                candidate[k] = written(
                    v,
                    unit,
                    Instruction::Move {
                        to: target,
                        via_convoy: false,
                        path: Vec::new(),
                    },
                );
                candidate[j] = written(
                    v,
                    other,
                    Instruction::Support {
                        unit: writer.other(unit).0,
                        to: Some(target),
                    },
                );
                if candidate.as_slice() != plan {
                    out.push(candidate);
                }
            }
        }
        out
    }
}

/// An order in a convoy (the army carried or a fleet carrying): left as the yardstick
/// made it, the pair stands or falls together.
fn convoying(order: &Order) -> bool {
    matches!(
        order.action,
        Instruction::Convoy { .. }
            | Instruction::Move {
                via_convoy: true,
                ..
            }
    )
}

/// One order for `unit`, written as the bot writes orders.
fn written(variant: &Variant, unit: &Unit, action: Instruction) -> Order {
    Orders::new(variant).make(unit, action, 1)
}

/// The final orders, numbered in turn; a support of an own unit that does something else
/// becomes a hold (it would change nothing, and would read as a mistake).
fn finish(variant: &Variant, position: &Position, own: &[usize], plan: Vec<Order>) -> Vec<Order> {
    let mut out = Orders::new(variant);
    for (k, order) in plan.iter().enumerate() {
        let action = match &order.action {
            Instruction::Support { unit, to } => {
                let matched = plan.iter().any(|o| {
                    o.unit.at.map(|l| l.province) == unit.at.map(|l| l.province)
                        && match (to, &o.action) {
                            (Some(to), Instruction::Move { to: there, .. }) => {
                                to.province == there.province
                            }
                            (None, Instruction::Move { .. }) => false,
                            (None, _) => true,
                            (Some(_), _) => false,
                        }
                });
                if matched {
                    order.action.clone()
                } else {
                    Instruction::Hold
                }
            }
            other => other.clone(),
        };
        out.push(&position.units[own[k]], action);
    }
    out.list
}
