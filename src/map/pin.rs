//! A variant as a game keeps it: its TOML text, named by a hash of that text. A game
//! records the hash when it is created and the store keeps the text once per hash, so
//! that editing, moving or deleting the file (or a new release changing a built-in
//! variant) never changes a running game (docs/storage.md, "Pinned variants").

use std::fmt;

use blake2::{Blake2s256, Digest};
use serde::{Deserialize, Serialize};

/// The BLAKE2s-256 hash of a variant's TOML text, in lowercase hex (64 characters).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VariantHash(String);

impl VariantHash {
    /// The hash of `text`, byte for byte (no normalisation: a changed comment is a new
    /// version, which costs one more copy in the store and nothing else).
    pub fn of(text: &str) -> VariantHash {
        let digest = Blake2s256::digest(text.as_bytes());
        let mut hex = String::with_capacity(64);
        for byte in digest {
            use std::fmt::Write;
            let _ = write!(hex, "{byte:02x}");
        }
        VariantHash(hex)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first 12 characters: enough to tell versions apart in messages.
    pub fn short(&self) -> &str {
        self.0.get(..12).unwrap_or(&self.0)
    }
}

impl fmt::Display for VariantHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The variant a game plays: the name it was created with (a built-in name or the file
/// as given, for people to read) and the hash of the content it keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedVariant {
    pub name: String,
    pub hash: VariantHash,
}

impl fmt::Display for PinnedVariant {
    /// The name only: what `game list` and the mails show.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.name)
    }
}

/// A variant's text as read from the binary or a file, before it is pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSource {
    /// How messages name it (`games/westeros.toml`, or the path given).
    pub file: String,
    pub text: String,
}

impl VariantSource {
    pub fn hash(&self) -> VariantHash {
        VariantHash::of(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_64_hex_digits_and_follows_every_byte() {
        let a = VariantHash::of("[variant]\nid = \"x\"\n");
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(a, VariantHash::of("[variant]\nid = \"x\"\n"));
        assert_ne!(a, VariantHash::of("[variant]\nid = \"x\" \n"));
        assert_eq!(a.short().len(), 12);
    }

    #[test]
    fn a_pinned_variant_shows_its_name() {
        let pin = PinnedVariant {
            name: "westeros".into(),
            hash: VariantHash::of(""),
        };
        assert_eq!(format!("{pin:<10}|"), "westeros  |");
    }
}
