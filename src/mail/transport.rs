//! Turning an outbox [`Envelope`] into a real RFC 5322 message and handing it to the outbox
//! folder, sendmail or an SMTP server (docs/deploy.md, "Sending mail"). A transport only says
//! whether it took the mail; remembering what is left to send is the store's job
//! ([`super::send::drain`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use lettre::Transport as _;
use lettre::message::header::{ContentTransferEncoding, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, Message};
use lettre::transport::smtp::SmtpTransport;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};

use super::seal::seven_bit;
use crate::config::{Judge, RetryConfig, Security, SmtpConfig};
use crate::service::Envelope;

/// Why a mail was not handed over, in words for the moderator's log.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TransportError {
    #[error("[mail.smtp] {0}")]
    SmtpConfig(String),
    #[error("[mail.smtp] ca_file {}: {reason}", .path.display())]
    CaFile { path: PathBuf, reason: String },
    #[error("[mail.smtp] password_file {}: {source}", .path.display())]
    PasswordFile {
        path: PathBuf,
        source: Arc<std::io::Error>,
    },
    #[error("[judge] address `{0}` is not a mail address (expected `name@domain`)")]
    JudgeAddress(String),
    #[error("mail {message_id}: the recipient `{to}` is not a mail address")]
    Recipient { message_id: String, to: String },
    #[error("mail {message_id}: cannot build the message: {reason}")]
    Build { message_id: String, reason: String },
    #[error("outbox folder {}: {source}", .path.display())]
    Folder {
        path: PathBuf,
        source: Arc<std::io::Error>,
    },
    #[error("sendmail `{}` failed: {reason}", .command.display())]
    Sendmail { command: PathBuf, reason: String },
    #[error("SMTP server {server}: {reason}")]
    Smtp {
        server: String,
        reason: String,
        /// The server refused for good (a 5xx reply): retrying soon will not help.
        permanent: bool,
        /// No SMTP conversation took place (no connection, no TLS, no answer in time):
        /// the next mails would fail the same way.
        unreachable: bool,
        /// The server refused this mail or its recipient for good (550–554, 501, 521,
        /// 556), as opposed to the judge's own settings (a refused login, 53x): the mail
        /// is set aside rather than tried again.
        undeliverable: bool,
    },
    /// sendmail said, by its exit status (sysexits.h), that this mail can never be
    /// delivered: 65 (EX_DATAERR), 67 (EX_NOUSER), 68 (EX_NOHOST).
    #[error("sendmail `{}` refused the mail for good (exit status {code}): {reason}", .command.display())]
    SendmailRefused {
        command: PathBuf,
        code: i32,
        reason: String,
    },
}

impl TransportError {
    /// Whether retrying without a change (of the mail or the configuration) is pointless:
    /// a 5xx reply, a bad address, a bad judge address.
    pub fn is_permanent(&self) -> bool {
        match self {
            TransportError::Smtp { permanent, .. } => *permanent,
            TransportError::SendmailRefused { .. } => true,
            TransportError::JudgeAddress(_)
            | TransportError::Recipient { .. }
            | TransportError::Build { .. }
            | TransportError::SmtpConfig(_)
            | TransportError::CaFile { .. }
            | TransportError::PasswordFile { .. } => true,
            TransportError::Folder { .. } | TransportError::Sendmail { .. } => false,
        }
    }

    /// Whether this mail can never be delivered as it is, whatever the judge's settings: a
    /// recipient the server refuses for good, an address that is not one. Such a mail is
    /// set aside (kept, marked failed) and the moderator told, instead of being tried
    /// again and again; a refusal that comes from the settings (login, TLS, the judge's
    /// address) keeps the back-off, since mending them lets every mail through.
    pub fn is_undeliverable(&self) -> bool {
        match self {
            TransportError::Smtp { undeliverable, .. } => *undeliverable,
            TransportError::SendmailRefused { .. } | TransportError::Recipient { .. } => true,
            _ => false,
        }
    }

