//! A house's orders for the phase being played: reading a submitted set, replacing all of
//! them or only those of the units it names, and handing them to the judge.

use std::sync::Arc;

use crate::judge::{GivenOrder, Illegal, Position, not_yours};
use crate::map::{HouseId, Owner, ProvinceId, Variant, fold, scope};
use crate::order::{Expectation, Instruction, Order, OrderError, parse_order};

use super::GameError;
use super::conditional::{BlockProblem, ConditionNote};
use super::model::{StoredOrder, SubmitMode};

/// Order lines as received, each with its number in what the player sent (the mail's own
/// line, so that a refusal and the stored order point where the player wrote it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrderLines {
    lines: Vec<(usize, String)>,
}

impl OrderLines {
    /// The lines of a text, numbered from 1 (a file, a moderator's command).
    pub fn numbered(text: &str) -> OrderLines {
        OrderLines {
            lines: text
                .lines()
                .enumerate()
                .map(|(i, line)| (i + 1, line.to_string()))
                .collect(),
        }
    }

    /// Lines picked out of a mail, with their numbers in it.
    pub fn picked(lines: Vec<(usize, String)>) -> OrderLines {
        OrderLines { lines }
    }

    /// The lines as one text, as the phase's history keeps a submission.
    pub fn text(&self) -> String {
        self.lines.iter().map(|(_, t)| format!("{t}\n")).collect()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The lines with their numbers, as received.
    pub fn lines(&self) -> &[(usize, String)] {
        &self.lines
    }
}

/// Why one line of a submitted order set was refused, with the line as written and its
/// number in what the player sent.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderProblem {
    pub line: usize,
    pub text: String,
    kind: OrderProblemKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OrderProblemKind {
    /// Not an order: the parser's error, with its column.
    Unreadable(OrderError),
    /// `Stark: A win H` sent by another house: the house written, the sender's.
    OtherHouse { written: String, sender: String },
    /// An order for a unit of another house (its name) or a neutral one (none): never
    /// stored, so that it can neither replace nor stand for its owner's (DATC 6.A.6).
    NotYourUnit {
        owner: Option<String>,
        sender: String,
    },
    /// An `IF` block set aside, its lines from `line` to `last`.
    Block { last: usize, problem: BlockProblem },
}

impl OrderProblem {
    /// Why the line was refused (worded by `report`).
    pub fn kind(&self) -> &OrderProblemKind {
        &self.kind
    }

    /// The problem a block set aside makes, if the note is one.
    fn of_block(note: &ConditionNote) -> Option<OrderProblem> {
        match note {
            ConditionNote::Refused {
                first,
                last,
                text,
                problem,
            } => Some(OrderProblem {
                line: *first,
                text: text.clone(),
                kind: OrderProblemKind::Block {
                    last: *last,
                    problem: problem.clone(),
                },
            }),
            ConditionNote::Read { .. } => None,
        }
    }
}

/// Reads a submitted order set for `house`. Any line that is not an order, or that orders
/// a unit the house does not own, refuses the whole set, so that a typo never leaves a
/// house with half its orders and no order for another house's unit is ever stored. The
/// `IF` blocks of the set are resolved on `position` first; here, a block set aside
/// refuses the set too (a caller that tells the player what became of each block reads
/// the set with [`read_submission_noted`], which keeps the other orders).
pub fn read_submission(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    lines: &OrderLines,
) -> Result<Vec<StoredOrder>, GameError> {
    let read = read_submission_noted(variant, position, house, lines)?;
    let refused: Vec<OrderProblem> = read
        .conditions
        .iter()
        .filter_map(OrderProblem::of_block)
        .collect();
    if refused.is_empty() {
        Ok(read.orders)
    } else {
        Err(GameError::OrdersRefused(refused))
    }
}

/// A set read: the orders kept, and what became of each of its `IF` blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadOrders {
    pub orders: Vec<StoredOrder>,
    pub conditions: Vec<ConditionNote>,
}

