//! Position text as `corbeau adjudicate --position` reads it: a position that reads is
//! written back as text that reads as the same position.
#![no_main]

#[path = "common.rs"]
mod common;

use corbeau::position::{read_position, write_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::with_variant(data, |variant, rest| {
        let text = String::from_utf8_lossy(rest);
        let position = match read_position(variant, "fuzz", &text) {
            Ok(position) => position,
            Err(error) => {
                assert!(!error.message.is_empty());
                return;
            }
        };
        assert_eq!(position.owners.len(), variant.provinces.len());
        let written = write_position(variant, &position);
        let again = read_position(variant, "written", &written)
            .unwrap_or_else(|e| panic!("{text:?} written as {written:?} does not read: {e:?}"));
        assert_eq!(again, position, "{text:?} written as {written:?}");
        assert_eq!(write_position(variant, &again), written);
    });
});
