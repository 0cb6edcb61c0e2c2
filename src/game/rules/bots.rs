//! The built-in player in a game. With the game's `bots` setting on, a house in
//! civil disorder or a vacant seat (never taken, resigned, removed) that has no orders
//! when its phase is processed gets the bot's orders (`crate::bot::orders`); a house whose
//! player is there, or that has orders, never does. The orders are a function of the
//! position and a seed drawn from the game's id and the phase's number, so a phase played
//! again after a rollback gets the same ones.

use crate::judge::Position;
use crate::map::Variant;

use crate::game::HouseKey;
use crate::game::model::{Game, StoredOrder};
use crate::game::orders::unit_key;

impl Game {
    /// The deciding houses the bot plays now: in civil disorder or vacant, without
    /// orders and not declared ready (a player's `READY` without orders means holding).
    pub(in crate::game) fn bot_houses(&self, deciding: &[HouseKey]) -> Vec<HouseKey> {
        if !self.settings.bots {
            return Vec::new();
        }
        self.seats
            .iter()
            .filter(|s| deciding.contains(&s.house))
            .filter(|s| s.civil_disorder || s.player.is_none() || s.resigned)
            .filter(|s| s.orders.is_empty() && s.ordered.is_none() && !s.ready)
            .map(|s| s.house.clone())
            .collect()
    }

    /// The seed of the bot's orders for the phase being played: the game's id (FNV-1a,
    /// the same on every machine and version) mixed with the phase's number.
    fn bot_seed(&self) -> u64 {
        let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
        for byte in self.id.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01B3);
        }
        hash ^ u64::from(self.played).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Gives each house of `houses` the bot's orders for `position`, as if its player had
    /// sent them (no submission is recorded: nobody sent anything).
    pub(in crate::game) fn give_bot_orders(
        &mut self,
        variant: &Variant,
        position: &Position,
        houses: &[HouseKey],
    ) {
        let seed = self.bot_seed();
        let phase = self.phase;
        for house in houses {
            let Some(h) = house.in_variant(variant) else {
                continue;
            };
            let orders = crate::bot::orders_under(variant, position, h, seed, self.settings.rules)
                .into_iter()
                .map(|order| StoredOrder {
                    unit: unit_key(variant, position, &order),
                    order,
                })
                .collect();
            if let Some(seat) = self.seat_mut(house) {
                seat.orders = orders;
                seat.bot_phases.push(phase);
            }
        }
    }
}
