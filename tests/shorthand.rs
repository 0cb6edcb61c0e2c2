//! njudge's shorthand, through the binary as a mail server drives it (`corbeau ingest`,
//! the clock fixed): house letters in sign-ons and press headers, convoy paths, diaries;
//! and the forgers who try them.

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use support::TempDir;
use support::judge::{at, mails_to, root, run, said};

const GAME: &str = "nord";
const NOW: &str = "2026-03-23T08:00:00Z";
const STARK: &str = "stark@example.org";
const LANNISTER: &str = "lannister@example.org";
const BARATHEON: &str = "baratheon@example.org";
const MODERATOR: &str = "mod@example.org";
const FORGER: &str = "forger@example.net";

fn ok(dir: &Path, args: &[&str]) -> String {
    support::judge::ok_at(dir, NOW, args)
}

fn send(dir: &Path, from: &str, id: &str, body: &str) -> String {
    support::judge::answer_at(dir, NOW, from, id, body)
}

/// A running Westeros game of three (Stark S, Lannister L, Baratheon B) with a
/// moderator: its folder and the moderator's secret.
fn judge(name: &str, game: &str) -> (TempDir, String) {
    let dir = root(&format!("shorthand-{name}"), "");
    let moderator = new_game(&dir, game);
    (dir, moderator)
}

fn new_game(dir: &Path, game: &str) -> String {
    let out = ok(
        dir,
        &[
            "game",
            "new",
            game,
            "--players",
            "3",
            "--moderator",
            MODERATOR,
            "--json",
        ],
    );
    let created: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moderator = created["moderator_secret"].as_str().unwrap().to_string();
    for (house, address, secret) in [
        ("stark", STARK, "loup-gris-7"),
        ("lannister", LANNISTER, "lion-dor-42"),
        ("baratheon", BARATHEON, "cerf-noir-3"),
    ] {
        ok(
            dir,
            &[
                "player",
                "add",
                game,
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                "en",
            ],
        );
    }
    ok(dir, &["game", "start", game]);
    moderator
}

fn orders_of(dir: &Path, game: &str, house: &str) -> String {
    ok(dir, &["orders", "show", game, house])
}

// ================================================================= sign-on by letter

#[test]
fn a_letter_glued_to_the_game_signs_the_house_on_and_its_secret_stays_hidden() {
    let (dir, _) = judge("glued", GAME);
    let reply = send(
        &dir,
        STARK,
        "s1",
        "SIGNON Snord loup-gris-7\nA win -> kar\n",
    );
    assert!(!reply.contains("loup-gris-7"), "{reply}");
    assert!(reply.contains("SIGNON Snord ********"), "{reply}");
    assert!(reply.contains("Stark"), "{reply}");
    assert!(orders_of(&dir, GAME, "stark").contains("kar"), "{reply}");
}

#[test]
fn a_letter_after_the_game_signs_the_house_on() {
    let (dir, _) = judge("after", GAME);
    let reply = send(
        &dir,
        LANNISTER,
        "l1",
        "SIGNON nord L lion-dor-42\nF Port-Lannis H\n",
    );
    assert!(!reply.contains("lion-dor-42"), "{reply}");
    assert!(reply.contains("SIGNON nord L ********"), "{reply}");
    assert!(
        orders_of(&dir, GAME, "lannister").contains("lan"),
        "{reply}"
    );
}

#[test]
fn m_is_the_moderator_in_both_forms() {
    let (dir, moderator) = judge("moderator", GAME);
    for (id, line) in [
        ("m1", format!("SIGNON Mnord {moderator}")),
        ("m2", format!("SIGNON nord M {moderator}")),
    ] {
        let reply = send(&dir, MODERATOR, id, &format!("{line}\nPAUSE\n"));
        assert!(!reply.contains(&moderator), "{reply}");
        let show = ok(&dir, &["game", "show", GAME, "--json"]);
        assert!(show.contains("paused"), "{line}: {reply}\n{show}");
        ok(&dir, &["game", "resume", GAME]);
    }
}

