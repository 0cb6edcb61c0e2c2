//! Maildir, both ways in: reading every new message of a Maildir (filled by Postfix,
//! procmail, mbsync or fetchmail), and the judge's own spool, where `corbeau ingest` drops
//! a message when `corbeau serve` holds the store.
//!
//! A message is moved from `new/` to `cur/` (with the Seen flag, `:2,S`) only after what
//! it asked was committed; a crash in between leaves it in `new/`, and reading it again
//! does nothing twice because its Message-ID was marked in the same commit.
//!
//! A message the judge cannot handle — not a mail, a file it cannot read, a bug (a panic)
//! or a permanent error in its handling, or one that killed the judge — is quarantined:
//! moved to `cur/` flagged (`:2,FS`), its reason appended to `<data_dir>/quarantine.log`,
//! `[judge] admin` and the moderator of the game it names told by mail, and its sender
//! answered (unless the mail is automatic); the mails behind it are read as usual. A
//! temporary failure (the store) leaves the message in `new/` for the next pass. Raw
//! mails are removed from `cur/` after `[mail] retention_days` (docs/storage.md).
//!
//! Deaths are counted per mail: the mark `<data_dir>/handling` names the one mail in
//! hand, and only while it is. A mail in hand when the process died is tried next alone,
//! in a child process ([`Isolation`]): a kill of the judge from outside at a random
//! moment (the child goes on) then costs nothing, and only a child that dies while its
//! parent lives sets the mail aside. Without a child to run (the library's callers), the
//! mail is set aside unread once the judge died twice while it was in hand.
//!
//! Test hook, compiled only with the `test-hooks` feature (the tests' builds, never the
//! release binary): `CORBEAU_POISON=panic:WORD` makes the handling of a mail whose raw text
//! holds WORD panic, `CORBEAU_POISON=abort:WORD` abort the process (as an out-of-memory
//! kill would).

use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::json;

use crate::config::Config;
use crate::say;
use crate::service::{Service, ServiceError, StorageFailure};

use super::command::{self, Command};
use super::compose::compose;
use super::dispatch::{Handled, handle_arrived};
use super::inbound::{Inbound, read_sized};
use super::pass::{Hold, PassError};

/// What reading a Maildir did.
#[derive(Debug, Default)]
pub struct IngestReport {
    pub answered: usize,
    pub duplicates: usize,
    pub ignored: usize,
    /// Messages quarantined (flagged in `cur/`): file name and why.
    pub unreadable: Vec<(String, String)>,
    /// Messages left in `new/` for the next pass (the store failed): file name and why.
    pub failed: Vec<(String, String)>,
}

impl IngestReport {
    pub fn add(&mut self, handled: &Handled) {
        match handled {
            Handled::Answered { .. } => self.answered += 1,
            Handled::Duplicate => self.duplicates += 1,
            Handled::Ignored | Handled::Spam => self.ignored += 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.answered + self.duplicates + self.ignored == 0
            && self.unreadable.is_empty()
            && self.failed.is_empty()
    }
}

/// The judge's own spool: a Maildir inside the data directory.
pub fn spool(config: &Config) -> PathBuf {
    config.data_dir.join("incoming")
}

/// Reads one raw message and carries it out.
pub fn ingest_one(
    service: &Service,
    config: &Config,
    raw: &[u8],
    now: DateTime<Utc>,
) -> Result<Result<Handled, super::inbound::InboundError>, ServiceError> {
    ingest_arrived(service, config, raw, raw.len(), now, now)
}

/// Bytes of a message read beyond `[mail] max_size`: room for the headers of a message
/// too large to be read, which are enough to answer it.
const HEADER_ROOM: u64 = 64 * 1024;

/// The beginning of the message at `path` that the judge may read (`max_size` and room
/// for headers), and its whole size: a huge message costs no more memory than a large
/// one.
fn read_capped(path: &Path, config: &Config) -> io::Result<(Vec<u8>, usize)> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let cap = config.mail.max_size.saturating_add(HEADER_ROOM);
    let mut raw = Vec::new();
    file.take(cap).read_to_end(&mut raw)?;
    Ok((raw, usize::try_from(size).unwrap_or(usize::MAX)))
}

/// Reads one raw message that reached the judge at `arrival` and carries it out at `now`.
pub fn ingest_arrived(
    service: &Service,
    config: &Config,
    raw: &[u8],
    size: usize,
    now: DateTime<Utc>,
    arrival: DateTime<Utc>,
) -> Result<Result<Handled, super::inbound::InboundError>, ServiceError> {
    let limit = usize::try_from(config.mail.max_size).unwrap_or(usize::MAX);
    match read_sized(raw, size, limit, &config.mail.spam_headers) {
        Ok(mail) => handle_arrived(service, config, &mail, now, arrival).map(Ok),
        Err(e) => Ok(Err(e)),
    }
}

