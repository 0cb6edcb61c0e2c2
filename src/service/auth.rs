//! Who writes, established by secret: a sign-on checked against its seat, and the
//! failed ones counted per seat (a house of a game, a game's moderator) and told, never
//! used to refuse anyone. The secrets are long enough that guessing them by mail is
//! hopeless, and the sieve kept beside each hash (`game::secret`) turns a wrong secret
//! away for microseconds, so a storm of wrong secrets costs the judge little without any
//! lock. A lock would be worse than useless: keyed on the sender, a forged `From:` locks
//! the owner out; keyed on the seat, any rival does.
//!
//! What the counter is for: the owner learns of the failures in the answer to their next
//! sign-on, and when they pile up ([`FAILURES_TOLD`]) the owner and the moderator get a
//! notice, once. The counters live in the store's `guards` tree, written by the session's
//! commit with the rest of what the mail did (docs/email.md, "Sign-on, secrets and
//! throttling"; docs/storage.md).
//!
//! The counter itself ([`Guard`]) is a neutral record the store keeps; the policy — what
//! a failure or a right secret does to it — is here. What a sign-on looks like in a mail
//! (one secret a mail, the house as written, the answer's sections) is the mail desk's.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::game::{Actor, Event, SieveKey, same_address};
use crate::lang::Lang;
use crate::say;

use super::guard::Guard;
use super::{ServiceError, Session};
use crate::game::HouseKey;

/// Failures on one seat after which its owner and the moderator get a notice (once,
/// until the owner signs on and is told).
pub const FAILURES_TOLD: u32 = 5;

/// The seat a sign-on claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The player of this house (its id).
    House(HouseKey),
    /// The game's moderator.
    Moderator,
}

/// A right secret: who the sender is for the game, and what their answer tells them.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedOn {
    pub actor: Actor,
    /// The language the seat's owner reads (the moderator's is the game's).
    pub lang: Lang,
    /// The failures counted on the seat since its owner was last told (now forgotten),
    /// if any.
    pub failed: Option<Guard>,
    /// The owner's registered address, when the sender wrote from another.
    pub elsewhere: Option<String>,
}

/// Why a sign-on did not establish anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthFailure {
    /// Nobody holds the seat (a house nobody plays or whose player resigned, a game with
    /// no moderator): no secret was checked and nothing is counted, since nobody is at
    /// risk.
    Vacant,
    /// The secret is not the seat's: the failure is counted.
    WrongSecret,
}

/// The seat whose sign-ons are counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Sign-ons as a house of a game (ids).
    House { game: String, house: HouseKey },
    /// Sign-ons as a game's moderator.
    Moderator { game: String },
}

impl Subject {
    /// The key in the store's `guards` tree: the kind, then its names, NUL-separated (no
    /// game id or house id holds a NUL byte).
    pub fn key(&self) -> String {
        match self {
            Subject::House { game, house } => format!("house\0{game}\0{house}"),
            Subject::Moderator { game } => format!("moderator\0{game}"),
        }
    }
}

/// The policy on the failures of one [`Subject`].
impl Guard {
    /// Counts a failure at `now`; says whether the owner and the moderator are now to be
    /// sent a notice (the [`FAILURES_TOLD`]th failure since the owner was last told).
    pub fn fail(&mut self, now: DateTime<Utc>) -> bool {
        if self.failures == 0 {
            self.first = now;
        }
        self.failures = self.failures.saturating_add(1);
        self.last = now;
        if self.failures >= FAILURES_TOLD && !self.told {
            self.told = true;
            return true;
        }
        false
    }
}

impl Session<'_> {
    /// Checks `secret` for the seat `claim` names, for a sign-on written from `from` at
    /// `now`. The right secret is always accepted, whoever failed before; it forgets the
    /// seat's counter and hands its failures back to be told. A wrong one is counted (a
    /// notice and an audit line at the [`FAILURES_TOLD`]th), and expired counters are
    /// forgotten with it. The counters are written by [`Session::commit`]. The outer
    /// error is the store's (the counters could not be read): nothing was decided.
    pub fn authenticate(
        &mut self,
        claim: Claim,
        secret: &str,
        from: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<SignedOn, AuthFailure>, ServiceError> {
        let game = self.game();
        let id = game.id().to_string();
        let seat = match claim {
            Claim::House(house) => game
                .seat(&house)
                .filter(|s| !s.resigned())
                .and_then(|s| s.player())
                .map(|p| (Some(house), p.address().to_string(), p.lang())),
            // The moderator's language is the game's (`LANGUE` changes it).
            Claim::Moderator => game
                .moderator()
                .as_ref()
                .map(|m| (None, m.address.to_string(), game.settings().lang)),
        };
        let Some((house, owner, lang)) = seat else {
            return Ok(Err(AuthFailure::Vacant));
        };
        let subject = match &house {
            Some(house) => Subject::House {
                game: id,
                house: house.clone(),
            },
            None => Subject::Moderator { game: id },
        };
        if !self.signs_on(house.as_ref(), secret) {
            self.count_failure(&subject, house, now)?;
            return Ok(Err(AuthFailure::WrongSecret));
        }
        let failed = self.forget_failures(&subject)?;
        let actor = match house {
            Some(house) => Actor::House(house),
            None => Actor::Moderator,
        };
        Ok(Ok(SignedOn {
            actor,
            lang,
            failed,
            elsewhere: (!same_address(&owner, from)).then_some(owner),
        }))
    }

    /// The owner signed on: the failures counted since they were last told, if any, which
    /// their answer now tells (the counter is forgotten).
    fn forget_failures(&mut self, subject: &Subject) -> Result<Option<Guard>, ServiceError> {
        let key = subject.key();
        let kept = self.service.guard(&key)?;
        if kept.is_some() {
            self.guards.push((key, None));
        }
        Ok(kept.filter(|g| g.failures > 0))
    }

    /// A wrong secret for a seat (`house`: a house's; `None`: the moderator's), counted.
    /// At [`FAILURES_TOLD`] failures the owner and the moderator get a notice, once.
    /// Expired counters are forgotten in the same transaction.
    fn count_failure(
        &mut self,
        subject: &Subject,
        house: Option<HouseKey>,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let key = subject.key();
        let mut guard = self.service.guard(&key)?.unwrap_or_else(|| Guard::new(now));
        if guard.fail(now) {
            self.note(Event::SignOnFailures {
                house,
                failures: guard.failures,
                since: guard.first,
            });
        }
        for forgotten in self.service.guards_to_forget(now)? {
            if forgotten != key {
                self.guards.push((forgotten, None));
            }
        }
        self.guards.push((key, Some(guard)));
        Ok(())
    }
}

