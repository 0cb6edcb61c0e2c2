//! Results as text, from the minijinja templates of `templates/{fr,en}/`. The templates
//! are embedded in the binary; a directory laid out like `templates/` overrides any of
//! them at run time, so a moderator can change the wording without rebuilding.
//!
//! The templates of a language are compiled once and kept, by language and override
//! directory: compiling them all costs more than rendering one (docs/performance.md).
//! Every render still looks at the override files (size and modification time), so an
//! edited, added or removed file is picked up by a running `serve` at its next mail.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use minijinja::{Environment, UndefinedBehavior, Value, context};

use crate::lang::Lang;
use crate::map::Variant;

use crate::game::results::ResultsView;

/// The template that renders the results of a phase.
pub const RESULTS_TEMPLATE: &str = "results.txt";

/// The template that answers a set of orders: the orders as understood.
pub const ORDERS_TEMPLATE: &str = "orders.txt";

/// Every template of a language, by file name, embedded from `templates/`.
/// Every template, in both languages, built into the binary.
macro_rules! embedded {
    ($($name:literal),* $(,)?) => {
        &[
            $(
                (Lang::Fr, $name, include_str!(concat!("../../templates/fr/", $name))),
                (Lang::En, $name, include_str!(concat!("../../templates/en/", $name))),
            )*
        ]
    };
}

const EMBEDDED: &[(Lang, &str, &str)] = embedded!(
    "macros.txt",
    "results.txt",
    "orders.txt",
    "subject.txt",
    "reply.txt",
    "notice.txt",
    "press.txt",
    "welcome.txt",
    "help.txt",
    "quarantine.txt",
    "publish-base.html",
    "publish-index.html",
    "publish-game.html",
    "publish-phase.html",
);

/// A template could not be read, compiled or rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("template {0}")]
    Read(crate::file::ReadError),
    #[error("template {template}: {message}")]
    Template { template: String, message: String },
}

