//! A game of Westeros played only by mail, end to end: the moderator creates the game,
//! then everything else goes through mails dropped into the judge's Maildir, `corbeau
//! tick` (with the clock fixed by `CORBEAU_NOW`), and a real SMTP server on loopback
//! (aiosmtpd, tests/support/smtp_sink.py) that stores what the judge sends. Seats given
//! by mail, secrets read from the welcome mails, orders, press, readiness, early
//! processing, a deadline passing, results to everyone; a forged From without the secret,
//! a duplicated message, and a crash between "stored" and "sent".

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/smtp_sink.rs"]
mod smtp_sink;
mod support;

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mail_parser::MessageParser;

use smtp_sink::{Sink, SinkOptions, free_port};
use support::TempDir;

const GAME: &str = "westeros-1";
const JUDGE: &str = "juge@corbeau.test";

/// A mail the SMTP server received.
#[derive(Debug, Clone)]
struct Received {
    to: String,
    subject: String,
    message_id: String,
    in_reply_to: Option<String>,
    reply_to: String,
    body: String,
    raw: String,
}

/// Mails the server stored since the last look (by file, so that a mail sent twice with
/// the same Message-ID counts twice).
fn unseen(maildir: &Path, seen: &mut HashSet<PathBuf>) -> Vec<Received> {
    let Ok(entries) = fs::read_dir(maildir.join("new")) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| !seen.contains(p))
        .collect();
    paths.sort();
    seen.extend(paths.iter().cloned());
    paths.iter().map(|p| parse(&fs::read(p).unwrap())).collect()
}

fn parse(raw: &[u8]) -> Received {
    let m = MessageParser::default().parse(raw).unwrap();
    let addr = |a: Option<&mail_parser::Address>| {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string()
    };
    Received {
        to: addr(m.to()),
        subject: m.subject().unwrap_or_default().to_string(),
        message_id: m.message_id().unwrap_or_default().to_string(),
        in_reply_to: m.in_reply_to().as_text().map(str::to_string),
        reply_to: addr(m.reply_to()),
        body: m.body_text(0).unwrap_or_default().to_string(),
        raw: String::from_utf8_lossy(raw).into_owned(),
    }
}

/// The judge's directory: configuration, store, inbound Maildir.
struct Judge {
    // Stopped before its folder, inside the judge's, goes.
    sink: Sink,
    root: TempDir,
    now: String,
    /// Mails already looked at.
    seen: HashSet<PathBuf>,
    sent: u32,
}

impl Judge {
    fn new(name: &str) -> Judge {
        let root = TempDir::new("mail", name);
        for sub in ["inbox/new", "inbox/cur", "inbox/tmp"] {
            fs::create_dir_all(root.join(sub)).unwrap();
        }
        let sink = Sink::start(
            &root.join("delivered"),
            free_port(),
            &SinkOptions::default(),
        );
        fs::write(
            root.join("corbeau.toml"),
            format!(
                "data_dir = \"data\"\nlang = \"fr\"\n\n[judge]\naddress = \"{JUDGE}\"\nname = \"Corbeau\"\n\n\
                 [mail]\ntransport = \"smtp\"\nmaildir = \"inbox\"\n\n\
                 [mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\ntimeout = 10\n",
                sink.port
            ),
        )
        .unwrap();
        Judge {
            root,
            sink,
            now: "2026-03-23T08:00:00Z".into(),
            seen: HashSet::new(),
            sent: 0,
        }
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
        support::backend::for_command(&mut command, &self.root.join("data"));
        let out = command
            .args(args)
            .current_dir(&self.root)
            .env("CORBEAU_NOW", &self.now)
            .env("CORBEAU_CONFIG", self.root.join("corbeau.toml"))
            .env_remove("CORBEAU_LANG")
            .env_remove("CORBEAU_DATA")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args, &[]);
        assert_eq!(code, 0, "corbeau {args:?}\n{out}\n{err}");
        out
    }

    /// Drops a mail into the judge's Maildir, as an MTA would.
    fn mail(&mut self, from: &str, body: &str) -> String {
        self.sent += 1;
        let id = format!("{}.{}@player.test", self.sent, self.now);
        self.deliver_raw(&raw_mail(from, &id, body));
        id
    }

    fn deliver_raw(&mut self, raw: &str) {
        let name = format!("{:04}.test", self.sent);
        let tmp = self.root.join("inbox/tmp").join(&name);
        fs::write(&tmp, raw).unwrap();
        fs::rename(&tmp, self.root.join("inbox/new").join(&name)).unwrap();
        self.sent += 1;
    }

    /// One pass that must succeed; its log.
    fn tick(&self) -> String {
        let (code, out, err) = self.run(&["tick"], &[]);
        assert_eq!(code, 0, "corbeau tick\n{out}\n{err}");
        err
    }

    /// Waits for the mails the last commands sent (the server stores them as they come).
    fn new_mails(&mut self, expected: usize) -> Vec<Received> {
        let give_up = Instant::now() + Duration::from_secs(10);
        let mut new = Vec::new();
        while new.len() < expected && Instant::now() < give_up {
            new.extend(unseen(&self.sink.maildir, &mut self.seen));
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        new.extend(unseen(&self.sink.maildir, &mut self.seen));
        assert_eq!(
            new.len(),
            expected,
            "mails received: {:#?}",
            new.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
        );
        new
    }

    fn show(&self) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["game", "show", GAME, "--json"])).unwrap()
    }
}

