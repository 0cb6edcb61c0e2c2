//! The built-in player in games. With the game's `bots` setting on, a house in
//! civil disorder or a vacant seat is played by the bot when its phase is processed: its
//! units move, its orders are marked as the bot's in the results every reader gets (in
//! both languages), the judge finds them legal in movement, retreat and adjustment
//! phases, and a phase played again after a rollback gets the same ones. A new player
//! who takes the seat (the moderator's `APPROVE` of a `TAKEOVER`, `REPLACE`) plays it at
//! once; a house whose player is there is never played, even after a missed phase; with
//! the setting off, a house in civil disorder holds as before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::results::{PhaseResults, ResultsView, Status};
use corbeau::game::{Action, PhaseRecord, Setting, Settings};
use corbeau::judge::PhaseKind;
use corbeau::mail::outmail::OutMail;

use support::world::{
    BARATHEON, BARATHEON_SECRET, GameSpec, LANNISTER, MODERATOR, MODERATOR_SECRET, PLAYERS, STARK,
    STARK_SECRET, World,
};
use support::{assert_golden, rendered};

const GAME: &str = "robots";

/// Monday 23 March 2026, 09:00 in Paris.
fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Westeros for three, its players seated and the game started; `bots` as given.
fn world(name: &str, bots: bool) -> World {
    let w = World::new("bots", name);
    let settings = Settings {
        bots,
        ..Settings::default()
    };
    w.create_game(GameSpec::westeros(GAME, settings), t0());
    w.seat(GAME, &PLAYERS, true, t0());
    w
}

fn body(mail: &OutMail) -> String {
    mail.body.replace("\r\n", "\n")
}

fn to<'a>(mails: &'a [OutMail], to: &str) -> Vec<&'a OutMail> {
    mails.iter().filter(|m| m.to == to).collect()
}

fn last(w: &World) -> PhaseRecord {
    w.history(GAME).pop().expect("a processed phase")
}

fn view(record: &PhaseRecord) -> &ResultsView {
    match &record.results {
        PhaseResults::Read(view) => view,
        PhaseResults::Unreadable(u) => panic!("unreadable results: {:?}", u.problem),
    }
}

/// A house's orders as the record keeps them.
fn orders_of<'a>(record: &'a PhaseRecord, house: &str) -> Option<&'a Vec<String>> {
    record
        .orders
        .iter()
        .find(|(h, _)| h.as_str() == house)
        .map(|(_, o)| o)
}

/// Every line of a house in the results: none illegal, and whether they are marked.
fn house_lines_legal(record: &PhaseRecord, house: &str) -> bool {
    let group = view(record)
        .houses
        .iter()
        .find(|g| g.house.as_ref().is_some_and(|h| h.id == house))
        .unwrap_or_else(|| panic!("{house} in the results: {:?}", view(record).houses));
    assert!(!group.orders.is_empty());
    group
        .orders
        .iter()
        .all(|o| o.outcome.status != Status::Illegal && o.written.is_some())
}

fn marked(record: &PhaseRecord, house: &str) -> bool {
    view(record)
        .houses
        .iter()
        .any(|g| g.bot && g.house.as_ref().is_some_and(|h| h.id == house))
}

/// Lannister and Baratheon ready, Stark silent, the phase processed by the moderator.
fn play_without_stark(w: &World, at: DateTime<Utc>) -> PhaseRecord {
    for house in ["lannister", "baratheon"] {
        if w.game(GAME).deciding().iter().any(|h| h.as_str() == house) {
            w.ready(GAME, house, at);
        }
    }
    w.process(GAME, at);
    last(w)
}

/// Stark misses phases until it falls into civil disorder (two, by default); the bot
/// plays none of them: its player is still there.
fn stark_falls_into_disorder(w: &World) -> DateTime<Utc> {
    let mut at = t0();
    while !w.game(GAME).seat("stark").unwrap().civil_disorder() {
        at += TimeDelta::hours(1);
        let record = play_without_stark(w, at);
        assert!(record.bots.is_empty(), "{:?}", record.bots);
        assert!(orders_of(&record, "stark").is_none(), "{:?}", record.orders);
        assert!(!marked(&record, "stark"));
        assert!(
            w.history(GAME).len() < 6,
            "Stark never fell into civil disorder"
        );
    }
    at
}

