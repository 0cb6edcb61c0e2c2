//! `corbeau store copy`: every tree of one store into another, on either backend, as the
//! bytes the source keeps (docs/storage.md, "Moving a store"). The destination must hold
//! no game, mail or record: a copy never merges two stores.

use super::kv::{self, Tree};
use super::{Backend, Store, StoreError};

/// The `meta` keys a store writes at its first opening, before anything else: a store
/// that holds only them is empty.
const OPENING_MARKS: [&[u8]; 3] = [b"schema", b"seats-indexed", b"sieves-keyed"];

impl Store {
    /// The trees, named as sled names them (the tables of the database).
    fn trees(&self) -> [(&'static str, &Tree); 17] {
        [
            ("meta", &self.meta),
            ("games", &self.games),
            ("phases", &self.phases),
            ("audit", &self.audit),
            ("wake", &self.wake),
            ("notices", &self.notices),
            ("outbox", &self.outbox),
            ("pieces", &self.pieces),
            ("piece_counts", &self.piece_counts),
            ("seen", &self.seen),
            ("replies", &self.replies),
            ("guards", &self.guards),
            ("variants", &self.variants),
            ("held", &self.held),
            ("seats", &self.seats),
            ("records", &self.records),
            ("standby", &self.standby),
        ]
    }

    /// Whether the store holds nothing but what its first opening wrote.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        for (name, tree) in self.trees() {
            if name == "meta" {
                for entry in tree.iter() {
                    let (key, _) = entry?;
                    if !OPENING_MARKS.contains(&key.as_slice()) {
                        return Ok(false);
                    }
                }
            } else if !tree.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Copies every entry of this store into `to`, which must be empty, in one
    /// transaction of `to`; returns how many entries were copied. The sequences of the
    /// audit trails, notices and outbox go on in `to` from where they are here.
    pub fn copy_to(&self, to: &Store) -> Result<u64, StoreError> {
        if !to.is_empty()? {
            return Err(StoreError::NotEmpty(to.location()));
        }
        let next = self.new_keys(1)?.first().copied().unwrap_or(0);
        let from = self.trees();
        let into = to.trees();
        let targets: Vec<&Tree> = into.iter().map(|(_, t)| *t).collect();
        let count = std::cell::Cell::new(0u64);
        kv::transaction(&targets, |trees| {
            count.set(0);
            for ((_, source), target) in from.iter().zip(trees) {
                for entry in source.iter() {
                    let (key, value) =
                        entry.map_err(sled::transaction::ConflictableTransactionError::Abort)?;
                    target.insert(key, value)?;
                    count.set(count.get() + 1);
                }
            }
            Ok(())
        })?;
        match &to.backend {
            Backend::Pg(db) => db.ids_from(next)?,
            // sled cannot set its counter: it draws ids until it is there.
            Backend::Sled(db) => while db.generate_id()? < next {},
        }
        to.flush()?;
        Ok(count.get())
    }
}
