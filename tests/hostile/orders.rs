//! Orders as a rival player would abuse them: an order for another house's unit,
//! results that would reveal every house's rejected lines, a `PRÊT` that would make a
//! house ready with refused orders, courtesies taken for orders, refusals numbered inside
//! the joined order set. Through the library (mails given to `dispatch::handle`, notices
//! turned into mails) and through the binary (`corbeau orders submit`).

#![allow(clippy::unwrap_used)]

use chrono::{DateTime, Utc};
use corbeau::game::{Game, Settings};
use corbeau::mail::outmail::OutMail;

use crate::support::assert_golden;
use crate::support::cli::CliJudge;
use crate::support::flat;
use crate::support::world::{
    BARATHEON, BARATHEON_SECRET, GameSpec, LANNISTER, LANNISTER_SECRET, MODERATOR,
    MODERATOR_SECRET, PLAYERS, STARK, STARK_SECRET, World,
};

const GAME: &str = "trust";

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A judge with a running three-house Westeros game (Lannister reads English).
fn world(name: &str) -> World {
    let mut w = World::new("hostile-orders", name);
    w.tag = "hostile";
    let spec = GameSpec {
        name: None,
        ..GameSpec::westeros(GAME, Settings::default())
    };
    w.create_game(spec, now());
    w.seat(GAME, &PLAYERS, true, now());
    w
}

/// Carries out a mail and returns the reply to its sender (the other mails queued are
/// dropped).
fn send(w: &mut World, from: &str, body: &str) -> OutMail {
    w.send(from, body);
    let mails = w.take();
    let replies: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.to == from && m.subject.starts_with("Re:"))
        .collect();
    assert_eq!(replies.len(), 1, "one reply to {from}");
    replies[0].clone()
}

/// The moderator processes the spring; the results mails, by address.
fn process(w: &mut World) -> Vec<OutMail> {
    let reply = send(
        w,
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nTRAITER printemps 298 mouvements\n"),
    );
    assert!(reply.body.contains("✓ Phase traitée"), "{}", reply.body);
    w.notices(now())
}

fn stark() -> String {
    format!("PARTIE {GAME} Stark {STARK_SECRET}\n")
}

fn baratheon() -> String {
    format!("PARTIE {GAME} Baratheon {BARATHEON_SECRET}\n")
}

fn orders_of(game: &Game, house: &str) -> Vec<String> {
    game.seat(house)
        .unwrap()
        .orders()
        .iter()
        .map(|o| o.order.text.clone())
        .collect()
}

fn results_to<'a>(mails: &'a [OutMail], to: &str) -> &'a OutMail {
    // Other notices of the same pass (a house's missed deadline) go to some of them too.
    let found: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.to == to && m.body.contains("\n:: phase: "))
        .collect();
    assert_eq!(found.len(), 1, "one results mail to {to}");
    found[0]
}

/// Where Stark's army of Winterfell stands.
fn stark_army_at(game: &Game) -> bool {
    position_text(game).contains("A cno")
}

fn position_text(game: &Game) -> String {
    let variant = corbeau::map::load_variant("westeros").unwrap();
    corbeau::position::write_position(&variant, game.position())
}

