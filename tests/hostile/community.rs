//! What anyone may ask of the judge by mail: `CREATE` from the addresses the configuration
//! allows, bounded per address and day, and never to a forger's profit; `WHOGAME` and
//! `SUMMARY` for anyone, the addresses hidden unless the game shows them; the summary in
//! the game-over mail; the moderator's `EJECT` and `ALERT`.

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::game::{Action, EndBy, GameStatus, Leaving, Press, Settings};
use corbeau::mail::outmail::OutMail;

use crate::support::cli::CliJudge;
use crate::support::world::confirmation_line;
use crate::support::world::{
    BARATHEON, GAME, LANNISTER, MODERATOR, MODERATOR_SECRET, STARK, STARK_SECRET, STRANGER, World,
    now,
};
use crate::support::{assert_golden, flat, rendered};

const CREATOR: &str = "maester@citadel.test";

fn creators(config: &mut Config) {
    config.judge.creators = vec!["@citadel.test".into()];
}

fn body(mail: &OutMail) -> String {
    mail.body.replace("\r\n", "\n")
}

/// The secret the answer to `CREATE` gives (the word after `secret:`/`secret :`).
fn secret_of(reply: &str) -> String {
    let words: Vec<&str> = reply.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.starts_with("secret"))
        .unwrap_or_else(|| panic!("no secret in:\n{reply}"));
    let next = words.get(at + 1).copied().unwrap_or_default();
    let secret = if next == ":" { words[at + 2] } else { next };
    secret.to_string()
}

/// The answer as a golden file shows it: the random secret masked.
fn masked(mail: &OutMail) -> String {
    let text = rendered(mail);
    let secret = secret_of(&body(mail));
    text.replace(&secret, "<SECRET>")
}

fn reply_at(w: &mut World, from: &str, text: &str, when: DateTime<Utc>) -> OutMail {
    w.send_at(from, text, when);
    w.reply_to(from)
}

fn at(hours: i64) -> DateTime<Utc> {
    now() + TimeDelta::hours(hours)
}

#[test]
fn create_makes_the_sender_moderator_with_a_secret_that_works() {
    let mut w = World::with_config("community", "create", creators);
    let reply = w.ask_confirmed(CREATOR, "CRÉER tournoi-1 VARIANTE westeros JOUEURS 4\n");
    assert_golden("mail/create-fr.txt", &masked(&reply));
    let secret = secret_of(&body(&reply));
    let game = w.game("tournoi-1");
    assert_eq!(game.status(), GameStatus::Forming);
    assert_eq!(game.players(), 4);
    assert_eq!(game.moderator().unwrap().address, CREATOR);
    assert!(!w.audit("tournoi-1").is_empty());

    // The secret is the moderator's: it seats a player.
    let sign_on = format!("MODERATEUR tournoi-1 {secret}\nAJOUTER Stark {STARK}\n");
    let reply = body(&w.ask(CREATOR, &sign_on));
    assert!(reply.contains("✓"), "{reply}");
    assert!(
        w.game("tournoi-1")
            .seat("stark")
            .unwrap()
            .player()
            .is_some()
    );

    // English, the words in another order.
    let reply = w.ask_confirmed(CREATOR, "CREATE league-2 PLAYERS 5 VARIANT westeros\n");
    assert_golden("mail/create-en.txt", &masked(&reply));
    assert_eq!(w.game("league-2").players(), 5);
    // Without a variant nor a number of players: Westeros, every house.
    w.ask_confirmed(CREATOR, "CREATE league-3\n");
    let game = w.game("league-3");
    assert_eq!(
        (game.variant().name.as_str(), game.players()),
        ("westeros", 7)
    );
}

#[test]
fn create_is_refused_to_an_address_the_configuration_does_not_allow() {
    // By default nobody may create a game by mail.
    let mut w = World::new("community", "create-nobody");
    let reply = body(&w.ask(CREATOR, "CREATE g1\n"));
    assert!(
        reply.contains("does not let maester@citadel.test create games"),
        "{reply}"
    );
    assert!(w.service().find_game("g1").unwrap().is_none());

    // A domain is that domain, not a look-alike nor a subdomain.
    let mut w = World::with_config("community", "create-stranger", creators);
    for from in ["x@evil.test", "x@citadel.test.evil", "x@sub.citadel.test"] {
        let reply = body(&w.ask(from, "CRÉER g1\n"));
        assert!(reply.contains("ne permet pas"), "{from}: {reply}");
    }
    assert!(w.service().find_game("g1").unwrap().is_none());
}

