//! One deadline shared by many games: the pictures of a pass are the full drawing's, however
//! they are made; and the store `benches/deadline.sh` runs its `tick` on.

#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use corbeau::lang::Lang;
use corbeau::service::Service;
use corbeau::service::picture::{Format, phase_picture};
use mail_parser::{MessageParser, MimeHeaders};

use support::cli::CliJudge;
use support::due::{self, DUE};

/// Not a test: writes the store of `benches/deadline.sh`, `CORBEAU_DEADLINE_GAMES` games
/// of three houses with a moderator, started at the same instant (so due at the same
/// instant), into `CORBEAU_DEADLINE_DIR/data`, with its `corbeau.toml`.
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
    due::make_games(&dir, games, true);
}

/// The results mails of the outbox folder, by game: each one's picture (none: no PNG).
fn results_pictures(data: &Path) -> BTreeMap<String, Vec<Option<Vec<u8>>>> {
    let mut found: BTreeMap<String, Vec<Option<Vec<u8>>>> = BTreeMap::new();
    for entry in std::fs::read_dir(data.join("outbox")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "eml") {
            continue;
        }
        let raw = std::fs::read(&path).unwrap();
        let mail = MessageParser::default().parse(&raw).unwrap();
        if !mail.subject().is_some_and(|s| s.contains("Résultats")) {
            continue;
        }
        let game = mail
            .header_raw("X-Corbeau-Game")
            .unwrap()
            .trim()
            .to_string();
        let png = mail
            .attachments()
            .find(|a| a.content_type().is_some_and(|t| t.subtype() == Some("png")))
            .map(|a| a.contents().to_vec());
        found.entry(game).or_default().push(png);
    }
    found
}

/// Twelve games due at once, one `tick`: every game's phase is processed once, and each
/// of its four results mails (three players, the moderator) carries the very picture the
/// game's phase gives when drawn alone, though a pass draws a run of games' pictures side
/// by side and sends their mails before the next run is drawn.
#[test]
fn many_games_due_at_once_each_mail_their_own_picture_as_drawn_alone() {
    let cli = CliJudge::new("deadline", "pictures");
    due::make_games(&cli.root, 12, true);
    let tick = cli.run_at(DUE, &["tick"]);
    assert!(
        tick.status.success(),
        "{}",
        String::from_utf8_lossy(&tick.stderr)
    );
    let mailed = results_pictures(&cli.data());
    let service = Service::open(&cli.data()).unwrap();
    assert!(
        service.outbox().unwrap().is_empty(),
        "every mail handed to the transport"
    );
    assert_eq!(mailed.len(), 12, "{:?}", mailed.keys());
    for game in service.games().unwrap() {
        let records = service.history(game.id()).unwrap();
        assert_eq!(records.len(), 1, "{}: one phase processed", game.id());
        let variant = service.variant(game.variant()).unwrap();
        let alone = phase_picture(&variant, &game, &records[0], Lang::Fr, Format::Png).unwrap();
        let pictures = &mailed[game.id()];
        assert_eq!(pictures.len(), 4, "{}", game.id());
        for picture in pictures {
            assert!(
                picture.as_deref() == Some(alone.as_slice()),
                "{}: a results mail without its own picture",
                game.id()
            );
        }
    }
}

