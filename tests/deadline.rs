//! One deadline shared by many games: the pictures of a pass are the full drawing's, however
//! they are made; and the store `benches/deadline.sh` runs its `tick` on.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use corbeau::game::{HouseKey, Moderator, NewGame, Settings, hash_secret};
use corbeau::lang::Lang;
use corbeau::service::Service;

/// When the bench's games start; their first deadline is a few days after.
const START: &str = "2026-03-23T08:00:00Z";

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// Not a test: writes the store of `benches/deadline.sh`, `CORBEAU_DEADLINE_GAMES` games
/// of three houses with a moderator, started at the same instant (so due at the same
/// instant), into `CORBEAU_DEADLINE_DIR/data`, with its `corbeau.toml`. Made in-process,
/// one secret hashed for every player: through the binary, a game takes about a second to
/// set up (five commands, each opening the store), which ten thousand games cannot wait.
#[test]
#[ignore = "run by benches/deadline.sh"]
fn bench_store() {
    let dir = PathBuf::from(std::env::var("CORBEAU_DEADLINE_DIR").unwrap());
    let games: usize = std::env::var("CORBEAU_DEADLINE_GAMES")
        .unwrap()
        .parse()
        .unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("corbeau.toml"),
        "data_dir = \"data\"\n[judge]\naddress = \"juge@example.org\"\n",
    )
    .unwrap();
    let data = dir.join("data");
    corbeau::service::auth::install_judge_key(&dir.join("data.key")).unwrap();
    let service = Service::open(&data).unwrap();
    let hash = hash_secret("secret-2026").unwrap();
    let start = at(START);
    for i in 1..=games {
        let id = format!("g{i}");
        let new = NewGame {
            id: id.clone(),
            name: None,
            variant: "westeros".into(),
            players: 3,
            settings: Settings::default(),
            moderator: Some(Moderator {
                address: format!("mod{i}@example.org").into(),
                secret: hash.clone(),
            }),
        };
        service.create(new, "bench", start).unwrap();
        service
            .shape_for_tests(&id, "bench", "seed", start, |game, variant, _| {
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
