//! Game flow that players must be able to trust: a rollback replays the
//! phase with its orders but nobody ready; an absence moves any deadline it covers and
//! everyone hears of it; the players and the moderator hear of a grace period, a missed
//! deadline and civil disorder; one grace rule across clock changes; and every outcome and
//! error code renders in both languages, so that no order can break the results.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::Action;
use corbeau::game::calendar::{CalendarError, Span};
use corbeau::game::{
    Game, GameError, GameStatus, HouseKey, Incompatibility, NewGame, NoticeKind, OrderLines,
    SecretFailure, Settings, SubmitMode, Trigger, create,
};
use corbeau::judge::{Failure, Illegal, Outcome, Phase, PhaseKind, Season};
use corbeau::lang::Lang;
use corbeau::mail::outmail::OutMail;
use corbeau::mail::refusal::Refusal;
use corbeau::map::{
    HouseId, Owner, PinnedVariant, ProvinceId, UnitKind, Variant, VariantHash, load_variant,
};
use corbeau::order::OrderError;
use corbeau::report::{
    ORDERS_TEMPLATE, RESULTS_TEMPLATE, RenderError, outcome_view, render_template,
};
use corbeau::service::{Bug, ServiceError, StorageFailure};
use minijinja::Value;
use serde_json::json;

use crate::support::assert_golden;
use crate::support::cli::CliJudge;
use crate::support::world::{GameSpec, PLAYERS, World};

const GAME: &str = "flux";
const STARK: &str = "arya@nord.test";
const LANNISTER: &str = "tyrion@roc.test";
const BARATHEON: &str = "stannis@peyredragon.test";
const MODERATOR: &str = "mestre@citadelle.test";

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// Monday 23 March 2026, 09:00 in Paris; the first deadline is Wednesday 25 at 20:00.
fn t0() -> DateTime<Utc> {
    at("2026-03-23T08:00:00Z")
}

/// A judge with its own store and one running game of three players (Lannister reads
/// English) and a moderator.
fn world(name: &str, settings: Settings) -> World {
    let w = World::new("flow", name);
    w.create_game(GameSpec::westeros(GAME, settings), t0());
    w.seat(GAME, &PLAYERS, true, t0());
    w
}

fn rendered(mail: &OutMail) -> String {
    format!(
        "To: {}\nSubject: {}\n\n{}\n\n",
        mail.to, mail.subject, mail.body
    )
}

fn recipients(mails: &[OutMail]) -> Vec<&str> {
    let mut to: Vec<&str> = mails.iter().map(|m| m.to.as_str()).collect();
    to.sort();
    to
}

// ------------------------------------------------------------------------------ rollback

#[test]
fn a_rollback_keeps_the_orders_clears_the_ready_flags_and_says_so() {
    let w = world("rollback", Settings::default());
    w.submit(GAME, "stark", "A win -> roc\n", t0());
    for house in ["stark", "lannister", "baratheon"] {
        w.ready(GAME, house, t0());
    }
    let report = w.tick(t0() + TimeDelta::minutes(1));
    assert_eq!(report.processed.len(), 1, "{report:?}");
    w.notices(t0());
    // After the phase, Baratheon changes hands: the rollback must not give it back.
    w.replace_player(GAME, "baratheon", "renly@accalmie.test", t0());

    let now = t0() + TimeDelta::hours(2);
    let game = w.rollback(GAME, now);
    assert_eq!(game.played(), 0);
    assert_eq!(game.phase().season, Season::Spring);
    assert!(
        game.seats().iter().all(|s| !s.ready()),
        "nobody is ready after a rollback: {:?}",
        game.seats()
    );
    assert_eq!(
        game.seat("stark").unwrap().orders()[0].order.text,
        "A win -> roc",
        "the orders are kept"
    );
    assert_eq!(
        game.seat("baratheon")
            .unwrap()
            .player()
            .as_ref()
            .unwrap()
            .address(),
        "renly@accalmie.test"
    );
    // A sane deadline: a whole phase from the rollback, in the future.
    let deadline = game.deadline().unwrap();
    assert_eq!(
        deadline,
        game.settings()
            .schedule
            .deadline(now, PhaseKind::Movement, &[])
    );
    assert!(deadline > now + TimeDelta::days(2), "{deadline}");
    // The next passes of the judge do not replay the phase at once.
    let report = w.tick(now + TimeDelta::minutes(5));
    assert!(report.processed.is_empty(), "{report:?}");
    assert_eq!(w.game(GAME).played(), 0);

    let mails = w.notices(now);
    let fr = mails.iter().find(|m| m.to == STARK).unwrap();
    let en = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(
        fr.body
            .contains("Les ordres déjà reçus pour cette phase sont gardés"),
        "{}",
        fr.body
    );
    assert!(!fr.body.contains("Renvoyez vos ordres"), "{}", fr.body);
    assert!(
        en.body
            .contains("The orders already received for this phase are kept"),
        "{}",
        en.body
    );
    assert!(!en.body.contains("Send your orders again"), "{}", en.body);
}

// ------------------------------------------------------------------------------ absences

/// Lannister is away from Thursday 26 March 10:00 to Saturday 28 12:00 (Paris).
fn lannister_away() -> Action {
    Action::Absence {
        house: "lannister".into(),
        from: "2026-03-26 10:00".into(),
        to: "2026-03-28 12:00".into(),
    }
}

/// Saturday 28 March 2026, 20:00 in Paris: the first allowed instant after the absence.
fn after_absence() -> DateTime<Utc> {
    at("2026-03-28T19:00:00Z")
}

fn assert_everyone_told(w: &World, deadline: DateTime<Utc>, now: DateTime<Utc>) {
    let told: Vec<_> = w
        .notices_pending()
        .into_iter()
        .filter(|(k, _)| *k == NoticeKind::DeadlineChanged { deadline })
        .collect();
    assert_eq!(told.len(), 1, "{:?}", w.notices_pending());
    assert!(told[0].1.is_empty(), "every player and the moderator");
    let mails = w.notices(now);
    let to = recipients(&mails);
    for who in [STARK, LANNISTER, BARATHEON, MODERATOR] {
        assert!(to.contains(&who), "{who} not told: {to:?}");
    }
    let fr = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        fr.body.contains("samedi 28 mars 2026 à 20:00"),
        "{}",
        fr.body
    );
}

#[test]
fn an_absence_after_an_extension_moves_the_deadline_and_everyone_is_told() {
    let w = world("absence-extension", Settings::default());
    let now = t0() + TimeDelta::hours(1);
    let game = w.act(GAME, Action::Extend(Span::days(1)), now);
    // Wednesday 25 20:00 + 1 day: Thursday 26 20:00, inside the absence.
    assert_eq!(game.deadline(), Some(at("2026-03-26T19:00:00Z")));
    w.notices(now);
    let game = w.act(GAME, lannister_away(), now);
    assert_eq!(game.deadline(), Some(after_absence()));
    assert_everyone_told(&w, after_absence(), now);
}