/// Carries out every new message of the Maildir `dir`, oldest first, on a store the
/// caller holds.
pub fn ingest_maildir(
    service: &Service,
    config: &Config,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<IngestReport, PassError> {
    let mut report = IngestReport::default();
    read_maildir(&mut Hold::Open(service), config, dir, now, &mut report)?;
    Ok(report)
}

/// Carries out every new message of the Maildir `dir`, oldest first, each with the store
/// `hold` gives; a store that cannot be had stops the reading (the rest waits in `new/`).
pub fn read_maildir(
    hold: &mut Hold<'_>,
    config: &Config,
    dir: &Path,
    now: DateTime<Utc>,
    report: &mut IngestReport,
) -> Result<(), PassError> {
    for path in new_messages(dir)? {
        let isolation = hold.isolation().filter(|_| suspect(config, &path));
        let fate = match isolation {
            Some(isolation) => {
                // The child takes the store: let it go meanwhile.
                hold.release();
                carry_out_alone(&isolation, config, &path, now, hold)
            }
            None => carry_out(hold.service()?, config, &path, now),
        };
        match fate {
            MessageFate::Done(handled) => report.add(&handled),
            MessageFate::Gone => {}
            MessageFate::Left(why) => report.failed.push((file_name(&path), why)),
            MessageFate::Quarantined(why) => report.unreadable.push((file_name(&path), why)),
        }
        hold.breathe();
    }
    Ok(())
}

/// What became of one message of `new/`.
#[derive(Debug)]
pub enum MessageFate {
    /// Carried out (or found already done), moved to `cur/`.
    Done(Handled),
    /// Taken by another reader meanwhile.
    Gone,
    /// A temporary failure: left in `new/` for the next pass, with the reason.
    Left(String),
    /// Set aside, flagged, the moderator told: the reason.
    Quarantined(String),
}

/// Whether a failure may pass by itself: the store busy, or failing to read or write.
/// A store that refuses to be used as it is (a newer schema, a migration waiting for a
/// variant file) counts too, like a missing Maildir: the mail must wait for the
/// administrator, not bounce.
pub fn is_temporary(e: &ServiceError) -> bool {
    matches!(
        e,
        ServiceError::Store(StorageFailure::Transient(_) | StorageFailure::Refused(_))
    )
}

/// Carries out the message at `path` (in a Maildir's `new/`) with the store held: moved
/// to `cur/` once done, quarantined when it cannot be handled, left in `new/` on a
/// temporary failure.
pub fn carry_out(
    service: &Service,
    config: &Config,
    path: &Path,
    now: DateTime<Utc>,
) -> MessageFate {
    let lang = config.lang;
    let guard = HandlingMark::new(config);
    if guard.killed_twice(path) {
        let why = say!(lang, "maildir.the_judge_died_twice_while");
        let fate = quarantine(service, config, path, None, why, now);
        guard.leave(path);
        return fate;
    }
    guard.enter(path);
    let outcome = carry_out_guarded(service, config, path, now);
    guard.leave(path);
    outcome
}

/// Whether the message at `path` was in hand when a process handling it died: it is
/// then tried alone ([`Isolation`]) where a child process can be run.
pub fn suspect(config: &Config, path: &Path) -> bool {
    HandlingMark::new(config).attempts(path) >= 1
}

/// How to run this program again to carry out one suspect mail alone: the program, and
/// the options given after `ingest`, before `--isolated <path>`.
#[derive(Debug, Clone)]
pub struct Isolation {
    pub program: PathBuf,
    pub args: Vec<std::ffi::OsString>,
}

/// Carries out the suspect message at `path` in a child process (the store let go by the
/// caller meanwhile): a child that dies while this process lives proves the mail kills,
/// and the mail is set aside (with the store `hold` gives); a child that finishes says
/// what became of the mail.
pub fn carry_out_alone(
    isolation: &Isolation,
    config: &Config,
    path: &Path,
    now: DateTime<Utc>,
    hold: &mut Hold<'_>,
) -> MessageFate {
    let lang = config.lang;
    let output = std::process::Command::new(&isolation.program)
        .arg("ingest")
        .args(&isolation.args)
        .arg("--isolated")
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return MessageFate::Left(format!("{}: {e}", isolation.program.display())),
    };
    let told = String::from_utf8_lossy(&output.stdout);
    if let Some(fate) = told.lines().rev().find_map(MessageFate::from_line) {
        // The child's log lines (the mail's own among them) are this pass's.
        let _ = io::stderr().write_all(&output.stderr);
        return fate;
    }
    use std::os::unix::process::ExitStatusExt;
    if !output.status.signal().is_some_and(killed_by_its_work) {
        // The child could not get at the store, was refused, or was stopped with the
        // judge (a SIGTERM or Ctrl-C reaches the whole group): the mail waits.
        let why = String::from_utf8_lossy(&output.stderr).trim().to_string();
        let why = if why.is_empty() {
            output.status.to_string()
        } else {
            why
        };
        return MessageFate::Left(say!(lang, "poison.alone_failed", why));
    }
    let service = match hold.service() {
        Ok(service) => service,
        Err(e) => return MessageFate::Left(e.message(lang)),
    };
    let why = say!(lang, "poison.killed_in_a_pass_then_alone");
    let fate = quarantine(service, config, path, None, why, now);
    HandlingMark::new(config).leave(path);
    fate
}

