//! No back-and-forth between the layers: the game says what the judge decided and the
//! report layer puts it in the results format, once, where the store and every reader
//! take it; a phase's picture draws the outcome the record keeps rather than running the
//! judge again; the answer to one house's orders reads that house's orders only.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use corbeau::game::results::{CommandView, PhaseResults, Status};
use corbeau::game::{Settings, Trigger};
use corbeau::judge::{CheckedOrder, Outcome};
use corbeau::lang::Lang;
use corbeau::map::Owner;
use corbeau::report::{orders_view, phase_record};
use corbeau::service::picture::drawn_orders;

use chrono::{DateTime, Utc};
use support::judge::{Clocked, body_of, root};
use support::secret_in;
use support::world::{GAME, World, now};

/// A started three-house Westeros game: Stark moves into an empty province, Lannister
/// and Baratheon give nothing.
fn played(name: &str) -> World {
    let w = World::westeros("no_back_and_forth", name, Settings::default(), true);
    w.submit(GAME, "stark", "A win -> cno", now());
    w
}

#[test]
fn the_game_returns_the_judges_decision_and_the_stored_results_are_the_reports() {
    let w = played("results_once");
    let variant = w.variant(GAME);
    // The game alone, on a copy: what it returns is the judge's decision, typed, not a
    // view made by calling the report layer back.
    let mut copy = w.game(GAME);
    let record = copy.process(&variant, now(), Trigger::Moderator).unwrap();
    assert!(!record.results.adjudication.reports.is_empty());
    assert_eq!(record.results.before, record.position_before);
    assert_eq!(record.results.adjudication.after, record.position_after);
    let worded = phase_record(&variant, record);
    // The service words it the same way, once, and the store keeps that.
    w.process(GAME, now());
    let stored = w.history(GAME).pop().unwrap();
    assert_eq!(stored.results, worded.results);
    let view = stored.results.view().expect("results of this format");
    let stark = view
        .houses
        .iter()
        .find(|h| h.house.as_ref().is_some_and(|r| r.id == "stark"))
        .expect("Stark's orders");
    assert!(stark.orders.iter().any(|o| {
        o.written.as_deref() == Some("A win -> cno") && o.outcome.status == Status::Succeeded
    }));
}

#[test]
fn a_players_trial_keeps_only_its_own_house_in_the_results() {
    let w = played("trial");
    let variant = w.variant(GAME);
    let game = w.game(GAME);
    let stark = w.house(GAME, "stark");
    let (_, record) = game.trial(&variant, Some(&stark), now()).unwrap();
    assert_eq!(record.results.shown_to.as_ref(), Some(&stark));
    let record = phase_record(&variant, record);
    let view = record.results.view().unwrap();
    assert!(!view.houses.is_empty());
    assert!(
        view.houses
            .iter()
            .all(|h| h.house.as_ref().is_some_and(|r| r.id == "stark")),
        "{:?}",
        view.houses
    );
    assert!(record.ending.is_none());
}

#[test]
fn a_phase_picture_draws_the_outcome_the_record_keeps() {
    let w = played("picture");
    w.process(GAME, now());
    let variant = w.variant(GAME);
    let record = w.history(GAME).pop().unwrap();
    let stark = Owner::House(variant.house_by_name("stark").unwrap());
    let moved = |reports: &[corbeau::judge::Report]| {
        reports
            .iter()
            .find(|r| r.owner == stark && matches!(r.command, CheckedOrder::Move { .. }))
            .map(|r| r.outcome.clone())
    };
    let drawn = drawn_orders(&variant, &record);
    assert_eq!(moved(&drawn), Some(Outcome::Succeeded), "{drawn:?}");
    // One line a unit, as the results have them.
    let lines: usize = record
        .results
        .view()
        .unwrap()
        .houses
        .iter()
        .map(|h| h.orders.len())
        .sum();
    assert_eq!(drawn.len(), lines);

    // The record says the move failed (as a record written by a judge that decided so
    // would): the picture shows it failed. Running the judge again would draw it as it
    // decides today, a success.
    let mut told = record.clone();
    let PhaseResults::Read(view) = &mut told.results else {
        panic!("results of this format");
    };
    for line in view.houses.iter_mut().flat_map(|h| h.orders.iter_mut()) {
        if matches!(line.command, CommandView::Move { .. }) {
            line.outcome.status = Status::Failed;
        }
    }
    let drawn = drawn_orders(&variant, &told);
    assert!(
        moved(&drawn).is_some_and(|o| !o.succeeded()),
        "the picture must draw the recorded outcome: {drawn:?}"
    );

    // Results this version cannot read: the board is drawn, no order on it.
    let mut unreadable = record.clone();
    unreadable.results = serde_json::from_value(serde_json::json!({"format": 99})).unwrap();
    assert!(unreadable.results.view().is_none());
    assert!(drawn_orders(&variant, &unreadable).is_empty());
    let picture = corbeau::service::picture::phase_picture(
        &variant,
        &w.game(GAME),
        &unreadable,
        Lang::Fr,
        corbeau::service::picture::Format::Svg,
    )
    .unwrap();
    assert!(String::from_utf8(picture).unwrap().contains("<svg"));
}

