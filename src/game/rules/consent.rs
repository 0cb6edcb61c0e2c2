//! Consent before a seat or a game: a `JOIN`, `TAKEOVER` or `CREATE` carries nothing out
//! until the address it came from sends back the token the judge mailed there. The
//! token needs no stored state: it is a keyed hash of what was asked, by which address,
//! until when, under a key only the judge holds (the store keeps it). So a flood of
//! forged requests fills nothing and evicts nothing, and a real request is never kept
//! out by forged ones. What the game keeps is only the memory that a token went to an
//! address, so that repeats of a forged request do not mail its victim again
//! (docs/email.md, "Joining a game").

use blake2::Blake2sMac256;
use blake2::digest::{KeyInit, Mac};
use chrono::{DateTime, TimeDelta, Utc};

use crate::game::GameError;
use crate::game::event::Event;
use crate::game::model::{ConsentAsked, Game};
use crate::game::secret::SecretFailure;

use super::same_address;
use crate::game::Address;

/// How long a token is good for: as long as an observer's.
pub const CONSENT_TOKEN_LIFE: TimeDelta = TimeDelta::days(3);

/// The most addresses a game remembers having mailed a token to. Past it a new request
/// still gets its token (nothing is refused), it is only not remembered.
pub const MAX_CONSENT_ASKED: usize = 200;

/// The judge's key for consent tokens: 32 random bytes, made once, kept by the store.
#[derive(Clone)]
pub struct ConsentKey([u8; 32]);

impl std::fmt::Debug for ConsentKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ConsentKey(..)")
    }
}

impl ConsentKey {
    /// A new key, from the system's random source.
    pub fn fresh() -> Result<ConsentKey, GameError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| GameError::Secret(SecretFailure::Random(e.to_string())))?;
        Ok(ConsentKey(bytes))
    }

    /// The key the store kept (none if its bytes are not a key).
    pub fn from_bytes(bytes: &[u8]) -> Option<ConsentKey> {
        bytes.try_into().ok().map(ConsentKey)
    }

    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// What a token stands for: one request, as the confirmation must repeat it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// `JOIN game [house]`.
    Join { game: String, house: Option<String> },
    /// `TAKEOVER game house`.
    TakeOver { game: String, house: String },
    /// `CREATE game [VARIANT v] [PLAYERS n]`, as the judge reads them (defaults filled in).
    Create {
        game: String,
        variant: String,
        players: u8,
    },
    /// `STANDBY ON` / `STANDBY OFF`: the address on the judge's standby list, or off it.
    Standby { on: bool },
}

impl Asked {
    /// The request as the hash reads it: fields apart, none able to forge another.
    fn text(&self) -> String {
        match self {
            Asked::Join { game, house } => {
                format!("join\0{game}\0{}", house.as_deref().unwrap_or(""))
            }
            Asked::TakeOver { game, house } => format!("takeover\0{game}\0{house}"),
            Asked::Create {
                game,
                variant,
                players,
            } => format!("create\0{game}\0{variant}\0{players}"),
            Asked::Standby { on } => format!("standby\0{on}"),
        }
    }
}

/// Digits of the hour a token ends, then of its hash: one word of letters and digits,
/// which a mail's lines keep whole.
const HOUR_DIGITS: usize = 7;
const MAC_BYTES: usize = 10;

fn mac(key: &ConsentKey, asked: &Asked, address: &str, hour: i64) -> Option<Blake2sMac256> {
    let mut mac = <Blake2sMac256 as KeyInit>::new_from_slice(key.bytes()).ok()?;
    mac.update(asked.text().as_bytes());
    mac.update(b"\0");
    mac.update(address.trim().to_lowercase().as_bytes());
    mac.update(b"\0");
    mac.update(&hour.to_be_bytes());
    Some(mac)
}

