//! The mail dispatcher (src/mail/dispatch.rs) at library level: mails given as `Inbound`
//! values (or raw RFC 5322 text through `maildir::ingest_one`) to
//! `corbeau::mail::dispatch::handle`, then the store's outbox and the game looked at.
//! Sign-on, every player and moderator command, press under every setting, and the
//! mails that are not answered or only half read. The rendered mails themselves are
//! golden files: tests/golden/mail/ (CORBEAU_BLESS=1 rewrites them; review the diff).

#![allow(clippy::unwrap_used)]

mod support;

use std::path::PathBuf;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::game::{
    Game, GameStatus, Moderator, NewGame, NoticeKind, Press, Settings, hash_secret,
};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::{Handled, handle};
use corbeau::mail::inbound::Inbound;
use corbeau::mail::maildir::ingest_one;
use corbeau::mail::notify::queue_notices;
use corbeau::mail::outmail::OutMail;
use corbeau::service::Service;

use support::assert_golden;

const GAME: &str = "westeros-1";
const JUDGE: &str = "juge@corbeau.test";
const STARK: &str = "arya@nord.test";
const LANNISTER: &str = "tyrion@roc.test";
const BARATHEON: &str = "stannis@peyredragon.test";
const MODERATOR: &str = "mestre@citadelle.test";
const STRANGER: &str = "inconnu@ailleurs.test";
const STARK_SECRET: &str = "loup-d1re";
const LANNISTER_SECRET: &str = "Lion-0r!";
const BARATHEON_SECRET: &str = "cerf-n01r";
const MODERATOR_SECRET: &str = "m0d-s3cret";

/// Monday 23 March 2026, 09:00 in Paris: every test's clock.
fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A judge with its own store, a fixed clock and the outbox read mail by mail.
struct World {
    service: Service,
    config: Config,
    dir: PathBuf,
    sent: u32,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl World {
    fn new(name: &str) -> World {
        let dir =
            std::env::temp_dir().join(format!("corbeau-dispatch-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = Config {
            data_dir: dir.clone(),
            ..Config::default()
        };
        config.judge.address = JUDGE.into();
        World {
            service: Service::open(&dir).unwrap(),
            config,
            dir,
            sent: 0,
        }
    }

    /// A judge with the game `westeros-1` (three players, a moderator) already running.
    fn running(name: &str, press: Press) -> World {
        let w = World::new(name);
        w.create(GAME, press, true);
        w
    }

    /// Creates a game of three seated players (Lannister plays in English); `start`
    /// starts it.
    fn create(&self, id: &str, press: Press, start: bool) {
        let settings = Settings {
            press,
            ..Settings::default()
        };
        let new = NewGame {
            id: id.into(),
            name: Some("La Guerre des Cinq Rois".into()),
            variant: "westeros".into(),
            players: 3,
            settings,
            moderator: Some(Moderator {
                address: MODERATOR.into(),
                secret: hash_secret(MODERATOR_SECRET).unwrap(),
            }),
        };
        self.service.create(new, "test", now()).unwrap();
        self.service
            .shape_for_tests(id, "test", "seed", now(), |game, variant, _| {
                let players = [
                    ("stark", STARK, STARK_SECRET, Lang::Fr),
                    ("lannister", LANNISTER, LANNISTER_SECRET, Lang::En),
                    ("baratheon", BARATHEON, BARATHEON_SECRET, Lang::Fr),
                ];
                for (house, address, secret, lang) in players {
                    game.add_player(house, address, hash_secret(secret)?, lang, now())?;
                }
                if start {
                    game.start(variant, now())?;
                }
                Ok(())
            })
            .unwrap();
    }

    fn inbound(&mut self, from: &str, body: &str) -> Inbound {
        self.sent += 1;
        Inbound {
            message_id: format!("{}.test@{}", self.sent, from.replace('@', ".")),
            from: from.into(),
            name: None,
            subject: "ordres".into(),
            references: Vec::new(),
            body: body.into(),
            attachments: Vec::new(),
            size: body.len() + 300,
            too_large: false,
            automatic: false,
            ..Inbound::default()
        }
    }

    /// Carries out a mail from `from` at `now()`.
    fn send(&mut self, from: &str, body: &str) -> Handled {
        let mail = self.inbound(from, body);
        self.handle(&mail, now())
    }

    fn handle(&self, mail: &Inbound, at: DateTime<Utc>) -> Handled {
        handle(&self.service, &self.config, mail, at).unwrap()
    }

    /// The mails queued since the last look (taken out of the outbox, as a transport
    /// would).
    fn take(&self) -> Vec<OutMail> {
        let mut mails = Vec::new();
        for (key, mail) in self.service.outbox().unwrap() {
            self.service.outbox_sent(key).unwrap();
            mails.push(OutMail::open(&mail));
        }
        mails
    }

    /// The one reply among the mails taken, to `to`.
    fn reply_to(&self, to: &str) -> OutMail {
        let mails = self.take();
        one_reply(&mails, to)
    }

    /// Queued notices to mails, then taken.
    fn notices(&self, at: DateTime<Utc>) -> Vec<OutMail> {
        queue_notices(&self.service, &self.config, at).unwrap();
        self.take()
    }

    fn game(&self) -> Game {
        self.service.load(GAME).unwrap()
    }

    fn audit(&self) -> String {
        support::audit_text(&self.service.audit_trail(GAME).unwrap())
    }

    fn notice_kinds(&self) -> Vec<NoticeKind> {
        self.service
            .pending_notices()
            .unwrap()
            .into_iter()
            .map(|(_, n)| n.kind)
            .collect()
    }
}

fn replies<'a>(mails: &'a [OutMail], to: &str) -> Vec<&'a OutMail> {
    mails
        .iter()
        .filter(|m| m.to == to && m.subject.starts_with("Re:"))
        .collect()
}

fn one_reply(mails: &[OutMail], to: &str) -> OutMail {
    let found = replies(mails, to);
    assert_eq!(found.len(), 1, "replies to {to}: {}", show(mails));
    found[0].clone()
}

fn show(mails: &[OutMail]) -> String {
    mails
        .iter()
        .map(|m| format!("--- to {}\nSubject: {}\n{}\n", m.to, m.subject, m.body))
        .collect()
}

/// A mail as a golden file shows it: who it goes to, its subject, its body.
fn rendered(mail: &OutMail) -> String {
    format!(
        "To: {}\nSubject: {}\n\n{}",
        mail.to, mail.subject, mail.body
    )
}

/// The text with every run of blanks (line breaks of wrapped lines too) made one space.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn seat_ready(game: &Game, house: &str) -> bool {
    game.seat(house).unwrap().ready
}

fn orders_of(game: &Game, house: &str) -> Vec<String> {
    game.seat(house)
        .unwrap()
        .orders
        .iter()
        .map(|o| o.order.text.clone())
        .collect()
}

fn sign_on(house: &str, secret: &str) -> String {
    format!("PARTIE {GAME} {house} {secret}\n")
}

fn stark() -> String {
    sign_on("Stark", STARK_SECRET)
}

fn moderator() -> String {
    format!("MODERATEUR {GAME} {MODERATOR_SECRET}\n")
}

/// The secret of a welcome mail.
fn secret_in(welcome: &OutMail) -> String {
    welcome
        .body
        .lines()
        .find_map(|l| {
            l.strip_prefix("Votre secret : ")
                .or_else(|| l.strip_prefix("Your secret: "))
        })
        .unwrap_or_else(|| panic!("no secret in {}", welcome.body))
        .trim()
        .to_string()
}

// =========================================================================== sign-on

#[test]
fn sign_on_from_another_address_answers_the_sender_and_copies_the_registered_address() {
    let mut w = World::running("other-address", Press::Full);
    w.send("arya@voyage.test", &format!("{}PRET\n", stark()));
    let mails = w.take();
    let here = one_reply(&mails, "arya@voyage.test");
    let home = one_reply(&mails, STARK);
    assert_eq!(here.body, home.body);
    assert_ne!(here.message_id, home.message_id);
    assert!(
        here.body.contains("✓ Identifié(e) : Stark"),
        "{}",
        here.body
    );
    assert_eq!(mails.len(), 2, "{}", show(&mails));
    assert!(seat_ready(&w.game(), "stark"));
}

