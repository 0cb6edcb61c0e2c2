//! Settings changed after a game's creation: by mail (`RÉGLER …` / `SET …`, at library
//! level through `corbeau::mail::dispatch::handle`, the outbox and the queued notices
//! looked at) and by the command line (`corbeau game set`, through the binary). Each
//! setting changes; the deadline is moved later and sooner and every player is told;
//! what makes no sense is refused with its reason and changes nothing; the audit trail
//! says it. The replies and the mails of a moved deadline are golden files:
//! tests/golden/settings/ (CORBEAU_BLESS=1 rewrites them; review the diff).

#![allow(clippy::unwrap_used)]

mod support;

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use corbeau::game::calendar::Weekdays;
use corbeau::game::span::Span;
use corbeau::game::{GameStatus, NoticeKind, Press, Setting, SettingKind, Settings};
use corbeau::lang::Lang;
use corbeau::mail::outmail::OutMail;
use serde_json::Value;

use support::assert_golden;
use support::cli::CliJudge;
use support::world::{
    BARATHEON, GAME, LANNISTER, MODERATOR, MODERATOR_SECRET, STARK, STARK_SECRET, World, now,
};
use support::{flat, rendered};

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// A judge with a running game of three players and a moderator; its mails are about
/// the settings.
fn world(name: &str) -> World {
    let mut w = World::westeros("settings", name, Settings::default(), true);
    w.subject = "réglages";
    w
}

/// The moderator's mail: their sign-on, then `lines`; the reply to it.
fn moderate(w: &mut World, lines: &str) -> OutMail {
    w.ask(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\n{lines}"),
    )
}

#[test]
fn each_setting_changes_by_mail_in_french() {
    let mut w = world("each-fr");
    let reply = moderate(
        &mut w,
        "RÉGLER GRÂCE 6h\nRÉGLER PRESSE grise\nRÉGLER RAPPELS 2h,1j\nRÉGLER JOURS lun-ven\n",
    );
    let body = flat(&reply.body);
    assert!(
        body.contains("✓ Réglage changé, délai de grâce : 0h → 6h."),
        "{body}"
    );
    assert!(
        body.contains("✓ Réglage changé, presse : complète → grise permise."),
        "{body}"
    );
    assert!(
        body.contains("rappels avant la date limite : 1j → 1j, 2h."),
        "{body}"
    );
    assert!(
        body.contains(
            "jours des dates limites : tous les jours → lundi, mardi, mercredi, jeudi, vendredi."
        ),
        "{body}"
    );
    assert!(!body.contains('✗'), "{body}");
    let g = w.game(GAME);
    let schedule = &g.settings().schedule;
    assert_eq!(schedule.grace, Span::hours(6));
    assert_eq!(g.settings().press, Press::Grey);
    assert_eq!(schedule.reminders, vec![Span::days(1), Span::hours(2)]);
    assert_eq!(schedule.weekdays, Weekdays::WORKDAYS);
    // None of these moves the current deadline: nobody is told of one.
    assert_eq!(g.deadline(), Some(utc("2026-03-25T19:00:00Z")));
    assert!(
        !w.notice_kinds()
            .iter()
            .any(|k| matches!(k, NoticeKind::DeadlineChanged { .. })),
        "{:?}",
        w.notice_kinds()
    );
    assert_golden("settings/reply-set-fr.txt", &rendered(&reply));
    let audit = w.audit(GAME);
    for line in [
        "setting changed: grace period: 0h → 6h",
        "setting changed: press: full → grey allowed",
        "setting changed: reminders before the deadline: 1d → 1d, 2h",
        "setting changed: deadline days: every day → Monday, Tuesday, Wednesday, Thursday, Friday",
    ] {
        assert!(audit.contains(line), "{line}\n{audit}");
    }
}

