//! The one-pass reader of the usual order and unit lines gives exactly what the full
//! grammar gives: on every line of the shipped case files and on every usual shape the
//! classic map allows. Errors keep their file, line and column.
//!
//! A line ending in ` .` is the same order to the grammar (a final stop is allowed) but
//! never one the one-pass reader takes: comparing the two readings of each line compares
//! the two readers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::sync::Arc;

use corbeau::case::{Case, VariantCache, read_cases, read_jdip};
use corbeau::map::{Variant, load_variant};
use corbeau::order::parse_order;
use corbeau::position::unit_from_line;
use pretty_assertions::assert_eq;
use support::cli::corbeau;

fn same_order(variant: &Variant, line: &str) -> bool {
    let source: Arc<str> = Arc::from("orders.txt");
    let fast = parse_order(variant, &source, 7, line);
    let grammar = parse_order(variant, &source, 7, &format!("{line} ."));
    match (&fast, &grammar) {
        (Ok(fast), Ok(grammar)) => assert_eq!(fast, grammar, "`{line}`"),
        (Err(_), Err(_)) => {}
        _ => panic!("`{line}`: {fast:?} against the grammar's {grammar:?}"),
    }
    fast.is_ok()
}

fn same_unit(variant: &Variant, line: &str) {
    let fast = unit_from_line(variant, line);
    let grammar = unit_from_line(variant, &format!("{line} ."));
    match (&fast, &grammar) {
        (Ok(fast), Ok(grammar)) => assert_eq!(fast, grammar, "`{line}`"),
        (Err(_), Err(_)) => {}
        _ => panic!("`{line}`: {fast:?} against the grammar's {grammar:?}"),
    }
}

