//! The phase's course as players read it: a `READY` never
//! lets an order the judge finds illegal be carried out before its player reads why; late
//! orders that complete the set, or a phase where only houses in civil disorder have
//! anything to decide, are processed at the next pass; and the answer to the mail that
//! makes a phase due says it is processed now, not "as soon as everyone is ready".

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::calendar::Span;
use corbeau::game::{Action, Settings};
use corbeau::judge::PhaseKind;
use corbeau::mail::outmail::OutMail;

use crate::support::world::{
    BARATHEON, BARATHEON_SECRET, GameSpec, LANNISTER, LANNISTER_SECRET, PLAYERS, STARK,
    STARK_SECRET, World,
};

const GAME: &str = "cours";

/// Monday 23 March 2026, 09:00 in Paris; the first deadline is Wednesday 25 at 20:00.
fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn world(name: &str, settings: Settings) -> World {
    let w = World::new("course", name);
    w.create_game(GameSpec::westeros(GAME, settings), t0());
    w.seat(GAME, &PLAYERS, true, t0());
    w
}

fn sign_on(house: &str, secret: &str) -> String {
    format!("PARTIE {GAME} {house} {secret}\n")
}

/// Lannister's army in the Reach dislodged by Baratheon's from the Kingswood: the one
/// house with something to decide is Lannister.
fn retreat(w: &World, at: DateTime<Utc>) {
    w.act(
        GAME,
        Action::Edit {
            position: "phase spring 298 retreat\nunit Baratheon: A bie\n\
                       dislodged Lannister: A bie <- boi\n"
                .into(),
            reason: "test".into(),
        },
        at,
    );
    let game = w.game(GAME);
    assert_eq!(game.phase().kind, PhaseKind::Retreat);
    let deciding: Vec<&str> = game.deciding().iter().map(AsRef::as_ref).collect();
    assert_eq!(deciding, ["lannister"]);
}

fn body(mail: &OutMail) -> String {
    mail.body.replace("\r\n", "\n")
}

#[test]
fn an_illegal_retreat_sent_with_ready_is_not_processed_before_its_player_reads_it() {
    let mut w = world("illegal-retreat", Settings::default());
    let at = t0() + TimeDelta::hours(1);
    retreat(&w, at);
    w.take();

    // Orders, then READY: the READY is not taken.
    let lannister = sign_on("Lannister", LANNISTER_SECRET);
    w.send_at(LANNISTER, &format!("{lannister}A bie R boi\nREADY\n"), at);
    let reply = body(&w.reply_to(LANNISTER));
    assert!(reply.contains("READY not taken"), "{reply}");
    assert!(reply.contains("illegal"), "{reply}");
    assert!(!w.game(GAME).seat("lannister").unwrap().ready(), "{reply}");
    let report = w.tick(at + TimeDelta::minutes(1));
    assert!(report.processed.is_empty(), "{report:?}");
    assert_eq!(w.game(GAME).played(), 0);

    // READY (the orders stored are legal now), then an illegal order in the same mail:
    // ready no more, and said so where the READY was taken.
    w.send_at(LANNISTER, &format!("{lannister}A bie R hau\n"), at);
    w.take();
    w.send_at(LANNISTER, &format!("{lannister}READY\nA bie R boi\n"), at);
    let reply = body(&w.reply_to(LANNISTER));
    assert!(reply.contains("You are ready no more"), "{reply}");
    assert!(!reply.contains("processed as soon as everyone"), "{reply}");
    assert!(!w.game(GAME).seat("lannister").unwrap().ready());
    let report = w.tick(at + TimeDelta::minutes(2));
    assert!(report.processed.is_empty(), "{report:?}");

    // Ready in one mail, an illegal order in the next one before the pass: ready no more.
    w.send_at(LANNISTER, &format!("{lannister}A bie R hau\nREADY\n"), at);
    w.take();
    w.send_at(LANNISTER, &format!("{lannister}A bie R boi\n"), at);
    let reply = body(&w.reply_to(LANNISTER));
    assert!(reply.contains("You are ready no more"), "{reply}");
    assert!(!w.game(GAME).seat("lannister").unwrap().ready());
    let report = w.tick(at + TimeDelta::minutes(2));
    assert!(report.processed.is_empty(), "{report:?}");

    // The French reader reads it in French.
    w.send_at(
        LANNISTER,
        &format!("{lannister}LANGUE fr\nA bie R boi\nPRÊT\n"),
        at,
    );
    let reply = body(&w.reply_to(LANNISTER));
    assert!(reply.contains("PRÊT non pris en compte"), "{reply}");

    // Mended: the READY counts, the phase is processed at the next pass, and the answer
    // says so (D10), not "as soon as everyone is ready".
    w.send_at(
        LANNISTER,
        &format!("{lannister}LANGUE en\nA bie R hau\nREADY\n"),
        at,
    );
    let reply = body(&w.reply_to(LANNISTER));
    assert!(reply.contains("the phase is processed now"), "{reply}");
    assert!(!reply.contains("as soon as everyone is ready"), "{reply}");
    let report = w.tick(at + TimeDelta::minutes(3));
    assert_eq!(report.processed.len(), 1, "{report:?}");
}

