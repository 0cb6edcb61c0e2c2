//! How a game ends by itself: a house reaching the victory count of supply centres, the
//! last year played, or the votes of the houses still in the game.

use crate::judge::{Position, Season};
use crate::map::{HouseId, Variant};

use super::HouseKey;
use super::model::{Ending, Game, Vote};

/// The ending the board decides after a phase, if any. Centres change only when autumn
/// ends, so the check runs when the game enters a winter or a new year.
pub(super) fn board_ending(
    variant: &Variant,
    game: &Game,
    before: &Position,
    after: &Position,
) -> Option<Ending> {
    let autumn_over = after.phase.season == Season::Winter || after.phase.year > before.phase.year;
    if !autumn_over {
        return None;
    }
    let houses = playing_houses(variant, game);
    let target = game.settings.victory_centres.unwrap_or_else(|| {
        variant
            .setup(game.players)
            .map_or(variant.victory.centres, |s| s.victory_centres)
    });
    let reached = crate::judge::reaching_victory(variant, after, &houses, target);
    if !reached.is_empty() {
        // A variant won by points names its count of points; others, their centres.
        let reason = match variant.victory.points {
            Some(points) => format!("points:{points}"),
            None => format!("centres:{target}"),
        };
        return Some(Ending::Win {
            houses: leaders(variant, after, &reached),
            reason,
        });
    }
    let last = game.settings.last_year.or(variant.victory.last_year)?;
    let past_last = after.phase.year > last
        || (after.phase.year == last && after.phase.season == Season::Winter);
    past_last.then(|| Ending::Win {
        houses: leaders(variant, after, &houses),
        reason: format!("last-year:{last}"),
    })
}

/// The houses of the game's setup.
fn playing_houses(variant: &Variant, game: &Game) -> Vec<HouseId> {
    game.seats
        .iter()
        .filter_map(|s| variant.house_by_name(&s.house))
        .collect()
}

/// The houses that come first by the variant's tie-breaks; several when they stay tied,
/// for a shared victory.
fn leaders(variant: &Variant, position: &Position, candidates: &[HouseId]) -> Vec<HouseKey> {
    crate::judge::leaders(variant, position, candidates)
        .into_iter()
        .map(|h| HouseKey::of(variant, h))
        .collect()
}

/// Houses still in the game: with units or supply centres.
pub fn survivors(variant: &Variant, game: &Game, position: &Position) -> Vec<HouseKey> {
    let centres = position.centre_counts(variant);
    let units = position.unit_counts(variant);
    playing_houses(variant, game)
        .into_iter()
        .filter(|h| {
            let i = usize::from(h.0);
            centres[i] > 0
                || units[i] > 0
                || position
                    .dislodged
                    .iter()
                    .any(|d| d.unit.owner == crate::map::Owner::House(*h))
        })
        .map(|h| HouseKey::of(variant, h))
        .collect()
}

/// The ending the votes decide: a draw when every surviving house that is not in civil
/// disorder voted for the same one (a bare `DRAW` is the draw of every survivor); a
/// concession when every such house but one conceded to it.
pub(super) fn vote_ending(survivors: &[HouseKey], game: &Game) -> Option<Ending> {
    let voters: Vec<&super::model::Seat> = game
        .seats
        .iter()
        .filter(|s| survivors.contains(&s.house) && !s.civil_disorder)
        .collect();
    if voters.is_empty() {
        return None;
    }
    let drawn = |s: &&super::model::Seat| drawn_by(s.vote.as_ref()?, survivors);
    if let Some(first) = voters.first().and_then(drawn)
        && voters.iter().all(|s| drawn(s).as_ref() == Some(&first))
    {
        return Some(Ending::Draw { houses: first });
    }
    let winner = voters.iter().find_map(|s| match &s.vote {
        Some(Vote::Concede(h)) if survivors.contains(h) => Some(h.clone()),
        _ => None,
    })?;
    voters
        .iter()
        .filter(|s| s.house != winner)
        .all(|s| s.vote == Some(Vote::Concede(winner.clone())))
        .then_some(Ending::Concession { house: winner })
}

/// The survivors a draw vote shares the game between, in the survivors' order, so that
/// two votes naming the same houses in another order are the same draw; `None` for a
/// concession, or a draw none of whose houses survives.
fn drawn_by(vote: &Vote, survivors: &[HouseKey]) -> Option<Vec<HouseKey>> {
    let houses: Vec<HouseKey> = match vote {
        Vote::Draw => survivors.to_vec(),
        Vote::DrawWith(named) => survivors
            .iter()
            .filter(|h| named.contains(h))
            .cloned()
            .collect(),
        Vote::Concede(_) => return None,
    };
    (!houses.is_empty()).then_some(houses)
}
