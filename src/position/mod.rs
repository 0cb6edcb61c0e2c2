//! Positions as text: a phase line, then one line per unit, owner list, dislodged unit or
//! contested province (`docs/position-format.md`). The stored game keeps its position in
//! this format; `corbeau adjudicate --position`, `game edit` and the case files read it.
//! Also the phase names of that format (`printemps 298 mouvements`, `S1901M`) and the
//! house names it accepts.

use std::fmt::Write;

use crate::judge::{Dislodged, Garrison, Phase, PhaseKind, Position, Season, Unit};
use crate::map::{HouseId, MapError, MapProblem, Owner, ProvinceId, Variant, fold, nearest_of};
use crate::order::{is_word_char, parse_unit_line};

/// The longest position line read: the longest real one (an `owner` line of every
/// province of a large map) is a few hundred characters.
const MAX_LINE: usize = 4096;

/// A position file line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct PositionError {
    pub file: String,
    pub line: u32,
    pub message: String,
}

/// `spring 1901 movement`, `printemps 298 mouvements`, `winter 1901 adjustment` (a comma
/// as people's texts print it, `printemps 298, mouvements`, is a space), or the short form
/// judges use: `S1901M`, `F1901R`, `W1901A` (in French `P298M`, `A298R`, `H298A`).
pub fn parse_phase(text: &str) -> Option<Phase> {
    let raw: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if let [short] = raw.as_slice() {
        return parse_short_phase(&fold(short));
    }
    let [season, year, kind] = raw.as_slice() else {
        return None;
    };
    let season = match fold(season).as_str() {
        "spring" | "printemps" => Season::Spring,
        "autumn" | "fall" | "automne" => Season::Autumn,
        "winter" | "hiver" => Season::Winter,
        _ => return None,
    };
    let kind = match fold(kind).trim_end_matches('s') {
        "movement" | "move" | "mouvement" => PhaseKind::Movement,
        "retreat" | "retraite" => PhaseKind::Retreat,
        "adjustment" | "ajustement" | "build" => PhaseKind::Adjustment,
        _ => return None,
    };
    // The year as written, digits only: folding would read `-5` as `5`.
    phase_of(season, year, kind)
}

/// A phase that exists: a year of digits only (no sign), adjustments in winter and only
/// then (`winter 1901 movement` is no phase).
fn phase_of(season: Season, year: &str, kind: PhaseKind) -> Option<Phase> {
    if year.is_empty() || year.len() > 9 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if (season == Season::Winter) != (kind == PhaseKind::Adjustment) {
        return None;
    }
    Some(Phase {
        year: year.parse().ok()?,
        season,
        kind,
    })
}

fn parse_short_phase(word: &str) -> Option<Phase> {
    let mut chars = word.chars();
    let season = match chars.next()? {
        's' | 'p' => Season::Spring,
        'f' | 'a' => Season::Autumn,
        'w' | 'h' => Season::Winter,
        _ => return None,
    };
    let kind = match chars.next_back()? {
        'm' => PhaseKind::Movement,
        'r' => PhaseKind::Retreat,
        'a' | 'b' => PhaseKind::Adjustment,
        _ => return None,
    };
    phase_of(season, chars.as_str(), kind)
}

/// The phase as `parse_phase` reads it back.
pub fn format_phase(phase: Phase) -> String {
    phase.to_string()
}

