//! The judge's configuration: one TOML file with sane defaults, so that nothing needs to
//! be configured to try corbeau. Keys are documented in `docs/configuration.md`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::lang::Lang;

/// The file read when no `--config` is given and it exists in the working directory.
pub const DEFAULT_FILE: &str = "corbeau.toml";

/// The file read when no `--config` or `CORBEAU_CONFIG` is given and the working
/// directory has no [`DEFAULT_FILE`]: where a packaged judge keeps its configuration.
pub const SYSTEM_FILE: &str = "/etc/corbeau/corbeau.toml";

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
    pub mail: MailConfig,
    pub publish: PublishConfig,
    pub store: StoreConfig,
    /// The file this configuration was read from; none for the built-in defaults.
    #[serde(skip)]
    pub source: Option<PathBuf>,
    /// Whether the file writes `lang`: only then does it beat the user's locale for the
    /// command line's own language.
    #[serde(skip)]
    pub lang_written: bool,
}

/// `[publish]`: the static site of the games (`corbeau publish`, docs/publish.md).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PublishConfig {
    /// The site's directory: when set, `serve` and `tick` keep it up to date after each
    /// pass, and `corbeau publish` writes there when given no directory.
    pub dir: Option<PathBuf>,
}

/// `[store]`: where the games are kept and how much of them stays in memory
/// (docs/configuration.md, docs/storage.md). The URL is read as text here and parsed by the
/// command line, which chooses the store before opening it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// A PostgreSQL database (`postgresql://…`), which `CORBEAU_STORE` replaces; none:
    /// sled's files in the data directory, the default.
    pub url: Option<String>,
    /// Megabytes of memory the store keeps of what it read and wrote: left to sled's own
    /// default (a gigabyte), a busy deadline's mails pile up there until the process ends.
    pub cache_mb: u64,
    /// Seconds a judge's claim on a game due lasts, on PostgreSQL: past it, another judge
    /// takes over the games of one that died.
    pub lease_seconds: u64,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            url: None,
            cache_mb: 16,
            lease_seconds: 60,
        }
    }
}

/// Who the judge is, for mail.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Judge {
    pub address: String,
    pub name: String,
    /// Other addresses that deliver to the judge (the alias `juge` beside `corbeau`, an old
    /// domain): mail from them is never answered and no player may take them.
    pub aliases: Vec<String>,
    /// Who runs the judge: told of a mail set aside (quarantined) that names no game with
    /// a moderator. None: such mails are only reported by `tick`/`serve`.
    pub admin: Option<String>,
    // Creating a game by mail.
    /// Who may create a game by mail (`CREATE`): addresses, domains (`@example.org`), or
    /// `anyone`. Empty (the default): nobody.
    pub creators: Vec<String>,
    /// How many games one address may create by mail in 24 hours (docs/email.md,
    /// "CREATE").
    pub creations_per_day: u32,
    /// How many games may be created by mail in 24 hours across the judge, whoever asks.
    pub games_per_day: u32,
    /// How many seats one address may hold in open games that it took in the last 24
    /// hours, by `JOIN` or `TAKEOVER` (docs/email.md, "Joining a game").
    pub seats_per_day: u32,
    /// The judge's key for the sieves of the stored secrets (docs/configuration.md,
    /// `key_file`): kept apart from the store, so that a copy of the store alone gives
    /// nothing faster than the full hash per guess. None: see [`Config::key_file`].
    pub key_file: Option<PathBuf>,
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
            mail: MailConfig::default(),
            publish: PublishConfig::default(),
            store: StoreConfig::default(),
            source: None,
            lang_written: false,
        }
    }
}

impl Default for Judge {
    fn default() -> Judge {
        Judge {
            address: "corbeau@localhost".into(),
            name: "Corbeau".into(),
            aliases: Vec::new(),
            admin: None,
            creators: Vec::new(),
            creations_per_day: 3,
            games_per_day: 20,
            seats_per_day: 3,
            key_file: None,
        }
    }
}

