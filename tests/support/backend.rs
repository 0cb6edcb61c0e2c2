//! The store the tests run on. By default, sled's files in each judge's data directory, as
//! a judge that configures nothing keeps them. With `CORBEAU_TEST_STORE=postgres`, a
//! PostgreSQL database per data directory instead: one server per test binary (started at
//! the first test that needs it, stopped when the binary ends), a database created the
//! first time a data directory is seen and dropped with the test's temporary folder,
//! when the test ends, pass or fail.
//!
//! Every way the tests reach a store goes through here: a command of the binary gets
//! `CORBEAU_STORE` ([`for_command`]), an in-process judge opens its database
//! ([`open_service`]), a copied store is copied whole ([`copy`]). A test that looks at
//! sled's own files (the store's folder, its size on disk, its compaction) says so with
//! [`sled_only`] and is skipped on PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use corbeau::service::Service;
use corbeau::store::{DatabaseUrl, Store};

use super::pg::Postgres;

/// The environment variable that chooses the tests' store: `postgres`, else sled.
pub const CHOICE: &str = "CORBEAU_TEST_STORE";

/// How long an in-process judge waits for a command of the binary to let the store go,
/// as the binary's own commands do.
const WAIT: Duration = Duration::from_secs(5);

/// Whether this run keeps its stores in PostgreSQL (`CORBEAU_TEST_STORE=postgres`). Any
/// other value is refused, so that a typo never runs the suite on sled unawares.
pub fn on_postgres() -> bool {
    match std::env::var(CHOICE) {
        Err(_) => false,
        Ok(v) if v.is_empty() || v == "sled" => false,
        Ok(v) if v == "postgres" || v == "postgresql" => true,
        Ok(v) => panic!("{CHOICE}={v}: the tests' store is `sled` (the default) or `postgres`"),
    }
}

/// Skips the rest of a test on PostgreSQL, saying why: it looks at what only sled has.
/// `if sled_only("…") { return; }` at the test's start.
pub fn sled_only(reason: &str) -> bool {
    if on_postgres() {
        eprintln!("sled only, skipped on PostgreSQL: {reason}");
        return true;
    }
    false
}

struct Databases {
    server: Postgres,
    /// Each data directory's database name.
    names: Mutex<HashMap<PathBuf, String>>,
    next: Mutex<u32>,
    /// A connection to the server's own database, to create and drop the others.
    admin: Mutex<postgres::Client>,
}

/// The server and its databases, once a test asked for one.
static DATABASES: OnceLock<Databases> = OnceLock::new();

fn databases() -> &'static Databases {
    DATABASES.get_or_init(|| {
        let server = Postgres::start("tests");
        server.stop_after(std::process::id());
        let admin = postgres::Client::connect(&server.url("postgres"), postgres::NoTls)
            .unwrap_or_else(|e| panic!("the tests' PostgreSQL: {e}"));
        Databases {
            server,
            names: Mutex::new(HashMap::new()),
            next: Mutex::new(0),
            admin: Mutex::new(admin),
        }
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A test that failed while it held a lock leaves the map whole: go on with it.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Databases {
    fn fresh_name(&self) -> String {
        let mut next = lock(&self.next);
        *next += 1;
        format!("t{}_{}", std::process::id(), *next)
    }

    /// The database of `data`, created empty (or from `template`) the first time.
    fn name_for(&self, data: &Path, template: Option<&str>) -> String {
        let mut names = lock(&self.names);
        if let Some(name) = names.get(data) {
            return name.clone();
        }
        let name = self.fresh_name();
        let sql = match template {
            Some(from) => format!("CREATE DATABASE {name} TEMPLATE {from}"),
            None => format!("CREATE DATABASE {name}"),
        };
        lock(&self.admin)
            .batch_execute(&sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        names.insert(data.to_path_buf(), name.clone());
        name
    }
}

/// The URL of the database that keeps the store of `data` on PostgreSQL (created the first
/// time); none on sled.
pub fn url_for(data: &Path) -> Option<String> {
    if !on_postgres() {
        return None;
    }
    let dbs = databases();
    Some(dbs.server.url(&dbs.name_for(data, None)))
}

/// Points a command of the binary whose data directory is `data` at the test's store:
/// its database on PostgreSQL; on sled, no database whatever the caller's environment
/// says.
pub fn for_command(cmd: &mut Command, data: &Path) {
    match url_for(data) {
        Some(url) => cmd.env("CORBEAU_STORE", url),
        None => cmd.env_remove("CORBEAU_STORE"),
    };
}

/// Opens the store of `data` in-process, where the test's backend keeps it.
pub fn open_store(data: &Path) -> Store {
    match url_for(data) {
        Some(url) => {
            // The data directory keeps the mail spool and the outbox folder on either.
            std::fs::create_dir_all(data).unwrap();
            let url: DatabaseUrl = url.parse().unwrap();
            Store::open_database(data, &url, WAIT).unwrap()
        }
        None => Store::open(data).unwrap(),
    }
}

/// [`open_store`], as the service.
pub fn open_service(data: &Path) -> Service {
    Service::on(open_store(data)).unwrap()
}

/// Copies the store of `from` to `to` (a fixture, before a test changes it): the folder,
/// and on PostgreSQL its database too. Nobody may have `from`'s store open.
pub fn copy(from: &Path, to: &Path) {
    super::copy_dir(from, to);
    if !on_postgres() {
        return;
    }
    let dbs = databases();
    let template = dbs.name_for(from, None);
    dbs.name_for(to, Some(&template));
}

/// The store of `data` on PostgreSQL, dumped whole (what a backup holds); none on sled,
/// whose store is the files of `data`.
pub fn dump(data: &Path) -> Option<Vec<u8>> {
    let url = url_for(data)?;
    Some(databases().server.dump(&url))
}

/// Drops the databases of the data directories under `dir` (a test's folder, removed).
pub fn release(dir: &Path) {
    // A test that never asked for a database starts no server to drop one.
    let Some(dbs) = DATABASES.get() else {
        return;
    };
    let gone: Vec<String> = {
        let mut names = lock(&dbs.names);
        let under: Vec<PathBuf> = names
            .keys()
            .filter(|p| p.starts_with(dir))
            .cloned()
            .collect();
        under.iter().filter_map(|p| names.remove(p)).collect()
    };
    for name in gone {
        // WITH (FORCE): a judge killed by the test may not have been seen gone yet.
        let _ =
            lock(&dbs.admin).batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
}
