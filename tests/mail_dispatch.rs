//! The mail dispatcher (src/mail/dispatch.rs) at library level: mails given as `Inbound`
//! values (or raw RFC 5322 text through `maildir::ingest_one`) to
//! `corbeau::mail::dispatch::handle`, then the store's outbox and the game looked at.
//! Sign-on, every player and moderator command, press under every setting, and the
//! mails that are not answered or only half read. The rendered mails themselves are
//! golden files: tests/golden/mail/ (CORBEAU_BLESS=1 rewrites them; review the diff).
//!
//! Most tests are cases of one table (`cases!` below): the games the judge holds, then
//! mails, each with what the one reply to its sender must say and what the game must hold
//! after it. The tests that look at more than that reply follow the table.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{Game, GameStatus, NoticeKind, Press, Settings};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::Handled;
use corbeau::mail::outmail::OutMail;

use support::assert_golden;
use support::world::{
    BARATHEON, BARATHEON_SECRET, GAME, GameSpec, JUDGE, LANNISTER, LANNISTER_SECRET, MODERATOR,
    MODERATOR_SECRET, STARK, STARK_SECRET, STRANGER, World, now,
};
use support::{flat, rendered};

/// A judge holding [`GAME`] (three players, a moderator), started, with this press.
fn running(name: &str, press: Press) -> World {
    World::westeros("dispatch", name, settings(press), true)
}

/// A judge holding no game.
fn empty(name: &str) -> World {
    World::new("dispatch", name)
}

fn settings(press: Press) -> Settings {
    Settings {
        press,
        ..Settings::default()
    }
}

/// The one reply to `to` among the mails queued since the last look.
fn reply_to(w: &World, to: &str) -> OutMail {
    one_reply(&w.take(), to)
}

fn replies<'a>(mails: &'a [OutMail], to: &str) -> Vec<&'a OutMail> {
    mails
        .iter()
        .filter(|m| m.to == to && m.subject.starts_with("Re:"))
        .collect()
}

fn one_reply(mails: &[OutMail], to: &str) -> OutMail {
    let found = replies(mails, to);
    assert_eq!(found.len(), 1, "replies to {to}: {}", show(mails));
    found[0].clone()
}

fn show(mails: &[OutMail]) -> String {
    mails
        .iter()
        .map(|m| format!("--- to {}\nSubject: {}\n{}\n", m.to, m.subject, m.body))
        .collect()
}

fn seat_ready(game: &Game, house: &str) -> bool {
    game.seat(house).unwrap().ready()
}

fn orders_of(game: &Game, house: &str) -> Vec<String> {
    game.seat(house)
        .unwrap()
        .orders()
        .iter()
        .map(|o| o.order.text.clone())
        .collect()
}

fn sign_on(house: &str, secret: &str) -> String {
    format!("PARTIE {GAME} {house} {secret}\n")
}

fn stark() -> String {
    sign_on("Stark", STARK_SECRET)
}

fn moderator() -> String {
    format!("MODERATEUR {GAME} {MODERATOR_SECRET}\n")
}

/// The secret of a welcome mail.
fn secret_in(welcome: &OutMail) -> String {
    welcome
        .body
        .lines()
        .find_map(|l| {
            l.strip_prefix("Votre secret : ")
                .or_else(|| l.strip_prefix("Your secret: "))
        })
        .unwrap_or_else(|| panic!("no secret in {}", welcome.body))
        .trim()
        .to_string()
}

// =========================================================================== the table

