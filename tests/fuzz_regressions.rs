//! Inputs the fuzz targets (fuzz/, docs/testing.md) found wrong, fed to the same library
//! functions on the stable toolchain, so that each stays fixed.

use std::sync::Arc;

use corbeau::lang::Lang;
use corbeau::map::load_variant;
use corbeau::order::{Instruction, Location, parse_order};
use corbeau::position::{read_position, write_position};

/// A position read, written and read again is the same position.
fn round_trip(variant_name: &str, text: &str) {
    let variant = load_variant(variant_name).expect("built-in variant");
    let position = read_position(&variant, "found", text).expect("the position reads");
    let written = write_position(&variant, &position);
    let again = read_position(&variant, "written", &written)
        .unwrap_or_else(|e| panic!("{written:?} does not read: {e:?}"));
    assert_eq!(again, position, "written as {written:?}");
}

/// Found by the `position` target: a position where no house owns a centre (an `owner`
/// line with no province) was written without owner lines, which reads as every house
/// owning its homes.
#[test]
fn a_position_without_owned_centres_writes_back_as_one() {
    round_trip(
        "westeros",
        "variant westeros\nphase spring 298 movement\nowner Stark:\nunit Stark: A win\n",
    );
    round_trip("classique", "phase spring 1901 movement\nowner England:\n");
}

/// Found by the `orders` target: stops and blanks alternating at the end of a line
/// (`tient\r\r;\r\x0c\r`, a mail with stray carriage returns) were quoted back with
/// carriage returns that the text, read again, did not keep.
#[test]
fn an_order_quoted_back_quotes_itself_the_same() {
    let variant = load_variant("westeros").expect("built-in variant");
    let source: Arc<str> = Arc::from("found");
    let line = "baratheon: F gos tient\r\r\r;\r\r\u{c}\r\r";
    let order = parse_order(&variant, &source, 1, line)
        .expect("reads")
        .expect("an order");
    assert_eq!(order.text, "baratheon: F gos tient");
    let again = parse_order(&variant, &source, 1, &order.text)
        .expect("reads")
        .expect("an order");
    assert_eq!(again.text, order.text);
}

/// Found by the `orders` target's spelling check: in a convoy written without its verb,
/// a unit at a province with two coasts, then a unit named by a province whose English
/// name starts with a coast's (`West Summer Sea`): the first word was read as
/// Winterfell's west coast and the rest refused.
#[test]
fn a_province_name_that_starts_like_a_coast_is_the_next_unit_s() {
    let variant = load_variant("westeros").expect("built-in variant");
    let source: Arc<str> = Arc::from("found");
    let read = |line: &str| {
        parse_order(&variant, &source, 1, line)
            .unwrap_or_else(|e| panic!("{line:?}: {}", e.message(Lang::En)))
            .expect("an order")
    };
    let id = |l: &Location| {
        let p = variant.province(l.province);
        let coast = l.coast.and_then(|c| variant.region(c).coast.clone());
        (p.id.clone(), coast)
    };
    for line in [
        "D Syrax win West Summer Sea->cno.",
        "F Win West Summer Sea -> Cno",
        "F Win East Summer Sea -> Cno",
    ] {
        let order = read(line);
        let Instruction::Convoy { unit, to } = &order.action else {
            panic!("{line:?} read as {:?}", order.action);
        };
        let by = order.unit.at.as_ref().expect("the convoying unit's place");
        assert_eq!(id(by), ("win".to_string(), None), "{line:?}");
        let at = unit.at.as_ref().expect("the convoyed unit's place");
        assert!(["meo", "mee"].contains(&id(at).0.as_str()), "{line:?}");
        assert_eq!(id(to), ("cno".to_string(), None), "{line:?}");
    }
    // A coast followed by anything else is still the coast.
    for (line, coast) in [("F Win West -> Bgl", "ouest"), ("F Win east H", "est")] {
        let order = read(line);
        let at = order.unit.at.as_ref().expect("a place");
        assert_eq!(
            id(at),
            ("win".to_string(), Some(coast.to_string())),
            "{line:?}"
        );
    }
}

/// The positions of the fuzz seeds that read still round-trip (the seeds the target
/// starts from: fuzz/corpus/position, whose first byte picks the variant).
#[test]
fn the_position_seeds_write_back_as_themselves() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/position");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/corpus/position") {
        let bytes = std::fs::read(entry.expect("entry").path()).expect("seed");
        let Some((pick, text)) = bytes.split_first() else {
            continue;
        };
        let name = if pick % 2 == 0 {
            "westeros"
        } else {
            "classique"
        };
        let variant = load_variant(name).expect("built-in variant");
        let text = String::from_utf8_lossy(text);
        if read_position(&variant, "seed", &text).is_ok() {
            round_trip(name, &text);
            read += 1;
        }
    }
    assert!(read >= 10, "only {read} seeds read as positions");
}
