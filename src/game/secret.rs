//! Players' and moderators' secrets: generated for them, kept only as salted Argon2
//! hashes, so that a copy of the store does not give away anybody's password.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use super::GameError;

/// Letters and digits that cannot be mistaken for one another when copied from a mail.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const SECRET_LEN: usize = 10;

/// A fresh random secret (`k7pq2mzd9a`).
pub fn new_secret() -> Result<String, GameError> {
    let mut bytes = [0u8; SECRET_LEN];
    getrandom::fill(&mut bytes).map_err(|e| GameError::Internal(format!("random source: {e}")))?;
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

/// The salted hash kept in the store (a PHC string).
pub fn hash_secret(secret: &str) -> Result<String, GameError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| GameError::Internal(format!("random source: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| GameError::Internal(e.to_string()))?;
    Argon2::default()
        .hash_password(secret.trim().as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| GameError::Internal(e.to_string()))
}

/// The longest secret worth checking: the judge's are [`SECRET_LEN`] characters, and a
/// moderator's own may be longer, but a line of kilobytes is no secret and is refused
/// without paying for a hash.
const LONGEST_SECRET: usize = 256;

thread_local! {
    /// How many secrets this thread has checked against a hash (each check costs ~20 ms
    /// and 19 MiB of Argon2): the tests of hostile mail count them.
    static CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The number of hash checks made so far by this thread (see [`secret_matches`]).
pub fn secret_checks() -> u64 {
    CHECKS.with(std::cell::Cell::get)
}

/// Whether `secret` is the one that was hashed; a damaged hash never matches.
pub fn secret_matches(secret: &str, hash: &str) -> bool {
    if secret.trim().len() > LONGEST_SECRET {
        return false;
    }
    CHECKS.with(|c| c.set(c.get() + 1));
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(secret.trim().as_bytes(), &parsed)
            .is_ok()
    })
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
}
