//! The pictures of a game the judge hands out (mails, `history --map`, the published
//! pages): the board after a played phase with its orders drawn, or the current board.

use crate::draw::{DrawError, PNG_WIDTH, Picture};
use crate::game::{Game, GameError, PhaseRecord};
use crate::lang::Lang;
use crate::map::Variant;

/// Why a game's picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Draw(#[from] DrawError),
}

/// What to draw: a PNG (mails: clients do not show SVG) or the SVG text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

/// The board after the played phase `record` of `game`, with that phase's orders and
/// their outcomes drawn.
pub fn phase_picture(
    variant: &Variant,
    game: &Game,
    record: &PhaseRecord,
    lang: Lang,
    format: Format,
) -> Result<Vec<u8>, PictureError> {
    let (position, reports) = record.played(variant);
    let picture = Picture {
        variant,
        position: &position,
        orders: &reports,
        played: Some(record.phase),
        title: game.name(),
        lang,
    };
    draw(&picture, format)
}

/// The board as it stands in `game` now, no orders drawn (the welcome mail, `CARTE`).
pub fn current_picture(
    variant: &Variant,
    game: &Game,
    lang: Lang,
    format: Format,
) -> Result<Vec<u8>, PictureError> {
    let picture = Picture {
        variant,
        position: game.position(),
        orders: &[],
        played: None,
        title: game.name(),
        lang,
    };
    draw(&picture, format)
}

/// The replay of a game: an animated PNG of every played phase in `records` with its
/// orders drawn (`draw::replay`), for the game-over mail and the published page.
pub fn replay_picture(
    variant: &Variant,
    game: &Game,
    records: &[PhaseRecord],
    lang: Lang,
) -> Result<Vec<u8>, PictureError> {
    let played: Vec<_> = records
        .iter()
        .map(|r| (r.phase, r.played(variant)))
        .collect();
    let frames: Vec<Picture<'_>> = played
        .iter()
        .map(|(phase, (position, reports))| Picture {
            variant,
            position,
            orders: reports,
            played: Some(*phase),
            title: game.name(),
            lang,
        })
        .collect();
    Ok(crate::draw::replay(&frames, crate::draw::REPLAY_WIDTH)?)
}

fn draw(picture: &Picture<'_>, format: Format) -> Result<Vec<u8>, PictureError> {
    Ok(match format {
        Format::Png => crate::draw::png(picture, PNG_WIDTH)?,
        Format::Svg => crate::draw::svg(picture)?.into_bytes(),
    })
}
