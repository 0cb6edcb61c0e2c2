//! Why an order line could not be read: typed, located (line and column, counted in
//! characters), with the nearest province names for a misspelling, in French or English.

use std::sync::Arc;

use crate::lang::Lang;

use super::ast::SourcePos;

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
    /// The expectation in words, in a language.
    pub fn describe(self, lang: Lang) -> &'static str {
        match self {
            Expectation::Order => lang.pick(
                "un ordre (une unité comme « A Win », ou construire, dissoudre, renoncer)",
                "an order (a unit such as `A Win`, or build, disband, waive)",
            ),
            Expectation::Unit => lang.pick(
                "une unité (« A Win », « F Crb », le nom d'un dragon ou une province)",
                "a unit (`A Win`, `F Crb`, a dragon's name or a province)",
            ),
            Expectation::Province => lang.pick("une province", "a province"),
            Expectation::Coast => lang.pick("une côte", "a coast"),
            Expectation::Verb => lang.pick(
                "un verbe (tient, ->, soutient, convoie, retraite, dissoudre, construire)",
                "an order verb (hold, ->, supports, convoys, retreat, disband, build)",
            ),
            Expectation::Arrow => lang.pick(
                "une flèche « -> » et une destination",
                "an arrow `->` and a destination",
            ),
            Expectation::CloseParen => lang.pick("« ) »", "`)`"),
            Expectation::End => lang.pick("la fin de l'ordre", "the end of the order"),
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
        /// The nearest province names, best first, shown as `Sombreval (Som)`.
        nearest: Vec<String>,
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
        let place = match lang {
            Lang::Fr => format!("ligne {}, colonne {} :", at.line, at.column),
            Lang::En => format!("line {}, column {}:", at.line, at.column),
        };
        format!("{place} {}", self.detail(lang))
    }

    /// The message without its place.
    fn detail(&self, lang: Lang) -> String {
        match (self, lang) {
            (OrderError::UnknownProvince { name, nearest, .. }, Lang::Fr) => {
                if nearest.is_empty() {
                    format!("province inconnue « {name} »")
                } else {
                    format!(
                        "« {name} » ? vouliez-vous dire {} ?",
                        alternatives(nearest, "ou")
                    )
                }
            }
            (OrderError::UnknownProvince { name, nearest, .. }, Lang::En) => {
                if nearest.is_empty() {
                    format!("unknown province `{name}`")
                } else {
                    format!(
                        "unknown province `{name}`; did you mean {}?",
                        alternatives(nearest, "or")
                    )
                }
            }
            (
                OrderError::UnknownCoast {
                    province,
                    coast,
                    known,
                    ..
                },
                Lang::Fr,
            ) => {
                if known.is_empty() {
                    format!("côte « {coast} » : {province} n'a qu'une côte, ne la nommez pas")
                } else {
                    format!(
                        "côte inconnue « {coast} » pour {province} ; ses côtes : {}",
                        known.join(", ")
                    )
                }
            }
            (
                OrderError::UnknownCoast {
                    province,
                    coast,
                    known,
                    ..
                },
                Lang::En,
            ) => {
                if known.is_empty() {
                    format!("coast `{coast}`: {province} has a single coast, do not name it")
                } else {
                    format!(
                        "unknown coast `{coast}` of {province}; its coasts are {}",
                        known.join(", ")
                    )
                }
            }
            (
                OrderError::Expected {
                    expected,
                    found,
                    hint,
                    ..
                },
                Lang::Fr,
            ) => {
                let found = if found.is_empty() {
                    "la fin de la ligne".to_string()
                } else {
                    format!("« {found} »")
                };
                let hint =
                    hint.map_or(String::new(), |h| format!(" ; vouliez-vous dire « {h} » ?"));
                format!(
                    "on attendait {}, mais on trouve {found}{hint}",
                    expected.describe(Lang::Fr)
                )
            }
            (
                OrderError::Expected {
                    expected,
                    found,
                    hint,
                    ..
                },
                Lang::En,
            ) => {
                let found = if found.is_empty() {
                    "the end of the line".to_string()
                } else {
                    format!("`{found}`")
                };
                let hint = hint.map_or(String::new(), |h| format!("; did you mean `{h}`?"));
                format!(
                    "expected {}, found {found}{hint}",
                    expected.describe(Lang::En)
                )
            }
            (OrderError::TooLong { length, max, .. }, Lang::Fr) => format!(
                "ligne trop longue ({length} caractères, au plus {max}) : un ordre par ligne"
            ),
            (OrderError::TooLong { length, max, .. }, Lang::En) => {
                format!("line too long ({length} characters, at most {max}): one order a line")
            }
        }
    }
}

/// `A`, `A or B`, `A, B or C`.
fn alternatives(names: &[String], or: &str) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {or} {last}", init.join(", ")),
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

    #[test]
    fn alternatives_are_joined_with_or() {
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(alternatives(&names, "or"), "a, b or c");
        assert_eq!(alternatives(&names[..2], "ou"), "a ou b");
    }
}
