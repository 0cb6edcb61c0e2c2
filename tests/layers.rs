//! The crate's folders are layers, and a layer names only those below it
//! (docs/architecture.md): file ← map ← order ← judge ← {position, draw, bot} ← game ← report ← service ← {store, mail} ←
//! cli. This test reads every source file and fails on a `crate::` path that points up or
//! sideways, so that the knot cannot grow back one import at a time.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and its layer: a module may name modules of a lower layer only.
const LAYERS: &[(&str, u8)] = &[
    ("lang", 0),
    ("wording", 1),
    ("file", 2),
    ("config", 3),
    ("map", 3),
    ("order", 4),
    ("judge", 5),
    ("position", 6),
    ("draw", 6),
    ("bot", 6),
    ("game", 7),
    ("case", 7),
    ("report", 8),
    ("store", 9),
    ("service", 10),
    ("mail", 11),
    ("publish", 11),
    ("cli", 12),
];

/// Modules only some may name, whatever their layer: the DATC and case-file tooling is no
/// production path; the service is the only door to the store.
const RESTRICTED: &[(&str, &[&str])] = &[("case", &["cli"]), ("store", &["service", "cli"])];

/// Macros exported at the crate's root, by the module that defines them.
const ROOT_MACROS: &[(&str, &str)] = &[("say", "wording"), ("__say_value", "wording")];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn may_name(from: &str, to: &str) -> bool {
    if from == to {
        return true;
    }
    if let Some((_, who)) = RESTRICTED.iter().find(|(m, _)| *m == to)
        && !who.contains(&from)
    {
        return false;
    }
    matches!((layer(from), layer(to)), (Some(f), Some(t)) if t < f)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`src/mail/desk/orders.rs` → `mail`); none for
/// the crate's roots.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The modules a line of code names through `crate::` (comments left out).
fn named(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let code = code.split(" //").next().unwrap_or(code);
    code.match_indices("crate::")
        .filter(|(i, _)| *i == 0 || !code.as_bytes()[i - 1].is_ascii_alphanumeric())
        .map(|(i, m)| {
            code[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .map(|m| {
            ROOT_MACROS
                .iter()
                .find(|(name, _)| *name == m)
                .map_or(m, |(_, module)| module.to_string())
        })
        .collect()
}

#[test]
fn no_module_names_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    for file in &files {
        let Some(from) = module_of(&src, file) else {
            continue;
        };
        if layer(&from).is_none() {
            unknown.insert(from.clone());
            continue;
        }
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (n, line) in text.lines().enumerate() {
            for to in named(line) {
                if layer(&to).is_none() {
                    unknown.insert(to.clone());
                } else if !may_name(&from, &to) {
                    let rel = file.strip_prefix(&src).unwrap_or(file);
                    wrong.insert(format!(
                        "src/{}:{}: {from} names {to}",
                        rel.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "modules with no layer in tests/layers.rs (add them, and to docs/architecture.md): {unknown:?}"
    );
    assert!(
        wrong.is_empty(),
        "imports against the layers (docs/architecture.md):\n{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// Layers that take no language: they return typed values (errors, audit lines, dates,
/// spans) and `report` words them for people (docs/architecture.md).
const WORDLESS: &[&str] = &["game"];

#[test]
fn the_game_takes_no_language() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut worded = Vec::new();
    for file in &files {
        let Some(from) = module_of(&src, file) else {
            continue;
        };
        if !WORDLESS.contains(&from.as_str()) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            let calls = !code.starts_with("//") && code.contains("say!(");
            if calls || named(line).iter().any(|m| m == "wording") {
                let rel = file.strip_prefix(&src).unwrap_or(file);
                worded.push(format!("src/{}:{}: {}", rel.display(), n + 1, code));
            }
        }
    }
    assert!(
        worded.is_empty(),
        "wording in a layer that takes no language (move it to `report`):\n{}",
        worded.join("\n")
    );
}

#[test]
fn the_rule_reads_as_documented() {
    assert!(may_name("game", "judge"));
    assert!(!may_name("judge", "game"));
    assert!(!may_name("store", "mail"));
    assert!(!may_name("game", "report"));
    assert!(may_name("report", "game"));
    assert!(!may_name("service", "mail"));
    assert!(!may_name("mail", "store"));
    assert!(may_name("service", "store"));
    assert!(!may_name("mail", "case"));
    assert!(may_name("cli", "case"));
    assert!(!may_name("mail", "publish"));
    assert_eq!(named("use crate::map::{Variant, fold};"), ["map"]);
    assert_eq!(
        named("/// see [`crate::mail::OutMail`]"),
        Vec::<String>::new()
    );
    assert_eq!(
        named("let x = crate::judge::adjudicate(v, p, o); // crate::mail"),
        ["judge"]
    );
}

/// Layers that speak to no reader: the map, the judge and the position compute, and the
/// layers above them put their results in words (docs/architecture.md). A `say!` or a
/// `crate::wording` path in one of their files fails here.
#[test]
fn the_judge_names_no_message_catalogue() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for module in ["map", "judge", "position"] {
        let mut files = Vec::new();
        rust_files(&src.join(module), &mut files);
        for file in &files {
            let text =
                fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if !code.starts_with("//")
                    && (code.contains("say!") || named(line).iter().any(|m| m == "wording"))
                {
                    let rel = file.strip_prefix(&src).unwrap_or(file);
                    wrong.push(format!("src/{}:{}: {code}", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the catalogue named below the game:\n{}",
        wrong.join("\n")
    );
}
