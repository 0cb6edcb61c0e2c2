//! The game lifecycle as values, without the store: when a phase is due, reminders, grace,
//! civil disorder, pause and extensions, absences, votes and victory.

#![allow(clippy::unwrap_used, clippy::field_reassign_with_default)]

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{
    Ending, Game, GameError, GameStatus, NewGame, OrderLines, Settings, SubmitMode, Trigger, Vote,
    create,
};
use corbeau::lang::Lang;
use corbeau::map::{PinnedVariant, Variant, VariantHash, load_variant};
use corbeau::position::write_position;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn t0() -> DateTime<Utc> {
    at("2026-11-22T10:00:00Z")
}

const HOUSES: [&str; 3] = ["stark", "lannister", "baratheon"];

/// A running 3-player game opened at t0 (first deadline: Tuesday 24 November, 20:00 Paris).
fn running(settings: Settings) -> (Variant, Game) {
    let variant = load_variant("westeros").unwrap();
    let new = NewGame {
        id: "regles".into(),
        name: None,
        variant: "westeros".into(),
        players: 3,
        settings,
        moderator: None,
    };
    let pin = PinnedVariant {
        name: "westeros".into(),
        hash: VariantHash::of(include_str!("../games/westeros.toml")),
    };
    let mut game = create(new, &variant, pin, t0()).unwrap();
    for h in HOUSES {
        // Hashing is not what is tested here: any string stands for the hash.
        game.add_player(
            &corbeau::game::HouseKey::from(h),
            &format!("{h}@example.org"),
            "hash".into(),
            Lang::Fr,
            t0(),
        )
        .unwrap();
    }
    game.start(&variant, t0()).unwrap();
    (variant, game)
}

fn submit(game: &mut Game, variant: &Variant, house: &str, orders: &str, now: DateTime<Utc>) {
    game.submit(
        variant,
        &corbeau::game::HouseKey::from(house),
        &OrderLines::numbered(orders),
        SubmitMode::Replace,
        "test",
        now,
    )
    .unwrap();
}

#[test]
fn the_first_deadline_follows_the_schedule() {
    let (_, game) = running(Settings::default());
    assert_eq!(game.deadline(), Some(at("2026-11-24T19:00:00Z")));
    assert_eq!(game.deciding(), HOUSES);
    assert_eq!(
        game.deadline_text(Lang::Fr),
        "mardi 24 novembre 2026 à 20:00 (Europe/Paris)"
    );
}

#[test]
fn a_phase_is_due_when_everyone_is_ready_or_at_the_deadline() {
    let mut settings = Settings::default();
    settings.schedule.grace = "6h".parse().unwrap();
    let (variant, mut game) = running(settings);
    let deadline = game.deadline().unwrap();
    assert_eq!(game.due(t0()), None);
    submit(&mut game, &variant, "stark", "A win -> cno", t0());
    for h in HOUSES {
        game.set_ready(&corbeau::game::HouseKey::from(h), true, t0())
            .unwrap();
    }
    assert_eq!(game.due(t0()), Some(Trigger::Ready));
    assert_eq!(game.wake(), Some(t0()), "tick looks at it at once");
    game.set_ready(&"lannister".into(), false, t0()).unwrap();
    assert_eq!(game.due(t0()), None);
    // At the deadline, Lannister and Baratheon have given nothing: the grace period runs.
    assert_eq!(game.due(deadline), None);
    assert_eq!(
        game.waiting_for(),
        vec![corbeau::game::HouseKey::from("lannister")],
        "ready counts as ordered"
    );
    submit(&mut game, &variant, "lannister", "A pie -> viv", deadline);
    assert_eq!(
        game.due(deadline),
        Some(Trigger::Deadline),
        "everyone ordered"
    );
    game.submit(
        &variant,
        &"lannister".into(),
        &OrderLines::numbered("A pie H"),
        SubmitMode::Replace,
        "t",
        deadline + TimeDelta::hours(6),
    )
    .map(|_| panic!("orders after the grace period"))
    .unwrap_or_else(|e| assert!(matches!(e, GameError::Late { .. }), "{e}"));
}

