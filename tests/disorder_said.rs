//! Civil disorder said as it is, through the binary: the notice to the house's player
//! and the moderator names who plays the house from now on (the bot when the game's
//! setting has it play, else its units holding, never both) and the line that takes it
//! over, in the reader's language; the moderator's mail about a TAKEOVER request gives
//! the house's state; WHOGAME, SUMMARY and the mail that ends the game name the houses
//! the bot plays and the phases it played; and the standby list, joined only with the
//! consent of its address.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};

use support::assert_golden;
use support::judge::{Clocked, body_of, root};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";
const STARK: &str = "stark@example.org";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

support::judge::clocked_judge!(Judge);

impl Judge {
    fn new(name: &str) -> Judge {
        Judge(Clocked::new(root(&format!("disorder-{name}"), ""), t0()))
    }

    /// A closed game of three in `lang`, its players seated by the moderator and the
    /// game started, the bot on or off; the moderator's secret.
    fn closed(&self, lang: &str, bots: bool) -> String {
        let mut args = vec![
            "game",
            "new",
            "fermee",
            "--players",
            "3",
            "--moderator",
            MODERATOR,
            "--game-lang",
            lang,
            "--json",
        ];
        if bots {
            args.push("--bots");
        }
        let created: serde_json::Value = serde_json::from_str(&self.ok(&args)).unwrap();
        for (house, address, secret) in [
            ("stark", STARK, "loup-gris-7"),
            ("lannister", "lannister@example.org", "lion-dor-42"),
            ("baratheon", "baratheon@example.org", "cerf-noir-3"),
        ] {
            self.ok(&[
                "player",
                "add",
                "fermee",
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                lang,
            ]);
        }
        self.ok(&["game", "start", "fermee"]);
        created["moderator_secret"].as_str().unwrap().to_string()
    }

    /// Ticks past deadlines, nobody ordering, until Stark is in civil disorder, then
    /// `more` phases beyond.
    fn nobody_orders(&mut self, more: usize) {
        for _ in 0..6 {
            if self.show("fermee")["seats"][0]["civil_disorder"] == true {
                break;
            }
            self.past_deadline();
        }
        assert_eq!(self.show("fermee")["seats"][0]["civil_disorder"], true);
        for _ in 0..more {
            self.past_deadline();
        }
    }

    fn past_deadline(&mut self) {
        let game = self.show("fermee");
        let deadline: DateTime<Utc> = game["deadline"].as_str().unwrap().parse().unwrap();
        self.tick(deadline + TimeDelta::days(8));
    }

    /// Sends a mail and returns the body of its one answer.
    fn send(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        body_of(&replies[0])
    }

    /// The bodies of the notices of `kind` sent to `to` since the last look.
    fn notices(&self, to: &str, kind: &str) -> Vec<String> {
        self.0
            .news(to)
            .iter()
            .map(|m| body_of(m))
            .filter(|b| b.contains(&format!(":: corbeau: {kind}\n")))
            .collect()
    }
}

#[test]
fn the_civil_disorder_notice_names_the_bot_when_it_plays_and_the_holding_units_when_not() {
    for lang in ["fr", "en"] {
        for bots in [true, false] {
            let mut j = Judge::new(&format!("notice-{lang}-{bots}"));
            j.closed(lang, bots);
            j.nobody_orders(0);
            let to_player = j.notices(STARK, "civil-disorder");
            assert_eq!(to_player.len(), 1, "{to_player:?}");
            let to_moderator = j.notices(MODERATOR, "civil-disorder");
            assert_eq!(to_moderator.len(), 3, "{to_moderator:?}");
            let which = if bots { "bot" } else { "holds" };
            assert_golden(
                &format!("disorder/civil-disorder-{which}-{lang}.txt"),
                &to_player[0],
            );
            let said = &support::flat(&to_player[0]);
            let (bot, hold, takeover) = match lang {
                "fr" => ("le robot du juge joue", "tiennent", "RELEVER fermee stark"),
                _ => (
                    "the judge's bot plays",
                    "units hold",
                    "TAKEOVER fermee stark",
                ),
            };
            // As it is, never both.
            assert_eq!(said.contains(bot), bots, "{said}");
            assert_eq!(said.contains(hold), !bots, "{said}");
            assert!(said.contains(takeover), "{said}");
        }
    }
}