/// The house a name stands for: `neutral`/`neutre`, an id, name or alias, or, for a
/// misspelling (`Germnay`), the one house whose name is clearly nearest.
pub fn house_named(variant: &Variant, name: &str) -> Option<Owner> {
    // A name of ASCII letters and digits folds to its lower case: looked up with no
    // allocation (every line of a batch file names its house).
    let mut buf = [0u8; 32];
    if let Some(lower) = buf
        .get_mut(..name.len())
        .filter(|_| name.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        lower.copy_from_slice(name.as_bytes());
        lower.make_ascii_lowercase();
        if let Ok(folded) = std::str::from_utf8(lower)
            && folded != "neutral"
            && folded != "neutre"
            && let Some(h) = variant.names.house_folded(folded)
        {
            return Some(Owner::House(h));
        }
    }
    let folded = fold(name);
    if folded == "neutral" || folded == "neutre" {
        return Some(Owner::Neutral);
    }
    if let Some(h) = variant.names.house_folded(&folded) {
        return Some(Owner::House(h));
    }
    let folded_names: Vec<(String, HouseId)> = variant
        .house_ids()
        .flat_map(|h| {
            let house = variant.house(h);
            [&house.id, &house.name]
                .into_iter()
                .chain(&house.aliases)
                .map(move |name| (fold(name), h))
        })
        .collect();
    // Strict: a misspelt house is taken for the house, not only suggested.
    nearest_of(
        &folded,
        folded_names.iter().map(|(name, h)| (name.as_str(), *h)),
        0.9,
    )
    .map(Owner::House)
}

/// Reads `House: A lvp` (or `neutral: A prt`) into a unit on the board.
pub fn unit_from_line(variant: &Variant, text: &str) -> Result<Unit, String> {
    // `Italy F gol`: a house without its colon, as some DATC lines have it.
    let fixed;
    let text = match text.split_once(char::is_whitespace) {
        _ if text.contains(':') => text,
        Some((house, rest)) if house_named(variant, house).is_some() => {
            fixed = format!("{house}: {rest}");
            fixed.as_str()
        }
        _ => text,
    };
    let (house, spec) = parse_unit_line(variant, text).map_err(|e| e.to_string())?;
    let house =
        house.ok_or_else(|| format!("`{text}`: the unit needs its house (`Stark: A win`)"))?;
    let owner = house_named(variant, &house).ok_or_else(|| format!("unknown house `{house}`"))?;
    let kind = spec
        .kind
        .ok_or_else(|| format!("`{text}`: the unit needs its kind (A, F or D)"))?;
    if kind == crate::map::UnitKind::Dragon && !variant.names.has_dragons() {
        return Err(format!(
            "`{text}`: variant {} has no dragons (only armies A and fleets F)",
            variant.id
        ));
    }
    let at = spec
        .at
        .ok_or_else(|| format!("`{text}`: the unit needs its province"))?;
    let province = variant.province(at.province);
    let region = match (kind, at.coast) {
        (crate::map::UnitKind::Fleet, Some(coast)) => coast,
        (crate::map::UnitKind::Fleet, None) if !province.coasts.is_empty() => {
            return Err(format!(
                "`{text}`: a fleet in {} needs its coast",
                province.id
            ));
        }
        _ => province.region,
    };
    if !variant.can_stand(kind, region) {
        return Err(format!(
            "`{text}`: a unit of this kind cannot stand in {}",
            province.id
        ));
    }
    Ok(Unit {
        owner,
        kind,
        region,
        name: spec.name,
    })
}

/// A province by id or name.
pub fn province_named(variant: &Variant, name: &str) -> Result<ProvinceId, String> {
    variant
        .names
        .province(name)
        .ok_or_else(|| format!("unknown province `{name}`"))
}

