//! A player's record across the games of this judge: what the judge saw each address do
//! when it processed phases and ended games. The service counts it as it commits those
//! changes; nothing a mail says about someone changes it.

use serde::{Deserialize, Serialize};

use super::{Address, Game, PhaseRecord};

/// One address's record, summed over every game of the judge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// Phases where a house this address played had something to decide.
    pub due: u32,
    /// Of those, the phases it gave orders for (or declared itself ready).
    pub ordered: u32,
    /// Houses it gave up.
    pub resigned: u32,
    /// Houses of its that fell into civil disorder.
    pub disorders: u32,
    /// Games that ended with it in a seat.
    pub finished: u32,
}

impl PlayerRecord {
    /// Phases ordered in percent of phases due, rounded down; a newcomer with no phase
    /// due yet has nothing against them and counts as 100.
    pub fn reliability(&self) -> u8 {
        if self.due == 0 {
            return 100;
        }
        let percent = u64::from(self.ordered.min(self.due)) * 100 / u64::from(self.due);
        u8::try_from(percent).unwrap_or(100)
    }

    /// Whether the judge has seen this address play any phase yet.
    pub fn is_new(&self) -> bool {
        self.due == 0
    }
}

/// One thing the judge saw an address do in one game, as the store keeps it. Each is
/// kept under its game and phase, so counting it again (a tick killed and run again, a
/// phase rolled back and played again) writes the same entry, not a second one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordMark {
    /// A phase due: whether the address gave orders for it.
    Phase {
        ordered: bool,
    },
    Resigned,
    Disorder,
    Finished,
}

impl RecordMark {
    /// Adds this mark to a record.
    pub fn add_to(&self, record: &mut PlayerRecord) {
        match self {
            RecordMark::Phase { ordered } => {
                record.due += 1;
                record.ordered += u32::from(*ordered);
            }
            RecordMark::Resigned => record.resigned += 1,
            RecordMark::Disorder => record.disorders += 1,
            RecordMark::Finished => record.finished += 1,
        }
    }
}

/// The marks a processed phase leaves on the records of the addresses that played it,
/// read from the game as it was when the phase was processed: each seated player whose
/// house had something to decide owes the phase, and gave its orders unless it missed
/// it, was already in civil disorder, or the bot played it; each house that fell into
/// civil disorder marks its player.
pub fn phase_marks<R>(record: &PhaseRecord<R>) -> Vec<(Address, RecordMark)> {
    let before = &record.game_before;
    let mut marks = Vec::new();
    for seat in before.seats() {
        let Some(player) = seat.player().filter(|_| !seat.resigned()) else {
            continue;
        };
        let house = seat.house();
        if before.deciding().contains(house) {
            let ordered = !seat.civil_disorder()
                && !record.missed.contains(house)
                && !record.bots.contains(house);
            marks.push((player.address().clone(), RecordMark::Phase { ordered }));
        }
        if record.civil_disorder.contains(house) {
            marks.push((player.address().clone(), RecordMark::Disorder));
        }
    }
    marks
}

/// The marks an ended game leaves: a game finished for each player still seated.
pub fn finished_marks(game: &Game) -> Vec<Address> {
    game.seats()
        .iter()
        .filter(|s| !s.resigned())
        .filter_map(|s| s.player())
        .map(|p| p.address().clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reliability_is_ordered_over_due_and_a_newcomer_counts_as_full() {
        let mut r = PlayerRecord::default();
        assert_eq!(r.reliability(), 100);
        RecordMark::Phase { ordered: true }.add_to(&mut r);
        RecordMark::Phase { ordered: false }.add_to(&mut r);
        RecordMark::Phase { ordered: false }.add_to(&mut r);
        assert_eq!((r.due, r.ordered), (3, 1));
        assert_eq!(r.reliability(), 33);
    }
}
