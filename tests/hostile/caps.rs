//! Amplification, as attacks: a forger's one mail must cost the address
//! it names a few answers at most — observers past the cap, pictures asked for again and
//! again in a player's name, a mail drawing several pictures, press fanned out by one
//! mail, an unmarked auto-responder repeating itself — and each cap must leave the owner's
//! own mail answered (docs/email.md, "Caps").

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::game::Settings;
use corbeau::lang::Lang;
use corbeau::mail::outmail::OutMail;

use super::support::world::{BARATHEON, GAME, GameSpec, JUDGE, LANNISTER, MODERATOR, STARK, World};
const MALLORY: &str = "mallory@ailleurs.test";
const STARK_SECRET: &str = "k7pq2mzd9a";
const MODERATOR_SECRET: &str = "m0ds3cret9";

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn minutes(n: i64) -> DateTime<Utc> {
    now() + TimeDelta::minutes(n)
}

fn observer(n: usize) -> String {
    format!("observer{n}@loin.test")
}

/// A judge with the game `westeros-1` running: three players, a moderator, and as many
/// observers as asked for.
fn world(name: &str, observers: usize) -> World {
    with(name, observers, "westeros", 3, Config::default())
}

fn with(name: &str, observers: usize, variant: &str, houses: u8, config: Config) -> World {
    let mut w = World::with_config("caps", name, |c| {
        *c = Config {
            data_dir: c.data_dir.clone(),
            ..config
        };
        c.judge.address = JUDGE.into();
    });
    w.tag = "caps";
    w.subject = "test";
    w.authors = true;
    let spec = GameSpec {
        name: None,
        variant: variant.into(),
        players: houses,
        moderator: Some(MODERATOR_SECRET),
        ..GameSpec::westeros(GAME, Settings::default())
    };
    w.create_game(spec, now());
    let players: Vec<(String, String, String)> = w
        .houses(GAME)
        .into_iter()
        .enumerate()
        .map(|(n, house)| {
            let (address, secret) = match n {
                0 => (STARK.to_string(), STARK_SECRET.to_string()),
                1 => (LANNISTER.to_string(), "r0cdelion7".to_string()),
                2 => (BARATHEON.to_string(), "cerfn0ir42".to_string()),
                n => (format!("player{n}@maison.test"), format!("secret-{n}-x")),
            };
            (house, address, secret)
        })
        .collect();
    let seats: Vec<(&str, &str, &str, Lang)> = players
        .iter()
        .map(|(h, a, s)| (h.as_str(), a.as_str(), s.as_str(), Lang::Fr))
        .collect();
    w.seat(GAME, &seats, false, now());
    w.add_observers(
        GAME,
        &(0..observers).map(observer).collect::<Vec<_>>(),
        now(),
    );
    w.start(GAME, now());
    w
}

