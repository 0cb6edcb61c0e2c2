//! The trees of the store on either backend: a sled tree, or a PostgreSQL table of
//! `key bytea primary key, value bytea` holding the same bytes (docs/storage.md,
//! "Backends"). The store above names trees and bytes only, so that both backends keep
//! the same keys and values and a copy between them is a copy of rows.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use std::rc::Rc;

use postgres::types::ToSql;
use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::StoreError;
use super::pg::Connection;

pub(super) type Entry = (Vec<u8>, Vec<u8>);

/// Entries in key order; either end may be read first.
pub(super) type Entries<'a> = Box<dyn DoubleEndedIterator<Item = Result<Entry, StoreError>> + 'a>;

/// What a transaction's body returns: sled may run it again on a conflict.
pub(super) type TxResult<T> = Result<T, ConflictableTransactionError<StoreError>>;

#[derive(Clone)]
pub(super) enum Tree {
    Sled(sled::Tree),
    Pg(PgTree),
}

#[derive(Clone)]
pub(super) struct PgTree {
    pub(super) db: Rc<Connection>,
    pub(super) table: &'static str,
}

impl PgTree {
    fn query(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, StoreError> {
        self.db.query(sql, params)
    }

    fn execute(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, StoreError> {
        self.db.writable()?;
        self.db.execute(sql, params)
    }

    fn range(
        &self,
        from: Bound<&[u8]>,
        to: Bound<&[u8]>,
        last: bool,
    ) -> Result<Vec<Entry>, StoreError> {
        let mut sql = format!("SELECT key, value FROM {} WHERE true", self.table);
        let mut params: Vec<&(dyn ToSql + Sync)> = Vec::new();
        let (from_key, to_key);
        match from {
            Bound::Included(k) => {
                from_key = k;
                params.push(&from_key);
                sql.push_str(&format!(" AND key >= ${}", params.len()));
            }
            Bound::Excluded(k) => {
                from_key = k;
                params.push(&from_key);
                sql.push_str(&format!(" AND key > ${}", params.len()));
            }
            Bound::Unbounded => {}
        }
        match to {
            Bound::Included(k) => {
                to_key = k;
                params.push(&to_key);
                sql.push_str(&format!(" AND key <= ${}", params.len()));
            }
            Bound::Excluded(k) => {
                to_key = k;
                params.push(&to_key);
                sql.push_str(&format!(" AND key < ${}", params.len()));
            }
            Bound::Unbounded => {}
        }
        sql.push_str(if last {
            " ORDER BY key DESC LIMIT 1"
        } else {
            " ORDER BY key"
        });
        self.query(&sql, &params)?
            .into_iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect()
    }
}

/// The first key after every key that begins with `prefix` (none: no bound).
fn after_prefix(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

fn owned(entry: Result<(sled::IVec, sled::IVec), sled::Error>) -> Result<Entry, StoreError> {
    let (k, v) = entry?;
    Ok((k.to_vec(), v.to_vec()))
}

impl Tree {
    pub(super) fn get(&self, key: impl AsRef<[u8]>) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Tree::Sled(t) => Ok(t.get(key.as_ref())?.map(|v| v.to_vec())),
            Tree::Pg(t) => {
                let sql = format!("SELECT value FROM {} WHERE key = $1", t.table);
                let key = key.as_ref();
                match t.query(&sql, &[&key])?.first() {
                    Some(row) => Ok(Some(row.try_get(0)?)),
                    None => Ok(None),
                }
            }
        }
    }

    pub(super) fn contains_key(&self, key: impl AsRef<[u8]>) -> Result<bool, StoreError> {
        match self {
            Tree::Sled(t) => Ok(t.contains_key(key.as_ref())?),
            Tree::Pg(_) => Ok(self.get(key)?.is_some()),
        }
    }

    pub(super) fn insert(
        &self,
        key: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Result<(), StoreError> {
        match self {
            Tree::Sled(t) => {
                t.insert(key.as_ref(), value.as_ref())?;
            }
            Tree::Pg(t) => {
                let (key, value) = (key.as_ref(), value.as_ref());
                t.execute(&upsert(t.table), &[&key, &value])?;
            }
        }
        Ok(())
    }

    pub(super) fn remove(&self, key: impl AsRef<[u8]>) -> Result<(), StoreError> {
        match self {
            Tree::Sled(t) => {
                t.remove(key.as_ref())?;
            }
            Tree::Pg(t) => {
                let key = key.as_ref();
                t.execute(&format!("DELETE FROM {} WHERE key = $1", t.table), &[&key])?;
            }
        }
        Ok(())
    }

    /// Keeps `value` under `key` unless a value is there already; returns the value kept.
    pub(super) fn insert_if_absent(&self, key: &[u8], value: &[u8]) -> Result<Vec<u8>, StoreError> {
        match self {
            Tree::Sled(t) => Ok(match t.compare_and_swap(key, None::<&[u8]>, Some(value))? {
                Ok(()) => value.to_vec(),
                Err(e) => e
                    .current
                    .map(|v| v.to_vec())
                    .unwrap_or_else(|| value.to_vec()),
            }),
            Tree::Pg(t) => {
                let sql = format!(
                    "INSERT INTO {} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                    t.table
                );
                t.execute(&sql, &[&key, &value])?;
                Ok(self.get(key)?.unwrap_or_else(|| value.to_vec()))
            }
        }
    }

    pub(super) fn iter(&self) -> Entries<'_> {
        self.range(Bound::Unbounded, Bound::Unbounded)
    }

    pub(super) fn scan_prefix(&self, prefix: impl AsRef<[u8]>) -> Entries<'_> {
        let prefix = prefix.as_ref();
        match self {
            Tree::Sled(t) => Box::new(t.scan_prefix(prefix).map(owned)),
            Tree::Pg(_) => match after_prefix(prefix) {
                Some(end) => self.range(Bound::Included(prefix), Bound::Excluded(&end)),
                None => self.range(Bound::Included(prefix), Bound::Unbounded),
            },
        }
    }