/// Supply centres of an owner line: `Stark: win wha moa`.
pub fn owner_line(variant: &Variant, text: &str) -> Result<(HouseId, Vec<ProvinceId>), String> {
    let (house, list) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}`: expected `House: province province …`"))?;
    let Some(Owner::House(h)) = house_named(variant, house.trim()) else {
        return Err(format!("unknown house `{}`", house.trim()));
    };
    let provinces = list
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|p| province_named(variant, p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((h, provinces))
}

/// `Lannister: cas 1` (or `lannister cas 1`), with `controls` after the strength for a
/// garrison that keeps its centre owned: a garrison line.
pub fn garrison_from_line(variant: &Variant, text: &str) -> Result<Garrison, String> {
    let shape = || format!("`{text}`: expected `House: province strength` (then `controls`)");
    let (house, rest) = match text.split_once(':') {
        Some((h, rest)) => (h.trim(), rest),
        None => text.split_once(char::is_whitespace).ok_or_else(shape)?,
    };
    let owner = house_named(variant, house).ok_or_else(|| format!("unknown house `{house}`"))?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (province, strength, controls) = match words.as_slice() {
        [p, s] => (p, s, false),
        [p, s, c] if fold(c) == "controls" => (p, s, true),
        _ => return Err(shape()),
    };
    let province = province_named(variant, province)?;
    let strength: u8 =
        strength.parse().ok().filter(|&s| s > 0).ok_or_else(|| {
            format!("`{strength}`: a garrison's strength is a number from 1 to 255")
        })?;
    Ok(Garrison {
        owner,
        province,
        strength,
        controls,
    })
}

/// `storm` or `storm 3`: the weather marker's position on the track, by the state there and
/// optionally the position's number (without it: the first position in that state).
pub fn weather_from_line(variant: &Variant, text: &str) -> Result<usize, String> {
    let Some(weather) = &variant.weather else {
        return Err(format!("variant `{}` has no weather", variant.id));
    };
    let mut words = text.split_whitespace();
    let id = words.next().unwrap_or("");
    let Some(state) = weather.states.iter().position(|s| s.id == fold(id)) else {
        let known: Vec<&str> = weather.states.iter().map(|s| s.id.as_str()).collect();
        return Err(format!(
            "unknown weather `{id}` (known: {})",
            known.join(", ")
        ));
    };
    let step = match words.next() {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|&n| weather.track.get(n) == Some(&state))
            .ok_or_else(|| format!("`{n}`: no position of the weather track in `{id}`"))?,
        None => weather
            .track
            .iter()
            .position(|&s| s == state)
            .ok_or_else(|| format!("the weather track never reaches `{id}`"))?,
    };
    if let Some(extra) = words.next() {
        return Err(format!(
            "`{extra}`: expected `weather <state> [<position>]`"
        ));
    }
    Ok(step)
}

/// Every house owns its home centres: the default when a position lists no owners.
pub fn home_owners(variant: &Variant) -> Vec<Option<HouseId>> {
    let mut owners = vec![None; variant.provinces.len()];
    for h in variant.house_ids() {
        for &p in &variant.house(h).home {
            owners[usize::from(p.0)] = Some(h);
        }
    }
    owners
}

/// Reads a position file.
pub fn read_position(variant: &Variant, file: &str, text: &str) -> Result<Position, PositionError> {
    let mut phase = None;
    let mut owners: Option<Vec<Option<HouseId>>> = None;
    let mut units = Vec::new();
    let mut dislodged = Vec::new();
    let mut dislodged_lines = Vec::new();
    let mut unit_lines = Vec::new();
    let mut contested = Vec::new();
    let mut weather = None;
    let mut garrisons: Vec<Garrison> = Vec::new();
    let mut closed = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let error = |message: String| PositionError {
            file: file.to_string(),
            line: n as u32 + 1,
            message,
        };
        if line.chars().count() > MAX_LINE {
            // Not read, and not quoted back: an error message must stay one readable line.
            return Err(error(format!(
                "line too long ({} characters; a position line has at most {MAX_LINE})",
                line.chars().count()
            )));
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "variant" => {
                if fold(rest) != fold(&variant.id) {
                    return Err(error(format!(
                        "this position is for variant `{rest}`, not `{}`",
                        variant.id
                    )));
                }
            }
            "phase" => {
                phase = Some(parse_phase(rest).ok_or_else(|| {
                    error(format!(
                        "unknown phase `{rest}` (e.g. `spring 298 movement`; the year in \
                         digits, adjustments in winter and only then)"
                    ))
                })?)
            }
            "owner" => {
                let (h, provinces) = owner_line(variant, rest).map_err(error)?;
                let list = owners.get_or_insert_with(|| vec![None; variant.provinces.len()]);
                for p in provinces {
                    list[usize::from(p.0)] = Some(h);
                }
            }
            "unit" => {
                units.push(unit_from_line(variant, rest).map_err(error)?);
                unit_lines.push(n as u32 + 1);
            }
            "dislodged" => {
                let (unit, from) = match rest.split_once("<-") {
                    Some((u, f)) => (
                        u.trim(),
                        Some(province_named(variant, f.trim()).map_err(error)?),
                    ),
                    None => (rest, None),
                };
                dislodged.push(Dislodged {
                    unit: unit_from_line(variant, unit).map_err(error)?,
                    attacker_from: from,
                });
                dislodged_lines.push(n as u32 + 1);
            }
            "contested" => {
                for p in rest.split_whitespace() {
                    contested.push(province_named(variant, p).map_err(error)?);
                }
            }
            "weather" => weather = Some(weather_from_line(variant, rest).map_err(error)?),
            "garrison" => {
                let g = garrison_from_line(variant, rest).map_err(error)?;
                if garrisons.iter().any(|x| x.province == g.province) {
                    return Err(error(format!(
                        "two garrisons in {}",
                        variant.province(g.province).id
                    )));
                }
                garrisons.push(g);
            }
            "closed" => {
                for p in rest.split_whitespace() {
                    closed.push(province_named(variant, p).map_err(error)?);
                }
            }
            other => {
                return Err(error(format!(
                    "unknown keyword `{other}` (phase, owner, unit, dislodged, contested, \
                     weather, garrison, closed)"
                )));
            }
        }
    }
    let phase = phase.unwrap_or_else(|| Phase::first(variant.first_year));
    if let (Some(&line), false) = (dislodged_lines.first(), phase.kind == PhaseKind::Retreat) {
        // A dislodged unit waits for its retreat order: in any other phase it would vanish
        // unseen.
        return Err(PositionError {
            file: file.to_string(),
            line,
            message: format!(
                "a dislodged unit belongs to a retreat phase, and this position is of {phase}"
            ),
        });
    }
    let mut seen = vec![false; variant.provinces.len()];
    for (u, &line) in units.iter().zip(&unit_lines) {
        let p = variant.province_of(u.region);
        if std::mem::replace(&mut seen[usize::from(p.0)], true) {
            return Err(PositionError {
                file: file.to_string(),
                line,
                message: format!("two units in {}", variant.province(p).id),
            });
        }
    }
    Ok(Position {
        phase,
        units,
        dislodged,
        contested,
        owners: owners.unwrap_or_else(|| home_owners(variant)),
        weather,
        garrisons,
        closed,
    })
}

/// How position lines name a house: by its name, as people read it, when that name reads
/// back as this house in a unit or owner line (words of letters and digits, no name of
/// another house nor of the neutral forces); else by its id (`Stark <Nord>` is written
/// `stark`: a `:` would end the house, a `#` start a comment). Ids always read back:
/// [`unstorable`] refuses a variant where one would not.
pub fn house_label(variant: &Variant, h: HouseId) -> &str {
    let house = variant.house(h);
    let name = house.name.as_str();
    let plain = name
        .split(' ')
        .all(|w| !w.is_empty() && w.chars().all(is_word_char));
    let folded = fold(name);
    if plain && folded != "neutral" && folded != "neutre" && variant.house_by_name(name) == Some(h)
    {
        name
    } else {
        &house.id
    }
}

