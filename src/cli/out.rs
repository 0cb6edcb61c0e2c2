//! Standard output for every command. A reader that goes away (`corbeau datc … | head`)
//! closes the pipe; `println!` would then panic with a backtrace. Here a write error stops
//! the output and nothing else: the command finishes its work (a command that changes a
//! game must not stop half-way because nobody reads its report) and exits with its own
//! status. A closed pipe is the reader's choice and goes unmentioned; any other write
//! error (a full disk behind `>`) is said once on stderr.
//!
//! Why not reset SIGPIPE to its default at the start of `main`: the process would then die
//! at the first write to any closed pipe, including the one to sendmail (`mail/transport`),
//! where a mail must be retried and the run must exit 75, not vanish mid-delivery.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

// Process-wide like standard output itself: once a write to it failed, no later one can
// succeed.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to standard output, unless an earlier write failed.
pub(super) fn write(args: fmt::Arguments<'_>, newline: bool) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    let result = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = result {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("corbeau: standard output: {e}");
        }
    }
}

/// `println!` that survives a closed standard output.
macro_rules! outln {
    () => {
        $crate::cli::out::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!($($arg)*), true)
    };
}

/// `print!` that survives a closed standard output.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!($($arg)*), false)
    };
}
