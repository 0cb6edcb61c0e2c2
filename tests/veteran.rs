//! A veteran's mail: mails written as njudge and DPjudge players write them, through the
//! binary as a mail server drives it (`corbeau ingest`, `corbeau tick`, the clock fixed),
//! on the classic map. Each test is one habit: what the mail does to the game (the orders
//! stored, the seat signed on, the press delivered) and that the answer neither refuses
//! nor misreads it. The last tests are habits that were right before and must stay so.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, Utc};

use support::assert_golden;
use support::judge::{Clocked, body_of, clocked_judge, root};

const GAME: &str = "vet";
const HOUSES: [&str; 7] = [
    "austria", "england", "france", "germany", "italy", "russia", "turkey",
];
const MODERATOR: &str = "mod@example.org";
/// The first deadline: Wednesday 25 March 2026, 20:00 in Paris.
const AFTER_SPRING: &str = "2026-03-25T19:01:00Z";

clocked_judge!(Veteran);

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn address(house: &str) -> String {
    format!("{house}@example.org")
}

fn secret(house: &str) -> String {
    format!("{house}-pw-1901")
}

impl Veteran {
    /// A running classic game of seven, every player reading English, and its moderator's
    /// secret.
    fn new(name: &str) -> (Veteran, String) {
        let dir = root(&format!("veteran-{name}"), "");
        let judge = Veteran(Clocked::new(dir, time("2026-03-23T08:00:00Z")));
        let created = judge.ok(&[
            "game",
            "new",
            GAME,
            "--variant",
            "classique",
            "--moderator",
            MODERATOR,
            "--json",
        ]);
        let created: serde_json::Value = serde_json::from_str(&created).unwrap();
        let moderator = created["moderator_secret"].as_str().unwrap().to_string();
        let players: Vec<(String, String)> =
            HOUSES.iter().map(|h| (address(h), secret(h))).collect();
        let players: Vec<(&str, &str, &str, &str)> = HOUSES
            .iter()
            .zip(&players)
            .map(|(h, (a, s))| (*h, a.as_str(), s.as_str(), "en"))
            .collect();
        judge.seat_players(GAME, &players);
        judge.ok(&["game", "start", GAME]);
        let mut judge = judge;
        judge.at = time("2026-03-23T09:00:00Z");
        (judge, moderator)
    }

    /// The one answer to a mail, its body. An English answer never hints at a French
    /// keyword.
    fn answer(&mut self, from: &str, body: &str) -> String {
        let replies = self.post(from, body);
        assert_eq!(replies.len(), 1, "{body}: {replies:?}");
        let text = body_of(&replies[0]);
        for french in [
            "PARTIE ",
            "MODERATEUR ",
            "RÉGLER ",
            "REJOINDRE ",
            "RELEVER ",
        ] {
            assert!(
                !text.contains(french),
                "{french} in an English reply:\n{text}"
            );
        }
        text
    }

    /// The answer to a mail signed on as `house`, the sign-on line first.
    fn as_house(&mut self, house: &str, lines: &str) -> String {
        let body = format!("SIGNON {GAME} {house} {}\n{lines}", secret(house));
        self.answer(&address(house), &body)
    }