/// `Stark: A win`, `Targaryen: D pey Balerion`, `neutral: A prt`: a unit as position and
/// case files write it.
pub fn unit_text(variant: &Variant, unit: &Unit) -> String {
    let owner = match unit.owner {
        Owner::House(h) => house_label(variant, h),
        Owner::Neutral => "neutral",
    };
    let name = unit
        .name
        .as_ref()
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    format!(
        "{owner}: {} {}{name}",
        unit.kind.letter(),
        variant.region_label(unit.region)
    )
}

/// Writes a position in the format `read_position` reads.
pub fn write_position(variant: &Variant, position: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "variant {}", variant.id);
    let _ = writeln!(out, "phase {}", format_phase(position.phase));
    for h in variant.house_ids() {
        let owned: Vec<&str> = variant
            .province_ids()
            .filter(|p| position.owners[usize::from(p.0)] == Some(h))
            .map(|p| variant.province(p).id.as_str())
            .collect();
        if !owned.is_empty() {
            let _ = writeln!(
                out,
                "owner {}: {}",
                house_label(variant, h),
                owned.join(" ")
            );
        }
    }
    // Without any owner line a position reads as every house owning its homes: one empty
    // line keeps a board where nobody owns a centre so.
    if position.owners.iter().all(Option::is_none)
        && let Some(h) = variant.house_ids().next()
    {
        let _ = writeln!(out, "owner {}:", house_label(variant, h));
    }
    for unit in &position.units {
        let _ = writeln!(out, "unit {}", unit_text(variant, unit));
    }
    for d in &position.dislodged {
        let from = d
            .attacker_from
            .map(|p| format!(" <- {}", variant.province(p).id))
            .unwrap_or_default();
        let _ = writeln!(out, "dislodged {}{from}", unit_text(variant, &d.unit));
    }
    if !position.contested.is_empty() {
        let list: Vec<&str> = position
            .contested
            .iter()
            .map(|&p| variant.province(p).id.as_str())
            .collect();
        let _ = writeln!(out, "contested {}", list.join(" "));
    }
    if let Some(step) = position.weather
        && let Some(state) = variant.weather.as_ref().and_then(|w| w.state_at(step))
    {
        let _ = writeln!(out, "weather {} {step}", state.id);
    }
    for g in &position.garrisons {
        let owner = match g.owner {
            Owner::House(h) => house_label(variant, h),
            Owner::Neutral => "neutral",
        };
        let controls = if g.controls { " controls" } else { "" };
        let _ = writeln!(
            out,
            "garrison {owner}: {} {}{controls}",
            variant.province(g.province).id,
            g.strength
        );
    }
    if !position.closed.is_empty() {
        let list: Vec<&str> = position
            .closed
            .iter()
            .map(|&p| variant.province(p).id.as_str())
            .collect();
        let _ = writeln!(out, "closed {}", list.join(" "));
    }
    out
}

