//! What the judge's mail edge gives away, answers and logs, through the binary as a mail
//! server drives it (`corbeau ingest`, `corbeau tick` on a Maildir; the clock fixed): an
//! address change answers the same for a player's address as for a stranger's; a mail
//! the mail server marked as spam is neither answered nor carried out (and the same mail
//! unmarked is); each mail read has its log line; a secret written in any shape is
//! masked wherever the mail is quoted.

#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeSet;
use std::process::{Command, Output};
use std::time::{Instant, SystemTime};

use support::TempDir;
use support::judge::{corbeau, deliver, mails_to, root, run, said};

const NOW: &str = "2026-03-23T08:00:00Z";
const GAME: &str = "bataille";
const STARK: &str = "stark@example.org";
const LANNISTER: &str = "lannister@example.org";
const MODERATOR: &str = "mestre@example.org";
const STARK_SECRET: &str = "loup-gris";
const LANNISTER_SECRET: &str = "lion-dor";

/// A judge with a started game of three, its addresses hidden (the default), moderated
/// by [`MODERATOR`].
struct Judge {
    dir: TempDir,
}

impl Judge {
    fn new(name: &str, extra: &str) -> Judge {
        let judge = Judge {
            dir: root(&format!("trust-{name}"), extra),
        };
        judge.ok(&[
            "game",
            "new",
            GAME,
            "--players",
            "3",
            "--moderator",
            MODERATOR,
        ]);
        for (house, secret) in [
            ("stark", STARK_SECRET),
            ("lannister", LANNISTER_SECRET),
            ("baratheon", "cerf-noir"),
        ] {
            let address = format!("{house}@example.org");
            judge.ok(&["player", "add", GAME, house, &address, "--secret", secret]);
        }
        judge.ok(&["game", "start", GAME]);
        // The game's first mails written and sent: what follows is the mails' doing.
        judge.ok(&["tick"]);
        judge
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = corbeau(&self.dir);
        c.args(args)
            .env("CORBEAU_NOW", NOW)
            .env_remove("CORBEAU_LOG");
        c
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = run(&mut self.command(args), "");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", said(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Hands a raw mail to `corbeau ingest`, as the mail server's pipe does.
    fn ingest(&self, raw: &str) -> Output {
        let out = run(&mut self.command(&["ingest"]), raw);
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        out
    }

    /// The mails to `to` written by what `act` does.
    fn new_mails(&self, to: &str, act: impl FnOnce()) -> Vec<String> {
        let before: BTreeSet<String> = mails_to(&self.dir, to).into_iter().collect();
        act();
        mails_to(&self.dir, to)
            .into_iter()
            .filter(|m| !before.contains(m))
            .collect()
    }

    fn address_of(&self, house: &str) -> String {
        let show: serde_json::Value =
            serde_json::from_str(&self.ok(&["game", "show", GAME, "--json"])).unwrap();
        let seat = show["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["house"] == house)
            .unwrap();
        seat["player"]["address"].as_str().unwrap().to_string()
    }
}

fn mail(from: &str, id: &str, subject: &str, headers: &str, body: &str) -> String {
    format!("From: {from}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n{headers}\r\n{body}\r\n")
}

fn sign_on(house: &str, secret: &str) -> String {
    format!("PARTIE {GAME} {house} {secret}\n")
}

/// The subjects of mails, for a failure's message.
fn subjects(mails: &[String]) -> Vec<&str> {
    mails
        .iter()
        .filter_map(|m| m.lines().find(|l| l.starts_with("Subject:")))
        .collect()
}

/// The body of a mail as the outbox folder keeps it, from its first empty line.
fn body(mail: &str) -> &str {
    mail.split_once("\r\n\r\n").map_or(mail, |(_, b)| b)
}

// --- An address change is no oracle of who plays -------------------------------------

#[test]
fn an_address_change_answers_the_same_for_a_player_s_address_as_for_a_stranger_s() {
    let j = Judge::new("address", "");
    let stranger = "arya@braavos.test";
    let ask = |id: &str, address: &str| {
        let text = format!("{}ADRESSE {address}\n", sign_on("stark", STARK_SECRET));
        let replies = j.new_mails(STARK, || {
            j.ingest(&mail(STARK, id, "adresse", "", &text));
        });
        assert_eq!(replies.len(), 1, "{:?}", subjects(&replies));
        support::flat(body(&replies[0])).replace(address, "<ADDRESS>")
    };
    let mut told_lannister = Vec::new();
    let to_player = {
        let before = mails_to(&j.dir, LANNISTER).len();
        let answer = ask("a1@example.org", LANNISTER);
        told_lannister.push(mails_to(&j.dir, LANNISTER).len() - before);
        answer
    };
    let to_moderator = ask("a2@example.org", MODERATOR);
    let codes = j.new_mails(stranger, || {
        let to_stranger = ask("a3@example.org", stranger);
        assert_eq!(to_player, to_stranger);
        assert_eq!(to_moderator, to_stranger);
    });
    // Nothing changed yet, whoever's address it was; nobody of the game was written to.
    assert_eq!(j.address_of("stark"), STARK);
    assert_eq!(told_lannister, [0]);
    assert!(!to_player.contains("✗"), "{to_player}");
    // The judge's own address, which everyone knows, is still refused at once.
    let to_judge = ask("a4@example.org", "juge@example.org");
    assert!(to_judge.contains("✗"), "{to_judge}");

    // The owner's path: the code mailed to the new address confirms the change.
    assert_eq!(codes.len(), 1, "{:?}", subjects(&codes));
    let code = support::flat(body(&codes[0]))
        .split(&format!("ADRESSE {stranger} "))
        .nth(1)
        .and_then(|rest| rest.split(['`', ' ']).next())
        .unwrap()
        .to_string();
    assert_eq!(code.len(), 10, "{}", codes[0]);
    // A wrong code changes nothing; the right one does, and the old address hears of it.
    let text = format!(
        "{}ADRESSE {stranger} zzzzzzzzzz\n",
        sign_on("stark", STARK_SECRET)
    );
    j.ingest(&mail(STARK, "a5@example.org", "adresse", "", &text));
    assert_eq!(j.address_of("stark"), STARK);
    let text = format!(
        "{}ADRESSE {stranger} {code}\n",
        sign_on("stark", STARK_SECRET)
    );
    let replies = j.new_mails(STARK, || {
        j.ingest(&mail(STARK, "a6@example.org", "adresse", "", &text));
    });
    assert_eq!(j.address_of("stark"), stranger);
    assert!(
        replies.iter().any(|r| r.contains(stranger)),
        "{:?}",
        subjects(&replies)
    );
    // A code is for the address it was mailed to, not another.
    let text = format!(
        "{}ADRESSE {LANNISTER} {code}\n",
        sign_on("stark", STARK_SECRET)
    );
    j.ingest(&mail(stranger, "a7@example.org", "adresse", "", &text));
    assert_eq!(j.address_of("stark"), stranger);
}

// --- Mail marked as spam --------------------------------------------------------------

#[test]
fn a_mail_marked_spam_is_neither_answered_nor_carried_out_and_unmarked_it_is() {
    let j = Judge::new("spam", "");
    let text = format!("{}ADRESSE {STARK}\nPRET\n", sign_on("stark", STARK_SECRET));
    for (id, flag) in [
        ("s1@example.org", "X-Spam-Flag: YES\r\n"),
        (
            "s2@example.org",
            "X-Spam-Status: Yes, score=7.1 required=5.0\r\n",
        ),
        ("s3@example.org", "x-spam-flag: yes\r\n"),
    ] {
        let answers = j.new_mails(STARK, || {
            j.ingest(&mail(STARK, id, "ordres", flag, &text));
        });
        assert!(answers.is_empty(), "{flag}: {:?}", subjects(&answers));
    }
    // A filter that says no is no mark; the real player's mail is answered.
    let answers = j.new_mails(STARK, || {
        j.ingest(&mail(
            STARK,
            "s4@example.org",
            "ordres",
            "X-Spam-Status: No, score=-0.1\r\n",
            &text,
        ));
    });
    assert_eq!(answers.len(), 1);
    // The administrator hands in again a mail the filter got wrong, mark removed: it was
    // not taken as acted on, so it is carried out now.
    let answers = j.new_mails(STARK, || {
        j.ingest(&mail(STARK, "s1@example.org", "ordres", "", &text));
    });
    assert_eq!(answers.len(), 1);
    assert!(body(&answers[0]).contains("✓"), "{}", answers[0]);
}

#[test]
fn the_spam_headers_are_a_setting() {
    let j = Judge::new(
        "spam-setting",
        "spam_headers = [{ header = \"X-Filter\", value = \"junk\" }]\n",
    );
    let text = "AIDE\n";
    let answers = j.new_mails(STARK, || {
        j.ingest(&mail(
            STARK,
            "f1@example.org",
            "aide",
            "X-Filter: Junk (7)\r\n",
            text,
        ));
    });
    assert!(answers.is_empty(), "{:?}", subjects(&answers));
    // SpamAssassin's header is no longer read: the setting replaced it.
    let answers = j.new_mails(STARK, || {
        j.ingest(&mail(
            STARK,
            "f2@example.org",
            "aide",
            "X-Spam-Flag: YES\r\n",
            text,
        ));
    });
    assert_eq!(answers.len(), 1);
}

// --- One log line per mail ------------------------------------------------------------

#[test]
fn each_mail_read_has_a_log_line_with_its_message_id_its_sender_and_its_fate() {
    let j = Judge::new("log", "");
    let now = SystemTime::now();
    let mails = [
        (
            "1.orders",
            mail(
                STARK,
                "log-orders@example.org",
                "ordres",
                "",
                &format!("{}PRET\n", sign_on("stark", STARK_SECRET)),
            ),
        ),
        (
            "2.again",
            mail(STARK, "log-orders@example.org", "ordres", "", "AIDE\n"),
        ),
        (
            "3.spam",
            mail(
                "forged@example.net",
                "log-spam@example.net",
                "gagnez",
                "X-Spam-Flag: YES\r\n",
                "AIDE\n",
            ),
        ),
        (
            "4.auto",
            mail(
                "away@example.net",
                "log-auto@example.net",
                "absent",
                "Auto-Submitted: auto-replied\r\n",
                "absent",
            ),
        ),
        ("5.junk", "\u{1}\u{2} not a mail at all\n".to_string()),
    ];
    for (name, raw) in &mails {
        deliver(&j.dir, name, raw, now);
    }
    let out = run(&mut j.command(&["tick"]), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = |id: &str| {
        log.lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("no line for {id} in {log}"))
            .to_string()
    };
    let orders = line("log-orders@example.org");
    assert!(orders.contains(STARK) && orders.contains(GAME), "{orders}");
    let again = log
        .lines()
        .filter(|l| l.contains("log-orders@example.org"))
        .nth(1)
        .unwrap_or_else(|| panic!("no line for the duplicate in {log}"));
    assert_ne!(again, orders);
    let spam = line("log-spam@example.net");
    assert!(
        spam.contains("forged@example.net") && spam.contains("X-Spam-Flag"),
        "{spam}"
    );
    let auto = line("log-auto@example.net");
    assert!(auto.contains("away@example.net"), "{auto}");
    // The sender is given as the mail writes it, not as proven.
    assert!(spam.contains("selon le courriel"), "{spam}");
    // A file that is no mail has its line too, naming the file set aside.
    assert!(
        log.lines()
            .any(|l| l.contains("5.junk") && l.contains("INFO")),
        "{log}"
    );
    // The same in JSON, field by field.
    let j2 = Judge::new("log-json", "");
    deliver(
        &j2.dir,
        "1.help",
        &mail(STARK, "json@example.org", "aide", "", "AIDE\n"),
        now,
    );
    let out = run(&mut j2.command(&["tick", "--log-format", "json"]), "");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let line: serde_json::Value = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["message_id"] == "json@example.org")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(line["from"], STARK);
    assert_eq!(line["fate"], "carried-out");
    assert_eq!(line["level"], "INFO");
}

// --- A secret is masked whatever the shape of its line --------------------------------

#[test]
fn a_secret_in_a_line_of_any_shape_is_masked_in_the_reply_its_copy_and_its_subject() {
    let j = Judge::new("mask", "");
    let shapes = [
        format!("GAME {GAME} lannister {LANNISTER_SECRET}"),
        format!("partie {GAME}, mon secret est {LANNISTER_SECRET}, merci"),
        format!("PARTIE {GAME} {LANNISTER_SECRET}"),
        format!("SIGNON {GAME}:lannister ({LANNISTER_SECRET})"),
    ];
    for (n, shape) in shapes.iter().enumerate() {
        // Alone, and after a right sign-on made from another address (the registered
        // address gets a copy of the answer).
        let alone = format!("{shape}\n");
        let signed = format!("{}{shape}\n", sign_on("lannister", LANNISTER_SECRET));
        for (m, text) in [alone, signed].iter().enumerate() {
            let subject = format!("Re: {shape}");
            let from = "ailleurs@example.net";
            let id = format!("mask{n}-{m}@example.net");
            let replies = j.new_mails(from, || {
                let copies = j.new_mails(LANNISTER, || {
                    j.ingest(&mail(from, &id, &subject, "", text));
                });
                for copy in &copies {
                    assert!(!copy.contains(LANNISTER_SECRET), "{shape}: {copy}");
                }
                assert_eq!(copies.len(), m, "{shape}: {:?}", subjects(&copies));
            });
            assert_eq!(replies.len(), 1, "{shape}");
            assert!(
                !replies[0].contains(LANNISTER_SECRET),
                "{shape}: {}",
                replies[0]
            );
            assert!(replies[0].contains("********"), "{shape}: {}", replies[0]);
        }
    }
    // The owner's path: the secret still signs on.
    let text = format!("{}PRET\n", sign_on("lannister", LANNISTER_SECRET));
    let replies = j.new_mails(LANNISTER, || {
        j.ingest(&mail(
            LANNISTER,
            "mask-owner@example.org",
            "pret",
            "",
            &text,
        ));
    });
    assert!(body(&replies[0]).contains("✓"), "{}", replies[0]);
}

#[test]
fn the_subject_of_a_mail_set_aside_shows_no_secret_to_the_moderator_or_the_admin() {
    let j = Judge::new("mask-quarantine", "");
    let raw = mail(
        STARK,
        "poison@example.org",
        &format!("mon secret {STARK_SECRET}"),
        "",
        &format!("{}POISON\n", sign_on("stark", STARK_SECRET)),
    );
    let out = run(
        j.command(&["ingest"]).env("CORBEAU_POISON", "panic:POISON"),
        &raw,
    );
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{}",
        said(&out)
    );
    for to in [MODERATOR, "admin@example.org"] {
        let told = mails_to(&j.dir, to);
        let told: Vec<&String> = told.iter().filter(|m| m.contains("poison")).collect();
        assert!(!told.is_empty(), "{to}");
        for mail in told {
            assert!(!mail.contains(STARK_SECRET), "{to}: {mail}");
        }
    }
}

