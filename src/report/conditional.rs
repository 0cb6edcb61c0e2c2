//! What became of a set's `IF` blocks, worded for the player (`conditional.*`): the
//! conditions tested and the branch taken, or why a block was set aside.

use crate::game::{BlockProblem, ConditionNote, Step};
use crate::lang::Lang;
use crate::say;

/// The lines that answer one block read: each condition tested, true or false, up to the
/// branch taken; or that none was.
pub fn condition_steps(steps: &[Step], lang: Lang) -> Vec<String> {
    let mut words: Vec<String> = steps
        .iter()
        .map(|s| {
            let (line, text) = (s.line, s.text.as_str());
            match s.holds {
                Some(holds) => say!(lang, "conditional.tested", line, text, holds),
                None => say!(lang, "conditional.else", line, text),
            }
        })
        .collect();
    if !steps.iter().any(Step::taken) {
        words.push(say!(lang, "conditional.none"));
    }
    words
}

/// Why a block was set aside, and which lines went with it.
pub fn block_refused(first: usize, last: usize, problem: &BlockProblem, lang: Lang) -> String {
    let why = block_problem(problem, lang);
    say!(lang, "conditional.refused", first, last, why)
}

/// The note of a block set aside, worded; `None` for a block read.
pub fn refused_note(note: &ConditionNote, lang: Lang) -> Option<String> {
    match note {
        ConditionNote::Refused {
            first,
            last,
            problem,
            ..
        } => Some(block_refused(*first, *last, problem, lang)),
        ConditionNote::Read { .. } => None,
    }
}

fn block_problem(problem: &BlockProblem, lang: Lang) -> String {
    match problem {
        BlockProblem::Condition(e) => e.message(lang),
        BlockProblem::NoEndIf { line } => say!(lang, "conditional.no_endif", line),
        BlockProblem::Stray { line, keyword } => {
            say!(lang, "conditional.stray", line, keyword)
        }
        BlockProblem::AfterElse {
            line,
            keyword,
            after,
        } => say!(lang, "conditional.after_else", line, keyword, after),
        BlockProblem::Extra { line, keyword } => say!(lang, "conditional.extra", line, keyword),
        BlockProblem::TooDeep { line, max } => say!(lang, "conditional.too_deep", line, max),
    }
}
