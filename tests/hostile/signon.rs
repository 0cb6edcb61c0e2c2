//! Sign-on cost, secrets and observers, attacked: poison mails of
//! hundreds of sign-on lines, a right secret after a wrong one, guessing secrets by mail
//! (the throttle, its notice, its counters across a restart), secrets echoed with a word
//! after them, on a moderator's line, in the Subject, in the audit, `export` and the store,
//! and observers subscribed without consent.
//!
//! Cost is asserted on the number of hash checks (`corbeau::game::secret_checks`, counted
//! per thread), never on time: the figures are in docs/performance.md.

use std::process::Command;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{NoticeKind, Settings, hash_secret, secret_checks};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::{Handled, MAX_COMMANDS, handle};
use corbeau::mail::inbound::Inbound;
use corbeau::mail::maildir::{deliver, ingest_maildir};
use corbeau::mail::notify::queue_notices;
use corbeau::mail::outmail::OutMail;
use corbeau::service::auth::{self, Subject};

use crate::support::flat;
use crate::support::world::{BARATHEON, GAME, GameSpec, LANNISTER, MODERATOR, STARK, World};
const MALLORY: &str = "mallory@ailleurs.test";
const EVE: &str = "eve@ailleurs.test";
const STARK_SECRET: &str = "k7pq2mzd9a";
const LANNISTER_SECRET: &str = "r0cdelion7";
const BARATHEON_SECRET: &str = "cerfn0ir42";
const MODERATOR_SECRET: &str = "m0ds3cret9";

/// Monday 23 March 2026, 09:00 in Paris.
fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn minutes(n: i64) -> DateTime<Utc> {
    now() + TimeDelta::minutes(n)
}

/// A judge with its own store (reopened at will, as after a restart) and the game
/// `westeros-1` running: three players, a moderator.
fn world(name: &str) -> World {
    let mut w = World::new("hostile-signon", name);
    w.tag = "hostile";
    w.authors = true;
    let spec = GameSpec {
        moderator: Some(MODERATOR_SECRET),
        ..GameSpec::westeros(GAME, Settings::default())
    };
    w.create_game(spec, now());
    let players = [
        ("stark", STARK, STARK_SECRET, Lang::Fr),
        ("lannister", LANNISTER, LANNISTER_SECRET, Lang::En),
        ("baratheon", BARATHEON, BARATHEON_SECRET, Lang::Fr),
    ];
    w.seat(GAME, &players, true, now());
    w
}

fn inbound(w: &mut World, from: &str, subject: &str, body: &str) -> Inbound {
    let mut mail = w.inbound(from, body);
    mail.subject = subject.into();
    mail
}

/// Carries out a mail at `at`; returns how many secrets were checked against a hash.
fn send_at(w: &mut World, from: &str, body: &str, at: DateTime<Utc>) -> u64 {
    let before = secret_checks();
    let handled = w.send_at(from, body, at);
    assert!(matches!(handled, Handled::Answered { .. }), "{handled:?}");
    secret_checks() - before
}

fn send(w: &mut World, from: &str, body: &str) -> u64 {
    send_at(w, from, body, now())
}

fn reply_to(w: &World, to: &str) -> OutMail {
    let mails = w.take();
    let found: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.to == to && m.subject.starts_with("Re:"))
        .collect();
    assert_eq!(found.len(), 1, "replies to {to}: {mails:#?}");
    found[0].clone()
}

fn throttle_notices(w: &World) -> Vec<NoticeKind> {
    w.notice_kinds()
        .into_iter()
        .filter(|k| matches!(k, NoticeKind::SignOnFailures { .. }))
        .collect()
}

fn sign_on(house: &str, secret: &str) -> String {
    format!("PARTIE {GAME} {house} {secret}\n")
}

// ===================================================================== poison mails