impl Judge {
    /// Whether `address` (bare or `Name <address>`, any case) is the judge's own address
    /// or one of its aliases: answering it, or mailing a player there, would make the
    /// judge write to itself.
    ///
    /// A plus-address of one of them (`juge+x@…`) is the judge too: mail servers deliver
    /// it to the same mailbox.
    pub fn is_own(&self, address: &str) -> bool {
        let Some(address) = bare(address) else {
            return false;
        };
        let address = without_detail(&address);
        std::iter::once(&self.address)
            .chain(&self.aliases)
            .filter_map(|own| bare(own))
            .any(|own| without_detail(&own) == address)
    }

    /// Whether `address` may create games by mail (`creators`): listed itself, its domain
    /// listed (`@example.org`, not its subdomains), or `anyone`. The judge's own
    /// addresses never.
    pub fn may_create(&self, address: &str) -> bool {
        let Some(address) = bare(address) else {
            return false;
        };
        if self.is_own(&address) {
            return false;
        }
        let domain = address.rsplit_once('@').map(|(_, d)| d);
        self.creators.iter().any(|c| {
            let c = c.trim().to_lowercase();
            c == "anyone" || c == address || c.strip_prefix('@').is_some_and(|d| Some(d) == domain)
        })
    }
}

/// The address without the detail of a plus-address (`juge+x@d` → `juge@d`).
fn without_detail(address: &str) -> String {
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{local}@{domain}")
        }
        None => address.to_string(),
    }
}

/// `local@domain` in lower case, from a bare address or `Name <local@domain>`.
fn bare(address: &str) -> Option<String> {
    let address = address.trim();
    let address = match (address.rfind('<'), address.rfind('>')) {
        (Some(open), Some(close)) if open < close => &address[open + 1..close],
        _ => address,
    };
    let address = address.trim();
    address.contains('@').then(|| address.to_lowercase())
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
    #[error("cannot read the configuration: {0}")]
    Read(crate::file::ReadError),
    #[error("{}: {message}", .path.display())]
    Parse { path: PathBuf, message: String },
}

/// The system-wide configuration file. The tests' builds (the `test-hooks` feature) read
/// it from `CORBEAU_SYSTEM_CONFIG` and have none without it: a judge installed on the
/// machine that runs the tests must not lend them its configuration (its address, its
/// sendmail).
#[cfg(feature = "test-hooks")]
fn system_file() -> Option<PathBuf> {
    std::env::var_os("CORBEAU_SYSTEM_CONFIG").map(PathBuf::from)
}

#[cfg(not(feature = "test-hooks"))]
fn system_file() -> Option<PathBuf> {
    Some(PathBuf::from(SYSTEM_FILE))
}

impl Config {
    /// The configuration from `path` (`--config`, or `CORBEAU_CONFIG`), else from
    /// `corbeau.toml` in the working directory if there is one, else from
    /// [`SYSTEM_FILE`] if there is one, else the defaults. Relative paths in the file are
    /// relative to it.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => {
                let found = std::iter::once(PathBuf::from(DEFAULT_FILE))
                    .chain(system_file())
                    .find(|p| p.is_file());
                let Some(found) = found else {
                    return Ok(Config::default());
                };
                found
            }
        };
        let text = crate::file::read_text(&path).map_err(ConfigError::Read)?;
        let mut config: Config = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        config.data_dir = base.join(&config.data_dir);
        config.templates = config.templates.map(|t| base.join(t));
        config.mail.resolve_paths(base);
        config.publish.dir = config.publish.dir.map(|d| base.join(d));
        config.judge.key_file = config.judge.key_file.map(|k| base.join(k));
        config.source = Some(path);
        config.lang_written = text
            .parse::<toml::Table>()
            .is_ok_and(|t| t.contains_key("lang"));
        Ok(config)
    }

    /// The judge's key file: `[judge] key_file`, else beside the data directory, outside
    /// it, named after it with `.key` (`corbeau-data.key`): read here, not at load, so
    /// that `--data` moves it along.
    pub fn key_file(&self) -> PathBuf {
        if let Some(file) = &self.judge.key_file {
            return file.clone();
        }
        match self.data_dir.file_name() {
            Some(name) => {
                let mut name = name.to_os_string();
                name.push(".key");
                self.data_dir.with_file_name(name)
            }
            // `.` or `..`: a name beside it would be inside it.
            None => self.data_dir.join("..").join("corbeau-data.key"),
        }
    }

    /// The outbox folder: `[mail] outbox`, else `outbox/` in the data directory (read
    /// here, not at load, so that `--data` moves it along).
    pub fn outbox_dir(&self) -> PathBuf {
        self.mail
            .outbox
            .clone()
            .unwrap_or_else(|| self.data_dir.join("outbox"))
    }
}

