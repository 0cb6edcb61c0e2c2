//! The reply's sections, typed: one variant per kind that `reply.txt` (fr, en) renders,
//! with the fields it reads. Serialized as the template sees them: `kind` (the variant's
//! name in kebab case) next to the variant's fields, next to the line (`line`, `text`)
//! the section answers. A kind the template does not know would fall through its
//! `if`/`elif` chain silently, printing nothing: the tests below render every variant in
//! both languages and check that each says something of its own.

use serde::Serialize;

/// One section of the reply, as a line (or the mail as a whole, line 0) made it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Placed {
    /// The mail's line the section answers (0: the mail as a whole).
    pub line: usize,
    /// The line as written (secrets masked), quoted back; empty for none.
    pub text: String,
    #[serde(flatten)]
    pub section: ReplySection,
}

/// What became of one line, or of the mail.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(super) enum ReplySection {
    /// The line could not be carried out, and why.
    Error {
        message: String,
    },
    /// An order set refused whole: the lines at fault (at most a reply's worth), and how
    /// many more there were.
    OrdersRefused {
        problems: Vec<RefusedLine>,
        more: usize,
    },
    /// Neither a command nor an order (a greeting before the sign-on, prose after orders).
    Ignored,
    /// The mail held no command.
    Empty,
    /// The last answer of the hour: `cap` answers an hour, silence until `until`;
    /// `failed`: of the answers to failed sign-ons (a right secret is still answered).
    Quiet {
        cap: u32,
        until: String,
        failed: bool,
    },
    /// Attachments, not read.
    Attachments {
        names: Vec<String>,
    },
    /// A player's sign-on; `extra`: words after the secret were ignored.
    SignedOn {
        house: String,
        game: String,
        extra: bool,
        /// From another address than the player's: a copy of the answer goes there.
        elsewhere: bool,
    },
    /// The moderator's sign-on.
    Moderator {
        game: String,
        extra: bool,
        /// From another address than the moderator's: a copy of the answer goes there.
        elsewhere: bool,
    },
    /// Wrong secrets for the seat just signed on, since its owner was last told: how
    /// many, the first and the last (in the reader's words).
    FailedSignOns {
        count: u32,
        first: String,
        last: String,
    },
    /// This many order lines received.
    Orders {
        count: usize,
    },
    /// `PRÊT` not counted: orders of the mail were refused.
    ReadyRefused,
    /// `PRÊT` (or no longer).
    Ready {
        ready: bool,
    },
    /// What the mail did to the phase's course, worded by the desk: ready no more, or the
    /// phase processed now (docs/email.md, `READY`).
    Note {
        message: String,
    },
    /// `ÉTAT`.
    Status {
        game: String,
        name: String,
        status: String,
        phase: String,
        deadline: String,
        houses: Vec<HouseState>,
        /// How a finished game ended, said instead of its houses' state.
        ending: Option<String>,
    },
    /// `LISTE`.
    List {
        games: Vec<GameLine>,
    },
    /// `HISTORIQUE`: a phase's results as `results.txt` writes them.
    History {
        results: String,
    },
    /// `APERÇU`: the results the phase would have now.
    Preview {
        results: String,
    },
    /// A vote (`none`, `draw`, or the house conceded to), and the game's ending if it
    /// made one.
    Vote {
        vote: String,
        ending: Option<String>,
    },
    Resigned,
    Absence,
    Language,
    /// The house's new address.
    Address {
        address: String,
    },
    /// An observer confirmed, with the secret to stop.
    Observing {
        game: String,
        secret: String,
    },
    Unobserved,
    /// A request to observe, waiting for the address to confirm it with `token`.
    ObserveAsked {
        game: String,
        address: String,
        asked: String,
        expires: String,
        token: String,
    },
    /// Observers allowed or forbidden; how many stopped receiving the results.
    Observers {
        allowed: bool,
        removed: usize,
    },
    /// `CARTE`: the game as it stands; `again`: the picture was already attached;
    /// `held`: no picture, the hourly cap is spent (why, and when pictures come again).
    Map {
        game: String,
        phase: String,
        deadline: String,
        status: String,
        pictures: bool,
        again: bool,
        held: Option<String>,
    },
    /// Pictures in the game's mails on or off; `own`: in the player's own mails only.
    Pictures {
        on: bool,
        own: bool,
    },
    /// Press sent to this many recipients.
    Press {
        count: usize,
        to: Vec<String>,
        broadcast: bool,
        grey: bool,
    },
    Help,
    Started(Moderated),
    Processed(Moderated),
    Paused(Moderated),
    Resumed(Moderated),
    Extended(Moderated),
    RolledBack(Moderated),
    Removed(Moderated),
    Ended(Moderated),
    /// A player seated by the moderator (a house without one, or in another's place).
    Added {
        house: String,
        address: String,
    },
    Replaced {
        house: String,
        address: String,
    },
    /// A setting changed (`RÉGLER`): the change in words, and the deadline unless the
    /// change is the deadline's.
    Set {
        change: String,
        deadline: Option<String>,
    },
    // The habits of njudge players.
    /// A command done, worded by the desk (a draw naming houses voted, a new secret),
    /// and the game's ending if it made one.
    Done {
        message: String,
        ending: Option<String>,
    },
    // Creating a game, who plays, summary: each a text worded by the desk.
    /// `CREATE`: the game made, with the moderator's secret.
    Created {
        said: String,
    },
    /// `WHOGAME`.
    WhoGame {
        said: String,
    },
    /// `SUMMARY`.
    Summary {
        said: String,
    },
    /// Joining: a seat taken, asked for, given or refused, in words.
    Seat {
        message: String,
    },
    /// A `JOIN`, `TAKEOVER` or `CREATE` waiting for its address to confirm: what was
    /// asked, the line to send back (its token in it), what to do if nobody asked.
    Consent {
        message: String,
        line: String,
        ignore: String,
    },
    // Orders for later phases.
    /// The blocks of orders for later phases a house holds, one a line, worded.
    Ahead {
        said: String,
    },
    /// An `IF` block of the orders read: each condition tested, up to the branch taken.
    Conditional {
        steps: Vec<String>,
    },
}

