//! A mail the judge will send, as the mail layer composes it; queued in the store's outbox
//! as an envelope of headers and body bytes (`super::seal`) until a transport has
//! accepted it.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::service::piece_key;

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
    /// The transport refused the mail for good (an SMTP 5xx, a sendmail "no such user"):
    /// it is set aside, not tried again, and shown by `corbeau outbox` until the moderator
    /// retries it (`--retry`) or it is dropped.
    #[serde(default)]
    pub failed: bool,
    /// Files sent after the text (the board's picture): a mail with any is sent as
    /// multipart/mixed, the text first; a mail without is plain text as it always was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// A file carried by a mail. Its bytes are written as one base64 string when the mail is
/// serialized (JSON would make them an array of numbers four times their size); queued,
/// it is base64 in each mail's MIME body, which the outbox keeps once for all the mails
/// that carry it until the last is sent (docs/email.md, "Pictures").
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Attachment {
    /// The file name mail clients show and save it under (`westeros-1-printemps-299.png`):
    /// ASCII letters, digits, dashes and one dot, see [`file_name`].
    pub name: String,
    pub media: Media,
    #[serde(with = "base64_bytes")]
    pub bytes: Vec<u8>,
    /// The bytes' digest ([`piece_key`]), made once when the picture is drawn rather than
    /// for each of the mails that carry a copy.
    #[serde(skip)]
    digest: Option<Arc<str>>,
}

impl PartialEq for Attachment {
    fn eq(&self, other: &Attachment) -> bool {
        (&self.name, self.media, &self.bytes) == (&other.name, other.media, &other.bytes)
    }
}

/// What a carried file is; the judge sends nothing but its own pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Media {
    #[serde(rename = "image/png")]
    Png,
}

impl Media {
    /// The MIME type, for the part's `Content-Type`.
    pub fn mime(self) -> &'static str {
        match self {
            Media::Png => "image/png",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Media::Png => "png",
        }
    }
}

impl Attachment {
    /// A PNG picture named after `stem` (see [`file_name`]).
    pub fn png(stem: &str, bytes: Vec<u8>) -> Attachment {
        Attachment {
            name: file_name(stem, Media::Png),
            media: Media::Png,
            digest: Some(piece_key(&bytes).into()),
            bytes,
        }
    }

    /// A file read back from a mail (its digest made when it is asked for).
    pub fn read(name: String, media: Media, bytes: Vec<u8>) -> Attachment {
        Attachment {
            name,
            media,
            bytes,
            digest: None,
        }
    }

    /// What the outbox keeps the file's encoded bytes under: the same for every mail
    /// that carries these bytes.
    pub fn key(&self) -> Arc<str> {
        self.digest
            .clone()
            .unwrap_or_else(|| piece_key(&self.bytes).into())
    }
}

/// A file name any mail client and file system takes: `stem` folded to lower-case ASCII
/// letters and digits, every other run of characters one dash (`Westeros-1 Printemps
/// 299` → `westeros-1-printemps-299.png`), at most 80 characters before the extension.
pub fn file_name(stem: &str, media: Media) -> String {
    let folded = crate::map::fold(stem);
    let mut name = String::new();
    for c in folded.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
        if name.len() >= 80 {
            break;
        }
    }
    let name = name.trim_end_matches('-');
    let name = if name.is_empty() { "corbeau" } else { name };
    format!("{name}.{}", media.extension())
}

/// Bytes as one standard base64 string in the stored JSON.
mod base64_bytes {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(bytes))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        STANDARD
            .decode(text.as_bytes())
            .map_err(serde::de::Error::custom)
    }
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
            failed: false,
            attachments: Vec::new(),
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

    /// The `Auto-Submitted` value of RFC 3834 for this mail: `auto-replied` for an answer
    /// to a mail, `auto-generated` for the rest (results, notices, press, welcome).
    pub fn auto_submitted(&self) -> &'static str {
        if self.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        }
    }

    pub fn about(mut self, game: &str) -> OutMail {
        self.game = Some(game.to_string());
        self
    }

    /// The same mail carrying `attachment` too (none: unchanged).
    pub fn carrying(mut self, attachment: Option<&Attachment>) -> OutMail {
        self.attachments.extend(attachment.cloned());
        self
    }
}

/// `corbeau.<128 random bits>@<domain>`: unique, and nothing in it links one mail to
/// another — no time, no counter — so that two mails queued together (a grey press and
/// the reply to its author) cannot be matched by their ids (docs/email.md, "Press").
///
/// `now` is not used, on purpose: it is kept so that callers need not change.
pub fn new_message_id(domain: &str, now: DateTime<Utc>) -> String {
    let _ = now;
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // Without the system's randomness (never seen on Linux), a counter hashed with
        // std's per-process random keys: still unique, and not readable as a counter.
        use std::hash::BuildHasher;
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let state = std::collections::hash_map::RandomState::new();
        bytes[..8].copy_from_slice(&state.hash_one(n).to_be_bytes());
        bytes[8..].copy_from_slice(&state.hash_one(!n).to_be_bytes());
    }
    let random: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("corbeau.{random}@{domain}")
}

// Process-wide, and safe so: it only makes each fallback id differ from the others.
static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The domain part of the judge's address (`localhost` if it has none).
pub fn domain_of(address: &str) -> &str {
    address
        .rsplit_once('@')
        .map(|(_, d)| d.trim_end_matches('>'))
        .filter(|d| !d.is_empty())
        .unwrap_or("localhost")
}
