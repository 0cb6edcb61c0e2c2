//! A position: the phase, the units on the board, the dislodged units waiting to retreat,
//! and who owns each supply centre.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::map::{Crossing, HouseId, Owner, Passage, ProvinceId, RegionId, UnitKind, Variant};

/// A unit on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub owner: Owner,
    pub kind: UnitKind,
    pub region: RegionId,
    /// A dragon's name (`Balerion`).
    pub name: Option<String>,
}

/// A unit driven out of its province, waiting for its retreat order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dislodged {
    pub unit: Unit,
    /// Where the attack came from: the one province it may not retreat to (DATC 6.H.5).
    pub attacker_from: Option<ProvinceId>,
}

/// A garrison: no unit (never ordered, moved nor counted for supply), only strength added
/// to its province's defence, until the province is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Garrison {
    /// Its house; neutral when the house is not in the game.
    pub owner: Owner,
    pub province: ProvinceId,
    pub strength: u8,
    /// Its house owns the centre while it stands.
    pub controls: bool,
}

/// Printemps, automne, hiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    Spring,
    Autumn,
    Winter,
}

/// Moves, retreats or adjustments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// One phase of the calendar: `spring 298 movement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Phase {
    pub year: i32,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    /// The first phase of a game: spring movement of the first year.
    pub fn first(year: i32) -> Phase {
        Phase {
            year,
            season: Season::Spring,
            kind: PhaseKind::Movement,
        }
    }

    /// The phase after this one, before skipping phases with nothing to decide.
    pub fn next(self) -> Phase {
        use PhaseKind::*;
        use Season::*;
        let (year, season, kind) = match (self.season, self.kind) {
            (Spring, Movement) => (self.year, Spring, Retreat),
            (Spring, _) => (self.year, Autumn, Movement),
            (Autumn, Movement) => (self.year, Autumn, Retreat),
            (Autumn, _) => (self.year, Winter, Adjustment),
            (Winter, _) => (self.year + 1, Spring, Movement),
        };
        Phase { year, season, kind }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let season = match self.season {
            Season::Spring => "spring",
            Season::Autumn => "autumn",
            Season::Winter => "winter",
        };
        let kind = match self.kind {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreat",
            PhaseKind::Adjustment => "adjustment",
        };
        write!(f, "{season} {} {kind}", self.year)
    }
}

/// Everything the judge needs to know about the board at one phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff in the movement phase just played: no retreat there.
    pub contested: Vec<ProvinceId>,
    /// Owner of each province's supply centre (or town), indexed by province (None:
    /// unowned).
    pub owners: Vec<Option<HouseId>>,
    /// The weather marker's position on the variant's track; None: where it starts.
    pub weather: Option<usize>,
    pub garrisons: Vec<Garrison>,
    /// Provinces nobody may enter in this game (the setup's).
    pub closed: Vec<ProvinceId>,
}

impl Position {
    /// An empty board at this phase.
    pub fn empty(variant: &Variant, phase: Phase) -> Position {
        Position {
            phase,
            units: Vec::new(),
            dislodged: Vec::new(),
            contested: Vec::new(),
            owners: vec![None; variant.provinces.len()],
            weather: None,
            garrisons: Vec::new(),
            closed: Vec::new(),
        }
    }

    /// The weather marker's position on the track, if the variant has weather.
    pub fn weather_step(&self, variant: &Variant) -> Option<usize> {
        let weather = variant.weather.as_ref()?;
        Some(self.weather.unwrap_or(weather.start))
    }

    /// Whether the fords can be crossed now: always, in a variant without weather.
    pub fn fords_open(&self, variant: &Variant) -> bool {
        match (&variant.weather, self.weather_step(variant)) {
            (Some(weather), Some(step)) => weather.state_at(step).is_none_or(|s| s.fords_open),
            _ => true,
        }
    }

    /// What a unit of `owner` asks of a border to cross it now.
    pub fn passage(&self, variant: &Variant, owner: Owner, crossing: Crossing) -> Passage {
        Passage {
            owner,
            fords_open: self.fords_open(variant),
            crossing,
        }
    }

    /// The garrison in a province, if any.
    pub fn garrison_in(&self, province: ProvinceId) -> Option<&Garrison> {
        self.garrisons.iter().find(|g| g.province == province)
    }

    /// Whether nobody may enter this province.
    pub fn is_closed(&self, province: ProvinceId) -> bool {
        self.closed.contains(&province)
    }

    /// Claim points each house holds, indexed by house: its centres' claims (one a centre
    /// in a variant won by centres).
    pub fn points_counts(&self, variant: &Variant) -> Vec<u32> {
        let mut points = vec![0; variant.houses.len()];
        for (p, owner) in self.owners.iter().enumerate() {
            if let Some(h) = owner
                && p < variant.provinces.len()
            {
                points[usize::from(h.0)] += u32::from(variant.claim_of(ProvinceId(p as u16)));
            }
        }
        points
    }

    /// The starting position for a number of players: the setup's houses own their home
    /// centres; the other houses' starting units stay on the board as neutral units.
    pub fn starting(variant: &Variant, players: Option<u8>) -> Option<Position> {
        let setup = match players {
            Some(n) => variant.setup(n)?,
            None => variant.full_setup()?,
        };
        let mut position = Position::empty(variant, Phase::first(variant.first_year));
        for &house in &setup.houses {
            for &centre in &variant.house(house).home {
                position.owners[usize::from(centre.0)] = Some(house);
            }
        }
        for start in variant.starting_units.iter().chain(&setup.neutral) {
            let owner = match start.owner {
                Owner::House(h) if setup.houses.contains(&h) => Owner::House(h),
                _ => Owner::Neutral,
            };
            position.units.push(Unit {
                owner,
                kind: start.kind,
                region: start.region,
                name: start.name.clone(),
            });
        }
        // The garrisons of a house left out stay, neutral, like its units.
        for g in &variant.garrisons {
            let playing = setup.houses.contains(&g.house);
            position.garrisons.push(Garrison {
                owner: if playing {
                    Owner::House(g.house)
                } else {
                    Owner::Neutral
                },
                province: g.province,
                strength: g.strength,
                controls: g.controls,
            });
            if playing && g.controls {
                position.owners[usize::from(g.province.0)] = Some(g.house);
            }
        }
        position.closed = setup.closed.clone();
        position.weather = variant.weather.as_ref().map(|w| w.start);
        Some(position)
    }

    /// The unit standing in a province, if any.
    pub fn unit_in(&self, variant: &Variant, province: ProvinceId) -> Option<usize> {
        self.units
            .iter()
            .position(|u| variant.province_of(u.region) == province)
    }

    /// Number of supply centres each house owns, indexed by house.
    pub fn centre_counts(&self, variant: &Variant) -> Vec<usize> {
        let mut counts = vec![0; variant.houses.len()];
        for (p, owner) in self.owners.iter().enumerate() {
            if let Some(h) = owner
                && variant.provinces.get(p).is_some_and(|p| p.supply)
            {
                counts[usize::from(h.0)] += 1;
            }
        }
        counts
    }

    /// Number of units each house has on the board, indexed by house.
    pub fn unit_counts(&self, variant: &Variant) -> Vec<usize> {
        let mut counts = vec![0; variant.houses.len()];
        for u in &self.units {
            if let Owner::House(h) = u.owner {
                counts[usize::from(h.0)] += 1;
            }
        }
        counts
    }
}
