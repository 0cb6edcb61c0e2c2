//! Moving a store written by an older corbeau to the current schema (docs/storage.md,
//! "Schema versions").
//!
//! A migration reads everything it must convert and checks it first (a refusal changes
//! nothing), then copies the store aside, then writes every converted value and the new
//! version number in one transaction: after a crash the store is the old one (migrated
//! again at the next open) or the new one, never a mix.
//!
//! Schema 1 → 2 converts each stored game (and each game kept in a phase record for
//! rollback) one value at a time, in [`game_v1_to_v2`]: the later conversions of schema 2
//! (typed positions, orders and results) are added there, in the same pass.
//!
//! The outbox's mails of schema 1 (the mail layer's own record of a mail: subject, text,
//! threading, attachments) become [`Envelope`]s, headers and body bytes, in
//! [`legacy_envelope`]. Schema 2 was used unreleased for a while with the old records in
//! its outbox; those are converted when read ([`outbox_entry`]), so that such a store
//! sends them without a schema of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sled::transaction::ConflictableTransactionError;

use std::rc::Rc;

use crate::game::StoredOrder;
use crate::map::{Variant, VariantHash, VariantSource, parse_variant, scope, variant_source};

use super::envelope::{BodyBytes, Envelope};
use super::kv::{self, Tree};
use super::{SCHEMA_VERSION, Store, StoreError};

/// Moves the store from schema `found` to [`SCHEMA_VERSION`].
pub(super) fn migrate(store: &Store, meta: &Tree, found: u32) -> Result<(), StoreError> {
    match found {
        1 => v1_to_v2(store, meta),
        _ => Err(StoreError::Corrupt(format!(
            "unknown schema version {found}"
        ))),
    }
}

/// The variants of a schema-1 store, read once each by the name its games stored.
struct Pins<'a> {
    path: &'a Path,
    by_name: BTreeMap<String, (VariantHash, Rc<Variant>)>,
    texts: BTreeMap<VariantHash, String>,
}

impl Pins<'_> {
    /// The hash of the variant a schema-1 game names (`westeros`, or a file path as the
    /// moderator gave it, read from the current directory as schema 1 did), read and
    /// checked now: a file that is gone or no longer a variant refuses the migration.
    fn pin(&mut self, game: &str, name: &str) -> Result<(VariantHash, Rc<Variant>), StoreError> {
        if let Some(pinned) = self.by_name.get(name) {
            return Ok(pinned.clone());
        }
        let refuse = |reason: String| StoreError::Migration {
            path: self.path.to_path_buf(),
            game: game.to_string(),
            file: name.to_string(),
            reason,
        };
        let VariantSource { file, text } =
            variant_source(name).map_err(|e| refuse(e.to_string()))?;
        let variant = Rc::new(parse_variant(&file, &text).map_err(|e| refuse(e.to_string()))?);
        let hash = VariantHash::of(&text);
        self.by_name
            .insert(name.to_string(), (hash.clone(), variant.clone()));
        self.texts.insert(hash.clone(), text);
        Ok((hash, variant))
    }
}

/// One schema-1 game, as stored, to its schema-2 form.
fn game_v1_to_v2(game: &mut Value, pins: &mut Pins<'_>) -> Result<(), StoreError> {
    let id = game
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let name = match game.get("variant") {
        Some(Value::String(name)) => name.clone(),
        _ => {
            return Err(StoreError::Corrupt(format!(
                "the game {id} has no variant name"
            )));
        }
    };
    let (hash, variant) = pins.pin(&id, &name)?;
    game["variant"] = serde_json::json!({ "name": name, "hash": hash });
    if let Some(seats) = game.get_mut("seats").and_then(Value::as_array_mut) {
        for seat in seats {
            if let Some(orders) = seat.get_mut("orders").and_then(Value::as_array_mut) {
                orders_v1_to_v2(orders, &variant);
            }
        }
    }
    Ok(())
}

/// Schema 1 kept each order as its text, read again at the deadline, where a line that no
/// longer read (its variant file edited since) was left out. Schema 2 keeps orders parsed:
/// each text is read now, with the variant the game is pinned to, and one that does not
/// read is left out, as schema 1 would have at the deadline.
fn orders_v1_to_v2(orders: &mut Vec<Value>, variant: &Rc<Variant>) {
    // The game reads an order kept as text as it reads any stored game's: the same path.
    let kept = |order: &Value| -> Option<Value> {
        scope::within(variant, || {
            let order: StoredOrder = serde_json::from_value(order.clone()).ok()?;
            serde_json::to_value(&order).ok()
        })
    };
    *orders = orders.iter().filter_map(kept).collect();
}