#[test]
fn create_refuses_a_bad_id_an_unknown_variant_a_path_and_an_existing_game() {
    let mut w = World::with_config("community", "create-bad", creators);
    let cases = [
        ("CREATE -g\n", "invalid game name"),
        ("CREATE g!\n", "CREATE <game>"),
        ("CREATE g2 VARIANT /etc/passwd\n", "/etc/passwd"),
        (
            "CREATE g2 VARIANT games/westeros.toml\n",
            "games/westeros.toml",
        ),
        ("CREATE g2 VARIANT nowhere\n", "nowhere"),
        ("CREATE g2 PLAYERS 12\n", "12"),
        ("CREATE g2 PLAYERS many\n", "CREATE <game>"),
        ("CREATE g2 COLOUR red\n", "CREATE <game>"),
    ];
    for (mail, said) in cases {
        let reply = body(&w.ask(CREATOR, mail));
        assert!(
            reply.contains('✗') && reply.contains(said),
            "{mail}: {reply}"
        );
        assert!(w.service().games().unwrap().is_empty(), "{mail}");
    }
    w.create_seated(GAME, Settings::default(), false);
    let reply = body(&w.ask(CREATOR, &format!("CREATE {GAME}\n")));
    assert!(reply.contains("already exists"), "{reply}");
    assert_eq!(w.game(GAME).moderator().unwrap().address, MODERATOR);
}

#[test]
fn the_daily_bound_holds_and_a_forger_cannot_spend_it_for_good() {
    let mut w = World::with_config("community", "create-bound", creators);
    // A forger sends three CREATEs in the creator's name: nothing is made, the tokens go
    // to the creator's own address, and the bound is not spent.
    for n in 1..=3 {
        let reply = body(&w.ask(CREATOR, &format!("CREATE forged-{n}\n")));
        assert!(confirmation_line(&reply).is_some(), "{reply}");
        let id = format!("forged-{n}");
        assert!(w.service().find_game(&id).unwrap().is_none());
    }
    // The creator's own three, confirmed, fill it.
    let mut secrets = Vec::new();
    for n in 1..=3 {
        let reply = w.ask_confirmed(CREATOR, &format!("CREATE mine-{n}\n"));
        secrets.push(secret_of(&body(&reply)));
    }
    let reply = body(&w.ask(CREATOR, "CREATE mine\n"));
    assert!(reply.contains("has created 3 games"), "{reply}");
    assert!(w.service().find_game("mine").unwrap().is_none());

    // A game abandoned before its start no longer counts: one creation back.
    let abandon = format!("MODERATOR mine-1 {}\nEND GAME ABANDON\n", secrets[0]);
    let reply = body(&w.ask(CREATOR, &abandon));
    assert_eq!(w.game("mine-1").status(), GameStatus::Finished, "{reply}");
    let reply = body(&w.ask_confirmed(CREATOR, "CREATE mine\n"));
    assert!(reply.contains("You are its moderator"), "{reply}");
    let reply = body(&reply_at(&mut w, CREATOR, "CREATE again\n", at(23)));
    assert!(reply.contains("has created 3 games"), "{reply}");

    // A day after, the games of the day before count no more.
    w.send_confirmed_at(CREATOR, "CREATE again\n", at(25));
    let reply = body(&w.reply_to(CREATOR));
    assert!(reply.contains("You are its moderator"), "{reply}");
    // Another address of the domain has its own bound.
    let reply = body(&w.ask_confirmed("other@citadel.test", "CREATE theirs\n"));
    assert!(reply.contains("You are its moderator"), "{reply}");
}

/// A game of three houses, two phases played, Stark's player replaced, Baratheon's
/// resigned: what WHOGAME and SUMMARY read.
fn played_game(name: &str) -> World {
    let w = World::westeros("community", name, Settings::default(), true);
    w.submit(GAME, "stark", "A win -> roc", at(1));
    // Spring and autumn of the first year, and its winter if anyone builds.
    for hour in 2..5 {
        if w.game(GAME).phase().year == 299 {
            break;
        }
        w.process(GAME, at(hour));
    }
    assert_eq!(w.game(GAME).phase().year, 299);
    w.replace_player(GAME, "stark", "bran@nord.test", at(5));
    w.act(
        GAME,
        Action::Resign {
            house: w.house(GAME, "baratheon"),
        },
        at(5),
    );
    w.submit(GAME, "lannister", "A lan H", at(6));
    w.take();
    w
}

