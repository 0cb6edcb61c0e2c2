//! The caps on what a mail, or a sender, may make the judge send (`[mail.caps]`,
//! docs/email.md, "Caps"): a forged `From:` costs the forger one mail, and must not cost
//! the address it names more than a few answers. The hourly counters are windows of the
//! store's reply counter (`Service::reply_window`), under keys that begin with their kind
//! and a NUL byte, which no address holds.
//!
//! Each cap is keyed so that the forger cannot use it against the person it protects:
//! pictures asked for with a secret are counted per seat, which only the secret reaches;
//! the same text again from one address silences only that text, never a different mail
//! nor one signed on with the right secret.

use chrono::{DateTime, Utc};

use crate::game::Game;
use crate::service::{REPLY_WINDOW, Replied, Service, ServiceError};

use super::section::{Placed, ReplySection};
use super::{Desk, Role};

/// Where a sender stands against an hourly cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Budget {
    /// Under the cap.
    Open,
    /// The last one of the window, which ends at `until`.
    Last { until: DateTime<Utc> },
    /// Spent until `until`.
    Spent { until: DateTime<Utc> },
}

/// The state of the counter `key` against `cap` (0: no cap).
fn budget(
    service: &Service,
    key: &str,
    cap: u32,
    now: DateTime<Utc>,
) -> Result<Budget, ServiceError> {
    if cap == 0 {
        return Ok(Budget::Open);
    }
    Ok(match service.reply_window(key, now)? {
        Some(w) if w.count >= cap => Budget::Spent {
            until: w.since + REPLY_WINDOW,
        },
        Some(w) if w.count + 1 == cap => Budget::Last {
            until: w.since + REPLY_WINDOW,
        },
        // The first of a window that opens now.
        None if cap == 1 => Budget::Last {
            until: now + REPLY_WINDOW,
        },
        _ => Budget::Open,
    })
}

/// The counter of one text from one address: the body folded (case, blank space, the
/// lines quoted with `>`, which a responder's copy of the judge's answer changes each
/// time) and hashed, so that the store keeps no text. Secrets are hashed with the rest:
/// two sign-ons with different secrets are different texts, so that guesses in a
/// player's name never add up against the player's own mail (the judge's secrets are
/// random and long: the hash gives none of them away).
pub(crate) fn same_text_key(from: &str, body: &str) -> String {
    use blake2::{Blake2s256, Digest};
    let mut hasher = Blake2s256::new();
    for line in body.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('>') {
            continue;
        }
        let folded: Vec<String> = line.split_whitespace().map(str::to_lowercase).collect();
        hasher.update(folded.join(" ").as_bytes());
        hasher.update(b"\n");
    }
    let hash = hasher.finalize();
    let hex: String = hash.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("same-text\0{}\0{hex}", from.trim().to_lowercase())
}

/// Where the text of a mail from `from` stands against `[mail.caps] same_text_per_hour`.
pub(crate) fn same_text(
    service: &Service,
    config: &crate::config::Config,
    from: &str,
    body: &str,
    now: DateTime<Utc>,
) -> Result<(String, Budget), ServiceError> {
    let key = same_text_key(from, body);
    let cap = config.mail.caps.same_text_per_hour;
    let budget = budget(service, &key, cap, now)?;
    Ok((key, budget))
}

/// The counter of pictures a `CARTE` of `role` draws in `game`: the seat's own for a house
/// signed on, the moderator's for the moderator, and one for the whole game for every
/// request without a secret, which anyone may forge.
fn picture_key(game: &str, role: &Role) -> String {
    match role {
        Role::House(house) => format!("picture\0{game}\0house\0{house}"),
        Role::Moderator => format!("picture\0{game}\0moderator"),
        Role::Nobody => format!("picture\0{game}\0unsigned"),
    }
}

impl Desk<'_> {
    /// Whether the `CARTE` of this mail may draw a picture of `game`: none when the hourly
    /// cap of its counter is spent, with the sentence that says when pictures come again.
    pub(super) fn picture_allowed(&mut self, game: &Game) -> Result<Option<String>, ServiceError> {
        let key = picture_key(game.id(), &self.gate.role);
        let cap = self.config.mail.caps.map_pictures_per_hour;
        match budget(self.service, &key, cap, self.now)? {
            Budget::Spent { until } => {
                let zone = game.settings().schedule.time_zone;
                let until = crate::report::format_deadline(until, zone, self.lang);
                let signed = self.gate.role != Role::Nobody;
                let lang = self.lang;
                let game = game.id().to_string();
                Ok(Some(if signed {
                    crate::say!(lang, "caps.map_held_signed", cap, until)
                } else {
                    crate::say!(lang, "caps.map_held_unsigned", cap, until, game)
                }))
            }
            Budget::Open | Budget::Last { .. } => {
                self.answer.picture_key = Some(key);
                Ok(None)
            }
        }
    }

    /// The mails a press message may still cause in this mail, its reply (and the reply's
    /// copy to the house's address) set apart: none past `[mail.caps] mails_per_mail`.
    pub(super) fn mails_left(&self, game: &Game) -> usize {
        let caps = &self.config.mail.caps;
        let cap = caps.mails_per_mail(game.seats().len(), game.observers().len());
        let reply = 1 + usize::from(self.gate.owner.is_some());
        cap.saturating_sub(self.effects.mails.len() + reply)
    }

    /// Applies the cap on the same text to the answer about to go: says whether it goes,
    /// warns on the last one of the hour, and counts it. A mail signed on with the right
    /// secret is its owner's, never a responder's: it is neither held nor counted.
    pub(super) fn same_text_allows(&mut self) -> bool {
        let Some((key, budget)) = self.answer.same_text.clone() else {
            return true;
        };
        if self.gate.role != Role::Nobody {
            return true;
        }
        match budget {
            Budget::Spent { .. } => return false,
            Budget::Last { until } => {
                let cap = self.config.mail.caps.same_text_per_hour;
                let until = until.format("%H:%M UTC").to_string();
                let message = crate::say!(self.lang, "caps.same_text_last", cap, until);
                let warning = Placed {
                    line: 0,
                    text: String::new(),
                    section: ReplySection::Error { message },
                };
                self.answer.sections.insert(0, warning);
            }
            Budget::Open => {}
        }
        self.effects.counted.push(Replied {
            address: key,
            at: self.now,
        });
        true
    }

    /// Counts the picture the answer carries against its hourly cap.
    pub(super) fn picture_sent(&mut self) {
        if let Some(key) = self.answer.picture_key.take() {
            self.effects.counted.push(Replied {
                address: key,
                at: self.now,
            });
        }
    }
}