/// `[mail]`: how mail comes in and goes out.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MailConfig {
    /// Where outgoing mail goes.
    pub transport: TransportKind,
    /// The outbox folder (`transport = "outbox"`); see [`Config::outbox_dir`].
    pub outbox: Option<PathBuf>,
    /// A Maildir of incoming mail, read by `serve` and `tick`.
    pub maildir: Option<PathBuf>,
    /// Bytes read of one incoming mail; the rest is ignored, so a huge mail cannot
    /// exhaust memory.
    pub max_size: u64,
    /// Replies to one address in an hour; past them one warning, then silence until the
    /// hour is over, so that a robot answering every mail cannot keep the judge talking.
    pub replies_per_hour: u32,
    /// Answers to failed sign-ons to one address in an hour, counted apart from
    /// `replies_per_hour`: a forger writing in a player's name with wrong secrets uses up
    /// this budget, never the player's own answers (0: no cap).
    pub failed_sign_on_replies_per_hour: u32,
    /// `[mail.caps]`: how much mail one sender may cause (docs/email.md, "Caps").
    pub caps: CapsConfig,
    pub sendmail: SendmailConfig,
    pub smtp: SmtpConfig,
    pub retry: RetryConfig,
    /// Days a raw mail is kept in `cur/` (spool and Maildir) after it reached the judge;
    /// 0 keeps them for ever.
    pub retention_days: u64,
    /// Whether the retention applies to the configured Maildir too (not only the spool).
    pub prune_maildir: bool,
    /// The headers by which the mail server's filter marks a mail as spam: such a mail is
    /// neither answered (its sender may be forged: an answer would be backscatter) nor
    /// carried out. Empty: no mail is taken for spam.
    pub spam_headers: Vec<SpamHeader>,
}

/// A header that marks a mail as spam: its name (any case), and how its value begins
/// when it says spam (any case; empty: any value).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpamHeader {
    pub header: String,
    pub value: String,
}

impl SpamHeader {
    fn new(header: &str, value: &str) -> SpamHeader {
        SpamHeader {
            header: header.to_string(),
            value: value.to_string(),
        }
    }

    /// Whether a header `name: value` of a mail says spam.
    pub fn marks(&self, name: &str, value: &str) -> bool {
        let (value, prefix) = (value.trim().as_bytes(), self.value.trim().as_bytes());
        name.trim().eq_ignore_ascii_case(self.header.trim())
            && value.len() >= prefix.len()
            && value
                .get(..prefix.len())
                .is_some_and(|v| v.eq_ignore_ascii_case(prefix))
    }

    /// SpamAssassin's own marks (`X-Spam-Flag: YES`, `X-Spam-Status: Yes, score=…`),
    /// which rspamd and most filters write too.
    pub fn defaults() -> Vec<SpamHeader> {
        vec![
            SpamHeader::new("X-Spam-Flag", "yes"),
            SpamHeader::new("X-Spam-Status", "yes"),
        ]
    }
}

/// `[mail.caps]`: bounds on what one mail, or one sender, may make the judge send, so
/// that a forged `From:` cannot turn the judge into an amplifier against an address.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CapsConfig {
    /// Confirmed observers of one game; a confirmation past them is refused.
    pub observers_per_game: u32,
    /// Pictures answering `CARTE` in an hour: per house signed on with its secret, per
    /// game for the moderator signed on, and per game for every request made without a
    /// secret (by address only). Past them the answer is text only. 0: no cap.
    pub map_pictures_per_hour: u32,
    /// Mails one received mail may cause, its reply included. None: as many as one
    /// press message to everyone of its game (every house, the moderator,
    /// `observers_per_game` observers, the reply and its copy to the house's address).
    pub mails_per_mail: Option<u32>,
    /// Answers in an hour to the same text from one address (an unmarked
    /// auto-responder); past them the mail is carried out, not answered. Mails signed on
    /// with a right secret are never counted. 0: no cap.
    pub same_text_per_hour: u32,
    /// Notices a game's moderator is sent in an hour about what others did (a seat
    /// asked for or taken, failed sign-ons, a mail not delivered), per family; past them
    /// the notices are held and told in one digest once the hour is over. 0: no cap.
    pub moderator_notices_per_hour: u32,
}

