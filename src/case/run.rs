//! Running a case: build its position, adjudicate each phase of orders, and compare every
//! expected outcome and the final position with what the judge decided.

use std::collections::HashMap;
use std::sync::Arc;

use crate::judge::{Adjudication, GivenOrder, Outcome, Phase, Position, adjudicate_under};
use crate::map::{Owner, Variant, load_variant};
use crate::order::parse_order;

use super::{Case, CaseOrder, Expect};
use crate::position::{
    garrison_from_line, home_owners, house_named, owner_line, province_named, unit_from_line,
    unit_text, weather_from_line,
};

/// Variants loaded once for a whole run of cases.
#[derive(Default)]
pub struct VariantCache {
    loaded: HashMap<String, Arc<Variant>>,
}

impl VariantCache {
    /// The variant of this name (`classique`, `Standard` — the DATC's name for it — or a path).
    pub fn get(&mut self, name: &str) -> Result<Arc<Variant>, String> {
        let key = match name {
            "Standard" | "standard" => "classique",
            other => other,
        };
        if let Some(v) = self.loaded.get(key) {
            return Ok(v.clone());
        }
        let variant = Arc::new(load_variant(key).map_err(|e| e.to_string())?);
        self.loaded.insert(key.to_string(), variant.clone());
        Ok(variant)
    }
}

/// How a case went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseStatus {
    Passed,
    /// Each problem says which order or unit and what was expected.
    Failed(Vec<String>),
    Skipped(String),
}

/// A case's id, where it is written, and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseVerdict {
    pub id: String,
    pub file: String,
    pub line: u32,
    pub status: CaseStatus,
}

/// Runs one case (unless it is marked `skip`).
pub fn run_case(cache: &mut VariantCache, case: &Case) -> CaseVerdict {
    let status = match &case.skip {
        Some(reason) => CaseStatus::Skipped(reason.clone()),
        None => match check_case(cache, case) {
            Ok(problems) if problems.is_empty() => CaseStatus::Passed,
            Ok(problems) => CaseStatus::Failed(problems),
            Err(problem) => CaseStatus::Failed(vec![problem]),
        },
    };
    CaseVerdict {
        id: case.id.clone(),
        file: case.file.clone(),
        line: case.line,
        status,
    }
}

/// Builds the starting position a case describes.
pub fn case_position(variant: &Variant, case: &Case) -> Result<Position, String> {
    let phase = case
        .phase
        .unwrap_or_else(|| Phase::first(variant.first_year));
    let mut position = Position::empty(variant, phase);
    position.owners = match &case.owners {
        None => home_owners(variant),
        Some(lines) => {
            let mut owners = vec![None; variant.provinces.len()];
            for line in lines {
                let (h, provinces) = owner_line(variant, line)?;
                for p in provinces {
                    owners[usize::from(p.0)] = Some(h);
                }
            }
            owners
        }
    };
    position.units.reserve(case.units.len());
    // A mark by province: looking for each unit among the ones before would cost the square
    // of their number, in every case of a batch.
    let mut taken = vec![false; variant.provinces.len()];
    for line in &case.units {
        let unit = unit_from_line(variant, line)?;
        let province = variant.province_of(unit.region);
        if std::mem::replace(&mut taken[usize::from(province.0)], true) {
            return Err(format!("two units in {}", variant.province(province).id));
        }
        position.units.push(unit);
    }
    if !case.dislodged.is_empty() && phase.kind != crate::judge::PhaseKind::Retreat {
        return Err(format!(
            "a dislodged unit belongs to a retreat phase, and this case is of {phase}"
        ));
    }
    for (line, from) in &case.dislodged {
        position.dislodged.push(crate::judge::Dislodged {
            unit: unit_from_line(variant, line)?,
            attacker_from: from
                .as_deref()
                .map(|f| province_named(variant, f))
                .transpose()?,
        });
    }
    for p in &case.contested {
        position.contested.push(province_named(variant, p)?);
    }
    if let Some(weather) = &case.weather {
        position.weather = Some(weather_from_line(variant, weather)?);
    }
    for line in &case.garrisons {
        position.garrisons.push(garrison_from_line(variant, line)?);
    }
    for p in &case.closed {
        position.closed.push(province_named(variant, p)?);
    }
    Ok(position)
}

