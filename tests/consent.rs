//! Consent before a seat or a game, through the binary as a mail server drives it
//! (`corbeau ingest`, the clock fixed): a `JOIN`, `TAKEOVER` or `CREATE` does nothing
//! until the address it came from sends back the token mailed there. Each attack of a
//! forged `From:` is tried, and the real person's path beside it: forged requests seat
//! nobody, start nothing, spend no bound, mail their victim once, and never keep a real
//! request out; a player the moderator removed does not take the seat back alone.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, TimeDelta, Utc};
use support::judge::{Clocked, body_of, mails_to, root, run, said};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

support::judge::clocked_judge!(Judge);

impl Judge {
    fn new(name: &str, config: &str) -> Judge {
        let dir = root(&format!("consent-{name}"), "");
        if !config.is_empty() {
            let path = dir.join("corbeau.toml");
            let text = std::fs::read_to_string(&path)
                .unwrap()
                .replace("[judge]\n", &format!("[judge]\n{config}"));
            std::fs::write(&path, text).unwrap();
        }
        Judge(Clocked::new(dir, t0()))
    }

    fn game(&self, id: &str, players: &str, options: &[&str]) {
        let mut args = vec![
            "game",
            "new",
            id,
            "--players",
            players,
            "--moderator",
            MODERATOR,
            "--game-lang",
            "en",
        ];
        args.extend_from_slice(options);
        self.ok(&args);
    }

    /// Sends a mail; the bodies of the answers to it (none, or one).
    fn post(&mut self, from: &str, body: &str) -> Vec<String> {
        self.0.post(from, body).iter().map(|m| body_of(m)).collect()
    }

    /// Sends a mail and returns its one answer.
    fn send(&mut self, from: &str, body: &str) -> String {
        let mut replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "answers: {replies:?}");
        replies.remove(0)
    }

    /// Sends a request, then the confirmation line its answer gives, from the same
    /// address; the answer to the confirmation.
    fn confirmed(&mut self, from: &str, request: &str) -> String {
        let asked = self.send(from, request);
        let line = confirmation(&asked).unwrap_or_else(|| panic!("no token in: {asked}"));
        self.send(from, &line)
    }
}

/// The line `… CONFIRM <token>` an answer asks to send back.
fn confirmation(reply: &str) -> Option<String> {
    support::world::confirmation_line(reply)
}

