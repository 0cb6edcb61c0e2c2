//! Variant files as `--variant FILE` reads them: a variant that loads has a starting
//! position, which adjudicates with no orders, every unit holding; a variant that loads
//! with a `[drawing]` draws its starting position.
#![no_main]

use corbeau::draw::{Picture, svg};
use corbeau::judge::{Outcome, Position, adjudicate};
use corbeau::lang::Lang;
use corbeau::map::parse_variant;
use corbeau::position::{check_storable, write_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let variant = match parse_variant("fuzz.toml", &text) {
        Ok(variant) => variant,
        Err(error) => {
            assert!(!error.message(Lang::Fr).is_empty());
            assert!(!error.message(Lang::En).is_empty());
            return;
        }
    };
    let _ = check_storable("fuzz.toml", &variant);
    let Some(start) = Position::starting(&variant, None) else {
        return;
    };
    let _ = write_position(&variant, &start);
    let adjudication = adjudicate(&variant, &start, &[]);
    for unit in &start.units {
        let reports = adjudication
            .reports
            .iter()
            .filter(|(_, r)| r.unit == Some((unit.kind, unit.region)))
            .count();
        assert_eq!(reports, 1, "{unit:?}");
    }
    for (_, report) in &adjudication.reports {
        assert_eq!(report.outcome, Outcome::Succeeded, "{report:?}");
    }
    if variant.drawing.is_some() {
        let picture = Picture {
            variant: &variant,
            position: &start,
            orders: &[],
            played: None,
            title: &variant.name,
            lang: Lang::En,
        };
        let document = svg(&picture).expect("a variant that loads with a drawing draws");
        assert!(document.trim_end().ends_with("</svg>"));
    }
});