#[test]
fn an_absence_after_a_pause_moves_the_deadline_and_everyone_is_told() {
    let w = world("absence-pause", Settings::default());
    w.act(GAME, Action::Pause, t0());
    // Resumed a day later: the 2 days 11 hours that were left end on Thursday 26 at 20:00.
    let resumed = t0() + TimeDelta::days(1);
    let game = w.act(GAME, Action::Resume, resumed);
    assert_eq!(game.deadline(), Some(at("2026-03-26T19:00:00Z")));
    w.notices(resumed);
    let game = w.act(GAME, lannister_away(), resumed);
    assert_eq!(game.deadline(), Some(after_absence()));
    assert_everyone_told(&w, after_absence(), resumed);
}

#[test]
fn an_absence_declared_during_a_pause_moves_the_deadline_at_the_resume() {
    let w = world("absence-in-pause", Settings::default());
    w.act(GAME, Action::Pause, t0());
    let game = w.act(GAME, lannister_away(), t0());
    assert_eq!(game.status(), GameStatus::Paused);
    let game = w.act(GAME, Action::Resume, t0() + TimeDelta::days(1));
    assert_eq!(game.deadline(), Some(after_absence()));
}

#[test]
fn absences_stay_within_the_cap_whatever_came_before() {
    let mut settings = Settings::default();
    settings.schedule.max_absence = Span::days(1);
    let w = world("absence-cap", settings);
    let now = t0() + TimeDelta::hours(1);
    w.act(GAME, Action::Extend(Span::days(1)), now);
    // A week away: the deadline (Thursday 26 20:00) moves by one day at most.
    let game = w.act(
        GAME,
        Action::Absence {
            house: "lannister".into(),
            from: "2026-03-26 10:00".into(),
            to: "2026-04-02 12:00".into(),
        },
        now,
    );
    assert_eq!(game.deadline(), Some(at("2026-03-27T19:00:00Z")));
    // A second absence cannot push it further than the cap either.
    let game = w.act(
        GAME,
        Action::Absence {
            house: "stark".into(),
            from: "2026-03-27 10:00".into(),
            to: "2026-03-29 12:00".into(),
        },
        now,
    );
    assert_eq!(game.deadline(), Some(at("2026-03-27T19:00:00Z")));
}

#[test]
fn an_absence_that_does_not_cover_the_deadline_moves_nothing_and_tells_nobody() {
    let w = world("absence-outside", Settings::default());
    let game = w.act(
        GAME,
        Action::Absence {
            house: "lannister".into(),
            from: "2026-03-26 10:00".into(),
            to: "2026-03-27 12:00".into(),
        },
        t0(),
    );
    assert_eq!(game.deadline(), Some(at("2026-03-25T19:00:00Z")));
    assert!(w.notices_pending().is_empty(), "{:?}", w.notices_pending());
}

// ------------------------------------------------- grace, missed deadlines, civil disorder

#[test]
fn grace_missed_deadlines_and_civil_disorder_are_told() {
    let mut settings = Settings::default();
    settings.schedule.grace = Span::hours(12);
    settings.civil_disorder_after = 2;
    let w = world("grace", settings);
    let deadline = w.game(GAME).deadline().unwrap();
    w.submit(GAME, "stark", "A win -> roc\n", t0());

    // At the deadline: Lannister and Baratheon are told, once, that the judge waits.
    let report = w.tick(deadline);
    assert!(report.processed.is_empty(), "{report:?}");
    let until = at("2026-03-26T07:00:00Z");
    assert_eq!(
        w.notices_pending(),
        vec![(
            NoticeKind::Grace { deadline, until },
            vec!["lannister".into(), "baratheon".into()]
        )]
    );
    let mails = w.notices(deadline);
    assert_eq!(recipients(&mails), [BARATHEON, LANNISTER]);
    let mut fr = String::new();
    let mut en = String::new();
    for mail in &mails {
        match mail.to.as_str() {
            BARATHEON => fr.push_str(&rendered(mail)),
            LANNISTER => en.push_str(&rendered(mail)),
            _ => {}
        }
    }
    w.tick(deadline + TimeDelta::hours(1));
    assert!(
        w.notices_pending().is_empty(),
        "told once: {:?}",
        w.notices_pending()
    );

    // At the end of the grace period the phase is processed: each silent house and the
    // moderator hear of it, nobody else.
    let report = w.tick(until);
    assert_eq!(report.processed.len(), 1, "{report:?}");
    let mails = w.notices(until);
    let missed: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.body.contains(":: corbeau: missed"))
        .collect();
    assert_eq!(
        recipients(&missed.iter().map(|m| (*m).clone()).collect::<Vec<_>>()),
        [MODERATOR, MODERATOR, BARATHEON, LANNISTER]
    );
    for mail in &missed {
        assert!(
            !((mail.to == LANNISTER && mail.body.contains("Baratheon"))
                || (mail.to == BARATHEON && mail.body.contains("Lannister"))),
            "a house hears only of itself: {}",
            mail.body
        );
        match mail.to.as_str() {
            BARATHEON => fr.push_str(&rendered(mail)),
            LANNISTER => en.push_str(&rendered(mail)),
            _ => {}
        }
    }
    assert!(
        !mails
            .iter()
            .any(|m| m.to == STARK && !m.subject.contains("Résultats")),
        "Stark ordered: the results only"
    );

    // A second silent phase: civil disorder, told to the house and the moderator.
    let deadline = w.game(GAME).deadline().unwrap();
    w.submit(GAME, "stark", "A roc H\n", deadline - TimeDelta::hours(1));
    w.submit(
        GAME,
        "lannister",
        "A pie H\n",
        deadline - TimeDelta::hours(1),
    );
    w.tick(deadline);
    w.notices(deadline);
    let end = w.game(GAME).grace_end().unwrap();
    w.tick(end);
    let mails = w.notices(end);
    let disorder: Vec<OutMail> = mails
        .iter()
        .filter(|m| m.body.contains(":: corbeau: civil-disorder"))
        .cloned()
        .collect();
    assert_eq!(recipients(&disorder), [MODERATOR, BARATHEON]);
    assert!(
        !mails.iter().any(|m| m.body.contains(":: corbeau: missed")),
        "civil disorder says the miss too"
    );
    for mail in &disorder {
        if mail.to == BARATHEON {
            fr.push_str(&rendered(mail));
        }
    }
    assert_golden("mail/notices-flow-fr.txt", &fr);
    assert_golden("mail/notices-flow-en.txt", &en);

    // A house in civil disorder is not told again at each phase.
    let deadline = w.game(GAME).deadline().unwrap();
    w.tick(deadline);
    w.tick(w.game(GAME).grace_end().unwrap());
    assert!(
        !w.notices_pending()
            .iter()
            .any(|(k, _)| matches!(k, NoticeKind::Missed { house, .. } if house == "baratheon")),
        "{:?}",
        w.notices_pending()
    );
}

// ------------------------------------------------------------------------- one grace rule

