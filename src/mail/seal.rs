//! An [`OutMail`] made into the store's [`Envelope`] when it is queued (headers and MIME
//! body bytes), and read back for `corbeau outbox` and the tests; the body of an envelope
//! made 7-bit for the wire when it is sent (docs/email.md, "What the outbox keeps").

use std::ops::Range;

use lettre::message::header::{ContentTransferEncoding, ContentType, Header, HeaderName};
use lettre::message::{Body, MultiPart, SinglePart};
use mail_parser::{MessageParser, MimeHeaders};

use super::outmail::{Attachment, Media, OutMail};
use crate::service::{BodyBytes, Envelope, Shared};

impl OutMail {
    /// The mail as the outbox keeps it: every header the mail decides (subject, thread,
    /// game, MIME), the text in 8 bits when it can be (so that a mail of the outbox folder
    /// reads as it is with `less`), the pictures after it in a multipart/mixed. The
    /// transport adds From, Reply-To, To, Date and Message-ID when it sends.
    pub fn seal(&self) -> Envelope {
        let mut headers = vec![("Subject".to_string(), self.subject.clone())];
        let parent = self.in_reply_to.as_deref().filter(|id| is_message_id(id));
        if let Some(parent) = parent {
            headers.push(("In-Reply-To".into(), angle(parent)));
        }
        let references: Vec<String> = self
            .references
            .iter()
            .filter(|id| is_message_id(id))
            .map(|id| angle(id))
            .collect();
        if !references.is_empty() {
            headers.push(("References".into(), references.join(" ")));
        }
        // Every mail of the judge is sent by a program (RFC 3834): a vacation responder or
        // another robot must not answer it, which is what keeps two robots from writing to
        // each other for ever. A person still answers it as any mail.
        headers.push(("Auto-Submitted".into(), self.auto_submitted().into()));
        if let Some(game) = &self.game {
            headers.push(("X-Corbeau-Game".into(), game.clone()));
        }
        headers.push(("MIME-Version".into(), "1.0".into()));
        let text = eight_bit(&self.body).unwrap_or_else(|| Body::new(self.body.clone()));
        let mut shared = Vec::new();
        let body = if self.attachments.is_empty() {
            // A raw body rather than a MIME single part: lettre ends a part with an extra
            // blank line, which the player would see.
            headers.push(("Content-Type".into(), "text/plain; charset=utf-8".into()));
            headers.push((
                "Content-Transfer-Encoding".into(),
                text.encoding().to_string(),
            ));
            text.into_vec()
        } else {
            // The text first, so that a client that shows only the first part (or a reader
            // who never opens the picture) has the whole of it; the pictures inline, with a
            // name for saving them.
            let mut parts = MultiPart::mixed().singlepart(
                SinglePart::builder()
                    .header(ContentType::TEXT_PLAIN)
                    .body(text),
            );
            for attachment in &self.attachments {
                parts = parts.singlepart(
                    SinglePart::builder()
                        .header(PartType(format!(
                            "{}; name=\"{}\"",
                            attachment.media.mime(),
                            clean_name(&attachment.name)
                        )))
                        .header(InlineFile(attachment.name.clone()))
                        .body(Body::new(attachment.bytes.clone())),
                );
            }
            headers.push((
                "Content-Type".into(),
                format!("multipart/mixed; boundary=\"{}\"", parts.boundary()),
            ));
            let formatted = parts.formatted();
            // After the multipart's own headers (its Content-Type, written above).
            let body = match find(&formatted, b"\r\n\r\n") {
                Some(at) => formatted[at + 4..].to_vec(),
                None => formatted,
            };
            let contents = later_parts(&body, &parts.boundary());
            if contents.len() == self.attachments.len() {
                shared = contents
                    .into_iter()
                    .zip(&self.attachments)
                    .map(|(range, attachment)| Shared {
                        at: range.start,
                        len: range.len(),
                        // With its length: should another version encode these bytes
                        // otherwise while mails wait, the two encodings are two pieces.
                        key: format!("{}-{}", attachment.key(), range.len()),
                    })
                    .collect();
            }
            body
        };
        Envelope {
            message_id: self.message_id.clone(),
            to: self.to.clone(),
            game: self.game.clone(),
            queued: self.queued,
            headers,
            body: BodyBytes(body),
            attempts: 0,
            next_try: None,
            last_error: None,
            failed: false,
            shared,
        }
    }

