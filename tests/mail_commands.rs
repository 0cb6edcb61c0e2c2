//! The mail command parser (src/mail/command) against the cases of tests/mail/commands.txt,
//! the order examples of docs/orders.md and grammar/orders.ebnf (all of them must reach the
//! order parser untouched), the shipped maps (no keyword starts an order), the keyword
//! table of docs/email.md, and random text (never a panic, every line accounted for).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use corbeau::lang::Lang;
use corbeau::mail::command::{
    Command, CommandError, FOREIGN, Keyword, Located, SPELLINGS, Script, parse,
};
use corbeau::map::{Variant, fold, load_variant};
use corbeau::order::{Instruction, Order, parse_order};
use proptest::prelude::*;

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_file(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

// ---------------------------------------------------------------------------------------
// tests/mail/commands.txt: `@@ case: title`, the body, `@@ expect`, the commands read.

const CASES: &str = "tests/mail/commands.txt";

struct Case {
    title: String,
    body: String,
    expect: String,
}

/// The file's comment header, then its cases.
fn read_cases(text: &str) -> (String, Vec<Case>) {
    let mut header = String::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_expect = false;
    let mut body: Vec<&str> = Vec::new();
    for line in text.split('\n') {
        if let Some(title) = line.strip_prefix("@@ case:") {
            finish_body(&mut cases, &mut body);
            cases.push(Case {
                title: title.trim().to_string(),
                body: String::new(),
                expect: String::new(),
            });
            in_expect = false;
        } else if line == "@@ expect" {
            finish_body(&mut cases, &mut body);
            in_expect = true;
        } else if let Some(case) = cases.last_mut() {
            if in_expect {
                if !line.trim().is_empty() {
                    case.expect.push_str(line);
                    case.expect.push('\n');
                }
            } else {
                body.push(line);
            }
        } else {
            header.push_str(line);
            header.push('\n');
        }
    }
    (header, cases)
}

fn finish_body(cases: &mut [Case], body: &mut Vec<&str>) {
    if let Some(case) = cases.last_mut()
        && case.body.is_empty()
    {
        case.body = body.join("\n");
    }
    body.clear();
}

/// The script as the file writes it: the language, then one line per command (errors with
/// their French and English messages below).
fn render(script: &Script) -> String {
    let mut out = String::new();
    let lang = script.lang.map_or("none".to_string(), |l| l.to_string());
    writeln!(out, "lang: {lang}").unwrap();
    for Located { line, command, .. } in &script.commands {
        match command {
            Ok(command) => writeln!(out, "{line} {command:?}").unwrap(),
            Err(error) => {
                writeln!(out, "{line} error {error:?}").unwrap();
                writeln!(out, "    fr: {}", error.message(Lang::Fr)).unwrap();
                writeln!(out, "    en: {}", error.message(Lang::En)).unwrap();
            }
        }
    }
    out
}

#[test]
fn cases_read_as_expected() {
    let text = read(CASES);
    let (header, cases) = read_cases(&text);
    assert!(cases.len() > 20, "{CASES}: too few cases");
    let actual: Vec<String> = cases.iter().map(|c| render(&parse(&c.body))).collect();
    if std::env::var_os("CORBEAU_BLESS").is_some() {
        let mut out = header;
        for (case, actual) in cases.iter().zip(&actual) {
            writeln!(
                out,
                "@@ case: {}\n{}\n@@ expect\n{actual}",
                case.title, case.body
            )
            .unwrap();
        }
        std::fs::write(repo_file(CASES), out).unwrap();
        return;
    }
    let failed: Vec<&str> = cases
        .iter()
        .zip(&actual)
        .filter(|(case, actual)| {
            if case.expect != **actual {
                eprintln!(
                    "case `{}`:\n{}",
                    case.title,
                    pretty_assertions::StrComparison::new(&case.expect, *actual)
                );
            }
            case.expect != **actual
        })
        .map(|(case, _)| case.title.as_str())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases differ (CORBEAU_BLESS=1 rewrites {CASES}): {failed:?}",
        failed.len(),
        cases.len()
    );
}

// ---------------------------------------------------------------------------------------
// Order lines must reach the order parser as they are.

/// Every code span of docs/orders.md and the example lines of its text blocks (not the
/// error messages under them).
fn orders_doc_examples() -> Vec<String> {
    let doc = read("docs/orders.md");
    let mut examples = Vec::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            let message = ["ligne ", "line "].iter().any(|p| line.starts_with(p));
            if !message && !line.trim().is_empty() {
                examples.push(line.to_string());
            }
        } else {
            examples.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    examples
}

