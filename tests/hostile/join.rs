//! Joining: strangers take seats by mail. An open game fills itself by `JOIN`
//! and starts; `JOIN` is refused to a closed, full or running game and to an address
//! already in it (the bound per address: tests/community.rs); a vacant seat is taken by
//! `TAKEOVER` at once, a house in civil disorder after the moderator's `APPROVE`; the
//! outgoing player is told (also for `REPLACE` and `REMOVE PLAYER`); a player seated in a
//! retreat phase reads their dislodged unit in the welcome (D12).

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{Action, GameStatus, NoticeKind, Settings};
use corbeau::lang::Lang;
use corbeau::mail::outmail::OutMail;

use crate::support::world::{
    GameSpec, LANNISTER, MODERATOR, MODERATOR_SECRET, PLAYERS, STARK, STARK_SECRET, World,
};
use crate::support::{assert_golden, rendered};

const GAME: &str = "ouverte";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn body(mail: &OutMail) -> String {
    mail.body.replace("\r\n", "\n")
}

/// An open Westeros game of five houses, forming, moderated, in `lang`.
fn open_world(name: &str, lang: Lang) -> World {
    let w = World::new("join", name);
    let settings = Settings {
        open: true,
        lang,
        ..Settings::default()
    };
    let spec = GameSpec {
        players: 5,
        ..GameSpec::westeros(GAME, settings)
    };
    w.create_game(spec, t0());
    w
}

/// The secret a welcome mail gives (`Votre secret : …`, `Your secret: …`).
fn secret_of(welcome: &OutMail) -> String {
    crate::support::secret_in(&body(welcome))
}

/// The mails to `to` among `mails`.
fn to<'a>(mails: &'a [OutMail], to: &str) -> Vec<&'a OutMail> {
    mails.iter().filter(|m| m.to == to).collect()
}

const JOINERS: [&str; 5] = [
    "jon@mur.test",
    "sansa@nord.test",
    "davos@oignon.test",
    "brienne@torth.test",
    "oberyn@dorne.test",
];

#[test]
fn an_open_game_fills_itself_by_join_and_starts() {
    let mut w = open_world("fills", Lang::Fr);
    let houses = w.houses(GAME);
    assert_eq!(houses.len(), 5);
    // The first asks for the last house by name; the others take the first free one.
    let last = houses[4].clone();
    let mut secrets = Vec::new();
    for (i, address) in JOINERS.iter().enumerate() {
        let command = if i == 0 {
            format!("REJOINDRE {GAME} {last}\n")
        } else if i % 2 == 0 {
            format!("JOIN {GAME}\n")
        } else {
            format!("REJOINDRE {GAME}\n")
        };
        w.send_confirmed_at(address, &command, t0());
        let mails = w.take();
        let replies: Vec<&OutMail> = to(&mails, address)
            .into_iter()
            .filter(|m| m.subject.starts_with("Re:"))
            .collect();
        assert_eq!(replies.len(), 1, "{mails:?}");
        let welcome = to(&mails, address)
            .into_iter()
            .find(|m| !m.subject.starts_with("Re:"))
            .unwrap_or_else(|| panic!("no welcome for {address}: {mails:?}"));
        if i == 0 {
            assert_golden("mail/join-reply-fr.txt", &rendered(replies[0]));
        }
        if i == 2 {
            assert_golden("mail/join-reply-en.txt", &rendered(replies[0]));
        }
        secrets.push(secret_of(welcome));
    }
    let game = w.game(GAME);
    assert_eq!(game.status(), GameStatus::Running, "full: started");
    // The house asked for went to the one who asked; the others in the map's order.
    let seat_of = |address: &str| {
        game.seats()
            .iter()
            .find(|s| s.player().is_some_and(|p| p.address() == address))
            .map(|s| s.house().to_string())
            .unwrap()
    };
    assert_eq!(seat_of(JOINERS[0]), last);
    assert_eq!(seat_of(JOINERS[1]), houses[0]);
    assert_eq!(seat_of(JOINERS[4]), houses[3]);
    // The moderator heard of every seat, the last one saying the game started.
    let kinds = w.notice_kinds();
    let joined: Vec<(usize, bool)> = kinds
        .iter()
        .filter_map(|k| match k {
            NoticeKind::Joined { left, started, .. } => Some((*left, *started)),
            _ => None,
        })
        .collect();
    assert_eq!(
        joined,
        [(4, false), (3, false), (2, false), (1, false), (0, true)]
    );
    assert!(kinds.contains(&NoticeKind::Started), "{kinds:?}");
    let mails = w.notices(t0());
    let to_moderator = to(&mails, MODERATOR);
    let last_seat = to_moderator
        .iter()
        .find(|m| body(m).contains(JOINERS[4]))
        .unwrap();
    assert_golden("mail/join-notice-full-fr.txt", &rendered(last_seat));
    // Each secret the welcome gave signs its player on.
    let house = seat_of(JOINERS[1]);
    let reply = w.ask(
        JOINERS[1],
        &format!("PARTIE {GAME} {house} {}\nÉTAT\n", secrets[1]),
    );
    assert!(!body(&reply).contains("refus"), "{}", body(&reply));
    assert!(body(&reply).contains("✓"), "{}", body(&reply));
}

