//! Every case file under tests/datc (the DATC, converted) and tests/variant (corbeau's own
//! cases for Westeros) must pass; each failure names its file, line, case and order.

use std::path::Path;

use corbeau::case::{CaseStatus, VariantCache, read_cases, run_case};

fn run_dir(dir: &str) -> (usize, usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir);
    let mut cache = VariantCache::default();
    let (mut passed, mut skipped, mut failures) = (0, 0, Vec::new());
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("case file");
        let name = format!(
            "tests/{dir}/{}",
            file.file_name().expect("name").to_string_lossy()
        );
        let cases = read_cases(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        for case in &cases {
            match run_case(&mut cache, case).status {
                CaseStatus::Passed => passed += 1,
                CaseStatus::Skipped(_) => skipped += 1,
                CaseStatus::Failed(problems) => failures.extend(problems),
            }
        }
    }
    (passed, skipped, failures)
}

fn assert_dir(dir: &str, at_least: usize) {
    let (passed, skipped, failures) = run_dir(dir);
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        passed >= at_least,
        "only {passed} cases passed in tests/{dir} ({skipped} skipped)"
    );
}

#[test]
fn datc_cases_pass_on_classique() {
    assert_dir("datc", 320);
}

#[test]
fn westeros_cases_pass() {
    assert_dir("variant", 1);
}

/// The project's v3.0 copy runs every case: the edition variants (1971, 1982, DPTG rules)
/// each under its own rules (a `rules` line), none left out.
#[test]
fn the_v3_copy_runs_every_case() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datc/datc-v3.0.case");
    let text = std::fs::read_to_string(&path).expect("v3.0 copy");
    let cases = read_cases("tests/datc/datc-v3.0.case", &text).expect("cases");
    let skipped: Vec<String> = cases
        .iter()
        .filter_map(|c| c.skip.as_ref().map(|why| format!("{}: {why}", c.id)))
        .collect();
    assert!(skipped.is_empty(), "skipped: {skipped:?}");
    for (id, rules) in [
        ("6.G.2-1971", "1971"),
        ("6.G.2-1982", "1982"),
        ("6.G.4-1971", "1971"),
        ("6.G.4-1982", "1982"),
        ("6.G.7-1971", "1971"),
        ("6.G.7-dptg", "dptg"),
        ("6.G.19-1971", "1971"),
        ("6.J.11-1971", "1971"),
    ] {
        let case = cases
            .iter()
            .find(|c| c.id == id)
            .expect("edition case present");
        assert_eq!(case.rules.code(), rules, "{id}");
        let mut cache = VariantCache::default();
        assert_eq!(
            run_case(&mut cache, case).status,
            CaseStatus::Passed,
            "{id}"
        );
    }
    for id in ["6.H.1", "6.H.2", "6.H.3"] {
        let case = cases.iter().find(|c| c.id == id).expect("case present");
        // Completed from the DATC v2.4 facts: a retreat phase with the illegal order in it.
        assert_eq!(case.steps.len(), 2, "{id}");
        assert!(
            case.steps[1]
                .iter()
                .any(|o| o.text.contains("supports") || o.text.contains("convoys")),
            "{id}: the retreat-phase support or convoy is missing"
        );
        let mut cache = VariantCache::default();
        assert_eq!(
            run_case(&mut cache, case).status,
            CaseStatus::Passed,
            "{id}"
        );
    }
}
