//! Who leads the board: claim points (or centres), then the variant's tie-breaks. The game
//! asks it when a house reaches the victory count and after the last year; case files ask
//! it too, so the rule is one.

use crate::map::{HouseId, Variant};

use super::position::Position;

/// The houses among `candidates` that reach the immediate victory: the variant's claim
/// points when it wins by points, else `centres` supply centres.
pub fn reaching_victory(
    variant: &Variant,
    position: &Position,
    candidates: &[HouseId],
    centres: u16,
) -> Vec<HouseId> {
    let (scores, target) = match variant.victory.points {
        Some(points) => (position.points_counts(variant), u32::from(points)),
        None => (
            position
                .centre_counts(variant)
                .into_iter()
                .map(|c| u32::try_from(c).unwrap_or(u32::MAX))
                .collect(),
            u32::from(centres),
        ),
    };
    candidates
        .iter()
        .copied()
        .filter(|h| scores.get(usize::from(h.0)).is_some_and(|&s| s >= target))
        .collect()
}

/// The houses that come first among `candidates`: by claim points when the variant wins by
/// points, else by centres, then by each tie-break in order; several when they stay tied.
pub fn leaders(variant: &Variant, position: &Position, candidates: &[HouseId]) -> Vec<HouseId> {
    let centres = position.centre_counts(variant);
    let units = position.unit_counts(variant);
    let points = position.points_counts(variant);
    let score = |h: HouseId| -> Vec<usize> {
        let i = usize::from(h.0);
        let mut keys = vec![match variant.victory.points {
            Some(_) => points[i] as usize,
            None => centres[i],
        }];
        for rule in &variant.victory.tie_break {
            keys.push(match rule.as_str() {
                "points" => points[i] as usize,
                "centres" => centres[i],
                "units" => units[i],
                "home_centres" => variant
                    .house(h)
                    .home
                    .iter()
                    .filter(|&&p| position.owners[usize::from(p.0)] == Some(h))
                    .count(),
                _ => 0,
            });
        }
        keys
    };
    let best = candidates.iter().map(|&h| score(h)).max();
    candidates
        .iter()
        .copied()
        .filter(|&h| Some(score(h)) == best)
        .collect()
}
