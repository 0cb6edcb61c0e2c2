//! What became of each order, with its reason, so that results can explain themselves.

use crate::map::{Owner, ProvinceId, RegionId, UnitKind};

/// An order after its unit was found on the board and its names checked: what the judge
/// works on. Provinces, not regions, for supports and convoys: a support is to a province.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckedOrder {
    Hold,
    Move {
        to: RegionId,
        via_convoy: bool,
    },
    SupportHold {
        unit: ProvinceId,
    },
    /// `coast`: the coast the support names for a fleet's move, if any; it must then be the
    /// move's.
    SupportMove {
        unit: ProvinceId,
        to: ProvinceId,
        coast: Option<RegionId>,
    },
    Convoy {
        army: ProvinceId,
        to: ProvinceId,
    },
    Retreat {
        to: RegionId,
    },
    Disband,
    Build {
        kind: UnitKind,
        region: RegionId,
    },
    Waive,
}

/// Why an order cannot be followed at all: the unit holds (or, in a retreat, disbands).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// No unit of that description in that province.
    NoSuchUnit,
    /// The unit belongs to another house.
    NotYourUnit {
        owner: Owner,
    },
    /// Neutral units cannot be ordered.
    NeutralUnit,
    /// The written unit kind is not the kind of the unit there.
    WrongUnitKind {
        actual: UnitKind,
    },
    /// Two units fit the description.
    AmbiguousUnit,
    /// This kind of order does not belong to this phase.
    WrongPhase,
    /// Moving to its own province.
    MoveToOwnProvince,
    /// Not a neighbour, and no sea route a convoy could take.
    NotAdjacent,
    /// An army sent beyond its neighbours with no fleets on any sea route to carry it.
    NoFleetsOnRoute,
    /// An army cannot go to sea; a fleet cannot go inland.
    WrongTerrain,
    /// A multi-coast province needs its coast named.
    CoastNeeded,
    /// The named coast cannot be reached from here.
    CoastNotReachable,
    /// Dragons and fleets are never convoyed; `via convoi` is for armies.
    CannotBeConvoyed,
    /// Only fleets in a sea province convoy, and only armies.
    CannotConvoy,
    /// A unit cannot support itself.
    SupportSelf,
    /// The supporter could not move to the province it supports into.
    SupportOutOfReach,
    /// No unit stands in the supported province.
    NothingToSupport,
    /// Neutral units receive no support (seed 000 FAQ).
    SupportToNeutral,
    /// A convoy names a province with no army in it.
    NothingToConvoy,
    /// The convoy's route cannot pass through this fleet.
    ConvoyOutOfReach,
    /// Only dislodged units retreat, and not into the attacker's province, an occupied one
    /// or one left empty by a standoff.
    NotDislodged,
    RetreatToAttackerProvince,
    RetreatOccupied,
    RetreatContested,
    /// Builds: in an owned, unoccupied home centre, within the house's allowance.
    NotHomeCentre,
    CentreNotOwned,
    CentreOccupied,
    NoBuildAllowed,
    KindNotBuildable,
    NoDragonNameLeft,
    /// A disband when none is due, or of a unit that is not yours.
    NoDisbandDue,
    /// Another order was given later for the same unit.
    Replaced,
    /// A ford, while the weather closes the fords.
    FordClosed,
    /// A border only another house's units may cross.
    HouseBorder,
    /// A support along an arrow, which carries moves and retreats only.
    MoveOnlyBorder,
    /// A province closed for the whole game: nobody enters, supports into or builds there.
    ProvinceClosed,
    /// A retreat into a province another house's garrison holds.
    RetreatGarrisoned,
    /// The unit received two build or disband orders for the same province.
    Duplicate,
}

/// Why a legal order did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Equal or stronger moves into the same province: nobody enters.
    Standoff { with: Vec<ProvinceId> },
    /// The unit in the target province held against this attack.
    Defended { by: ProvinceId },
    /// Lost a head-to-head battle against the unit coming the other way.
    LostHeadToHead { against: ProvinceId },
    /// The attack would have dislodged a unit of the same house.
    WouldDislodgeOwnUnit,
    /// No chain of convoying fleets from here to there.
    NoConvoyRoute,
    /// Dislodged by the unit that came from this province.
    Dislodged { by: ProvinceId },
    /// The support was cut by an attack from this province.
    SupportCut { by: ProvinceId },
    /// The supported or convoyed unit was not ordered so.
    NotMatched,
    /// Two or more units retreated to the same province: all are disbanded.
    RetreatStandoff,
    /// More builds than centres allow, or more disbands than due.
    BeyondAllowance,
    /// A convoy paradox, broken by the Szykman rule: the convoyed army stays.
    ConvoyParadox,
}

