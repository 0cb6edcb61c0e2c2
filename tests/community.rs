//! A judge a community runs by mail, through the binary as a mail server drives
//! it (`corbeau ingest`, then `corbeau tick` for the notices; the clock fixed): an open
//! game fills itself by `JOIN` and starts; a resigned seat is taken by `TAKEOVER`; a
//! house in civil disorder after the moderator's `APPROVE`; anyone asks `WHOGAME` and
//! `SUMMARY`; and a forger joining in an address's name cannot keep its owner out. The
//! answers are golden files in French and English (tests/golden/community/;
//! CORBEAU_BLESS=1 rewrites them).

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use support::judge::{Clocked, body_of, root, run, said};
use support::{assert_golden, secret_in};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

// A judge's folder: the corbeau of tests/support/judge.rs, its clock at `at`.
support::judge::clocked_judge!(Judge);

impl Judge {
    fn new(name: &str) -> Judge {
        Judge(Clocked::new(root(&format!("community-{name}"), ""), t0()))
    }

    /// A game of `players` houses, moderated by [`MODERATOR`] in `lang`, with these
    /// options; the moderator's secret.
    fn game(&self, id: &str, players: &str, lang: &str, options: &[&str]) -> String {
        let mut args = vec![
            "game",
            "new",
            id,
            "--players",
            players,
            "--moderator",
            MODERATOR,
            "--game-lang",
            lang,
            "--json",
        ];
        args.extend_from_slice(options);
        let created: serde_json::Value = serde_json::from_str(&self.ok(&args)).unwrap();
        created["moderator_secret"].as_str().unwrap().to_string()
    }

    /// Sends a mail to the judge and returns the body of its answer to `from`.
    fn send(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        body_of(&replies[0])
    }

    /// Sends a request (`JOIN`, `TAKEOVER`, `CREATE`), then the confirmation line its
    /// answer gives, from the same address; the answer to the confirmation.
    fn confirmed(&mut self, from: &str, request: &str) -> String {
        let asked = self.send(from, request);
        let line = support::world::confirmation_line(&asked)
            .unwrap_or_else(|| panic!("no confirmation line in: {asked}"));
        self.send(from, &line)
    }

    /// The bodies of the mails to `to` that answer no mail (welcomes, notices,
    /// results), oldest first, each read once.
    fn news(&self, to: &str) -> Vec<String> {
        self.0.news(to).iter().map(|m| body_of(m)).collect()
    }
}

/// The text of a mail that carries a picture too.
fn text_part(body: &str) -> String {
    let Some((_, text)) = body.split_once("Content-Type: text/plain") else {
        return body.to_string();
    };
    let (_, text) = text.split_once("\n\n").unwrap();
    let end = text.find("\n--").unwrap_or(text.len());
    text[..end].to_string()
}

/// The one welcome among the mails `to` has been sent since they were last read (the
/// results of the phase may come with it), and its secret.
fn welcome(j: &Judge, to: &str) -> (String, String) {
    let news = j.news(to);
    let welcomes: Vec<&String> = news.iter().filter(|m| m.contains("secret")).collect();
    assert_eq!(welcomes.len(), 1, "{} mails to {to}", news.len());
    (welcomes[0].clone(), secret_in(welcomes[0]))
}

fn seat_of(game: &serde_json::Value, address: &str) -> Option<String> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"]["address"] == address && s["resigned"] != true)
        .map(|s| s["house"].as_str().unwrap().to_string())
}

const JOINERS: [&str; 5] = [
    "jon@mur.test",
    "sansa@nord.test",
    "davos@oignon.test",
    "brienne@torth.test",
    "oberyn@dorne.test",
];

