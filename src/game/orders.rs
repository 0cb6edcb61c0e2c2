//! A house's orders for the phase being played: reading a submitted set, replacing all of
//! them or only those of the units it names, and handing them to the judge.

use std::sync::Arc;

use crate::judge::{GivenOrder, Position};
use crate::lang::Lang;
use crate::map::{HouseId, Owner, Variant, fold};
use crate::order::{Action, Order, parse_order};

use super::GameError;
use super::model::{StoredOrder, SubmitMode};

/// Reads a submitted order set for `house`. Any line that is not an order refuses the
/// whole set, so that a typo never leaves a house with half its orders.
pub fn read_submission(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    text: &str,
    lang: Lang,
) -> Result<Vec<StoredOrder>, GameError> {
    let source: Arc<str> = Arc::from(lang.pick("ordres", "orders"));
    let mut orders = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if is_own_header(variant, house, line) {
            continue;
        }
        match parse_order(variant, &source, line_no, line) {
            Ok(None) => {}
            Ok(Some(order)) => match written_house(variant, &order) {
                Some(Owner::House(h)) if h != house => errors.push(match lang {
                    Lang::Fr => format!(
                        "{}:{line_no}: « {} » est un ordre pour la maison {}, pas pour {}",
                        source,
                        order.text,
                        variant.house(h).name,
                        variant.house(house).name
                    ),
                    Lang::En => format!(
                        "{}:{line_no}: `{}` is an order for house {}, not {}",
                        source,
                        order.text,
                        variant.house(h).name,
                        variant.house(house).name
                    ),
                }),
                _ => orders.push(StoredOrder {
                    unit: unit_key(variant, position, &order),
                    text: order.text.clone(),
                }),
            },
            Err(e) => errors.push(e.message(lang)),
        }
    }
    if errors.is_empty() {
        Ok(orders)
    } else {
        Err(GameError::OrdersRefused(errors))
    }
}

/// `Stark:` alone on a line, naming the house that sends the orders.
fn is_own_header(variant: &Variant, house: HouseId, line: &str) -> bool {
    let trimmed = line.split('#').next().unwrap_or("").trim();
    trimmed.strip_suffix(':').is_some_and(|name| {
        crate::case::house_named(variant, name.trim()) == Some(Owner::House(house))
    })
}

fn written_house(variant: &Variant, order: &Order) -> Option<Owner> {
    order
        .house
        .as_deref()
        .and_then(|h| crate::case::house_named(variant, h))
}

/// The province of the unit an order is for: where the order says it stands, or where the
/// dragon it names is; a waive has none.
fn unit_key(variant: &Variant, position: &Position, order: &Order) -> Option<String> {
    if matches!(order.action, Action::Waive) {
        return None;
    }
    let province = match (order.unit.at, &order.unit.name) {
        (Some(at), _) => Some(at.province),
        (None, Some(name)) => position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .find(|u| u.name.as_deref().is_some_and(|n| fold(n) == fold(name)))
            .map(|u| variant.province_of(u.region)),
        (None, None) => None,
    };
    province.map(|p| variant.province(p).id.clone())
}

/// The house's orders after a submission: all replaced, or only those of the units named
/// (orders without a unit, such as waives, are then added).
pub fn merge(current: &[StoredOrder], new: Vec<StoredOrder>, mode: SubmitMode) -> Vec<StoredOrder> {
    match mode {
        SubmitMode::Replace => new,
        SubmitMode::Partial => {
            let mut merged: Vec<StoredOrder> = current
                .iter()
                .filter(|old| {
                    old.unit.is_none()
                        || !new.iter().any(|n| n.unit.is_some() && n.unit == old.unit)
                })
                .cloned()
                .collect();
            merged.extend(new);
            merged
        }
    }
}

/// The stored orders of a house, read again for the judge. They were read once at
/// submission, so a line that no longer parses (a variant file changed since) is dropped.
pub fn given_orders(variant: &Variant, house: HouseId, orders: &[StoredOrder]) -> Vec<GivenOrder> {
    let source: Arc<str> = Arc::from(variant.house(house).id.as_str());
    orders
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
            parse_order(variant, &source, line, &o.text).ok().flatten()
        })
        .map(|order| GivenOrder {
            house: Some(house),
            order,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(unit: Option<&str>, text: &str) -> StoredOrder {
        StoredOrder {
            unit: unit.map(str::to_string),
            text: text.to_string(),
        }
    }

    #[test]
    fn partial_resubmission_replaces_only_the_units_named() {
        let current = vec![
            stored(Some("win"), "A win H"),
            stored(Some("ner"), "A ner H"),
        ];
        let new = vec![stored(Some("ner"), "A ner -> som")];
        let merged = merge(&current, new, SubmitMode::Partial);
        assert_eq!(
            merged,
            vec![
                stored(Some("win"), "A win H"),
                stored(Some("ner"), "A ner -> som")
            ]
        );
        let replaced = merge(
            &merged,
            vec![stored(Some("win"), "A win -> ner")],
            SubmitMode::Replace,
        );
        assert_eq!(replaced, vec![stored(Some("win"), "A win -> ner")]);
    }
}
