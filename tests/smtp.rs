//! Outbound mail through real transports: an aiosmtpd server on 127.0.0.1 (STARTTLS with a
//! private CA, implicit TLS, AUTH, refusals, down then up) and the outbox folder. Each test
//! queues mails in a real store, drains it, and reads what arrived.
//!
//! Needs Python 3 with aiosmtpd and openssl (`.ci/run` installs them); without them these
//! tests fail and say what to install.

#![allow(clippy::unwrap_used)]

#[path = "support/smtp_sink.rs"]
mod smtp_sink;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::mail::outmail::OutMail;
use corbeau::mail::send::{DrainReport, drain, transport_from};
use corbeau::mail::transport::{Transport, eml_name, message};
use corbeau::service::Service;
use corbeau::store::{Commit, Store};
use mail_parser::MessageParser;
use smtp_sink::{Pki, Sink, SinkOptions, delivered, free_port};
use support::TempDir;

const SUBJECT: &str = "Résultats : printemps de l’an 299 — la Maison Stark perd Vivesaigues, \
                       Port-Réal tient bon, et l’hiver vient";
const BODY: &str = "Bonjour Maison Stark,\n\
    \n\
    Vos ordres pour le printemps de l’an 299 :\n\
    A Winterfell -> Moat Cailin : réussi.\n\
    F Blancport soutient A Winterfell -> Moat Cailin : échoué (soutien coupé).\n\
    .une ligne qui commence par un point\n\
    From here a line that mbox would escape\n\
    Espaces en fin de ligne   \n\
    Une très longue ligne, bien plus longue que soixante-seize caractères, pour voir si le découpage quoted-printable la rend intacte : œ Œ æ ç É È Ê À Ù « guillemets » — tiret — 🐉 dragon.\n\
    \n\
    -- \n\
    Corbeau, le juge\n";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn temp_dir(name: &str) -> TempDir {
    TempDir::new("smtp", name)
}

/// A mail as the judge queues it: an answer in a thread, about a game.
fn mail(n: u32, to: &str) -> OutMail {
    OutMail {
        message_id: format!("corbeau.{n}.test@exemple.fr"),
        to: to.into(),
        subject: SUBJECT.into(),
        body: BODY.into(),
        in_reply_to: Some(format!("CAF+reply-{n}@mail.example.org")),
        references: vec![
            "first.123@mail.example.org".into(),
            format!("CAF+reply-{n}@mail.example.org"),
        ],
        game: Some("westeros-1".into()),
        queued: t0(),
        attempts: 0,
        next_try: None,
        last_error: None,
        failed: false,
        attachments: Vec::new(),
    }
}

/// `corbeau.toml` in `dir` with a data directory beside it, the judge, and `mail` as the
/// `[mail]` section's content; loaded the way the command line loads it.
fn configure(dir: &Path, mail: &str) -> Config {
    let file = dir.join("corbeau.toml");
    std::fs::write(
        &file,
        format!(
            "data_dir = \"data\"\n\n[judge]\naddress = \"corbeau@exemple.fr\"\nname = \"Corbeau, juge\"\n\n{mail}"
        ),
    )
    .unwrap();
    Config::load(Some(&file)).unwrap()
}

fn queue(config: &Config, mails: Vec<OutMail>) {
    let store = Store::open(&config.data_dir).unwrap();
    store
        .commit(Commit {
            mails: mails.iter().map(OutMail::seal).collect(),
            ..Default::default()
        })
        .unwrap();
}

/// One drain at `now` with the configuration's transport.
fn drain_at(config: &Config, now: DateTime<Utc>) -> DrainReport {
    let service = Service::open(&config.data_dir).unwrap();
    let transport = transport_from(config).unwrap();
    drain(&service, &transport, &config.judge, now).unwrap()
}

fn outbox(config: &Config) -> Vec<OutMail> {
    let store = Store::open(&config.data_dir).unwrap();
    store
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(_, m)| OutMail::open(&m))
        .collect()
}

