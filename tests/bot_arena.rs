//! `corbeau bot arena` (docs/bot.md): a few whole games on each variant, the JSON's shape
//! and numbers that can be, the text in both languages, bad input refused.

mod support;

use serde_json::Value;
use support::cli::corbeau;

fn arena_json(variant: &str, games: &str, seed: &str) -> Value {
    let (code, out, err) = corbeau(&[
        "bot",
        "arena",
        "--variant",
        variant,
        "--games",
        games,
        "--seed",
        seed,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn number(v: &Value, what: &str) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{what}: {v}"))
}

#[test]
fn the_arena_plays_whole_games_and_gives_sane_figures() {
    for (variant, centres_on_board, houses) in [("westeros", 0.0, 7.0), ("classique", 34.0, 7.0)] {
        let games = 6.0;
        let json = arena_json(variant, "6", "11");
        assert_eq!(number(&json["games"], "games"), games, "{json}");
        assert_eq!(json["illegal_orders"], 0, "{json}");
        let ms = number(&json["ms_per_decision"], "ms_per_decision");
        assert!(ms > 0.0 && ms < 50.0, "{json}");
        assert!(number(&json["games_per_second"], "games_per_second") > 0.0);
        // Each house of each game is one seat of one kind.
        let mut seats = 0.0;
        let mut total = 0.0;
        for kind in ["bot", "hold", "random"] {
            let k = &json["kinds"][kind];
            let mean = number(&k["centres"], "centres");
            let low = number(&k["ci95"][0], "ci95");
            let high = number(&k["ci95"][1], "ci95");
            assert!(low <= mean && mean <= high, "{kind}: {k}");
            assert!(mean >= 0.0, "{kind}: {k}");
            let n = number(&k["seats"], "seats");
            assert!(number(&k["survivals"], "survivals") <= n, "{kind}: {k}");
            // Houses tied after the last year share the win: a game may count several.
            assert!(number(&k["wins"], "wins") <= n, "{kind}: {k}");
            seats += n;
            total += mean * n;
        }
        assert_eq!(seats, games * houses, "{json}");
        if centres_on_board > 0.0 {
            // No more centres owned than the board has (means are rounded to 0.01).
            assert!(total / games <= centres_on_board + 0.5, "{json}");
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_games() {
    let a = arena_json("westeros", "3", "5");
    let b = arena_json("westeros", "3", "5");
    assert_eq!(a["kinds"], b["kinds"]);
}

#[test]
fn the_text_says_each_kind_in_the_readers_language() {
    let (code, out, err) = corbeau(&["bot", "arena", "--games", "3", "--lang", "en"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("3 game(s) of westeros (seed 1, until 307"),
        "{out}"
    );
    for kind in ["bot: ", "holder: ", "random: "] {
        assert!(out.contains(kind), "{kind}: {out}");
    }
    assert!(out.contains("ms per decision"), "{out}");
    let (code, out, err) = corbeau(&["bot", "arena", "--games", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("qui tient : "), "{out}");
    assert!(out.contains("ms par décision"), "{out}");
}

#[test]
fn no_games_or_an_unknown_variant_is_refused() {
    let (code, out, err) = corbeau(&["bot", "arena", "--games", "0", "--lang", "en"]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no games to play"), "{err}");
    let (code, _, err) = corbeau(&["bot", "arena", "--variant", "atlantis", "--games", "2"]);
    assert_eq!(code, 1);
    assert!(err.contains("atlantis"), "{err}");
}

/// The figures of docs/bot.md are what the commands it gives print: the centres, their
/// intervals, wins and survivals depend only on the seed.
#[test]
fn the_figures_of_the_doc_are_what_the_arena_prints() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/bot.md"))
        .expect("docs/bot.md");
    for variant in ["classique", "westeros"] {
        let command = format!("`corbeau bot arena --variant {variant} --games 200 --json`");
        let at = doc.find(&command).unwrap_or_else(|| panic!("{command}"));
        let json = arena_json(variant, "200", "1");
        assert_eq!(json["illegal_orders"], 0, "{json}");
        for (kind, label) in [("bot", "bot"), ("hold", "holder"), ("random", "random")] {
            let k = &json["kinds"][kind];
            let row = format!(
                "| {label} | {:.2} | {:.2} – {:.2} | {} | {} of {} |",
                number(&k["centres"], "centres"),
                number(&k["ci95"][0], "ci95"),
                number(&k["ci95"][1], "ci95"),
                k["wins"],
                k["survivals"],
                k["seats"]
            );
            let table = &doc[at..];
            let table = &table[..table.find("games/s").unwrap_or(table.len())];
            assert!(table.contains(&row), "{variant}: {row} not in docs/bot.md");
        }
    }
}
