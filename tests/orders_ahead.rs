//! Orders for later phases (`PHASE` blocks), through the binary as a mail server drives
//! it (`corbeau ingest`, then `corbeau tick` at each deadline; the clock fixed): one
//! spring mail carries the autumn moves and the winter builds, played phase by phase
//! with no other mail, and the block for a retreat that never comes is mailed back; a
//! house away with blocks for the next phases is neither missing nor in civil disorder;
//! no line after a `PHASE` line ever reaches the current orders, whatever the block's
//! fate. The mails are golden files in French and English (tests/golden/ahead/;
//! CORBEAU_BLESS=1 rewrites them).

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use support::assert_golden;
use support::judge::{Clocked, body_of, root};

const NOW: &str = "2026-03-23T08:00:00Z";
const GAME: &str = "avance";
const MODERATOR: &str = "mod@example.org";
const ENGLAND: &str = "england@example.org";
const FRANCE: &str = "france@example.org";
const GERMANY: &str = "germany@example.org";
const ENGLAND_SECRET: &str = "brume-du-nord-7";
const FRANCE_SECRET: &str = "coq-gaulois-42";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

support::judge::clocked_judge!(Judge);

impl Judge {
    /// A running classic game of seven, England read in English, France in French, the
    /// others seated; no pictures, so that the mails are their text.
    fn new(name: &str) -> Judge {
        let j = Judge(Clocked::new(root(&format!("ahead-{name}"), ""), t0()));
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
        j.seat_players(
            GAME,
            &[
                ("england", ENGLAND, ENGLAND_SECRET, "en"),
                ("france", FRANCE, FRANCE_SECRET, "fr"),
                ("germany", GERMANY, "aigle-noir-33", "en"),
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

    fn phase(&self) -> String {
        self.show(GAME)["phase"].to_string()
    }

    /// A pass of the judge just after the current deadline: the phase is processed and
    /// its notices mailed.
    fn past_deadline(&mut self) {
        let deadline = self.show(GAME)["deadline"]
            .as_str()
            .map(|d| DateTime::parse_from_rfc3339(d).unwrap().with_timezone(&Utc))
            .unwrap_or_else(|| panic!("no deadline: {}", self.show(GAME)));
        self.tick(deadline + TimeDelta::minutes(1));
    }

    fn seat(&self, house: &str) -> serde_json::Value {
        self.show(GAME)["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["house"] == house)
            .cloned()
            .unwrap()
    }
}

/// The subject of a mail, and its body.
fn subject_of(mail: &str) -> String {
    mail.lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap_or_default()
        .to_string()
}

/// The mail among `mails` whose subject says `what`.
fn with_subject<'m>(mails: &'m [String], what: &str) -> &'m String {
    mails
        .iter()
        .find(|m| subject_of(m).contains(what))
        .unwrap_or_else(|| {
            let subjects: Vec<String> = mails.iter().map(|m| subject_of(m)).collect();
            panic!("no mail about `{what}` among {subjects:?}")
        })
}

fn england_spring() -> String {
    format!(
        "SIGNON {GAME} England {ENGLAND_SECRET}\n\
         F lon - nth\nF edi - nwg\nA lvp - yor\n\
         PHASE Spring 1901 Retreat\nA yor H\n\
         PHASE Fall 1901 Movement\nF nth - bel\nF nwg - nwy\nA yor H\nSET NOWAIT\n\
         PHASE W1901A\nBuild F lon\nBuild F edi\n"
    )
}

fn france_spring() -> String {
    format!(
        "PARTIE {GAME} France {FRANCE_SECRET}\n\
         A par - bur\nA mar - spa\nF bre - mao\n\
         PHASE automne 1901\nF mao - por\nA spa tient\nA bur tient\n\
         PHASE hiver 1901\nconstruire A par\nconstruire F bre\n\
         PHASE printemps 1901 retraites\nA bur tient\n"
    )
}

#[test]
fn one_spring_mail_is_played_phase_by_phase_and_the_retreat_that_never_came_is_told_back() {
    let mut j = Judge::new("year");
    let england = j.send(ENGLAND, &england_spring());
    assert_golden("ahead/reply-en.txt", &england);
    let france = j.send(FRANCE, &france_spring());
    assert_golden("ahead/reply-fr.txt", &france);
    // The spring orders are the three lines before the first PHASE line, and only them.
    assert_eq!(j.seat("england")["orders"].as_array().unwrap().len(), 3);
    assert_eq!(j.seat("england")["ahead"].as_array().unwrap().len(), 3);
    assert_eq!(j.seat("france")["orders"].as_array().unwrap().len(), 3);

    // Spring is played; nothing was dislodged, so autumn follows at once.
    j.past_deadline();
    assert_eq!(j.show(GAME)["phase"]["season"], "autumn", "{}", j.phase());
    assert_eq!(j.show(GAME)["phase"]["kind"], "movement");
    let news = j.0.news(ENGLAND);
    let dropped = with_subject(&news, "not used");
    assert_golden("ahead/dropped-en.txt", &body_of(dropped));
    let pending = with_subject(&news, "Your orders for");
    assert_golden("ahead/pending-en.txt", &body_of(pending));
    // One mail for each block, besides the results.
    assert_eq!(
        news.iter()
            .filter(|m| subject_of(m).contains("ahead"))
            .count(),
        2,
        "{news:?}"
    );
    let england = j.seat("england");
    assert_eq!(england["orders"].as_array().unwrap().len(), 3, "{england}");
    assert_eq!(england["ready"], true, "SET NOWAIT of the block");
    assert_eq!(england["ahead"].as_array().unwrap().len(), 1, "{england}");
    let news = j.0.news(FRANCE);
    let pending = with_subject(&news, "Vos ordres pour");
    assert_golden("ahead/pending-fr.txt", &body_of(pending));
    let dropped = with_subject(&news, "pour printemps");
    assert_golden("ahead/dropped-fr.txt", &body_of(dropped));

    // France is away: its autumn orders came ahead, so it is not reminded; Germany is.
    let deadline = j.show(GAME)["deadline"].as_str().unwrap().to_string();
    let deadline = DateTime::parse_from_rfc3339(&deadline)
        .unwrap()
        .with_timezone(&Utc);
    j.tick(deadline - TimeDelta::hours(11));
    let reminded = |j: &Judge, to: &str| {
        j.0.news(to)
            .iter()
            .any(|m| subject_of(m).contains("Rappel") || subject_of(m).contains("Reminder"))
    };
    assert!(!reminded(&j, FRANCE), "France has orders, written ahead");
    assert!(reminded(&j, GERMANY), "Germany has none");

    // Autumn is played: England takes Belgium and Norway, France Portugal and Spain.
    j.past_deadline();
    assert_eq!(j.show(GAME)["phase"]["season"], "winter", "{}", j.phase());
    let france = j.seat("france");
    assert_eq!(france["missed"], 0, "{france}");
    assert_eq!(france["civil_disorder"], false, "{france}");
    assert_eq!(j.seat("germany")["civil_disorder"], true);
    let news = j.0.news(ENGLAND);
    with_subject(&news, "Your orders for");
    assert_eq!(j.seat("england")["orders"].as_array().unwrap().len(), 2);

    // Winter is played: the builds stand on the board of spring 1902.
    j.past_deadline();
    assert_eq!(j.show(GAME)["phase"]["year"], 1902, "{}", j.phase());
    let position = j.show(GAME)["position"].to_string().to_lowercase();
    for unit in [
        "f lon", "f edi", "f nwy", "f bel", "a par", "f bre", "f por", "a spa",
    ] {
        assert!(position.contains(unit), "{unit} in {position}");
    }
    assert!(j.seat("england")["ahead"].is_null());
    assert!(j.seat("france")["ahead"].is_null());
}

#[test]
fn no_line_after_a_phase_line_reaches_the_current_orders_whatever_the_block() {
    let mut j = Judge::new("damage");
    let reply = j.send(
        ENGLAND,
        &format!(
            "SIGNON {GAME} England {ENGLAND_SECRET}\n\
             F lon H\n\
             PHASE F1950M\nF edi - nth\n\
             PHASE S1900M\nA lvp - wal\n\
             PHASE Summer 1901\nF edi - nwg\n\
             PHASE F1901M\nF edi - nwg\n\
             PHASE Spring 1901 Movement\nA lvp - yor\n"
        ),
    );
    assert_golden("ahead/refused-en.txt", &reply);
    // The current orders: the hold before the blocks and the move after the PHASE line
    // that names the current phase; none of the refused blocks' lines.
    let orders: Vec<String> = j.seat("england")["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.to_string().to_lowercase())
        .collect();
    assert_eq!(orders.len(), 2, "{orders:?}");
    assert!(
        orders
            .iter()
            .all(|o| !o.contains("nth") && !o.contains("wal")),
        "{orders:?}"
    );
    // The block for autumn 1901 alone is kept.
    let ahead = j.seat("england")["ahead"].clone();
    assert_eq!(ahead.as_array().unwrap().len(), 1, "{ahead}");

    // A second block for the same phase replaces the first, and says so.
    let again = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nPHASE F 1901 M\nF edi - nth\n"),
    );
    assert!(again.contains("replacing the block kept before"), "{again}");
    let ahead = j.seat("england")["ahead"].to_string();
    assert!(
        ahead.contains("edi - nth") && !ahead.contains("nwg"),
        "{ahead}"
    );

    // STATUS shows the house its own blocks, and the moderator every house's; never
    // another house.
    let status = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nSTATUS\n"),
    );
    assert!(
        status.contains("autumn 1901, movement: 1 line(s)"),
        "{status}"
    );
    let other = j.send(
        FRANCE,
        &format!("PARTIE {GAME} France {FRANCE_SECRET}\nETAT\n"),
    );
    assert!(!other.contains("1901, mouvements : 1 ligne"), "{other}");
    let preview = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nPREVIEW\n"),
    );
    assert!(preview.contains("kept for later phases"), "{preview}");