#[test]
fn three_hundred_wrong_sign_ons_cost_one_check_and_the_mail_behind_is_answered() {
    let w = world("poison-300");
    let before = w.game(GAME);
    let poison = "PARTIE westeros-1 Stark wrongsecret\n".repeat(300);
    let raw = |from: &str, id: &str, body: &str| {
        format!("From: {from}\nSubject: x\nMessage-ID: <{id}@test>\n\n{body}").into_bytes()
    };
    let maildir = w.dir.join("maildir");
    deliver(&maildir, &raw(MALLORY, "poison", &poison)).unwrap();
    deliver(
        &maildir,
        &raw(
            STARK,
            "behind",
            &format!("{}PRET\n", sign_on("Stark", STARK_SECRET)),
        ),
    )
    .unwrap();
    let checks = secret_checks();
    let report = ingest_maildir(w.service(), &w.config, &maildir, now()).unwrap();
    // At most one full check for the poison mail (its wrong secret mostly fails the
    // sieve), one for the mail behind it.
    assert!((1..=2).contains(&(secret_checks() - checks)));
    assert_eq!(report.answered, 2, "{report:?}");
    assert!(report.failed.is_empty() && report.unreadable.is_empty());
    let mails = w.take();
    let poisoned = mails.iter().find(|m| m.to == MALLORY).unwrap();
    assert_eq!(
        poisoned
            .body
            .matches("une seule identification par message")
            .count(),
        299
    );
    assert_eq!(
        poisoned.body.matches("maison ou secret incorrect").count(),
        1
    );
    let behind = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        behind.body.contains("✓ Identifié(e) : Stark"),
        "{}",
        behind.body
    );
    let after = w.game(GAME);
    assert!(after.seat("stark").unwrap().ready());
    assert_eq!(before.seat("lannister"), after.seat("lannister"));
}

#[test]
fn two_thousand_sign_on_lines_are_refused_whole_without_a_check() {
    let mut w = world("poison-2000");
    let poison = "PARTIE westeros-1 Stark wrongsecret\n".repeat(2000);
    assert_eq!(send(&mut w, MALLORY, &poison), 0);
    let reply = reply_to(&w, MALLORY);
    let text = flat(&reply.body);
    assert!(
        text.contains(&format!(
            "votre message contient 2000 commandes ou ordres, plus que les {MAX_COMMANDS}"
        )),
        "{text}"
    );
    assert!(!reply.body.contains("> PARTIE"), "{}", reply.body);
    // Nothing was counted against the house: no secret was even read.
    let house = Subject::House {
        game: GAME.into(),
        house: "stark".into(),
    };
    assert_eq!(w.service().guard(&house.key()).unwrap(), None);
    // The mail behind it is answered as usual.
    assert_eq!(
        send(
            &mut w,
            STARK,
            &format!("{}PRET\n", sign_on("Stark", STARK_SECRET))
        ),
        1
    );
    assert!(w.game(GAME).seat("stark").unwrap().ready());
}

#[test]
fn a_right_secret_after_a_wrong_one_in_the_same_mail_is_not_accepted() {
    let mut w = world("right-after-wrong");
    let body = format!(
        "{}{}PRET\n",
        sign_on("Stark", "devine"),
        sign_on("Stark", STARK_SECRET)
    );
    // At most one full check (the wrong secret mostly fails the sieve); the second
    // sign-on line is never checked.
    assert!(send(&mut w, STARK, &body) <= 1);
    let reply = reply_to(&w, STARK);
    let text = flat(&reply.body);
    assert!(text.contains("maison ou secret incorrect"), "{text}");
    assert!(
        text.contains("une seule identification par message : cette ligne n'a pas été vérifiée"),
        "{text}"
    );
    assert!(!text.contains("✓ Identifié(e)"), "{text}");
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
}

#[test]
fn a_moderator_and_a_player_sign_on_cost_one_check_per_mail() {
    let mut w = world("moderator-then-player");
    let body = format!(
        "MODERATEUR {GAME} {MODERATOR_SECRET}\n{}PRET\n",
        sign_on("Stark", STARK_SECRET)
    );
    assert_eq!(send(&mut w, MODERATOR, &body), 1);
    let text = flat(&reply_to(&w, MODERATOR).body);
    assert!(text.contains("✓ Identifié(e) comme modérateur"), "{text}");
    assert!(
        text.contains("une seule identification par message"),
        "{text}"
    );
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
}

// ===================================================================== the throttle

/// The answers to `to` among the mails taken.
fn replies_to(mails: &[OutMail], to: &str) -> usize {
    mails
        .iter()
        .filter(|m| m.to == to && m.subject.starts_with("Re:"))
        .count()
}

