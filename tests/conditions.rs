//! Conditional orders (`IF … ELSE IF … ELSE … ENDIF`, `SI … SINON SI … SINON … FINSI`),
//! through the binary as a mail server drives it (`corbeau ingest`, the clock fixed): the
//! branch that holds on the board is taken and echoed, a block that cannot be read is set
//! aside alone with where and why, and the other orders of the mail are kept. The answers
//! are golden files in English and French (tests/golden/conditions/; CORBEAU_BLESS=1
//! rewrites them). Then the block keywords against the shipped maps, and a property: no
//! text in a condition changes the orders outside its block, nor panics.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use proptest::prelude::*;

use corbeau::game::{ConditionNote, OrderLines, read_submission_noted};
use corbeau::judge::Position;
use corbeau::map::load_variant;
use corbeau::order::{block_line, parse_order};
use support::TempDir;
use support::assert_golden;
use support::judge::root;

const NOW: &str = "2026-03-23T08:00:00Z";
const EUROPE: &str = "europe";
const GERMANY: &str = "germany@example.org";
const FRANCE: &str = "france@example.org";

/// A judge holding a running classic game of seven, Germany's player reading English and
/// France's French.
fn classic(name: &str) -> TempDir {
    let dir = root(&format!("conditions-{name}"), "");
    ok(
        &dir,
        &[
            "game",
            "new",
            EUROPE,
            "--variant",
            "classique",
            "--moderator",
            "mod@example.org",
        ],
    );
    for house in [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ] {
        let address = format!("{house}@example.org");
        let secret = format!("{house}-secret-1");
        let lang = if house == "germany" { "en" } else { "fr" };
        ok(
            &dir,
            &[
                "player",
                "add",
                EUROPE,
                house,
                &address,
                "--secret",
                &secret,
                "--player-lang",
                lang,
            ],
        );
    }
    ok(&dir, &["game", "start", EUROPE]);
    dir
}

fn ok(dir: &Path, args: &[&str]) -> String {
    support::judge::ok_at(dir, NOW, args)
}

fn send(dir: &Path, from: &str, id: &str, body: &str) -> String {
    support::judge::answer_at(dir, NOW, from, id, body)
}

