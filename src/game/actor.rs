//! Who asks a game for a change: the rules of [`super::Game::may`] are written against it.

/// The one on whose behalf an action is taken, once the edge (mail, command line, clock)
/// has established it: a sign-on's secret, the shell's owner, the judge's own clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// The game's moderator (signed on by mail, or the store's owner at the shell).
    Moderator,
    /// The player of this house (its id), signed on.
    House(super::HouseKey),
    /// Someone who observes the game, at this address.
    Observer(super::Address),
    /// An address that is none of the above: it may only ask to observe.
    Stranger(super::Address),
    /// The judge itself: deadlines, reminders, delivery failures.
    Judge,
}

impl Actor {
    /// The audit trail's name for the actor (`moderator`, `judge`, `house:<id>`, the
    /// address of an observer or a stranger).
    pub fn audit_name(&self) -> String {
        match self {
            Actor::Moderator => "moderator".into(),
            Actor::House(house) => format!("house:{house}"),
            Actor::Observer(address) | Actor::Stranger(address) => address.to_string(),
            Actor::Judge => "judge".into(),
        }
    }
}