#[test]
fn forged_wrong_sign_ons_in_the_owner_s_name_never_keep_the_owner_out() {
    let mut w = world("forged-owner");
    // Six forged mails "from" Stark's address, then twenty more: under the old lockout
    // the first six locked Stark out and the next twenty used up Stark's answers.
    for i in 0..26 {
        send_at(
            &mut w,
            STARK,
            &sign_on("Stark", &format!("guess{i}")),
            minutes(i),
        );
    }
    let mails = w.take();
    let failed_answers = replies_to(&mails, STARK);
    assert!(
        failed_answers <= 6,
        "{failed_answers} answers to forged failures"
    );
    // Stark's own mail, with the right secret: acted on and answered at once.
    let body = format!("{}A win -> cno\nPRET\n", sign_on("Stark", STARK_SECRET));
    assert_eq!(send_at(&mut w, STARK, &body, minutes(27)), 1);
    let text = flat(&reply_to(&w, STARK).body);
    assert!(text.contains("✓ Identifié(e) : Stark"), "{text}");
    assert!(
        text.contains(
            "Depuis votre dernière identification, 26 identification(s) pour cette place ont échoué"
        ),
        "{text}"
    );
    let game = w.game(GAME);
    let stark = game.seat("stark").unwrap();
    assert!(stark.ready());
    assert_eq!(stark.orders().len(), 1, "{:?}", stark.orders());
    // Told once: the counter starts again after the owner's sign-on.
    let key = Subject::House {
        game: GAME.into(),
        house: "stark".into(),
    }
    .key();
    assert_eq!(w.guard(&key), None);
}

#[test]
fn forged_wrong_moderator_sign_ons_never_keep_the_moderator_out() {
    let mut w = world("forged-moderator");
    for i in 0..26 {
        send_at(
            &mut w,
            MODERATOR,
            &format!("MODERATEUR {GAME} faux{i}\n"),
            minutes(i),
        );
    }
    // Wrong sign-ons for another game, from the same address, change nothing either.
    send_at(
        &mut w,
        MODERATOR,
        "MODERATEUR autre-partie faux\n",
        minutes(26),
    );
    w.take();
    let body = format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nPAUSE\n");
    assert_eq!(send_at(&mut w, MODERATOR, &body, minutes(28)), 1);
    let text = flat(&reply_to(&w, MODERATOR).body);
    assert!(text.contains("✓ Identifié(e) comme modérateur"), "{text}");
    assert!(text.contains("26 identification(s)"), "{text}");
    assert_eq!(w.game(GAME).status(), corbeau::game::GameStatus::Paused);
}

#[test]
fn failures_are_told_to_the_owner_and_the_moderator_once_naming_no_address() {
    let mut w = world("told-once");
    for i in 0..auth::FAILURES_TOLD {
        send_at(
            &mut w,
            MALLORY,
            &sign_on("Stark", &format!("guess{i}")),
            minutes(i.into()),
        );
    }
    let notices = throttle_notices(&w);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        matches!(&notices[0], NoticeKind::SignOnFailures { house: Some(h), failures: 5, since } if h == "stark" && *since == minutes(0)),
        "{notices:?}"
    );
    w.take();
    queue_notices(w.service(), &w.config, minutes(8)).unwrap();
    // The counters survive a restart (they are in the store).
    w.reopen();
    let told = w.take();
    let mut to: Vec<&str> = told.iter().map(|m| m.to.as_str()).collect();
    to.sort_unstable();
    assert_eq!(to, [STARK, MODERATOR], "{told:#?}");
    let to_stark = told.iter().find(|m| m.to == STARK).unwrap();
    let text = flat(&to_stark.body);
    assert!(
        text.contains("Des identifications comme Stark ont échoué 5 fois"),
        "{text}"
    );
    assert!(text.contains("Personne n'est bloqué"), "{text}");
    assert!(!to_stark.body.contains(MALLORY), "{}", to_stark.body);
    assert!(
        to_stark
            .subject
            .contains("Identifications manquées comme Stark"),
        "{}",
        to_stark.subject
    );
    // More failures: no second notice until Stark has signed on and been told.
    for i in 0..20 {
        send_at(
            &mut w,
            EVE,
            &sign_on("Stark", &format!("again{i}")),
            minutes(10 + i),
        );
    }
    assert_eq!(throttle_notices(&w), []);
    // The right secret from any address is still taken, even amid the storm.
    let body = format!("{}PRET\n", sign_on("Stark", STARK_SECRET));
    assert_eq!(send_at(&mut w, STARK, &body, minutes(31)), 1);
    assert!(w.game(GAME).seat("stark").unwrap().ready());
    for i in 0..auth::FAILURES_TOLD {
        send_at(
            &mut w,
            EVE,
            &sign_on("Stark", &format!("later{i}")),
            minutes(40 + i64::from(i)),
        );
    }
    assert_eq!(throttle_notices(&w).len(), 1);
    assert!(
        w.audit(GAME).contains("5 failed sign-ons as stark"),
        "{}",
        w.audit(GAME)
    );
}