fn check_case(cache: &mut VariantCache, case: &Case) -> Result<Vec<String>, String> {
    let variant = cache.get(&case.variant)?;
    let mut position = case_position(&variant, case)?;
    let mut problems = Vec::new();
    let mut last: Option<Adjudication> = None;
    for step in &case.steps {
        let (given, unreadable) = read_orders(&variant, case, step, &mut problems);
        let adjudication = adjudicate_under(&variant, &position, &given, case.rules);
        check_outcomes(
            case,
            step,
            &given,
            &unreadable,
            &adjudication,
            &mut problems,
        );
        position = adjudication.after.clone();
        last = Some(adjudication);
    }
    if let Some(expected) = &case.after {
        compare_units(
            &variant,
            "units",
            expected,
            position
                .units
                .iter()
                .map(|u| unit_text(&variant, u))
                .collect(),
            &mut problems,
        );
        compare_units(
            &variant,
            "dislodged units",
            &case.after_dislodged,
            position
                .dislodged
                .iter()
                .map(|d| unit_text(&variant, &d.unit))
                .collect(),
            &mut problems,
        );
    }
    if let (Some(expected), Some(last)) = (&case.disbanded, &last) {
        compare_units(
            &variant,
            "disbanded units",
            expected,
            last.disbanded
                .iter()
                .map(|u| unit_text(&variant, u))
                .collect(),
            &mut problems,
        );
    }
    if let Some(expected) = &case.victory {
        check_victory(&variant, &position, expected, &mut problems)?;
    }
    Ok(problems
        .into_iter()
        .map(|p| format!("{}:{} case {}: {p}", case.file, case.line, case.id))
        .collect())
}