#[test]
fn join_is_refused_clearly_and_bounded_per_address() {
    let mut w = open_world("refused", Lang::Fr);
    // A second JOIN from an address already seated.
    w.send_confirmed_at(JOINERS[0], &format!("REJOINDRE {GAME}\n"), t0());
    w.take();
    let again = w.ask(JOINERS[0], &format!("REJOINDRE {GAME}\n"));
    assert!(
        body(&again).contains("votre adresse joue déjà dans la partie ouverte"),
        "{}",
        body(&again)
    );
    // The moderator's address takes no seat either.
    let moderator = w.ask(MODERATOR, &format!("JOIN {GAME}\n"));
    assert!(
        body(&moderator).contains("your address already plays in game ouverte, or moderates it"),
        "{}",
        body(&moderator)
    );
    // A house already played is refused without saying who plays it.
    let played = w.game(GAME).seats()[0].house().to_string();
    let taken = w.ask(JOINERS[1], &format!("JOIN {GAME} {played}\n"));
    assert!(body(&taken).contains("is played"), "{}", body(&taken));
    assert!(!body(&taken).contains(JOINERS[0]), "{}", body(&taken));
    // A closed game.
    w.create_game(GameSpec::westeros("fermee", Settings::default()), t0());
    let closed = w.ask(JOINERS[2], "JOIN fermee\n");
    assert!(
        body(&closed).contains("game fermee is not open: its moderator gives its seats"),
        "{}",
        body(&closed)
    );
    // A running game: open, but no longer forming.
    let running = {
        let settings = Settings {
            open: true,
            start_when_full: false,
            ..Settings::default()
        };
        w.create_game(GameSpec::westeros("encours", settings), t0());
        w.seat("encours", &PLAYERS, true, t0());
        w.ask(JOINERS[3], "JOIN encours\n")
    };
    assert!(
        body(&running).contains("join") && body(&running).contains("running"),
        "{}",
        body(&running)
    );
    assert_eq!(w.game("encours").seats().len(), 3);
}

/// A closed game of three houses, running, with [`PLAYERS`] seated.
fn closed_world(name: &str, lang: Lang) -> World {
    let w = World::new("join", name);
    let settings = Settings {
        lang,
        ..Settings::default()
    };
    w.create_game(GameSpec::westeros(GAME, settings), t0());
    w.seat(GAME, &PLAYERS, true, t0());
    w
}

#[test]
fn a_resigned_seat_of_an_open_game_is_taken_by_takeover() {
    let mut w = closed_world("resigned", Lang::Fr);
    w.act(GAME, Action::Set(corbeau::game::Setting::Open(true)), t0());
    w.send_at(
        STARK,
        &format!("PARTIE {GAME} stark {STARK_SECRET}\nABANDONNER\n"),
        t0(),
    );
    w.notices(t0());
    let newcomer = "bran@corneille.test";
    w.send_confirmed_at(newcomer, &format!("RELEVER {GAME} Stark\n"), t0());
    let mails = w.take();
    let welcome = to(&mails, newcomer)
        .into_iter()
        .find(|m| !m.subject.starts_with("Re:"))
        .unwrap_or_else(|| panic!("{mails:?}"));
    let secret = secret_of(welcome);
    let game = w.game(GAME);
    let seat = game.seat("stark").unwrap();
    assert_eq!(seat.player().unwrap().address(), newcomer);
    assert!(!seat.resigned() && !seat.civil_disorder());
    // The player who resigned hears that the house is someone else's now.
    let mails = w.notices(t0());
    let told = to(&mails, STARK);
    assert_eq!(told.len(), 1, "{mails:?}");
    assert!(
        body(told[0]).contains("quelqu'un d'autre"),
        "{}",
        body(told[0])
    );
    let reply = w.ask(newcomer, &format!("PARTIE {GAME} stark {secret}\nÉTAT\n"));
    assert!(body(&reply).contains("✓"), "{}", body(&reply));
}

/// The houses fall into civil disorder: no orders for two deadlines; the time after.
fn stark_in_disorder(w: &World) -> DateTime<Utc> {
    let mut at = t0();
    for _ in 0..4 {
        if w.game(GAME).seat("stark").unwrap().civil_disorder() {
            break;
        }
        at = w.game(GAME).deadline().unwrap() + TimeDelta::days(8);
        w.tick(at);
    }
    assert!(w.game(GAME).seat("stark").unwrap().civil_disorder());
    at
}

