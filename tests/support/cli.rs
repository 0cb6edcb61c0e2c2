//! A judge's data folder in a fresh temporary directory, driven through the binary as a
//! moderator's shell would: the environment cleared of the caller's corbeau settings, the
//! clock set by `CORBEAU_NOW`, no panic allowed. Removed when dropped.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::TempDir;

/// The time commands run at unless told otherwise: a Monday morning.
pub const NOW: &str = "2026-03-23T08:00:00Z";

/// One run of the binary outside any judge's folder (`adjudicate`, `bot arena`, `draw`…),
/// in the default language: exit code, standard output, standard error.
pub fn corbeau(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(args)
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_STORE")
        .output()
        .expect("run corbeau");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What one run of the binary gave.
pub struct Out {
    pub code: i32,
    pub out: String,
    pub err: String,
}

pub struct CliJudge {
    pub root: TempDir,
    /// The time the next commands run at (RFC 3339).
    now: RefCell<String>,
}

impl CliJudge {
    /// A fresh folder named after the test file (`what`) and the test (`name`).
    pub fn new(what: &str, name: &str) -> CliJudge {
        CliJudge {
            root: TempDir::new(what, name),
            now: RefCell::new(NOW.into()),
        }
    }

    pub fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    /// The commands that follow run at this instant (RFC 3339).
    pub fn at(&self, now: &str) {
        *self.now.borrow_mut() = now.to_string();
    }

    pub fn now(&self) -> String {
        self.now.borrow().clone()
    }

    /// Runs `corbeau ARGS --data DATA` in `dir` at `now`, `stdin` its input, whatever its
    /// outcome (but no panic).
    #[track_caller]
    pub fn run_in(&self, dir: &Path, now: &str, args: &[&str], stdin: Option<&str>) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
        super::backend::for_command(&mut command, &self.data());
        let mut child = command
            .args(args)
            .arg("--data")
            .arg(self.data())
            .current_dir(dir)
            .env("CORBEAU_NOW", now)
            .env_remove("CORBEAU_LANG")
            .env_remove("CORBEAU_CONFIG")
            .env_remove("CORBEAU_DATA")
            .env_remove("CORBEAU_LOG")
            .env_remove("JOURNAL_STREAM")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("corbeau {args:?}: {e}"));
        if let Some(text) = stdin
            && let Some(mut input) = child.stdin.take()
        {
            input
                .write_all(text.as_bytes())
                .unwrap_or_else(|e| panic!("corbeau {args:?}: stdin: {e}"));
        }
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("corbeau {args:?}: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
            "corbeau {args:?}:\n{stderr}"
        );
        out
    }

    /// Runs `corbeau ARGS --data DATA` in the judge's folder (no corbeau.toml or templates
    /// of the repository: the built-in defaults) at `now`, whatever its outcome.
    #[track_caller]
    pub fn run_at(&self, now: &str, args: &[&str]) -> Output {
        self.run_in(&self.root, now, args, None)
    }

    /// Runs a command at the judge's clock, `stdin` its input, whatever its outcome.
    #[track_caller]
    pub fn run(&self, args: &[&str], stdin: Option<&str>) -> Out {
        let out = self.run_in(&self.root, &self.now(), args, stdin);
        Out {
            code: out.status.code().unwrap_or(-1),
            out: String::from_utf8_lossy(&out.stdout).into_owned(),
            err: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs a command at the judge's clock ([`NOW`] unless told) that must succeed; its
    /// standard output.
    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> String {
        self.ok_with(args, None)
    }

    /// [`CliJudge::ok`], `stdin` its input.
    #[track_caller]
    pub fn ok_with(&self, args: &[&str], stdin: Option<&str>) -> String {
        let out = self.run(args, stdin);
        assert_eq!(
            out.code,
            0,
            "corbeau {args:?} at {}:\nstdout:\n{}\nstderr:\n{}",
            self.now(),
            out.out,
            out.err
        );
        out.out
    }

    /// Runs a command at the judge's clock that must succeed; its log (standard error),
    /// each line without its time: `INFO passage : …`.
    #[track_caller]
    pub fn log(&self, args: &[&str]) -> String {
        let out = self.run(args, None);
        assert_eq!(out.code, 0, "corbeau {args:?}:\n{}{}", out.out, out.err);
        out.err
            .lines()
            .map(|l| format!("{}\n", l.split_once(' ').map_or(l, |(_, rest)| rest)))
            .collect()
    }

    /// The mails written to the outbox folder so far, as text.
    pub fn outbox(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.data().join("outbox")) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            .collect()
    }

    /// A three-player game on `variant`, its houses played from `HOUSE-GAME@example.org`,
    /// started.
    #[track_caller]
    pub fn started(&self, game: &str, variant: &str) {
        self.ok(&["game", "new", game, "--players", "3", "--variant", variant]);
        for house in ["stark", "lannister", "baratheon"] {
            let address = format!("{house}-{game}@example.org");
            self.ok(&["player", "add", game, house, &address]);
        }
        self.ok(&["game", "start", game]);
    }
}