#[test]
fn a_foreign_order_by_mail_is_refused_never_stored_and_the_owners_move_stands() {
    let mut w = world("foreign-mail");
    send(&mut w, STARK, &format!("{}A win -> cno\n", stark()));
    let reply = send(
        &mut w,
        BARATHEON,
        &format!("{}A boi -> prt\nA win H\n", baratheon()),
    );
    let body = flat(&reply.body);
    assert!(
        body.contains("Ordres refusés, aucun n'a été enregistré"),
        "{}",
        reply.body
    );
    assert!(
        body.contains("ligne 3 : cette unité appartient à la maison Stark"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("      > A win H\n"), "{}", reply.body);
    assert!(
        !body.contains("ligne(s) d'ordres reçue(s)"),
        "{}",
        reply.body
    );
    assert_eq!(orders_of(&w.game(GAME), "baratheon"), Vec::<String>::new());
    assert_eq!(orders_of(&w.game(GAME), "stark"), vec!["A win -> cno"]);

    let results = process(&mut w);
    assert!(
        stark_army_at(&w.game(GAME)),
        "{}",
        position_text(&w.game(GAME))
    );
    for mail in &results {
        assert!(
            !mail.body.contains("A win H"),
            "to {}:\n{}",
            mail.to,
            mail.body
        );
    }
    let to_stark = flat(&results_to(&results, STARK).body);
    assert!(
        to_stark.contains("A Winterfell (win) -> Château-Noir (cno) réussi"),
        "{to_stark}"
    );
}

#[test]
fn a_foreign_order_stored_before_the_fix_never_replaces_the_owners() {
    let mut w = world("foreign-stored");
    send(&mut w, STARK, &format!("{}A win -> cno\n", stark()));
    // A game stored by an earlier judge may still hold one: the judge itself ignores it.
    w.store_order_unchecked(GAME, "baratheon", "A win H", now());
    let results = process(&mut w);
    assert!(
        stark_army_at(&w.game(GAME)),
        "{}",
        position_text(&w.game(GAME))
    );
    // Nobody but its author and the moderator reads the intruder's line.
    for to in [STARK, LANNISTER] {
        let body = &results_to(&results, to).body;
        assert!(!body.contains("A win H"), "to {to}:\n{body}");
        assert!(body.contains("rejected=0"), "to {to}:\n{body}");
    }
    let own = flat(&results_to(&results, BARATHEON).body);
    assert!(own.contains("Vos ordres rejetés"), "{own}");
    assert!(
        own.contains("« A win H » illégal : cette unité appartient à la maison Stark"),
        "{own}"
    );
    let moderator = flat(&results_to(&results, MODERATOR).body);
    assert!(moderator.contains("A win H"), "{moderator}");
    assert!(
        moderator.contains("seuls leur auteur et le modérateur les voient"),
        "{moderator}"
    );
}

#[test]
fn rejected_and_superseded_lines_reach_their_author_and_the_moderator_only() {
    let mut w = world("private-rejected");
    // A superseded move (intentions) and an order for a unit that is not there.
    let reply = send(
        &mut w,
        BARATHEON,
        &format!("{}A boi -> prt\nA boi H\nA bie -> prt\n", baratheon()),
    );
    assert!(reply.body.contains("3 ligne(s) d'ordres"), "{}", reply.body);
    send(&mut w, STARK, &format!("{}A win -> cno\n", stark()));
    send(
        &mut w,
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nA pie -> viv\nA pie H\n"),
    );
    let results = process(&mut w);
    // Stark had no rejected line: the public results, nothing of Baratheon's.
    let public = &results_to(&results, STARK).body;
    assert!(!public.contains("A boi -> prt"), "{public}");
    assert!(!public.contains("A bie"), "{public}");
    assert!(!public.contains("Ordres rejetés"), "{public}");
    assert!(public.contains(":: counts:"), "{public}");
    assert!(public.contains("rejected=0"), "{public}");
    let own = &results_to(&results, BARATHEON).body;
    assert!(own.contains("Vos ordres rejetés"), "{own}");
    assert!(own.contains("« A boi -> prt »"), "{own}");
    assert!(own.contains("« A bie -> prt »"), "{own}");
    assert!(own.contains("rejected=2"), "{own}");
    let english = &results_to(&results, LANNISTER).body;
    assert!(!english.contains("A boi -> prt"), "{english}");
    assert!(english.contains("Your rejected orders"), "{english}");
    assert!(english.contains("\"A pie -> viv\""), "{english}");
    let moderator = &results_to(&results, MODERATOR).body;
    assert!(
        moderator.contains("Baratheon : « A boi -> prt »"),
        "{moderator}"
    );
    assert!(
        moderator.contains("Lannister : « A pie -> viv »"),
        "{moderator}"
    );
    // How each reads it (goldens): a house its own lines, the moderator everyone's.
    assert_golden("mail/results-own-rejected-fr.txt", own);
    assert_golden("mail/results-own-rejected-en.txt", english);
    assert_golden("mail/results-moderator-rejected-fr.txt", moderator);
    assert_golden(
        "mail/results-public-fr.txt",
        &results_to(&results, STARK).body,
    );
    // The history by mail follows the same rule.
    let history = send(&mut w, STARK, &format!("{}HISTORIQUE\n", stark()));
    assert!(history.body.contains("résultats"), "{}", history.body);
    assert!(!history.body.contains("A boi -> prt"), "{}", history.body);
    let history = send(&mut w, BARATHEON, &format!("{}HISTORIQUE\n", baratheon()));
    assert!(
        history.body.contains("« A boi -> prt »"),
        "{}",
        history.body
    );
}

#[test]
fn refused_orders_never_make_a_house_ready() {
    let mut w = world("refused-ready");
    // PRÊT after the refused set: not taken.
    let reply = send(
        &mut w,
        STARK,
        &format!("{}A win -> Port-Réel\nPRET\n", stark()),
    );
    assert!(reply.body.contains("Ordres refusés"), "{}", reply.body);
    assert!(
        reply.body.contains("✗ PRÊT non pris en compte"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("✓ Prêt"), "{}", reply.body);
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
    // PRÊT before the refused set: withdrawn, and the reply says so where it stood.
    let reply = send(
        &mut w,
        STARK,
        &format!("{}PRET\nA win -> Port-Réel\n", stark()),
    );
    assert!(
        reply.body.contains("> PRET\n  ✗ PRÊT non pris en compte"),
        "{}",
        reply.body
    );
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
    // A foreign order refuses the set, and so the PRÊT.
    let reply = send(
        &mut w,
        BARATHEON,
        &format!("{}A boi -> prt\nA win H\nPRET\n", baratheon()),
    );
    assert!(
        reply.body.contains("PRÊT non pris en compte"),
        "{}",
        reply.body
    );
    assert!(!w.game(GAME).seat("baratheon").unwrap().ready());
    // In English too.
    let reply = send(
        &mut w,
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nA pie -> Nerra\nREADY\n"),
    );
    assert!(reply.body.contains("✗ READY not taken"), "{}", reply.body);
    assert!(!w.game(GAME).seat("lannister").unwrap().ready());
    // Nothing of it made the phase due.
    assert!(w.game(GAME).due(now()).is_none());
}

#[test]
fn a_courtesy_after_pret_is_no_refusal() {
    let mut w = world("courtesy");
    let reply = send(
        &mut w,
        STARK,
        &format!(
            "{}A win -> cno\nA moa -> sal\nPRET\nMerci !\nA bientôt\n",
            stark()
        ),
    );
    assert!(!reply.body.contains("refusés"), "{}", reply.body);
    assert!(
        reply.body.contains("> Merci !\n  (ignoré"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Prêt"), "{}", reply.body);
    assert_eq!(
        orders_of(&w.game(GAME), "stark"),
        vec!["A win -> cno", "A moa -> sal"]
    );
    assert!(w.game(GAME).seat("stark").unwrap().ready());
    // A courtesy alone after PRÊT, without orders: no refusal either.
    let reply = send(
        &mut w,
        BARATHEON,
        &format!("{}PRET\nBonne journée à tous\n", baratheon()),
    );
    assert!(!reply.body.contains("refusés"), "{}", reply.body);
    assert!(w.game(GAME).seat("baratheon").unwrap().ready());
}

#[test]
fn a_mistyped_order_after_the_last_good_one_is_no_courtesy() {
    let mut w = world("typo-last");
    let reply = send(
        &mut w,
        STARK,
        &format!("{}A win -> cno\nA moa tien\nPRET\n", stark()),
    );
    let body = flat(&reply.body);
    assert!(body.contains("Ordres refusés"), "{}", reply.body);
    assert!(body.contains("ligne 3, colonne 7"), "{}", reply.body);
    assert!(reply.body.contains("> A moa tien"), "{}", reply.body);
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
    assert_eq!(orders_of(&w.game(GAME), "stark"), Vec::<String>::new());
}

#[test]
fn refusals_give_the_mails_own_line_numbers() {
    let mut w = world("line-numbers");
    let reply = send(
        &mut w,
        STARK,
        &format!(
            "{}A win -> cno\nA moa -> sal\n\nPRESSE A Lannister\nLe Nord se souvient.\nFIN PRESSE\nF bla -> Port-Réel\nF bla H\n",
            stark()
        ),
    );
    // Line 8 of the mail (the sign-on is line 1, the blank line counts), not line 1 of
    // the second order block.
    let body = flat(&reply.body);
    assert!(body.contains("ligne 8, colonne 10"), "{}", reply.body);
    assert!(
        reply.body.contains("      > F bla -> Port-Réel\n"),
        "{}",
        reply.body
    );
    // The first block was recorded, the second refused whole.
    assert_eq!(
        orders_of(&w.game(GAME), "stark"),
        vec!["A win -> cno", "A moa -> sal"]
    );
}

/// Hundreds of foreign orders in one mail (as many as a mail may hold: `MAX_COMMANDS`):
/// all refused, the reply lists twenty.
#[test]
fn a_flood_of_foreign_orders_gets_a_reply_of_a_readable_size() {
    let mut w = world("flood");
    let flood = "A win H\n".repeat(290);
    let reply = send(&mut w, BARATHEON, &format!("{}{flood}PRET\n", baratheon()));
    assert_eq!(
        reply.body.matches("> A win H").count(),
        20,
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("… et 270 autre(s) ligne(s) refusée(s)."),
        "{}",
        reply.body
    );
    assert!(reply.body.len() < 10_000, "{} bytes", reply.body.len());
    assert!(!w.game(GAME).seat("baratheon").unwrap().ready());
    assert_eq!(orders_of(&w.game(GAME), "baratheon"), Vec::<String>::new());
}

/// `corbeau orders submit` (the moderator's terminal) refuses a foreign order too.
#[test]
fn the_command_line_refuses_a_foreign_order() {
    let j = CliJudge::new("hostile-orders", "cli");
    let run = |args: &[&str], stdin: &str| {
        let out = j.run(args, Some(stdin));
        (out.code, out.out, out.err)
    };
    for args in [
        &["game", "new", GAME, "--players", "3"][..],
        &["player", "add", GAME, "stark", STARK],
        &["player", "add", GAME, "lannister", LANNISTER],
        &["player", "add", GAME, "baratheon", BARATHEON],
        &["game", "start", GAME],
    ] {
        assert_eq!(run(args, "").0, 0, "{args:?}");
    }
    let (code, _, _) = run(&["orders", "submit", GAME, "stark", "-"], "A win -> cno\n");
    assert_eq!(code, 0);
    let (code, out, err) = run(
        &["orders", "submit", GAME, "baratheon", "-"],
        "A boi -> prt\nA win H\n",
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("ligne 2 : cette unité appartient à la maison Stark"),
        "{err}"
    );
    assert!(err.contains("> A win H"), "{err}");
    let (code, out, err) = run(&["game", "process", GAME], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        flat(&out).contains("A Winterfell (win) -> Château-Noir (cno) réussi"),
        "{out}"
    );
}

/// A mail of hundreds of order lines (a script gone wrong, or a player filling the store
/// that every mail of the game then reads) is refused whole, with the count; the house's
/// orders stay as they were.
#[test]
fn a_flood_of_orders_is_refused_whole_and_keeps_the_orders_given() {
    let mut w = world("order-flood");
    send(&mut w, STARK, &format!("{}A win -> cno\n", stark()));
    let flood = "A moa H\n".repeat(250);
    let reply = send(&mut w, STARK, &format!("{}{flood}", stark()));
    assert!(
        flat(&reply.body).contains("250 ordres pour une seule maison"),
        "{}",
        reply.body
    );
    assert_eq!(orders_of(&w.game(GAME), "stark"), vec!["A win -> cno"]);
    // Within the bound, a partial set adds to what was given.
    send(
        &mut w,
        STARK,
        &format!("{}ORDRES PARTIELS\nA moa H\n", stark()),
    );
    assert_eq!(
        orders_of(&w.game(GAME), "stark"),
        vec!["A win -> cno", "A moa H"]
    );
}
