//! The smaller habits of players coming from njudge and DPjudge, through the binary as a
//! mail server drives it (`corbeau ingest`, the clock fixed): `LIST <game>`, `SUMMARY`
//! after a sign-on, a stranger's `HISTORY <game>`, a `WAIVE` beyond the builds, English
//! replies naming English keywords only, `PARTIAL ORDERS` with nothing after it, one
//! deadline in a player's `PREVIEW`, the free houses named when a `JOIN` asks for a taken
//! one, how to ask for a free seat of a running game, and `GET` and `WHOIS`.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use support::TempDir;
use support::flat;
use support::judge::root;

const GAME: &str = "veterans";
const NOW: &str = "2026-03-23T08:00:00Z";
/// Two days later, before the deadline: a preview then would show another deadline for
/// the phase it never opens.
const LATER: &str = "2026-03-25T08:00:00Z";
const STARK: &str = "stark@example.org";
const LANNISTER: &str = "lannister@example.org";
const BARATHEON: &str = "baratheon@example.org";
const MODERATOR: &str = "mod@example.org";
const STRANGER: &str = "curious@example.net";

/// A judge holding a game of three on Westeros, Stark reading French and Lannister and
/// Baratheon English, with a moderator; started unless `forming`.
fn judge(name: &str, forming: bool, open: bool) -> TempDir {
    let dir = root(&format!("veteran-{name}"), "");
    let mut new = vec![
        "game",
        "new",
        GAME,
        "--players",
        "3",
        "--moderator",
        MODERATOR,
    ];
    if open {
        new.push("--open");
    }
    ok(&dir, &new);
    let seats: &[(&str, &str, &str, &str)] = &[
        ("stark", STARK, "loup-gris-7", "fr"),
        ("lannister", LANNISTER, "lion-dor-42", "en"),
        ("baratheon", BARATHEON, "cerf-noir-3", "en"),
    ];
    let seats = if forming { &seats[..1] } else { seats };
    for (house, address, secret, lang) in seats {
        ok(
            &dir,
            &[
                "player",
                "add",
                GAME,
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                lang,
            ],
        );
    }
    if !forming {
        ok(&dir, &["game", "start", GAME]);
    }
    dir
}

fn ok(dir: &Path, args: &[&str]) -> String {
    support::judge::ok_at(dir, NOW, args)
}

/// Sends a mail to the judge and returns the body of its answer to `from`.
fn send(dir: &Path, from: &str, id: &str, body: &str) -> String {
    support::judge::answer_at(dir, NOW, from, id, body)
}

fn show(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(dir, &["game", "show", GAME, "--json"])).unwrap()
}

fn lannister(body: &str) -> String {
    format!("SIGNON {GAME} Lannister lion-dor-42\n{body}")
}

fn stark(body: &str) -> String {
    format!("PARTIE {GAME} Stark loup-gris-7\n{body}")
}

// ========================================================================= LIST <game>

#[test]
fn list_naming_a_game_answers_with_that_game_alone() {
    let dir = judge("list", false, false);
    let other = [
        "game",
        "new",
        "other-game",
        "--players",
        "3",
        "--moderator",
        MODERATOR,
    ];
    ok(&dir, &other);
    let reply = send(&dir, STRANGER, "l1@example.org", &format!("LIST {GAME}\n"));
    assert!(!reply.contains("on its own line"), "{reply}");
    assert!(!reply.contains('✗'), "{reply}");
    assert!(reply.contains(GAME), "{reply}");
    assert!(!reply.contains("other-game"), "{reply}");
    let french = send(&dir, STRANGER, "l2@example.org", &format!("LISTE {GAME}\n"));
    assert!(french.contains(GAME) && !french.contains('✗'), "{french}");
    assert!(!french.contains("other-game"), "{french}");
    // The whole list still names both.
    let all = send(&dir, STRANGER, "l3@example.org", "LIST\n");
    assert!(all.contains(GAME) && all.contains("other-game"), "{all}");
    // A game that does not exist is said so.
    let none = send(&dir, STRANGER, "l4@example.org", "LIST nowhere\n");
    assert!(none.contains('✗') && none.contains("nowhere"), "{none}");
}

// ====================================================================== SUMMARY alone