/// The house's units (`A win`), in a position.
fn units_of(position: &corbeau::judge::Position, w: &World, house: &str) -> Vec<String> {
    let variant = w.variant(GAME);
    let id = variant.house_by_name(house).unwrap();
    let mut units: Vec<String> = position
        .units
        .iter()
        .filter(|u| u.owner == corbeau::map::Owner::House(id))
        .map(|u| format!("{} {}", u.kind.letter(), variant.region_label(u.region)))
        .collect();
    units.sort();
    units
}

#[test]
fn a_house_in_civil_disorder_is_played_by_the_bot_and_marked_in_every_results() {
    let mut w = world("disorder", true);
    let mut at = stark_falls_into_disorder(&w);
    w.notices(at);
    // The next movement phase: the bot plays Stark.
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
        w.notices(at);
    }
    // The moderator's preview shows what the bot will do.
    let preview = w.ask(
        MODERATOR,
        &format!(
            "MODÉRATEUR {GAME} {MODERATOR_SECRET}
APERÇU
"
        ),
    );
    assert!(
        body(&preview).contains("Stark (jouée par le robot)"),
        "{}",
        body(&preview)
    );
    assert!(w.history(GAME).len() < 6 && w.game(GAME).seat("stark").unwrap().orders().is_empty());
    at += TimeDelta::hours(1);
    let record = play_without_stark(&w, at);
    assert_eq!(record.bots, ["stark"]);
    let orders = orders_of(&record, "stark").expect("the bot's orders for Stark");
    // The phase's picture draws the bot's moves, read back from the record.
    let variant = w.variant(GAME);
    let stark = corbeau::map::Owner::House(variant.house_by_name("stark").unwrap());
    let reports = corbeau::service::picture::drawn_orders(&variant, &record);
    assert!(
        reports
            .iter()
            .any(|r| r.owner == stark
                && matches!(r.command, corbeau::judge::CheckedOrder::Move { .. })),
        "{reports:?}"
    );
    assert!(
        orders.iter().any(|o| o.contains("->")),
        "the bot moves, not only holds: {orders:?}"
    );
    assert!(house_lines_legal(&record, "stark"));
    assert!(marked(&record, "stark"));
    assert!(!marked(&record, "lannister") && !marked(&record, "baratheon"));
    assert_ne!(
        units_of(&record.position_before, &w, "stark"),
        units_of(&record.position_after, &w, "stark"),
        "Stark's units moved: {orders:?}"
    );
    // Every reader is told, in their language: the results mail of a French player, of
    // an English one, and the moderator's.
    let mails = w.notices(at);
    let baratheon = to(&mails, BARATHEON);
    let lannister = to(&mails, LANNISTER);
    assert_eq!((baratheon.len(), lannister.len()), (1, 1), "{mails:?}");
    assert!(body(baratheon[0]).contains("Stark (jouée par le robot)"));
    assert!(body(lannister[0]).contains("Stark (played by the bot)"));
    assert!(body(to(&mails, MODERATOR)[0]).contains("Stark (jouée par le robot)"));
    assert_golden("bots/results-fr.txt", &rendered(baratheon[0]));
    assert_golden("bots/results-en.txt", &rendered(lannister[0]));
    // And on the game's published page, with the phase's picture drawn.
    let site = corbeau::publish::Site {
        dir: w.dir.join("site"),
        lang: corbeau::lang::Lang::Fr,
        templates: None,
    };
    let report =
        corbeau::publish::publish(w.service(), &site, corbeau::publish::Mode::All).unwrap();
    assert!(report.errors.is_empty(), "{report:?}");
    // The phase's own page, in its table of orders and in its results.
    let folder = site.dir.join("games").join(GAME);
    let played = w.game(GAME).played();
    let page =
        std::fs::read_to_string(folder.join(format!("phase-{:03}.html", played - 1))).unwrap();
    assert!(
        page.contains("Stark (jouée par le robot)</caption>"),
        "{page}"
    );
    // And in the history a player asks for by mail.
    let history = w.ask(
        BARATHEON,
        &format!("PARTIE {GAME} baratheon {BARATHEON_SECRET}\nHISTORIQUE\n"),
    );
    assert!(
        body(&history).contains("Stark (jouée par le robot)"),
        "{}",
        body(&history)
    );
}