    // CLEAR removes the blocks and leaves the current orders.
    let cleared = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nCLEAR\n"),
    );
    assert!(
        cleared.contains("removed: autumn 1901, movement"),
        "{cleared}"
    );
    assert!(j.seat("england")["ahead"].is_null());
    assert_eq!(j.seat("england")["orders"].as_array().unwrap().len(), 2);
    let french = j.send(
        FRANCE,
        &format!("PARTIE {GAME} France {FRANCE_SECRET}\nEFFACER\n"),
    );
    assert!(french.contains("rien à retirer"), "{french}");
}

#[test]
fn a_forger_keeps_no_block_and_the_owner_keeps_theirs() {
    let mut j = Judge::new("forger");
    j.send(ENGLAND, &england_spring());
    // A forger with a wrong secret: its PHASE block is no orders and keeps nothing, and
    // its CLEAR clears nothing.
    let forged = j.send(
        "forger@example.net",
        &format!(
            "SIGNON {GAME} England wrong-secret-1\nPHASE F1901M\nF nth - hol\nCLEAR\n\
             PHASE W1901A\nBuild A lvp\n"
        ),
    );
    assert!(!forged.contains("Kept for"), "{forged}");
    let ahead = j.seat("england")["ahead"].to_string();
    assert!(
        ahead.contains("nth - bel") && !ahead.contains("hol"),
        "{ahead}"
    );
    assert!(
        ahead.contains("Build F lon") && !ahead.contains("Build A lvp"),
        "{ahead}"
    );
    assert_eq!(j.seat("england")["orders"].as_array().unwrap().len(), 3);
    // The owner, meanwhile, still keeps and replaces blocks.
    let owner = j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nPHASE F1901M\nF nth - hol\n"),
    );
    assert!(owner.contains("Kept for autumn 1901"), "{owner}");
    assert!(j.seat("england")["ahead"].to_string().contains("nth - hol"));
}

