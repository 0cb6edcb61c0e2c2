//! A game that `corbeau tick` cannot process is reported in the command line's language
//! (`clock.game_failed`), changes nothing, and does not stop the other games: here a game
//! whose pinned variant's content has gone from the store. And the exit codes of `tick`
//! (docs/exit-codes.md): 1 for such a game, 75 for mail the transport could not take this
//! time, 2 for a store that lost what it must hold.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Output;

mod support;
use support::cli::CliJudge;

const BEFORE: &str = support::cli::NOW;
/// After the first deadline of a game started at `BEFORE`.
const AFTER: &str = "2026-03-27T08:00:00Z";

fn open_db(j: &CliJudge) -> sled::Db {
    support::open_sled(&j.data())
}

/// The keys of the store's variant contents.
fn variant_keys(j: &CliJudge) -> BTreeSet<Vec<u8>> {
    let db = open_db(j);
    let tree = db.open_tree("variants").unwrap();
    tree.iter().keys().map(|k| k.unwrap().to_vec()).collect()
}

fn forget_variants(j: &CliJudge, keys: &BTreeSet<Vec<u8>>) {
    let db = open_db(j);
    let tree = db.open_tree("variants").unwrap();
    for key in keys {
        tree.remove(key).unwrap();
    }
    db.flush().unwrap();
}