#[test]
fn the_missed_phase_notice_says_the_bot_takes_the_house_when_it_would() {
    for bots in [true, false] {
        let mut j = Judge::new(&format!("missed-{bots}"));
        j.closed("en", bots);
        j.past_deadline();
        let missed = j.notices(STARK, "missed");
        assert_eq!(missed.len(), 1, "{missed:?}");
        let said = support::flat(&missed[0]);
        assert!(said.contains("falls into civil disorder"), "{said}");
        assert_eq!(said.contains("the judge's bot plays it"), bots, "{said}");
    }
}

#[test]
fn a_player_who_leaves_is_told_who_plays_the_house_from_now_on() {
    let mut j = Judge::new("resigned");
    j.closed("en", true);
    let reply = j.send(STARK, "SIGNON fermee stark loup-gris-7\nRESIGN\n");
    assert!(reply.contains('✓'), "{reply}");
    let at = j.at;
    j.tick(at);
    let told = j.notices("lannister@example.org", "resigned");
    assert_eq!(told.len(), 1, "{told:?}");
    let said = support::flat(&told[0]);
    assert!(said.contains("the judge's bot plays Stark"), "{said}");
    assert!(said.contains("TAKEOVER fermee stark"), "{said}");
    assert!(!said.contains("units hold"), "{said}");
}

#[test]
fn the_moderator_reads_the_state_of_a_house_asked_for() {
    for lang in ["fr", "en"] {
        let mut j = Judge::new(&format!("asked-{lang}"));
        j.closed(lang, true);
        // In civil disorder, then played by the bot for one phase.
        j.nobody_orders(1);
        j.0.news(MODERATOR);
        let asker = "robb@jumeaux.test";
        let takeover = if lang == "fr" { "RELEVER" } else { "TAKEOVER" };
        let asked = j.send(asker, &format!("{takeover} fermee stark\n"));
        let line = support::world::confirmation_line(&asked).unwrap();
        j.send(asker, &line);
        let at = j.at;
        j.tick(at);
        let told = j.notices(MODERATOR, "seat-asked");
        assert_eq!(told.len(), 1, "{told:?}");
        assert_golden(&format!("disorder/takeover-asked-{lang}.txt"), &told[0]);
        let state = match lang {
            "fr" => "en désordre civil depuis",
            _ => "in civil disorder since",
        };
        assert!(support::flat(&told[0]).contains(state), "{}", told[0]);
    }
}

#[test]
fn whogame_summary_and_the_end_name_the_bot_and_the_phases_it_played() {
    let mut j = Judge::new("whogame");
    j.closed("en", true);
    j.nobody_orders(2);
    let stranger = "curieux@ailleurs.test";
    let who = j.send(stranger, "WHOGAME fermee\n");
    let stark = who
        .lines()
        .find(|l| l.contains("Stark"))
        .unwrap()
        .to_string();
    assert!(stark.contains("played by the bot"), "{who}");
    assert!(!stark.contains("seated"), "{who}");
    assert!(stark.contains("the bot played 2 phase(s)"), "{who}");
    let summary = j.send(stranger, "SUMMARY fermee\n");
    assert!(
        support::flat(&summary).contains("the bot played: "),
        "{summary}"
    );
    // The game's end says which phases the bot played.
    j.ok(&["game", "end", "fermee", "--draw"]);
    let at = j.at;
    j.tick(at);
    let over = j.notices(STARK, "game-over");
    assert_eq!(over.len(), 1);
    let text = support::flat(&over[0]);
    assert!(text.contains("the bot played: "), "{}", over[0]);
    // With the bot off, nobody is said to be played by it.
    let mut j = Judge::new("whogame-off");
    j.closed("en", false);
    j.nobody_orders(2);
    let who = j.send(stranger, "WHOGAME fermee\n");
    assert!(!who.contains("bot"), "{who}");
}

/// The outbox mails to `to` that answer no mail, their bodies.
fn announcements(j: &Judge, to: &str) -> Vec<String> {
    j.0.news(to)
        .iter()
        .filter(|m| m.contains("Subject: Free houses") || m.contains("Subject: Maisons libres"))
        .map(|m| body_of(m))
        .collect()
}

