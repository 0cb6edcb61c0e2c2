//! The store on PostgreSQL (docs/storage.md, "On PostgreSQL"): the connection, the
//! tables, and the lock that lets one judge at a time hold the store, as sled's file lock
//! does on one machine.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{GenericClient, Row};

use super::StoreError;

/// The version of the tables below, kept in `corbeau_schema`; bumped (with a migration
/// step) when they change. A database whose tables are newer is refused.
pub const LAYOUT_VERSION: u32 = 4;

/// The trees of the store, one table each, named as sled names its trees.
pub const TREES: [&str; 17] = [
    "meta",
    "games",
    "phases",
    "audit",
    "wake",
    "notices",
    "outbox",
    "pieces",
    "piece_counts",
    "seen",
    "replies",
    "guards",
    "variants",
    "held",
    "seats",
    "records",
    "standby",
];

/// The trees added by a layout after the first, with the layout: an older database gets
/// their tables when it is brought up to date.
const LATER_TREES: [(&str, u32); 2] = [("pieces", 4), ("piece_counts", 4)];

/// The advisory lock a judge holds while it has the store: `corb` in ASCII, so that it
/// reads as corbeau's in `pg_locks`.
const LOCK: i64 = 0x636f_7262;

/// The advisory lock a judge waiting its turn holds, shared, to say it waits: it does not
/// queue for [`LOCK`], so that a moderator's command, which does, comes before it.
const KNOCK: i64 = LOCK + 1;

/// How often a judge waiting its turn tries the lock again (sled's waiters poll as often).
const POLL: Duration = Duration::from_millis(20);

/// How a process waits for the store's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// In PostgreSQL's queue, granted the moment the holder lets go: a moderator's
    /// command, which must not wait behind a second judge's mail.
    Queue,
    /// Trying again every [`POLL`], its wait said by [`KNOCK`]: a judge, which takes the
    /// store when no command is queued.
    Poll,
}

/// How many prepared statements a connection keeps at most.
const STATEMENTS_KEPT: usize = 256;

/// How long connecting may take before the database counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A database to keep the store in, as `[store] url` or `CORBEAU_STORE` names it.
#[derive(Clone, Debug)]
pub struct DatabaseUrl {
    config: postgres::Config,
    shown: String,
}

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<DatabaseUrl, String> {
        let text = text.trim();
        if !(text.starts_with("postgresql://") || text.starts_with("postgres://")) {
            return Err("a PostgreSQL URL begins with postgresql://".into());
        }
        let mut config = postgres::Config::from_str(text).map_err(|e| e.to_string())?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        // A judge on a machine that vanished holds its lock until the server sees the
        // connection dead; keepalives let the client side see it too.
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(30));
        config.application_name("corbeau");
        let host = config
            .get_hosts()
            .first()
            .map(|h| match h {
                postgres::config::Host::Tcp(name) => name.clone(),
                postgres::config::Host::Unix(path) => path.display().to_string(),
            })
            .unwrap_or_default();
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let shown = format!(
            "postgresql://{}@{host}:{port}/{}",
            config.get_user().unwrap_or_default(),
            config.get_dbname().unwrap_or_default()
        );
        Ok(DatabaseUrl { config, shown })
    }
}

impl DatabaseUrl {
    /// The URL without its password, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// A new connection, TLS when the URL asks for it (`sslmode=require`) or the server
    /// offers it (`prefer`, the default); the system's certificate authorities.
    pub(super) fn connect(&self) -> Result<postgres::Client, StoreError> {
        let unreachable = |reason: String| StoreError::Unreachable {
            url: self.shown.clone(),
            reason,
        };
        let tls = tls_connector().map_err(unreachable)?;
        self.config.connect(tls).map_err(|e| unreachable(full(&e)))
    }
}

/// The TLS side of every connection, made once: making it reads and parses the system's
/// certificate authorities (tens of milliseconds), and a command opens several
/// connections (the store's, the probe's). The authorities of a running process's first
/// connection serve its later ones.
fn tls_connector() -> Result<postgres_native_tls::MakeTlsConnector, String> {
    static TLS: OnceLock<Result<postgres_native_tls::MakeTlsConnector, String>> = OnceLock::new();
    TLS.get_or_init(|| {
        native_tls::TlsConnector::new()
            .map(postgres_native_tls::MakeTlsConnector::new)
            .map_err(|e| e.to_string())
    })
    .clone()
}