#[test]
fn whogame_shows_the_seats_to_anyone_and_no_address_unless_shown() {
    let mut w = played_game("whogame");
    let reply = w.ask(STRANGER, &format!("QUI JOUE {GAME}\n"));
    assert_golden("mail/whogame-fr.txt", &rendered(&reply));
    let reply = w.ask(STRANGER, &format!("WHOGAME {GAME}\n"));
    assert_golden("mail/whogame-en.txt", &rendered(&reply));
    let text = body(&reply);
    for address in [STARK, "bran@nord.test", LANNISTER, BARATHEON, MODERATOR] {
        assert!(!text.contains(address), "{address} leaked:\n{text}");
    }
    // Lannister's orders are in; what they are is not said.
    assert!(
        text.contains("orders in") && !text.contains("A lan"),
        "{text}"
    );

    // The moderator shows them: now they are read.
    let set = format!("MODERATOR {GAME} {MODERATOR_SECRET}\nSET ADDRESSES shown\n");
    let reply = flat(&body(&w.ask(MODERATOR, &set)));
    assert!(reply.contains("cachées → visibles de tous"), "{reply}");
    let text = body(&w.ask(STRANGER, &format!("WHOGAME {GAME}\n")));
    assert!(text.contains("played by bran@nord.test"), "{text}");
    assert!(text.contains(LANNISTER), "{text}");
    // A player may not change it.
    let settings = w.game(GAME).settings().clone();
    assert!(settings.show_addresses);
}

#[test]
fn summary_gives_centres_by_year_players_replacements_and_result() {
    let mut w = played_game("summary");
    let reply = w.ask(STRANGER, &format!("BILAN {GAME}\n"));
    assert_golden("mail/summary-fr.txt", &rendered(&reply));
    let reply = w.ask(STRANGER, &format!("SUMMARY {GAME}\n"));
    assert_golden("mail/summary-en.txt", &rendered(&reply));
    let text = body(&reply);
    for address in [STARK, "bran@nord.test", LANNISTER, BARATHEON, MODERATOR] {
        assert!(!text.contains(address), "{address} leaked:\n{text}");
    }
    let stark = w.game(GAME).seat("stark").unwrap().past().to_vec();
    assert_eq!(stark.len(), 1);
    assert_eq!(
        (stark[0].address.as_str(), stark[0].how),
        (STARK, Leaving::Replaced)
    );
    // An unknown game is said so.
    let text = body(&w.ask(STRANGER, "SUMMARY nowhere\n"));
    assert!(text.contains("nowhere"), "{text}");
}

#[test]
fn the_game_over_mail_carries_the_summary() {
    let w = played_game("game-over");
    w.act(GAME, Action::End(EndBy::Draw), at(7));
    let mails = w.notices(at(7));
    let to = |address: &str| {
        mails
            .iter()
            .find(|m| m.to == address && m.body.contains("game-over"))
            .unwrap_or_else(|| panic!("no game-over mail to {address}: {mails:?}"))
    };
    assert_golden(
        "mail/game-over-summary-fr.txt",
        &rendered(to("bran@nord.test")),
    );
    assert_golden("mail/game-over-summary-en.txt", &rendered(to(LANNISTER)));
}

