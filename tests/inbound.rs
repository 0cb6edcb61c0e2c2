#![allow(clippy::unwrap_used)]
//! Reading received mail (`corbeau::mail::inbound::read`) against a corpus shaped as real
//! clients write it: `tests/mail/inbound/X.eml`, each with `X.expected` (the fields, a
//! blank line, then the exact cleaned body). Rewrite the .expected files with
//! `UPDATE_GOLDEN=1 cargo test --release --test inbound` (or `CORBEAU_BLESS=1`), then
//! review the diff like code.
//!
//! Then the rules one by one (size limit, sender, ids, automatic mail) and properties:
//! `read` never panics, on any bytes or on damaged copies of the corpus, and a cleaned
//! body never holds a quoted line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use corbeau::mail::inbound::{Inbound, InboundError, read};
use pretty_assertions::assert_eq;
use proptest::prelude::*;

const LIMIT: usize = 256 * 1024;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/inbound")
}

/// Every `.eml` of the corpus, by name.
fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<PathBuf> = fs::read_dir(corpus_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let raw = fs::read(&path).unwrap();
            (path, raw)
        })
        .collect()
}

fn corpus_file(name: &str) -> Vec<u8> {
    fs::read(corpus_dir().join(name)).unwrap()
}

/// The reviewable text form of a result, as in the .expected files.
fn render(result: &Result<Inbound, InboundError>) -> String {
    let mail = match result {
        Ok(mail) => mail,
        Err(error) => return format!("error: {error:?}\n"),
    };
    let list = |items: &[String], sep: &str| {
        if items.is_empty() {
            "-".to_owned()
        } else {
            items.join(sep)
        }
    };
    let mut out = String::new();
    writeln!(out, "from: {}", mail.from).unwrap();
    writeln!(out, "name: {}", mail.name.as_deref().unwrap_or("-")).unwrap();
    writeln!(out, "subject: {}", mail.subject).unwrap();
    writeln!(out, "message_id: {}", mail.message_id).unwrap();
    writeln!(out, "references: {}", list(&mail.references, " ")).unwrap();
    writeln!(out, "attachments: {}", list(&mail.attachments, " | ")).unwrap();
    writeln!(out, "automatic: {}", mail.automatic).unwrap();
    writeln!(out, "too_large: {}", mail.too_large).unwrap();
    out.push('\n');
    if !mail.body.is_empty() {
        out.push_str(&mail.body);
        out.push('\n');
    }
    out
}

#[test]
fn corpus_reads_as_expected() {
    let bless = env::var_os("UPDATE_GOLDEN").is_some() || env::var_os("CORBEAU_BLESS").is_some();
    let corpus = corpus();
    assert!(
        corpus.len() >= 15,
        "the corpus is in {}",
        corpus_dir().display()
    );
    for (path, raw) in corpus {
        let actual = render(&read(&raw, LIMIT));
        let expected_path = path.with_extension("expected");
        if bless {
            fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (UPDATE_GOLDEN=1 writes it)",
                expected_path.display()
            )
        });
        assert_eq!(expected, actual, "{}", path.display());
    }
}

/// Lines of a body that still look quoted.
fn quoted_lines(body: &str) -> Vec<&str> {
    body.lines()
        .filter(|line| line.trim_start().starts_with('>'))
        .collect()
}

#[test]
fn no_corpus_body_keeps_a_quoted_line_or_a_line_of_earlier_results() {
    for (path, raw) in corpus() {
        let Ok(mail) = read(&raw, LIMIT) else {
            continue;
        };
        assert_eq!(
            quoted_lines(&mail.body),
            Vec::<&str>::new(),
            "{}",
            path.display()
        );
        // The quoted results always carry these; the replies never write them.
        for marker in [":: corbeau:", "réussi", "Winterfell (win)"] {
            assert!(
                !mail.body.contains(marker),
                "{}: `{marker}` left in the body",
                path.display()
            );
        }
    }
}

#[test]
fn a_mail_over_the_limit_keeps_its_headers_but_not_its_body() {
    let raw = corpus_file("roundcube-long-line-pdf.eml");
    let whole = read(&raw, LIMIT).unwrap();
    let refused = read(&raw, raw.len() - 1).unwrap();
    assert!(refused.too_large && !whole.too_large);
    assert_eq!(refused.body, "");
    assert_eq!(refused.attachments, Vec::<String>::new());
    assert_eq!(refused.size, raw.len());
    assert_eq!(
        (
            &refused.from,
            &refused.name,
            &refused.subject,
            &refused.message_id
        ),
        (&whole.from, &whole.name, &whole.subject, &whole.message_id)
    );
    // Exactly at the limit is still read.
    assert!(!read(&raw, raw.len()).unwrap().too_large);
}