#[test]
fn sign_on_from_the_registered_address_is_answered_once() {
    let mut w = World::running("same-address", Press::Full);
    w.send(STARK, &format!("{}PRET\n", stark()));
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert_eq!(reply.to, STARK);
    assert_eq!(reply.game.as_deref(), Some(GAME));
    assert_eq!(reply.in_reply_to.as_deref(), Some("1.test@arya.nord.test"));
}

#[test]
fn a_wrong_secret_is_refused_changes_nothing_and_is_audited() {
    let mut w = World::running("wrong-secret", Press::Full);
    let before = w.game();
    w.send(
        STARK,
        &format!("PARTIE {GAME} Stark pas-le-bon\nA win -> roc\nPRET\nETAT\nHISTORIQUE\n"),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("maison ou secret incorrect"),
        "{}",
        reply.body
    );
    // The order and the commands after it are refused for the same reason.
    assert_eq!(reply.body.matches("maison ou secret incorrect").count(), 5);
    assert!(!reply.body.contains("pas-le-bon"), "{}", reply.body);
    assert!(!reply.body.contains("Date limite"), "{}", reply.body);
    let after = w.game();
    assert_eq!(orders_of(&after, "stark"), Vec::<String>::new());
    assert!(!seat_ready(&after, "stark"));
    assert_eq!(before.seats, after.seats);
    let audit = w.audit();
    assert!(
        audit.contains("refused sign-on as Stark from arya@nord.test"),
        "{audit}"
    );
}

#[test]
fn a_known_player_is_answered_in_their_language_before_signing_on() {
    let mut w = World::running("known-player-lang", Press::Full);
    // Lannister plays in English; French keywords and a wrong secret still get English.
    w.send(
        LANNISTER,
        &format!(
            "PARTIE {GAME} Lannister faux
PRET
"
        ),
    );
    let reply = w.reply_to(LANNISTER);
    assert!(
        reply.body.contains("wrong house or secret"),
        "{}",
        reply.body
    );
}

#[test]
fn a_wrong_house_reads_like_a_wrong_secret() {
    let mut w = World::running("wrong-house", Press::Full);
    w.send(
        STARK,
        &format!("PARTIE {GAME} Lannister {STARK_SECRET}\nPRET\n"),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("maison ou secret incorrect"),
        "{}",
        reply.body
    );
    w.send(
        STARK,
        &format!("PARTIE {GAME} Dorne {STARK_SECRET}\nPRET\n"),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("maison ou secret incorrect"),
        "{}",
        reply.body
    );
    assert!(!seat_ready(&w.game(), "lannister"));
}

#[test]
fn a_game_id_in_capitals_is_found() {
    let mut w = World::running("capitals", Press::Full);
    w.send(
        STARK,
        &format!("PARTIE WESTEROS-1 Stark {STARK_SECRET}\nPRET\n"),
    );
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✓ Identifié(e)"), "{}", reply.body);
    assert!(seat_ready(&w.game(), "stark"));
}

#[test]
fn commands_without_sign_on_are_refused() {
    let mut w = World::running("no-sign-on", Press::Full);
    w.send(STARK, "PRET\nA win -> roc\n");
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("il faut d'abord s'identifier"),
        "{}",
        reply.body
    );
    assert!(!seat_ready(&w.game(), "stark"));
}

// =========================================================================== moderator

#[test]
fn a_wrong_moderator_secret_is_refused_and_audited() {
    let mut w = World::new("moderator-wrong");
    w.create(GAME, Press::Full, false);
    w.send(MODERATOR, &format!("MODERATEUR {GAME} devine\nDEMARRER\n"));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply
            .body
            .contains("secret du modérateur incorrect pour la partie westeros-1"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().status, GameStatus::Forming);
    assert!(
        w.audit().contains("refused moderator sign-on"),
        "{}",
        w.audit()
    );
    assert!(w.notice_kinds().is_empty());
}