#[test]
fn a_storm_of_wrong_secrets_costs_almost_no_full_check() {
    let mut w = world("storm");
    let mut checks = 0;
    for i in 0..400 {
        checks += send_at(
            &mut w,
            MALLORY,
            &sign_on("Lannister", &format!("g{i}")),
            minutes(i / 10),
        );
    }
    // The sieve turns 4 095 wrong secrets in 4 096 away: 400 of them cost a full check
    // about once in ten storms.
    assert!(checks <= 3, "{checks} full checks for 400 wrong secrets");
    let body = format!("{}PRET\n", sign_on("Lannister", LANNISTER_SECRET));
    assert_eq!(send_at(&mut w, LANNISTER, &body, minutes(41)), 1);
    assert!(w.game(GAME).seat("lannister").unwrap().ready());
}

#[test]
fn a_hash_kept_from_before_the_sieve_takes_one_at_the_next_right_sign_on() {
    let mut w = world("old-hash");
    let sieved = hash_secret(BARATHEON_SECRET).unwrap();
    let (old, _) = sieved.split_once('~').unwrap();
    w.set_secret_hash(GAME, "baratheon", old, now());
    // Without a sieve, each wrong secret costs a full check.
    assert_eq!(send(&mut w, MALLORY, &sign_on("Baratheon", "guess")), 1);
    assert_eq!(
        send(&mut w, BARATHEON, &sign_on("Baratheon", BARATHEON_SECRET)),
        1
    );
    let kept = w
        .game(GAME)
        .seat("baratheon")
        .unwrap()
        .player()
        .unwrap()
        .secret()
        .to_string();
    assert!(kept.starts_with(old) && kept.contains('~'), "{kept}");
    let mut checks = 0;
    for i in 0..50 {
        checks += send(&mut w, MALLORY, &sign_on("Baratheon", &format!("g{i}")));
    }
    assert!(checks <= 2, "{checks}");
}

#[test]
fn answers_to_failed_sign_ons_never_use_up_the_owner_s_answers() {
    let mut w = world("failed-budget");
    for i in 0..30 {
        send_at(
            &mut w,
            LANNISTER,
            &sign_on("Lannister", &format!("g{i}")),
            minutes(i),
        );
    }
    let mails = w.take();
    let answered = replies_to(&mails, LANNISTER);
    assert_eq!(answered, 6, "{mails:#?}");
    let last = mails.iter().rfind(|m| m.to == LANNISTER).unwrap();
    assert!(
        flat(&last.body).contains("failed sign-ons from this address in an hour"),
        "{}",
        last.body
    );
    // The owner's own mails are answered as many times as any player's.
    for i in 0..5 {
        let body = format!("{}STATUS\n", sign_on("Lannister", LANNISTER_SECRET));
        assert_eq!(send_at(&mut w, LANNISTER, &body, minutes(31 + i)), 1);
        let text = flat(&reply_to(&w, LANNISTER).body);
        assert!(text.contains("✓ Signed on: Lannister"), "{text}");
    }
}

#[test]
fn the_moderator_s_secret_from_another_address_is_copied_to_the_moderator() {
    let mut w = world("moderator-elsewhere");
    let body = format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nPAUSE\n");
    assert_eq!(send(&mut w, MALLORY, &body), 1);
    let mails = w.take();
    let copy = mails
        .iter()
        .find(|m| m.to == MODERATOR)
        .unwrap_or_else(|| panic!("no copy to the moderator: {mails:#?}"));
    let text = flat(&copy.body);
    assert!(
        text.contains("Ceci est une copie pour l'adresse du modérateur"),
        "{text}"
    );
    assert!(!copy.body.contains(MALLORY), "{}", copy.body);
    assert!(!copy.body.contains(MODERATOR_SECRET));
    // From the moderator's own address, no copy.
    send(
        &mut w,
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nREPRENDRE\n"),
    );
    let mails = w.take();
    assert_eq!(mails.iter().filter(|m| m.to == MODERATOR).count(), 1);
}

