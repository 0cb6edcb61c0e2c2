//! The tests' own folders: what a test makes under the temporary directory (a judge's
//! folder and its key beside it, a PostgreSQL cluster) goes when the test ends, failed as
//! much as passed, unless `CORBEAU_KEEP_TEST_DIRS` asks to keep it (docs/testing.md,
//! "The tests' temporary folders"). Checked on a test that fails, run by this binary in a
//! process of its own, as cargo runs it.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::judge::root;
use support::pg::Postgres;

/// What the failing test prints before it fails: the folders it made.
const MADE: &str = "made: ";

/// Not a test of its own: makes a judge's folder (with its key beside it), a plain
/// folder and a PostgreSQL server, says where, and fails.
#[test]
#[ignore = "run by the tests of this file"]
fn a_test_that_fails_with_folders() {
    let judge = root("folders-failing", "");
    let key = PathBuf::from(format!("{}.key", judge.display()));
    std::fs::write(&key, "key").unwrap();
    let plain = support::TempDir::new("folders", "failing");
    let pg = Postgres::start("folders-failing");
    for made in [
        judge.to_path_buf(),
        key,
        plain.to_path_buf(),
        pg.dir().into(),
    ] {
        println!("{MADE}{}", made.display());
    }
    panic!("failed on purpose, its folders made");
}

/// Runs [`a_test_that_fails_with_folders`], `keep` the value of CORBEAU_KEEP_TEST_DIRS:
/// the paths it made.
fn failing_run(keep: Option<&str>) -> Vec<PathBuf> {
    let mut run = Command::new(std::env::current_exe().unwrap());
    run.args([
        "--ignored",
        "--exact",
        "a_test_that_fails_with_folders",
        "--nocapture",
    ]);
    match keep {
        Some(value) => run.env(support::KEEP, value),
        None => run.env_remove(support::KEEP),
    };
    let out = run.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "the test did not fail: {text}");
    assert!(text.contains("failed on purpose"), "{text}");
    let made: Vec<PathBuf> = text
        .lines()
        .filter_map(|l| l.strip_prefix(MADE))
        .map(PathBuf::from)
        .collect();
    assert_eq!(made.len(), 4, "{text}");
    made
}

#[test]
fn a_failed_test_leaves_none_of_its_folders() {
    let made = failing_run(None);
    for path in &made {
        assert!(!path.exists(), "left behind: {}", path.display());
    }
}

#[test]
fn a_failed_test_keeps_its_folders_when_asked_and_only_then() {
    let made = failing_run(Some("1"));
    let kept: Vec<&PathBuf> = made.iter().filter(|p| p.exists()).collect();
    for path in &made {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(path);
        } else {
            let _ = std::fs::remove_file(path);
        }
    }
    assert_eq!(kept.len(), made.len(), "kept {kept:?} of {made:?}");
    // `0` is not asking.
    for path in failing_run(Some("0")) {
        assert!(!path.exists(), "left behind: {}", path.display());
    }
}
