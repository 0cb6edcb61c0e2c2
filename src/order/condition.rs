//! Conditional orders, as njudge players write them: the block lines (`IF …`, `ELSE IF …`,
//! `ELSE`, `ENDIF`, and the French `SI`, `SINON SI`, `SINON`, `FINSI`) and the condition
//! language, read against the variant (`grammar/orders.ebnf`, "Conditional orders").
//!
//! A condition asks what stands on the board: `[NOT] [house] [unit type] province[/coast]`
//! is true when such a unit stands there, `house OWNS province` when the house owns that
//! supply centre; `AND` binds tighter than `OR`, and brackets group. Evaluating it needs a
//! position, which this layer does not know: the game does it.

use std::sync::Arc;

use crate::lang::Lang;
use crate::map::{HouseId, Owner, ProvinceId, UnitKind, Variant, fold};
use crate::say;

use super::ast::Location;
use super::error::OrderError;
use super::parse::{column_of, located, region, span, unit_kind};
use super::token::{Input, Lexicon, PError};

/// At most this many unit or ownership tests in one condition: a mail is not a program.
pub const MAX_TERMS: usize = 16;
/// At most this many brackets and `NOT`s inside one another in a condition.
pub const MAX_NESTING: usize = 8;

/// A line that opens, continues or closes an `IF` block: what follows its keyword is kept
/// as a suffix of the line, so that a problem in it is located in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockLine<'a> {
    /// `IF <condition> [THEN]`, `SI <condition> [ALORS]`.
    If { condition: &'a str },
    /// `ELSE IF <condition> [THEN]`, `ELSEIF`, `SINON SI <condition> [ALORS]`.
    ElseIf { condition: &'a str },
    /// `ELSE`, `SINON`; `extra`: what follows it, which should be nothing.
    Else { extra: &'a str },
    /// `ENDIF`, `END IF`, `FINSI`, `FIN SI`; `extra` as for `ELSE`.
    EndIf { extra: &'a str },
}

impl BlockLine<'_> {
    /// Whether words follow an `ELSE` or an `ENDIF`, which take none.
    pub fn has_extra(&self) -> bool {
        match self {
            BlockLine::Else { extra } | BlockLine::EndIf { extra } => extra
                .split('#')
                .next()
                .is_some_and(|e| e.chars().any(char::is_alphanumeric)),
            _ => false,
        }
    }
}

/// The block keyword a line starts with, if any. Only whole words count (`Sil H` is no
/// `SI`); none of these words is a province, a house or an order word of the shipped maps
/// (tests/conditions.rs checks it).
pub fn block_line(line: &str) -> Option<BlockLine<'_>> {
    let (first, rest) = leading_word(line.trim_start())?;
    let second = || leading_word(rest).map(|(w, after)| (fold(w), after));
    match fold(first).as_str() {
        "if" | "si" => Some(BlockLine::If { condition: rest }),
        "elseif" | "elsif" | "sinonsi" => Some(BlockLine::ElseIf { condition: rest }),
        "else" | "sinon" => match second() {
            Some((w, after)) if w == "if" || w == "si" => {
                Some(BlockLine::ElseIf { condition: after })
            }
            _ => Some(BlockLine::Else { extra: rest }),
        },
        "endif" | "finsi" => Some(BlockLine::EndIf { extra: rest }),
        "end" | "fin" => match second() {
            Some((w, after)) if w == "if" || w == "si" => Some(BlockLine::EndIf { extra: after }),
            _ => None,
        },
        _ => None,
    }
}

/// The first word of `text` (letters only, ended by anything else) and what follows it;
/// `None` when the text does not start with a letter or the word is glued to a digit or
/// a hyphen (`Fin-Swe`, `A1`), which makes it no keyword.
fn leading_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    let end = text
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(text.len(), |(i, _)| i);
    let (word, rest) = text.split_at_checked(end)?;
    if word.is_empty() || rest.starts_with(|c: char| c.is_alphanumeric() || c == '-') {
        return None;
    }
    Some((word, rest))
}

/// A condition, names resolved against the variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// A unit stands there: of this owner and kind, if given; on this coast, if given.
    Unit {
        owner: Option<Owner>,
        kind: Option<UnitKind>,
        at: Location,
    },
    /// The house owns this supply centre.
    Owns {
        house: HouseId,
        province: ProvinceId,
    },
    Not(Box<Condition>),
    /// Every one holds.
    All(Vec<Condition>),
    /// One at least holds.
    Any(Vec<Condition>),
}