    /// A queued mail read back: its subject, thread and game from the headers, its text
    /// and pictures from the body (what `corbeau outbox` lists; what tests compare).
    pub fn open(envelope: &Envelope) -> OutMail {
        let mut raw = Vec::new();
        for (name, value) in &envelope.headers {
            if name.to_ascii_lowercase().starts_with("content-") {
                raw.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
        }
        raw.extend_from_slice(b"\r\n");
        raw.extend_from_slice(envelope.body.as_bytes());
        let parsed = MessageParser::default().parse(&raw);
        let body = parsed
            .as_ref()
            .and_then(|m| m.body_text(0))
            .map(|t| t.replace("\r\n", "\n"))
            .unwrap_or_default();
        let attachments = parsed
            .as_ref()
            .map(|m| {
                m.attachments()
                    .filter_map(|part| {
                        let media = part
                            .content_type()
                            .filter(|t| {
                                t.ctype().eq_ignore_ascii_case("image")
                                    && t.subtype().is_some_and(|s| s.eq_ignore_ascii_case("png"))
                            })
                            .map(|_| Media::Png)?;
                        Some(Attachment::read(
                            part.attachment_name().unwrap_or_default().to_string(),
                            media,
                            part.contents().to_vec(),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let unangle = |id: &str| {
            id.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        };
        OutMail {
            message_id: envelope.message_id.clone(),
            to: envelope.to.clone(),
            subject: envelope.header("Subject").unwrap_or_default().to_string(),
            body,
            in_reply_to: envelope.header("In-Reply-To").map(unangle),
            references: envelope
                .header("References")
                .map(|r| r.split_whitespace().map(unangle).collect())
                .unwrap_or_default(),
            game: envelope.game.clone(),
            queued: envelope.queued,
            attempts: envelope.attempts,
            next_try: envelope.next_try,
            last_error: envelope.last_error.clone(),
            failed: envelope.failed,
            attachments,
        }
    }
}

/// The headers and body of `envelope` as they go on the wire: every 8-bit text (the body
/// of a plain mail, the text part of a multipart) encoded as lettre finds best (7 bits or
/// quoted-printable), since not every server takes 8BITMIME.
pub(super) fn seven_bit(envelope: &Envelope) -> (Vec<(String, String)>, Vec<u8>) {
    let mut headers = envelope.headers.clone();
    let body = envelope.body.as_bytes();
    let Ok(text) = std::str::from_utf8(body) else {
        return (headers, body.to_vec());
    };
    if let Some((_, cte)) = headers
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Transfer-Encoding"))
    {
        if cte.trim().eq_ignore_ascii_case("8bit") {
            let wire = Body::new(text.replace("\r\n", "\n"));
            *cte = wire.encoding().to_string();
            return (headers, wire.into_vec());
        }
        return (headers, body.to_vec());
    }
    let boundary = envelope
        .header("Content-Type")
        .and_then(|ct| ct.split_once("boundary="))
        .map(|(_, b)| b.trim().trim_matches('"').to_string());
    let Some(boundary) = boundary else {
        return (headers, body.to_vec());
    };
    let delimiter = format!("--{boundary}\r\n");
    let closing = format!("\r\n--{boundary}--");
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split(delimiter.as_str()).enumerate() {
        if i > 0 {
            out.push_str(&delimiter);
        }
        out.push_str(&seven_bit_part(part, &closing));
    }
    (headers, out.into_bytes())
}

/// One part of a multipart (its headers, a blank line, its body and the CRLF before the
/// next delimiter), with an 8-bit body re-encoded.
fn seven_bit_part(part: &str, closing: &str) -> String {
    let Some((head, rest)) = part.split_once("\r\n\r\n") else {
        return part.to_string();
    };
    let eight = head.lines().any(|line| {
        line.split_once(':').is_some_and(|(n, v)| {
            n.trim().eq_ignore_ascii_case("Content-Transfer-Encoding")
                && v.trim().eq_ignore_ascii_case("8bit")
        })
    });
    if !eight {
        return part.to_string();
    }
    // The part's body ends with the CRLF that belongs to the next delimiter (lettre writes
    // it after every part); a last part is followed by the closing delimiter.
    let (content, after) = match rest.rfind(closing) {
        Some(at) => rest.split_at(at),
        None => match rest.strip_suffix("\r\n") {
            Some(content) => (content, "\r\n"),
            None => (rest, ""),
        },
    };
    let wire = Body::new(content.replace("\r\n", "\n"));
    let head: Vec<String> = head
        .split("\r\n")
        .map(|line| match line.split_once(':') {
            Some((n, _)) if n.trim().eq_ignore_ascii_case("Content-Transfer-Encoding") => {
                format!("{n}: {}", wire.encoding())
            }
            _ => line.to_string(),
        })
        .collect();
    format!(
        "{}\r\n\r\n{}{after}",
        head.join("\r\n"),
        String::from_utf8_lossy(&wire.into_vec())
    )
}

/// Where the content of each part after the first lies in the multipart `body` of
/// `boundary`, as lettre writes it: a delimiter line, the part's headers, a blank line,
/// its content, then CRLF and the next delimiter (the last one closing).
fn later_parts(body: &[u8], boundary: &str) -> Vec<Range<usize>> {
    let delimiter = format!("\r\n--{boundary}");
    let ends: Vec<usize> = memchr::memmem::find_iter(body, delimiter.as_bytes()).collect();
    ends.windows(2)
        .filter_map(|pair| {
            let part = pair[0] + delimiter.len()..pair[1];
            let blank = memchr::memmem::find(&body[part.clone()], b"\r\n\r\n")?;
            Some(part.start + blank + 4..pair[1])
        })
        .collect()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The text as an 8-bit body, CRLF-ended, when every line fits RFC 5322's 998 bytes
/// (lettre's own choice stops at 76, which would turn most results to quoted-printable).
fn eight_bit(text: &str) -> Option<Body> {
    let clean = !text.contains(['\r', '\0']) && text.lines().all(|l| l.len() <= 998);
    clean.then(|| {
        let crlf = text.replace('\n', "\r\n");
        Body::dangerous_pre_encoded(crlf.into_bytes(), ContentTransferEncoding::EightBit)
    })
}

fn angle(id: &str) -> String {
    format!("<{id}>")
}

/// An id another mail client wrote may hold anything; one that would not survive in a
/// header as an id is left out rather than sent encoded (the thread is only cosmetic).
pub(super) fn is_message_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 250
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

/// A file name as it may stand between quotes in a header.
fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        .collect()
}

/// A part's `Content-Type` with the file's name (some clients read it only there).
#[derive(Debug, Clone)]
struct PartType(String);

impl Header for PartType {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Content-Type")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(PartType(s.to_string()))
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `Content-Disposition: inline; filename="…"`, written plainly: lettre's own writes the
/// RFC 2231 form (`filename*0=`), which some mail clients do not read. The judge's file
/// names need no encoding (ASCII letters, digits, dashes: `outmail::file_name`).
#[derive(Debug, Clone)]
struct InlineFile(String);

impl Header for InlineFile {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Content-Disposition")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(InlineFile(s.to_string()))
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(
            Self::name(),
            format!("inline; filename=\"{}\"", clean_name(&self.0)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::from_timestamp(1_795_000_000, 0).unwrap()
    }

    #[test]
    fn a_mail_sealed_and_opened_is_the_same_mail() {
        let mail = OutMail::new(
            "exemple.fr",
            "stark@example.org",
            "Ordres reçus — Winterfell".into(),
            "Vos ordres :\nA win -> mot\n\nÀ bientôt.\n".into(),
            at(),
        )
        .answering(Some("CAF+1@mail.example.org"), &["first@x.org".into()])
        .about("westeros-1");
        let envelope = mail.seal();
        assert_eq!(OutMail::open(&envelope), mail);
        let with_picture = mail.clone().carrying(Some(&Attachment::png(
            "westeros 1",
            vec![0x89, b'P', 0, 255],
        )));
        let envelope = with_picture.seal();
        assert!(
            envelope
                .header("Content-Type")
                .unwrap()
                .starts_with("multipart/mixed")
        );
        assert_eq!(OutMail::open(&envelope), with_picture);
    }

    /// Each picture's encoded content is marked as shared, under its bytes' key: two
    /// mails carrying one picture (each with its own boundary) mark the same bytes.
    #[test]
    fn the_pictures_of_a_sealed_mail_are_marked_shared_under_their_bytes_key() {
        use base64::Engine as _;
        let pictures = [
            Attachment::png("westeros 1", (0..=255u8).cycle().take(3000).collect()),
            Attachment::png("westeros 2", vec![7; 100]),
        ];
        let stretch = |to: &str| {
            let mut mail = OutMail::new("exemple.fr", to, "Résultats".into(), "Été\n".into(), at());
            for picture in &pictures {
                mail = mail.carrying(Some(picture));
            }
            let envelope = mail.seal();
            assert_eq!(envelope.shared.len(), 2);
            envelope
                .shared
                .iter()
                .map(|s| {
                    (
                        s.key.clone(),
                        envelope.body.as_bytes()[s.at..s.at + s.len].to_vec(),
                    )
                })
                .collect::<Vec<_>>()
        };
        let first = stretch("stark@example.org");
        for ((key, text), picture) in first.iter().zip(&pictures) {
            let digest = crate::service::piece_key(&picture.bytes);
            assert_eq!(*key, format!("{digest}-{}", text.len()));
            let lines: Vec<u8> = text
                .iter()
                .copied()
                .filter(|b| *b != b'\r' && *b != b'\n')
                .collect();
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(&lines)
                .unwrap();
            assert_eq!(decoded, picture.bytes);
        }
        assert_eq!(stretch("lannister@example.org"), first);
    }

    #[test]
    fn on_the_wire_every_line_is_seven_bit_and_reads_the_same() {
        let mail = OutMail::new(
            "exemple.fr",
            "stark@example.org",
            "Sujet".into(),
            "Été à Port-Réal\n".into(),
            at(),
        );
        for mail in [
            mail.clone(),
            mail.carrying(Some(&Attachment::png("x", vec![1, 2, 3]))),
        ] {
            let envelope = mail.seal();
            assert!(!envelope.body.as_bytes().is_ascii(), "stored in 8 bits");
            let (headers, body) = seven_bit(&envelope);
            assert!(body.is_ascii(), "{}", String::from_utf8_lossy(&body));
            let wire = Envelope {
                headers,
                body: BodyBytes(body),
                ..envelope
            };
            assert_eq!(OutMail::open(&wire), mail);
        }
    }
}