/// An error with its causes: the client's own says "error connecting to server" only.
fn full(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// An open connection that holds the store's lock (released with the connection: a
/// judge that dies lets the store go as soon as the server sees its connection end).
pub struct Connection {
    /// Every statement this connection ran, prepared on its first use and kept: a
    /// statement named anew costs a second round trip and the server's parsing and
    /// planning, and a deadline runs a few dozen statements thousands of times.
    statements: RefCell<HashMap<String, postgres::Statement>>,
    pub(super) client: RefCell<postgres::Client>,
    pub(super) url: DatabaseUrl,
    /// Whether this connection holds the store's lock: a judge lets it go while it
    /// adjudicates the games it claimed, and writes nothing meanwhile.
    locked: Cell<bool>,
    /// Who this connection is in `claims`, asked of the server once.
    holder: RefCell<Option<String>>,
    /// The end of the games due (a wake key) for which this connection last made the
    /// claims' rows: a pass claims a few games at a time, and makes them once.
    rows_made_for: RefCell<Option<Vec<u8>>>,
}

impl Connection {
    /// Connects, takes the store's lock (waiting at most `wait`), and creates or checks
    /// the tables.
    pub(super) fn open(
        url: &DatabaseUrl,
        wait: Duration,
        turn: Turn,
    ) -> Result<Connection, StoreError> {
        let mut client = url.connect()?;
        take_lock(&mut client, url, wait, turn)?;
        create_tables(&mut client)?;
        Ok(Connection {
            statements: RefCell::new(HashMap::new()),
            client: RefCell::new(client),
            url: url.clone(),
            locked: Cell::new(true),
            holder: RefCell::new(None),
            rows_made_for: RefCell::new(None),
        })
    }

    /// The statement of `sql` on this connection, prepared on `client` (the connection's
    /// own, or a transaction of it) the first time. Prepared statements outlive the
    /// transaction that prepared them, whether it commits or not.
    pub(super) fn prepared(
        &self,
        client: &mut impl GenericClient,
        sql: &str,
    ) -> Result<postgres::Statement, postgres::Error> {
        if let Some(statement) = self.statements.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        let mut statements = self.statements.borrow_mut();
        // A few dozen in practice; a bound all the same, each costs the server memory.
        if statements.len() >= STATEMENTS_KEPT {
            statements.clear();
        }
        statements.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }

    /// Runs `sql` on the connection, outside any transaction, prepared once.
    pub(super) fn query(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let mut client = self.client.borrow_mut();
        let statement = self.prepared(&mut *client, sql)?;
        Ok(client.query(&statement, params)?)
    }

    /// [`Connection::query`] for a statement whose rows are not wanted: how many it changed.
    pub(super) fn execute(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let mut client = self.client.borrow_mut();
        let statement = self.prepared(&mut *client, sql)?;
        Ok(client.execute(&statement, params)?)
    }

    /// Refuses a write made without the store's lock: only the lock keeps two judges'
    /// writes to one game apart.
    pub(super) fn writable(&self) -> Result<(), StoreError> {
        if self.locked.get() {
            Ok(())
        } else {
            Err(StoreError::WriteUnlocked)
        }
    }

    /// Lets the store's lock go, keeping the connection: reads and claims go on.
    pub(super) fn let_go(&self) -> Result<(), StoreError> {
        if self.locked.get() {
            self.execute("SELECT pg_advisory_unlock($1)", &[&LOCK])?;
            self.locked.set(false);
        }
        Ok(())
    }

    /// Takes the store's lock again, waiting as a judge waits.
    pub(super) fn take_again(&self, wait: Duration) -> Result<(), StoreError> {
        if !self.locked.get() {
            take_lock(&mut self.client.borrow_mut(), &self.url, wait, Turn::Poll)?;
            self.locked.set(true);
        }
        Ok(())
    }

    /// This connection's name in `claims`: the judge's process id (for the operator who
    /// reads the table), then the server's process of the connection and the instant
    /// asked, which no other connection, now or later, shares.
    fn holder(&self) -> Result<String, StoreError> {
        if let Some(holder) = self.holder.borrow().as_ref() {
            return Ok(holder.clone());
        }
        let row = self.client.borrow_mut().query_one(
            "SELECT pg_backend_pid()::text || '@' || \
             (extract(epoch FROM clock_timestamp()) * 1000000)::bigint::text",
            &[],
        )?;
        let server: String = row.try_get(0)?;
        let holder = format!("{}/{server}", std::process::id());
        *self.holder.borrow_mut() = Some(holder.clone());
        Ok(holder)
    }

    /// Claims at most `count` of the games whose wake key is at most `last`, leaving
    /// out `skip` and the games another judge's live claim holds, for `lease`: the
    /// games claimed, in their order of the wake table. A claim is its own transaction,
    /// made with or without the store's lock.
    pub(super) fn claim(
        &self,
        last: &[u8],
        skip: &[Vec<u8>],
        count: usize,
        lease: Duration,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        let holder = self.holder()?;
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        let seconds = lease.as_secs_f64();
        let mut client = self.client.borrow_mut();
        let mut tx = client.transaction()?;
        let first_of_pass = self.rows_made_for.borrow().as_deref() != Some(last);
        if first_of_pass {
            // Claims a dead judge left on games done since, or no longer due: nobody
            // will give them up. Rows another judge has in hand are skipped, never
            // waited for.
            let forget = self.prepared(
                &mut tx,
                &format!(
                    "DELETE FROM claims WHERE game IN (SELECT c.game FROM claims c \
                     WHERE {CLAIM_OVER} \
                     AND c.game NOT IN (SELECT value FROM wake WHERE key <= $1) \
                     FOR UPDATE SKIP LOCKED)"
                ),
            )?;
            tx.execute(&forget, &[&last])?;
            // A row for every game due, so that the claim below has rows to lock; a row
            // of another judge stays as it is. Once a pass: a game this judge tried has
            // no row again, and a pass of ten thousand games would otherwise make them
            // a thousand times.
            let rows_due = self.prepared(
                &mut tx,
                "INSERT INTO claims (game, holder, until) \
                 SELECT DISTINCT value, '', '-infinity'::timestamptz FROM wake \
                 WHERE key <= $1 ON CONFLICT (game) DO NOTHING",
            )?;
            tx.execute(&rows_due, &[&last])?;
        }
        // Rows another judge is claiming at this instant are skipped, not waited for;
        // once its claim is committed, its `until` keeps them out. A claim whose
        // connection the server no longer has is over before its lease: its judge died
        // (a judge restarted after a crash takes its games up at once); a judge alive
        // but stuck keeps them until the lease runs out.
        let free = self.prepared(
            &mut tx,
            &format!(
                "SELECT c.game FROM claims c \
                 WHERE c.game IN (SELECT value FROM wake WHERE key <= $1) AND {CLAIM_OVER} \
                 AND c.game NOT IN (SELECT unnest($2::bytea[])) \
                 ORDER BY c.game LIMIT $3 FOR UPDATE SKIP LOCKED"
            ),
        )?;
        let rows = tx.query(&free, &[&last, &skip, &count])?;
        let games = rows
            .iter()
            .map(|row| row.try_get::<_, Vec<u8>>(0))
            .collect::<Result<Vec<_>, _>>()?;
        let take = self.prepared(
            &mut tx,
            "UPDATE claims SET holder = $1, until = now() + make_interval(secs => $2) \
             WHERE game = ANY($3)",
        )?;
        tx.execute(&take, &[&holder, &seconds, &games])?;
        tx.commit()?;
        if first_of_pass {
            *self.rows_made_for.borrow_mut() = Some(last.to_vec());
        }
        Ok(games)
    }

    /// Whether this connection still holds a live claim on `game`.
    pub(super) fn holds_claim(&self, game: &[u8]) -> Result<bool, StoreError> {
        let holder = self.holder()?;
        let rows = self.query(
            "SELECT EXISTS (SELECT 1 FROM claims WHERE game = $1 AND holder = $2 \
             AND until > now())",
            &[&game, &holder],
        )?;
        Ok(rows
            .first()
            .map(|row| row.try_get(0))
            .transpose()?
            .unwrap_or(false))
    }

    /// Gives up this connection's claims on `games`.
    pub(super) fn unclaim(&self, games: &[Vec<u8>]) -> Result<(), StoreError> {
        let holder = self.holder()?;
        self.execute(
            "DELETE FROM claims WHERE game = ANY($1) AND holder = $2",
            &[&games, &holder],
        )?;
        Ok(())
    }

    pub(super) fn generate_ids(&self, n: usize) -> Result<Vec<u64>, StoreError> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let count = i64::try_from(n).unwrap_or(i64::MAX);
        let rows = self.query(
            "SELECT nextval('corbeau_ids') FROM generate_series(1::bigint, $1::bigint)",
            &[&count],
        )?;
        let mut ids = rows
            .iter()
            .map(|row| Ok(row.try_get::<_, i64>(0)?.unsigned_abs()))
            .collect::<Result<Vec<u64>, StoreError>>()?;
        ids.sort_unstable();
        Ok(ids)
    }

    /// Makes the next ids drawn at least `next` (a store copied in keeps its sequences).
    pub(super) fn ids_from(&self, next: u64) -> Result<(), StoreError> {
        let next = i64::try_from(next.max(1)).unwrap_or(i64::MAX);
        self.client
            .borrow_mut()
            .execute("SELECT setval('corbeau_ids', $1, false)", &[&next])?;
        Ok(())
    }

    pub(super) fn size(&self) -> Result<u64, StoreError> {
        let row = self
            .client
            .borrow_mut()
            .query_one("SELECT pg_database_size(current_database())", &[])?;
        Ok(row.try_get::<_, i64>(0)?.unsigned_abs())
    }
}

