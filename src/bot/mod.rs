//! A built-in player: a pure function of the variant, the position, a house and a seed,
//! which returns that house's orders for the phase (movement, retreat or adjustment), as
//! the judge reads them. Three plain players sit beside it for comparison (`corbeau bot
//! arena`, docs/bot.md): the yardstick it must beat, one that always holds, and one that
//! picks random legal orders.
//!
//! The yardstick (`dumb`) follows the idea of the published DumbBot: each province gets a
//! value (supply centres, their owner, who threatens them), the values spread over the map
//! by a few passes of blurring to neighbours, and each unit takes its best-valued order;
//! then the units are coordinated (no two into one province, supports for moves that would
//! bounce, convoys). Written here from that idea.
//!
//! The bot (`lookahead`) starts from the yardstick's plans and improves them with the judge
//! itself: each candidate is adjudicated against predictions of the other houses' orders,
//! and the one with the best expected position after the phase is kept.

mod adjust;
pub mod arena;
mod lookahead;
mod movement;
mod value;

use std::sync::Arc;

use crate::judge::{Edition, PhaseKind, Position, Unit};
use crate::map::{HouseId, Owner, RegionId, UnitKind, Variant};
use crate::order::{Instruction, Location, Order, SourcePos, UnitSpec};

/// The kinds of player the arena seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The built-in player: the yardstick's plans, improved by looking ahead with the judge.
    Bot,
    /// The yardstick: values spread over the map, each unit to its best-valued order.
    Dumb,
    /// Holds every unit, disbands every dislodged one, never builds and leaves disbands
    /// to civil disorder.
    Hold,
    /// A uniformly random legal order for each unit, random builds and disbands.
    Random,
}

impl Player {
    pub const ALL: [Player; 4] = [Player::Bot, Player::Dumb, Player::Hold, Player::Random];

    /// A stable code for output, the arena's `--kinds` and JSON keys.
    pub fn code(self) -> &'static str {
        match self {
            Player::Bot => "bot",
            Player::Dumb => "dumb",
            Player::Hold => "hold",
            Player::Random => "random",
        }
    }

    /// Where the player stands in [`Player::ALL`].
    pub fn index(self) -> usize {
        match self {
            Player::Bot => 0,
            Player::Dumb => 1,
            Player::Hold => 2,
            Player::Random => 3,
        }
    }

    /// The player of a code of [`Player::code`].
    pub fn from_code(code: &str) -> Option<Player> {
        Player::ALL.into_iter().find(|p| p.code() == code)
    }

    /// This player's orders for `house` in the position's phase.
    pub fn orders(
        self,
        variant: &Variant,
        position: &Position,
        house: HouseId,
        seed: u64,
    ) -> Vec<Order> {
        match self {
            Player::Bot => orders(variant, position, house, seed),
            Player::Dumb => dumb_orders(variant, position, house, seed),
            Player::Hold => hold_orders(variant, position, house),
            Player::Random => random_orders(variant, position, house, seed),
        }
    }
}

/// The bot's orders for `house`: one per unit it must order in a movement or retreat
/// phase; its builds or disbands in an adjustment phase. The same arguments always give
/// the same orders.
pub fn orders(variant: &Variant, position: &Position, house: HouseId, seed: u64) -> Vec<Order> {
    orders_under(variant, position, house, seed, Edition::default())
}

/// The bot's orders as [`orders`] gives them, looking ahead under the game's rule edition
/// (under 1971 rules a convoy may carry another house's army: the bot foresees it).
pub fn orders_under(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    seed: u64,
    edition: Edition,
) -> Vec<Order> {
    match position.phase.kind {
        PhaseKind::Movement => lookahead::movement(variant, position, house, seed, edition),
        // Retreats and builds keep the yardstick's choices: see docs/bot.md for why.
        PhaseKind::Retreat | PhaseKind::Adjustment => dumb_orders(variant, position, house, seed),
    }
}

/// The yardstick's orders for `house`, as [`orders`] gives them: the same arguments always
/// give the same orders.
pub fn dumb_orders(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    seed: u64,
) -> Vec<Order> {
    let mut rng = Rng::new(seed, house);
    let values = value::Values::new(variant, position, house);
    match position.phase.kind {
        PhaseKind::Movement => movement::plan(variant, position, house, &values, &mut rng),
        PhaseKind::Retreat => adjust::retreats(variant, position, house, &values, &mut rng),
        PhaseKind::Adjustment => adjust::adjustments(variant, position, house, &values, &mut rng),
    }
}

/// Random legal orders for `house`: a uniform choice among hold, every possible move and
/// every possible support to hold, for each unit; random retreats, builds and disbands.
pub fn random_orders(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    seed: u64,
) -> Vec<Order> {
    let mut rng = Rng::new(seed, house);
    match position.phase.kind {
        PhaseKind::Movement => movement::random(variant, position, house, &mut rng),
        PhaseKind::Retreat => adjust::random_retreats(variant, position, house, &mut rng),
        PhaseKind::Adjustment => adjust::random_adjustments(variant, position, house, &mut rng),
    }
}