fn message_ids(raw: &[Vec<u8>]) -> Vec<String> {
    raw.iter()
        .map(|bytes| {
            let parsed = MessageParser::default().parse(bytes).unwrap();
            parsed.message_id().unwrap().to_string()
        })
        .collect()
}

/// Checks every header and the text of a mail as it arrived, against `sent`.
#[track_caller]
fn assert_arrived_whole(raw: &[u8], sent: &OutMail) {
    assert_whole(raw, sent, true);
}

/// `wire`: sent to a server, so every line must be 7-bit; the outbox folder keeps 8 bits
/// so that its files read as they are.
fn assert_whole(raw: &[u8], sent: &OutMail, wire: bool) {
    let parsed = MessageParser::default().parse(raw).unwrap();
    let from = parsed.from().unwrap().first().unwrap();
    assert_eq!(from.name(), Some("Corbeau, juge"));
    assert_eq!(from.address(), Some("corbeau@exemple.fr"));
    let reply_to = parsed.reply_to().unwrap().first().unwrap();
    assert_eq!(reply_to.address(), Some("corbeau@exemple.fr"));
    let to = parsed.to().unwrap().first().unwrap();
    assert_eq!(to.address(), Some(sent.to.as_str()));
    assert_eq!(parsed.message_id(), Some(sent.message_id.as_str()));
    assert_eq!(
        parsed.in_reply_to().as_text(),
        sent.in_reply_to.as_deref(),
        "In-Reply-To"
    );
    let references: Vec<String> = match parsed.references().as_text_list() {
        Some(list) => list.iter().map(|r| r.to_string()).collect(),
        None => parsed
            .references()
            .as_text()
            .map(|r| vec![r.to_string()])
            .unwrap_or_default(),
    };
    assert_eq!(references, sent.references, "References");
    assert_eq!(parsed.subject(), Some(SUBJECT));
    assert_eq!(
        parsed.date().unwrap().to_timestamp(),
        sent.queued.timestamp(),
        "Date is the time queued"
    );
    assert_eq!(
        parsed.header_raw("X-Corbeau-Game").map(str::trim),
        sent.game.as_deref()
    );
    assert_eq!(
        parsed.header_raw("X-Mailer").map(str::trim),
        Some("corbeau")
    );
    // RFC 3834: a reply is marked, so that no robot answers it.
    assert_eq!(
        parsed.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-replied")
    );
    let content_type = parsed.header_raw("Content-Type").unwrap().to_lowercase();
    assert!(
        content_type.contains("text/plain") && content_type.contains("charset=utf-8"),
        "Content-Type: {content_type}"
    );
    let body = parsed.body_text(0).unwrap().replace("\r\n", "\n");
    assert_eq!(body, sent.body);
    // Every line of the raw message fits SMTP's limit and is 7-bit: nothing for a relay to
    // re-encode.
    for line in raw.split(|&b| b == b'\n') {
        assert!(line.len() <= 998, "line too long: {}", line.len());
        assert!(
            line.is_ascii() || !wire,
            "8-bit line: {}",
            String::from_utf8_lossy(line)
        );
    }
}

fn starttls_with_login(pki: &Pki, port: u16, password: &str, password_file: &Path) -> String {
    std::fs::write(password_file, format!("{password}\n")).unwrap();
    format!(
        "[mail]\ntransport = \"smtp\"\n\n[mail.smtp]\nhost = \"localhost\"\nport = {port}\n\
         security = \"starttls\"\nuser = \"juge\"\npassword_file = \"{}\"\nca_file = \"{}\"\ntimeout = 10\n",
        password_file.display(),
        pki.ca.display()
    )
}

fn login_sink(dir: &Path, pki: &Pki, port: u16) -> Sink {
    Sink::start(
        &dir.join("maildir"),
        port,
        &SinkOptions {
            tls: Some((pki.cert.clone(), pki.key.clone())),
            login: Some(("juge".into(), "s3cret-hiver".into())),
            ..SinkOptions::default()
        },
    )
}

