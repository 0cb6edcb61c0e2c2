//! Doors for tests to put a game in a state no action makes: a hash kept from an older
//! judge, an order stored unchecked, observers seated without their mail. Compiled only
//! for tests (the `test-hooks` feature); no production path can reach a field this way.

use super::{Game, GameStatus, Observer, Settings, StoredOrder};

impl Game {
    #[doc(hidden)]
    pub fn settings_mut_for_tests(&mut self) -> &mut Settings {
        &mut self.settings
    }

    #[doc(hidden)]
    pub fn observers_mut_for_tests(&mut self) -> &mut Vec<Observer> {
        &mut self.observers
    }

    /// A player's stored secret hash replaced; `false`: no player at that house.
    #[doc(hidden)]
    pub fn set_secret_hash_for_tests(&mut self, house: &str, hash: &str) -> bool {
        let player = self.seat_mut(house).and_then(|s| s.player.as_mut());
        player.map(|p| p.secret = hash.to_string()).is_some()
    }

    #[doc(hidden)]
    pub fn orders_mut_for_tests(&mut self, house: &str) -> Option<&mut Vec<StoredOrder>> {
        self.seat_mut(house).map(|s| &mut s.orders)
    }

    /// The status forced, for a rule's refusal in a status the test does not play to.
    #[doc(hidden)]
    pub fn set_status_for_tests(&mut self, status: GameStatus) {
        self.status = status;
    }
}
