//! Delivery failures reported back to the judge: RFC 3464 delivery-status notifications
//! (what Postfix, Exim, Exchange and Gmail send) and the older plain-text bounces (qmail's
//! "failure notice", a returned copy of the message under a line of dashes).
//!
//! What is read is only a claim: anyone can forge a bounce. The dispatcher acts on it only
//! when it names a player's address, and then only flags that address and tells the
//! moderator (docs/email.md, "Bounces").

use mail_parser::{Message, MessageParser, MimeHeaders, PartType};

/// At most this many failed recipients are read from one report: a judge's mail has one
/// recipient, so more is a forgery or somebody else's report.
const MAX_RECIPIENTS: usize = 8;

/// The longest reason kept (a diagnostic can run to kilobytes).
const MAX_REASON: usize = 200;

/// A report that a mail could not be delivered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bounce {
    /// The addresses that failed for good (Final-Recipient, Original-Recipient, or the
    /// To of the returned message), lower-cased.
    pub recipients: Vec<String>,
    /// The Message-ID of the returned message, when it is given (without brackets): a
    /// mail of the judge's has one at the judge's domain.
    pub message_id: Option<String>,
    /// The `X-Corbeau-Game` of the returned message, if any.
    pub game: Option<String>,
    /// Why, as the report says it (status and diagnostic, one line).
    pub reason: String,
    /// An RFC 3464 report (machine-readable recipients), not a guess from text.
    pub standard: bool,
}

/// The failure a message reports, if it is a bounce; `automatic` says whether the message
/// was sent by a program (a plain-text bounce is only looked for in those).
pub fn read(message: &Message<'_>, automatic: bool) -> Option<Bounce> {
    let mut bounce = Bounce::default();
    let mut report = false;
    // The returned copy's recipient: the failed address only when no report says which.
    let mut returned_to = None;
    for part in &message.parts {
        let Some(ct) = part.content_type() else {
            continue;
        };
        let ctype = ct.ctype().to_ascii_lowercase();
        let subtype = ct.subtype().unwrap_or_default().to_ascii_lowercase();
        match (ctype.as_str(), subtype.as_str()) {
            ("message", "delivery-status" | "global-delivery-status") => {
                report = true;
                if let Some(text) = part.text_contents() {
                    delivery_status(text, &mut bounce);
                }
            }
            ("message", "rfc822" | "global") => {
                if let PartType::Message(returned) = &part.body {
                    returned_headers(returned, &mut bounce, &mut returned_to);
                }
            }
            ("text", "rfc822-headers" | "global-headers") => {
                if let Some(text) = part.text_contents()
                    && let Some(headers) = MessageParser::default().parse_headers(text.as_bytes())
                {
                    returned_headers(&headers, &mut bounce, &mut returned_to);
                }
            }
            _ => {}
        }
    }
    if report {
        bounce.standard = true;
        // A report of a delay or of a delivery is no failure.
        if bounce.recipients.is_empty() {
            return None;
        }
        return Some(finish(bounce));
    }
    if !automatic || !looks_like_bounce(message) {
        return None;
    }
    // A plain-text bounce: the returned copy is an attachment, read above, or inline text.
    bounce.recipients.extend(returned_to);
    if bounce.recipients.is_empty() {
        for part in &message.parts {
            if let PartType::Text(text) = &part.body {
                inline_copy(text, &mut bounce);
            }
        }
    }
    if bounce.reason.is_empty() {
        bounce.reason = message
            .parts
            .iter()
            .filter_map(|part| match &part.body {
                PartType::Text(text) => text.lines().find(|l| says_permanent(l)),
                _ => None,
            })
            .next()
            .or(message.subject())
            .unwrap_or_default()
            .to_string();
    }
    (!bounce.recipients.is_empty()).then(|| finish(bounce))
}

fn finish(mut bounce: Bounce) -> Bounce {
    bounce.recipients.truncate(MAX_RECIPIENTS);
    let reason = bounce
        .reason
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    bounce.reason = reason.chars().take(MAX_REASON).collect();
    bounce
}

/// A line of a plain-text bounce that gives the reason: it holds an SMTP 5xx code
/// (`550`) or an enhanced status code (`5.1.1`, qmail's `#5.1.1`).
fn says_permanent(line: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|word| {
            let word = word.trim_end_matches('.');
            let bytes = word.as_bytes();
            let smtp = bytes.len() == 3 && bytes[0] == b'5' && bytes.iter().all(u8::is_ascii_digit);
            let parts: Vec<&str> = word.split('.').collect();
            let enhanced = parts.len() == 3
                && parts[0] == "5"
                && parts[1..].iter().all(|p| {
                    !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit())
                });
            smtp || enhanced
        })
}

