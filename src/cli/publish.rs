//! `corbeau publish [DIR]`: the static site of the games (docs/publish.md), and the
//! publication `serve` and `tick` make after a pass when `[publish] dir` is set.

use std::path::PathBuf;

use crate::config::Config;
use crate::lang::Lang;
use crate::publish::{Mode, PublishReport, Site, Work, prepare};
use crate::say;
use crate::service::Service;

use super::Error;
use super::context::Context;

#[derive(Debug, clap::Args)]
pub(super) struct PublishArgs {
    /// The site's folder (new, empty, or written by corbeau before); default: the
    /// configuration's `[publish] dir`.
    dir: Option<PathBuf>,
}

/// The site the configuration names, with the judge's language and templates.
pub(super) fn configured_site(config: &Config, lang: Lang, dir: Option<PathBuf>) -> Option<Site> {
    Some(Site {
        dir: dir.or_else(|| config.publish.dir.clone())?,
        lang,
        templates: config
            .templates
            .clone()
            .or_else(crate::report::local_templates),
    })
}

pub(super) fn run(ctx: &Context, args: PublishArgs) -> Result<(), Error> {
    let site = configured_site(&ctx.config, ctx.lang, args.dir)
        .ok_or_else(|| Error::Input(say!(ctx.lang, "publish.publish_where_give_a_folder")))?;
    let report = crate::publish::publish(&ctx.service, &site, Mode::All)
        .map_err(|e| Error::Input(e.message(ctx.lang)))?;
    ctx.print(&report, || summary(ctx.lang, &report, &site))?;
    for (game, why) in &report.errors {
        tracing::error!(game = game.as_str(), "{}: {game}: {why}", label(ctx.lang));
    }
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Reported(format!(
            "{} {}",
            report.errors.len(),
            say!(ctx.lang, "publish.game_s_not_published")
        )))
    }
}

fn summary(lang: Lang, report: &PublishReport, site: &Site) -> String {
    format!(
        "{} {}: {} {}, {} {}, {} {}, {} {}\n",
        say!(lang, "publish.published_in"),
        site.dir.display(),
        report.games,
        say!(lang, "publish.game_s"),
        report.pages,
        say!(lang, "publish.page_s_written"),
        report.pictures_drawn,
        say!(lang, "publish.map_s_drawn"),
        report.removed,
        say!(lang, "publish.file_s_removed"),
    )
}

/// Reads what the publication after a pass needs ([`Mode::Changed`] unless `all`); none
/// when no site is configured. A failure is said on standard error and the judge goes on:
/// the games are already changed and stored, whatever their pages.
pub(super) fn prepare_after_pass(
    config: &Config,
    lang: Lang,
    service: &Service,
    all: bool,
) -> Option<Work> {
    let site = configured_site(config, lang, None)?;
    let mode = if all { Mode::All } else { Mode::Changed };
    match prepare(service, &site, mode) {
        Ok(work) => Some(work),
        Err(e) => {
            tracing::error!("{}: {}", label(lang), e.message(lang));
            None
        }
    }
}

/// Writes what [`prepare_after_pass`] read (the store let go meanwhile); says what was
/// written, if anything, and what failed.
pub(super) fn write_after_pass(lang: Lang, work: Option<Work>) {
    let Some(work) = work else {
        return;
    };
    match work.write() {
        Ok(report) => {
            for (game, why) in &report.errors {
                tracing::error!(game = game.as_str(), "{}: {game}: {why}", label(lang));
            }
            if report.wrote() {
                tracing::info!(
                    pages_published = report.pages,
                    maps_drawn = report.pictures_drawn,
                    "{} {}, {} {}",
                    report.pages,
                    say!(lang, "publish.page_s_published"),
                    report.pictures_drawn,
                    say!(lang, "publish.map_s_drawn")
                );
            }
        }
        Err(e) => tracing::error!("{}: {}", label(lang), e.message(lang)),
    }
}

fn label(lang: Lang) -> String {
    say!(lang, "publish.corbeau_publishing")
}