#[test]
fn the_answer_to_a_houses_orders_does_not_depend_on_another_houses_orders() {
    let w = played("echo");
    let variant = w.variant(GAME);
    let stark = w.house(GAME, "stark");
    let alone = orders_view(&w.game(GAME), &variant, &stark, Lang::Fr).unwrap();
    // Lannister's orders, one of them illegal, one against Stark's move.
    w.store_order_unchecked(GAME, "lannister", "A pie -> win", now());
    w.store_order_unchecked(GAME, "lannister", "A pie S A win -> cno", now());
    let beside = orders_view(&w.game(GAME), &variant, &stark, Lang::Fr).unwrap();
    assert_eq!(
        serde_json::to_value(&alone).unwrap(),
        serde_json::to_value(&beside).unwrap()
    );
}

// The bound of `[judge] seats_per_day`, through the binary: the seats an address
// took today are read from the store's index of seats by address, among many games.

support::judge::clocked_judge!(Judge);

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

impl Judge {
    fn send(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        body_of(&replies[0])
    }

    fn confirmed(&mut self, from: &str, request: &str) -> String {
        let asked = self.send(from, request);
        let line = support::world::confirmation_line(&asked)
            .unwrap_or_else(|| panic!("no confirmation line in: {asked}"));
        self.send(from, &line)
    }
}

const JOINER: &str = "jon@mur.test";

#[test]
fn the_seats_an_address_took_today_are_counted_among_many_games_and_given_back() {
    let mut j = Judge(Clocked::new(root("no-back-and-forth-seats", ""), t0()));
    let config = j.dir.join("corbeau.toml");
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("[judge]\n", "[judge]\nseats_per_day = 2\n");
    std::fs::write(&config, text).unwrap();
    for i in 0..12 {
        let id = format!("ouverte{i}");
        j.ok(&[
            "game",
            "new",
            &id,
            "--players",
            "3",
            "--moderator",
            "mod@example.org",
            "--game-lang",
            "en",
            "--open",
        ]);
    }
    // Others take seats too: they count for their own addresses only.
    for (i, other) in ["sansa@nord.test", "davos@oignon.test"].iter().enumerate() {
        let reply = j.confirmed(other, &format!("JOIN ouverte{}\n", i + 5));
        assert!(reply.contains("✓"), "{reply}");
    }
    let first = j.confirmed(JOINER, "JOIN ouverte0\n");
    assert!(first.contains("✓"), "{first}");
    let second = j.confirmed(JOINER, "JOIN ouverte1\n");
    assert!(second.contains("✓"), "{second}");
    let refused = j.send(JOINER, "JOIN ouverte2\n");
    assert!(refused.contains("holds 2 seats of open games"), "{refused}");
    // The owner resigns the seat taken first, with the secret its welcome carried:
    // the bound has it back at once.
    let welcome = j
        .news(JOINER)
        .into_iter()
        .map(|m| body_of(&m))
        .find(|m| m.contains("SIGNON ouverte0"))
        .expect("the welcome of the first seat");
    let secret = secret_in(&welcome);
    let game = j.show("ouverte0");
    let house = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"]["address"] == JOINER)
        .map(|s| s["house"].as_str().unwrap().to_string())
        .unwrap();
    let resigned = j.send(
        JOINER,
        &format!("SIGNON ouverte0 {house} {secret}\nRESIGN\n"),
    );
    assert!(resigned.contains("✓"), "{resigned}");
    let third = j.confirmed(JOINER, "JOIN ouverte2\n");
    assert!(third.contains("✓"), "{third}");
    let again = j.send(JOINER, "JOIN ouverte3\n");
    assert!(again.contains("holds 2 seats of open games"), "{again}");
}