    /// Whether the server could not be reached at all: the next mails would fail the same
    /// way, each after its own timeout.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            TransportError::Smtp {
                unreachable: true,
                ..
            }
        )
    }
}

/// The complete message for `mail`, from the judge, as it goes on the wire: what a
/// player's mail client shows and threads.
pub fn message(mail: &Envelope, judge: &Judge) -> Result<Message, TransportError> {
    build(mail, judge, false)
}

/// The headers known only now — From and Reply-To (the judge as configured), To,
/// Message-ID and Date (from the envelope) — then the envelope's own headers and body.
/// `readable`: the body as queued, with its text in 8 bits, so that an .eml of the outbox
/// folder reads as it is with `less`; on the wire, every text re-encoded in 7 bits
/// (`seal::seven_bit`), since not every server takes 8BITMIME.
fn build(mail: &Envelope, judge: &Judge, readable: bool) -> Result<Message, TransportError> {
    let from = judge_mailbox(judge)?;
    let to: Mailbox = mail
        .to
        .trim()
        .parse()
        .map_err(|_| TransportError::Recipient {
            message_id: mail.message_id.clone(),
            to: mail.to.clone(),
        })?;
    let build_error = |reason: String| TransportError::Build {
        message_id: mail.message_id.clone(),
        reason,
    };
    let (headers, body) = if readable {
        (mail.headers.clone(), mail.body.as_bytes().to_vec())
    } else {
        seven_bit(mail)
    };
    let mut builder = Message::builder()
        .from(from.clone())
        .reply_to(from)
        .to(to)
        .message_id(Some(format!("<{}>", mail.message_id)))
        .date(SystemTime::from(mail.queued));
    let mut encoding = None;
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("Content-Transfer-Encoding") {
            encoding = Some(
                value
                    .trim()
                    .to_ascii_lowercase()
                    .parse::<ContentTransferEncoding>()
                    .map_err(build_error)?,
            );
            continue;
        }
        let name = HeaderName::new_from_ascii(name).map_err(|e| build_error(e.to_string()))?;
        builder = builder.raw_header(HeaderValue::new(name, value));
    }
    // Exchange's own switch against automatic replies: no out-of-office or automatic
    // reply. Not `All`, which would also stop the non-delivery reports the judge reads
    // (docs/email.md).
    builder = builder.raw_header(HeaderValue::new(
        HeaderName::new_from_ascii_str("X-Auto-Response-Suppress"),
        "OOF, AutoReply".into(),
    ));
    builder = builder.raw_header(HeaderValue::new(
        HeaderName::new_from_ascii_str("X-Mailer"),
        "corbeau".into(),
    ));
    // A multipart says no encoding of its own: 7 bits if every line is, else 8.
    let encoding = encoding.unwrap_or(if body.is_ascii() {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::EightBit
    });
    builder
        .body(Body::dangerous_pre_encoded(body, encoding))
        .map_err(|e| build_error(e.to_string()))
}

/// `"Corbeau" <corbeau@exemple.fr>`: the configured address, named after the judge unless
/// it carries its own name.
fn judge_mailbox(judge: &Judge) -> Result<Mailbox, TransportError> {
    let bad = || TransportError::JudgeAddress(judge.address.clone());
    let mailbox: Mailbox = judge.address.trim().parse().map_err(|_| bad())?;
    if mailbox.name.is_some() || judge.name.trim().is_empty() {
        return Ok(mailbox);
    }
    Ok(Mailbox::new(
        Some(judge.name.trim().to_string()),
        mailbox.email,
    ))
}

/// Where mail goes: the outbox folder, sendmail or an SMTP server.
#[derive(Debug)]
pub struct Transport {
    route: Route,
    backoff: Backoff,
}

#[derive(Debug)]
enum Route {
    Folder(PathBuf),
    Sendmail {
        command: PathBuf,
        /// How long one mail may take; then sendmail is stopped and the mail retried.
        timeout: Duration,
    },
    Smtp {
        server: String,
        smtp: Box<SmtpTransport>,
    },
}