impl Default for CapsConfig {
    fn default() -> CapsConfig {
        CapsConfig {
            observers_per_game: 20,
            map_pictures_per_hour: 3,
            mails_per_mail: None,
            same_text_per_hour: 3,
            moderator_notices_per_hour: 10,
        }
    }
}

impl CapsConfig {
    /// The mails one received mail about a game of `houses` houses and `observers`
    /// observers may cause.
    pub fn mails_per_mail(&self, houses: usize, observers: usize) -> usize {
        match self.mails_per_mail {
            Some(cap) => cap as usize,
            // Every house, the moderator, the observers (those confirmed before the cap
            // was lowered are still written to), the reply and its copy.
            None => houses + 1 + observers.max(self.observers_per_game as usize) + 2,
        }
    }
}

/// The ways mail leaves the judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TransportKind {
    /// One `.eml` file per mail in a folder: works with nothing set up.
    #[default]
    Outbox,
    /// Piped to the local mail server's sendmail program.
    Sendmail,
    /// Straight to an SMTP server.
    Smtp,
}

/// `[mail.sendmail]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SendmailConfig {
    /// The program, called as `COMMAND -i -f FROM -- TO`.
    pub command: PathBuf,
    /// Seconds sendmail may take for one mail before it is stopped (60 unless set).
    pub timeout: Option<u64>,
}

/// `[mail.smtp]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SmtpConfig {
    pub host: Option<String>,
    /// Default by security: 587 (starttls), 465 (tls), 25 (none).
    pub port: Option<u16>,
    pub security: Security,
    pub user: Option<String>,
    /// The password itself; `password_file` keeps it out of the configuration.
    pub password: Option<String>,
    /// A file whose first line is the password.
    pub password_file: Option<PathBuf>,
    /// Extra trusted root certificates (PEM), for a server with a private CA.
    pub ca_file: Option<PathBuf>,
    /// Seconds to wait for the server at each step.
    pub timeout: Option<u64>,
}

/// How the SMTP connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded with STARTTLS, which must succeed (no downgrade).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS).
    Tls,
    /// No encryption: only for a relay on the same machine or network.
    None,
}

/// `[mail.retry]`: the back-off after a failed attempt to send.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetryConfig {
    /// Seconds before the first retry; each next wait doubles.
    pub first: u64,
    /// Seconds the wait never exceeds.
    pub max: u64,
}

impl Default for MailConfig {
    fn default() -> MailConfig {
        MailConfig {
            transport: TransportKind::Outbox,
            outbox: None,
            maildir: None,
            max_size: 256 * 1024,
            replies_per_hour: 20,
            failed_sign_on_replies_per_hour: 5,
            caps: CapsConfig::default(),
            sendmail: SendmailConfig::default(),
            smtp: SmtpConfig::default(),
            retry: RetryConfig::default(),
            retention_days: 30,
            prune_maildir: true,
            spam_headers: SpamHeader::defaults(),
        }
    }
}

impl Default for SendmailConfig {
    fn default() -> SendmailConfig {
        SendmailConfig {
            command: PathBuf::from("/usr/sbin/sendmail"),
            timeout: None,
        }
    }
}

impl SendmailConfig {
    /// How long one mail may take (60 s unless set).
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout.unwrap_or(60).max(1))
    }
}

impl MailConfig {
    /// How long raw mails are kept in `cur/`; none: for ever.
    pub fn retention(&self) -> Option<chrono::TimeDelta> {
        let days = i64::try_from(self.retention_days).unwrap_or(i64::MAX);
        (days > 0).then(|| chrono::TimeDelta::try_days(days).unwrap_or(chrono::TimeDelta::MAX))
    }
}

impl Default for RetryConfig {
    fn default() -> RetryConfig {
        RetryConfig {
            first: 60,
            max: 3600,
        }
    }
}

