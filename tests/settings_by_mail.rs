//! Settings a moderator changes by mail that the command line changes too: the rule
//! edition (only before the start), each answered with the value before and after, or
//! refused with its reason and nothing changed.

#![allow(clippy::unwrap_used)]

mod support;

use corbeau::game::Settings;
use corbeau::judge::Edition;
use corbeau::mail::outmail::OutMail;

use support::flat;
use support::world::{GAME, MODERATOR, MODERATOR_SECRET, World};

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
    assert!(text.contains("nothing was changed") || text.contains("rien"), "{text}");
    assert_eq!(w.game(GAME).settings().rules, Edition::default());
}
