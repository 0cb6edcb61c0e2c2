//! The parser's input and errors, and the lexical rules of `grammar/orders.ebnf`: blanks,
//! words, keywords, symbols, and province and coast names matched longest first.

use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

use crate::map::{ProvinceId, RegionId, UnitKind, Variant, fold};

use super::error::Expectation;

/// At most this many words in a province name (`Presqu'île de Claquepince` has three).
const MAX_WORDS_IN_PROVINCE: usize = 8;
/// At most this many words in a coast name (`côte ouest`).
const MAX_WORDS_IN_COAST: usize = 3;

/// What the parser knows of the variant, built once for many lines.
pub(super) struct Lexicon<'v> {
    pub variant: &'v Variant,
    /// Folded names of the dragons the variant knows (starting units and houses' lists).
    dragons: Vec<String>,
    /// Whether the variant has dragons at all (on the board or buildable).
    pub has_dragons: bool,
}

impl<'v> Lexicon<'v> {
    pub fn new(variant: &'v Variant) -> Lexicon<'v> {
        let starting = variant
            .starting_units
            .iter()
            .filter_map(|u| u.name.as_deref());
        let buildable = variant
            .houses
            .iter()
            .flat_map(|h| h.dragon_names.iter().map(String::as_str));
        let dragons: Vec<String> = starting.chain(buildable).map(fold).collect();
        let has_dragons = !dragons.is_empty()
            || variant
                .starting_units
                .iter()
                .any(|u| u.kind == UnitKind::Dragon)
            || variant
                .houses
                .iter()
                .any(|h| h.builds.contains(&UnitKind::Dragon));
        Lexicon {
            variant,
            dragons,
            has_dragons,
        }
    }

    /// Whether this word is the name of a dragon of the variant.
    pub fn is_dragon(&self, word: &str) -> bool {
        let word = fold(word);
        self.dragons.contains(&word)
    }
}

/// The text still to parse, with the lexicon: a suffix of the line, so that an error's
/// position in the line is known from its length.
#[derive(Clone, Copy)]
pub(super) struct Input<'a> {
    pub rest: &'a str,
    pub lex: &'a Lexicon<'a>,
}

impl<'a> Input<'a> {
    pub fn new(line: &'a str, lex: &'a Lexicon<'a>) -> Input<'a> {
        Input { rest: line, lex }
    }

    /// The same lexicon, on other text (a suffix of this one).
    pub fn with(self, rest: &'a str) -> Input<'a> {
        Input {
            rest,
            lex: self.lex,
        }
    }

    /// Skips `len` bytes (never past the end, never inside a character).
    pub fn advance(self, len: usize) -> Input<'a> {
        self.with(self.rest.get(len..).unwrap_or(""))
    }

    /// Skips blanks (spaces, tabs, any Unicode white space).
    pub fn skip_blanks(self) -> Input<'a> {
        self.with(self.rest.trim_start())
    }

    /// The next word (a run of letters and digits) after blanks, and what follows it.
    pub fn word(self) -> Option<(&'a str, Input<'a>)> {
        let i = self.skip_blanks();
        let len = i
            .rest
            .char_indices()
            .find(|&(_, c)| !is_word_char(c))
            .map_or(i.rest.len(), |(k, _)| k);
        let word = i.rest.get(..len).filter(|w| !w.is_empty())?;
        Some((word, i.advance(len)))
    }
}

/// Letters and digits (accents included, composed or not).
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c)
}

/// What went wrong, before it is located and worded as an `OrderError`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Problem {
    Expected(Expectation),
    /// The words that could have been a province name, longest first.
    UnknownProvince {
        candidates: Vec<String>,
    },
    UnknownCoast {
        province: ProvinceId,
        coast: String,
    },
    /// A nom combinator failed without saying why; read as "expected an order".
    Other,
}

/// A parse error: where (the rest of the line) and what.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PError<'a> {
    pub rest: &'a str,
    pub problem: Problem,
}

impl PError<'_> {
    /// Errors further along the line are better; at the same place, a name that is
    /// unknown says more than an expectation.
    fn rank(&self) -> (std::cmp::Reverse<usize>, u8) {
        let specific = match self.problem {
            Problem::UnknownProvince { .. } | Problem::UnknownCoast { .. } => 2,
            Problem::Expected(_) => 1,
            Problem::Other => 0,
        };
        (std::cmp::Reverse(self.rest.len()), specific)
    }
}