fn seated(game: &serde_json::Value) -> Vec<String> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["player"]["address"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn forged_joins_seat_nobody_and_start_nothing_while_real_players_confirm_and_start_it() {
    let mut j = Judge::new("ghosts", "");
    j.game("ouverte", "3", &["--open"]);
    // Three made-up addresses ask for every seat: each gets a token (at its own
    // address, which nobody reads), nothing more.
    for ghost in [
        "ghost1@nowhere.invalid",
        "ghost2@nowhere.invalid",
        "ghost3@nowhere.invalid",
    ] {
        let reply = j.send(ghost, "JOIN ouverte\n");
        assert!(confirmation(&reply).is_some(), "{reply}");
    }
    let game = j.show("ouverte");
    assert!(seated(&game).is_empty(), "{game}");
    assert_eq!(game["status"], "forming");
    // Real players confirm, while the forgers go on.
    let players = ["jon@mur.test", "sansa@nord.test", "davos@oignon.test"];
    for (i, player) in players.iter().enumerate() {
        let request = if i == 0 {
            "REJOINDRE ouverte\n"
        } else {
            "JOIN ouverte\n"
        };
        let reply = j.confirmed(player, request);
        assert!(reply.contains('✓'), "{reply}");
        j.post("ghost1@nowhere.invalid", "JOIN ouverte\n");
    }
    let game = j.show("ouverte");
    let mut seated = seated(&game);
    seated.sort();
    let mut expected: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(seated, expected);
    assert_eq!(
        game["status"], "running",
        "full with real players, it starts"
    );
}

#[test]
fn a_forged_join_in_a_victims_name_mails_the_victim_once_and_the_victim_may_still_confirm() {
    let mut j = Judge::new("victim", "");
    j.game("ouverte", "3", &["--open"]);
    let victim = "victim@example.org";
    let mut answers = Vec::new();
    for _ in 0..10 {
        answers.extend(j.post(victim, "JOIN ouverte\n"));
    }
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(mails_to(&j.dir, victim).len(), 1);
    assert!(seated(&j.show("ouverte")).is_empty());
    // The token went to the victim only: had the victim wanted the seat, it confirms.
    let line = confirmation(&answers[0]).unwrap();
    let reply = j.send(victim, &line);
    assert!(reply.contains('✓'), "{reply}");
    assert_eq!(seated(&j.show("ouverte")), vec![victim.to_string()]);
    // The token works from the address it was mailed to only.
    let other = j.send("forger@example.net", &line);
    assert!(!other.contains('✓'), "{other}");
}

#[test]
fn a_token_confirms_its_own_request_until_it_expires() {
    let mut j = Judge::new("expiry", "");
    j.game("ouverte", "3", &["--open"]);
    let asked = j.send("late@example.org", "JOIN ouverte\n");
    let line = confirmation(&asked).unwrap();
    // Another house than the one asked is another request.
    let stark = j.send(
        "late@example.org",
        &line.replace("JOIN ouverte", "JOIN ouverte Stark"),
    );
    assert!(!stark.contains('✓'), "{stark}");
    j.at = t0() + TimeDelta::days(4);
    let late = j.send("late@example.org", &line);
    assert!(!late.contains('✓'), "{late}");
    assert!(seated(&j.show("ouverte")).is_empty());
    // Once expired, a new request gets a new token.
    let again = j.confirmed("late@example.org", "JOIN ouverte\n");
    assert!(again.contains('✓'), "{again}");
}

#[test]
fn forged_creates_spend_no_bound_and_a_real_create_goes_through() {
    let mut j = Judge::new("creates", "creators = [\"anyone\"]\ngames_per_day = 20\n");
    for i in 0..25 {
        let reply = j.send(
            &format!("ghost{i}@nowhere.invalid"),
            &format!("CREATE jeu{i}\n"),
        );
        assert!(confirmation(&reply).is_some(), "{reply}");
    }
    let out = run(&mut j.command(&["game", "show", "jeu0"]), "");
    assert!(
        !out.status.success(),
        "a forged CREATE made a game: {}",
        said(&out)
    );
    let reply = j.confirmed("real@example.org", "CRÉER vraie JOUEURS 3\n");
    assert!(reply.contains("secret"), "{reply}");
    assert_eq!(j.show("vraie")["moderator"]["address"], "real@example.org");
}

#[test]
fn an_ejected_player_does_not_take_the_seat_back_but_the_moderator_may_seat_it() {
    let mut j = Judge::new("ejected", "");
    j.game("ouverte", "3", &["--open"]);
    let ejected = "pest@example.org";
    j.ok(&["player", "add", "ouverte", "stark", ejected]);
    j.ok(&["player", "remove", "ouverte", "stark"]);
    for request in [
        "TAKEOVER ouverte Stark\n",
        "JOIN ouverte Stark\n",
        "JOIN ouverte\n",
    ] {
        let reply = j.send(ejected, request);
        assert!(confirmation(&reply).is_none(), "{reply}");
        assert!(reply.contains("moderator"), "{reply}");
    }
    assert!(seated(&j.show("ouverte")).is_empty());
    // Another address takes the vacant seat the usual way.
    let reply = j.confirmed("newcomer@example.org", "TAKEOVER ouverte Stark\n");
    assert!(reply.contains('✓'), "{reply}");
    // The moderator may still seat the removed address.
    j.ok(&["player", "add", "ouverte", "lannister", ejected]);
    assert!(seated(&j.show("ouverte")).contains(&ejected.to_string()));
}

#[test]
fn forged_takeovers_do_not_block_real_ones_and_the_moderator_picks_among_them() {
    let mut j = Judge::new("takeover", "");
    j.game("fermee", "3", &[]);
    for (house, address) in [
        ("stark", "a@example.org"),
        ("lannister", "b@example.org"),
        ("baratheon", "c@example.org"),
    ] {
        j.ok(&["player", "add", "fermee", house, address]);
    }
    j.ok(&["game", "start", "fermee"]);
    // Forged requests for Stark: tokens to their own addresses, no request waits.
    for i in 0..10 {
        let reply = j.send(
            &format!("ghost{i}@nowhere.invalid"),
            "TAKEOVER fermee Stark\n",
        );
        assert!(confirmation(&reply).is_some(), "{reply}");
    }
    assert_eq!(
        j.show("fermee")["seat_requests"]
            .as_array()
            .map_or(0, Vec::len),
        0
    );
    // Two real addresses confirm: both wait, the second is not refused for the first.
    for real in ["real1@example.org", "real2@example.org"] {
        let reply = j.confirmed(real, "TAKEOVER fermee Stark\n");
        assert!(reply.contains("moderator"), "{reply}");
    }
    let requests = j.show("fermee")["seat_requests"].clone();
    assert_eq!(requests.as_array().unwrap().len(), 2, "{requests}");
    // The moderator sees them with what the judge knows of each address.
    let shown = j.ok(&["game", "show", "fermee"]);
    assert!(shown.contains("real1@example.org") && shown.contains("real2@example.org"));
    assert!(
        shown.contains("never seen here") || shown.contains("jamais vu"),
        "{shown}"
    );
    // Several ask: the house alone does not say which.
    let out = run(
        &mut j.command(&["player", "approve", "fermee", "stark"]),
        "",
    );
    assert!(!out.status.success(), "{}", said(&out));
    j.ok(&["player", "approve", "fermee", "stark", "real2@example.org"]);
    let game = j.show("fermee");
    assert!(seated(&game).contains(&"real2@example.org".to_string()));
    assert_eq!(game["seat_requests"].as_array().map_or(0, Vec::len), 0);
    // The other asker is told, by the notice the next pass sends.
    j.ok(&["tick"]);
    let told = mails_to(&j.dir, "real1@example.org");
    assert!(told.iter().any(|m| m.contains("refused")), "{told:?}");
}

#[test]
fn the_moderator_rejects_one_request_or_all() {
    let mut j = Judge::new("reject", "");
    j.game("fermee", "3", &[]);
    for (house, address) in [
        ("stark", "a@example.org"),
        ("lannister", "b@example.org"),
        ("baratheon", "c@example.org"),
    ] {
        j.ok(&["player", "add", "fermee", house, address]);
    }
    for real in ["r1@example.org", "r2@example.org", "r3@example.org"] {
        j.confirmed(real, "TAKEOVER fermee Stark\n");
    }
    let waiting = |j: &Judge| {
        j.show("fermee")["seat_requests"]
            .as_array()
            .map_or(0, Vec::len)
    };
    assert_eq!(waiting(&j), 3);
    // One address asks once per house: its repeat, confirmed, is refused.
    let again = j.confirmed("r1@example.org", "TAKEOVER fermee Stark\n");
    assert!(!again.contains('✓'), "{again}");
    j.ok(&["player", "reject", "fermee", "stark", "r1@example.org"]);
    assert_eq!(waiting(&j), 2);
    j.ok(&["player", "reject", "fermee", "stark"]);
    assert_eq!(waiting(&j), 0);
}

/// The secret the welcome mail of `game` brought to `address`: the last word of its
/// sign-on line (`SIGNON <game> <house> <secret>`).
fn welcome_secret(j: &Judge, address: &str, game: &str) -> String {
    mails_to(&j.dir, address)
        .iter()
        .flat_map(|m| m.lines().map(|l| l.trim().to_string()).collect::<Vec<_>>())
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            (words.len() == 4 && matches!(words[0], "SIGNON" | "PARTIE") && words[1] == game)
                .then(|| words[3].to_string())
        })
        .unwrap_or_else(|| panic!("no sign-on line for {game} mailed to {address}"))
}