/// A mail's text with its lines joined, as the templates wrap sentences at any word.
fn text(mail: &OutMail) -> String {
    mail.body.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn pictures(mails: &[OutMail]) -> usize {
    mails.iter().map(|m| m.attachments.len()).sum()
}

fn stark() -> String {
    format!("PARTIE {GAME} Stark {STARK_SECRET}\n")
}

/// The token of the request to observe, from the answer that carries it.
fn token(mail: &OutMail) -> String {
    let line = mail
        .body
        .lines()
        .find(|l| l.contains("CONFIRMER"))
        .unwrap_or_else(|| panic!("no token in:\n{}", mail.body));
    line.split_whitespace().last().unwrap().to_string()
}

#[test]
fn a_confirmation_past_the_observer_cap_is_refused_and_the_request_kept() {
    let cap = Config::default().mail.caps.observers_per_game as usize;
    assert_eq!(cap, 20, "the documented default");
    let mut w = world("observer-cap", cap);
    let newcomer = "curieux@loin.test";
    w.send_at(newcomer, &format!("OBSERVER {GAME}\n"), minutes(1));
    let token = token(&w.take()[0]);
    w.send_at(
        newcomer,
        &format!("OBSERVER {GAME} CONFIRMER {token}\n"),
        minutes(2),
    );
    let answer = w.take();
    assert_eq!(answer.len(), 1);
    assert!(
        text(&answer[0]).contains(&format!("a déjà {cap} observateurs")),
        "{}",
        answer[0].body
    );
    let game = w.game(GAME);
    assert_eq!(game.observers().len(), cap, "no observer past the cap");
    // The moderator still sees who waits (`game show --json` lists the requests).
    assert!(
        game.observer_requests()
            .iter()
            .any(|r| r.address == newcomer),
        "the request is kept"
    );

    // Once an observer has left, the same token confirms.
    w.observer_leaves(GAME, minutes(3));
    w.send_at(
        newcomer,
        &format!("OBSERVER {GAME} CONFIRMER {token}\n"),
        minutes(4),
    );
    let answer = w.take();
    assert!(
        answer[0].body.contains("NE PLUS OBSERVER"),
        "{}",
        answer[0].body
    );
    assert!(
        w.game(GAME)
            .observers()
            .iter()
            .any(|o| o.address == newcomer)
    );
}

#[test]
fn a_forged_map_request_draws_a_few_pictures_an_hour_and_the_owner_still_gets_one() {
    let mut w = world("map-forged", 0);
    let cap = w.config.mail.caps.map_pictures_per_hour as usize;
    assert_eq!(cap, 3, "the documented default");
    // Mallory forges Stark's address: no secret, the address is one the game writes to.
    let mut drawn = 0;
    let mut held = 0;
    for n in 0..10 {
        // Each text its own, as the cap on the same text would otherwise hold them.
        w.send_at(STARK, &format!("CARTE {GAME}\nmerci {n}\n"), minutes(n));
        let mails = w.take();
        assert_eq!(mails.len(), 1, "every request is still answered");
        drawn += pictures(&mails);
        if mails[0].body.contains("Pas d'image") {
            held += 1;
            assert!(
                text(&mails[0]).contains("(PARTIE westeros-1 <maison> <secret>) reçoit la sienne"),
                "the held answer says how to get one: {}",
                mails[0].body
            );
        }
    }
    assert_eq!(drawn, cap, "pictures to the forged address in an hour");
    assert_eq!(held, 10 - cap);

    // Stark, signed on with the secret, gets the picture: the forger never reaches the
    // seat's own count.
    w.send_at(STARK, &format!("{}CARTE\n", stark()), minutes(11));
    let mails = w.take();
    assert_eq!(pictures(&mails), 1, "the owner's signed request is drawn");

    // So does the moderator, signed on: a count of its own.
    w.send_at(
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nCARTE\n"),
        minutes(12),
    );
    assert_eq!(
        pictures(&w.take()),
        1,
        "the moderator's signed request is drawn"
    );

    // An hour after the window opened, requests without a secret are drawn again.
    w.send_at(STARK, &format!("CARTE {GAME}\n"), minutes(61));
    assert_eq!(pictures(&w.take()), 1);
}

#[test]
fn a_seat_gets_a_few_pictures_an_hour_then_text_saying_when() {
    let mut w = world("map-seat", 0);
    let cap = w.config.mail.caps.map_pictures_per_hour as usize;
    let mut drawn = 0;
    let mut last = String::new();
    for n in 0..(cap as i64 + 2) {
        w.send_at(STARK, &format!("{}CARTE\nSTATUT\n", stark()), minutes(n));
        let mails = w.take();
        assert_eq!(mails.len(), 1);
        drawn += pictures(&mails);
        last = text(&mails[0]);
    }
    assert_eq!(drawn, cap);
    assert!(last.contains("Pas d'image : 3 par heure"), "{last}");
    assert!(last.contains("les images reviennent le"), "{last}");
    // The rest of the answer is there: the map's text and the status.
    assert!(last.contains("Date limite"), "{last}");
}

#[test]
fn one_mail_draws_one_picture_whatever_it_names_and_wherever_its_copies_go() {
    let mut w = world("map-once", 0);
    // Signed on from another address: the reply goes to the sender and a copy to the
    // house's address. Three CARTE lines, and others naming other games.
    let mut body = stark();
    for _ in 0..3 {
        body.push_str("CARTE\n");
    }
    for n in 0..12 {
        body.push_str(&format!("CARTE partie-{n}\n"));
    }
    w.send_at(MALLORY, &body, minutes(1));
    let mails = w.take();
    assert_eq!(mails.len(), 2, "the answer and its copy to Stark");
    assert_eq!(pictures(&mails), 1, "one picture for the whole mail");
    let answer = mails.iter().find(|m| m.to == MALLORY).unwrap();
    assert_eq!(answer.attachments.len(), 1);
    // The other games are answered in text, with the reason.
    assert_eq!(
        text(answer)
            .matches("un message ne concerne qu'une partie")
            .count(),
        12,
        "{}",
        answer.body
    );
}

/// Press blocks to everyone, three in one mail, to a game of 20 observers: the first goes,
/// the next are refused whole and said so.
#[test]
fn one_mail_cannot_fan_press_out_past_a_press_to_everyone() {
    let observers = 20;
    let mut w = world("fanout", observers);
    let press = "PRESSE A TOUS\nLe nord se souvient.\nFIN PRESSE\n";
    w.send_at(
        STARK,
        &format!("{}{press}{press}{press}", stark()),
        minutes(1),
    );
    let mails = w.take();
    // Two houses, the observers, the moderator: one press; and the reply.
    let one_press = 2 + observers + 1;
    assert_eq!(mails.len(), one_press + 1, "one press and the reply");
    // Stark's own press never goes back to Stark: the one mail to Stark is the reply.
    let reply = mails.iter().find(|m| m.to == STARK).unwrap();
    assert_eq!(
        text(reply)
            .matches("presse non envoyée, à personne")
            .count(),
        2,
        "{}",
        reply.body
    );
    for n in 0..observers {
        let to = observer(n);
        assert_eq!(mails.iter().filter(|m| m.to == to).count(), 1, "{to}");
    }
}

/// The cap must not break the press it is meant to allow: a message to every house of a
/// seven-house game, its moderator and observers (even more of them than the cap, from
/// before it was lowered) goes to all.
#[test]
fn press_to_everyone_of_a_seven_house_game_with_its_observers_still_goes() {
    let mut config = Config::default();
    config.mail.caps.observers_per_game = 5;
    let observers = 12;
    let mut w = with("fanout-7", observers, "classique", 7, config);
    let house = w.game(GAME).seats()[0].house().to_string();
    let body = format!(
        "PARTIE {GAME} {house} {STARK_SECRET}\nPRESSE A TOUS\nBonjour à tous.\nFIN PRESSE\n"
    );
    w.send_at(STARK, &body, minutes(1));
    let mails = w.take();
    assert_eq!(
        mails.len(),
        6 + observers + 1 + 1,
        "every one, and the reply"
    );
    assert!(
        !mails.iter().any(|m| m.body.contains("presse non envoyée")),
        "nothing refused"
    );
}

#[test]
fn an_unmarked_responder_repeating_itself_gets_three_answers_an_hour() {
    let mut w = world("same-text", 0);
    let cap = w.config.mail.caps.same_text_per_hour as usize;
    assert_eq!(cap, 3, "the documented default");
    let vacation = "Je suis en congés jusqu'au 3 avril.\n\nBien à vous,\nRobert\n";
    let robot = "robert@vacances.test";
    let mut answers = Vec::new();
    for n in 0..20 {
        // The same text, its blank space and case changed, the judge's answer quoted.
        let body = match n % 2 {
            0 => vacation.to_string(),
            _ => format!("{}\n> Bonjour,\n> message {n}\n", vacation.to_uppercase()),
        };
        w.send_at(robot, &body, minutes(n));
        answers.extend(w.take());
    }
    assert_eq!(answers.len(), cap, "answers to the same text in an hour");
    assert!(
        text(&answers[cap - 1]).contains("Ce même texte est venu de votre adresse 3 fois"),
        "the last answer warns: {}",
        answers[cap - 1].body
    );
    // A different text from the same address is answered.
    w.send_at(robot, "AIDE\n", minutes(21));
    assert_eq!(w.take().len(), 1);
    // So is the same text once the hour is over.
    w.send_at(robot, vacation, minutes(61));
    assert_eq!(w.take().len(), 1);
}

/// The forger repeats a text in Stark's name: Stark's own different mails are answered,
/// the same orders mailed twice are answered twice, and a mail signed with the secret is
/// always answered, whatever its text.
#[test]
fn a_forger_repeating_text_in_a_player_s_name_never_silences_the_player() {
    let mut w = world("same-text-owner", 0);
    let forged = "STATUT\nAIDE\n".to_string();
    for n in 0..10 {
        w.send_at(STARK, &forged, minutes(n));
    }
    let forged_answers = w.take().len();
    assert_eq!(forged_answers, 3, "the forged text is answered three times");

    // Stark's own orders, the same mail sent five times: every one answered.
    let orders = format!("{}A Winterfell H\n", stark());
    for n in 0..5 {
        w.send_at(STARK, &orders, minutes(20 + n));
        let mails = w.take();
        assert_eq!(mails.len(), 1, "Stark's mail {n} answered");
        assert!(mails[0].body.contains("Identifié"), "{}", mails[0].body);
    }
    // The forger's words, signed on with the right secret: answered.
    w.send_at(STARK, &format!("{}{forged}", stark()), minutes(30));
    assert_eq!(w.take().len(), 1);
    // A player without a secret at hand, writing the same thing twice, is answered twice.
    for n in 0..2 {
        w.send_at(LANNISTER, &format!("CARTE {GAME}\n"), minutes(40 + n));
        assert_eq!(w.take().len(), 1);
    }
}
