//! Players' and moderators' secrets: generated for them, or chosen by their owner and
//! checked against the most common leaked passwords, kept only as salted Argon2 hashes, so
//! that a copy of the store does not give away anybody's password.
//!
//! Beside the hash, a **sieve**: 12 bits of a BLAKE2b MAC of the hash's salt and the
//! secret, keyed with the judge's own key ([`SieveKey`]), which is kept in a file apart from
//! the store (docs/configuration.md, `key_file`): `<PHC string>~<key id>:<3 hex digits>`.
//! A wrong secret fails the sieve 4 095 times in 4 096 for a microsecond, so a storm of
//! wrong secrets costs the judge almost nothing and no throttle has to refuse anyone
//! unchecked (docs/email.md, "Sign-on, secrets and throttling"); a secret that passes the
//! sieve is then checked in full. Without the key the sieve says nothing: whoever copies
//! the store, and not the key, pays the full Argon2 for every guess.
//!
//! A sieve is used only when its key id is the installed key's. One made with another key
//! (the key file lost or replaced), the unkeyed sieve of earlier versions (`~<3 hex>`, a
//! cheap Argon2 anyone can compute, removed from the store when this version opens it) or
//! none at all means a full check, and the next right sign-on writes a sieve with the
//! current key ([`with_sieve`]): a lost key never locks anyone out.

use std::sync::OnceLock;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use blake2::digest::{KeyInit, Mac};
use blake2::{Blake2bMac512, Blake2s256, Digest};

use super::{GameError, HouseKey};

/// Letters and digits that cannot be mistaken for one another when copied from a mail.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const SECRET_LEN: usize = 10;

/// What separates the PHC string from the sieve: never a character of a PHC string.
const SIEVE_MARK: char = '~';
/// What separates the key id from the sieve's bits: a sieve without one is of the old,
/// unkeyed kind.
const KEY_MARK: char = ':';
/// The sieve's bits: a wrong secret passes it once in 2^12.
const SIEVE_BITS: u32 = 12;
/// The bytes of a judge's key.
const KEY_LEN: usize = 32;

/// Why no secret could be made. The game draws its secrets itself rather than being handed
/// them: whether an action makes one, and how many (a seat, a reset, an observer's token
/// then secret), is a rule of the action, which the service would otherwise have to know.
/// So the one failure of the game that is not a refusal is this one, typed narrowly: it
/// says nothing about what was asked, and nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretFailure {
    /// The system's random source gave no bytes.
    Random(String),
    /// Argon2 refused to hash (its parameters are fixed here, so a bug).
    Hash(String),
}

impl std::fmt::Display for SecretFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretFailure::Random(e) => write!(f, "random source: {e}"),
            SecretFailure::Hash(e) => f.write_str(e),
        }
    }
}

fn random(e: getrandom::Error) -> GameError {
    GameError::Secret(SecretFailure::Random(e.to_string()))
}

fn hash(e: argon2::password_hash::Error) -> GameError {
    GameError::Secret(SecretFailure::Hash(e.to_string()))
}

/// The judge's key for the sieves: 32 random bytes, written as 64 hexadecimal digits in a
/// file apart from the store. The game reads no file: the layer that opens the store
/// installs it once for the process ([`install_sieve_key`]).
#[derive(Clone, PartialEq, Eq)]
pub struct SieveKey {
    bytes: [u8; KEY_LEN],
}

/// Never shows the key itself, only its id.
impl std::fmt::Debug for SieveKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SieveKey({})", self.id())
    }
}

impl SieveKey {
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> SieveKey {
        SieveKey { bytes }
    }