/// What of `variant` a stored game could not read back: every house, province, coast and
/// dragon is written in a position line and read again, as the store will write and read
/// the game's position. Each problem has its place in the variant file, like the loader's.
/// Names that do not fit a line are no problem (the id is written instead: [`house_label`]);
/// what cannot be written at all is an id that is no plain word, or a dragon's name.
pub fn unstorable(variant: &Variant) -> Vec<MapProblem> {
    let mut problems = Vec::new();
    let mut problem = |key: String, message: String| problems.push(MapProblem { key, message });
    for h in variant.house_ids() {
        let house = variant.house(h);
        let label = house_label(variant, h);
        let home: Vec<&str> = house
            .home
            .iter()
            .map(|&p| variant.province(p).id.as_str())
            .collect();
        let line = format!("{label}: {}", home.join(" "));
        if owner_line(variant, &line).ok() != Some((h, house.home.clone())) {
            problem(
                format!("[house {}] id", house.id),
                format!(
                    "the house cannot be named in a stored position: neither its name `{}` nor \
                     its id `{}` reads back as this house (an id is one word of lower-case \
                     letters and digits, and no name of another house)",
                    house.name, house.id
                ),
            );
        }
    }
    let Some(first) = variant.house_ids().next() else {
        return problems;
    };
    let label = house_label(variant, first);
    for r in variant.region_ids() {
        let region = variant.region(r);
        let province = variant.province(region.province);
        let kind = if region.coast.is_some() || province.kind == crate::map::ProvinceKind::Sea {
            crate::map::UnitKind::Fleet
        } else {
            crate::map::UnitKind::Army
        };
        let text = format!("{label}: {} {}", kind.letter(), variant.region_label(r));
        if unit_from_line(variant, &text).map(|u| u.region).ok() != Some(r) {
            let key = match &region.coast {
                Some(coast) => format!("[province {}] coasts {coast}", province.id),
                None => format!("[province {}]", province.id),
            };
            problem(
                key,
                format!(
                    "`{}` does not read back as this place in a stored position (an id is one \
                     word of lower-case letters and digits)",
                    variant.region_label(r)
                ),
            );
        }
    }
    let Some(lair) = variant
        .region_ids()
        .find(|&r| variant.can_stand(crate::map::UnitKind::Dragon, r))
    else {
        return problems;
    };
    let dragons = variant
        .house_ids()
        .flat_map(|h| {
            let house = variant.house(h);
            house
                .dragon_names
                .iter()
                .map(move |name| (format!("[house {}] dragon_names", house.id), name))
        })
        .chain(variant.starting_units.iter().filter_map(|u| {
            let key = format!(
                "[unit {} {}] name",
                u.kind.letter(),
                variant.region_label(u.region)
            );
            u.name.as_ref().map(|name| (key, name))
        }));
    for (key, name) in dragons {
        let text = format!("{label}: D {} {name}", variant.region_label(lair));
        if unit_from_line(variant, &text).ok().and_then(|u| u.name) != Some(name.clone()) {
            problem(
                key,
                format!(
                    "the dragon name `{name}` does not read back in a stored position: a \
                     dragon's name is one word of letters and digits, and no word of orders \
                     (`A`, `F`, `D`, `hold`…) nor province name"
                ),
            );
        }
    }
    problems
}

