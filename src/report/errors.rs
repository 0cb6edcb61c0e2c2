//! The game's refusals worded for a player or a moderator, in French or English, from the
//! message catalogue (`game_error.*`, `calendar.*`, `order_problem.*`, `incompatibility.*`):
//! the game returns typed errors and takes no language.

use std::fmt;
use std::sync::Arc;

use crate::game::calendar::{CalendarError, Span};
use crate::game::{
    GameError, GameStatus, HouseKey, Incompatibility, OrderProblem, OrderProblemKind,
};
use crate::judge::PhaseKind;
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

use super::calendar::format_deadline;
use super::game_text::phase_words;

/// A house by its name in the reader's language when the variant is at hand (and still
/// has it), else by its id.
fn house_name(house: &HouseKey, variant: Option<&Variant>, lang: Lang) -> String {
    variant
        .and_then(|v| {
            v.house_by_name(house)
                .map(|h| v.house(h).name_in(lang).to_string())
        })
        .unwrap_or_else(|| house.to_string())
}

impl GameError {
    /// The message in a player's or moderator's language, from the message catalogue
    /// (`game_error.*`), houses by their ids.
    pub fn message(&self, lang: Lang) -> String {
        self.worded(lang, None)
    }

    /// [`GameError::message`] with each house by its name in the reader's language, as
    /// `variant` names it (`England` or `Angleterre`, not `england`).
    pub fn message_in(&self, lang: Lang, variant: &Variant) -> String {
        self.worded(lang, Some(variant))
    }

