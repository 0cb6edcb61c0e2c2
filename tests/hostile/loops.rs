//! Mail loops and bounces, as attacks:
//! the five loop shapes (the judge's own address in From, a Reply-To pointing back at it,
//! a player moving to it, a mailer-daemon or empty return path, and an unmarked
//! auto-responder playing ping-pong), the marks on every mail the judge sends, ids that
//! link nothing, bounces that reach the moderator, and permanent refusals of the mail
//! server or of sendmail that are set aside instead of retried for ever.

use std::path::Path;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::game::{NoticeKind, Press, Settings};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::Handled;
use corbeau::mail::inbound::read;
use corbeau::mail::notify::queue_notices;
use corbeau::mail::outmail::OutMail;
use corbeau::mail::send::{drain, transport_from};
use corbeau::mail::transport::message;

use super::support::TempDir;
use super::support::world::{GameSpec, World};

#[path = "../support/smtp_sink.rs"]
mod smtp_sink;

use smtp_sink::{Sink, SinkOptions, free_port};

const GAME: &str = "westeros-1";
const JUDGE: &str = "juge@corbeau.test";
const ALIAS: &str = "corbeau@corbeau.test";
const STARK: &str = "arya@nord.test";
const LANNISTER: &str = "tyrion@roc.test";
const BARATHEON: &str = "stannis@peyredragon.test";
const MODERATOR: &str = "mestre@citadelle.test";
const STARK_SECRET: &str = "loup-d1re";
const MODERATOR_SECRET: &str = "m0d-s3cret";

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn temp_dir(name: &str) -> TempDir {
    TempDir::new("loops", name)
}

/// A judge (address JUDGE, alias ALIAS) with a running three-player game.
fn world(name: &str) -> World {
    let mut w = World::with_config("loops", name, |c| c.judge.aliases = vec![ALIAS.into()]);
    w.tag = "loop";
    w.subject = "test";
    w.authors = true;
    let settings = Settings {
        press: Press::Grey,
        ..Settings::default()
    };
    w.create_game(GameSpec::westeros(GAME, settings), now());
    let players = [
        ("stark", STARK, STARK_SECRET, Lang::Fr),
        ("lannister", LANNISTER, "Lion-0r!", Lang::Fr),
        ("baratheon", BARATHEON, "cerf-n01r", Lang::Fr),
    ];
    w.seat(GAME, &players, true, now());
    w
}

/// A raw message read and carried out as the Maildir pass does.
fn read_raw(w: &World, raw: &str) -> Handled {
    w.ingest(raw, now()).unwrap()
}

fn address_of(w: &World, house: &str) -> String {
    w.game(GAME)
        .seat(house)
        .unwrap()
        .player()
        .as_ref()
        .unwrap()
        .address()
        .to_string()
}

fn stark() -> String {
    format!("PARTIE {GAME} Stark {STARK_SECRET}\n")
}

fn moderator() -> String {
    format!("MODERATEUR {GAME} {MODERATOR_SECRET}\n")
}

