//! A stored game record, damaged: it is read as the store reads it (JSON, within its
//! variant's scope) into a game or a clear error; a record that reads is written back
//! to one that reads as the same game.
#![no_main]

#[path = "common.rs"]
mod common;

use corbeau::game::{Game, PhaseRecord};
use corbeau::map::{PinnedVariant, scope};
use libfuzzer_sys::fuzz_target;

#[derive(serde::Deserialize)]
struct Pinned {
    #[allow(dead_code)]
    variant: PinnedVariant,
}

fuzz_target!(|data: &[u8]| {
    // The store reads the pin first, to know the variant, then the game in its scope.
    let _ = serde_json::from_slice::<Pinned>(data);
    common::with_variant(&[data.len() as u8], |variant, _| {
        scope::within(variant, || {
            match serde_json::from_slice::<Game>(data) {
                Ok(game) => {
                    let bytes = serde_json::to_vec(&game).expect("a game serializes");
                    let again: Game =
                        serde_json::from_slice(&bytes).expect("a written game reads back");
                    assert_eq!(again, game);
                }
                Err(error) => assert!(!error.to_string().is_empty()),
            }
            if let Ok(record) = serde_json::from_slice::<PhaseRecord>(data) {
                let bytes = serde_json::to_vec(&record).expect("a record serializes");
                let again: PhaseRecord =
                    serde_json::from_slice(&bytes).expect("a written record reads back");
                assert_eq!(again, record);
            }
        })
    });
});