/// D8: a player's right secret from another address — the registered address's copy
/// says it is a copy, that the mail came from elsewhere and when, in its reader's
/// language; it names no address, and the sender's answer stays as it was.
#[test]
fn a_player_s_secret_from_another_address_is_told_to_the_owner_as_such() {
    let mut w = world("player-elsewhere");
    for (house, owner, secret, said) in [
        (
            "Stark",
            STARK,
            STARK_SECRET,
            "Ceci est une copie pour l'adresse enregistrée",
        ),
        (
            "Lannister",
            LANNISTER,
            LANNISTER_SECRET,
            "This is a copy for the registered address",
        ),
    ] {
        let body = format!("PARTIE {GAME} {house} {secret}\nETAT\n");
        send(&mut w, MALLORY, &body);
        let mails = w.take();
        let copy = mails
            .iter()
            .find(|m| m.to == owner)
            .unwrap_or_else(|| panic!("no copy to {owner}: {mails:#?}"));
        let text = flat(&copy.body);
        assert!(text.contains(said), "{text}");
        assert!(text.contains("2026"), "the time it came: {text}");
        assert!(!copy.body.contains(MALLORY), "{}", copy.body);
        let answer = mails.iter().find(|m| m.to == MALLORY).unwrap();
        assert!(!flat(&answer.body).contains(said), "{}", answer.body);
    }
}

// ===================================================================== secrets

/// Every place a secret could be kept: the files of the store (its database on
/// PostgreSQL), `export`.
fn assert_nowhere(w: &mut World, secrets: &[&str]) {
    let dir = w.config.data_dir.clone();
    w.close();
    let mut files = vec![dir.clone()];
    let mut seen = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        // The raw mails of a Maildir are the senders' own text (kept for a while, issue
        // 9's retention); the store and the outbox must not repeat it.
        if path.components().any(|c| c.as_os_str() == "maildir") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        seen += bytes.len();
        for secret in secrets {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{secret} in {}",
                path.display()
            );
        }
    }
    // On PostgreSQL the store is the database's rows: its dump, as a backup holds it.
    if let Some(bytes) = crate::support::backend::dump(&dir) {
        seen += bytes.len();
        for secret in secrets {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{secret} in the database"
            );
        }
    }
    assert!(seen > 0);
    let mut export = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    crate::support::backend::for_command(&mut export, &dir);
    let export = export
        .args(["export", GAME, "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    let text = String::from_utf8_lossy(&export.stdout);
    assert!(text.contains("refused"), "{text}");
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} in export");
    }
    w.reopen();
}

#[test]
fn a_secret_in_another_order_or_on_the_next_line_is_never_quoted() {
    let mut w = world("secret-shapes");
    let bodies = [
        format!("MODERATEUR {MODERATOR_SECRET} {GAME}\n"),
        format!("PARTIE {STARK_SECRET} {GAME} Stark\n"),
        format!("PARTIE {GAME} Stark\n{STARK_SECRET}\nPRET\n"),
        format!("MODERATEUR {GAME}\n{MODERATOR_SECRET}\n"),
        format!("SIGN ON {GAME} Stark\nsecret: {STARK_SECRET}\n"),
        format!("PARTIE {GAME} Stark faux-secret\n"),
    ];
    for body in &bodies {
        send(&mut w, STARK, body);
    }
    let mails = w.take();
    assert_eq!(mails.len(), bodies.len(), "{mails:#?}");
    for mail in &mails {
        for secret in [STARK_SECRET, MODERATOR_SECRET] {
            assert!(!mail.body.contains(secret), "{secret} in {}", mail.body);
            assert!(
                !mail.subject.contains(secret),
                "{secret} in {}",
                mail.subject
            );
        }
    }
    let text = flat(&mails[2].body);
    assert!(
        text.contains("cette ligne est peut-être un secret : elle est cachée et n'a pas été lue"),
        "{text}"
    );
    // Nothing was done: the lone secret is not taken as one.
    assert!(!w.game(GAME).seat("stark").unwrap().ready());
    let audit = w.audit(GAME);
    for secret in [STARK_SECRET, MODERATOR_SECRET] {
        assert!(!audit.contains(secret), "{secret} in {audit}");
    }
    assert_nowhere(&mut w, &[STARK_SECRET, MODERATOR_SECRET]);
}

