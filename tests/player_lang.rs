//! `player add`/`player replace`: the player's language is `--player-lang` (default: the
//! game's); the global `--lang` is only the language the command answers the moderator
//! in. Each is checked apart from the other, through the binary.

#![allow(clippy::unwrap_used)]

use std::fs;

mod support;
use support::cli::CliJudge;

use serde_json::Value;

const GAME: &str = "langues";

/// The moderator's shell, on a data folder of its own.
struct Judge(CliJudge);

impl std::ops::Deref for Judge {
    type Target = CliJudge;
    fn deref(&self) -> &CliJudge {
        &self.0
    }
}

impl Judge {
    fn new(name: &str) -> Judge {
        Judge(CliJudge::new("player-lang", name))
    }

    /// The language of the player of `house`.
    fn player_lang(&self, house: &str) -> String {
        let g: Value = serde_json::from_str(&self.ok(&["game", "show", GAME, "--json"])).unwrap();
        let seat = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["house"] == house)
            .unwrap();
        seat["player"]["lang"].as_str().unwrap().to_string()
    }

    /// The mails written to the outbox folder so far, as text.
    fn sent(&self) -> Vec<String> {
        let dir = self.root.join("data/outbox");
        let Ok(entries) = fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| fs::read_to_string(p).unwrap())
            .collect()
    }
}

/// A French game (the default), its moderator answered in French unless `--lang`.
fn french_game(name: &str) -> Judge {
    let j = Judge::new(name);
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
    assert_eq!(j.player_lang("stark"), "en");
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
    assert_eq!(j.player_lang("stark"), "fr");
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
    assert_eq!(j.player_lang("lannister"), "en");
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
    let before = j.sent().len();
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
    assert_eq!(j.player_lang("stark"), "en");
    j.ok(&["tick"]);
    let sent = j.sent();
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
