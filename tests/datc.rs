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