/// The order column of every example line of grammar/orders.ebnf (`w> LINE = AST`).
fn grammar_examples() -> Vec<String> {
    read("grammar/orders.ebnf")
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = ["w> ", "c> ", "w! ", "c! "]
                .iter()
                .find_map(|p| l.strip_prefix(p))?;
            Some(rest.split(" = ").next()?.trim().to_string())
        })
        .collect()
}

fn assert_read_as_order(example: &str, from: &str) {
    let script = parse(example);
    let commands: Vec<_> = script.commands.iter().map(|l| &l.command).collect();
    if example.chars().any(char::is_alphanumeric) && !example.trim_start().starts_with('#') {
        let order = Command::Order(example.trim().to_string());
        assert_eq!(commands, [&Ok(order)], "{from}: `{example}`");
        assert_eq!(script.lang, None, "{from}: `{example}` sets a language");
    } else {
        assert!(commands.is_empty(), "{from}: `{example}` is {commands:?}");
    }
}

#[test]
fn every_order_example_of_the_orders_guide_is_an_order() {
    let examples = orders_doc_examples();
    assert!(examples.len() > 60, "only {} examples", examples.len());
    for example in &examples {
        assert_read_as_order(example, "docs/orders.md");
    }
}

#[test]
fn every_order_example_of_the_grammar_is_an_order() {
    let examples = grammar_examples();
    assert!(examples.len() > 80, "only {} examples", examples.len());
    for example in &examples {
        assert_read_as_order(example, "grammar/orders.ebnf");
    }
}

/// Whether an order the order parser read names only a real house and a real dragon: on
/// a map with dragons it takes any unknown word before a province or an arrow for a
/// dragon's name (`Pause -> Som`, `Pas nul -> Bfn`: Passe-du-Prince convoys the dragon
/// `nul`), which no player can mean.
fn is_real(order: &Order, variant: &Variant) -> bool {
    let dragons: Vec<String> = variant
        .starting_units
        .iter()
        .filter_map(|u| u.name.as_deref())
        .chain(
            variant
                .houses
                .iter()
                .flat_map(|h| h.dragon_names.iter().map(String::as_str)),
        )
        .map(fold)
        .collect();
    let house_ok = order
        .house
        .as_deref()
        .is_none_or(|h| variant.house_by_name(h).is_some());
    let other = match &order.action {
        Instruction::Support { unit, .. } | Instruction::Convoy { unit, .. } => Some(unit),
        _ => None,
    };
    let dragons_ok = [Some(&order.unit), other]
        .into_iter()
        .flatten()
        .filter_map(|unit| unit.name.as_deref())
        .all(|n| dragons.contains(&fold(n)));
    house_ok && dragons_ok
}

#[test]
fn no_keyword_starts_an_order_on_the_shipped_maps() {
    let source: Arc<str> = Arc::from("test");
    let mut collisions = Vec::new();
    let mut orders_seen = 0;
    for name in ["westeros", "classique"] {
        let variant = load_variant(name).unwrap();
        let mut tails: Vec<String> = [
            "",
            " tient",
            " H",
            " hold",
            " construire",
            " build",
            " disband",
            " dissoudre",
        ]
        .map(String::from)
        .to_vec();
        for p in &variant.provinces {
            let id = &p.id;
            tails.extend([
                format!(" -> {id}"),
                format!("-{id}"),
                format!(" {id}"),
                format!(" {id} tient"),
                format!(" S {id}"),
            ]);
        }
        // The commands of other judges are read as such too.
        let words = SPELLINGS
            .iter()
            .map(|s| s.words)
            .chain(FOREIGN.iter().map(|f| f.0));
        for words in words {
            for tail in &tails {
                let line = format!("{}{tail}", words.to_uppercase());
                let Ok(Some(order)) = parse_order(&variant, &source, 1, &line) else {
                    continue;
                };
                if !is_real(&order, &variant) {
                    continue;
                }
                orders_seen += 1;
                let commands: Vec<_> = parse(&line)
                    .commands
                    .into_iter()
                    .map(|l| l.command)
                    .collect();
                if commands != [Ok(Command::Order(line.clone()))] {
                    collisions.push(format!("{name}: `{line}` is {commands:?}"));
                }
            }
        }
    }
    // `FIN -> swe` and its like on the classic map: the check is not empty.
    assert!(orders_seen > 0);
    assert!(collisions.is_empty(), "{}", collisions.join("\n"));
}

// ---------------------------------------------------------------------------------------
// docs/email.md: its keyword table lists every spelling.