impl MailConfig {
    fn resolve_paths(&mut self, base: &Path) {
        for path in [
            &mut self.outbox,
            &mut self.maildir,
            &mut self.smtp.password_file,
            &mut self.smtp.ca_file,
        ]
        .into_iter()
        .flatten()
        {
            *path = base.join(&*path);
        }
        // A bare program name is looked up in PATH; only a relative path is the file's.
        if self.sendmail.command.components().count() > 1 {
            self.sendmail.command = base.join(&self.sendmail.command);
        }
    }
}

impl SmtpConfig {
    /// The port given, else the usual one for the security chosen.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security {
            Security::Starttls => 587,
            Security::Tls => 465,
            Security::None => 25,
        })
    }

    /// The wait for the server at each step (60 s unless set).
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout.unwrap_or(60).max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[mail]` example of docs/configuration.md is a configuration the judge reads,
    /// and its `[mail.caps]` values are the defaults docs/email.md states.
    #[test]
    fn the_documented_caps_are_the_defaults_and_the_example_parses() {
        let doc = include_str!("../docs/configuration.md");
        let block = doc
            .split("```toml")
            .nth(2)
            .and_then(|b| b.split("```").next())
            .unwrap_or_default();
        assert!(block.contains("[mail.caps]"), "{block}");
        let config: Config = match toml::from_str(block) {
            Ok(config) => config,
            Err(e) => panic!("docs/configuration.md: {e}"),
        };
        let caps = config.mail.caps;
        let defaults = CapsConfig::default();
        assert_eq!(caps.observers_per_game, defaults.observers_per_game);
        assert_eq!(caps.map_pictures_per_hour, defaults.map_pictures_per_hour);
        assert_eq!(caps.same_text_per_hour, defaults.same_text_per_hour);
        assert_eq!(
            (
                caps.moderator_notices_per_hour,
                defaults.moderator_notices_per_hour
            ),
            (10, 10)
        );
        assert_eq!(caps.mails_per_mail, None);
        assert_eq!(
            (
                defaults.observers_per_game,
                defaults.map_pictures_per_hour,
                defaults.same_text_per_hour
            ),
            (20, 3, 3)
        );
        // A 7-house game: its houses, the moderator, 20 observers, the reply and its copy.
        assert_eq!(defaults.mails_per_mail(7, 0), 30);
        assert_eq!(defaults.mails_per_mail(7, 25), 35);
        let set = CapsConfig {
            mails_per_mail: Some(40),
            ..defaults
        };
        assert_eq!(set.mails_per_mail(7, 25), 40);
    }

    #[test]
    fn creators_are_addresses_domains_or_anyone_and_nobody_by_default() {
        assert!(!Judge::default().may_create("a@example.org"));
        let judge = Judge {
            address: "juge@example.org".into(),
            creators: vec!["@Example.org".into(), "Ami@Ailleurs.net".into()],
            ..Judge::default()
        };
        for yes in ["a@example.org", "B@EXAMPLE.ORG", "Ami <ami@ailleurs.net>"] {
            assert!(judge.may_create(yes), "{yes}");
        }
        for no in [
            "a@sub.example.org",
            "a@example.org.evil",
            "autre@ailleurs.net",
            "juge@example.org",
            "example.org",
        ] {
            assert!(!judge.may_create(no), "{no}");
        }
        let open = Judge {
            creators: vec!["anyone".into()],
            ..Judge::default()
        };
        assert!(open.may_create("x@y.test"));
        assert!(!open.may_create(&open.address.clone()));
    }

    #[test]
    fn the_judge_knows_its_addresses_in_any_case_and_form() {
        let judge = Judge {
            address: "Le Corbeau <Juge@Exemple.fr>".into(),
            aliases: vec!["corbeau@exemple.fr".into()],
            ..Judge::default()
        };
        for own in [
            "juge@exemple.fr",
            "JUGE@EXEMPLE.FR",
            " <juge@exemple.fr> ",
            "Quelqu'un <juge@exemple.fr>",
            "Corbeau@Exemple.fr",
            "juge+x@exemple.fr",
            "Juge+Partie-1@Exemple.FR",
            "corbeau+@exemple.fr",
        ] {
            assert!(judge.is_own(own), "{own}");
        }
        for other in [
            "juge@exemple.com",
            "juge2@exemple.fr",
            "juge-x@exemple.fr",
            "x+juge@exemple.fr",
            "",
            "juge",
            "exemple.fr",
        ] {
            assert!(!judge.is_own(other), "{other}");
        }
    }
}
