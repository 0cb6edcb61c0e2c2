//! Reading a file a user names: a variant, a position, orders, the settings, a template.
//! One cap for all of them, read up to and no further: `/dev/zero`, a FIFO that never
//! ends or a file grown by mistake costs at most the cap in memory, and is refused with
//! its name and the cap instead of filling the memory first.

use std::io::Read;
use std::path::Path;

use crate::lang::Lang;
use crate::say;

/// The most corbeau reads of one file: the largest real input (a variant with its
/// drawing, a position, a long order file) is well under 1 MB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A file that could not be read, with its name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Longer than [`MAX_FILE_BYTES`]: read up to the cap, no further.
    #[error("{}", self.message(Lang::En))]
    TooLarge { file: String },
    /// The system's reason (no such file, a folder, no permission, not UTF-8).
    #[error("{file}: {reason}")]
    Unreadable { file: String, reason: String },
}

impl ReadError {
    /// What went wrong, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ReadError::TooLarge { file } => {
                let limit = format!("{} MB", MAX_FILE_BYTES / (1024 * 1024));
                say!(lang, "file.too_large", file, limit)
            }
            ReadError::Unreadable { file, reason } => format!("{file}: {reason}"),
        }
    }
}

/// The text of the file at `path`, if it is at most [`MAX_FILE_BYTES`] of UTF-8.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let file = path.display().to_string();
    let opened = std::fs::File::open(path).map_err(|e| ReadError::Unreadable {
        file: file.clone(),
        reason: e.to_string(),
    })?;
    // Sized once from the file's length: growing the buffer while reading a batch file of
    // megabytes would copy it over and over.
    let length = opened
        .metadata()
        .map_or(0, |m| m.len())
        .min(MAX_FILE_BYTES + 1);
    read_text_sized(opened, &file, usize::try_from(length).unwrap_or(0))
}

/// The text `reader` gives (standard input, a file), named `file` in errors, if it is at
/// most [`MAX_FILE_BYTES`] of UTF-8.
pub fn read_text_from(reader: impl Read, file: &str) -> Result<String, ReadError> {
    read_text_sized(reader, file, 0)
}

fn read_text_sized(reader: impl Read, file: &str, expected: usize) -> Result<String, ReadError> {
    let mut bytes = Vec::with_capacity(expected.saturating_add(1));
    // One byte past the cap tells a file of exactly the cap from a longer one.
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Unreadable {
            file: file.to_string(),
            reason: e.to_string(),
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            file: file.to_string(),
        });
    }
    String::from_utf8(bytes).map_err(|_| ReadError::Unreadable {
        file: file.to_string(),
        reason: "not UTF-8 text".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_input_stops_at_the_cap() {
        let endless = std::io::repeat(b'a');
        let e = read_text_from(endless, "/dev/zero").expect_err("too large");
        assert_eq!(
            e.message(Lang::En),
            "/dev/zero: larger than 16 MB, the most corbeau reads of a file"
        );
        let exact = std::io::repeat(b'a').take(MAX_FILE_BYTES);
        assert_eq!(
            read_text_from(exact, "f").map(|t| t.len() as u64),
            Ok(MAX_FILE_BYTES)
        );
    }
}
