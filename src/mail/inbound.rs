//! One raw RFC 5322 message (as an MTA pipe or a Maildir gives it) read into what the
//! judge needs: who sent it, its ids for deduplication and threading, and its body as
//! clean text, quoted replies, signatures and footers removed.
//!
//! What is kept and what is removed, and the mail clients whose shapes are tested:
//! docs/email-ingest.md.

mod body;
pub mod bounce;
mod clean;
mod html;

use crate::config::SpamHeader;
use crate::say;
use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders, PartType};

/// What the judge keeps of a received mail.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inbound {
    /// The Message-ID without angle brackets; when the message has none, an id made from
    /// a hash of its bytes, so that the same bytes delivered twice still count once.
    pub message_id: String,
    /// The sender's address (Reply-To if present, else From), lower-cased.
    pub from: crate::game::Address,
    /// The sender's display name, if any.
    pub name: Option<String>,
    pub subject: String,
    /// The References of the message (without brackets), for threading the answer.
    pub references: Vec<String>,
    /// The body as text: the text part (or the HTML one turned into text), decoded, with
    /// quoted lines, attribution lines, signatures and client footers removed.
    pub body: String,
    /// Names (or types) of the attachments, which are ignored.
    pub attachments: Vec<String>,
    /// The size of the raw message in bytes.
    pub size: usize,
    /// The message is larger than the limit: its body was not read (empty).
    pub too_large: bool,
    /// An automatic message (bounce, auto-reply, list traffic): never answered, so that
    /// two robots cannot answer each other forever.
    pub automatic: bool,
    /// Every address the message claims to come from (From, Sender, Reply-To),
    /// lower-cased: mail from the judge's own address is never answered, whichever of
    /// them holds it.
    pub authors: Vec<String>,
    /// The delivery failure it reports, if it is a bounce (never answered).
    pub bounce: Option<bounce::Bounce>,
    /// The header by which the mail server's filter marked it as spam (`[mail]
    /// spam_headers`), as the mail writes its name: neither answered nor carried out.
    pub spam: Option<String>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum InboundError {
    /// Without a sender address nobody can be answered.
    #[error("the message has no sender address (From)")]
    NoSender,
    /// Not an email: not one header field could be read.
    #[error("the message cannot be read as an email")]
    Unreadable,
}

impl InboundError {
    /// The reason for the moderator, in their language.
    pub fn message(&self, lang: crate::lang::Lang) -> String {
        match self {
            InboundError::NoSender => say!(lang, "inbound.the_message_has_no_sender"),
            InboundError::Unreadable => say!(lang, "inbound.the_message_cannot_be_read"),
        }
    }
}

/// Reads a raw message; `limit` is the largest size (in bytes) whose body is read.
///
/// A message over the limit is read as far as its headers only (sender, ids, subject,
/// whether it is automatic), which is enough to answer it that it was too large; its
/// body and attachments stay empty.
pub fn read(raw: &[u8], limit: usize) -> Result<Inbound, InboundError> {
    read_sized(raw, raw.len(), limit, &SpamHeader::defaults())
}

/// [`read`] for a message of `size` bytes of which `raw` holds the beginning: a message
/// over the limit is read no further than its headers need, so that its size costs no
/// memory (see `maildir::read_capped`). A header of `spam` marks it as spam.
pub fn read_sized(
    raw: &[u8],
    size: usize,
    limit: usize,
    spam: &[SpamHeader],
) -> Result<Inbound, InboundError> {
    let too_large = size.max(raw.len()) > limit;
    let message = parse(raw, too_large).ok_or(InboundError::Unreadable)?;
    // mail-parser makes a message of any bytes, taking a first line of text for a header
    // named `hello world`; without one well-formed header field it is not mail.
    if !message
        .headers()
        .iter()
        .any(|h| is_field_name(h.name.as_str()))
    {
        return Err(InboundError::Unreadable);
    }
    let (from, name) = sender(&message)?;
    let (body, attachments) = if too_large {
        (String::new(), Vec::new())
    } else {
        (clean::clean(&body::text(&message)), attachments(&message))
    };
    let automatic = is_automatic(&message, &from);
    let bounce = if too_large {
        None
    } else {
        bounce::read(&message, automatic)
    };
    Ok(Inbound {
        message_id: message_id(&message, raw),
        automatic: automatic || bounce.is_some(),
        authors: authors(&message),
        bounce,
        spam: spam_mark(&message, raw, spam),
        from: from.into(),
        name,
        subject: message.subject().map(one_line).unwrap_or_default(),
        references: references(&message),
        body,
        attachments,
        size: size.max(raw.len()),
        too_large,
    })
}