#[test]
fn a_rollback_gives_back_the_blocks_its_phase_used_and_keeps_the_newer() {
    let mut j = Judge::new("rollback");
    j.send(ENGLAND, &england_spring());
    j.past_deadline();
    // Autumn: the autumn block is the orders now, the retreat block was given back.
    assert_eq!(j.seat("england")["ahead"].as_array().unwrap().len(), 1);
    // A block for spring 1902, kept during autumn.
    j.send(
        ENGLAND,
        &format!("SIGNON {GAME} England {ENGLAND_SECRET}\nPHASE S1902M\nA yor - lon\n"),
    );
    let moderator = j.ok(&["game", "rollback", GAME]);
    assert!(!moderator.is_empty());
    assert_eq!(j.show(GAME)["phase"]["season"], "spring");
    let ahead = j.seat("england")["ahead"].to_string();
    // Back: the retreat and autumn blocks; kept: winter, and spring 1902 written since.
    for line in ["A yor H", "nth - bel", "Build F lon", "yor - lon"] {
        assert!(ahead.contains(line), "{line} in {ahead}");
    }
    // Played again, spring gives them out again: the autumn orders are the block's.
    j.past_deadline();
    assert_eq!(j.seat("england")["orders"].as_array().unwrap().len(), 3);
    assert!(j.seat("england")["orders"].to_string().contains("bel"));
    let audit = j.ok(&["game", "audit", GAME]);
    assert!(
        audit.contains("ordres écrits d'avance pour automne 1901"),
        "{audit}"
    );
}

