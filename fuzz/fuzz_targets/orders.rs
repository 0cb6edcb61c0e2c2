//! The order parser on any text: it answers every line, and an order it reads reads the
//! same again from the text it quotes back and from the form the store keeps. The same
//! bytes also choose an order by its meaning, written one of the ways the language allows
//! (tests/support/spell.rs): it must read back as that order.
#![no_main]

#[path = "common.rs"]
mod common;
#[path = "../../tests/support/spell.rs"]
mod spell;

use std::sync::Arc;

use corbeau::lang::Lang;
use corbeau::map::scope;
use corbeau::order::{Order, parse_order, parse_orders};
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::with_variant(data, |variant, rest| {
        let text = String::from_utf8_lossy(rest);
        let source: Arc<str> = Arc::from("fuzz");
        let mut answered = 0;
        for (index, line) in text.lines().enumerate() {
            let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
            match parse_order(variant, &source, line_no, line) {
                Ok(None) => {}
                Ok(Some(order)) => {
                    answered += 1;
                    assert_eq!(order.span.line, line_no);
                    // The text quoted back is an order line that says the same.
                    let again = parse_order(variant, &source, 1, &order.text)
                        .unwrap_or_else(|e| panic!("{:?} quoted as {:?}: {e:?}", line, order.text))
                        .unwrap_or_else(|| panic!("{:?} quoted as nothing", line));
                    assert_eq!(
                        (&again.house, &again.unit, &again.action, &again.text),
                        (&order.house, &order.unit, &order.action, &order.text),
                        "{line:?}"
                    );
                    // The form a game keeps reads back as the same order.
                    let kept: Order = scope::within(variant, || {
                        let json = serde_json::to_string(&order).expect("an order serializes");
                        serde_json::from_str(&json).expect("a kept order reads back")
                    });
                    assert_eq!(
                        (
                            &kept.house,
                            &kept.unit,
                            &kept.action,
                            &kept.text,
                            kept.span.line
                        ),
                        (
                            &order.house,
                            &order.unit,
                            &order.action,
                            &order.text,
                            line_no
                        )
                    );
                }
                Err(error) => {
                    answered += 1;
                    assert_eq!(error.span().line, line_no);
                    assert!(!error.message(Lang::Fr).is_empty());
                    assert!(!error.message(Lang::En).is_empty());
                }
            }
        }
        // The whole text read at once answers the same lines.
        assert_eq!(parse_orders(variant, "fuzz", &text).len(), answered);

        let mut bytes = Unstructured::new(rest);
        let mut pick = |n: usize| bytes.choose_index(n).unwrap_or(0);
        let spelled = spell::spell(&mut spell::Choices::new(&mut pick), variant);
        let order = parse_order(variant, &source, 1, &spelled.line)
            .unwrap_or_else(|e| panic!("{:?}: {}", spelled.line, e.message(Lang::En)))
            .unwrap_or_else(|| panic!("{:?} read as nothing", spelled.line));
        assert_eq!(
            (&order.house, &order.unit, &order.action),
            (&spelled.house, &spelled.unit, &spelled.action),
            "{:?}",
            spelled.line
        );
    });
});