/// Takes the store's lock on `client`, waiting at most `wait`, as `turn` says.
fn take_lock(
    client: &mut postgres::Client,
    url: &DatabaseUrl,
    wait: Duration,
    turn: Turn,
) -> Result<(), StoreError> {
    let locked = || StoreError::LockedDatabase(url.shown.clone());
    if turn == Turn::Poll && !wait.is_zero() {
        let give_up = std::time::Instant::now() + wait;
        let mut knocked = false;
        loop {
            let row = client.query_one("SELECT pg_try_advisory_lock($1)", &[&LOCK])?;
            if row.try_get::<_, bool>(0)? {
                break;
            }
            if std::time::Instant::now() >= give_up {
                // A connection kept after giving up must not go on saying it waits.
                if knocked {
                    client.execute("SELECT pg_advisory_unlock_shared($1)", &[&KNOCK])?;
                }
                return Err(locked());
            }
            if !knocked {
                client.execute("SELECT pg_advisory_lock_shared($1)", &[&KNOCK])?;
                knocked = true;
            }
            std::thread::sleep(POLL);
        }
        if knocked {
            client.execute("SELECT pg_advisory_unlock_shared($1)", &[&KNOCK])?;
        }
    } else if wait.is_zero() {
        let row = client.query_one("SELECT pg_try_advisory_lock($1)", &[&LOCK])?;
        if !row.try_get::<_, bool>(0)? {
            return Err(locked());
        }
    } else {
        let millis = wait.as_millis().max(1);
        client.batch_execute(&format!("SET lock_timeout = {millis}"))?;
        match client.execute("SELECT pg_advisory_lock($1)", &[&LOCK]) {
            Ok(_) => {}
            Err(e) if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) => return Err(locked()),
            Err(e) => return Err(e.into()),
        }
        client.batch_execute("SET lock_timeout = 0")?;
    }
    Ok(())
}