fn raw_mail(headers: &str, body: &str) -> String {
    format!(
        "{headers}To: {JUDGE}\r\nSubject: test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

/// Loop shapes 1 and 2, and shape 4: mails the judge must never answer, however well
/// formed their commands. Each is marked seen and nothing is queued.
#[test]
fn mail_from_the_judge_itself_or_from_robots_is_never_answered() {
    let w = world("never-answered");
    let body = format!("{}PRET\r\n", stark());
    let cases: &[(&str, String)] = &[
        ("From the judge", format!("From: Corbeau <{JUDGE}>\r\n")),
        (
            "From the judge, other case",
            "From: JUGE@Corbeau.Test\r\n".into(),
        ),
        ("From an alias", format!("From: {ALIAS}\r\n")),
        (
            "From the judge, Reply-To a player",
            format!("From: {JUDGE}\r\nReply-To: {STARK}\r\n"),
        ),
        (
            "Reply-To back at the judge",
            format!("From: {STARK}\r\nReply-To: {JUDGE}\r\n"),
        ),
        (
            "Sender is the judge",
            format!("From: {STARK}\r\nSender: {JUDGE}\r\n"),
        ),
        (
            "MAILER-DAEMON",
            "From: MAILER-DAEMON@mx.nord.test\r\n".into(),
        ),
        (
            "postmaster",
            "From: Postmaster <postmaster@nord.test>\r\n".into(),
        ),
        (
            "empty Return-Path",
            format!("Return-Path: <>\r\nFrom: {STARK}\r\n"),
        ),
        (
            "Auto-Submitted",
            format!("From: {STARK}\r\nAuto-Submitted: auto-generated\r\n"),
        ),
        (
            "Precedence bulk",
            format!("From: {STARK}\r\nPrecedence: bulk\r\n"),
        ),
        (
            "Precedence junk",
            format!("From: {STARK}\r\nPrecedence: junk\r\n"),
        ),
        (
            "Precedence list",
            format!("From: {STARK}\r\nPrecedence: list\r\n"),
        ),
        (
            "Precedence auto_reply",
            format!("From: {STARK}\r\nPrecedence: auto_reply\r\n"),
        ),
        (
            "X-Autoreply",
            format!("From: {STARK}\r\nX-Autoreply: yes\r\n"),
        ),
        (
            "X-Autorespond",
            format!("From: {STARK}\r\nX-Autorespond: vacation\r\n"),
        ),
        (
            "List-Id",
            format!("From: {STARK}\r\nList-Id: <jeu.liste.test>\r\n"),
        ),
        (
            "List-Unsubscribe",
            format!("From: {STARK}\r\nList-Unsubscribe: <mailto:u@liste.test>\r\n"),
        ),
        ("noreply", "From: noreply@nord.test\r\n".into()),
    ];
    for (n, (what, headers)) in cases.iter().enumerate() {
        let raw = raw_mail(
            &format!("{headers}Message-ID: <never-{n}@nord.test>\r\n"),
            &body,
        );
        assert_eq!(read_raw(&w, &raw), Handled::Ignored, "{what}");
        let queued = w.take();
        assert!(queued.is_empty(), "{what}: {queued:?}");
        assert!(w.seen(&format!("never-{n}@nord.test")), "{what}");
    }
    // Nothing of them was carried out either.
    assert!(!w.game(GAME).seat("stark").unwrap().ready());

    // A person's mail with the harmless values is answered.
    for (n, headers) in [
        format!("From: {STARK}\r\nAuto-Submitted: no\r\n"),
        format!("From: {STARK}\r\nX-Auto-Response-Suppress: None\r\n"),
        // Outlook puts it on a person's mail too: only a request to robots.
        format!("From: {STARK}\r\nX-Auto-Response-Suppress: All\r\n"),
    ]
    .iter()
    .enumerate()
    {
        let raw = raw_mail(
            &format!("{headers}Message-ID: <person-{n}@nord.test>\r\n"),
            &body,
        );
        assert!(
            matches!(read_raw(&w, &raw), Handled::Answered { .. }),
            "{headers}"
        );
        assert_eq!(w.take().len(), 1, "{headers}");
    }
}

/// Loop shape 3: a player (or anyone with the secret) moving the house to the judge's
/// address, an alias, or another player's address is refused; the reply does not say
/// whose the address is.
#[test]
fn an_address_change_to_the_judge_or_to_another_player_is_refused() {
    let mut w = world("address");
    for target in [JUDGE, "Juge@CORBEAU.test", ALIAS] {
        w.send_at(STARK, &format!("{}ADRESSE {target}\n", stark()), now());
        let mails = w.take();
        assert_eq!(mails.len(), 1, "{target}: {mails:?}");
        let body = &mails[0].body;
        assert!(
            body.contains("ne peut pas servir dans cette partie"),
            "{target}: {body}"
        );
        assert_eq!(address_of(&w, "stark"), STARK, "{target}");
    }
    // Another player's address is answered as a stranger's would be, and gets no code:
    // no mail from the judge there, nothing changed.
    w.send_at(STARK, &format!("{}ADRESSE {LANNISTER}\n", stark()), now());
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(
        !mails[0].body.to_lowercase().contains("lannister"),
        "{}",
        mails[0].body
    );
    assert_eq!(address_of(&w, "stark"), STARK);
    // A free address is still taken, with the code mailed to it.
    w.send_at(
        STARK,
        &format!("{}ADRESSE arya@braavos.test\n", stark()),
        now(),
    );
    let mails = w.take();
    let asked = mails.iter().find(|m| m.to == "arya@braavos.test").unwrap();
    let code = crate::support::address_code(&asked.body, "arya@braavos.test");
    w.send_at(
        STARK,
        &format!("{}ADRESSE arya@braavos.test {code}\n", stark()),
        now(),
    );
    assert_eq!(address_of(&w, "stark"), "arya@braavos.test");
}

/// The moderator cannot seat a player at the judge's address (by mail or at the command
/// line), nor at an address already playing.
#[test]
fn add_or_replace_to_the_judge_or_an_address_in_the_game_is_refused() {
    let mut w = world("seat");
    w.send_at(
        MODERATOR,
        &format!("{}REMPLACER Stark {JUDGE}\n", moderator()),
        now(),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 1, "no welcome mail to the judge: {mails:?}");
    assert!(
        mails[0].body.contains("adresse du juge lui-même"),
        "{}",
        mails[0].body
    );
    w.send_at(
        MODERATOR,
        &format!("{}REMPLACER Stark {ALIAS}\n", moderator()),
        now(),
    );
    assert!(w.take()[0].body.contains("adresse du juge lui-même"));
    w.send_at(
        MODERATOR,
        &format!("{}REMPLACER Stark {LANNISTER}\n", moderator()),
        now(),
    );
    assert!(w.take()[0].body.contains("joue déjà la maison Lannister"));
    assert_eq!(address_of(&w, "stark"), STARK);

    // The command line: `player add` to the judge's address of the configuration.
    let dir = temp_dir("seat-cli");
    std::fs::write(
        dir.join("corbeau.toml"),
        format!("data_dir = \"data\"\n[judge]\naddress = \"{JUDGE}\"\naliases = [\"{ALIAS}\"]\n"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"));
        crate::support::backend::for_command(&mut command, &dir.join("data"));
        command
            .args(args)
            .current_dir(&dir)
            .env("CORBEAU_NOW", "2026-03-23T08:00:00Z")
            .env_remove("CORBEAU_CONFIG")
            .env_remove("CORBEAU_DATA")
            .env_remove("CORBEAU_LANG")
            .output()
            .unwrap()
    };
    let out = run(&["game", "new", "g1", "--players", "3"]);
    assert!(out.status.success(), "{out:?}");
    for address in [JUDGE, ALIAS] {
        let out = run(&["player", "add", "g1", "stark", address]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{address}");
        assert!(err.contains("adresse du juge lui-même"), "{err}");
    }
    let out = run(&["game", "new", "g2", "--players", "3", "--moderator", ALIAS]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Loop shape 5: two players whose mailboxes answer every mail, unmarked, echoing what
/// they received. Each answer reaches the judge as a new mail; the judge's replies
/// and the press between the houses would go on for ever. The cap stops it: each
/// address gets at most `replies_per_hour` answers and one warning (and as many as
/// `failed_sign_on_replies_per_hour` more to the failed sign-ons its echoes make), then
/// nothing.
#[test]
fn two_unmarked_auto_responders_stop_after_the_hourly_cap() {
    let mut w = world("ping-pong");
    // The reply cap alone: robots that echo the judge's answers write the same text
    // again, which the cap on the same text stops sooner (tests/hostile/caps.rs).
    w.config.mail.caps.same_text_per_hour = 0;
    let cap = w.config.mail.replies_per_hour;
    assert_eq!(cap, 20, "the documented default");
    // Stark starts by sending grey press to Lannister: from then on, both robots answer.
    w.send_at(
        STARK,
        &format!(
            "{}PRESSE GRISE A Lannister\nBonjour.\nFIN PRESSE\n",
            stark()
        ),
        now(),
    );
    let robots = [STARK, LANNISTER];
    let mut to_robots: Vec<OutMail> = w.take();
    let mut judge_mails = to_robots.len();
    let mut warnings = 0;
    let mut rounds = 0;
    while !to_robots.is_empty() {
        rounds += 1;
        assert!(rounds < 500, "the loop did not stop");
        let mut next = Vec::new();
        for mail in to_robots.drain(..) {
            if mail.body.contains("plus de 20 fois en une heure") {
                warnings += 1;
            }
            if !robots.contains(&mail.to.as_str()) {
                continue;
            }
            // A naive responder: no Auto-Submitted, the judge's text echoed unquoted.
            let echo = format!("Je suis absent.\n{}\n", mail.body);
            let at = now() + TimeDelta::seconds(i64::from(rounds));
            w.send_at(&mail.to, &echo, at);
            next.extend(w.take());
        }
        judge_mails += next.len();
        to_robots = next;
    }
    eprintln!("ping-pong: {judge_mails} mails from the judge, silent after {rounds} rounds");
    // An echoed sign-on line (`PARTIE … ********`) is a failed sign-on, whose answers
    // have their own hourly budget beside the address's.
    let failed_cap = w.config.mail.failed_sign_on_replies_per_hour as usize;
    assert!(
        judge_mails <= 2 * (cap as usize + 2 + failed_cap + 1),
        "{judge_mails} mails from the judge"
    );
    assert_eq!(warnings, 2, "one warning per address");

    // An hour after the window opened, the address is answered again.
    w.send_at(STARK, "STATUT\n", now() + TimeDelta::minutes(61));
    assert_eq!(w.take().len(), 1);
}

/// RFC 3834: every mail the judge sends is marked, so that a vacation responder or a
/// robot does not answer it: replies `auto-replied`, the rest `auto-generated`.
#[test]
fn every_mail_the_judge_sends_is_marked_auto_submitted() {
    let mut w = world("marked");
    w.send_at(
        STARK,
        &format!(
            "{}PRESSE A Lannister\nBonjour.\nFIN PRESSE\nA win H\nPRET\n",
            stark()
        ),
        now(),
    );
    w.send_at(
        MODERATOR,
        &format!(
            "{}REMPLACER Baratheon davos@peyredragon.test\nTRAITER\n",
            moderator()
        ),
        now(),
    );
    let mut mails = w.take();
    queue_notices(w.service(), &w.config, now()).unwrap();
    mails.extend(w.take());
    let mut kinds = std::collections::BTreeSet::new();
    for mail in &mails {
        let raw = message(&mail.seal(), &w.config.judge).unwrap().formatted();
        let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let marked = parsed.header_raw("Auto-Submitted").map(str::trim);
        let expected = if mail.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        assert_eq!(marked, Some(expected), "{}", mail.subject);
        assert_eq!(
            parsed.header_raw("X-Auto-Response-Suppress").map(str::trim),
            Some("OOF, AutoReply"),
            "{}",
            mail.subject
        );
        kinds.insert(expected);
        // And the judge reading its own mail would ignore it.
        let back = read(&raw, 1 << 20).unwrap();
        assert!(back.automatic, "{}", mail.subject);
        assert!(
            corbeau::mail::bounces::from_the_judge(&w.config, &back),
            "{}",
            mail.subject
        );
    }
    assert_eq!(kinds.len(), 2, "replies and generated mails both seen");
    assert!(mails.len() >= 6, "{}", mails.len());
}

/// Item 6: the mails of one pass share no time or counter in their ids (a grey press and
/// the reply to its author could otherwise be matched).
#[test]
fn message_ids_of_mails_queued_together_link_nothing() {
    let mut w = world("ids");
    w.send_at(
        STARK,
        &format!(
            "{}PRESSE GRISE A Lannister, Baratheon\nQui suis-je ?\nFIN PRESSE\n",
            stark()
        ),
        now(),
    );
    let mails = w.take();
    assert!(mails.len() >= 3, "{mails:?}");
    let locals: Vec<&str> = mails
        .iter()
        .map(|m| {
            let (local, domain) = m.message_id.rsplit_once('@').unwrap();
            assert_eq!(domain, "corbeau.test");
            let random = local.strip_prefix("corbeau.").unwrap();
            assert_eq!(random.len(), 32, "{local}");
            assert!(random.bytes().all(|b| b.is_ascii_hexdigit()), "{local}");
            random
        })
        .collect();
    let secs = now().timestamp().to_string();
    let nanos = now().timestamp_nanos_opt().unwrap().to_string();
    for (i, a) in locals.iter().enumerate() {
        assert!(!a.contains(&secs[..8]) && !a.contains(&nanos[..12]), "{a}");
        for b in &locals[i + 1..] {
            // No shared part of any length worth a timestamp (8 hex digits by chance:
            // about one in 2^32 per pair of positions).
            let shared = (0..=24).any(|at| b.contains(&a[at..at + 8]));
            assert!(!shared, "{a} and {b} share a part");
        }
    }
}

/// A report for the id of a mail of the judge's, in the shape Postfix sends.
fn dsn(id: &str, recipient: &str, returned_id: &str) -> String {
    format!(
        "Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.corbeau.test (Mail Delivery System)\r\n\
         To: {JUDGE}\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <{id}>\r\n\
         Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n\
         --B\r\nContent-Type: text/plain\r\n\r\nI'm sorry to have to inform you that your message \
         could not be delivered.\r\n\r\n<{recipient}>: host mx.nord.test said: 550 5.1.1 no such \
         user\r\n\r\n\
         --B\r\nContent-Type: message/delivery-status\r\n\r\n\
         Reporting-MTA: dns; mx.corbeau.test\r\nArrival-Date: Mon, 23 Mar 2026 09:00:00 +0100\r\n\r\n\
         Final-Recipient: rfc822; {recipient}\r\nOriginal-Recipient: rfc822;{recipient}\r\n\
         Action: failed\r\nStatus: 5.1.1\r\nRemote-MTA: dns; mx.nord.test\r\n\
         Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: no such user\r\n\r\n\
         --B\r\nContent-Type: text/rfc822-headers\r\n\r\n\
         From: Corbeau <{JUDGE}>\r\nTo: {recipient}\r\nSubject: [westeros-1] Resultats\r\n\
         Message-ID: <{returned_id}>\r\nX-Corbeau-Game: {GAME}\r\n\r\n--B--\r\n"
    )
}

/// Item 4: a bounce for a player's address flags it in the game and reaches the moderator,
/// once; it is never answered; a bounce of a mail the judge did not send changes nothing.
#[test]
fn a_bounce_for_a_player_flags_the_address_and_tells_the_moderator_once() {
    let mut w = world("bounce");
    let ours = "corbeau.0123456789abcdef0123456789abcdef@corbeau.test";

    // Backscatter: spam forged in the judge's name, returned. Nothing happens.
    let forged = dsn("b0@mx.corbeau.test", STARK, "spam.42@spammer.test");
    assert_eq!(read_raw(&w, &forged), Handled::Ignored);
    assert!(w.take().is_empty());
    assert!(
        w.game(GAME)
            .seat("stark")
            .unwrap()
            .player()
            .as_ref()
            .unwrap()
            .bounced()
            .is_none()
    );

    let bounce = dsn("b1@mx.corbeau.test", STARK, ours);
    let inbound = read(bounce.as_bytes(), 1 << 20).unwrap();
    let report = inbound.bounce.clone().expect("read as a bounce");
    assert_eq!(report.recipients, vec![STARK.to_string()]);
    assert!(report.reason.contains("5.1.1"), "{}", report.reason);
    assert_eq!(read_raw(&w, &bounce), Handled::Ignored);
    assert!(w.take().is_empty(), "a bounce is never answered");
    let flagged = w
        .game(GAME)
        .seat("stark")
        .unwrap()
        .player()
        .cloned()
        .unwrap();
    assert!(flagged.bounced().is_some());
    // `corbeau game show` says it beside the house.
    let variant = w.variant(GAME);
    let shown = corbeau::report::game_text::game_text(&w.game(GAME), &variant, Lang::En);
    let line = shown.lines().find(|l| l.contains(STARK)).unwrap();
    assert!(line.contains("mail undelivered on 2026-03-23"), "{shown}");
    assert!(line.contains("5.1.1"), "{line}");
    assert!(matches!(
        w.notice_kinds()[0],
        NoticeKind::Undeliverable { .. }
    ));
    queue_notices(w.service(), &w.config, now()).unwrap();
    let told = w.take();
    assert_eq!(told.len(), 1, "the moderator only: {told:?}");
    assert_eq!(told[0].to, MODERATOR);
    super::support::assert_golden("mail/notice-undeliverable-fr.txt", &told[0].body);
    assert!(told[0].body.contains(STARK), "{}", told[0].body);
    assert!(told[0].body.contains("Stark"), "{}", told[0].body);
    assert!(told[0].body.contains("5.1.1"), "{}", told[0].body);
    assert_eq!(told[0].subject, "[westeros-1] Courrier non remis");

    // The next results bounce too: the moderator already knows.
    assert_eq!(
        read_raw(&w, &dsn("b2@mx.corbeau.test", STARK, ours)),
        Handled::Ignored
    );
    queue_notices(w.service(), &w.config, now()).unwrap();
    assert!(w.take().is_empty());

    // The moderator sees it in STATUS; a player does not.
    w.send_at(MODERATOR, &format!("{}STATUT\n", moderator()), now());
    let status = w.take();
    assert!(
        status[0].body.contains("courrier non remis"),
        "{}",
        status[0].body
    );
    w.send_at(
        LANNISTER,
        &format!("PARTIE {GAME} Lannister Lion-0r!\nSTATUT\n"),
        now(),
    );
    let status = w.take();
    assert!(!status[0].body.contains("non remis"), "{}", status[0].body);

    // A new address clears the flag.
    w.send_at(
        STARK,
        &format!("{}ADRESSE arya@braavos.test\n", stark()),
        now(),
    );
    let mails = w.take();
    let asked = mails.iter().find(|m| m.to == "arya@braavos.test").unwrap();
    let code = crate::support::address_code(&asked.body, "arya@braavos.test");
    w.send_at(
        STARK,
        &format!("{}ADRESSE arya@braavos.test {code}\n", stark()),
        now(),
    );
    let player = w
        .game(GAME)
        .seat("stark")
        .unwrap()
        .player()
        .cloned()
        .unwrap();
    assert!(player.bounced().is_none());
}

/// qmail's plain-text bounce: the returned copy is inline.
#[test]
fn a_plain_text_bounce_of_the_judges_mail_is_recognised() {
    let w = world("qmail");
    let raw = format!(
        "Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.roc.test\r\nTo: {JUDGE}\r\n\
         Subject: failure notice\r\nMessage-ID: <q1@mx.roc.test>\r\n\r\n\
         Hi. This is the qmail-send program at mx.roc.test.\r\n\
         I'm afraid I wasn't able to deliver your message to the following addresses.\r\n\r\n\
         <{LANNISTER}>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n\
         --- Below this line is a copy of the message.\r\n\r\n\
         From: Corbeau <{JUDGE}>\r\nTo: {LANNISTER}\r\n\
         Message-ID: <corbeau.00112233445566778899aabbccddeeff@corbeau.test>\r\n\
         X-Corbeau-Game: {GAME}\r\n\r\nResultats\r\n"
    );
    assert_eq!(read_raw(&w, &raw), Handled::Ignored);
    let game = w.game(GAME);
    let player = game.seat("lannister").unwrap().player().unwrap();
    assert!(player.bounced().is_some());
    assert_eq!(w.notice_kinds().len(), 1);
    // The moderator reads it in the game's language.
    w.set_game_lang(GAME, Lang::En, now());
    queue_notices(w.service(), &w.config, now()).unwrap();
    let told = w.take();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].to, MODERATOR);
    assert_eq!(told[0].subject, "[westeros-1] Mail not delivered");
    super::support::assert_golden("mail/notice-undeliverable-en.txt", &told[0].body);
}

/// A game with mails to Stark and Lannister waiting, and a configuration whose transport
/// is `mail` (the `[mail]` section's body).
fn waiting_world(name: &str, mail: &str) -> (World, Config) {
    let w = world(name);
    let mut config = w.config.clone();
    let file = w.dir.join("corbeau.toml");
    std::fs::write(&file, format!("[mail]\n{mail}")).unwrap();
    let loaded = Config::load(Some(&file)).unwrap();
    config.mail = loaded.mail;
    for to in [STARK, LANNISTER] {
        let mail = corbeau::mail::compose::mail(&config, to, "r".into(), "texte\n".into(), now())
            .about(GAME);
        w.queue(&mail);
    }
    (w, config)
}

/// Item 4: an SMTP 5xx for a recipient is not retried: the mail is set aside (shown as
/// failed in the outbox), the player's address flagged, the moderator told; the other
/// mail goes.
#[test]
fn an_smtp_permanent_refusal_is_set_aside_and_told_not_retried() {
    let port = free_port();
    let w0 = temp_dir("smtp-sink");
    let sink = Sink::start(
        &w0.join("maildir"),
        port,
        &SinkOptions {
            reject: Some("arya@".into()),
            ..SinkOptions::default()
        },
    );
    let (w, config) = waiting_world(
        "smtp-5xx",
        &format!(
            "transport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             security = \"none\"\ntimeout = 10\n"
        ),
    );
    let service = w.service();
    let transport = transport_from(&config).unwrap();
    let report = drain(service, &transport, &config.judge, now()).unwrap();
    assert_eq!(report.sent, 1, "{:?}", report.failed);
    assert_eq!(report.set_aside, 1);
    assert!(report.failed[0].error.to_string().contains("550"));
    assert_eq!(sink.mails().len(), 1);

    let kept = w.outbox();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].failed);
    assert_eq!(kept[0].to, STARK);

    // Hours later it is still not tried again.
    let later = drain(
        service,
        &transport,
        &config.judge,
        now() + TimeDelta::hours(5),
    )
    .unwrap();
    assert_eq!((later.sent, later.failed.len(), later.set_aside), (0, 0, 1));
    assert_eq!(sink.mails().len(), 1);

    let player = w
        .game(GAME)
        .seat("stark")
        .unwrap()
        .player()
        .cloned()
        .unwrap();
    assert!(player.bounced().unwrap().reason.contains("550"));
    queue_notices(w.service(), &w.config, now()).unwrap();
    let told: Vec<OutMail> = w.outbox().into_iter().filter(|m| !m.failed).collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].to, MODERATOR);
    assert!(told[0].body.contains("550"), "{}", told[0].body);
    let _ = std::fs::remove_dir_all(&w0);
    drop(config);
}