fn stark_address(w: &World) -> String {
    let game = w.game(GAME);
    let seat = game.seat("stark").unwrap();
    seat.player().unwrap().address().to_string()
}

#[test]
fn a_player_takes_neither_the_moderator_s_address_nor_any_of_the_judge_s() {
    let mut w = world("address-taken");
    // The judge's addresses, which everyone knows, are refused at once.
    for address in ["juge+x@corbeau.test", "JUGE+partie@corbeau.test"] {
        let body = format!("{}ADRESSE {address}\n", sign_on("Stark", STARK_SECRET));
        send(&mut w, STARK, &body);
        let text = flat(&reply_to(&w, STARK).body);
        assert!(text.contains("✗"), "{address}: {text}");
        assert_eq!(stark_address(&w), STARK);
    }
    // The moderator's is answered as any address (the answer must not tell whose it
    // is), gets no code, and is never taken.
    for address in [MODERATOR, "Mestre@Citadelle.test"] {
        let body = format!("{}ADRESSE {address}\n", sign_on("Stark", STARK_SECRET));
        send(&mut w, STARK, &body);
        let mails = w.take();
        assert!(mails.iter().all(|m| m.to != MODERATOR), "{mails:#?}");
        assert_eq!(stark_address(&w), STARK);
    }
    // Another address of the player's own is taken, with the code mailed to it.
    let body = format!(
        "{}ADRESSE arya@braavos.test\n",
        sign_on("Stark", STARK_SECRET)
    );
    send(&mut w, STARK, &body);
    let mails = w.take();
    let asked = mails.iter().find(|m| m.to == "arya@braavos.test").unwrap();
    let code = crate::support::address_code(&asked.body, "arya@braavos.test");
    let body = format!(
        "{}ADRESSE arya@braavos.test {code}\n",
        sign_on("Stark", STARK_SECRET)
    );
    send(&mut w, STARK, &body);
    assert_eq!(stark_address(&w), "arya@braavos.test");
}

