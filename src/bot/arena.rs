//! One whole game between players of the kinds of [`Player`], through the adjudicator:
//! movement, retreats and adjustments until a house reaches the victory count (centres, or
//! claim points), or the last year is over.

use std::time::{Duration, Instant};

use crate::judge::{
    GivenOrder, Outcome, PhaseKind, Position, Season, adjudicate, leaders, reaching_victory,
};
use crate::map::{HouseId, Variant};

use super::Player;

/// Years played on a variant with no last year, when nobody wins before.
pub const YEARS_WITHOUT_LIMIT: i32 = 20;

/// How a game ended.
#[derive(Debug, Clone)]
pub struct Played {
    /// Centres and units of each house at the end, by house index.
    pub centres: Vec<usize>,
    pub units: Vec<usize>,
    /// Claim points of each house at the end (its centres' worth on a variant won by
    /// points; zero elsewhere).
    pub points: Vec<u32>,
    /// The houses that won, as a game decides it: those that reached the victory count
    /// (centres, or claim points on a variant won by points), or the leaders after the
    /// last year, the variant's tie-breaks applied (several when they stay tied); none
    /// when the game stopped at the year limit of a variant without a last year.
    pub winners: Vec<HouseId>,
    /// Bot decisions taken (one per house and phase), and the time they took.
    pub decisions: u64,
    pub thinking: Duration,
    /// The same for every kind of player, by [`Player::index`], with the longest decision.
    pub timing: [(u64, Duration, Duration); Player::ALL.len()],
    /// Orders of any player the judge refused or found illegal (none, if the players are
    /// right).
    pub illegal: u64,
    pub phases: u64,
}

/// The last year a game on `variant` is played.
pub fn last_year(variant: &Variant) -> i32 {
    variant
        .victory
        .last_year
        .unwrap_or(variant.first_year + YEARS_WITHOUT_LIMIT - 1)
}

/// Plays a game from the full setup's starting position, each house of `seats` played by
/// its player (houses not named hold).
pub fn play(variant: &Variant, seats: &[(HouseId, Player)], seed: u64) -> Option<Played> {
    let setup = variant.full_setup()?;
    let last = last_year(variant);
    let mut position = Position::starting(variant, Some(setup.players))?;
    let mut played = Played {
        centres: Vec::new(),
        units: Vec::new(),
        points: Vec::new(),
        winners: Vec::new(),
        decisions: 0,
        thinking: Duration::ZERO,
        timing: [(0, Duration::ZERO, Duration::ZERO); Player::ALL.len()],
        illegal: 0,
        phases: 0,
    };
    loop {
        let mut given = Vec::new();
        for &(house, player) in seats {
            let s = seed
                .wrapping_mul(0x2545_F491_4F6C_DD1D)
                .wrapping_add(played.phases);
            let start = Instant::now();
            let orders = player.orders(variant, &position, house, s);
            let took = start.elapsed();
            let timing = &mut played.timing[player.index()];
            timing.0 += 1;
            timing.1 += took;
            timing.2 = timing.2.max(took);
            if player == Player::Bot {
                played.thinking += took;
                played.decisions += 1;
            }
            for order in orders {
                given.push(GivenOrder {
                    house: Some(house),
                    order,
                });
            }
        }
        let done = adjudicate(variant, &position, &given);
        played.illegal += done.rejected.len() as u64;
        played.illegal += done
            .reports
            .iter()
            .filter(|(i, r)| matches!(r.outcome, Outcome::Illegal(_)) && i.is_some())
            .count() as u64;
        // Named at the debug level (`-v`), so that a wrong player can be found.
        for (i, r) in &done.reports {
            if let (Some(i), Outcome::Illegal(why)) = (i, &r.outcome)
                && let Some(g) = given.get(*i)
            {
                tracing::debug!("{}: illegal `{}`: {why:?}", position.phase, g.order.text);
            }
        }
        for r in &done.rejected {
            if let Some(g) = given.get(r.order) {
                tracing::debug!(
                    "{}: rejected `{}`: {:?}",
                    position.phase,
                    g.order.text,
                    r.illegal
                );
            }
        }
        played.phases += 1;
        let before = position.phase;
        position = done.after;
        step_weather(variant, &mut position, seed, played.phases);
        let autumn_over =
            position.phase.season == Season::Winter || position.phase.year > before.year;
        if !autumn_over {
            continue;
        }
        let centres = position.centre_counts(variant);
        // The game's own rule: claim points on a variant won by points, then its
        // tie-breaks, so that the arena's wins are the ones a game would declare.
        let reached = reaching_victory(variant, &position, &setup.houses, setup.victory_centres);
        let past_last = position.phase.year > last
            || (position.phase.year == last && position.phase.season == Season::Winter);
        if !reached.is_empty() || past_last {
            if !reached.is_empty() {
                played.winners = leaders(variant, &position, &reached);
            } else if variant.victory.last_year.is_some() {
                played.winners = leaders(variant, &position, &setup.houses);
            }
            played.units = position.unit_counts(variant);
            played.points = position.points_counts(variant);
            played.centres = centres;
            return Some(played);
        }
    }
}

/// Moves the weather marker as a game does (one step, with the variant's chance, at each
/// new movement phase), by the arena's own seed, so that the players meet storms too.
fn step_weather(variant: &Variant, position: &mut Position, seed: u64, phases: u64) {
    let Some(weather) = &variant.weather else {
        return;
    };
    if position.phase.kind != PhaseKind::Movement {
        return;
    }
    let mut draw = seed ^ phases.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    draw ^= draw >> 31;
    draw = draw.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    draw ^= draw >> 29;
    let step = position.weather.unwrap_or(weather.start);
    if draw % 100 < u64::from(weather.step_percent) {
        position.weather = Some(weather.next_step(step));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::load_variant;

    /// On a variant won by claim points, the arena's winners are those a game would
    /// declare: a house with the points to win (the first by the tie-breaks among them),
    /// or the leader by points after the last year; never a house ahead by centres only.
    #[test]
    fn on_a_variant_won_by_points_the_winners_have_the_points() {
        let variant = load_variant("tempete").expect("tempete");
        let target = variant.victory.points.expect("won by points");
        let setup = variant.full_setup().expect("setup");
        let seats: Vec<(HouseId, Player)> =
            setup.houses.iter().map(|&h| (h, Player::Bot)).collect();
        let mut decided = 0;
        for seed in 1..=6 {
            let played = play(&variant, &seats, seed).expect("played");
            let best = setup
                .houses
                .iter()
                .map(|h| played.points[usize::from(h.0)])
                .max()
                .expect("houses");
            for h in &played.winners {
                let points = played.points[usize::from(h.0)];
                assert!(
                    points >= u32::from(target) || points == best,
                    "seed {seed}: {h:?} wins with {points} points (best {best})"
                );
            }
            decided += usize::from(!played.winners.is_empty());
        }
        assert!(decided > 0, "no game of six was decided");
    }
}
