//! A real SMTP server for the tests: `tests/support/smtp_sink.py` (aiosmtpd) run on
//! 127.0.0.1, delivering into a Maildir, with TLS material made by `openssl` at test time.
//! Missing Python, aiosmtpd or openssl is a test failure that says what to install, never
//! a silent pass.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

const INSTALL: &str = "the SMTP tests need Python 3 with aiosmtpd: `apt-get install python3-aiosmtpd` \
     (Debian, Ubuntu) or `pip install aiosmtpd`; CORBEAU_PYTHON may name the interpreter to use \
     (.ci/run installs it)";

/// The interpreter that can import aiosmtpd: CORBEAU_PYTHON if set, else Debian's, else
/// the one on PATH (a pyenv or virtualenv python3 often lacks Debian's packages).
pub fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let candidates: Vec<PathBuf> = match std::env::var_os("CORBEAU_PYTHON") {
            Some(p) => vec![p.into()],
            None => vec!["/usr/bin/python3".into(), "python3".into()],
        };
        candidates
            .into_iter()
            .find(|p| {
                Command::new(p)
                    .args(["-c", "import aiosmtpd"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            })
            .unwrap_or_else(|| panic!("{INSTALL}"))
    })
}

/// A port nobody listens on now (the OS's choice, released at once).
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

/// A private CA and a server certificate it signed, for `localhost` and 127.0.0.1.
pub struct Pki {
    pub ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Pki {
    pub fn make(dir: &Path) -> Pki {
        std::fs::create_dir_all(dir).unwrap();
        let pki = Pki {
            ca: dir.join("ca.pem"),
            cert: dir.join("server.pem"),
            key: dir.join("server.key"),
        };
        let ca_key = dir.join("ca.key");
        let csr = dir.join("server.csr");
        let ext = dir.join("server.ext");
        std::fs::write(
            &ext,
            "basicConstraints=critical,CA:FALSE\n\
             keyUsage=critical,digitalSignature,keyEncipherment\n\
             extendedKeyUsage=serverAuth\n\
             subjectAltName=DNS:localhost,IP:127.0.0.1\n",
        )
        .unwrap();
        let p = |path: &Path| path.to_str().expect("utf-8 path").to_string();
        openssl(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=corbeau test CA",
            "-keyout",
            &p(&ca_key),
            "-out",
            &p(&pki.ca),
        ]);
        openssl(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            &p(&pki.key),
            "-out",
            &p(&csr),
        ]);
        openssl(&[
            "x509",
            "-req",
            "-in",
            &p(&csr),
            "-CA",
            &p(&pki.ca),
            "-CAkey",
            &p(&ca_key),
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            &p(&ext),
            "-out",
            &p(&pki.cert),
        ]);
        pki
    }
}

fn openssl(args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("openssl: {e} (the TLS tests need it: `apt-get install openssl`)")
        });
    assert!(
        out.status.success(),
        "openssl {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How the server behaves.
#[derive(Default, Clone)]
pub struct SinkOptions {
    /// Serve TLS with this certificate: STARTTLS (required), or implicit with `implicit`.
    pub tls: Option<(PathBuf, PathBuf)>,
    pub implicit_tls: bool,
    /// Require AUTH as this user.
    pub login: Option<(String, String)>,
    /// Answer 451 to this many mails first.
    pub tempfail: u32,
    /// Answer 550 (no such user) to every recipient containing this text.
    pub reject: Option<String>,
}

/// A running server; killed when dropped.
pub struct Sink {
    child: Child,
    pub port: u16,
    pub maildir: PathBuf,
}

impl Sink {
    pub fn start(maildir: &Path, port: u16, options: &SinkOptions) -> Sink {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/smtp_sink.py");
        let mut command = Command::new(python());
        command
            .arg(&script)
            .arg("--port")
            .arg(port.to_string())
            .arg("--maildir")
            .arg(maildir);
        if let Some((cert, key)) = &options.tls {
            command.arg("--cert").arg(cert).arg("--key").arg(key);
            if options.implicit_tls {
                command.arg("--implicit-tls");
            }
        }
        if let Some((user, password)) = &options.login {
            command
                .args(["--user", user])
                .args(["--password", password]);
        }
        command.args(["--tempfail", &options.tempfail.to_string()]);
        if let Some(reject) = &options.reject {
            command.args(["--reject", reject]);
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}; {INSTALL}", python().display()));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        // Python's start (aiosmtpd and its imports) took over 30 s once, on a machine
        // running two test suites at once: a slow start is not a failure.
        let ready = rx.recv_timeout(Duration::from_secs(90)).unwrap_or_default();
        if ready.trim() != "ready" {
            let _ = child.kill();
            let _ = child.wait();
            let mut err = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = stderr.read_to_string(&mut err);
            }
            panic!("the SMTP test server did not start on port {port}: {err}\n({INSTALL})");
        }
        Sink {
            child,
            port,
            maildir: maildir.to_path_buf(),
        }
    }

    /// Every mail delivered so far, as the server received it (with `X-Envelope-From` and
    /// `X-Envelope-To` lines in front).
    pub fn mails(&self) -> Vec<Vec<u8>> {
        delivered(&self.maildir)
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The mails in a Maildir's `new/`, by file name (roughly by time: tests that care about
/// order look at the Message-ID).
pub fn delivered(maildir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(maildir.join("new")) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}
