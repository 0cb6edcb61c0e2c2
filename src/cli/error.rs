//! Errors of the command line, with the exit code each deserves: 1 for a user's mistake
//! (bad input, clear message), 2 for a bug in corbeau, 75 (EX_TEMPFAIL of sysexits.h)
//! for a failure that may pass by itself: a mail server that gets 75 from `corbeau
//! ingest` keeps the mail and tries again later, where any other code bounces it.

use crate::map::MapError;

/// "Temporary failure; user is invited to retry" (sysexits.h).
pub(super) const EX_TEMPFAIL: u8 = 75;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Map(#[from] MapError),
    /// A file or argument that cannot be used, with the reason.
    #[error("{0}")]
    Input(String),
    /// Problems already printed one by one; this is the summary.
    #[error("{0}")]
    Reported(String),
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("bug in corbeau, please report it: {0}")]
    Internal(String),
    /// Nothing was done, and trying again later may work (store busy, disk full, a
    /// configuration or Maildir that cannot be read yet).
    #[error("{0}")]
    Temporary(String),
}

impl Error {
    /// 1 for user errors, 2 for internal ones, 75 for temporary failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Internal(_) => 2,
            Error::Temporary(_) => EX_TEMPFAIL,
            _ => 1,
        }
    }

    /// The same error, said to be temporary.
    pub fn temporary(self) -> Error {
        match self {
            Error::Temporary(_) => self,
            other => Error::Temporary(other.to_string()),
        }
    }
}

/// A template a moderator changed and broke is their input, not a bug.
impl From<crate::report::RenderError> for Error {
    fn from(e: crate::report::RenderError) -> Error {
        Error::Input(e.to_string())
    }
}