/// Whether a process dead of `signal` may have died of what it was doing: an abort (a
/// failed allocation, a double panic), a fault (a stack overflow), or the kernel's kill
/// when memory runs out. A stop asked from outside (SIGTERM, SIGINT, SIGHUP) is not.
fn killed_by_its_work(signal: i32) -> bool {
    [
        libc::SIGABRT,
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGKILL,
        libc::SIGSYS,
        libc::SIGTRAP,
        libc::SIGXCPU,
        libc::SIGXFSZ,
    ]
    .contains(&signal)
}

/// The child's side of [`carry_out_alone`]: carries out the message with the store held,
/// the mark of its parent's death left as it is should this process die too, and prints
/// what became of the message on one line for the parent.
pub fn carry_out_isolated(
    service: &Service,
    config: &Config,
    path: &Path,
    now: DateTime<Utc>,
) -> MessageFate {
    let fate = carry_out_guarded(service, config, path, now);
    HandlingMark::new(config).leave(path);
    println!("{}", fate.to_line());
    fate
}

impl MessageFate {
    /// One line of JSON, for the parent of an isolated run.
    fn to_line(&self) -> String {
        let value = match self {
            MessageFate::Done(Handled::Duplicate) => json!({"fate": "duplicate"}),
            MessageFate::Done(Handled::Ignored) => json!({"fate": "ignored"}),
            MessageFate::Done(Handled::Spam) => json!({"fate": "spam"}),
            MessageFate::Done(Handled::Answered { game }) => {
                json!({"fate": "answered", "game": game})
            }
            MessageFate::Gone => json!({"fate": "gone"}),
            MessageFate::Left(why) => json!({"fate": "left", "why": why}),
            MessageFate::Quarantined(why) => json!({"fate": "quarantined", "why": why}),
        };
        format!("corbeau-fate {value}")
    }

    fn from_line(line: &str) -> Option<MessageFate> {
        let value: serde_json::Value =
            serde_json::from_str(line.strip_prefix("corbeau-fate ")?).ok()?;
        let why = || value["why"].as_str().unwrap_or_default().to_string();
        Some(match value["fate"].as_str()? {
            "duplicate" => MessageFate::Done(Handled::Duplicate),
            "ignored" => MessageFate::Done(Handled::Ignored),
            "spam" => MessageFate::Done(Handled::Spam),
            "answered" => MessageFate::Done(Handled::Answered {
                game: value["game"].as_str().map(str::to_string),
            }),
            "gone" => MessageFate::Gone,
            "left" => MessageFate::Left(why()),
            "quarantined" => MessageFate::Quarantined(why()),
            _ => return None,
        })
    }
}