/// Whether the claim `c` is over: its lease ran out, or the server no longer has the
/// connection that made it (its judge died; a judge alive but stuck keeps its claims
/// until the lease runs out).
const CLAIM_OVER: &str = "(c.until < now() OR (c.holder <> '' AND NOT EXISTS ( \
    SELECT 1 FROM pg_stat_activity a \
    WHERE a.pid::text = split_part(split_part(c.holder, '/', 2), '@', 1))))";

/// The judges' claims on the games due (layout 2): a game's id as the wake table holds
/// it, who claimed it, and until when.
const CLAIMS: &str = "CREATE TABLE claims (game bytea PRIMARY KEY, holder text NOT NULL, \
                      until timestamptz NOT NULL);";

/// The outbox's mails kept as they are (layout 3): they were mostly a picture already
/// compressed, which PostgreSQL's own compression tries over their whole length for
/// nothing (a third of the server's work at a deadline).
const OUTBOX_UNCOMPRESSED: &str = "ALTER TABLE outbox ALTER COLUMN value SET STORAGE EXTERNAL;";

/// The pictures the outbox's mails share, kept as they are (layout 4), for the same
/// reason.
const PIECES_UNCOMPRESSED: &str = "ALTER TABLE pieces ALTER COLUMN value SET STORAGE EXTERNAL;";

fn create_tree(tree: &str) -> String {
    format!("CREATE TABLE {tree} (key bytea PRIMARY KEY, value bytea NOT NULL);")
}