#[test]
fn an_address_that_holds_a_secret_here_confirms_with_it_at_once() {
    let mut j = Judge::new("holder", "creators = [\"anyone\"]\n");
    j.game("premiere", "3", &["--open"]);
    j.game("seconde", "3", &["--open"]);
    let player = "arya@braavos.test";
    let reply = j.confirmed(player, "JOIN premiere\n");
    assert!(reply.contains('✓'), "{reply}");
    let secret = welcome_secret(&j, player, "premiere");
    // A forger who learnt the secret but writes from another address gets nothing: the
    // secret is checked against what that address holds only.
    let forged = j.send(
        "forger@example.net",
        &format!("JOIN seconde CONFIRM {secret}\n"),
    );
    assert!(!forged.contains('✓'), "{forged}");
    // A wrong secret from the right address: refused, nothing done.
    let wrong = j.send(player, "JOIN seconde CONFIRM notmysecret42\n");
    assert!(!wrong.contains('✓'), "{wrong}");
    assert!(seated(&j.show("seconde")).is_empty());
    // The player's own secret, in the token's place: seated at once, no token mailed.
    let before = mails_to(&j.dir, player).len();
    let reply = j.send(player, &format!("JOIN seconde CONFIRM {secret}\n"));
    assert!(reply.contains('✓'), "{reply}");
    assert!(!reply.contains(&secret), "the secret quoted back: {reply}");
    assert_eq!(seated(&j.show("seconde")), vec![player.to_string()]);
    // The answer and the welcome mail of the new seat: no round trip.
    assert_eq!(mails_to(&j.dir, player).len(), before + 2);
    // And a game, the same way.
    let created = j.send(
        player,
        &format!("CREATE troisieme PLAYERS 3 CONFIRM {secret}\n"),
    );
    assert!(created.contains("secret"), "{created}");
    assert_eq!(j.show("troisieme")["moderator"]["address"], player);
}

#[test]
fn an_owner_who_threw_away_a_forged_request_s_answer_asks_again_a_day_later() {
    let mut j = Judge::new("thrown", "");
    j.game("ouverte", "3", &["--open"]);
    let owner = "owner@example.org";
    // A forger's request in the owner's name: the owner is mailed its token, and throws
    // it away.
    assert_eq!(j.post(owner, "JOIN ouverte\n").len(), 1);
    // The owner's own request the same day: silent (it may be the forger again).
    j.at = t0() + TimeDelta::hours(20);
    assert!(j.post(owner, "JOIN ouverte\n").is_empty());
    // A day after the first token, the owner's request gets one again, which works.
    j.at = t0() + TimeDelta::hours(25);
    let reply = j.confirmed(owner, "JOIN ouverte\n");
    assert!(reply.contains('✓'), "{reply}");
    assert_eq!(seated(&j.show("ouverte")), vec![owner.to_string()]);
}