/// The outcome of one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Failed(Failure),
    Illegal(Illegal),
}

impl Outcome {
    /// The order did what it asked.
    pub fn succeeded(&self) -> bool {
        matches!(self, Outcome::Succeeded)
    }
}

/// One order's line in the results: whose unit, what it was told, what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub owner: Owner,
    /// The unit's kind and where it stood (for a build: the unit built, and where); none
    /// for a waive, which is about no unit.
    pub unit: Option<(UnitKind, RegionId)>,
    pub command: CheckedOrder,
    pub outcome: Outcome,
    /// The order as the player wrote it, when there was one.
    pub text: Option<String>,
}

impl Failure {
    /// A stable code for templates and case files (`standoff`, `support-cut`).
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Standoff { .. } => "standoff",
            Failure::Defended { .. } => "defended",
            Failure::LostHeadToHead { .. } => "lost-head-to-head",
            Failure::WouldDislodgeOwnUnit => "would-dislodge-own-unit",
            Failure::NoConvoyRoute => "no-convoy-route",
            Failure::Dislodged { .. } => "dislodged",
            Failure::SupportCut { .. } => "support-cut",
            Failure::NotMatched => "not-matched",
            Failure::RetreatStandoff => "retreat-standoff",
            Failure::BeyondAllowance => "beyond-allowance",
            Failure::ConvoyParadox => "convoy-paradox",
        }
    }
}

impl Illegal {
    /// Why a border of a kind of its own refused a unit.
    pub fn of_barrier(barrier: crate::map::Barrier) -> Illegal {
        match barrier {
            crate::map::Barrier::FordClosed => Illegal::FordClosed,
            crate::map::Barrier::OtherHouse => Illegal::HouseBorder,
            crate::map::Barrier::MoveOnly => Illegal::MoveOnlyBorder,
        }
    }

    /// A stable code for templates and case files (`not-adjacent`, `coast-needed`).
    pub fn code(&self) -> &'static str {
        match self {
            Illegal::NoSuchUnit => "no-such-unit",
            Illegal::NotYourUnit { .. } => "not-your-unit",
            Illegal::NeutralUnit => "neutral-unit",
            Illegal::WrongUnitKind { .. } => "wrong-unit-kind",
            Illegal::AmbiguousUnit => "ambiguous-unit",
            Illegal::WrongPhase => "wrong-phase",
            Illegal::MoveToOwnProvince => "move-to-own-province",
            Illegal::NotAdjacent => "not-adjacent",
            Illegal::NoFleetsOnRoute => "no-fleets-on-route",
            Illegal::WrongTerrain => "wrong-terrain",
            Illegal::CoastNeeded => "coast-needed",
            Illegal::CoastNotReachable => "coast-not-reachable",
            Illegal::CannotBeConvoyed => "cannot-be-convoyed",
            Illegal::CannotConvoy => "cannot-convoy",
            Illegal::SupportSelf => "support-self",
            Illegal::SupportOutOfReach => "support-out-of-reach",
            Illegal::NothingToSupport => "nothing-to-support",
            Illegal::SupportToNeutral => "support-to-neutral",
            Illegal::NothingToConvoy => "nothing-to-convoy",
            Illegal::ConvoyOutOfReach => "convoy-out-of-reach",
            Illegal::NotDislodged => "not-dislodged",
            Illegal::RetreatToAttackerProvince => "retreat-to-attacker-province",
            Illegal::RetreatOccupied => "retreat-occupied",
            Illegal::RetreatContested => "retreat-contested",
            Illegal::NotHomeCentre => "not-home-centre",
            Illegal::CentreNotOwned => "centre-not-owned",
            Illegal::CentreOccupied => "centre-occupied",
            Illegal::NoBuildAllowed => "no-build-allowed",
            Illegal::KindNotBuildable => "kind-not-buildable",
            Illegal::NoDragonNameLeft => "no-dragon-name-left",
            Illegal::NoDisbandDue => "no-disband-due",
            Illegal::Replaced => "replaced",
            Illegal::FordClosed => "ford-closed",
            Illegal::HouseBorder => "house-border",
            Illegal::MoveOnlyBorder => "move-only-border",
            Illegal::ProvinceClosed => "province-closed",
            Illegal::RetreatGarrisoned => "retreat-garrisoned",
            Illegal::Duplicate => "duplicate",
        }
    }
}

impl Outcome {
    /// `succeeded`, a failure code, or `illegal:<code>`.
    pub fn code(&self) -> String {
        match self {
            Outcome::Succeeded => "succeeded".to_string(),
            Outcome::Failed(f) => f.code().to_string(),
            Outcome::Illegal(i) => format!("illegal:{}", i.code()),
        }
    }
}
