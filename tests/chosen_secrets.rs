//! Secrets people choose (`SET PASSWORD`, `RÉGLER MOT DE PASSE`), and the secrets of a
//! store that is copied: the common leaked passwords refused with the reason, short game
//! names that refuse only themselves, the judge's key file, and the sieves beside the
//! hashes, which nobody can test a guess against without that key — in the store's
//! files, after changes, and after a store of an earlier version is opened (its files
//! rewritten, safely across a crash at every step).

#![allow(clippy::unwrap_used)]

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use argon2::password_hash::PasswordHash;
use argon2::{Algorithm, Argon2, Params, Version};
use blake2::digest::{KeyInit, Mac};
use blake2::{Blake2bMac512, Blake2s256, Digest};
use support::TempDir;
use support::judge::{mail, root, run, said};

const NOW: &str = "2026-03-23T08:00:00Z";
const STARK: &str = "stark@example.org";
const LANNISTER: &str = "lannister@example.org";
const MODERATOR: &str = "mod@example.org";

/// A judge with a running game `game` of three on Westeros: Stark (`loup-gris-7`,
/// French), Lannister (`lion-dor-42`, English) and Baratheon (`cerf-noir-3`).
fn judge(name: &str, game: &str) -> TempDir {
    let dir = root(&format!("secrets-{name}"), "");
    ok(
        &dir,
        &[
            "game",
            "new",
            game,
            "--players",
            "3",
            "--moderator",
            MODERATOR,
        ],
    );
    for (house, address, secret, lang) in [
        ("stark", STARK, "loup-gris-7", "fr"),
        ("lannister", LANNISTER, "lion-dor-42", "en"),
        ("baratheon", "baratheon@example.org", "cerf-noir-3", "en"),
    ] {
        ok(
            &dir,
            &[
                "player",
                "add",
                game,
                house,
                address,
                "--secret",
                secret,
                "--player-lang",
                lang,
            ],
        );
    }
    ok(&dir, &["game", "start", game]);
    dir
}

fn at_now(dir: &Path, args: &[&str]) -> Command {
    support::judge::at(dir, NOW, args)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    support::judge::ok_at(dir, NOW, args)
}

/// Sends a mail to the judge and returns the body of its answer to `from`.
fn send(dir: &Path, from: &str, id: &str, body: &str) -> String {
    support::judge::answer_at(dir, NOW, from, id, body)
}

/// Whether `secret` signs `house` on (answered in English).
fn signs_on(dir: &Path, game: &str, house: &str, secret: &str, id: &str) -> bool {
    let from = if house == "stark" { STARK } else { LANNISTER };
    let reply = send(
        dir,
        from,
        id,
        &format!("SIGNON {game} {house} {secret}\nSTATUS\n"),
    );
    reply.contains("✓")
}

// ======================================================================== common secrets

#[test]
fn common_leaked_passwords_are_refused_with_the_reason_and_the_old_secret_still_works() {
    let dir = judge("common", "communs");
    for (i, weak) in [
        "12345678",
        "Passw0rd",
        "iloveyou",
        "football",
        "qwertyuiop",
        "Football12",
    ]
    .iter()
    .enumerate()
    {
        let reply = send(
            &dir,
            LANNISTER,
            &format!("weak{i}@example.org"),
            &format!("SIGNON communs lannister lion-dor-42\nSET PASSWORD {weak}\n"),
        );
        assert!(
            reply.contains("among the most common leaked passwords"),
            "{weak}: {reply}"
        );
    }
    let reply = send(
        &dir,
        STARK,
        "weak-fr@example.org",
        "PARTIE communs stark loup-gris-7\nRÉGLER MOT DE PASSE iloveyou\n",
    );
    assert!(
        reply.contains("mots de passe divulgués les plus courants"),
        "{reply}"
    );
    // Nothing changed: the old secrets sign on, a refused one does not.
    assert!(signs_on(
        &dir,
        "communs",
        "lannister",
        "lion-dor-42",
        "old@example.org"
    ));
    assert!(!signs_on(
        &dir,
        "communs",
        "lannister",
        "iloveyou",
        "new@example.org"
    ));
    // A secret of no list is taken.
    let reply = send(
        &dir,
        LANNISTER,
        "good@example.org",
        "SIGNON communs lannister lion-dor-42\nSET PASSWORD Casterly-Rock-9\n",
    );
    assert!(reply.contains("Secret changed"), "{reply}");
    assert!(signs_on(
        &dir,
        "communs",
        "lannister",
        "Casterly-Rock-9",
        "then@example.org"
    ));
}

