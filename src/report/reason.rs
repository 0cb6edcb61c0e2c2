//! Outcomes as data: the status, the judge's stable code, and the provinces, house or unit
//! kind that the reason names, so that templates can word "standoff with Néra (ner)".

use crate::judge::{Failure, Illegal, Outcome};
use crate::map::{ProvinceId, Variant};

use super::describe::{owner_ref, province_place};
use crate::game::results::{OutcomeView, Status};

/// The view of one order's outcome.
pub fn outcome_view(variant: &Variant, outcome: &Outcome) -> OutcomeView {
    match outcome {
        Outcome::Succeeded => OutcomeView {
            status: Status::Succeeded,
            code: outcome.code(),
            reason: None,
            provinces: Vec::new(),
            house: None,
            kind: None,
        },
        Outcome::Failed(failure) => OutcomeView {
            status: Status::Failed,
            code: outcome.code(),
            reason: Some(failure.code().to_string()),
            provinces: places(variant, failure_provinces(failure)),
            house: None,
            kind: None,
        },
        Outcome::Illegal(illegal) => illegal_view(variant, illegal),
    }
}

/// The view of an illegal order's reason.
pub fn illegal_view(variant: &Variant, illegal: &Illegal) -> OutcomeView {
    let (house, kind) = match illegal {
        Illegal::NotYourUnit { owner } => (owner_ref(variant, *owner), None),
        Illegal::WrongUnitKind { actual } => (None, Some(*actual)),
        _ => (None, None),
    };
    OutcomeView {
        status: Status::Illegal,
        code: Outcome::Illegal(illegal.clone()).code(),
        reason: Some(illegal.code().to_string()),
        provinces: Vec::new(),
        house,
        kind,
    }
}

/// The provinces a failure names, in the judge's order.
fn failure_provinces(failure: &Failure) -> Vec<ProvinceId> {
    match failure {
        Failure::Standoff { with } => with.clone(),
        Failure::Defended { by } | Failure::Dislodged { by } | Failure::SupportCut { by } => {
            vec![*by]
        }
        Failure::LostHeadToHead { against } => vec![*against],
        Failure::WouldDislodgeOwnUnit
        | Failure::NoConvoyRoute
        | Failure::NotMatched
        | Failure::RetreatStandoff
        | Failure::BeyondAllowance
        | Failure::ConvoyParadox => Vec::new(),
    }
}

fn places(variant: &Variant, provinces: Vec<ProvinceId>) -> Vec<crate::game::results::Place> {
    provinces
        .into_iter()
        .map(|p| province_place(variant, p))
        .collect()
}
