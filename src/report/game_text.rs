//! Stored games as text for players and moderators: a game's state, its endings, and
//! the results of a processed phase through the results templates.

use std::path::Path;

use minijinja::Value;
use serde::Serialize;
use serde_json::json;

use super::{RESULTS_TEMPLATE, RenderError, render_template};
use crate::game::results::{
    PhaseResults, RESULTS_FORMAT, RejectedView, ResultsProblem, ResultsView,
};
use crate::game::{Ending, Game, GameStatus, HouseKey, PhaseRecord};
use crate::judge::Phase;
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

/// A game's status in a word (`status.*`).
pub fn status_word(status: GameStatus, lang: Lang) -> String {
    match status {
        GameStatus::Forming => say!(lang, "status.forming"),
        GameStatus::Running => say!(lang, "status.running"),
        GameStatus::Paused => say!(lang, "status.paused"),
        GameStatus::Finished => say!(lang, "status.finished"),
    }
}

/// A phase in the reader's words through the catalogue entry `code`: `phase.text`
/// (`printemps 299, mouvements`) or `phase.plain` (`printemps 299 mouvements`, as `--phase`
/// reads it). Here rather than in the judge, which speaks to no reader.
pub fn phase_words(phase: Phase, lang: Lang, code: &str) -> String {
    use crate::judge::{PhaseKind, Season};
    let season = match phase.season {
        Season::Spring => say!(lang, "season.spring"),
        Season::Autumn => say!(lang, "season.autumn"),
        Season::Winter => say!(lang, "season.winter"),
    };
    let plain = code == "phase.plain";
    let kind = match (phase.kind, plain) {
        (PhaseKind::Movement, false) => say!(lang, "phase_kind.movement"),
        (PhaseKind::Retreat, false) => say!(lang, "phase_kind.retreat"),
        (PhaseKind::Adjustment, false) => say!(lang, "phase_kind.adjustment"),
        (PhaseKind::Movement, true) => say!(lang, "phase_kind_plain.movement"),
        (PhaseKind::Retreat, true) => say!(lang, "phase_kind_plain.retreat"),
        (PhaseKind::Adjustment, true) => say!(lang, "phase_kind_plain.adjustment"),
    };
    let args = [
        ("season", minijinja::Value::from(season)),
        ("year", minijinja::Value::from(phase.year)),
        ("kind", minijinja::Value::from(kind)),
    ];
    crate::wording::text(lang, code, &args)
}

/// `printemps 299, mouvements` / `spring 299, movements`, as the templates' `phase` macro
/// writes it (`phase.text`).
pub fn phase_text(phase: Phase, lang: Lang) -> String {
    phase_words(phase, lang, "phase.text")
}

/// A house's vote to end the game, as `game show` and the moderator's `STATUS` word it.
pub fn vote_text(vote: &crate::game::Vote, variant: &Variant, lang: Lang) -> String {
    match vote {
        crate::game::Vote::Draw => say!(lang, "game_show.votes_draw"),
        crate::game::Vote::Concede(h) => {
            say!(
                lang,
                "game_show.concedes",
                house = variant.house_name_in(h, lang)
            )
        }
        crate::game::Vote::DrawWith(houses) => {
            let names: Vec<String> = houses
                .iter()
                .map(|h| variant.house_name_in(h, lang))
                .collect();
            say!(
                lang,
                "habits.votes_draw_with",
                houses = say!(lang, "words.and_list", names)
            )
        }
    }
}

fn names(variant: &Variant, ids: &[HouseKey], lang: Lang) -> String {
    let names: Vec<String> = ids.iter().map(|h| variant.house_name_in(h, lang)).collect();
    say!(lang, "words.and_list", names)
}

/// How the game ended, in a sentence (`ending.*`).
pub fn ending_text(ending: &Ending, variant: &Variant, lang: Lang) -> String {
    match ending {
        Ending::Win { houses, reason } => {
            let who = names(variant, houses, lang);
            let why = match reason.split_once(':') {
                Some(("centres", count)) => say!(lang, "ending.reason_centres", count),
                Some(("points", count)) => say!(lang, "ending.reason_points", count),
                Some(("last-year", year)) => say!(lang, "ending.reason_last_year", year),
                _ => say!(lang, "ending.reason_moderator"),
            };
            say!(lang, "ending.win", shared = houses.len() > 1, who, why)
        }
        Ending::Draw { houses } => {
            say!(lang, "ending.draw", houses = names(variant, houses, lang))
        }
        Ending::Concession { house } => {
            say!(
                lang,
                "ending.concession",
                house = variant.house_name_in(house, lang)
            )
        }
        Ending::Abandoned => say!(lang, "ending.abandoned"),
    }
}

