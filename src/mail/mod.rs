//! The email judge: mail in (parsed, cleaned, read as commands), the commands carried out
//! on the store, replies, results and notices out through a durable outbox.
//!
//! - [`inbound`]: one raw RFC 5322 message to an [`inbound::Inbound`] (sender, ids, the
//!   body as clean text: quotes, signatures and footers gone);
//! - [`command`]: the body's text to the mail commands (French and English);
//! - [`outmail`]: a mail the judge will send, as the mail layer composes it;
//! - [`seal`]: an [`outmail::OutMail`] made into the store's envelope (headers and body
//!   bytes) when it is queued, and read back;
//! - [`transport`]: turning an envelope into a real message and handing it to the outbox
//!   folder, sendmail or SMTP;
//! - [`send`]: draining the outbox with retries and back-off;
//! - [`dispatch`]: carrying out one inbound mail's commands and writing its reply (the
//!   work itself, split by job, in `desk`);
//! - `deadline`: the games due at a deadline, claimed a few at a time when judges share
//!   the store;
//! - [`notify`]: turning queued notices (results, reminders, …) into mails;
//! - [`maildir`]: reading every new message of a Maildir;
//! - `log`: the operator's log line of each mail read (its Message-ID, its sender as
//!   written, what became of it).

pub mod board;
pub mod bounces;
pub mod command;
pub mod compose;
mod deadline;
mod desk;
pub mod dispatch;
pub mod inbound;
mod log;
pub mod maildir;
pub mod notify;
pub mod outmail;
pub mod pass;
pub mod refusal;
pub mod seal;
pub mod send;
pub mod transport;
