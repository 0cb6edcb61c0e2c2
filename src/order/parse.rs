//! The order parser: nom 8, one function per rule of `grammar/orders.ebnf`, with the
//! rule's name (lexical rules are in `token.rs`). It never panics: no indexing, and every
//! failure becomes a located `OrderError` at the module boundary.

use std::sync::Arc;

use nom::Parser;
use nom::branch::alt;
use nom::combinator::{cut, map, opt};

use crate::map::{ProvinceId, UnitKind, Variant, fold};

use super::ast::{Instruction, Location, Order, SourcePos, UnitSpec};
use super::error::{Expectation, OrderError, Suggestion};
use super::token::{
    Input, Lexicon, PError, PResult, Problem, coast_name, expected, expecting, fail, is_reserved,
    keyword, nearest_verb, province, symbol,
};

/// Lines longer than this (in characters) are refused before parsing.
pub const MAX_LINE_CHARS: usize = 1000;

/// Reads one order line. `Ok(None)` for a blank or comment-only line.
pub fn parse_order(
    variant: &Variant,
    source: &Arc<str>,
    line_no: u32,
    line: &str,
) -> Result<Option<Order>, OrderError> {
    read_order(&Lexicon::new(variant), source, line_no, line)
}

/// Reads every non-blank, non-comment line of an order text; `source` names it in errors.
pub fn parse_orders(variant: &Variant, source: &str, text: &str) -> Vec<Result<Order, OrderError>> {
    let lexicon = Lexicon::new(variant);
    let source: Arc<str> = Arc::from(source);
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
            read_order(&lexicon, &source, line_no, line).transpose()
        })
        .collect()
}

/// Reads a unit line of a position (`England: F stp/sc`, `Targaryen: D pey Balerion`):
/// the house as written, if any, and the unit. The unit's kind is always known: a dragon's
/// name without a kind (`Targaryen: Balerion pey`) gives a dragon. Errors are located on
/// line 1 of source `position`; `OrderError::relocated` moves them.
pub fn parse_unit_line(
    variant: &Variant,
    text: &str,
) -> Result<(Option<String>, UnitSpec), OrderError> {
    let lexicon = Lexicon::new(variant);
    if let Some(found) = quick_unit_line(&lexicon, text) {
        return Ok(found);
    }
    let source: Arc<str> = Arc::from("position");
    check_length(&source, 1, text)?;
    let input = Input::new(text, &lexicon);
    let (house, mut unit) = match position_line(input) {
        Ok((_, found)) => found,
        Err(e) => return Err(located(e, &lexicon, &source, 1, text)),
    };
    if unit.kind.is_none() && unit.name.is_some() {
        unit.kind = Some(UnitKind::Dragon);
    }
    if unit.kind.is_none() || unit.at.is_none() {
        let problem = if unit.kind.is_none() {
            Expectation::Unit
        } else {
            Expectation::Province
        };
        return Err(OrderError::Expected {
            at: span(&source, 1, column_of(text, text.trim_start())),
            expected: problem,
            found: text.trim().to_string(),
            hint: None,
        });
    }
    Ok((house, unit))
}

fn read_order(
    lexicon: &Lexicon<'_>,
    source: &Arc<str>,
    line_no: u32,
    line: &str,
) -> Result<Option<Order>, OrderError> {
    check_length(source, line_no, line)?;
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let read = match quick_order(lexicon, trimmed) {
        Some(found) => Ok(found),
        None => order_line(Input::new(line, lexicon)).map(|(_, found)| found),
    };
    match read {
        Ok((house, unit, action)) => Ok(Some(Order {
            house,
            unit,
            action,
            span: span(source, line_no, column_of(line, trimmed)),
            text: order_text(line),
        })),
        Err(e) => Err(located(e, lexicon, source, line_no, line)),
    }
}

// ---------------------------------------------------------------------------------------
// The usual shapes, read in one pass

// Batch files are almost all written as `England: F nth - nwy`: those lines are read word
// by word here, with no allocation but the house's name, and give exactly what the grammar
// below would. Anything else (another spelling, a coast, a comment, a dragon, a name of
// several words, any doubt) returns `None` and goes to the grammar, which also gives the
// errors with their line and column.

