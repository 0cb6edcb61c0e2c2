//! One source for what happened, and one way to compare addresses.
//!
//! - Each event says, by one mapping (`Event::trace`), the line the audit trail keeps and
//!   who is told: the table below is that mapping as the moderator and players see it.
//! - A trail written by the version before that mapping (`tests/fixtures/store-trail`,
//!   made by its `make.sh` with that version's binary, never from here) prints as that
//!   version printed it, in French, in English and as JSON.
//! - An address is the same whatever its case, the spaces around it and the display name
//!   it comes with, at the command line and in a mail.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::path::Path;

use chrono::{DateTime, Utc};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use corbeau::game::{Address, Event, HouseKey, Revealed, same_address};
use corbeau::lang::Lang;
use support::judge::{Clocked, body_of, root};

fn house(id: &str) -> HouseKey {
    serde_json::from_value(json!(id)).unwrap()
}

fn at(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

/// Notices as stored, each with the houses it concerns.
type Told = Vec<(Value, Vec<String>)>;

/// The line an event leaves in the trail, as stored, and its notices: each one's stored
/// form and the houses it concerns.
fn traced(event: &Event) -> (Value, Told) {
    let trace = event.trace();
    let line = serde_json::to_value(&trace.line).unwrap();
    let notices = trace
        .notices
        .iter()
        .map(|(kind, houses)| {
            (
                serde_json::to_value(kind).unwrap(),
                houses.iter().map(|h| h.as_str().to_string()).collect(),
            )
        })
        .collect();
    (line, notices)
}

#[test]
fn every_kind_of_event_maps_to_its_line_and_its_notices() {
    let deadline = at("2026-03-25T19:00:00Z");
    let since = at("2026-03-23T08:00:00Z");
    let stark = house("stark");
    let no_one: Told = Vec::new();
    let table: Vec<(Event, Value, Told)> = vec![
        (
            Event::Created {
                players: 3,
                variant: "westeros".into(),
            },
            json!({"code": "created", "players": 3, "variant": "westeros"}),
            no_one.clone(),
        ),
        (
            Event::Started {
                deadline: Some(deadline),
            },
            json!({"code": "started", "deadline": "2026-03-25T19:00:00Z"}),
            vec![(json!({"kind": "started"}), vec![])],
        ),
        // A first player is no news; a new player for a house is everyone's.
        (
            Event::Seated {
                house: stark.clone(),
                address: "stark@example.org".into(),
                lang: Lang::Fr,
                replaced: false,
                secret: Revealed("s".into()),
            },
            json!({"code": "seated", "house": "stark", "address": "stark@example.org"}),
            no_one.clone(),
        ),
        (
            Event::Seated {
                house: stark.clone(),
                address: "new@example.org".into(),
                lang: Lang::Fr,
                replaced: true,
                secret: Revealed("s".into()),
            },
            json!({"code": "seated", "house": "stark", "address": "new@example.org"}),
            vec![(json!({"kind": "player-replaced", "house": "stark"}), vec![])],
        ),
        (
            Event::Voted {
                house: stark.clone(),
                vote: None,
                ended: true,
            },
            json!({"code": "vote", "house": "stark", "vote": null}),
            vec![(json!({"kind": "game-over"}), vec![])],
        ),
        // The houses reminded are told; the trail keeps no line of it.
        (
            Event::Reminded {
                houses: vec![stark.clone()],
                deadline,
            },
            Value::Null,
            vec![(
                json!({"kind": "reminder", "deadline": "2026-03-25T19:00:00Z"}),
                vec!["stark".to_string()],
            )],
        ),
        // Anyone may write a request in anyone's name: no line until it is confirmed.
        (
            Event::ConsentAsked {
                address: "someone@example.org".into(),
                again: false,
            },
            Value::Null,
            no_one.clone(),
        ),
        (
            Event::Joined {
                house: stark.clone(),
                address: "joiner@example.org".into(),
                left: 1,
                started: false,
            },
            Value::Null,
            vec![(
                json!({"kind": "joined", "house": "stark", "address": "joiner@example.org",
                       "left": 1, "started": false}),
                vec![],
            )],
        ),
        // What happened beside the game's rules goes the same way.
        (
            Event::SignOnRefused {
                claimed: Some("stark".into()),
                from: "forger@example.org".into(),
            },
            json!({"code": "sign-on-refused", "house": "stark", "from": "forger@example.org",
                   "throttled": false}),
            no_one.clone(),
        ),
        (
            Event::SignOnFailures {
                house: Some(stark.clone()),
                failures: 5,
                since,
            },
            json!({"code": "sign-on-failures", "house": "stark", "failures": 5}),
            vec![(
                json!({"kind": "sign-on-failures", "house": "stark", "failures": 5,
                       "since": "2026-03-23T08:00:00Z"}),
                vec!["stark".to_string()],
            )],
        ),
        (
            Event::Press {
                from: Some(stark.clone()),
                recipients: 2,
                grey: false,
            },
            json!({"code": "press", "from": "stark", "recipients": 2, "grey": false}),
            no_one.clone(),
        ),
        (
            Event::ObserverAsked {
                address: "curieux@example.org".into(),
                token: Revealed("t".into()),
                expires: deadline,
            },
            json!({"code": "observer-asked", "from": "curieux@example.org"}),
            no_one.clone(),
        ),
        (
            Event::Bounced {
                house: stark.clone(),
                address: "stark@example.org".into(),
                reason: "550".into(),
            },
            json!({"code": "bounced", "house": "stark", "address": "stark@example.org",
                   "reason": "550"}),
            vec![(
                json!({"kind": "undeliverable", "house": "stark", "address": "stark@example.org",
                       "reason": "550"}),
                vec![],
            )],
        ),
        // The moderator's own address failing: nobody can be told by mail.
        (
            Event::Undeliverable {
                house: None,
                address: "mod@example.org".into(),
                reason: "550".into(),
                told: false,
            },
            json!({"code": "undeliverable", "house": null, "address": "mod@example.org",
                   "reason": "550"}),
            no_one.clone(),
        ),
        (
            Event::AheadCleared {
                house: stark.clone(),
                phases: Vec::new(),
            },
            json!({"code": "ahead-cleared", "house": "stark", "count": 0}),
            no_one.clone(),
        ),
    ];
    for (event, line, notices) in table {
        assert_eq!(traced(&event), (line, notices), "{event:?}");
    }
    // The positions of an edit are kept beside its line, not in it.
    let edit = Event::Edited {
        reason: "typo".into(),
        before: "A\n".into(),
        after: "B\n".into(),
    }
    .trace();
    assert_eq!(
        serde_json::to_value(&edit.line).unwrap(),
        json!({"code": "edited", "reason": "typo"})
    );
    assert_eq!(edit.data.as_deref(), Some("--- before\nA\n--- after\nB\n"));
}

/// The trail fixture in a folder of its own, run at the time its goldens were made.
fn audit_of_fixture(args: &[&str]) -> String {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-trail");
    let dir = support::TempDir::new("one-source", &args.join("-"));
    support::copy_dir(&fixture.join("data"), &dir.join("data"));
    fs::copy(fixture.join("corbeau.toml"), dir.join("corbeau.toml")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(args)
        .current_dir(dir.path())
        .env("CORBEAU_CONFIG", dir.join("corbeau.toml"))
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_LANG")
        .env("CORBEAU_NOW", "2026-03-23T11:00:00Z")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_trail_written_before_the_one_mapping_prints_as_it_did() {
    let golden = |name: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/store-trail/golden")
            .join(name);
        fs::read_to_string(path).unwrap()
    };
    assert_eq!(
        audit_of_fixture(&["game", "audit", "piste"]),
        golden("audit.fr.txt")
    );
    assert_eq!(
        audit_of_fixture(&["game", "audit", "piste", "--lang", "en"]),
        golden("audit.en.txt")
    );
    let json: Value =
        serde_json::from_str(&audit_of_fixture(&["game", "audit", "piste", "--json"])).unwrap();
    let old: Value = serde_json::from_str(&golden("audit.json")).unwrap();
    assert_eq!(json, old);
}

#[test]
fn addresses_compare_one_way_whatever_their_case_spaces_and_display_name() {
    let plain = Address::new("ned@example.org");
    for written in [
        "ned@example.org",
        "NED@Example.ORG",
        "  ned@example.org \t",
        "<ned@example.org>",
        "Ned Stark <Ned@Example.org>",
        "\"Stark, Ned\" <ned@EXAMPLE.org>",
    ] {
        let address = Address::new(written);
        assert_eq!(address, plain, "{written}");
        assert_eq!(address.as_str(), "ned@example.org", "{written}");
        assert!(same_address(written.trim(), "ned@example.org") || written.contains('<'));
    }
    // Non-ASCII letters fold as ASCII ones do, both ways of comparing alike.
    assert_eq!(
        Address::new("Élodie@Exemple.fr"),
        Address::new("élodie@exemple.fr")
    );
    assert!(same_address("ÉLODIE@exemple.fr", "élodie@exemple.fr"));
    assert_ne!(
        Address::new("ned@example.org"),
        Address::new("ned@example.com")
    );
    // Stored as the plain string it holds, read back as it was written.
    assert_eq!(
        serde_json::to_value(&plain).unwrap(),
        json!("ned@example.org")
    );
    let old: Address = serde_json::from_value(json!("Ned@Example.org")).unwrap();
    assert_eq!(old.as_str(), "Ned@Example.org");
    assert_eq!(
        serde_json::to_value(&old).unwrap(),
        json!("Ned@Example.org")
    );
    assert_eq!(old, plain);
}

const NOW: &str = "2026-03-23T08:00:00Z";

support::judge::clocked_judge!(Judge);

/// Through the binary: the moderator seats a player with an address as a mail client
/// copies it (a display name, capitals); the game keeps the bare address, and the
/// player's mails from it, whatever their case and display name, sign on as that house
/// with no warning that the answer goes elsewhere. A forger at another address with a
/// wrong secret is refused meanwhile.
#[test]
fn an_address_with_a_display_name_is_seated_bare_and_its_owner_signs_on() {
    let j = Judge(Clocked::new(root("one-source-address", ""), at(NOW)));
    j.ok(&[
        "game",
        "new",
        "piste",
        "--players",
        "3",
        "--moderator",
        "Le Modérateur <Mod@Example.org>",
    ]);
    j.ok(&[
        "player",
        "add",
        "piste",
        "stark",
        "Ned Stark <Ned.Stark@Example.ORG>",
        "--secret",
        "loup-garou-7",
    ]);
    let shown = j.show("piste");
    let text = shown.to_string();
    assert!(text.contains("ned.stark@example.org"), "{text}");
    assert!(!text.contains("Ned Stark"), "{text}");
    assert!(!text.contains("Ned.Stark@Example.ORG"), "{text}");
    let audit = j.ok(&["game", "audit", "piste"]);
    assert!(audit.contains("stark : ned.stark@example.org"), "{audit}");

    // A forger's wrong secret, then the owner from their address in capitals, under a
    // display name: each answered once, the owner signed on.
    let forged = post(&j, "forger@example.net", "m1", "PARTIE piste stark devine");
    assert_eq!(forged.len(), 1, "{forged:?}");
    let answers = post(
        &j,
        "Ned <NED.STARK@Example.org>",
        "m2",
        "PARTIE piste stark loup-garou-7",
    );
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(
        answers[0].contains("ned.stark@example.org"),
        "{}",
        answers[0]
    );
    let answer = body_of(&answers[0]);
    assert_ne!(answer, body_of(&forged[0]));
    let bare = post(
        &j,
        "ned.stark@example.org",
        "m3",
        "PARTIE piste stark loup-garou-7",
    );
    assert_eq!(bare.len(), 1, "{bare:?}");
    // Signed on from either spelling (the first answer also tells of the forger's try).
    for answer in [answer, body_of(&bare[0])] {
        assert!(
            answer.contains("✓ Identifié(e) : Stark, partie piste."),
            "{answer}"
        );
    }
}

/// Hands a mail in through `corbeau ingest` with this From header; the mails that answer
/// it, whoever they are to.
fn post(j: &Judge, from: &str, id: &str, body: &str) -> Vec<String> {
    let raw = support::judge::mail(from, &format!("{id}@example.net"), body);
    let out = support::judge::run(&mut j.command(&["ingest"]), &raw);
    assert_eq!(out.status.code(), Some(0), "{}", support::judge::said(&out));
    fs::read_dir(j.dir.join("data/outbox"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .filter(|t| t.contains(&format!("In-Reply-To: <{id}@example.net>")))
        .collect()
}