#[test]
fn the_moderator_starts_a_game() {
    let mut w = World::new("moderator-start");
    w.create(GAME, Press::Full, false);
    w.send(MODERATOR, &format!("{}DEMARRER\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply.body.contains("✓ Identifié(e) comme modérateur"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Partie commencée"), "{}", reply.body);
    assert_eq!(w.game().status, GameStatus::Running);
    assert_eq!(w.notice_kinds(), vec![NoticeKind::Started]);
    let started = w.notices(now());
    // Three players and the moderator.
    assert_eq!(started.len(), 4, "{}", show(&started));
    // Starting again is refused with the game's reason.
    w.send(MODERATOR, &format!("{}DEMARRER\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply.body.contains("✗ impossible (commencer)"),
        "{}",
        reply.body
    );
}

#[test]
fn a_player_secret_does_not_make_a_moderator() {
    let mut w = World::new("player-not-moderator");
    w.create(GAME, Press::Full, false);
    w.send(STARK, &format!("{}DEMARRER\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("commande du modérateur"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().status, GameStatus::Forming);
}

#[test]
fn process_with_the_current_phase_processes_it() {
    let mut w = World::running("process", Press::Full);
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✓ Phase traitée"), "{}", reply.body);
    let game = w.game();
    assert_eq!(game.played, 1);
    assert_eq!(game.phase.to_string(), "autumn 298 movement");
    assert_eq!(w.service.history(GAME).unwrap().len(), 1);
    let results = w.notices(now());
    assert_eq!(results.len(), 4, "{}", show(&results));
}

#[test]
fn process_with_another_phase_does_nothing_and_says_so() {
    let mut w = World::running("process-wrong", Press::Full);
    w.send(
        MODERATOR,
        &format!("{}TRAITER automne 298 mouvements\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(
        flat(&reply.body).contains(
            "la phase en cours est « printemps 298 mouvements », pas « automne 298 mouvements » : rien n'a été fait"
        ),
        "{}",
        reply.body
    );
    assert_eq!(w.game().played, 0);
    assert!(w.service.history(GAME).unwrap().is_empty());
    assert!(w.notice_kinds().is_empty());
}

#[test]
fn a_second_process_in_one_mail_is_refused() {
    let mut w = World::running("process-twice", Press::Full);
    w.send(
        MODERATOR,
        &format!(
            "{}TRAITER printemps 298 mouvements\nTRAITER automne 298 mouvements\n",
            moderator()
        ),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply
            .body
            .contains("une seule phase traitée ou annulée par message"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().played, 1);
}

#[test]
fn preview_shows_the_results_and_stores_nothing() {
    let mut w = World::running("preview", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.take();
    let before = w.game();
    w.send(MODERATOR, &format!("{}APERCU\n", moderator()));
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert!(
        reply.body.contains("Aperçu (rien n'est enregistré)"),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Winterfell (win) -> Les Roches"),
        "{}",
        reply.body
    );
    let after = w.game();
    assert_eq!(after.played, 0);
    assert_eq!(after.phase, before.phase);
    assert_eq!(after.seats, before.seats);
    assert!(w.service.history(GAME).unwrap().is_empty());
    assert!(w.notice_kinds().is_empty());
}

#[test]
fn pause_and_resume() {
    let mut w = World::running("pause", Press::Full);
    w.send(MODERATOR, &format!("{}PAUSE\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✓ Partie en pause."), "{}", reply.body);
    assert_eq!(w.game().status, GameStatus::Paused);
    // Orders are still taken while paused.
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ 1 ligne(s) d'ordres"),
        "{}",
        reply.body
    );
    let later = now() + TimeDelta::hours(5);
    let mail = w.inbound(MODERATOR, &format!("{}REPRENDRE\n", moderator()));
    w.handle(&mail, later);
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✓ Partie reprise"), "{}", reply.body);
    let game = w.game();
    assert_eq!(game.status, GameStatus::Running);
    assert_eq!(
        w.notice_kinds(),
        vec![NoticeKind::Paused, NoticeKind::Resumed]
    );
    // The five hours of pause are given back.
    assert_eq!(
        game.deadline.unwrap().to_rfc3339(),
        "2026-03-26T00:00:00+00:00"
    );
}

#[test]
fn extend_moves_the_deadline_and_a_bad_span_is_refused() {
    let mut w = World::running("extend", Press::Full);
    let before = w.game().deadline.unwrap();
    w.send(MODERATOR, &format!("{}PROLONGER 2j\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply.body.contains("✓ Date limite repoussée"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().deadline.unwrap(), before + TimeDelta::days(2));
    assert!(matches!(
        w.notice_kinds().as_slice(),
        [NoticeKind::DeadlineChanged { .. }]
    ));
    w.send(MODERATOR, &format!("{}PROLONGER 2 semaines\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(
        !reply.body.contains("✓ Date limite repoussée"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().deadline.unwrap(), before + TimeDelta::days(2));
    // More than the game allows in total (3 days) is refused too.
    w.send(MODERATOR, &format!("{}PROLONGER 2j\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert_eq!(w.game().deadline.unwrap(), before + TimeDelta::days(2));
}

#[test]
fn rollback_needs_the_last_phase_named() {
    let mut w = World::running("rollback", Press::Full);
    w.send(
        MODERATOR,
        &format!("{}ANNULER printemps 298 mouvements\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("aucune phase jouée"), "{}", reply.body);
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    w.notices(now());
    // The guard names the phase to undo, not the one being played.
    w.send(
        MODERATOR,
        &format!("{}ANNULER automne 298 mouvements\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(reply.body.contains("rien n'a été fait"), "{}", reply.body);
    assert_eq!(w.game().played, 1);
    w.send(
        MODERATOR,
        &format!("{}ANNULER printemps 298 mouvements\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply.body.contains("✓ Dernière phase annulée"),
        "{}",
        reply.body
    );
    let game = w.game();
    assert_eq!(game.played, 0);
    assert_eq!(game.phase.to_string(), "spring 298 movement");
    assert!(w.service.history(GAME).unwrap().is_empty());
    assert!(matches!(
        w.notice_kinds().as_slice(),
        [NoticeKind::RolledBack { .. }]
    ));
}

#[test]
fn add_and_replace_send_a_welcome_whose_secret_works() {
    let mut w = World::new("seat");
    let new = NewGame {
        id: GAME.into(),
        name: None,
        variant: "westeros".into(),
        players: 3,
        settings: Settings::default(),
        moderator: Some(Moderator {
            address: MODERATOR.into(),
            secret: hash_secret(MODERATOR_SECRET).unwrap(),
        }),
    };
    w.service.create(new, "test", now()).unwrap();
    w.send(
        MODERATOR,
        &format!(
            "{}AJOUTER Stark {STARK}\nAJOUTER JOUEUR Lannister {LANNISTER} en\nAJOUTER Baratheon {BARATHEON}\nDEMARRER\n",
            moderator()
        ),
    );
    let mails = w.take();
    let reply = one_reply(&mails, MODERATOR);
    assert_eq!(reply.body.matches("son secret lui a été envoyé").count(), 3);
    assert!(reply.body.contains("✓ Partie commencée"), "{}", reply.body);
    let welcome = |to: &str| {
        mails
            .iter()
            .find(|m| m.to == to && !m.subject.starts_with("Re:"))
            .unwrap()
            .clone()
    };
    let stark_welcome = welcome(STARK);
    assert!(
        stark_welcome
            .subject
            .contains("Bienvenue : vous jouez Stark"),
        "{}",
        stark_welcome.subject
    );
    assert!(welcome(LANNISTER).subject.contains("Welcome"));
    let secret = secret_in(&stark_welcome);
    w.send(STARK, &format!("PARTIE {GAME} Stark {secret}\nPRET\n"));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ Identifié(e) : Stark"),
        "{}",
        reply.body
    );

    // A replacement: the old secret stops working, the new one works.
    w.send(
        MODERATOR,
        &format!("{}REMPLACER Stark sansa@nord.test\n", moderator()),
    );
    let mails = w.take();
    let reply = one_reply(&mails, MODERATOR);
    assert!(
        reply.body.contains("✓ Stark confié à sansa@nord.test"),
        "{}",
        reply.body
    );
    let new_secret = secret_in(mails.iter().find(|m| m.to == "sansa@nord.test").unwrap());
    w.send(STARK, &format!("PARTIE {GAME} Stark {secret}\nPRET\n"));
    assert!(
        w.reply_to(STARK)
            .body
            .contains("maison ou secret incorrect")
    );
    w.send(
        "sansa@nord.test",
        &format!("PARTIE {GAME} Stark {new_secret}\nPAS PRET\n"),
    );
    let reply = w.reply_to("sansa@nord.test");
    assert!(reply.body.contains("✓ Plus prêt"), "{}", reply.body);
    assert!(
        w.notice_kinds()
            .iter()
            .any(|k| matches!(k, NoticeKind::PlayerReplaced { .. }))
    );
    // A seat already taken: the moderator is told to replace, in mail words.
    w.send(
        MODERATOR,
        &format!("{}AJOUTER Stark bran@nord.test\n", moderator()),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(!reply.body.contains("player replace"), "{}", reply.body);
}

#[test]
fn remove_leaves_the_house_without_a_player() {
    let mut w = World::running("remove", Press::Full);
    w.send(MODERATOR, &format!("{}RETIRER Baratheon\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✓ Joueur retiré."), "{}", reply.body);
    assert!(w.game().seat("baratheon").unwrap().player.is_none());
    w.send(
        BARATHEON,
        &format!("{}PRET\n", sign_on("Baratheon", BARATHEON_SECRET)),
    );
    assert!(
        w.reply_to(BARATHEON)
            .body
            .contains("maison ou secret incorrect")
    );
}

#[test]
fn end_game_draw_ends_it() {
    let mut w = World::running("end-draw", Press::Full);
    w.send(MODERATOR, &format!("{}TERMINER NUL\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply
            .body
            .contains("✓ Partie terminée : match nul entre Stark, Lannister et Baratheon."),
        "{}",
        reply.body
    );
    let game = w.game();
    assert_eq!(game.status, GameStatus::Finished);
    assert_eq!(w.notice_kinds(), vec![NoticeKind::GameOver]);
    let over = w.notices(now());
    assert_eq!(over.len(), 4, "{}", show(&over));
    // Nothing more to order.
    w.send(STARK, &format!("{}A win H\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✗"), "{}", reply.body);
}

// =========================================================================== orders

#[test]
fn orders_then_partial_orders_replace_what_they_name() {
    let mut w = World::running("orders", Press::Full);
    w.send(
        STARK,
        &format!("{}ORDRES\nA win -> roc\nA moa H\nF bla H\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ 3 ligne(s) d'ordres"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("Unités sans ordre"), "{}", reply.body);
    w.send(
        STARK,
        &format!("{}ORDRES PARTIELS\nA moa -> gri\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ 1 ligne(s) d'ordres"),
        "{}",
        reply.body
    );
    let mut orders = orders_of(&w.game(), "stark");
    orders.sort();
    assert_eq!(orders, vec!["A moa -> gri", "A win -> roc", "F bla H"]);
    // A full set again replaces everything.
    w.send(STARK, &format!("{}ORDRES\nA win H\n", stark()));
    w.take();
    assert_eq!(orders_of(&w.game(), "stark"), vec!["A win H"]);
}

#[test]
fn an_unreadable_line_refuses_the_whole_set() {
    let mut w = World::running("orders-refused", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\nA moa H\n", stark()));
    w.take();
    w.send(
        STARK,
        &format!(
            "{}A win -> Port-Réel\nA moa tient\nA bla bla bla\nF bla H\n",
            stark()
        ),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("✗ Ordres refusés, aucun n'a été enregistré"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("Port-Réel"), "{}", reply.body);
    // The set before stays as it was.
    assert_eq!(
        orders_of(&w.game(), "stark"),
        vec!["A win -> roc", "A moa H"]
    );
    assert_golden("mail/reply-orders-refused-fr.txt", &rendered(&reply));
}

#[test]
fn prose_after_the_orders_is_set_aside_and_the_orders_kept() {
    let mut w = World::running("thanks", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}A win -> roc\nA moa H\nMerci !\nBonne journée à tous\n",
            stark()
        ),
    );
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("> Merci !"), "{}", reply.body);
    assert_eq!(reply.body.matches("(ignoré").count(), 2, "{}", reply.body);
    assert!(!reply.body.contains("Ordres refusés"), "{}", reply.body);
    assert!(
        reply.body.contains("✓ 2 ligne(s) d'ordres"),
        "{}",
        reply.body
    );
    assert_eq!(
        orders_of(&w.game(), "stark"),
        vec!["A win -> roc", "A moa H"]
    );
}

#[test]
fn a_greeting_before_the_sign_on_is_set_aside() {
    let mut w = World::running("greeting", Press::Full);
    w.send(
        STARK,
        &format!("Bonjour le corbeau,\n{}A win -> roc\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("> Bonjour le corbeau,"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("(ignoré"), "{}", reply.body);
    assert!(!reply.body.contains("il faut d'abord"), "{}", reply.body);
    assert_eq!(orders_of(&w.game(), "stark"), vec!["A win -> roc"]);
}

#[test]
fn ready_and_not_ready() {
    let mut w = World::running("ready", Press::Full);
    w.send(STARK, &format!("{}PRET\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✓ Prêt"), "{}", reply.body);
    assert!(seat_ready(&w.game(), "stark"));
    w.send(STARK, &format!("{}PAS PRET\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✓ Plus prêt."), "{}", reply.body);
    assert!(!seat_ready(&w.game(), "stark"));
}

#[test]
fn status_shows_the_phase_the_deadline_and_every_house() {
    let mut w = World::running("status", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.send(
        BARATHEON,
        &format!("{}PRET\n", sign_on("Baratheon", BARATHEON_SECRET)),
    );
    w.take();
    w.send(STARK, &format!("{}ETAT\n", stark()));
    let reply = w.reply_to(STARK);
    let body = &reply.body;
    assert!(body.contains("printemps 298, mouvements"), "{body}");
    assert!(body.contains("Date limite : mercredi 25 mars"), "{body}");
    assert!(body.contains("Stark        ordres reçus"), "{body}");
    assert!(body.contains("Baratheon    prêt"), "{body}");
    assert!(body.contains("Lannister    en attente"), "{body}");
    // The moderator may ask too.
    w.send(MODERATOR, &format!("{}ETAT\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply.body.contains("Lannister    en attente"),
        "{}",
        reply.body
    );
}

#[test]
fn list_needs_no_sign_on() {
    let mut w = World::running("list", Press::Full);
    w.create("westeros-2", Press::None, false);
    w.send(STRANGER, "LISTE\n");
    let reply = w.reply_to(STRANGER);
    assert!(reply.body.contains("westeros-1"), "{}", reply.body);
    assert!(reply.body.contains("westeros-2"), "{}", reply.body);
    assert!(reply.body.contains("en cours"), "{}", reply.body);
    for address in [STARK, LANNISTER, BARATHEON, MODERATOR] {
        assert!(!reply.body.contains(address), "{}", reply.body);
    }
}

#[test]
fn history_of_the_last_phase_a_named_phase_and_an_unknown_one() {
    let mut w = World::running("history", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    w.send(STARK, &format!("{}HISTORIQUE\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("résultats : printemps 298, mouvements"),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Winterfell (win) -> Les Roches"),
        "{}",
        reply.body
    );
    w.send(
        STARK,
        &format!("{}HISTORIQUE printemps 298 mouvements\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("résultats : printemps 298, mouvements"),
        "{}",
        reply.body
    );
    w.send(
        STARK,
        &format!("{}HISTORIQUE automne 305 mouvements\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("aucune phase jouée ne s'appelle « automne 305 mouvements »"),
        "{}",
        reply.body
    );
    w.send(STARK, &format!("{}HISTORIQUE hier soir\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✗"), "{}", reply.body);
}

#[test]
fn draw_votes_and_concession() {
    let mut w = World::running("votes", Press::Full);
    w.send(STARK, &format!("{}NUL\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ Vote enregistré : nulle."),
        "{}",
        reply.body
    );
    w.send(STARK, &format!("{}PAS NUL\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("vote retiré"), "{}", reply.body);
    assert_eq!(w.game().seat("stark").unwrap().vote, None);
    w.send(STARK, &format!("{}CONCEDER Lannister\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("concession à Lannister"),
        "{}",
        reply.body
    );
    w.send(STARK, &format!("{}CONCEDER Stark\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✗"), "{}", reply.body);
    // Everyone votes the draw: the game ends.
    w.send(STARK, &format!("{}NUL\n", stark()));
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nDRAW\n"),
    );
    w.send(
        BARATHEON,
        &format!("{}NUL\n", sign_on("Baratheon", BARATHEON_SECRET)),
    );
    let mails = w.take();
    let last = one_reply(&mails, BARATHEON);
    assert!(last.body.contains("✓ Vote enregistré"), "{}", last.body);
    assert_eq!(w.game().status, GameStatus::Finished);
    assert_eq!(w.notice_kinds(), vec![NoticeKind::GameOver]);
}

#[test]
fn resign_puts_the_house_in_civil_disorder() {
    let mut w = World::running("resign", Press::Full);
    w.send(STARK, &format!("{}ABANDONNER\nPRET\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ Vous avez quitté la partie"),
        "{}",
        reply.body
    );
    // Nothing after the resignation is done for the house.
    assert!(
        reply.body.contains("il faut d'abord s'identifier"),
        "{}",
        reply.body
    );
    let game = w.game();
    let seat = game.seat("stark").unwrap();
    assert!(seat.resigned && seat.civil_disorder && !seat.ready);
    assert!(matches!(
        w.notice_kinds().as_slice(),
        [NoticeKind::Resigned { house }] if house == "stark"
    ));
    let told = w.notices(now());
    // The two other players and the moderator; not the one who left.
    assert_eq!(told.len(), 3, "{}", show(&told));
    assert!(told.iter().all(|m| m.to != STARK));
    assert!(told[0].body.contains("Stark"), "{}", told[0].body);
    w.send(STARK, &format!("{}PRET\n", stark()));
    assert!(
        w.reply_to(STARK)
            .body
            .contains("maison ou secret incorrect")
    );
}

#[test]
fn a_new_address_is_told_to_the_old_one() {
    let mut w = World::running("address", Press::Full);
    w.send(STARK, &format!("{}ADRESSE arya@braavos.test\n", stark()));
    let mails = w.take();
    let old = one_reply(&mails, STARK);
    assert!(
        old.body
            .contains("✓ Nouvelle adresse enregistrée : arya@braavos.test"),
        "{}",
        old.body
    );
    // The reply goes to the sender, the old address; the new one gets nothing yet.
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let game = w.game();
    assert_eq!(
        game.seat("stark").unwrap().player.as_ref().unwrap().address,
        "arya@braavos.test"
    );
    // An address another house plays from is refused.
    w.send(STARK, &format!("{}ADRESSE {LANNISTER}\n", stark()));
    let mails = w.take();
    let reply = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(
        w.audit()
            .contains("address arya@nord.test -> arya@braavos.test")
    );
}

#[test]
fn an_absence_moves_a_deadline_inside_it() {
    let mut w = World::running("absence", Press::Full);
    let before = w.game().deadline.unwrap();
    w.send(
        STARK,
        &format!("{}ABSENCE du 2026-03-25 au 2026-03-27 20:00\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("✓ Absence enregistrée"),
        "{}",
        reply.body
    );
    let game = w.game();
    assert_eq!(game.seat("stark").unwrap().absences.len(), 1);
    assert!(game.deadline.unwrap() > before);
    w.send(
        STARK,
        &format!("{}ABSENCE du 2026-03-20 au 2026-03-21\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✗ absence invalide"), "{}", reply.body);
}

#[test]
fn language_en_answers_in_english_from_then_on() {
    let mut w = World::running("language", Press::Full);
    w.send(STARK, &format!("{}LANGUE en\nPRET\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("✓ The judge will now write to you in English."),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Ready"), "{}", reply.body);
    assert_eq!(
        w.game()
            .seat("stark")
            .unwrap()
            .player
            .as_ref()
            .unwrap()
            .lang,
        Lang::En
    );
    // A later mail in French keywords is still answered in English.
    w.send(STARK, &format!("{}ETAT\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.starts_with(":: corbeau: reply"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("Hello,"), "{}", reply.body);
    assert!(reply.body.contains("Deadline:"), "{}", reply.body);
    // And so are the notices.
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    let results = w.notices(now());
    let to_stark = results.iter().find(|m| m.to == STARK).unwrap();
    assert!(to_stark.subject.contains("Results"), "{}", to_stark.subject);
    assert!(to_stark.body.contains(":: lang: en"));
}

/// `OBSERVER` from `address`, confirmed with the token its answer holds; returns the
/// secret that stops it.
fn observe(w: &mut World, address: &str) -> String {
    w.send(address, &format!("OBSERVER {GAME}\n"));
    let asked = w.reply_to(address);
    let confirm = format!("OBSERVER {GAME} CONFIRMER ");
    let token = asked
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix(&confirm))
        .unwrap_or_else(|| panic!("no token in {}", asked.body))
        .to_string();
    w.send(address, &format!("{confirm}{token}\n"));
    let reply = w.reply_to(address);
    assert!(
        reply.body.contains("✓ Vous recevrez les résultats"),
        "{}",
        reply.body
    );
    reply
        .body
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("Pour arrêter : NE PLUS OBSERVER {GAME} "))
        })
        .unwrap()
        .to_string()
}

#[test]
fn observers_get_the_results_until_they_stop() {
    let mut w = World::running("observe", Press::Full);
    let secret = observe(&mut w, STRANGER);
    assert_eq!(w.game().observers.len(), 1);
    w.send(STRANGER, &format!("OBSERVER {GAME}\n"));
    assert!(w.reply_to(STRANGER).body.contains("reçoit déjà"));

    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    w.take();
    let results = w.notices(now());
    assert_eq!(results.len(), 5, "{}", show(&results));
    let seen = results.iter().find(|m| m.to == STRANGER).unwrap();
    assert!(seen.subject.contains("Résultats"), "{}", seen.subject);

    w.send(STRANGER, &format!("NE PLUS OBSERVER {GAME} mauvais\n"));
    let reply = w.reply_to(STRANGER);
    assert!(
        reply
            .body
            .contains("✗ ce secret n'est celui d'aucun observateur"),
        "{}",
        reply.body
    );
    assert_eq!(w.game().observers.len(), 1);
    w.send(STRANGER, &format!("NE PLUS OBSERVER {GAME} {secret}\n"));
    let reply = w.reply_to(STRANGER);
    assert!(
        reply.body.contains("✓ Vous ne recevrez plus"),
        "{}",
        reply.body
    );
    assert!(w.game().observers.is_empty());
}

// =========================================================================== press

/// What one press header does under one setting, from Stark.
fn press_case(setting: Press, header: &str) -> (Vec<OutMail>, OutMail) {
    let name = format!("press-{setting:?}-{}", header.replace(' ', "_")).to_lowercase();
    let mut w = World::running(&name, setting);
    w.send(
        STARK,
        &format!("{}{header}\nL'hiver vient.\nFIN PRESSE\nPRET\n", stark()),
    );
    let mails = w.take();
    let reply = one_reply(&mails, STARK);
    // Whatever the press, the rest of the mail is carried out.
    assert!(seat_ready(&w.game(), "stark"), "{name}: {}", reply.body);
    let press = mails
        .into_iter()
        .filter(|m| !m.subject.starts_with("Re:"))
        .collect();
    (press, reply)
}

#[test]
fn press_is_passed_on_as_the_setting_allows() {
    use Press::*;
    // (setting, header, allowed, recipients)
    let cases: [(Press, &str, bool, &[&str]); 16] = [
        (Full, "PRESSE A Lannister", true, &[LANNISTER, MODERATOR]),
        (Full, "DIFFUSION", true, &[LANNISTER, BARATHEON, MODERATOR]),
        (Full, "PRESSE GRISE A Lannister", false, &[]),
        (Full, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (Broadcast, "PRESSE A Lannister", false, &[]),
        (
            Broadcast,
            "DIFFUSION",
            true,
            &[LANNISTER, BARATHEON, MODERATOR],
        ),
        (Broadcast, "PRESSE GRISE A Lannister", false, &[]),
        (Broadcast, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (Grey, "PRESSE A Lannister", true, &[LANNISTER, MODERATOR]),
        (Grey, "DIFFUSION", true, &[LANNISTER, BARATHEON, MODERATOR]),
        (
            Grey,
            "PRESSE GRISE A Lannister",
            true,
            &[LANNISTER, MODERATOR],
        ),
        (Grey, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
        (None, "PRESSE A Lannister", false, &[]),
        (None, "DIFFUSION", false, &[]),
        (None, "PRESSE GRISE A Lannister", false, &[]),
        (None, "PRESSE AU MODERATEUR", true, &[MODERATOR]),
    ];
    for (setting, header, allowed, recipients) in cases {
        let case = format!("{setting:?} / {header}");
        let (press, reply) = press_case(setting, header);
        let mut to: Vec<&str> = press.iter().map(|m| m.to.as_str()).collect();
        to.sort_unstable();
        let mut expected = recipients.to_vec();
        expected.sort_unstable();
        assert_eq!(to, expected, "{case}: {}", show(&press));
        if allowed {
            assert!(
                reply.body.contains("✓ Message transmis"),
                "{case}: {}",
                reply.body
            );
        } else {
            assert!(
                !reply.body.contains("Message transmis"),
                "{case}: {}",
                reply.body
            );
            assert!(
                reply.body.contains("✗ la presse de cette partie est")
                    || reply
                        .body
                        .contains("✗ cette partie n'autorise pas la presse anonyme"),
                "{case}: {}",
                reply.body
            );
        }
        for m in &press {
            assert!(m.body.contains("L'hiver vient."), "{case}: {}", m.body);
            assert!(
                !m.body.contains(STARK),
                "{case}: the sender's address: {}",
                m.body
            );
            assert!(!m.subject.contains(STARK), "{case}: {}", m.subject);
            assert_eq!(m.game.as_deref(), Some(GAME));
            let grey = header.contains("GRISE");
            // The houses read the sender's house unless grey; the moderator always.
            if m.to == MODERATOR || !grey {
                assert!(m.body.contains("Stark"), "{case}: {}", m.body);
            } else {
                assert!(!m.body.contains("Stark"), "{case}: {}", m.body);
            }
        }
    }
}

#[test]
fn grey_press_hides_the_sender_but_not_from_the_moderator() {
    let mut w = World::running("grey", Press::Grey);
    w.send(
        STARK,
        &format!(
            "{}DIFFUSION GRISE\nQuelqu'un ment dans le Val.\nFIN DIFFUSION\n",
            stark()
        ),
    );
    let mails = w.take();
    let to_lannister = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(
        !to_lannister.body.contains("Stark"),
        "{}",
        to_lannister.body
    );
    assert!(
        to_lannister
            .body
            .contains("Anonymous message to every house"),
        "{}",
        to_lannister.body
    );
    let to_moderator = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        to_moderator
            .body
            .contains("Message anonyme (de Stark, que seul le modérateur voit)"),
        "{}",
        to_moderator.body
    );
    assert!(!to_moderator.body.contains(STARK));
}

#[test]
fn the_moderator_writes_to_houses_under_any_setting() {
    let mut w = World::running("moderator-press", Press::None);
    w.send(
        MODERATOR,
        &format!(
            "{}PRESSE A Stark\nVos ordres, s'il vous plaît.\nFIN PRESSE\n",
            moderator()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        press.body.contains("Message du modérateur à Stark"),
        "{}",
        press.body
    );
    assert!(!press.body.contains(MODERATOR));
    assert!(
        one_reply(&mails, MODERATOR)
            .body
            .contains("✓ Message transmis (1 destinataire")
    );
    assert_eq!(mails.len(), 2, "{}", show(&mails));
}

#[test]
fn press_without_an_end_marker_is_refused() {
    let mut w = World::running("press-no-end", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister\nLe Nord se souvient.\nPRET\n",
            stark()
        ),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    let reply = &mails[0];
    assert!(reply.body.contains("✗"), "{}", reply.body);
    assert!(reply.body.contains("FIN PRESSE"), "{}", reply.body);
    // The rest of the mail was the unended text: PRET was not read.
    assert!(!seat_ready(&w.game(), "stark"));
}

#[test]
fn press_to_a_house_out_of_the_game_is_refused() {
    let mut w = World::running("press-unknown", Press::Full);
    // A close misspelling is a house (as everywhere a house is named).
    w.send(
        STARK,
        &format!("{}PRESSE A Lanister\nBonjour.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    assert!(mails.iter().any(|m| m.to == LANNISTER), "{}", show(&mails));
    for (header, why) in [
        (
            "PRESSE A Martell",
            "la maison martell ne joue pas dans cette partie",
        ),
        ("PRESSE A Personne", "maison inconnue « Personne »"),
        ("PRESSE A Stark", "personne à qui transmettre ce message"),
    ] {
        w.send(
            STARK,
            &format!("{}{header}\nBonjour.\nFIN PRESSE\n", stark()),
        );
        let mails = w.take();
        assert_eq!(mails.len(), 1, "{header}: {}", show(&mails));
        assert!(
            flat(&mails[0].body).contains(why),
            "{header}: {}",
            mails[0].body
        );
    }
}

// =========================================================================== odd mails

#[test]
fn a_second_game_in_one_mail_is_refused() {
    let mut w = World::running("two-games", Press::Full);
    w.create("westeros-2", Press::Full, true);
    w.send(
        STARK,
        &format!(
            "{}PRET\nPARTIE westeros-2 Stark {STARK_SECRET}\nPRET\n",
            stark()
        ),
    );
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("un message ne concerne qu'une partie (westeros-1)"),
        "{}",
        reply.body
    );
    assert!(seat_ready(&w.game(), "stark"));
    let other = w.service.load("westeros-2").unwrap();
    assert!(!seat_ready(&other, "stark"));
}

#[test]
fn an_unknown_game_gets_the_nearest_id() {
    let mut w = World::running("unknown-game", Press::Full);
    w.send(
        STARK,
        &format!("PARTIE westeros1 Stark {STARK_SECRET}\nPRET\n"),
    );
    let reply = w.reply_to(STARK);
    // The word in the game's place names no game: it may be a secret typed first, so it
    // is hidden; the nearest game id says what was meant.
    assert!(
        reply
            .body
            .contains("aucune partie « ******** » (vouliez-vous dire « westeros-1 » ?)"),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("westeros-1"), "{}", reply.body);
    // A mail reply points to a mail command, not to the command line.
    assert!(!reply.body.contains("corbeau game list"), "{}", reply.body);
    assert!(!seat_ready(&w.game(), "stark"));
}

#[test]
fn the_same_message_twice_acts_once() {
    let mut w = World::running("duplicate", Press::Full);
    let mail = w.inbound(STARK, &format!("{}A win -> roc\nPRET\n", stark()));
    assert_eq!(
        w.handle(&mail, now()),
        Handled::Answered {
            game: Some(GAME.into())
        }
    );
    assert_eq!(w.take().len(), 1);
    let audit = w.audit();
    assert_eq!(w.handle(&mail, now()), Handled::Duplicate);
    assert!(w.take().is_empty());
    assert_eq!(w.audit(), audit);
    assert_eq!(w.game().submissions.len(), 1);
}

#[test]
fn an_automatic_mail_is_marked_but_not_answered() {
    let mut w = World::running("automatic", Press::Full);
    let mut mail = w.inbound(STARK, "Je suis absente jusqu'au 30 mars.\n");
    mail.automatic = true;
    assert_eq!(w.handle(&mail, now()), Handled::Ignored);
    assert!(w.take().is_empty());
    assert!(w.service.already_seen(&mail.message_id).unwrap());
    assert_eq!(w.handle(&mail, now()), Handled::Duplicate);
}

#[test]
fn an_auto_reply_read_from_raw_mail_is_not_answered() {
    let w = World::running("auto-reply-raw", Press::Full);
    let raw = format!(
        "From: Arya <{STARK}>\r\nTo: {JUDGE}\r\nSubject: Absente\r\nMessage-ID: <vacances@nord.test>\r\n\
         Auto-Submitted: auto-replied\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         {}PRET\r\n",
        stark()
    );
    let handled = ingest_one(&w.service, &w.config, raw.as_bytes(), now()).unwrap();
    assert_eq!(handled, Ok(Handled::Ignored));
    assert!(w.take().is_empty());
    assert!(!seat_ready(&w.game(), "stark"));
}

#[test]
fn a_raw_mail_is_read_and_carried_out() {
    let w = World::running("raw", Press::Full);
    let raw = format!(
        "From: Arya Stark <{STARK}>\r\nTo: Corbeau <{JUDGE}>\r\nSubject: =?utf-8?q?ordres_du_printemps?=\r\n\
         Message-ID: <raw-1@nord.test>\r\nReferences: <earlier@corbeau.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
         {}A win -> roc\r\nPRÊT\r\n\r\n> :: corbeau: reply\r\n> A moa -> gri\r\n-- \r\nArya\r\n",
        stark()
    );
    let handled = ingest_one(&w.service, &w.config, raw.as_bytes(), now()).unwrap();
    assert_eq!(
        handled,
        Ok(Handled::Answered {
            game: Some(GAME.into())
        })
    );
    let reply = w.reply_to(STARK);
    assert_eq!(reply.subject, "Re: ordres du printemps");
    assert_eq!(reply.in_reply_to.as_deref(), Some("raw-1@nord.test"));
    assert_eq!(
        reply.references,
        vec!["earlier@corbeau.test", "raw-1@nord.test"]
    );
    assert_eq!(orders_of(&w.game(), "stark"), vec!["A win -> roc"]);
    assert!(seat_ready(&w.game(), "stark"));
}

#[test]
fn a_mail_too_large_is_refused_politely() {
    let mut w = World::running("too-large", Press::Full);
    let mut mail = w.inbound(STARK, "");
    mail.too_large = true;
    mail.size = 300 * 1024;
    w.handle(&mail, now());
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("votre message fait 300 Kio, plus que les 256 Kio que le juge lit"),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("aucune commande"), "{}", reply.body);
    assert!(w.service.already_seen(&mail.message_id).unwrap());
}

#[test]
fn attachments_are_named_and_ignored() {
    let mut w = World::running("attachments", Press::Full);
    let mut mail = w.inbound(STARK, &format!("{}PRET\n", stark()));
    mail.attachments = vec!["ordres.txt".into(), "carte.png".into()];
    w.handle(&mail, now());
    let reply = w.reply_to(STARK);
    assert!(
        reply
            .body
            .contains("Pièce(s) jointe(s) ignorée(s) : ordres.txt, carte.png."),
        "{}",
        reply.body
    );
    assert!(seat_ready(&w.game(), "stark"));
}

#[test]
fn an_empty_mail_gets_a_hint() {
    let mut w = World::new("empty");
    w.send(STRANGER, "");
    let reply = w.reply_to(STRANGER);
    assert!(
        flat(&reply.body).contains("Ce message ne contenait aucune commande. Écrivez AIDE"),
        "{}",
        reply.body
    );
    assert!(reply.game.is_none());
}

// =========================================================================== golden mails

#[test]
fn golden_reply_in_french_with_an_illegal_order_and_missing_units() {
    let mut w = World::running("golden-fr", Press::Full);
    w.send(
        STARK,
        &format!("{}A win -> Port-Réal\nF bla -> lst\n", stark()),
    );
    let reply = w.reply_to(STARK);
    assert_golden("mail/reply-orders-fr.txt", &rendered(&reply));
}

#[test]
fn golden_reply_in_english_with_an_illegal_order_and_missing_units() {
    let mut w = World::running("golden-en", Press::Full);
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nA pie -> win\nF lan H\nREADY\n"),
    );
    let reply = w.reply_to(LANNISTER);
    assert_golden("mail/reply-orders-en.txt", &rendered(&reply));
}

#[test]
fn golden_press() {
    let mut w = World::running("golden-press", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister, Baratheon\nCousins,\n\nl'hiver vient. Laissez passer mon armée.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == BARATHEON).unwrap();
    assert_golden("mail/press-fr.txt", &rendered(press));
    let press = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert_golden("mail/press-en.txt", &rendered(press));
}

#[test]
fn golden_welcome() {
    let mut w = World::new("golden-welcome");
    let new = NewGame {
        id: GAME.into(),
        name: Some("La Guerre des Cinq Rois".into()),
        variant: "westeros".into(),
        players: 3,
        settings: Settings::default(),
        moderator: Some(Moderator {
            address: MODERATOR.into(),
            secret: hash_secret(MODERATOR_SECRET).unwrap(),
        }),
    };
    w.service.create(new, "test", now()).unwrap();
    w.send(
        MODERATOR,
        &format!(
            "{}AJOUTER Stark {STARK}\nAJOUTER Lannister {LANNISTER} en\n",
            moderator()
        ),
    );
    let mails = w.take();
    for (to, name) in [(STARK, "welcome-fr"), (LANNISTER, "welcome-en")] {
        let welcome = mails
            .iter()
            .find(|m| m.to == to && !m.subject.starts_with("Re:"))
            .unwrap();
        let secret = secret_in(welcome);
        let text = rendered(welcome).replace(&secret, "<secret>");
        assert_golden(&format!("mail/{name}.txt"), &text);
    }
    assert_golden(
        "mail/reply-moderator-added.txt",
        &rendered(&one_reply(&mails, MODERATOR)),
    );
}

#[test]
fn golden_notices() {
    let mut w = World::new("golden-notices");
    w.create(GAME, Press::Full, false);
    w.send(MODERATOR, &format!("{}DEMARRER\n", moderator()));
    w.take();
    let started = w.notices(now());
    let to = |mails: &[OutMail], to: &str| mails.iter().find(|m| m.to == to).unwrap().clone();
    assert_golden(
        "mail/notice-started-fr.txt",
        &rendered(&to(&started, STARK)),
    );
    assert_golden(
        "mail/notice-started-en.txt",
        &rendered(&to(&started, LANNISTER)),
    );

    // A day before the deadline, the houses without orders are reminded.
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.take();
    let eve = DateTime::parse_from_rfc3339("2026-03-24T20:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let report = w.service.tick(eve).unwrap();
    assert_eq!(report.reminders.len(), 1, "{report:?}");
    let reminders = w.notices(eve);
    let mut to_whom: Vec<&str> = reminders.iter().map(|m| m.to.as_str()).collect();
    to_whom.sort_unstable();
    assert_eq!(to_whom, vec![BARATHEON, LANNISTER]);
    assert_golden(
        "mail/notice-reminder-fr.txt",
        &rendered(&to(&reminders, BARATHEON)),
    );
    assert_golden(
        "mail/notice-reminder-en.txt",
        &rendered(&to(&reminders, LANNISTER)),
    );

    w.send(MODERATOR, &format!("{}TERMINER NUL\n", moderator()));
    w.take();
    let over = w.notices(eve);
    assert_golden("mail/notice-game-over-fr.txt", &rendered(&to(&over, STARK)));
    assert_golden(
        "mail/notice-game-over-en.txt",
        &rendered(&to(&over, LANNISTER)),
    );
}

#[test]
fn golden_results() {
    let mut w = World::running("golden-results", Press::Full);
    w.send(
        STARK,
        &format!("{}A win -> roc\nA moa -> gri\nF bla H\n", stark()),
    );
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nA pie -> ner\nF lan H\nA mfm H\n"),
    );
    w.send(
        MODERATOR,
        &format!("{}TRAITER printemps 298 mouvements\n", moderator()),
    );
    let mails = w.take();
    assert_golden(
        "mail/reply-moderator-processed.txt",
        &rendered(&one_reply(&mails, MODERATOR)),
    );
    let results = w.notices(now());
    let to = |to: &str| results.iter().find(|m| m.to == to).unwrap().clone();
    assert_golden("mail/results-fr.txt", &rendered(&to(STARK)));
    assert_golden("mail/results-en.txt", &rendered(&to(LANNISTER)));
}

#[test]
fn golden_help() {
    let mut w = World::new("golden-help");
    w.send(STRANGER, "AIDE\n");
    assert_golden("mail/reply-help-fr.txt", &rendered(&w.reply_to(STRANGER)));
    w.send(STRANGER, "HELP\n");
    assert_golden("mail/reply-help-en.txt", &rendered(&w.reply_to(STRANGER)));
}

#[test]
fn golden_status_and_refusals() {
    let mut w = World::running("golden-status", Press::Broadcast);
    w.send(STARK, &format!("{}A win -> roc\n", stark()));
    w.take();
    w.send(
        STARK,
        &format!(
            "Salut,\n{}ETAT\nPRESSE A Lannister\nPsst.\nFIN PRESSE\nPROLONGER 2j\nPRET maintenant\n",
            stark()
        ),
    );
    assert_golden("mail/reply-status-fr.txt", &rendered(&w.reply_to(STARK)));
}

// =========================================================================== found while testing

#[test]
fn secrets_are_never_quoted_back() {
    let mut w = World::running("masked", Press::Full);
    let observer_secret = observe(&mut w, STRANGER);
    w.send("arya@voyage.test", &format!("{}PRET\n", stark()));
    w.send(MODERATOR, &format!("{}ETAT\n", moderator()));
    w.send(
        STRANGER,
        &format!("NE PLUS OBSERVER {GAME} {observer_secret}\n"),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 4, "{}", show(&mails));
    for mail in &mails {
        for secret in [STARK_SECRET, MODERATOR_SECRET, observer_secret.as_str()] {
            assert!(!mail.body.contains(secret), "{secret} in {}", mail.body);
        }
    }
    let reply = one_reply(&mails, STARK);
    assert!(
        reply.body.contains("> PARTIE westeros-1 Stark ********\n"),
        "{}",
        reply.body
    );
}

#[test]
fn process_then_rollback_in_one_mail_is_refused() {
    let mut w = World::running("process-rollback", Press::Full);
    w.send(
        MODERATOR,
        &format!(
            "{}TRAITER printemps 298 mouvements\nANNULER printemps 298 mouvements\n",
            moderator()
        ),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("✓ Phase traitée"), "{}", reply.body);
    assert!(
        reply
            .body
            .contains("✗ une seule phase traitée ou annulée par message"),
        "{}",
        reply.body
    );
    let game = w.game();
    assert_eq!(game.played, 1);
    let phases = w.service.history(GAME).unwrap();
    assert_eq!(phases.len(), 1);
    assert_eq!(phases[0].phase.to_string(), "spring 298 movement");
}

#[test]
fn the_moderator_reads_in_the_game_language_and_may_change_it() {
    let mut w = World::running("moderator-lang", Press::Full);
    // Keywords in English, game in French: the moderator's answer is in French.
    w.send(
        MODERATOR,
        &format!("MODERATOR {GAME} {MODERATOR_SECRET}\nSTATUS\n"),
    );
    let reply = w.reply_to(MODERATOR);
    assert!(reply.body.contains("Bonjour,"), "{}", reply.body);
    w.send(MODERATOR, &format!("{}LANGUE en\nPAUSE\n", moderator()));
    let reply = w.reply_to(MODERATOR);
    assert!(
        reply
            .body
            .contains("✓ The judge will now write to you in English."),
        "{}",
        reply.body
    );
    assert!(reply.body.contains("✓ Game paused."), "{}", reply.body);
    assert_eq!(w.game().settings.lang, Lang::En);
    let paused = w.notices(now());
    let to_moderator = paused.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        to_moderator.subject.contains("Game paused"),
        "{}",
        to_moderator.subject
    );
    let to_stark = paused.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        to_stark.subject.contains("Partie en pause"),
        "{}",
        to_stark.subject
    );
    // The moderator's copy of press too.
    w.send(
        STARK,
        &format!("{}PRESSE A Lannister\nPsst.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    let copy = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        copy.subject.contains("Press from Stark"),
        "{}",
        copy.subject
    );
}

#[test]
fn grey_press_to_the_moderator_and_the_moderators_press_are_signed() {
    let mut w = World::running("grey-to-moderator", Press::Grey);
    w.send(
        STARK,
        &format!(
            "{}PRESSE GRISE AU MODERATEUR\nJe me plains.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(
        press.body.contains("Message de Stark au modérateur"),
        "{}",
        press.body
    );
    w.send(
        MODERATOR,
        &format!("{}DIFFUSION GRISE\nSilence.\nFIN DIFFUSION\n", moderator()),
    );
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        press
            .body
            .contains("Message du modérateur à toutes les maisons"),
        "{}",
        press.body
    );
}

#[test]
fn press_that_only_the_moderator_would_read_is_refused() {
    let mut w = World::running("press-nobody", Press::Full);
    w.send(MODERATOR, &format!("{}RETIRER Baratheon\n", moderator()));
    w.take();
    w.send(
        STARK,
        &format!("{}PRESSE A Baratheon\nBonjour.\nFIN PRESSE\n", stark()),
    );
    let mails = w.take();
    assert_eq!(mails.len(), 1, "{}", show(&mails));
    assert!(
        mails[0]
            .body
            .contains("✗ personne à qui transmettre ce message"),
        "{}",
        mails[0].body
    );
    // A house named twice gets one mail.
    w.send(
        STARK,
        &format!(
            "{}PRESSE A Lannister, Lannister\nBonjour.\nFIN PRESSE\n",
            stark()
        ),
    );
    let mails = w.take();
    assert_eq!(mails.iter().filter(|m| m.to == LANNISTER).count(), 1);
    assert!(
        mails
            .iter()
            .any(|m| m.body.contains("Message transmis (2 destinataire(s))"))
    );
}

#[test]
fn a_mail_with_only_the_end_marker_gets_a_hint() {
    let mut w = World::new("only-end");
    w.send(STRANGER, "FIN\nJean, envoyé de mon téléphone\n");
    let reply = w.reply_to(STRANGER);
    assert!(reply.body.contains("aucune commande"), "{}", reply.body);
}

#[test]
fn an_unknown_game_is_still_the_mails_one_game() {
    let mut w = World::running("unknown-then-known", Press::Full);
    w.send(STARK, &format!("OBSERVER westeros-9\n{}PRET\n", stark()));
    let reply = w.reply_to(STARK);
    assert!(
        reply.body.contains("aucune partie « westeros-9 »"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("un message ne concerne qu'une partie (westeros-9)"),
        "{}",
        reply.body
    );
    assert_eq!(
        reply.body.matches("aucune partie").count(),
        1,
        "{}",
        reply.body
    );
    assert!(!seat_ready(&w.game(), "stark"));
}

#[test]
fn golden_moderator_refusals() {
    let mut w = World::running("golden-moderator", Press::Full);
    w.send(
        MODERATOR,
        &format!(
            "{}PROLONGER 2 semaines\nPROLONGER 5j\nTRAITER automne 298 mouvements\n\
             ANNULER printemps 298 mouvements\nAJOUTER Stark bran@nord.test\nRETIRER Martell\n\
             DEMARRER\nPRET\n",
            moderator()
        ),
    );
    assert_golden(
        "mail/reply-moderator-refusals-fr.txt",
        &rendered(&w.reply_to(MODERATOR)),
    );
}

#[test]
fn golden_player_commands() {
    let mut w = World::running("golden-player", Press::Full);
    w.send(
        LANNISTER,
        &format!(
            "SIGNON {GAME} Lannister {LANNISTER_SECRET}\nDRAW\nCONCEDE Lannister\nCONCEDE Stark\n\
             ABSENCE from 2026-03-20 to 2026-03-21\nABSENCE from 2026-03-24 to 2026-03-26 12:00\n\
             HISTORY\nADDRESS pas-une-adresse\nSTART\nRESIGN\nREADY\n"
        ),
    );
    assert_golden(
        "mail/reply-player-commands-en.txt",
        &rendered(&w.reply_to(LANNISTER)),
    );
}

#[test]
fn golden_odd_mails() {
    let mut w = World::running("golden-odd", Press::Full);
    w.create("westeros-2", Press::Full, true);
    w.send(
        STARK,
        &format!(
            "PARTIE westeros2 Stark {STARK_SECRET}\nPARTIE westeros-2 Stark {STARK_SECRET}\nPRET\n"
        ),
    );
    assert_golden(
        "mail/reply-unknown-game-fr.txt",
        &rendered(&w.reply_to(STARK)),
    );
    let mut mail = w.inbound(LANNISTER, "");
    mail.too_large = true;
    mail.size = 3 * 1024 * 1024;
    mail.subject = "my orders, with the map".into();
    w.handle(&mail, now());
    assert_golden(
        "mail/reply-too-large-en.txt",
        &rendered(&w.reply_to(LANNISTER)),
    );
    let mut mail = w.inbound(STRANGER, "");
    mail.subject = String::new();
    mail.attachments = vec!["ordres.txt".into()];
    w.handle(&mail, now());
    assert_golden("mail/reply-empty-fr.txt", &rendered(&w.reply_to(STRANGER)));
}

#[test]
fn orders_on_both_sides_of_a_command_make_one_set() {
    let mut w = World::running("orders-split", Press::Full);
    w.send(
        STARK,
        &format!(
            "{}A win -> roc\nPRESSE A Lannister\nLe Nord se souvient.\nFIN PRESSE\nA moa H\nPRET\nF bla H\n",
            stark()
        ),
    );
    let reply = w.reply_to(STARK);
    let mut orders = orders_of(&w.game(), "stark");
    orders.sort();
    assert_eq!(
        orders,
        vec!["A moa H", "A win -> roc", "F bla H"],
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("Unités sans ordre"), "{}", reply.body);
    // ORDRES again in the same mail starts a new whole set, as written.
    w.send(
        STARK,
        &format!("{}A win H\nETAT\nORDRES\nA moa -> gri\n", stark()),
    );
    w.take();
    assert_eq!(orders_of(&w.game(), "stark"), vec!["A moa -> gri"]);
}

#[test]
fn the_last_ready_lets_the_next_tick_process_the_phase() {
    let mut w = World::running("all-ready", Press::Full);
    w.send(STARK, &format!("{}A win -> roc\nPRET\n", stark()));
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nREADY\n"),
    );
    // Carrying out a mail never processes by itself.
    assert_eq!(w.game().played, 0);
    w.send(
        BARATHEON,
        &format!("{}PRET\n", sign_on("Baratheon", BARATHEON_SECRET)),
    );
    assert_eq!(w.game().played, 0);
    w.take();
    let report = w.service.tick(now()).unwrap();
    assert_eq!(report.processed.len(), 1, "{report:?}");
    let game = w.game();
    assert_eq!(game.played, 1);
    assert_eq!(orders_of(&game, "stark"), Vec::<String>::new());
    let results = w.notices(now());
    assert_eq!(results.len(), 4, "{}", show(&results));
}

#[test]
fn orders_after_the_deadline_are_refused() {
    let mut w = World::running("late", Press::Full);
    let deadline = w.game().deadline.unwrap();
    let mail = w.inbound(STARK, &format!("{}A win -> roc\n", stark()));
    w.handle(&mail, deadline + TimeDelta::minutes(5));
    let reply = w.reply_to(STARK);
    assert!(reply.body.contains("✗ trop tard"), "{}", reply.body);
    assert_eq!(orders_of(&w.game(), "stark"), Vec::<String>::new());
}

#[test]
fn golden_other_notices() {
    let mut w = World::running("golden-other-notices", Press::Full);
    let mut fr = String::new();
    let mut en = String::new();
    let steps = [
        "PAUSE\n",
        "REPRENDRE\n",
        "PROLONGER 1j\n",
        "REMPLACER Baratheon renly@accalmie.test\n",
        "TRAITER printemps 298 mouvements\n",
        "ANNULER printemps 298 mouvements\n",
    ];
    for step in steps {
        w.send(MODERATOR, &format!("{}{step}", moderator()));
        w.take();
        for mail in w.notices(now()) {
            if mail.subject.contains("Résultats") || mail.subject.contains("Results") {
                continue;
            }
            let text = format!("{}\n\n", rendered(&mail));
            match mail.to.as_str() {
                STARK => fr.push_str(&text),
                LANNISTER => en.push_str(&text),
                _ => {}
            }
        }
    }
    w.send(STARK, &format!("{}ABANDONNER\n", stark()));
    w.take();
    for mail in w.notices(now()) {
        let text = format!("{}\n\n", rendered(&mail));
        if mail.to == LANNISTER {
            en.push_str(&text);
        }
    }
    assert_golden("mail/notices-other-fr.txt", &fr);
    assert_golden("mail/notices-other-en.txt", &en);
}