/// The message as mail-parser reads it; only the headers when `headers_only`.
///
/// mail-parser never panics on bad input in a release build, but on some broken MIME
/// structures it trips its own `debug_assert!`s (found by tests/inbound.rs, damaging the
/// corpus): catching the panic keeps `read`'s promise in every build, and such a
/// message is unreadable anyway.
fn parse(raw: &[u8], headers_only: bool) -> Option<Message<'_>> {
    let parser = MessageParser::default();
    std::panic::catch_unwind(|| {
        if headers_only {
            parser.parse_headers(raw)
        } else {
            parser.parse(raw)
        }
    })
    .ok()
    .flatten()
}

/// RFC 5322 3.6.8: printable ASCII but the colon, at least one character.
fn is_field_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':')
}

/// The address to answer and its display name: Reply-To when it holds a usable address
/// (the sender asked for answers there), else From.
fn sender(message: &Message<'_>) -> Result<(String, Option<String>), InboundError> {
    let from = message.from().and_then(mailbox);
    let Some((address, name)) = message.reply_to().and_then(mailbox).or(from.clone()) else {
        return Err(InboundError::NoSender);
    };
    // A Reply-To without a name borrows From's only when it is the same mailbox: another
    // address's name would be a guess.
    let name = name.or_else(|| from.filter(|(a, _)| *a == address).and_then(|(_, n)| n));
    Ok((address, name))
}

/// Every usable address of From, Sender and Reply-To, once each.
fn authors(message: &Message<'_>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    let headers = [message.from(), message.sender(), message.reply_to()];
    for header in headers.into_iter().flatten() {
        for address in header.iter().filter_map(|a| a.address()) {
            if let Some(address) = bare_address(address)
                && !all.contains(&address)
            {
                all.push(address);
            }
        }
    }
    all
}

/// The first usable mailbox of an address header, as (lower-cased address, name).
fn mailbox(header: &Address<'_>) -> Option<(String, Option<String>)> {
    header.iter().find_map(|addr| {
        let address = bare_address(addr.address()?)?;
        let name = addr.name().map(one_line).filter(|n| !n.is_empty());
        Some((address, name))
    })
}

/// `local@domain`, lower-cased; `None` for anything a reply could not be sent to.
fn bare_address(address: &str) -> Option<String> {
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    let (local, domain) = address.rsplit_once('@')?;
    let usable = !local.is_empty()
        && !domain.is_empty()
        && !address
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"".contains(c));
    usable.then(|| address.to_lowercase())
}

/// A header text on one line with its runs of spaces collapsed: subjects and names are
/// shown back to players and written into reply headers.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first header of the message that one of `rules` reads as spam, by its name.
fn spam_mark(message: &Message<'_>, raw: &[u8], rules: &[SpamHeader]) -> Option<String> {
    message.headers().iter().find_map(|header| {
        let name = header.name.as_str();
        let value = raw
            .get(header.offset_start as usize..header.offset_end as usize)
            .unwrap_or_default();
        let value = String::from_utf8_lossy(value);
        rules
            .iter()
            .any(|rule| rule.marks(name, &value))
            .then(|| name.to_string())
    })
}

/// Message-ids of a header, without brackets, in order.
fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    let raw: Vec<&str> = match value {
        HeaderValue::Text(id) => vec![id.as_ref()],
        HeaderValue::TextList(list) => list.iter().map(|id| id.as_ref()).collect(),
        _ => Vec::new(),
    };
    raw.into_iter()
        .map(|id| id.trim().trim_start_matches('<').trim_end_matches('>'))
        .filter(|id| !id.is_empty() && !id.chars().any(|c| c.is_whitespace() || c.is_control()))
        .map(str::to_owned)
        .collect()
}

fn message_id(message: &Message<'_>, raw: &[u8]) -> String {
    let given = message
        .header("Message-ID")
        .map(ids)
        .and_then(|ids| ids.into_iter().next());
    given.unwrap_or_else(|| format!("nomsgid.{:016x}@corbeau", fingerprint(message, raw)))
}

/// Header fields each relay or delivery adds: two deliveries of one mail differ only
/// there, so they are left out of the fingerprint.
const TRACE_FIELDS: &[&str] = &[
    "received",
    "return-path",
    "delivered-to",
    "x-original-to",
    "envelope-to",
    "authentication-results",
    "received-spf",
    "arc-seal",
    "arc-message-signature",
    "arc-authentication-results",
];