/// How long a mail waits after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff::from(&RetryConfig::default())
    }
}

impl From<&RetryConfig> for Backoff {
    /// A zero first wait would retry a refusing server in a tight loop; a maximum below the
    /// first wait would shrink the waits.
    fn from(retry: &RetryConfig) -> Backoff {
        let first = Duration::from_secs(retry.first.max(1));
        Backoff {
            first,
            max: Duration::from_secs(retry.max).max(first),
        }
    }
}

impl Backoff {
    /// The wait after the `attempts`-th failure: `first`, doubled at each failure, at most
    /// `max`; a permanent failure waits `max` at once (someone must fix something first).
    pub fn wait(&self, attempts: u32, permanent: bool) -> Duration {
        if permanent {
            return self.max;
        }
        let factor = 1u32
            .checked_shl(attempts.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.first.saturating_mul(factor).min(self.max)
    }
}

impl Transport {
    /// One `.eml` file per mail in `dir` (created when the first mail is written).
    pub fn folder(dir: impl Into<PathBuf>) -> Transport {
        Transport::on(Route::Folder(dir.into()))
    }

    /// The sendmail program at `command` (`/usr/sbin/sendmail` with Postfix or Exim),
    /// stopped after 60 s.
    pub fn sendmail(command: impl Into<PathBuf>) -> Transport {
        Transport::sendmail_within(command, Duration::from_secs(60))
    }

    /// The sendmail program at `command`, stopped (with what it started) when one mail
    /// takes longer than `timeout`: a hung sendmail must not hold the judge.
    pub fn sendmail_within(command: impl Into<PathBuf>, timeout: Duration) -> Transport {
        Transport::on(Route::Sendmail {
            command: command.into(),
            timeout,
        })
    }

    /// An SMTP server as configured; reads the password file and the CA file now, so a
    /// mistake shows at start rather than at the first mail.
    pub fn smtp(config: &SmtpConfig) -> Result<Transport, TransportError> {
        let host = config
            .host
            .as_deref()
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .ok_or_else(|| {
                TransportError::SmtpConfig("host is missing (transport = \"smtp\")".into())
            })?;
        let port = config.port();
        let tls = match config.security {
            Security::None => Tls::None,
            Security::Starttls => Tls::Required(tls_parameters(host, config)?),
            Security::Tls => Tls::Wrapper(tls_parameters(host, config)?),
        };
        let mut builder = SmtpTransport::builder_dangerous(host)
            .port(port)
            .tls(tls)
            .timeout(Some(config.timeout()));
        if let Some(credentials) = credentials(config)? {
            builder = builder
                .credentials(credentials)
                .authentication(vec![Mechanism::Plain, Mechanism::Login]);
        }
        let security = match config.security {
            Security::Starttls => "STARTTLS",
            Security::Tls => "TLS",
            Security::None => "unencrypted",
        };
        Ok(Transport::on(Route::Smtp {
            server: format!("{host}:{port} ({security})"),
            smtp: Box::new(builder.build()),
        }))
    }

    fn on(route: Route) -> Transport {
        Transport {
            route,
            backoff: Backoff::default(),
        }
    }

    /// The same transport with another back-off after failures.
    pub fn with_backoff(mut self, backoff: Backoff) -> Transport {
        self.backoff = backoff;
        self
    }

    /// How long a mail this transport refused waits before its next try.
    pub fn backoff(&self) -> Backoff {
        self.backoff
    }

    /// Where mail goes, for logs: `outbox folder DIR`, `sendmail CMD`, `SMTP host:port`.
    pub fn describe(&self) -> String {
        match &self.route {
            Route::Folder(dir) => format!("outbox folder {}", dir.display()),
            Route::Sendmail { command, .. } => format!("sendmail {}", command.display()),
            Route::Smtp { server, .. } => format!("SMTP {server}"),
        }
    }

