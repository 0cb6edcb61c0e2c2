//! Orders written ahead for later phases, in words: the mail a player gets when a block
//! becomes their orders or is given back unused, and the list of a house's blocks that
//! the reply, `STATUS` and the player's `PREVIEW` show.

use std::path::Path;

use crate::game::{AheadBlock, AheadDrop, Game, GameStatus, HouseKey, NoticeKind};
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

use super::game_text::phase_text;
use super::render::{ORDERS_TEMPLATE, RenderError, render_template, wrap};

/// A sentence of the mail, wrapped as the notices' sentences are.
fn prose(text: String) -> String {
    wrap(&text, Some(72), Some(0))
}

/// Why a block was not used, as a clause.
pub fn drop_why(why: AheadDrop, lang: Lang) -> String {
    match why {
        AheadDrop::NeverCame => say!(lang, "ahead.why_never_came"),
        AheadDrop::NothingToDecide => say!(lang, "ahead.why_nothing_to_decide"),
        AheadDrop::GameOver => say!(lang, "ahead.why_game_over"),
    }
}

/// A block's lines as the player wrote them, one a line, each with its line in the mail.
pub fn written_lines(lines: &[(usize, String)], lang: Lang) -> String {
    lines
        .iter()
        .map(|(line, text)| say!(lang, "ahead.written_line", line, text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The house's blocks, one a line (`automne 1901, mouvements : 3 ligne(s)`), or none.
pub fn blocks_text(blocks: &[AheadBlock], lang: Lang) -> Option<String> {
    if blocks.is_empty() {
        return None;
    }
    let lines: Vec<String> = blocks
        .iter()
        .map(|b| {
            say!(
                lang,
                "ahead.list_line",
                phase = phase_text(b.phase, lang),
                lines = b.lines.len(),
                ready = b.ready
            )
        })
        .collect();
    Some(lines.join("\n"))
}

/// What the reply and `STATUS` say of a house's blocks (`who`: the house's name, for the
/// moderator's listing of every house), or nothing when it holds none.
pub fn house_blocks(
    game: &Game,
    house: &HouseKey,
    who: Option<&str>,
    lang: Lang,
) -> Option<String> {
    let blocks = game.seat(house)?.ahead();
    let list = blocks_text(blocks, lang)?;
    Some(say!(lang, "ahead.pending", who, list))
}

/// The subject of the mail that tells a player what became of a block (after the game's
/// id), or none for the other notices.
pub fn notice_subject(kind: &NoticeKind, lang: Lang) -> Option<String> {
    Some(match kind {
        NoticeKind::AheadActivated {
            phase,
            refused: false,
            ..
        } => say!(
            lang,
            "ahead.subject_activated",
            phase = phase_text(*phase, lang)
        ),
        NoticeKind::AheadActivated { phase, .. } => {
            say!(
                lang,
                "ahead.subject_refused",
                phase = phase_text(*phase, lang)
            )
        }
        NoticeKind::AheadDropped { phase, .. } => {
            say!(
                lang,
                "ahead.subject_dropped",
                phase = phase_text(*phase, lang)
            )
        }
        _ => return None,
    })
}

/// The body of the mail that tells a player what became of a block: its orders as the
/// judge reads them now (the `orders.txt` template), or why they were refused or not
/// used, and the lines as written. None for the other notices.
pub fn notice_text(
    game: &Game,
    variant: &Variant,
    kind: &NoticeKind,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<Option<String>, RenderError> {
    let text = match kind {
        NoticeKind::AheadActivated {
            house,
            phase,
            lines,
            refused,
            ready,
        } => {
            let phase_now = game.phase() == *phase
                && matches!(game.status(), GameStatus::Running | GameStatus::Paused);
            let mut parts = Vec::new();
            if *refused {
                parts.push(prose(say!(
                    lang,
                    "ahead.activated_refused",
                    phase = phase_text(*phase, lang),
                    deadline = game.deadline_text(lang)
                )));
                if phase_now {
                    let problems: Vec<String> = game
                        .problems_now(variant, house, lines)
                        .iter()
                        .map(|p| {
                            say!(
                                lang,
                                "ahead.problem",
                                message = p.message(lang),
                                text = p.text.clone()
                            )
                        })
                        .collect();
                    if !problems.is_empty() {
                        parts.push(problems.join("\n"));
                    }
                }
            } else {
                parts.push(prose(say!(
                    lang,
                    "ahead.activated",
                    phase = phase_text(*phase, lang),
                    ready,
                    deadline = game.deadline_text(lang)
                )));
                if phase_now && game.deciding().contains(house) {
                    let view = super::orders_view(game, variant, house, lang).map_err(|e| {
                        RenderError::Template {
                            template: ORDERS_TEMPLATE.to_string(),
                            message: e.message(lang),
                        }
                    })?;
                    let orders = render_template(
                        ORDERS_TEMPLATE,
                        minijinja::Value::from_serialize(super::localized(&view, variant, lang)),
                        lang,
                        templates,
                    )?;
                    let conditions = conditions_text(game, variant, house, lines, lang);
                    if !conditions.is_empty() {
                        parts.push(conditions);
                    }
                    parts.push(orders.trim_end().to_string());
                }
            }
            parts.push(say!(lang, "ahead.as_written"));
            parts.push(written_lines(lines, lang));
            parts.join("\n\n")
        }
        NoticeKind::AheadDropped {
            phase, lines, why, ..
        } => [
            prose(say!(
                lang,
                "ahead.dropped",
                phase = phase_text(*phase, lang),
                why = drop_why(*why, lang)
            )),
            say!(lang, "ahead.as_written"),
            written_lines(lines, lang),
        ]
        .join("\n\n"),
        _ => return Ok(None),
    };
    Ok(Some(text))
}

/// The conditions of a block's `IF`s as they were tested when its phase began, or why
/// one was set aside: the same lines as the answer to orders gives.
fn conditions_text(
    game: &Game,
    variant: &Variant,
    house: &HouseKey,
    lines: &[(usize, String)],
    lang: Lang,
) -> String {
    use super::conditional::{condition_steps, refused_note};
    let mut words = Vec::new();
    for note in game.conditions_now(variant, house, lines) {
        if let Some(message) = refused_note(&note, lang) {
            words.push(prose(format!("✗ {message}")));
        } else if let crate::game::ConditionNote::Read { steps } = note {
            words.extend(
                condition_steps(&steps, lang)
                    .into_iter()
                    .map(|s| prose(format!("→ {s}"))),
            );
        }
    }
    words.join("\n")
}
