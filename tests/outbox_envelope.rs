//! The outbox keeps envelopes (headers and body bytes, no mail type): a mail the mail layer
//! composed comes back out of the store as it went in, and an outbox entry in the mail
//! layer's old record (an unreleased schema-2 store) is read and sent as the same mail.

#![allow(clippy::unwrap_used)]

mod support;

use chrono::{DateTime, Utc};
use corbeau::config::Judge;
use corbeau::mail::outmail::{Attachment, OutMail};
use corbeau::mail::transport::message;
use corbeau::service::Service;
use mail_parser::{MessageParser, MimeHeaders};

fn at() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn scratch(name: &str) -> support::TempDir {
    support::TempDir::new("envelope", name)
}

fn results_mail() -> OutMail {
    OutMail::new(
        "exemple.fr",
        "stark@example.org",
        "[westeros-1] Résultats : printemps 299".into(),
        "Bonjour Maison Stark,\n\nA Winterfell -> Moat Cailin : réussi.\n".into(),
        at(),
    )
    .answering(Some("CAF+1@mail.example.org"), &[])
    .about("westeros-1")
    .carrying(Some(&Attachment::png(
        "westeros-1 printemps 299",
        b"\x89PNG\r\n\x1a\nnot really".to_vec(),
    )))
}

#[test]
fn a_legacy_outbox_entry_of_a_schema_2_store_is_read_and_sent_as_the_same_mail() {
    let dir = scratch("legacy");
    drop(Service::open(&dir).unwrap());
    let mail = results_mail();
    // The record the outbox kept before envelopes: the mail layer's own, as JSON.
    {
        let db = support::open_sled(&dir);
        let outbox = db.open_tree("outbox").unwrap();
        outbox
            .insert(7u64.to_be_bytes(), serde_json::to_vec(&mail).unwrap())
            .unwrap();
        db.flush().unwrap();
    }
    let service = Service::open(&dir).unwrap();
    let waiting = service.outbox().unwrap();
    assert_eq!(waiting.len(), 1);
    let (key, envelope) = &waiting[0];
    assert_eq!(*key, 7);
    assert_eq!(OutMail::open(envelope), mail);
    // As it goes on the wire: the judge's From, the same id, thread, subject, text, picture.
    let judge = Judge {
        address: "corbeau@exemple.fr".into(),
        ..Judge::default()
    };
    let raw = message(envelope, &judge).unwrap().formatted();
    let parsed = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(parsed.message_id(), Some(mail.message_id.as_str()));
    assert_eq!(
        parsed.from().unwrap().first().unwrap().address(),
        Some("corbeau@exemple.fr")
    );
    assert_eq!(parsed.subject(), Some(mail.subject.as_str()));
    assert_eq!(
        parsed.in_reply_to().as_text(),
        Some("CAF+1@mail.example.org")
    );
    assert_eq!(
        parsed.body_text(0).unwrap().replace("\r\n", "\n"),
        mail.body
    );
    let picture = parsed.attachments().next().unwrap();
    assert_eq!(picture.contents(), mail.attachments[0].bytes.as_slice());
    assert_eq!(
        picture.attachment_name(),
        Some(mail.attachments[0].name.as_str())
    );
    for line in raw.split(|&b| b == b'\n') {
        assert!(line.is_ascii() && line.len() <= 998);
    }
    // A failed attempt writes it back as an envelope.
    service.outbox_retry(*key, envelope).unwrap();
    drop(service);
    let db = support::open_sled(&dir);
    let stored: serde_json::Value = serde_json::from_slice(
        &db.open_tree("outbox")
            .unwrap()
            .get(7u64.to_be_bytes())
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert!(stored["headers"].is_array(), "{stored}");
    assert!(stored.get("subject").is_none(), "{stored}");
    drop(db);
}

#[test]
fn a_queued_mail_comes_out_of_the_store_as_it_went_in() {
    let dir = scratch("round");
    let service = Service::open(&dir).unwrap();
    let with = results_mail();
    let without = OutMail::new(
        "exemple.fr",
        "lannister@example.org",
        "Ordres reçus".into(),
        "Une ligne\n\n-- \nCorbeau\n".into(),
        at(),
    );
    service
        .queue_mails(vec![with.seal(), without.seal()])
        .unwrap();
    let back: Vec<OutMail> = service
        .outbox()
        .unwrap()
        .iter()
        .map(|(_, e)| OutMail::open(e))
        .collect();
    assert_eq!(back, [with, without]);
    drop(service);
}