fn paris_game(deadline: &str) -> Game {
    let variant = load_variant("westeros").unwrap();
    let mut settings = Settings::default();
    settings.schedule.grace = Span::days(1);
    settings.schedule.reminders = Vec::new();
    let mut game = create(
        NewGame {
            id: "heure".into(),
            name: None,
            variant: "westeros".into(),
            players: 3,
            settings,
            moderator: None,
        },
        &variant,
        PinnedVariant {
            name: "westeros".into(),
            hash: VariantHash::of(include_str!("../../games/westeros.toml")),
        },
        at(deadline) - TimeDelta::days(2),
    )
    .unwrap();
    for h in ["stark", "lannister", "baratheon"] {
        game.add_player(
            &corbeau::game::HouseKey::from(h),
            &format!("{h}@example.org"),
            "hash".into(),
            Lang::Fr,
            t0(),
        )
        .unwrap();
    }
    game.start(&variant, at(deadline) - TimeDelta::days(2))
        .unwrap();
    assert_eq!(game.deadline(), Some(at(deadline)));
    game
}

/// A day of grace is a day on the wall clock (docs/deadlines.md): after a deadline on
/// the Saturday evening of a clock change, the judge waits until Sunday at the same local
/// time, 23 or 25 hours later, and the judge's wake time, its processing and its refusal
/// of late orders all follow that one rule.
#[test]
fn a_day_of_grace_across_a_clock_change_ends_at_the_same_local_time() {
    for (deadline, end) in [
        // Summer time starts on Sunday 29 March 2026: 23 hours.
        ("2026-03-28T19:00:00Z", "2026-03-29T18:00:00Z"),
        // Winter time starts on Sunday 25 October 2026: 25 hours.
        ("2026-10-24T18:00:00Z", "2026-10-25T19:00:00Z"),
    ] {
        let variant: Variant = load_variant("westeros").unwrap();
        let mut game = paris_game(deadline);
        let (deadline, end) = (at(deadline), at(end));
        assert_eq!(game.settings().schedule.grace_end(deadline), end);
        assert_eq!(game.grace_end(), Some(end));
        game.update_wake(deadline);
        assert_eq!(game.wake(), Some(end), "wake after {deadline}");
        let second = TimeDelta::seconds(1);
        assert_eq!(game.due(end - second), None);
        assert_eq!(game.due(end), Some(Trigger::Deadline));
        let late = game.clone().submit(
            &variant,
            &"stark".into(),
            &OrderLines::numbered("A win H\n"),
            SubmitMode::Replace,
            "test",
            end,
        );
        assert!(matches!(late, Err(GameError::Late { .. })), "{late:?}");
        game.submit(
            &variant,
            &"stark".into(),
            &OrderLines::numbered("A win H\n"),
            SubmitMode::Replace,
            "test",
            end - second,
        )
        .unwrap();
    }
}

// ----------------------------------------------------- an illegal waive, from the binary

/// Runs corbeau at `now`: exit code, stdout, stderr.
fn run(cli: &CliJudge, now: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    cli.at(now);
    let out = cli.run(args, Some(stdin));
    (out.code, out.out, out.err)
}

#[track_caller]
fn ok(cli: &CliJudge, now: &str, args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(cli, now, args, stdin);
    assert_eq!(code, 0, "{args:?}\n{out}\n{err}");
    assert!(
        !out.contains("undefined") && !err.contains("undefined"),
        "{out}\n{err}"
    );
    out
}

#[test]
fn an_illegal_waive_renders_and_the_phase_is_processed_and_kept_in_the_history() {
    let cli = CliJudge::new("flow-cli", "waive");
    let now = "2026-03-23T08:00:00Z";
    ok(&cli, now, &["game", "new", "essai", "--players", "3"], "");
    for (house, address) in [
        ("stark", "alice@example.org"),
        ("lannister", "bob@example.org"),
        ("baratheon", "carol@example.org"),
    ] {
        ok(&cli, now, &["player", "add", "essai", house, address], "");
    }
    ok(&cli, now, &["game", "start", "essai"], "");
    ok(
        &cli,
        now,
        &["orders", "submit", "essai", "stark"],
        "A win -> roc\nA moa -> sal\n",
    );
    ok(&cli, now, &["game", "process", "essai"], "");
    ok(&cli, now, &["game", "process", "essai"], "");
    // Winter 298: Stark may build two; a third waive is illegal and names no unit.
    let out = ok(
        &cli,
        now,
        &["orders", "submit", "essai", "stark"],
        "waive\nwaive\nwaive\n",
    );
    assert!(
        out.contains("(sans unité) : « waive »\n      illégal : aucune construction permise"),
        "{out}"
    );
    let out = ok(&cli, now, &["game", "process", "essai"], "");
    assert!(out.contains("hiver 298, ajustements"), "{out}");
    assert!(out.contains("(sans unité) : « waive »"), "{out}");
    for lang in ["fr", "en"] {
        let out = ok(&cli, now, &["history", "essai", "3", "--lang", lang], "");
        assert!(
            out.contains("(sans unité) : « waive »") || out.contains("(no unit): \"waive\""),
            "{out}"
        );
    }
}

/// A moderator's results template that fails after the phase is stored: the command says
/// the phase was processed (exit 0), and the problem apart; the built-in templates render
/// the results meanwhile, in `history` too.
#[test]
fn a_broken_results_template_never_turns_a_processed_phase_into_a_failure() {
    let cli = CliJudge::new("flow-cli", "broken-template");
    let now = "2026-03-23T08:00:00Z";
    ok(&cli, now, &["game", "new", "essai", "--players", "3"], "");
    for (house, address) in [
        ("stark", "alice@example.org"),
        ("lannister", "bob@example.org"),
        ("baratheon", "carol@example.org"),
    ] {
        ok(&cli, now, &["player", "add", "essai", house, address], "");
    }
    ok(&cli, now, &["game", "start", "essai"], "");
    let dir = cli.root.join("templates/fr");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("results.txt"), "{{ nothing.here }}\n").unwrap();
    let (code, out, err) = run(&cli, now, &["game", "process", "essai"], "");
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("résultats : printemps 298, mouvements"),
        "{out}"
    );
    assert!(err.contains("results.txt"), "{err}");
    assert!(
        err.contains("le modèle intégré a servi à la place"),
        "{err}"
    );
    let (code, out, err) = run(&cli, now, &["history", "essai", "1"], "");
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("résultats : printemps 298, mouvements"),
        "{out}"
    );
    let (code, out, _) = run(&cli, now, &["history", "essai"], "");
    assert_eq!(code, 0);
    assert!(out.contains("printemps 298"), "{out}");
}

// ------------------------------------------------- every code renders in both languages

