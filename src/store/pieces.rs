//! The stretches of outbox mails kept once for all the mails that carry them (a results
//! picture, in each of its game's results mails): a mail is stored with those stretches
//! cut out and named by key, each stretch once in `pieces` with, in `piece_counts`, how
//! many mails of the outbox name it; the last mail sent or dropped takes it away
//! (docs/storage.md, "The outbox").

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

use super::envelope::{BodyBytes, Envelope, Shared};
use super::kv::{Tree, TxResult, TxTree};
use super::{StoreError, encode};

/// A mail ready for the outbox: its JSON with the shared stretches cut out, and those
/// stretches by key.
pub(super) struct Cut<'m> {
    pub json: Vec<u8>,
    pub pieces: Vec<(&'m str, &'m [u8])>,
}

/// `mail` as the outbox keeps it. Stretches that do not lie in the body one after the
/// other are not cut (the mail is kept whole).
pub(super) fn cut(mail: &Envelope) -> Result<Cut<'_>, StoreError> {
    if mail.shared.is_empty() {
        return Ok(Cut {
            json: encode(mail)?,
            pieces: Vec::new(),
        });
    }
    let body = mail.body.as_bytes();
    let mut end = 0;
    let fits = mail.shared.iter().all(|s| {
        let fits = s.at >= end && s.at.checked_add(s.len).is_some_and(|e| e <= body.len());
        end = s.at.saturating_add(s.len);
        fits
    });
    if !fits {
        let whole = Envelope {
            shared: Vec::new(),
            ..mail.clone()
        };
        return Ok(Cut {
            json: encode(&whole)?,
            pieces: Vec::new(),
        });
    }
    let mut kept =
        Vec::with_capacity(body.len() - mail.shared.iter().map(|s| s.len).sum::<usize>());
    let mut pieces = Vec::with_capacity(mail.shared.len());
    let mut from = 0;
    for s in &mail.shared {
        kept.extend_from_slice(&body[from..s.at]);
        pieces.push((s.key.as_str(), &body[s.at..s.at + s.len]));
        from = s.at + s.len;
    }
    kept.extend_from_slice(&body[from..]);
    let stored = Envelope {
        message_id: mail.message_id.clone(),
        to: mail.to.clone(),
        game: mail.game.clone(),
        queued: mail.queued,
        headers: mail.headers.clone(),
        body: BodyBytes(kept),
        attempts: mail.attempts,
        next_try: mail.next_try,
        last_error: mail.last_error.clone(),
        failed: mail.failed,
        shared: mail.shared.clone(),
    };
    Ok(Cut {
        json: encode(&stored)?,
        pieces,
    })
}

/// A stored mail made whole again: each shared stretch put back where it was, read from
/// `pieces` (and kept in `read` for the next mails).
pub(super) fn splice(
    mut mail: Envelope,
    pieces: &Tree,
    read: &mut HashMap<String, Vec<u8>>,
) -> Result<Envelope, StoreError> {
    if mail.shared.is_empty() {
        return Ok(mail);
    }
    let kept = std::mem::take(&mut mail.body.0);
    let mut body =
        Vec::with_capacity(kept.len() + mail.shared.iter().map(|s| s.len).sum::<usize>());
    let mut from = 0;
    for s in &mail.shared {
        if !read.contains_key(&s.key) {
            let piece = pieces
                .get(s.key.as_bytes())?
                .ok_or_else(|| missing(&mail, s))?;
            read.insert(s.key.clone(), piece);
        }
        let piece = &read[&s.key];
        let take =
            s.at.checked_sub(body.len())
                .ok_or_else(|| missing(&mail, s))?;
        let until = from + take;
        if piece.len() != s.len || until > kept.len() {
            return Err(missing(&mail, s));
        }
        body.extend_from_slice(&kept[from..until]);
        body.extend_from_slice(piece);
        from = until;
    }
    body.extend_from_slice(&kept[from..]);
    mail.body = BodyBytes(body);
    Ok(mail)
}

fn missing(mail: &Envelope, s: &Shared) -> StoreError {
    StoreError::Corrupt(format!(
        "outbox mail {}: its piece {} is missing or of another length",
        mail.message_id, s.key
    ))
}

/// Counts the mails just queued that name each piece of `named`, storing a piece the
/// outbox does not hold yet.
pub(super) fn shelve<'m>(
    pieces: &TxTree<'_>,
    counts: &TxTree<'_>,
    named: impl IntoIterator<Item = &'m (&'m str, &'m [u8])>,
) -> TxResult<()> {
    let mut by_key: BTreeMap<&str, (u64, &[u8])> = BTreeMap::new();
    for (key, bytes) in named {
        by_key.entry(key).or_insert((0, bytes)).0 += 1;
    }
    let keys: Vec<&str> = by_key.keys().copied().collect();
    let counted = counts.get_each(&keys)?;
    for ((key, (n, bytes)), count) in by_key.into_iter().zip(counted) {
        let count = count.as_deref().map(read_count).unwrap_or(0);
        if count == 0 {
            pieces.insert(key, bytes)?;
        }
        counts.insert(key, (count + n).to_be_bytes())?;
    }
    Ok(())
}

/// Forgets the mails of `keys` in `outbox` (those not there are passed over), with the
/// pieces no other mail names any more.
pub(super) fn remove_mails(
    outbox: &TxTree<'_>,
    pieces: &TxTree<'_>,
    counts: &TxTree<'_>,
    keys: &[[u8; 8]],
) -> TxResult<()> {
    #[derive(Deserialize)]
    struct Names {
        #[serde(default)]
        shared: Vec<Shared>,
    }
    let mut by_key: BTreeMap<String, u64> = BTreeMap::new();
    for stored in outbox.get_each(keys)?.into_iter().flatten() {
        // An entry unreadable here names no piece: it goes all the same.
        let names = serde_json::from_slice::<Names>(&stored).map(|n| n.shared);
        for s in names.unwrap_or_default() {
            *by_key.entry(s.key).or_insert(0) += 1;
        }
    }
    for key in keys {
        outbox.remove(key)?;
    }
    let names: Vec<&str> = by_key.keys().map(String::as_str).collect();
    let counted = counts.get_each(&names)?;
    for ((key, n), count) in by_key.iter().zip(counted) {
        let count = count.as_deref().map(read_count).unwrap_or(0);
        if count <= *n {
            pieces.remove(key.as_bytes())?;
            counts.remove(key.as_bytes())?;
        } else {
            counts.insert(key.as_bytes(), (count - n).to_be_bytes())?;
        }
    }
    Ok(())
}

fn read_count(bytes: &[u8]) -> u64 {
    bytes.try_into().map(u64::from_be_bytes).unwrap_or(0)
}
