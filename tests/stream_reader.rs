//! Case files read case by case: the jDip reader hands each case over as soon as its `END`
//! is read, `corbeau datc` runs it and drops it, and what a batch reports is what it
//! reported when every case was read first. Without checks, the verdict's adjudication is
//! the first of the `--repeat` ones.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use corbeau::case::{VariantCache, read_jdip, read_jdip_each};
use pretty_assertions::assert_eq;
use support::cli::corbeau;

/// A jDip case: a movement position of two units and their orders, with its outcome.
fn jdip_case(n: usize, bounce: bool) -> String {
    // Two armies into Wales bounce; one alone moves.
    let (orders, after) = if bounce {
        (
            "England: A lvp - wal\n  England: A lon - wal\n",
            "England: A lvp\n  England: A lon\n",
        )
    } else {
        (
            "England: A lvp - wal\n  England: A lon H\n",
            "England: A wal\n  England: A lon\n",
        )
    };
    format!(
        "CASE gen.{n}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: A lvp\n  England: A lon\nORDERS\n  {orders}POSTSTATE\n  {after}END\n\n"
    )
}

fn jdip_file(cases: usize) -> String {
    let mut text = String::from("VARIANT_ALL Standard\n\n");
    for n in 1..=cases {
        text.push_str(&jdip_case(n, n % 2 == 0));
    }
    text
}

#[test]
fn each_case_is_handed_over_as_the_whole_file_reads_it() {
    let text = jdip_file(7);
    let mut cache = VariantCache::default();
    let whole = read_jdip(&mut cache, "g.txt", &text).unwrap();
    let mut handed = Vec::new();
    read_jdip_each(&mut cache, "g.txt", &text, |_, case| handed.push(case)).unwrap();
    assert_eq!(whole.len(), 7);
    assert_eq!(handed, whole);
}

#[test]
fn a_bad_line_stops_the_reading_after_the_cases_before_it_with_its_line() {
    let mut text = jdip_file(2);
    // Line numbers: the header (2 lines), then 13 lines a case.
    text.push_str("CASE broken\nPRESTATE_SETPHASE Someday 1901, Movement\nEND\n");
    let mut cache = VariantCache::default();
    let mut handed = Vec::new();
    let error =
        read_jdip_each(&mut cache, "g.txt", &text, |_, case| handed.push(case.id)).unwrap_err();
    assert_eq!(handed, ["gen.1", "gen.2"]);
    assert_eq!(error, "g.txt:30: unknown phase `Someday 1901, Movement`");
}

#[test]
fn a_batch_without_checks_adjudicates_each_phase_once_at_repeat_one() {
    let dir = support::TempDir::new("stream-reader", "batch");
    let path = dir.path().join("g.txt");
    std::fs::write(&path, jdip_file(40)).unwrap();
    let file = path.to_str().unwrap();
    for (repeat, times) in [("1", "1 times"), ("3", "3 times")] {
        let (code, out, err) = corbeau(&["datc", "-q", "--no-check", "--repeat", repeat, file]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!(
                "adjudicated 40 positions (80 orders, 80 units) {times} in "
            )),
            "{out}"
        );
        assert!(out.ends_with("40 passed, 0 failed, 0 skipped\n"), "{out}");
    }
    // With the checks, every verdict in the file's order, then the same count.
    let (code, out, err) = corbeau(&["datc", "--repeat", "2", file]);
    assert_eq!(code, 0, "{err}");
    let verdicts: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(verdicts, ["gen.1 passed", "gen.2 passed", "gen.3 passed"]);
    assert!(
        out.contains("adjudicated 40 positions (80 orders, 80 units) 2 times in "),
        "{out}"
    );
}

#[test]
fn a_failed_case_is_reported_among_the_others_as_before() {
    let dir = support::TempDir::new("stream-reader", "failed");
    let path = dir.path().join("g.txt");
    // The third case expects the bounce to move the army from Liverpool.
    let text = jdip_file(4).replacen(
        "POSTSTATE\n  England: A lvp\n  England: A lon\n",
        "POSTSTATE\n  England: A wal\n  England: A lon\n",
        1,
    );
    std::fs::write(&path, text).unwrap();
    let (code, out, _) = corbeau(&["datc", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "gen.1 passed");
    assert_eq!(lines[1], "gen.2 FAILED");
    assert!(lines[2].contains("units: expected"), "{out}");
    assert_eq!(lines[3], "gen.3 passed");
    assert_eq!(lines[4], "gen.4 passed");
    assert_eq!(lines[5], "3 passed, 1 failed, 0 skipped");
}

#[test]
fn an_unreadable_file_of_a_batch_stops_it_before_any_verdict() {
    let dir = support::TempDir::new("stream-reader", "unreadable");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, jdip_file(3)).unwrap();
    let bad = dir.path().join("bad.txt");
    let mut text = jdip_file(1);
    text.push_str("CASE open\nPRESTATE_SETPHASE Spring 1901, Movement\n");
    std::fs::write(&bad, text).unwrap();
    let (code, out, err) = corbeau(&[
        "datc",
        "--no-check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert_eq!(out, "", "{err}");
    assert!(err.contains("bad.txt:16: case open has no END"), "{err}");
}

#[test]
fn adjudicate_over_many_files_gives_each_order_its_house_and_each_error_its_place() {
    let dir = support::TempDir::new("stream-reader", "adjudicate");
    // Houses alternate, and a header line gives the house of the lines after it.
    let mixed = dir.path().join("mixed.txt");
    std::fs::write(
        &mixed,
        "England: F lon - nth\nFrance: F bre - mao\nEngland: A lvp - yor\nGermany:\nF kie - den\nFrance: A par - bur\n",
    )
    .unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "England: F lon - nth\nFrance: F bre - xyz\n").unwrap();
    let (code, alone, err) = corbeau(&[
        "adjudicate",
        "--variant",
        "classique",
        "--lang",
        "en",
        "--json",
        mixed.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let alone: serde_json::Value = serde_json::from_str(&alone).unwrap();
    let (code, batch, err) = corbeau(&[
        "adjudicate",
        "--variant",
        "classique",
        "--lang",
        "en",
        "--json",
        mixed.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<serde_json::Value> = batch
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{batch}");
    let mut first = lines[0].clone();
    first.as_object_mut().unwrap().remove("file");
    assert_eq!(first, alone);
    // Each order, by its index in the file, under the house that gave it.
    let mut house_of = vec![""; 5];
    for house in alone["houses"].as_array().unwrap() {
        for order in house["orders"].as_array().unwrap() {
            if let Some(index) = order["index"].as_u64() {
                house_of[index as usize] = house["house"]["id"].as_str().unwrap();
            }
        }
    }
    assert_eq!(
        house_of,
        ["england", "france", "england", "germany", "france"]
    );
    let error = lines[1]["error"].as_str().unwrap();
    assert!(error.contains("bad.txt: line 2, column 17"), "{error}");
}