fn decode(what: &str, bytes: &[u8]) -> Result<Value, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn encode(value: &Value) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn v1_to_v2(store: &Store, meta: &Tree) -> Result<(), StoreError> {
    let mut pins = Pins {
        path: &store.path,
        by_name: BTreeMap::new(),
        texts: BTreeMap::new(),
    };
    // Everything is read and converted before anything is written.
    let mut games = Vec::new();
    for entry in store.games.iter() {
        let (key, bytes) = entry?;
        let mut game = decode("a game", &bytes)?;
        game_v1_to_v2(&mut game, &mut pins)?;
        games.push((key, encode(&game)?));
    }
    let mut records = Vec::new();
    for entry in store.phases.iter() {
        let (key, bytes) = entry?;
        let mut record = decode("a phase record", &bytes)?;
        if let Some(before) = record.get_mut("game_before") {
            game_v1_to_v2(before, &mut pins)?;
        }
        records.push((key, encode(&record)?));
    }

    let mut mails = Vec::new();
    for entry in store.outbox.iter() {
        let (key, bytes) = entry?;
        let mail = outbox_entry(&bytes)?;
        mails.push((key, super::encode(&mail)?));
    }

    let backup = keep_copy(store, 1)?;

    let trees = [
        &store.games,
        &store.phases,
        &store.variants,
        &store.outbox,
        meta,
    ];
    let result = kv::transaction(&trees, |trees| {
        let [g, p, v, o, m] = trees else {
            return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                "the trees of a migration".into(),
            )));
        };
        for (hash, text) in &pins.texts {
            v.insert(hash.as_str(), text.as_bytes())?;
        }
        for (key, json) in &games {
            g.insert(key, json.as_slice())?;
        }
        for (key, json) in &records {
            p.insert(key, json.as_slice())?;
        }
        for (key, json) in &mails {
            o.insert(key, json.as_slice())?;
        }
        m.insert("schema", 2u32.to_be_bytes())?;
        Ok(())
    });
    store.finish(result)?;
    // Said once: the next open finds schema 2. On standard error, for whoever runs the
    // command (a moderator, cron's mail): the store has no other voice.
    let store_dir = store.path.display().to_string();
    let backup = backup.display().to_string();
    let schema = SCHEMA_VERSION;
    tracing::warn!(
        "{}",
        crate::say!(
            crate::lang::operator(),
            "log.store_migrated",
            store_dir,
            schema,
            backup
        )
    );
    Ok(())
}

/// Copies sled's files of the store (not the mail spool or outbox folder beside them)
/// to `<data>.v<from>-backup-<UTC time>`, after a flush, while this process holds the
/// store: a store that opens as it was before the migration.
fn keep_copy(store: &Store, from: u32) -> Result<PathBuf, StoreError> {
    store.flush()?;
    let dir = std::fs::canonicalize(&store.path).unwrap_or_else(|_| store.path.clone());
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "corbeau-data".into());
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let mut backup = dir.with_file_name(format!("{name}.v{from}-backup-{stamp}"));
    let mut n = 1;
    while backup.exists() {
        n += 1;
        backup = dir.with_file_name(format!("{name}.v{from}-backup-{stamp}-{n}"));
    }
    let fail = |reason: String| StoreError::Backup {
        path: backup.clone(),
        reason,
    };
    std::fs::create_dir_all(&backup).map_err(|e| fail(e.to_string()))?;
    let entries = std::fs::read_dir(&dir).map_err(|e| fail(e.to_string()))?;
    for entry in entries {
        let entry = entry.map_err(|e| fail(e.to_string()))?;
        let file = entry.file_name().to_string_lossy().into_owned();
        let sled_file = file == "conf" || file == "db" || file.starts_with("snap.");
        if sled_file {
            std::fs::copy(entry.path(), backup.join(&file)).map_err(|e| fail(e.to_string()))?;
        } else if file == "blobs" {
            copy_dir(&entry.path(), &backup.join("blobs")).map_err(|e| fail(e.to_string()))?;
        }
    }
    Ok(backup)
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()))?;
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// An outbox entry as stored: an [`Envelope`], or a mail of the record schema 1 kept
/// (converted by [`legacy_envelope`]).
pub(super) fn outbox_entry(bytes: &[u8]) -> Result<Envelope, StoreError> {
    match serde_json::from_slice::<Envelope>(bytes) {
        Ok(envelope) => Ok(envelope),
        Err(error) => match serde_json::from_slice::<LegacyMail>(bytes) {
            Ok(mail) => Ok(legacy_envelope(mail)),
            // The envelope's error: what the store writes now.
            Err(_) => Err(StoreError::Corrupt(format!("outbox: {error}"))),
        },
    }
}