#[test]
fn summary_after_a_sign_on_is_of_the_game_signed_on_to() {
    let dir = judge("summary", false, false);
    let reply = send(&dir, LANNISTER, "s1@example.org", &lannister("SUMMARY\n"));
    assert!(!reply.contains('✗'), "{reply}");
    assert!(!reply.contains("SUMMARY [<game>]"), "{reply}");
    let named = send(
        &dir,
        STRANGER,
        "s2@example.org",
        &format!("SUMMARY {GAME}\n"),
    );
    let heading = format!("Game \"{GAME}\" ({GAME}), westeros");
    assert!(reply.contains(&heading), "{reply}");
    assert!(reply.contains("Supply centres, at the start"), "{reply}");
    assert!(named.contains(&heading), "{named}");
    let french = send(&dir, STARK, "s3@example.org", &stark("BILAN\n"));
    assert!(!french.contains('✗'), "{french}");
    // Alone, without any game: the refusal says to name one.
    let alone = send(&dir, STRANGER, "s4@example.org", "SUMMARY\n");
    assert!(alone.contains('✗'), "{alone}");
}

// ====================================================================== HISTORY <game>

#[test]
fn a_stranger_reads_the_history_of_the_phases_played_never_the_orders_waiting() {
    let dir = judge("history", false, false);
    send(
        &dir,
        LANNISTER,
        "h1@example.org",
        &lannister("A pie -> ner\n"),
    );
    ok(&dir, &["game", "process", GAME]);
    // Orders for the new phase, not yet played: no stranger may read them.
    send(&dir, LANNISTER, "h2@example.org", &lannister("A ner H\n"));
    let reply = send(
        &dir,
        STRANGER,
        "h3@example.org",
        &format!("HISTORY {GAME}\n"),
    );
    assert!(!reply.contains('✗'), "{reply}");
    assert!(reply.contains("Stoney Sept (pie)"), "{reply}");
    assert!(reply.contains("-> Blackwater (ner)"), "{reply}");
    assert!(!reply.contains("Blackwater (ner) holds"), "{reply}");
    let phase = send(
        &dir,
        STRANGER,
        "h4@example.org",
        &format!("HISTORIQUE {GAME} P298M\n"),
    );
    assert!(!phase.contains('✗'), "{phase}");
    assert!(phase.contains("(pie)"), "{phase}");
    // A phase not yet played has no results.
    let ahead = send(
        &dir,
        STRANGER,
        "h5@example.org",
        &format!("HISTORY {GAME} F298M\n"),
    );
    assert!(ahead.contains('✗'), "{ahead}");
    assert!(!ahead.contains("Blackwater (ner) holds"), "{ahead}");
    // The player's own HISTORY, without the game, as before.
    let player = send(&dir, LANNISTER, "h6@example.org", &lannister("HISTORY\n"));
    assert!(
        player.contains("(pie)") && !player.contains('✗'),
        "{player}"
    );
    // After a wrong secret, nothing of the game is read for that mail.
    let guess = send(
        &dir,
        STRANGER,
        "h7@example.org",
        &format!("SIGNON {GAME} Lannister guess-1234\nHISTORY\n"),
    );
    assert!(!guess.contains("(pie)"), "{guess}");
}

// ===================================================================== a spare WAIVE

/// Winter 298, two of the house's armies gone from its home centres: two builds (Stark:
/// in win and moa; Lannister: in pie and mfm).
fn winter_with_two_builds(dir: &Path, house: &str) {
    let position = show(dir)["position"].as_str().unwrap().to_string();
    let gone: &[&str] = match house {
        "stark" => &["unit Stark: A win\n", "unit Stark: A moa\n"],
        _ => &["unit Lannister: A pie\n", "unit Lannister: A mfm\n"],
    };
    let mut position = position.replace("phase spring 298 movement", "phase winter 298 adjustment");
    for unit in gone {
        position = position.replace(unit, "");
    }
    let file = dir.join("winter.txt");
    std::fs::write(&file, position).unwrap();
    let file = file.to_str().unwrap();
    ok(dir, &["game", "edit", GAME, file, "--reason", "test"]);
}

/// Whether the house's READY counted: ready, or the phase processed at once (the house
/// was the only one with something to decide).
fn ready_counted(dir: &Path, house: &str) -> bool {
    let game = show(dir);
    let seat = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == house)
        .unwrap()
        .clone();
    seat["ready"] == true || game["played"].as_u64() != Some(0)
}

#[test]
fn a_waive_beyond_the_builds_is_ignored_and_ready_counts() {
    let dir = judge("waive", false, false);
    winter_with_two_builds(&dir, "stark");
    // Two builds fill Stark's count: the waive beside them is one too many.
    let reply = send(
        &dir,
        STARK,
        "w1@example.org",
        &stark("Build A win\nBuild A moa\nWAIVE\nPRÊT\n"),
    );
    assert!(
        flat(&reply).contains("1 WAIVE au-delà des constructions"),
        "{reply}"
    );
    assert!(ready_counted(&dir, "stark"), "{reply}");
}