impl<'a> ParseError<Input<'a>> for PError<'a> {
    fn from_error_kind(input: Input<'a>, _kind: ErrorKind) -> Self {
        PError {
            rest: input.rest,
            problem: Problem::Other,
        }
    }

    fn append(_input: Input<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

pub(super) type PResult<'a, T> = IResult<Input<'a>, T, PError<'a>>;

/// Fails (recoverably) at `i`, after blanks, with a problem.
pub(super) fn fail<'a, T>(i: Input<'a>, problem: Problem) -> PResult<'a, T> {
    Err(nom::Err::Error(PError {
        rest: i.skip_blanks().rest,
        problem,
    }))
}

/// Fails (recoverably) at `i`, expecting something.
pub(super) fn expected<'a, T>(i: Input<'a>, what: Expectation) -> PResult<'a, T> {
    fail(i, Problem::Expected(what))
}

/// Runs `parser`; if it fails where it started without naming an unknown province or
/// coast, says that `what` was expected there instead.
pub(super) fn expecting<'a, T>(
    what: Expectation,
    mut parser: impl Parser<Input<'a>, Output = T, Error = PError<'a>>,
) -> impl FnMut(Input<'a>) -> PResult<'a, T> {
    move |i: Input<'a>| {
        let start = i.skip_blanks();
        match parser.parse(i) {
            Err(nom::Err::Error(e))
                if e.rest.len() >= start.rest.len()
                    && matches!(e.problem, Problem::Expected(_) | Problem::Other) =>
            {
                expected(start, what)
            }
            other => other,
        }
    }
}

/// Whether a word folds to a keyword (already folded: lower case, no accents).
fn folds_to(word: &str, keyword: &str) -> bool {
    if word.is_ascii() {
        word.eq_ignore_ascii_case(keyword)
    } else {
        fold(word) == keyword
    }
}

/// Matches one phrase of folded words separated by single spaces (`se deplace vers`).
fn phrase<'a>(i: Input<'a>, phrase: &str) -> Option<Input<'a>> {
    let mut i = i;
    for keyword in phrase.split(' ') {
        let (word, rest) = i.word()?;
        if !folds_to(word, keyword) {
            return None;
        }
        i = rest;
    }
    Some(i)
}

/// Matches the first of `phrases` (list longer phrases before their prefixes).
pub(super) fn keyword<'a>(i: Input<'a>, phrases: &[&str], what: Expectation) -> PResult<'a, ()> {
    for p in phrases {
        if let Some(rest) = phrase(i, p) {
            return Ok((rest, ()));
        }
    }
    expected(i, what)
}

/// Matches the first of `symbols` after blanks (list `->` before `-`).
pub(super) fn symbol<'a>(i: Input<'a>, symbols: &[&str], what: Expectation) -> PResult<'a, ()> {
    let i = i.skip_blanks();
    for s in symbols {
        if let Some(rest) = i.rest.strip_prefix(s) {
            return Ok((i.with(rest), ()));
        }
    }
    expected(i, what)
}

/// Blanks and the punctuation that `fold` ignores may join the words of a name.
fn is_name_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '\'' | '’' | '_' | '.')
}

/// The words at the start of `s` that could make a name: (start, end) byte offsets of up
/// to `max` words, each joined to the previous one by separators.
fn name_words(s: &str, max: usize) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut chars = s.char_indices().peekable();
    while words.len() < max {
        let Some(&(start, _)) = chars.peek() else {
            break;
        };
        let mut end = start;
        while let Some(&(k, c)) = chars.peek() {
            if !is_word_char(c) {
                break;
            }
            end = k + c.len_utf8();
            chars.next();
        }
        if end == start {
            break;
        }
        words.push((start, end));
        let mut separated = false;
        while chars.next_if(|&(_, c)| is_name_separator(c)).is_some() {
            separated = true;
        }
        if !separated {
            break;
        }
    }
    words
}