#[test]
fn a_phase_played_again_gets_the_same_orders_from_the_bot() {
    let w = world("replay", true);
    let mut at = stark_falls_into_disorder(&w);
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
    }
    at += TimeDelta::hours(1);
    let first = play_without_stark(&w, at);
    assert_eq!(first.bots, ["stark"]);
    w.rollback(GAME, at + TimeDelta::minutes(1));
    // The phase played again, an hour later: nothing of the bot's is in the game meanwhile.
    let game = w.game(GAME);
    assert!(game.seat("stark").unwrap().orders().is_empty());
    let again = play_without_stark(&w, at + TimeDelta::hours(1));
    assert_eq!(again.index, first.index);
    assert_eq!(again.bots, ["stark"]);
    assert_eq!(orders_of(&again, "stark"), orders_of(&first, "stark"));
    assert_eq!(again.position_after, first.position_after);
}

#[test]
fn with_bots_off_a_house_in_civil_disorder_holds_as_before() {
    let w = world("off", false);
    let mut at = stark_falls_into_disorder(&w);
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
    }
    at += TimeDelta::hours(1);
    let record = play_without_stark(&w, at);
    assert!(record.bots.is_empty());
    assert!(orders_of(&record, "stark").is_none(), "{:?}", record.orders);
    assert!(!marked(&record, "stark"));
    let mails = w.notices(at);
    assert!(!body(to(&mails, BARATHEON)[0]).contains("(jouée par le robot)"));
    assert!(!body(to(&mails, LANNISTER)[0]).contains("(played by the bot)"));
}

/// The secret a welcome mail gives.
fn secret_of(welcome: &OutMail) -> String {
    crate::support::secret_in(&body(welcome))
}

#[test]
fn a_new_player_takes_the_seat_back_from_the_bot_at_once() {
    let mut w = world("takeover", true);
    let mut at = stark_falls_into_disorder(&w);
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
    }
    w.notices(at);
    // A stranger asks for Stark by mail; the moderator gives it by mail.
    let asker = "robb@jumeaux.test";
    w.send_confirmed_at(asker, &format!("TAKEOVER {GAME} stark\n"), at);
    w.take();
    w.send_at(
        MODERATOR,
        &format!("MODERATOR {GAME} {MODERATOR_SECRET}\nAPPROVE stark\n"),
        at,
    );
    let mails = w.take();
    let secret = secret_of(to(&mails, asker)[0]);
    // The new player's orders for the phase being played are the ones carried out.
    let units = units_of(w.game(GAME).position(), &w, "stark");
    let order = format!(
        "{} H\n",
        units.iter().find(|u| u.starts_with("A ")).unwrap()
    );
    let reply = w.ask(asker, &format!("SIGNON {GAME} stark {secret}\n{order}"));
    assert!(body(&reply).contains('✓'), "{}", body(&reply));
    at += TimeDelta::hours(1);
    let record = play_without_stark(&w, at);
    assert!(record.bots.is_empty(), "{:?}", record.bots);
    assert_eq!(
        orders_of(&record, "stark").unwrap(),
        &vec![order.trim().to_string()]
    );
    assert!(!marked(&record, "stark"));
    let mails = w.notices(at);
    assert!(!body(to(&mails, asker)[0]).contains("(jouée par le robot)"));
    // A phase later, without orders from them: the house holds, its player is there.
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
    }
    at += TimeDelta::hours(1);
    let record = play_without_stark(&w, at);
    assert!(record.bots.is_empty(), "{:?}", record.bots);
    assert!(orders_of(&record, "stark").is_none());
}

