//! The languages corbeau speaks to players and moderators.

use std::fmt;
use std::str::FromStr;

/// French (the default) or English.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    Fr,
    En,
}

impl Lang {
    /// `fr` or `en`: the folder of `templates/` for this language.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }
}

impl Lang {
    /// The language a POSIX locale names (`LC_ALL`, `LC_MESSAGES`, `LANG`): `fr_FR.UTF-8`
    /// or `fr` French, `en_GB.UTF-8` or `en` English; `C`, `POSIX`, an empty value or
    /// any other language says nothing, so that the next source decides.
    pub fn of_locale(locale: &str) -> Option<Lang> {
        let language = locale
            .split(['_', '.', '@'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match language.as_str() {
            "fr" => Some(Lang::Fr),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "fr" | "french" | "français" | "francais" => Ok(Lang::Fr),
            "en" | "english" | "anglais" => Ok(Lang::En),
            other => Err(format!("unknown language `{other}` (fr or en)")),
        }
    }
}

/// The operator's language, for the log (set by the command line once it knows it: the
/// `--lang` option, `CORBEAU_LANG`, the configuration's `lang`, then the locale).
/// Process-wide like the log itself, so that the layers below the command line say their log lines in it
/// without carrying it everywhere.
static OPERATOR: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The language of the operator's log lines (French until told).
pub fn operator() -> Lang {
    match OPERATOR.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Lang::En,
        _ => Lang::Fr,
    }
}

/// Sets the language of the operator's log lines.
pub fn set_operator(lang: Lang) {
    let code = match lang {
        Lang::Fr => 0,
        Lang::En => 1,
    };
    OPERATOR.store(code, std::sync::atomic::Ordering::Relaxed);
}