#[test]
fn a_mail_over_the_limit_is_still_recognised_as_automatic() {
    let raw = corpus_file("postfix-bounce.eml");
    let refused = read(&raw, 100).unwrap();
    assert!(refused.too_large && refused.automatic);
}

#[test]
fn a_mail_without_a_usable_sender_is_refused() {
    for raw in [
        "To: corbeau@exemple.fr\nSubject: statut\n\nstatut\n",
        "From: undisclosed-recipients:;\nTo: corbeau@exemple.fr\n\nstatut\n",
        "From: Jon Snow\nTo: corbeau@exemple.fr\n\nstatut\n",
        "From: <>\nTo: corbeau@exemple.fr\n\nstatut\n",
    ] {
        assert_eq!(
            read(raw.as_bytes(), LIMIT),
            Err(InboundError::NoSender),
            "{raw}"
        );
    }
}

#[test]
fn bytes_that_are_not_mail_are_unreadable() {
    for raw in [&b""[..], b"\n\n\n", b"hello world", b"\x00\x01\x02", b":::"] {
        assert_eq!(read(raw, LIMIT), Err(InboundError::Unreadable), "{raw:?}");
    }
}

#[test]
fn a_broken_reply_to_falls_back_on_from() {
    let raw = "From: Jon Snow <Jon@Example.org>\nReply-To: nobody\n\nA Win H\n";
    let mail = read(raw.as_bytes(), LIMIT).unwrap();
    assert_eq!(mail.from, "jon@example.org");
    assert_eq!(mail.name.as_deref(), Some("Jon Snow"));
}

#[test]
fn a_reply_to_without_a_name_does_not_borrow_another_address_name() {
    let raw = "From: Jon Snow <jon@example.org>\nReply-To: garde@example.org\n\nA Win H\n";
    let mail = read(raw.as_bytes(), LIMIT).unwrap();
    assert_eq!((mail.from.as_str(), mail.name), ("garde@example.org", None));
}

#[test]
fn the_same_bytes_give_the_same_id() {
    let raw = corpus_file("no-message-id-8bit.eml");
    let first = read(&raw, LIMIT).unwrap();
    let again = read(&raw.clone(), LIMIT).unwrap();
    assert!(
        first.message_id.starts_with("nomsgid."),
        "{}",
        first.message_id
    );
    assert!(
        first.message_id.ends_with("@corbeau"),
        "{}",
        first.message_id
    );
    assert_eq!(first.message_id, again.message_id);
}

#[test]
fn a_second_delivery_through_other_relays_gives_the_same_id() {
    let raw = corpus_file("no-message-id-8bit.eml");
    let mut relayed =
        b"Received: from backup-mx.exemple.fr by mx.exemple.fr; Tue, 4 Nov 2026 06:10:00 +0100\n\
Delivered-To: archive@exemple.fr\n"
            .to_vec();
    relayed.extend_from_slice(&raw);
    assert_eq!(
        read(&raw, LIMIT).unwrap().message_id,
        read(&relayed, LIMIT).unwrap().message_id
    );
}

#[test]
fn different_mails_without_message_id_get_different_ids() {
    let one = "From: a@example.org\nSubject: x\n\nA Win H\n";
    let other = "From: a@example.org\nSubject: x\n\nA Win -> Moa\n";
    assert_ne!(
        read(one.as_bytes(), LIMIT).unwrap().message_id,
        read(other.as_bytes(), LIMIT).unwrap().message_id
    );
}

#[test]
fn in_reply_to_is_added_to_references_once() {
    let raw = "From: a@example.org\nReferences: <r1@x> <r2@x>\nIn-Reply-To: <r2@x>\n\nA Win H\n";
    assert_eq!(
        read(raw.as_bytes(), LIMIT).unwrap().references,
        ["r1@x", "r2@x"]
    );
    let raw = "From: a@example.org\nIn-Reply-To: <r3@x>\n\nA Win H\n";
    assert_eq!(read(raw.as_bytes(), LIMIT).unwrap().references, ["r3@x"]);
}

