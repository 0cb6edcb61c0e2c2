//! The weather track's marker moves at each new movement phase, with the variant's chance,
//! drawn from the game's own seed (its id) and the phase: the same game always gets the
//! same weather, two games get their own, and no draw is kept anywhere.

use crate::judge::{Phase, PhaseKind, Position, Season};
use crate::map::Variant;

/// Moves the marker of `position` one step, or not, when it opens a movement phase.
pub(super) fn advance_weather(variant: &Variant, game_id: &str, position: &mut Position) {
    let Some(weather) = &variant.weather else {
        return;
    };
    if position.phase.kind != PhaseKind::Movement {
        return;
    }
    let step = position.weather.unwrap_or(weather.start);
    let moves = draw_percent(game_id, position.phase) < u64::from(weather.step_percent);
    position.weather = Some(if moves { weather.next_step(step) } else { step });
}

/// A number from 0 to 99 for this game and phase: FNV-1a over the game's id, a word of its
/// own (so that the weather is not the bots' draw) and the phase, then mixed.
pub(super) fn draw_percent(game_id: &str, phase: Phase) -> u64 {
    let season: u8 = match phase.season {
        Season::Spring => 0,
        Season::Autumn => 1,
        Season::Winter => 2,
    };
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    let bytes = game_id
        .bytes()
        .chain(*b"/weather/")
        .chain(phase.year.to_le_bytes())
        .chain([season]);
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01B3);
    }
    // The finaliser of splitmix64: FNV's low bits alone vary too little.
    hash ^= hash >> 30;
    hash = hash.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    hash ^= hash >> 27;
    hash = hash.wrapping_mul(0x94D0_49BB_1331_11EB);
    hash ^= hash >> 31;
    hash % 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_is_the_games_own_and_spread() {
        let phase = Phase::first(299);
        assert_eq!(draw_percent("a", phase), draw_percent("a", phase));
        let draws: Vec<u64> = (0..200)
            .map(|n| draw_percent(&format!("game{n}"), phase))
            .collect();
        let below_half = draws.iter().filter(|&&d| d < 50).count();
        assert!(
            (60..140).contains(&below_half),
            "{below_half} of 200 below 50"
        );
    }
}
