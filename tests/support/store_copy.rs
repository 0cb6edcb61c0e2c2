//! A copy of the store written by the release of schema 1 (`tests/fixtures/store-v1`:
//! store, configuration, variant file) in a temporary folder of its own, driven through
//! the binary at the time its goldens were made. Removed when dropped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::{TempDir, copy_dir};

/// The time the fixture's goldens were made at (its make.sh's last `at`).
pub const NOW: &str = "2026-03-24T14:00:00Z";

pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v1")
}

pub struct StoreCopy {
    pub root: TempDir,
}

impl StoreCopy {
    /// A fresh copy; `what` names the test file, `name` the test.
    pub fn new(what: &str, name: &str) -> StoreCopy {
        let root = TempDir::new(what, name);
        for part in ["data", "variants"] {
            copy_dir(&fixture().join(part), &root.join(part));
        }
        fs::copy(fixture().join("corbeau.toml"), root.join("corbeau.toml"))
            .unwrap_or_else(|e| panic!("corbeau.toml: {e}"));
        StoreCopy { root }
    }

    pub fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    /// Runs corbeau in `dir` with the copy's configuration and store, at [`NOW`].
    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .current_dir(dir)
            .env("CORBEAU_CONFIG", self.root.join("corbeau.toml"))
            .env("CORBEAU_DATA", self.data())
            .env("CORBEAU_NOW", NOW)
            .env_remove("CORBEAU_LANG")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("corbeau {args:?}: {e}"))
    }

    /// Runs corbeau in the copy's directory (so the relative variant path of `perso`
    /// resolves as it did when the game was made).
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.root, args)
    }

    /// What a command that must succeed printed on stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }
}
