//! A real PostgreSQL server for the tests, from Debian's packages: `initdb` and `pg_ctl`
//! of /usr/lib/postgresql/<version>/bin, a cluster in a temporary folder, listening on a
//! free port of the loopback, stopped and removed when dropped (the folder kept with
//! `CORBEAU_KEEP_TEST_DIRS=1`, docs/testing.md). Run as root (a container,
//! CI), the cluster belongs to `nobody`: the server refuses to run as root. Without the
//! package the test fails with the command that installs it: it never skips.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The unprivileged user a root test runs the server as.
const SERVER_USER: &str = "nobody";

/// Whether the developer asked to keep the tests' folders, the server's cluster and log
/// among them (`CORBEAU_KEEP_TEST_DIRS`, as `super::keep_test_dirs` reads it: the benches
/// include this file alone).
fn keep_folder() -> bool {
    std::env::var_os("CORBEAU_KEEP_TEST_DIRS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The newest installed version's programs.
fn bin_dir() -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| {
                    let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
                    let bin = e.path().join("bin");
                    bin.join("initdb").is_file().then_some((v, bin))
                })
                .collect()
        })
        .unwrap_or_default();
    versions.sort();
    match versions.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "PostgreSQL is not installed, and the tests of the store on PostgreSQL need its \
             server: apt-get install -y postgresql"
        ),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid(2) has no failure and no argument.
    unsafe { libc::geteuid() == 0 }
}

/// A free TCP port of the loopback (free when asked; the server takes it right after).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running server, its cluster in a temporary folder.
pub struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    pub port: u16,
    databases: AtomicU32,
    /// Whether the server syncs its writes to disk (a bench's), or not (a test's).
    durable: bool,
}

impl Postgres {
    /// Creates a cluster and starts its server; the role `corbeau`, trusted on the
    /// loopback, owns it. A test's server does not sync its writes (`fsync=off`): a
    /// crash of the machine is no test's concern, and the suite runs faster.
    pub fn start(name: &str) -> Postgres {
        Postgres::start_with(name, false)
    }

    /// [`Postgres::start`], the server syncing its writes as a real one does: for the
    /// benches, whose figures stand beside sled's, which syncs too.
    pub fn start_durable(name: &str) -> Postgres {
        Postgres::start_with(name, true)
    }

    fn start_with(name: &str, durable: bool) -> Postgres {
        let bin = bin_dir();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("corbeau-pg-{name}-{}-{nanos}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let out = Command::new("chown")
                .arg(format!("{SERVER_USER}:"))
                .arg(&dir)
                .output()
                .unwrap();
            assert!(out.status.success(), "chown: {}", text(&out));
        }
        let server = Postgres {
            port: free_port(),
            dir,
            bin,
            databases: AtomicU32::new(0),
            durable,
        };
        let data = server.dir.join("cluster");
        server.as_server(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-U",
                "corbeau",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        server.start_server();
        server
    }

    /// Starts the server (again, after [`Postgres::stop`]).
    pub fn start_server(&self) {
        let data = self.dir.join("cluster");
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1{}",
            self.port,
            self.dir.display(),
            if self.durable { "" } else { " -c fsync=off" }
        );
        self.as_server(
            "pg_ctl",
            &[
                "-D",
                &data.display().to_string(),
                "-o",
                &options,
                "-l",
                &self.dir.join("log").display().to_string(),
                "-w",
                "start",
            ],
        );
    }

    /// Stops the server at once, as a crash or a lost machine would.
    pub fn stop(&self) {
        let data = self.dir.join("cluster");
        self.as_server(
            "pg_ctl",
            &[
                "-D",
                &data.display().to_string(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }

    fn as_server(&self, program: &str, args: &[&str]) -> Output {
        let path = self.bin.join(program);
        let out = if is_root() {
            Command::new("runuser")
                .args(["-u", SERVER_USER, "--"])
                .arg(&path)
                .args(args)
                .current_dir(&self.dir)
                .output()
                .unwrap()
        } else {
            Command::new(&path)
                .args(args)
                .current_dir(&self.dir)
                .output()
                .unwrap()
        };
        assert!(
            out.status.success(),
            "{program} {args:?}: {}\n{}",
            text(&out),
            fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
        out
    }

    /// A new, empty database; its URL.
    pub fn database(&self) -> String {
        let n = self.databases.fetch_add(1, Ordering::SeqCst);
        let name = format!("judge{n}");
        let out = Command::new(self.bin.join("createdb"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "corbeau",
                &name,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "createdb: {}", text(&out));
        self.url(&name)
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgresql://corbeau@127.0.0.1:{}/{database}", self.port)
    }

    /// Runs SQL in a database (`psql`); its output, unaligned, without headers.
    pub fn sql(&self, database_url: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-A", "-t", "-d", database_url, "-c", sql])
            .output()
            .unwrap();
        assert!(out.status.success(), "psql {sql}: {}", text(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A `psql` session left open on a database, fed one statement at a time: what a
    /// test needs to hold a lock while judges start ([`Session::run`]).
    pub fn session(&self, database_url: &str) -> Session {
        let mut child = Command::new(self.bin.join("psql"))
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                database_url,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        Session { child, input }
    }

    /// The whole of a database as `pg_dump` writes it (plain SQL, its rows as text).
    pub fn dump(&self, database_url: &str) -> Vec<u8> {
        let out = Command::new(self.bin.join("pg_dump"))
            .args(["--no-owner", "-d", database_url])
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_dump: {}", text(&out));
        out.stdout
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stops the server and removes its folder once the process `pid` has ended, however
    /// it ends: a server kept for a whole test binary (a static, never dropped) or one of
    /// a test killed half-way leaves nothing running behind it.
    pub fn stop_after(&self, pid: u32) {
        let data = self.dir.join("cluster");
        let stop = format!(
            "{} -D {} -m immediate stop",
            self.bin.join("pg_ctl").display(),
            data.display()
        );
        let stop = if is_root() {
            format!("runuser -u {SERVER_USER} -- {stop}")
        } else {
            stop
        };
        let remove = if keep_folder() {
            String::new()
        } else {
            format!("; rm -rf {}", self.dir.display())
        };
        let script = format!("while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; {stop}{remove}");
        let _ = Command::new("sh")
            .args(["-c", &script])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.join("cluster");
        let path = self.bin.join("pg_ctl");
        let args = ["-D", &data.display().to_string(), "-m", "immediate", "stop"];
        let _ = if is_root() {
            Command::new("runuser")
                .args(["-u", SERVER_USER, "--"])
                .arg(&path)
                .args(args)
                .output()
        } else {
            Command::new(&path).args(args).output()
        };
        if keep_folder() {
            eprintln!("kept (CORBEAU_KEEP_TEST_DIRS): {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// An open `psql` session ([`Postgres::session`]); ended (its transaction rolled back if
/// one is open) when dropped.
pub struct Session {
    child: Child,
    input: ChildStdin,
}

impl Session {
    /// Sends `sql` without waiting for its outcome.
    pub fn run(&mut self, sql: &str) {
        writeln!(self.input, "{sql}").unwrap();
        self.input.flush().unwrap();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "\\q");
        let _ = self.child.wait();
    }
}
