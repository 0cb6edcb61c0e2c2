//! The body of a message as plain text lines: the text parts (or the HTML part turned
//! into text), decoded, unflowed (RFC 3676), with one kind of line ending and of space.

use std::borrow::Cow;

use mail_parser::decoders::quoted_printable::quoted_printable_decode;
use mail_parser::{Encoding, Message, MessagePart, MimeHeaders, PartType};
use unicode_normalization::UnicodeNormalization;

use super::html;

/// The message's body text, before cleaning. mail-parser lists the parts a reader would
/// see as the body: the text/plain alternative when there is one, else the HTML one.
/// A client that puts an image between two paragraphs sends two text parts; both count.
/// Some senders leave the text alternative empty: the HTML one is read then.
pub(super) fn text(message: &Message<'_>) -> String {
    let text = normalise(&joined(message, message.text_bodies()));
    if !text.trim().is_empty() {
        return text;
    }
    normalise(&joined(message, message.html_bodies()))
}

fn joined<'m>(message: &Message<'_>, parts: impl Iterator<Item = &'m MessagePart<'m>>) -> String {
    let texts: Vec<Cow<'_, str>> = parts
        .filter_map(|part| match &part.body {
            PartType::Text(text) => Some(plain(message, part, text)),
            PartType::Html(markup) => Some(Cow::Owned(html::to_text(markup))),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

/// A text/plain part, re-read as Windows-1252 when needed, then unflowed if flowed.
fn plain<'a>(message: &Message<'_>, part: &MessagePart<'_>, text: &'a str) -> Cow<'a, str> {
    let ct = part.content_type();
    let text = match latin_fallback(message, part, text) {
        Some(recoded) => Cow::Owned(recoded),
        None => Cow::Borrowed(text),
    };
    let param_is = |name: &str, value: &str| {
        ct.and_then(|ct| ct.attribute(name))
            .is_some_and(|v| v.trim().eq_ignore_ascii_case(value))
    };
    if param_is("format", "flowed") {
        Cow::Owned(unflow(&text, param_is("delsp", "yes")))
    } else {
        text
    }
}

/// Old or misconfigured clients send 8-bit Latin-1 text with no charset, or labelled
/// UTF-8: mail-parser then shows U+FFFD for every accent. When the part's bytes are not
/// UTF-8 at all, they are read as Windows-1252 (a superset of Latin-1 for text), which
/// is what such French mail nearly always is.
fn latin_fallback(message: &Message<'_>, part: &MessagePart<'_>, text: &str) -> Option<String> {
    if !text.contains('\u{FFFD}') {
        return None;
    }
    let charset = part.content_type().and_then(|ct| ct.attribute("charset"));
    let utf8_or_none = charset.is_none_or(|c| {
        let c = c.trim().to_ascii_lowercase();
        c == "utf-8" || c == "utf8"
    });
    if !utf8_or_none {
        return None;
    }
    let raw = message
        .raw_message
        .get(part.offset_body as usize..part.offset_end as usize)?;
    let bytes: Cow<'_, [u8]> = match part.encoding {
        Encoding::None => Cow::Borrowed(raw),
        Encoding::QuotedPrintable => Cow::Owned(quoted_printable_decode(raw)?),
        Encoding::Base64 => return None,
    };
    match std::str::from_utf8(&bytes) {
        Ok(_) => None,
        Err(_) => Some(bytes.iter().map(|&b| windows_1252(b)).collect()),
    }
}

/// Windows-1252: Latin-1 except for 0x80–0x9F, where it has typographic signs
/// (’ “ ” … œ € – —) that French text uses; the five unassigned bytes stay C1 controls,
/// as WHATWG decodes them (they are then dropped as controls).
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Joins the lines a format=flowed client (Thunderbird, Apple Mail) wrapped: a line
/// ending in a space continues on the next one at the same quote depth (RFC 3676 4.2);
/// the space that protects a line starting with a space, `>` or `From ` is removed.
fn unflow(text: &str, delsp: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut open: Option<usize> = None;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        // The signature separator ends in a space but is never flowed (RFC 3676 4.3).
        let flowed = content.ends_with(' ') && content != "-- ";
        let content = match content.strip_suffix(' ') {
            Some(kept) if flowed && delsp => kept,
            _ => content,
        };
        match lines.last_mut() {
            Some(last) if open == Some(depth) => last.push_str(content),
            _ if depth > 0 => lines.push(format!("{} {content}", ">".repeat(depth))),
            _ => lines.push(content.to_owned()),
        }
        open = flowed.then_some(depth);
    }
    lines.join("\n")
}

/// One line ending (`\n`), one space (U+0020, for NBSP and the other Unicode spaces
/// that French typography and Gmail put before `:` and `AM`), no invisible characters,
/// no trailing spaces, and accents composed (NFC: Apple devices may send `e` + U+0301
/// for `é`): commands are matched line by line and word by word.
pub(super) fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.nfc().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push('\n'),
            '\t' => out.push('\t'),
            '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{AD}' => {}
            c if c.is_whitespace() => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    let lines: Vec<&str> = out.split('\n').map(str::trim_end).collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowed_lines_are_joined_at_the_same_depth_only() {
        let text = "Une longue phrase \ncoupée en deux.\n> cité \n> suite\n-- \nJon";
        assert_eq!(
            unflow(text, false),
            "Une longue phrase coupée en deux.\n> cité suite\n-- \nJon"
        );
    }

    #[test]
    fn delsp_removes_the_joining_space() {
        assert_eq!(unflow("Port-Ré \nal", true), "Port-Réal");
    }

    #[test]
    fn space_stuffing_is_removed() {
        assert_eq!(
            unflow(" From here\n >not a quote", false),
            "From here\n>not a quote"
        );
    }

    #[test]
    fn spaces_and_line_endings_are_normalised() {
        assert_eq!(
            normalise("A1\u{A0}Ner -> Som  \r\nDe\u{202F}:\u{200B} x\rfin\t"),
            "A1 Ner -> Som\nDe : x\nfin"
        );
    }

    #[test]
    fn accents_are_composed() {
        assert_eq!(normalise("pre\u{302}t, Ne\u{301}ra"), "prêt, Néra");
    }

    #[test]
    fn windows_1252_has_the_french_typographic_signs() {
        let bytes = b"L\x92\x9cuvre \xe0 \x80";
        let text: String = bytes.iter().map(|&b| windows_1252(b)).collect();
        assert_eq!(text, "L’œuvre à €");
    }
}
