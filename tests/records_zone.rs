//! Players' records across the judge's games, and a player's own time zone, through the
//! binary as a mail server drives it (`corbeau ingest`, then `corbeau tick` at each
//! deadline; the clock fixed): the judge counts the phases each address owed and
//! ordered when it processes them, once however often a pass runs; anyone reads them in
//! `WHOGAME` (no address), a player their own with `RECORD`, the moderator in every
//! notice of a seat taken; an open game's minimum refuses a `JOIN` below it before any
//! token goes out, and a forger's `JOIN` in someone's name changes no record. A player's
//! `SET ZONE` moves every deadline of their mails into their zone, the game's beside it.
//! The mails are golden files in French and English (tests/golden/records/;
//! CORBEAU_BLESS=1 rewrites them).

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use support::judge::{Clocked, body_of, root, run};
use support::{assert_golden, flat};

const NOW: &str = "2026-03-23T08:00:00Z";
const GAME: &str = "bilan";
const OPEN: &str = "ouverte";
const MODERATOR: &str = "mod@example.org";
const ENGLAND: &str = "england@example.org";
const FRANCE: &str = "france@example.org";
const ENGLAND_SECRET: &str = "brume-du-nord-7";
const FRANCE_SECRET: &str = "coq-gaulois-42";
const STRANGER: &str = "curious@example.net";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

support::judge::clocked_judge!(Judge);

impl Judge {
    /// A running classic game of seven: England orders, France (read in French) and the
    /// others never do; no pictures, so that the mails are their text.
    fn new(name: &str) -> Judge {
        let j = Judge(Clocked::new(root(&format!("records-{name}"), ""), t0()));
        j.ok(&[
            "game",
            "new",
            GAME,
            "--variant",
            "classique",
            "--players",
            "7",
            "--moderator",
            MODERATOR,
            "--game-lang",
            "en",
            "--movement",
            "2d",
            "--retreat",
            "1d",
            "--adjustment",
            "1d",
            "--at",
            "none",
            "--reminders",
            "none",
        ]);
        j.seat_players(
            GAME,
            &[
                ("england", ENGLAND, ENGLAND_SECRET, "en"),
                ("france", FRANCE, FRANCE_SECRET, "fr"),
                ("germany", "germany@example.org", "aigle-noir-33", "en"),
                ("austria", "austria@example.org", "danube-bleu-8", "en"),
                ("italy", "italy@example.org", "botte-verte-9", "en"),
                ("russia", "russia@example.org", "ours-blanc-10", "en"),
                ("turkey", "turkey@example.org", "croissant-11", "en"),
            ],
        );
        j.ok(&["game", "pictures", GAME, "non"]);
        j.ok(&["game", "start", GAME]);
        j
    }

    /// Sends a mail; the body of its one answer.
    fn send(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        body_of(&replies[0])
    }

    /// The deadline of the game being played.
    fn deadline(&self, game: &str) -> DateTime<Utc> {
        self.show(game)["deadline"]
            .as_str()
            .map(|d| DateTime::parse_from_rfc3339(d).unwrap().with_timezone(&Utc))
            .unwrap_or_else(|| panic!("no deadline: {}", self.show(game)))
    }

    /// A pass of the judge just after the current deadline: the phase is processed.
    fn past_deadline(&mut self) {
        let deadline = self.deadline(GAME);
        self.tick(deadline + TimeDelta::minutes(1));
    }

    /// England's orders for the phase being played: its units hold.
    fn england_orders(&mut self) {
        let reply = self.send(
            ENGLAND,
            &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nF lon H\nF edi H\nA lvp H\n"),
        );
        assert!(reply.contains('✓'), "{reply}");
    }

    /// Two movement phases played: England ordered both, the others none (France, two
    /// missed in a row, falls into civil disorder at the second).
    fn two_phases(name: &str) -> Judge {
        let mut j = Judge::new(name);
        j.england_orders();
        j.past_deadline();
        j.england_orders();
        j.past_deadline();
        j
    }

    /// The mails to `to` that answer no mail, bodies only, read once.
    fn news_of(&self, to: &str) -> Vec<String> {
        self.news(to).iter().map(|m| body_of(m)).collect()
    }
}

/// The text of an answer up to its footer.
fn text(body: &str) -> String {
    let end = body.find("\n--").unwrap_or(body.len());
    body[..end].to_string()
}