#[test]
fn the_mail_guide_lists_every_spelling() {
    let doc = read("docs/email.md");
    let mut rows = doc
        .lines()
        .skip_while(|l| !l.starts_with("| Command "))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .peekable();
    assert!(
        rows.peek().is_some(),
        "docs/email.md: no `| Command |` table"
    );
    let mut listed: Vec<&str> = Vec::new();
    for row in rows {
        let cells: Vec<&str> = row.split('|').collect();
        let forms = cells.get(2..4).unwrap_or_default().join(" ");
        for form in forms.split('`').skip(1).step_by(2) {
            let words: Vec<String> = fold(form).split(' ').map(str::to_string).collect();
            let spelling = SPELLINGS
                .iter()
                .filter(|s| {
                    let n = s.words.split(' ').count();
                    words.len() >= n && words[..n].join(" ") == s.words
                })
                .max_by_key(|s| s.words.len());
            let spelling =
                spelling.unwrap_or_else(|| panic!("docs/email.md: `{form}` is no keyword"));
            listed.push(spelling.words);
        }
    }
    let missing: Vec<&str> = SPELLINGS
        .iter()
        .map(|s| s.words)
        .filter(|w| !listed.contains(w))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/email.md does not list {missing:?}"
    );
}

#[test]
fn the_example_mails_of_the_guide_read_without_error() {
    let doc = read("docs/email.md");
    let mut mails: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line) {
            (None, "```mail") => current = Some(String::new()),
            (Some(mail), "```") => {
                mails.push(std::mem::take(mail));
                current = None;
            }
            (Some(mail), line) => {
                mail.push_str(line);
                mail.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(
        mails.len() >= 8,
        "docs/email.md: only {} example mails",
        mails.len()
    );
    for mail in &mails {
        let script = parse(mail);
        let errors: Vec<_> = script
            .commands
            .iter()
            .filter(|l| l.command.is_err())
            .collect();
        assert!(errors.is_empty(), "docs/email.md:\n{mail}\n{errors:?}");
        assert!(script.lang.is_some(), "docs/email.md:\n{mail}");
    }
}

// ---------------------------------------------------------------------------------------
// Random text.

fn is_filler(text: &str) -> bool {
    text.starts_with('#') || !text.chars().any(char::is_alphanumeric)
}

/// Whether a command may be followed by lines it took (a press text, a diary) or that it
/// left unread (after the end of the mail).
fn swallows(command: &Result<Command, CommandError>) -> bool {
    matches!(
        command,
        Ok(Command::Press { .. } | Command::Alert { .. } | Command::Stop | Command::Diary { .. })
            | Err(CommandError::PressWithoutEnd
                | CommandError::EmptyPress
                | CommandError::DiaryWithoutEnd { .. })
            | Err(CommandError::Arguments {
                keyword: Keyword::Press
                    | Keyword::GreyPress
                    | Keyword::Broadcast
                    | Keyword::GreyBroadcast
                    | Keyword::Alert,
                ..
            })
    )
}

fn check_accounted(body: &str) {
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let script = parse(body);
    let mut previous: Option<&Located> = None;
    for located in &script.commands {
        let first_unread = previous.map_or(1, |p| p.line + 1);
        assert!(
            located.line >= first_unread,
            "{body:?}: line {} out of order",
            located.line
        );
        assert!(
            located.line <= lines.len(),
            "{body:?}: line {} past the end",
            located.line
        );
        assert_eq!(located.text, lines[located.line - 1].trim(), "{body:?}");
        if let Ok(Command::Order(order)) = &located.command {
            assert_eq!(order, &located.text, "{body:?}");
        }
        let skipped = &lines[first_unread - 1..located.line - 1];
        let taken = previous.is_some_and(|p| swallows(&p.command));
        assert!(
            taken || skipped.iter().all(|l| is_filler(l.trim())),
            "{body:?}: lines before {} unread",
            located.line
        );
        previous = Some(located);
    }
    let rest = &lines[previous.map_or(0, |p| p.line)..];
    let taken = previous.is_some_and(|p| swallows(&p.command));
    assert!(
        taken || rest.iter().all(|l| is_filler(l.trim())),
        "{body:?}: last lines unread"
    );
}

fn line_strategy() -> impl Strategy<Value = String> {
    let keyword = prop::sample::select(SPELLINGS.iter().map(|s| s.words).collect::<Vec<_>>());
    prop_oneof![
        any::<String>(),
        "[ -~éÊàç\t\r]{0,30}",
        (keyword, "[ :,\\-]{0,2}", "[ -~é]{0,20}")
            .prop_map(|(k, sep, tail)| format!("{}{sep}{tail}", k.to_uppercase())),
        Just(String::new()),
        Just("FIN PRESSE".to_string()),
    ]
}

proptest! {
    #[test]
    fn parse_never_panics_and_accounts_for_every_line(
        lines in prop::collection::vec(line_strategy(), 0..24)
    ) {
        check_accounted(&lines.join("\n"));
    }
}
