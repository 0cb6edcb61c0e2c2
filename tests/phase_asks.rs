//! What the coming phase asks of its reader, said at the top of the results mail, the
//! reminder, the welcome and the answer to `PREVIEW`, through the binary as a mail server
//! drives it (`corbeau ingest`, then `corbeau tick` at each deadline; the clock fixed).
//! A classic year: spring moves (the block counts the units to order), Germany dislodges
//! France's army in autumn (the block names its retreats), France ends the year with two
//! builds due and England with one (the block says how many and where), the houses with
//! nothing to decide read so. The mails are golden files in French and English
//! (tests/golden/asks/; CORBEAU_BLESS=1 rewrites them).

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use support::assert_golden;
use support::judge::{Clocked, body_of, root};

const NOW: &str = "2026-03-23T08:00:00Z";
const GAME: &str = "demande";
const MODERATOR: &str = "mod@example.org";
const ENGLAND: &str = "england@example.org";
const FRANCE: &str = "france@example.org";
const GERMANY: &str = "germany@example.org";
const ITALY: &str = "italy@example.org";
const ENGLAND_SECRET: &str = "brume-du-nord-7";
const FRANCE_SECRET: &str = "coq-gaulois-42";
const GERMANY_SECRET: &str = "aigle-noir-33";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

support::judge::clocked_judge!(Judge);

impl Judge {
    /// A classic game of seven, France read in French, the others in English; England
    /// welcomed by mail; no pictures, so that the mails are their text. Not started.
    fn new(name: &str) -> Judge {
        let j = Judge(Clocked::new(root(&format!("asks-{name}"), ""), t0()));
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
            "--movement",
            "2d",
            "--retreat",
            "1d",
            "--adjustment",
            "1d",
            "--at",
            "none",
            "--reminders",
            "12h",
        ]);
        j.ok(&["game", "pictures", GAME, "non"]);
        j.ok(&[
            "player",
            "add",
            GAME,
            "england",
            ENGLAND,
            "--secret",
            ENGLAND_SECRET,
            "--player-lang",
            "en",
            "--welcome",
        ]);
        j.seat_players(
            GAME,
            &[
                ("france", FRANCE, FRANCE_SECRET, "fr"),
                ("germany", GERMANY, GERMANY_SECRET, "en"),
                ("austria", "austria@example.org", "danube-bleu-8", "en"),
                ("italy", ITALY, "botte-verte-9", "en"),
                ("russia", "russia@example.org", "ours-blanc-10", "en"),
                ("turkey", "turkey@example.org", "croissant-11", "en"),
            ],
        );
        j
    }

    /// Sends a mail; the body of its one answer.
    fn send(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        body_of(&replies[0])
    }

    fn deadline(&self) -> DateTime<Utc> {
        let show = self.show(GAME);
        let deadline = show["deadline"]
            .as_str()
            .unwrap_or_else(|| panic!("no deadline: {show}"));
        DateTime::parse_from_rfc3339(deadline)
            .unwrap()
            .with_timezone(&Utc)
    }

    /// A pass of the judge just after the current deadline: the phase is processed and
    /// its notices mailed.
    fn past_deadline(&mut self) {
        let deadline = self.deadline();
        self.tick(deadline + TimeDelta::minutes(1));
    }

    /// A pass of the judge eleven hours before the deadline: the reminders go.
    fn reminders(&mut self) {
        let deadline = self.deadline();
        self.tick(deadline - TimeDelta::hours(11));
    }

    /// The body of the one mail to `to` since the last look that holds `what` (a line of
    /// its `::` header: the kind of notice, or the phase of the results).
    fn news_about(&self, to: &str, what: &str) -> String {
        let news = self.0.news(to);
        let found: Vec<&String> = news.iter().filter(|m| m.contains(what)).collect();
        assert_eq!(
            found.len(),
            1,
            "mails about `{what}` to {to} among {:?}",
            news.iter().map(|m| subject_of(m)).collect::<Vec<_>>()
        );
        body_of(found[0])
    }
}