#[test]
fn the_last_ready_is_answered_with_the_phase_processed_now() {
    let mut w = world("last-ready", Settings::default());
    let stark = sign_on("Stark", STARK_SECRET);
    let baratheon = sign_on("Baratheon", BARATHEON_SECRET);
    let lannister = sign_on("Lannister", LANNISTER_SECRET);
    w.send_at(STARK, &format!("{stark}A win -> roc\nPRET\n"), t0());
    let first = body(&w.reply_to(STARK));
    assert!(
        first.contains("la phase sera traitée dès que tous seront prêts"),
        "{first}"
    );
    w.send_at(BARATHEON, &format!("{baratheon}PRET\n"), t0());
    w.take();
    w.send_at(LANNISTER, &format!("{lannister}READY\n"), t0());
    let last = body(&w.reply_to(LANNISTER));
    assert!(
        last.contains("Nobody is left to wait for: the phase is processed now"),
        "{last}"
    );
    assert!(!last.contains("as soon as everyone is ready"), "{last}");
    let report = w.tick(t0() + TimeDelta::minutes(1));
    assert_eq!(report.processed.len(), 1, "{report:?}");
}

#[test]
fn late_orders_that_complete_the_set_are_processed_at_the_next_pass() {
    let mut settings = Settings::default();
    settings.schedule.grace = Span::hours(12);
    let mut w = world("late-complete", settings);
    let deadline = w.game(GAME).deadline().unwrap();
    let grace_end = w.game(GAME).grace_end().unwrap();
    w.submit(GAME, "stark", "A win -> roc\n", t0());
    let report = w.tick(deadline);
    assert!(report.processed.is_empty(), "{report:?}");
    w.take();

    // One house still missing after Lannister's late orders: the answer says until when
    // the judge waits, not only the passed deadline.
    let late = deadline + TimeDelta::hours(1);
    let lannister = sign_on("Lannister", LANNISTER_SECRET);
    w.send_at(LANNISTER, &format!("{lannister}A pie H\n"), late);
    let reply = body(&w.reply_to(LANNISTER));
    assert!(
        reply.contains("passed; the judge waits for the missing orders until"),
        "{reply}"
    );
    let report = w.tick(late + TimeDelta::minutes(1));
    assert!(report.processed.is_empty(), "{report:?}");

    // The last house's late orders complete the set: processed at the next pass, hours
    // before the grace period ends, and the answer says so.
    let last = late + TimeDelta::hours(1);
    let baratheon = sign_on("Baratheon", BARATHEON_SECRET);
    w.send_at(BARATHEON, &format!("{baratheon}A boi H\n"), last);
    let reply = body(&w.reply_to(BARATHEON));
    assert!(
        reply.contains("La date limite est passée et toutes les maisons ont donné leurs ordres"),
        "{reply}"
    );
    assert!(reply.contains("plus attendue"), "{reply}");
    let pass = last + TimeDelta::minutes(1);
    assert!(pass < grace_end);
    let report = w.tick(pass);
    assert_eq!(report.processed.len(), 1, "{report:?}");
    assert_eq!(w.game(GAME).played(), 1);
}