#[test]
fn waives_beyond_the_count_are_ignored_in_english_too() {
    let dir = judge("waive-en", false, false);
    winter_with_two_builds(&dir, "lannister");
    // Three waives for two builds.
    let reply = send(
        &dir,
        LANNISTER,
        "w2@example.org",
        &lannister("WAIVE\nWAIVE\nWAIVE\nREADY\n"),
    );
    assert!(
        flat(&reply).contains("1 WAIVE beyond the builds"),
        "{reply}"
    );
    assert!(ready_counted(&dir, "lannister"), "{reply}");
}

#[test]
fn an_illegal_build_still_keeps_ready_from_counting() {
    let dir = judge("waive-build", false, false);
    winter_with_two_builds(&dir, "stark");
    // Lannisport is Lannister's: no Stark build goes there.
    let reply = send(&dir, STARK, "w3@example.org", &stark("Build F lan\nPRÊT\n"));
    assert!(!ready_counted(&dir, "stark"), "{reply}");
    assert!(!reply.contains("WAIVE"), "{reply}");
}

// ============================================================= English replies, English keywords

/// The French spellings of the keywords, as words in capitals (`PARTIE`, `FIN PRESSE`).
fn french_keywords() -> Vec<Vec<String>> {
    corbeau::mail::command::SPELLINGS
        .iter()
        .filter(|s| s.lang == Some(corbeau::lang::Lang::Fr))
        .map(|s| s.words.split(' ').map(str::to_string).collect())
        .collect()
}