#[test]
fn each_setting_changes_by_mail_in_english() {
    let mut w = world("each-en");
    let reply = w.ask(
        MODERATOR,
        &format!(
            "MODERATOR {GAME} {MODERATOR_SECRET}\nLANGUAGE en\nSET GRACE 1d\nSET PRESS none\n\
             SET REMINDERS none\nSET DAYS sat,sun\n"
        ),
    );
    let body = flat(&reply.body);
    for said in [
        "✓ Setting changed, grace period: 0h → 1d.",
        "✓ Setting changed, press: full → none.",
        "✓ Setting changed, reminders before the deadline: 1d → none.",
        "✓ Setting changed, deadline days: every day → Saturday, Sunday.",
        "Deadline: Wednesday 25 March 2026 at 20:00 (Europe/Paris).",
    ] {
        assert!(body.contains(said), "{said}\n{body}");
    }
    let g = w.game(GAME);
    assert_eq!(g.settings().schedule.grace, Span::days(1));
    assert_eq!(g.settings().press, Press::None);
    assert!(g.settings().schedule.reminders.is_empty());
    assert_eq!(
        g.settings().schedule.weekdays,
        "sam,dim".parse::<Weekdays>().unwrap()
    );
}

/// A mail that moves the deadline again and again tells the players once, of the last.
#[test]
fn a_deadline_moved_many_times_in_one_mail_is_told_once() {
    let mut w = world("deadline-storm");
    let lines: String = (1..=20)
        .map(|day| format!("RÉGLER ÉCHÉANCE 2026-11-{day:02} 20:00\n"))
        .collect();
    moderate(&mut w, &lines);
    assert_eq!(w.game(GAME).deadline(), Some(utc("2026-11-20T19:00:00Z")));
    assert_eq!(
        w.notice_kinds(),
        vec![NoticeKind::DeadlineChanged {
            deadline: utc("2026-11-20T19:00:00Z")
        }]
    );
    assert_eq!(
        w.notices(now()).len(),
        4,
        "three players and the moderator, once"
    );
}

#[test]
fn a_deadline_moved_later_then_sooner_is_told_to_every_player() {
    let mut w = world("deadline");
    let reply = moderate(&mut w, "RÉGLER ÉCHÉANCE 2026-12-01 20:00\n");
    let body = flat(&reply.body);
    assert!(
        body.contains(
            "✓ Réglage changé, date limite : mercredi 25 mars 2026 à 20:00 (Europe/Paris) → \
             mardi 1er décembre 2026 à 20:00 (Europe/Paris)."
        ),
        "{body}"
    );
    // Paris is on winter time (UTC+1) on 1 December.
    assert_eq!(w.game(GAME).deadline(), Some(utc("2026-12-01T19:00:00Z")));
    assert_eq!(
        w.notice_kinds(),
        vec![NoticeKind::DeadlineChanged {
            deadline: utc("2026-12-01T19:00:00Z")
        }]
    );
    let mails = w.notices(now());
    let mut to: Vec<&str> = mails.iter().map(|m| m.to.as_str()).collect();
    to.sort_unstable();
    assert_eq!(to, vec![STARK, MODERATOR, BARATHEON, LANNISTER]);
    let stark = mails.iter().find(|m| m.to == STARK).unwrap();
    assert_golden("settings/deadline-later-fr.txt", &rendered(stark));
    let lannister = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert_golden("settings/deadline-later-en.txt", &rendered(lannister));

    // Sooner than the phase's own deadline, in English words and the other date form.
    let reply = w.ask(
        MODERATOR,
        &format!("MODERATOR {GAME} {MODERATOR_SECRET}\nSET DEADLINE 24/03/2026 12h\n"),
    );
    assert!(
        flat(&reply.body).contains("mardi 24 mars 2026 à 12:00"),
        "{}",
        reply.body
    );
    let g = w.game(GAME);
    assert_eq!(g.deadline(), Some(utc("2026-03-24T11:00:00Z")));
    // The judge looks at the game again for the reminder a day before the new deadline.
    assert_eq!(g.wake(), Some(utc("2026-03-23T11:00:00Z")));
    assert_eq!(g.reminders_sent(), 0);
    let mails = w.notices(now());
    assert_eq!(mails.len(), 4, "{mails:?}");
    let baratheon = mails.iter().find(|m| m.to == BARATHEON).unwrap();
    assert!(
        flat(&baratheon.body).contains("Nouvelle date limite pour printemps 298, mouvements : mardi 24 mars 2026 à 12:00 (Europe/Paris)."),
        "{}",
        baratheon.body
    );
    let audit = w.audit(GAME);
    assert!(
        audit.contains(
            "setting changed: deadline: Wednesday 25 March 2026 at 19:00 (UTC) → \
             Tuesday 1 December 2026 at 19:00 (UTC)"
        ),
        "{audit}"
    );
}