/// Every reason an order may be illegal. The match below has no wildcard: a new reason
/// does not compile until it is listed here, and so rendered by the test.
fn every_illegal() -> Vec<Illegal> {
    let all = vec![
        Illegal::NoSuchUnit,
        Illegal::NotYourUnit {
            owner: Owner::House(HouseId(1)),
        },
        Illegal::NotYourUnit {
            owner: Owner::Neutral,
        },
        Illegal::NeutralUnit,
        Illegal::WrongUnitKind {
            actual: UnitKind::Fleet,
        },
        Illegal::WrongUnitKind {
            actual: UnitKind::Dragon,
        },
        Illegal::AmbiguousUnit,
        Illegal::WrongPhase,
        Illegal::MoveToOwnProvince,
        Illegal::NotAdjacent,
        Illegal::NoFleetsOnRoute,
        Illegal::WrongTerrain,
        Illegal::CoastNeeded,
        Illegal::CoastNotReachable,
        Illegal::CannotBeConvoyed,
        Illegal::CannotConvoy,
        Illegal::SupportSelf,
        Illegal::SupportOutOfReach,
        Illegal::NothingToSupport,
        Illegal::SupportToNeutral,
        Illegal::NothingToConvoy,
        Illegal::ConvoyOutOfReach,
        Illegal::NotDislodged,
        Illegal::RetreatToAttackerProvince,
        Illegal::RetreatOccupied,
        Illegal::RetreatContested,
        Illegal::NotHomeCentre,
        Illegal::CentreNotOwned,
        Illegal::CentreOccupied,
        Illegal::NoBuildAllowed,
        Illegal::KindNotBuildable,
        Illegal::NoDragonNameLeft,
        Illegal::NoDisbandDue,
        Illegal::Replaced,
        Illegal::Duplicate,
        Illegal::FordClosed,
        Illegal::HouseBorder,
        Illegal::MoveOnlyBorder,
        Illegal::ProvinceClosed,
        Illegal::RetreatGarrisoned,
    ];
    for illegal in &all {
        match illegal {
            Illegal::NoSuchUnit
            | Illegal::NotYourUnit { .. }
            | Illegal::NeutralUnit
            | Illegal::WrongUnitKind { .. }
            | Illegal::AmbiguousUnit
            | Illegal::WrongPhase
            | Illegal::MoveToOwnProvince
            | Illegal::NotAdjacent
            | Illegal::NoFleetsOnRoute
            | Illegal::WrongTerrain
            | Illegal::CoastNeeded
            | Illegal::CoastNotReachable
            | Illegal::CannotBeConvoyed
            | Illegal::CannotConvoy
            | Illegal::SupportSelf
            | Illegal::SupportOutOfReach
            | Illegal::NothingToSupport
            | Illegal::SupportToNeutral
            | Illegal::NothingToConvoy
            | Illegal::ConvoyOutOfReach
            | Illegal::NotDislodged
            | Illegal::RetreatToAttackerProvince
            | Illegal::RetreatOccupied
            | Illegal::RetreatContested
            | Illegal::NotHomeCentre
            | Illegal::CentreNotOwned
            | Illegal::CentreOccupied
            | Illegal::NoBuildAllowed
            | Illegal::KindNotBuildable
            | Illegal::NoDragonNameLeft
            | Illegal::NoDisbandDue
            | Illegal::Replaced
            | Illegal::Duplicate
            | Illegal::FordClosed
            | Illegal::HouseBorder
            | Illegal::MoveOnlyBorder
            | Illegal::ProvinceClosed
            | Illegal::RetreatGarrisoned => {}
        }
    }
    all
}

/// Every reason a legal order may fail (no wildcard either).
fn every_failure() -> Vec<Failure> {
    let (a, b) = (ProvinceId(0), ProvinceId(1));
    let all = vec![
        Failure::Standoff { with: vec![a, b] },
        Failure::Defended { by: a },
        Failure::LostHeadToHead { against: a },
        Failure::WouldDislodgeOwnUnit,
        Failure::NoConvoyRoute,
        Failure::Dislodged { by: a },
        Failure::SupportCut { by: a },
        Failure::NotMatched,
        Failure::RetreatStandoff,
        Failure::BeyondAllowance,
        Failure::ConvoyParadox,
    ];
    for failure in &all {
        match failure {
            Failure::Standoff { .. }
            | Failure::Defended { .. }
            | Failure::LostHeadToHead { .. }
            | Failure::WouldDislodgeOwnUnit
            | Failure::NoConvoyRoute
            | Failure::Dislodged { .. }
            | Failure::SupportCut { .. }
            | Failure::NotMatched
            | Failure::RetreatStandoff
            | Failure::BeyondAllowance
            | Failure::ConvoyParadox => {}
        }
    }
    all
}

fn every_outcome() -> Vec<Outcome> {
    let mut all = vec![Outcome::Succeeded];
    all.extend(every_failure().into_iter().map(Outcome::Failed));
    all.extend(every_illegal().into_iter().map(Outcome::Illegal));
    all
}

/// Checks a rendered text: not empty, no undefined value, and the outcome worded (its
/// bare code never stands in for a sentence).
#[track_caller]
fn check_text(text: &str, what: &str, code: Option<&str>) {
    assert!(!text.trim().is_empty(), "{what}: empty");
    assert!(!text.contains("undefined"), "{what}: {text}");
    if let Some(code) = code {
        for bare in [
            format!(": {code}\n"),
            format!(": {code} ("),
            format!(" : {code}\n"),
            format!(" : {code} ("),
        ] {
            assert!(
                !text.contains(&bare),
                "{what}: the code {code} is not worded:\n{text}"
            );
        }
    }
}

