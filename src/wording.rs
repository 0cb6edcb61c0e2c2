//! The message catalogue: every sentence a player or moderator reads, by stable code, in
//! `templates/fr/messages.toml` and `templates/en/messages.toml` (docs/wording.md).
//!
//! Code calls [`say!`](crate::say) with a code and typed arguments; the catalogue of the
//! language renders the entry (a small minijinja template over those arguments). The
//! embedded catalogues work with nothing installed (tests, library use). A program that
//! knows the moderator's override directory calls [`install`] once at start-up: from then
//! on an entry of `<dir>/<lang>/messages.toml` replaces the embedded entry of the same code
//! (an override file may hold only the entries it changes). The override file is looked at
//! again (size and modification time) when it changes, so a running `serve` picks up an
//! edit at its next message.
//!
//! This module sits next to [`Lang`]: every layer (order, game, draw, report, mail, cli)
//! may use it without naming the layers above.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

use minijinja::{Environment, UndefinedBehavior, Value};

use crate::lang::Lang;

/// The file of a language's catalogue, in `templates/<lang>/`.
pub const MESSAGES_FILE: &str = "messages.toml";

const EMBEDDED_FR: &str = include_str!("../templates/fr/messages.toml");
const EMBEDDED_EN: &str = include_str!("../templates/en/messages.toml");

/// The embedded catalogue text of a language.
pub fn embedded_text(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => EMBEDDED_FR,
        Lang::En => EMBEDDED_EN,
    }
}

/// A catalogue file that cannot be used: unreadable, not TOML, an entry that is not a
/// string, or a code the embedded catalogue does not know (a typo would otherwise be
/// silently ignored).
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("{}: cannot read it: {source}", .path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: String },
}

/// Every entry of a catalogue text, code → template source. Tables make the prefix of a
/// code: `[refusal]` then `bad_sign_on = "…"` is the code `refusal.bad_sign_on`.
pub fn parse(text: &str, origin: &str) -> Result<BTreeMap<String, String>, CatalogueError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| CatalogueError::Invalid {
        origin: origin.to_string(),
        message: e.to_string(),
    })?;
    let mut entries = BTreeMap::new();
    flatten("", &table, origin, &mut entries)?;
    Ok(entries)
}

fn flatten(
    prefix: &str,
    table: &toml::Table,
    origin: &str,
    entries: &mut BTreeMap<String, String>,
) -> Result<(), CatalogueError> {
    for (key, value) in table {
        let code = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::String(text) => {
                entries.insert(code, text.clone());
            }
            toml::Value::Table(inner) => flatten(&code, inner, origin, entries)?,
            _ => {
                return Err(CatalogueError::Invalid {
                    origin: origin.to_string(),
                    message: format!("`{code}` is not a text (write it between quotes)"),
                });
            }
        }
    }
    Ok(())
}

/// The entries of the embedded catalogue of a language (parsed once).
pub fn embedded(lang: Lang) -> &'static BTreeMap<String, String> {
    // Written once from text compiled into the binary: the same in every call.
    static FR: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    static EN: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    let cell = match lang {
        Lang::Fr => &FR,
        Lang::En => &EN,
    };
    // The embedded catalogues are checked by the tests: a failure here is a build defect,
    // and an empty catalogue then makes every message show its code.
    cell.get_or_init(|| {
        parse(
            embedded_text(lang),
            &format!("templates/{}/{MESSAGES_FILE}", lang.code()),
        )
        .unwrap_or_default()
    })
}

/// The override directory installed at start-up, if any. The one process-wide setting of
/// the wording, read by every `say!` rather than handed to it: a value in its place would
/// have to reach every layer that words a message. The binary installs it from the
/// configuration at the start of each command.
static OVERRIDE_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Installs the moderator's override directory (laid out like `templates/`: `fr/`, `en/`)
/// for the rest of the process, and checks its catalogues now so that a bad file is
/// reported at start-up. The first call wins: the binary runs one command per process.
pub fn install(dir: Option<PathBuf>) -> Result<(), CatalogueError> {
    let dir = OVERRIDE_DIR.get_or_init(|| dir);
    if let Some(dir) = dir {
        for lang in [Lang::Fr, Lang::En] {
            read_override(dir, lang)?;
        }
    }
    Ok(())
}