#[test]
fn eject_removes_a_player_and_alert_writes_to_one_house() {
    let mut w = World::westeros("community", "eject-alert", Settings::default(), true);
    let moderator = format!("MODERATOR {GAME} {MODERATOR_SECRET}\n");
    // A player may do neither.
    let stark =
        format!("SIGNON {GAME} Stark {STARK_SECRET}\nEJECT Lannister\nALERT Lannister hi\n");
    let reply = body(&w.ask(STARK, &stark));
    assert_eq!(
        reply.matches("commande du modérateur").count(),
        2,
        "{reply}"
    );
    assert!(w.game(GAME).seat("lannister").unwrap().player().is_some());

    // ALERT on one line, and ALERT with its text up to END PRESS.
    let alert = format!(
        "{moderator}ALERT Lannister Your orders are late.\nALERTER Stark\nDeux lignes,\nla seconde.\nFIN PRESSE\n"
    );
    w.send(MODERATOR, &alert);
    let mails = w.take();
    let press: Vec<&OutMail> = mails.iter().filter(|m| m.to != MODERATOR).collect();
    assert_eq!(press.len(), 2, "{mails:?}");
    let lannister = press.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(
        body(lannister).contains("Your orders are late."),
        "{}",
        body(lannister)
    );
    let stark = press.iter().find(|m| m.to == STARK).unwrap();
    assert!(
        body(stark).contains("Deux lignes,\nla seconde."),
        "{}",
        body(stark)
    );
    assert!(mails.iter().all(|m| m.to != BARATHEON));

    let reply = body(&w.ask(MODERATOR, &format!("{moderator}EJECT Lannister\n")));
    assert!(reply.contains('✓'), "{reply}");
    let game = w.game(GAME);
    let seat = game.seat("lannister").unwrap();
    assert!(seat.player().is_none());
    assert_eq!(seat.past()[0].how, Leaving::Removed);
    let reply = body(&w.ask(MODERATOR, &format!("{moderator}EXPULSER Stark\n")));
    assert!(reply.contains('✓'), "{reply}");
    assert!(w.game(GAME).seat("stark").unwrap().player().is_none());
}

/// A grey message from Stark to Lannister, then the end of the game: the mail that ends
/// it names Stark only if the moderator said so.
fn grey_game_over(name: &str, reveal: bool) -> Vec<OutMail> {
    let settings = Settings {
        press: Press::Grey,
        ..Settings::default()
    };
    let mut w = World::westeros("community", name, settings, true);
    let grey = format!(
        "SIGNON {GAME} Stark {STARK_SECRET}\nGREY PRESS TO Lannister\nNobody knows.\nEND PRESS\n"
    );
    w.send(STARK, &grey);
    let mails = w.take();
    let press = mails.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(!body(press).contains("Stark"), "{}", body(press));
    let mut moderator = format!("MODERATOR {GAME} {MODERATOR_SECRET}\n");
    if reveal {
        moderator.push_str("SET GREY AUTHORS shown\n");
    }
    moderator.push_str("END GAME DRAW\n");
    w.send(MODERATOR, &moderator);
    w.take();
    w.notices(now())
}

#[test]
fn the_game_over_mail_names_grey_press_authors_only_where_the_game_says() {
    let hidden = grey_game_over("grey-hidden", false);
    let over = hidden.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(!body(over).contains("Grey press"), "{}", body(over));

    let shown = grey_game_over("grey-shown", true);
    let over = mail_to(&shown, LANNISTER);
    let text = flat(&body(over));
    assert!(
        text.contains("Grey press, now that the game is over, with its authors:"),
        "{text}"
    );
    assert!(text.contains(": Stark, to 2 reader(s)"), "{text}");
    let over = mail_to(&shown, STARK);
    let text = flat(&body(over));
    assert!(text.contains(": Stark, à 2 lecteur(s)"), "{text}");
}

fn mail_to<'m>(mails: &'m [OutMail], to: &str) -> &'m OutMail {
    mails
        .iter()
        .find(|m| m.to == to)
        .unwrap_or_else(|| panic!("no mail to {to}: {mails:?}"))
}

#[test]
fn the_command_line_shows_and_hides_the_addresses_and_grey_authors() {
    let judge = CliJudge::new("community", "cli-settings");
    judge.ok(&["game", "new", "g1", "--players", "3"]);
    let out = judge.ok(&["game", "set", "g1", "--addresses", "shown", "--lang", "en"]);
    assert!(out.contains("hidden → shown to anyone"), "{out}");
    let out = judge.ok(&[
        "game",
        "set",
        "g1",
        "--grey-authors",
        "révélés",
        "--lang",
        "fr",
    ]);
    assert!(out.contains("cachées → visibles de tous"), "{out}");
    let out = judge.run(&["game", "set", "g1", "--addresses", "maybe"], None);
    assert_ne!(out.code, 0);
    assert!(out.err.contains("maybe"), "{}", out.err);
}