#[test]
fn every_outcome_renders_in_both_languages_in_results_and_replies() {
    let variant = load_variant("westeros").unwrap();
    let w = world("codes", Settings::default());
    w.submit(GAME, "stark", "A win -> roc\nA moa H\nF bla H\n", t0());
    let game = w.game(GAME);
    let results = serde_json::to_value(
        corbeau::report::checked_orders(&game, &variant, &"stark".into()).unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    for outcome in every_outcome() {
        let view = serde_json::to_value(outcome_view(&variant, &outcome)).unwrap();
        let code = view["reason"].as_str().map(str::to_string);
        for lang in [Lang::Fr, Lang::En] {
            // In the results: on an order written by a player, on an order without a
            // unit (a waive), and among the rejected lines.
            let mut data = results.clone();
            let group = &mut data["houses"][0]["orders"];
            let mut waive = group[0].clone();
            waive["unit"] = json!(null);
            waive["command"] = json!({"type": "waive"});
            waive["order"] = json!("waive");
            group.as_array_mut().unwrap().push(waive);
            for line in group.as_array_mut().unwrap() {
                line["outcome"] = view.clone();
                line["written"] = json!("A win -> xyz");
            }
            // Only illegal lines are ever rejected.
            let illegal = matches!(outcome, Outcome::Illegal(_));
            if illegal {
                data["rejected"] = json!([{
                    "index": 0,
                    "house": data["houses"][0]["house"].clone(),
                    "written": "A win -> xyz",
                    "outcome": view.clone(),
                }]);
            }
            for kind in ["movement", "retreat", "adjustment"] {
                data["phase"]["kind"] = json!(kind);
                let text =
                    render_template(RESULTS_TEMPLATE, Value::from_serialize(&data), lang, None)
                        .unwrap_or_else(|e| panic!("{outcome:?} {lang:?} {kind}: {e}"));
                check_text(
                    &text,
                    &format!("results {outcome:?} {lang:?}"),
                    code.as_deref(),
                );
            }
            // In the reply to a set of orders.
            let mut reply = serde_json::to_value(
                corbeau::report::orders_view(&game, &variant, &"stark".into(), lang).unwrap(),
            )
            .unwrap();
            let mut waive = reply["orders"][0].clone();
            waive["unit"] = json!(null);
            waive["command"] = json!({"type": "waive"});
            reply["orders"].as_array_mut().unwrap().push(waive);
            for line in reply["orders"].as_array_mut().unwrap() {
                line["outcome"] = view.clone();
                line["written"] = json!("A win -> xyz");
            }
            if illegal {
                reply["rejected"] = json!([{
                    "index": 0, "house": null, "written": "A win -> xyz", "outcome": view.clone(),
                }]);
            }
            let text = render_template(ORDERS_TEMPLATE, Value::from_serialize(&reply), lang, None)
                .unwrap_or_else(|e| panic!("reply {outcome:?} {lang:?}: {e}"));
            check_text(
                &text,
                &format!("reply {outcome:?} {lang:?}"),
                code.as_deref(),
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * (1 + 11 + 40));
}

/// Every notice kind (no wildcard: a new kind must be listed to compile).
fn every_notice(deadline: DateTime<Utc>) -> Vec<(NoticeKind, Vec<corbeau::game::HouseKey>)> {
    let phase = Phase {
        year: 298,
        season: Season::Spring,
        kind: PhaseKind::Movement,
    };
    let mut all = vec![
        (NoticeKind::Started, vec![]),
        (
            NoticeKind::Reminder { deadline },
            vec!["stark".into(), "lannister".into()],
        ),
        (
            NoticeKind::PlayerReplaced {
                house: "baratheon".into(),
            },
            vec![],
        ),
        (
            NoticeKind::Resigned {
                house: "baratheon".into(),
            },
            vec![],
        ),
        (NoticeKind::DeadlineChanged { deadline }, vec![]),
        (NoticeKind::Paused, vec![]),
        (NoticeKind::Resumed, vec![]),
        (NoticeKind::RolledBack { phase }, vec![]),
        (NoticeKind::GameOver, vec![]),
        (
            NoticeKind::Grace {
                deadline,
                until: deadline + TimeDelta::hours(12),
            },
            vec!["stark".into(), "lannister".into()],
        ),
        (
            NoticeKind::Missed {
                house: "stark".into(),
                phase,
                missed: 1,
            },
            vec!["stark".into(), "lannister".into()],
        ),
        (
            NoticeKind::CivilDisorder {
                house: "stark".into(),
                phase,
            },
            vec!["stark".into(), "lannister".into()],
        ),
        (
            NoticeKind::Undeliverable {
                house: Some("stark".into()),
                address: "alice@example.org".into(),
                reason: "550 5.1.1 no such user".into(),
            },
            vec![],
        ),
        (
            NoticeKind::SignOnFailures {
                house: None,
                failures: 5,
                since: deadline,
            },
            vec![],
        ),
        // Joining: the moderator's two, and one of each for each player.
        (
            NoticeKind::Joined {
                house: "stark".into(),
                address: "jon@mur.test".into(),
                left: 0,
                started: true,
            },
            vec![],
        ),
        (
            NoticeKind::SeatAsked {
                house: "stark".into(),
                address: "jon@mur.test".into(),
            },
            vec![],
        ),
        (
            NoticeKind::SeatLost {
                house: "stark".into(),
                address: STARK.into(),
                lang: Lang::Fr,
                removed: true,
            },
            vec![],
        ),
        (
            NoticeKind::SeatLost {
                house: "lannister".into(),
                address: LANNISTER.into(),
                lang: Lang::En,
                removed: false,
            },
            vec![],
        ),
        (
            NoticeKind::SeatRefused {
                house: "baratheon".into(),
                address: STARK.into(),
                lang: Lang::Fr,
            },
            vec![],
        ),
        (
            NoticeKind::SeatRefused {
                house: "baratheon".into(),
                address: LANNISTER.into(),
                lang: Lang::En,
            },
            vec![],
        ),
    ];
    // Orders written ahead: told to their own house only, one of each for each reader.
    let phase = ahead_phase();
    for house in ["stark", "lannister"] {
        let lines = vec![(3, "A win -> cno".to_string())];
        all.push((
            NoticeKind::AheadActivated {
                house: house.into(),
                phase,
                lines: lines.clone(),
                refused: house == "lannister",
                ready: false,
            },
            vec![house.into()],
        ));
        all.push((
            NoticeKind::AheadDropped {
                house: house.into(),
                phase,
                lines,
                why: corbeau::game::AheadDrop::NeverCame,
            },
            vec![house.into()],
        ));
    }
    for (kind, _) in &all {
        match kind {
            NoticeKind::Started
            | NoticeKind::Results { .. }
            | NoticeKind::Reminder { .. }
            | NoticeKind::PlayerReplaced { .. }
            | NoticeKind::Resigned { .. }
            | NoticeKind::DeadlineChanged { .. }
            | NoticeKind::Paused
            | NoticeKind::Resumed
            | NoticeKind::RolledBack { .. }
            | NoticeKind::GameOver
            | NoticeKind::Grace { .. }
            | NoticeKind::Missed { .. }
            | NoticeKind::CivilDisorder { .. }
            | NoticeKind::Undeliverable { .. }
            | NoticeKind::SignOnFailures { .. }
            | NoticeKind::Joined { .. }
            | NoticeKind::SeatAsked { .. }
            | NoticeKind::SeatLost { .. }
            | NoticeKind::SeatRefused { .. }
            | NoticeKind::AheadActivated { .. }
            | NoticeKind::AheadDropped { .. } => {}
        }
    }
    all
}

#[test]
fn every_notice_renders_in_both_languages() {
    let w = world("notices", Settings::default());
    let deadline = w.game(GAME).deadline().unwrap();
    let kinds = every_notice(deadline);
    let count = kinds.len();
    w.notify(GAME, kinds, t0());
    let mails = w.notices(t0());
    for lang_of in [STARK, LANNISTER] {
        let told: Vec<&OutMail> = mails.iter().filter(|m| m.to == lang_of).collect();
        // An undeliverable address and the moderator's throttled sign-ons are the
        // moderator's business alone, and so are a seat taken or asked for; a seat lost
        // or refused is told to its own address only.
        // Each reader is told of the two blocks of its own house, not the other's two.
        assert_eq!(told.len(), count - 8, "{lang_of}");
        for mail in told {
            check_text(&mail.subject, &format!("subject to {lang_of}"), None);
            check_text(&mail.body, &format!("notice to {lang_of}"), None);
            // Something past the header and the game's name.
            let said = mail
                .body
                .lines()
                .filter(|l| !l.starts_with("::") && !l.trim().is_empty())
                .count();
            assert!(said >= 2, "{}", rendered(mail));
        }
    }
}

#[test]
fn every_error_and_refusal_is_worded_in_both_languages() {
    let mut checked = 0;
    let mut check = |fr: String, en: String, what: String| {
        check_text(&fr, &what, None);
        check_text(&en, &what, None);
        checked += 1;
    };
    let calendar = vec![
        CalendarError::InvalidSpan { input: "48".into() },
        CalendarError::UnknownSpanUnit {
            input: "2x".into(),
            unit: "x".into(),
        },
        CalendarError::SpanTooLong {
            input: "400d".into(),
        },
        CalendarError::UnknownWeekday {
            input: "lun-vne".into(),
            word: "vne".into(),
            nearest: Some("ven"),
        },
        CalendarError::NoWeekday,
        CalendarError::InvalidTimeOfDay {
            input: "25h".into(),
        },
        CalendarError::InvalidDateTime {
            input: "22 nov".into(),
        },
        CalendarError::UnknownTimeZone {
            input: "Europe/Pari".into(),
            nearest: Some("Europe/Paris"),
        },
        CalendarError::ZeroPhase {
            kind: PhaseKind::Retreat,
        },
        CalendarError::InvalidReminder {
            reminder: Span::ZERO,
            longest: Span::days(2),
        },
        CalendarError::ExtensionTooLong {
            by: Span::days(2),
            already: Span::days(2),
            max: Span::days(3),
        },
    ];
    for e in &calendar {
        match e {
            CalendarError::InvalidSpan { .. }
            | CalendarError::UnknownSpanUnit { .. }
            | CalendarError::SpanTooLong { .. }
            | CalendarError::UnknownWeekday { .. }
            | CalendarError::NoWeekday
            | CalendarError::InvalidTimeOfDay { .. }
            | CalendarError::InvalidDateTime { .. }
            | CalendarError::UnknownTimeZone { .. }
            | CalendarError::ZeroPhase { .. }
            | CalendarError::InvalidReminder { .. }
            | CalendarError::ExtensionTooLong { .. } => {}
        }
        check(
            e.message(Lang::Fr),
            e.message(Lang::En),
            format!("{} ({e:?})", e.code()),
        );
    }
    let games = vec![
        GameError::UnknownGame {
            id: "batail".into(),
            nearest: Some("bataille".into()),
        },
        GameError::GameExists("bataille".into()),
        GameError::BadGameId("Bad Id".into()),
        GameError::NoSetup {
            variant: "westeros".into(),
            players: 9,
            available: vec![3, 7],
        },
        GameError::UnknownHouse {
            name: "frey".into(),
            houses: vec!["stark".into(), "lannister".into()],
        },
        GameError::HouseNotInGame("tyrell".into()),
        GameError::SeatTaken {
            house: "stark".into(),
            address: "a@b.test".into(),
        },
        GameError::NoPlayer("stark".into()),
        GameError::BadAddress("nobody".into()),
        GameError::AddressTaken {
            address: "a@b.test".into(),
            house: "stark".into(),
        },
        GameError::Status {
            action: "process",
            status: GameStatus::Forming,
        },
        GameError::MissingPlayers(vec!["stark".into(), "lannister".into()]),
        GameError::WrongPhase {
            given: "printemps 299".into(),
            current: corbeau::position::parse_phase("spring 298 movement").unwrap(),
        },
        GameError::BadPhase("été".into()),
        // Each problem renders in tests/hostile/orders.rs; here the refusal itself.
        GameError::OrdersRefused(Vec::new()),
        GameError::NothingToOrder {
            house: "stark".into(),
        },
        GameError::TooManyOrders {
            count: 250,
            max: 200,
        },
        GameError::NothingToRollback,
        GameError::ReadyWithIllegalOrders("lannister".into()),
        GameError::BadAbsence,
        GameError::Late {
            deadline: at("2026-11-25T19:00:00Z"),
            zone: chrono_tz::Europe::Paris,
        },
        GameError::Calendar(CalendarError::NoWeekday),
        GameError::BadPosition("line 2".into()),
        GameError::BadVote("stark".into()),
        GameError::Secret(SecretFailure::Random("oops".into())),
        GameError::Secret(SecretFailure::Hash("oops".into())),
        GameError::JudgeAddress("juge@example.org".into()),
        GameError::VariantIncompatible {
            file: "westeros-2.toml".into(),
            problems: vec![
                Incompatibility::Houses {
                    missing: vec!["stark".into()],
                    added: vec!["france".into()],
                },
                Incompatibility::Houses {
                    missing: vec!["stark".into()],
                    added: Vec::new(),
                },
                Incompatibility::Houses {
                    missing: Vec::new(),
                    added: vec!["france".into()],
                },
                Incompatibility::Position {
                    reason: "bataille:3: unknown province `rox`".into(),
                },
                Incompatibility::Order {
                    house: "stark".into(),
                    text: "A win -> roc".into(),
                },
                Incompatibility::History {
                    number: 3,
                    reason: "bataille:3: unknown province `rox`".into(),
                },
            ],
        },
        GameError::VariantUnchanged {
            name: "westeros".into(),
        },
        GameError::NotAllowed { action: "start" },
        GameError::AddressUnavailable("a@b.test".into()),
        GameError::ObserversForbidden,
        GameError::AlreadyObserving,
        GameError::TooManyObserverRequests,
        GameError::NoObserverRequest {
            game: "bataille".into(),
        },
        GameError::ObserversFull {
            game: "bataille".into(),
            cap: 20,
        },
        GameError::BadObserverToken,
        GameError::BadObserverSecret,
        GameError::UnknownPress {
            input: "rose".into(),
        },
        GameError::DeadlinePast {
            asked: DateTime::from_timestamp(1_700_000_000, 0).unwrap_or_default(),
            now: DateTime::from_timestamp(1_700_100_000, 0).unwrap_or_default(),
            zone: chrono_tz::Europe::Paris,
        },
        GameError::DeadlineTooFar {
            asked: DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default(),
            max: Span::MAX,
            zone: chrono_tz::Europe::Paris,
        },
        GameError::DeadlineWhilePaused,
        GameError::GraceTooLong {
            grace: Span::days(10),
            max: Span::days(7),
        },
        GameError::TooManyReminders { count: 6, max: 5 },
        // The habits of njudge players.
        GameError::DrawWithout(HouseKey::from("greyjoy")),
        GameError::WeakSecret { min: 8 },
        GameError::CommonSecret,
        GameError::NotShownOrHidden {
            input: "peut-être".into(),
        },
        GameError::NotYesNo {
            input: "peut-être".into(),
        },
        GameError::BadMissedCount {
            input: "99".into(),
            max: 12,
        },
        GameError::GameClosed { game: "g".into() },
        GameError::NoFreeSeat { game: "g".into() },
        GameError::HousePlayed("stark".into()),
        GameError::AlreadyInGame { game: "g".into() },
        GameError::AlreadyAsked("stark".into()),
        GameError::NoSeatRequest("stark".into()),
        GameError::BadConsentToken,
        GameError::ConsentTokenExpired,
        GameError::Ejected { game: "w1".into() },
        GameError::WhichRequest {
            house: "stark".into(),
            addresses: vec!["a@x.org".into(), "b@x.org".into()],
        },
        GameError::TooManySeatRequests,
        // Orders for later phases.
        GameError::AheadPast {
            phase: ahead_phase(),
            current: ahead_phase(),
        },
        GameError::AheadTooFar {
            phase: ahead_phase(),
            last: 303,
        },
        GameError::AheadTooMany { max: 12 },
        GameError::AheadTooLong {
            lines: 300,
            max: 200,
        },
        // Rule editions.
        GameError::UnknownRules {
            input: "2000".into(),
        },
        GameError::RulesAfterStart {
            rules: corbeau::judge::Edition::Rules1971,
        },
        // Players' records and time zones.
        GameError::BadPercent {
            input: "120".into(),
        },
        GameError::UnknownZone {
            input: "Mars/Olympus".into(),
        },
    ];
    for e in &games {
        // No wildcard: a new error does not compile until it is listed above. (The map's
        // and the store's errors carry their own messages, tested with them.)
        match e {
            GameError::UnknownGame { .. }
            | GameError::GameExists(_)
            | GameError::BadGameId(_)
            | GameError::Variant(_)
            | GameError::NoSetup { .. }
            | GameError::UnknownHouse { .. }
            | GameError::HouseNotInGame(_)
            | GameError::SeatTaken { .. }
            | GameError::NoPlayer(_)
            | GameError::BadAddress(_)
            | GameError::AddressTaken { .. }
            | GameError::Status { .. }
            | GameError::MissingPlayers(_)
            | GameError::WrongPhase { .. }
            | GameError::BadPhase(_)
            | GameError::OrdersRefused(_)
            | GameError::NothingToOrder { .. }
            | GameError::TooManyOrders { .. }
            | GameError::NothingToRollback
            | GameError::ReadyWithIllegalOrders(_)
            | GameError::BadAbsence
            | GameError::Late { .. }
            | GameError::Calendar(_)
            | GameError::BadPosition(_)
            | GameError::BadVote(_)
            | GameError::Secret(_)
            | GameError::JudgeAddress(_)
            | GameError::VariantIncompatible { .. }
            | GameError::VariantUnchanged { .. }
            | GameError::NotAllowed { .. }
            | GameError::AddressUnavailable(_)
            | GameError::ObserversForbidden
            | GameError::AlreadyObserving
            | GameError::TooManyObserverRequests
            | GameError::NoObserverRequest { .. }
            | GameError::ObserversFull { .. }
            | GameError::BadObserverToken
            | GameError::BadObserverSecret
            | GameError::UnknownPress { .. }
            | GameError::DeadlinePast { .. }
            | GameError::DeadlineTooFar { .. }
            | GameError::DeadlineWhilePaused
            | GameError::GraceTooLong { .. }
            | GameError::TooManyReminders { .. }
            | GameError::DrawWithout(_)
            | GameError::WeakSecret { .. }
            | GameError::CommonSecret => {}
            GameError::NotShownOrHidden { .. } => {}
            GameError::NotYesNo { .. }
            | GameError::BadMissedCount { .. }
            | GameError::GameClosed { .. }
            | GameError::NoFreeSeat { .. }
            | GameError::HousePlayed(_)
            | GameError::AlreadyInGame { .. }
            | GameError::AlreadyAsked(_)
            | GameError::NoSeatRequest(_)
            | GameError::BadConsentToken
            | GameError::ConsentTokenExpired
            | GameError::Ejected { .. }
            | GameError::WhichRequest { .. }
            | GameError::TooManySeatRequests
            | GameError::AheadPast { .. }
            | GameError::AheadTooFar { .. }
            | GameError::AheadTooMany { .. }
            | GameError::AheadTooLong { .. }
            | GameError::UnknownRules { .. }
            | GameError::RulesAfterStart { .. }
            | GameError::BadPercent { .. }
            | GameError::UnknownZone { .. } => {}
        }
        check(e.message(Lang::Fr), e.message(Lang::En), format!("{e:?}"));
    }
    // The service's own failures (the store's message is the store's, in English).
    let services = vec![
        ServiceError::Game(GameError::NothingToRollback),
        ServiceError::Store(StorageFailure::Transient("database busy".into())),
        ServiceError::Render(RenderError::Template {
            template: "welcome.txt".into(),
            message: "unexpected end".into(),
        }),
        ServiceError::Bug(Bug::NoPhaseRecord),
        ServiceError::Bug(Bug::SpoiledSession),
        ServiceError::Bug(Bug::Broadcast("oops".into())),
        ServiceError::Bug(Bug::StoreNotOpen),
        ServiceError::Bug(Bug::SeatWithoutEvent),
        ServiceError::Bug(Bug::Draw("oops".into())),
    ];
    for e in &services {
        // No wildcard: a new failure does not compile until it is listed above.
        match e {
            ServiceError::Game(_)
            | ServiceError::Store(_)
            | ServiceError::Render(_)
            | ServiceError::Bug(
                Bug::NoPhaseRecord
                | Bug::SpoiledSession
                | Bug::Broadcast(_)
                | Bug::StoreNotOpen
                | Bug::SeatWithoutEvent
                | Bug::Draw(_),
            ) => {}
        }
        check(e.message(Lang::Fr), e.message(Lang::En), format!("{e:?}"));
    }
    let refusals = vec![
        Refusal::NotSignedOn,
        Refusal::NotModerator,
        Refusal::BadSignOn {
            game: "bataille".into(),
        },
        Refusal::BadModeratorSecret {
            game: "bataille".into(),
        },
        Refusal::NoModerator {
            game: "bataille".into(),
        },
        Refusal::OneGamePerMail {
            first: "bataille".into(),
        },
        Refusal::NoGame,
        Refusal::PressForbidden {
            setting: "none".into(),
        },
        Refusal::GreyForbidden,
        Refusal::NoRecipient,
        Refusal::ProcessOnce,
        Refusal::NoSuchPhase("été 300".into()),
        Refusal::NothingPlayed,
        Refusal::AlreadyObserving,
        Refusal::BadObserverSecret,
        Refusal::BadSpan("2x".into()),
        Refusal::TooLarge {
            size: 2_000_000,
            limit: 1_000_000,
        },
        Refusal::AddressUnavailable("x@example.org".into()),
        Refusal::OneSecretPerMail,
        Refusal::SecretOnItsOwnLine,
        Refusal::ObserversForbidden,
        Refusal::NoObserverRequest {
            game: "bataille".into(),
        },
        Refusal::BadObserverToken,
        Refusal::TooManyObserverRequests,
        Refusal::TooManyCommands {
            count: 2_000,
            limit: 300,
        },
        Refusal::MapForStrangers {
            game: "bataille".into(),
        },
        Refusal::HouseCommand,
    ];
    for r in &refusals {
        // No wildcard: a new refusal does not compile until it is listed above.
        match r {
            Refusal::NotSignedOn
            | Refusal::NotModerator
            | Refusal::BadSignOn { .. }
            | Refusal::BadModeratorSecret { .. }
            | Refusal::NoModerator { .. }
            | Refusal::OneGamePerMail { .. }
            | Refusal::NoGame
            | Refusal::PressForbidden { .. }
            | Refusal::GreyForbidden
            | Refusal::NoRecipient
            | Refusal::ProcessOnce
            | Refusal::NoSuchPhase(_)
            | Refusal::NothingPlayed
            | Refusal::AlreadyObserving
            | Refusal::BadObserverSecret
            | Refusal::BadSpan(_)
            | Refusal::TooLarge { .. }
            | Refusal::AddressUnavailable(_)
            | Refusal::OneSecretPerMail
            | Refusal::SecretOnItsOwnLine
            | Refusal::ObserversForbidden
            | Refusal::NoObserverRequest { .. }
            | Refusal::BadObserverToken
            | Refusal::TooManyObserverRequests
            | Refusal::TooManyCommands { .. }
            | Refusal::MapForStrangers { .. }
            | Refusal::HouseCommand => {}
        }
        check(r.message(Lang::Fr), r.message(Lang::En), format!("{r:?}"));
    }
    // Order lines that cannot be read, as the parser gives them.
    let variant = load_variant("westeros").unwrap();
    for line in [
        "A sombrevale -> win",
        "F bla/cn H",
        "A win tien",
        &"A win H ".repeat(200),
    ] {
        let errors: Vec<OrderError> = corbeau::order::parse_orders(&variant, "test", line)
            .into_iter()
            .filter_map(Result::err)
            .collect();
        assert!(!errors.is_empty(), "{line}");
        for e in errors {
            check(
                e.message(Lang::Fr),
                e.message(Lang::En),
                format!("{} ({line})", e.code()),
            );
        }
    }
    // The 4 after the 7: the refusals of orders for later phases; the 2 after: the rule
    // editions'; then a number of missed phases; the last: a bad percentage and an
    // unknown time zone.
    assert_eq!(checked, 11 + 53 + 9 + 27 + 4 + 7 + 4 + 2 + 1 + 2);
}

/// A game of three on a judge driven through the binary, created at `when`: its
/// moderator's secret, and the judge's incoming Maildir (made). The players are
/// `alice`, `bob` and `carol` at example.org, their secrets `<name>-secret-42`.
fn three_players(cli: &CliJudge, game: &str, when: &str) -> (String, std::path::PathBuf) {
    let out = ok(
        cli,
        when,
        &[
            "game",
            "new",
            game,
            "--players",
            "3",
            "--moderator",
            "mod@example.org",
            "--lang",
            "en",
        ],
        "",
    );
    let secret = out
        .lines()
        .find(|l| l.contains("moderator"))
        .and_then(|l| l.split_whitespace().last())
        .unwrap()
        .to_string();
    for (house, who) in [
        ("stark", "alice"),
        ("lannister", "bob"),
        ("baratheon", "carol"),
    ] {
        let address = format!("{who}@example.org");
        let secret = format!("{who}-secret-42");
        ok(
            cli,
            when,
            &["player", "add", game, house, &address, "--secret", &secret],
            "",
        );
    }
    let maildir = cli.root.join("data").join("incoming");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    (secret, maildir)
}

/// A moderator's `DÉMARRER` (or `REPRENDRE`, `ANNULER`) that reached the judge while it
/// was down for days opens its deadline from the pass that reads it, not from the mail's
/// arrival: else the phase opens with its deadline already past and the same pass
/// processes it, every unit holding and every house told it missed it.
#[test]
fn a_start_read_days_after_it_arrived_opens_a_deadline_from_now() {
    let cli = CliJudge::new("flow-cli", "late-start");
    let then = "2026-12-01T10:00:00Z";
    let now = "2026-12-04T10:00:00Z";
    let (secret, maildir) = three_players(&cli, "late", then);
    // Delivered into the Maildir on 1 December (the time at the head of its name).
    let arrived = at(then).timestamp();
    fs::write(
        maildir.join("new").join(format!("{arrived}.M1P1.host")),
        format!(
            "From: mod@example.org\nSubject: x\nMessage-ID: <late-start@example.org>\n\n\
             MODERATEUR late {secret}\nDEMARRER\n"
        ),
    )
    .unwrap();
    ok(&cli, now, &["tick"], "");
    let show = ok(&cli, now, &["game", "show", "late", "--lang", "en"], "");
    assert!(show.contains("spring 298"), "{show}");
    assert!(show.contains("December 2026"), "{show}");
    assert!(
        !show.contains("3 December") && !show.contains("Thursday 3"),
        "deadline counted from the mail's arrival: {show}"
    );
}

/// D17: a player's orders and the moderator's `PROCESS` delivered in the same second are
/// carried out in the order they were delivered — the microsecond in their Maildir names —
/// not in the order of the names' text (`M123456` sorts before `M5` as text), which
/// processed the phase before the orders were read.
#[test]
fn mails_of_one_second_are_carried_out_in_delivery_order() {
    let cli = CliJudge::new("flow-cli", "same-second");
    let now = "2026-12-01T10:00:00Z";
    let (secret, maildir) = three_players(&cli, "tied", now);
    ok(&cli, now, &["game", "start", "tied"], "");
    let second = at(now).timestamp();
    let deliver = |micro: u32, id: &str, from: &str, body: &str| {
        fs::write(
            maildir
                .join("new")
                .join(format!("{second}.M{micro}P1.host")),
            format!("From: {from}\nSubject: x\nMessage-ID: <{id}@example.org>\n\n{body}"),
        )
        .unwrap();
    };
    deliver(
        5,
        "orders",
        "alice@example.org",
        "SIGNON tied Stark alice-secret-42\nA win H\n",
    );
    deliver(
        123_456,
        "process",
        "mod@example.org",
        &format!("MODERATOR tied {secret}\nPROCESS spring 298 movement\n"),
    );
    ok(&cli, now, &["tick"], "");
    let history = ok(&cli, now, &["history", "tied", "1", "--lang", "en"], "");
    let winterfell = history.lines().find(|l| l.contains("(win)")).unwrap();
    assert!(!winterfell.contains("no order"), "{history}");
}

/// A phase for the samples of orders written ahead.
fn ahead_phase() -> corbeau::judge::Phase {
    corbeau::judge::Phase {
        year: 299,
        season: corbeau::judge::Season::Autumn,
        kind: corbeau::judge::PhaseKind::Movement,
    }
}