    /// A fresh key from the system's random source.
    pub fn random() -> Result<SieveKey, GameError> {
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes).map_err(random)?;
        Ok(SieveKey { bytes })
    }

    /// The key as its file holds it (64 hexadecimal digits, spaces and line ends around
    /// them ignored); none when the text is anything else.
    pub fn from_text(text: &str) -> Option<SieveKey> {
        let text = text.trim().as_bytes();
        if text.len() != 2 * KEY_LEN {
            return None;
        }
        let mut bytes = [0u8; KEY_LEN];
        for (byte, pair) in bytes.iter_mut().zip(text.chunks_exact(2)) {
            let pair = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(pair, 16).ok()?;
        }
        Some(SieveKey { bytes })
    }

    /// The text of its file: 64 lowercase hexadecimal digits and a line end.
    pub fn to_text(&self) -> String {
        let mut text: String = self.bytes.iter().map(|b| format!("{b:02x}")).collect();
        text.push('\n');
        text
    }

    /// What names the key in the sieves it made (8 hex digits): a one-way digest, so that
    /// the store says which key was used without saying anything of it.
    pub fn id(&self) -> String {
        let mut digest = Blake2s256::new();
        digest.update(b"corbeau sieve key id\0");
        digest.update(self.bytes);
        digest.finalize()[..4]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The 12 bits of the sieve of `secret` for a hash salted with `salt`.
    fn sieve(&self, secret: &str, salt: &str) -> Option<u16> {
        let mut mac = <Blake2bMac512 as KeyInit>::new_from_slice(&self.bytes).ok()?;
        // The salt (Base64, never a NUL) first, so that no salt and secret run together
        // into another pair's.
        mac.update(salt.as_bytes());
        mac.update(b"\0");
        mac.update(secret.trim().as_bytes());
        let out = mac.finalize().into_bytes();
        Some(u16::from_be_bytes([out[0], out[1]]) >> (16 - SIEVE_BITS))
    }
}

/// The key of this process's sieves, installed once by the layer that opens the store.
static KEY: OnceLock<SieveKey> = OnceLock::new();

/// Installs the judge's key for the rest of the process; false when one was installed
/// already, which stays (a process serves one judge, with one key file).
pub fn install_sieve_key(key: SieveKey) -> bool {
    KEY.set(key).is_ok()
}

/// The installed key, if any: without one no sieve is made or used, every check is full.
fn installed_key() -> Option<&'static SieveKey> {
    KEY.get()
}

/// A key for another use than the sieve (`purpose` names it: the consent tokens), derived
/// from the installed judge's key, so that it too lives outside the store; none when no
/// key is installed.
pub fn derived_key(purpose: &str) -> Option<[u8; KEY_LEN]> {
    let key = installed_key()?;
    let mut mac = <Blake2bMac512 as KeyInit>::new_from_slice(&key.bytes).ok()?;
    mac.update(b"corbeau derived key\0");
    mac.update(purpose.as_bytes());
    let out = mac.finalize().into_bytes();
    out.get(..KEY_LEN)?.try_into().ok()
}

/// The fewest characters of a secret its owner chooses (`SET PASSWORD`): the judge's own
/// are 10 letters and digits.
pub const MIN_CHOSEN: usize = 8;

/// Names shorter than this refuse only a secret that is the name itself, not every secret
/// holding it: a game called `r` must not refuse every secret with an r.
const NAME_HELD_FROM: usize = 4;

/// The common leaked passwords refused as chosen secrets: the 100 000 most frequent of a
/// public list (docs/email.md, "Choosing one's secret", says which), lowercased, one a
/// line, sorted by bytes, so that a look-up is a binary search over the text as built into
/// the binary, with nothing to load.
static COMMON: &str = include_str!("../../assets/common-passwords.txt");

/// Whether `word` (lowercase) is a line of [`COMMON`].
fn listed(word: &str) -> bool {
    let text = COMMON.as_bytes();
    let word = word.as_bytes();
    let (mut low, mut high) = (0, text.len());
    while low < high {
        let middle = low + (high - low) / 2;
        let start = text[..middle]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let end = text[middle..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(text.len(), |i| middle + i);
        match text[start..end].cmp(word) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => low = end + 1,
            std::cmp::Ordering::Greater => high = start,
        }
    }
    false
}

/// Whether a secret is one of the common leaked passwords, whatever its case, with a digit
/// or two added at its end, or with its letters written as digits (`p4ssw0rd`).
pub fn is_common(secret: &str) -> bool {
    let lower = secret.trim().to_lowercase();
    let mut bases = vec![lower.clone()];
    let mut cut = lower.as_str();
    for _ in 0..2 {
        match cut.strip_suffix(|c: char| c.is_ascii_digit()) {
            Some(shorter) if !shorter.is_empty() => {
                bases.push(shorter.to_string());
                cut = shorter;
            }
            _ => break,
        }
    }
    let unleet = |word: &str, one: char| -> String {
        word.chars()
            .map(|c| match c {
                '0' => 'o',
                '1' => one,
                '3' => 'e',
                '4' | '@' => 'a',
                '5' | '$' => 's',
                '7' => 't',
                other => other,
            })
            .collect()
    };
    bases
        .iter()
        .any(|base| listed(base) || listed(&unleet(base, 'i')) || listed(&unleet(base, 'l')))
}

