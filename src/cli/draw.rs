//! `corbeau map draw` and `corbeau history GAME N --map FILE`: the picture of a position,
//! with a phase's orders and their outcomes, as SVG or PNG (by the file's extension).

use std::path::{Path, PathBuf};

use crate::draw::{PNG_WIDTH, Picture};
use crate::judge::{GivenOrder, adjudicate};
use crate::lang::Lang;
use crate::map::{Variant, load_variant};
use crate::position::read_position;
use crate::say;

use super::{Error, language, read_input};

#[derive(Debug, clap::Args)]
pub(super) struct DrawArgs {
    /// Order files (`-` for standard input), `House:` lines naming the house of the orders
    /// after them. With orders, the phase is adjudicated and the picture shows the position
    /// after it, with every order drawn (failed ones in red, crossed).
    orders: Vec<PathBuf>,
    /// A built-in variant (`westeros`, `classique`, `tempete`) or a variant file.
    #[arg(long, default_value = "westeros")]
    variant: String,
    /// The position (docs/position-format.md); default: the starting position.
    #[arg(long)]
    position: Option<PathBuf>,
    /// Number of players, for the starting position (the absent houses' units stay neutral).
    #[arg(long)]
    players: Option<u8>,
    /// The house giving orders written without `House:`.
    #[arg(long)]
    house: Option<String>,
    /// Where to write the picture: FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Width of a PNG in pixels.
    #[arg(long, default_value_t = PNG_WIDTH, value_parser = clap::value_parser!(u32).range(200..=6000))]
    width: u32,
    /// The title's first words; default: the variant's name.
    #[arg(long)]
    title: Option<String>,
    /// Language of the title and legend: fr (default) or en; also CORBEAU_LANG.
    #[arg(long)]
    pub(super) lang: Option<Lang>,
}

/// The picture's format, from the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileFormat {
    Svg,
    Png,
}

impl FileFormat {
    /// `.svg` or `.png`, else a clear refusal before any work.
    pub(super) fn of(path: &Path, lang: Lang) -> Result<FileFormat, Error> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("svg") => Ok(FileFormat::Svg),
            Some("png") => Ok(FileFormat::Png),
            _ => Err(Error::Input(say!(
                lang,
                "cli_draw_error.map_file_extension",
                path = path.display().to_string()
            ))),
        }
    }
}

pub(super) fn run(args: DrawArgs) -> Result<(), Error> {
    let lang = language(args.lang);
    let format = FileFormat::of(&args.out, lang)?;
    let variant = load_variant(&args.variant).map_err(|e| Error::Input(e.message(lang)))?;
    let position = match &args.position {
        Some(path) => read_position(
            &variant,
            &path.display().to_string(),
            &read_input(path, lang)?,
        )
        .map_err(|e| Error::Input(e.to_string()))?,
        None => super::adjudicate::starting_position(&variant, args.players, lang)?,
    };
    let mut given = Vec::new();
    for file in &args.orders {
        let name = file.display().to_string();
        given.extend(read_orders(
            &variant,
            &name,
            &read_input(file, lang)?,
            args.house.as_deref(),
            lang,
        )?);
    }
    let (shown, reports, played) = if given.is_empty() {
        (position, Vec::new(), None)
    } else {
        let adjudication = adjudicate(&variant, &position, &given);
        let reports = adjudication.reports.into_iter().map(|(_, r)| r).collect();
        (adjudication.after, reports, Some(position.phase))
    };
    let title = args
        .title
        .clone()
        .unwrap_or_else(|| variant.name_in(lang).to_string());
    let picture = Picture {
        variant: &variant,
        position: &shown,
        orders: &reports,
        played,
        title: &title,
        lang,
    };
    write_picture(&picture, format, &args.out, args.width)
}

/// Draws and writes the picture; nothing is written if drawing fails.
pub(super) fn write_picture(
    picture: &Picture<'_>,
    format: FileFormat,
    out: &Path,
    width: u32,
) -> Result<(), Error> {
    let bytes = match format {
        FileFormat::Svg => crate::draw::svg(picture).map(String::into_bytes),
        FileFormat::Png => crate::draw::png(picture, width),
    }
    .map_err(draw_error)?;
    std::fs::write(out, bytes).map_err(|e| Error::Input(format!("{}: {e}", out.display())))
}

/// A drawing error as the command line reports it: a variant without drawing data is the
/// user's input; a failed rasterisation is ours.
pub(super) fn draw_error(e: crate::draw::DrawError) -> Error {
    match e {
        crate::draw::DrawError::NoDrawing(m) => Error::Input(m),
        other => Error::Internal(other.to_string()),
    }
}

/// Parses order lines; a line `House:` alone gives the house of the lines after it.
/// Every unreadable line is reported, and then nothing is drawn.
pub(super) fn read_orders(
    variant: &Variant,
    name: &str,
    text: &str,
    house: Option<&str>,
    lang: Lang,
) -> Result<Vec<GivenOrder>, Error> {
    let lines: Vec<(u32, String)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (u32::try_from(i + 1).unwrap_or(u32::MAX), line.to_string()))
        .collect();
    super::adjudicate::read_orders(variant, house, lang, name, &lines)
}
