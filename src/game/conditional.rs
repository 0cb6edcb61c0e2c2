//! Conditional orders in a submitted set: the `IF … ELSE IF … ELSE … ENDIF` blocks of its
//! lines are read, their conditions tested on the position the set is read with (the
//! position at the start of the phase: it does not change within one), and the lines of
//! the branches taken become the set. A block that cannot be read is set aside whole, with
//! why, and the other lines of the set are kept.

use crate::judge::Position;
use crate::map::Variant;
use crate::order::{BlockLine, Condition, ConditionError, block_line, parse_condition};

/// At most this many `IF` blocks inside one another.
pub const MAX_BLOCK_DEPTH: usize = 8;

/// What became of one `IF` block of a set, for the answer to it.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionNote {
    /// The block was read: the conditions tested, in order, up to the branch taken.
    Read { steps: Vec<Step> },
    /// Lines set aside, none of their orders taken: `first` to `last` (mail lines), the
    /// block's first line as written, and why.
    Refused {
        first: usize,
        last: usize,
        text: String,
        problem: BlockProblem,
    },
}

/// One branch head of a block, as the answer shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The head's line in the mail, and the line as written.
    pub line: usize,
    pub text: String,
    /// Whether its condition holds; `None` for an `ELSE`, taken when reached.
    pub holds: Option<bool>,
}

impl Step {
    /// Whether this branch's orders were taken.
    pub fn taken(&self) -> bool {
        self.holds != Some(false)
    }
}

/// Why a block was set aside.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockProblem {
    /// A condition that does not read.
    Condition(ConditionError),
    /// The `IF` of this line has no `ENDIF` in the set.
    NoEndIf { line: usize },
    /// An `ELSE`, `ELSE IF` or `ENDIF` (as written) with no `IF` open before it.
    Stray { line: usize, keyword: String },
    /// An `ELSE` or `ELSE IF` after the block's `ELSE` (of line `after`).
    AfterElse {
        line: usize,
        keyword: String,
        after: usize,
    },
    /// Words after an `ELSE` or an `ENDIF`, which take none.
    Extra { line: usize, keyword: String },
    /// More than [`MAX_BLOCK_DEPTH`] blocks inside one another.
    TooDeep { line: usize, max: usize },
}

/// A set's lines once its blocks are resolved: the lines kept, in order, and what became
/// of each block.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Resolved {
    pub lines: Vec<(usize, String)>,
    pub notes: Vec<ConditionNote>,
}

/// Whether a line is a block line (`IF …`, `ELSE`, `ENDIF`…): never an order, never prose.
pub(super) fn is_block_line(line: &str) -> bool {
    block_line(line).is_some()
}

/// Resolves the blocks of a set's lines on `position`. Lines outside any block are kept
/// as they are; a set without blocks comes back unchanged.
pub(super) fn resolve(
    variant: &Variant,
    position: &Position,
    lines: &[(usize, String)],
) -> Resolved {
    let mut out = Resolved::default();
    // Where the lines kept since the last block began, in `out.lines`: a stray `ELSE` or
    // `ENDIF` sets them aside too, as the branch of an `IF` that was lost.
    let mut since_block = 0;
    let mut i = 0;
    while let Some((number, text)) = lines.get(i) {
        let Some(head) = block_line(text) else {
            out.lines.push((*number, text.clone()));
            i += 1;
            continue;
        };
        match head {
            BlockLine::If { .. } => {
                let Some(end) = matching_end(lines, i) else {
                    out.notes.push(refused(
                        lines,
                        i,
                        lines.len() - 1,
                        BlockProblem::NoEndIf { line: *number },
                    ));
                    break;
                };
                let block = lines.get(i..=end).unwrap_or_default();
                match Block::read(variant, block, 1) {
                    Ok(block) => block.take(variant, position, &mut out),
                    Err(problem) => out.notes.push(refused(lines, i, end, problem)),
                }
                i = end + 1;
            }
            BlockLine::Else { .. } | BlockLine::ElseIf { .. } | BlockLine::EndIf { .. } => {
                let keyword = keyword_of(text);
                let problem = BlockProblem::Stray {
                    line: *number,
                    keyword,
                };
                // The lost IF's lines kept since the last block go with it.
                let lost = out.lines.split_off(since_block.min(out.lines.len()));
                let first = lost.first().map_or(i, |(n, _)| {
                    lines.iter().position(|(m, _)| m == n).unwrap_or(i)
                });
                let end = match head {
                    BlockLine::EndIf { .. } => Some(i),
                    _ => matching_end(lines, i),
                };
                let end = end.unwrap_or(lines.len() - 1);
                out.notes.push(refused(lines, first, end, problem));
                i = end + 1;
            }
        }
        since_block = out.lines.len();
    }
    out
}