fn carry_out_guarded(
    service: &Service,
    config: &Config,
    path: &Path,
    now: DateTime<Utc>,
) -> MessageFate {
    let lang = config.lang;
    let (raw, size) = match read_capped(path, config) {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return MessageFate::Gone,
        Err(e) => {
            let why = format!("{}: {e}", say!(lang, "maildir.cannot_read_the_file"));
            return quarantine(service, config, path, None, why, now);
        }
    };
    let at = arrival(path, now);
    let handled = quietly(|| {
        poison_hook(&raw);
        ingest_arrived(service, config, &raw, size, now, at)
    });
    let limit = usize::try_from(config.mail.max_size).unwrap_or(usize::MAX);
    match handled {
        Ok(Ok(Ok(handled))) => match mark(path, "S") {
            Ok(_) => MessageFate::Done(handled),
            Err(MaildirError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => {
                MessageFate::Done(handled)
            }
            // Done and committed; read again, it is found already done.
            Err(e) => MessageFate::Left(e.message(lang)),
        },
        Ok(Ok(Err(e))) => quarantine(service, config, path, None, e.message(lang), now),
        Ok(Err(e)) if is_temporary(&e) => MessageFate::Left(e.message(lang)),
        Ok(Err(e)) => {
            let mail = quietly(|| read_sized(&raw, size, limit, &config.mail.spam_headers))
                .ok()
                .and_then(Result::ok);
            quarantine(service, config, path, mail.as_ref(), e.message(lang), now)
        }
        Err(panic) => {
            let why = format!(
                "{} {panic}",
                say!(lang, "maildir.bug_in_corbeau_please_report")
            );
            let mail = quietly(|| read_sized(&raw, size, limit, &config.mail.spam_headers))
                .ok()
                .and_then(Result::ok);
            quarantine(service, config, path, mail.as_ref(), why, now)
        }
    }
}

/// Runs `f`, turning a panic into its message, without the panic's report on stderr.
///
/// The panic hook belongs to the whole process, so it is not swapped for the call: a swap
/// would silence the panics of every other thread meanwhile, and two overlapping swaps
/// could leave the silent hook in place for good. A hook installed once hands every report
/// on to the hook it found, except while the panicking thread is inside `quietly`.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    thread_local! {
        // True only while this thread runs a `quietly` closure: nothing outlives the call.
        static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    // Installed once and only forwarding: it changes nothing outside `quietly`.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    let outer = QUIET.replace(true);
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.set(outer);
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into())
    })
}

/// The test hook of the module's documentation.
#[cfg(feature = "test-hooks")]
fn poison_hook(raw: &[u8]) {
    let Ok(hook) = std::env::var("CORBEAU_POISON") else {
        return;
    };
    let (how, word) = hook.split_once(':').unwrap_or(("", ""));
    let holds = !word.is_empty() && raw.windows(word.len()).any(|w| w == word.as_bytes());
    match how {
        "panic" if holds => panic!("CORBEAU_POISON: a poison mail"),
        "abort" if holds => std::process::abort(),
        _ => {}
    }
}

/// Without the `test-hooks` feature no word makes a mail poison.
#[cfg(not(feature = "test-hooks"))]
fn poison_hook(_: &[u8]) {}

