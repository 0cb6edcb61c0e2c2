//! Stored results that do not read as the results format (a record missing a field, as an
//! older or damaged store may hold): the game's history still opens, the phase says its
//! results cannot be shown and what is wrong, the other phases read as usual, the game
//! plays on, and nothing rewrites what was stored (docs/results-format.md, "Decisions").
//!
//! Made from a copy of the v1 fixture (`tests/fixtures/store-v1`), migrated by a first
//! command, then damaged with sled directly, no corbeau running.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;

use serde_json::Value;

use support::store_copy::StoreCopy;

const GAME: &str = "bataille";
/// The phase whose results are damaged (its index in the store): printemps 298, mouvements.
const DAMAGED: u32 = 0;
/// Its number as `history` reads it (from 1).
const NUMBER: u32 = DAMAGED + 1;

/// The stored record of a phase, as JSON (sled's `phases` tree: game id, 0, index).
fn stored_record(copy: &StoreCopy, index: u32) -> Value {
    let db = support::open_sled(&copy.data());
    let bytes = db.open_tree("phases").unwrap().get(key(index)).unwrap();
    serde_json::from_slice(&bytes.unwrap()).unwrap()
}

/// Removes one field of a phase's stored results.
fn damage(copy: &StoreCopy, index: u32, field: &str) -> Value {
    let db = support::open_sled(&copy.data());
    let phases = db.open_tree("phases").unwrap();
    let mut record: Value =
        serde_json::from_slice(&phases.get(key(index)).unwrap().unwrap()).unwrap();
    let results = record["results"].as_object_mut().unwrap();
    assert!(results.remove(field).is_some(), "{field}");
    phases
        .insert(key(index), serde_json::to_vec(&record).unwrap())
        .unwrap();
    db.flush().unwrap();
    record["results"].clone()
}

fn key(index: u32) -> Vec<u8> {
    let mut k = GAME.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&index.to_be_bytes());
    k
}

#[test]
fn a_phase_whose_results_do_not_read_is_said_and_the_history_still_opens() {
    let copy = StoreCopy::new("results-unreadable", "history");
    // The first command migrates the v1 store; then its results are damaged.
    let list = copy.ok(&["history", GAME]);
    let damaged = damage(&copy, DAMAGED, "counts");

    // The list of phases is the same.
    assert_eq!(list, copy.ok(&["history", GAME]));

    // The damaged phase says what is missing, and where the stored results are.
    let text = copy.ok(&["history", GAME, &NUMBER.to_string()]);
    assert!(
        text.contains("ne peuvent pas être montrés") && text.contains("`counts`"),
        "{text}"
    );
    assert!(
        text.contains(&format!("corbeau history {GAME} {NUMBER} --json")),
        "{text}"
    );
    let out = copy.run(&["history", GAME, &NUMBER.to_string(), "--lang", "en"]);
    let en = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && en.contains("cannot be shown") && en.contains("`counts`"),
        "{en}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // `--json` shows them as stored: nothing was added, nothing lost.
    let json: Value =
        serde_json::from_str(&copy.ok(&["history", GAME, &NUMBER.to_string(), "--json"])).unwrap();
    assert_eq!(json["results"], damaged);

    // The other phases read as usual.
    let next = copy.ok(&["history", GAME, "2"]);
    assert!(next.starts_with(":: corbeau: "), "{next}");
    assert!(!next.contains("ne peuvent pas"), "{next}");

    // The game plays on, the site publishes (the phase says it in its place), and the
    // damaged record is left as it was stored.
    let processed = copy.ok(&["game", "process", GAME]);
    assert!(processed.contains(":: corbeau: "), "{processed}");
    let site = copy.root.join("site");
    copy.ok(&["publish", site.to_str().unwrap()]);
    // Every page of the game: the damaged phase's own says it.
    let page: String = fs::read_dir(site.join("games").join(GAME))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    assert!(page.contains("ne peuvent pas être montrés"), "{page}");
    assert_eq!(stored_record(&copy, DAMAGED)["results"], damaged);
}