#[test]
fn what_makes_no_sense_is_refused_with_its_reason_and_changes_nothing() {
    let mut w = world("refused");
    let before = w.game(GAME);
    let reply = moderate(
        &mut w,
        "RÉGLER ÉCHÉANCE 2026-03-20 20:00\nRÉGLER JOURS xyz\nRÉGLER GRÂCE 6x\n\
         RÉGLER GRÂCE 10j\nRÉGLER RAPPELS 1j,2j,3j,4j,5j,6j\nRÉGLER COULEUR bleu\n\
         RÉGLER PRESSE rose\n",
    );
    let body = flat(&reply.body);
    for said in [
        "✗ la date limite demandée, vendredi 20 mars 2026 à 20:00 (Europe/Paris), est déjà \
         passée (il est lundi 23 mars 2026 à 09:00 (Europe/Paris)) : donnez une date à venir",
        "✗ jour « xyz » inconnu dans « xyz »",
        "✗ unité « x » inconnue dans la durée « 6x »",
        "✗ délai de grâce de 10j refusé : au plus 7j",
        "✗ 6 rappels, c'est trop : au plus 5",
        "✗ `RÉGLER` attend : RÉGLER GRÂCE <durée>",
        "✗ presse « rose » inconnue",
    ] {
        assert!(body.contains(said), "{said}\n{body}");
    }
    assert!(!body.contains("✓ Réglage"), "{body}");
    let after = w.game(GAME);
    assert_eq!(after.settings(), before.settings());
    assert_eq!(after.deadline(), before.deadline());
    assert!(w.notice_kinds().is_empty(), "{:?}", w.notice_kinds());
    assert_golden("settings/reply-refused-fr.txt", &rendered(&reply));

    // A player is no moderator.
    let reply = w.ask(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nRÉGLER GRÂCE 6h\n"),
    );
    assert!(
        flat(&reply.body)
            .contains("✗ commande du modérateur : il faut d'abord MODERATEUR <partie> <secret>"),
        "{}",
        reply.body
    );
    assert_eq!(w.game(GAME).settings(), before.settings());
    assert!(
        w.audit(GAME)
            .lines()
            .all(|l| !l.contains("setting changed"))
    );
}

#[test]
fn a_paused_game_takes_its_deadline_after_the_resume() {
    let mut w = world("paused");
    let reply = moderate(
        &mut w,
        "PAUSE\nRÉGLER ÉCHÉANCE 2026-04-01 20:00\nRÉGLER GRÂCE 2h\n",
    );
    let body = flat(&reply.body);
    assert!(
        body.contains("✗ la partie est en pause : à la reprise"),
        "{body}"
    );
    // The other settings of the mail are taken, paused or not.
    assert!(body.contains("délai de grâce : 0h → 2h"), "{body}");
    let g = w.game(GAME);
    assert_eq!(g.status(), GameStatus::Paused);
    assert_eq!(g.settings().schedule.grace, Span::hours(2));
    let reply = moderate(&mut w, "REPRENDRE\nRÉGLER ÉCHÉANCE 2026-04-01 20:00\n");
    assert!(!reply.body.contains('✗'), "{}", reply.body);
    assert_eq!(w.game(GAME).deadline(), Some(utc("2026-04-01T18:00:00Z")));
}