#[test]
fn a_phase_only_a_house_in_civil_disorder_decides_is_processed_at_the_next_pass() {
    let mut w = world("only-disorder", Settings::default());
    let at = t0() + TimeDelta::hours(1);
    // Lannister leaves the game by mail: its seat falls into civil disorder.
    let lannister = sign_on("Lannister", LANNISTER_SECRET);
    w.send_at(LANNISTER, &format!("{lannister}RESIGN\n"), at);
    w.take();
    assert!(w.game(GAME).seat("lannister").unwrap().civil_disorder());
    retreat(&w, at);
    let deadline = w.game(GAME).deadline().unwrap();

    let pass = at + TimeDelta::minutes(1);
    assert!(pass < deadline);
    let report = w.tick(pass);
    assert_eq!(report.processed.len(), 1, "{report:?}");
    assert_eq!(w.game(GAME).played(), 1);
    // The players read the results now.
    let mails = w.notices(pass);
    assert!(mails.iter().any(|m| m.to == STARK), "{mails:?}");
}

#[test]
fn a_game_where_every_house_is_in_civil_disorder_keeps_its_deadlines() {
    let mut w = world("all-disorder", Settings::default());
    let at = t0() + TimeDelta::hours(1);
    for (house, address, secret) in [
        ("Stark", STARK, STARK_SECRET),
        ("Lannister", LANNISTER, LANNISTER_SECRET),
        ("Baratheon", BARATHEON, BARATHEON_SECRET),
    ] {
        w.send_at(address, &format!("{}RESIGN\n", sign_on(house, secret)), at);
    }
    w.take();
    retreat(&w, at);
    let report = w.tick(at + TimeDelta::minutes(1));
    assert!(report.processed.is_empty(), "{report:?}");
    assert_eq!(w.game(GAME).played(), 0);
}

/// D11: in an adjustment phase the answer to a house's orders states what it may build
/// (and where) or must disband, and a build beyond that number is said to be ignored —
/// not echoed as understood.
#[test]
fn the_answer_to_builds_states_the_allowance_and_what_is_beyond_it() {
    let mut w = world("allowance", Settings::default());
    let at = t0() + TimeDelta::hours(1);
    // Stark owns its three homes with two units: one build, two free homes.
    w.act(
        GAME,
        Action::Edit {
            position: "phase winter 298 adjustment\nowner Stark: win bla moa\n\
                       unit Stark: A moa\nunit Stark: A cno\n\
                       owner Lannister: lan\nunit Lannister: A lan\nunit Lannister: A pie\n"
                .into(),
            reason: "test".into(),
        },
        at,
    );
    w.take();
    let stark = sign_on("Stark", STARK_SECRET);
    w.send_at(
        STARK,
        &format!("{stark}construire A win\nconstruire A bla\n"),
        at,
    );
    let reply = body(&w.reply_to(STARK));
    let flat = crate::support::flat(&reply);
    assert!(
        flat.contains("Vous pouvez construire 1 unité(s)"),
        "{reply}"
    );
    assert!(flat.contains("Winterfell"), "{reply}");
    assert!(
        flat.contains("ignoré : au-delà du nombre de constructions permis"),
        "{reply}"
    );

    // Lannister, in English, has one unit too many.
    let lannister = sign_on("Lannister", LANNISTER_SECRET);
    w.send_at(LANNISTER, &format!("{lannister}disband A pie\n"), at);
    let reply = crate::support::flat(&body(&w.reply_to(LANNISTER)));
    assert!(reply.contains("You must disband 1 unit(s)"), "{reply}");
}

/// D17: a refusal names a house as its reader does (`Stark`, `Angleterre`), never by its
/// id (`stark`, `england`).
#[test]
fn a_refusal_names_houses_in_the_reader_s_words() {
    let mut w = world("named-refusal", Settings::default());
    let at = t0() + TimeDelta::hours(1);
    retreat(&w, at);
    w.take();
    let stark = sign_on("Stark", STARK_SECRET);
    w.send_at(STARK, &format!("{stark}A win H\n"), at);
    let reply = crate::support::flat(&body(&w.reply_to(STARK)));
    assert!(reply.contains("Stark n'a rien à ordonner"), "{reply}");
    assert!(!reply.contains("stark n'a rien"), "{reply}");
}