#[test]
fn the_moderators_replacement_plays_the_seat_not_the_bot() {
    let mut w = world("replace", true);
    let at = stark_falls_into_disorder(&w);
    let newcomer = "sansa@nord.test";
    w.send_at(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\nREMPLACER Stark {newcomer}\n"),
        at,
    );
    w.take();
    let seat = w.game(GAME).seat("stark").unwrap().clone();
    assert_eq!(seat.player().unwrap().address(), newcomer);
    assert!(!seat.civil_disorder());
    let record = play_without_stark(&w, at + TimeDelta::hours(1));
    assert!(record.bots.is_empty(), "{:?}", record.bots);
}

#[test]
fn a_seat_left_by_resigning_or_removal_is_played_by_the_bot() {
    let mut w = world("vacant", true);
    w.send_at(
        STARK,
        &format!("PARTIE {GAME} stark {STARK_SECRET}\nABANDONNER\n"),
        t0(),
    );
    let record = play_without_stark(&w, t0() + TimeDelta::hours(1));
    assert_eq!(record.bots, ["stark"]);
    assert!(house_lines_legal(&record, "stark"));
    // A player removed by the moderator: the seat is vacant, the bot plays it.
    let w = world("removed", true);
    w.act(
        GAME,
        Action::Remove {
            house: w.house(GAME, "stark"),
        },
        t0(),
    );
    let record = play_without_stark(&w, t0() + TimeDelta::hours(1));
    assert_eq!(record.bots, ["stark"]);
}

/// Lannister vacant (its player removed), in the position given by the moderator.
fn lannister_vacant_in(name: &str, position: &str) -> World {
    let w = world(name, true);
    w.act(
        GAME,
        Action::Remove {
            house: w.house(GAME, "lannister"),
        },
        t0(),
    );
    w.act(
        GAME,
        Action::Edit {
            position: position.into(),
            reason: "test".into(),
        },
        t0(),
    );
    w
}

#[test]
fn the_bot_retreats_and_builds_legally() {
    // Lannister's army in the Reach dislodged by Baratheon's from the Kingswood.
    let w = lannister_vacant_in(
        "retreat",
        "phase spring 298 retreat\nunit Baratheon: A bie\ndislodged Lannister: A bie <- boi\n",
    );
    w.process(GAME, t0() + TimeDelta::hours(1));
    let record = last(&w);
    assert_eq!(record.phase.kind, PhaseKind::Retreat);
    assert_eq!(record.bots, ["lannister"]);
    let orders = orders_of(&record, "lannister").unwrap();
    assert_eq!(orders.len(), 1, "{orders:?}");
    assert!(
        orders[0].contains(" R "),
        "a retreat, not a disband: {orders:?}"
    );
    assert!(house_lines_legal(&record, "lannister"));
    assert_eq!(units_of(&record.position_after, &w, "lannister").len(), 1);

    // A winter with Lannister's three home centres and no unit: three builds.
    let w = lannister_vacant_in(
        "build",
        "phase winter 298 adjustment\nunit Stark: A win\nunit Baratheon: A boi\n",
    );
    w.process(GAME, t0() + TimeDelta::hours(1));
    let record = last(&w);
    assert_eq!(record.phase.kind, PhaseKind::Adjustment);
    assert_eq!(record.bots, ["lannister"]);
    let orders = orders_of(&record, "lannister").unwrap();
    assert_eq!(orders.len(), 3, "{orders:?}");
    assert!(house_lines_legal(&record, "lannister"));
    assert_eq!(units_of(&record.position_after, &w, "lannister").len(), 3);
}

#[test]
fn bots_are_set_by_mail_in_either_language() {
    let mut w = world("set", false);
    for (line, on) in [
        ("RÉGLER ROBOTS oui", true),
        ("SET BOTS off", false),
        ("SET BOTS on", true),
    ] {
        let reply = w.ask(
            MODERATOR,
            &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\n{line}\n"),
        );
        assert!(body(&reply).contains('✓'), "{}", body(&reply));
        assert_eq!(w.game(GAME).settings().bots, on, "{line}");
    }
    let reply = w.ask(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\nRÉGLER ROBOTS peut-être\n"),
    );
    assert!(body(&reply).contains('✗'), "{}", body(&reply));
    assert!(w.game(GAME).settings().bots);
    // A player may not.
    let reply = w.ask(
        STARK,
        &format!("PARTIE {GAME} stark {STARK_SECRET}\nRÉGLER ROBOTS non\n"),
    );
    assert!(body(&reply).contains('✗'), "{}", body(&reply));
    assert!(w.game(GAME).settings().bots);
    w.act(GAME, Action::Set(Setting::Bots(false)), t0());
    assert!(!w.game(GAME).settings().bots);
}