/// The results of a phase as plain text in a language, from the embedded templates or
/// from `templates` (a directory with `fr/` and `en/`) where it has the file.
pub fn render_results(
    view: &ResultsView,
    variant: &Variant,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<String, RenderError> {
    render_template(
        RESULTS_TEMPLATE,
        Value::from_serialize(super::localized(view, variant, lang)),
        lang,
        templates,
    )
}

/// Renders one template of a language with the data given (a map, whose keys become the
/// template's variables; `lang` is added).
pub fn render_template(
    name: &str,
    data: Value,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<String, RenderError> {
    let compiled = compiled(lang, templates)?;
    let describe = |name: &str| compiled.describe(name);
    let template = compiled
        .env
        .get_template(name)
        .map_err(|e| template_error(&describe, name, &e))?;
    let ctx = context! { lang => lang.code(), ..data };
    template
        .render(ctx)
        .map_err(|e| template_error(&describe, name, &e))
}

/// `templates/` in the working directory, if there is one: the default override directory.
pub fn local_templates() -> Option<PathBuf> {
    let dir = PathBuf::from("templates");
    dir.is_dir().then_some(dir)
}

/// One template's text and where it came from.
struct Source {
    name: &'static str,
    text: String,
    origin: String,
}

fn load_sources(lang: Lang, templates: Option<&Path>) -> Result<Vec<Source>, RenderError> {
    let mut sources = Vec::new();
    for &(l, name, embedded) in EMBEDDED {
        if l != lang {
            continue;
        }
        let path = templates.map(|dir| dir.join(lang.code()).join(name));
        let overridden = match &path {
            // A file the directory does not have is the embedded template's to give.
            Some(path) if !path.exists() => None,
            Some(path) => match crate::file::read_text(path) {
                Ok(text) => Some((text, path.display().to_string())),
                Err(e) => return Err(RenderError::Read(e)),
            },
            None => None,
        };
        let (text, origin) = overridden.unwrap_or_else(|| {
            (
                embedded.to_string(),
                format!("templates/{}/{name} (embedded)", lang.code()),
            )
        });
        sources.push(Source { name, text, origin });
    }
    Ok(sources)
}

/// The compiled templates of one language and override directory, and what they were
/// compiled from.
struct Compiled {
    lang: Lang,
    dir: Option<PathBuf>,
    stamps: Vec<Stamp>,
    env: Environment<'static>,
    /// Each template's name and where it came from, for error messages.
    origins: Vec<(&'static str, String)>,
}

impl Compiled {
    fn describe(&self, name: &str) -> String {
        describe_origin(&self.origins, name)
    }
}

fn describe_origin(origins: &[(&'static str, String)], name: &str) -> String {
    origins
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| name.to_string(), |(_, origin)| origin.clone())
}

/// What a template was read from: the embedded text, or an override file as it was then.
#[derive(Debug, PartialEq)]
enum Stamp {
    Embedded,
    File { len: u64, modified: SystemTime },
}

/// A file changed this recently may change again within the file system's clock tick,
/// keeping its stamp: its templates are compiled afresh at every render until it is older.
const SETTLED: Duration = Duration::from_secs(1);

/// The templates compiled so far, at most one entry per language and override directory.
/// A cache only: the caller passes the directory, and an entry serves only while every
/// file's stamp is unchanged.
static COMPILED: Mutex<Vec<Arc<Compiled>>> = Mutex::new(Vec::new());

/// The templates of `lang`, compiled, from the cache when no override file changed since.
fn compiled(lang: Lang, templates: Option<&Path>) -> Result<Arc<Compiled>, RenderError> {
    let stamps = stamps(lang, templates);
    if let Some(stamps) = &stamps {
        let cache = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(hit) = cache
            .iter()
            .find(|c| c.lang == lang && c.dir.as_deref() == templates && &c.stamps == stamps)
        {
            return Ok(hit.clone());
        }
    }
    let sources = load_sources(lang, templates)?;
    let origins: Vec<(&'static str, String)> =
        sources.iter().map(|s| (s.name, s.origin.clone())).collect();
    let env = environment(sources, &origins)?;
    let keep = stamps.is_some();
    let fresh = Arc::new(Compiled {
        lang,
        dir: templates.map(Path::to_path_buf),
        stamps: stamps.unwrap_or_default(),
        env,
        origins,
    });
    if keep {
        let mut cache = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
        cache.retain(|c| !(c.lang == lang && c.dir.as_deref() == templates));
        cache.push(fresh.clone());
    }
    Ok(fresh)
}

/// The stamp of every template of `lang`, in the order of [`EMBEDDED`]; none when one
/// cannot be trusted to show a change (too recent, no modification time, unreadable:
/// reading the files will tell).
fn stamps(lang: Lang, templates: Option<&Path>) -> Option<Vec<Stamp>> {
    let settled = SystemTime::now().checked_sub(SETTLED)?;
    let mut stamps = Vec::new();
    for &(l, name, _) in EMBEDDED {
        if l != lang {
            continue;
        }
        let Some(dir) = templates else {
            stamps.push(Stamp::Embedded);
            continue;
        };
        match std::fs::metadata(dir.join(lang.code()).join(name)) {
            Ok(meta) => {
                let modified = meta.modified().ok().filter(|m| *m <= settled)?;
                stamps.push(Stamp::File {
                    len: meta.len(),
                    modified,
                });
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => stamps.push(Stamp::Embedded),
            Err(_) => return None,
        }
    }
    Some(stamps)
}

fn environment(
    sources: Vec<Source>,
    origins: &[(&'static str, String)],
) -> Result<Environment<'static>, RenderError> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("wrap", wrap);
    env.add_filter("ljust", ljust);
    env.add_filter("rjust", rjust);
    env.add_filter("signed", signed);
    let describe = |name: &str| describe_origin(origins, name);
    for source in sources {
        env.add_template_owned(source.name, source.text)
            .map_err(|e| template_error(&describe, source.name, &e))?;
    }
    Ok(env)
}

/// Names the template where the error happened (which may be an imported one) and says
/// what went wrong, with the line.
fn template_error(
    describe: &dyn Fn(&str) -> String,
    entry: &str,
    error: &minijinja::Error,
) -> RenderError {
    let template = describe(error.name().unwrap_or(entry));
    let mut message = match error.line() {
        Some(line) => format!("line {line}: {}", error.kind()),
        None => error.kind().to_string(),
    };
    if let Some(detail) = error.detail() {
        message.push_str(": ");
        message.push_str(detail);
    }
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        message.push_str(": ");
        message.push_str(&c.to_string());
        cause = c.source();
    }
    RenderError::Template { template, message }
}

/// `{{ text | wrap(78, 6) }}`: breaks a line at spaces so that no line is longer than
/// `width` characters (a single long word stays whole, and a parenthesis stays with the
/// word before it); continuation lines are indented by `indent` spaces.
pub fn wrap(text: &str, width: Option<usize>, indent: Option<usize>) -> String {
    let width = width.unwrap_or(78);
    let pad = " ".repeat(indent.unwrap_or(0));
    let lead_len = text.len() - text.trim_start_matches(' ').len();
    let mut out = text[..lead_len].to_string();
    let mut len = lead_len;
    let mut first = true;
    for word in glued_words(&text[lead_len..]) {
        let n = word.chars().count();
        if !first && len + 1 + n > width {
            out.push('\n');
            out.push_str(&pad);
            len = pad.len();
        } else if !first {
            out.push(' ');
            len += 1;
        }
        out.push_str(&word);
        len += n;
        first = false;
    }
    out
}

/// The words of a text, a parenthesis kept with the word before it (`Port-Réal (prt)`)
/// and a word of one letter with the word after it (`A fer`, `à 20:00`), so that no line
/// ends with a unit's letter cut from its province. French puts a space before `:`, `;`,
/// `!`, `?` and `»` and after `«`: the mark stays with its word, or a line would begin
/// with a colon.
fn glued_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let closing = matches!(word, ":" | ";" | "!" | "?" | "»");
        match words.last_mut() {
            Some(last) if open || closing || word.starts_with('(') => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
        open = word == "«" || word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    }
    words
}

/// `{{ name | ljust(12) }}`: pads on the right to `width` characters.
fn ljust(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// `{{ count | rjust(7) }}`: pads on the left to `width` characters.
fn rjust(value: Value, width: usize) -> String {
    let text = value.to_string();
    let n = text.chars().count();
    format!("{}{text}", " ".repeat(width.saturating_sub(n)))
}

/// `{{ adjustment | signed }}`: `+2`, `-1`, `0`.
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::fs::{self, File};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use std::time::{Duration, SystemTime};

    use minijinja::Value;

    use super::{compiled, render_template, wrap};
    use crate::lang::Lang;

    fn override_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("corbeau-render-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("fr")).expect("temp dir");
        dir
    }

    /// Writes an override file dated `age` ago.
    fn write_dated(path: &Path, text: &str, age: Duration) {
        fs::write(path, text).expect("write");
        let when = SystemTime::now() - age;
        File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_modified(when))
            .expect("set mtime");
    }

    fn welcome(dir: &Path) -> String {
        render_template("welcome.txt", Value::from(()), Lang::Fr, Some(dir))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn compiled_templates_are_kept_while_no_override_file_changes() {
        let dir = override_dir("kept");
        write_dated(
            &dir.join("fr/welcome.txt"),
            "A {{ lang }}\n",
            Duration::from_secs(3600),
        );
        let first = compiled(Lang::Fr, Some(&dir)).expect("compiled");
        let second = compiled(Lang::Fr, Some(&dir)).expect("compiled");
        assert!(Arc::ptr_eq(&first, &second), "compiled once");
        let embedded = compiled(Lang::Fr, None).expect("compiled");
        assert!(Arc::ptr_eq(
            &embedded,
            &compiled(Lang::Fr, None).expect("compiled")
        ));
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_edited_added_or_removed_override_file_is_picked_up() {
        let dir = override_dir("edited");
        let path = dir.join("fr/welcome.txt");
        let embedded = render_template("welcome.txt", Value::from(()), Lang::Fr, None).is_err();
        assert!(embedded, "the embedded welcome needs its data");
        write_dated(&path, "A {{ lang }}\n", Duration::from_secs(3600));
        assert_eq!(welcome(&dir), "A fr\n");
        // Same size, another modification time.
        write_dated(&path, "B {{ lang }}\n", Duration::from_secs(1800));
        assert_eq!(welcome(&dir), "B fr\n");
        // Same size, rewritten at once: too recent to be trusted, read again.
        fs::write(&path, "C {{ lang }}\n").expect("write");
        assert_eq!(welcome(&dir), "C fr\n");
        fs::write(&path, "D {{ lang }}\n").expect("write");
        assert_eq!(welcome(&dir), "D fr\n");
        // A new file for another template, then the override removed.
        write_dated(&dir.join("fr/press.txt"), "p\n", Duration::from_secs(3600));
        let press = render_template("press.txt", Value::from(()), Lang::Fr, Some(&dir));
        assert_eq!(press.expect("press"), "p\n");
        fs::remove_file(&path).expect("remove");
        let back = render_template("welcome.txt", Value::from(()), Lang::Fr, Some(&dir));
        assert!(back.is_err(), "the embedded welcome again: {back:?}");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn wrap_breaks_at_spaces_and_indents_continuations() {
        let text = "  aaa bbb ccc ddd";
        assert_eq!(wrap(text, Some(9), Some(4)), "  aaa bbb\n    ccc\n    ddd");
    }

    #[test]
    fn wrap_keeps_a_parenthesis_with_its_word() {
        assert_eq!(
            wrap("vers Port-Réal (prt)", Some(16), Some(2)),
            "vers\n  Port-Réal (prt)"
        );
    }

    #[test]
    fn wrap_keeps_a_unit_letter_with_its_province() {
        assert_eq!(
            wrap("  Stark : A win, F bla, A moa", Some(25), Some(4)),
            "  Stark : A win, F bla,\n    A moa"
        );
    }

    #[test]
    fn wrap_keeps_french_punctuation_with_its_word() {
        assert_eq!(
            wrap("dans la partie ouverte : vous", Some(22), Some(0)),
            "dans la partie\nouverte : vous"
        );
        assert_eq!(
            wrap("Partie « ouverte »", Some(8), Some(0)),
            "Partie\n« ouverte »"
        );
    }

    #[test]
    fn wrap_keeps_a_long_word_whole() {
        assert_eq!(wrap("abcdefghij", Some(4), Some(2)), "abcdefghij");
    }
}