/// Sets a message aside: flagged in `cur/`, its reason in the log, the moderator told.
fn quarantine(
    service: &Service,
    config: &Config,
    path: &Path,
    mail: Option<&Inbound>,
    reason: String,
    now: DateTime<Utc>,
) -> MessageFate {
    let kept = match mark(path, "FS") {
        Ok(kept) => kept,
        Err(MaildirError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => {
            return MessageFate::Gone;
        }
        Err(e) => return MessageFate::Left(e.message(config.lang)),
    };
    let line = format!(
        "{}\t{}\t{}\n",
        now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        kept.display(),
        reason.replace(['\n', '\t'], " ")
    );
    let log = config.data_dir.join(QUARANTINE_LOG);
    let logged = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    let mut why = reason.clone();
    if let Err(e) = logged {
        why.push_str(&format!(" ({}: {e})", log.display()));
    }
    let (id, from) = match mail {
        Some(m) => (Some(m.message_id.clone()), Some(m.from.to_string())),
        None => scan_sender(&kept, config).map_or((None, None), |s| {
            let id = (!s.message_id.is_empty()).then_some(s.message_id);
            let from = (!s.address.is_empty()).then_some(s.address);
            (id, from)
        }),
    };
    super::log::mail_set_aside(id.as_deref(), from.as_deref(), &file_name(&kept), &why);
    // Telling is best effort: the mail is safe, flagged, whatever happens here.
    let _ = quietly(|| tell(service, config, &kept, mail, &reason, now));
    MessageFate::Quarantined(why)
}

/// The file beside the store where the reason of each quarantined mail is written.
pub const QUARANTINE_LOG: &str = "quarantine.log";

/// Tells of a quarantined mail: `[judge] admin` and the moderator of the game it names
/// by a notice, and its sender by an answer — unless the mail is automatic or comes
/// from the judge's own address, or its sender cannot be read.
fn tell(
    service: &Service,
    config: &Config,
    kept: &Path,
    mail: Option<&Inbound>,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let named = mail.and_then(|m| {
        command::parse(&m.body)
            .commands
            .iter()
            .find_map(|c| match &c.command {
                Ok(Command::SignOn { game, .. })
                | Ok(Command::Moderator { game, .. })
                | Ok(Command::Observe { game })
                | Ok(Command::Unobserve { game, .. }) => Some(game.trim().to_lowercase()),
                _ => None,
            })
    });
    let game = match named {
        Some(id) => service.find_game(&id)?,
        None => None,
    };
    // A mail set aside unread (it killed the judge) is not parsed again: its headers
    // alone are read, by the plain scan below.
    let scanned = match mail {
        Some(m) => Some(Sender {
            address: m.from.to_string(),
            subject: m.subject.clone(),
            message_id: m.message_id.clone(),
            references: m.references.clone(),
            automatic: m.automatic || m.spam.is_some(),
        }),
        None => scan_sender(kept, config),
    };
    let mut notified: Vec<(String, crate::lang::Lang)> = Vec::new();
    if let Some(admin) = &config.judge.admin {
        notified.push((admin.clone(), config.lang));
    }
    let moderator = game.as_ref().and_then(|g| g.moderator().map(|m| (g, m)));
    if let Some((g, m)) = moderator
        && !notified.iter().any(|(a, _)| *a == m.address)
    {
        notified.push((m.address.to_string(), g.settings().lang));
    }
    let data = |sender: bool| {
        json!({
            "game": game.as_ref().map(|g| json!({ "id": g.id(), "name": g.name() })),
            "file": kept.display().to_string(),
            "reason": reason,
            "from": scanned.as_ref().map(|m| m.address.clone()),
            "subject": scanned.as_ref().map(|m| super::desk::quoted_subject(&m.subject, game.as_ref())),
            "retention": config.mail.retention_days,
            "sender": sender,
            "admin": config.judge.admin.is_some(),
            "moderator": moderator.is_some(),
        })
    };
    let about = |out: super::outmail::OutMail| match &game {
        Some(g) => out.about(g.id()),
        None => out,
    };
    let render = |to: &str, lang, sender| {
        compose(
            config,
            "quarantine.txt",
            "quarantine",
            data(sender),
            to,
            lang,
            now,
        )
        .map_err(ServiceError::Render)
    };
    let mut mails = Vec::new();
    for (to, lang) in &notified {
        mails.push(about(render(to, *lang, false)?).seal());
    }
    if let Some(sender) = &scanned
        && !sender.automatic
        && !sender.address.is_empty()
        && !is_the_judge(config, &sender.address)
        && !notified
            .iter()
            .any(|(a, _)| a.eq_ignore_ascii_case(&sender.address))
    {
        let lang = game.as_ref().map_or(config.lang, |g| g.settings().lang);
        let out = render(&sender.address, lang, true)?;
        let parent = (!sender.message_id.is_empty()).then_some(sender.message_id.as_str());
        mails.push(about(out.answering(parent, &sender.references)).seal());
    }
    if !mails.is_empty() {
        service.queue_mails(mails)?;
    }
    Ok(())
}

/// Who sent a quarantined mail, as far as its headers tell.
struct Sender {
    address: String,
    subject: String,
    message_id: String,
    references: Vec<String>,
    automatic: bool,
}

/// Whether `address` is one of the judge's own (its address, an alias, or a
/// plus-address of either): never answered, or the judge would write to itself.
fn is_the_judge(config: &Config, address: &str) -> bool {
    let bare = |a: &str| {
        let a = a.trim().to_lowercase();
        match a.split_once('@') {
            Some((local, domain)) => {
                let local = local.split('+').next().unwrap_or(local);
                format!("{local}@{domain}")
            }
            None => a,
        }
    };
    let address = bare(address);
    std::iter::once(&config.judge.address)
        .chain(config.judge.aliases.iter())
        .any(|a| bare(a) == address)
}

/// The sender of the raw mail at `path`, read from its headers by a plain scan of its
/// first 64 KB (no MIME decoding: the mail may be one that kills the parser), or `None`
/// when it has no readable `From:`. A mail that looks automatic in any way — an
/// `Auto-Submitted` other than `no`, a `Precedence` of bulk, junk or list, a list's
/// header, an empty `Return-Path`, a daemon's address — is marked automatic.
fn scan_sender(path: &Path, config: &Config) -> Option<Sender> {
    use std::io::Read;
    let mut head = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(HEADER_ROOM).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    let fields = super::inbound::bounce::header_fields(text.split('\n'));
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let address = |value: &str| {
        let inner = match (value.rfind('<'), value.rfind('>')) {
            (Some(a), Some(b)) if a < b => &value[a + 1..b],
            _ => value,
        };
        inner.split_whitespace().find(|w| w.contains('@')).map(|w| {
            w.trim_matches(|c| matches!(c, '<' | '>' | '\u{22}'))
                .to_string()
        })
    };
    let from = field("reply-to")
        .and_then(address)
        .or_else(|| field("from").and_then(address))?;
    let lower = |name: &str| field(name).map(str::to_ascii_lowercase);
    let local = from
        .split('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let automatic = lower("auto-submitted").is_some_and(|v| !v.starts_with("no"))
        || lower("precedence").is_some_and(|v| ["bulk", "junk", "list"].contains(&v.as_str()))
        || [
            "list-id",
            "list-unsubscribe",
            "x-autoreply",
            "x-autorespond",
        ]
        .iter()
        .any(|n| field(n).is_some())
        || field("return-path").is_some_and(|v| v.replace(' ', "") == "<>")
        || ["mailer-daemon", "postmaster", "noreply", "no-reply"].contains(&local.as_str())
        || is_the_judge(config, &from)
        || fields
            .iter()
            .any(|(n, v)| config.mail.spam_headers.iter().any(|r| r.marks(n, v)));
    let message_id = field("message-id")
        .map(|v| {
            v.trim_matches(|c| c == '<' || c == '>' || c == ' ')
                .to_string()
        })
        .unwrap_or_default();
    Some(Sender {
        address: from,
        subject: field("subject")
            .unwrap_or_default()
            .chars()
            .take(200)
            .collect(),
        references: field("references")
            .map(|v| {
                v.split_whitespace()
                    .map(|r| r.trim_matches(|c| c == '<' || c == '>').to_string())
                    .collect()
            })
            .unwrap_or_default(),
        message_id,
        automatic,
    })
}

/// The mark of the mail being handled, `<data_dir>/handling`: its path and how many times
/// its handling began. A process that dies while handling a mail (out of memory, killed)
/// leaves it, naming that mail alone; the mark is removed as soon as the mail is done, so
/// that a death between two mails, or during the rest of the pass, counts against none.
struct HandlingMark(PathBuf);

impl HandlingMark {
    fn new(config: &Config) -> HandlingMark {
        HandlingMark(config.data_dir.join("handling"))
    }

    fn attempts(&self, path: &Path) -> u32 {
        let Ok(text) = std::fs::read_to_string(&self.0) else {
            return 0;
        };
        let mut lines = text.lines();
        match (lines.next(), lines.next()) {
            (Some(p), Some(n)) if Path::new(p) == path => n.trim().parse().unwrap_or(0),
            _ => 0,
        }
    }

    fn killed_twice(&self, path: &Path) -> bool {
        self.attempts(path) >= 2
    }

    fn enter(&self, path: &Path) {
        let n = self.attempts(path) + 1;
        let _ = std::fs::write(&self.0, format!("{}\n{n}\n", path.display()));
    }

    /// Removes the mark if it names `path`: the mark of another mail that killed a
    /// process stays.
    fn leave(&self, path: &Path) {
        let Ok(text) = std::fs::read_to_string(&self.0) else {
            return;
        };
        if text.lines().next().is_some_and(|p| Path::new(p) == path) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

impl MaildirError {
    /// The error for the moderator, in their language.
    pub fn message(&self, lang: crate::lang::Lang) -> String {
        match (self, lang) {
            (MaildirError::NotAMaildir(dir), _) => say!(
                lang,
                "maildir_error.not_a_maildir",
                dir = dir.display().to_string()
            ),
            _ => self.to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MaildirError {
    #[error("{}: not a Maildir (it needs the folders new/, cur/ and tmp/)", .0.display())]
    NotAMaildir(PathBuf),
    #[error("{}: {}", .0.display(), .1)]
    Io(PathBuf, io::Error),
}

/// The files of `dir/new`, in the order they were delivered ([`delivery_order`]).
pub fn new_messages(dir: &Path) -> Result<Vec<PathBuf>, MaildirError> {
    let new = dir.join("new");
    if !new.is_dir() || !dir.join("cur").is_dir() {
        return Err(MaildirError::NotAMaildir(dir.to_path_buf()));
    }
    let entries = std::fs::read_dir(&new).map_err(|e| MaildirError::Io(new.clone(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && !file_name(p).starts_with('.'))
        .collect();
    paths.sort_by_cached_key(|p| delivery_order(p));
    Ok(paths)
}

/// The order of delivery of a message: the second at the head of its Maildir name, then
/// the microsecond most delivering programs write after an `M` (`1700000000.M5P12.host`,
/// Postfix's `1700000000.V801I2M5.host`), then the file's modification time, then the
/// name. Names alone sort badly within one second (`M123456` before `M5`), and two mails
/// of one second are common: a player's orders and the moderator's PROCESS.
fn delivery_order(path: &Path) -> (u64, u64, std::time::SystemTime, String) {
    let name = file_name(path);
    let mut parts = name.splitn(3, '.');
    let second = parts
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let micro = parts
        .next()
        .and_then(|unique| unique.split_once('M'))
        .map(|(_, rest)| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(u64::MAX);
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(std::time::UNIX_EPOCH);
    (second, micro, modified, name)
}

/// Moves a message from `new/` to `cur/` with these flags; returns where it went.
fn mark(path: &Path, flags: &str) -> Result<PathBuf, MaildirError> {
    let name = file_name(path);
    let base = name.split(":2,").next().unwrap_or(&name).to_string();
    let cur = path
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("cur"))
        .ok_or_else(|| MaildirError::NotAMaildir(path.to_path_buf()))?;
    let target = cur.join(format!("{base}:2,{flags}"));
    std::fs::rename(path, &target).map_err(|e| MaildirError::Io(target.clone(), e))?;
    Ok(target)
}

/// Creates `dir` as a Maildir if it is not one yet.
pub fn create(dir: &Path) -> Result<(), MaildirError> {
    for sub in ["tmp", "new", "cur"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| MaildirError::Io(d, e))?;
    }
    Ok(())
}

/// Delivers a message into a Maildir the standard way: written and synced in `tmp/`,
/// then renamed into `new/`, so a reader never sees half a message.
pub fn deliver(dir: &Path, raw: &[u8]) -> Result<PathBuf, MaildirError> {
    prepare(dir, raw)?.publish()
}

/// [`prepare`] for a message read from `input` as it comes (a pipe from the mail server),
/// never whole in memory. Returns the pending message and whether it holds anything but
/// blanks.
pub fn prepare_from(dir: &Path, input: impl io::Read) -> Result<(Pending, bool), MaildirError> {
    let mut input = Blanks {
        inner: input,
        text: false,
    };
    let pending = prepare_with(dir, |file| io::copy(&mut input, file).map(|_| ()))?;
    Ok((pending, input.text))
}

/// A reader that notes whether anything but blanks went through it.
struct Blanks<R> {
    inner: R,
    text: bool,
}

impl<R: io::Read> io::Read for Blanks<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if !self.text {
            self.text = buf
                .get(..n)
                .is_some_and(|b| b.iter().any(|c| !c.is_ascii_whitespace()));
        }
        Ok(n)
    }
}

/// A message written and synced in a Maildir's `tmp/`, not yet delivered: removed if
/// dropped unpublished.
pub struct Pending {
    tmp: Option<PathBuf>,
    target: PathBuf,
}

/// How long a message written in a Maildir's `tmp/` counts as a delivery still under way
/// (an `ingest` waiting for the store): longer than any wait for the store and the
/// handling of a mail; an older one is a delivery that died, which `prune` clears.
const UNDER_WAY: std::time::Duration = std::time::Duration::from_secs(120);

impl Pending {
    /// Whether another delivery into the same Maildir holds, still in `tmp/` and not
    /// older than [`UNDER_WAY`], a message that arrived before this one
    /// ([`delivery_order`]): an `ingest` that reached the store later than this one for a
    /// mail that came first.
    pub fn arrived_after_another(&self) -> bool {
        let Some(ours) = &self.tmp else {
            return false;
        };
        let Some(dir) = ours.parent() else {
            return false;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        let now = std::time::SystemTime::now();
        let our_order = delivery_order(ours);
        entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p != ours && p.is_file())
            .filter(|p| {
                std::fs::metadata(p)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| now.duration_since(t).unwrap_or_default() < UNDER_WAY)
            })
            .any(|p| delivery_order(&p) < our_order)
    }

    /// Renames the message into `new/`; returns its path there.
    pub fn publish(mut self) -> Result<PathBuf, MaildirError> {
        let tmp = self
            .tmp
            .take()
            .ok_or_else(|| MaildirError::Io(self.target.clone(), io::ErrorKind::NotFound.into()))?;
        if let Err(e) = std::fs::rename(&tmp, &self.target) {
            let _ = std::fs::remove_file(&tmp);
            return Err(MaildirError::Io(self.target.clone(), e));
        }
        Ok(self.target.clone())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(tmp) = &self.tmp {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Takes a message back out of `new/` (delivered, then not carried out): removed, as if
/// never delivered. Says whether it was still there.
pub fn take_back(path: &Path) -> bool {
    std::fs::remove_file(path).is_ok()
}

/// Writes a message into `dir/tmp/`, synced, ready to be renamed into `new/`.
pub fn prepare(dir: &Path, raw: &[u8]) -> Result<Pending, MaildirError> {
    prepare_with(dir, |file| file.write_all(raw))
}

/// Creates a file in `dir/tmp/`, has `write` fill it, and syncs it.
fn prepare_with(
    dir: &Path,
    write: impl FnOnce(&mut std::fs::File) -> io::Result<()>,
) -> Result<Pending, MaildirError> {
    create(dir)?;
    // Process-wide, and safe so: it only makes two names of one microsecond differ.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let name = format!(
        "{}.M{}P{}Q{}.corbeau",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = dir.join("tmp").join(&name);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| MaildirError::Io(p, e)
    };
    let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    let pending = Pending {
        tmp: Some(tmp.clone()),
        target: dir.join("new").join(&name),
    };
    write(&mut file).map_err(io(&tmp))?;
    file.sync_all().map_err(io(&tmp))?;
    Ok(pending)
}

/// When the message at `path` reached the judge: the delivery time at the head of its
/// Maildir name (`1700000000.M…`, set by the delivering program), or the file's
/// modification time, whichever is later — a tool that sets a file's time from its
/// `Date:` header can only make a mail later, never earlier — and never later than `now`.
/// The message's own `Date:` header is never used: the sender writes it.
pub fn arrival(path: &Path, now: DateTime<Utc>) -> DateTime<Utc> {
    let named = name_time(&file_name(path));
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .map(DateTime::<Utc>::from);
    let at = match (named, modified) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b).unwrap_or(now),
    };
    at.min(now)
}

/// The seconds at the head of a Maildir file name.
fn name_time(name: &str) -> Option<DateTime<Utc>> {
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !name[digits.len()..].starts_with('.') {
        return None;
    }
    DateTime::from_timestamp(digits.parse().ok()?, 0)
}

/// Removes from `dir/cur` every message that reached the judge before `now - keep`, and
/// with `tmp` the files of `dir/tmp` older than 36 hours (left by a delivery that died:
/// the Maildir rule). Returns how many messages were removed.
pub fn prune(dir: &Path, keep: TimeDelta, now: DateTime<Utc>, tmp: bool) -> usize {
    let mut removed = 0;
    let old = |path: &Path, limit: DateTime<Utc>| arrival(path, now) < limit;
    if let Ok(entries) = std::fs::read_dir(dir.join("cur")) {
        let limit = now - keep;
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_file() && old(&path, limit) && std::fs::remove_file(&path).is_ok() {
                removed += 1;
            }
        }
    }
    if tmp && let Ok(entries) = std::fs::read_dir(dir.join("tmp")) {
        let limit = now - TimeDelta::hours(36);
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_file() && old(&path, limit) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    removed
}

/// The retention applied to the spool and (unless `prune_maildir = false`) the
/// configured Maildir; returns how many raw mails were removed.
pub fn prune_all(config: &Config, now: DateTime<Utc>) -> usize {
    let Some(keep) = config.mail.retention() else {
        return 0;
    };
    let mut removed = prune(&spool(config), keep, now, true);
    if config.mail.prune_maildir
        && let Some(dir) = &config.mail.maildir
    {
        removed += prune(dir, keep, now, false);
    }
    removed
}

/// The file name of a path, for reports.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc::channel;

    use super::*;

    /// Within one second, mails are taken by their microsecond, not by their names' text
    /// (`M123456` sorts before `M5` as text); without one, by their file's time.
    #[test]
    fn mails_of_one_second_are_taken_in_delivery_order() {
        let dir = std::env::temp_dir().join(format!("corbeau-order-{}", std::process::id()));
        create(&dir).unwrap();
        let names = [
            "1700000000.M5P10Q0.corbeau",
            "1700000000.V801I2M40.mx",
            "1700000000.M123456P10Q1.corbeau",
            "1700000001.M1P10Q2.corbeau",
        ];
        for name in names.iter().rev() {
            std::fs::write(dir.join("new").join(name), "x").unwrap();
        }
        let taken: Vec<String> = new_messages(&dir)
            .unwrap()
            .iter()
            .map(|p| file_name(p))
            .collect();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(taken, names);
    }

    /// Two mails handled at once on two threads, their `quietly` calls overlapping: the
    /// process's panic hook must still report a panic outside them afterwards.
    #[test]
    fn overlapping_quiet_calls_leave_the_panic_hook_as_they_found_it() {
        static REPORTED: AtomicBool = AtomicBool::new(false);
        const MARK: &str = "a panic outside quietly";
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() == Some(&MARK) {
                REPORTED.store(true, Ordering::SeqCst);
            } else {
                previous(info);
            }
        }));
        // a enters, b enters, a leaves, b leaves.
        let (b_in, b_entered) = channel();
        let (a_out, a_left) = channel();
        let a = std::thread::spawn(move || {
            quietly(|| b_entered.recv().ok()).ok();
            a_out.send(()).ok();
        });
        let b = std::thread::spawn(move || {
            quietly(|| {
                b_in.send(()).ok();
                a_left.recv().ok()
            })
            .ok();
        });
        a.join().ok();
        b.join().ok();
        let caught = std::thread::spawn(|| std::panic::panic_any(MARK)).join();
        assert!(caught.is_err());
        assert!(
            REPORTED.load(Ordering::SeqCst),
            "the hook was left silent by the overlapping calls"
        );
    }
}