/// `House: K prov` (the house optional): a unit line of a position.
fn quick_unit_line(lex: &Lexicon<'_>, text: &str) -> Option<(Option<String>, UnitSpec)> {
    let mut words = quick_words(lex, text)?;
    let (house, unit) = quick_house_and_unit(lex, &mut words)?;
    if words.next().is_some() {
        return None;
    }
    Some((house.map(str::to_string), unit))
}

/// `[House:] K prov` then `H`, `- prov`, `S K prov [- prov]` or `C K prov - prov`.
fn quick_order(lex: &Lexicon<'_>, line: &str) -> Option<(Option<String>, UnitSpec, Instruction)> {
    let mut words = quick_words(lex, line)?;
    let (house, unit) = quick_house_and_unit(lex, &mut words)?;
    let action = match words.next()? {
        "H" | "h" => Instruction::Hold,
        "-" => Instruction::Move {
            to: quick_place(lex, words.next()?)?,
            via_convoy: false,
            path: Vec::new(),
        },
        "S" | "s" => {
            let unit = quick_unit(lex, &mut words)?;
            let to = match words.next() {
                None => None,
                Some("-") => Some(quick_place(lex, words.next()?)?),
                Some(_) => return None,
            };
            Instruction::Support { unit, to }
        }
        "C" | "c" => {
            let unit = quick_unit(lex, &mut words)?;
            if words.next()? != "-" {
                return None;
            }
            Instruction::Convoy {
                unit,
                to: quick_place(lex, words.next()?)?,
            }
        }
        _ => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some((house.map(str::to_string), unit, action))
}

/// The words of a line made only of ASCII letters, digits, blanks, colons and hyphens, on
/// a variant without dragons (whose names the grammar weighs against provinces).
fn quick_words<'t>(lex: &Lexicon<'_>, text: &'t str) -> Option<std::str::SplitAsciiWhitespace<'t>> {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'\t' | b':' | b'-' | b'/'));
    (plain && !lex.has_dragons && text.len() <= MAX_LINE_CHARS)
        .then(|| text.split_ascii_whitespace())
}

fn quick_house_and_unit<'t>(
    lex: &Lexicon<'_>,
    words: &mut std::str::SplitAsciiWhitespace<'t>,
) -> Option<(Option<&'t str>, UnitSpec)> {
    let first = words.next()?;
    match first.strip_suffix(':') {
        Some(house) if !house.is_empty() && house.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Some((Some(house), quick_unit(lex, words)?))
        }
        Some(_) => None,
        None => Some((None, quick_typed_unit(lex, first, words.next()?)?)),
    }
}

fn quick_unit(
    lex: &Lexicon<'_>,
    words: &mut std::str::SplitAsciiWhitespace<'_>,
) -> Option<UnitSpec> {
    let kind = words.next()?;
    quick_typed_unit(lex, kind, words.next()?)
}

/// `A lon`, `F nth`: the kind's letter alone and a province of one word.
fn quick_typed_unit(lex: &Lexicon<'_>, kind: &str, place: &str) -> Option<UnitSpec> {
    let kind = match kind {
        "A" | "a" => UnitKind::Army,
        "F" | "f" => UnitKind::Fleet,
        _ => return None,
    };
    Some(UnitSpec {
        kind: Some(kind),
        number: None,
        name: None,
        at: Some(quick_place(lex, place)?),
    })
}

/// A province written as one word of ASCII letters that no longer name starts with and
/// that is no keyword, with its coast after a slash if any (`stp/nc`).
fn quick_place(lex: &Lexicon<'_>, word: &str) -> Option<Location> {
    let (name, coast) = match word.split_once('/') {
        Some((name, coast)) => (name, Some(coast)),
        None => (word, None),
    };
    let mut buf = [0u8; 24];
    let folded = buf.get_mut(..name.len())?;
    folded.copy_from_slice(name.as_bytes());
    if !folded.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    folded.make_ascii_lowercase();
    let folded = std::str::from_utf8(folded).ok()?;
    let entry = lex.variant.names.province_folded(folded);
    let province = entry
        .found
        .filter(|_| !entry.longer && !is_reserved(folded))?;
    let coast = match coast {
        None => None,
        Some(coast) if !coast.is_empty() && coast.bytes().all(|b| b.is_ascii_alphabetic()) => {
            match coast_name(Input::new(coast, lex), province) {
                Ok((rest, region)) if rest.rest.is_empty() => Some(region),
                _ => return None,
            }
        }
        Some(_) => return None,
    };
    Some(Location { province, coast })
}

