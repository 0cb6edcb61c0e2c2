//! `corbeau datc`: run DATC-style case files, print each verdict and `N passed, M failed`;
//! with `--repeat`, time the adjudication alone. `corbeau datc-convert` writes the
//! project's own copies of the DATC cases.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::case::{
    Case, CaseStatus, CaseStep, V3_DIFFERENCES, VariantCache, case_steps, convert_datc_json,
    read_cases, read_jdip, read_jdip_each, run_case, write_cases,
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

/// Reads a case file in either format, handing each case to `each` as it is read (a
/// jDip file case by case; a file of the project's format, small, whole first).
fn each_case(
    cache: &mut VariantCache,
    path: &std::path::Path,
    mut each: impl FnMut(&mut VariantCache, Case),
) -> Result<(), Error> {
    let text = read_input(path, super::language(None))?;
    let name = path.display().to_string();
    let jdip = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("VARIANT_ALL") || l.starts_with("CASE"));
    let read = if jdip {
        read_jdip_each(cache, &name, &text, each)
    } else {
        read_cases(&name, &text).map(|cases| {
            for case in cases {
                each(cache, case);
            }
        })
    };
    read.map_err(Error::Input)
}

pub(super) fn run(args: DatcArgs) -> Result<(), Error> {
    let mut cache = VariantCache::default();
    let mut tally = Tally::default();
    // Each case is run as soon as it is read, then dropped; what it printed waits in
    // `tally.report` until every file is read, so that a file that cannot be read still
    // stops the run before any verdict is printed.
    for path in &args.files {
        each_case(&mut cache, path, |cache, case| {
            tally.run(cache, &args, case)
        })?;
    }
    let Tally {
        passed,
        failed,
        skipped,
        report,
        prepared,
        timed,
    } = tally;
    out!("{report}");
    if let Some(times) = args.repeat {
        benchmark(&prepared, timed, times.max(1), args.no_check);
    }
    outln!("{passed} passed, {failed} failed, {skipped} skipped");
    // The process ends here: freeing thousands of phases one by one would only cost time.
    std::mem::forget(prepared);
    if failed > 0 {
        return Err(Error::Reported(format!("{failed} case(s) failed")));
    }
    Ok(())
}

/// What the cases read so far gave.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    skipped: usize,
    /// The verdict lines, printed once every file is read.
    report: String,
    /// The phases `--repeat` adjudicates again, with their variant and edition.
    prepared: Vec<(Arc<Variant>, Edition, CaseStep)>,
    /// Without checks, the verdict's adjudication of each phase is the first of the
    /// `--repeat` ones: its count and time.
    timed: Timed,
}

/// Phases, orders and units adjudicated, and the time it took.
#[derive(Default, Clone, Copy)]
struct Timed {
    positions: usize,
    orders: usize,
    units: usize,
    seconds: f64,
}

impl Tally {
    /// Runs one case and records its verdict.
    fn run(&mut self, cache: &mut VariantCache, args: &DatcArgs, case: Case) {
        use std::fmt::Write as _;
        let repeat = args.repeat.is_some();
        let status = if args.no_check {
            match case_steps(cache, &case) {
                Ok((variant, steps)) => {
                    if case.skip.is_none() {
                        self.timed_once(&variant, case.rules, &steps);
                        // The first adjudication is done: the others of `--repeat` reuse
                        // the phases, read once.
                        if repeat && args.repeat != Some(1) {
                            self.prepared.extend(
                                steps.into_iter().map(|s| (variant.clone(), case.rules, s)),
                            );
                        }
                    } else {
                        for (position, given) in &steps {
                            std::hint::black_box(adjudicate_under(
                                &variant, position, given, case.rules,
                            ));
                        }
                    }
                    CaseStatus::Passed
                }
                Err(e) => CaseStatus::Failed(vec![e]),
            }
        } else {
            let verdict = run_case(cache, &case);
            if repeat
                && case.skip.is_none()
                && let Ok((variant, steps)) = case_steps(cache, &case)
            {
                self.prepared
                    .extend(steps.into_iter().map(|s| (variant.clone(), case.rules, s)));
            }
            verdict.status
        };
        let id = &case.id;
        let report = &mut self.report;
        // Writing to a String cannot fail.
        match status {
            CaseStatus::Passed => {
                self.passed += 1;
                if !args.quiet {
                    let _ = writeln!(report, "{id} passed");
                }
            }
            CaseStatus::Skipped(reason) => {
                self.skipped += 1;
                if !args.quiet {
                    let _ = writeln!(report, "{id} skipped: {reason}");
                }
            }
            CaseStatus::Failed(problems) => {
                let difference = V3_DIFFERENCES.iter().find(|(known, _)| {
                    *known == id.as_str() && case.sources.iter().any(|s| s.starts_with("DATC v2.4"))
                });
                match difference {
                    Some((_, why)) => {
                        self.skipped += 1;
                        if !args.quiet {
                            let _ = writeln!(
                                report,
                                "{id} differs from DATC v3.0, which corbeau follows: {why}"
                            );
                        }
                    }
                    None => {
                        self.failed += 1;
                        let _ = writeln!(report, "{id} FAILED");
                        for p in problems {
                            let _ = writeln!(report, "    {p}");
                        }
                    }
                }
            }
        }
    }

    /// Adjudicates each phase once, timed: the verdict of a case run without checks.
    fn timed_once(&mut self, variant: &Variant, rules: Edition, steps: &[CaseStep]) {
        let start = Instant::now();
        for (position, given) in steps {
            std::hint::black_box(adjudicate_under(variant, position, given, rules));
        }
        let timed = &mut self.timed;
        timed.seconds += start.elapsed().as_secs_f64();
        timed.positions += steps.len();
        for (position, given) in steps {
            timed.orders += given.len();
            timed.units += position.units.len() + position.dislodged.len();
        }
    }
}

/// Adjudicates every prepared phase `times` times, parsing done once, outside the timing;
/// without checks the first time was the verdict's (`first`), and the prepared phases are
/// adjudicated the other `times - 1`.
fn benchmark(
    prepared: &[(Arc<Variant>, Edition, CaseStep)],
    first: Timed,
    times: u32,
    no_check: bool,
) {
    let (again, mut seconds, (count, orders, units)) = if no_check {
        (
            times - 1,
            first.seconds,
            (first.positions, first.orders, first.units),
        )
    } else {
        let orders: usize = prepared.iter().map(|(_, _, (_, o))| o.len()).sum();
        let units: usize = prepared
            .iter()
            .map(|(_, _, (p, _))| p.units.len() + p.dislodged.len())
            .sum();
        (times, 0.0, (prepared.len(), orders, units))
    };
    let start = Instant::now();
    for _ in 0..again {
        for (variant, rules, (position, given)) in prepared {
            std::hint::black_box(adjudicate_under(variant, position, given, *rules));
        }
    }
    seconds += start.elapsed().as_secs_f64();
    let positions = count as f64 * f64::from(times);
    outln!(
        "adjudicated {} positions ({} orders, {} units) {times} times in {:.3} s: {:.0} positions/s, {:.0} orders/s, {:.0} units/s",
        count,
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