/// A non-standard bounce says so in its sender or subject.
fn looks_like_bounce(message: &Message<'_>) -> bool {
    let from = message
        .from()
        .and_then(|f| f.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let local = from.split('@').next().unwrap_or_default();
    let subject = message.subject().unwrap_or_default().to_lowercase();
    matches!(local, "mailer-daemon" | "postmaster")
        || [
            "undeliver",
            "undelivered",
            "delivery status notification",
            "delivery failure",
            "failure notice",
            "returned mail",
            "mail delivery failed",
            "non remis",
            "non distribuable",
            "échec de la remise",
        ]
        .iter()
        .any(|s| subject.contains(s))
}

/// Header fields as `(name in lower case, value)`, up to the first blank line; a folded
/// line continues the field before. For the few fields read without a full parse (a
/// delivery-status block, the head of a mail that killed the judge).
pub(crate) fn header_fields<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in lines.map(|l| l.trim_end_matches('\r')) {
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = fields.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            fields.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    fields
}

/// The per-recipient fields of a delivery-status part (RFC 3464 2.3): blocks of fields
/// separated by blank lines, the first block being about the message.
fn delivery_status(text: &str, bounce: &mut Bounce) {
    for block in text.replace("\r\n", "\n").split("\n\n") {
        let fields = header_fields(block.trim_start().lines());
        let field = |name: &str| {
            fields
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let status = field("status").unwrap_or_default();
        let failed = match field("action") {
            Some(action) => action.trim().eq_ignore_ascii_case("failed"),
            None => status.starts_with('5'),
        };
        if !failed {
            continue;
        }
        let addresses = [field("final-recipient"), field("original-recipient")];
        for address in addresses.into_iter().flatten().filter_map(typed_address) {
            if !bounce.recipients.contains(&address) {
                bounce.recipients.push(address);
            }
        }
        if bounce.reason.is_empty() {
            let diagnostic = field("diagnostic-code").map(strip_type).unwrap_or_default();
            bounce.reason = format!("{status} {diagnostic}").trim().to_string();
        }
    }
}

/// `rfc822; someone@example.org` → the address.
fn typed_address(value: &str) -> Option<String> {
    address(strip_type(value))
}

/// `smtp; 550 …` → `550 …`.
fn strip_type(value: &str) -> &str {
    value.split_once(';').map_or(value, |(_, v)| v).trim()
}

fn address(text: &str) -> Option<String> {
    let text = text
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    let (local, domain) = text.rsplit_once('@')?;
    let usable = !local.is_empty()
        && domain.contains('.')
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"".contains(c));
    usable.then(|| text.to_lowercase())
}

/// The returned message's recipient, id and game.
fn returned_headers(returned: &Message<'_>, bounce: &mut Bounce, to: &mut Option<String>) {
    if bounce.message_id.is_none() {
        bounce.message_id = returned.message_id().map(str::to_string);
    }
    if bounce.game.is_none() {
        bounce.game = returned
            .header_raw("X-Corbeau-Game")
            .map(|g| g.trim().to_string())
            .filter(|g| !g.is_empty());
    }
    // The judge's mails have one recipient: without a report, the one that failed.
    if to.is_none() {
        *to = returned
            .to()
            .and_then(|t| t.first())
            .and_then(|a| a.address())
            .and_then(address);
    }
}

/// A copy of the message quoted in the text (qmail: after "--- Below this line is a copy
/// of the message."): its To, Message-ID and game, read from the first header block that
/// holds them.
fn inline_copy(text: &str, bounce: &mut Bounce) {
    let mut to = None;
    for line in text.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "to" if to.is_none() => to = address(value),
            "message-id" if bounce.message_id.is_none() => {
                let id = value.trim_start_matches('<').trim_end_matches('>').trim();
                if !id.is_empty() && !id.contains(char::is_whitespace) {
                    bounce.message_id = Some(id.to_string());
                }
            }
            "x-corbeau-game" if bounce.game.is_none() && !value.is_empty() => {
                bounce.game = Some(value.to_string());
            }
            _ => {}
        }
    }
    if let Some(to) = to
        && !bounce.recipients.contains(&to)
    {
        bounce.recipients.push(to);
    }
}