/// Reads a submitted order set as [`read_submission`] does, except that an `IF` block
/// that cannot be read (a missing `ENDIF`, an unknown word in its condition) is set aside
/// alone: its orders are not taken, the note says why, and the other orders are kept. An
/// unreadable order in a branch taken refuses the set as any order does; the blocks set
/// aside are then listed with the lines at fault.
pub fn read_submission_noted(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    lines: &OrderLines,
) -> Result<ReadOrders, GameError> {
    let resolved = super::conditional::resolve(variant, position, &lines.lines);
    // Unnamed, as an order read back from the store is: no message shows the source.
    let source: Arc<str> = Arc::from("");
    let sender = variant.house(house).name.clone();
    let mut orders = Vec::new();
    let mut problems = Vec::new();
    for &(number, ref line) in &resolved.lines {
        let line_no = u32::try_from(number).unwrap_or(u32::MAX);
        if is_own_header(variant, house, line) {
            continue;
        }
        let problem = |kind| OrderProblem {
            line: number,
            text: line.trim().to_string(),
            kind,
        };
        match parse_order(variant, &source, line_no, line) {
            Ok(None) => {}
            Ok(Some(order)) => match written_house(variant, &order) {
                Some(Owner::House(h)) if h != house => {
                    problems.push(problem(OrderProblemKind::OtherHouse {
                        written: variant.house(h).name.clone(),
                        sender: sender.clone(),
                    }))
                }
                _ => match not_yours(variant, position, house, &order) {
                    Some(illegal) => problems.push(problem(OrderProblemKind::NotYourUnit {
                        owner: match illegal {
                            Illegal::NotYourUnit {
                                owner: Owner::House(h),
                            } => Some(variant.house(h).name.clone()),
                            _ => None,
                        },
                        sender: sender.clone(),
                    })),
                    None => orders.push(StoredOrder {
                        unit: unit_key(variant, position, &order),
                        order,
                    }),
                },
            },
            Err(e) => problems.push(problem(OrderProblemKind::Unreadable(e))),
        }
    }
    if problems.is_empty() {
        Ok(ReadOrders {
            orders,
            conditions: resolved.notes,
        })
    } else {
        problems.extend(resolved.notes.iter().filter_map(OrderProblem::of_block));
        problems.sort_by_key(|p| p.line);
        Err(GameError::OrdersRefused(problems))
    }
}

/// Whether an unreadable line reads as prose ("Merci !", "Bonne journée", "A bientôt")
/// rather than as a mistyped order: the parser stopped within its first two words without
/// reading a unit, and it has no arrow. A readable order is never prose.
pub fn looks_like_prose(variant: &Variant, line: &str) -> bool {
    let source: Arc<str> = Arc::from("");
    // `ENDIF` alone at the end of a set closes a block: no courtesy.
    if super::conditional::is_block_line(line) {
        return false;
    }
    let error = match parse_order(variant, &source, 1, line) {
        Ok(_) => return false,
        Err(e) => e,
    };
    if line.contains("->") {
        return false;
    }
    // The unit was read: what follows is a mistyped order verb or destination.
    if let OrderError::Expected { expected, .. } = &error
        && matches!(
            expected,
            Expectation::Verb | Expectation::Arrow | Expectation::Coast | Expectation::CloseParen
        )
    {
        return false;
    }
    let column = error.span().column as usize;
    let mut starts = Vec::new();
    let mut previous_blank = true;
    for (i, c) in line.chars().enumerate() {
        if !c.is_whitespace() && previous_blank {
            starts.push(i + 1);
        }
        previous_blank = c.is_whitespace();
    }
    starts.get(2).is_none_or(|&third| column < third)
}

/// `Stark:` alone on a line, naming the house that sends the orders.
fn is_own_header(variant: &Variant, house: HouseId, line: &str) -> bool {
    let trimmed = line.split('#').next().unwrap_or("").trim();
    trimmed.strip_suffix(':').is_some_and(|name| {
        crate::position::house_named(variant, name.trim()) == Some(Owner::House(house))
    })
}

fn written_house(variant: &Variant, order: &Order) -> Option<Owner> {
    order
        .house
        .as_deref()
        .and_then(|h| crate::position::house_named(variant, h))
}

/// The province of the unit an order is for: where the order says it stands, or where the
/// dragon it names is; a waive has none.
pub(super) fn unit_key(
    variant: &Variant,
    position: &Position,
    order: &Order,
) -> Option<ProvinceId> {
    if matches!(order.action, Instruction::Waive) {
        return None;
    }
    match (order.unit.at, &order.unit.name) {
        (Some(at), _) => Some(at.province),
        (None, Some(name)) => position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .find(|u| u.name.as_deref().is_some_and(|n| fold(n) == fold(name)))
            .map(|u| variant.province_of(u.region)),
        (None, None) => None,
    }
}