/// Joins the standby list from `from`: the request, then the line its answer gives.
fn join_standby(j: &mut Judge, from: &str, line: &str) -> String {
    let asked = j.send(from, line);
    let confirm = asked
        .lines()
        .map(str::trim)
        .find(|l| l.contains(" CONFIRM") && !l.starts_with('>'))
        .unwrap_or_else(|| panic!("no confirmation line in: {asked}"))
        .to_string();
    j.send(from, &confirm)
}

#[test]
fn the_standby_list_is_joined_with_consent_and_told_of_free_houses() {
    let mut j = Judge::new("standby");
    let secret = j.closed("en", true);
    j.nobody_orders(0);
    let owner = "willing@veille.test";
    let forger = "forger@ailleurs.test";
    // A forger's flood in the owner's name: each asks, none confirms (the tokens go to
    // the owner's address); a made-up token does nothing.
    let mut flooded = String::new();
    for _ in 0..3 {
        flooded = j.send(owner, "STANDBY ON\n");
        assert!(flooded.contains("STANDBY ON CONFIRM"), "{flooded}");
    }
    assert!(!j.0.news(owner).iter().any(|m| m.contains("standby list:")));
    let forged = j.send(
        "victim@veille.test",
        "STANDBY ON CONFIRM 0000000aaaaaaaaaaaaaaaaaaaa\n",
    );
    assert!(
        !support::flat(&forged).contains("is on the standby list"),
        "{forged}"
    );
    // A token mailed to one address does not confirm another's.
    let asked = j.send(forger, "STANDBY ON\n");
    let token_line = asked
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("STANDBY ON CONFIRM"))
        .unwrap()
        .to_string();
    let stolen = j.send("victim@veille.test", &token_line);
    assert!(
        !support::flat(&stolen).contains("is on the standby list"),
        "{stolen}"
    );
    // The owner's own confirmation works under the flood (with the line any of those
    // answers gave it), in either language.
    let confirm = flooded
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("STANDBY ON CONFIRM"))
        .unwrap()
        .to_string();
    let done = j.send(owner, &confirm);
    assert!(
        support::flat(&done).contains("is on the standby list"),
        "{done}"
    );
    let done = join_standby(&mut j, "volontaire@veille.test", "REMPLAÇANT OUI\n");
    assert!(
        support::flat(&done).contains("est sur la liste des remplaçants"),
        "{done}"
    );
    // The moderator announces: one mail to each address that consented, in its own
    // language, naming the game, the free houses and the line to send; no address but
    // its own in it.
    let reply = j.send(MODERATOR, &format!("MODERATOR fermee {secret}\nANNOUNCE\n"));
    assert!(support::flat(&reply).contains("2 mail(s)"), "{reply}");
    assert!(!reply.contains(owner), "{reply}");
    let to_owner = announcements(&j, owner);
    assert_eq!(to_owner.len(), 1, "{to_owner:?}");
    assert_golden("disorder/standby-announce-en.txt", &to_owner[0]);
    assert!(
        to_owner[0].contains("TAKEOVER fermee stark"),
        "{}",
        to_owner[0]
    );
    let to_french = announcements(&j, "volontaire@veille.test");
    assert_eq!(to_french.len(), 1);
    assert_golden("disorder/standby-announce-fr.txt", &to_french[0]);
    for mail in [&to_owner[0], &to_french[0]] {
        assert!(!mail.contains("@veille.test"), "{mail}");
    }
    assert!(announcements(&j, "victim@veille.test").is_empty());
    assert!(announcements(&j, forger).is_empty());
    // Once a day a game.
    let again = j.send(MODERATOR, &format!("MODERATOR fermee {secret}\nANNOUNCE\n"));
    assert!(
        support::flat(&again).contains("less than 24 hours"),
        "{again}"
    );
    assert!(announcements(&j, owner).is_empty());
    // A stranger cannot announce.
    let stranger = j.send(forger, "ANNOUNCE\n");
    assert!(!stranger.contains("mail(s)"), "{stranger}");
    // Leaving takes the same consent; then no more announcements.
    let left = join_standby(&mut j, owner, "STANDBY OFF\n");
    assert!(
        support::flat(&left).contains("off the standby list"),
        "{left}"
    );
    j.at += TimeDelta::days(2);
    let reply = j.send(MODERATOR, &format!("MODERATOR fermee {secret}\nANNOUNCE\n"));
    assert!(support::flat(&reply).contains("1 mail(s)"), "{reply}");
    assert!(announcements(&j, owner).is_empty());
}