/// `province`: the longest run of words at this point that is a name of a province.
pub(super) fn province(i: Input<'_>) -> PResult<'_, ProvinceId> {
    let i = i.skip_blanks();
    let words = name_words(i.rest, MAX_WORDS_IN_PROVINCE);
    for &(_, end) in words.iter().rev() {
        if let Some(id) = i
            .rest
            .get(..end)
            .and_then(|t| i.lex.variant.names.province(t))
        {
            return Ok((i.advance(end), id));
        }
    }
    // Unknown: offer the words before the first keyword, for the suggestions.
    let mut candidates: Vec<String> = words
        .iter()
        .take_while(|&&(start, end)| !i.rest.get(start..end).is_some_and(is_reserved))
        .filter_map(|&(_, end)| i.rest.get(..end).map(str::to_string))
        .collect();
    if candidates.is_empty() {
        return expected(i, Expectation::Province);
    }
    candidates.reverse();
    fail(i, Problem::UnknownProvince { candidates })
}

/// `coast_name`: the longest run of words at this point that names a coast of `province`.
pub(super) fn coast_name(i: Input<'_>, province: ProvinceId) -> PResult<'_, RegionId> {
    let i = i.skip_blanks();
    let words = name_words(i.rest, MAX_WORDS_IN_COAST);
    for &(_, end) in words.iter().rev() {
        if let Some(region) = i
            .rest
            .get(..end)
            .and_then(|t| i.lex.variant.names.coast(province, t))
        {
            return Ok((i.advance(end), region));
        }
    }
    match i.word() {
        Some((word, _)) => fail(
            i,
            Problem::UnknownCoast {
                province,
                coast: word.to_string(),
            },
        ),
        None => expected(i, Expectation::Coast),
    }
}

/// Every word of every keyword phrase, folded; unit letters are checked apart.
const RESERVED: &[&str] = &[
    // hold_verb
    "tient",
    "tenir",
    "tiens",
    "sa",
    "position",
    "h",
    "hold",
    "holds",
    // arrow, via_convoy
    "se",
    "deplace",
    "vers",
    "va",
    "moves",
    "move",
    "to",
    "via",
    "par",
    "by",
    "convoi",
    "convoy",
    // support_verb, convoy_verb
    "soutient",
    "soutenir",
    "soutiens",
    "s",
    "support",
    "supports",
    "convoie",
    "convoyer",
    "convoient",
    "c",
    "convoys",
    // retreat_verb, disband_verb, build_verb, waive_verb
    "retraite",
    "retraiter",
    "r",
    "retreat",
    "retreats",
    "dissoudre",
    "dissous",
    "disband",
    "disbands",
    "remove",
    "construire",
    "construit",
    "build",
    "builds",
    "renoncer",
    "renonce",
    "waive",
    "waives",
    // kind_word
    "armee",
    "army",
    "flotte",
    "fleet",
    "dragon",
];

/// Whether a word is a keyword of the grammar, or a unit letter with a number (`A1`).
pub(super) fn is_reserved(word: &str) -> bool {
    let mut chars = word.chars();
    let letter = chars
        .next()
        .is_some_and(|c| matches!(c, 'A' | 'a' | 'F' | 'f' | 'D' | 'd'));
    if letter && chars.all(|c| c.is_ascii_digit()) {
        return true;
    }
    RESERVED.iter().any(|k| folds_to(word, k))
}

/// The single-word verbs worth suggesting for a misspelt one (`tien` → `tient`).
const SUGGESTED_VERBS: &[&str] = &[
    "tient",
    "hold",
    "holds",
    "soutient",
    "support",
    "supports",
    "convoie",
    "convoy",
    "convoys",
    "retraite",
    "retreat",
    "dissoudre",
    "disband",
    "remove",
    "construire",
    "build",
    "renoncer",
    "waive",
];

/// The verb nearest to a misspelt word, if one is close.
pub(super) fn nearest_verb(word: &str) -> Option<&'static str> {
    let wanted = fold(word);
    if wanted.chars().count() < 3 {
        return None;
    }
    SUGGESTED_VERBS
        .iter()
        .map(|&v| (strsim::jaro_winkler(&wanted, v), v))
        .filter(|&(score, _)| score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<&str> {
        name_words(s, 8)
            .into_iter()
            .filter_map(|(_, end)| s.get(..end))
            .collect()
    }

    #[test]
    fn name_words_stop_at_symbols() {
        assert_eq!(texts("Ner-> Som"), ["Ner"]);
        assert_eq!(texts("nth-pic"), ["nth", "nth-pic"]);
        assert_eq!(texts("Port-Réal -> Som"), ["Port", "Port-Réal"]);
        assert_eq!(
            texts("Presqu'île de Claquepince"),
            [
                "Presqu",
                "Presqu'île",
                "Presqu'île de",
                "Presqu'île de Claquepince"
            ]
        );
        assert_eq!(texts("spa/sc"), ["spa"]);
        assert_eq!(texts("spa(sc)"), ["spa"]);
        assert!(texts("->").is_empty());
        assert!(texts("").is_empty());
    }

    #[test]
    fn reserved_words_are_folded() {
        assert!(is_reserved("SUPPORTS"));
        assert!(is_reserved("Armée"));
        assert!(is_reserved("A1"));
        assert!(is_reserved("déplace"));
        assert!(!is_reserved("Balerion"));
        assert!(!is_reserved("Ner"));
    }

    #[test]
    fn misspelt_verbs_get_a_suggestion() {
        assert_eq!(nearest_verb("tien"), Some("tient"));
        assert_eq!(nearest_verb("soutien"), Some("soutient"));
        assert_eq!(nearest_verb("suport"), Some("support"));
        assert_eq!(nearest_verb("xq"), None);
    }
}