#[test]
fn a_game_named_with_one_letter_takes_a_good_secret_holding_that_letter() {
    let dir = judge("short-name", "r");
    let reply = send(
        &dir,
        LANNISTER,
        "r1@example.org",
        "SIGNON r lannister lion-dor-42\nSET PASSWORD rouge-corbeau-42\n",
    );
    assert!(reply.contains("Secret changed"), "{reply}");
    assert!(signs_on(
        &dir,
        "r",
        "lannister",
        "rouge-corbeau-42",
        "r2@example.org"
    ));
    // A house's full name is still refused inside a secret.
    let reply = send(
        &dir,
        LANNISTER,
        "r3@example.org",
        "SIGNON r lannister rouge-corbeau-42\nSET PASSWORD my-lannister-9\n",
    );
    assert!(reply.contains("too easy to guess"), "{reply}");
}

// ======================================================================== the key file

fn key_file(dir: &Path) -> PathBuf {
    dir.join("data.key")
}

fn key_bytes(dir: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(key_file(dir)).unwrap();
    let text = text.trim();
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_key_file_is_made_at_the_first_start_apart_from_the_store_mode_600() {
    let dir = judge("key-file", "cle");
    let key = key_file(&dir);
    let mode = std::fs::metadata(&key).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    assert_eq!(key_bytes(&dir).len(), 32);
    // Apart: beside the data directory, not in it.
    assert!(
        !std::fs::read_dir(dir.join("data")).unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("key"))
    );
    // Kept: the next commands use it as it is.
    let before = std::fs::read(&key).unwrap();
    ok(&dir, &["game", "list"]);
    assert_eq!(std::fs::read(&key).unwrap(), before);
}

#[test]
fn a_malformed_or_unreadable_key_stops_the_judge_with_the_reason_and_is_left_alone() {
    let dir = judge("key-bad", "cle");
    std::fs::write(key_file(&dir), "not a key\n").unwrap();
    let out = run(&mut at_now(&dir, &["game", "list", "--lang", "en"]), "");
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("holds no key"), "{}", said(&out));
    let out = run(&mut at_now(&dir, &["game", "list"]), "");
    assert!(
        said(&out).contains("ne contient pas de clé"),
        "{}",
        said(&out)
    );
    assert_eq!(
        std::fs::read_to_string(key_file(&dir)).unwrap(),
        "not a key\n"
    );
    // A piped mail waits in the mail server's queue (75) rather than bounce.
    let out = run(
        &mut at_now(&dir, &["ingest"]),
        &mail(STARK, "k@example.org", "AIDE\n"),
    );
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));
    // A directory where the file should be: unreadable, said so.
    std::fs::remove_file(key_file(&dir)).unwrap();
    std::fs::create_dir(key_file(&dir)).unwrap();
    let out = run(&mut at_now(&dir, &["game", "list", "--lang", "en"]), "");
    assert!(
        said(&out).contains("cannot read the judge's key"),
        "{}",
        said(&out)
    );
}