/// A hash of the message without its trace fields. FNV-1a rather than std's
/// `DefaultHasher`, whose algorithm may change between Rust releases: an id stored
/// before an upgrade must still match the same mail delivered again after it.
fn fingerprint(message: &Message<'_>, raw: &[u8]) -> u64 {
    let mut hash = Fnv::default();
    for header in message.headers() {
        let name = header.name.as_str().to_ascii_lowercase();
        if TRACE_FIELDS.contains(&name.as_str()) || name.starts_with("x-spam") {
            continue;
        }
        let value = raw
            .get(header.offset_start as usize..header.offset_end as usize)
            .unwrap_or_default();
        hash.write(name.as_bytes());
        hash.write(b":");
        hash.write(value.trim_ascii());
        hash.write(b"\n");
    }
    hash.write(raw.get(body_start(raw)..).unwrap_or_default());
    hash.0
}

/// Where the body begins: after the first empty line (LF or CRLF endings alike).
fn body_start(raw: &[u8]) -> usize {
    let mut at = 0;
    for line in raw.split_inclusive(|&b| b == b'\n') {
        at += line.len();
        if line == b"\n" || line == b"\r\n" {
            return at;
        }
    }
    raw.len()
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// References, then In-Reply-To when References does not already name it (some clients
/// send only In-Reply-To).
fn references(message: &Message<'_>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for id in ids(message.references())
        .into_iter()
        .chain(ids(message.in_reply_to()))
    {
        if !all.contains(&id) {
            all.push(id);
        }
    }
    all
}

/// Whether the message was sent by a program rather than a person (RFC 3834 and the
/// headers mail systems actually send), so that the judge does not answer it.
fn is_automatic(message: &Message<'_>, sender: &str) -> bool {
    let text = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    let has = |name: &str| message.header(name).is_some();
    // `Auto-Submitted: auto-replied (vacation)` or `…; owner-email=…`: the keyword alone.
    let auto_submitted = text("Auto-Submitted").is_some_and(|v| {
        let keyword = v.split([';', '(', ' ', '\t']).next().unwrap_or_default();
        !keyword.is_empty() && keyword != "no"
    });
    let precedence = text("Precedence").is_some_and(|v| {
        matches!(
            v.as_str(),
            "bulk" | "junk" | "list" | "auto_reply" | "auto-reply"
        )
    });
    // An empty reverse path is how bounces and other notifications are sent (RFC 5321 4.5.5).
    let null_return_path = text("Return-Path").is_some_and(|v| {
        let path = v.trim_start_matches('<').trim_end_matches('>').trim();
        path.is_empty() || path == "mailer-daemon"
    });
    let robot_from = message
        .from()
        .into_iter()
        .chain(message.sender())
        .flat_map(|header| header.iter())
        .filter_map(|addr| addr.address())
        .chain([sender])
        .any(is_robot_address);
    let report = message.root_part().content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    auto_submitted
        || precedence
        || null_return_path
        || robot_from
        || report
        // Mailing-list traffic (RFC 2919, RFC 2369): a list must not hear from the judge.
        // Not `X-Auto-Response-Suppress` alone: Outlook puts it on a person's own mail too
        // (it asks servers for no out-of-office replies), and that mail must be answered;
        // an unmarked robot is stopped by the reply cap instead.
        || has("List-Id")
        || has("List-Unsubscribe")
        || has("List-Post")
        || has("X-Autoreply")
        || has("X-Autorespond")
        || has("X-Autoreply-From")
        || has("X-Mail-Autoreply")
        || has("X-Loop")
}

/// The local parts robots send from: bounces, and the addresses that read no answer.
fn is_robot_address(address: &str) -> bool {
    let local = address
        .rsplit_once('@')
        .map_or(address, |(l, _)| l)
        .to_ascii_lowercase();
    matches!(
        local.as_str(),
        "mailer-daemon" | "postmaster" | "noreply" | "no-reply" | "donotreply" | "do-not-reply"
    ) || local.starts_with("owner-")
        || local.ends_with("-request")
        || local.ends_with("-bounces")
}

/// The attachments' file names, or their content types when they have none.
fn attachments(message: &Message<'_>) -> Vec<String> {
    message
        .attachments()
        .map(|part| {
            part.attachment_name()
                .map(|name| one_line(&name.replace(|c: char| c.is_control(), " ")))
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| content_type(part))
        })
        .collect()
}

fn content_type(part: &mail_parser::MessagePart<'_>) -> String {
    match part.content_type() {
        Some(ct) => match ct.subtype() {
            Some(sub) => format!("{}/{}", ct.ctype(), sub).to_ascii_lowercase(),
            None => ct.ctype().to_ascii_lowercase(),
        },
        None if matches!(part.body, PartType::Message(_)) => "message/rfc822".to_owned(),
        None => "text/plain".to_owned(),
    }
}