#[test]
fn starttls_with_login_delivers_every_header_and_the_french_text_intact() {
    let dir = temp_dir("deliver");
    let pki = Pki::make(&dir.join("pki"));
    let port = free_port();
    let sink = login_sink(&dir, &pki, port);
    let config = configure(
        &dir,
        &starttls_with_login(&pki, port, "s3cret-hiver", &dir.join("password")),
    );
    let sent = [
        mail(1, "stark@example.org"),
        mail(2, "lannister@example.org"),
    ];
    queue(&config, sent.to_vec());

    let report = drain_at(&config, t0());

    assert_eq!(report.sent, 2, "{:?}", report.failed);
    assert!(report.failed.is_empty());
    assert!(outbox(&config).is_empty(), "sent mails leave the outbox");
    let arrived = sink.mails();
    assert_eq!(arrived.len(), 2);
    for raw in &arrived {
        let parsed = MessageParser::default().parse(raw).unwrap();
        let id = parsed.message_id().unwrap();
        let original = sent.iter().find(|m| m.message_id == id).unwrap();
        assert_arrived_whole(raw, original);
        let envelope_to = parsed.header_raw("X-Envelope-To").unwrap().trim();
        assert_eq!(envelope_to, original.to, "one recipient per mail");
        let envelope_from = parsed.header_raw("X-Envelope-From").unwrap().trim();
        assert_eq!(envelope_from, "corbeau@exemple.fr");
    }
}

#[test]
fn implicit_tls_delivers() {
    let dir = temp_dir("implicit");
    let pki = Pki::make(&dir.join("pki"));
    let port = free_port();
    let sink = Sink::start(
        &dir.join("maildir"),
        port,
        &SinkOptions {
            tls: Some((pki.cert.clone(), pki.key.clone())),
            implicit_tls: true,
            ..SinkOptions::default()
        },
    );
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"localhost\"\nport = {port}\n\
             security = \"tls\"\nca_file = \"{}\"\n",
            pki.ca.display()
        ),
    );
    queue(&config, vec![mail(1, "stark@example.org")]);

    let report = drain_at(&config, t0());

    assert_eq!(report.sent, 1, "{:?}", report.failed);
    assert_eq!(message_ids(&sink.mails()), ["corbeau.1.test@exemple.fr"]);
}

#[test]
fn a_wrong_password_keeps_the_mail_and_once_fixed_it_is_sent_once() {
    let dir = temp_dir("password");
    let pki = Pki::make(&dir.join("pki"));
    let port = free_port();
    let sink = login_sink(&dir, &pki, port);
    let password_file = dir.join("password");
    let wrong = configure(
        &dir,
        &starttls_with_login(&pki, port, "wrong", &password_file),
    );
    queue(&wrong, vec![mail(1, "stark@example.org")]);

    let report = drain_at(&wrong, t0());

    assert_eq!(report.sent, 0);
    let [failed] = report.failed.as_slice() else {
        panic!("one failure expected: {report:?}")
    };
    assert!(failed.error.is_permanent(), "{}", failed.error);
    let text = failed.error.to_string();
    assert!(
        text.contains("535") && text.contains("user and password"),
        "{text}"
    );
    let kept = outbox(&wrong);
    assert_eq!(kept.len(), 1, "the mail stays in the outbox");
    assert_eq!(kept[0].attempts, 1);
    // A refusal for good waits the longest back-off at once: retrying sooner cannot help.
    assert_eq!(kept[0].next_try, Some(t0() + TimeDelta::hours(1)));
    assert_eq!(kept[0].last_error.as_deref(), Some(text.as_str()));
    assert!(sink.mails().is_empty());

    let fixed = configure(
        &dir,
        &starttls_with_login(&pki, port, "s3cret-hiver", &password_file),
    );
    let early = drain_at(&fixed, t0() + TimeDelta::minutes(5));
    assert_eq!((early.sent, early.waiting), (0, 1), "not due yet");
    let due = drain_at(&fixed, t0() + TimeDelta::hours(1));
    assert_eq!(due.sent, 1, "{:?}", due.failed);
    let again = drain_at(&fixed, t0() + TimeDelta::hours(2));
    assert_eq!((again.sent, again.waiting), (0, 0));
    assert!(again.failed.is_empty());

    let arrived = sink.mails();
    assert_eq!(message_ids(&arrived), ["corbeau.1.test@exemple.fr"]);
    assert_arrived_whole(&arrived[0], &mail(1, "stark@example.org"));
}