#[test]
fn a_house_in_civil_disorder_is_given_on_the_moderators_approve() {
    for lang in [Lang::Fr, Lang::En] {
        let mut w = closed_world(&format!("approve-{lang:?}"), lang);
        let at = stark_in_disorder(&w);
        w.notices(at);
        let asker = "robb@jumeaux.test";
        let (keyword, approve) = match lang {
            Lang::Fr => ("RELEVER", "MODÉRATEUR"),
            Lang::En => ("TAKEOVER", "MODERATOR"),
        };
        w.send_confirmed_at(asker, &format!("{keyword} {GAME} stark\n"), at);
        let reply = w.reply_to(asker);
        let code = lang.code();
        assert_golden(
            &format!("mail/takeover-reply-{code}.txt"),
            &rendered(&reply),
        );
        assert!(
            w.game(GAME)
                .seat("stark")
                .unwrap()
                .player()
                .unwrap()
                .address()
                == STARK
        );
        // The moderator is asked by mail, naming the address and the house.
        let mails = w.notices(at);
        let asked = to(&mails, MODERATOR);
        assert_eq!(asked.len(), 1, "{mails:?}");
        assert_golden(
            &format!("mail/takeover-asked-{code}.txt"),
            &rendered(asked[0]),
        );
        let word = if lang == Lang::Fr {
            "APPROUVER"
        } else {
            "APPROVE"
        };
        w.send_at(
            MODERATOR,
            &format!("{approve} {GAME} {MODERATOR_SECRET}\n{word} stark\n"),
            at,
        );
        let mails = w.take();
        let welcome = to(&mails, asker);
        assert_eq!(welcome.len(), 1, "{mails:?}");
        secret_of(welcome[0]);
        let game = w.game(GAME);
        let seat = game.seat("stark").unwrap();
        assert_eq!(seat.player().unwrap().address(), asker);
        assert!(!seat.civil_disorder());
        assert!(game.seat_requests().is_empty());
        // The outgoing player is told.
        let mails = w.notices(at);
        assert_eq!(to(&mails, STARK).len(), 1, "{mails:?}");
    }
}

#[test]
fn a_request_refused_by_the_moderator_tells_the_address() {
    let mut w = closed_world("reject", Lang::Fr);
    let asker = "walder@jumeaux.test";
    w.send_confirmed_at(asker, &format!("RELEVER {GAME} Lannister\n"), t0());
    w.take();
    // A second request for the same house waits beside the first: the moderator picks.
    let second = w.ask_confirmed(
        "autre@ailleurs.test",
        &format!("RELEVER {GAME} Lannister\n"),
    );
    assert!(body(&second).contains("modérateur"), "{}", body(&second));
    assert_eq!(w.game(GAME).seat_requests().len(), 2);
    w.notices(t0());
    w.send_at(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\nREFUSER Lannister\n"),
        t0(),
    );
    w.take();
    let mails = w.notices(t0());
    let told = to(&mails, asker);
    assert_eq!(told.len(), 1, "{mails:?}");
    assert!(
        body(told[0]).contains("a refusé votre demande"),
        "{}",
        body(told[0])
    );
    assert!(w.game(GAME).seat_requests().is_empty());
    assert_eq!(
        w.game(GAME)
            .seat("lannister")
            .unwrap()
            .player()
            .unwrap()
            .address(),
        LANNISTER
    );
}

#[test]
fn the_outgoing_player_is_told_of_replace_and_remove() {
    let mut w = closed_world("outgoing", Lang::Fr);
    w.send_at(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\nREMPLACER Stark ned@nord.test\n"),
        t0(),
    );
    w.take();
    let mails = w.notices(t0());
    let told = to(&mails, STARK);
    assert_eq!(told.len(), 1, "{mails:?}");
    assert_golden("mail/seat-lost-replaced-fr.txt", &rendered(told[0]));
    // Lannister reads English: removed, told in English.
    w.send_at(
        MODERATOR,
        &format!("MODÉRATEUR {GAME} {MODERATOR_SECRET}\nRETIRER Lannister\n"),
        t0(),
    );
    w.take();
    let mails = w.notices(t0());
    let told = to(&mails, LANNISTER);
    assert_eq!(told.len(), 1, "{mails:?}");
    assert_golden("mail/seat-lost-removed-en.txt", &rendered(told[0]));
}

#[test]
fn a_replacements_welcome_in_a_retreat_phase_shows_the_dislodged_unit() {
    let mut w = closed_world("retreat", Lang::Fr);
    w.act(
        GAME,
        Action::Edit {
            position: "phase spring 298 retreat\nunit Baratheon: A bie\n\
                       dislodged Lannister: A bie <- boi\n"
                .into(),
            reason: "test".into(),
        },
        t0(),
    );
    for (lang, address) in [("fr", "kevan@roc.test"), ("en", "jaime@roc.test")] {
        w.send_at(
            MODERATOR,
            &format!(
                "MODÉRATEUR {GAME} {MODERATOR_SECRET}\nREMPLACER Lannister {address} {lang}\n"
            ),
            t0(),
        );
        let mails = w.take();
        let welcome = to(&mails, address);
        assert_eq!(welcome.len(), 1, "{mails:?}");
        let text = body(welcome[0]);
        let (header, retreat) = match lang {
            "fr" => ("Délogées, à faire retraiter", "peut se retirer vers"),
            _ => ("Dislodged, to retreat", "may retreat to"),
        };
        assert!(text.contains(header), "{text}");
        assert!(text.contains("(bie)") && text.contains(retreat), "{text}");
    }
}