/// One refused order line, numbered in the mail.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct RefusedLine {
    pub line: usize,
    pub text: String,
    pub message: String,
}

/// One house in `ÉTAT`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct HouseState {
    pub name: String,
    pub deciding: bool,
    pub ordered: bool,
    pub ready: bool,
    pub player: bool,
    pub civil_disorder: bool,
    pub bounced: bool,
    /// The house's vote to end the game, worded: shown to the moderator only (none for
    /// a player's `STATUS`).
    pub vote: Option<String>,
}

/// One game in `LISTE`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct GameLine {
    pub id: String,
    pub name: String,
    pub variant: String,
    pub status: String,
    pub phase: String,
    pub deadline: String,
    /// Houses without a player.
    pub free: usize,
    /// Joining: for an open game, its free houses and how to take one.
    pub join: Option<String>,
}

/// The game after a moderator's command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Moderated {
    pub phase: String,
    pub deadline: String,
    pub status: String,
    pub ending: Option<String>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::lang::Lang;
    use crate::report::render_template;

    fn moderated() -> Moderated {
        Moderated {
            phase: "Printemps 1901".into(),
            deadline: "lundi".into(),
            status: "en cours".into(),
            ending: None,
        }
    }

    /// One section of every kind.
    fn samples() -> Vec<ReplySection> {
        let s = |t: &str| t.to_string();
        vec![
            ReplySection::Error { message: s("non") },
            ReplySection::OrdersRefused {
                problems: vec![RefusedLine {
                    line: 3,
                    text: s("A Xyz H"),
                    message: s("inconnu"),
                }],
                more: 2,
            },
            ReplySection::Ignored,
            ReplySection::Empty,
            ReplySection::Quiet {
                cap: 20,
                until: s("12:00 UTC"),
                failed: true,
            },
            ReplySection::Attachments {
                names: vec![s("a.pdf")],
            },
            ReplySection::SignedOn {
                house: s("Stark"),
                game: s("g"),
                extra: true,
                elsewhere: true,
            },
            ReplySection::Moderator {
                game: s("g"),
                extra: false,
                elsewhere: true,
            },
            ReplySection::FailedSignOns {
                count: 7,
                first: s("lundi 23 mars 2026 à 09:00"),
                last: s("lundi 23 mars 2026 à 09:40"),
            },
            ReplySection::Orders { count: 2 },
            ReplySection::ReadyRefused,
            ReplySection::Ready { ready: true },
            ReplySection::Note {
                message: s("traitée"),
            },
            ReplySection::Status {
                game: s("g"),
                name: s("G"),
                status: s("en cours"),
                phase: s("Printemps 1901"),
                deadline: s("lundi"),
                houses: vec![HouseState {
                    name: s("Stark"),
                    deciding: true,
                    ordered: false,
                    ready: false,
                    player: true,
                    civil_disorder: false,
                    bounced: false,
                    vote: None,
                }],
                ending: None,
            },
            ReplySection::List {
                games: vec![GameLine {
                    id: s("g"),
                    name: s("G"),
                    variant: s("westeros"),
                    status: s("en cours"),
                    phase: s("Printemps 1901"),
                    deadline: s("lundi"),
                    free: 1,
                    join: Some(s("REJOINDRE g [maison]")),
                }],
            },
            ReplySection::History {
                results: s("Résultats"),
            },
            ReplySection::Preview {
                results: s("Résultats"),
            },
            ReplySection::Vote {
                vote: s("draw"),
                ending: None,
            },
            ReplySection::Resigned,
            ReplySection::Absence,
            ReplySection::Language,
            ReplySection::Address {
                address: s("a@example.org"),
            },
            ReplySection::Observing {
                game: s("g"),
                secret: s("s3cret"),
            },
            ReplySection::Unobserved,
            ReplySection::ObserveAsked {
                game: s("g"),
                address: s("a@example.org"),
                asked: s("lundi"),
                expires: s("jeudi"),
                token: s("t0ken"),
            },
            ReplySection::Observers {
                allowed: false,
                removed: 0,
            },
            ReplySection::Map {
                game: s("g"),
                phase: s("Printemps 1901"),
                deadline: s("lundi"),
                status: s("en cours"),
                pictures: true,
                again: false,
                held: None,
            },
            ReplySection::Pictures {
                on: false,
                own: true,
            },
            ReplySection::Press {
                count: 2,
                to: vec![],
                broadcast: true,
                grey: false,
            },
            ReplySection::Help,
            ReplySection::Started(moderated()),
            ReplySection::Processed(moderated()),
            ReplySection::Paused(moderated()),
            ReplySection::Resumed(moderated()),
            ReplySection::Extended(moderated()),
            ReplySection::RolledBack(moderated()),
            ReplySection::Removed(moderated()),
            ReplySection::Ended(Moderated {
                ending: Some(s("Victoire de Stark")),
                ..moderated()
            }),
            ReplySection::Added {
                house: s("Stark"),
                address: s("a@example.org"),
            },
            ReplySection::Replaced {
                house: s("Stark"),
                address: s("a@example.org"),
            },
            ReplySection::Set {
                change: s("délai de grâce : 0h → 6h"),
                deadline: Some(s("lundi")),
            },
            ReplySection::Done {
                message: s("fait"),
                ending: None,
            },
            ReplySection::Created { said: s("créée") },
            ReplySection::WhoGame { said: s("Stark") },
            ReplySection::Summary { said: s("Bilan") },
            ReplySection::Seat {
                message: s("Stark est à vous"),
            },
            ReplySection::Consent {
                message: s("demande"),
                line: s("REJOINDRE w1 CONFIRMER t0ken"),
                ignore: s("ignorez"),
            },
            ReplySection::Ahead {
                said: s("automne 1901 : 3 lignes"),
            },
            ReplySection::Conditional {
                steps: vec![s("ligne 3, SI Stark Win : vrai")],
            },
        ]
    }

    /// The variant's place in the declaration. The match has no wildcard: a new kind does
    /// not compile until it is placed here, and then the test wants a sample of it.
    fn rank(section: &ReplySection) -> usize {
        match section {
            ReplySection::Error { .. } => 0,
            ReplySection::OrdersRefused { .. } => 1,
            ReplySection::Ignored => 2,
            ReplySection::Empty => 3,
            ReplySection::Quiet { .. } => 4,
            ReplySection::Attachments { .. } => 5,
            ReplySection::SignedOn { .. } => 6,
            ReplySection::Moderator { .. } => 7,
            ReplySection::FailedSignOns { .. } => 8,
            ReplySection::Orders { .. } => 9,
            ReplySection::ReadyRefused => 10,
            ReplySection::Ready { .. } => 11,
            ReplySection::Status { .. } => 12,
            ReplySection::List { .. } => 13,
            ReplySection::History { .. } => 14,
            ReplySection::Preview { .. } => 15,
            ReplySection::Vote { .. } => 16,
            ReplySection::Resigned => 17,
            ReplySection::Absence => 18,
            ReplySection::Language => 19,
            ReplySection::Address { .. } => 20,
            ReplySection::Observing { .. } => 21,
            ReplySection::Unobserved => 22,
            ReplySection::ObserveAsked { .. } => 23,
            ReplySection::Observers { .. } => 24,
            ReplySection::Map { .. } => 25,
            ReplySection::Pictures { .. } => 26,
            ReplySection::Press { .. } => 27,
            ReplySection::Help => 28,
            ReplySection::Started(_) => 29,
            ReplySection::Processed(_) => 30,
            ReplySection::Paused(_) => 31,
            ReplySection::Resumed(_) => 32,
            ReplySection::Extended(_) => 33,
            ReplySection::RolledBack(_) => 34,
            ReplySection::Removed(_) => 35,
            ReplySection::Ended(_) => 36,
            ReplySection::Added { .. } => 37,
            ReplySection::Replaced { .. } => 38,
            ReplySection::Set { .. } => 39,
            ReplySection::Note { .. } => 40,
            ReplySection::Done { .. } => 41,
            ReplySection::Created { .. } => 42,
            ReplySection::WhoGame { .. } => 43,
            ReplySection::Summary { .. } => 44,
            ReplySection::Seat { .. } => 45,
            ReplySection::Consent { .. } => 46,
            ReplySection::Ahead { .. } => 47,
            ReplySection::Conditional { .. } => 48,
        }
    }

    fn kind(section: &ReplySection) -> String {
        let value = serde_json::to_value(section).expect("a section serializes");
        value["kind"].as_str().expect("a kind").to_string()
    }

    /// The reply with these sections (JSON as the desk gives them), as the built-in
    /// templates write it.
    fn reply(sections: serde_json::Value, lang: Lang) -> String {
        let data = json!({
            "game": null,
            "subject": "",
            "sections": sections,
            "orders": null,
            "judge": "judge@example.org",
            "owner_copy": null,
        });
        render_template(
            "reply.txt",
            minijinja::Value::from_serialize(&data),
            lang,
            None,
        )
        .expect("reply.txt renders")
    }

    #[test]
    fn every_kind_has_a_sample() {
        let mut ranks: Vec<usize> = samples().iter().map(rank).collect();
        ranks.sort_unstable();
        let expected: Vec<usize> = (0..ranks.len()).collect();
        assert_eq!(ranks, expected, "one sample of every ReplySection variant");
        assert_eq!(ranks.len(), 49);
    }

    #[test]
    fn every_kind_is_rendered_by_both_languages() {
        for lang in [Lang::Fr, Lang::En] {
            // What the template writes for a kind it does not know: its quote alone.
            let unknown = reply(
                json!([{ "line": 1, "text": "", "kind": "no-such-kind" }]),
                lang,
            );
            for section in samples() {
                let kind = kind(&section);
                let placed = Placed {
                    line: 1,
                    text: String::new(),
                    section,
                };
                let sections = serde_json::to_value([&placed]).expect("serializes");
                let text = reply(sections, lang);
                assert_ne!(
                    text, unknown,
                    "reply.txt ({lang:?}) falls through for kind {kind}"
                );
            }
        }
    }

    #[test]
    fn every_kind_is_named_in_both_reply_templates() {
        let templates = [
            include_str!("../../../templates/fr/reply.txt"),
            include_str!("../../../templates/en/reply.txt"),
        ];
        for section in samples() {
            let kind = kind(&section);
            for template in templates {
                assert!(
                    template.contains(&format!("\"{kind}\"")),
                    "reply.txt never names kind {kind}"
                );
            }
        }
    }

    /// The JSON the templates read: `kind` in kebab case beside the line and the fields.
    #[test]
    fn sections_serialize_as_the_templates_read_them() {
        let placed = Placed {
            line: 4,
            text: "PARTIE g Stark ******".into(),
            section: ReplySection::SignedOn {
                house: "Stark".into(),
                game: "g".into(),
                extra: false,
                elsewhere: false,
            },
        };
        assert_eq!(
            serde_json::to_value(&placed).expect("serializes"),
            json!({
                "line": 4, "text": "PARTIE g Stark ******", "kind": "signed-on",
                "house": "Stark", "game": "g", "extra": false, "elsewhere": false,
            })
        );
        let placed = Placed {
            line: 0,
            text: String::new(),
            section: ReplySection::RolledBack(moderated()),
        };
        assert_eq!(
            serde_json::to_value(&placed).expect("serializes"),
            json!({
                "line": 0, "text": "", "kind": "rolled-back", "phase": "Printemps 1901",
                "deadline": "lundi", "status": "en cours", "ending": null,
            })
        );
        let placed = Placed {
            line: 2,
            text: "FIN".into(),
            section: ReplySection::ReadyRefused,
        };
        assert_eq!(
            serde_json::to_value(&placed).expect("serializes"),
            json!({ "line": 2, "text": "FIN", "kind": "ready-refused" })
        );
    }
}
