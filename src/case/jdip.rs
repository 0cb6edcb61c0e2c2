//! The jDip DATC text format (`CASE`, `PRESTATE`, `ORDERS`, `POSTSTATE`, …) of the DATC
//! v2.4 file, read into cases. A retreat-phase case lists the moves of the phase before
//! (`PRESTATE_RESULTS`): they tell where each dislodged unit's attacker came from and which
//! provinces a standoff left empty.

use std::sync::Arc;

use crate::judge::{Phase, PhaseKind, Season};
use crate::map::{ProvinceId, Variant};
use crate::order::{Instruction, parse_order};

use super::run::VariantCache;
use super::{Case, CaseOrder};
use crate::position::unit_from_line;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Prestate,
    Dislodged,
    Results,
    Owners,
    Orders,
    Poststate,
    PostDislodged,
}

/// Reads every case of a jDip-format file.
pub fn read_jdip(cache: &mut VariantCache, file: &str, text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    read_jdip_each(cache, file, text, |_, case| cases.push(case))?;
    Ok(cases)
}

/// Reads a jDip-format file case by case, handing each to `each` (with the variants, to
/// run it) as soon as its `END` is read: a batch of thousands of cases is then never held whole in memory. An error stops
/// the reading; the cases before it have been handed over.
pub fn read_jdip_each(
    cache: &mut VariantCache,
    file: &str,
    text: &str,
    mut each: impl FnMut(&mut VariantCache, Case),
) -> Result<(), String> {
    let mut variant_name = "classique".to_string();
    let mut case: Option<Case> = None;
    let mut results: Vec<(bool, String)> = Vec::new();
    let mut section = Section::None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |msg: String| format!("{file}:{line_no}: {msg}");
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "VARIANT_ALL" => {
                variant_name = match rest {
                    "Standard" | "standard" => "classique".to_string(),
                    other => other.to_string(),
                };
                continue;
            }
            "CASE" => {
                let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                case = Some(Case {
                    id: id.to_string(),
                    title: title.trim().trim_matches(['(', ')']).to_string(),
                    sources: vec![format!("DATC v2.4 {id}")],
                    variant: variant_name.clone(),
                    steps: vec![Vec::new()],
                    file: file.to_string(),
                    line: line_no,
                    ..Case::default()
                });
                results.clear();
                section = Section::None;
                continue;
            }
            _ => {}
        }
        let Some(current) = case.as_mut() else {
            return Err(at(format!("`{keyword}` before any CASE")));
        };
        section = match keyword {
            "PRESTATE_SETPHASE" => {
                current.phase =
                    Some(jdip_phase(rest).ok_or_else(|| at(format!("unknown phase `{rest}`")))?);
                continue;
            }
            "PRESTATE" => {
                // Sized for a full board at once: a batch file lists thousands of them.
                current.units.reserve(34);
                Section::Prestate
            }
            "PRESTATE_DISLODGED" => Section::Dislodged,
            "PRESTATE_RESULTS" => Section::Results,
            "PRESTATE_SUPPLYCENTER_OWNERS" => {
                current.owners = Some(Vec::new());
                Section::Owners
            }
            "ORDERS" => {
                if let Some(step) = current.steps.last_mut() {
                    step.reserve(34);
                }
                Section::Orders
            }
            "POSTSTATE" => {
                current.after = Some(Vec::new());
                Section::Poststate
            }
            "POSTSTATE_DISLODGED" => {
                current.after.get_or_insert_with(Vec::new);
                Section::PostDislodged
            }
            "POSTSTATE_SAME" => {
                current.after = Some(current.units.clone());
                Section::None
            }
            "END" => {
                let mut done = case
                    .take()
                    .ok_or_else(|| at("END without CASE".to_string()))?;
                if !results.is_empty() {
                    let variant = cache.get(&done.variant)?;
                    apply_results(&variant, &mut done, &results).map_err(&at)?;
                }
                each(cache, done);
                section = Section::None;
                continue;
            }
            _ => {
                let body = line.to_string();
                match section {
                    Section::Prestate => current.units.push(body),
                    Section::Dislodged => current.dislodged.push((body, None)),
                    Section::Results => {
                        let (flag, order) = body.split_once(':').ok_or_else(|| {
                            at(format!(
                                "expected `SUCCESS: …` or `FAILURE: …`, found `{body}`"
                            ))
                        })?;
                        results.push((flag.trim() == "SUCCESS", order.trim().to_string()));
                    }
                    Section::Owners => {
                        let (house, unit) = body.split_once(':').ok_or_else(|| {
                            at(format!("expected `House: A province`, found `{body}`"))
                        })?;
                        let province = unit.split_whitespace().last().unwrap_or("");
                        if let Some(owners) = current.owners.as_mut() {
                            owners.push(format!("{}: {province}", house.trim()));
                        }
                    }
                    Section::Orders => {
                        if let Some(step) = current.steps.last_mut() {
                            step.push(CaseOrder {
                                text: body,
                                expect: None,
                                line: line_no,
                            });
                        }
                    }
                    Section::Poststate => current.after.get_or_insert_with(Vec::new).push(body),
                    Section::PostDislodged => current.after_dislodged.push(body),
                    Section::None => return Err(at(format!("unexpected line `{body}`"))),
                }
                continue;
            }
        };
    }
    if let Some(open) = case {
        return Err(format!("{file}:{}: case {} has no END", open.line, open.id));
    }
    Ok(())
}