#[test]
fn a_server_down_backs_off_doubling_then_up_gets_each_mail_exactly_once() {
    let dir = temp_dir("down");
    let port = free_port();
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             security = \"none\"\ntimeout = 5\n[mail.retry]\nfirst = 60\nmax = 600\n"
        ),
    );
    queue(
        &config,
        vec![mail(1, "stark@example.org"), mail(2, "tully@example.org")],
    );

    let first = drain_at(&config, t0());
    assert_eq!(first.failed.len(), 2);
    assert!(!first.failed[0].error.is_permanent());
    let text = first.failed[0].error.to_string();
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(text.contains("is the server up"), "{text}");
    let waits = |config: &Config| -> Vec<(u32, Option<DateTime<Utc>>)> {
        outbox(config)
            .iter()
            .map(|m| (m.attempts, m.next_try))
            .collect()
    };
    let after_one = t0() + TimeDelta::seconds(60);
    assert_eq!(waits(&config), [(1, Some(after_one)), (1, Some(after_one))]);

    let early = drain_at(&config, t0() + TimeDelta::seconds(30));
    assert_eq!((early.sent, early.failed.len(), early.waiting), (0, 0, 2));

    let second = drain_at(&config, after_one);
    assert_eq!(second.failed.len(), 2);
    let after_two = after_one + TimeDelta::seconds(120);
    assert_eq!(waits(&config), [(2, Some(after_two)), (2, Some(after_two))]);

    // Doubling stops at the maximum (600 s): 240, 480, then 600.
    let mut now = after_two;
    for (attempts, wait) in [(3, 240), (4, 480), (5, 600), (6, 600)] {
        let report = drain_at(&config, now);
        assert_eq!(report.failed.len(), 2);
        now += TimeDelta::seconds(wait);
        assert_eq!(
            waits(&config),
            [(attempts, Some(now)), (attempts, Some(now))]
        );
    }

    let sink = Sink::start(&dir.join("maildir"), port, &SinkOptions::default());
    let not_yet = drain_at(&config, now - TimeDelta::seconds(1));
    assert_eq!((not_yet.sent, not_yet.waiting), (0, 2));
    let up = drain_at(&config, now);
    assert_eq!(up.sent, 2, "{:?}", up.failed);
    let after = drain_at(&config, now + TimeDelta::hours(1));
    assert_eq!((after.sent, after.waiting, after.failed.len()), (0, 0, 0));
    let mut ids = message_ids(&sink.mails());
    ids.sort();
    assert_eq!(
        ids,
        ["corbeau.1.test@exemple.fr", "corbeau.2.test@exemple.fr"]
    );
}

/// A server that takes the connection and never answers (a hung server, or a firewall
/// in the way) costs one timeout per drain, not one per mail.
#[test]
fn a_server_that_never_answers_costs_one_timeout_for_all_the_mails() {
    let dir = temp_dir("hung");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             security = \"none\"\ntimeout = 2\n"
        ),
    );
    queue(
        &config,
        (1..=4).map(|n| mail(n, "stark@example.org")).collect(),
    );

    let started = std::time::Instant::now();
    let report = drain_at(&config, t0());
    let took = started.elapsed();

    assert_eq!(report.failed.len(), 4);
    assert!(
        took < std::time::Duration::from_secs(6),
        "four timeouts of 2 s would take 8 s; took {took:?}"
    );
    let text = report.failed[0].error.to_string();
    assert!(
        text.contains("timed out") || text.contains("no answer"),
        "{text}"
    );
    for kept in outbox(&config) {
        assert_eq!(
            (kept.attempts, kept.next_try),
            (1, Some(t0() + TimeDelta::seconds(60)))
        );
        assert_eq!(kept.last_error.as_deref(), Some(text.as_str()));
    }
    drop(listener);
}