/// A house's seat in `game show --json`.
fn seat(dir: &Path, game: &str, house: &str) -> serde_json::Value {
    let shown: serde_json::Value =
        serde_json::from_str(&ok(dir, &["game", "show", game, "--json"])).unwrap();
    shown["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == house)
        .unwrap()
        .clone()
}

/// The house's orders as stored, one text each, lower case.
fn orders(dir: &Path, game: &str, house: &str) -> Vec<String> {
    seat(dir, game, house)["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.to_string().to_lowercase())
        .collect()
}

fn has_order(orders: &[String], text: &str) -> bool {
    orders.iter().any(|o| o.contains(&text.to_lowercase()))
}

// ============================================================ the branch that holds

/// njudge's own example, adapted to the board of spring 1901: no Russian army is in
/// Prussia or Silesia, Russia owns Warsaw. The `ELSE IF` holds: its orders are taken with
/// the order outside the block, and the answer says which condition held.
#[test]
fn njudges_example_takes_the_branch_that_holds_and_says_so() {
    let dir = classic("njudge");
    let reply = send(
        &dir,
        GERMANY,
        "c1@example.org",
        "SIGNON europe Germany germany-secret-1\n\
         IF NOT French Army Ruhr AND (Russian Prussia OR Russian Silesia) THEN\n\
         A Ber -> Sil\n\
         A Mun S A Ber -> Sil\n\
         ELSE IF Russia OWNS Warsaw\n\
         A Mun -> Ruh\n\
         A Ber -> Kie\n\
         ELSE\n\
         A Mun H\n\
         ENDIF\n\
         F Kie -> Den\n\
         READY\n",
    );
    assert_golden("conditions/taken-en.txt", &reply);
    let stored = orders(&dir, EUROPE, "germany");
    assert_eq!(stored.len(), 3, "{stored:?}");
    for order in ["A Mun -> Ruh", "A Ber -> Kie", "F Kie -> Den"] {
        assert!(has_order(&stored, order), "{order}: {stored:?}");
    }
    assert_eq!(seat(&dir, EUROPE, "germany")["ready"], true);
}

/// The same in French, nested: the outer condition holds (France owns Paris), the inner
/// one does not (no English fleet in the Channel), so its `SINON` is taken.
#[test]
fn french_blocks_nest() {
    let dir = classic("french");
    let reply = send(
        &dir,
        FRANCE,
        "c2@example.org",
        "PARTIE europe France france-secret-1\n\
         SI France POSSEDE Paris ET NON Allemand A Bourgogne ALORS\n\
         A Par -> Bur\n\
         SI Anglais F Manche\n\
         F Bre H\n\
         SINON\n\
         F Bre -> Mao\n\
         FINSI\n\
         SINON\n\
         A Par H\n\
         FINSI\n\
         A Mar -> Pie\n",
    );
    assert_golden("conditions/nested-fr.txt", &reply);
    let stored = orders(&dir, EUROPE, "france");
    assert_eq!(stored.len(), 3, "{stored:?}");
    assert!(has_order(&stored, "-> bur"), "{stored:?}");
    assert!(has_order(&stored, "-> mao"), "{stored:?}");
    assert!(!has_order(&stored, "bre h"), "{stored:?}");
}

// ============================================================ blocks set aside

/// Today a misspelt province in a condition (`unknown province IF`) refuses the whole set
/// and the house misses the phase. Now the block alone is set aside, with the line and
/// the nearest name; the other orders are kept, and the mail's READY is not counted.
#[test]
fn a_bad_condition_sets_its_block_aside_and_keeps_the_other_orders() {
    let dir = classic("bad");
    let reply = send(
        &dir,
        GERMANY,
        "c3@example.org",
        "SIGNON europe Germany germany-secret-1\n\
         IF France A Rhur\n\
         A Mun -> Ruh\n\
         ENDIF\n\
         F Kie -> Den\n\
         A Ber H\n\
         READY\n",
    );
    assert_golden("conditions/refused-en.txt", &reply);
    assert!(reply.contains("`Rhur`"), "{reply}");
    let stored = orders(&dir, EUROPE, "germany");
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert!(has_order(&stored, "F Kie -> Den"), "{stored:?}");
    assert!(!has_order(&stored, "-> ruh"), "{stored:?}");
    assert_eq!(seat(&dir, EUROPE, "germany")["ready"], false);
    // The owner mends the block in the next mail: everything is taken.
    let reply = send(
        &dir,
        GERMANY,
        "c4@example.org",
        "SIGNON europe Germany germany-secret-1\n\
         IF NOT France A Ruhr\n\
         A Mun -> Ruh\n\
         ENDIF\n\
         F Kie -> Den\n\
         A Ber H\n\
         READY\n",
    );
    assert!(reply.contains("true, its orders are taken"), "{reply}");
    let stored = orders(&dir, EUROPE, "germany");
    assert_eq!(stored.len(), 3, "{stored:?}");
    assert_eq!(seat(&dir, EUROPE, "germany")["ready"], true);
}

/// A command inside a block ends the set there: the `IF` has no `ENDIF` and is set aside
/// with its lines; the lone `FINSI` after the command goes alone; the order after it is
/// taken. No order of the block ever stands unconditionally.
#[test]
fn a_command_inside_a_block_sets_it_aside() {
    let dir = classic("split");
    let reply = send(
        &dir,
        FRANCE,
        "c5@example.org",
        "PARTIE europe France france-secret-1\n\
         SI Ruh\n\
         A Par -> Bur\n\
         PRET\n\
         A Mar -> Bur\n\
         FINSI\n\
         F Bre H\n",
    );
    assert_golden("conditions/split-fr.txt", &reply);
    let stored = orders(&dir, EUROPE, "france");
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert!(has_order(&stored, "F Bre H"), "{stored:?}");
    assert_eq!(seat(&dir, EUROPE, "france")["ready"], false);
}

// ============================================================ Westeros

/// On Westeros, in French: `PAS` before a test is NOT; `SI PAS` alone names Passe-du-Prince
/// (`pas`); dragons and houses of the map read.
#[test]
fn westeros_conditions_read_pas_and_dragons() {
    let dir = root("conditions-westeros", "");
    ok(
        &dir,
        &[
            "game",
            "new",
            "nord",
            "--players",
            "3",
            "--moderator",
            "mod@example.org",
        ],
    );
    for (house, address, secret) in [
        ("stark", "stark@example.org", "loup-gris-7"),
        ("lannister", "lannister@example.org", "lion-dor-42"),
        ("baratheon", "baratheon@example.org", "cerf-noir-3"),
    ] {
        ok(
            &dir,
            &["player", "add", "nord", house, address, "--secret", secret],
        );
    }
    ok(&dir, &["game", "start", "nord"]);
    let reply = send(
        &dir,
        "stark@example.org",
        "w1@example.org",
        "PARTIE nord Stark loup-gris-7\n\
         SI PAS Lannister Dragon Win ET Stark POSSEDE Win\n\
         A win -> cno\n\
         FINSI\n\
         SI PAS\n\
         A moa -> gri\n\
         SINON SI Stark A Moa\n\
         A moa H\n\
         FINSI\n",
    );
    assert!(reply.contains("vrai, ses ordres sont pris"), "{reply}");
    let stored = orders(&dir, "nord", "stark");
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert!(has_order(&stored, "-> cno"), "{stored:?}");
    assert!(has_order(&stored, "moa h"), "{stored:?}");
}

// ============================================================ the keywords and the maps

/// No block keyword or condition word is a province, a house or an order of a shipped
/// map, but `pas` (Passe-du-Prince on Westeros, read as NOT only before a test); no order
/// line starts a block.
#[test]
fn block_words_clash_with_nothing_on_the_shipped_maps() {
    let words = [
        "if", "si", "then", "alors", "else", "sinon", "elseif", "elsif", "sinonsi", "endif",
        "finsi", "and", "et", "or", "ou", "not", "non", "owns", "own", "possede",
    ];
    for map in ["westeros", "classique"] {
        let variant = load_variant(map).unwrap();
        for word in words {
            assert_eq!(variant.names.province(word), None, "{word} on {map}");
            assert_eq!(variant.house_by_name(word), None, "{word} on {map}");
            assert!(!variant.names.is_dragon_folded(word), "{word} on {map}");
            for line in [format!("{word} H"), format!("A {word} H"), word.to_string()] {
                let parsed = parse_order(&variant, &std::sync::Arc::from(""), 1, &line);
                // On a map with dragons any unknown word before a verb may name one
                // (`Balerion H`): that reading is no clash, the block line is read first.
                let clash = match &parsed {
                    Ok(Some(order)) => order.unit.name.as_deref() != Some(word),
                    _ => false,
                };
                assert!(!clash, "{line} is an order on {map}: {parsed:?}");
            }
        }
        // Every province's id and name starts no block.
        for p in &variant.provinces {
            for line in [format!("{} H", p.id), format!("{} H", p.name)] {
                assert_eq!(block_line(&line), None, "{line} on {map}");
            }
        }
    }
}

// ============================================================ property

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever follows `IF` on its line, the orders outside the block are taken as they
    /// are, the block's order only if a branch of it was taken, and nothing panics.
    #[test]
    fn no_condition_changes_the_orders_outside_its_block(garbage in "[^\n\r]{0,80}") {
        let variant = load_variant("classique").unwrap();
        let position = Position::starting(&variant, None).unwrap();
        let france = variant.house_by_name("france").unwrap();
        let text = format!("A Par H\nIF {garbage}\nA Mar H\nENDIF\nF Bre H\n");
        let read = read_submission_noted(&variant, &position, france, &OrderLines::numbered(&text));
        let read = read.unwrap();
        let lines: Vec<u32> = read.orders.iter().map(|o| o.order.span.line).collect();
        let taken = read.conditions.iter().any(|n| matches!(
            n,
            ConditionNote::Read { steps } if steps.iter().any(|s| s.taken())
        ));
        let expected = if taken { vec![1, 3, 5] } else { vec![1, 5] };
        prop_assert_eq!(lines, expected);
        prop_assert_eq!(read.conditions.len(), 1);
    }

    /// Random lines of block keywords, conditions and orders, in any order: reading them
    /// never panics, and every order kept is one of the set's own lines.
    #[test]
    fn any_mix_of_block_lines_reads_without_panic(
        picks in prop::collection::vec(0usize..9, 0..40)
    ) {
        let variant = load_variant("classique").unwrap();
        let position = Position::starting(&variant, None).unwrap();
        let france = variant.house_by_name("france").unwrap();
        let choices = [
            "IF Par", "IF NOT Ruh", "ELSE", "ELSE IF France OWNS Bre", "ENDIF", "A Par H",
            "F Bre H", "A Mar H", "SI (Par OU",
        ];
        let text: String = picks.iter().map(|&i| format!("{}\n", choices[i])).collect();
        let read = read_submission_noted(&variant, &position, france, &OrderLines::numbered(&text));
        let read = read.unwrap();
        for order in &read.orders {
            let line = picks[usize::try_from(order.order.span.line).unwrap() - 1];
            prop_assert!((5..=7).contains(&line), "{}", choices[line]);
        }
    }
}