fn check_length(source: &Arc<str>, line_no: u32, line: &str) -> Result<(), OrderError> {
    let length = line.chars().take(MAX_LINE_CHARS + 1).count();
    if length > MAX_LINE_CHARS {
        return Err(OrderError::TooLong {
            at: span(source, line_no, 1),
            length: line.chars().count(),
            max: MAX_LINE_CHARS,
        });
    }
    Ok(())
}

/// The order as written, without its comment and final punctuation.
fn order_text(line: &str) -> String {
    let before_comment = line.split('#').next().unwrap_or(line);
    // Stops and blanks of any kind may alternate at the end (`tient.\r;\r`): all go, so
    // that the text quoted back reads as the same order and quotes itself the same.
    before_comment
        .trim()
        .trim_end_matches(|c: char| c.is_whitespace() || c == '.' || c == ';')
        .to_string()
}

pub(super) fn span(source: &Arc<str>, line: u32, column: u32) -> SourcePos {
    SourcePos {
        source: Arc::clone(source),
        line,
        column,
    }
}

/// The column (in characters, from 1) where `rest`, a suffix of `line`, starts.
pub(super) fn column_of(line: &str, rest: &str) -> u32 {
    let offset = line.len().saturating_sub(rest.len());
    let chars = line.get(..offset).map_or(0, |s| s.chars().count());
    u32::try_from(chars + 1).unwrap_or(u32::MAX)
}

/// Turns the parser's error into an `OrderError`, with its place and suggestions.
pub(super) fn located(
    e: nom::Err<PError<'_>>,
    lexicon: &Lexicon<'_>,
    source: &Arc<str>,
    line_no: u32,
    line: &str,
) -> OrderError {
    let (rest, problem) = match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => (e.rest, e.problem),
        nom::Err::Incomplete(_) => ("", Problem::Other),
    };
    let at = span(source, line_no, column_of(line, rest));
    let variant = lexicon.variant;
    match problem {
        Problem::UnknownProvince { candidates } => {
            let (name, nearest) = suggestions(variant, &candidates);
            OrderError::UnknownProvince { at, name, nearest }
        }
        Problem::UnknownCoast { province, coast } => OrderError::UnknownCoast {
            at,
            province: show_province(variant, province),
            coast,
            known: variant
                .province(province)
                .coasts
                .iter()
                .filter_map(|&c| variant.region(c).coast.clone())
                .collect(),
        },
        Problem::Expected(expected) => {
            let found = found_at(rest);
            let hint = match expected {
                Expectation::Verb | Expectation::End | Expectation::Order => nearest_verb(&found),
                _ => None,
            };
            OrderError::Expected {
                at,
                expected,
                found,
                hint,
            }
        }
        Problem::Other => OrderError::Expected {
            at,
            expected: Expectation::Order,
            found: found_at(rest),
            hint: None,
        },
    }
}

/// The name to report (the longest candidate with suggestions, else the first word) and
/// its suggestions.
fn suggestions(variant: &Variant, candidates: &[String]) -> (String, Vec<Suggestion>) {
    for name in candidates {
        let nearest = variant.names.nearest(name);
        let typed = name.chars().count();
        // After the best, a short id that merely shares letters is noise (`Winterfel`:
        // not `Ner`).
        let shown: Vec<Suggestion> = nearest
            .iter()
            .enumerate()
            .filter(|(rank, (matched, _))| *rank == 0 || 2 * matched.chars().count() >= typed)
            .map(|(_, &(_, id))| suggestion(variant, id))
            .collect();
        if !shown.is_empty() {
            return (name.clone(), shown);
        }
    }
    (candidates.last().cloned().unwrap_or_default(), Vec::new())
}

/// A province suggested, as each language names it.
fn suggestion(variant: &Variant, id: ProvinceId) -> Suggestion {
    let p = variant.province(id);
    Suggestion {
        own: show_named(&p.id, &p.name),
        translated: p
            .names
            .iter()
            .map(|(lang, name)| (*lang, show_named(&p.id, name)))
            .collect(),
    }
}