#[test]
fn a_lost_key_never_locks_out_the_right_secret() {
    let dir = judge("key-lost", "perdue");
    assert!(signs_on(
        &dir,
        "perdue",
        "lannister",
        "lion-dor-42",
        "a@example.org"
    ));
    let old_id = key_id(&key_bytes(&dir));
    std::fs::remove_file(key_file(&dir)).unwrap();
    // A new key is made; the sieves of the old one are ignored, never a refusal.
    assert!(!signs_on(
        &dir,
        "perdue",
        "lannister",
        "wrong-secret-1",
        "b@example.org"
    ));
    assert!(signs_on(
        &dir,
        "perdue",
        "lannister",
        "lion-dor-42",
        "c@example.org"
    ));
    assert!(signs_on(
        &dir,
        "perdue",
        "stark",
        "loup-gris-7",
        "d@example.org"
    ));
    let new_id = key_id(&key_bytes(&dir));
    assert_ne!(old_id, new_id);
    // The right sign-on wrote the sieve again with the new key.
    let sieves: Vec<Sieve> = sieves_in(&dir.join("data"))
        .into_iter()
        .filter(|s| s.phc_matches("lion-dor-42"))
        .collect();
    assert!(
        sieves
            .iter()
            .any(|s| s.id.as_deref() == Some(new_id.as_str()))
    );
}

// ==================================================================== the stolen store

/// A hash found in the store's files, with its sieve.
struct Sieve {
    phc: String,
    /// The key id (none: the unkeyed sieve of earlier versions).
    id: Option<String>,
    bits: u16,
}

impl Sieve {
    fn salt(&self) -> String {
        PasswordHash::new(&self.phc)
            .unwrap()
            .salt
            .unwrap()
            .to_string()
    }

    fn phc_matches(&self, secret: &str) -> bool {
        use argon2::PasswordVerifier;
        let parsed = PasswordHash::new(&self.phc).unwrap();
        Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok()
    }
}

/// Every hash with a sieve in the files under `dir` (sled's, whatever they keep).
fn sieves_in(dir: &Path) -> Vec<Sieve> {
    let mut found = Vec::new();
    let mut files = vec![dir.to_path_buf()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for e in std::fs::read_dir(&path).unwrap() {
                files.push(e.unwrap().path());
            }
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let start = b"$argon2";
        let mut at = 0;
        while let Some(i) = bytes[at..].windows(start.len()).position(|w| w == start) {
            let from = at + i;
            let len = bytes[from..]
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || b"$+/=,~:.-".contains(b)))
                .unwrap_or(bytes.len() - from);
            at = from + len.max(1);
            let text = String::from_utf8_lossy(&bytes[from..from + len]).into_owned();
            let Some((phc, sieve)) = text.split_once('~') else {
                continue;
            };
            if PasswordHash::new(phc).is_err() {
                continue;
            }
            let (id, bits) = match sieve.split_once(':') {
                Some((id, bits)) => (Some(id.to_string()), bits),
                None => (None, sieve),
            };
            if let Ok(bits) = u16::from_str_radix(&bits[..bits.len().min(3)], 16) {
                found.push(Sieve {
                    phc: phc.to_string(),
                    id,
                    bits,
                });
            }
        }
    }
    found
}

/// The sieve of the versions before the key: a cheap Argon2 of the secret with the
/// hash's own salt.
fn unkeyed_sieve(secret: &str, salt: &str) -> u16 {
    let params = Params::new(8, 1, 1, Some(4)).unwrap();
    let cheap = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
    let mut out = [0u8; 4];
    cheap
        .hash_password_into(secret.as_bytes(), salt.as_bytes(), &mut out)
        .unwrap();
    u16::from_be_bytes([out[0], out[1]]) >> 4
}

/// The keyed sieve as docs/storage.md describes it: BLAKE2b-512 keyed, over the salt, a
/// NUL and the secret, its first 12 bits.
fn keyed_sieve(key: &[u8], secret: &str, salt: &str) -> u16 {
    let mut mac = <Blake2bMac512 as KeyInit>::new_from_slice(key).unwrap();
    mac.update(salt.as_bytes());
    mac.update(b"\0");
    mac.update(secret.as_bytes());
    let out = mac.finalize().into_bytes();
    u16::from_be_bytes([out[0], out[1]]) >> 4
}