    /// Where mail goes, in the operator's words, for the log.
    pub fn describe_in(&self, lang: crate::lang::Lang) -> String {
        match &self.route {
            Route::Folder(dir) => {
                let dir = dir.display().to_string();
                crate::say!(lang, "log.route_folder", dir)
            }
            Route::Sendmail { command, .. } => {
                let command = command.display().to_string();
                crate::say!(lang, "log.route_sendmail", command)
            }
            Route::Smtp { server, .. } => crate::say!(lang, "log.route_smtp", server),
        }
    }

    /// Hands `mail` (the outbox entry `key`) over; `Ok` means the transport took charge of
    /// it and the outbox may forget it.
    pub fn send(&self, key: u64, mail: &Envelope, judge: &Judge) -> Result<(), TransportError> {
        let message = build(mail, judge, matches!(self.route, Route::Folder(_)))?;
        match &self.route {
            Route::Folder(dir) => write_eml(dir, &eml_name(key, mail), &message.formatted()),
            Route::Sendmail { command, timeout } => {
                // The sendmail interface takes local text, LF-ended lines; some sendmails
                // would turn CRLF into CR CR LF.
                let raw = String::from_utf8_lossy(&message.formatted()).replace("\r\n", "\n");
                run_sendmail(command, *timeout, message.envelope(), raw.into_bytes())
            }
            Route::Smtp { server, smtp } => {
                // lettre always ends DATA with CRLF "." CRLF, so a message that already
                // ends its last line would arrive with one blank line more.
                let mut raw = message.formatted();
                if raw.ends_with(b"\r\n") {
                    raw.truncate(raw.len() - 2);
                }
                smtp.send_raw(message.envelope(), &raw)
                    .map(|_| ())
                    .map_err(|e| smtp_error(server, &e))
            }
        }
    }
}

/// The file name of a mail in the outbox folder: by time queued, then outbox key, so that
/// the folder lists in sending order and the same mail always lands in the same file.
pub fn eml_name(key: u64, mail: &Envelope) -> String {
    format!("{}-{key:016x}.eml", mail.queued.format("%Y%m%dT%H%M%SZ"))
}

fn folder_error(path: &Path) -> impl FnOnce(std::io::Error) -> TransportError + use<> {
    let path = path.to_path_buf();
    move |source| TransportError::Folder {
        path,
        source: Arc::new(source),
    }
}

/// Written under `tmp/`, synced, then renamed into place: a reader of the folder sees
/// whole files only, and writing a mail again replaces its file.
fn write_eml(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), TransportError> {
    place_eml(dir, name, bytes, true)?;
    sync_folder(dir)
}

/// [`write_eml`] but for the folder's own sync: the file is whole, and on disk if
/// `synced`; its name in the folder not yet (a run of mails syncs once, [`FolderRun::settle`]).
fn place_eml(dir: &Path, name: &str, bytes: &[u8], synced: bool) -> Result<(), TransportError> {
    let tmp_dir = dir.join("tmp");
    let tmp = tmp_dir.join(name);
    let mut file = match fs::File::create(&tmp) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(&tmp_dir).map_err(folder_error(&tmp_dir))?;
            fs::File::create(&tmp).map_err(folder_error(&tmp))?
        }
        Err(e) => return Err(folder_error(&tmp)(e)),
    };
    file.write_all(bytes).map_err(folder_error(&tmp))?;
    if synced {
        file.sync_data().map_err(folder_error(&tmp))?;
    }
    drop(file);
    let path = dir.join(name);
    fs::rename(&tmp, &path).map_err(folder_error(&path))
}

/// The renames into the folder are durable only once the folder itself is synced.
fn sync_folder(dir: &Path) -> Result<(), TransportError> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(folder_error(dir))
}

/// Whether the files of a run are synced one by one. On Linux a run is made durable by one
/// `syncfs` of the folder's file system, which writes every file's bytes and every name
/// with one journal commit: a file synced alone costs a commit each, and four writers
/// syncing at once spent their time waiting on each other, on the cores that draw.
const SYNC_EACH_FILE: bool = !cfg!(target_os = "linux");