/// [`unstorable`] as the error a variant file with problems gets (`corbeau map check`,
/// `game new`, `game variant`): the file and every problem, with its place.
pub fn check_storable(file: &str, variant: &Variant) -> Result<(), MapError> {
    let problems = unstorable(variant);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(MapError::Invalid {
            file: file.to_string(),
            problems,
        })
    }
}

#[cfg(test)]
mod phase_tests {
    use super::*;

    /// Errors name the line at fault, and never quote back a line of any length.
    #[test]
    fn errors_name_their_line_and_stay_short() {
        let variant = crate::map::load_variant("westeros").expect("westeros");
        let two = "phase spring 298 movement\nunit Stark: A win\n\nunit Lannister: A win\n";
        let e = read_position(&variant, "p", two).expect_err("two units");
        assert_eq!((e.line, e.message.as_str()), (4, "two units in win"));
        let long = format!("phase spring 298 movement\n{}\n", "a".repeat(100_000));
        let e = read_position(&variant, "p", &long).expect_err("too long");
        assert_eq!(e.line, 2);
        assert!(e.to_string().len() < 200, "{e}");
    }

    #[test]
    fn phases_read_in_full_and_short() {
        let spring = Phase {
            year: 299,
            season: Season::Spring,
            kind: PhaseKind::Movement,
        };
        for text in [
            "spring 299 movement",
            "printemps 299 mouvements",
            "printemps 299, mouvements",
            "spring 299,movement",
            "S299M",
            "p299m",
        ] {
            assert_eq!(parse_phase(text), Some(spring), "{text}");
        }
        assert_eq!(
            parse_phase("A298R"),
            Some(Phase {
                year: 298,
                season: Season::Autumn,
                kind: PhaseKind::Retreat
            })
        );
        assert_eq!(
            parse_phase("H1901A").map(|p| p.kind),
            Some(PhaseKind::Adjustment)
        );
        for bad in [
            "S299",
            "X299M",
            "S2x9M",
            "",
            "spring 299",
            "winter -5 adjustment",
            "winter 1901 movement",
            "spring 1901 adjustment",
            "W1901M",
            "S-5M",
            "S+5M",
            "hiver 1901 retraite",
        ] {
            assert_eq!(parse_phase(bad), None, "{bad}");
        }
    }
}

/// A position kept by a game, written in the position format with the variant of the
/// store's scope ([`crate::map::scope`]): readable by people, and by a later corbeau.
pub mod stored {
    use serde::{Deserialize, Deserializer, Serializer, de, ser};

    use super::{Position, read_position, write_position};
    use crate::map::scope;

    pub fn serialize<S: Serializer>(position: &Position, s: S) -> Result<S::Ok, S::Error> {
        let variant = scope::current().ok_or_else(|| ser::Error::custom(scope::NO_SCOPE))?;
        s.serialize_str(&write_position(&variant, position))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let variant = scope::current().ok_or_else(|| de::Error::custom(scope::NO_SCOPE))?;
        let text = String::deserialize(d)?;
        read_position(&variant, "position", &text).map_err(de::Error::custom)
    }
}