/// What the condition reader was looking for where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// A test: `France A Ruhr`, `Stark Win`, `France OWNS Bel`, `NOT …`, `( … )`.
    Condition,
    /// `AND`, `OR`, `)` or the end of the line.
    Connective,
    /// A province: where the unit stands, or the centre owned.
    Place,
    /// The `)` that closes a bracket.
    CloseParen,
}

/// Why a condition could not be read, located in its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConditionError {
    /// `IF` with no condition after it.
    Empty,
    /// A place the map does not know (or a line too long to read), as the order parser
    /// words it.
    Place(OrderError),
    /// Something the condition language does not allow there.
    Expected {
        line: u32,
        column: u32,
        wanted: Wanted,
        /// The word or symbol found there; empty at the end of the line.
        found: String,
    },
    /// More than [`MAX_TERMS`] tests.
    TooLong { max: usize },
    /// More than [`MAX_NESTING`] brackets and `NOT`s inside one another.
    TooDeep { max: usize },
}

impl ConditionError {
    /// Why, in the reader's language (`condition.*`), located where it can be.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ConditionError::Empty => say!(lang, "condition.empty"),
            ConditionError::Place(e) => e.message(lang),
            ConditionError::Expected {
                line,
                column,
                wanted,
                found,
            } => {
                let wanted = match wanted {
                    Wanted::Condition => say!(lang, "condition.want_condition"),
                    Wanted::Connective => say!(lang, "condition.want_connective"),
                    Wanted::Place => say!(lang, "condition.want_place"),
                    Wanted::CloseParen => say!(lang, "condition.want_close_paren"),
                };
                let detail = say!(lang, "condition.expected", wanted, found);
                say!(lang, "order.at", line, column, detail)
            }
            ConditionError::TooLong { max } => say!(lang, "condition.too_long", max),
            ConditionError::TooDeep { max } => say!(lang, "condition.too_deep", max),
        }
    }
}

/// Reads the condition `text`, a suffix of `line` (the mail's line `line_no`) as
/// [`block_line`] gives it, up to an optional `THEN`/`ALORS` and a comment.
pub fn parse_condition(
    variant: &Variant,
    line_no: u32,
    line: &str,
    text: &str,
) -> Result<Condition, ConditionError> {
    let length = line.chars().take(super::MAX_LINE_CHARS + 1).count();
    if length > super::MAX_LINE_CHARS {
        // Refused before reading, as an order line of that length is.
        let source: Arc<str> = Arc::from("");
        return Err(ConditionError::Place(OrderError::TooLong {
            at: span(&source, line_no, 1),
            length: line.chars().count(),
            max: super::MAX_LINE_CHARS,
        }));
    }
    let lexicon = Lexicon::new(variant);
    let input = Input::new(text, &lexicon);
    let mut reader = Reader {
        variant,
        line,
        line_no,
        terms: 0,
    };
    if at_end(input) {
        return Err(ConditionError::Empty);
    }
    let (rest, condition) = reader.any(input, 0)?;
    let rest = match rest.word() {
        Some((w, after)) if matches!(fold(w).as_str(), "then" | "alors") => after,
        _ => rest,
    };
    if !at_end(rest) {
        return Err(reader.expected(rest, Wanted::Connective));
    }
    Ok(condition)
}

/// Nothing left but blanks and a comment.
fn at_end(i: Input<'_>) -> bool {
    let rest = i.skip_blanks().rest;
    rest.is_empty() || rest.starts_with('#')
}

enum Connective {
    And,
    Or,
}

/// `AND`/`ET` or `OR`/`OU` at this point.
fn connective(i: Input<'_>) -> Option<(Connective, Input<'_>)> {
    let (word, rest) = i.word()?;
    match fold(word).as_str() {
        "and" | "et" => Some((Connective::And, rest)),
        "or" | "ou" => Some((Connective::Or, rest)),
        _ => None,
    }
}

struct Reader<'v> {
    variant: &'v Variant,
    line: &'v str,
    line_no: u32,
    terms: usize,
}

type Read<'a, T> = Result<(Input<'a>, T), ConditionError>;

