//! Why an order line could not be read: typed, located (line and column, counted in
//! characters), with the nearest province names for a misspelling, in French or English.

use std::sync::Arc;

use crate::lang::Lang;
use crate::say;

use super::ast::SourcePos;

/// A province suggested for a misspelt name, as each reader is shown it: `Londres (Lon)`
/// to a French reader, `London` to an English one: the suggestion in the
/// reader's language, whatever the map's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// As the map names it.
    pub own: String,
    /// As the map's translations name it, per language.
    pub translated: Vec<(Lang, String)>,
}

impl Suggestion {
    /// The suggestion for a reader of `lang`.
    pub fn shown(&self, lang: Lang) -> &str {
        self.translated
            .iter()
            .find(|(l, _)| *l == lang)
            .map_or(self.own.as_str(), |(_, s)| s.as_str())
    }
}

/// A suggestion with no translation (tests, and maps without any).
impl From<&str> for Suggestion {
    fn from(own: &str) -> Suggestion {
        Suggestion {
            own: own.to_string(),
            translated: Vec::new(),
        }
    }
}

/// What the parser was looking for where it stopped (`grammar/orders.ebnf` rule names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// An order: a unit (`A Win`), or a leading `construire`, `dissoudre`, `renoncer`.
    Order,
    /// A unit: `A Win`, `F Crb`, a dragon's name, or a province alone.
    Unit,
    /// A province (a destination, or where a unit stands).
    Province,
    /// A coast of a multi-coast province.
    Coast,
    /// What the unit is told to do: `tient`, `->`, `soutient`, `convoie`, …
    Verb,
    /// An arrow and a destination (`-> Som`).
    Arrow,
    /// The `)` that closes a coast in parentheses.
    CloseParen,
    /// Nothing more: the order was complete.
    End,
}

impl Expectation {
    /// The expectation in words, in a language (`expectation.*`).
    pub fn describe(self, lang: Lang) -> String {
        match self {
            Expectation::Order => say!(lang, "expectation.order"),
            Expectation::Unit => say!(lang, "expectation.unit"),
            Expectation::Province => say!(lang, "expectation.province"),
            Expectation::Coast => say!(lang, "expectation.coast"),
            Expectation::Verb => say!(lang, "expectation.verb"),
            Expectation::Arrow => say!(lang, "expectation.arrow"),
            Expectation::CloseParen => say!(lang, "expectation.close_paren"),
            Expectation::End => say!(lang, "expectation.end"),
        }
    }
}

/// An order line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// A name that is no province of the map.
    #[error("{at}: {}", self.detail(Lang::En))]
    UnknownProvince {
        at: SourcePos,
        name: String,
        /// The nearest provinces, best first, shown as `Sombreval (Som)`.
        nearest: Vec<Suggestion>,
    },
    /// A coast that the province does not have (or a coast given to a one-coast province).
    #[error("{at}: {}", self.detail(Lang::En))]
    UnknownCoast {
        at: SourcePos,
        /// The province, shown as `Winterfell (Win)`.
        province: String,
        coast: String,
        /// The coasts the province has (empty: it has none).
        known: Vec<String>,
    },
    /// Something else than what the grammar allows at this point.
    #[error("{at}: {}", self.detail(Lang::En))]
    Expected {
        at: SourcePos,
        expected: Expectation,
        /// The word or symbol found there; empty at the end of the line.
        found: String,
        /// A keyword close to what was found (`tient` for `tien`).
        hint: Option<&'static str>,
    },
    /// A line longer than any order, refused before parsing.
    #[error("{at}: {}", self.detail(Lang::En))]
    TooLong {
        at: SourcePos,
        length: usize,
        max: usize,
    },
}

impl OrderError {
    /// A stable code, for templates and tools (`order.unknown_province`).
    pub fn code(&self) -> &'static str {
        match self {
            OrderError::UnknownProvince { .. } => "order.unknown_province",
            OrderError::UnknownCoast { .. } => "order.unknown_coast",
            OrderError::Expected { .. } => "order.expected",
            OrderError::TooLong { .. } => "order.too_long",
        }
    }

    /// Where the problem is.
    pub fn span(&self) -> &SourcePos {
        match self {
            OrderError::UnknownProvince { at, .. }
            | OrderError::UnknownCoast { at, .. }
            | OrderError::Expected { at, .. }
            | OrderError::TooLong { at, .. } => at,
        }
    }

    /// The same error, located in another source and line (the column is kept).
    pub fn relocated(mut self, source: &Arc<str>, line: u32) -> OrderError {
        let at = match &mut self {
            OrderError::UnknownProvince { at, .. }
            | OrderError::UnknownCoast { at, .. }
            | OrderError::Expected { at, .. }
            | OrderError::TooLong { at, .. } => at,
        };
        at.source = Arc::clone(source);
        at.line = line;
        self
    }

    /// The message for a player: `ligne 1, colonne 8 : « Sombrevale » ? vouliez-vous dire
    /// Sombreval (Som) ?` or `line 1, column 8: unknown province `Sombrevale`; …`.
    pub fn message(&self, lang: Lang) -> String {
        let at = self.span();
        say!(
            lang,
            "order.at",
            line = at.line,
            column = at.column,
            detail = self.detail(lang)
        )
    }

    /// The message without its place, from the catalogue entry of its [`code`](Self::code).
    fn detail(&self, lang: Lang) -> String {
        match self {
            OrderError::UnknownProvince { name, nearest, .. } => {
                let nearest: Vec<&str> = nearest.iter().map(|n| n.shown(lang)).collect();
                say!(lang, "order.unknown_province", name, nearest)
            }
            OrderError::UnknownCoast {
                province,
                coast,
                known,
                ..
            } => say!(lang, "order.unknown_coast", province, coast, known),
            OrderError::Expected {
                expected,
                found,
                hint,
                ..
            } => say!(
                lang,
                "order.expected",
                expected = expected.describe(lang),
                found,
                hint
            ),
            OrderError::TooLong { length, max, .. } => {
                say!(lang, "order.too_long", length, max)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(column: u32) -> SourcePos {
        SourcePos {
            source: Arc::from("orders.txt"),
            line: 1,
            column,
        }
    }

    #[test]
    fn unknown_province_suggests_in_both_languages() {
        let e = OrderError::UnknownProvince {
            at: at(8),
            name: "Sombrevale".into(),
            nearest: vec!["Sombreval (Som)".into()],
        };
        assert_eq!(
            e.message(Lang::Fr),
            "ligne 1, colonne 8 : « Sombrevale » ? vouliez-vous dire Sombreval (Som) ?"
        );
        assert_eq!(
            e.message(Lang::En),
            "line 1, column 8: unknown province `Sombrevale`; did you mean Sombreval (Som)?"
        );
        assert_eq!(
            e.to_string(),
            "orders.txt:1:8: unknown province `Sombrevale`; did you mean Sombreval (Som)?"
        );
        assert_eq!(e.code(), "order.unknown_province");
    }
}