fn jdip_phase(text: &str) -> Option<Phase> {
    let (season, rest) = text.split_once(char::is_whitespace)?;
    let (year, kind) = rest.split_once(',')?;
    let kind = match kind.trim().to_ascii_lowercase().as_str() {
        "movement" => PhaseKind::Movement,
        "retreat" => PhaseKind::Retreat,
        "adjustment" => PhaseKind::Adjustment,
        _ => return None,
    };
    let season = match (season.to_ascii_lowercase().as_str(), kind) {
        (_, PhaseKind::Adjustment) => Season::Winter,
        ("spring", _) => Season::Spring,
        ("fall" | "autumn", _) => Season::Autumn,
        _ => return None,
    };
    Some(Phase {
        year: year.trim().parse().ok()?,
        season,
        kind,
    })
}

/// From the moves of the phase before: each dislodged unit's attacker, and the provinces
/// that two or more failed moves aimed at and that stay empty (standoffs).
fn apply_results(
    variant: &Variant,
    case: &mut Case,
    results: &[(bool, String)],
) -> Result<(), String> {
    let source: Arc<str> = Arc::from(case.file.as_str());
    // (dislodges by land, from, to, succeeded)
    let mut moves: Vec<(bool, ProvinceId, ProvinceId, bool)> = Vec::new();
    for (succeeded, text) in results {
        let Some(order) =
            parse_order(variant, &source, case.line, text).map_err(|e| e.to_string())?
        else {
            continue;
        };
        if let (Instruction::Move { to, via_convoy, .. }, Some(from)) =
            (&order.action, order.unit.at)
        {
            // A unit dislodged by a convoyed army may retreat where the army came from.
            let by_land = !via_convoy
                && (variant.army_adjacency[usize::from(from.province.0)].contains(&to.province)
                    || variant.dragon_adjacency[usize::from(from.province.0)]
                        .contains(&to.province)
                        && order.unit.kind != Some(crate::map::UnitKind::Army));
            moves.push((
                *succeeded && by_land,
                from.province,
                to.province,
                *succeeded,
            ));
        }
    }
    let occupied: Vec<ProvinceId> = case
        .units
        .iter()
        .filter_map(|u| unit_from_line(variant, u).ok())
        .map(|u| variant.province_of(u.region))
        .collect();
    for (unit, from) in case.dislodged.iter_mut() {
        let at = unit_from_line(variant, unit)?;
        let province = variant.province_of(at.region);
        *from = moves
            .iter()
            .find(|(by_land, _, to, _)| *by_land && *to == province)
            .map(|(_, origin, _, _)| variant.province(*origin).id.clone());
    }
    let mut contested: Vec<ProvinceId> = Vec::new();
    for &(_, _, to, ok) in &moves {
        let failures = moves.iter().filter(|(_, _, t, k)| !k && *t == to).count();
        if !ok && failures >= 2 && !occupied.contains(&to) && !contested.contains(&to) {
            contested.push(to);
        }
    }
    case.contested = contested
        .iter()
        .map(|&p| variant.province(p).id.clone())
        .collect();
    Ok(())
}
