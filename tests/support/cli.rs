//! A judge's data folder in a fresh temporary directory, driven through the binary as a
//! moderator's shell would: the environment cleared of the caller's corbeau settings, the
//! clock set by `CORBEAU_NOW`, no panic allowed. Removed when dropped.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{SystemTime, UNIX_EPOCH};

/// The time commands run at unless told otherwise: a Monday morning.
pub const NOW: &str = "2026-03-23T08:00:00Z";

pub struct CliJudge {
    pub root: PathBuf,
}

impl CliJudge {
    /// A fresh folder named after the test file (`what`) and the test (`name`).
    pub fn new(what: &str, name: &str) -> CliJudge {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let root = std::env::temp_dir().join(format!(
            "corbeau-{what}-{name}-{}-{nanos}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
        CliJudge { root }
    }

    pub fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    /// Runs `corbeau ARGS --data DATA` at `now`, whatever its outcome (but no panic).
    #[track_caller]
    pub fn run_at(&self, now: &str, args: &[&str]) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .arg("--data")
            .arg(self.data())
            .current_dir(&self.root)
            .env("CORBEAU_NOW", now)
            .env_remove("CORBEAU_LANG")
            .env_remove("CORBEAU_CONFIG")
            .env_remove("CORBEAU_DATA")
            .output()
            .unwrap_or_else(|e| panic!("corbeau {args:?}: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "corbeau {args:?}:\n{stderr}");
        out
    }

    /// Runs a command at [`NOW`] that must succeed; its standard output.
    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run_at(NOW, args);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "corbeau {args:?}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    }
}

impl Drop for CliJudge {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}