/// `Sombreval (Som)`: the display name and the abbreviation.
fn show_province(variant: &Variant, id: ProvinceId) -> String {
    let p = variant.province(id);
    show_named(&p.id, &p.name)
}

/// `name (Abbreviation)`, or the name alone when it is the id.
fn show_named(id: &str, name: &str) -> String {
    let mut chars = id.chars();
    let abbreviation: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if fold(name) == fold(id) {
        name.to_string()
    } else {
        format!("{name} ({abbreviation})")
    }
}

/// The word or symbol at the start of `rest`, for "found …"; empty at the end.
fn found_at(rest: &str) -> String {
    let rest = rest.trim_start();
    let word: String = rest
        .chars()
        .take_while(|&c| super::token::is_word_char(c))
        .take(40)
        .collect();
    if word.is_empty() {
        rest.chars().next().map(String::from).unwrap_or_default()
    } else {
        word
    }
}

// ---------------------------------------------------------------------------------------
// 1. Lines

/// `order_line = [ house_prefix ] , order , trailer ;`
fn order_line(i: Input<'_>) -> PResult<'_, (Option<String>, UnitSpec, Instruction)> {
    let (i, house) = opt(house_prefix).parse(i)?;
    let (i, (unit, action)) = order(i)?;
    let (i, ()) = trailer(i)?;
    Ok((i, (house, unit, action)))
}

/// `position_line = [ house_prefix | house_word ] , unit , [ unit_name ] , trailer ;`
fn position_line(i: Input<'_>) -> PResult<'_, (Option<String>, UnitSpec)> {
    let (i, house) = opt(alt((house_prefix, house_word))).parse(i)?;
    let (i, mut unit) = cut(expecting(Expectation::Unit, unit)).parse(i)?;
    let (i, name) = opt(unit_name).parse(i)?;
    let (i, ()) = trailer(i)?;
    if name.is_some() {
        unit.name = name;
    }
    Ok((i, (house, unit)))
}

/// `house_prefix = house_name , ":" ;`
fn house_prefix(i: Input<'_>) -> PResult<'_, String> {
    let (i, name) = house_name(i)?;
    let (i, ()) = symbol(i, &[":"], Expectation::Order)?;
    Ok((i, name))
}

/// `house_word`: in a unit line, a house without its colon (`Italy F gol`): a word that is
/// no keyword and no province, followed by a unit kind.
fn house_word(i: Input<'_>) -> PResult<'_, String> {
    let i = i.skip_blanks();
    match i.word() {
        Some((word, rest))
            if !is_reserved(word) && province(i).is_err() && unit_kind(rest).is_ok() =>
        {
            Ok((rest, word.to_string()))
        }
        _ => expected(i, Expectation::Unit),
    }
}

/// `house_name = word , { word } ;`
fn house_name(i: Input<'_>) -> PResult<'_, String> {
    let start = i.skip_blanks();
    let Some((_, mut end)) = start.word() else {
        return expected(start, Expectation::Order);
    };
    while let Some((_, next)) = end.word() {
        end = next;
    }
    let len = start.rest.len().saturating_sub(end.rest.len());
    let name = start.rest.get(..len).unwrap_or_default().trim();
    Ok((end, name.to_string()))
}

/// `trailer = { "." | ";" } , [ comment ] ;` then the end of the line.
fn trailer(i: Input<'_>) -> PResult<'_, ()> {
    let mut i = i.skip_blanks();
    while let Some(rest) = i.rest.strip_prefix(['.', ';']) {
        i = i.with(rest).skip_blanks();
    }
    let (i, ()) = opt(comment).parse(i).map(|(i, _)| (i, ()))?;
    if i.rest.is_empty() {
        Ok((i, ()))
    } else {
        expected(i, Expectation::End)
    }
}

/// `comment = "#" , { ? any character ? } ;`
fn comment(i: Input<'_>) -> PResult<'_, ()> {
    let (i, ()) = symbol(i, &["#"], Expectation::End)?;
    Ok((i.with(""), ()))
}

// ---------------------------------------------------------------------------------------
// 2. Orders

/// `order = build_first | disband_first | waive | unit_order ;`
fn order(i: Input<'_>) -> PResult<'_, (UnitSpec, Instruction)> {
    let start = i.skip_blanks();
    let parsed = expecting(
        Expectation::Order,
        alt((build_first, disband_first, waive, unit_order)),
    )(i);
    match parsed {
        // `construir A Win`: a misspelt verb, not a province.
        Err(nom::Err::Error(e))
            if e.rest.len() >= start.rest.len() && misspelt_verb(start.lex, &e) =>
        {
            expected(start, Expectation::Order)
        }
        other => other,
    }
}

/// Whether an unknown province is rather a misspelt verb: close to a verb, far from names.
fn misspelt_verb(lexicon: &Lexicon<'_>, e: &PError<'_>) -> bool {
    let Problem::UnknownProvince { candidates } = &e.problem else {
        return false;
    };
    candidates.last().is_some_and(|word| {
        nearest_verb(word).is_some() && lexicon.variant.names.nearest(word).is_empty()
    })
}

/// `build_first = build_verb , unit ;`
fn build_first(i: Input<'_>) -> PResult<'_, (UnitSpec, Instruction)> {
    let (i, ()) = build_verb(i)?;
    let (i, unit) = cut(expecting(Expectation::Unit, unit)).parse(i)?;
    Ok((i, (unit, Instruction::Build)))
}

/// `disband_first = disband_verb , unit ;`
fn disband_first(i: Input<'_>) -> PResult<'_, (UnitSpec, Instruction)> {
    let (i, ()) = disband_verb(i)?;
    let (i, unit) = cut(expecting(Expectation::Unit, unit)).parse(i)?;
    Ok((i, (unit, Instruction::Disband)))
}

/// `waive = waive_verb ;`
fn waive(i: Input<'_>) -> PResult<'_, (UnitSpec, Instruction)> {
    let (i, ()) = waive_verb(i)?;
    Ok((i, (UnitSpec::default(), Instruction::Waive)))
}

/// `unit_order = unit , action ;`
fn unit_order(i: Input<'_>) -> PResult<'_, (UnitSpec, Instruction)> {
    let (i, unit) = unit(i)?;
    let (i, action) = cut(action).parse(i)?;
    Ok((i, (unit, action)))
}

/// `action = hold | move_tail | support | convoy | retreat | disband | build
///        | implicit_convoy ;`
fn action(i: Input<'_>) -> PResult<'_, Instruction> {
    let start = i.skip_blanks();
    let parsed = alt((
        hold,
        move_tail,
        support,
        convoy,
        retreat,
        disband,
        build,
        implicit_convoy,
    ))
    .parse(i);
    match parsed {
        // Nothing matched here: a verb was expected, even if the word looked like a unit.
        Err(nom::Err::Error(e)) if e.rest.len() >= start.rest.len() => {
            expected(start, Expectation::Verb)
        }
        other => other,
    }
}

/// `hold = hold_verb ;`
fn hold(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = hold_verb(i)?;
    Ok((i, Instruction::Hold))
}

/// `move_tail = arrow , region , { arrow , region } , [ via_convoy ] ;`: with more than
/// one place, njudge's convoy path (`A Yor-Nth-Nwy`): the seas, then the destination.
fn move_tail(i: Input<'_>) -> PResult<'_, Instruction> {
    let (mut i, (_, mut to)) = (arrow, cut(expecting(Expectation::Province, region))).parse(i)?;
    let mut path = Vec::new();
    // A path is bounded by the line's length (`check_length`); an arrow not followed by a
    // place is left for the end of the order to refuse.
    while let Ok((after, next)) = (arrow, region).map(|(_, r)| r).parse(i) {
        path.push(to);
        to = next;
        i = after;
    }
    let (i, via) = opt(via_convoy).parse(i)?;
    Ok((
        i,
        Instruction::Move {
            to,
            via_convoy: via.is_some() || !path.is_empty(),
            path,
        },
    ))
}

/// `support = support_verb , unit , [ arrow , region ] ;`
fn support(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = support_verb(i)?;
    let (i, unit) = cut(expecting(Expectation::Unit, unit)).parse(i)?;
    let (i, to) = opt(|i| {
        let (i, ()) = arrow(i)?;
        cut(expecting(Expectation::Province, region)).parse(i)
    })
    .parse(i)?;
    Ok((i, Instruction::Support { unit, to }))
}

/// `convoy = convoy_verb , unit , arrow , region ;`
fn convoy(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = convoy_verb(i)?;
    let (i, unit) = cut(expecting(Expectation::Unit, unit)).parse(i)?;
    let (i, to) = convoy_destination(i)?;
    Ok((i, Instruction::Convoy { unit, to }))
}

/// `implicit_convoy = unit , arrow , region ;`
fn implicit_convoy(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, unit) = unit(i)?;
    let (i, to) = convoy_destination(i)?;
    Ok((i, Instruction::Convoy { unit, to }))
}

/// The `arrow , region` that ends a convoy: both required once the unit is read.
fn convoy_destination(i: Input<'_>) -> PResult<'_, Location> {
    let (i, ()) = cut(expecting(Expectation::Arrow, arrow)).parse(i)?;
    cut(expecting(Expectation::Province, region)).parse(i)
}

/// `retreat = retreat_verb , [ "vers" | "to" ] , region ;`
fn retreat(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = retreat_verb(i)?;
    let (i, _) = opt(|i| keyword(i, &["vers", "to"], Expectation::Province)).parse(i)?;
    let (i, to) = cut(expecting(Expectation::Province, region)).parse(i)?;
    Ok((i, Instruction::Retreat { to }))
}

/// `disband = disband_verb ;`
fn disband(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = disband_verb(i)?;
    Ok((i, Instruction::Disband))
}

/// `build = build_verb ;`
fn build(i: Input<'_>) -> PResult<'_, Instruction> {
    let (i, ()) = build_verb(i)?;
    Ok((i, Instruction::Build))
}

// ---------------------------------------------------------------------------------------
// 3. Units

/// `unit = typed_unit | named_unit | region ;`
fn unit(i: Input<'_>) -> PResult<'_, UnitSpec> {
    alt((
        typed_unit,
        named_unit,
        map(region, |at| UnitSpec {
            at: Some(at),
            ..UnitSpec::default()
        }),
    ))
    .parse(i)
}

/// `typed_unit = unit_kind , ( region | dragon_name , [ region ] ) ;` (a name only after
/// a dragon's kind).
fn typed_unit(i: Input<'_>) -> PResult<'_, UnitSpec> {
    let (i, (kind, number)) = unit_kind(i)?;
    let named = |i| {
        if kind == UnitKind::Dragon {
            map((dragon_name, opt(region)), |(name, at)| (Some(name), at)).parse(i)
        } else {
            expected(i, Expectation::Province)
        }
    };
    let (i, (name, at)) = cut(expecting(
        Expectation::Province,
        alt((map(region, |at| (None, Some(at))), named)),
    ))
    .parse(i)?;
    let unit = UnitSpec {
        kind: Some(kind),
        number,
        name,
        at,
    };
    Ok((i, unit))
}

/// `named_unit = dragon_name , [ region ] ;`
fn named_unit(i: Input<'_>) -> PResult<'_, UnitSpec> {
    let (i, (name, at)) = (dragon_name, opt(region)).parse(i)?;
    let unit = UnitSpec {
        name: Some(name),
        at,
        ..UnitSpec::default()
    };
    Ok((i, unit))
}

/// `unit_kind = kind_letter , [ number ] | kind_word ;` (one word: `A1`).
pub(super) fn unit_kind(i: Input<'_>) -> PResult<'_, (UnitKind, Option<u32>)> {
    let Some((word, rest)) = i.word() else {
        return expected(i, Expectation::Unit);
    };
    let mut chars = word.chars();
    let letter = chars.next().and_then(kind_letter);
    let digits = chars.as_str();
    if let Some(kind) = letter
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        if digits.is_empty() {
            return Ok((rest, (kind, None)));
        }
        return match digits.parse::<u32>() {
            Ok(number) => Ok((rest, (kind, Some(number)))),
            Err(_) => expected(i, Expectation::Unit),
        };
    }
    match kind_word(word) {
        Some(kind) => Ok((rest, (kind, None))),
        None => expected(i, Expectation::Unit),
    }
}

/// `kind_letter = "A" | "F" | "D" ;`
fn kind_letter(c: char) -> Option<UnitKind> {
    match c {
        'A' | 'a' => Some(UnitKind::Army),
        'F' | 'f' => Some(UnitKind::Fleet),
        'D' | 'd' => Some(UnitKind::Dragon),
        _ => None,
    }
}

/// `kind_word = "Armée" | "Army" | "Flotte" | "Fleet" | "Dragon" ;`
fn kind_word(word: &str) -> Option<UnitKind> {
    if word.is_ascii() {
        // No allocation for the usual spelling.
        return [
            ("armee", UnitKind::Army),
            ("army", UnitKind::Army),
            ("flotte", UnitKind::Fleet),
            ("fleet", UnitKind::Fleet),
            ("dragon", UnitKind::Dragon),
        ]
        .into_iter()
        .find(|(k, _)| word.eq_ignore_ascii_case(k))
        .map(|(_, kind)| kind);
    }
    match fold(word).as_str() {
        "armee" | "army" => Some(UnitKind::Army),
        "flotte" | "fleet" => Some(UnitKind::Fleet),
        "dragon" => Some(UnitKind::Dragon),
        _ => None,
    }
}

/// `dragon_name`: a word that is no keyword and starts no province name, and is a dragon
/// of the variant, or (on a variant with dragons) any such word not close to a province
/// name and followed by a province or a verb.
fn dragon_name(i: Input<'_>) -> PResult<'_, String> {
    let i = i.skip_blanks();
    let Some((word, rest)) = i.word() else {
        return expected(i, Expectation::Unit);
    };
    if is_reserved(word) || province(i).is_ok() {
        return expected(i, Expectation::Unit);
    }
    let lexicon = i.lex;
    let known = lexicon.is_dragon(word);
    let plausible = || {
        lexicon.has_dragons
            && lexicon.variant.names.nearest(word).is_empty()
            && (province(rest).is_ok() || verb(rest).is_ok())
    };
    if known || plausible() {
        Ok((rest, word.to_string()))
    } else {
        expected(i, Expectation::Unit)
    }
}

/// `unit_name`: in a position line, a word that is no keyword and no province name.
fn unit_name(i: Input<'_>) -> PResult<'_, String> {
    let i = i.skip_blanks();
    match i.word() {
        Some((word, rest)) if !is_reserved(word) && province(i).is_err() => {
            Ok((rest, word.to_string()))
        }
        _ => expected(i, Expectation::End),
    }
}

/// `verb = arrow | hold_verb | support_verb | convoy_verb | retreat_verb | disband_verb
///      | build_verb ;`
fn verb(i: Input<'_>) -> PResult<'_, ()> {
    alt((
        arrow,
        hold_verb,
        support_verb,
        convoy_verb,
        retreat_verb,
        disband_verb,
        build_verb,
    ))
    .parse(i)
}

// ---------------------------------------------------------------------------------------
// 4. Provinces and coasts

/// `region = province , [ coast ] ;`
pub(super) fn region(i: Input<'_>) -> PResult<'_, Location> {
    let (i, province) = province(i)?;
    let (i, coast) = opt(|i| coast(i, province)).parse(i)?;
    Ok((i, Location { province, coast }))
}

/// `coast = "/" , coast_name | "(" , coast_name , ")" | bare_coast ;`
fn coast(i: Input<'_>, province: ProvinceId) -> PResult<'_, crate::map::RegionId> {
    if let Ok((i, ())) = symbol(i, &["/"], Expectation::Coast) {
        return cut(|i| coast_name(i, province)).parse(i);
    }
    if let Ok((i, ())) = symbol(i, &["("], Expectation::Coast) {
        let (i, region) = cut(|i| coast_name(i, province)).parse(i)?;
        let (i, ()) = cut(|i| symbol(i, &[")"], Expectation::CloseParen)).parse(i)?;
        return Ok((i, region));
    }
    bare_coast(i, province)
}

/// `bare_coast`: a coast name after a blank (`stp nc`), when it is no keyword and does
/// not begin a longer province name: in `F Win West Summer Sea -> Cno` (a convoy with no
/// verb), `West` starts the next unit's province, not Winterfell's west coast.
fn bare_coast(i: Input<'_>, province: ProvinceId) -> PResult<'_, crate::map::RegionId> {
    match i.word() {
        Some((word, _)) if !is_reserved(word) => {
            let (rest, coast) = coast_name(i, province)?;
            match self::province(i) {
                Ok((after, _)) if after.rest.len() < rest.rest.len() => {
                    fail(i, Problem::Expected(Expectation::Coast))
                }
                _ => Ok((rest, coast)),
            }
        }
        _ => fail(i, Problem::Expected(Expectation::Coast)),
    }
}

// ---------------------------------------------------------------------------------------
// 5. Keywords

/// `hold_verb = "tient sa position" | "tient" | "tenir" | "tiens" | "H" | "hold" | "holds"
///           | "stand" | "stands" ;`
fn hold_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &[
            "tient sa position",
            "tient",
            "tenir",
            "tiens",
            "h",
            "hold",
            "holds",
            "stand",
            "stands",
        ],
        Expectation::Verb,
    )
}

/// `arrow = "->" | "→" | "–" | "—" | "-" | "se déplace vers" | "va vers" | "va"
///       | "moves to" | "move to" | "moves" | "move" | "M" | "to" ;`
fn arrow(i: Input<'_>) -> PResult<'_, ()> {
    if let Ok(found) = symbol(i, &["->", "→", "–", "—", "-"], Expectation::Arrow) {
        return Ok(found);
    }
    keyword(
        i,
        &[
            "se deplace vers",
            "va vers",
            "va",
            "moves to",
            "move to",
            "moves",
            "move",
            "m",
            "to",
        ],
        Expectation::Arrow,
    )
}

/// `via_convoy = ( "via" | "par" | "by" ) , ( "convoi" | "convoy" ) ;`
fn via_convoy(i: Input<'_>) -> PResult<'_, ()> {
    let (i, ()) = keyword(i, &["via", "par", "by"], Expectation::End)?;
    keyword(i, &["convoi", "convoy"], Expectation::End)
}

/// `support_verb = "soutient" | "soutenir" | "soutiens" | "S" | "support" | "supports" ;`
fn support_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &[
            "soutient", "soutenir", "soutiens", "s", "support", "supports",
        ],
        Expectation::Verb,
    )
}

/// `convoy_verb = "convoie" | "convoient" | "convoyer" | "C" | "convoy" | "convoys" ;`
fn convoy_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &["convoie", "convoient", "convoyer", "c", "convoy", "convoys"],
        Expectation::Verb,
    )
}

/// `retreat_verb = "retraite" | "retraiter" | "R" | "retreat" | "retreats" ;`
fn retreat_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &["retraite", "retraiter", "r", "retreat", "retreats"],
        Expectation::Verb,
    )
}

/// `disband_verb = "dissoudre" | "dissous" | "disband" | "disbands" | "remove" | "removes" ;`
fn disband_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &[
            "dissoudre",
            "dissous",
            "disband",
            "disbands",
            "remove",
            "removes",
        ],
        Expectation::Verb,
    )
}

/// `build_verb = "construire" | "construit" | "build" | "builds" ;`
fn build_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &["construire", "construit", "build", "builds"],
        Expectation::Verb,
    )
}

/// `waive_verb = "renoncer" | "renonce" | "waive" | "waives" ;`
fn waive_verb(i: Input<'_>) -> PResult<'_, ()> {
    keyword(
        i,
        &["renoncer", "renonce", "waive", "waives"],
        Expectation::Verb,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        assert_eq!(column_of("é -> x", "x"), 6);
        assert_eq!(column_of("abc", "abc"), 1);
        assert_eq!(column_of("abc", ""), 4);
    }

    #[test]
    fn order_text_drops_comment_and_final_stop() {
        assert_eq!(order_text("  A1 Ner tient.  # fin"), "A1 Ner tient");
        assert_eq!(order_text("A Ner -> Som"), "A Ner -> Som");
        assert_eq!(order_text("A Ner tient\r\r;\r\u{c}\r. "), "A Ner tient");
    }

    #[test]
    fn found_is_the_word_or_the_symbol() {
        assert_eq!(found_at("  tien A"), "tien");
        assert_eq!(found_at(" ) x"), ")");
        assert_eq!(found_at(""), "");
    }
}