/// The runs of words in capitals of a text, each word folded (no accent, lower case).
fn capital_runs(text: &str) -> Vec<Vec<String>> {
    let mut runs: Vec<Vec<String>> = vec![Vec::new()];
    for word in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
    {
        if word.chars().count() > 1 && word.chars().all(char::is_uppercase) {
            runs.last_mut().unwrap().push(corbeau::map::fold(word));
        } else {
            runs.push(Vec::new());
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

#[test]
fn english_templates_name_no_french_keyword() {
    let french = french_keywords();
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/en");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for run in capital_runs(line) {
                for keyword in &french {
                    if run.windows(keyword.len()).any(|w| w == keyword.as_slice()) {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "French keywords in English:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_of_english_templates_sees_a_french_keyword() {
    let french = french_keywords();
    let runs = capital_runs("write it on the line (PARTIE <game> <house> <secret>) or FIN PRESSE");
    let hits = |words: &[&str]| {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        french.contains(&words)
            && runs
                .iter()
                .any(|r| r.windows(words.len()).any(|w| w == words))
    };
    assert!(hits(&["partie"]), "{runs:?}");
    assert!(hits(&["fin", "presse"]), "{runs:?}");
}

#[test]
fn an_english_reply_to_a_lone_secret_shows_the_english_sign_on() {
    let dir = judge("lone-secret", false, false);
    let reply = send(
        &dir,
        LANNISTER,
        "e1@example.org",
        &format!("SIGNON {GAME} Lannister\nlion-dor-42\nSTATUS\n"),
    );
    assert!(reply.contains("SIGNON <game> <house> <secret>"), "{reply}");
    assert!(!reply.contains("PARTIE"), "{reply}");
    assert!(!reply.contains("lion-dor-42"), "{reply}");
}

// ================================================================ PARTIAL ORDERS alone

#[test]
fn partial_orders_with_nothing_after_is_answered() {
    let dir = judge("partial", false, false);
    let reply = send(
        &dir,
        LANNISTER,
        "p1@example.org",
        &lannister("PARTIAL ORDERS\n"),
    );
    assert!(reply.contains("> PARTIAL ORDERS"), "{reply}");
    assert!(reply.contains("no order line followed"), "{reply}");
    let french = send(
        &dir,
        STARK,
        "p2@example.org",
        &stark("ORDRES PARTIELS\nPRÊT\n"),
    );
    assert!(french.contains("> ORDRES PARTIELS"), "{french}");
    assert!(french.contains("aucune ligne d'ordre ne suit"), "{french}");
    // With orders after it, nothing more is said.
    let orders = send(
        &dir,
        LANNISTER,
        "p3@example.org",
        &lannister("PARTIAL ORDERS\nA pie -> ner\n"),
    );
    assert!(!orders.contains("no order line followed"), "{orders}");
    assert!(orders.contains("1 order line(s) received"), "{orders}");
}

// =============================================================== one deadline in PREVIEW

#[test]
fn a_players_preview_shows_one_deadline_the_real_one() {
    let dir = judge("preview", false, false);
    let reply = support::judge::answer_at(
        &dir,
        LATER,
        LANNISTER,
        "v1@example.org",
        &lannister("A pie -> ner\nPREVIEW\n"),
    );
    let deadlines: std::collections::BTreeSet<&str> = reply
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Deadline:"))
        .map(str::trim)
        .collect();
    assert_eq!(deadlines.len(), 1, "{reply}");
    assert!(
        deadlines.contains("Wednesday 25 March 2026 at 20:00 (Europe/Paris)"),
        "{reply}"
    );
}

// ================================================================ JOIN of a taken house

#[test]
fn a_join_of_a_taken_house_lists_the_free_ones() {
    let dir = judge("join", true, true);
    let reply = send(
        &dir,
        STRANGER,
        "j1@example.org",
        &format!("JOIN {GAME} Stark\n"),
    );
    let reply = flat(&reply);
    assert!(reply.contains("is played"), "{reply}");
    assert!(
        reply.contains("Lannister") && reply.contains("Baratheon"),
        "{reply}"
    );
    assert!(reply.contains(&format!("JOIN {GAME}")), "{reply}");
    // The free house itself is still asked for as before.
    let free = send(
        &dir,
        STRANGER,
        "j2@example.org",
        &format!("JOIN {GAME} Lannister\n"),
    );
    assert!(!free.contains("is played"), "{free}");
    let french = send(
        &dir,
        "autre@example.net",
        "j3@example.org",
        &format!("REJOINDRE {GAME} Stark\n"),
    );
    assert!(
        flat(&french).contains(&format!("REJOINDRE {GAME}")),
        "{french}"
    );
}

// ============================================================ LIST of a running game's seats

#[test]
fn list_says_how_to_ask_for_a_free_seat_of_a_running_game() {
    let dir = judge("seats", false, false);
    send(
        &dir,
        BARATHEON,
        "r1@example.org",
        &format!("SIGNON {GAME} Baratheon cerf-noir-3\nRESIGN\n"),
    );
    let reply = send(&dir, STRANGER, "r2@example.org", "LIST\n");
    let reply = flat(&reply);
    assert!(reply.contains("1 free seat"), "{reply}");
    assert!(
        reply.contains(&format!("TAKEOVER {GAME} <house> asks the moderator")),
        "{reply}"
    );
    let french = flat(&send(&dir, STRANGER, "r3@example.org", "LISTE\n"));
    assert!(
        french.contains(&format!("RELEVER {GAME} <maison>")),
        "{french}"
    );
}

// ========================================================================= GET and WHOIS

#[test]
fn get_and_whois_are_answered_with_what_this_judge_has() {
    let dir = judge("get", false, false);
    let reply = send(
        &dir,
        LANNISTER,
        "g1@example.org",
        &lannister(&format!("A pie -> ner\nGET info\nWHOIS {STARK}\nF lan H\n")),
    );
    let reply = flat(&reply);
    assert!(!reply.contains("unknown command"), "{reply}");
    assert!(reply.contains("keeps no files to GET"), "{reply}");
    assert!(reply.contains("never tells anyone's address"), "{reply}");
    assert!(reply.contains("WHOGAME <game>"), "{reply}");
    // The address asked about is never told back beyond the quote of the line itself.
    assert_eq!(reply.matches(STARK).count(), 1, "{reply}");
    // The orders around them are taken.
    let game = show(&dir);
    let seat = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "lannister")
        .unwrap()
        .clone();
    assert_eq!(seat["orders"].as_array().unwrap().len(), 2, "{seat}");
    // GET map: the board, as MAP gives it.
    let map = send(&dir, STARK, "g2@example.org", &stark("GET map\n"));
    assert!(!map.contains("inconnue"), "{map}");
    assert!(!map.contains("fichiers"), "{map}");
    assert!(!map.contains('✗'), "{map}");
    // A stranger's WHOIS, in French when the mail says nothing of its language.
    let stranger = send(
        &dir,
        STRANGER,
        "g4@example.org",
        &format!("WHOIS {STARK}\n"),
    );
    assert!(
        flat(&stranger).contains("never tells anyone's address"),
        "{stranger}"
    );
}