    fn worded(&self, lang: Lang, variant: Option<&Variant>) -> String {
        use GameError::*;
        let name = |house: &HouseKey| house_name(house, variant, lang);
        let names = |houses: &[HouseKey]| houses.iter().map(name).collect::<Vec<_>>();
        match self {
            UnknownGame { id, nearest } => say!(lang, "game_error.unknown_game", id, nearest),
            GameExists(id) => say!(lang, "game_error.game_exists", id),
            BadGameId(id) => say!(lang, "game_error.bad_game_id", id),
            // The variant's own error (its file and line).
            Variant(e) => e.message(lang),
            NoSetup {
                variant,
                players,
                available,
            } => say!(lang, "game_error.no_setup", variant, players, available),
            UnknownHouse { name, houses } => {
                say!(
                    lang,
                    "game_error.unknown_house",
                    name,
                    houses = names(houses)
                )
            }
            HouseNotInGame(house) => {
                say!(lang, "game_error.house_not_in_game", house = name(house))
            }
            SeatTaken { house, address } => {
                say!(lang, "game_error.seat_taken", house = name(house), address)
            }
            NoPlayer(house) => say!(lang, "game_error.no_player", house = name(house)),
            BadAddress(address) => say!(lang, "game_error.bad_address", address),
            AddressTaken { address, house } => {
                say!(
                    lang,
                    "game_error.address_taken",
                    address,
                    house = name(house)
                )
            }
            Status { action, status } => say!(
                lang,
                "game_error.status",
                action = action_words(action, lang),
                status = status_words(*status, lang)
            ),
            MissingPlayers(houses) => {
                say!(lang, "game_error.missing_players", houses = names(houses))
            }
            WrongPhase { given, current } => say!(
                lang,
                "game_error.wrong_phase",
                given,
                current = phase_words(*current, lang, "phase.plain")
            ),
            BadPhase(phase) => say!(lang, "game_error.bad_phase", phase),
            OrdersRefused(errors) => {
                let mut text = say!(lang, "game_error.orders_refused");
                for e in errors {
                    text.push_str("\n  ");
                    text.push_str(&e.message(lang));
                    text.push_str("\n    > ");
                    text.push_str(&e.text);
                }
                text
            }
            NothingToOrder { house } => {
                say!(lang, "game_error.nothing_to_order", house = name(house))
            }
            TooManyOrders { count, max } => say!(lang, "game_error.too_many_orders", count, max),
            NothingToRollback => say!(lang, "game_error.nothing_to_rollback"),
            ReadyWithIllegalOrders(house) => {
                say!(
                    lang,
                    "game_error.ready_with_illegal_orders",
                    house = name(house)
                )
            }
            BadAbsence => say!(lang, "game_error.bad_absence"),
            Late { deadline, zone } => say!(
                lang,
                "game_error.late",
                deadline = format_deadline(*deadline, *zone, lang)
            ),
            Calendar(e) => e.message(lang),
            BadPosition(e) => e.clone(),
            BadVote(vote) => say!(lang, "game_error.bad_vote", vote),
            Secret(e) => say!(lang, "game_error.internal", error = e.to_string()),
            VariantIncompatible { file, problems } => {
                let problems: Vec<String> = problems.iter().map(|p| p.message(lang)).collect();
                say!(lang, "game_error.variant_incompatible", file, problems)
            }
            VariantUnchanged { name } => say!(lang, "game_error.variant_unchanged", name),
            JudgeAddress(address) => say!(lang, "game_error.judge_address", address),
            NotAllowed { action } => say!(lang, "game_error.not_allowed", action),
            AddressUnavailable(address) => say!(lang, "refusal.address_unavailable", address),
            ObserversForbidden => say!(lang, "refusal.observers_forbidden"),
            AlreadyObserving => say!(lang, "refusal.already_observing"),
            TooManyObserverRequests => say!(lang, "refusal.too_many_observer_requests"),
            NoObserverRequest { game } => say!(lang, "refusal.no_observer_request", game),
            ObserversFull { game, cap } => say!(lang, "caps.observers_full", game, cap),
            BadObserverToken => say!(lang, "refusal.bad_observer_token"),
            BadObserverSecret => say!(lang, "refusal.bad_observer_secret"),
            UnknownPress { input } => say!(lang, "game_error.unknown_press", input),
            DeadlinePast { asked, now, zone } => say!(
                lang,
                "game_error.deadline_past",
                asked = format_deadline(*asked, *zone, lang),
                now = format_deadline(*now, *zone, lang)
            ),
            DeadlineTooFar { asked, max, zone } => say!(
                lang,
                "game_error.deadline_too_far",
                asked = format_deadline(*asked, *zone, lang),
                max = max.text(lang)
            ),
            DeadlineWhilePaused => say!(lang, "game_error.deadline_while_paused"),
            UnknownRules { input } => say!(lang, "game_error.unknown_rules", input),
            RulesAfterStart { rules } => {
                say!(lang, "game_error.rules_after_start", rules = rules.code())
            }
            GraceTooLong { grace, max } => say!(
                lang,
                "game_error.grace_too_long",
                grace = grace.text(lang),
                max = max.text(lang)
            ),
            TooManyReminders { count, max } => {
                say!(lang, "game_error.too_many_reminders", count, max)
            }
            DrawWithout(house) => say!(lang, "habits.draw_without", house = name(house)),
            WeakSecret { min } => say!(lang, "habits.weak_secret", min),
            CommonSecret => say!(lang, "habits.common_secret"),
            NotShownOrHidden { input } => say!(lang, "whogame.not_shown_or_hidden", input),
            NotYesNo { input } => say!(lang, "join.not_yes_no", input),
            BadMissedCount { input, max } => say!(lang, "civil_disorder.bad_count", input, max),
            BadPercent { input } => say!(lang, "record.bad_percent", input),
            UnknownZone { input } => say!(lang, "zone.unknown", zone = input),
            GameClosed { game } => say!(lang, "join.game_closed", game),
            NoFreeSeat { game } => say!(lang, "join.no_free_seat", game),
            HousePlayed(house) => say!(lang, "join.house_played", house = name(house)),
            AlreadyInGame { game } => say!(lang, "join.already_in_game", game),
            AlreadyAsked(house) => say!(lang, "join.already_asked", house = name(house)),
            NoSeatRequest(house) => say!(lang, "join.no_seat_request", house = name(house)),
            BadConsentToken => say!(lang, "consent.bad_token"),
            ConsentTokenExpired => say!(lang, "consent.expired"),
            Ejected { game } => say!(lang, "consent.ejected", game),
            WhichRequest { house, addresses } => say!(
                lang,
                "consent.which_request",
                house = name(house),
                id = house.to_string(),
                addresses = addresses
                    .iter()
                    .map(|a| a.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TooManySeatRequests => say!(lang, "consent.too_many_requests"),
            AheadPast { phase, current } => say!(
                lang,
                "ahead.past",
                phase = super::game_text::phase_text(*phase, lang),
                current = super::game_text::phase_text(*current, lang)
            ),
            AheadTooFar { phase, last } => say!(
                lang,
                "ahead.too_far",
                phase = super::game_text::phase_text(*phase, lang),
                last,
                years = crate::game::MAX_YEARS_AHEAD
            ),
            AheadTooMany { max } => say!(lang, "ahead.too_many", max),
            AheadTooLong { lines, max } => say!(lang, "ahead.too_long", lines, max),
        }
    }
}

/// The action that [`GameError::Status`] names (by its English words, as the game gives
/// them) in the reader's language.
fn action_words(action: &str, lang: Lang) -> String {
    match action {
        "add a player" => say!(lang, "action.add_player"),
        "replace a player" => say!(lang, "action.replace_player"),
        "remove a player" => say!(lang, "action.remove_player"),
        "start" => say!(lang, "action.start"),
        "submit orders" => say!(lang, "action.submit_orders"),
        "declare ready" => say!(lang, "action.declare_ready"),
        "vote" => say!(lang, "action.vote"),
        "pause" => say!(lang, "action.pause"),
        "resume" => say!(lang, "action.resume"),
        "extend the deadline" => say!(lang, "action.extend_deadline"),
        "declare an absence" => say!(lang, "action.declare_absence"),
        "process" => say!(lang, "action.process"),
        "end the game" => say!(lang, "action.end_game"),
        "edit the position" => say!(lang, "action.edit_position"),
        "change a setting" => say!(lang, "action.change_setting"),
        "set the deadline" => say!(lang, "action.set_deadline"),
        "join" => say!(lang, "join.action_join"),
        "take over a house" => say!(lang, "join.action_takeover"),
        "keep orders for a later phase" => say!(lang, "ahead.action_keep"),
        "clear orders for later phases" => say!(lang, "ahead.action_clear"),
        other => other.to_string(),
    }
}

/// What a game in this status is, after "the game".
fn status_words(status: GameStatus, lang: Lang) -> String {
    match status {
        GameStatus::Forming => say!(lang, "status_is.forming"),
        GameStatus::Running => say!(lang, "status_is.running"),
        GameStatus::Paused => say!(lang, "status_is.paused"),
        GameStatus::Finished => say!(lang, "status_is.finished"),
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for GameError {}

impl CalendarError {
    /// The message for a moderator: what was wrong, what is expected, an example; from
    /// the catalogue entry of its [`code`](Self::code).
    pub fn message(&self, lang: Lang) -> String {
        let span = |span: &Span| span.text(lang);
        match self {
            CalendarError::InvalidSpan { input } => say!(lang, "calendar.invalid_span", input),
            CalendarError::UnknownSpanUnit { input, unit } => {
                say!(lang, "calendar.unknown_span_unit", input, unit)
            }
            CalendarError::SpanTooLong { input } => say!(lang, "calendar.span_too_long", input),
            CalendarError::UnknownWeekday {
                input,
                word,
                nearest,
            } => say!(lang, "calendar.unknown_weekday", input, word, nearest),
            CalendarError::NoWeekday => say!(lang, "calendar.no_weekday"),
            CalendarError::InvalidTimeOfDay { input } => {
                say!(lang, "calendar.invalid_time_of_day", input)
            }
            CalendarError::InvalidDateTime { input } => {
                say!(lang, "calendar.invalid_date_time", input)
            }
            CalendarError::UnknownTimeZone { input, nearest } => {
                say!(lang, "calendar.unknown_time_zone", input, nearest)
            }
            CalendarError::ZeroPhase { kind } => {
                let kind = match kind {
                    PhaseKind::Movement => say!(lang, "zero_phase_kind.movement"),
                    PhaseKind::Retreat => say!(lang, "zero_phase_kind.retreat"),
                    PhaseKind::Adjustment => say!(lang, "zero_phase_kind.adjustment"),
                };
                say!(lang, "calendar.zero_phase", kind)
            }
            CalendarError::InvalidReminder { reminder, longest } => say!(
                lang,
                "calendar.invalid_reminder",
                reminder = span(reminder),
                longest = span(longest)
            ),
            CalendarError::ExtensionTooLong { by, already, max } => {
                let left = max.as_minutes().saturating_sub(already.as_minutes());
                let left = (left > 0).then(|| span(&Span::minutes(left)));
                say!(
                    lang,
                    "calendar.extension_too_long",
                    by = span(by),
                    already = span(already),
                    max = span(max),
                    left
                )
            }
        }
    }
}

/// In English, as every error of the store and of the command line is.
impl fmt::Display for CalendarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for CalendarError {}

impl OrderProblem {
    /// `ligne 3, colonne 10 : « Nerra » ? vouliez-vous dire Néra (Ner) ?` — where and why,
    /// without the line itself (shown beside it).
    pub fn message(&self, lang: Lang) -> String {
        let line = self.line;
        match (self.kind(), lang) {
            (OrderProblemKind::Unreadable(e), _) => {
                let source: Arc<str> = Arc::from("");
                e.clone()
                    .relocated(&source, u32::try_from(line).unwrap_or(u32::MAX))
                    .message(lang)
            }
            (OrderProblemKind::OtherHouse { written, sender }, _) => {
                say!(lang, "order_problem.other_house", line, written, sender)
            }
            (
                OrderProblemKind::NotYourUnit {
                    owner: Some(owner),
                    sender,
                },
                _,
            ) => say!(lang, "order_problem.not_your_unit", line, owner, sender),
            (OrderProblemKind::NotYourUnit { owner: None, .. }, _) => {
                say!(lang, "order_problem.neutral_unit", line)
            }
            (OrderProblemKind::Block { last, problem }, _) => {
                super::conditional::block_refused(line, *last, problem, lang)
            }
        }
    }
}

impl Incompatibility {
    /// What the new version cannot read, in words (`incompatibility.*`).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Incompatibility::Houses { missing, added } => {
                say!(lang, "incompatibility.houses", missing, added)
            }
            Incompatibility::Position { reason } => {
                say!(lang, "incompatibility.position", reason)
            }
            Incompatibility::Order { house, text } => {
                say!(lang, "incompatibility.order", house, text)
            }
            Incompatibility::History { number, reason } => {
                say!(lang, "incompatibility.history", number, reason)
            }
        }
    }
}
