//! `player add`/`player replace`: the player's language is `--player-lang` (default: the
//! game's); the global `--lang` is only the language the command answers the moderator
//! in. Each is checked apart from the other, through the binary.

#![allow(clippy::unwrap_used)]

mod support;
use support::cli::CliJudge;

use serde_json::Value;

const GAME: &str = "langues";

/// The language of the player of `house`.
fn player_lang(j: &CliJudge, house: &str) -> String {
    let g: Value = serde_json::from_str(&j.ok(&["game", "show", GAME, "--json"])).unwrap();
    let seat = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == house)
        .unwrap();
    seat["player"]["lang"].as_str().unwrap().to_string()
}

/// A French game (the default), its moderator answered in French unless `--lang`.
fn french_game(name: &str) -> CliJudge {
    let j = CliJudge::new("player-lang", name);
    j.ok(&["game", "new", GAME, "--players", "3"]);
    j
}

#[test]
fn player_lang_sets_the_player_and_leaves_the_moderators_answer_french() {
    let j = french_game("player");
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "stark",
        "stark@example.org",
        "--player-lang",
        "en",
    ]);
    assert!(out.contains("langue du joueur : anglais"), "{out}");
    assert!(out.contains("secret du joueur"), "{out}");
    assert!(!out.contains("player's"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "en");
}

#[test]
fn lang_sets_the_answer_only_and_the_player_speaks_the_games_language() {
    let j = french_game("answer");
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "stark",
        "stark@example.org",
        "--lang",
        "en",
    ]);
    assert!(out.contains("player's language: French"), "{out}");
    assert!(out.contains("player's secret"), "{out}");
    assert!(!out.contains("joueur"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "fr");
    // Both at once, each its own.
    let out = j.ok(&[
        "player",
        "add",
        GAME,
        "lannister",
        "lannister@example.org",
        "--lang",
        "en",
        "--player-lang",
        "en",
    ]);
    assert!(out.contains("player's language: English"), "{out}");
    assert_eq!(player_lang(&j, "lannister"), "en");
    let json: Value = serde_json::from_str(&j.ok(&[
        "player",
        "add",
        GAME,
        "baratheon",
        "baratheon@example.org",
        "--player-lang",
        "en",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["lang"], "en");
}

#[test]
fn a_replacement_is_welcomed_in_its_own_language_and_the_moderator_in_theirs() {
    let j = french_game("replace");
    for house in ["stark", "lannister", "baratheon"] {
        j.ok(&[
            "player",
            "add",
            GAME,
            house,
            &format!("{house}@example.org"),
        ]);
    }
    j.ok(&["game", "start", GAME]);
    j.ok(&["tick"]);
    let before = j.outbox().len();
    let out = j.ok(&[
        "player",
        "replace",
        GAME,
        "stark",
        "arya@example.org",
        "--player-lang",
        "en",
        "--welcome",
    ]);
    assert!(out.contains("langue du joueur : anglais"), "{out}");
    assert!(out.contains("envoyé dans son courrier d'accueil"), "{out}");
    assert_eq!(player_lang(&j, "stark"), "en");
    j.ok(&["tick"]);
    let sent = j.outbox();
    assert!(sent.len() > before);
    let to_arya: Vec<&String> = sent
        .iter()
        .filter(|m| m.contains("To: arya@example.org\r\n"))
        .collect();
    let welcome: Vec<&&String> = to_arya
        .iter()
        .filter(|m| m.contains(":: corbeau: welcome"))
        .collect();
    assert_eq!(welcome.len(), 1, "{} mails to arya", to_arya.len());
    assert!(
        welcome[0].contains("\r\nHello,\r\n"),
        "the welcome is not in English"
    );
    assert!(!welcome[0].contains("Bonjour"), "the welcome is in French");
}
