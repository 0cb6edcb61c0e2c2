//! Pictures of the board: a position, and optionally one phase's orders with their
//! outcomes, become an SVG document, and a PNG for mail clients (which do not show SVG).
//!
//! Depends on the map (where things are: [`crate::map::drawing`]) and the judge (positions,
//! orders, outcomes) only. The choices are written in `docs/drawing.md`.

mod png;
mod svg;

pub use png::{FONT_FAMILY, PngError, svg_to_png, svgs_to_apng};
pub use svg::{svg, xml_text};

use crate::judge::{Phase, Position, Report};
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

/// Width in pixels of the PNG a mail carries: legible on a laptop (the provinces' labels
/// 13 px high), small enough that a results mail stays under 120 KB (`docs/drawing.md`).
pub const PNG_WIDTH: u32 = 1000;

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct Picture<'a> {
    pub variant: &'a Variant,
    pub position: &'a Position,
    /// The orders of the phase that led to `position`, with their outcomes; empty: none.
    /// Each starts at the unit's region before the phase (`Report::region`).
    pub orders: &'a [Report],
    /// The phase whose orders are drawn, for the title (`None`: the title names the
    /// position's phase).
    pub played: Option<Phase>,
    /// The game's name, or the variant's: the first words of the title.
    pub title: &'a str,
    pub lang: Lang,
}

/// Why no picture could be made.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error("{0}")]
    NoDrawing(String),
    #[error(transparent)]
    Png(#[from] PngError),
}

impl DrawError {
    fn no_drawing(variant: &Variant, lang: Lang) -> DrawError {
        DrawError::NoDrawing(say!(lang, "draw.no_drawing", variant = variant.id))
    }
}

/// The picture as a PNG `width` pixels wide.
pub fn png(picture: &Picture<'_>, width: u32) -> Result<Vec<u8>, DrawError> {
    let document = svg(picture)?;
    Ok(svg_to_png(&document, width)?)
}

/// Width in pixels of a replay's frames: half the mail's picture, so that a whole game
/// fits in a mail (`docs/drawing.md`, "Replay").
pub const REPLAY_WIDTH: u32 = 500;

/// How long each frame of a replay shows, in milliseconds.
pub const REPLAY_DELAY_MS: u16 = 1500;

/// The replay of a game: an animated PNG, one frame per picture (each played phase with
/// its orders drawn, in order), `width` pixels wide, looping.
pub fn replay(frames: &[Picture<'_>], width: u32) -> Result<Vec<u8>, DrawError> {
    let documents = frames.iter().map(svg).collect::<Result<Vec<_>, _>>()?;
    Ok(svgs_to_apng(&documents, width, REPLAY_DELAY_MS)?)
}