/// A refusal carries typed values, and is worded when it is shown: the deadline of a late
/// set of orders in the game's zone and the reader's language, a refused line with its
/// number and the owner of the unit.
#[test]
fn a_refusal_is_worded_in_the_readers_language() {
    let (variant, mut game) = running(Settings::default());
    let deadline = game.deadline().unwrap();
    let late = game
        .submit(
            &variant,
            &"stark".into(),
            &OrderLines::numbered("A win H"),
            SubmitMode::Replace,
            "t",
            deadline,
        )
        .unwrap_err();
    assert_eq!(
        late.message(Lang::Fr),
        "trop tard : la date limite était mardi 24 novembre 2026 à 20:00 (Europe/Paris) ; \
         rien n'a été enregistré"
    );
    assert_eq!(
        late.to_string(),
        "too late: the deadline was Tuesday 24 November 2026 at 20:00 (Europe/Paris); \
         nothing was stored"
    );
    let refused = game
        .submit(
            &variant,
            &"baratheon".into(),
            &OrderLines::numbered("A boi -> prt\nA win H\nA prt H\n"),
            SubmitMode::Replace,
            "t",
            t0(),
        )
        .unwrap_err();
    assert_eq!(
        refused.message(Lang::En),
        "orders refused, nothing was stored:\n  \
         line 2: this unit belongs to house Stark; Baratheon cannot order it\n    > A win H\n  \
         line 3: this unit is neutral; neutral units take no orders\n    > A prt H"
    );
}

#[test]
fn the_grace_period_ends_the_wait_for_missing_orders() {
    let mut settings = Settings::default();
    settings.schedule.grace = "6h".parse().unwrap();
    let (_, game) = running(settings);
    let deadline = game.deadline().unwrap();
    assert_eq!(game.due(deadline + TimeDelta::hours(5)), None);
    assert_eq!(
        game.due(deadline + TimeDelta::hours(6)),
        Some(Trigger::Deadline)
    );
}

#[test]
fn reminders_go_once_to_houses_without_orders() {
    let (variant, mut game) = running(Settings::default());
    submit(&mut game, &variant, "stark", "A win -> cno", t0());
    let reminder = at("2026-11-23T19:00:00Z");
    assert_eq!(
        game.wake(),
        Some(reminder),
        "the 1-day reminder comes before the deadline"
    );
    assert_eq!(game.take_reminder(reminder - TimeDelta::minutes(1)), None);
    assert_eq!(
        game.take_reminder(reminder),
        Some(vec!["lannister".into(), "baratheon".into()])
    );
    assert_eq!(
        game.take_reminder(reminder + TimeDelta::hours(1)),
        None,
        "only once"
    );
    assert_eq!(game.wake(), game.deadline());
}

#[test]
fn missed_phases_lead_to_civil_disorder_and_orders_end_it() {
    let mut settings = Settings::default();
    settings.civil_disorder_after = 2;
    let (variant, mut game) = running(settings);
    let mut now = game.deadline().unwrap();
    for (house, orders) in [("stark", "A win H"), ("lannister", "A pie H")] {
        submit(&mut game, &variant, house, orders, t0());
    }
    let record = game.process(&variant, now, Trigger::Deadline).unwrap();
    assert!(record.civil_disorder.is_empty());
    assert_eq!(game.seat("baratheon").unwrap().missed(), 1);
    now = game.deadline().unwrap();
    let record = game.process(&variant, now, Trigger::Deadline).unwrap();
    assert_eq!(record.civil_disorder, vec!["baratheon"]);
    assert!(game.seat("baratheon").unwrap().civil_disorder());
    assert_eq!(game.seat("stark").unwrap().missed(), 1);
    // A house in civil disorder is not waited for.
    assert_eq!(game.waiting_for(), vec!["stark", "lannister"]);
    submit(&mut game, &variant, "baratheon", "A boi H", now);
    assert!(!game.seat("baratheon").unwrap().civil_disorder());
}

#[test]
fn the_next_deadline_keeps_the_cadence_unless_the_judge_was_away() {
    let (variant, mut game) = running(Settings::default());
    let deadline = game.deadline().unwrap();
    game.process(
        &variant,
        deadline + TimeDelta::seconds(30),
        Trigger::Deadline,
    )
    .unwrap();
    assert_eq!(
        game.deadline(),
        Some(deadline + TimeDelta::days(2)),
        "20:00 stays 20:00"
    );
    let deadline = game.deadline().unwrap();
    let late = deadline + TimeDelta::days(2);
    game.process(&variant, late, Trigger::Deadline).unwrap();
    assert!(
        game.deadline().unwrap() >= late + TimeDelta::days(1),
        "a full phase after a long stop"
    );
}

