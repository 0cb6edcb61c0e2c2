//! The message catalogue (templates/{fr,en}/messages.toml, docs/wording.md): every code in
//! both languages with the same arguments, every code used by the code and every code the
//! code uses in the catalogue, and a moderator's override of one sentence in the mail the
//! judge answers.

#![allow(clippy::unwrap_used)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use corbeau::lang::Lang;
use corbeau::wording::{embedded_text, parse, render_entry};
use minijinja::{Environment, Value};
use support::TempDir;
use support::judge::{corbeau, mail, mails_to, root, run, said};

fn catalogue(lang: Lang) -> BTreeMap<String, String> {
    parse(embedded_text(lang), lang.code()).unwrap_or_else(|e| panic!("{e}"))
}

/// The variables an entry reads.
fn arguments(source: &str) -> BTreeSet<String> {
    let env = Environment::new();
    let template = env
        .template_from_str(source)
        .unwrap_or_else(|e| panic!("{source}: {e}"));
    template.undeclared_variables(false).into_iter().collect()
}

#[test]
fn french_and_english_have_the_same_codes_and_arguments() {
    let fr = catalogue(Lang::Fr);
    let en = catalogue(Lang::En);
    let fr_codes: BTreeSet<&String> = fr.keys().collect();
    let en_codes: BTreeSet<&String> = en.keys().collect();
    assert_eq!(
        fr_codes.difference(&en_codes).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "in French only"
    );
    assert_eq!(
        en_codes.difference(&fr_codes).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "in English only"
    );
    for (code, source) in &fr {
        assert_eq!(
            arguments(source),
            arguments(&en[code]),
            "`{code}`: French and English read different arguments"
        );
    }
}

/// Every entry renders, in both languages, to a text that is not empty, with a sample
/// value for each of its arguments (a text, a list and a number would all do: the sample
/// is a list of texts, which a template can join, loop over, test and print).
#[test]
fn every_code_renders_in_both_languages() {
    for lang in [Lang::Fr, Lang::En] {
        for (code, source) in catalogue(lang) {
            assert!(!source.trim().is_empty(), "{lang} `{code}` is empty");
            let args: Vec<(String, Value)> = arguments(&source)
                .into_iter()
                .map(|name| {
                    let sample = Value::from(vec![format!("<{name}>")]);
                    (name, sample)
                })
                .collect();
            let args: Vec<(&str, Value)> =
                args.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
            let text = render_entry(&source, &args)
                .unwrap_or_else(|e| panic!("{lang} `{code}` does not render: {e}"));
            assert!(!text.trim().is_empty(), "{lang} `{code}` renders empty");
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(fs::read_to_string(&path).unwrap());
        }
    }
}

/// The string literals of the code that look like codes (`refusal.not_signed_on`).
fn literals(sources: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for source in sources {
        for piece in source.split('"').skip(1).step_by(2) {
            let looks_like_code = piece.contains('.')
                && piece
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
            if looks_like_code {
                found.insert(piece.to_string());
            }
        }
    }
    found
}

/// The codes `say!` is called with.
fn said_codes(sources: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for source in sources {
        for call in source.split("say!(").skip(1) {
            // (A doc comment's `say!(lang, "code", …)` names no code.)
            if let Some(code) = call.split('"').nth(1).filter(|c| c.contains('.')) {
                found.insert(code.to_string());
            }
        }
    }
    found
}

#[test]
fn every_code_is_used_and_every_code_used_exists() {
    let mut sources = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut sources,
    );
    let catalogue = catalogue(Lang::Fr);
    let literals = literals(&sources);
    let unused: Vec<&String> = catalogue
        .keys()
        .filter(|code| !literals.contains(*code))
        .collect();
    assert!(unused.is_empty(), "codes no code uses: {unused:?}");
    let missing: Vec<String> = said_codes(&sources)
        .into_iter()
        .filter(|code| !catalogue.contains_key(code))
        .collect();
    assert!(
        missing.is_empty(),
        "codes missing from the catalogue: {missing:?}"
    );
}

/// The judge's configuration with `templates = "templates"` (a top-level key, before the
/// tables of the file).
fn with_templates(dir: TempDir) -> TempDir {
    let path = dir.join("corbeau.toml");
    let config = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("templates = \"templates\"\n{config}")).unwrap();
    dir
}

/// A moderator's override directory with one sentence of `messages.toml` changes that
/// sentence in the judge's answer, and only it.
#[test]
fn an_overridden_sentence_shows_in_the_mail_the_judge_answers() {
    let dir = with_templates(root("wording", ""));
    fs::create_dir_all(dir.join("templates/fr")).unwrap();
    fs::write(
        dir.join("templates/fr/messages.toml"),
        "[refusal]\nunknown_game = \"Le corbeau ne connait pas la partie {{ id }}.\"\n",
    )
    .unwrap();
    // A request to observe names the game alone (a sign-on naming no known game hides
    // the word, which may be a secret typed first).
    let body = "OBSERVER nulle-part\n";
    let out = run(
        corbeau(&dir).arg("ingest"),
        &mail("bob@example.org", "w1@example.org", body),
    );
    assert!(out.status.success(), "{}", said(&out));
    let answers = mails_to(&dir, "bob@example.org");
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(
        answers[0].contains("Le corbeau ne connait pas la partie nulle-part."),
        "{}",
        answers[0]
    );
}

/// An override file with a code the catalogue does not have (a typo) is refused at
/// start-up, with the code named, and nothing is done.
#[test]
fn an_override_with_an_unknown_code_is_refused_with_its_name() {
    let dir = with_templates(root("wording-typo", ""));
    fs::create_dir_all(dir.join("templates/en")).unwrap();
    fs::write(
        dir.join("templates/en/messages.toml"),
        "[refusal]\nnot_sined_on = \"typo\"\n",
    )
    .unwrap();
    let out = run(corbeau(&dir).args(["game", "list"]), "");
    assert!(!out.status.success());
    assert!(
        said(&out).contains("refusal.not_sined_on"),
        "{}",
        said(&out)
    );
}
