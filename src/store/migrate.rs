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
//! (issue 12: typed positions, orders and results) are added there, in the same pass.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sled::Transactional;
use sled::transaction::ConflictableTransactionError;

use crate::map::{VariantHash, VariantSource, parse_variant, variant_source};

use super::{SCHEMA_VERSION, Store, StoreError};

/// Moves the store from schema `found` to [`SCHEMA_VERSION`].
pub(super) fn migrate(store: &Store, meta: &sled::Tree, found: u32) -> Result<(), StoreError> {
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
    by_name: BTreeMap<String, VariantHash>,
    texts: BTreeMap<VariantHash, String>,
}

impl Pins<'_> {
    /// The hash of the variant a schema-1 game names (`westeros`, or a file path as the
    /// moderator gave it, read from the current directory as schema 1 did), read and
    /// checked now: a file that is gone or no longer a variant refuses the migration.
    fn pin(&mut self, game: &str, name: &str) -> Result<VariantHash, StoreError> {
        if let Some(hash) = self.by_name.get(name) {
            return Ok(hash.clone());
        }
        let refuse = |reason: String| StoreError::Migration {
            path: self.path.to_path_buf(),
            game: game.to_string(),
            file: name.to_string(),
            reason,
        };
        let VariantSource { file, text } =
            variant_source(name).map_err(|e| refuse(e.to_string()))?;
        parse_variant(&file, &text).map_err(|e| refuse(e.to_string()))?;
        let hash = VariantHash::of(&text);
        self.by_name.insert(name.to_string(), hash.clone());
        self.texts.insert(hash.clone(), text);
        Ok(hash)
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
    let hash = pins.pin(&id, &name)?;
    game["variant"] = serde_json::json!({ "name": name, "hash": hash });
    Ok(())
}

fn decode(what: &str, bytes: &[u8]) -> Result<Value, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn encode(value: &Value) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn v1_to_v2(store: &Store, meta: &sled::Tree) -> Result<(), StoreError> {
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

    let backup = keep_copy(store, 1)?;

    let result =
        (&store.games, &store.phases, &store.variants, meta).transaction(|(g, p, v, m)| {
            for (hash, text) in &pins.texts {
                v.insert(hash.as_str(), text.as_bytes())?;
            }
            for (key, json) in &games {
                g.insert(key, json.as_slice())?;
            }
            for (key, json) in &records {
                p.insert(key, json.as_slice())?;
            }
            m.insert("schema", &2u32.to_be_bytes())?;
            Ok::<_, ConflictableTransactionError<StoreError>>(())
        });
    store.finish(result)?;
    // Said once: the next open finds schema 2. On standard error, for whoever runs the
    // command (a moderator, cron's mail): the store has no other voice.
    eprintln!(
        "corbeau: the store {} moved from schema 1 to {SCHEMA_VERSION} (each game now keeps its variant's content); the schema-1 store is kept in {}",
        store.path.display(),
        backup.display()
    );
    Ok(())
}

/// Copies sled's files of the store (not the mail spool or outbox folder beside them)
/// to `<data>.v<from>-backup-<UTC time>`, after a flush, while this process holds the
/// store: a store that opens as it was before the migration.
fn keep_copy(store: &Store, from: u32) -> Result<PathBuf, StoreError> {
    store.db.flush()?;
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