/// The holder's orders: hold in a movement phase, disband in a retreat phase, nothing in
/// an adjustment phase (no build; civil disorder picks the disbands).
pub fn hold_orders(variant: &Variant, position: &Position, house: HouseId) -> Vec<Order> {
    let mut out = Orders::new(variant);
    match position.phase.kind {
        PhaseKind::Movement => {
            for unit in own_units(&position.units, house) {
                out.push(unit, Instruction::Hold);
            }
        }
        PhaseKind::Retreat => {
            for d in position
                .dislodged
                .iter()
                .filter(|d| d.unit.owner == Owner::House(house))
            {
                out.push(&d.unit, Instruction::Disband);
            }
        }
        PhaseKind::Adjustment => {}
    }
    out.list
}

fn own_units(units: &[Unit], house: HouseId) -> impl Iterator<Item = &Unit> {
    units.iter().filter(move |u| u.owner == Owner::House(house))
}

/// A small seeded generator (SplitMix64): the same seed, the same orders, on every
/// machine.
pub(crate) struct Rng(u64);

impl Rng {
    fn new(seed: u64, house: HouseId) -> Rng {
        // Each house draws its own stream from one seed.
        let mut rng = Rng(seed ^ (u64::from(house.0) + 1).wrapping_mul(0xA076_1D64_78BD_642F));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Where an order names a place: the province, with the coast for a coast region.
fn location(variant: &Variant, region: RegionId) -> Location {
    Location {
        province: variant.province_of(region),
        coast: variant.region(region).coast.is_some().then_some(region),
    }
}

fn place(variant: &Variant, region: RegionId) -> String {
    variant.region_label(region)
}

/// The orders being written, each with its text in the English order language, so that
/// the results quote something a player could have written.
struct Orders<'a> {
    variant: &'a Variant,
    source: Arc<str>,
    list: Vec<Order>,
}

impl<'a> Orders<'a> {
    fn new(variant: &'a Variant) -> Orders<'a> {
        Orders {
            variant,
            source: Arc::from("bot"),
            list: Vec::new(),
        }
    }

    fn spec(&self, kind: UnitKind, region: RegionId) -> (UnitSpec, String) {
        (
            UnitSpec {
                kind: Some(kind),
                number: None,
                name: None,
                at: Some(location(self.variant, region)),
            },
            format!("{} {}", kind.letter(), place(self.variant, region)),
        )
    }

    /// The text of a unit named by the province it stands in, for supports and convoys.
    fn other(&self, unit: &Unit) -> (UnitSpec, String) {
        self.spec(unit.kind, unit.region)
    }

    fn target(&self, to: RegionId) -> (Location, String) {
        (location(self.variant, to), place(self.variant, to))
    }

    fn push(&mut self, unit: &Unit, action: Instruction) {
        let line = u32::try_from(self.list.len() + 1).unwrap_or(u32::MAX);
        let order = self.make(unit, action, line);
        self.list.push(order);
    }

    /// One order for `unit`, on line `line` of the bot's orders.
    fn make(&self, unit: &Unit, action: Instruction, line: u32) -> Order {
        let (spec, who) = self.spec(unit.kind, unit.region);
        let v = self.variant;
        let label = |l: &Location| match l.coast {
            Some(c) => place(v, c),
            None => v.province(l.province).id.clone(),
        };
        let what = match &action {
            Instruction::Hold => format!("{who} hold"),
            Instruction::Move { to, via_convoy, .. } => format!(
                "{who} -> {}{}",
                label(to),
                if *via_convoy { " via convoy" } else { "" }
            ),
            Instruction::Support { unit, to } => {
                let whom = unit_label(v, unit);
                match to {
                    Some(to) => format!("{who} S {whom} -> {}", label(to)),
                    None => format!("{who} S {whom}"),
                }
            }
            Instruction::Convoy { unit, to } => {
                format!("{who} C {} -> {}", unit_label(v, unit), label(to))
            }
            Instruction::Retreat { to } => format!("{who} R {}", label(to)),
            Instruction::Disband => format!("{who} disband"),
            Instruction::Build => format!("build {who}"),
            Instruction::Waive => "waive".to_string(),
        };
        Order {
            house: None,
            unit: spec,
            action,
            span: SourcePos {
                source: Arc::clone(&self.source),
                line,
                column: 1,
            },
            text: what,
        }
    }

    fn build(&mut self, kind: UnitKind, region: RegionId) {
        let unit = Unit {
            owner: Owner::Neutral,
            kind,
            region,
            name: None,
        };
        self.push(&unit, Instruction::Build);
    }
}

fn unit_label(variant: &Variant, spec: &UnitSpec) -> String {
    let kind = spec
        .kind
        .map_or(String::new(), |k| format!("{} ", k.letter()));
    let at = spec.at.map_or(String::new(), |l| match l.coast {
        Some(c) => place(variant, c),
        None => variant.province(l.province).id.clone(),
    });
    format!("{kind}{at}")
}

#[cfg(test)]
mod tests;