#[test]
fn a_forger_with_a_letter_form_is_refused_and_the_owner_still_signs_on() {
    let (dir, _) = judge("forger", GAME);
    for (id, line) in [
        ("f1", "SIGNON Snord devine-123"),
        ("f2", "SIGNON nord S devine-123"),
        ("f3", "SIGNON Mnord devine-123"),
    ] {
        let reply = send(&dir, FORGER, id, &format!("{line}\nA win -> kar\n"));
        assert!(!reply.contains("devine-123"), "{reply}");
        assert!(
            !orders_of(&dir, GAME, "stark").contains("kar"),
            "{line}: {reply}"
        );
    }
    let reply = send(
        &dir,
        STARK,
        "s1",
        "SIGNON Snord loup-gris-7\nA win -> kar\n",
    );
    assert!(orders_of(&dir, GAME, "stark").contains("kar"), "{reply}");
}

#[test]
fn a_game_whose_id_starts_with_the_letter_is_never_taken_for_the_shorthand() {
    // `snord` is a game too: `SIGNON Snord …` names it, and lacks its house.
    let (dir, _) = judge("clash", GAME);
    new_game(&dir, "snord");
    let reply = send(
        &dir,
        STARK,
        "s1",
        "SIGNON Snord loup-gris-7\nA win -> kar\n",
    );
    assert!(!reply.contains("loup-gris-7"), "{reply}");
    assert!(!orders_of(&dir, GAME, "stark").contains("kar"), "{reply}");
    assert!(
        !orders_of(&dir, "snord", "stark").contains("kar"),
        "{reply}"
    );
}

// ================================================================= press by letters

#[test]
fn press_to_letters_reaches_those_houses_and_m_the_moderator() {
    let (dir, _) = judge("press", GAME);
    send(
        &dir,
        STARK,
        "p1",
        "SIGNON Snord loup-gris-7\nPRESS TO LB\nWinter is coming.\nEND PRESS\n",
    );
    for to in [LANNISTER, BARATHEON] {
        let got = mails_to(&dir, to);
        assert!(
            got.iter().any(|m| m.contains("Winter is coming")),
            "{to}: {got:?}"
        );
    }
    send(
        &dir,
        STARK,
        "p2",
        "SIGNON Snord loup-gris-7\nPRESSE A M\nUne question.\nFIN PRESSE\n",
    );
    let got = mails_to(&dir, MODERATOR);
    assert!(got.iter().any(|m| m.contains("Une question")), "{got:?}");
    assert!(
        !mails_to(&dir, LANNISTER)
            .iter()
            .any(|m| m.contains("Une question"))
    );
}

#[test]
fn press_to_letters_mixed_with_garbage_sends_nothing() {
    let (dir, _) = judge("press-garbage", GAME);
    let reply = send(
        &dir,
        STARK,
        "p1",
        "SIGNON Snord loup-gris-7\nPRESS TO LX\nSecret plans.\nEND PRESS\n",
    );
    for to in [LANNISTER, BARATHEON, MODERATOR] {
        assert!(
            !mails_to(&dir, to)
                .iter()
                .any(|m| m.contains("Secret plans")),
            "{to}: {reply}"
        );
    }
    assert!(reply.contains("LX"), "{reply}");
}

// ================================================================= diaries

#[test]
fn a_diary_never_harms_the_orders_beside_it() {
    let (dir, _) = judge("diary", GAME);
    let reply = send(
        &dir,
        STARK,
        "d1",
        "SIGNON Snord loup-gris-7\nA win -> kar\nDIARY\nIF Lannister attacks\nthen I go south\nENDDIARY\nREADY\n",
    );
    assert!(orders_of(&dir, GAME, "stark").contains("kar"), "{reply}");
    assert!(reply.contains("2 line(s) set aside"), "{reply}");
    assert!(!reply.contains("unknown province"), "{reply}");
}

