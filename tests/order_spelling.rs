//! The order language read from the meaning side: an order chosen at random (house, unit,
//! instruction, on Westeros or the classic map), written in one of the ways
//! grammar/orders.ebnf allows, reads back as that very order. The fuzz target `orders`
//! runs the same check from libFuzzer's inputs (fuzz/, docs/testing.md).

#![allow(clippy::unwrap_used)]

#[path = "support/spell.rs"]
mod spell;

use std::sync::{Arc, LazyLock};

use corbeau::map::{Variant, load_variant};
use corbeau::order::parse_order;
use proptest::prelude::*;
use spell::{Choices, spell};

static VARIANTS: LazyLock<[Variant; 2]> = LazyLock::new(|| {
    [
        load_variant("westeros").unwrap(),
        load_variant("classique").unwrap(),
    ]
});

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn an_order_written_any_way_reads_back_as_itself(
        map in 0usize..2,
        picks in proptest::collection::vec(any::<u16>(), 40),
    ) {
        let variant = &VARIANTS[map];
        let mut next = picks.into_iter().cycle();
        let mut pick = |_n: usize| usize::from(next.next().unwrap_or(0));
        let spelled = spell(&mut Choices::new(&mut pick), variant);
        let source: Arc<str> = Arc::from("test");
        let order = parse_order(variant, &source, 1, &spelled.line)
            .unwrap_or_else(|e| panic!("{:?} on {}: {}", spelled.line, variant.id, e.message(corbeau::lang::Lang::En)))
            .unwrap_or_else(|| panic!("{:?} read as nothing", spelled.line));
        prop_assert_eq!(
            (&order.house, &order.unit, &order.action),
            (&spelled.house, &spelled.unit, &spelled.action),
            "{:?} on {}", spelled.line, variant.id
        );
    }
}