/// The house's orders after a submission: all replaced, or only those of the units named
/// (orders without a unit, such as waives, are then added).
pub(super) fn merge(
    current: &[StoredOrder],
    new: Vec<StoredOrder>,
    mode: SubmitMode,
) -> Vec<StoredOrder> {
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

/// The stored orders of a house, for the judge: as they were parsed when received.
pub(super) fn given_orders(house: HouseId, orders: &[StoredOrder]) -> Vec<GivenOrder> {
    orders
        .iter()
        .map(|o| GivenOrder {
            house: Some(house),
            order: o.order.clone(),
        })
        .collect()
}

/// An order a game stored as text before orders were kept parsed, read with the variant
/// of the store's scope. Such a text was read when it was received, with the same
/// variant (the game's is pinned): a failure is a damaged store.
pub(super) fn read_stored_text(text: &str) -> Result<Order, String> {
    let variant = scope::current().ok_or(scope::NO_SCOPE)?;
    let source: Arc<str> = Arc::from("");
    match parse_order(&variant, &source, 1, text) {
        Ok(Some(order)) => Ok(order),
        Ok(None) => Err(format!("a stored order is empty: {text:?}")),
        Err(e) => Err(format!("a stored order no longer reads: {text:?}: {e:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(unit: Option<u16>, text: &str) -> StoredOrder {
        let variant = crate::map::load_variant("westeros").expect("westeros");
        let source: Arc<str> = Arc::from("");
        StoredOrder {
            unit: unit.map(ProvinceId),
            order: parse_order(&variant, &source, 1, text)
                .expect("an order")
                .expect("not empty"),
        }
    }

    /// Courtesies are set aside; anything that may be a mistyped order is not.
    #[test]
    fn prose_is_told_from_mistyped_orders() {
        let variant = crate::map::load_variant("westeros").expect("westeros");
        let prose = [
            "Merci !",
            "Merci beaucoup",
            "Bonne journée à tous",
            "A bientôt",
            "A demain, bonne soirée",
            "Cordialement, Arya",
            "Thanks!",
            "Salut",
        ];
        for line in prose {
            assert!(looks_like_prose(&variant, line), "{line}");
        }
        let orders = [
            "A win -> cno",
            "Win H",
            "A moa tien",
            "A win -> Port-Réel",
            "Wimterfell -> cno",
            "A bla bla bla",
            "A win soutient A moa -> Nerra",
        ];
        for line in orders {
            assert!(!looks_like_prose(&variant, line), "{line}");
        }
    }

    /// An order for a unit of another house or a neutral one refuses the set, with the
    /// line quoted and the owner named; the house's own orders pass.
    #[test]
    fn orders_for_units_the_house_does_not_own_are_refused() {
        let variant = crate::map::load_variant("westeros").expect("westeros");
        let position = Position::starting(&variant, Some(3)).expect("3 players");
        let baratheon = variant.house_by_name("baratheon").expect("baratheon");
        let read = |text: &str| {
            read_submission(&variant, &position, baratheon, &OrderLines::numbered(text))
        };
        assert!(read("A boi -> prt\nF acc H\n").is_ok());
        let Err(GameError::OrdersRefused(problems)) = read("A boi -> prt\nA win H\nA prt H\n")
        else {
            panic!("refused");
        };
        let found: Vec<(usize, &str, &OrderProblemKind)> = problems
            .iter()
            .map(|p| (p.line, p.text.as_str(), p.kind()))
            .collect();
        let not_yours = |owner: Option<&str>| OrderProblemKind::NotYourUnit {
            owner: owner.map(str::to_string),
            sender: "Baratheon".into(),
        };
        assert_eq!(
            found,
            vec![
                (2, "A win H", &not_yours(Some("Stark"))),
                (3, "A prt H", &not_yours(None)),
            ]
        );
        // Lines picked out of a mail keep the mail's numbers, in the refusal and in the
        // orders kept.
        let picked = OrderLines::picked(vec![(7, "A win H".into()), (9, "A boi -> prt".into())]);
        let Err(GameError::OrdersRefused(problems)) =
            read_submission(&variant, &position, baratheon, &picked)
        else {
            panic!("refused");
        };
        assert_eq!(problems[0].line, 7);
        let picked = OrderLines::picked(vec![(4, "F acc H".into()), (9, "A boi -> prt".into())]);
        let kept = read_submission(&variant, &position, baratheon, &picked)
            .expect("Baratheon's own units");
        let lines: Vec<u32> = kept.iter().map(|o| o.order.span.line).collect();
        assert_eq!(lines, vec![4, 9]);
    }

    #[test]
    fn partial_resubmission_replaces_only_the_units_named() {
        let current = vec![stored(Some(1), "A win H"), stored(Some(2), "A moa H")];
        let new = vec![stored(Some(2), "A moa -> cno")];
        let merged = merge(&current, new, SubmitMode::Partial);
        assert_eq!(
            merged,
            vec![stored(Some(1), "A win H"), stored(Some(2), "A moa -> cno")]
        );
        let replaced = merge(
            &merged,
            vec![stored(Some(1), "A win -> cno")],
            SubmitMode::Replace,
        );
        assert_eq!(replaced, vec![stored(Some(1), "A win -> cno")]);
    }
}