#[test]
fn a_deadline_in_a_declared_absence_moves_past_it() {
    let mut w = world("absence");
    let reply = w.ask(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nABSENCE du 2026-03-30 au 2026-04-02 09:00\n"),
    );
    assert!(!reply.body.contains('✗'), "{}", reply.body);
    w.take();
    let reply = moderate(&mut w, "RÉGLER ÉCHÉANCE 2026-03-31 20:00\n");
    let body = flat(&reply.body);
    assert!(
        body.contains(
            "→ jeudi 2 avril 2026 à 20:00 (Europe/Paris) (le mardi 31 mars 2026 à 20:00 \
             (Europe/Paris) tombait pendant une absence déclarée : la date limite passe après)."
        ),
        "{body}"
    );
    assert_eq!(w.game(GAME).deadline(), Some(utc("2026-04-02T18:00:00Z")));
    assert_eq!(
        w.game(GAME).absence_base(),
        Some(utc("2026-03-31T18:00:00Z"))
    );
}

// The command line.

/// A running game of three players, created and started through the binary.
fn cli_game(name: &str) -> CliJudge {
    let j = CliJudge::new("settings", name);
    j.ok(&["game", "new", GAME, "--players", "3"]);
    for (house, address) in [
        ("stark", STARK),
        ("lannister", LANNISTER),
        ("baratheon", BARATHEON),
    ] {
        j.ok(&["player", "add", GAME, house, address]);
    }
    j.ok(&["game", "start", GAME]);
    j
}

/// The mails `tick` wrote to the outbox folder.
fn eml(j: &CliJudge) -> Vec<PathBuf> {
    std::fs::read_dir(j.data().join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect()
}

fn shown(j: &CliJudge) -> Value {
    serde_json::from_str(&j.ok(&["game", "show", GAME, "--json"])).unwrap()
}

#[test]
fn game_set_changes_every_setting_given_at_once() {
    let j = cli_game("all");
    // The start's mails written out first.
    let log = j.log(&["tick"]);
    assert!(
        log.contains(
            "courriels écrits pour les parties (résultats, rappels, annonces) 3 ; \
             courriels remis au transport (réponses comprises) 3,"
        ),
        "{log}"
    );
    let start_mails = eml(&j).len();
    let out = j.ok(&[
        "game",
        "set",
        GAME,
        "--grace",
        "6h",
        "--press",
        "grey",
        "--reminders",
        "1d,2h",
        "--days",
        "mon-fri",
        "--deadline",
        "2026-12-01 20:00",
    ]);
    for said in [
        "westeros-1: presse : complète → grise permise",
        "westeros-1: délai de grâce : 0h → 6h",
        "westeros-1: rappels avant la date limite : 1j → 1j, 2h",
        "westeros-1: jours des dates limites : tous les jours → lundi, mardi, mercredi, jeudi, vendredi",
        "westeros-1: date limite : mercredi 25 mars 2026 à 20:00 (Europe/Paris) → mardi 1er décembre 2026 à 20:00 (Europe/Paris)",
        "Date limite : mardi 1er décembre 2026 à 20:00 (Europe/Paris)",
    ] {
        assert!(out.contains(said), "{said}\n{out}");
    }
    let g = shown(&j);
    let schedule = &g["settings"]["schedule"];
    assert_eq!(schedule["grace"], "6h");
    assert_eq!(g["settings"]["press"], "grey");
    assert_eq!(schedule["reminders"], serde_json::json!(["1d", "2h"]));
    assert_eq!(
        schedule["weekdays"],
        serde_json::json!(["mon", "tue", "wed", "thu", "fri"])
    );
    assert_eq!(g["deadline"], "2026-12-01T19:00:00Z");
    // One audit entry, a line a setting, in the operator's language.
    let audit = j.ok(&["--lang", "en", "game", "audit", GAME]);
    let entry: Vec<&str> = audit
        .lines()
        .skip_while(|l| !l.contains("moderator    set"))
        .collect();
    assert_eq!(entry.len(), 5, "{audit}");
    assert!(
        entry[0].ends_with("setting changed: press: full → grey allowed"),
        "{audit}"
    );
    assert!(
        entry[4].ends_with(
            "setting changed: deadline: Wednesday 25 March 2026 at 20:00 (Europe/Paris) → \
             Tuesday 1 December 2026 at 20:00 (Europe/Paris)"
        ),
        "{audit}"
    );
    // Every player hears of the new deadline (no moderator address: the players only),
    // when `tick` writes the queued notices out.
    let log = j.log(&["tick"]);
    assert!(
        log.contains(
            "courriels écrits pour les parties (résultats, rappels, annonces) 3 ; \
             courriels remis au transport (réponses comprises) 3,"
        ),
        "{log}"
    );
    let told: Vec<String> = eml(&j)
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|m| m.contains(":: corbeau: deadline"))
        .collect();
    assert_eq!(told.len(), 3, "{told:?}");
    assert_eq!(eml(&j).len(), start_mails + 3);
    assert!(
        told.iter()
            .all(|m| m.contains(":: deadline: 2026-12-01T19:00:00+00:00")),
        "{told:?}"
    );
}