#[test]
fn automatic_mail_is_recognised_by_its_headers() {
    let cases = [
        ("Auto-Submitted: auto-replied (vacation)\n", true),
        (
            "Auto-Submitted: auto-generated; owner-email=x@example.org\n",
            true,
        ),
        ("Auto-Submitted: no\n", false),
        ("Auto-Submitted: No\n", false),
        ("Precedence: bulk\n", true),
        ("Precedence: junk\n", true),
        ("Precedence: List\n", true),
        ("Precedence: first-class\n", false),
        ("X-Autoreply: yes\n", true),
        ("X-Autorespond: 1\n", true),
        ("X-Auto-Response-Suppress: All\n", false),
        (
            "X-Auto-Response-Suppress: All\nList-Id: <westeros.listes.example>\n",
            true,
        ),
        ("Return-Path: <>\n", true),
        ("Return-Path: <a@example.org>\n", false),
        (
            "Content-Type: multipart/report; report-type=disposition-notification; boundary=b\n",
            true,
        ),
        ("", false),
    ];
    for (headers, automatic) in cases {
        let raw = format!("From: Jon <jon@example.org>\n{headers}Subject: x\n\nA Win H\n");
        let mail = read(raw.as_bytes(), LIMIT).unwrap();
        assert_eq!(mail.automatic, automatic, "{headers:?}");
    }
    for from in ["MAILER-DAEMON@mx.example.org", "Postmaster@example.org"] {
        let raw = format!("From: {from}\nSubject: x\n\nA Win H\n");
        assert!(read(raw.as_bytes(), LIMIT).unwrap().automatic, "{from}");
    }
}

#[test]
fn a_text_part_with_no_charset_and_latin_1_bytes_is_read_as_windows_1252() {
    let raw = b"From: a@example.org\n\nA Pie -> Har\nPresse : \xe0 bient\xf4t, \x93 l\x92\xe9t\xe9 \x94\n";
    let mail = read(raw, LIMIT).unwrap();
    assert_eq!(mail.body, "A Pie -> Har\nPresse : à bientôt, “ l’été ”");
}

#[test]
fn a_text_part_in_valid_utf_8_is_never_reread() {
    let raw = "From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\nPresse : \u{FFFD} à bientôt\n";
    assert_eq!(
        read(raw.as_bytes(), LIMIT).unwrap().body,
        "Presse : \u{FFFD} à bientôt"
    );
}

/// The HTML half of each multipart/alternative mail of the corpus, sent alone (as
/// clients without a text part do), must read as its text half does: the HTML path
/// (divs, blockquotes, Outlook's header block, footers in links) is held to the same
/// result on the same shapes.
#[test]
fn html_alternatives_read_as_their_text_parts() {
    let mut compared = 0;
    for (path, raw) in corpus() {
        let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
        if message.text_body == message.html_body {
            continue;
        }
        let Some(html) = message.body_html(0) else {
            continue;
        };
        let html_only =
            format!("From: x@example.org\nContent-Type: text/html; charset=utf-8\n\n{html}");
        assert_eq!(
            read(html_only.as_bytes(), LIMIT).unwrap().body,
            read(&raw, LIMIT).unwrap().body,
            "{}",
            path.display()
        );
        compared += 1;
    }
    assert!(compared >= 5, "{compared} alternatives compared");
}

#[test]
fn an_empty_text_alternative_gives_way_to_the_html_one() {
    let raw = "From: a@example.org\nContent-Type: multipart/alternative; boundary=b\n\n\
--b\nContent-Type: text/plain; charset=utf-8\n\n\n\
--b\nContent-Type: text/html; charset=utf-8\n\n<div>A Win -&gt; Moa</div><div>pr&ecirc;t</div>\n\
--b--\n";
    assert_eq!(
        read(raw.as_bytes(), LIMIT).unwrap().body,
        "A Win -> Moa\nprêt"
    );
}

/// Kinds of damage done to a corpus mail.
#[derive(Debug, Clone)]
enum Damage {
    Flip { at: usize, byte: u8 },
    Insert { at: usize, bytes: Vec<u8> },
    Delete { at: usize, len: usize },
    Truncate { at: usize },
    Repeat { at: usize, len: usize },
}