/// The cost of the sieve a mail's quoted words are checked against: at most 160 checks
/// (words times secrets kept by the game), past which words are hidden unchecked.
#[test]
fn checking_a_mail_s_words_against_every_sieve_of_a_game_costs_little() {
    use corbeau::game::{SieveKey, hash_secret, install_sieve_key, sieve_passes};
    // The sieve is keyed with the judge's key, which a judge installs when it opens its
    // store; this process installs one (or keeps the first one installed).
    install_sieve_key(SieveKey::random().unwrap());
    let seats: Vec<String> = (0..10)
        .map(|i| hash_secret(&format!("secret-{i}-xyz")).unwrap())
        .collect();
    let words: Vec<String> = (0..16).map(|i| format!("longword{i}")).collect();
    let start = Instant::now();
    let passed = words
        .iter()
        .filter(|w| seats.iter().any(|s| sieve_passes(w, s)))
        .count();
    let spent = start.elapsed();
    eprintln!("16 words x 10 secrets (the most one mail costs): {spent:?}, {passed} passed");
    assert!(passed < 3, "{passed}");
    assert!(sieve_passes("secret-3-xyz", &seats[3]));
    assert!(!sieve_passes("secret-3-xyz", "no hash"));
    // A stored hash without its sieve: nothing to check cheaply.
    let bare = seats[3].split('~').next().unwrap();
    assert!(!sieve_passes("secret-3-xyz", bare));
    // Generous for a loaded machine: a few milliseconds on an idle one.
    assert!(spent.as_millis() < 100, "{spent:?}");
}

#[test]
fn past_the_checks_a_mail_may_cost_its_quoted_words_are_hidden_unchecked() {
    let j = Judge::new("mask-many", "");
    let many: Vec<String> = (0..60).map(|i| format!("motlong{i:03}")).collect();
    let text = format!(
        "{}{}\n",
        sign_on("lannister", LANNISTER_SECRET),
        many.join(" ")
    );
    let replies = j.new_mails(LANNISTER, || {
        let start = Instant::now();
        j.ingest(&mail(LANNISTER, "many@example.org", "mots", "", &text));
        eprintln!("a mail quoting 60 words: {:?}", start.elapsed());
    });
    let reply = body(&replies[0]);
    assert!(reply.contains("motlong000"), "{reply}");
    assert!(!reply.contains("motlong059"), "{reply}");
}