/// The note for lines `first..=last` of the set (indices), set aside.
fn refused(
    lines: &[(usize, String)],
    first: usize,
    last: usize,
    problem: BlockProblem,
) -> ConditionNote {
    let number = |i: usize| lines.get(i).map_or(0, |(n, _)| *n);
    ConditionNote::Refused {
        first: number(first),
        last: number(last),
        text: lines
            .get(first)
            .map(|(_, t)| t.trim().to_string())
            .unwrap_or_default(),
        problem,
    }
}

/// The keyword of a block line as written (`ELSE`, `Sinon si`, `END IF`).
fn keyword_of(text: &str) -> String {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    match (crate::map::fold(first).as_str(), words.next()) {
        ("else" | "sinon" | "end" | "fin", Some(second))
            if matches!(crate::map::fold(second).as_str(), "if" | "si") =>
        {
            format!("{first} {second}")
        }
        _ => first.to_string(),
    }
}

/// The index of the `ENDIF` closing the block whose `IF` (or stray `ELSE`) is at `start`.
fn matching_end(lines: &[(usize, String)], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (offset, (_, text)) in lines.get(start..)?.iter().enumerate() {
        match block_line(text) {
            Some(BlockLine::If { .. }) => depth += 1,
            Some(BlockLine::EndIf { .. }) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(start + offset);
                }
            }
            // A stray `ELSE` opens the block it belongs to.
            Some(_) if offset == 0 => depth += 1,
            _ => {}
        }
    }
    None
}

/// A block read whole: its branches in order.
struct Block<'l> {
    branches: Vec<Branch<'l>>,
}

struct Branch<'l> {
    line: usize,
    text: &'l str,
    /// `None` for the `ELSE`.
    condition: Option<Condition>,
    body: Vec<Node<'l>>,
}