#[test]
fn a_temporary_refusal_is_retried_after_the_first_wait() {
    let dir = temp_dir("tempfail");
    let port = free_port();
    let sink = Sink::start(
        &dir.join("maildir"),
        port,
        &SinkOptions {
            tempfail: 1,
            ..SinkOptions::default()
        },
    );
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\n"
        ),
    );
    queue(&config, vec![mail(1, "stark@example.org")]);

    let refused = drain_at(&config, t0());
    let [failed] = refused.failed.as_slice() else {
        panic!("{refused:?}")
    };
    assert!(!failed.error.is_permanent(), "{}", failed.error);
    assert!(failed.error.to_string().contains("451"), "{}", failed.error);
    assert_eq!(failed.next_try, t0() + TimeDelta::seconds(60));

    let retried = drain_at(&config, t0() + TimeDelta::seconds(60));
    assert_eq!(retried.sent, 1, "{:?}", retried.failed);
    assert_eq!(message_ids(&sink.mails()), ["corbeau.1.test@exemple.fr"]);
}

#[test]
fn a_certificate_from_an_unknown_ca_is_refused_and_the_error_names_ca_file() {
    let dir = temp_dir("unknown-ca");
    let pki = Pki::make(&dir.join("pki"));
    let port = free_port();
    let sink = Sink::start(
        &dir.join("maildir"),
        port,
        &SinkOptions {
            tls: Some((pki.cert.clone(), pki.key.clone())),
            ..SinkOptions::default()
        },
    );
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"localhost\"\nport = {port}\n"
        ),
    );
    queue(&config, vec![mail(1, "stark@example.org")]);

    let report = drain_at(&config, t0());

    let [failed] = report.failed.as_slice() else {
        panic!("{report:?}")
    };
    assert!(
        failed.error.to_string().contains("ca_file"),
        "{}",
        failed.error
    );
    assert_eq!(outbox(&config).len(), 1);
    assert!(sink.mails().is_empty());
}

#[test]
fn a_bad_recipient_address_is_kept_and_waits_the_longest() {
    let dir = temp_dir("bad-address");
    let config = configure(&dir, "");
    queue(
        &config,
        vec![mail(1, "pas une adresse"), mail(2, "stark@example.org")],
    );

    let report = drain_at(&config, t0());

    assert_eq!(report.sent, 1, "the next mail still goes");
    let [failed] = report.failed.as_slice() else {
        panic!("{report:?}")
    };
    assert_eq!(failed.to, "pas une adresse");
    assert_eq!(
        failed.error.to_string(),
        "mail corbeau.1.test@exemple.fr: the recipient `pas une adresse` is not a mail address"
    );
    assert_eq!(failed.next_try, t0() + TimeDelta::hours(1));
}

#[test]
fn the_outbox_folder_holds_one_eml_per_mail_that_parses_back() {
    let dir = temp_dir("folder");
    let config = configure(&dir, "");
    assert_eq!(config.outbox_dir(), dir.join("data").join("outbox"));
    let sent = [
        mail(1, "stark@example.org"),
        mail(2, "lannister@example.org"),
    ];
    queue(&config, sent.to_vec());

    let report = drain_at(&config, t0());

    assert_eq!(report.sent, 2, "{:?}", report.failed);
    let mut names: Vec<String> = std::fs::read_dir(config.outbox_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[2], "tmp");
    assert!(
        std::fs::read_dir(config.outbox_dir().join("tmp"))
            .unwrap()
            .next()
            .is_none(),
        "no half-written file left"
    );
    for name in &names[..2] {
        assert!(name.starts_with("20261122T100000Z-") && name.ends_with(".eml"));
        let raw = std::fs::read(config.outbox_dir().join(name)).unwrap();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        let original = sent
            .iter()
            .find(|m| Some(m.message_id.as_str()) == parsed.message_id())
            .unwrap();
        assert_whole(&raw, original, false);
        let raw = String::from_utf8(raw).unwrap();
        assert!(raw.contains("Content-Transfer-Encoding: 8bit"), "{raw}");
    }
}

