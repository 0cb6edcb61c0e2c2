//! The parser's input and errors, and the lexical rules of `grammar/orders.ebnf`: blanks,
//! words, keywords, symbols, and province and coast names matched longest first.

use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::LazyLock;

use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

use crate::map::names::{FxHasher, NameEntry};
use crate::map::{NameIndex, ProvinceId, RegionId, Variant, fold, fold_into};

use super::error::Expectation;

/// At most this many words in a province name (`Presqu'île de Claquepince` has three).
const MAX_WORDS_IN_PROVINCE: usize = 8;
/// At most this many words in a coast name (`côte ouest`).
const MAX_WORDS_IN_COAST: usize = 3;

/// What the parser knows of the variant, built once for many lines: the variant (whose
/// names are folded already) and a buffer for folding the words being read.
pub(super) struct Lexicon<'v> {
    pub variant: &'v Variant,
    /// Whether the variant has dragons at all (on the board or buildable).
    pub has_dragons: bool,
    /// The words of a name being read, folded (reused: no allocation per name).
    scratch: RefCell<String>,
}

impl<'v> Lexicon<'v> {
    pub(super) fn new(variant: &'v Variant) -> Lexicon<'v> {
        Lexicon {
            variant,
            has_dragons: variant.names.has_dragons(),
            scratch: RefCell::new(String::new()),
        }
    }

    /// Whether this word is the name of a dragon of the variant.
    pub(super) fn is_dragon(&self, word: &str) -> bool {
        self.variant.names.is_dragon_folded(&fold(word))
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
    pub(super) fn new(line: &'a str, lex: &'a Lexicon<'a>) -> Input<'a> {
        Input { rest: line, lex }
    }

    /// The same lexicon, on other text (a suffix of this one).
    pub(super) fn with(self, rest: &'a str) -> Input<'a> {
        Input {
            rest,
            lex: self.lex,
        }
    }

    /// Skips `len` bytes (never past the end, never inside a character).
    pub(super) fn advance(self, len: usize) -> Input<'a> {
        self.with(self.rest.get(len..).unwrap_or(""))
    }

    /// Skips blanks (spaces, tabs, any Unicode white space).
    pub(super) fn skip_blanks(self) -> Input<'a> {
        let rest = self.rest.trim_ascii_start();
        // Other blanks (a no-break space, a vertical tab) are rare: look them up only then.
        if rest
            .as_bytes()
            .first()
            .is_some_and(|&b| b >= 0x80 || b == 0x0b)
        {
            return self.with(rest.trim_start());
        }
        self.with(rest)
    }

    /// The next word (a run of letters and digits) after blanks, and what follows it.
    pub(super) fn word(self) -> Option<(&'a str, Input<'a>)> {
        let i = self.skip_blanks();
        let ascii = i
            .rest
            .bytes()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(i.rest.len());
        // Past the ASCII letters and digits, a non-ASCII character may still be a letter.
        let len = match i.rest.as_bytes().get(ascii) {
            Some(&b) if b >= 0x80 => i
                .rest
                .get(ascii..)
                .and_then(|tail| tail.char_indices().find(|&(_, c)| !is_word_char(c)))
                .map_or(i.rest.len(), |(k, _)| ascii + k),
            _ => ascii,
        };
        let word = i.rest.get(..len).filter(|w| !w.is_empty())?;
        Some((word, i.advance(len)))
    }
}

/// Letters and digits (accents included, composed or not).
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
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

/// Matches the first of `phrases` (list longer phrases before their prefixes). The word
/// at `i` is read once for all the phrases.
pub(super) fn keyword<'a>(i: Input<'a>, phrases: &[&str], what: Expectation) -> PResult<'a, ()> {
    let Some((first, rest)) = i.word() else {
        return expected(i, what);
    };
    for p in phrases {
        let (head, tail) = p.split_once(' ').unwrap_or((p, ""));
        if !folds_to(first, head) {
            continue;
        }
        if tail.is_empty() {
            return Ok((rest, ()));
        }
        if let Some(after) = phrase(rest, tail) {
            return Ok((after, ()));
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
    if c.is_ascii() {
        return c.is_ascii_whitespace() || matches!(c, '-' | '\'' | '_' | '.' | '\x0b');
    }
    c.is_whitespace() || matches!(c, '-' | '\'' | '’' | '_' | '.')
}

/// The words at the start of `s` that could make a name: (start, end) byte offsets of up
/// to `max` words, each joined to the previous one by separators.
fn name_words(s: &str, max: usize) -> Vec<(usize, usize)> {
    NameWords::new(s).take(max).collect()
}

/// The words at the start of a text that could make a name, each joined to the previous
/// one by separators: (start, end) byte offsets.
struct NameWords<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    done: bool,
}

impl<'a> NameWords<'a> {
    fn new(s: &'a str) -> NameWords<'a> {
        NameWords {
            chars: s.char_indices().peekable(),
            done: false,
        }
    }
}

impl Iterator for NameWords<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        if self.done {
            return None;
        }
        let &(start, _) = self.chars.peek()?;
        let mut end = start;
        while let Some(&(k, c)) = self.chars.peek() {
            if !is_word_char(c) {
                break;
            }
            end = k + c.len_utf8();
            self.chars.next();
        }
        if end == start {
            self.done = true;
            return None;
        }
        let mut separated = false;
        while self.chars.next_if(|&(_, c)| is_name_separator(c)).is_some() {
            separated = true;
        }
        self.done = !separated;
        Some((start, end))
    }
}