/// The line a request's answer gives to confirm it, if any.
fn confirmation(body: &str) -> Option<String> {
    support::world::confirmation_line(body)
}

#[test]
fn each_phase_is_counted_once_for_the_address_that_owed_it() {
    let mut j = Judge::two_phases("counted");
    let english = j.send(ENGLAND, "RECORD\n");
    assert!(
        flat(&english).contains("100% reliable: 2 of 2 phase(s) ordered"),
        "{english}"
    );
    let french = j.send(FRANCE, "FIABILITÉ\n");
    assert!(
        flat(&french).contains("fiabilité 0 % : ordres donnés à 0 phase(s) sur 2"),
        "{french}"
    );
    assert!(flat(&french).contains("1 désordre(s) civil(s)"), "{french}");
    assert_golden("records/record-en.txt", &text(&english));
    assert_golden("records/record-fr.txt", &text(&french));
    // A pass run again at the same time (a tick killed and run again) counts nothing more.
    let at = j.at;
    j.tick(at);
    j.tick(at);
    assert_eq!(text(&j.send(ENGLAND, "RECORD\n")), text(&english));
    // A newcomer has nothing against them.
    let newcomer = j.send(STRANGER, "RECORD\n");
    assert!(flat(&newcomer).contains("new on this judge"), "{newcomer}");
}

#[test]
fn records_survive_a_restart_of_the_store() {
    let mut j = Judge::two_phases("restart");
    // Every command opens the store anew: a game made and shown in between changes
    // nothing of what was counted.
    j.ok(&["game", "new", "autre", "--players", "3"]);
    let english = j.send(ENGLAND, "RECORD\n");
    assert!(
        flat(&english).contains("2 of 2 phase(s) ordered"),
        "{english}"
    );
}

#[test]
fn whogame_gives_each_seat_its_record_and_no_address() {
    let mut j = Judge::two_phases("whogame");
    let english = j.send(STRANGER, &format!("WHOGAME {GAME}\n"));
    let french = j.send(STRANGER, &format!("QUI JOUE {GAME}\n"));
    for said in [&english, &french] {
        let records = said
            .split_once("Records")
            .or(said.split_once("Bilans"))
            .unwrap()
            .1;
        assert!(!records.contains("@example"), "{said}");
    }
    assert!(english.contains("100% reliable"), "{english}");
    assert!(french.contains("fiabilité 0 %"), "{french}");
    assert_golden("records/whogame-en.txt", &text(&english));
    assert_golden("records/whogame-fr.txt", &text(&french));
}

/// An open game of three asking a reliability of 50%, its moderator's secret.
fn open_game(j: &mut Judge) {
    let created: serde_json::Value = serde_json::from_str(&j.ok(&[
        "game",
        "new",
        OPEN,
        "--players",
        "3",
        "--moderator",
        MODERATOR,
        "--game-lang",
        "en",
        "--open",
        "--json",
    ]))
    .unwrap();
    let secret = created["moderator_secret"].as_str().unwrap().to_string();
    let set = j.send(
        MODERATOR,
        &format!("MODERATOR {OPEN} {secret}\nSET MIN RELIABILITY 50%\n"),
    );
    assert!(flat(&set).contains("0% → 50%"), "{set}");
}