impl Reader<'_> {
    fn expected(&self, i: Input<'_>, wanted: Wanted) -> ConditionError {
        let rest = i.skip_blanks().rest;
        let found = match i.word() {
            Some((w, _)) => w.chars().take(40).collect(),
            None => rest.chars().next().map(String::from).unwrap_or_default(),
        };
        ConditionError::Expected {
            line: self.line_no,
            column: self.column(rest),
            wanted,
            found,
        }
    }

    fn column(&self, rest: &str) -> u32 {
        column_of(self.line, rest)
    }

    /// `any = all , { OR , all } ;`
    fn any<'a>(&mut self, i: Input<'a>, depth: usize) -> Read<'a, Condition> {
        let (mut i, first) = self.all(i, depth)?;
        let mut items = vec![first];
        while let Some((Connective::Or, rest)) = connective(i) {
            let (after, next) = self.all(rest, depth)?;
            items.push(next);
            i = after;
        }
        Ok((i, one_or(items, Condition::Any)))
    }

    /// `all = unary , { AND , unary } ;`
    fn all<'a>(&mut self, i: Input<'a>, depth: usize) -> Read<'a, Condition> {
        let (mut i, first) = self.unary(i, depth)?;
        let mut items = vec![first];
        while let Some((Connective::And, rest)) = connective(i) {
            let (after, next) = self.unary(rest, depth)?;
            items.push(next);
            i = after;
        }
        Ok((i, one_or(items, Condition::All)))
    }

    /// `unary = NOT , unary | "(" , any , ")" | test ;`
    fn unary<'a>(&mut self, i: Input<'a>, depth: usize) -> Read<'a, Condition> {
        if depth >= MAX_NESTING {
            return Err(ConditionError::TooDeep { max: MAX_NESTING });
        }
        let start = i.skip_blanks();
        if let Some(inside) = start.rest.strip_prefix('(') {
            let (i, condition) = self.any(start.with(inside), depth + 1)?;
            let i = i.skip_blanks();
            let Some(after) = i.rest.strip_prefix(')') else {
                return Err(self.expected(i, Wanted::CloseParen));
            };
            return Ok((i.with(after), condition));
        }
        if let Some((word, rest)) = start.word()
            && is_not(&fold(word), rest)
        {
            let (i, inner) = self.unary(rest, depth + 1)?;
            return Ok((i, Condition::Not(Box::new(inner))));
        }
        self.test(start)
    }

    /// `test = house , OWNS , province | [ house ] , [ unit_kind ] , region ;` A word
    /// that may be a house is read as one only if the rest then reads (`ENG` is England
    /// in `ENG F Lon`, the English Channel alone).
    fn test<'a>(&mut self, i: Input<'a>) -> Read<'a, Condition> {
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(ConditionError::TooLong { max: MAX_TERMS });
        }
        if at_end(i) || connective(i).is_some() || i.skip_blanks().rest.starts_with(')') {
            return Err(self.expected(i, Wanted::Condition));
        }
        let as_house = house(self.variant, i).map(|(owner, rest)| {
            if let Some((word, after)) = rest.word()
                && matches!(fold(word).as_str(), "owns" | "own" | "possede")
            {
                return match owner {
                    Owner::House(house) => self.place(after).map(|(i, at)| {
                        (
                            i,
                            Condition::Owns {
                                house,
                                province: at.province,
                            },
                        )
                    }),
                    Owner::Neutral => Err(self.expected(i, Wanted::Condition)),
                };
            }
            self.unit(rest, Some(owner))
        });
        match as_house {
            Some(Ok(found)) => Ok(found),
            Some(Err(house_error)) => match self.unit(i, None) {
                Ok(found) => Ok(found),
                // The reading that went further says more.
                Err(plain) => Err(further(house_error, plain)),
            },
            None => self.unit(i, None),
        }
    }

    /// `[ unit_kind ] , region`, the owner already read.
    fn unit<'a>(&self, i: Input<'a>, owner: Option<Owner>) -> Read<'a, Condition> {
        let (i, kind) = match unit_kind(i) {
            // A kind letter that is also a province (`F` alone is no place anywhere, but a
            // map may have one) is a kind only if a place follows.
            Ok((rest, (kind, _))) if region(rest).is_ok() || region(i).is_err() => {
                (rest, Some(kind))
            }
            _ => (i, None),
        };
        let (i, at) = self.place(i)?;
        Ok((i, Condition::Unit { owner, kind, at }))
    }

    /// A province, with a coast if one is written.
    fn place<'a>(&self, i: Input<'a>) -> Read<'a, Location> {
        match region(i) {
            Ok(found) => Ok(found),
            Err(e) => Err(self.place_error(i, e)),
        }
    }

    fn place_error(&self, i: Input<'_>, e: nom::Err<PError<'_>>) -> ConditionError {
        let source: Arc<str> = Arc::from("");
        match located(e, i.lex, &source, self.line_no, self.line) {
            OrderError::Expected { .. } => self.expected(i, Wanted::Place),
            place => ConditionError::Place(place),
        }
    }
}