/// `[store] cache_mb` is read (the judge's memory for a deadline of many games): a judge
/// configured with it runs its pass; a value that is no number is refused by name.
#[test]
fn the_store_cache_is_set_in_the_configuration() {
    let cli = CliJudge::new("deadline", "cache");
    due::make_games(&cli.root, 2, true);
    let config = cli.root.join("corbeau.toml");
    std::fs::write(&config, "[store]\ncache_mb = 8\n").unwrap();
    let config = config.to_str().unwrap();
    let tick = cli.run_at(DUE, &["--config", config, "tick"]);
    assert!(
        tick.status.success(),
        "{}",
        String::from_utf8_lossy(&tick.stderr)
    );
    assert_eq!(results_pictures(&cli.data()).len(), 2);
    std::fs::write(
        cli.root.join("corbeau.toml"),
        "[store]\ncache_mb = \"beaucoup\"\n",
    )
    .unwrap();
    let refused = cli.run_at(DUE, &["--config", config, "tick"]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("cache_mb"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// The pass writes each mail's file once, whole: as many files as mails queued, none
/// left half-written under `tmp/`, the outbox of the store empty.
#[test]
fn a_deadline_writes_every_mail_once_and_leaves_nothing_half_written() {
    let cli = CliJudge::new("deadline", "once");
    due::make_games(&cli.root, 9, true);
    let tick = cli.run_at(DUE, &["tick"]);
    assert!(
        tick.status.success(),
        "{}",
        String::from_utf8_lossy(&tick.stderr)
    );
    let outbox = cli.data().join("outbox");
    let files: Vec<_> = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    // Nine games, each: three players and the moderator told the results, and each
    // house's missed orders told to its player and the moderator.
    assert_eq!(files.len(), 9 * 10, "{files:?}");
    let mut ids: Vec<String> = files
        .iter()
        .map(|p| {
            let raw = std::fs::read(p).unwrap();
            let mail = MessageParser::default().parse(&raw).unwrap();
            mail.message_id().unwrap().to_string()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 90, "one Message-ID per file");
    let half: Vec<_> = std::fs::read_dir(outbox.join("tmp"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(half.is_empty(), "{half:?}");
    let service = Service::open(&cli.data()).unwrap();
    assert!(service.outbox().unwrap().is_empty());
    assert!(service.pending_notices().unwrap().is_empty());
    // A second pass finds nothing to tell nor to write.
    drop(service);
    let again = cli.run_at(DUE, &["tick"]);
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_dir(&outbox)
            .unwrap()
            .filter(|e| e
                .as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "eml"))
            .count(),
        90
    );
}

/// The same deadline on PostgreSQL (the store copied there from sled): the notices are
/// read a run at a time from the database, and the pass mails exactly what it mails on
/// sled, each game's results with the same picture.
#[test]
fn a_deadline_on_postgresql_mails_what_it_mails_on_sled() {
    let pg = support::pg::Postgres::start("deadline");
    let on_sled = CliJudge::new("deadline", "sled");
    due::make_games(&on_sled.root, 10, true);
    let tick = on_sled.run_at(DUE, &["tick"]);
    assert!(
        tick.status.success(),
        "{}",
        String::from_utf8_lossy(&tick.stderr)
    );

    let on_pg = CliJudge::new("deadline", "postgresql");
    due::make_games(&on_pg.root, 10, true);
    let url = pg.database();
    due::copy_into_database(&on_pg.root, &url);
    let config = on_pg.root.join("pg.toml");
    std::fs::write(&config, format!("[store]\nurl = \"{url}\"\n")).unwrap();
    let config = config.to_str().unwrap();
    let tick = on_pg.run_at(DUE, &["--config", config, "tick"]);
    assert!(
        tick.status.success(),
        "{}",
        String::from_utf8_lossy(&tick.stderr)
    );
    let sled_mails = results_pictures(&on_sled.data());
    let pg_mails = results_pictures(&on_pg.data());
    assert_eq!(sled_mails.len(), 10);
    assert_eq!(sled_mails, pg_mails);
    assert!(
        pg_mails.values().flatten().all(Option::is_some),
        "every results mail carries its picture"
    );
    let count = |cli: &CliJudge| {
        std::fs::read_dir(cli.data().join("outbox"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "eml")
            })
            .count()
    };
    assert_eq!(count(&on_sled), 100);
    assert_eq!(count(&on_pg), 100);
    // Nothing left to tell in the database: a second pass writes nothing.
    let again = on_pg.run_at(DUE, &["--config", config, "tick"]);
    assert!(again.status.success());
    assert_eq!(count(&on_pg), 100);
}
