//! The pictures of a game the judge hands out (mails, `history --map`, the published
//! pages): the board after a played phase with its orders drawn, or the current board.

use std::collections::HashMap;

use crate::draw::{DrawError, PNG_WIDTH, Picture};
use crate::game::results::{CommandView, OrderLine, Place, ResultsView, Status};
use crate::game::{Game, GameError, PhaseRecord};
use crate::judge::{CheckedOrder, Failure, Illegal, Outcome, Position, Report};
use crate::lang::Lang;
use crate::map::{Owner, RegionId, Variant};

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
    let (position, reports) = played(variant, record);
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
        .map(|r| (r.phase, played(variant, r)))
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

/// The position after a played phase and its orders with their outcomes, as the record
/// keeps them: drawn from the stored results, the judge not run again. Results stored in
/// a format this version does not read leave the orders undrawn.
fn played(variant: &Variant, record: &PhaseRecord) -> (Position, Vec<Report>) {
    (record.position_after.clone(), drawn_orders(variant, record))
}

/// The orders of a played phase with their outcomes, as its picture draws them: read from
/// the results the record keeps.
pub fn drawn_orders(variant: &Variant, record: &PhaseRecord) -> Vec<Report> {
    record
        .results
        .view()
        .map(|view| reports(variant, view))
        .unwrap_or_default()
}

/// The order lines of the results, as the drawing reads them.
fn reports(variant: &Variant, view: &ResultsView) -> Vec<Report> {
    let regions: HashMap<String, RegionId> = variant
        .region_ids()
        .map(|r| (variant.region_label(r), r))
        .collect();
    let region = |place: &Place| regions.get(&place.id).copied();
    let province = |place: &Place| variant.province_by_id(&place.province);
    view.houses
        .iter()
        .flat_map(|group| {
            let owner = group
                .house
                .as_ref()
                .and_then(|h| variant.house_by_name(&h.id))
                .map_or(Owner::Neutral, Owner::House);
            group.orders.iter().filter_map(move |line| {
                let unit = match &line.unit {
                    Some(unit) => Some((unit.kind, region(&unit.at)?)),
                    None => None,
                };
                Some(Report {
                    owner,
                    unit,
                    command: command(line, &region, &province)?,
                    outcome: outcome(line.outcome.status),
                    text: line.written.clone(),
                })
            })
        })
        .collect()
}

fn command(
    line: &OrderLine,
    region: &impl Fn(&Place) -> Option<RegionId>,
    province: &impl Fn(&Place) -> Option<crate::map::ProvinceId>,
) -> Option<CheckedOrder> {
    Some(match &line.command {
        CommandView::Hold => CheckedOrder::Hold,
        CommandView::Move { to, via_convoy } => CheckedOrder::Move {
            to: region(to)?,
            via_convoy: *via_convoy,
        },
        CommandView::SupportHold { unit } => CheckedOrder::SupportHold {
            unit: province(&unit.at)?,
        },
        CommandView::SupportMove { unit, to } => CheckedOrder::SupportMove {
            unit: province(&unit.at)?,
            to: province(to)?,
            coast: to.coast.as_ref().and_then(|_| region(to)),
        },
        CommandView::Convoy { unit, to } => CheckedOrder::Convoy {
            army: province(&unit.at)?,
            to: province(to)?,
        },
        CommandView::Retreat { to } => CheckedOrder::Retreat { to: region(to)? },
        CommandView::Disband => CheckedOrder::Disband,
        CommandView::Build { unit } => CheckedOrder::Build {
            kind: unit.kind,
            region: region(&unit.at)?,
        },
        CommandView::Waive => CheckedOrder::Waive,
    })
}

/// The drawing tells an order that succeeded from one that failed, and draws an illegal
/// one as written: the status is all it reads, whatever the reason.
fn outcome(status: Status) -> Outcome {
    match status {
        Status::Succeeded => Outcome::Succeeded,
        Status::Failed => Outcome::Failed(Failure::NotMatched),
        Status::Illegal => Outcome::Illegal(Illegal::WrongPhase),
    }
}