mod never_the_current_orders {
    use proptest::prelude::*;

    use super::support::world::{GAME, STARK, STARK_SECRET, World, now};
    use corbeau::game::Settings;

    /// `PHASE` lines that name no phase being played (Westeros starts in spring 298):
    /// later ones, past ones, too far, unreadable.
    const PHASES: &[&str] = &[
        "PHASE F298M",
        "PHASE automne 298",
        "PHASE W298A",
        "PHASE hiver 298",
        "PHASE S299M",
        "PHASE Spring 298 Retreat",
        "PHASE S297M",
        "PHASE F320M",
        "PHASE Summer 298",
        "PHASE",
        "phase: fall 299 movement",
    ];

    /// What may follow: orders good and bad, conditions, readiness, other commands that
    /// do not sign on.
    const LINES: &[&str] = &[
        "A win -> cno",
        "A win H",
        "A win tient",
        "A kl -> wf",
        "IF A win",
        "ELSE",
        "ENDIF",
        "ORDERS",
        "PARTIAL ORDERS",
        "ORDRES",
        "READY",
        "SET NOWAIT",
        "SET WAIT",
        "PRÊT",
        "CLEAR",
        "EFFACER",
        "STATUS",
        "Merci !",
        "xyzzy plugh",
        "Build A win",
    ];

    fn tail() -> impl Strategy<Value = Vec<String>> {
        let line = prop_oneof![
            prop::sample::select(PHASES).prop_map(str::to_string),
            prop::sample::select(LINES).prop_map(str::to_string),
        ];
        (
            prop::sample::select(PHASES),
            prop::collection::vec(line, 0..10),
        )
            .prop_map(|(first, rest)| {
                let mut lines = vec![first.to_string()];
                lines.extend(rest);
                lines
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Whatever follows a `PHASE` line that does not name the current phase, the
        /// house's current orders are those of the lines before it.
        #[test]
        fn text_after_a_phase_line_never_changes_the_current_orders(tail in tail()) {
            let mut w = World::westeros("ahead", "props", Settings::default(), true);
            let head = format!("PARTIE {GAME} Stark {STARK_SECRET}\nA win -> cno\n");
            w.send(STARK, &head);
            let before = w.game(GAME).seat("stark").unwrap().orders().to_vec();
            let ready = w.game(GAME).seat("stark").unwrap().ready();
            let mail = format!("{head}{}\n", tail.join("\n"));
            w.send_at(STARK, &mail, now());
            let seat = w.game(GAME).seat("stark").unwrap().clone();
            prop_assert_eq!(seat.orders(), &before[..], "{}", mail);
            prop_assert_eq!(seat.ready(), ready, "{}", mail);
        }
    }
}
