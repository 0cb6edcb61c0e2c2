//! The moderator's hourly cap on notices (`[mail.caps] moderator_notices_per_hour`,
//! docs/email.md, "Caps"), through the binary as a mail server drives it (`corbeau
//! ingest`, `corbeau tick`; the clock fixed): confirmed `TAKEOVER` requests from thirty
//! addresses in an hour send the moderator at most the cap's notices, then one digest of
//! the rest once the hour is over, in the moderator's language; the moderator's own
//! mail is answered all along, and a real request after the hour is told at once.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta};
use support::judge::{Clocked, body_of, root};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";
const GAME: &str = "siege";
const HOUSES: [&str; 7] = [
    "stark",
    "greyjoy",
    "lannister",
    "baratheon",
    "tyrell",
    "martell",
    "targaryen",
];
/// Lower than the default (10) so that the seven houses a closed game can be asked for
/// pass it.
const CAP: usize = 3;

support::judge::clocked_judge!(Judge);

impl Judge {
    fn new(name: &str, caps: &str) -> Judge {
        let at = DateTime::parse_from_rfc3339(NOW).unwrap().to_utc();
        Judge(Clocked::new(root(&format!("digest-{name}"), caps), at))
    }

    /// Sends a request (`TAKEOVER …`), then the confirmation line its answer carries, from
    /// the same address, as a real asker does (an unconfirmed request tells the moderator
    /// nothing); the answers to the confirmation.
    fn ask(&mut self, from: &str, request: &str) -> Vec<String> {
        let asked = self.post(from, request);
        assert_eq!(asked.len(), 1, "{from}: {asked:?}");
        let line = support::world::confirmation_line(&body_of(&asked[0]))
            .unwrap_or_else(|| panic!("no confirmation line in: {}", asked[0]));
        self.post(from, &format!("{line}\n"))
    }
}

/// A closed game of seven houses, every seat played, moderated by [`MODERATOR`] in
/// `lang`; the moderator's secret.
fn game(j: &Judge, lang: &str) -> String {
    let out = j.ok(&[
        "game",
        "new",
        GAME,
        "--players",
        "7",
        "--moderator",
        MODERATOR,
        "--game-lang",
        lang,
        "--no-pictures",
        "--json",
    ]);
    let created: serde_json::Value = serde_json::from_str(&out).unwrap();
    for house in HOUSES {
        let address = format!("{house}@example.org");
        j.ok(&[
            "player",
            "add",
            GAME,
            house,
            &address,
            "--secret",
            "secret-de-maison-2026",
        ]);
    }
    j.ok(&["game", "start", GAME]);
    created["moderator_secret"].as_str().unwrap().to_string()
}

#[test]
fn thirty_takeovers_in_an_hour_give_the_cap_then_one_digest() {
    for (lang, takeover, moderator, reject, status, asks) in [
        (
            "fr",
            "RELEVER",
            "MODÉRATEUR",
            "REFUSER",
            "ÉTAT",
            "demande à jouer",
        ),
        (
            "en",
            "TAKEOVER",
            "MODERATOR",
            "REJECT",
            "STATUS",
            "asks to play",
        ),
    ] {
        let mut j = Judge::new(
            lang,
            &format!("replies_per_hour = 0\n[mail.caps]\nmoderator_notices_per_hour = {CAP}\n"),
        );
        let secret = game(&j, lang);
        let t0 = j.at;
        j.tick(t0);
        j.news(MODERATOR);
        // Thirty addresses (one pest with thirty mailboxes: an unconfirmed request tells
        // the moderator nothing), one a minute, each asking for a house and confirming:
        // every request waits, and each would be a notice.
        for n in 0..30 {
            j.at = t0 + TimeDelta::minutes(n + 1);
            let forger = format!("forger{n}@evil.test");
            let house = HOUSES[n as usize % HOUSES.len()];
            let answers = j.ask(&forger, &format!("{takeover} {GAME} {house}\n"));
            assert_eq!(answers.len(), 1, "{forger}");
            // The owner's path under the flood: the moderator's own mail is answered,
            // whatever the cap (an answer is no notice).
            if n == 20 {
                let answers = j.post(
                    MODERATOR,
                    &format!("{moderator} {GAME} {secret}\n{status}\n"),
                );
                assert_eq!(answers.len(), 1, "{lang}: the moderator's answer");
                assert!(answers[0].contains("✓"), "{}", answers[0]);
            }
        }
        let during = j.news(MODERATOR);
        assert_eq!(during.len(), CAP, "{lang}: {during:#?}");
        assert!(during.iter().all(|m| m.contains(asks)), "{during:#?}");
        // Before the hour is over: nothing more.
        j.tick(t0 + TimeDelta::minutes(50));
        assert!(
            j.news(MODERATOR).is_empty(),
            "{lang}: a digest before the hour"
        );
        // The hour over (it began with the first notice): one digest of the rest.
        j.tick(t0 + TimeDelta::minutes(62));
        let digest = j.news(MODERATOR);
        assert_eq!(digest.len(), 1, "{lang}: {digest:#?}");
        println!("{}", digest[0]);
        let held = digest[0].lines().filter(|l| l.contains(asks)).count();
        assert_eq!(held, 30 - CAP, "{}", digest[0]);
        let (subject, words) = match lang {
            "fr" => ("annonces retenues", "Plus d'annonces de la partie"),
            _ => ("notices held back", "More notices of game"),
        };
        assert!(digest[0].contains(subject), "{}", digest[0]);
        assert!(digest[0].contains(words), "{}", digest[0]);
        // A later pass tells nothing twice.
        j.tick(t0 + TimeDelta::minutes(64));
        assert!(j.news(MODERATOR).is_empty());
        // After the hour, a real request is told at once: the moderator refuses the
        // pest's requests for Stark, and Stark's own player asks for it from a new
        // address.
        j.at = t0 + TimeDelta::minutes(65);
        let answers = j.post(
            MODERATOR,
            &format!("{moderator} {GAME} {secret}\n{reject} stark\n"),
        );
        assert_eq!(answers.len(), 1);
        j.news(MODERATOR);
        j.at = t0 + TimeDelta::minutes(66);
        let answers = j.ask("ned@winterfell.test", &format!("{takeover} {GAME} stark\n"));
        assert_eq!(answers.len(), 1);
        let after = j.news(MODERATOR);
        assert_eq!(after.len(), 1, "{lang}: {after:#?}");
        assert!(after[0].contains("ned@winterfell.test"), "{}", after[0]);
        assert!(after[0].contains(asks), "{}", after[0]);
    }
}

#[test]
fn without_a_cap_every_request_is_told() {
    let mut j = Judge::new(
        "nocap",
        "replies_per_hour = 0\n[mail.caps]\nmoderator_notices_per_hour = 0\n",
    );
    game(&j, "en");
    let t0 = j.at;
    j.tick(t0);
    j.news(MODERATOR);
    for (n, house) in HOUSES.iter().enumerate() {
        j.at = t0 + TimeDelta::minutes(n as i64 + 1);
        j.ask(
            &format!("asker{n}@example.net"),
            &format!("TAKEOVER {GAME} {house}\n"),
        );
    }
    assert_eq!(j.news(MODERATOR).len(), HOUSES.len());
    j.tick(t0 + TimeDelta::hours(2));
    assert!(j.news(MODERATOR).is_empty(), "no digest without a cap");
}