#[test]
fn a_join_below_the_minimum_is_refused_before_any_token_with_the_figure() {
    let mut j = Judge::two_phases("minimum");
    open_game(&mut j);
    let english = j.send(FRANCE, &format!("JOIN {OPEN}\n"));
    let french = j.send(FRANCE, &format!("REJOINDRE {OPEN}\n"));
    for said in [&english, &french] {
        assert!(
            confirmation(said).is_none(),
            "no token below the minimum: {said}"
        );
        assert!(
            flat(said).contains("50") && flat(said).contains(" 0"),
            "{said}"
        );
    }
    assert_golden("records/join-refused-en.txt", &text(&english));
    assert_golden("records/join-refused-fr.txt", &text(&french));
    // The owner of a good record, and a newcomer, are welcome.
    let asked = j.send(ENGLAND, &format!("JOIN {OPEN}\n"));
    let line = confirmation(&asked).unwrap_or_else(|| panic!("{asked}"));
    let seated = j.send(ENGLAND, &line);
    assert!(seated.contains('✓'), "{seated}");
    let asked = j.send(STRANGER, &format!("JOIN {OPEN}\n"));
    assert!(confirmation(&asked).is_some(), "{asked}");
    // The game's setting is the moderator's, on the command line too.
    j.ok(&["game", "set", OPEN, "--min-reliability", "0"]);
    let asked = j.send(FRANCE, &format!("JOIN {OPEN}\n"));
    assert!(confirmation(&asked).is_some(), "{asked}");
    let out = run(
        &mut j.command(&["game", "set", OPEN, "--min-reliability", "120"]),
        "",
    );
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn the_moderator_reads_the_record_in_the_notice_of_a_seat_taken() {
    let mut j = Judge::two_phases("notice");
    open_game(&mut j);
    j.news_of(MODERATOR);
    let asked = j.send(ENGLAND, &format!("JOIN {OPEN}\n"));
    let line = confirmation(&asked).unwrap();
    j.send(ENGLAND, &line);
    let at = j.at;
    j.tick(at);
    let news = j.news_of(MODERATOR);
    let notice = news
        .iter()
        .find(|m| m.contains("took"))
        .unwrap_or_else(|| panic!("{news:?}"));
    assert!(flat(notice).contains("100% reliable: 2 of 2"), "{notice}");
    assert_golden("records/join-notice-en.txt", &text(notice));
}

#[test]
fn a_forged_join_in_someones_name_changes_no_record_and_the_owner_still_joins() {
    let mut j = Judge::two_phases("forger");
    open_game(&mut j);
    let before = text(&j.send(ENGLAND, "RECORD\n"));
    // The forger writes as England, again and again, and never confirms; the token of
    // its first request reaches England's mailbox, not the forger.
    let first = j.post(ENGLAND, &format!("JOIN {OPEN}\n"));
    let token_mail = body_of(&first[0]);
    for _ in 0..3 {
        j.post(ENGLAND, &format!("JOIN {OPEN}\nTAKEOVER {OPEN} France\n"));
    }
    let at = j.at;
    j.tick(at);
    assert_eq!(text(&j.send(ENGLAND, "RECORD\n")), before);
    // France's low record is not England's to lend: a JOIN in England's name from
    // France's mailbox is still France's.
    let refused = j.send(FRANCE, &format!("JOIN {OPEN}\n"));
    assert!(confirmation(&refused).is_none(), "{refused}");
    // The owner confirms with the token their mailbox received.
    let line = confirmation(&token_mail).unwrap_or_else(|| panic!("{token_mail}"));
    assert!(j.send(ENGLAND, &line).contains('✓'));
}

#[test]
fn set_zone_moves_every_deadline_of_the_players_mails_and_names_the_games() {
    let mut j = Judge::new("zone");
    let unknown = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nSET ZONE Mars/Olympus\n"),
    );
    assert!(
        flat(&unknown).contains("“Mars/Olympus” is no time zone"),
        "{unknown}"
    );
    let set = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nSET ZONE America/New_York\n"),
    );
    assert!(set.contains("America/New_York"), "{set}");
    // The answers to England from now on.
    let status = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nSTATUS\n"),
    );
    assert!(
        status.contains("(America/New_York; ") && status.contains("Europe/Paris, the game's time"),
        "{status}"
    );
    // The moderator sets France's from the command line; France reads in French.
    j.ok(&["player", "set", GAME, "france", "--zone", "Asia/Tokyo"]);
    let out = run(
        &mut j.command(&["player", "set", GAME, "france", "--zone", "Nowhere/City"]),
        "",
    );
    assert_ne!(out.status.code(), Some(0));
    j.news_of(ENGLAND);
    j.news_of(FRANCE);
    j.news_of("germany@example.org");
    j.england_orders();
    j.past_deadline();
    let english = j.news_of(ENGLAND);
    let french = j.news_of(FRANCE);
    let german = j.news_of("germany@example.org");
    let results = |mails: &[String]| mails.iter().find(|m| m.contains("1901")).cloned().unwrap();
    let (english, french, german) = (results(&english), results(&french), results(&german));
    assert!(english.contains("(America/New_York; "), "{english}");
    assert!(french.contains("(Asia/Tokyo ; "), "{french}");
    assert!(
        !german.contains("America/New_York") && german.contains("(Europe/Paris)"),
        "{german}"
    );
    assert_golden("records/results-zone-en.txt", &english);
    assert_golden("records/results-zone-fr.txt", &french);
    // Back to the game's zone.
    let back = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nSET ZONE game\nSTATUS\n"),
    );
    assert!(!back.contains("America/New_York;"), "{back}");
}