/// A mail as the outbox of schema 1 kept it (the mail layer's `OutMail` of then): private
/// to the migration, which alone reads it.
#[derive(serde::Deserialize)]
struct LegacyMail {
    message_id: String,
    to: String,
    subject: String,
    body: String,
    #[serde(default)]
    in_reply_to: Option<String>,
    #[serde(default)]
    references: Vec<String>,
    #[serde(default)]
    game: Option<String>,
    queued: chrono::DateTime<chrono::Utc>,
    #[serde(default)]
    attempts: u32,
    #[serde(default)]
    next_try: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default)]
    last_error: Option<String>,
    #[serde(default)]
    failed: bool,
    /// Unreleased schema-2 stores only: the board's picture.
    #[serde(default)]
    attachments: Vec<LegacyAttachment>,
}

#[derive(serde::Deserialize)]
struct LegacyAttachment {
    name: String,
    media: String,
    /// Standard base64, as stored.
    bytes: String,
}

/// The envelope the mail layer would have queued for `mail`: the same headers (the
/// transport adds From, Reply-To, To, Date and Message-ID when it sends) and the same
/// body, plain text in 8 bits, or multipart/mixed with the pictures in base64.
fn legacy_envelope(mail: LegacyMail) -> Envelope {
    use base64::Engine as _;
    let mut headers = vec![("Subject".to_string(), mail.subject)];
    let parent = mail.in_reply_to.filter(|id| is_message_id(id));
    if let Some(parent) = &parent {
        headers.push(("In-Reply-To".into(), format!("<{parent}>")));
    }
    let references: Vec<String> = mail
        .references
        .iter()
        .filter(|id| is_message_id(id))
        .map(|id| format!("<{id}>"))
        .collect();
    if !references.is_empty() {
        headers.push(("References".into(), references.join(" ")));
    }
    let auto = if parent.is_some() {
        "auto-replied"
    } else {
        "auto-generated"
    };
    headers.push(("Auto-Submitted".into(), auto.into()));
    if let Some(game) = &mail.game {
        headers.push(("X-Corbeau-Game".into(), game.clone()));
    }
    headers.push(("MIME-Version".into(), "1.0".into()));
    let (encoding, text) = text_body(&mail.body);
    let body = if mail.attachments.is_empty() {
        headers.push(("Content-Type".into(), "text/plain; charset=utf-8".into()));
        headers.push(("Content-Transfer-Encoding".into(), encoding.into()));
        text
    } else {
        // `=_` never occurs in base64, and the random part of the Message-ID in no text.
        let random: String = mail
            .message_id
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        let boundary = format!("=_corbeau_{random}");
        headers.push((
            "Content-Type".into(),
            format!("multipart/mixed; boundary=\"{boundary}\""),
        ));
        let mut body = format!(
            "--{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&text);
        body.extend_from_slice(b"\r\n");
        for a in &mail.attachments {
            let name: String = a
                .name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
                .collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(a.bytes.as_bytes())
                .unwrap_or_default();
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Type: {}; name=\"{name}\"\r\nContent-Disposition: inline; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n",
                    a.media
                )
                .as_bytes(),
            );
            body.extend_from_slice(base64_lines(&bytes).as_bytes());
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        body
    };
    Envelope {
        message_id: mail.message_id,
        to: mail.to,
        game: mail.game,
        queued: mail.queued,
        headers,
        body: BodyBytes(body),
        attempts: mail.attempts,
        next_try: mail.next_try,
        last_error: mail.last_error,
        failed: mail.failed,
        shared: Vec::new(),
    }
}

/// A text as a body: in 8 bits with CRLF line ends when every line fits RFC 5322's 998
/// bytes (as the mail layer queues it), in base64 otherwise.
fn text_body(text: &str) -> (&'static str, Vec<u8>) {
    let clean = !text.contains(['\r', '\0']) && text.lines().all(|l| l.len() <= 998);
    if clean {
        ("8bit", text.replace('\n', "\r\n").into_bytes())
    } else {
        ("base64", base64_lines(text.as_bytes()).into_bytes())
    }
}

/// Base64 in lines of 76 characters, CRLF between them (RFC 2045).
fn base64_lines(bytes: &[u8]) -> String {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    lines.join("\r\n")
}