/// Refuses a secret its owner chose that is easy to guess: shorter than [`MIN_CHOSEN`],
/// fewer than four different characters (`aaaaaaaa`, `abababab`), one of the common leaked
/// passwords ([`is_common`]), or holding the game's or the house's own name
/// (`westeros-1`, `stark`), which anyone reading the results knows. A name shorter than
/// four characters refuses only a secret that is that name, not every secret holding it.
pub(super) fn check_chosen(secret: &str, known: &[&str]) -> Result<(), GameError> {
    let secret = secret.trim();
    let mut distinct: Vec<char> = secret.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let folded = crate::map::fold(secret);
    let guessable = known.iter().any(|k| {
        let k = crate::map::fold(k);
        if k.chars().count() >= NAME_HELD_FROM {
            folded.contains(&k)
        } else {
            !k.is_empty() && folded == k
        }
    });
    if secret.chars().count() < MIN_CHOSEN || distinct.len() < 4 || guessable {
        return Err(GameError::WeakSecret { min: MIN_CHOSEN });
    }
    if is_common(secret) {
        return Err(GameError::CommonSecret);
    }
    Ok(())
}

/// A fresh random secret (`k7pq2mzd9a`).
pub fn new_secret() -> Result<String, GameError> {
    let mut bytes = [0u8; SECRET_LEN];
    getrandom::fill(&mut bytes).map_err(random)?;
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

/// The salted hash kept in the store (a PHC string), with its sieve when a key is
/// installed.
pub fn hash_secret(secret: &str) -> Result<String, GameError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(random)?;
    let salt = SaltString::encode_b64(&salt).map_err(hash)?;
    let phc = Argon2::default()
        .hash_password(secret.trim().as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(hash)?;
    Ok(with_sieve(&phc, secret).unwrap_or(phc))
}

/// A stored hash's parts: the PHC string, and its sieve if it has one (the key id, none
/// for an unkeyed sieve of an earlier version, and the bits as written).
fn parts(stored: &str) -> (&str, Option<(Option<&str>, &str)>) {
    match stored.split_once(SIEVE_MARK) {
        Some((phc, sieve)) => match sieve.split_once(KEY_MARK) {
            Some((id, bits)) => (phc, Some((Some(id), bits))),
            None => (phc, Some((None, sieve))),
        },
        None => (stored, None),
    }
}

/// The stored hash with the sieve of `secret` made with the installed key (the secret just
/// matched it), or `None` when it has that one already or cannot take one (a damaged
/// hash). A sieve of another key, or of the unkeyed kind, is replaced; with no key
/// installed, the hash is given back without any sieve.
pub fn with_sieve(stored: &str, secret: &str) -> Option<String> {
    with_sieve_of(installed_key(), stored, secret)
}

fn with_sieve_of(key: Option<&SieveKey>, stored: &str, secret: &str) -> Option<String> {
    let (phc, sieve) = parts(stored);
    let Some(key) = key else {
        return sieve.is_some().then(|| phc.to_string());
    };
    let id = key.id();
    if matches!(sieve, Some((Some(kept), _)) if kept == id) {
        return None;
    }
    let parsed = PasswordHash::new(phc).ok()?;
    let bits = key.sieve(secret, parsed.salt?.as_str())?;
    Some(format!("{phc}{SIEVE_MARK}{id}{KEY_MARK}{bits:03x}"))
}

/// The stored hash without its sieve when that sieve is of the unkeyed kind of earlier
/// versions (a cheap Argon2 anyone holding the store could compute); none when there is
/// nothing to remove. For the store's clean-up when this version first opens it.
pub fn without_unkeyed_sieve(stored: &str) -> Option<String> {
    match parts(stored) {
        (phc, Some((None, bits)))
            if bits.len() == 3
                && bits.bytes().all(|b| b.is_ascii_hexdigit())
                && PasswordHash::new(phc).is_ok() =>
        {
            Some(phc.to_string())
        }
        _ => None,
    }
}

impl super::Game {
    /// A copy with every secret's and token's hash masked, for what is shown or exported
    /// (`game show --json`, `export`).
    pub fn without_secrets(&self) -> super::Game {
        const HIDDEN: &str = "(hidden)";
        let mut g = self.clone();
        for p in g.seats.iter_mut().filter_map(|s| s.player.as_mut()) {
            p.secret = HIDDEN.into();
        }
        if let Some(m) = &mut g.moderator {
            m.secret = HIDDEN.into();
        }
        for o in &mut g.observers {
            o.secret = HIDDEN.into();
        }
        for r in &mut g.observer_requests {
            r.token = HIDDEN.into();
        }
        g
    }

    /// Gives a seat (a house's player; `None`: the moderator) the secret its owner chose,
    /// hashed as every secret is; the old one stops working at once.
    pub fn change_secret(
        &mut self,
        variant: &crate::map::Variant,
        house: Option<&HouseKey>,
        secret: &str,
    ) -> Result<(), GameError> {
        let mut known = vec![self.id.clone()];
        if let Some(house) = house {
            known.push(house.to_string());
            if let Some(h) = house.in_variant(variant) {
                let h = variant.house(h);
                known.extend(h.names.iter().map(|(_, n)| n.clone()));
                known.push(h.name.clone());
            }
        }
        check_chosen(
            secret,
            &known.iter().map(String::as_str).collect::<Vec<_>>(),
        )?;
        let stored = match house {
            Some(house) => self
                .seat_mut(house)
                .filter(|s| !s.resigned)
                .and_then(|s| s.player.as_mut())
                .map(|p| &mut p.secret)
                .ok_or_else(|| GameError::NoPlayer(house.clone()))?,
            None => self
                .moderator
                .as_mut()
                .map(|m| &mut m.secret)
                .ok_or(GameError::NotAllowed { action: "password" })?,
        };
        *stored = hash_secret(secret)?;
        Ok(())
    }

    /// Adds the sieve to the stored hash of a seat's secret (a house's player; `None`: the
    /// moderator), which `secret` has just matched in full: a hash kept from before the
    /// sieve stops costing a full check for every wrong secret from then on.
    pub fn sieve_secret(&mut self, house: Option<&HouseKey>, secret: &str) {
        let stored = match house {
            Some(house) => self
                .seat_mut(house)
                .and_then(|s| s.player.as_mut())
                .map(|p| &mut p.secret),
            None => self.moderator.as_mut().map(|m| &mut m.secret),
        };
        if let Some(stored) = stored
            && let Some(sieved) = with_sieve(stored, secret)
        {
            *stored = sieved;
        }
    }
}

/// The longest secret worth checking: the judge's are [`SECRET_LEN`] characters, and a
/// moderator's own may be longer, but a line of kilobytes is no secret and is refused
/// without paying for a hash.
const LONGEST_SECRET: usize = 256;

// Counted for the tests only (the `test-hooks` feature, which the tests' builds enable):
// the release binary keeps no count.
#[cfg(any(test, feature = "test-hooks"))]
thread_local! {
    /// How many secrets this thread has checked against a full hash (each check costs
    /// ~20 ms and 19 MiB of Argon2): the tests of hostile mail count them.
    static CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The number of full hash checks made so far by this thread (see [`secret_matches`]);
/// only in the tests' builds.
#[cfg(any(test, feature = "test-hooks"))]
pub fn secret_checks() -> u64 {
    CHECKS.with(std::cell::Cell::get)
}

/// Whether `secret` is the one that was hashed; a damaged hash never matches. A wrong
/// secret is mostly turned away by the sieve, without the full check, when the sieve was
/// made with the installed key; any other sieve is ignored.
pub fn secret_matches(secret: &str, stored: &str) -> bool {
    matches_with(installed_key(), secret, stored)
}

fn matches_with(key: Option<&SieveKey>, secret: &str, stored: &str) -> bool {
    if secret.trim().len() > LONGEST_SECRET {
        return false;
    }
    let (phc, sieve) = parts(stored);
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    if let (Some(key), Some((Some(id), bits)), Some(salt)) = (key, sieve, parsed.salt)
        && id == key.id()
        && let Ok(kept) = u16::from_str_radix(bits, 16)
        && key.sieve(secret, salt.as_str()) != Some(kept)
    {
        return false;
    }
    #[cfg(any(test, feature = "test-hooks"))]
    CHECKS.with(|c| c.set(c.get() + 1));
    Argon2::default()
        .verify_password(secret.trim().as_bytes(), &parsed)
        .is_ok()
}

/// Whether `stored` carries a sieve made with the installed key: a word that fails it is
/// surely not the secret (see [`sieve_passes`]), with no full check.
pub fn has_keyed_sieve(stored: &str) -> bool {
    let Some(key) = installed_key() else {
        return false;
    };
    matches!(parts(stored), (_, Some((Some(id), _))) if id == key.id())
}

/// Whether `word` passes the sieve kept beside `stored`: it may be that secret (a wrong
/// word passes once in 2^12), at the cost of the sieve alone, never of the full check.
/// False when the stored hash has no sieve made with the installed key (one written
/// before the key, or with another) or is damaged, and for a word shorter than any secret
/// (the judge's are 10 characters, a chosen one [`MIN_CHOSEN`] at least), which keeps the
/// false positives off short words. What quotes a mail back masks such words: a false
/// positive hides a harmless word.
pub fn sieve_passes(word: &str, stored: &str) -> bool {
    let word = word.trim();
    if word.len() > LONGEST_SECRET || word.chars().count() < MIN_CHOSEN {
        return false;
    }
    let Some(key) = installed_key() else {
        return false;
    };
    let (phc, sieve) = parts(stored);
    let Some((Some(id), bits)) = sieve else {
        return false;
    };
    let (Ok(kept), Ok(parsed)) = (u16::from_str_radix(bits, 16), PasswordHash::new(phc)) else {
        return false;
    };
    id == key.id()
        && parsed
            .salt
            .is_some_and(|salt| key.sieve(word, salt.as_str()) == Some(kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> SieveKey {
        SieveKey::from_bytes([byte; KEY_LEN])
    }

    /// The sieve of the versions before the key: a cheap Argon2 of the secret with the
    /// hash's own salt, which anyone can compute from the store alone.
    fn unkeyed_sieve(secret: &str, salt: &str) -> u16 {
        use argon2::{Algorithm, Params, Version};
        let params = Params::new(8, 1, 1, Some(4)).unwrap();
        let cheap = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let mut out = [0u8; 4];
        cheap
            .hash_password_into(secret.as_bytes(), salt.as_bytes(), &mut out)
            .unwrap();
        u16::from_be_bytes([out[0], out[1]]) >> 4
    }

    fn bare_hash(secret: &str) -> String {
        let hash = hash_secret(secret).unwrap();
        parts(&hash).0.to_string()
    }

    #[test]
    fn a_secret_matches_its_hash_only() {
        let secret = new_secret().unwrap();
        assert_eq!(secret.len(), SECRET_LEN);
        let hash = hash_secret(&secret).unwrap();
        assert!(!hash.contains(&secret));
        assert!(secret_matches(&secret, &hash));
        assert!(secret_matches(&format!(" {secret}\n"), &hash));
        assert!(!secret_matches("corbeau", &hash));
        assert!(!secret_matches(&secret, "not a hash"));
        assert_ne!(hash, hash_secret(&secret).unwrap(), "salted");
    }

    #[test]
    fn the_keyed_sieve_turns_most_wrong_secrets_away_without_the_full_check() {
        let k = key(7);
        let hash = with_sieve_of(Some(&k), &bare_hash("k7pq2mzd9a"), "k7pq2mzd9a").unwrap();
        assert!(hash.contains(&format!("~{}:", k.id())), "{hash}");
        let before = secret_checks();
        let passed = (0..2000)
            .filter(|i| matches_with(Some(&k), &format!("guess{i}"), &hash))
            .count();
        assert_eq!(passed, 0);
        // 2 000 wrong secrets: about half a full check expected; a handful at most.
        assert!(secret_checks() - before < 6, "{}", secret_checks() - before);
        let before = secret_checks();
        assert!(matches_with(Some(&k), "k7pq2mzd9a", &hash));
        assert_eq!(secret_checks() - before, 1);
    }

    #[test]
    fn a_sieve_of_another_key_or_of_none_never_refuses_the_right_secret() {
        let (mine, lost) = (key(1), key(2));
        let bare = bare_hash("r0cdelion7");
        let by_lost = with_sieve_of(Some(&lost), &bare, "r0cdelion7").unwrap();
        // With another key installed, the sieve is ignored: a full check for every secret.
        let before = secret_checks();
        assert!(matches_with(Some(&mine), "r0cdelion7", &by_lost));
        assert!(!matches_with(Some(&mine), "guess", &by_lost));
        assert_eq!(secret_checks() - before, 2);
        assert!(matches_with(None, "r0cdelion7", &by_lost));
        // The right sign-on writes the sieve again, with the key of now.
        let again = with_sieve_of(Some(&mine), &by_lost, "r0cdelion7").unwrap();
        assert!(again.starts_with(&bare) && again.contains(&mine.id()));
        assert_eq!(with_sieve_of(Some(&mine), &again, "r0cdelion7"), None);
        // A sieve whose bits are damaged is no refusal either.
        let damaged = format!("{bare}~{}:zzz", mine.id());
        assert!(matches_with(Some(&mine), "r0cdelion7", &damaged));
        // Without a key, no sieve is made, and one there is dropped.
        assert_eq!(with_sieve_of(None, &bare, "r0cdelion7"), None);
        assert_eq!(
            with_sieve_of(None, &again, "r0cdelion7"),
            Some(bare.clone())
        );
        assert_eq!(with_sieve_of(Some(&mine), "damaged", "r0cdelion7"), None);
    }

    #[test]
    fn an_unkeyed_sieve_is_ignored_replaced_and_removable() {
        let k = key(3);
        let bare = bare_hash("r0cdelion7");
        let salt = PasswordHash::new(&bare).unwrap().salt.unwrap().to_string();
        // Its bits are wrong for the secret: the old check would have refused it.
        let wrong = (unkeyed_sieve("r0cdelion7", &salt) + 1) % 4096;
        let old = format!("{bare}~{wrong:03x}");
        assert!(matches_with(Some(&k), "r0cdelion7", &old));
        assert_eq!(without_unkeyed_sieve(&old), Some(bare.clone()));
        let keyed = with_sieve_of(Some(&k), &old, "r0cdelion7").unwrap();
        assert_eq!(without_unkeyed_sieve(&keyed), None);
        assert_eq!(without_unkeyed_sieve(&bare), None);
        assert_eq!(without_unkeyed_sieve("text~abc"), None);
    }

    #[test]
    fn the_keyed_sieve_is_not_the_unkeyed_one_nor_another_key_s() {
        let (k, other) = (key(4), key(5));
        let mut same_as_unkeyed = 0;
        let mut same_as_other = 0;
        for i in 0..200 {
            let secret = format!("secret{i}");
            let salt = format!("saltsalt{i}");
            let bits = k.sieve(&secret, &salt).unwrap();
            same_as_unkeyed += usize::from(bits == unkeyed_sieve(&secret, &salt));
            same_as_other += usize::from(Some(bits) == other.sieve(&secret, &salt));
        }
        // Agreement by chance: once in 4 096.
        assert!(same_as_unkeyed < 3 && same_as_other < 3);
    }

    #[test]
    fn a_key_reads_back_from_its_text_only() {
        let k = SieveKey::random().unwrap();
        assert_eq!(SieveKey::from_text(&k.to_text()), Some(k.clone()));
        assert_eq!(
            SieveKey::from_text(&format!("  {}  ", k.to_text())),
            Some(k.clone())
        );
        assert_eq!(k.id().len(), 8);
        assert!(!format!("{k:?}").contains(&k.to_text()[..16]));
        for bad in ["", "abc", &"g".repeat(64), &"0".repeat(63), &"é".repeat(32)] {
            assert_eq!(SieveKey::from_text(bad), None, "{bad}");
        }
    }

    #[test]
    fn common_leaked_passwords_are_refused_and_good_secrets_are_not() {
        for weak in [
            "12345678",
            "Passw0rd",
            "iloveyou",
            "football",
            "qwertyuiop",
            "PASSWORD",
            "iloveyou1",
            "football99",
            "p4ssw0rd",
            "Sunshine1",
        ] {
            assert!(is_common(weak), "{weak}");
            assert!(
                matches!(check_chosen(weak, &[]), Err(GameError::CommonSecret)),
                "{weak}"
            );
        }
        for good in ["k7pq2mzd9a", "rouge-corbeau-42", "tortue vol\u{e9}e"] {
            assert!(!is_common(good), "{good}");
        }
        assert!(listed("123456") && !listed("") && !listed("zzzzzzzzzzzzzzzzzz"));
    }

    #[test]
    fn short_names_refuse_only_themselves() {
        assert!(check_chosen("rouge-corbeau-42", &["r", "ab"]).is_ok());
        assert!(check_chosen("grand-arbre-17", &["r"]).is_ok());
        assert!(check_chosen("ab", &["ab"]).is_err());
        assert!(check_chosen("mon-stark-17", &["stark"]).is_err());
        assert!(check_chosen("westeros-1-x", &["westeros-1"]).is_err());
    }
}