#[test]
fn an_open_game_fills_itself_by_join_then_a_resigned_seat_is_taken_over() {
    let mut j = Judge::new("fills");
    j.game("ouverte", "5", "en", &["--open"]);
    let houses: Vec<String> = j.show("ouverte")["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["house"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(houses.len(), 5);
    // The first asks for the last house by name, in French; the others take the first
    // free one, in either language.
    let mut secrets = Vec::new();
    for (i, address) in JOINERS.iter().enumerate() {
        let command = match i {
            0 => format!("REJOINDRE ouverte {}\n", houses[4]),
            1 => "JOIN ouverte\n".to_string(),
            _ => "REJOINDRE ouverte\n".to_string(),
        };
        let reply = j.confirmed(address, &command);
        match i {
            0 => assert_golden("community/join-fr.txt", &reply),
            1 => assert_golden("community/join-en.txt", &reply),
            _ => assert!(reply.contains("✓"), "{reply}"),
        }
        let (text, secret) = welcome(&j, address);
        if i == 1 {
            let text = text_part(&text).replace(&secret, "SECRET");
            assert_golden("community/join-welcome-en.txt", &text);
        }
        secrets.push(secret);
    }
    let game = j.show("ouverte");
    assert_eq!(game["status"], "running", "full: started");
    assert_eq!(seat_of(&game, JOINERS[0]).unwrap(), houses[4]);
    assert_eq!(seat_of(&game, JOINERS[1]).unwrap(), houses[0]);
    assert_eq!(seat_of(&game, JOINERS[4]).unwrap(), houses[3]);
    // The moderator hears of every seat, the last one saying the game started.
    j.tick(t0());
    let notices = j.news(MODERATOR);
    let last = notices
        .iter()
        .find(|m| m.contains(JOINERS[4]))
        .unwrap_or_else(|| panic!("{notices:?}"));
    assert_golden("community/join-notice-full-en.txt", last);
    assert_eq!(
        notices.iter().filter(|m| m.contains("took")).count(),
        5,
        "{notices:?}"
    );
    // Each secret the welcome gave signs its player on.
    let davos = seat_of(&game, JOINERS[2]).unwrap();
    let reply = j.send(
        JOINERS[2],
        &format!("SIGNON ouverte {davos} {}\nSTATUS\n", secrets[2]),
    );
    assert!(reply.contains("✓") && !reply.contains("✗"), "{reply}");

    // Davos resigns; a stranger takes the seat at once, and Davos hears of it.
    let reply = j.send(
        JOINERS[2],
        &format!("SIGNON ouverte {davos} {}\nRESIGN\n", secrets[2]),
    );
    assert!(reply.contains("✓"), "{reply}");
    j.tick(t0());
    j.news(JOINERS[2]);
    let newcomer = "bran@corneille.test";
    let reply = j.confirmed(newcomer, &format!("RELEVER ouverte {davos}\n"));
    assert_golden("community/takeover-vacant-fr.txt", &reply);
    let (_, secret) = welcome(&j, newcomer);
    assert_eq!(
        seat_of(&j.show("ouverte"), newcomer).as_deref(),
        Some(davos.as_str())
    );
    j.tick(t0());
    let told = j.news(JOINERS[2]);
    assert_eq!(told.len(), 1, "{told:?}");
    // In French: Davos joined in French.
    assert_golden("community/seat-lost-fr.txt", &told[0]);
    // The old secret is the old player's no more; the new one works.
    let old = j.send(
        JOINERS[2],
        &format!("SIGNON ouverte {davos} {}\nSTATUS\n", secrets[2]),
    );
    assert!(!old.contains("✓"), "{old}");
    let new = j.send(
        newcomer,
        &format!("SIGNON ouverte {davos} {secret}\nSTATUS\n"),
    );
    assert!(new.contains("✓") && !new.contains("✗"), "{new}");
}

/// A closed game of three in `lang`, running, its players seated by the moderator. The
/// moderator's secret.
fn closed(j: &Judge, lang: &str) -> String {
    let secret = j.game("fermee", "3", lang, &[]);
    for (house, address, secret) in [
        ("stark", "stark@example.org", "loup-gris-7"),
        ("lannister", "lannister@example.org", "lion-dor-42"),
        ("baratheon", "baratheon@example.org", "cerf-noir-3"),
    ] {
        j.ok(&[
            "player", "add", "fermee", house, address, "--secret", secret,
        ]);
    }
    j.ok(&["game", "start", "fermee"]);
    secret
}

#[test]
fn a_house_in_civil_disorder_is_taken_over_on_the_moderators_approve() {
    for (lang, takeover, moderator, approve) in [
        ("fr", "RELEVER", "MODÉRATEUR", "APPROUVER"),
        ("en", "TAKEOVER", "MODERATOR", "APPROVE"),
    ] {
        let mut j = Judge::new(&format!("approve-{lang}"));
        let secret = closed(&j, lang);
        // Nobody orders: after two deadlines every house is in civil disorder.
        for _ in 0..4 {
            let game = j.show("fermee");
            if game["seats"][0]["civil_disorder"] == true {
                break;
            }
            let deadline: DateTime<Utc> = game["deadline"].as_str().unwrap().parse().unwrap();
            j.tick(deadline + TimeDelta::days(8));
        }
        assert_eq!(j.show("fermee")["seats"][0]["civil_disorder"], true);
        j.news(MODERATOR);
        j.news("stark@example.org");
        let asker = "robb@jumeaux.test";
        let reply = j.confirmed(asker, &format!("{takeover} fermee stark\n"));
        assert_golden(
            &format!("community/takeover-asked-reply-{lang}.txt"),
            &reply,
        );
        assert_eq!(
            seat_of(&j.show("fermee"), "stark@example.org").as_deref(),
            Some("stark"),
            "nothing given yet"
        );
        // The moderator is asked by mail, and approves by mail.
        let at = j.at;
        j.tick(at);
        let asked = j.news(MODERATOR);
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert_golden(&format!("community/takeover-asked-{lang}.txt"), &asked[0]);
        let reply = j.send(
            MODERATOR,
            &format!("{moderator} fermee {secret}\n{approve} stark\n"),
        );
        assert_golden(&format!("community/approve-{lang}.txt"), &reply);
        let (_, given) = welcome(&j, asker);
        let game = j.show("fermee");
        assert_eq!(seat_of(&game, asker).as_deref(), Some("stark"));
        assert_eq!(game["seats"][0]["civil_disorder"], false);
        let reply = j.send(asker, &format!("SIGNON fermee stark {given}\nSTATUS\n"));
        assert!(reply.contains("✓") && !reply.contains("✗"), "{reply}");
        // The outgoing player is told, in the game's language.
        j.tick(at);
        let told = j.news("stark@example.org");
        assert_eq!(told.len(), 1, "{told:?}");
        let (fr, en) = ("quelqu'un d'autre", "someone else");
        assert!(
            told[0].contains(if lang == "fr" { fr } else { en }),
            "{}",
            told[0]
        );
    }
}

#[test]
fn anyone_asks_whogame_and_summary_in_their_language() {
    let mut j = Judge::new("whogame");
    closed(&j, "en");
    // A first phase played: Stark orders and is ready, the others hold by the deadline.
    let reply = j.send(
        "stark@example.org",
        "PARTIE fermee stark loup-gris-7\nPRÊT\n",
    );
    assert!(reply.contains("✓"), "{reply}");
    let deadline: DateTime<Utc> = j.show("fermee")["deadline"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    j.tick(deadline + TimeDelta::minutes(1));
    for (lang, who, summary) in [
        ("fr", "QUI JOUE fermee\n", "BILAN fermee\n"),
        ("en", "WHOGAME fermee\n", "SUMMARY fermee\n"),
    ] {
        let stranger = format!("curieux-{lang}@ailleurs.test");
        let reply = j.send(&stranger, who);
        assert_golden(&format!("community/whogame-{lang}.txt"), &reply);
        // Addresses stay hidden unless the game shows them.
        assert!(!reply.contains("@example.org"), "{reply}");
        let reply = j.send(&stranger, summary);
        assert_golden(&format!("community/summary-{lang}.txt"), &reply);
        assert!(!reply.contains("@example.org"), "{reply}");
    }
    // The moderator at the shell reads the same summary, and tools its figures.
    let text = j.ok(&["game", "summary", "fermee", "--lang", "en"]);
    assert!(text.contains("Supply centres, at the start"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&j.ok(&["game", "summary", "fermee", "--json"])).unwrap();
    assert_eq!(json["centres"][0]["year"], serde_json::Value::Null);
    assert_eq!(json["centres"][1]["year"], 298);
    assert_eq!(json["centres"][1]["houses"]["stark"], 3);
    assert_eq!(json["seats"][0]["player"], "stark@example.org");
    assert_eq!(json["ending"], serde_json::Value::Null);
}

/// Open games `a`, `b`, `c`, `d` of three houses each, forming.
fn open_games(j: &Judge) {
    for id in ["a", "b", "c", "d"] {
        j.game(id, "3", "en", &["--open"]);
    }
}

#[test]
fn a_forger_joining_in_an_addresss_name_cannot_keep_its_owner_out() {
    let mut j = Judge::new("forger");
    open_games(&j);
    let owner = "owner@example.org";
    // A forger writes `From: owner` to join three games: nothing is done, the tokens go
    // to the owner alone.
    let mut lines = Vec::new();
    for id in ["a", "b", "c"] {
        let asked = j.send(owner, &format!("JOIN {id}\n# forged {id}\n"));
        lines.push(support::world::confirmation_line(&asked).unwrap());
        assert!(seat_of(&j.show(id), owner).is_none());
    }
    // The owner, who wants them after all, confirms them: the seats and their secrets
    // are the owner's.
    let mut seats = Vec::new();
    for (id, line) in ["a", "b", "c"].into_iter().zip(lines) {
        j.send(owner, &line);
        let (_, secret) = welcome(&j, owner);
        seats.push((id, seat_of(&j.show(id), owner).unwrap(), secret));
    }
    // The owner, asking for a fourth, is told why not and until when.
    let refused = j.send(owner, "JOIN d\n");
    assert_golden("community/join-bound-en.txt", &refused);
    assert!(seat_of(&j.show("d"), owner).is_none());
    // Another address is not held by it.
    let other = j.confirmed("other@example.org", "JOIN d\n");
    assert!(other.contains("✓"), "{other}");
    // The owner resigns a seat it never asked for, with the secret that came to it, and
    // has its place back at once.
    let (id, house, secret) = &seats[0];
    let reply = j.send(owner, &format!("SIGNON {id} {house} {secret}\nRESIGN\n"));
    assert!(reply.contains("✓"), "{reply}");
    let joined = j.confirmed(owner, "JOIN d\n");
    assert!(joined.contains("✓"), "{joined}");
    assert!(seat_of(&j.show("d"), owner).is_some());
    // A day later, the seats taken are old: the bound is free again.
    j.at = t0() + TimeDelta::hours(24) + TimeDelta::minutes(1);
    j.game("e", "3", "en", &["--open"]);
    let reply = j.confirmed(owner, "JOIN e\n");
    assert!(reply.contains("✓"), "{reply}");
}

#[test]
fn the_judge_wide_bound_on_creation_holds_whoever_asks() {
    let mut j = Judge::new("create");
    let config = j.dir.join("corbeau.toml");
    let text = std::fs::read_to_string(&config).unwrap().replace(
        "[judge]\n",
        "[judge]\ncreators = [\"anyone\"]\ngames_per_day = 2\n",
    );
    std::fs::write(&config, text).unwrap();
    for (i, who) in ["un@example.org", "deux@example.net"].iter().enumerate() {
        let reply = j.confirmed(who, &format!("CREATE jeu{i}\n"));
        assert!(reply.contains("✓"), "{reply}");
    }
    let third = j.send("trois@example.com", "CRÉER jeu3\n");
    assert_golden("community/create-judge-full-fr.txt", &third);
    let out = run(&mut j.command(&["game", "show", "jeu3"]), "");
    assert!(!out.status.success(), "{}", said(&out));
}
