//! Settings a moderator changes by mail that the command line changes too: the rule
//! edition (only before the start) and the phases missed before civil disorder, each
//! answered with the value before and after, or refused with its reason and nothing
//! changed.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::TimeDelta;
use corbeau::game::Settings;
use corbeau::judge::Edition;
use corbeau::mail::outmail::OutMail;

use support::cli::CliJudge;
use support::flat;
use support::world::{GAME, MODERATOR, MODERATOR_SECRET, STARK, STARK_SECRET, World};

/// The moderator's mail: their sign-on, then `lines`; the reply to it.
fn moderate(w: &mut World, lines: &str) -> OutMail {
    w.ask(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\n{lines}"),
    )
}

#[test]
fn the_rules_change_by_mail_before_the_start_only() {
    let mut w = World::westeros("settings-mail", "rules", Settings::default(), false);
    w.subject = "réglages";
    let reply = moderate(&mut w, "RÉGLER RÈGLES 1971\n");
    let text = flat(&reply.body);
    assert!(text.contains("2023 → 1971"), "{text}");
    assert_eq!(w.game(GAME).settings().rules, Edition::Rules1971);
    let reply = moderate(&mut w, "SET RULES 2042\n");
    let text = flat(&reply.body);
    assert!(text.contains("2042"), "{text}");
    assert_eq!(w.game(GAME).settings().rules, Edition::Rules1971);

    let mut w = World::westeros("settings-mail", "rules-started", Settings::default(), true);
    let reply = moderate(&mut w, "SET RULES 1971\n");
    let text = flat(&reply.body);
    assert!(
        text.contains("nothing was changed") || text.contains("rien"),
        "{text}"
    );
    assert_eq!(w.game(GAME).settings().rules, Edition::default());
}

#[test]
fn civil_disorder_comes_after_the_phases_the_moderator_set() {
    let mut w = World::westeros("settings-mail", "civil", Settings::default(), true);
    w.subject = "réglages";
    assert_eq!(w.game(GAME).settings().civil_disorder_after, 2);
    let reply = moderate(&mut w, "RÉGLER DÉSORDRE CIVIL 1\n");
    let text = flat(&reply.body);
    assert!(
        text.contains("phases manquées de suite avant le désordre civil : 2 → 1"),
        "{text}"
    );
    assert_eq!(w.game(GAME).settings().civil_disorder_after, 1);
    let reply = moderate(&mut w, "SET CIVIL DISORDER 99\nSET CIVIL DISORDER lots\n");
    let text = flat(&reply.body);
    assert!(text.contains("99"), "{text}");
    assert!(text.contains("lots"), "{text}");
    assert_eq!(w.game(GAME).settings().civil_disorder_after, 1);

    // Takes effect: Stark alone gives orders; at the first deadline missed, the two
    // others fall into civil disorder (one phase, not the default two).
    w.ask(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nA win H\n"),
    );
    let deadline = w.game(GAME).deadline().unwrap();
    w.tick(deadline + TimeDelta::days(2));
    let game = w.game(GAME);
    let disorder: Vec<&str> = game
        .seats()
        .iter()
        .filter(|s| s.civil_disorder())
        .map(|s| s.house().as_str())
        .collect();
    assert_eq!(disorder, ["lannister", "baratheon"]);
}

#[test]
fn civil_disorder_is_set_by_the_command_line() {
    let j = CliJudge::new("settings-mail", "civil-cli");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    let out = j.ok(&["game", "set", GAME, "--civil-disorder-after", "never"]);
    assert!(out.contains("2 → 0"), "{out}");
    let show: serde_json::Value =
        serde_json::from_str(&j.ok(&["game", "show", GAME, "--json"])).unwrap();
    assert_eq!(show["settings"]["civil_disorder_after"], 0);
    let refused = j.run_at(
        support::cli::NOW,
        &["game", "set", GAME, "--civil-disorder-after", "13"],
    );
    assert!(!refused.status.success());
}
