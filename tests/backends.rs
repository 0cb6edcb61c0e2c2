//! The tests' store follows `CORBEAU_TEST_STORE`: each way a test reaches a store (a
//! command of the binary, an in-process judge, a copied store) lands on sled's files by
//! default, and on the test's own PostgreSQL database with `CORBEAU_TEST_STORE=postgres`,
//! so that the tests run that way really exercise PostgreSQL. Run both ways by `.ci/run`.

#![allow(clippy::unwrap_used)]

mod support;

use corbeau::game::{GameStatus, Settings};
use corbeau::store::Store;
use support::backend;
use support::cli::CliJudge;
use support::judge::{Clocked, root};
use support::world::{GAME, World, now};

/// What a store left in its data directory: sled's files, or none of them.
fn assert_where(data: &std::path::Path) {
    if backend::on_postgres() {
        assert!(
            !Store::files_exist(data),
            "sled's files in {} while the tests run on PostgreSQL",
            data.display()
        );
        assert!(backend::dump(data).is_some_and(|d| !d.is_empty()));
    } else {
        assert!(Store::files_exist(data), "no store in {}", data.display());
        assert!(backend::dump(data).is_none());
    }
}

#[test]
fn a_command_of_the_binary_keeps_its_store_where_the_choice_says() {
    let j = CliJudge::new("backends", "cli");
    j.ok(&["game", "new", "g1", "--players", "3"]);
    assert_where(&j.data());
    // Read back in-process from the same place.
    assert_eq!(backend::open_service(&j.data()).game_ids().unwrap(), ["g1"]);
    assert!(j.ok(&["game", "list"]).contains("g1"));
}

#[test]
fn a_judge_of_a_configuration_keeps_its_store_where_the_choice_says() {
    let j = Clocked::new(root("backends-clocked", ""), now());
    j.ok(&["game", "new", "g2", "--players", "3"]);
    assert_where(&j.dir.join("data"));
    assert_eq!(
        backend::open_service(&j.dir.join("data"))
            .game_ids()
            .unwrap(),
        ["g2"]
    );
}

#[test]
fn an_in_process_judge_and_the_binary_share_one_store() {
    let mut w = World::westeros("backends", "world", Settings::default(), true);
    w.close();
    assert_where(&w.config.data_dir);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"));
    backend::for_command(&mut cmd, &w.config.data_dir);
    let out = cmd
        .args(["game", "show", GAME, "--json", "--data"])
        .arg(&w.config.data_dir)
        .env_remove("CORBEAU_CONFIG")
        .env("CORBEAU_NOW", support::cli::NOW)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"stark\""));
    w.reopen();
    assert_eq!(w.service().game_ids().unwrap(), [GAME]);
}

#[test]
fn a_copied_store_is_a_store_of_its_own() {
    let mut w = World::westeros("backends", "seed", Settings::default(), false);
    w.close();
    let copy = support::TempDir::new("backends", "copy");
    backend::copy(&w.config.data_dir, &copy);
    assert_where(&copy);
    // The copy changes; the seed does not.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"));
    backend::for_command(&mut cmd, &copy);
    let out = cmd
        .args(["game", "start", GAME, "--data"])
        .arg(copy.path())
        .env_remove("CORBEAU_CONFIG")
        .env("CORBEAU_NOW", support::cli::NOW)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let started = |data: &std::path::Path| {
        backend::open_service(data)
            .find_game(GAME)
            .unwrap()
            .unwrap()
            .status()
            == GameStatus::Running
    };
    assert!(started(&copy));
    assert!(!started(&w.config.data_dir));
    w.reopen();
}

#[test]
fn a_test_folder_removed_takes_its_database_with_it() {
    if !backend::on_postgres() {
        return;
    }
    let dir = support::TempDir::new("backends", "dropped");
    let data = dir.join("data");
    let url = backend::url_for(&data).unwrap();
    drop(backend::open_service(&data));
    assert!(postgres::Client::connect(&url, postgres::NoTls).is_ok());
    drop(dir);
    assert!(postgres::Client::connect(&url, postgres::NoTls).is_err());
}