#[test]
fn writing_the_same_mail_again_to_the_folder_replaces_its_file() {
    let dir = temp_dir("folder-again");
    let transport = Transport::folder(dir.join("out"));
    let judge = configure(&dir, "").judge;
    let sent = mail(1, "stark@example.org").seal();

    transport.send(7, &sent, &judge).unwrap();
    let name = eml_name(7, &sent);
    let first = std::fs::read(dir.join("out").join(&name)).unwrap();
    transport.send(7, &sent, &judge).unwrap();

    assert_eq!(name, "20261122T100000Z-0000000000000007.eml");
    let files: Vec<_> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "tmp")
        .collect();
    assert_eq!(files, [std::ffi::OsString::from(&name)]);
    let written = std::fs::read(dir.join("out").join(&name)).unwrap();
    assert_eq!(written, first);
}

#[test]
fn a_judge_address_with_its_own_name_keeps_it() {
    let mut judge = corbeau::config::Judge {
        address: "Le Corbeau <juge@exemple.fr>".into(),
        ..Default::default()
    };
    let raw = message(&mail(1, "Ned Stark <stark@example.org>").seal(), &judge)
        .unwrap()
        .formatted();
    let parsed = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(
        parsed.from().unwrap().first().unwrap().name(),
        Some("Le Corbeau")
    );
    let to = parsed.to().unwrap().first().unwrap();
    assert_eq!(
        (to.name(), to.address()),
        (Some("Ned Stark"), Some("stark@example.org"))
    );

    judge.address = "juge".into();
    let error = message(&mail(1, "stark@example.org").seal(), &judge).unwrap_err();
    assert_eq!(
        error.to_string(),
        "[judge] address `juge` is not a mail address (expected `name@domain`)"
    );
}

/// A stand-in for sendmail: records its arguments and the message, or fails like a
/// sendmail whose queue is unavailable (exit 75, EX_TEMPFAIL).
fn fake_sendmail(dir: &Path, fail: bool) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("sendmail");
    let body = if fail {
        "#!/bin/sh\ncat >/dev/null\necho 'sendmail: cannot queue: disk full' >&2\nexit 75\n"
    } else {
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$0.args\"\ncat > \"$0.mail\"\n"
    };
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn sendmail_gets_the_envelope_and_the_whole_message() {
    let dir = temp_dir("sendmail");
    let script = fake_sendmail(&dir, false);
    let config = configure(
        &dir,
        "[mail]\ntransport = \"sendmail\"\n[mail.sendmail]\ncommand = \"./sendmail\"\n",
    );
    assert_eq!(config.mail.sendmail.command, script);
    let sent = mail(1, "stark@example.org");
    queue(&config, vec![sent.clone()]);

    let report = drain_at(&config, t0());

    assert_eq!(report.sent, 1, "{:?}", report.failed);
    let args = std::fs::read_to_string(dir.join("sendmail.args")).unwrap();
    assert_eq!(args, "-i\n-f\ncorbeau@exemple.fr\n--\nstark@example.org\n");
    let piped = std::fs::read(dir.join("sendmail.mail")).unwrap();
    assert!(
        !piped.contains(&b'\r'),
        "sendmail gets local, LF-ended lines"
    );
    assert_arrived_whole(&piped, &sent);
}

#[test]
fn a_failing_sendmail_keeps_the_mail_for_a_retry_and_says_why() {
    let dir = temp_dir("sendmail-fails");
    fake_sendmail(&dir, true);
    let config = configure(
        &dir,
        "[mail]\ntransport = \"sendmail\"\n[mail.sendmail]\ncommand = \"./sendmail\"\n",
    );
    queue(&config, vec![mail(1, "stark@example.org")]);

    let report = drain_at(&config, t0());

    let [failed] = report.failed.as_slice() else {
        panic!("{report:?}")
    };
    assert!(!failed.error.is_permanent());
    assert_eq!(
        failed.error.to_string(),
        format!(
            "sendmail `{}` failed: sendmail: cannot queue: disk full",
            config.mail.sendmail.command.display()
        )
    );
    assert_eq!(failed.next_try, t0() + TimeDelta::seconds(60));
    assert_eq!(outbox(&config).len(), 1);

    let missing = configure(
        &dir,
        "[mail]\ntransport = \"sendmail\"\n[mail.sendmail]\ncommand = \"./nowhere/sendmail\"\n",
    );
    let report = drain_at(&missing, t0() + TimeDelta::hours(1));
    let text = report.failed[0].error.to_string();
    assert!(
        text.contains("nowhere/sendmail` failed: No such file"),
        "{text}"
    );
}