/// The game as the store keeps it (bytes): it cannot be exported without its variant.
fn stored(j: &CliJudge, game: &str) -> Vec<u8> {
    let db = open_db(j);
    let tree = db.open_tree("games").unwrap();
    tree.get(game).unwrap().unwrap().to_vec()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `perdue` plays a copy of Westeros whose content the store lost; `saine` plays
/// Westeros.
fn broken(name: &str) -> CliJudge {
    let j = lost_before_mails(name);
    // The welcome and start mails of `saine` written; those of `perdue` held.
    j.run_at(BEFORE, &["tick"]);
    j
}

/// The same, the variant lost before any mail of either game was written.
fn lost_before_mails(name: &str) -> CliJudge {
    let j = CliJudge::new("tick-errors", name);
    let westeros = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/westeros.toml");
    let copy = format!("{}\n# a copy\n", fs::read_to_string(westeros).unwrap());
    fs::write(j.root.join("copie.toml"), copy).unwrap();
    j.started("perdue", "copie.toml");
    let lost = variant_keys(&j);
    j.started("saine", "westeros");
    assert_eq!(variant_keys(&j).len(), 2);
    forget_variants(&j, &lost);
    j
}

#[test]
fn the_notices_of_a_game_that_cannot_be_read_wait_and_hold_back_no_other_game() {
    let j = lost_before_mails("notices");
    let out = j.run_at(BEFORE, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("perdue : partie non traitée, laissée telle quelle : "),
        "{stderr}"
    );
    let sent = j.outbox();
    for house in ["stark", "lannister", "baratheon"] {
        let to = format!("To: {house}-saine@example.org");
        assert!(sent.iter().any(|m| m.contains(&to)), "{to}: {sent:#?}");
    }
    assert!(
        !sent.iter().any(|m| m.contains("-perdue@example.org")),
        "{sent:#?}"
    );
    // Still waiting at the next pass, still reported, nothing sent twice.
    let again = j.run_at(BEFORE, &["tick"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again).1.contains("perdue : partie non traitée"));
    assert_eq!(j.outbox().len(), sent.len());
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_french_and_the_others_go_on() {
    let j = broken("fr");
    let before = stored(&j, "perdue");
    let out = j.run_at(AFTER, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(" ERREUR perdue : partie non traitée, laissée telle quelle : "),
        "{stderr}"
    );
    assert!(!stderr.contains("could not be handled"), "{stderr}");
    assert!(stderr.contains(" INFO saine: traitée : "), "{stderr}");
    assert!(stderr.contains("1 erreur(s)"), "{stderr}");
    assert_eq!(stored(&j, "perdue"), before, "the failed game changed");
}

#[test]
fn a_game_that_cannot_be_processed_is_reported_in_english() {
    let j = broken("en");
    let out = j.run_at(AFTER, &["tick", "--lang", "en"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(" ERROR perdue: could not be handled, left as it was: "),
        "{stderr}"
    );
    assert!(!stderr.contains("partie non traitée"), "{stderr}");
    assert!(stderr.contains(" INFO saine: processed: "), "{stderr}");
    // As JSON, the message is in the same language.
    let j = broken("json");
    let out = j.run_at(AFTER, &["tick", "--lang", "en", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = value["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{value}");
    assert_eq!(errors[0][0], "perdue");
}

/// A judge whose mail goes through `[mail]` as `mail` says, with a started game whose
/// three welcome mails the next `tick` sends.
fn sending(name: &str, mail: &str) -> CliJudge {
    let j = CliJudge::new("tick-errors", name);
    fs::write(
        j.root.join("corbeau.toml"),
        format!("[judge]\naddress = \"juge@example.org\"\n{mail}"),
    )
    .unwrap();
    j.started("bataille", "westeros");
    j
}

#[test]
fn tick_exits_75_when_sendmail_says_try_again_later_and_keeps_the_mails() {
    use std::os::unix::fs::PermissionsExt;
    // A sendmail that answers EX_TEMPFAIL, as Postfix's does with a full queue.
    let script = support::TempDir::new("tick-errors", "sendmail-script");
    let command = script.join("sendmail");
    fs::write(
        &command,
        "#!/bin/sh\ncat >/dev/null\necho 'queue full' >&2\nexit 75\n",
    )
    .unwrap();
    fs::set_permissions(&command, fs::Permissions::from_mode(0o755)).unwrap();
    let j = sending(
        "sendmail-75",
        &format!(
            "[mail]\ntransport = \"sendmail\"\n[mail.sendmail]\ncommand = \"{}\"\n",
            command.display()
        ),
    );
    let out = j.run_at(BEFORE, &["tick"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(75), "{stdout}{stderr}");
    assert!(
        stderr.contains(" ALERTE envoi échoué à stark-bataille@example.org (nouvel essai "),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(
            "corbeau: 3 courriel(s) non envoyé(s) pour l'instant : ils restent dans la file \
             d'envoi et seront réessayés (corbeau outbox)\n"
        ),
        "{stderr}"
    );
    // Kept for the next pass, with their error.
    let waiting = j.run_at(BEFORE, &["outbox", "--json"]);
    let waiting: serde_json::Value = serde_json::from_slice(&waiting.stdout).unwrap();
    assert_eq!(waiting.as_array().map(Vec::len), Some(3), "{waiting}");
}

#[test]
fn tick_exits_75_when_the_smtp_server_cannot_be_reached() {
    // A port nobody listens on: taken from the system, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let j = sending(
        "smtp-down",
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             security = \"none\"\ntimeout = 5\n"
        ),
    );
    let out = j.run_at(BEFORE, &["tick", "--lang", "en"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(75), "{stdout}{stderr}");
    assert!(stderr.contains(" WARN sending failed to "), "{stderr}");
    assert!(
        stderr.ends_with(
            "corbeau: 3 mail(s) not sent for now: they stay in the outbox and will be tried \
             again (corbeau outbox)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_store_that_lost_a_variant_exits_2_for_the_command_that_needs_it() {
    let j = lost_before_mails("exit-2");
    let out = j.run_at(BEFORE, &["export", "perdue"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.starts_with("corbeau: bug in corbeau"), "{stderr}");
}

/// A moderator's command that finds the store busy or out of reach exits 75, as `tick`
/// and `ingest` do: nothing was done, and the same command later may work (a script that
/// retries on 75 retries it), where 1 would say the request itself is wrong.
#[test]
fn a_moderators_command_exits_75_when_the_store_is_busy_or_out_of_reach() {
    let j = CliJudge::new("tick-errors", "moderator-75");
    let made = j.run_at(BEFORE, &["game", "new", "g", "--variant", "westeros"]);
    assert_eq!(made.status.code(), Some(0), "{:?}", text(&made));

    // Another process holds sled's store for longer than a command waits.
    let held = open_db(&j);
    let busy = j.run_at(BEFORE, &["game", "list"]);
    drop(held);
    assert_eq!(busy.status.code(), Some(75), "{:?}", text(&busy));

    // A database nothing answers at (port 1 refuses at once).
    let elsewhere = j.data().with_file_name("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::write(
        elsewhere.join("corbeau.toml"),
        "[store]\nurl = \"postgresql://corbeau@127.0.0.1:1/corbeau\"\n",
    )
    .unwrap();
    for args in [
        &["game", "list"][..],
        &["game", "new", "h", "--variant", "westeros"],
    ] {
        let out = j.run_in(&elsewhere, BEFORE, args, None);
        let (_, err) = text(&out);
        assert_eq!(out.status.code(), Some(75), "{args:?}: {err}");
        assert!(err.contains("127.0.0.1:1"), "{args:?}: {err}");
    }
    let after = j.run_at(BEFORE, &["game", "list"]);
    assert!(text(&after).0.contains('g'), "{:?}", text(&after));
}