#[test]
fn a_player_in_civil_disorder_who_orders_again_is_not_played_by_the_bot() {
    let mut w = world("back", true);
    let mut at = stark_falls_into_disorder(&w);
    while w.game(GAME).phase().kind != PhaseKind::Movement {
        at += TimeDelta::hours(1);
        play_without_stark(&w, at);
    }
    let units = units_of(w.game(GAME).position(), &w, "stark");
    let order = format!(
        "{} H\n",
        units.iter().find(|u| u.starts_with("A ")).unwrap()
    );
    w.send_at(
        STARK,
        &format!("PARTIE {GAME} stark {STARK_SECRET}\n{order}"),
        at,
    );
    assert!(!w.game(GAME).seat("stark").unwrap().civil_disorder());
    let record = play_without_stark(&w, at + TimeDelta::hours(1));
    assert!(record.bots.is_empty(), "{:?}", record.bots);
    assert_eq!(
        orders_of(&record, "stark").unwrap(),
        &vec![order.trim().to_string()]
    );
}

/// `game new --bots` and `game set --bots on|off` through the binary, each change said
/// with the value before and after; a value neither yes nor no refused.
#[test]
fn bots_are_set_by_the_command_line() {
    let j = support::cli::CliJudge::new("bots", "cli");
    let settings = |game: &str| -> serde_json::Value {
        let shown: serde_json::Value =
            serde_json::from_str(&j.ok(&["game", "show", game, "--json"])).unwrap();
        shown["settings"].clone()
    };
    j.ok(&["game", "new", "avec", "--players", "3", "--bots"]);
    assert_eq!(settings("avec")["bots"], true);
    j.ok(&["game", "new", "sans", "--players", "3"]);
    assert_eq!(settings("sans")["bots"], false);
    let out = j.ok(&["game", "set", "sans", "--bots", "on"]);
    assert!(
        out.contains(
            "maisons en désordre civil et places vacantes jouées par le robot : non → oui"
        ),
        "{out}"
    );
    assert_eq!(settings("sans")["bots"], true);
    let out = j.ok(&["--lang", "en", "game", "set", "sans", "--bots", "off"]);
    assert!(
        out.contains("houses in civil disorder and vacant seats played by the bot: yes → no"),
        "{out}"
    );
    assert_eq!(settings("sans")["bots"], false);
    let refused = j.run_at(
        support::cli::NOW,
        &["game", "set", "sans", "--bots", "peut-être"],
    );
    assert!(!refused.status.success());
    assert_eq!(settings("sans")["bots"], false);

    // A game played from the command line: Stark's player removed, the bot plays it; the
    // history and the export say so.
    j.started("jeu", "westeros");
    j.ok(&["game", "set", "jeu", "--bots", "on"]);
    j.ok(&["player", "remove", "jeu", "stark"]);
    j.ok(&["game", "process", "jeu"]);
    let history = j.ok(&["history", "jeu", "1"]);
    assert!(history.contains("Stark (jouée par le robot)"), "{history}");
    assert!(!history.contains("Lannister (jouée"), "{history}");
    let export: serde_json::Value = serde_json::from_str(&j.ok(&["export", "jeu"])).unwrap();
    let phase = &export["phases"][0];
    assert_eq!(phase["bots"], serde_json::json!(["stark"]), "{phase}");
    let stark = phase["results"]["houses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["house"]["id"] == "stark")
        .unwrap();
    assert_eq!(stark["bot"], true, "{stark}");
    let lannister = phase["results"]["houses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["house"]["id"] == "lannister")
        .unwrap();
    assert!(lannister.get("bot").is_none(), "{lannister}");
}