#[test]
fn game_set_is_all_or_nothing_and_says_why() {
    let j = cli_game("refused");
    let before = shown(&j);
    for (args, said) in [
        (
            vec!["--grace", "6h", "--deadline", "2026-03-20 20:00"],
            "est déjà passée",
        ),
        (
            vec!["--press", "grey", "--days", "xyz"],
            "jour « xyz » inconnu",
        ),
        (vec!["--grace", "6x"], "unité « x » inconnue"),
        (
            vec!["--reminders", "3d"],
            "rappel 3j avant la date limite impossible",
        ),
    ] {
        let mut all = vec!["game", "set", GAME];
        all.extend(args.iter().copied());
        let out = j.run_at(support::cli::NOW, &all);
        assert!(!out.status.success(), "{all:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{all:?}: {stderr}");
    }
    let after = shown(&j);
    assert_eq!(after["settings"], before["settings"]);
    assert_eq!(after["deadline"], before["deadline"]);
    // No option at all: the usage error, nothing done.
    let out = j.run_at(support::cli::NOW, &["game", "set", GAME]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--grace <GRACE>|--press"), "{stderr}");
    let audit = j.ok(&["game", "audit", GAME]);
    assert!(!audit.contains(" set "), "{audit}");
}

#[test]
fn the_game_rules_grace_at_once_and_no_deadline_outside_play() {
    let w = world("rules");
    let mut g = w.game(GAME);
    let deadline = g.deadline().unwrap();
    // An hour past the deadline, no grace: a grace of 6h set now holds the phase open
    // until 6h after the deadline, and the judge looks at the game then.
    let later = deadline + chrono::TimeDelta::hours(1);
    g.change_setting(Setting::Grace(Span::hours(6)), later)
        .unwrap();
    assert_eq!(g.grace_end(), Some(deadline + chrono::TimeDelta::hours(6)));
    assert_eq!(g.wake(), Some(deadline + chrono::TimeDelta::hours(6)));
    assert_eq!(g.deadline(), Some(deadline));
    // Days do not move the current deadline (Wednesday), even to days without it.
    g.change_setting(Setting::Days("sat,sun".parse().unwrap()), now())
        .unwrap();
    assert_eq!(g.deadline(), Some(deadline));
    let wall = |text: &str| Setting::read(SettingKind::Deadline, text).unwrap();
    let message = |e: corbeau::game::GameError| e.message(Lang::En);
    let far = g
        .change_setting(wall("2027-06-01 20:00"), now())
        .unwrap_err();
    assert!(
        message(far).starts_with("the deadline asked for, Tuesday 1 June 2027 at 20:00 (Europe/Paris), is too far ahead: at most 365d from now"),
    );
    // Before the start, `start` sets the deadline; once over, nothing changes.
    let mut forming = g.clone();
    forming.set_status_for_tests(GameStatus::Forming);
    let e = forming
        .change_setting(wall("2026-04-01 20:00"), now())
        .unwrap_err();
    assert_eq!(
        message(e),
        "cannot set the deadline: the game has not started"
    );
    let mut over = g.clone();
    over.set_status_for_tests(GameStatus::Finished);
    let e = over
        .change_setting(Setting::Press(Press::None), now())
        .unwrap_err();
    assert_eq!(message(e), "cannot change a setting: the game is over");
    assert!(matches!(
        g.change_setting(Setting::Days(Weekdays::NONE), now()),
        Err(corbeau::game::GameError::Calendar(
            corbeau::game::calendar::CalendarError::NoWeekday
        ))
    ));
}

/// Joining: `game new --open` opens a game (start when full by default),
/// `game set --open --start-when-full` changes both, and `RÉGLER OUVERTE` /
/// `SET START WHEN FULL` by mail too, each answered with the value before and after.
#[test]
fn a_game_is_opened_by_the_command_line_and_by_mail() {
    let j = CliJudge::new("settings", "open-cli");
    j.ok(&["game", "new", "ouverte", "--players", "3", "--open"]);
    let show: Value = serde_json::from_str(&j.ok(&["game", "show", "ouverte", "--json"])).unwrap();
    assert_eq!(show["settings"]["open"], Value::Bool(true));
    assert_eq!(show["settings"]["start_when_full"], Value::Bool(true));
    j.ok(&["game", "new", GAME, "--players", "3"]);
    assert_eq!(shown(&j)["settings"]["open"], Value::Bool(false));
    let out = j.ok(&[
        "game",
        "set",
        GAME,
        "--open",
        "oui",
        "--start-when-full",
        "no",
    ]);
    assert!(out.contains("ouverte à REJOINDRE : non → oui"), "{out}");
    assert!(
        out.contains("démarrage quand elle est complète : oui → non"),
        "{out}"
    );
    let settings = &shown(&j)["settings"];
    assert_eq!(settings["open"], Value::Bool(true));
    assert_eq!(settings["start_when_full"], Value::Bool(false));
    let refused = j.run_at(
        support::cli::NOW,
        &["game", "set", GAME, "--open", "peut-être"],
    );
    assert!(!refused.status.success());

    let mut w = world("open-mail");
    let reply = moderate(&mut w, "RÉGLER OUVERTE oui\nSET START WHEN FULL no\n");
    let text = flat(&reply.body);
    assert!(text.contains("ouverte à REJOINDRE : non → oui"), "{text}");
    // The reply is in the mail's language, the first keyword's: French.
    assert!(
        text.contains("démarrage quand elle est complète : oui → non"),
        "{text}"
    );
    let settings = w.game(GAME).settings().clone();
    assert!(settings.open && !settings.start_when_full);
}

/// Joining: `player approve` and `player reject` answer a `RELEVER` mailed to
/// the judge (read by `corbeau ingest`), through the binary.
#[test]
fn requests_for_a_house_are_answered_by_the_command_line() {
    let j = CliJudge::new("settings", "approve-cli");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    let mail = |from: &str, id: &str, line: &str| {
        format!(
            "From: {from}\nTo: juge@corbeau.test\nMessage-ID: <{id}@test>\nSubject: x\n\n\
             {line}\n"
        )
    };
    // Each request, then its confirmation with the token the answer (sent by the next
    // pass) brought to the asking address.
    let ask = |from: &str, id: &str, house: &str| {
        j.ok_with(
            &["ingest"],
            Some(&mail(from, id, &format!("RELEVER {GAME} {house}"))),
        );
        j.ok(&["tick"]);
        let line = j
            .outbox()
            .iter()
            .filter(|m| m.contains(&format!("To: {from}")))
            .find_map(|m| crate::support::world::confirmation_line(&m.replace("\r\n", "\n")))
            .unwrap();
        j.ok_with(&["ingest"], Some(&mail(from, &format!("{id}c"), &line)));
    };
    ask("robb@jumeaux.test", "1", "stark");
    ask("walder@jumeaux.test", "2", "lannister");
    let requests = shown(&j)["seat_requests"].clone();
    assert_eq!(requests.as_array().map(Vec::len), Some(2), "{requests}");
    let out = j.ok(&["player", "approve", GAME, "stark"]);
    assert!(out.contains("stark → robb@jumeaux.test"), "{out}");
    j.ok(&["player", "reject", GAME, "lannister"]);
    let game = shown(&j);
    assert!(game.get("seat_requests").is_none(), "{game}");
    let stark = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "stark")
        .unwrap()
        .clone();
    assert_eq!(stark["player"]["address"], "robb@jumeaux.test", "{stark}");
    // The welcome, with its secret, waits in the outbox for the address that asked.
    let outbox = j.ok(&["outbox"]);
    assert!(outbox.contains("robb@jumeaux.test"), "{outbox}");
}
