//! Errors of the command line, with the exit code each deserves: 1 for a user's mistake
//! (bad input, clear message), 2 for a bug in corbeau.

use crate::map::MapError;

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
}

impl Error {
    /// 1 for user errors, 2 for internal ones.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Internal(_) => 2,
            _ => 1,
        }
    }
}

/// A template a moderator changed and broke is their input, not a bug.
impl From<crate::report::RenderError> for Error {
    fn from(e: crate::report::RenderError) -> Error {
        Error::Input(e.to_string())
    }
}