/// One mail of a case and what follows it: the one reply to its sender, and the game.
struct Step {
    from: &'static str,
    lines: String,
    /// What the reply says, as written.
    says: Vec<&'static str>,
    /// What the reply says, its lines unwrapped (see [`flat`]).
    reads: Vec<&'static str>,
    /// What the reply must not say.
    never: Vec<&'static str>,
    /// Text the reply says exactly so many times.
    times: Vec<(&'static str, usize)>,
    /// The golden file the reply must be.
    golden: Option<&'static str>,
    /// What the judge holds after the mail.
    holds: Vec<Holds>,
}

/// A mail from `from`; in its lines `{game}`, `{stark_secret}` stand for [`GAME`] and
/// Stark's secret, and `{stark}`, `{lannister}`, `{baratheon}`, `{moderator}` for a sign-on
/// line (Lannister's in English keywords).
fn mail(from: &'static str, lines: &str) -> Step {
    let lines = lines
        .replace("{stark}", &stark())
        .replace(
            "{lannister}",
            &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\n"),
        )
        .replace("{baratheon}", &sign_on("Baratheon", BARATHEON_SECRET))
        .replace("{moderator}", &moderator())
        .replace("{stark_secret}", STARK_SECRET)
        .replace("{game}", GAME);
    Step {
        from,
        lines,
        says: Vec::new(),
        reads: Vec::new(),
        never: Vec::new(),
        times: Vec::new(),
        golden: None,
        holds: Vec::new(),
    }
}

impl Step {
    fn says(mut self, texts: &[&'static str]) -> Step {
        self.says.extend(texts);
        self
    }
    fn reads(mut self, texts: &[&'static str]) -> Step {
        self.reads.extend(texts);
        self
    }
    fn never(mut self, texts: &[&'static str]) -> Step {
        self.never.extend(texts);
        self
    }
    fn times(mut self, text: &'static str, count: usize) -> Step {
        self.times.push((text, count));
        self
    }
    fn golden(mut self, name: &'static str) -> Step {
        self.golden = Some(name);
        self
    }
    fn holds(mut self, facts: Vec<Holds>) -> Step {
        self.holds.extend(facts);
        self
    }
}

/// A fact about the judge after a mail; the game is [`GAME`].
enum Holds {
    Ready(&'static str),
    NotReady(&'static str),
    Status(GameStatus),
    /// Phases played.
    Played(u32),
    /// The phase being played, in English.
    Phase(&'static str),
    /// Phases in the history.
    Phases(usize),
    /// A house's orders, in the order given.
    Orders(&'static str, &'static [&'static str]),
    /// A house's orders, in any order.
    OrdersSorted(&'static str, &'static [&'static str]),
    /// A line of the audit trail (see `support::audit_text`).
    Audit(&'static str),
    /// The kinds of the notices not yet told.
    Notices(Vec<NoticeKind>),
    /// The notices told now make this many mails.
    NoticeMails(usize),
    /// The seats are as they were before the case's first mail.
    SeatsAsBefore,
    /// The deadline is this much later than before the case's first mail.
    DeadlineMoved(TimeDelta),
    /// The deadline is later than before the case's first mail.
    DeadlineLater,
    /// Anything else.
    Check(fn(&World)),
}

/// The judge a case begins with, in a few words: `none`, or [`GAME`] `running` or
/// `forming` and its press (`full`, `broadcast`, `grey`, `none`); a second game, named,
/// after a comma: `running full, westeros-2 forming none`.
fn judge_for(name: &str, words: &str) -> World {
    let w = World::new("dispatch", name);
    if words == "none" {
        return w;
    }
    for (i, game) in words.split(", ").enumerate() {
        let mut words: Vec<&str> = game.split(' ').collect();
        let id = if i == 0 { GAME } else { words.remove(0) };
        let press = match words[1] {
            "full" => Press::Full,
            "broadcast" => Press::Broadcast,
            "grey" => Press::Grey,
            "none" => Press::None,
            other => panic!("{name}: no press {other:?}"),
        };
        w.create_seated(id, settings(press), words[0] == "running");
    }
    w
}

/// Runs one case: the judge `words` describe, then each mail and its checks. A failure
/// names the case and the mail.
fn run(name: &str, words: &str, steps: Vec<Step>) {
    let mut w = judge_for(name, words);
    let before = (words != "none").then(|| w.game(GAME));
    for (i, step) in steps.into_iter().enumerate() {
        let at = format!("{name}, mail {}", i + 1);
        w.send(step.from, &step.lines);
        let reply = reply_to(&w, step.from);
        let body = &reply.body;
        for text in step.says {
            assert!(body.contains(text), "{at}: no {text:?} in\n{body}");
        }
        for text in step.reads {
            assert!(flat(body).contains(text), "{at}: no {text:?} in\n{body}");
        }
        for text in step.never {
            assert!(!body.contains(text), "{at}: {text:?} in\n{body}");
        }
        for (text, count) in step.times {
            assert_eq!(
                body.matches(text).count(),
                count,
                "{at}: {text:?} in\n{body}"
            );
        }
        if let Some(golden) = step.golden {
            assert_golden(golden, &rendered(&reply));
        }
        for fact in step.holds {
            let game = w.game(GAME);
            let was = || before.as_ref().unwrap();
            match fact {
                Holds::Ready(house) => assert!(seat_ready(&game, house), "{at}: {house}"),
                Holds::NotReady(house) => assert!(!seat_ready(&game, house), "{at}: {house}"),
                Holds::Status(status) => assert_eq!(game.status(), status, "{at}"),
                Holds::Played(played) => assert_eq!(game.played(), played, "{at}"),
                Holds::Phase(phase) => assert_eq!(game.phase().to_string(), phase, "{at}"),
                Holds::Phases(count) => assert_eq!(w.history(GAME).len(), count, "{at}"),
                Holds::Orders(house, orders) => {
                    assert_eq!(orders_of(&game, house), orders, "{at}: {body}")
                }
                Holds::OrdersSorted(house, orders) => {
                    let mut given = orders_of(&game, house);
                    given.sort();
                    assert_eq!(given, orders, "{at}: {body}");
                }
                Holds::Audit(line) => {
                    let audit = w.audit(GAME);
                    assert!(audit.contains(line), "{at}: {audit}");
                }
                Holds::Notices(kinds) => assert_eq!(w.notice_kinds(), kinds, "{at}"),
                Holds::NoticeMails(count) => {
                    let told = w.notices(now());
                    assert_eq!(told.len(), count, "{at}: {}", show(&told));
                }
                Holds::SeatsAsBefore => assert_eq!(game.seats(), was().seats(), "{at}"),
                Holds::DeadlineMoved(by) => {
                    assert_eq!(
                        game.deadline().unwrap(),
                        was().deadline().unwrap() + by,
                        "{at}"
                    )
                }
                Holds::DeadlineLater => {
                    assert!(game.deadline().unwrap() > was().deadline().unwrap(), "{at}")
                }
                Holds::Check(check) => check(&w),
            }
        }
    }
}

/// One test a case, named: `name: "judge words" => [mail(…)…];`.
macro_rules! cases {
    ($($(#[$doc:meta])* $name:ident: $words:literal => [$($step:expr),+ $(,)?];)+) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                run(stringify!($name), $words, vec![$($step),+]);
            }
        )+
    };
}

use Holds::*;

cases! {
    // ======================================================================= sign-on

    a_wrong_secret_is_refused_changes_nothing_and_is_audited: "running full" => [
        mail(STARK, "PARTIE {game} Stark pas-le-bon\nA win -> roc\nPRET\nETAT\nHISTORIQUE\n")
            .says(&["maison ou secret incorrect"])
            // The order and the commands after it are refused for the same reason.
            .times("maison ou secret incorrect", 5)
            .never(&["pas-le-bon", "Date limite"])
            .holds(vec![
                Orders("stark", &[]),
                NotReady("stark"),
                SeatsAsBefore,
                Audit("refused sign-on as Stark from arya@nord.test"),
            ]),
    ];

    /// Lannister plays in English; French keywords and a wrong secret still get English.
    a_known_player_is_answered_in_their_language_before_signing_on: "running full" => [
        mail(LANNISTER, "PARTIE {game} Lannister faux\nPRET\n").says(&["wrong house or secret"]),
    ];

    a_wrong_house_reads_like_a_wrong_secret: "running full" => [
        mail(STARK, "PARTIE {game} Lannister {stark_secret}\nPRET\n")
            .says(&["maison ou secret incorrect"]),
        mail(STARK, "PARTIE {game} Dorne {stark_secret}\nPRET\n")
            .says(&["maison ou secret incorrect"])
            .holds(vec![NotReady("lannister")]),
    ];

    a_game_id_in_capitals_is_found: "running full" => [
        mail(STARK, "PARTIE WESTEROS-1 Stark {stark_secret}\nPRET\n")
            .says(&["✓ Identifié(e)"])
            .holds(vec![Ready("stark")]),
    ];

    commands_without_sign_on_are_refused: "running full" => [
        mail(STARK, "PRET\nA win -> roc\n")
            .says(&["il faut d'abord s'identifier"])
            .holds(vec![NotReady("stark")]),
    ];

    /// The word in the game's place names no game: it may be a secret typed first, so it
    /// is hidden; the nearest game id says what was meant. A mail reply points to a mail
    /// command, not to the command line.
    an_unknown_game_gets_the_nearest_id: "running full" => [
        mail(STARK, "PARTIE westeros1 Stark {stark_secret}\nPRET\n")
            .says(&[
                "aucune partie « ******** » (vouliez-vous dire « westeros-1 » ?)",
                "westeros-1",
            ])
            .never(&["corbeau game list"])
            .holds(vec![NotReady("stark")]),
    ];

    a_second_game_in_one_mail_is_refused: "running full, westeros-2 running full" => [
        mail(STARK, "{stark}PRET\nPARTIE westeros-2 Stark {stark_secret}\nPRET\n")
            .says(&["un message ne concerne qu'une partie (westeros-1)"])
            .holds(vec![
                Ready("stark"),
                Check(|w| assert!(!seat_ready(&w.game("westeros-2"), "stark"))),
            ]),
    ];

    an_unknown_game_is_still_the_mails_one_game: "running full" => [
        mail(STARK, "OBSERVER westeros-9\n{stark}PRET\n")
            .says(&[
                "aucune partie « westeros-9 »",
                "un message ne concerne qu'une partie (westeros-9)",
            ])
            .times("aucune partie", 1)
            .holds(vec![NotReady("stark")]),
    ];

    // ======================================================================= moderator

    a_wrong_moderator_secret_is_refused_and_audited: "forming full" => [
        mail(MODERATOR, "MODERATEUR {game} devine\nDEMARRER\n")
            .says(&["secret du modérateur incorrect pour la partie westeros-1"])
            .holds(vec![
                Status(GameStatus::Forming),
                Audit("refused moderator sign-on"),
                Notices(vec![]),
            ]),
    ];

    /// Three players and the moderator are told; starting again is refused with the
    /// game's reason.
    the_moderator_starts_a_game: "forming full" => [
        mail(MODERATOR, "{moderator}DEMARRER\n")
            .says(&["✓ Identifié(e) comme modérateur", "✓ Partie commencée"])
            .holds(vec![
                Status(GameStatus::Running),
                Notices(vec![NoticeKind::Started]),
                NoticeMails(4),
            ]),
        mail(MODERATOR, "{moderator}DEMARRER\n").says(&["✗ impossible (commencer)"]),
    ];

    a_player_secret_does_not_make_a_moderator: "forming full" => [
        mail(STARK, "{stark}DEMARRER\n")
            .says(&["commande du modérateur"])
            .holds(vec![Status(GameStatus::Forming)]),
    ];

    process_with_the_current_phase_processes_it: "running full" => [
        mail(MODERATOR, "{moderator}TRAITER printemps 298 mouvements\n")
            .says(&["✓ Phase traitée"])
            .holds(vec![
                Played(1),
                Phase("autumn 298 movement"),
                Phases(1),
                NoticeMails(4),
            ]),
    ];

    process_with_another_phase_does_nothing_and_says_so: "running full" => [
        mail(MODERATOR, "{moderator}TRAITER automne 298 mouvements\n")
            .reads(&[
                "la phase en cours est « printemps 298 mouvements », pas « automne 298 mouvements » : rien n'a été fait",
            ])
            .holds(vec![Played(0), Phases(0), Notices(vec![])]),
    ];

    a_second_process_in_one_mail_is_refused: "running full" => [
        mail(
            MODERATOR,
            "{moderator}TRAITER printemps 298 mouvements\nTRAITER automne 298 mouvements\n",
        )
        .says(&["une seule phase traitée ou annulée par message"])
        .holds(vec![Played(1)]),
    ];

    process_then_rollback_in_one_mail_is_refused: "running full" => [
        mail(
            MODERATOR,
            "{moderator}TRAITER printemps 298 mouvements\nANNULER printemps 298 mouvements\n",
        )
        .says(&["✓ Phase traitée", "✗ une seule phase traitée ou annulée par message"])
        .holds(vec![
            Played(1),
            Phases(1),
            Check(|w| assert_eq!(w.history(GAME)[0].phase.to_string(), "spring 298 movement")),
        ]),
    ];

    /// A bad span is refused, and so is more than the game allows in total (3 days).
    extend_moves_the_deadline_and_a_bad_span_is_refused: "running full" => [
        mail(MODERATOR, "{moderator}PROLONGER 2j\n")
            .says(&["✓ Date limite repoussée"])
            .holds(vec![
                DeadlineMoved(TimeDelta::days(2)),
                Check(|w| {
                    assert!(matches!(
                        w.notice_kinds().as_slice(),
                        [NoticeKind::DeadlineChanged { .. }]
                    ))
                }),
            ]),
        mail(MODERATOR, "{moderator}PROLONGER 2 semaines\n")
            .says(&["✗"])
            .never(&["✓ Date limite repoussée"])
            .holds(vec![DeadlineMoved(TimeDelta::days(2))]),
        mail(MODERATOR, "{moderator}PROLONGER 2j\n")
            .says(&["✗"])
            .holds(vec![DeadlineMoved(TimeDelta::days(2))]),
    ];

    remove_leaves_the_house_without_a_player: "running full" => [
        mail(MODERATOR, "{moderator}RETIRER Baratheon\n")
            .says(&["✓ Joueur retiré."])
            .holds(vec![Check(|w| {
                assert!(w.game(GAME).seat("baratheon").unwrap().player().is_none())
            })]),
        mail(BARATHEON, "{baratheon}PRET\n").says(&["maison ou secret incorrect"]),
    ];

    /// Nothing more to order once the game is over.
    end_game_draw_ends_it: "running full" => [
        mail(MODERATOR, "{moderator}TERMINER NUL\n")
            .says(&["✓ Partie terminée : match nul entre Stark, Lannister et Baratheon."])
            .holds(vec![
                Status(GameStatus::Finished),
                Notices(vec![NoticeKind::GameOver]),
                NoticeMails(4),
            ]),
        mail(STARK, "{stark}A win H\n").says(&["✗"]),
    ];

    // ======================================================================= orders

    /// A full set again replaces everything.
    orders_then_partial_orders_replace_what_they_name: "running full" => [
        mail(STARK, "{stark}ORDRES\nA win -> roc\nA moa H\nF bla H\n")
            .says(&[
                "✓ 3 ligne(s) d'ordres",
                "A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)",
            ])
            .never(&["Unités sans ordre"]),
        mail(STARK, "{stark}ORDRES PARTIELS\nA moa -> gri\n")
            .says(&["✓ 1 ligne(s) d'ordres"])
            .holds(vec![OrdersSorted("stark", &["A moa -> gri", "A win -> roc", "F bla H"])]),
        mail(STARK, "{stark}ORDRES\nA win H\n").holds(vec![Orders("stark", &["A win H"])]),
    ];

    /// The set before stays as it was.
    an_unreadable_line_refuses_the_whole_set: "running full" => [
        mail(STARK, "{stark}A win -> roc\nA moa H\n"),
        mail(STARK, "{stark}A win -> Port-Réel\nA moa tient\nA bla bla bla\nF bla H\n")
            .says(&["✗ Ordres refusés, aucun n'a été enregistré", "Port-Réel"])
            .holds(vec![Orders("stark", &["A win -> roc", "A moa H"])])
            .golden("mail/reply-orders-refused-fr.txt"),
    ];

    prose_after_the_orders_is_set_aside_and_the_orders_kept: "running full" => [
        mail(STARK, "{stark}A win -> roc\nA moa H\nMerci !\nBonne journée à tous\n")
            .says(&["> Merci !", "✓ 2 ligne(s) d'ordres"])
            .times("(ignoré", 2)
            .never(&["Ordres refusés"])
            .holds(vec![Orders("stark", &["A win -> roc", "A moa H"])]),
    ];

    a_greeting_before_the_sign_on_is_set_aside: "running full" => [
        mail(STARK, "Bonjour le corbeau,\n{stark}A win -> roc\n")
            .says(&["> Bonjour le corbeau,", "(ignoré"])
            .never(&["il faut d'abord"])
            .holds(vec![Orders("stark", &["A win -> roc"])]),
    ];

    /// ORDRES again in the same mail starts a new whole set, as written.
    orders_on_both_sides_of_a_command_make_one_set: "running full" => [
        mail(
            STARK,
            "{stark}A win -> roc\nPRESSE A Lannister\nLe Nord se souvient.\nFIN PRESSE\nA moa H\nPRET\nF bla H\n",
        )
        .never(&["Unités sans ordre"])
        .holds(vec![OrdersSorted("stark", &["A moa H", "A win -> roc", "F bla H"])]),
        mail(STARK, "{stark}A win H\nETAT\nORDRES\nA moa -> gri\n")
            .holds(vec![Orders("stark", &["A moa -> gri"])]),
    ];

    ready_and_not_ready: "running full" => [
        mail(STARK, "{stark}PRET\n").says(&["✓ Prêt"]).holds(vec![Ready("stark")]),
        mail(STARK, "{stark}PAS PRET\n")
            .says(&["✓ Plus prêt."])
            .holds(vec![NotReady("stark")]),
    ];

    /// Carrying out a mail never processes by itself: the next tick does.
    the_last_ready_lets_the_next_tick_process_the_phase: "running full" => [
        mail(STARK, "{stark}A win -> roc\nPRET\n"),
        mail(LANNISTER, "{lannister}READY\n").holds(vec![Played(0)]),
        mail(BARATHEON, "{baratheon}PRET\n").holds(vec![
            Played(0),
            Check(|w| {
                let report = w.tick(now());
                assert_eq!(report.processed.len(), 1, "{report:?}");
            }),
            Played(1),
            Orders("stark", &[]),
            NoticeMails(4),
        ]),
    ];

    /// The moderator may ask too.
    status_shows_the_phase_the_deadline_and_every_house: "running full" => [
        mail(STARK, "{stark}A win -> roc\n"),
        mail(BARATHEON, "{baratheon}PRET\n"),
        mail(STARK, "{stark}ETAT\n").says(&[
            "printemps 298, mouvements",
            "Date limite : mercredi 25 mars",
            "Stark        ordres reçus",
            "Baratheon    prêt",
            "Lannister    en attente",
        ]),
        mail(MODERATOR, "{moderator}ETAT\n").says(&["Lannister    en attente"]),
    ];

    list_needs_no_sign_on: "running full, westeros-2 forming none" => [
        mail(STRANGER, "LISTE\n")
            .says(&["westeros-1", "westeros-2", "en cours"])
            .never(&[STARK, LANNISTER, BARATHEON, MODERATOR]),
    ];

    history_of_the_last_phase_a_named_phase_and_an_unknown_one: "running full" => [
        mail(STARK, "{stark}A win -> roc\n"),
        mail(MODERATOR, "{moderator}TRAITER printemps 298 mouvements\n"),
        mail(STARK, "{stark}HISTORIQUE\n")
            .says(&["résultats : printemps 298, mouvements", "Winterfell (win) -> Les Roches"]),
        mail(STARK, "{stark}HISTORIQUE printemps 298 mouvements\n")
            .says(&["résultats : printemps 298, mouvements"]),
        mail(STARK, "{stark}HISTORIQUE automne 305 mouvements\n")
            .says(&["aucune phase jouée ne s'appelle « automne 305 mouvements »"]),
        mail(STARK, "{stark}HISTORIQUE hier soir\n").says(&["✗"]),
    ];

    /// Everyone votes the draw: the game ends.
    draw_votes_and_concession: "running full" => [
        mail(STARK, "{stark}NUL\n").says(&["✓ Vote enregistré : nulle."]),
        mail(STARK, "{stark}PAS NUL\n")
            .says(&["vote retiré"])
            .holds(vec![Check(|w| assert_eq!(w.game(GAME).seat("stark").unwrap().vote(), None))]),
        mail(STARK, "{stark}CONCEDER Lannister\n").says(&["concession à Lannister"]),
        mail(STARK, "{stark}CONCEDER Stark\n").says(&["✗"]),
        mail(STARK, "{stark}NUL\n"),
        mail(LANNISTER, "{lannister}DRAW\n"),
        mail(BARATHEON, "{baratheon}NUL\n")
            .says(&["✓ Vote enregistré"])
            .holds(vec![Status(GameStatus::Finished), Notices(vec![NoticeKind::GameOver])]),
    ];

    an_absence_moves_a_deadline_inside_it: "running full" => [
        mail(STARK, "{stark}ABSENCE du 2026-03-25 au 2026-03-27 20:00\n")
            .says(&["✓ Absence enregistrée"])
            .holds(vec![
                Check(|w| assert_eq!(w.game(GAME).seat("stark").unwrap().absences().len(), 1)),
                DeadlineLater,
            ]),
        mail(STARK, "{stark}ABSENCE du 2026-03-20 au 2026-03-21\n").says(&["✗ absence invalide"]),
    ];

    // ======================================================================= odd mails

    a_mail_with_only_the_end_marker_gets_a_hint: "none" => [
        mail(STRANGER, "FIN\nJean, envoyé de mon téléphone\n").says(&["aucune commande"]),
    ];

    // ======================================================================= golden mails

    golden_reply_in_french_with_an_illegal_order_and_missing_units: "running full" => [
        mail(STARK, "{stark}A win -> Port-Réal\nF bla -> lst\n").golden("mail/reply-orders-fr.txt"),
    ];

    golden_reply_in_english_with_an_illegal_order_and_missing_units: "running full" => [
        mail(LANNISTER, "{lannister}A pie -> win\nF lan H\nREADY\n")
            .golden("mail/reply-orders-en.txt"),
    ];

    golden_help: "none" => [
        mail(STRANGER, "AIDE\n").golden("mail/reply-help-fr.txt"),
        mail(STRANGER, "HELP\n").golden("mail/reply-help-en.txt"),
    ];

    golden_status_and_refusals: "running broadcast" => [
        mail(STARK, "{stark}A win -> roc\n"),
        mail(
            STARK,
            "Salut,\n{stark}ETAT\nPRESSE A Lannister\nPsst.\nFIN PRESSE\nPROLONGER 2j\nPRET maintenant\n",
        )
        .golden("mail/reply-status-fr.txt"),
    ];

    golden_moderator_refusals: "running full" => [
        mail(
            MODERATOR,
            "{moderator}PROLONGER 2 semaines\nPROLONGER 5j\nTRAITER automne 298 mouvements\n\
             ANNULER printemps 298 mouvements\nAJOUTER Stark bran@nord.test\nRETIRER Martell\n\
             DEMARRER\nPRET\n",
        )
        .golden("mail/reply-moderator-refusals-fr.txt"),
    ];

    golden_player_commands: "running full" => [
        mail(
            LANNISTER,
            "{lannister}DRAW\nCONCEDE Lannister\nCONCEDE Stark\n\
             ABSENCE from 2026-03-20 to 2026-03-21\nABSENCE from 2026-03-24 to 2026-03-26 12:00\n\
             HISTORY\nADDRESS pas-une-adresse\nSTART\nRESIGN\nREADY\n",
        )
        .golden("mail/reply-player-commands-en.txt"),
    ];
}

// The tests below look at more than the one reply to a mail: several mails queued, a
// welcome's secret, notices, press, raw mails, goldens of mails other than replies.

// =========================================================================== sign-on

#[test]
fn sign_on_from_another_address_answers_the_sender_and_copies_the_registered_address() {
    let mut w = running("other-address", Press::Full);
    w.send("arya@voyage.test", &format!("{}PRET\n", stark()));
    let mails = w.take();
    let here = one_reply(&mails, "arya@voyage.test");
    let home = one_reply(&mails, STARK);
    // The same answer, but the registered address's copy says it is one.
    let copy = "Ceci est une copie pour l'adresse enregistrée";
    assert!(flat(&home.body).contains(copy), "{}", home.body);
    assert!(!flat(&here.body).contains(copy), "{}", here.body);
    let orders = |body: &str| {
        body.split_once("Ordres de Stark")
            .map(|(_, o)| o.to_string())
    };
    assert_eq!(orders(&here.body), orders(&home.body));
    assert!(orders(&here.body).is_some(), "{}", here.body);
    assert_ne!(here.message_id, home.message_id);
    assert!(
        here.body.contains("✓ Identifié(e) : Stark"),
        "{}",
        here.body
    );
    assert_eq!(mails.len(), 2, "{}", show(&mails));
    assert!(seat_ready(&w.game(GAME), "stark"));
}

#[test]
fn sign_on_from_the_registered_address_is_answered_once() {
    let mut w = running("same-address", Press::Full);
    w.send(STARK, &format!("{}PRET\n", stark()));
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert_eq!(reply.to, STARK);
    assert_eq!(reply.game.as_deref(), Some(GAME));
    assert_eq!(reply.in_reply_to.as_deref(), Some("1.test@arya.nord.test"));
}

// =========================================================================== moderator

#[test]
fn preview_shows_the_results_and_stores_nothing() {
    let mut w = running("preview", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.take();
    let before = w.game(GAME);
    w.send(MODERATOR, &format!("{}APERCU\n", moderator()));
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert!(
        reply.body.contains("Aperçu (rien n'est enregistré)"),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Winterfell (win) -> Les Roches"),
        "{}",
        reply.body
    );
    let after = w.game(GAME);
    assert_eq!(after.played(), 0);
    assert_eq!(after.phase(), before.phase());
    assert_eq!(after.seats(), before.seats());
    assert!(w.history(GAME).is_empty());
    assert!(w.notice_kinds().is_empty());
}

#[test]
fn pause_and_resume() {
    let mut w = running("pause", Press::Full);
    w.send(MODERATOR, &format!("{}PAUSE\n", moderator()));
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("✓ Partie en pause."), "{}", reply.body);
    assert_eq!(w.game(GAME).status(), GameStatus::Paused);
    // Orders are still taken while paused.
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    let reply = reply_to(&w, STARK);
    assert!(
        reply.body.contains("✓ 1 ligne(s) d'ordres"),
        "{}",
        reply.body
    );
    let later = now() + TimeDelta::hours(5);
    let mail = w.inbound(MODERATOR, &format!("{}REPRENDRE\n", moderator()));
    w.handle(&mail, later);
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("✓ Partie reprise"), "{}", reply.body);
    let game = w.game(GAME);
    assert_eq!(game.status(), GameStatus::Running);
    assert_eq!(
        w.notice_kinds(),
        vec![NoticeKind::Paused, NoticeKind::Resumed]
    );
    // The five hours of pause are given back.
    assert_eq!(
        game.deadline().unwrap().to_rfc3339(),
        "2026-03-26T00:00:00+00:00"
    );
}

#[test]
fn rollback_needs_the_last_phase_named() {
    let mut w = running("rollback", Press::Full);
    w.send(
        MODERATOR,
        &format!("{}ANNULER printemps 298 mouvements\n", moderator()),
    );
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("aucune phase jouée"), "{}", reply.body);
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    w.notices(now());
    // The guard names the phase to undo, not the one being played.
    w.send(
        MODERATOR,
        &format!("{}ANNULER automne 298 mouvements\n", moderator()),
    );
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(reply.body.contains("rien n'a été fait"), "{}", reply.body);
    assert_eq!(w.game(GAME).played(), 1);
    w.send(
        MODERATOR,
        &format!("{}ANNULER printemps 298 mouvements\n", moderator()),
    );
    let reply = reply_to(&w, MODERATOR);
    assert!(
        reply.body.contains("✓ Dernière phase annulée"),
        "{}",
        reply.body
    );
    let game = w.game(GAME);
    assert_eq!(game.played(), 0);
    assert_eq!(game.phase().to_string(), "spring 298 movement");
    assert!(w.history(GAME).is_empty());
    assert!(matches!(
        w.notice_kinds().as_slice(),
        [NoticeKind::RolledBack { .. }]
    ));
}

#[test]
fn add_and_replace_send_a_welcome_whose_secret_works() {
    let mut w = empty("seat");
    let spec = GameSpec {
        name: None,
        ..GameSpec::westeros(GAME, Settings::default())
    };
    w.create_game(spec, now());
    w.send(
        MODERATOR,
        &format!(
            "{}AJOUTER Stark {STARK}\nAJOUTER JOUEUR Lannister {LANNISTER} en\nAJOUTER Baratheon {BARATHEON}\nDEMARRER\n",
            moderator()
        ),
    );
    let mails = w.take();
    let reply = one_reply(&mails, MODERATOR);
    assert_eq!(reply.body.matches("son secret lui a été envoyé").count(), 3);
    assert!(reply.body.contains("✓ Partie commencée"), "{}", reply.body);
    let welcome = |to: &str| {
        mails
            .iter()
            .find(|m| m.to == to && !m.subject.starts_with("Re:"))
            .unwrap()
            .clone()
    };
    let stark_welcome = welcome(STARK);
    assert!(
        stark_welcome
            .subject
            .contains("Bienvenue : vous jouez Stark"),
        "{}",
        stark_welcome.subject
    );
    assert!(welcome(LANNISTER).subject.contains("Welcome"));
    let secret = secret_in(&stark_welcome);
    w.send(STARK, &format!("PARTIE {GAME} Stark {secret}\nPRET\n"));
    let reply = reply_to(&w, STARK);
    assert!(
        reply.body.contains("✓ Identifié(e) : Stark"),
        "{}",
        reply.body
    );

    // A replacement: the old secret stops working, the new one works.
    w.send(
        MODERATOR,
        &format!("{}REMPLACER Stark sansa@nord.test\n", moderator()),
    );
    let mails = w.take();
    let reply = one_reply(&mails, MODERATOR);
    assert!(
        reply.body.contains("✓ Stark confié à sansa@nord.test"),
        "{}",
        reply.body
    );
    let new_secret = secret_in(mails.iter().find(|m| m.to == "sansa@nord.test").unwrap());
    w.send(STARK, &format!("PARTIE {GAME} Stark {secret}\nPRET\n"));
    assert!(
        reply_to(&w, STARK)
            .body
            .contains("maison ou secret incorrect")
    );
    w.send(
        "sansa@nord.test",
        &format!("PARTIE {GAME} Stark {new_secret}\nPAS PRET\n"),
    );
    let reply = reply_to(&w, "sansa@nord.test");
    assert!(reply.body.contains("✓ Plus prêt"), "{}", reply.body);
    assert!(
        w.notice_kinds()
            .iter()
            .any(|k| matches!(k, NoticeKind::PlayerReplaced { .. }))
    );
    // A seat already taken: the moderator is told to replace, in mail words.
    w.send(
        MODERATOR,
        &format!("{}AJOUTER Stark bran@nord.test\n", moderator()),
    );
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(!reply.body.contains("player replace"), "{}", reply.body);
}

// =========================================================================== orders

#[test]
fn resign_puts_the_house_in_civil_disorder() {
    let mut w = running("resign", Press::Full);
    w.send(STARK, &format!("{}ABANDONNER\nPRET\n", stark()));
    let reply = reply_to(&w, STARK);
    assert!(
        reply.body.contains("✓ Vous avez quitté la partie"),
        "{}",
        reply.body
    );
    // Nothing after the resignation is done for the house.
    assert!(
        reply.body.contains("il faut d'abord s'identifier"),
        "{}",
        reply.body
    );
    let game = w.game(GAME);
    let seat = game.seat("stark").unwrap();
    assert!(seat.resigned() && seat.civil_disorder() && !seat.ready());
    assert!(matches!(
        w.notice_kinds().as_slice(),
        [NoticeKind::Resigned { house }] if house == "stark"
    ));
    let told = w.notices(now());
    // The two other players and the moderator; not the one who left.
    assert_eq!(told.len(), 3, "{}", show(&told));
    assert!(told.iter().all(|m| m.to != STARK));
    assert!(told[0].body.contains("Stark"), "{}", told[0].body);
    w.send(STARK, &format!("{}PRET\n", stark()));
    assert!(
        reply_to(&w, STARK)
            .body
            .contains("maison ou secret incorrect")
    );
}

#[test]
fn a_new_address_is_told_to_the_old_one() {
    let mut w = running("address", Press::Full);
    w.send(STARK, &format!("{}ADRESSE arya@braavos.test\n", stark()));
    // The new address gets a code; the change waits for it.
    let mails = w.take();
    let asked = mails.iter().find(|m| m.to == "arya@braavos.test").unwrap();
    let code = support::address_code(&asked.body, "arya@braavos.test");
    assert_eq!(
        w.game(GAME)
            .seat("stark")
            .unwrap()
            .player()
            .unwrap()
            .address(),
        STARK
    );
    w.send(
        STARK,
        &format!("{}ADRESSE arya@braavos.test {code}\n", stark()),
    );
    let mails = w.take();
    let old = one_reply(&mails, STARK);
    assert!(
        old.body
            .contains("✓ Nouvelle adresse enregistrée : arya@braavos.test"),
        "{}",
        old.body
    );
    // The reply goes to the sender, the old address; the new one gets nothing yet.
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let game = w.game(GAME);
    assert_eq!(
        game.seat("stark").unwrap().player().unwrap().address(),
        "arya@braavos.test"
    );
    // An address another house plays from is answered as any other, and gets no code.
    w.send(STARK, &format!("{}ADRESSE {LANNISTER}\n", stark()));
    let mails = w.take();
    assert!(mails.iter().all(|m| m.to != LANNISTER), "{}", show(&mails));
    assert_eq!(
        w.game(GAME)
            .seat("stark")
            .unwrap()
            .player()
            .unwrap()
            .address(),
        "arya@braavos.test"
    );
    assert!(
        w.audit(GAME)
            .contains("address arya@nord.test -> arya@braavos.test")
    );
}

#[test]
fn language_en_answers_in_english_from_then_on() {
    let mut w = running("language", Press::Full);
    w.send(STARK, &format!("{}LANGUE en\nPRET\n", stark()));
    let reply = reply_to(&w, STARK);
    assert!(
        reply
            .body
            .contains("✓ The judge will now write to you in English."),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Ready"), "{}", reply.body);
    assert_eq!(
        w.game(GAME)
            .seat("stark")
            .unwrap()
            .player()
            .as_ref()
            .unwrap()
            .lang(),
        Lang::En
    );
    // A later mail in French keywords is still answered in English.
    w.send(STARK, &format!("{}ETAT\n", stark()));
    let reply = reply_to(&w, STARK);
    assert!(
        reply.body.starts_with(":: corbeau: reply"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("Hello,"), "{}", reply.body);
    assert!(reply.body.contains("Deadline:"), "{}", reply.body);
    // And so are the notices.
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    let results = w.notices(now());
    let to_stark = results.iter().find(|m| m.to == STARK).unwrap();
    assert!(to_stark.subject.contains("Results"), "{}", to_stark.subject);
    assert!(to_stark.body.contains(":: lang: en"));
}

/// `OBSERVER` from `address`, confirmed with the token its answer holds; returns the
/// secret that stops it.
fn observe(w: &mut World, address: &str) -> String {
    w.send(address, &format!("OBSERVER {GAME}\n"));
    let asked = reply_to(w, address);
    let confirm = format!("OBSERVER {GAME} CONFIRMER ");
    let token = asked
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix(&confirm))
        .unwrap_or_else(|| panic!("no token in {}", asked.body))
        .to_string();
    w.send(address, &format!("{confirm}{token}\n"));
    let reply = reply_to(w, address);
    assert!(
        reply.body.contains("✓ Vous recevrez les résultats"),
        "{}",
        reply.body
    );
    reply
        .body
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("Pour arrêter : NE PLUS OBSERVER {GAME} "))
        })
        .unwrap()
        .to_string()
}

#[test]
fn observers_get_the_results_until_they_stop() {
    let mut w = running("observe", Press::Full);
    let secret = observe(&mut w, STRANGER);
    assert_eq!(w.game(GAME).observers().len(), 1);
    w.send(STRANGER, &format!("OBSERVER {GAME}\n"));
    assert!(reply_to(&w, STRANGER).body.contains("reçoit déjà"));

    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    let results = w.notices(now());
    assert_eq!(results.len(), 5, "{}", show(&results));
    let seen = results.iter().find(|m| m.to == STRANGER).unwrap();
    assert!(seen.subject.contains("Résultats"), "{}", seen.subject);

    w.send(STRANGER, &format!("NE PLUS OBSERVER {GAME} mauvais\n"));
    let reply = reply_to(&w, STRANGER);
    assert!(
        reply
            .body
            .contains("✗ ce secret n'est celui d'aucun observateur"),
        "{}",
        reply.body
    );
    assert_eq!(w.game(GAME).observers().len(), 1);
    w.send(STRANGER, &format!("NE PLUS OBSERVER {GAME} {secret}\n"));
    let reply = reply_to(&w, STRANGER);
    assert!(
        reply.body.contains("✓ Vous ne recevrez plus"),
        "{}",
        reply.body
    );
    assert!(w.game(GAME).observers().is_empty());
}

// =========================================================================== press

/// What one press header does under one setting, from Stark.
fn press_case(setting: Press, header: &str) -> (Vec<OutMail>, OutMail) {
    let name = format!("press-{setting:?}-{}", header.replace(' ', "_")).to_lowercase();
    let mut w = running(&name, setting);
    w.send(
        STARK,
        &format!("{}{header}\nL'hiver vient.\nFIN PRESSE\nPRET\n", stark()),
    );
    let mails = w.take();
    let reply = one_reply(&mails, STARK);
    // Whatever the press, the rest of the mail is carried out.
    assert!(seat_ready(&w.game(GAME), "stark"), "{name}: {}", reply.body);
    let press = mails
        .into_iter()
        .filter(|m| !m.subject.starts_with("Re:"))
        .collect();
    (press, reply)
}

#[test]
fn press_is_passed_on_as_the_setting_allows() {
    use Press::*;
    // (setting, header, allowed, recipients)
    let cases: [(Press, &str, bool, &[&str]); 16] = [
        (Full, "PRESSE A Lannister", true, &[LANNISTER, MODERATOR]),
        (Full, "DIFFUSION", true, &[LANNISTER, BARATHEON, MODERATOR]),
        (Full, "PRESSE GRISE A Lannister", false, &[]),
        (Full, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (Broadcast, "PRESSE A Lannister", false, &[]),
        (
            Broadcast,
            "DIFFUSION",
            true,
            &[LANNISTER, BARATHEON, MODERATOR],
        ),
        (Broadcast, "PRESSE GRISE A Lannister", false, &[]),
        (Broadcast, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (Grey, "PRESSE A Lannister", true, &[LANNISTER, MODERATOR]),
        (Grey, "DIFFUSION", true, &[LANNISTER, BARATHEON, MODERATOR]),
        (
            Grey,
            "PRESSE GRISE A Lannister",
            true,
            &[LANNISTER, MODERATOR],
        ),
        (Grey, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (None, "PRESSE A Lannister", false, &[]),
        (None, "DIFFUSION", false, &[]),
        (None, "PRESSE GRISE A Lannister", false, &[]),
        (None, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
    ];
    for (setting, header, allowed, recipients) in cases {
        let case = format!("{setting:?} / {header}");
        let (press, reply) = press_case(setting, header);
        let mut to: Vec<&str> = press.iter().map(|m| m.to.as_str()).collect();
        to.sort_unstable();
        let mut expected = recipients.to_vec();
        expected.sort_unstable();
        assert_eq!(to, expected, "{case}: {}", show(&press));
        if allowed {
            assert!(
                reply.body.contains("✓ Message transmis"),
                "{case}: {}",
                reply.body
            );
        } else {
            assert!(
                !reply.body.contains("Message transmis"),
                "{case}: {}",
                reply.body
            );
            assert!(
                reply.body.contains("✗ la presse de cette partie est")
                    || reply
                        .body
                        .contains("✗ cette partie n'autorise pas la presse anonyme"),
                "{case}: {}",
                reply.body
            );
        }
        for m in &press {
            assert!(m.body.contains("L'hiver vient."), "{case}: {}", m.body);
            assert!(
                !m.body.contains(STARK),
                "{case}: the sender's address: {}",
                m.body
            );
            assert!(!m.subject.contains(STARK), "{case}: {}", m.subject);
            assert_eq!(m.game.as_deref(), Some(GAME));
            let grey = header.contains("GRISE");
            // The houses read the sender's house unless grey; the moderator always.
            if m.to == MODERATOR || !grey {
                assert!(m.body.contains("Stark"), "{case}: {}", m.body);
            } else {
                assert!(!m.body.contains("Stark"), "{case}: {}", m.body);
            }
        }
    }
}

#[test]
fn grey_press_hides_the_sender_but_not_from_the_moderator() {
    let mut w = running("grey", Press::Grey);
    w.send(
        STARK,
        &format!(
            "{}DIFFUSION GRISE\nQuelqu'un ment dans le Val.\nFIN DIFFUSION\n",
            stark()
        ),
    );
    let mails = w.take();
    let to_lannister = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(
        !to_lannister.body.contains("Stark"),
        "{}",
        to_lannister.body
    );
    assert!(
        to_lannister
            .body
            .contains("Anonymous message to every house"),
        "{}",
        to_lannister.body
    );
    let to_moderator = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        to_moderator
            .body
            .contains("Message anonyme (de Stark, que seul le modérateur voit)"),
        "{}",
        to_moderator.body
    );
    assert!(!to_moderator.body.contains(STARK));
}

#[test]
fn the_moderator_writes_to_houses_under_any_setting() {
    let mut w = running("moderator-press", Press::None);
    w.send(
        MODERATOR,
        &format!(
            "{}PRESSE A Stark\nVos ordres, s'il vous plaît.\nFIN PRESSE\n",
            moderator()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        press.body.contains("Message du modérateur à Stark"),
        "{}",
        press.body
    );
    assert!(!press.body.contains(MODERATOR));
    assert!(
        one_reply(&mails, MODERATOR)
            .body
            .contains("✓ Message transmis (1 destinataire")
    );
    assert_eq!(mails.len(), 2, "{}", show(&mails));
}

#[test]
fn press_without_an_end_marker_is_refused() {
    let mut w = running("press-no-end", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister\nLe Nord se souvient.\nPRET\n",
            stark()
        ),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(reply.body.contains("FIN PRESSE"), "{}", reply.body);
    // The rest of the mail was the unended text: PRET was not read.
    assert!(!seat_ready(&w.game(GAME), "stark"));
}

#[test]
fn press_to_a_house_out_of_the_game_is_refused() {
    let mut w = running("press-unknown", Press::Full);
    // A close misspelling is a house (as everywhere a house is named).
    w.send(
        STARK,
        &format!("{}PRESSE A Lanister\nBonjour.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    assert!(mails.iter().any(|m| m.to == LANNISTER), "{}", show(&mails));
    for (header, why) in [
        (
            "PRESSE A Martell",
            "la maison Martell ne joue pas dans cette partie",
        ),
        ("PRESSE A Personne", "maison inconnue « Personne »"),
        ("PRESSE A Stark", "personne à qui transmettre ce message"),
    ] {
        w.send(
            STARK,
            &format!("{}{header}\nBonjour.\nFIN PRESSE\n", stark()),
        );
        let mails = w.take();
        assert_eq!(mails.len(), 1, "{header}: {}", show(&mails));
        assert!(
            flat(&mails[0].body).contains(why),
            "{header}: {}",
            mails[0].body
        );
    }
}

// =========================================================================== odd mails

#[test]
fn the_same_message_twice_acts_once() {
    let mut w = running("duplicate", Press::Full);
    let mail = w.inbound(STARK, &format!("{}A win -> roc\nPRET\n", stark()));
    assert_eq!(
        w.handle(&mail, now()),
        Handled::Answered {
            game: Some(GAME.into())
        }
    );
    assert_eq!(w.take().len(), 1);
    let audit = w.audit(GAME);
    assert_eq!(w.handle(&mail, now()), Handled::Duplicate);
    assert!(w.take().is_empty());
    assert_eq!(w.audit(GAME), audit);
    assert_eq!(w.game(GAME).submissions().len(), 1);
}

#[test]
fn an_automatic_mail_is_marked_but_not_answered() {
    let mut w = running("automatic", Press::Full);
    let mut mail = w.inbound(STARK, "Je suis absente jusqu'au 30 mars.\n");
    mail.automatic = true;
    assert_eq!(w.handle(&mail, now()), Handled::Ignored);
    assert!(w.take().is_empty());
    assert!(w.seen(&mail.message_id));
    assert_eq!(w.handle(&mail, now()), Handled::Duplicate);
}

#[test]
fn an_auto_reply_read_from_raw_mail_is_not_answered() {
    let w = running("auto-reply-raw", Press::Full);
    let raw = format!(
        "From: Arya <{STARK}>\r\nTo: {JUDGE}\r\nSubject: Absente\r\nMessage-ID: <vacances@nord.test>\r\n\
         Auto-Submitted: auto-replied\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         {}PRET\r\n",
        stark()
    );
    let handled = w.ingest(&raw, now());
    assert_eq!(handled, Ok(Handled::Ignored));
    assert!(w.take().is_empty());
    assert!(!seat_ready(&w.game(GAME), "stark"));
}

#[test]
fn a_raw_mail_is_read_and_carried_out() {
    let w = running("raw", Press::Full);
    let raw = format!(
        "From: Arya Stark <{STARK}>\r\nTo: Corbeau <{JUDGE}>\r\nSubject: =?utf-8?q?ordres_du_printemps?=\r\n\
         Message-ID: <raw-1@nord.test>\r\nReferences: <earlier@corbeau.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
         {}A win -> roc\r\nPRÊT\r\n\r\n> :: corbeau: reply\r\n> A moa -> gri\r\n-- \r\nArya\r\n",
        stark()
    );
    let handled = w.ingest(&raw, now());
    assert_eq!(
        handled,
        Ok(Handled::Answered {
            game: Some(GAME.into())
        })
    );
    let reply = reply_to(&w, STARK);
    assert_eq!(reply.subject, "Re: ordres du printemps");
    assert_eq!(reply.in_reply_to.as_deref(), Some("raw-1@nord.test"));
    assert_eq!(
        reply.references,
        vec!["earlier@corbeau.test", "raw-1@nord.test"]
    );
    assert_eq!(orders_of(&w.game(GAME), "stark"), vec!["A win -> roc"]);
    assert!(seat_ready(&w.game(GAME), "stark"));
}

#[test]
fn a_mail_too_large_is_refused_politely() {
    let mut w = running("too-large", Press::Full);
    let mut mail = w.inbound(STARK, "");
    mail.too_large = true;
    mail.size = 300 * 1024;
    w.handle(&mail, now());
    let reply = reply_to(&w, STARK);
    assert!(
        reply
            .body
            .contains("votre message fait 300 Kio, plus que les 256 Kio que le juge lit"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("aucune commande"), "{}", reply.body);
    assert!(w.seen(&mail.message_id));
}

#[test]
fn attachments_are_named_and_ignored() {
    let mut w = running("attachments", Press::Full);
    let mut mail = w.inbound(STARK, &format!("{}PRET\n", stark()));
    mail.attachments = vec!["ordres.txt".into(), "carte.png".into()];
    w.handle(&mail, now());
    let reply = reply_to(&w, STARK);
    assert!(
        reply
            .body
            .contains("Pièce(s) jointe(s) ignorée(s) : ordres.txt, carte.png."),
        "{}",
        reply.body
    );
    assert!(seat_ready(&w.game(GAME), "stark"));
}

#[test]
fn an_empty_mail_gets_a_hint() {
    let mut w = empty("empty");
    w.send(STRANGER, "");
    let reply = reply_to(&w, STRANGER);
    assert!(
        flat(&reply.body).contains("Ce message ne contenait aucune commande. Écrivez AIDE"),
        "{}",
        reply.body
    );
    assert!(reply.game.is_none());
}

// =========================================================================== golden mails

#[test]
fn golden_press() {
    let mut w = running("golden-press", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister, Baratheon\nCousins,\n\nl'hiver vient. Laissez passer mon armée.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == BARATHEON).unwrap();
    assert_golden("mail/press-fr.txt", &rendered(press));
    let press = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert_golden("mail/press-en.txt", &rendered(press));
}

#[test]
fn golden_welcome() {
    let mut w = empty("golden-welcome");
    w.create_game(GameSpec::westeros(GAME, Settings::default()), now());
    w.send(
        MODERATOR,
        &format!(
            "{}AJOUTER Stark {STARK}\nAJOUTER Lannister {LANNISTER} en\n",
            moderator()
        ),
    );
    let mails = w.take();
    for (to, name) in [(STARK, "welcome-fr"), (LANNISTER, "welcome-en")] {
        let welcome = mails
            .iter()
            .find(|m| m.to == to && !m.subject.starts_with("Re:"))
            .unwrap();
        let secret = secret_in(welcome);
        let text = rendered(welcome).replace(&secret, "<secret>");
        assert_golden(&format!("mail/{name}.txt"), &text);
    }
    assert_golden(
        "mail/reply-moderator-added.txt",
        &rendered(&one_reply(&mails, MODERATOR)),
    );
}

#[test]
fn golden_notices() {
    let mut w = empty("golden-notices");
    w.create_seated(GAME, settings(Press::Full), false);
    w.send(MODERATOR, &format!("{}DEMARRER\n", moderator()));
    w.take();
    let started = w.notices(now());
    let to = |mails: &[OutMail], to: &str| mails.iter().find(|m| m.to == to).unwrap().clone();
    assert_golden(
        "mail/notice-started-fr.txt",
        &rendered(&to(&started, STARK)),
    );
    assert_golden(
        "mail/notice-started-en.txt",
        &rendered(&to(&started, LANNISTER)),
    );

    // A day before the deadline, the houses without orders are reminded.
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.take();
    let eve = DateTime::parse_from_rfc3339("2026-03-24T20:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let report = w.tick(eve);
    assert_eq!(report.reminders.len(), 1, "{report:?}");
    let reminders = w.notices(eve);
    let mut to_whom: Vec<&str> = reminders.iter().map(|m| m.to.as_str()).collect();
    to_whom.sort_unstable();
    assert_eq!(to_whom, vec![BARATHEON, LANNISTER]);
    assert_golden(
        "mail/notice-reminder-fr.txt",
        &rendered(&to(&reminders, BARATHEON)),
    );
    assert_golden(
        "mail/notice-reminder-en.txt",
        &rendered(&to(&reminders, LANNISTER)),
    );

    w.send(MODERATOR, &format!("{}TERMINER NUL\n", moderator()));
    w.take();
    let over = w.notices(eve);
    assert_golden("mail/notice-game-over-fr.txt", &rendered(&to(&over, STARK)));
    assert_golden(
        "mail/notice-game-over-en.txt",
        &rendered(&to(&over, LANNISTER)),
    );
}

#[test]
fn golden_results() {
    let mut w = running("golden-results", Press::Full);
    w.send(
        STARK,
        &format!("{}A win -> roc\nA moa -> gri\nF bla H\n", stark()),
    );
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nA pie -> ner\nF lan H\nA mfm H\n"),
    );
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    let mails = w.take();
    assert_golden(
        "mail/reply-moderator-processed.txt",
        &rendered(&one_reply(&mails, MODERATOR)),
    );
    let results = w.notices(now());
    let to = |to: &str| results.iter().find(|m| m.to == to).unwrap().clone();
    assert_golden("mail/results-fr.txt", &rendered(&to(STARK)));
    assert_golden("mail/results-en.txt", &rendered(&to(LANNISTER)));
}

// =========================================================================== found while testing

#[test]
fn secrets_are_never_quoted_back() {
    let mut w = running("masked", Press::Full);
    let observer_secret = observe(&mut w, STRANGER);
    w.send("arya@voyage.test", &format!("{}PRET\n", stark()));
    w.send(MODERATOR, &format!("{}ETAT\n", moderator()));
    w.send(
        STRANGER,
        &format!("NE PLUS OBSERVER {GAME} {observer_secret}\n"),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 4, "{}", show(&mails));
    for mail in &mails {
        for secret in [STARK_SECRET, MODERATOR_SECRET, observer_secret.as_str()] {
            assert!(!mail.body.contains(secret), "{secret} in {}", mail.body);
        }
    }
    let reply = one_reply(&mails, STARK);
    assert!(
        reply.body.contains("> PARTIE westeros-1 Stark ********\n"),
        "{}",
        reply.body
    );
}

#[test]
fn the_moderator_reads_in_the_game_language_and_may_change_it() {
    let mut w = running("moderator-lang", Press::Full);
    // Keywords in English, game in French: the moderator's answer is in French.
    w.send(
        MODERATOR,
        &format!("MODERATOR {GAME} {MODERATOR_SECRET}\nSTATUS\n"),
    );
    let reply = reply_to(&w, MODERATOR);
    assert!(reply.body.contains("Bonjour,"), "{}", reply.body);
    w.send(MODERATOR, &format!("{}LANGUE en\nPAUSE\n", moderator()));
    let reply = reply_to(&w, MODERATOR);
    assert!(
        reply
            .body
            .contains("✓ The judge will now write to you in English."),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Game paused."), "{}", reply.body);
    assert_eq!(w.game(GAME).settings().lang, Lang::En);
    let paused = w.notices(now());
    let to_moderator = paused.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        to_moderator.subject.contains("Game paused"),
        "{}",
        to_moderator.subject
    );
    let to_stark = paused.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        to_stark.subject.contains("Partie en pause"),
        "{}",
        to_stark.subject
    );
    // The moderator's copy of press too.
    w.send(
        STARK,
        &format!("{}PRESSE A Lannister\nPsst.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    let copy = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        copy.subject.contains("Press from Stark"),
        "{}",
        copy.subject
    );
}

#[test]
fn grey_press_to_the_moderator_and_the_moderators_press_are_signed() {
    let mut w = running("grey-to-moderator", Press::Grey);
    w.send(
        STARK,
        &format!(
            "{}PRESSE GRISE AU MODERATEUR\nJe me plains.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        press.body.contains("Message de Stark au modérateur"),
        "{}",
        press.body
    );
    w.send(
        MODERATOR,
        &format!("{}DIFFUSION GRISE\nSilence.\nFIN DIFFUSION\n", moderator()),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        press
            .body
            .contains("Message du modérateur à toutes les maisons"),
        "{}",
        press.body
    );
}

#[test]
fn press_that_only_the_moderator_would_read_is_refused() {
    let mut w = running("press-nobody", Press::Full);
    w.send(MODERATOR, &format!("{}RETIRER Baratheon\n", moderator()));
    w.take();
    w.send(
        STARK,
        &format!("{}PRESSE A Baratheon\nBonjour.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    assert!(
        mails[0]
            .body
            .contains("✗ personne à qui transmettre ce message"),
        "{}",
        mails[0].body
    );
    // A house named twice gets one mail.
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister, Lannister\nBonjour.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    assert_eq!(mails.iter().filter(|m| m.to == LANNISTER).count(), 1);
    assert!(
        mails
            .iter()
            .any(|m| m.body.contains("Message transmis (2 destinataire(s))"))
    );
}

#[test]
fn golden_odd_mails() {
    let mut w = running("golden-odd", Press::Full);
    w.create_seated("westeros-2", settings(Press::Full), true);
    w.send(
        STARK,
        &format!(
            "PARTIE westeros2 Stark {STARK_SECRET}\nPARTIE westeros-2 Stark {STARK_SECRET}\nPRET\n"
        ),
    );
    assert_golden(
        "mail/reply-unknown-game-fr.txt",
        &rendered(&reply_to(&w, STARK)),
    );
    let mut mail = w.inbound(LANNISTER, "");
    mail.too_large = true;
    mail.size = 3 * 1024 * 1024;
    mail.subject = "my orders, with the map".into();
    w.handle(&mail, now());
    assert_golden(
        "mail/reply-too-large-en.txt",
        &rendered(&reply_to(&w, LANNISTER)),
    );
    let mut mail = w.inbound(STRANGER, "");
    mail.subject = String::new();
    mail.attachments = vec!["ordres.txt".into()];
    w.handle(&mail, now());
    assert_golden(
        "mail/reply-empty-fr.txt",
        &rendered(&reply_to(&w, STRANGER)),
    );
}

#[test]
fn orders_after_the_deadline_are_refused() {
    let mut w = running("late", Press::Full);
    let deadline = w.game(GAME).deadline().unwrap();
    let mail = w.inbound(STARK, &format!("{}A win -> roc\n", stark()));
    w.handle(&mail, deadline + TimeDelta::minutes(5));
    let reply = reply_to(&w, STARK);
    assert!(reply.body.contains("✗ trop tard"), "{}", reply.body);
    assert_eq!(orders_of(&w.game(GAME), "stark"), Vec::<String>::new());
}

#[test]
fn golden_other_notices() {
    let mut w = running("golden-other-notices", Press::Full);
    let mut fr = String::new();
    let mut en = String::new();
    let steps = [
        "PAUSE\n",
        "REPRENDRE\n",
        "PROLONGER 1j\n",
        "REMPLACER Baratheon renly@accalmie.test\n",
        "TRAITER printemps 298 mouvements\n",
        "ANNULER printemps 298 mouvements\n",
    ];
    for step in steps {
        w.send(MODERATOR, &format!("{}{step}", moderator()));
        w.take();
        for mail in w.notices(now()) {
            if mail.subject.contains("Résultats") || mail.subject.contains("Results") {
                continue;
            }
            let text = format!("{}\n\n", rendered(&mail));
            match mail.to.as_str() {
                STARK => fr.push_str(&text),
                LANNISTER => en.push_str(&text),
                _ => {}
            }
        }
    }
    w.send(STARK, &format!("{}ABANDONNER\n", stark()));
    w.take();
    for mail in w.notices(now()) {
        let text = format!("{}\n\n", rendered(&mail));
        if mail.to == LANNISTER {
            en.push_str(&text);
        }
    }
    assert_golden("mail/notices-other-fr.txt", &fr);
    assert_golden("mail/notices-other-en.txt", &en);
}