#[test]
fn a_word_after_the_secret_never_shows_it_and_is_ignored() {
    let mut w = world("trailing-word");
    let body = format!("PARTIE {GAME} Stark {STARK_SECRET} merci\nPRET\n");
    assert_eq!(send(&mut w, STARK, &body), 1);
    let reply = reply_to(&w, STARK);
    assert!(!reply.body.contains(STARK_SECRET), "{}", reply.body);
    assert!(
        reply.body.contains("> PARTIE westeros-1 Stark ********\n"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("(les mots après le secret ont été ignorés)")
    );
    assert!(w.game(GAME).seat("stark").unwrap().ready());
    // A wrong secret with a word after it, or typed before the house: the same.
    let guesses = ["guessed-it", "presque-ca"];
    send(
        &mut w,
        MALLORY,
        &format!("PARTIE {GAME} Stark {} merci\n", guesses[0]),
    );
    send(
        &mut w,
        MALLORY,
        &format!("PARTIE {GAME} {} Stark\n", guesses[1]),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 2);
    assert!(
        mails[0]
            .body
            .contains("> PARTIE westeros-1 Stark ********\n")
    );
    assert!(mails[1].body.contains("> PARTIE westeros-1 ********\n"));
    let audit = w.audit(GAME);
    assert!(audit.contains("refused sign-on as Stark from"), "{audit}");
    for secret in [STARK_SECRET, guesses[0], guesses[1]] {
        for mail in &mails {
            assert!(!mail.body.contains(secret), "{secret} in {}", mail.body);
        }
        assert!(!audit.contains(secret), "{secret} in {audit}");
    }
    assert_nowhere(&mut w, &[STARK_SECRET, guesses[0], guesses[1]]);
}

#[test]
fn a_moderator_line_with_a_word_after_the_secret_is_masked() {
    let mut w = world("moderator-extra");
    let body = format!("MODERATEUR {GAME} {MODERATOR_SECRET} merci\nPAUSE\n");
    assert_eq!(send(&mut w, MODERATOR, &body), 1);
    let reply = reply_to(&w, MODERATOR);
    assert!(!reply.body.contains(MODERATOR_SECRET), "{}", reply.body);
    assert!(reply.body.contains("> MODERATEUR westeros-1 ********\n"));
    assert!(reply.body.contains("✓ Partie en pause."), "{}", reply.body);
    // A wrong one, and one the parser refuses (`MODERATEUR` with no game), likewise.
    send(
        &mut w,
        MALLORY,
        &format!("MODERATEUR {GAME} faux-secret merci\n"),
    );
    send(&mut w, MALLORY, "MODERATEUR nul/part faux-aussi\n");
    for mail in w.take() {
        for secret in ["faux-secret", "faux-aussi"] {
            assert!(!mail.body.contains(secret), "{secret} in {}", mail.body);
        }
    }
    assert_nowhere(&mut w, &[MODERATOR_SECRET, "faux-secret", "faux-aussi"]);
}

#[test]
fn a_secret_in_the_subject_is_not_echoed_in_the_reply_s_subject() {
    let mut w = world("subject");
    let body = format!("{}PRET\n", sign_on("Stark", STARK_SECRET));
    for subject in [
        format!("PARTIE {GAME} Stark {STARK_SECRET}"),
        format!("Re: Fwd: SIGNON {GAME} Stark {STARK_SECRET} please"),
        format!("mes ordres ({STARK_SECRET})"),
    ] {
        let mail = inbound(&mut w, STARK, &subject, &body);
        handle(w.service(), &w.config, &mail, now()).unwrap();
        let reply = reply_to(&w, STARK);
        assert!(
            !reply.subject.contains(STARK_SECRET),
            "{subject} -> {}",
            reply.subject
        );
        assert!(reply.subject.contains("********"), "{}", reply.subject);
    }
    // A subject without a secret is quoted as it was.
    let mail = inbound(&mut w, STARK, "Ordres du printemps", &body);
    handle(w.service(), &w.config, &mail, now()).unwrap();
    assert_eq!(reply_to(&w, STARK).subject, "Re: Ordres du printemps");
}

// ===================================================================== observers

/// The token of a request to observe, from its answer.
fn token_in(mail: &OutMail) -> String {
    mail.body
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("OBSERVER {GAME} CONFIRMER "))
        })
        .unwrap_or_else(|| panic!("no token in {}", mail.body))
        .to_string()
}