enum Node<'l> {
    Line(&'l (usize, String)),
    Block(Block<'l>),
}

impl<'l> Block<'l> {
    /// Reads `lines`, from its `IF` to its matching `ENDIF` (the last line), every
    /// condition and every block inside it, whether its branch will be taken or not: a
    /// block reads or is set aside whatever the board.
    fn read(
        variant: &Variant,
        lines: &'l [(usize, String)],
        depth: usize,
    ) -> Result<Block<'l>, BlockProblem> {
        let mut i = 0;
        Block::read_at(variant, lines, &mut i, depth)
    }

    fn read_at(
        variant: &Variant,
        lines: &'l [(usize, String)],
        i: &mut usize,
        depth: usize,
    ) -> Result<Block<'l>, BlockProblem> {
        let Some((line, text)) = lines.get(*i) else {
            return Err(BlockProblem::NoEndIf { line: 0 });
        };
        let if_line = *line;
        if depth > MAX_BLOCK_DEPTH {
            return Err(BlockProblem::TooDeep {
                line: if_line,
                max: MAX_BLOCK_DEPTH,
            });
        }
        let Some(BlockLine::If { condition }) = block_line(text) else {
            return Err(BlockProblem::Stray {
                line: if_line,
                keyword: keyword_of(text),
            });
        };
        let mut branches = vec![Branch {
            line: if_line,
            text: text.trim(),
            condition: Some(condition_of(variant, if_line, text, condition)?),
            body: Vec::new(),
        }];
        let mut else_line = None;
        *i += 1;
        while let Some(entry) = lines.get(*i) {
            let (number, text) = entry;
            let head = block_line(text);
            if let (Some(after), Some(BlockLine::Else { .. } | BlockLine::ElseIf { .. })) =
                (else_line, head)
            {
                return Err(BlockProblem::AfterElse {
                    line: *number,
                    keyword: keyword_of(text),
                    after,
                });
            }
            if head.is_some_and(|h| h.has_extra()) {
                return Err(BlockProblem::Extra {
                    line: *number,
                    keyword: keyword_of(text),
                });
            }
            let body = match head {
                None => {
                    *i += 1;
                    Node::Line(entry)
                }
                Some(BlockLine::If { .. }) => {
                    Node::Block(Block::read_at(variant, lines, i, depth + 1)?)
                }
                Some(BlockLine::ElseIf { condition }) => {
                    let condition = condition_of(variant, *number, text, condition)?;
                    branches.push(Branch {
                        line: *number,
                        text: text.trim(),
                        condition: Some(condition),
                        body: Vec::new(),
                    });
                    *i += 1;
                    continue;
                }
                Some(BlockLine::Else { .. }) => {
                    else_line = Some(*number);
                    branches.push(Branch {
                        line: *number,
                        text: text.trim(),
                        condition: None,
                        body: Vec::new(),
                    });
                    *i += 1;
                    continue;
                }
                Some(BlockLine::EndIf { .. }) => {
                    *i += 1;
                    return Ok(Block { branches });
                }
            };
            if let Some(branch) = branches.last_mut() {
                branch.body.push(body);
            }
        }
        Err(BlockProblem::NoEndIf { line: if_line })
    }

    /// Tests the conditions in order and keeps the lines of the first branch that holds
    /// (or of the `ELSE`), with the blocks inside it resolved the same way.
    fn take(self, variant: &Variant, position: &Position, out: &mut Resolved) {
        let mut steps = Vec::new();
        let mut chosen = None;
        for branch in self.branches {
            let holds = branch
                .condition
                .as_ref()
                .map(|c| holds(variant, position, c));
            steps.push(Step {
                line: branch.line,
                text: branch.text.to_string(),
                holds,
            });
            if holds != Some(false) {
                chosen = Some(branch.body);
                break;
            }
        }
        out.notes.push(ConditionNote::Read { steps });
        for node in chosen.unwrap_or_default() {
            match node {
                Node::Line((number, text)) => out.lines.push((*number, text.clone())),
                Node::Block(block) => block.take(variant, position, out),
            }
        }
    }
}

fn condition_of(
    variant: &Variant,
    line: usize,
    text: &str,
    condition: &str,
) -> Result<Condition, BlockProblem> {
    let line_no = u32::try_from(line).unwrap_or(u32::MAX);
    parse_condition(variant, line_no, text, condition).map_err(BlockProblem::Condition)
}