    pub(super) fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Entries<'_> {
        match self {
            Tree::Sled(t) => {
                let owned_bound = |b: Bound<&[u8]>| match b {
                    Bound::Included(k) => Bound::Included(k.to_vec()),
                    Bound::Excluded(k) => Bound::Excluded(k.to_vec()),
                    Bound::Unbounded => Bound::Unbounded,
                };
                Box::new(t.range((owned_bound(from), owned_bound(to))).map(owned))
            }
            Tree::Pg(t) => match t.range(from, to, false) {
                Ok(rows) => Box::new(rows.into_iter().map(Ok)),
                Err(e) => Box::new(std::iter::once(Err(e))),
            },
        }
    }

    /// At most `limit` entries after `after` (from the first without it), in key order:
    /// a page of a tree read without holding the rest in memory (PostgreSQL sends only
    /// the page).
    pub(super) fn page(
        &self,
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Entry>, StoreError> {
        let from = after.map_or(Bound::Unbounded, Bound::Excluded);
        match self {
            Tree::Sled(_) => self.range(from, Bound::Unbounded).take(limit).collect(),
            Tree::Pg(t) => {
                let limit = i64::try_from(limit).unwrap_or(i64::MAX);
                let rows = match after {
                    Some(key) => t.query(
                        &format!(
                            "SELECT key, value FROM {} WHERE key > $1 ORDER BY key LIMIT $2",
                            t.table
                        ),
                        &[&key, &limit],
                    )?,
                    None => t.query(
                        &format!("SELECT key, value FROM {} ORDER BY key LIMIT $1", t.table),
                        &[&limit],
                    )?,
                };
                rows.into_iter()
                    .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
                    .collect()
            }
        }
    }

    /// The last entry whose key begins with `prefix`.
    pub(super) fn last_with_prefix(&self, prefix: &[u8]) -> Result<Option<Entry>, StoreError> {
        match self {
            Tree::Sled(t) => t.scan_prefix(prefix).next_back().map(owned).transpose(),
            Tree::Pg(t) => {
                let end = after_prefix(prefix);
                let to = end.as_deref().map_or(Bound::Unbounded, Bound::Excluded);
                Ok(t.range(Bound::Included(prefix), to, true)?.pop())
            }
        }
    }

    /// The last key that begins with `prefix`, its value left unread.
    pub(super) fn last_key_with_prefix(
        &self,
        prefix: &[u8],
    ) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Tree::Sled(t) => Ok(t
                .scan_prefix(prefix)
                .keys()
                .next_back()
                .transpose()?
                .map(|k| k.to_vec())),
            Tree::Pg(t) => {
                let rows = match after_prefix(prefix) {
                    Some(end) => t.query(
                        &format!(
                            "SELECT key FROM {} WHERE key >= $1 AND key < $2 \
                             ORDER BY key DESC LIMIT 1",
                            t.table
                        ),
                        &[&prefix, &end],
                    )?,
                    None => t.query(
                        &format!(
                            "SELECT key FROM {} WHERE key >= $1 ORDER BY key DESC LIMIT 1",
                            t.table
                        ),
                        &[&prefix],
                    )?,
                };
                Ok(rows.first().map(|row| row.try_get(0)).transpose()?)
            }
        }
    }

    pub(super) fn is_empty(&self) -> Result<bool, StoreError> {
        match self {
            Tree::Sled(t) => Ok(t.is_empty()),
            Tree::Pg(t) => {
                let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", t.table);
                let found: bool = t
                    .query(&sql, &[])?
                    .first()
                    .map(|row| row.try_get(0))
                    .transpose()?
                    .unwrap_or(false);
                Ok(!found)
            }
        }
    }
}