/// Creates the tables of a new database in one transaction, or checks the version of
/// those there. The caller holds the lock: two judges never create them at once.
fn create_tables(client: &mut postgres::Client) -> Result<(), StoreError> {
    let row = client.query_one("SELECT to_regclass('corbeau_schema') IS NOT NULL", &[])?;
    if row.try_get::<_, bool>(0)? {
        let row = client.query_opt("SELECT version FROM corbeau_schema", &[])?;
        let found = match row {
            Some(row) => row.try_get::<_, i32>(0)?.unsigned_abs(),
            None => {
                return Err(StoreError::Corrupt(
                    "corbeau_schema holds no version".into(),
                ));
            }
        };
        if found > LAYOUT_VERSION {
            return Err(StoreError::NewerDatabase { found });
        }
        if found < LAYOUT_VERSION {
            let mut sql = String::new();
            if found < 2 {
                sql.push_str(CLAIMS);
            }
            if found < 3 {
                sql.push_str(OUTBOX_UNCOMPRESSED);
            }
            for (tree, layout) in LATER_TREES {
                if found < layout {
                    sql.push_str(&create_tree(tree));
                }
            }
            if found < 4 {
                sql.push_str(PIECES_UNCOMPRESSED);
            }
            sql.push_str(&format!(
                "UPDATE corbeau_schema SET version = {LAYOUT_VERSION};"
            ));
            let mut tx = client.transaction()?;
            tx.batch_execute(&sql)?;
            tx.commit()?;
        }
        return Ok(());
    }
    let mut sql = String::from(
        "CREATE TABLE corbeau_schema (version integer NOT NULL);\
         CREATE SEQUENCE corbeau_ids;",
    );
    for tree in TREES {
        sql.push_str(&create_tree(tree));
    }
    sql.push_str(CLAIMS);
    sql.push_str(OUTBOX_UNCOMPRESSED);
    sql.push_str(PIECES_UNCOMPRESSED);
    sql.push_str(&format!(
        "INSERT INTO corbeau_schema (version) VALUES ({LAYOUT_VERSION});"
    ));
    let mut tx = client.transaction()?;
    tx.batch_execute(&sql)?;
    tx.commit()?;
    Ok(())
}

/// Whether the database holds a store already (unreachable: say yes, so that the
/// opening that follows reports it).
pub(super) fn exists(url: &DatabaseUrl) -> bool {
    let Ok(mut client) = url.connect() else {
        return true;
    };
    client
        .query_one("SELECT to_regclass('corbeau_schema') IS NOT NULL", &[])
        .and_then(|row| row.try_get::<_, bool>(0))
        .unwrap_or(true)
}

/// A connection kept to ask whether another judge waits for the lock, asked between two
/// mails: opening one for each question would cost more than the mail. Its question is
/// prepared once; a "no" stands for [`QUIET`].
static PROBE: Mutex<Probe> = Mutex::new(Probe {
    asking: None,
    quiet_until: None,
});

/// How long a "nobody waits" answer stands: a waiting process polls every 20 ms and a
/// moderator's command waits under a second, while a deadline asks between two games.
const QUIET: Duration = Duration::from_millis(20);

struct Probe {
    asking: Option<(postgres::Client, postgres::Statement)>,
    quiet_until: Option<std::time::Instant>,
}

/// Whether another process waits for the store's lock.
pub(super) fn someone_waits(url: &DatabaseUrl) -> bool {
    let Ok(mut probe) = PROBE.lock() else {
        return false;
    };
    let now = std::time::Instant::now();
    if probe.quiet_until.is_some_and(|until| now < until) {
        return false;
    }
    if probe.asking.as_ref().is_none_or(|(c, _)| c.is_closed()) {
        probe.asking = url.connect().ok().and_then(|mut client| {
            let question = client.prepare(&waiting_question()).ok()?;
            Some((client, question))
        });
    }
    let Some((client, question)) = probe.asking.as_mut() else {
        return false;
    };
    let waits = client
        .query_one(&*question, &[])
        .and_then(|row| row.try_get::<_, bool>(0))
        .unwrap_or(false);
    probe.quiet_until = (!waits).then(|| now + QUIET);
    waits
}

/// Whether a command is queued for the store's lock, or a judge knocks.
fn waiting_question() -> String {
    let held = |key: i64, granted: &str| {
        let (high, low) = ((key >> 32) as u32, (key & 0xffff_ffff) as u32);
        format!(
            "EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND {granted} \
             AND classid = {high} AND objid = {low} AND objsubid = 1 \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))"
        )
    };
    format!(
        "SELECT {} OR {}",
        held(LOCK, "NOT granted"),
        held(KNOCK, "granted")
    )
}
