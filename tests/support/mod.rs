//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod cli;
pub mod judge;

use std::path::Path;
use std::{env, fs};

/// Compares `actual` with `tests/golden/<name>`; with `CORBEAU_BLESS=1`, writes it instead.
#[track_caller]
pub fn assert_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if env::var_os("CORBEAU_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with CORBEAU_BLESS=1 to create it)",
            path.display()
        )
    });
    pretty_assertions::assert_eq!(expected, actual, "golden {}", path.display());
}