/// A sendmail that exits EX_NOUSER (67) refused the mail for good; one that exits
/// EX_TEMPFAIL (75) is tried again with the back-off.
#[test]
fn sendmail_exit_statuses_tell_permanent_from_transient() {
    for (code, set_aside) in [(67, true), (65, true), (75, false), (69, false)] {
        let dir = temp_dir(&format!("sendmail-{code}"));
        let script = dir.join("sendmail");
        write_script(
            &script,
            &format!("#!/bin/sh\ncat >/dev/null\necho 'no' >&2\nexit {code}\n"),
        );
        let (w, config) = waiting_world(
            &format!("sendmail-{code}-w"),
            &format!(
                "transport = \"sendmail\"\n[mail.sendmail]\ncommand = \"{}\"\n",
                script.display()
            ),
        );
        let service = w.service();
        let transport = transport_from(&config).unwrap();
        let report = drain(service, &transport, &config.judge, now()).unwrap();
        assert_eq!(report.failed.len(), 2, "{code}");
        let expected = if set_aside { 2 } else { 0 };
        assert_eq!(report.set_aside, expected, "{code}: {:?}", report.failed);
        let kept = w.outbox();
        assert!(kept.iter().all(|m| m.failed == set_aside), "{code}");
        assert!(
            kept.iter().all(|m| m.next_try.is_some()),
            "{code}: a retry time is kept for `outbox --retry`"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn write_script(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A delay warning is no failure; a report with the whole message attached
/// (`message/rfc822`, as Gmail and Exchange send) is read like one with its headers only;
/// a bounce for an address nobody plays changes nothing. None is answered.
#[test]
fn delay_warnings_attached_copies_and_strangers_in_bounces() {
    let w = world("bounce-shapes");
    let ours = "corbeau.ffeeddccbbaa99887766554433221100@corbeau.test";
    let delayed = dsn("d1@mx.corbeau.test", BARATHEON, ours)
        .replace("Action: failed", "Action: delayed")
        .replace("Status: 5.1.1", "Status: 4.4.1");
    let read_delayed = read(delayed.as_bytes(), 1 << 20).unwrap();
    assert!(read_delayed.automatic && read_delayed.bounce.is_none());
    assert_eq!(read_raw(&w, &delayed), Handled::Ignored);

    let stranger = dsn("d2@mx.corbeau.test", "personne@ailleurs.test", ours);
    assert_eq!(read_raw(&w, &stranger), Handled::Ignored);

    let attached = dsn("d3@mx.corbeau.test", BARATHEON, ours).replace(
        "Content-Type: text/rfc822-headers",
        "Content-Type: message/rfc822",
    );
    let report = read(attached.as_bytes(), 1 << 20).unwrap().bounce.unwrap();
    assert_eq!(report.message_id.as_deref(), Some(ours));
    assert_eq!(report.game.as_deref(), Some(GAME));
    assert_eq!(read_raw(&w, &attached), Handled::Ignored);

    assert!(w.take().is_empty(), "no bounce is ever answered");
    let game = w.game(GAME);
    for house in ["stark", "lannister"] {
        let player = game.seat(house).unwrap().player().unwrap();
        assert!(player.bounced().is_none(), "{house}");
    }
    let baratheon = game.seat("baratheon").unwrap().player().unwrap();
    assert!(
        baratheon.bounced().is_some(),
        "the attached copy's bounce counts"
    );
    assert_eq!(w.notice_kinds().len(), 1);
}
