//! The judge's configuration: one TOML file with sane defaults, so that nothing needs to
//! be configured to try corbeau. Keys are documented in `docs/configuration.md`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::lang::Lang;

/// The file read when no `--config` is given and it exists in the working directory.
pub const DEFAULT_FILE: &str = "corbeau.toml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where the store lives.
    pub data_dir: PathBuf,
    /// Language of the judge's messages to the moderator.
    pub lang: Lang,
    /// A directory of templates (`fr/`, `en/`) replacing the built-in ones.
    pub templates: Option<PathBuf>,
    pub judge: Judge,
    pub serve: Serve,
}

/// Who the judge is, for mail.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Judge {
    pub address: String,
    pub name: String,
}

/// `corbeau serve`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Serve {
    /// Seconds between two passes.
    pub interval: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data_dir: PathBuf::from("corbeau-data"),
            lang: Lang::Fr,
            templates: None,
            judge: Judge::default(),
            serve: Serve::default(),
        }
    }
}

impl Default for Judge {
    fn default() -> Judge {
        Judge {
            address: "corbeau@localhost".into(),
            name: "Corbeau".into(),
        }
    }
}

impl Default for Serve {
    fn default() -> Serve {
        Serve { interval: 60 }
    }
}

impl Serve {
    pub fn interval(&self) -> Duration {
        Duration::from_secs(self.interval.max(1))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: cannot read the configuration: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", .path.display())]
    Parse { path: PathBuf, message: String },
}

impl Config {
    /// The configuration from `path`, else from `corbeau.toml` in the working directory if
    /// there is one, else the defaults. Relative paths in the file are relative to it.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => {
                let default = PathBuf::from(DEFAULT_FILE);
                if !default.is_file() {
                    return Ok(Config::default());
                }
                default
            }
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        let mut config: Config = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        config.data_dir = base.join(&config.data_dir);
        config.templates = config.templates.map(|t| base.join(t));
        Ok(config)
    }
}