fn key_id(key: &[u8]) -> String {
    let mut d = Blake2s256::new();
    d.update(b"corbeau sieve key id\0");
    d.update(key);
    d.finalize()[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks that no sieve in the files under `data` can be reproduced from the known secret
/// of its hash without `key`: the cheap Argon2 of earlier versions and the MAC with a wrong
/// key miss (matching by chance once in 4 096), while the real key does match.
fn no_sieve_without_the_key(data: &Path, key: &[u8], secrets: &[&str]) -> usize {
    let wrong = [0x5au8; 32];
    let mut checked = 0;
    let mut by_chance = 0;
    for sieve in sieves_in(data) {
        let Some(secret) = secrets.iter().find(|s| sieve.phc_matches(s)) else {
            continue;
        };
        let salt = sieve.salt();
        assert!(
            sieve.id.is_some(),
            "an unkeyed sieve is left: {}",
            sieve.phc
        );
        assert_eq!(sieve.id.as_deref(), Some(key_id(key).as_str()));
        assert_eq!(sieve.bits, keyed_sieve(key, secret, &salt));
        by_chance += usize::from(sieve.bits == unkeyed_sieve(secret, &salt));
        by_chance += usize::from(sieve.bits == keyed_sieve(&wrong, secret, &salt));
        checked += 1;
    }
    assert!(
        by_chance <= 1,
        "{by_chance} of {checked} sieves reproduced without the key"
    );
    checked
}

#[test]
fn a_stolen_store_gives_no_sieve_without_the_key_even_of_replaced_secrets() {
    let dir = judge("stolen", "volee");
    let secrets = [
        "loup-gris-7",
        "lion-dor-42",
        "Casterly-Rock-9",
        "Lions-Roar-77",
        "Tywin-Lord-31",
        "Golden-Hand-5",
    ];
    for (i, pair) in secrets[1..].windows(2).enumerate() {
        let reply = send(
            &dir,
            LANNISTER,
            &format!("change{i}@example.org"),
            &format!(
                "SIGNON volee lannister {}\nSET PASSWORD {}\n",
                pair[0], pair[1]
            ),
        );
        assert!(reply.contains("Secret changed"), "{reply}");
    }
    assert!(signs_on(
        &dir,
        "volee",
        "stark",
        "loup-gris-7",
        "s@example.org"
    ));
    let checked = no_sieve_without_the_key(&dir.join("data"), &key_bytes(&dir), &secrets);
    // Every secret set left at least one hash in the files, replaced ones included.
    assert!(checked >= secrets.len(), "{checked}");
}

// ============================================================= a store of an earlier version

/// Gives every hash of the store in `data` the unkeyed sieve of earlier versions, several
/// times over (so that sled's files keep old values), as an earlier corbeau would have.
fn make_old(data: &Path, secrets: &[&str]) {
    let db = support::open_sled(data);
    let games = db.open_tree("games").unwrap();
    for round in 0..3 {
        for entry in games.iter() {
            let (key, value) = entry.unwrap();
            let mut text = String::from_utf8(value.to_vec()).unwrap();
            let mut hashes = Vec::new();
            let mut rest = text.as_str();
            while let Some(i) = rest.find("$argon2") {
                let tail = &rest[i..];
                let end = tail.find('"').unwrap();
                hashes.push(tail[..end].to_string());
                rest = &tail[end..];
            }
            for stored in hashes {
                let phc = stored.split('~').next().unwrap().to_string();
                let sieve = Sieve {
                    phc: phc.clone(),
                    id: None,
                    bits: 0,
                };
                let Some(secret) = secrets.iter().find(|s| sieve.phc_matches(s)) else {
                    continue;
                };
                let bits = unkeyed_sieve(secret, &sieve.salt());
                let old = format!("{phc}~{bits:03x}");
                text = text.replace(&stored, &old);
            }
            // Spaces added each round, so that each round writes a new value.
            let text = text.replacen('{', &format!("{{{}", " ".repeat(round)), 1);
            games.insert(key, text.as_bytes()).unwrap();
        }
    }
    // Without the mark of a store cleaned by this version, as an earlier one left it.
    db.open_tree("meta")
        .unwrap()
        .remove("sieves-keyed")
        .unwrap();
    db.flush().unwrap();
}

/// A judge whose store is of an earlier version, and its game as `game show` shows it.
fn old_store(name: &str, secrets: &[&str]) -> (TempDir, String) {
    let dir = judge(name, "ancienne");
    let shown = ok(&dir, &["game", "show", "ancienne", "--json"]);
    make_old(&dir.join("data"), secrets);
    let found = sieves_in(&dir.join("data"));
    assert!(
        found.iter().any(|s| s.id.is_none()),
        "the old sieves are there"
    );
    (dir, shown)
}

#[test]
fn a_store_of_an_earlier_version_loses_its_unkeyed_sieves_from_every_file() {
    let secrets = ["loup-gris-7", "lion-dor-42"];
    let (dir, shown) = old_store("old-store", &secrets);
    assert_eq!(ok(&dir, &["game", "show", "ancienne", "--json"]), shown);
    assert!(sieves_in(&dir.join("data")).iter().all(|s| s.id.is_some()));
    // The owners sign on as before; their hashes take keyed sieves.
    assert!(signs_on(
        &dir,
        "ancienne",
        "stark",
        "loup-gris-7",
        "a@example.org"
    ));
    assert!(signs_on(
        &dir,
        "ancienne",
        "lannister",
        "lion-dor-42",
        "b@example.org"
    ));
    assert!(!signs_on(
        &dir,
        "ancienne",
        "lannister",
        "loup-gris-7",
        "c@example.org"
    ));
    assert!(no_sieve_without_the_key(&dir.join("data"), &key_bytes(&dir), &secrets) >= 2);
    // The audit trail goes on after its old entries (their sequence is sled's counter).
    ok(&dir, &["game", "pause", "ancienne"]);
    let audit = ok(&dir, &["game", "audit", "ancienne", "--lang", "en"]);
    assert!(audit.trim_end().ends_with("game paused"), "{audit}");
    // Only once: the store's files are not rewritten at every opening.
    use std::os::unix::fs::MetadataExt;
    let db_file = dir.join("data/db");
    let before = std::fs::metadata(&db_file).unwrap().ino();
    ok(&dir, &["game", "list"]);
    assert_eq!(std::fs::metadata(&db_file).unwrap().ino(), before);
}

#[test]
fn the_rewrite_of_an_old_store_survives_a_crash_at_every_step() {
    let secrets = ["loup-gris-7", "lion-dor-42"];
    for step in ["copied", "ready", "moved-old", "moving-new", "moved-new"] {
        let (dir, shown) = old_store(&format!("crash-{step}"), &secrets);
        let out = run(
            at_now(&dir, &["game", "list"]).env("CORBEAU_TEST_COMPACT_CRASH", step),
            "",
        );
        assert_ne!(out.status.code(), Some(0), "{step}: the crash happened");
        // The next command finds the store whole, as it was, and finishes the work.
        assert_eq!(
            ok(&dir, &["game", "show", "ancienne", "--json"]),
            shown,
            "{step}"
        );
        assert!(
            sieves_in(&dir.join("data")).iter().all(|s| s.id.is_some()),
            "{step}"
        );
        let left: Vec<String> = std::fs::read_dir(dir.join("data"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("compact."))
            .collect();
        assert!(left.is_empty(), "{step}: {left:?}");
        assert!(signs_on(
            &dir,
            "ancienne",
            "stark",
            "loup-gris-7",
            &format!("{step}@x.org")
        ));
    }
}