#[test]
fn pause_keeps_the_time_left_and_extensions_are_capped() {
    let (_, mut game) = running(Settings::default());
    let deadline = game.deadline().unwrap();
    let left = deadline - t0();
    game.pause(t0()).unwrap();
    assert_eq!(game.status(), GameStatus::Paused);
    assert_eq!(game.wake(), None, "a paused game is not looked at");
    let later = t0() + TimeDelta::days(10);
    game.resume(later).unwrap();
    assert_eq!(game.deadline(), Some(later + left));
    let extended = game.extend("2d".parse().unwrap(), later).unwrap();
    assert_eq!(extended, later + left + TimeDelta::days(2));
    let err = game.extend("2d".parse().unwrap(), later).unwrap_err();
    assert!(
        err.message(Lang::Fr).contains("3j"),
        "{}",
        err.message(Lang::Fr)
    );
    assert_eq!(
        game.deadline(),
        Some(extended),
        "a refused extension changes nothing"
    );
}

#[test]
fn an_absence_moves_the_deadline_past_it() {
    let (_, mut game) = running(Settings::default());
    let start = at("2026-11-24T12:00:00Z");
    let end = at("2026-11-26T12:00:00Z");
    game.declare_absence(&"stark".into(), start, end, t0())
        .unwrap();
    assert_eq!(game.deadline(), Some(at("2026-11-26T19:00:00Z")));
    assert!(matches!(
        game.declare_absence(&"stark".into(), end, start, t0()),
        Err(GameError::BadAbsence)
    ));
}

#[test]
fn votes_end_the_game_by_draw_or_concession() {
    let (variant, mut game) = running(Settings::default());
    assert_eq!(
        game.vote(&variant, &"stark".into(), Some(Vote::Draw), t0())
            .unwrap(),
        None
    );
    assert_eq!(
        game.vote(&variant, &"lannister".into(), Some(Vote::Draw), t0())
            .unwrap(),
        None
    );
    let mut conceded = game.clone();
    let ending = game
        .vote(&variant, &"baratheon".into(), Some(Vote::Draw), t0())
        .unwrap();
    assert!(matches!(ending, Some(Ending::Draw { ref houses }) if houses.len() == 3));
    assert_eq!(game.status(), GameStatus::Finished);

    conceded
        .vote(
            &variant,
            &"stark".into(),
            Some(Vote::Concede("baratheon".into())),
            t0(),
        )
        .unwrap();
    assert!(
        conceded
            .vote(
                &variant,
                &"baratheon".into(),
                Some(Vote::Concede("baratheon".into())),
                t0()
            )
            .is_err()
    );
    let ending = conceded
        .vote(
            &variant,
            &"lannister".into(),
            Some(Vote::Concede("baratheon".into())),
            t0(),
        )
        .unwrap();
    assert_eq!(
        ending,
        Some(Ending::Concession {
            house: "baratheon".into()
        })
    );
}

#[test]
fn a_house_reaching_the_victory_count_after_autumn_wins() {
    let mut settings = Settings::default();
    settings.victory_centres = Some(4);
    let (variant, mut game) = running(settings);
    // The moderator's edit: autumn, and the Stark army of Moat Cailin in Salvemer, next to
    // the empty centre of Vivesaigues; Stark keeps Moat Cailin's centre.
    let position = write_position(&variant, game.position())
        .replace("spring 298 movement", "autumn 298 movement");
    let position = position.replace("unit Stark: A moa", "unit Stark: A sal");
    game.edit_position(&variant, &position, t0()).unwrap();
    let deadline = game.deadline().unwrap();
    submit(&mut game, &variant, "stark", "A sal -> viv", t0());
    let record = game.process(&variant, deadline, Trigger::Deadline).unwrap();
    let ending = record.ending.clone();
    assert!(
        matches!(ending, Some(Ending::Win { ref houses, ref reason }) if houses == &["stark"] && reason == "centres:4"),
        "{ending:?}\n{}",
        write_position(&variant, game.position())
    );
    assert_eq!(game.status(), GameStatus::Finished);
    assert_eq!(game.deadline(), None);
}