/// One condition, or the list of them joined.
fn one_or(mut items: Vec<Condition>, join: fn(Vec<Condition>) -> Condition) -> Condition {
    if items.len() == 1
        && let Some(only) = items.pop()
    {
        return only;
    }
    join(items)
}

/// `NOT`, `NON`, or `PAS` when a test follows it: `pas` is also Passe-du-Prince on
/// Westeros, which `SI PAS` alone (or before `ET`, `OU`, `)`) names.
fn is_not(folded: &str, rest: Input<'_>) -> bool {
    match folded {
        "not" | "non" => true,
        "pas" => {
            !at_end(rest) && connective(rest).is_none() && !rest.skip_blanks().rest.starts_with(')')
        }
        _ => false,
    }
}

/// Of two errors, the one found further along the line (a place over an expectation at
/// the same column).
fn further(a: ConditionError, b: ConditionError) -> ConditionError {
    let column = |e: &ConditionError| match e {
        ConditionError::Place(p) => (p.span().column, 1),
        ConditionError::Expected { column, .. } => (*column, 0),
        _ => (u32::MAX, 2),
    };
    if column(&b) > column(&a) { b } else { a }
}

/// A house at this point, as its id, name, adjective, alias (`Russian`, `House Stark`),
/// `neutral`/`neutre`, or the start of one house's names, two letters or more, as njudge
/// allows (`Fr`, `Ger`); never a unit type or a connective.
fn house<'a>(variant: &Variant, i: Input<'a>) -> Option<(Owner, Input<'a>)> {
    let (word, rest) = i.word()?;
    let folded = fold(word);
    if let Some((second, after)) = rest.word()
        && let Some(h) = variant
            .names
            .house_folded(&format!("{folded} {}", fold(second)))
    {
        return Some((Owner::House(h), after));
    }
    if matches!(folded.as_str(), "neutral" | "neutre") {
        return Some((Owner::Neutral, rest));
    }
    if let Some(h) = variant.names.house_folded(&folded) {
        return Some((Owner::House(h), rest));
    }
    let reserved = matches!(
        folded.as_str(),
        "and" | "et" | "or" | "ou" | "not" | "non" | "pas" | "then" | "alors"
    ) || unit_kind(i).is_ok();
    if folded.chars().count() < 2 || reserved {
        return None;
    }
    let mut found = variant.house_ids().filter(|&h| {
        let house = variant.house(h);
        [&house.id, &house.name, &house.adjective]
            .into_iter()
            .chain(house.names.iter().map(|(_, n)| n))
            .chain(&house.aliases)
            .any(|name| fold(name).starts_with(&folded))
    });
    match (found.next(), found.next()) {
        (Some(h), None) => Some((Owner::House(h), rest)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Variant {
        crate::map::load_variant("classique").expect("classic")
    }

    fn read(variant: &Variant, text: &str) -> Result<Condition, ConditionError> {
        let line = format!("IF {text}");
        let Some(BlockLine::If { condition }) = block_line(&line) else {
            panic!("an IF line: {line}");
        };
        parse_condition(variant, 1, &line, condition)
    }

    fn province(variant: &Variant, name: &str) -> ProvinceId {
        variant.names.province(name).expect(name)
    }

    fn house_id(variant: &Variant, name: &str) -> HouseId {
        variant.house_by_name(name).expect(name)
    }

    #[test]
    fn block_lines_in_both_languages() {
        assert_eq!(
            block_line("IF France A Ruhr THEN"),
            Some(BlockLine::If {
                condition: " France A Ruhr THEN"
            })
        );
        assert_eq!(
            block_line("  si Stark Win"),
            Some(BlockLine::If {
                condition: " Stark Win"
            })
        );
        assert!(matches!(
            block_line("ELSE IF x"),
            Some(BlockLine::ElseIf { .. })
        ));
        assert!(matches!(
            block_line("Sinon si x"),
            Some(BlockLine::ElseIf { .. })
        ));
        assert!(matches!(
            block_line("ELSEIF x"),
            Some(BlockLine::ElseIf { .. })
        ));
        assert!(matches!(block_line("else"), Some(BlockLine::Else { .. })));
        assert!(matches!(block_line("SINON"), Some(BlockLine::Else { .. })));
        for end in ["ENDIF", "end if", "FINSI", "Fin si", "ENDIF."] {
            assert!(
                matches!(block_line(end), Some(BlockLine::EndIf { .. })),
                "{end}"
            );
        }
        assert!(block_line("ELSE A Mun H").is_some_and(|b| b.has_extra()));
        assert!(!block_line("ENDIF # fin").is_some_and(|b| b.has_extra()));
        // Orders and commands are no block lines.
        for other in [
            "Sil H", "Fin H", "Fin-Swe", "END", "FIN", "A Mun H", "Ifni H", "IF1",
        ] {
            assert_eq!(block_line(other), None, "{other}");
        }
    }

    #[test]
    fn njudge_conditions_read_with_and_before_or() {
        let v = classic();
        let ruh = province(&v, "ruh");
        let france = house_id(&v, "france");
        let russia = house_id(&v, "russia");
        let c = read(
            &v,
            "NOT French Army Ruhr AND (Russian Prussia OR Russian Silesia)",
        )
        .expect("reads");
        let Condition::All(items) = c else {
            panic!("AND on top: {c:?}");
        };
        assert_eq!(
            items[0],
            Condition::Not(Box::new(Condition::Unit {
                owner: Some(Owner::House(france)),
                kind: Some(UnitKind::Army),
                at: Location::province(ruh),
            }))
        );
        assert!(matches!(&items[1], Condition::Any(o) if o.len() == 2));
        // `A OR B AND C` is `A OR (B AND C)`.
        let c = read(&v, "Ruh OR Mun AND Ber THEN").expect("reads");
        let Condition::Any(items) = c else {
            panic!("OR on top: {c:?}");
        };
        assert!(matches!(&items[1], Condition::All(a) if a.len() == 2));
        // Prefixes of two letters or more, unit types in French, coasts, ownership.
        assert!(matches!(
            read(&v, "Fr Flotte Spa/sc"),
            Ok(Condition::Unit {
                owner: Some(Owner::House(h)),
                kind: Some(UnitKind::Fleet),
                at: Location { coast: Some(_), .. }
            }) if h == france
        ));
        assert_eq!(
            read(&v, "Russia OWNS Sweden"),
            Ok(Condition::Owns {
                house: russia,
                province: province(&v, "swe")
            })
        );
        assert!(matches!(
            read(&v, "Russie POSSÈDE Suède"),
            Ok(Condition::Owns { .. })
        ));
        // `ENG` is England before a unit, the English Channel alone.
        assert!(matches!(
            read(&v, "ENG F Lon"),
            Ok(Condition::Unit { owner: Some(_), .. })
        ));
        assert!(matches!(
            read(&v, "ENG"),
            Ok(Condition::Unit { owner: None, .. })
        ));
    }

    #[test]
    fn bad_conditions_say_where_and_why() {
        let v = classic();
        assert_eq!(read(&v, ""), Err(ConditionError::Empty));
        let Err(ConditionError::Place(OrderError::UnknownProvince { name, at, .. })) =
            read(&v, "France A Rhur")
        else {
            panic!("an unknown province");
        };
        assert_eq!((name.as_str(), at.column), ("Rhur", 13));
        assert!(matches!(
            read(&v, "France A Ruhr AND"),
            Err(ConditionError::Expected {
                wanted: Wanted::Condition,
                ..
            })
        ));
        assert!(matches!(
            read(&v, "(Ruh OR Mun"),
            Err(ConditionError::Expected {
                wanted: Wanted::CloseParen,
                ..
            })
        ));
        assert!(matches!(
            read(&v, "Ruh Mun"),
            Err(ConditionError::Expected {
                wanted: Wanted::Connective,
                column: 8,
                ..
            })
        ));
        let deep = format!("{}Ruh{}", "(".repeat(20), ")".repeat(20));
        assert_eq!(
            read(&v, &deep),
            Err(ConditionError::TooDeep { max: MAX_NESTING })
        );
        let long = vec!["Ruh"; 40].join(" OR ");
        assert_eq!(
            read(&v, &long),
            Err(ConditionError::TooLong { max: MAX_TERMS })
        );
        let huge = vec!["Ruh"; 400].join(" OR ");
        assert!(matches!(
            read(&v, &huge),
            Err(ConditionError::Place(OrderError::TooLong { .. }))
        ));
    }

    #[test]
    fn pas_is_not_only_before_a_test() {
        let v = crate::map::load_variant("westeros").expect("westeros");
        let pas = province(&v, "pas");
        assert!(matches!(read(&v, "PAS"), Ok(Condition::Unit { at, .. }) if at.province == pas));
        assert!(matches!(read(&v, "PAS Stark Win"), Ok(Condition::Not(_))));
        assert!(matches!(read(&v, "NON Stark D Win"), Ok(Condition::Not(_))));
        assert!(matches!(read(&v, "PAS ET Win"), Ok(Condition::All(_))));
    }
}