fn case_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["datc", "variant"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(dir);
        for entry in std::fs::read_dir(&root).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "case") {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((path.display().to_string(), text));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_line_of_the_shipped_cases_reads_as_the_grammar_reads_it() {
    let mut cache = VariantCache::default();
    let (mut orders, mut units) = (0, 0);
    for (name, text) in case_files() {
        let cases: Vec<Case> = read_cases(&name, &text).unwrap();
        for case in &cases {
            let variant = cache.get(&case.variant).unwrap();
            for line in case.units.iter().chain(case.after.iter().flatten()) {
                same_unit(&variant, line);
                units += 1;
            }
            for (line, _) in &case.dislodged {
                same_unit(&variant, line);
                units += 1;
            }
            for order in case.steps.iter().flatten() {
                same_order(&variant, &order.text);
                orders += 1;
            }
        }
    }
    assert!(
        orders > 1500 && units > 1500,
        "{orders} orders, {units} units"
    );
}

#[test]
fn every_usual_shape_on_the_classic_map_reads_as_the_grammar_reads_it() {
    let variant = load_variant("classique").unwrap();
    let mut places: Vec<String> = Vec::new();
    for province in &variant.provinces {
        places.push(province.id.clone());
        places.push(province.id.to_uppercase());
        places.extend(province.coasts.iter().map(|&c| variant.region_label(c)));
    }
    let houses: Vec<String> = variant
        .house_ids()
        .map(|h| variant.house(h).name.clone())
        .chain(["england".to_string(), "Nobody".to_string()])
        .collect();
    let mut read = 0;
    for (n, from) in places.iter().enumerate() {
        let house = &houses[n % houses.len()];
        for kind in ["A", "F", "a"] {
            same_unit(&variant, &format!("{house}: {kind} {from}"));
            for line in [
                format!("{house}: {kind} {from} H"),
                format!("{kind} {from} h"),
                format!("{house}: {kind} {from} S A {from}"),
                format!("{house}: {kind} {from} - {from} - {from}"),
                format!("{house}: {kind} {from} -"),
                format!("{house}:{kind} {from} H"),
            ] {
                read += usize::from(same_order(&variant, &line));
            }
            for to in &places {
                for line in [
                    format!("{house}: {kind} {from} - {to}"),
                    format!("{house}: {kind} {from} S F {to}"),
                    format!("{house}: {kind} {from} S A {to} - {from}"),
                    format!("{house}: {kind} {from} C A {to} - {from}"),
                    format!("{kind} {from} C F {to}"),
                ] {
                    read += usize::from(same_order(&variant, &line));
                }
            }
        }
    }
    assert!(read > 100_000, "{read} orders read");
}

#[test]
fn near_misses_of_the_usual_shapes_read_as_the_grammar_reads_them() {
    let variant = load_variant("classique").unwrap();
    for line in [
        "England: F nth - nwy",
        "England: F stp/nc - bar",
        "England: F stp/xx - bar",
        "England: F stp/ - bar",
        "England: F spa/sc S A mar - gas",
        "England: F nth-nwy",
        "England: F nth - nwy - swe",
        "England: F nth C A lon - nwy - swe",
        "England: F nth C A lon nwy",
        "England: F nth S A lon -",
        "England: F nth S A lon H",
        "England: A1 lon H",
        "England: A lon hold",
        "England: A lon - nwy via convoy",
        "England: A lon S",
        "England: A londres H",
        "England: A xyz - nwy",
        "England: A lon - xyz",
        "England: A lon - h",
        "England A lon - wal",
        "England: : A lon - wal",
        "England Scotland: A lon - wal",
        ": A lon - wal",
        "A lon - wal",
        "F lon S S lon",
        "H lon",
        "England: A North Sea - wal",
        "England: F north sea - nwy",
        "-",
    ] {
        same_order(&variant, line);
    }
    let source: Arc<str> = Arc::from("orders.txt");
    for blank in ["", "   ", "\t"] {
        assert_eq!(parse_order(&variant, &source, 1, blank), Ok(None));
    }
    for line in [
        "England: A lon",
        "England: F stp/sc",
        "England: F stp/sc x",
        "England A lon",
        "A lon",
        "England: A",
        "England: A xyz",
        "Nobody: A lon",
    ] {
        same_unit(&variant, line);
    }
}

#[test]
fn a_wrong_order_still_gets_its_line_and_column() {
    let variant = load_variant("classique").unwrap();
    let source: Arc<str> = Arc::from("orders.txt");
    let error = parse_order(&variant, &source, 3, "England: A lon - xyz")
        .unwrap_err()
        .to_string();
    assert!(error.contains("orders.txt:3:18"), "{error}");
    let error = parse_order(&variant, &source, 4, "  England: F nth Z nwy")
        .unwrap_err()
        .to_string();
    assert!(error.contains("orders.txt:4:"), "{error}");
}

#[test]
fn a_malformed_case_file_names_its_line() {
    let error = read_cases(
        "bad.case",
        "case 1 t\nvariant classique\nunit England: A lon\nfrob x\nend\n",
    )
    .unwrap_err();
    assert_eq!(error, "bad.case:4: unknown keyword `frob`");
    let mut cache = VariantCache::default();
    let error = read_jdip(
        &mut cache,
        "bad.txt",
        "VARIANT_ALL Standard\nCASE 1\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: F lon\nPRESTATE_RESULTS\n  nothing here\nEND\n",
    )
    .unwrap_err();
    assert!(error.starts_with("bad.txt:7: "), "{error}");
}

#[test]
fn adjudicate_through_the_binary_reads_the_usual_lines_and_places_errors() {
    let dir = support::TempDir::new("fast-reader", "adjudicate");
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "England: F nth - nwy\nEngland: F lon S F nth - nwy\nRussia: F stp/nc - nwy\n",
    )
    .unwrap();
    let (code, json, err) = corbeau(&[
        "adjudicate",
        "--variant",
        "classique",
        "--lang",
        "en",
        "--json",
        good.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let text = value.to_string();
    assert!(text.contains("nwy"), "{text}");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "England: F nth - nwy\nEngland: F lon - xyz\n").unwrap();
    let (code, _, err) = corbeau(&[
        "adjudicate",
        "--variant",
        "classique",
        "--lang",
        "en",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2, column 18"), "{err}");
}

#[test]
fn the_datc_copies_still_pass_through_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datc");
    for (file, summary) in [
        ("datc-v2.4.case", "165 passed, 0 failed, 2 skipped"),
        ("datc-v3.0.case", "171 passed, 0 failed, 0 skipped"),
    ] {
        let path = root.join(file);
        let (code, out, err) = corbeau(&["datc", "-q", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(summary), "{file}: {out}");
    }
}