/// Whether a condition holds on the board: units standing there (not those dislodged and
/// waiting to retreat), and the owners of supply centres.
pub(super) fn holds(variant: &Variant, position: &Position, condition: &Condition) -> bool {
    match condition {
        Condition::Unit { owner, kind, at } => position.units.iter().any(|u| {
            variant.province_of(u.region) == at.province
                && at.coast.is_none_or(|c| c == u.region)
                && owner.is_none_or(|o| o == u.owner)
                && kind.is_none_or(|k| k == u.kind)
        }),
        Condition::Owns { house, province } => position
            .owners
            .get(usize::from(province.0))
            .is_some_and(|o| *o == Some(*house)),
        Condition::Not(inner) => !holds(variant, position, inner),
        Condition::All(items) => items.iter().all(|c| holds(variant, position, c)),
        Condition::Any(items) => items.iter().any(|c| holds(variant, position, c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    }

    fn kept(r: &Resolved) -> Vec<usize> {
        r.lines.iter().map(|(n, _)| *n).collect()
    }

    fn classic() -> (Variant, Position) {
        let variant = crate::map::load_variant("classique").expect("classic");
        let position = Position::starting(&variant, None).expect("seven players");
        (variant, position)
    }

    #[test]
    fn the_branch_that_holds_is_taken_and_nested_blocks_too() {
        let (v, p) = classic();
        let text = "A Par H\n\
                    IF NOT France A Ruhr AND (Germany A Mun OR Germany Ber)\n\
                    A Mar -> Bur\n\
                    IF England F Lon\n\
                    F Bre -> Eng\n\
                    ELSE\n\
                    F Bre H\n\
                    ENDIF\n\
                    ELSE\n\
                    A Mar H\n\
                    ENDIF\n\
                    F Bre S A Par";
        let r = resolve(&v, &p, &lines(text));
        assert_eq!(kept(&r), vec![1, 3, 5, 12]);
        assert_eq!(r.notes.len(), 2);
        let ConditionNote::Read { steps } = &r.notes[0] else {
            panic!("read");
        };
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].holds, Some(true));
        // Nothing holds and no ELSE: none of the block's lines.
        let r = resolve(
            &v,
            &p,
            &lines("IF Ruh\nA Mun -> Ruh\nELSE IF Bur\nA Mun -> Bur\nENDIF"),
        );
        assert!(r.lines.is_empty());
        let ConditionNote::Read { steps } = &r.notes[0] else {
            panic!("read");
        };
        assert_eq!(
            steps.iter().map(|s| s.holds).collect::<Vec<_>>(),
            [Some(false), Some(false)]
        );
        // Ownership.
        let r = resolve(&v, &p, &lines("IF France OWNS Par\nA Par H\nENDIF"));
        assert_eq!(kept(&r), vec![2]);
    }

    #[test]
    fn a_bad_block_is_set_aside_and_the_rest_kept() {
        let (v, p) = classic();
        let r = resolve(
            &v,
            &p,
            &lines("A Par H\nIF France A Rhur\nA Mar H\nENDIF\nA Mun H"),
        );
        assert_eq!(kept(&r), vec![1, 5]);
        assert!(matches!(
            &r.notes[0],
            ConditionNote::Refused {
                first: 2,
                last: 4,
                problem: BlockProblem::Condition(_),
                ..
            }
        ));
        // No ENDIF: to the end of the set.
        let r = resolve(&v, &p, &lines("A Par H\nIF Ruh\nA Mar H\nA Mun H"));
        assert_eq!(kept(&r), vec![1]);
        assert!(matches!(
            &r.notes[0],
            ConditionNote::Refused {
                first: 2,
                last: 4,
                problem: BlockProblem::NoEndIf { line: 2 },
                ..
            }
        ));
        // A stray ELSE takes the lines kept since the last block, up to its ENDIF.
        let r = resolve(
            &v,
            &p,
            &lines("IF Par\nA Par H\nENDIF\nA Mar H\nELSE\nA Mun H\nENDIF\nA Ber H"),
        );
        assert_eq!(kept(&r), vec![2, 8]);
        assert!(matches!(
            &r.notes[1],
            ConditionNote::Refused {
                first: 4,
                last: 7,
                problem: BlockProblem::Stray { line: 5, .. },
                ..
            }
        ));
        // ELSE after ELSE, words after ENDIF, too deep.
        let r = resolve(&v, &p, &lines("IF Par\nELSE\nELSE\nENDIF"));
        assert!(matches!(
            &r.notes[0],
            ConditionNote::Refused {
                problem: BlockProblem::AfterElse {
                    line: 3,
                    after: 2,
                    ..
                },
                ..
            }
        ));
        let r = resolve(&v, &p, &lines("IF Par\nENDIF A Par H"));
        assert!(r.lines.is_empty());
        let deep = format!("{}A Par H\n{}", "IF Par\n".repeat(12), "ENDIF\n".repeat(12));
        let r = resolve(&v, &p, &lines(&deep));
        assert!(r.lines.is_empty());
        assert!(matches!(
            &r.notes[0],
            ConditionNote::Refused {
                problem: BlockProblem::TooDeep { .. },
                ..
            }
        ));
    }

    #[test]
    fn keywords_are_quoted_as_written() {
        assert_eq!(keyword_of("ELSE IF Par"), "ELSE IF");
        assert_eq!(keyword_of("Sinon si Par"), "Sinon si");
        assert_eq!(keyword_of("ELSEIF Par"), "ELSEIF");
        assert_eq!(keyword_of("ENDIF"), "ENDIF");
        assert_eq!(keyword_of("END IF"), "END IF");
        assert_eq!(keyword_of("ELSE A Par H"), "ELSE");
    }
}