/// The longest run of at most `max` words at the start of `text` that `look_up` knows,
/// with the byte length it takes. Each word is folded once, onto the run before it; the
/// walk stops as soon as no longer name starts with the run.
fn longest_name<T>(
    text: &str,
    max: usize,
    scratch: &RefCell<String>,
    look_up: impl Fn(&str) -> NameEntry<T>,
) -> Option<(usize, T)> {
    let mut folded = scratch.borrow_mut();
    folded.clear();
    let mut best = None;
    for (start, end) in NameWords::new(text).take(max) {
        let before = folded.len();
        if before > 0 {
            folded.push(' ');
        }
        fold_into(text.get(start..end).unwrap_or(""), &mut folded);
        if folded.len() <= before + usize::from(before > 0) {
            // A word that folds to nothing (a lone accent) adds nothing to the name.
            folded.truncate(before);
            continue;
        }
        let entry = look_up(&folded);
        if let Some(found) = entry.found {
            best = Some((end, found));
        }
        if !entry.longer {
            break;
        }
    }
    best
}

/// `province`: the longest run of words at this point that is a name of a province.
pub(super) fn province(i: Input<'_>) -> PResult<'_, ProvinceId> {
    let i = i.skip_blanks();
    let names: &NameIndex = &i.lex.variant.names;
    let found = longest_name(i.rest, MAX_WORDS_IN_PROVINCE, &i.lex.scratch, |f| {
        names.province_folded(f)
    });
    let found = bracketed_name(i, found.map(|(end, _)| end)).or(found);
    if let Some((end, id)) = found {
        return Ok((i.advance(end), id));
    }
    let words = name_words(i.rest, MAX_WORDS_IN_PROVINCE);
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

/// A province's name written with its brackets (`Les Roches (Rivage Pierreux)`, as the
/// judge's replies show it), closing bracket included, when it is longer than the name
/// read without them (ending at `found`: `Les Roches`). Otherwise the bracket holds a
/// coast (`Win (co)`, `spa(nc)`) and this is `None`.
fn bracketed_name(i: Input<'_>, found: Option<usize>) -> Option<(usize, ProvinceId)> {
    let open = i.rest.find('(')?;
    if found.is_some_and(|end| end > open) {
        return None;
    }
    // Brackets made blanks keep every byte where it was.
    let flat = i.rest.replace(['(', ')'], " ");
    let (end, id) = longest_name(&flat, MAX_WORDS_IN_PROVINCE, &i.lex.scratch, |f| {
        i.lex.variant.names.province_folded(f)
    })?;
    if end <= open {
        return None;
    }
    let after = i.rest.get(end..)?;
    let blanks = after.len() - after.trim_start().len();
    after
        .trim_start()
        .starts_with(')')
        .then_some((end + blanks + 1, id))
}

/// `coast_name`: the longest run of words at this point that names a coast of `province`.
pub(super) fn coast_name(i: Input<'_>, province: ProvinceId) -> PResult<'_, RegionId> {
    let i = i.skip_blanks();
    let names: &NameIndex = &i.lex.variant.names;
    let found = longest_name(i.rest, MAX_WORDS_IN_COAST, &i.lex.scratch, |f| {
        names.coast_folded(province, f)
    });
    if let Some((end, region)) = found {
        return Ok((i.advance(end), region));
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
    "stand",
    "stands",
    // arrow, via_convoy
    "se",
    "deplace",
    "vers",
    "va",
    "moves",
    "move",
    "m",
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
    "removes",
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

/// [`RESERVED`] as a set: every word of an order line is looked up.
static RESERVED_SET: LazyLock<HashSet<&'static str, BuildHasherDefault<FxHasher>>> =
    LazyLock::new(|| RESERVED.iter().copied().collect());

/// Whether a word is a keyword of the grammar, or a unit letter with a number (`A1`).
pub(super) fn is_reserved(word: &str) -> bool {
    let mut chars = word.chars();
    let letter = chars
        .next()
        .is_some_and(|c| matches!(c, 'A' | 'a' | 'F' | 'f' | 'D' | 'd'));
    if letter && chars.all(|c| c.is_ascii_digit()) {
        return true;
    }
    if word.is_ascii() {
        // No keyword is longer than 10 letters: fold into a small buffer, no allocation.
        let mut buf = [0u8; 12];
        let Some(dst) = buf.get_mut(..word.len()) else {
            return false;
        };
        dst.copy_from_slice(word.as_bytes());
        dst.make_ascii_lowercase();
        return std::str::from_utf8(dst).is_ok_and(|w| RESERVED_SET.contains(w));
    }
    RESERVED_SET.contains(fold(word).as_str())
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
    "removes",
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
    crate::map::nearest_of(&wanted, SUGGESTED_VERBS.iter().map(|&v| (v, v)), 0.85)
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