/// `game show`: phase, deadline and each house's player and orders (`game_show.*`).
pub fn game_text(g: &Game, variant: &Variant, lang: Lang) -> String {
    let title = if g.name() == g.id() {
        g.id().to_string()
    } else {
        format!("{} — {}", g.id(), g.name())
    };
    let mut t = say!(
        lang,
        "game_show.title",
        title,
        variant = variant.name_in(lang),
        players = g.players(),
        status = status_word(g.status(), lang)
    );
    t.push('\n');
    let rules = g.settings().rules;
    if !rules.is_default() {
        t.push_str(&say!(lang, "rules.show", rules = rules.code()));
        t.push('\n');
    }
    if let Some(ending) = &g.ending() {
        t.push_str(&ending_text(ending, variant, lang));
        t.push('\n');
    } else {
        t.push_str(&say!(
            lang,
            "game_show.phase",
            phase = phase_text(g.phase(), lang),
            number = g.played() + 1
        ));
        t.push('\n');
        t.push_str(&say!(
            lang,
            "game_show.deadline",
            deadline = g.deadline_text(lang)
        ));
        t.push('\n');
    }
    let centres = g.position().centre_counts(variant);
    t.push_str(&say!(lang, "game_show.houses"));
    t.push('\n');
    for seat in g.seats() {
        let player = seat.player().as_ref().map_or_else(
            || say!(lang, "game_show.nobody"),
            |p| p.address().to_string(),
        );
        let count = variant
            .house_by_name(seat.house())
            .and_then(|h| centres.get(usize::from(h.0)))
            .copied()
            .unwrap_or(0);
        let mut state = Vec::new();
        // Orders are per phase: nothing to say before the start or after the end.
        let playing = matches!(g.status(), GameStatus::Running | GameStatus::Paused);
        if g.deciding().iter().any(|x| x == seat.house()) && playing {
            state.push(if seat.ordered().is_some() {
                say!(lang, "game_show.orders_in", count = seat.orders().len())
            } else {
                say!(lang, "game_show.no_orders")
            });
        }
        if seat.ready() {
            state.push(say!(lang, "game_show.ready"));
        }
        if let Some(b) = seat.player().and_then(|p| p.bounced()) {
            state.push(say!(
                lang,
                "game_show.undelivered",
                date = b.at.format("%Y-%m-%d").to_string(),
                reason = b.reason
            ));
        }
        if seat.civil_disorder() {
            state.push(say!(lang, "game_show.civil_disorder"));
        } else if seat.missed() > 0 {
            state.push(say!(lang, "game_show.missed", count = seat.missed()));
        }
        if let Some(vote) = &seat.vote() {
            state.push(vote_text(vote, variant, lang));
        }
        t.push_str(&format!(
            "  {:<12} {:>2} {}  {:<28} {}\n",
            variant.house_name_in(seat.house(), lang),
            count,
            say!(lang, "game_show.centres"),
            player,
            state.join(", ")
        ));
    }
    t
}

/// `game show`'s requests for houses waiting for the moderator, each with what the judge
/// knows of its address (`histories`, in the order of the requests): the moderator picks
/// among them.
pub fn seat_requests_text(
    g: &Game,
    variant: &Variant,
    histories: &[crate::game::AskerHistory],
    lang: Lang,
) -> String {
    if g.seat_requests().is_empty() {
        return String::new();
    }
    let zone = g.settings().schedule.time_zone;
    let mut t = say!(lang, "consent.show_heading");
    t.push('\n');
    for (request, h) in g.seat_requests().iter().zip(histories) {
        let history = say!(
            lang,
            "consent.history",
            address = request.address.as_str(),
            playing = h.playing,
            left = h.left,
            moderating = h.moderating,
            removed = h.removed,
            first = h
                .first_seen
                .map(|t| crate::report::format_deadline(t, zone, lang))
        );
        t.push_str("  ");
        t.push_str(&say!(
            lang,
            "consent.show_request",
            house = variant.house_name_in(&request.house, lang),
            asked = crate::report::format_deadline(request.asked, zone, lang),
            history
        ));
        t.push('\n');
    }
    t
}

/// Who reads a phase's results, which decides the rejected and superseded lines shown:
/// they reveal intentions, so only their author and the moderator see them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Everyone (the results mailed to all, observers): the orders the judge used only.
    Public,
    /// One house's player: the public results and that house's own lines.
    House(HouseKey),
    /// The moderator: every house's lines.
    Moderator,
}

impl Audience {
    /// The audience whose results are the same text for this record: a house with no
    /// rejected line reads the public results (rendered once for all of them).
    pub fn narrowed(self, record: &PhaseRecord) -> Audience {
        match &self {
            Audience::House(house) if !rejected_lines(record).any(|r| from_house(r, house)) => {
                Audience::Public
            }
            _ => self,
        }
    }