fn raw_mail(from: &str, message_id: &str, body: &str) -> String {
    format!(
        "From: Joueur <{from}>\r\nTo: Corbeau <{JUDGE}>\r\nSubject: ordres\r\n\
         Message-ID: <{message_id}>\r\nDate: Mon, 23 Mar 2026 09:00:00 +0100\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

fn by_recipient(mails: &[Received]) -> BTreeMap<String, Received> {
    mails.iter().map(|m| (m.to.clone(), m.clone())).collect()
}

fn secret_in(welcome: &Received) -> String {
    welcome
        .body
        .lines()
        .find_map(|l| {
            l.strip_prefix("Votre secret : ")
                .or_else(|| l.strip_prefix("Your secret: "))
        })
        .unwrap_or_else(|| panic!("no secret in {}", welcome.body))
        .trim()
        .to_string()
}

const STARK: &str = "arya@nord.test";
const LANNISTER: &str = "tyrion@roc.test";
const BARATHEON: &str = "stannis@peyredragon.test";
const MODERATOR: &str = "mestre@citadelle.test";

#[test]
fn a_game_played_by_mail_from_sign_on_to_results() {
    let mut j = Judge::new("game");
    let out = j.ok(&[
        "game",
        "new",
        GAME,
        "--players",
        "3",
        "--moderator",
        MODERATOR,
        "--json",
    ]);
    let created: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moderator_secret = created["moderator_secret"].as_str().unwrap().to_string();

    // ------------------------------------------------ the moderator seats the players
    let body = format!(
        "MODERATEUR {GAME} {moderator_secret}\n\
         AJOUTER Stark {STARK}\n\
         AJOUTER Lannister {LANNISTER} en\n\
         AJOUTER Baratheon {BARATHEON}\n\
         DEMARRER\n"
    );
    j.mail(MODERATOR, &body);
    j.tick();
    // Three welcomes, the reply, and "the game begins" to three players and the moderator.
    let mails = j.new_mails(8);
    let welcomes: BTreeMap<String, Received> = by_recipient(
        &mails
            .iter()
            .filter(|m| m.subject.contains("Bienvenue") || m.subject.contains("Welcome"))
            .cloned()
            .collect::<Vec<_>>(),
    );
    assert_eq!(welcomes.len(), 3, "{mails:#?}");
    let reply = mails
        .iter()
        .find(|m| m.to == MODERATOR && m.subject.starts_with("Re:"))
        .unwrap();
    assert!(reply.body.contains("✓ Partie commencée"), "{}", reply.body);
    assert_eq!(reply.reply_to, JUDGE);
    assert!(reply.in_reply_to.is_some());
    let secrets: BTreeMap<&str, String> = [STARK, LANNISTER, BARATHEON]
        .into_iter()
        .map(|a| (a, secret_in(&welcomes[a])))
        .collect();
    assert!(welcomes[LANNISTER].subject.contains("Welcome"));
    assert_eq!(j.show()["status"], "running");

    // ------------------------------------------------ orders, press, readiness
    j.at("2026-03-23T10:00:00Z");
    j.mail(
        STARK,
        &format!(
            "PARTIE {GAME} Stark {}\nA win -> roc\nA moa H\nF bla H\n\n\
             PRESSE A Lannister\nLe Nord se souvient.\nFIN PRESSE\n\n\
             -- \nArya, qui signe\n",
            secrets[STARK]
        ),
    );
    j.tick();
    let mails = by_recipient(&j.new_mails(3));
    let stark_reply = &mails[STARK];
    assert!(
        stark_reply
            .body
            .contains("A Winterfell (win) -> Les Roches (Rivage Pierreux) (roc)"),
        "{}",
        stark_reply.body
    );
    assert!(
        stark_reply.body.contains("Message transmis"),
        "{}",
        stark_reply.body
    );
    let press = &mails[LANNISTER];
    assert!(
        press.body.contains("Le Nord se souvient."),
        "{}",
        press.body
    );
    assert!(press.body.contains("Stark"), "{}", press.body);
    // Neither the signature nor the address of the sender reaches the other house.
    assert!(!press.raw.contains(STARK), "{}", press.raw);
    assert!(!press.body.contains("Arya, qui signe"));
    // The moderator reads all press.
    assert!(mails[MODERATOR].body.contains("Le Nord se souvient."));

    // ------------------------------------------------ a forged From, without the secret
    j.mail(
        STARK,
        &format!("PARTIE {GAME} Stark pas-le-bon\nA win H\nPRET\n"),
    );
    j.tick();
    let forged = j.new_mails(1);
    assert!(
        forged[0].body.contains("maison ou secret incorrect"),
        "{}",
        forged[0].body
    );
    let g = j.show();
    let stark = g["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["house"] == "stark")
        .unwrap();
    assert_eq!(stark["ready"], false);
    assert_eq!(stark["orders"][0]["order"]["text"], "A win -> roc");
    // Kept parsed, with the line of the mail it was written on (the sign-on is line 1).
    assert_eq!(stark["orders"][1]["order"]["text"], "A moa H");
    assert_eq!(stark["orders"][1]["order"]["line"], 3);
    assert_eq!(stark["orders"][1]["unit"], "moa");

    // ------------------------------------------------ the same mail delivered twice
    let lannister_orders = format!(
        "SIGNON {GAME} Lannister {}\nA pie -> ner\nF lan H\nA mfm H\nREADY\n",
        secrets[LANNISTER]
    );
    let raw = raw_mail(LANNISTER, "twice@roc.test", &lannister_orders);
    j.deliver_raw(&raw);
    j.deliver_raw(&raw);
    let out = j.tick();
    assert!(out.contains("doublons 1,"), "{out}");
    let replies = j.new_mails(1);
    assert!(replies[0].body.contains("✓ Ready"), "{}", replies[0].body);
    assert_eq!(replies[0].in_reply_to.as_deref(), Some("twice@roc.test"));

    // ------------------------------------------------ everyone ready: processed at once
    j.mail(
        STARK,
        &format!("PARTIE {GAME} Stark {}\nPRET\n", secrets[STARK]),
    );
    j.mail(
        BARATHEON,
        &format!(
            "Partie: {GAME} Baratheon {}\nA boi -> bie\nA che -> pas\nF acc -> boi\nprêt\n",
            secrets[BARATHEON]
        ),
    );
    let out = j.tick();
    assert!(out.contains("traitée"), "{out}");
    // Two replies, then the results to three players and the moderator.
    let mails = j.new_mails(6);
    let results: Vec<&Received> = mails
        .iter()
        .filter(|m| m.subject.contains("Résultats") || m.subject.contains("Results"))
        .collect();
    assert_eq!(results.len(), 4, "{mails:#?}");
    for r in &results {
        assert!(r.body.starts_with(":: corbeau:"), "{}", r.body);
        assert!(r.body.contains(&format!(":: game: {GAME}")), "{}", r.body);
        // Through SMTP too: the text first, then the board (docs/email.md, "Pictures").
        assert!(r.raw.contains("Content-Type: multipart/mixed"), "{}", r.to);
        let png = r.raw.find("Content-Type: image/png").expect("a picture");
        assert!(
            r.raw
                .find("Content-Type: text/plain")
                .is_some_and(|t| t < png)
        );
    }
    let english = results.iter().find(|r| r.to == LANNISTER).unwrap();
    assert!(english.subject.contains("Results"), "{}", english.subject);
    assert!(english.body.contains(":: lang: en"));
    let g = j.show();
    assert_eq!(g["phase"]["season"], "autumn");

    // ------------------------------------------------ the deadline passes without orders
    let deadline = g["deadline"].as_str().unwrap().to_string();
    j.at(&deadline);
    j.tick();
    // Reminders may have gone out before; at the deadline (grace 0) the phase is played.
    let g = j.show();
    assert_ne!(g["phase"]["season"], "autumn", "{g:#}");
    let mails = j.new_mails_any();
    assert!(
        mails
            .iter()
            .filter(|m| m.subject.contains("Résultats") || m.subject.contains("Results"))
            .count()
            == 4,
        "{:#?}",
        mails
            .iter()
            .map(|m| (&m.to, &m.subject))
            .collect::<Vec<_>>()
    );

    // ------------------------------------------------ status and history by mail
    j.mail(
        BARATHEON,
        &format!(
            "PARTIE {GAME} Baratheon {}\nETAT\nHISTORIQUE printemps 298 mouvements\n",
            secrets[BARATHEON]
        ),
    );
    j.tick();
    let reply = j.new_mails(1).remove(0);
    assert!(reply.body.contains("Date limite"), "{}", reply.body);
    assert!(
        reply.body.contains("Pierremouëtier (pie) -> Néra (ner)"),
        "{}",
        reply.body
    );
    for address in [STARK, LANNISTER, MODERATOR] {
        assert!(
            !reply.raw.contains(address),
            "an address leaked: {}",
            reply.raw
        );
    }
}

impl Judge {
    fn at(&mut self, now: &str) {
        self.now = now.to_string();
    }

    /// Every mail that came since the last look, however many.
    fn new_mails_any(&mut self) -> Vec<Received> {
        std::thread::sleep(Duration::from_millis(300));
        unseen(&self.sink.maildir, &mut self.seen)
    }
}

#[test]
fn a_crash_between_stored_and_sent_loses_nothing_and_sends_once() {
    let mut j = Judge::new("crash");
    j.ok(&["game", "new", GAME, "--players", "3"]);
    j.mail(STARK, "LISTE\n");
    j.mail(LANNISTER, "LIST\n");
    // The replies are stored with the mails' marks, then the process dies before sending.
    let (code, out, err) = j.run(&["tick"], &[("CORBEAU_CRASH", "before-send")]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(j.new_mails_any().is_empty());
    assert!(
        fs::read_dir(j.root.join("inbox/new"))
            .unwrap()
            .next()
            .is_none()
    );
    // Dies right after the server took the first one: the mark "sent" is not written.
    let (code, _, _) = j.run(&["tick"], &[("CORBEAU_CRASH", "after-send")]);
    assert_ne!(code, 0);
    j.tick();
    let mails = j.new_mails_any();
    let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    // Both replies arrived; the one in flight at the crash may come twice, with the same
    // Message-ID (docs/deploy.md): never lost, never a different mail.
    assert_eq!(ids.len(), 2, "{mails:#?}");
    assert!(mails.len() <= 3);
    j.tick();
    assert!(j.new_mails_any().is_empty(), "a restart sent again");
}

#[test]
fn ingest_from_stdin_answers_through_the_outbox_folder() {
    let root = TempDir::new("mail", "stdin");
    let run = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
        support::backend::for_command(&mut command, &root.join("data"));
        let mut child = command
            .args(args)
            .arg("--data")
            .arg(root.join("data"))
            .current_dir(&root)
            .env_remove("CORBEAU_CONFIG")
            .env("CORBEAU_NOW", "2026-03-23T08:00:00Z")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["ingest"], &raw_mail(STARK, "aide@nord.test", "AIDE\n"));
    assert_eq!(code, 0, "{err}");
    let outbox = root.join("data/outbox");
    let files: Vec<PathBuf> = fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let reply = parse(&fs::read(&files[0]).unwrap());
    assert_eq!(reply.to, STARK);
    assert!(
        reply.body.contains("PARTIE <partie> <maison> <secret>"),
        "{}",
        reply.body
    );
    // Not a mail: refused with a clear word, exit 1, nothing answered.
    let (code, err) = run(&["ingest"], "");
    assert_eq!(code, 1);
    assert!(err.contains("rien sur l'entrée standard"), "{err}");
}

#[test]
fn a_mail_the_server_refused_waits_in_the_outbox_and_retry_sends_it_at_once() {
    let mut j = Judge::new("outbox");
    let config = fs::read_to_string(j.root.join("corbeau.toml")).unwrap();
    // The server is somewhere else for a while: nothing listens on that port.
    let wrong = config.replace(
        &format!("port = {}", j.sink.port),
        &format!("port = {}", free_port()),
    );
    fs::write(j.root.join("corbeau.toml"), &wrong).unwrap();
    j.mail(STARK, "AIDE\n");
    // Not sent this time, kept for the next pass: 75.
    let (code, _, out) = j.run(&["tick"], &[]);
    assert_eq!(code, 75, "{out}");
    assert!(out.contains("envoi échoué à arya@nord.test"), "{out}");
    let listed = j.ok(&["outbox"]);
    assert!(listed.contains("arya@nord.test"), "{listed}");
    assert!(listed.contains("1 essai(s) échoué(s)"), "{listed}");
    let rows: serde_json::Value = serde_json::from_str(&j.ok(&["outbox", "--json"])).unwrap();
    assert_eq!(rows[0]["attempts"], 1);
    assert!(rows[0]["next_try"].is_string());
    assert!(rows[0]["last_error"].as_str().unwrap().contains("SMTP"));

    // Mended: without --retry the mail waits for its back-off…
    fs::write(j.root.join("corbeau.toml"), &config).unwrap();
    j.tick();
    assert!(j.new_mails_any().is_empty());
    // …with it, the next pass sends it, once.
    let out = j.ok(&["outbox", "--retry"]);
    assert!(out.contains("réessayés au prochain passage"), "{out}");
    j.tick();
    let mails = j.new_mails(1);
    assert_eq!(mails[0].to, STARK);
    assert_eq!(j.ok(&["outbox"]), "aucun courrier en attente\n");
}