/// The entries of `<dir>/<lang>/messages.toml`, none if there is no such file; a code the
/// embedded catalogue does not have is refused.
pub fn read_override(dir: &Path, lang: Lang) -> Result<BTreeMap<String, String>, CatalogueError> {
    let path = dir.join(lang.code()).join(MESSAGES_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => return Err(CatalogueError::Read { path, source }),
    };
    let origin = path.display().to_string();
    let entries = parse(&text, &origin)?;
    let known = embedded(lang);
    if let Some(unknown) = entries.keys().find(|code| !known.contains_key(*code)) {
        return Err(CatalogueError::Invalid {
            origin,
            message: format!("no message has the code `{unknown}` (docs/wording.md)"),
        });
    }
    Ok(entries)
}

/// The override entries of a language as last read, and the file's stamp then.
struct Overrides {
    lang: Lang,
    stamp: Option<(u64, SystemTime)>,
    entries: Arc<BTreeMap<String, String>>,
}

// A cache: each entry is checked against the file's stamp before it serves.
static OVERRIDES: Mutex<Vec<Overrides>> = Mutex::new(Vec::new());

/// The override entries of a language, read again when the file changed.
fn overrides(lang: Lang) -> Arc<BTreeMap<String, String>> {
    let Some(Some(dir)) = OVERRIDE_DIR.get() else {
        return Arc::default();
    };
    let path = dir.join(lang.code()).join(MESSAGES_FILE);
    let stamp = std::fs::metadata(&path)
        .ok()
        .and_then(|m| Some((m.len(), m.modified().ok()?)));
    let mut cache = OVERRIDES.lock().unwrap_or_else(PoisonError::into_inner);
    // A file changed within the last second may change again under the same stamp.
    let settled = stamp.is_some_and(|(_, modified)| {
        SystemTime::now()
            .duration_since(modified)
            .is_ok_and(|age| age.as_secs() >= 1)
    });
    if let Some(hit) = cache
        .iter()
        .find(|o| o.lang == lang && o.stamp == stamp && (settled || stamp.is_none()))
    {
        return hit.entries.clone();
    }
    let entries = match read_override(dir, lang) {
        Ok(entries) => Arc::new(entries),
        Err(e) => {
            // Checked at start-up; a file broken since then is reported where the
            // process reports (the log of `serve`), and the embedded wording serves.
            eprintln!("{e}");
            Arc::default()
        }
    };
    cache.retain(|o| o.lang != lang);
    cache.push(Overrides {
        lang,
        stamp,
        entries: entries.clone(),
    });
    entries
}

/// The environment every entry is rendered in (the settings of the other templates), with
/// every entry compiled so far, named by its own source: an entry is compiled once per
/// process, and an edited override is a new source, compiled at its first use. A cache
/// only: a template is found by its own source, so what it renders never depends on what
/// was compiled before.
static ENV: Mutex<Option<Environment<'static>>> = Mutex::new(None);

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env
}

/// Renders one entry's source with its arguments.
pub fn render_entry(source: &str, args: &[(&str, Value)]) -> Result<String, minijinja::Error> {
    let ctx: BTreeMap<&str, Value> = args.iter().cloned().collect();
    let mut guard = ENV.lock().unwrap_or_else(PoisonError::into_inner);
    let env = guard.get_or_insert_with(environment);
    if env.get_template(source).is_err() {
        env.add_template_owned(source.to_string(), source.to_string())?;
    }
    env.get_template(source)?
        .render(Value::from_serialize(&ctx))
}

/// The text of the message `code` in `lang` with its arguments: the moderator's entry if
/// the override directory has one that renders, else the embedded one. A code missing from
/// the catalogue (a defect the tests catch) shows as the code itself.
pub fn text(lang: Lang, code: &str, args: &[(&str, Value)]) -> String {
    let overrides = overrides(lang);
    if let Some(source) = overrides.get(code) {
        match render_entry(source, args) {
            Ok(text) => return text,
            Err(e) => eprintln!(
                "templates/{}/{MESSAGES_FILE} (override), `{code}`: {e}; the built-in wording served instead",
                lang.code()
            ),
        }
    }
    match embedded(lang).get(code).map(|s| render_entry(s, args)) {
        Some(Ok(text)) => text,
        _ => code.to_string(),
    }
}

/// `say!(lang, "code", name = value, other)`: the message `code` in `lang`, its arguments
/// named (`other` alone stands for `other = other`). Values are anything serializable.
#[macro_export]
macro_rules! say {
    ($lang:expr, $code:literal $(, $name:ident $(= $value:expr)?)* $(,)?) => {
        $crate::wording::text(
            $lang,
            $code,
            &[$((stringify!($name), $crate::__say_value!($name $(, $value)?))),*],
        )
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __say_value {
    ($name:ident) => {
        ::minijinja::Value::from_serialize(&$name)
    };
    ($name:ident, $value:expr) => {
        ::minijinja::Value::from_serialize(&$value)
    };
}