/// A run of mails being placed in the outbox folder: the folder, opened before the first
/// of them is written, so that its sync reports any write of theirs that failed since.
pub struct FolderRun {
    dir: std::path::PathBuf,
    folder: fs::File,
}

impl FolderRun {
    /// Makes the files placed since the run was opened durable, bytes and names.
    pub fn settle(&self) -> Result<(), TransportError> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // Reports the file system's write errors since the descriptor was opened
            // (Linux 5.8 and later).
            // SAFETY: `self.folder` is an open descriptor for the whole call.
            if unsafe { libc::syncfs(self.folder.as_raw_fd()) } != 0 {
                return Err(folder_error(&self.dir)(std::io::Error::last_os_error()));
            }
            Ok(())
        }
        #[cfg(not(target_os = "linux"))]
        self.folder.sync_all().map_err(folder_error(&self.dir))
    }
}

/// A mail for the outbox folder, made ready on any thread: its file's name and bytes.
pub struct FolderMail {
    name: String,
    bytes: Vec<u8>,
}

impl Transport {
    /// The outbox folder, when this transport is one: its mails can be written side by
    /// side and made durable once for a run ([`Transport::folder_mail`],
    /// [`Transport::open_run`], [`Transport::place`]); a server takes them one at a time.
    pub fn folder_dir(&self) -> Option<&Path> {
        match &self.route {
            Route::Folder(dir) => Some(dir),
            _ => None,
        }
    }

    /// The file `mail` (the outbox entry `key`) becomes in the outbox folder: pure work,
    /// done away from the store's thread.
    pub fn folder_mail(
        key: u64,
        mail: &Envelope,
        judge: &Judge,
    ) -> Result<FolderMail, TransportError> {
        let message = build(mail, judge, true)?;
        Ok(FolderMail {
            name: eml_name(key, mail),
            bytes: message.formatted(),
        })
    }

    /// Writes a mail into the outbox folder `dir`; taken for good once the run's
    /// [`FolderRun::settle`] has made it durable.
    pub fn place(dir: &Path, mail: &FolderMail) -> Result<(), TransportError> {
        place_eml(dir, &mail.name, &mail.bytes, SYNC_EACH_FILE)
    }

    /// Opens a run of mails to place in the folder `dir` ([`Transport::place`]), made
    /// durable together by [`FolderRun::settle`].
    pub fn open_run(dir: &Path) -> Result<FolderRun, TransportError> {
        fs::create_dir_all(dir).map_err(folder_error(dir))?;
        let folder = fs::File::open(dir).map_err(folder_error(dir))?;
        Ok(FolderRun {
            dir: dir.to_path_buf(),
            folder,
        })
    }
}

fn tls_parameters(host: &str, config: &SmtpConfig) -> Result<TlsParameters, TransportError> {
    let mut builder = TlsParameters::builder(host.to_string());
    if let Some(path) = &config.ca_file {
        let ca_error = |reason: String| TransportError::CaFile {
            path: path.clone(),
            reason,
        };
        let pem = fs::read(path).map_err(|e| ca_error(e.to_string()))?;
        // lettre accepts a file without any certificate, which would fail only later, at
        // the first connection, as an unknown issuer.
        if !String::from_utf8_lossy(&pem).contains("-----BEGIN CERTIFICATE-----") {
            return Err(ca_error("no PEM certificate in it".into()));
        }
        let certificate = Certificate::from_pem(&pem)
            .map_err(|e| ca_error(format!("not a PEM certificate ({e})")))?;
        builder = builder.add_root_certificate(certificate);
    }
    builder
        .build()
        .map_err(|e| TransportError::SmtpConfig(format!("TLS for {host}: {e}")))
}

