//! A store of many games due at once, and the same store copied into a PostgreSQL
//! database that several judges share: what the tests of a deadline (tests/deadline.rs,
//! tests/store_claims.rs), the judges on one database (tests/store_pg.rs) and the bench of
//! a deadline (benches/deadline.sh, through tests/deadline.rs) start from.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use chrono::{DateTime, Utc};
use corbeau::game::{HouseKey, Moderator, NewGame, Settings, hash_secret};
use corbeau::lang::Lang;
use corbeau::service::Service;

/// When the games start; their first deadline is a few days after.
pub const START: &str = "2026-03-23T08:00:00Z";
/// After the games' first deadline: every game of [`make_games`] is due.
pub const DUE: &str = "2026-05-01T08:00:00Z";

/// The secret of every player and moderator of [`make_games`].
pub const SECRET: &str = "secret-2026";

pub fn time(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// A sled store in `dir/data` (its key in `dir/data.key`, where the binary keeps it) of
/// `games` started games on Westeros, `g1`…, each of three houses played from
/// `<house><i>@example.org` in French and a moderator `mod<i>@example.org`, pictures on
/// or off, all due at [`DUE`]. Made in-process, one secret hashed for every player:
/// through the binary a game takes five commands to set up, each opening the store,
/// which the ten thousand games of the bench cannot wait.
pub fn make_games(dir: &Path, games: usize, pictures: bool) {
    corbeau::service::auth::install_judge_key(&dir.join("data.key")).unwrap();
    let service = Service::open(&dir.join("data")).unwrap();
    let hash = hash_secret(SECRET).unwrap();
    let start = time(START);
    for i in 1..=games {
        let id = format!("g{i}");
        let new = NewGame {
            id: id.clone(),
            name: None,
            variant: "westeros".into(),
            players: 3,
            settings: Settings {
                pictures,
                ..Settings::default()
            },
            moderator: Some(Moderator {
                address: format!("mod{i}@example.org").into(),
                secret: hash.clone(),
            }),
        };
        service.create(new, "test", start).unwrap();
        service
            .shape_for_tests(&id, "test", "seed", start, |game, variant, _| {
                for house in ["stark", "lannister", "baratheon"] {
                    let key = HouseKey::named(variant, house).expect("a house");
                    let address = format!("{house}{i}@example.org");
                    game.add_player(&key, &address, hash.clone(), Lang::Fr, start)?;
                }
                game.start(variant, start)
            })
            .unwrap();
    }
}

/// Copies the sled store of `dir/data` into the empty database `url` with the binary's
/// `store copy`, as an operator moves a judge to PostgreSQL; no configuration nor
/// environment of the caller's chooses another store.
pub fn copy_into_database(dir: &Path, url: &str) {
    let data = dir.join("data");
    let out = Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(["store", "copy", "--from"])
        .arg(&data)
        .args(["--to", url])
        .current_dir(dir)
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_STORE")
        .env_remove("CORBEAU_LANG")
        .env("CORBEAU_NOW", START)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "store copy --from {} --to {url}: {}{}",
        data.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Gives the judge's folder `to` the key of `from` (`data.key`): judges that share a
/// database must share the key of the secrets' sieves too.
pub fn share_key(from: &Path, to: &Path) {
    fs::copy(from.join("data.key"), to.join("data.key")).unwrap();
}