// Crashes: a drain in a child process (this test binary, re-run on one ignored test)
// aborts at the point `CORBEAU_CRASH` names; the parent then looks at what is left.

/// Run by [`crash_drain`] only: one drain with the configuration in
/// `CORBEAU_TEST_CONFIG`, at t0.
#[test]
#[ignore = "run as a child process by the crash tests"]
fn crash_child_drain() {
    let Some(file) = std::env::var_os("CORBEAU_TEST_CONFIG") else {
        return;
    };
    let config = Config::load(Some(Path::new(&file))).unwrap();
    let service = Service::open(&config.data_dir).unwrap();
    let transport = transport_from(&config).unwrap();
    drain(&service, &transport, &config.judge, t0()).unwrap();
}

/// Runs [`crash_child_drain`] with `CORBEAU_CRASH=point` and checks that it aborted.
fn crash_drain(dir: &Path, point: &str) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["crash_child_drain", "--exact", "--ignored", "--nocapture"])
        .env("CORBEAU_TEST_CONFIG", dir.join("corbeau.toml"))
        .env("CORBEAU_CRASH", point)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the child should have aborted at {point}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(6), "SIGABRT at {point}: {out:?}");
}

fn eml_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".eml"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_crash_before_sending_loses_nothing() {
    let dir = temp_dir("crash-before");
    let config = configure(&dir, "");
    queue(
        &config,
        vec![mail(1, "stark@example.org"), mail(2, "tully@example.org")],
    );

    crash_drain(&dir, "before-send");

    assert!(eml_files(&config.outbox_dir()).is_empty());
    assert_eq!(outbox(&config).len(), 2);
    assert_eq!(drain_at(&config, t0()).sent, 2);
    assert_eq!(eml_files(&config.outbox_dir()).len(), 2);
}

#[test]
fn a_crash_after_the_folder_took_a_mail_never_makes_a_second_file() {
    let dir = temp_dir("crash-after-folder");
    let config = configure(&dir, "");
    queue(
        &config,
        vec![mail(1, "stark@example.org"), mail(2, "tully@example.org")],
    );

    crash_drain(&dir, "after-send");

    let written = eml_files(&config.outbox_dir());
    assert_eq!(written.len(), 1, "the first mail was written: {written:?}");
    assert_eq!(
        outbox(&config).len(),
        2,
        "the store had not forgotten it yet"
    );
    let report = drain_at(&config, t0());
    assert_eq!(report.sent, 2);
    let after = eml_files(&config.outbox_dir());
    assert_eq!(
        after.len(),
        2,
        "rewritten in place, not duplicated: {after:?}"
    );
    assert!(after.contains(&written[0]));
    assert!(outbox(&config).is_empty());
}

/// The one duplicate the design allows (docs/deploy.md): the server took the mail and
/// the judge died before recording it, so the mail goes again — with the same Message-ID,
/// which mail clients show once.
#[test]
fn a_crash_after_the_smtp_server_took_a_mail_sends_it_again_with_the_same_message_id() {
    let dir = temp_dir("crash-after-smtp");
    let port = free_port();
    let sink = Sink::start(&dir.join("maildir"), port, &SinkOptions::default());
    let config = configure(
        &dir,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\n"
        ),
    );
    queue(
        &config,
        vec![mail(1, "stark@example.org"), mail(2, "tully@example.org")],
    );

    crash_drain(&dir, "after-send");
    assert_eq!(message_ids(&sink.mails()), ["corbeau.1.test@exemple.fr"]);
    assert_eq!(outbox(&config).len(), 2);

    assert_eq!(drain_at(&config, t0()).sent, 2);
    let mut ids = message_ids(&delivered(&sink.maildir));
    ids.sort();
    assert_eq!(
        ids,
        [
            "corbeau.1.test@exemple.fr",
            "corbeau.1.test@exemple.fr",
            "corbeau.2.test@exemple.fr"
        ]
    );
}

