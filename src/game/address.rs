//! A mail address, as the judge keeps and compares it.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use serde::{Deserialize, Serialize};

/// A mail address. Made where it enters (a mail's sender, a command's argument) by
/// [`Address::new`], which sets aside a display name and its angle brackets, the spaces
/// around, and case. Stored as the plain string it holds (a store written by an earlier
/// version reads as it was, and is written back the same), and compared one way whatever
/// it holds: spaces around and case do not count.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Address(String);

impl Address {
    /// The address as written: `Name <local@domain>`, `<local@domain>` or
    /// `local@domain`, with spaces around, in any case.
    pub fn new(written: &str) -> Address {
        let written = written.trim();
        let bare = match (written.rfind('<'), written.strip_suffix('>')) {
            (Some(open), Some(inner)) if open < inner.len() => &inner[open + 1..],
            _ => written,
        };
        Address(bare.trim().to_lowercase())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form every comparison reads: trimmed, each character lower-cased.
    fn key(&self) -> impl Iterator<Item = char> + '_ {
        key(&self.0)
    }
}

fn key(address: &str) -> impl Iterator<Item = char> + '_ {
    address.trim().chars().flat_map(char::to_lowercase)
}

/// Whether two addresses are the same mailbox, as far as the judge can tell (domains
/// ignore case, and so do the local parts of every mail system players use): the one
/// comparison of addresses, [`Address`]'s own.
pub fn same_address(a: &str, b: &str) -> bool {
    key(a).eq(key(b))
}

impl PartialEq for Address {
    fn eq(&self, other: &Address) -> bool {
        self.key().eq(other.key())
    }
}

impl Eq for Address {}

impl PartialEq<str> for Address {
    fn eq(&self, other: &str) -> bool {
        same_address(&self.0, other)
    }
}

impl PartialEq<&str> for Address {
    fn eq(&self, other: &&str) -> bool {
        same_address(&self.0, other)
    }
}

impl PartialEq<String> for Address {
    fn eq(&self, other: &String) -> bool {
        same_address(&self.0, other)
    }
}

impl PartialEq<Address> for String {
    fn eq(&self, other: &Address) -> bool {
        same_address(self, &other.0)
    }
}

impl PartialEq<Address> for str {
    fn eq(&self, other: &Address) -> bool {
        same_address(self, &other.0)
    }
}

impl PartialEq<Address> for &Address {
    fn eq(&self, other: &Address) -> bool {
        **self == *other
    }
}

impl Hash for Address {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for c in self.key() {
            c.hash(state);
        }
    }
}

impl PartialOrd for Address {
    fn partial_cmp(&self, other: &Address) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Address {
    fn cmp(&self, other: &Address) -> Ordering {
        self.key().cmp(other.key())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Deref for Address {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Address {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Address {
    fn from(written: &str) -> Address {
        Address::new(written)
    }
}

impl From<&String> for Address {
    fn from(written: &String) -> Address {
        Address::new(written)
    }
}

impl From<String> for Address {
    fn from(written: String) -> Address {
        Address::new(&written)
    }
}

impl From<Address> for String {
    fn from(address: Address) -> String {
        address.0
    }
}