fn credentials(config: &SmtpConfig) -> Result<Option<Credentials>, TransportError> {
    let password = match (&config.password, &config.password_file) {
        (Some(_), Some(_)) => {
            return Err(TransportError::SmtpConfig(
                "give password or password_file, not both".into(),
            ));
        }
        (Some(p), None) => Some(p.clone()),
        (None, Some(path)) => Some(read_password(path)?),
        (None, None) => None,
    };
    match (&config.user, password) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(TransportError::SmtpConfig(
            "a password is given but no user".into(),
        )),
        (Some(user), None) => Err(TransportError::SmtpConfig(format!(
            "user `{user}` has no password (password_file or password)"
        ))),
        (Some(_), Some(_)) if config.security == Security::None => {
            Err(TransportError::SmtpConfig(
                "a password would cross the network unencrypted: use security = \"starttls\" or \"tls\""
                    .into(),
            ))
        }
        (Some(user), Some(password)) => Ok(Some(Credentials::new(user.clone(), password))),
    }
}

/// The first line of the file, so that a trailing newline (as `echo` writes) is no part
/// of the password.
fn read_password(path: &Path) -> Result<String, TransportError> {
    let text = fs::read_to_string(path).map_err(|source| TransportError::PasswordFile {
        path: path.to_path_buf(),
        source: Arc::new(source),
    })?;
    Ok(text.lines().next().unwrap_or_default().to_string())
}

/// The exit statuses of sysexits.h that say the mail itself can never be delivered; every
/// other failure (EX_TEMPFAIL 75, EX_UNAVAILABLE 69, EX_CONFIG 78, a crash, …) may be the
/// mail system's passing state or its settings, and is tried again with the back-off.
pub const SENDMAIL_PERMANENT: &[i32] = &[
    65, // EX_DATAERR: the message or an address in it is malformed
    67, // EX_NOUSER: no such user
    68, // EX_NOHOST: no such host
];

/// Runs `COMMAND -i -f FROM -- TO…` (as lettre's sendmail transport does) with the
/// message on its stdin, and waits for it at most `timeout`. sendmail runs in a process
/// group of its own, so that stopping it also stops what it started (a queue runner, a
/// shell script's children), and the pipes are served by threads of their own, so that a
/// sendmail that neither reads nor exits cannot block the judge.
fn run_sendmail(
    command: &Path,
    timeout: Duration,
    envelope: &lettre::address::Envelope,
    raw: Vec<u8>,
) -> Result<(), TransportError> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let failed = |reason: String| TransportError::Sendmail {
        command: command.to_path_buf(),
        reason,
    };
    let from: &str = envelope.from().map_or("<>", |a| a.as_ref());
    let mut cmd = Command::new(command);
    cmd.arg("-i")
        .arg("-f")
        .arg(from)
        .arg("--")
        .args(envelope.to().iter().map(|a| -> &str { a.as_ref() }))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().map_err(|e| failed(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        std::thread::spawn(move || {
            // A sendmail that stops reading is found by the wait below.
            let _ = stdin.write_all(&raw);
        });
    }
    let (said_tx, said) = std::sync::mpsc::channel();
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            // At most a few KB of its words: enough for the log.
            let _ = stderr.by_ref().take(4096).read_to_end(&mut text);
            let _ = said_tx.send(String::from_utf8_lossy(&text).trim().to_string());
        });
    }
    let give_up = std::time::Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() < give_up => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(None) => {
                stop(&mut child);
                return Err(failed(format!(
                    "no answer within {} s: stopped (see [mail.sendmail] timeout)",
                    timeout.as_secs()
                )));
            }
            Err(e) => {
                stop(&mut child);
                return Err(failed(format!("cannot wait for it: {e}")));
            }
        }
    };
    if status.success() {
        return Ok(());
    }
    let words = said
        .recv_timeout(Duration::from_millis(500))
        .unwrap_or_default();
    let reason = if words.is_empty() {
        format!("it exited with an error and said nothing ({status})")
    } else {
        words
    };
    Err(sendmail_failure(command, status.code(), reason))
}