#[test]
fn a_huge_diary_is_set_aside_whole() {
    let (dir, _) = judge("diary-huge", GAME);
    let notes = "my secret plan against everyone\n".repeat(5_000);
    let body = format!("SIGNON Snord loup-gris-7\nA win -> kar\nJOURNAL\n{notes}FIN JOURNAL\n");
    let reply = send(&dir, STARK, "d1", &body);
    assert!(orders_of(&dir, GAME, "stark").contains("kar"), "{reply}");
    assert!(!reply.contains("my secret plan"), "{reply}");
    assert!(reply.len() < 20_000, "{}", reply.len());
}

// ================================================================= convoy paths

/// A classic game of seven whose England has a fleet in the North Sea and an army in
/// Yorkshire, in the autumn of 1901 (the other houses held in the spring).
fn convoy_game(name: &str) -> TempDir {
    let dir = root(&format!("shorthand-{name}"), "");
    ok(
        &dir,
        &[
            "game",
            "new",
            "mer",
            "--variant",
            "classique",
            "--moderator",
            MODERATOR,
        ],
    );
    for house in [
        "austria", "england", "france", "germany", "italy", "russia", "turkey",
    ] {
        let address = format!("{house}@example.org");
        let secret = format!("rule-{house}");
        ok(
            &dir,
            &[
                "player",
                "add",
                "mer",
                house,
                &address,
                "--secret",
                &secret,
                "--player-lang",
                "en",
            ],
        );
    }
    ok(&dir, &["game", "start", "mer"]);
    let out = run(
        &mut at(&dir, NOW, &["orders", "submit", "mer", "england", "-"]),
        "F Edi-Nth\nA Lvp-Yor\nF Lon H\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    ok(&dir, &["game", "process", "mer"]);
    dir
}

#[test]
fn a_convoy_path_is_a_move_by_convoy_and_ready_is_taken() {
    let dir = convoy_game("path");
    let reply = send(
        &dir,
        "england@example.org",
        "e1",
        "SIGNON Emer rule-england\nF NTH C A YOR-NWY\nA YOR-NTH-NWY\nF Lon H\nREADY\n",
    );
    assert!(!reply.contains("note on"), "{reply}");
    assert!(!reply.to_lowercase().contains("refused"), "{reply}");
    ok(&dir, &["game", "process", "mer"]);
    let show = ok(&dir, &["game", "show", "mer", "--json"]);
    assert!(show.contains("nwy"), "{show}");
}

#[test]
fn a_convoy_path_through_a_sea_without_a_convoy_of_ours_is_noted_not_refused() {
    let dir = convoy_game("path-note");
    let reply = send(
        &dir,
        "england@example.org",
        "e1",
        "SIGNON Emer rule-england\nF NTH H\nA Yor -> Nth -> Nwy\nF Lon H\n",
    );
    assert!(reply.contains("no fleet of yours in North Sea"), "{reply}");
    assert!(orders_of(&dir, "mer", "england").contains("nwy"), "{reply}");
}

// ================================================================= the variant's letters

#[test]
fn the_loader_refuses_m_a_repeated_letter_and_more_than_one_letter() {
    let dir = root("shorthand-letters", "");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/westeros.toml"))
        .unwrap()
        .replace("letter = \"D\"", "letter = \"M\"")
        .replace("letter = \"G\"", "letter = \"s\"")
        .replace("letter = \"T\"", "letter = \"Ty\"");
    let file = dir.join("lettres.toml");
    std::fs::write(&file, text).unwrap();
    let out = run(
        &mut at(&dir, NOW, &["map", "check", file.to_str().unwrap()]),
        "",
    );
    let said = said(&out);
    assert_ne!(out.status.code(), Some(0), "{said}");
    for key in [
        "[house martell] letter",
        "[house greyjoy] letter",
        "[house tyrell] letter",
    ] {
        assert!(said.contains(key), "{key}: {said}");
    }
}