/// Why the judge's key (the key of the sieves, `game::secret`) could not be had. Nothing
/// was changed: a key file that is there is never replaced, since a new key would make
/// every sieve of the store useless until each owner's next sign-on, and a lost one must
/// be a decision of whoever runs the judge (docs/configuration.md, `key_file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyFailure {
    /// The file is there but cannot be read (permissions, a directory, a disk error).
    Unreadable { path: PathBuf, reason: String },
    /// The file is read but holds no key (64 hexadecimal digits).
    Malformed { path: PathBuf },
    /// There was no file and none could be written (its folder missing or not writable).
    NotCreated { path: PathBuf, reason: String },
}

impl KeyFailure {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            KeyFailure::Unreadable { path, reason } => {
                say!(
                    lang,
                    "log.key_unreadable",
                    path = path.display().to_string(),
                    reason
                )
            }
            KeyFailure::Malformed { path } => {
                say!(lang, "log.key_malformed", path = path.display().to_string())
            }
            KeyFailure::NotCreated { path, reason } => {
                say!(
                    lang,
                    "log.key_not_created",
                    path = path.display().to_string(),
                    reason
                )
            }
        }
    }
}

/// More than a key file ever holds: a larger file is read this far, then found malformed.
const KEY_FILE_READ: u64 = 4096;

/// Reads the judge's key from `path`, or creates it there (32 random bytes, mode 0600)
/// when there is no file, and installs it for the process's sieves.
pub fn install_judge_key(path: &Path) -> Result<(), KeyFailure> {
    let key = match read_key(path)? {
        Some(key) => key,
        None => create_key(path)?,
    };
    // A process installs one key; a second call (a test's second judge) keeps the first.
    crate::game::install_sieve_key(key);
    Ok(())
}

/// The key in `path`; none when there is no such file.
fn read_key(path: &Path) -> Result<Option<SieveKey>, KeyFailure> {
    let unreadable = |e: std::io::Error| KeyFailure::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    let mut bytes = Vec::new();
    file.take(KEY_FILE_READ)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    String::from_utf8(bytes)
        .ok()
        .and_then(|text| SieveKey::from_text(&text))
        .map(Some)
        .ok_or_else(|| KeyFailure::Malformed {
            path: path.to_path_buf(),
        })
}

/// A new key, written whole to a file of its own (mode 0600, synced) and then linked to
/// `path`, which is never seen half written; when another process linked its own first,
/// that one is read and used.
fn create_key(path: &Path) -> Result<SieveKey, KeyFailure> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |reason: String| KeyFailure::NotCreated {
        path: path.to_path_buf(),
        reason,
    };
    let key = SieveKey::random().map_err(|e| failed(e.to_string()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let draft = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let _ = std::fs::remove_file(&draft);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&draft)
        .and_then(|mut file| {
            file.write_all(key.to_text().as_bytes())?;
            file.sync_all()
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&draft);
        return Err(failed(e.to_string()));
    }
    let linked = std::fs::hard_link(&draft, path);
    let _ = std::fs::remove_file(&draft);
    match linked {
        Ok(()) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
            }
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_key(path)?.ok_or_else(|| KeyFailure::Malformed {
                path: path.to_path_buf(),
            })
        }
        Err(e) => Err(failed(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    use super::super::guard::FORGET_AFTER;

    fn at(minutes: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + TimeDelta::minutes(minutes)
    }

    #[test]
    fn failures_are_counted_and_the_notice_asked_once() {
        let mut g = Guard::new(at(0));
        for i in 1..FAILURES_TOLD {
            assert!(!g.fail(at(i.into())));
        }
        assert!(g.fail(at(10)));
        for i in 0..100 {
            assert!(!g.fail(at(20 + i)));
        }
        assert_eq!(g.failures, FAILURES_TOLD + 100);
        assert_eq!((g.first, g.last), (at(1), at(119)));
    }

    #[test]
    fn entries_are_forgotten_after_a_quiet_month() {
        let mut g = Guard::new(at(0));
        g.fail(at(0));
        assert!(!g.expired(at(60)));
        assert!(g.expired(at(0) + FORGET_AFTER));
    }

    #[test]
    fn an_entry_of_the_old_lockouts_still_reads() {
        let old = r#"{"failures":3,"window":"2026-03-23T08:00:00Z","lockouts":2,
            "locked_until":"2026-03-23T09:00:00Z","told":true,"last":"2026-03-23T08:04:00Z"}"#;
        let g: Guard = serde_json::from_str(old).unwrap();
        assert_eq!(g.failures, 3);
        assert!(g.told);
    }
}
