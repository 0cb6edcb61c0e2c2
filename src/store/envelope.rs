//! A mail waiting in the outbox, as the store keeps it: its recipient, its headers and its
//! MIME body as bytes, and where its sending stands. The store reads none of it: the mail
//! layer writes the headers and body when it queues the mail, and its transport sends them
//! (docs/storage.md, "The outbox").

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One mail to one recipient (one address per mail, so that no player ever sees another's
/// address).
///
/// What is known only when the mail is sent is not here: `From` and `Reply-To` (the
/// judge's address as configured then), and the `To`, `Message-ID` and `Date` headers,
/// which the transport writes from [`Envelope::to`], [`Envelope::message_id`] and
/// [`Envelope::queued`] (docs/email.md, "What the outbox keeps").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// The Message-ID, without angle brackets; stable across retries, so that a mail sent
    /// twice after a crash is recognised by mail clients as one.
    pub message_id: String,
    /// The one recipient's address.
    pub to: String,
    /// The game it is about, if any: the moderator told when it cannot be delivered.
    #[serde(default)]
    pub game: Option<String>,
    /// When it was queued (its `Date`).
    pub queued: DateTime<Utc>,
    /// Every other header, in order, by name and value: values as UTF-8 text, not yet
    /// encoded for the wire (the transport encodes them, RFC 2047).
    pub headers: Vec<(String, String)>,
    /// The body as it follows the headers: text with CRLF line ends, or a MIME multipart.
    pub body: BodyBytes,
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
    /// Stretches of the body other mails carry too (a results picture, in every mail of
    /// its game's results): where each lies in the body and the key of what it holds. The
    /// store keeps each once for all its mails (docs/storage.md, "The outbox").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<Shared>,
}

/// A stretch of a mail's body that other mails may carry too: `len` bytes from `at`,
/// whose content is known by `key` (the mail layer's: [`piece_key`] of what it encodes
/// and the stretch's length). Two stretches of one key hold the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shared {
    pub at: usize,
    pub len: usize,
    pub key: String,
}

/// The key of a piece the outbox keeps once: the digest of the bytes it encodes (a
/// picture's PNG), 32 bytes of BLAKE2b in hex. Two mails whose stretches have one key
/// carry the same bytes, encoded alike.
pub fn piece_key(bytes: &[u8]) -> String {
    use blake2::Digest as _;
    use std::fmt::Write as _;
    let digest = blake2::Blake2b::<blake2::digest::consts::U32>::digest(bytes);
    let mut key = String::with_capacity(64);
    for byte in digest {
        let _ = write!(key, "{byte:02x}");
    }
    key
}

impl Envelope {
    /// The value of the first header of this name (case-insensitive), as queued.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A body's bytes, kept in the stored JSON as a string when they are UTF-8 (a mail's text,
/// base64 parts: always, for the judge's own mails), so that they stay readable and take
/// no more room than they do; as base64 otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BodyBytes(pub Vec<u8>);

impl BodyBytes {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum StoredBody {
    Text(String),
    Bytes { base64: String },
}

impl Serialize for BodyBytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use base64::Engine as _;
        match std::str::from_utf8(&self.0) {
            Ok(text) => StoredBody::Text(text.to_string()),
            Err(_) => StoredBody::Bytes {
                base64: base64::engine::general_purpose::STANDARD.encode(&self.0),
            },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for BodyBytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<BodyBytes, D::Error> {
        use base64::Engine as _;
        match StoredBody::deserialize(deserializer)? {
            StoredBody::Text(text) => Ok(BodyBytes(text.into_bytes())),
            StoredBody::Bytes { base64 } => base64::engine::general_purpose::STANDARD
                .decode(base64.as_bytes())
                .map(BodyBytes)
                .map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_stored_as_text_when_it_is_utf8_and_as_base64_otherwise() {
        let text = BodyBytes(b"Ordres re\xc3\xa7us\r\n".to_vec());
        let json = serde_json::to_string(&text).unwrap();
        assert_eq!(json, "\"Ordres reçus\\r\\n\"");
        assert_eq!(serde_json::from_str::<BodyBytes>(&json).unwrap(), text);
        let bytes = BodyBytes(vec![0xff, 0, 1]);
        let json = serde_json::to_string(&bytes).unwrap();
        assert_eq!(json, "{\"base64\":\"/wAB\"}");
        assert_eq!(serde_json::from_str::<BodyBytes>(&json).unwrap(), bytes);
    }
}
