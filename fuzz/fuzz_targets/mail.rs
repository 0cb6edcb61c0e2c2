//! Raw bytes as `corbeau ingest` reads them before it opens a store: the inbound reader,
//! then the command parser. A line that carries a secret is quoted back without it.
#![no_main]

use corbeau::lang::Lang;
use corbeau::mail::command::{self, SECRET_MASK};
use corbeau::mail::inbound;
use libfuzzer_sys::fuzz_target;

/// A limit small enough that fuzzed mails cross it both ways.
const LIMIT: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let mail = match inbound::read(data, LIMIT) {
        Ok(mail) => mail,
        Err(error) => {
            assert!(!error.message(Lang::Fr).is_empty());
            assert!(!error.message(Lang::En).is_empty());
            return;
        }
    };
    assert_eq!(mail.size, data.len());
    assert_eq!(mail.too_large, data.len() > LIMIT);
    if mail.too_large {
        assert!(mail.body.is_empty() && mail.attachments.is_empty());
    }
    assert!(!mail.from.is_empty());
    assert!(!mail.message_id.is_empty());
    assert!(!mail.subject.contains('\n'));
    let script = command::parse(&mail.body);
    let lines = mail.body.split('\n').count();
    for located in &script.commands {
        assert!(located.line >= 1 && located.line <= lines);
        if let Err(error) = &located.command {
            assert!(!error.message(Lang::Fr).is_empty());
            assert!(!error.message(Lang::En).is_empty());
        }
    }
    for text in mail
        .body
        .lines()
        .chain(std::iter::once(mail.subject.as_str()))
    {
        let Some(line) = command::secret_line(text) else {
            continue;
        };
        let shown = line.safe_words();
        let quoted = line.masked(shown);
        let rest = line.masked_rest(shown);
        let visible: Vec<&str> = line
            .written
            .split_whitespace()
            .chain(line.words.iter().take(shown).copied())
            .collect();
        for secret in line.hidden(shown) {
            for echo in [&quoted, &rest] {
                let leaked = echo.split_whitespace().any(|w| w == *secret);
                assert!(
                    !leaked || visible.contains(secret) || *secret == SECRET_MASK,
                    "{secret:?} echoed in {echo:?} from {text:?}"
                );
            }
        }
        if !line.hidden(shown).is_empty() {
            assert!(quoted.ends_with(SECRET_MASK) && rest.ends_with(SECRET_MASK));
        }
    }
});