fn damage() -> impl Strategy<Value = Damage> {
    let at = any::<usize>();
    let interesting = prop::sample::select(vec![
        b"\n".to_vec(),
        b"\r\n".to_vec(),
        b"\n\n".to_vec(),
        b">".to_vec(),
        b"\n> ".to_vec(),
        b"=".to_vec(),
        b"=C3".to_vec(),
        b"--".to_vec(),
        b"<".to_vec(),
        b"<blockquote>".to_vec(),
        b"&".to_vec(),
        b"\xff\xfe".to_vec(),
        b"\xc3".to_vec(),
        b"Content-Type: multipart/mixed; boundary=x\n".to_vec(),
        b"--x\n".to_vec(),
        b"Content-Transfer-Encoding: base64\n".to_vec(),
        b"Content-Type: text/plain; charset=utf-8; format=flowed\n".to_vec(),
        b" \n".to_vec(),
    ]);
    prop_oneof![
        (at, any::<u8>()).prop_map(|(at, byte)| Damage::Flip { at, byte }),
        (at, interesting).prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (at, prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (at, 1..200usize).prop_map(|(at, len)| Damage::Delete { at, len }),
        at.prop_map(|at| Damage::Truncate { at }),
        (at, 1..400usize).prop_map(|(at, len)| Damage::Repeat { at, len }),
    ]
}

fn apply(raw: &mut Vec<u8>, damage: &Damage) {
    let len = raw.len().max(1);
    match damage {
        Damage::Flip { at, byte } => {
            if let Some(b) = raw.get_mut(at % len) {
                *b = *byte;
            }
        }
        Damage::Insert { at, bytes } => {
            let at = at % (raw.len() + 1);
            raw.splice(at..at, bytes.iter().copied());
        }
        Damage::Delete { at, len: n } => {
            let at = at % len;
            let end = (at + n).min(raw.len());
            raw.drain(at.min(end)..end);
        }
        Damage::Truncate { at } => raw.truncate(at % len),
        Damage::Repeat { at, len: n } => {
            let at = at % len;
            let end = (at + n).min(raw.len());
            let copy = raw.get(at..end).unwrap_or_default().to_vec();
            raw.splice(end..end, copy);
        }
    }
}

fn corpus_cached() -> &'static [(PathBuf, Vec<u8>)] {
    static CORPUS: std::sync::OnceLock<Vec<(PathBuf, Vec<u8>)>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(corpus)
}

proptest! {
    #[test]
    fn read_never_panics_on_any_bytes(raw in prop::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(mail) = read(&raw, LIMIT) {
            prop_assert!(quoted_lines(&mail.body).is_empty(), "{:?}", mail.body);
        }
    }

    #[test]
    fn read_never_panics_on_mail_like_text(
        headers in prop::collection::vec(
            prop::sample::select(vec![
                "From: Jon <jon@example.org>", "Reply-To: <>", "Message-ID: <",
                "Content-Type: text/html", "Content-Type: text/plain; format=flowed; delsp=yes",
                "Content-Type: multipart/alternative; boundary=b", "Content-Transfer-Encoding: base64",
                "Content-Transfer-Encoding: quoted-printable", "References: <a@b> <",
                "Subject: =?utf-8?q?=C3?=", "Auto-Submitted: auto-replied",
            ]),
            0..6,
        ),
        lines in prop::collection::vec(
            prop::sample::select(vec![
                "A Win -> Moa", "> :: corbeau: westeros", ">> A Win H", " > F Bla -> Mfr", "",
                "-- ", "--", "--b", "--b--", "Content-Type: text/plain", "Le 03/11/2026 à 10:00, X a écrit :",
                "On Mon, Nov 3, 2026 at 10:00 AM X <x@y>", "wrote:", "________________________________",
                "De : Corbeau", "Envoyé : lundi", "<blockquote>A Win H", "</blockquote>", "<div>&gt; x</div>",
                "=C3=A9=", "Envoyé de mon iPhone", "\u{a0}> cité", "\t>x", "=3E quoted", "&gt; quoted",
            ]),
            0..30,
        ),
    ) {
        let raw = format!("{}\n\n{}\n", headers.join("\n"), lines.join("\n"));
        if let Ok(mail) = read(raw.as_bytes(), LIMIT) {
            prop_assert!(quoted_lines(&mail.body).is_empty(), "{:?}", mail.body);
        }
    }

    #[test]
    fn read_never_panics_on_damaged_corpus_mail(
        pick in any::<prop::sample::Index>(),
        damages in prop::collection::vec(damage(), 1..6),
    ) {
        let corpus = corpus_cached();
        let (path, raw) = &corpus[pick.index(corpus.len())];
        let mut raw = raw.clone();
        for damage in &damages {
            apply(&mut raw, damage);
        }
        if let Ok(mail) = read(&raw, LIMIT) {
            prop_assert!(
                quoted_lines(&mail.body).is_empty(),
                "{}: {:?}", path.display(), mail.body
            );
        }
    }
}