/// The error for a sendmail that exited with `code` (none: killed by a signal): refused
/// for good for the statuses of [`SENDMAIL_PERMANENT`], else a failure to retry.
pub fn sendmail_failure(command: &Path, code: Option<i32>, reason: String) -> TransportError {
    match code {
        Some(code) if SENDMAIL_PERMANENT.contains(&code) => TransportError::SendmailRefused {
            command: command.to_path_buf(),
            code,
            reason,
        },
        _ => TransportError::Sendmail {
            command: command.to_path_buf(),
            reason,
        },
    }
}

/// Kills sendmail and its process group, and reaps it.
fn stop(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group only; the group
        // is the child's own (process_group(0) at spawn).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// lettre's `is_timeout` misses a read that timed out on Unix, which the system reports
/// as "would block".
fn timed_out(e: &lettre::transport::smtp::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return matches!(
                io.kind(),
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            );
        }
        source = cause.source();
    }
    false
}

fn smtp_error(server: &str, e: &lettre::transport::smtp::Error) -> TransportError {
    // 530, 534, 535, 538: the authentication replies of RFC 4954.
    let hint = if e.status().is_some_and(|c| c.to_string().starts_with("53")) {
        " (check [mail.smtp] user and password)"
    } else if e.is_tls() || e.to_string().contains("certificate") {
        " (if the server's certificate comes from a private CA, give it as [mail.smtp] ca_file)"
    } else if timed_out(e) {
        " (no answer in time: is the server reachable? see [mail.smtp] timeout)"
    } else if e.status().is_none() && !e.is_response() {
        " (is the server up, and are host, port and security right?)"
    } else {
        ""
    };
    let code = e.status().map(|c| c.to_string()).unwrap_or_default();
    TransportError::Smtp {
        server: server.to_string(),
        reason: format!("{e}{hint}"),
        permanent: e.is_permanent(),
        unreachable: e.status().is_none() && !e.is_response(),
        undeliverable: e.is_permanent()
            && matches!(
                code.as_str(),
                "501" | "521" | "550" | "551" | "552" | "553" | "554" | "556"
            ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_first_and_stops_at_max_even_after_many_failures() {
        let backoff = Backoff::from(&RetryConfig {
            first: 60,
            max: 3600,
        });
        let waits: Vec<u64> = [1, 2, 3, 6, 7, 32, 33, u32::MAX]
            .iter()
            .map(|&n| backoff.wait(n, false).as_secs())
            .collect();
        assert_eq!(waits, [60, 120, 240, 1920, 3600, 3600, 3600, 3600]);
        assert_eq!(backoff.wait(1, true).as_secs(), 3600);
    }

    #[test]
    fn a_zero_or_inverted_retry_setting_still_waits() {
        let backoff = Backoff::from(&RetryConfig { first: 0, max: 0 });
        assert_eq!(backoff.wait(1, false).as_secs(), 1);
        assert_eq!(backoff.wait(5, true).as_secs(), 1);
    }

    #[test]
    fn a_line_break_in_a_subject_or_game_cannot_add_a_header() {
        let at = chrono::DateTime::from_timestamp(1_795_000_000, 0).unwrap();
        let mut mail = crate::mail::outmail::OutMail::new(
            "exemple.fr",
            "stark@example.org",
            "Ordres\r\nBcc: espion@example.org".into(),
            "texte".into(),
            at,
        );
        mail.game = Some("g1\nX-Injected: oui".into());
        let raw = message(&mail.seal(), &Judge::default())
            .unwrap()
            .formatted();
        let text = String::from_utf8(raw).unwrap();
        for line in text.lines() {
            assert!(
                !line.starts_with("Bcc:") && !line.starts_with("X-Injected:"),
                "{line}"
            );
        }
    }

    #[test]
    fn an_id_that_cannot_be_a_header_id_is_left_out() {
        use crate::mail::seal::is_message_id;
        assert!(is_message_id("CAF+x.y@mail.example.org"));
        for bad in ["", "a b@c", "<a@b>", "é@x", "a\r\nBcc: x@y"] {
            assert!(!is_message_id(bad), "{bad:?}");
        }
    }
}
