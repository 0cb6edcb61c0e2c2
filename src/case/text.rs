//! The project's case format: one keyword a line, a case from `case` to `end`.
//! See `docs/case-format.md`.

use std::fmt::Write;

use super::{Case, CaseOrder, Expect};
use crate::position::{format_phase, parse_phase};

/// Reads every case of a file; errors name the file and line.
pub fn read_cases(file: &str, text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let mut current: Option<Case> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let at = |msg: &str| format!("{file}:{line_no}: {msg}");
        if keyword == "case" {
            if current.is_some() {
                return Err(at("`case` inside a case: the previous one lacks `end`"));
            }
            let (id, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if id.is_empty() {
                return Err(at("`case` needs an id"));
            }
            current = Some(Case {
                id: id.to_string(),
                title: title.trim().to_string(),
                steps: vec![Vec::new()],
                file: file.to_string(),
                line: line_no,
                ..Case::default()
            });
            continue;
        }
        let Some(case) = current.as_mut() else {
            return Err(at(&format!("`{keyword}` outside a case (missing `case`?)")));
        };
        match keyword {
            "source" => case.sources.push(rest.to_string()),
            "variant" => case.variant = rest.to_string(),
            "rules" => {
                case.rules = rest
                    .parse()
                    .map_err(|_| at(&format!("unknown rule edition `{rest}`")))?
            }
            "phase" => {
                case.phase =
                    Some(parse_phase(rest).ok_or_else(|| at(&format!("unknown phase `{rest}`")))?)
            }
            "owner" => case
                .owners
                .get_or_insert_with(Vec::new)
                .push(rest.to_string()),
            "unit" => case.units.push(rest.to_string()),
            "dislodged" => {
                let (unit, from) = match rest.split_once("<-") {
                    Some((u, f)) => (u.trim(), Some(f.trim().to_string())),
                    None => (rest, None),
                };
                case.dislodged.push((unit.to_string(), from));
            }
            "contested" => case
                .contested
                .extend(rest.split_whitespace().map(str::to_string)),
            "weather" => case.weather = Some(rest.to_string()),
            "garrison" => case.garrisons.push(rest.to_string()),
            "closed" => case
                .closed
                .extend(rest.split_whitespace().map(str::to_string)),
            "victory" => case.victory = Some(rest.split_whitespace().map(str::to_string).collect()),
            "order" => {
                let (text, expect) =
                    match rest.rsplit_once("=>") {
                        Some((t, e)) => (
                            t.trim(),
                            Some(parse_expect(e.trim()).ok_or_else(|| {
                                at(&format!("unknown expectation `{}`", e.trim()))
                            })?),
                        ),
                        None => (rest, None),
                    };
                if let Some(step) = case.steps.last_mut() {
                    step.push(CaseOrder {
                        text: text.to_string(),
                        expect,
                        line: line_no,
                    });
                }
            }
            "next" => case.steps.push(Vec::new()),
            "after" => {
                let list = case.after.get_or_insert_with(Vec::new);
                if !rest.is_empty() {
                    list.push(rest.to_string());
                }
            }
            "after-dislodged" => case.after_dislodged.push(rest.to_string()),
            "disbanded" => {
                let list = case.disbanded.get_or_insert_with(Vec::new);
                if !rest.is_empty() {
                    list.push(rest.to_string());
                }
            }
            "skip" => case.skip = Some(rest.to_string()),
            "end" => {
                if case.variant.is_empty() {
                    return Err(at(&format!("case {} names no variant", case.id)));
                }
                if let Some(case) = current.take() {
                    cases.push(case);
                }
            }
            other => return Err(at(&format!("unknown keyword `{other}`"))),
        }
    }
    if let Some(case) = current {
        return Err(format!(
            "{file}:{}: case {} has no `end`",
            case.line, case.id
        ));
    }
    Ok(cases)
}

fn parse_expect(text: &str) -> Option<Expect> {
    let mut words = text.split_whitespace();
    match words.next()? {
        "succeeds" => Some(Expect::Succeeds),
        "fails" => Some(Expect::Fails(words.next().map(str::to_string))),
        _ => None,
    }
}

/// Writes cases in the project's format.
pub fn write_cases(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        let _ = writeln!(out, "case {} {}", case.id, case.title);
        for source in &case.sources {
            let _ = writeln!(out, "source {source}");
        }
        let _ = writeln!(out, "variant {}", case.variant);
        if !case.rules.is_default() {
            let _ = writeln!(out, "rules {}", case.rules);
        }
        if let Some(phase) = case.phase {
            let _ = writeln!(out, "phase {}", format_phase(phase));
        }
        if let Some(skip) = &case.skip {
            let _ = writeln!(out, "skip {skip}");
        }
        for owner in case.owners.iter().flatten() {
            let _ = writeln!(out, "owner {owner}");
        }
        for unit in &case.units {
            let _ = writeln!(out, "unit {unit}");
        }
        for (unit, from) in &case.dislodged {
            match from {
                Some(from) => {
                    let _ = writeln!(out, "dislodged {unit} <- {from}");
                }
                None => {
                    let _ = writeln!(out, "dislodged {unit}");
                }
            }
        }
        if !case.contested.is_empty() {
            let _ = writeln!(out, "contested {}", case.contested.join(" "));
        }
        if let Some(weather) = &case.weather {
            let _ = writeln!(out, "weather {weather}");
        }
        for garrison in &case.garrisons {
            let _ = writeln!(out, "garrison {garrison}");
        }
        if !case.closed.is_empty() {
            let _ = writeln!(out, "closed {}", case.closed.join(" "));
        }
        for (n, step) in case.steps.iter().enumerate() {
            if n > 0 {
                let _ = writeln!(out, "next");
            }
            for order in step {
                match &order.expect {
                    None => {
                        let _ = writeln!(out, "order {}", order.text);
                    }
                    Some(Expect::Succeeds) => {
                        let _ = writeln!(out, "order {} => succeeds", order.text);
                    }
                    Some(Expect::Fails(None)) => {
                        let _ = writeln!(out, "order {} => fails", order.text);
                    }
                    Some(Expect::Fails(Some(why))) => {
                        let _ = writeln!(out, "order {} => fails {why}", order.text);
                    }
                }
            }
        }
        if let Some(after) = &case.after {
            if after.is_empty() {
                let _ = writeln!(out, "after");
            }
            for unit in after {
                let _ = writeln!(out, "after {unit}");
            }
            for unit in &case.after_dislodged {
                let _ = writeln!(out, "after-dislodged {unit}");
            }
        }
        if let Some(disbanded) = &case.disbanded {
            if disbanded.is_empty() {
                let _ = writeln!(out, "disbanded");
            }
            for unit in disbanded {
                let _ = writeln!(out, "disbanded {unit}");
            }
        }
        if let Some(victory) = &case.victory {
            let _ = writeln!(out, "victory {}", victory.join(" "));
        }
        let _ = writeln!(out, "end\n");
    }
    out
}
