//! A new game, from what the moderator gives.

use chrono::{DateTime, Utc};

use crate::judge::Position;
use crate::map::{PinnedVariant, Variant};

use crate::game::model::{Game, GameStatus, Moderator, Seat, Settings};
use crate::game::span::Span;
use crate::game::{GameError, HouseKey};

/// What a moderator gives to create a game.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub id: String,
    pub name: Option<String>,
    pub variant: String,
    pub players: u8,
    pub settings: Settings,
    pub moderator: Option<Moderator>,
}

/// Game ids are used in commands and mail subjects: short, lowercase, no spaces.
pub fn check_game_id(id: &str) -> Result<(), GameError> {
    let ok = (1..=32).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(GameError::BadGameId(id.to_string()))
    }
}

/// A game's full name as every mail and page shows it: one line (a line break in it would
/// forge lines of the mails' text, such as the `:: key: value` lines programs read),
/// control characters as spaces, at most 100 characters.
fn one_line(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ").chars().take(100).collect()
}

/// A new game, forming: its seats are the houses of the setup for its number of players.
/// `pin` names the content of `variant`, which the store keeps for the game's whole life.
pub fn create(
    new: NewGame,
    variant: &Variant,
    pin: PinnedVariant,
    now: DateTime<Utc>,
) -> Result<Game, GameError> {
    check_game_id(&new.id)?;
    new.settings.schedule.validate()?;
    let setup = variant
        .setup(new.players)
        .ok_or_else(|| GameError::NoSetup {
            variant: variant.id.clone(),
            players: new.players,
            available: variant.setups.iter().map(|s| s.players).collect(),
        })?;
    let mut position =
        Position::starting(variant, Some(new.players)).ok_or_else(|| GameError::NoSetup {
            variant: variant.id.clone(),
            players: new.players,
            available: Vec::new(),
        })?;
    if new.settings.garrisons {
        add_home_garrisons(variant, &setup.houses, &mut position);
    }
    Ok(Game {
        name: new
            .name
            .map(|n| one_line(&n))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| new.id.clone()),
        id: new.id,
        variant: pin,
        players: new.players,
        status: GameStatus::Forming,
        settings: new.settings,
        moderator: new.moderator,
        seats: setup
            .houses
            .iter()
            .map(|&h| Seat::new(HouseKey::of(variant, h)))
            .collect(),
        phase: position.phase,
        position,
        played: 0,
        opened: None,
        deadline: None,
        extended: Span::ZERO,
        reminders_sent: 0,
        paused_left: None,
        submissions: Vec::new(),
        created: now,
        ending: None,
        deciding: Vec::new(),
        wake: None,
        observers: Vec::new(),
        absence_base: None,
        grace_told: false,
        observer_requests: Vec::new(),
        seat_requests: Vec::new(),
        consent_asked: Vec::new(),
    })
}

/// The expansion's garrisons on a board that has none: seed 001 gives each house a
/// strength-2 garrison at home, which corbeau halves as `tempete` does (one Diplomacy army
/// stands for a group of the board game's pieces), in every home centre of each house in
/// play. A centre that already has a garrison keeps it.
fn add_home_garrisons(variant: &Variant, houses: &[crate::map::HouseId], position: &mut Position) {
    for &house in houses {
        for &centre in &variant.house(house).home {
            if position.garrison_in(centre).is_none() {
                position.garrisons.push(crate::judge::Garrison {
                    owner: crate::map::Owner::House(house),
                    province: centre,
                    strength: 1,
                    controls: false,
                });
            }
        }
    }
}