    fn sees(&self, rejected: &RejectedView) -> bool {
        match self {
            Audience::Public => false,
            Audience::House(house) => from_house(rejected, house),
            Audience::Moderator => true,
        }
    }

    fn word(&self) -> &'static str {
        match self {
            Audience::Public => "public",
            Audience::House(_) => "house",
            Audience::Moderator => "moderator",
        }
    }
}

/// Who reads a phase's results: the rejected lines they see (`audience`), and what the
/// coming phase asks of their house, when the text tells it (a results mail to a player).
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    pub audience: &'a Audience,
    pub asks: Option<&'a super::PhaseAsk>,
}

impl<'a> From<&'a Audience> for Reader<'a> {
    fn from(audience: &'a Audience) -> Reader<'a> {
        Reader {
            audience,
            asks: None,
        }
    }
}

fn rejected_lines(record: &PhaseRecord) -> impl Iterator<Item = &RejectedView> {
    record.results.view().into_iter().flat_map(|v| &v.rejected)
}

fn from_house(rejected: &RejectedView, house: &str) -> bool {
    rejected.house.as_ref().is_some_and(|h| h.id == house)
}

/// What the results template reads for a stored phase: the results, the game and who
/// reads them.
#[derive(Serialize)]
struct RecordData<'a> {
    #[serde(flatten)]
    results: &'a ResultsView,
    game: serde_json::Value,
    audience: &'static str,
    /// What the coming phase asks of the reader's house, for a reader who plays one.
    #[serde(skip_serializing_if = "Option::is_none")]
    asks: Option<&'a super::PhaseAsk>,
}

/// The public results of a processed phase (see [`record_results_for`]).
pub fn record_results(
    g: &Game,
    variant: &Variant,
    record: &PhaseRecord,
    current: bool,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<String, RenderError> {
    record_results_for(
        g,
        variant,
        record,
        current,
        &Audience::Public,
        lang,
        templates,
    )
}

/// The results of a processed phase through the results template, with the game's name
/// and (when `current`) its next deadline or ending, showing the rejected and superseded
/// lines its reader may see, and at their top what the coming phase asks of the reader's
/// house when the reader says it. Results stored in a form this corbeau cannot read
/// (docs/results-format.md, "Decisions") give a sentence saying so, with what is wrong.
pub fn record_results_for<'a>(
    g: &Game,
    variant: &Variant,
    record: &PhaseRecord,
    current: bool,
    reader: impl Into<Reader<'a>>,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<String, RenderError> {
    let Reader { audience, asks } = reader.into();
    let game = json!({
        "id": g.id(),
        "name": g.name(),
        "index": record.index,
        "deadline": if current && g.status() != GameStatus::Finished { g.deadline().map(|_| g.deadline_text(lang)) } else { None },
        "deadline_utc": if current { g.deadline().map(|d| d.to_rfc3339()) } else { None },
        "ending": record.ending.as_ref().map(|e| ending_text(e, variant, lang)),
    });
    let mut results = match &record.results {
        PhaseResults::Read(view) => ResultsView::clone(view),
        PhaseResults::Unreadable(u) => {
            let problem = match &u.problem {
                ResultsProblem::Format { found } => {
                    say!(lang, "results_record.format", found, known = RESULTS_FORMAT)
                }
                ResultsProblem::Shape { detail } => detail.clone(),
            };
            let mut text = say!(
                lang,
                "results_record.unreadable",
                phase = phase_text(record.phase, lang),
                number = record.number(),
                game = g.id(),
                problem
            );
            text.push('\n');
            return Ok(text);
        }
    };
    results.rejected.retain(|r| audience.sees(r));
    results.counts.rejected = results.rejected.len();
    let data = RecordData {
        results: &results,
        game,
        audience: audience.word(),
        asks,
    };
    render_template(
        RESULTS_TEMPLATE,
        Value::from_serialize(super::localized(&data, variant, lang)),
        lang,
        templates,
    )
}

/// [`record_results`] that survives a broken override template: when the templates of
/// `templates` fail, the built-in ones render the results. The text, and the override's
/// failure (to tell the moderator) if there was one. Only when the built-in templates fail
/// too is it an error (theirs).
pub fn record_results_or_builtin(
    g: &Game,
    variant: &Variant,
    record: &PhaseRecord,
    current: bool,
    audience: &Audience,
    lang: Lang,
    templates: Option<&Path>,
) -> Result<(String, Option<RenderError>), RenderError> {
    match record_results_for(g, variant, record, current, audience, lang, templates) {
        Ok(text) => Ok((text, None)),
        Err(e) if templates.is_some() => {
            record_results_for(g, variant, record, current, audience, lang, None)
                .map(|text| (text, Some(e)))
        }
        Err(e) => Err(e),
    }
}