    /// The house's orders as stored, each line as written, trimmed.
    fn orders(&self, house: &str) -> Vec<String> {
        let shown = self.show(GAME);
        let seat = shown["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["house"] == house)
            .unwrap()
            .clone();
        seat["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["order"]["text"].as_str().unwrap().trim().to_string())
            .collect()
    }

    fn ready(&self, house: &str) -> bool {
        let shown = self.show(GAME);
        shown["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["house"] == house)
            .unwrap()["ready"]
            .as_bool()
            .unwrap()
    }

    /// Replaces the position (a moderator's `game edit`).
    fn edit(&self, position: &str) {
        let file = self.dir.join("position.txt");
        std::fs::write(&file, position).unwrap();
        self.ok(&[
            "game",
            "edit",
            GAME,
            file.to_str().unwrap(),
            "--reason",
            "test",
        ]);
    }

    fn position(&self) -> String {
        self.show(GAME)["position"].as_str().unwrap().to_string()
    }
}

/// A reply that read every line as the veteran meant: no line refused as unknown.
fn understood(reply: &str) {
    for refusal in [
        "unknown command",
        "commande inconnue",
        "unknown province",
        "Orders refused",
        "needs:",
        "on its own line",
        "wrong house or secret",
    ] {
        assert!(!reply.contains(refusal), "{refusal}:\n{reply}");
    }
}

// Orders for later phases.

#[test]
fn a_phase_block_never_changes_the_current_orders() {
    let (mut judge, _) = Veteran::new("phase-short");
    let reply = judge.as_house("france", "A PAR H\nPHASE F1901M\nA PAR-BUR\n");
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A PAR H"]);
    // Kept for autumn, and carried out when autumn begins, with no other mail.
    judge.tick(time(AFTER_SPRING));
    assert_eq!(judge.orders("france"), ["A PAR-BUR"]);
    let news = judge.news(&address("france")).join("\n");
    assert!(news.contains("A Paris (par) -> Burgundy (bur)"), "{news}");
}

#[test]
fn phase_blocks_read_njudge_long_and_short_spellings() {
    let (mut judge, _) = Veteran::new("phase-long");
    let reply = judge.as_house(
        "france",
        "PHASE Fall 1901 Movement\nA PAR-BUR\nPHASE W1901A\nBUILD A PAR\n",
    );
    understood(&reply);
    assert!(judge.orders("france").is_empty());
    assert!(reply.contains("1901"), "{reply}");
}

#[test]
fn clear_removes_the_pending_blocks_only() {
    let (mut judge, _) = Veteran::new("clear");
    judge.as_house("france", "A MAR H\nPHASE F1901M\nA PAR-BUR\n");
    let reply = judge.as_house("france", "CLEAR\n");
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A MAR H"]);
    judge.tick(time(AFTER_SPRING));
    assert!(
        judge.orders("france").is_empty(),
        "{:?}",
        judge.orders("france")
    );
}

#[test]
fn set_nowait_and_set_wait_are_ready_and_not_ready() {
    let (mut judge, _) = Veteran::new("nowait");
    understood(&judge.as_house("france", "A PAR H\nSET NOWAIT\n"));
    assert!(judge.ready("france"));
    understood(&judge.as_house("france", "SET WAIT\n"));
    assert!(!judge.ready("france"));
}

/// One spring mail with moves for every phase to come and a conditional for the next
/// spring is carried out phase by phase with no other mail; the retreat block, whose
/// phase never comes, is told back.
#[test]
fn one_spring_mail_plays_a_whole_year() {
    let (mut judge, _) = Veteran::new("whole-year");
    let reply = judge.as_house(
        "france",
        "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n\
         PHASE S1901R\nA BUR-PIC\n\
         PHASE Fall 1901\nF MAO-POR\nA SPA H\nA BUR H\n\
         PHASE W1901A\nBUILD A PAR\nBUILD F BRE\n\
         PHASE S1902M\nIF France A PAR\n  A PAR-PIC\nELSE\n  A BUR-PIC\nENDIF\n",
    );
    understood(&reply);
    assert_eq!(judge.orders("france").len(), 3);
    judge.tick(time(AFTER_SPRING));
    assert_eq!(judge.orders("france"), ["F MAO-POR", "A SPA H", "A BUR H"]);
    let news = judge.news(&address("france")).join("\n");
    // No retreat phase came: the block is told back, its line quoted.
    assert!(news.contains("A BUR-PIC"), "{news}");
    judge.tick(time("2026-03-27T19:01:00Z"));
    assert_eq!(judge.orders("france"), ["BUILD A PAR", "BUILD F BRE"]);
    judge.news(&address("france"));
    judge.tick(time("2026-03-28T19:01:00Z"));
    // The mail of the spring block: the condition as tested when spring began.
    let spring = judge.news(&address("france"));
    let pending = spring
        .iter()
        .find(|m| m.contains("Subject: [vet] Your orders for spring 1902"))
        .unwrap();
    assert_golden("veteran/pending-conditional-en.txt", &body_of(pending));
    let position = judge.position();
    assert!(position.contains("France: A par"), "{position}");
    assert!(position.contains("France: F bre"), "{position}");
    assert_eq!(judge.orders("france"), ["A PAR-PIC"]);
    judge.tick(time("2026-03-30T18:01:00Z"));
    let position = judge.position();
    assert!(position.contains("France: A pic"), "{position}");
}

// Conditional orders.

#[test]
fn a_conditional_takes_its_branch_on_the_board() {
    let (mut judge, _) = Veteran::new("if");
    let reply = judge.as_house(
        "france",
        "IF England F NTH\n  A PAR-PIC\nELSE\n  A PAR-BUR\nENDIF\nA MAR H\n",
    );
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A PAR-BUR", "A MAR H"]);
}

#[test]
fn a_bad_condition_refuses_its_block_and_keeps_the_other_orders() {
    let (mut judge, _) = Veteran::new("if-bad");
    let reply = judge.as_house("france", "A MAR H\nIF Narnia F XYZ\nA PAR-PIC\nENDIF\n");
    assert_eq!(judge.orders("france"), ["A MAR H"]);
    assert!(reply.contains("line 3"), "{reply}");
}

// njudge's shorthand.

#[test]
fn a_diary_never_harms_the_orders_beside_it() {
    let (mut judge, _) = Veteran::new("diary");
    let reply = judge.as_house(
        "france",
        "DIARY\nGermany cannot be trusted.\nENDDIARY\nA PAR H\n",
    );
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A PAR H"]);
    for house in HOUSES.iter().filter(|h| **h != "france") {
        let news = judge.news(&address(house)).join("\n");
        assert!(!news.contains("cannot be trusted"), "{house}: {news}");
    }
}

#[test]
fn signon_with_the_house_letter_before_the_game() {
    let (mut judge, _) = Veteran::new("signon-letter");
    let reply = judge.answer(
        &address("france"),
        &format!("SIGNON F{GAME} {}\nA PAR H\n", secret("france")),
    );
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A PAR H"]);
}

#[test]
fn signon_with_the_house_letter_after_the_game() {
    let (mut judge, _) = Veteran::new("signon-game-letter");
    let reply = judge.answer(
        &address("france"),
        &format!("SIGNON {GAME} F {}\nA PAR H\n", secret("france")),
    );
    understood(&reply);
    assert_eq!(judge.orders("france"), ["A PAR H"]);
}

#[test]
fn signon_m_is_the_moderator() {
    let (mut judge, moderator) = Veteran::new("signon-master");
    let reply = judge.answer(MODERATOR, &format!("SIGNON M{GAME} {moderator}\nSTATUS\n"));
    understood(&reply);
    assert!(!reply.contains(&moderator), "{reply}");
    assert!(reply.contains("France"), "{reply}");
}

#[test]
fn press_to_house_letters() {
    let (mut judge, _) = Veteran::new("press-letters");
    understood(&judge.as_house("england", "PRESS TO F\nThe Channel is yours.\nEND PRESS\n"));
    understood(&judge.as_house("england", "PRESS TO FG\nBoth of you: peace.\nEND PRESS\n"));
    let france = judge.news(&address("france")).join("\n");
    let germany = judge.news(&address("germany")).join("\n");
    let italy = judge.news(&address("italy")).join("\n");
    assert!(france.contains("The Channel is yours."), "{france}");
    assert!(france.contains("Both of you: peace."), "{france}");
    assert!(!germany.contains("The Channel is yours."), "{germany}");
    assert!(germany.contains("Both of you: peace."), "{germany}");
    assert!(!italy.contains("peace"), "{italy}");
}

#[test]
fn press_to_m_is_the_moderator() {
    let (mut judge, _) = Veteran::new("press-master");
    understood(&judge.as_house("england", "PRESS TO M\nIs the deadline firm?\nEND PRESS\n"));
    let moderator = judge.news(MODERATOR).join("\n");
    assert!(moderator.contains("Is the deadline firm?"), "{moderator}");
}

const CONVOY: &str = "variant classique
phase autumn 1901 movement
owner Autriche: tri bud vie
owner Angleterre: edi lon lvp
owner France: bre mar par
owner Allemagne: ber kie mun
owner Italie: nap rom ven
owner Russie: sev stp mos war
owner Turquie: ank con smy
unit Angleterre: F nth
unit Angleterre: F lon
unit Angleterre: A yor
unit France: A par
";

#[test]
fn a_convoy_path_is_a_move_by_convoy_and_ready_takes_it() {
    let (mut judge, _) = Veteran::new("convoy-path");
    judge.edit(CONVOY);
    let reply = judge.as_house("england", "A YOR-NTH-NWY\nF NTH C A YOR-NWY\nREADY\n");
    understood(&reply);
    assert_eq!(judge.orders("england").len(), 2);
    assert!(judge.ready("england"));
    judge.ok(&["game", "process", GAME]);
    assert!(judge.position().contains("A nwy"), "{}", judge.position());
}

/// A path is checked against the mail's every convoy, once: a convoy given after a
/// command matches it, and a mismatch is told once, however many sets the mail holds.
#[test]
fn a_convoy_path_is_checked_once_against_the_whole_mail() {
    let (mut judge, _) = Veteran::new("convoy-path-once");
    judge.edit(CONVOY);
    let unconvoyed = "no fleet of yours in";
    let reply = judge.as_house("england", "A YOR-NTH-NWY\nREADY\nF NTH C A YOR-NWY\n");
    assert!(!reply.contains(unconvoyed), "{reply}");
    let reply = judge.as_house(
        "england",
        "A YOR-NTH-NWY\nSTATUS\nF LON H\nREADY\nF NTH H\n",
    );
    assert_eq!(reply.matches(unconvoyed).count(), 1, "{reply}");
}

#[test]
fn get_and_whois_are_answered_with_what_this_judge_has() {
    let (mut judge, _) = Veteran::new("get-whois");
    let reply = judge.answer("stranger@example.net", "GET rules\n");
    assert!(!reply.contains("unknown command"), "{reply}");
    let reply = judge.answer("stranger@example.net", "WHOIS france@example.org\n");
    assert!(!reply.contains("unknown command"), "{reply}");
    for house in HOUSES.iter().filter(|h| **h != "france") {
        assert!(!reply.contains(&address(house)), "{reply}");
    }
}

// The smaller habits.

#[test]
fn list_with_a_game() {
    let (mut judge, _) = Veteran::new("list-game");
    let reply = judge.answer("stranger@example.net", &format!("LIST {GAME}\n"));
    understood(&reply);
    assert!(reply.contains(GAME), "{reply}");
}

#[test]
fn summary_after_a_sign_on_is_of_that_game() {
    let (mut judge, _) = Veteran::new("summary");
    let reply = judge.as_house("france", "SUMMARY\n");
    understood(&reply);
    assert!(reply.contains("France"), "{reply}");
}

#[test]
fn history_of_a_game_for_anyone() {
    let (mut judge, _) = Veteran::new("history");
    judge.as_house("france", "A PAR-BUR\n");
    judge.tick(time(AFTER_SPRING));
    let reply = judge.answer("stranger@example.net", &format!("HISTORY {GAME}\n"));
    understood(&reply);
    assert!(reply.contains("Burgundy"), "{reply}");
}

const WINTER: &str = "variant classique
phase winter 1901 adjustment
owner Autriche: tri bud vie
owner Angleterre: edi lon lvp
owner France: bre mar par spa
owner Allemagne: ber kie mun
owner Italie: nap rom ven
owner Russie: sev stp mos war
owner Turquie: ank con smy
unit France: F mao
unit France: A mar
unit France: A spa
";

#[test]
fn an_extra_waive_beside_a_build_does_not_refuse_ready() {
    let (mut judge, _) = Veteran::new("waive");
    judge.edit(WINTER);
    let reply = judge.as_house("france", "BUILD A PAR\nWAIVE\nREADY\n");
    assert!(!reply.contains("Orders refused"), "{reply}");
    assert!(judge.ready("france"), "{reply}");
}

#[test]
fn partial_orders_alone_is_answered() {
    let (mut judge, _) = Veteran::new("partial");
    let reply = judge.as_house("france", "PARTIAL ORDERS\n");
    assert!(reply.contains("> PARTIAL ORDERS"), "{reply}");
}

#[test]
fn a_players_preview_shows_one_deadline() {
    let (mut judge, _) = Veteran::new("preview");
    let reply = judge.as_house("france", "A PAR-BUR\nPREVIEW\n");
    let deadlines: Vec<&str> = reply
        .lines()
        .filter(|l| l.contains("March 2026"))
        .map(str::trim)
        .collect();
    let mut distinct = deadlines.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() <= 1, "{deadlines:?}\n{reply}");
}

/// An open classic game of seven waiting for players, France taken.
fn open_game(judge: &mut Veteran) {
    judge.ok(&[
        "game",
        "new",
        "open",
        "--variant",
        "classique",
        "--moderator",
        MODERATOR,
    ]);
    judge.ok(&["game", "set", "open", "--open", "yes"]);
    judge.ok(&["player", "add", "open", "france", "taken@example.org"]);
}

#[test]
fn a_join_of_a_taken_house_lists_the_free_ones() {
    let (mut judge, _) = Veteran::new("join-taken");
    open_game(&mut judge);
    let reply = judge.answer("newcomer@example.net", "JOIN open france\n");
    assert!(
        reply.contains("Austria") && reply.contains("Turkey"),
        "{reply}"
    );
}

#[test]
fn list_says_how_to_ask_for_a_free_seat() {
    let (mut judge, _) = Veteran::new("list-free");
    judge.ok(&["game", "set", GAME, "--open", "yes"]);
    judge.ok(&["player", "remove", GAME, "turkey"]);
    let reply = judge.answer("newcomer@example.net", "LIST\n");
    assert!(reply.contains("TAKEOVER"), "{reply}");
}

#[test]
fn moves_written_m_or_move_and_a_stand() {
    let (mut judge, _) = Veteran::new("move-words");
    let reply = judge.as_house("france", "A PAR M BUR\nA MAR MOVE SPA\nF BRE STAND\n");
    understood(&reply);
    assert!(reply.contains("A Paris (par) -> Burgundy (bur)"), "{reply}");
    assert!(
        reply.contains("A Marseilles (mar) -> Spain (spa)"),
        "{reply}"
    );
    assert!(reply.contains("F Brest (bre) holds"), "{reply}");
}

#[test]
fn press_inside_a_block_is_answered_in_its_place() {
    let (mut judge, _) = Veteran::new("press-in-block");
    let reply = judge.as_house(
        "france",
        "PHASE F1901M\nA PAR-BUR\nPRESS TO G\nHello.\nENDPRESS\nPHASE W1901A\nBUILD A PAR\n",
    );
    understood(&reply);
    // The answers follow the mail: the autumn block, the press, the winter block.
    let autumn = reply.find("> PHASE F1901M").unwrap();
    let press = reply.find("> PRESS TO G").unwrap();
    let winter = reply.find("> PHASE W1901A").unwrap();
    assert!(autumn < press && press < winter, "{reply}");
    // Press is not delayed: Germany has it now.
    let news = judge.news(&address("germany")).join("\n");
    assert!(news.contains("Hello."), "{news}");
}

// What was right before stays right.

#[test]
fn plain_orders_and_ready_still_work() {
    let (mut judge, _) = Veteran::new("plain");
    let reply = judge.as_house("france", "A PAR-BUR\nA MAR H\nF BRE-MAO\nREADY\n");
    understood(&reply);
    assert_eq!(judge.orders("france").len(), 3);
    assert!(judge.ready("france"));
}

#[test]
fn a_french_sign_on_and_orders_still_work() {
    let (mut judge, _) = Veteran::new("french");
    let body = format!("PARTIE {GAME} france {}\nA PAR H\nPRÊT\n", secret("france"));
    let replies = judge.post(&address("france"), &body);
    assert_eq!(replies.len(), 1);
    assert_eq!(judge.orders("france"), ["A PAR H"]);
    assert!(judge.ready("france"));
}

#[test]
fn a_draw_vote_still_works() {
    let (mut judge, _) = Veteran::new("draw");
    understood(&judge.as_house("france", "DRAW\n"));
    let shown = judge.show(GAME);
    let france = shown["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "france")
        .unwrap()
        .clone();
    assert!(!france["vote"].is_null(), "{france}");
}
