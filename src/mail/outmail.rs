//! A mail the judge will send, as it waits in the store's outbox until a transport has
//! accepted it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One mail to one recipient (one address per mail, so that no player ever sees another's
/// address). From and Reply-To are the judge's, added when the mail is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutMail {
    /// The Message-ID, without angle brackets; stable across retries, so that a mail sent
    /// twice after a crash is recognised by mail clients as one.
    pub message_id: String,
    pub to: String,
    pub subject: String,
    /// UTF-8 plain text.
    pub body: String,
    /// The message this one answers (without angle brackets).
    #[serde(default)]
    pub in_reply_to: Option<String>,
    #[serde(default)]
    pub references: Vec<String>,
    /// The game it is about, if any (an `X-Corbeau-Game` header, for filters).
    #[serde(default)]
    pub game: Option<String>,
    pub queued: DateTime<Utc>,
    /// Failed attempts so far.
    #[serde(default)]
    pub attempts: u32,
    /// Not before this time (a retry's back-off); none: as soon as possible.
    #[serde(default)]
    pub next_try: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_error: Option<String>,
}

impl OutMail {
    /// A new mail, ready to be queued; `domain` is the judge's mail domain.
    pub fn new(
        domain: &str,
        to: &str,
        subject: String,
        body: String,
        now: DateTime<Utc>,
    ) -> OutMail {
        OutMail {
            message_id: new_message_id(domain, now),
            to: to.to_string(),
            subject,
            body,
            in_reply_to: None,
            references: Vec::new(),
            game: None,
            queued: now,
            attempts: 0,
            next_try: None,
            last_error: None,
        }
    }

    /// Threads this mail under `parent` (its Message-ID and References).
    pub fn answering(mut self, parent: Option<&str>, references: &[String]) -> OutMail {
        if let Some(parent) = parent {
            self.references = references.to_vec();
            if !self.references.iter().any(|r| r == parent) {
                self.references.push(parent.to_string());
            }
            self.in_reply_to = Some(parent.to_string());
        }
        self
    }

    pub fn about(mut self, game: &str) -> OutMail {
        self.game = Some(game.to_string());
        self
    }
}

/// `corbeau.<time>.<random>@<domain>`: unique without any counter to keep.
pub fn new_message_id(domain: &str, now: DateTime<Utc>) -> String {
    let mut bytes = [0u8; 8];
    // Without randomness (never seen on Linux) the time and a process counter still
    // make the id unique enough for one judge.
    if getrandom::fill(&mut bytes).is_err() {
        bytes = COUNTER
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .to_be_bytes();
    }
    let random: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "corbeau.{}.{random}@{domain}",
        now.timestamp_nanos_opt().unwrap_or_default()
    )
}

static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The domain part of the judge's address (`localhost` if it has none).
pub fn domain_of(address: &str) -> &str {
    address
        .rsplit_once('@')
        .map(|(_, d)| d.trim_end_matches('>'))
        .filter(|d| !d.is_empty())
        .unwrap_or("localhost")
}