/// The houses that win at once on the final position, among all the variant's houses,
/// against the houses a `victory` line names.
fn check_victory(
    variant: &Variant,
    position: &Position,
    expected: &[String],
    problems: &mut Vec<String>,
) -> Result<(), String> {
    let mut named = Vec::new();
    for name in expected {
        match house_named(variant, name) {
            Some(Owner::House(h)) => named.push(h),
            _ => return Err(format!("victory: unknown house `{name}`")),
        }
    }
    let all: Vec<_> = variant.house_ids().collect();
    let reached = crate::judge::reaching_victory(variant, position, &all, variant.victory.centres);
    let mut winners = if reached.is_empty() {
        Vec::new()
    } else {
        crate::judge::leaders(variant, position, &reached)
    };
    winners.sort();
    named.sort();
    if winners != named {
        let ids = |list: &[crate::map::HouseId]| {
            list.iter()
                .map(|&h| variant.house(h).id.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        problems.push(format!(
            "victory: expected [{}], got [{}]",
            ids(&named),
            ids(&winners)
        ));
    }
    Ok(())
}

/// Each case order parsed with its house; `unreadable` marks the step's orders that did
/// not parse (they stand for no order, which is what an illegal order amounts to).
fn read_orders(
    variant: &Variant,
    case: &Case,
    step: &[CaseOrder],
    problems: &mut Vec<String>,
) -> (Vec<GivenOrder>, Vec<Option<String>>) {
    let source: Arc<str> = Arc::from(case.file.as_str());
    let mut given = Vec::with_capacity(step.len());
    let mut unreadable = Vec::with_capacity(step.len());
    for order in step {
        match parse_order(variant, &source, order.line, &order.text) {
            Ok(Some(parsed)) => {
                // A case lists its orders house by house: the order before most often
                // names the same house, already looked up.
                let same = given.last().filter(|g: &&GivenOrder| {
                    g.house.is_some() && g.order.house.is_some() && g.order.house == parsed.house
                });
                let named = match (same, parsed.house.as_deref()) {
                    (Some(last), _) => last.house.map(|h| Some(Owner::House(h))),
                    (None, name) => name.map(|h| house_named(variant, h)),
                };
                let house = match named {
                    None => None,
                    Some(Some(Owner::House(h))) => Some(h),
                    Some(_) => {
                        problems.push(format!("`{}`: unknown house", order.text));
                        None
                    }
                };
                given.push(GivenOrder {
                    house,
                    order: parsed,
                });
                unreadable.push(None);
            }
            Ok(None) => unreadable.push(Some("empty order".to_string())),
            Err(e) => unreadable.push(Some(e.to_string())),
        }
    }
    (given, unreadable)
}

fn check_outcomes(
    case: &Case,
    step: &[CaseOrder],
    given: &[GivenOrder],
    unreadable: &[Option<String>],
    adjudication: &Adjudication,
    problems: &mut Vec<String>,
) {
    let _ = case;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; given.len()];
    for (index, report) in &adjudication.reports {
        if let Some(i) = index {
            outcomes[*i] = Some(report.outcome.clone());
        }
    }
    for rejected in &adjudication.rejected {
        outcomes[rejected.order] = Some(Outcome::Illegal(rejected.illegal.clone()));
    }
    let mut next_given = 0;
    for (order, unread) in step.iter().zip(unreadable) {
        let outcome = match unread {
            Some(error) => {
                if !matches!(order.expect, Some(Expect::Fails(None))) {
                    problems.push(format!(
                        "line {}: `{}` does not parse: {error}",
                        order.line, order.text
                    ));
                }
                continue;
            }
            None => {
                next_given += 1;
                outcomes[next_given - 1].clone()
            }
        };
        let Some(expect) = &order.expect else {
            continue;
        };
        let got = outcome.map_or_else(|| "no outcome".to_string(), |o| o.code());
        let ok = match expect {
            Expect::Succeeds => got == "succeeded",
            Expect::Fails(None) => got != "succeeded",
            Expect::Fails(Some(code)) => {
                got == *code || (code == "illegal" && got.starts_with("illegal:"))
            }
        };
        if !ok {
            let wanted = match expect {
                Expect::Succeeds => "succeeds".to_string(),
                Expect::Fails(None) => "fails".to_string(),
                Expect::Fails(Some(code)) => format!("fails ({code})"),
            };
            problems.push(format!(
                "line {}: `{}`: expected {wanted}, got {got}",
                order.line, order.text
            ));
        }
    }
}

fn compare_units(
    variant: &Variant,
    what: &str,
    expected: &[String],
    mut actual: Vec<String>,
    problems: &mut Vec<String>,
) {
    let mut wanted = Vec::new();
    for line in expected {
        match unit_from_line(variant, line) {
            Ok(unit) => wanted.push(unit_text(variant, &unit)),
            Err(e) => {
                problems.push(format!("expected {what}: {e}"));
                return;
            }
        }
    }
    // Dragon names are compared only when the case gives them.
    let strip = |s: &String| s.split(' ').take(3).collect::<Vec<_>>().join(" ");
    wanted.sort();
    actual.sort();
    let missing: Vec<&String> = wanted
        .iter()
        .filter(|w| !actual.iter().any(|a| a == *w || strip(a) == **w))
        .collect();
    let extra: Vec<&String> = actual
        .iter()
        .filter(|a| !wanted.iter().any(|w| *a == w || strip(a) == *w))
        .collect();
    if !missing.is_empty() || !extra.is_empty() || wanted.len() != actual.len() {
        problems.push(format!(
            "{what}: expected [{}], got [{}]",
            wanted.join("; "),
            actual.join("; ")
        ));
    }
}

/// One phase of a case, ready to adjudicate: the position and the parsed orders.
pub type CaseStep = (Position, Vec<GivenOrder>);

/// The positions and parsed orders of every phase of a case; the phases before the last
/// are adjudicated once, to find the positions after them. For timing the judge alone.
pub fn case_steps(
    cache: &mut VariantCache,
    case: &Case,
) -> Result<(Arc<Variant>, Vec<CaseStep>), String> {
    let variant = cache.get(&case.variant)?;
    let mut position = Some(case_position(&variant, case)?);
    let mut steps = Vec::with_capacity(case.steps.len());
    let mut problems = Vec::new();
    for (n, step) in case.steps.iter().enumerate() {
        let Some(current) = position.take() else {
            break;
        };
        let (given, _) = read_orders(&variant, case, step, &mut problems);
        if n + 1 < case.steps.len() {
            position = Some(adjudicate_under(&variant, &current, &given, case.rules).after);
        }
        steps.push((current, given));
    }
    match problems.first() {
        Some(p) => Err(p.clone()),
        None => Ok((variant, steps)),
    }
}