#[test]
fn nobody_observes_without_confirming_from_the_observed_address() {
    let mut w = world("observer-consent");
    // Mallory asks in Eve's name: Eve gets the token, Mallory nothing.
    let asked = inbound(&mut w, EVE, "x", &format!("OBSERVER {GAME}\n"));
    handle(w.service(), &w.config, &asked, now()).unwrap();
    let to_eve = reply_to(&w, EVE);
    let text = flat(&to_eve.body);
    assert!(
        text.contains("au nom de cette adresse, eve@ailleurs.test")
            && text.contains("Rien ne se fera sans votre confirmation")
            && text.contains("Si vous n'avez rien demandé, ignorez ce message"),
        "{text}"
    );
    let token = token_in(&to_eve);
    let game = w.game(GAME);
    assert!(game.observers().is_empty());
    assert_eq!(game.observer_requests().len(), 1);
    assert!(!game.observer_requests()[0].token.contains(&token));
    // Not confirmed: the results do not go to Eve.
    send(
        &mut w,
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nTRAITER printemps 298 mouvements\n"),
    );
    w.take();
    queue_notices(w.service(), &w.config, now()).unwrap();
    assert!(w.take().iter().all(|m| m.to != EVE));
    // The token from another address: refused, unchecked.
    let confirm = format!("OBSERVER {GAME} CONFIRMER {token}\n");
    assert_eq!(send(&mut w, MALLORY, &confirm), 0);
    let text = flat(&reply_to(&w, MALLORY).body);
    assert!(
        text.contains("aucune demande d'observation n'attend"),
        "{text}"
    );
    assert!(!text.contains(&token), "{text}");
    // A wrong token from Eve: refused.
    assert!(send(&mut w, EVE, &format!("OBSERVER {GAME} CONFIRMER devine\n")) <= 1);
    assert!(flat(&reply_to(&w, EVE).body).contains("ce jeton n'est pas celui envoyé"));
    // The right one: Eve observes, with a secret to stop.
    assert_eq!(send(&mut w, EVE, &confirm), 1);
    let reply = reply_to(&w, EVE);
    assert!(!reply.body.contains(&token), "{}", reply.body);
    assert!(
        reply
            .body
            .contains(&format!("> OBSERVER {GAME} CONFIRMER ********")),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Vous recevrez les résultats"));
    let game = w.game(GAME);
    assert_eq!(game.observers().len(), 1);
    assert_eq!(game.observers()[0].address, EVE);
    assert!(game.observer_requests().is_empty());
}

#[test]
fn observer_tokens_expire() {
    let mut w = world("observer-expiry");
    send(&mut w, EVE, &format!("OBSERVER {GAME}\n"));
    let token = token_in(&reply_to(&w, EVE));
    let late = now() + TimeDelta::days(3) + TimeDelta::minutes(1);
    let confirm = format!("OBSERVER {GAME} CONFIRMER {token}\n");
    assert_eq!(send_at(&mut w, EVE, &confirm, late), 0);
    assert!(flat(&reply_to(&w, EVE).body).contains("ou elle a expiré"));
    assert!(w.game(GAME).observers().is_empty());
}

#[test]
fn the_moderator_can_forbid_observers_by_mail_and_command_line() {
    let mut w = world("observers-forbidden");
    send(&mut w, EVE, &format!("OBSERVER {GAME}\n"));
    let token = token_in(&reply_to(&w, EVE));
    send(&mut w, EVE, &format!("OBSERVER {GAME} CONFIRMER {token}\n"));
    send(&mut w, MALLORY, &format!("OBSERVER {GAME}\n"));
    w.take();
    assert_eq!(w.game(GAME).observers().len(), 1);
    assert_eq!(w.game(GAME).observer_requests().len(), 1);
    send(
        &mut w,
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nOBSERVATEURS non\n"),
    );
    let text = flat(&reply_to(&w, MODERATOR).body);
    assert!(
        text.contains("✓ Les observateurs sont interdits dans cette partie (1 ne reçoivent plus"),
        "{text}"
    );
    let game = w.game(GAME);
    assert!(!game.settings().observers);
    assert!(game.observers().is_empty() && game.observer_requests().is_empty());
    assert_eq!(send(&mut w, MALLORY, &format!("OBSERVER {GAME}\n")), 0);
    assert!(flat(&reply_to(&w, MALLORY).body).contains("n'accepte pas d'observateurs"));
    // Not a player's command.
    send(
        &mut w,
        STARK,
        &format!("{}OBSERVATEURS oui\n", sign_on("Stark", STARK_SECRET)),
    );
    assert!(flat(&reply_to(&w, STARK).body).contains("commande du modérateur"));
    assert!(!w.game(GAME).settings().observers);
    // The command line's `game observers` is the same action.
    let game = w.allow_observers(GAME, now());
    assert!(game.settings().observers);
    assert!(
        w.audit(GAME).contains("observers allowed"),
        "{}",
        w.audit(GAME)
    );
}

#[test]
fn an_observer_leaves_only_from_the_observed_address_with_one_check() {
    let mut w = world("unobserve");
    send(&mut w, EVE, &format!("OBSERVER {GAME}\n"));
    let token = token_in(&reply_to(&w, EVE));
    send(&mut w, EVE, &format!("OBSERVER {GAME} CONFIRMER {token}\n"));
    let reply = reply_to(&w, EVE);
    let secret = reply
        .body
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("Pour arrêter : NE PLUS OBSERVER {GAME} "))
        })
        .unwrap()
        .to_string();
    let leave = format!("NE PLUS OBSERVER {GAME} {secret}\n");
    assert_eq!(send(&mut w, MALLORY, &leave), 0);
    assert_eq!(w.game(GAME).observers().len(), 1);
    let twice = format!("NE PLUS OBSERVER {GAME} faux\n{leave}");
    assert!(send(&mut w, EVE, &twice) <= 1);
    assert_eq!(w.game(GAME).observers().len(), 1);
    assert_eq!(send(&mut w, EVE, &leave), 1);
    assert!(w.game(GAME).observers().is_empty());
}
