//! Mails written from the templates of `templates/` (fr, en): the body from the mail's own
//! template, the subject from `subject.txt`, so that a moderator can reword both without
//! rebuilding.

use std::path::Path;

use chrono::{DateTime, Utc};
use minijinja::Value;

use crate::config::Config;
use crate::lang::Lang;
use crate::report::{RenderError, render_template};

use super::outmail::{OutMail, domain_of};

/// The template that gives every mail its subject line, from `kind` and the mail's data.
pub const SUBJECT_TEMPLATE: &str = "subject.txt";

/// Writes a mail to `to` from the template `name` (its data must be a map; `kind` is the
/// subject's kind).
pub fn compose(
    config: &Config,
    name: &str,
    kind: &str,
    data: serde_json::Value,
    to: &str,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<OutMail, RenderError> {
    let mut data = data;
    if let Some(map) = data.as_object_mut() {
        map.entry("kind").or_insert(kind.into());
    }
    let body = render(name, &data, lang, config.templates.as_deref())?;
    let subject = subject(config, kind, data, lang)?;
    Ok(mail(config, to, subject, body, now))
}

/// The subject line of a mail of this kind (`data` as for its body).
pub fn subject(
    config: &Config,
    kind: &str,
    data: serde_json::Value,
    lang: Lang,
) -> Result<String, RenderError> {
    let mut data = data;
    if let Some(map) = data.as_object_mut() {
        map.entry("kind").or_insert(kind.into());
    }
    let line = render(SUBJECT_TEMPLATE, &data, lang, config.templates.as_deref())?;
    Ok(line.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A mail from the judge of this configuration.
pub fn mail(
    config: &Config,
    to: &str,
    subject: String,
    body: String,
    now: DateTime<Utc>,
) -> OutMail {
    OutMail::new(domain_of(&config.judge.address), to, subject, body, now)
}

fn render(
    name: &str,
    data: &serde_json::Value,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<String, RenderError> {
    render_template(name, Value::from_serialize(data), lang, templates)
}