// Configuration of the transports.

#[test]
fn the_mail_example_of_the_configuration_doc_loads_and_builds_its_transport() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"),
    )
    .unwrap();
    let example = doc
        .split("```toml")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains("[mail.smtp]"))
        .expect("a ```toml block with [mail.smtp] in docs/configuration.md");
    let dir = temp_dir("doc-example");
    let file = dir.join("corbeau.toml");
    std::fs::write(&file, example).unwrap();
    let config = Config::load(Some(&file)).unwrap();
    assert_eq!(config.mail.transport, corbeau::config::TransportKind::Smtp);
    assert_eq!(config.mail.smtp.port(), 587);
    assert!(
        config
            .mail
            .smtp
            .password_file
            .as_ref()
            .unwrap()
            .starts_with(&*dir)
    );
    std::fs::write(config.mail.smtp.password_file.as_ref().unwrap(), "secret\n").unwrap();
    let transport = transport_from(&config).unwrap();
    assert!(
        transport.describe().contains(":587 (STARTTLS)"),
        "{}",
        transport.describe()
    );
}

#[test]
fn defaults_send_to_the_outbox_folder_of_the_data_directory() {
    let config = Config::default();
    let transport = transport_from(&config).unwrap();
    assert_eq!(
        transport.describe(),
        format!(
            "outbox folder {}",
            Path::new("corbeau-data").join("outbox").display()
        )
    );
    assert_eq!(config.mail.max_size, 262_144);
    assert_eq!(
        config.mail.sendmail.command,
        Path::new("/usr/sbin/sendmail")
    );
}

#[test]
fn an_unknown_mail_key_is_refused_by_name() {
    let dir = temp_dir("unknown-key");
    let file = dir.join("corbeau.toml");
    std::fs::write(
        &file,
        "[mail.smtp]\nhost = \"smtp.exemple.fr\"\npasswd = \"x\"\n",
    )
    .unwrap();
    let error = Config::load(Some(&file)).unwrap_err().to_string();
    assert!(error.contains("passwd"), "{error}");
}

#[test]
fn smtp_settings_that_cannot_work_are_refused_before_any_mail() {
    let dir = temp_dir("bad-smtp");
    let cases = [
        ("", "[mail.smtp] host is missing (transport = \"smtp\")"),
        (
            "host = \"h\"\nuser = \"u\"",
            "[mail.smtp] user `u` has no password (password_file or password)",
        ),
        (
            "host = \"h\"\npassword = \"p\"",
            "[mail.smtp] a password is given but no user",
        ),
        (
            "host = \"h\"\nuser = \"u\"\npassword = \"p\"\npassword_file = \"f\"",
            "[mail.smtp] give password or password_file, not both",
        ),
        (
            "host = \"h\"\nuser = \"u\"\npassword = \"p\"\nsecurity = \"none\"",
            "[mail.smtp] a password would cross the network unencrypted: use security = \"starttls\" or \"tls\"",
        ),
    ];
    for (smtp, expected) in cases {
        let cfg = configure(
            &dir,
            &format!("[mail]\ntransport = \"smtp\"\n[mail.smtp]\n{smtp}\n"),
        );
        let error = transport_from(&cfg).unwrap_err();
        assert_eq!(error.to_string(), expected, "{smtp}");
    }
    let cfg = configure(
        &dir,
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"h\"\nuser = \"u\"\npassword_file = \"missing\"\n",
    );
    let error = transport_from(&cfg).unwrap_err().to_string();
    assert!(
        error.starts_with("[mail.smtp] password_file ") && error.contains("missing"),
        "{error}"
    );
    std::fs::write(dir.join("not-pem"), "hello").unwrap();
    let cfg = configure(
        &dir,
        "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"h\"\nca_file = \"not-pem\"\n",
    );
    let error = transport_from(&cfg).unwrap_err().to_string();
    assert!(
        error.contains("ca_file") && error.contains("not-pem"),
        "{error}"
    );
}
