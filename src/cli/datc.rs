//! `corbeau datc`: run DATC-style case files, print each verdict and `N passed, M failed`;
//! with `--repeat`, time the adjudication alone. `corbeau datc-convert` writes the
//! project's own copies of the DATC cases.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::case::{
    Case, CaseStatus, CaseStep, V3_DIFFERENCES, VariantCache, case_steps, convert_datc_json,
    read_cases, read_jdip, run_case, write_cases,
};
use crate::judge::{Edition, adjudicate_under};
use crate::map::Variant;

use super::{Error, read_input};

#[derive(Debug, clap::Args)]
pub(super) struct DatcArgs {
    /// Case files: the jDip DATC text format or the project's .case format.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Adjudicate every case this many times and print the adjudication speed.
    #[arg(long, value_name = "R")]
    repeat: Option<u32>,
    /// Do not compare with the expected outcomes (for generated benchmark inputs).
    #[arg(long)]
    no_check: bool,
    /// Only failures and the summary: the global `-q`.
    #[arg(skip)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub(super) struct ConvertArgs {
    /// The DATC v2.4 file in the jDip text format.
    #[arg(long)]
    v24: PathBuf,
    /// The DATC v3.0 outcomes as JSON.
    #[arg(long)]
    v30: PathBuf,
    /// Where to write datc-v2.4.case and datc-v3.0.case.
    #[arg(long, default_value = "tests/datc")]
    out: PathBuf,
}

/// Reads a case file in either format.
fn load_cases(cache: &mut VariantCache, path: &std::path::Path) -> Result<Vec<Case>, Error> {
    let text = read_input(path, super::language(None))?;
    let name = path.display().to_string();
    let jdip = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("VARIANT_ALL") || l.starts_with("CASE"));
    let cases = if jdip {
        read_jdip(cache, &name, &text)
    } else {
        read_cases(&name, &text)
    };
    cases.map_err(Error::Input)
}

pub(super) fn run(args: DatcArgs) -> Result<(), Error> {
    let mut cache = VariantCache::default();
    let mut cases = Vec::new();
    for path in &args.files {
        cases.extend(load_cases(&mut cache, path)?);
    }
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    // Without checks, each case is read once: the steps adjudicated for the verdict are
    // the ones the benchmark times again (as the peer harness does).
    let mut prepared: Vec<(Arc<Variant>, Edition, CaseStep)> =
        Vec::with_capacity(if args.repeat.is_some() {
            cases.len()
        } else {
            0
        });
    for case in &cases {
        let verdict = if args.no_check {
            let status = match case_steps(&mut cache, case) {
                Ok((variant, steps)) => {
                    for (position, given) in &steps {
                        std::hint::black_box(adjudicate_under(
                            &variant, position, given, case.rules,
                        ));
                    }
                    if args.repeat.is_some() && case.skip.is_none() {
                        prepared
                            .extend(steps.into_iter().map(|s| (variant.clone(), case.rules, s)));
                    }
                    CaseStatus::Passed
                }
                Err(e) => CaseStatus::Failed(vec![e]),
            };
            crate::case::CaseVerdict {
                id: case.id.clone(),
                file: case.file.clone(),
                line: case.line,
                status,
            }
        } else {
            run_case(&mut cache, case)
        };
        match verdict.status {
            CaseStatus::Passed => {
                passed += 1;
                if !args.quiet {
                    outln!("{} passed", verdict.id);
                }
            }
            CaseStatus::Skipped(reason) => {
                skipped += 1;
                if !args.quiet {
                    outln!("{} skipped: {reason}", verdict.id);
                }
            }
            CaseStatus::Failed(problems) => {
                let difference = V3_DIFFERENCES.iter().find(|(id, _)| {
                    *id == verdict.id && case.sources.iter().any(|s| s.starts_with("DATC v2.4"))
                });
                match difference {
                    Some((_, why)) => {
                        skipped += 1;
                        if !args.quiet {
                            outln!(
                                "{} differs from DATC v3.0, which corbeau follows: {why}",
                                verdict.id
                            );
                        }
                    }
                    None => {
                        failed += 1;
                        outln!("{} FAILED", verdict.id);
                        for p in problems {
                            outln!("    {p}");
                        }
                    }
                }
            }
        }
    }
    if let Some(times) = args.repeat {
        if !args.no_check {
            prepared = prepare(&mut cache, &cases);
        }
        benchmark(&prepared, times.max(1));
    }
    outln!("{passed} passed, {failed} failed, {skipped} skipped");
    // The process ends here: freeing thousands of cases one by one would only cost time
    // (a tenth of a batch run).
    std::mem::forget(prepared);
    std::mem::forget(cases);
    if failed > 0 {
        return Err(Error::Reported(format!("{failed} case(s) failed")));
    }
    Ok(())
}

/// Every phase of every case that is run, parsed, with its variant.
fn prepare(cache: &mut VariantCache, cases: &[Case]) -> Vec<(Arc<Variant>, Edition, CaseStep)> {
    let mut prepared = Vec::new();
    for case in cases.iter().filter(|c| c.skip.is_none()) {
        if let Ok((variant, steps)) = case_steps(cache, case) {
            for step in steps {
                prepared.push((variant.clone(), case.rules, step));
            }
        }
    }
    prepared
}

/// Adjudicates every prepared phase `times` times; parsing is done once, outside the
/// timing.
fn benchmark(prepared: &[(Arc<Variant>, Edition, CaseStep)], times: u32) {
    let orders: usize = prepared.iter().map(|(_, _, (_, o))| o.len()).sum();
    let units: usize = prepared
        .iter()
        .map(|(_, _, (p, _))| p.units.len() + p.dislodged.len())
        .sum();
    let start = Instant::now();
    for _ in 0..times {
        for (variant, rules, (position, given)) in prepared {
            std::hint::black_box(adjudicate_under(variant, position, given, *rules));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let positions = prepared.len() as f64 * f64::from(times);
    outln!(
        "adjudicated {} positions ({} orders, {} units) {times} times in {:.3} s: {:.0} positions/s, {:.0} orders/s, {:.0} units/s",
        prepared.len(),
        orders,
        units,
        seconds,
        positions / seconds,
        orders as f64 * f64::from(times) / seconds,
        units as f64 * f64::from(times) / seconds,
    );
}

pub(super) fn convert(args: ConvertArgs) -> Result<(), Error> {
    let mut cache = VariantCache::default();
    let v24_text = read_input(&args.v24, super::language(None))?;
    let mut v24 = read_jdip(&mut cache, "datc_v2.4.txt", &v24_text).map_err(Error::Input)?;
    for case in &mut v24 {
        if let Some((_, why)) = V3_DIFFERENCES.iter().find(|(id, _)| *id == case.id) {
            case.skip = Some(format!("DATC v3.0 decides otherwise: {why}"));
        }
    }
    let classique = cache.get("classique").map_err(Error::Input)?;
    let v30 = convert_datc_json(&classique, &read_input(&args.v30, super::language(None))?)
        .map_err(Error::Input)?;
    std::fs::create_dir_all(&args.out)?;
    let header = "# Converted by `corbeau datc-convert` from the DATC files (facts only: positions,\n# orders, outcomes). Format: docs/case-format.md.\n\n";
    for (name, cases) in [("datc-v2.4.case", &v24), ("datc-v3.0.case", &v30)] {
        let path = args.out.join(name);
        std::fs::write(&path, format!("{header}{}", write_cases(cases)))?;
        outln!("{}: {} cases", path.display(), cases.len());
    }
    Ok(())
}
