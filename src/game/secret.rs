//! Players' and moderators' secrets: generated for them, kept only as salted Argon2
//! hashes, so that a copy of the store does not give away anybody's password.
//!
//! Beside the hash, a **sieve**: 12 bits of a second, cheap Argon2 of the secret with the
//! same salt (`<PHC string>~<3 hex digits>`). A wrong secret fails the sieve 4 095 times
//! in 4 096 for a few microseconds, so a storm of wrong secrets costs the judge almost
//! nothing and no throttle has to refuse anyone unchecked (docs/email.md, "Sign-on,
//! secrets and throttling"); a secret that passes the sieve is then checked in full. The
//! 12 bits cut an offline search of a stolen store by 4 096, which leaves a secret made
//! by the judge (49 bits) more than a century of Argon2 per core. A hash written before
//! the sieve existed has none and is checked in full until the next right sign-on adds
//! it ([`with_sieve`]).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use super::{GameError, HouseKey};

/// Letters and digits that cannot be mistaken for one another when copied from a mail.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const SECRET_LEN: usize = 10;

/// What separates the PHC string from the sieve: never a character of a PHC string.
const SIEVE_MARK: char = '~';
/// The sieve's bits: a wrong secret passes it once in 2^12.
const SIEVE_BITS: u32 = 12;

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

/// The fewest characters of a secret its owner chooses (`SET PASSWORD`): the judge's own
/// are 10 letters and digits.
pub const MIN_CHOSEN: usize = 8;

/// Refuses a secret its owner chose that is easy to guess: shorter than [`MIN_CHOSEN`],
/// fewer than four different characters (`aaaaaaaa`, `abababab`), or the game's or the
/// house's own name (`westeros-1`, `stark`), which anyone reading the results knows.
pub fn check_chosen(secret: &str, known: &[&str]) -> Result<(), GameError> {
    let secret = secret.trim();
    let mut distinct: Vec<char> = secret.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let guessable = known.iter().any(|k| {
        let k = crate::map::fold(k);
        !k.is_empty() && crate::map::fold(secret).contains(&k)
    });
    if secret.chars().count() < MIN_CHOSEN || distinct.len() < 4 || guessable {
        return Err(GameError::WeakSecret { min: MIN_CHOSEN });
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

/// The salted hash kept in the store (a PHC string), with its sieve.
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

/// The stored hash with the sieve of `secret` added (the secret just matched it), or
/// `None` when it has one already or cannot take one (a damaged hash).
pub fn with_sieve(stored: &str, secret: &str) -> Option<String> {
    if stored.contains(SIEVE_MARK) {
        return None;
    }
    let parsed = PasswordHash::new(stored).ok()?;
    let sieve = sieve(secret, parsed.salt?.as_str())?;
    Some(format!("{stored}{SIEVE_MARK}{sieve:03x}"))
}

/// The 12 bits of the cheap hash: Argon2id at its smallest cost (8 KiB, one pass), with
/// the hash's own salt, so that the sieve says nothing a second salt would have to hide.
fn sieve(secret: &str, salt: &str) -> Option<u16> {
    let params = Params::new(8, 1, 1, Some(4)).ok()?;
    let cheap = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
    let mut out = [0u8; 4];
    cheap
        .hash_password_into(secret.trim().as_bytes(), salt.as_bytes(), &mut out)
        .ok()?;
    Some(u16::from_be_bytes([out[0], out[1]]) >> (16 - SIEVE_BITS))
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
/// secret is mostly turned away by the sieve, without the full check.
pub fn secret_matches(secret: &str, stored: &str) -> bool {
    if secret.trim().len() > LONGEST_SECRET {
        return false;
    }
    let (phc, kept_sieve) = match stored.split_once(SIEVE_MARK) {
        Some((phc, sieve)) => (phc, u16::from_str_radix(sieve, 16).ok()),
        None => (stored, None),
    };
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    if let (Some(kept), Some(salt)) = (kept_sieve, parsed.salt)
        && sieve(secret, salt.as_str()) != Some(kept)
    {
        return false;
    }
    #[cfg(any(test, feature = "test-hooks"))]
    CHECKS.with(|c| c.set(c.get() + 1));
    Argon2::default()
        .verify_password(secret.trim().as_bytes(), &parsed)
        .is_ok()
}

/// Whether `word` passes the sieve kept beside `stored`: it may be that secret (a wrong
/// word passes once in 2^12), at the cost of the sieve alone, never of the full check.
/// False when the stored hash has no sieve (one written before it existed) or is damaged.
/// What quotes a mail back masks such words: a false positive hides a harmless word.
pub fn sieve_passes(word: &str, stored: &str) -> bool {
    if word.trim().len() > LONGEST_SECRET {
        return false;
    }
    let Some((phc, kept)) = stored.split_once(SIEVE_MARK) else {
        return false;
    };
    let (Ok(kept), Ok(parsed)) = (u16::from_str_radix(kept, 16), PasswordHash::new(phc)) else {
        return false;
    };
    parsed
        .salt
        .is_some_and(|salt| sieve(word, salt.as_str()) == Some(kept))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_sieve_turns_most_wrong_secrets_away_without_the_full_check() {
        let hash = hash_secret("k7pq2mzd9a").unwrap();
        let before = secret_checks();
        let passed = (0..2000)
            .filter(|i| secret_matches(&format!("guess{i}"), &hash))
            .count();
        assert_eq!(passed, 0);
        // 2 000 wrong secrets: about half a full check expected; a handful at most.
        assert!(secret_checks() - before < 6, "{}", secret_checks() - before);
        let before = secret_checks();
        assert!(secret_matches("k7pq2mzd9a", &hash));
        assert_eq!(secret_checks() - before, 1);
    }

    #[test]
    fn a_hash_without_a_sieve_still_matches_and_takes_one() {
        let sieved = hash_secret("r0cdelion7").unwrap();
        let (old, _) = sieved.split_once(SIEVE_MARK).unwrap();
        assert!(secret_matches("r0cdelion7", old));
        assert!(!secret_matches("guess", old));
        let added = with_sieve(old, "r0cdelion7").unwrap();
        assert_eq!(added, sieved);
        assert_eq!(with_sieve(&added, "r0cdelion7"), None);
        assert_eq!(with_sieve("damaged", "r0cdelion7"), None);
    }
}