/// An id that can stand in a header as an id (the mail layer's rule, for old records).
fn is_message_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 250
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

/// The mark, in `meta`, of a store whose files hold no unkeyed sieve: set in the copy that
/// replaces the files of a store of an earlier version ([`drop_unkeyed_sieves`]), or at
/// once in a store that holds nothing yet.
pub(super) const SIEVES_KEYED: &str = "sieves-keyed";

/// Removes from every stored value the unkeyed sieves of earlier versions (`game::secret`:
/// a cheap Argon2 of the secret, which a copy of the store would let anyone test guesses
/// against), in one transaction; the hashes stay, and each gets a keyed sieve at its
/// owner's next right sign-on. Says whether the store's files must then be rewritten,
/// since sled keeps replaced values in them: so for a store that holds anything and has
/// no [`SIEVES_KEYED`] mark. No schema change: an older corbeau reads the store as before.
pub(super) fn drop_unkeyed_sieves(store: &Store, meta: &Tree) -> Result<bool, StoreError> {
    if meta.contains_key(SIEVES_KEYED)? {
        return Ok(false);
    }
    let trees = [&store.games, &store.phases, &store.audit];
    let mut changed: Vec<Vec<(Vec<u8>, Vec<u8>)>> = vec![Vec::new(); trees.len()];
    for (tree, changed) in trees.iter().zip(&mut changed) {
        for entry in tree.iter() {
            let (key, bytes) = entry?;
            if !bytes.windows(ARGON.len()).any(|w| w == ARGON) {
                continue;
            }
            let Ok(mut value) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            if strip_sieves(&mut value) {
                changed.push((key, encode(&value)?));
            }
        }
    }
    let mut empty = store.outbox.is_empty()?;
    for tree in trees {
        empty &= tree.is_empty()?;
    }
    let [games, phases, audit] = [&changed[0], &changed[1], &changed[2]];
    let all = [&store.games, &store.phases, &store.audit, meta];
    kv::transaction(&all, |trees| {
        let [tg, tp, ta, tm] = trees else {
            return Err(ConflictableTransactionError::Abort(StoreError::Corrupt(
                "the trees of the sieves".into(),
            )));
        };
        for (tree, values) in [(tg, games), (tp, phases), (ta, audit)] {
            for (key, value) in values {
                tree.insert(key, value.as_slice())?;
            }
        }
        if empty {
            tm.insert(SIEVES_KEYED, [1])?;
        }
        Ok(())
    })?;
    store.flush()?;
    Ok(!empty)
}

/// What begins every Argon2 PHC string: a value without it holds no hash.
const ARGON: &[u8] = b"$argon2";

/// Removes the unkeyed sieves of every string of `value`, and of the JSON a string holds
/// (an audit entry's `detail`); says whether anything changed.
fn strip_sieves(value: &mut Value) -> bool {
    match value {
        Value::String(text) => {
            if let Some(bare) = crate::game::without_unkeyed_sieve(text) {
                *text = bare;
                return true;
            }
            if text.contains("$argon2")
                && let Ok(mut inner) = serde_json::from_str::<Value>(text)
                && strip_sieves(&mut inner)
            {
                *text = inner.to_string();
                return true;
            }
            false
        }
        Value::Array(items) => items.iter_mut().fold(false, |c, v| strip_sieves(v) | c),
        Value::Object(map) => map.values_mut().fold(false, |c, v| strip_sieves(v) | c),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_orders_are_kept_parsed_and_those_that_no_longer_read_left_out() {
        let variant = Rc::new(crate::map::load_variant("westeros").expect("built in"));
        let mut orders = vec![
            serde_json::json!({"unit": "win", "text": "A win -> cno"}),
            serde_json::json!({"unit": "xyz", "text": "A xyz H"}),
            serde_json::json!({"unit": null, "text": "renoncer"}),
        ];
        orders_v1_to_v2(&mut orders, &variant);
        assert_eq!(orders.len(), 2, "{orders:?}");
        assert_eq!(orders[0]["unit"], "win");
        assert_eq!(orders[0]["order"]["text"], "A win -> cno");
        assert_eq!(orders[0]["order"]["action"]["move"]["to"], "cno");
        assert_eq!(orders[1]["order"]["action"], "waive");
        let kept: crate::game::StoredOrder =
            scope::within(&variant, || serde_json::from_value(orders[0].clone())).expect("reads");
        assert_eq!(kept.unit, variant.province_by_id("win"));
    }
}