fn upsert(table: &str) -> String {
    format!(
        "INSERT INTO {table} (key, value) VALUES ($1, $2) \
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    )
}

/// A tree inside a transaction.
pub(super) enum TxTree<'b> {
    Sled(&'b TransactionalTree),
    Pg(PgTx<'b>),
}

/// A table inside a transaction on PostgreSQL. The judge holds the store's lock, so no
/// other process writes meanwhile: reads go to the database at once, writes are gathered
/// and sent together at the end, in one statement, which the database applies whole or
/// not at all. A transaction of a dozen writes is then one round trip, not fourteen.
pub(super) struct PgTx<'b> {
    db: &'b Connection,
    writes: &'b RefCell<Writes>,
    table: &'static str,
}

/// A transaction's writes on PostgreSQL, by table (in the order first written) and key:
/// the last value written, or none for a key removed.
#[derive(Default)]
pub(super) struct Writes(Vec<(&'static str, TableWrites)>);

/// A table's writes in a transaction: by key, the value written last, none if removed.
type TableWrites = BTreeMap<Vec<u8>, Option<Vec<u8>>>;

impl Writes {
    fn put(&mut self, table: &'static str, key: &[u8], value: Option<&[u8]>) {
        let index = match self.0.iter().position(|(t, _)| *t == table) {
            Some(index) => index,
            None => {
                self.0.push((table, BTreeMap::new()));
                self.0.len() - 1
            }
        };
        self.0[index]
            .1
            .insert(key.to_vec(), value.map(<[u8]>::to_vec));
    }

    fn get(&self, table: &str, key: &[u8]) -> Option<Option<Vec<u8>>> {
        let (_, keys) = self.0.iter().find(|(t, _)| *t == table)?;
        keys.get(key).cloned()
    }

    /// Sends every write in one statement (its parts run on one snapshot; a key is
    /// written once, so they do not overlap).
    fn send(self, db: &Connection) -> Result<(), StoreError> {
        let mut parts = Vec::new();
        let mut arrays: Vec<Vec<Vec<u8>>> = Vec::new();
        for (table, keys) in self.0 {
            let (mut put_keys, mut values, mut gone) = (Vec::new(), Vec::new(), Vec::new());
            for (key, value) in keys {
                match value {
                    Some(value) => {
                        put_keys.push(key);
                        values.push(value);
                    }
                    None => gone.push(key),
                }
            }
            if !gone.is_empty() {
                arrays.push(gone);
                parts.push(format!(
                    "w{} AS (DELETE FROM {table} WHERE key = ANY(${}))",
                    parts.len(),
                    arrays.len()
                ));
            }
            if !put_keys.is_empty() {
                arrays.push(put_keys);
                arrays.push(values);
                parts.push(format!(
                    "w{} AS (INSERT INTO {table} (key, value) \
                     SELECT * FROM unnest(${}::bytea[], ${}::bytea[]) \
                     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value)",
                    parts.len(),
                    arrays.len() - 1,
                    arrays.len()
                ));
            }
        }
        if parts.is_empty() {
            return Ok(());
        }
        let sql = format!("WITH {} SELECT 1", parts.join(", "));
        let params: Vec<&(dyn ToSql + Sync)> =
            arrays.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        db.execute(&sql, &params)?;
        Ok(())
    }
}

impl PgTx<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(written) = self.writes.borrow().get(self.table, key) {
            return Ok(written);
        }
        let sql = format!("SELECT value FROM {} WHERE key = $1", self.table);
        let rows = self.db.query(&sql, &[&key])?;
        Ok(rows.first().map(|row| row.try_get(0)).transpose()?)
    }

    /// The value of each key: those written in this transaction as written, the others
    /// asked all at once.
    fn get_each(&self, keys: &[impl AsRef<[u8]>]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        let writes = self.writes.borrow();
        let asked: Vec<&[u8]> = keys
            .iter()
            .map(AsRef::as_ref)
            .filter(|key| writes.get(self.table, key).is_none())
            .collect();
        let sql = format!("SELECT key, value FROM {} WHERE key = ANY($1)", self.table);
        let found: HashMap<Vec<u8>, Vec<u8>> = if asked.is_empty() {
            HashMap::new()
        } else {
            self.db
                .query(&sql, &[&asked])?
                .iter()
                .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
                .collect::<Result<_, StoreError>>()?
        };
        Ok(keys
            .iter()
            .map(|key| match writes.get(self.table, key.as_ref()) {
                Some(written) => written,
                None => found.get(key.as_ref()).cloned(),
            })
            .collect())
    }
}

fn aborted(e: StoreError) -> ConflictableTransactionError<StoreError> {
    ConflictableTransactionError::Abort(e)
}

impl TxTree<'_> {
    pub(super) fn get(&self, key: impl AsRef<[u8]>) -> TxResult<Option<Vec<u8>>> {
        match self {
            TxTree::Sled(t) => Ok(t.get(key.as_ref())?.map(|v| v.to_vec())),
            TxTree::Pg(t) => t.get(key.as_ref()).map_err(aborted),
        }
    }

    /// The value of each of `keys`: one question to a database.
    pub(super) fn get_each(&self, keys: &[impl AsRef<[u8]>]) -> TxResult<Vec<Option<Vec<u8>>>> {
        match self {
            TxTree::Sled(t) => keys
                .iter()
                .map(|key| Ok(t.get(key.as_ref())?.map(|v| v.to_vec())))
                .collect(),
            TxTree::Pg(t) => t.get_each(keys).map_err(aborted),
        }
    }

    /// Whether each of `keys` has a value: one question to a database.
    pub(super) fn contains_each(&self, keys: &[impl AsRef<[u8]>]) -> TxResult<Vec<bool>> {
        Ok(self.get_each(keys)?.iter().map(Option::is_some).collect())
    }

    pub(super) fn insert(&self, key: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> TxResult<()> {
        match self {
            TxTree::Sled(t) => {
                t.insert(key.as_ref(), value.as_ref())?;
            }
            TxTree::Pg(t) => {
                t.writes
                    .borrow_mut()
                    .put(t.table, key.as_ref(), Some(value.as_ref()));
            }
        }
        Ok(())
    }

    pub(super) fn remove(&self, key: impl AsRef<[u8]>) -> TxResult<()> {
        match self {
            TxTree::Sled(t) => {
                t.remove(key.as_ref())?;
            }
            TxTree::Pg(t) => t.writes.borrow_mut().put(t.table, key.as_ref(), None),
        }
        Ok(())
    }
}

/// Runs `body` on `trees` in one transaction: all its writes or none. sled may run the
/// body more than once (a conflict with another thread); PostgreSQL runs it once.
pub(super) fn transaction<F>(trees: &[&Tree], body: F) -> Result<(), StoreError>
where
    F: Fn(&[TxTree<'_>]) -> TxResult<()>,
{
    let mixed = || StoreError::Corrupt("a transaction over two backends".into());
    match trees.first() {
        None => Ok(()),
        Some(Tree::Pg(first)) => {
            first.db.writable()?;
            let writes = RefCell::new(Writes::default());
            let views = trees
                .iter()
                .map(|t| match t {
                    Tree::Pg(p) => Ok(TxTree::Pg(PgTx {
                        db: &first.db,
                        writes: &writes,
                        table: p.table,
                    })),
                    Tree::Sled(_) => Err(mixed()),
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let outcome = body(&views);
            drop(views);
            match outcome {
                // Not sent, the writes are forgotten.
                Ok(()) => writes.into_inner().send(&first.db),
                Err(ConflictableTransactionError::Abort(e)) => Err(e),
                Err(ConflictableTransactionError::Storage(e)) => Err(StoreError::Io(e)),
                Err(ConflictableTransactionError::Conflict) => Err(StoreError::Corrupt(
                    "a conflict in a database transaction".into(),
                )),
            }
        }
        Some(Tree::Sled(_)) => {
            let sled_trees = trees
                .iter()
                .map(|t| match t {
                    Tree::Sled(s) => Ok(s),
                    Tree::Pg(_) => Err(mixed()),
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let result = sled_trees[..].transaction(|txs| {
                let views: Vec<TxTree<'_>> = txs.iter().map(TxTree::Sled).collect();
                body(&views)
            });
            match result {
                Ok(()) => Ok(()),
                Err(TransactionError::Abort(e)) => Err(e),
                Err(TransactionError::Storage(e)) => Err(StoreError::Io(e)),
            }
        }
    }
}