fn subject_of(mail: &str) -> String {
    mail.lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_mail_of_a_year_says_what_the_coming_phase_asks_of_its_reader() {
    let mut j = Judge::new("year");
    j.ok(&["tick"]);

    // The welcome, before the game starts: its first phase asks England's three units.
    let welcome = j.news_about(ENGLAND, ":: corbeau: welcome");
    assert!(
        welcome.contains("England — spring 1901, movement: you have 3 units to order."),
        "{welcome}"
    );
    assert_golden("asks/welcome-movement-en.txt", &welcome);
    j.ok(&["game", "start", GAME]);

    // Spring: France and Germany move; England sends nothing.
    j.send(
        FRANCE,
        &format!("PARTIE {GAME} France {FRANCE_SECRET}\nA par - bur\nA mar - spa\nF bre - mao\n"),
    );
    j.send(
        GERMANY,
        &format!("SIGNON {GAME} Germany {GERMANY_SECRET}\nA mun - ruh\nA ber - mun\n"),
    );
    j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nF lon - nth\nF edi - nwg\nA lvp - yor\n"),
    );
    j.past_deadline();
    // Nothing dislodged: autumn's moves follow, and each player reads its units to order.
    let france = j.news_about(FRANCE, ":: phase: 1901 spring movement");
    assert!(
        france.contains("France — automne 1901, mouvements : 3 unités attendent vos ordres."),
        "{france}"
    );
    assert_golden("asks/results-movement-fr.txt", &france);
    let england = j.news_about(ENGLAND, ":: phase: 1901 spring movement");
    assert_golden("asks/results-movement-en.txt", &england);
    // The moderator reads the results as they are, with no house's block.
    let moderator = j.news_about(MODERATOR, ":: phase: 1901 spring movement");
    assert!(!moderator.contains("attendent vos ordres"), "{moderator}");

    // Autumn: Germany drives France out of Burgundy; England takes Norway; France Spain.
    j.send(
        GERMANY,
        &format!("SIGNON {GAME} Germany {GERMANY_SECRET}\nA mun - bur\nA ruh S A mun - bur\n"),
    );
    j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nF nth - nwy\nF nwg H\nA yor H\n"),
    );
    j.send(
        FRANCE,
        &format!("PARTIE {GAME} France {FRANCE_SECRET}\nA bur tient\nA spa tient\nF mao tient\n"),
    );
    j.past_deadline();
    assert_eq!(j.show(GAME)["phase"]["kind"], "retreat");
    // France reads where its army may go; England that it has nothing to do.
    let france = j.news_about(FRANCE, ":: phase: 1901 autumn movement");
    assert!(
        france.contains("A Bourgogne doit retraiter :") && france.contains("ou se dissoudre."),
        "{france}"
    );
    assert_golden("asks/results-retreat-fr.txt", &france);
    let england = j.news_about(ENGLAND, ":: phase: 1901 autumn movement");
    assert!(
        england.contains("England — autumn 1901, retreat: nothing to do this phase."),
        "{england}"
    );
    assert_golden("asks/results-retreat-en.txt", &england);

    // The reminder and the preview of the retreat say the same block.
    j.reminders();
    let reminder = j.news_about(FRANCE, ":: corbeau: reminder");
    assert!(
        reminder.contains("A Bourgogne doit retraiter :"),
        "{reminder}"
    );
    assert_golden("asks/reminder-retreat-fr.txt", &reminder);
    let preview = j.send(
        FRANCE,
        &format!("PARTIE {GAME} France {FRANCE_SECRET}\nAPERÇU\n"),
    );
    assert!(
        preview.contains("A Bourgogne doit retraiter :"),
        "{preview}"
    );
    assert_golden("asks/preview-retreat-fr.txt", &preview);

    // France gives no retreat: its army is disbanded, and the winter finds it with four
    // centres and two units, its three home centres free.
    j.past_deadline();
    assert_eq!(j.show(GAME)["phase"]["kind"], "adjustment");
    let france = j.news_about(FRANCE, ":: phase: 1901 autumn retreat");
    assert!(
        france.contains(
            "France — hiver 1901, ajustements : vous pouvez construire 2 unités : centres\n  d'origine libres"
        ),
        "{france}"
    );
    assert_golden("asks/results-adjustment-fr.txt", &france);
    let england = j.news_about(ENGLAND, ":: phase: 1901 autumn retreat");
    assert!(
        england.contains("England — winter 1901, adjustment: you may build 1: free home centres"),
        "{england}"
    );
    assert_golden("asks/results-adjustment-en.txt", &england);

    // The winter's reminder, and a player welcomed into a house with nothing to do.
    j.reminders();
    let reminder = j.news_about(ENGLAND, ":: corbeau: reminder");
    assert!(reminder.contains("you may build 1"), "{reminder}");
    assert_golden("asks/reminder-adjustment-en.txt", &reminder);
    const NEW_ITALY: &str = "italia@example.org";
    j.ok(&[
        "player",
        "replace",
        GAME,
        "italy",
        NEW_ITALY,
        "--secret",
        "lupa-romana-12",
        "--player-lang",
        "en",
        "--welcome",
    ]);
    j.ok(&["tick"]);
    let welcome = j.news_about(NEW_ITALY, ":: corbeau: welcome");
    assert!(
        welcome.contains("Italy — winter 1901, adjustment: nothing to do this phase."),
        "{welcome}"
    );
    assert_golden("asks/welcome-adjustment-en.txt", &welcome);
}