/// The token that confirms `asked` from `address`, good until the hour after `now` plus
/// [`CONSENT_TOKEN_LIFE`], with that end.
pub fn consent_token(
    key: &ConsentKey,
    asked: &Asked,
    address: &str,
    now: DateTime<Utc>,
) -> Option<(String, DateTime<Utc>)> {
    let hour = (now + CONSENT_TOKEN_LIFE).timestamp().div_euclid(3600) + 1;
    let tag = mac(key, asked, address, hour)?.finalize().into_bytes();
    let mut token = format!("{hour:0width$x}", width = HOUR_DIGITS);
    for b in tag.iter().take(MAC_BYTES) {
        token.push_str(&format!("{b:02x}"));
    }
    let expires = DateTime::from_timestamp(hour * 3600, 0)?;
    Some((token, expires))
}

/// Whether `token` confirms `asked` from `address` at `now`: made by this judge for
/// this very request and address, and not expired.
pub fn consent_valid(
    key: &ConsentKey,
    asked: &Asked,
    address: &str,
    token: &str,
    now: DateTime<Utc>,
) -> Result<(), GameError> {
    let token = token.trim().to_ascii_lowercase();
    let bad = || GameError::BadConsentToken;
    if token.len() != HOUR_DIGITS + 2 * MAC_BYTES || !token.is_ascii() {
        return Err(bad());
    }
    let (hour, tag) = token.split_at(HOUR_DIGITS);
    let hour = i64::from_str_radix(hour, 16).map_err(|_| bad())?;
    let tag: Option<Vec<u8>> = (0..MAC_BYTES)
        .map(|i| {
            tag.get(2 * i..2 * i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect();
    let tag = tag.ok_or_else(bad)?;
    let mac = mac(key, asked, address, hour).ok_or_else(bad)?;
    mac.verify_truncated_left(&tag).map_err(|_| bad())?;
    if now.timestamp() >= hour.saturating_mul(3600) {
        return Err(GameError::ConsentTokenExpired);
    }
    Ok(())
}

impl Game {
    /// Whether a token for a seat was mailed to `address` and is still good: a repeat of
    /// the request is then not mailed again.
    pub fn consent_pending(&self, address: &str, now: DateTime<Utc>) -> bool {
        self.consent_asked
            .iter()
            .any(|a| a.expires > now && same_address(&a.address, address))
    }

    /// Remembers that a token for a seat went to `address`, good until `expires`: the
    /// expired memories go, and past [`MAX_CONSENT_ASKED`] the new one is not kept
    /// (forgers writing from many addresses then cost a mail each, as any mail does,
    /// and never keep a real request out).
    pub(in crate::game) fn remember_consent(
        &mut self,
        address: &str,
        expires: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Event {
        self.consent_asked.retain(|a| a.expires > now);
        let again = self.consent_pending(address, now);
        if !again && self.consent_asked.len() < MAX_CONSENT_ASKED {
            self.consent_asked.push(ConsentAsked {
                address: Address::new(address),
                expires,
            });
        }
        Event::ConsentAsked {
            address: Address::new(address),
            again,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ConsentKey {
        ConsentKey([7; 32])
    }

    #[test]
    fn a_token_confirms_its_request_from_its_address_until_it_expires() {
        let now = Utc::now();
        let asked = Asked::Join {
            game: "w1".into(),
            house: Some("stark".into()),
        };
        let (token, expires) = consent_token(&key(), &asked, "a@x.org", now).unwrap();
        assert!(consent_valid(&key(), &asked, "A@x.org", &token, now).is_ok());
        assert!(consent_valid(&key(), &asked, "b@x.org", &token, now).is_err());
        let other = Asked::Join {
            game: "w1".into(),
            house: None,
        };
        assert!(consent_valid(&key(), &other, "a@x.org", &token, now).is_err());
        assert!(consent_valid(&ConsentKey([8; 32]), &asked, "a@x.org", &token, now).is_err());
        assert!(matches!(
            consent_valid(&key(), &asked, "a@x.org", &token, expires),
            Err(GameError::ConsentTokenExpired)
        ));
        assert!(consent_valid(&key(), &asked, "a@x.org", "zz", now).is_err());
        assert!(consent_valid(&key(), &asked, "a@x.org", "é".repeat(27).as_str(), now).is_err());
    }
}
