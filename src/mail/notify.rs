//! Queued notices (results, reminders, the game's events) turned into mails: one per
//! recipient, in the recipient's language. A notice and its mails change places in one
//! transaction, so a crash never loses the news nor tells it twice.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::Config;
use crate::game::{Game, Notice, NoticeKind};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::format_deadline;
use crate::report::game_text::{Audience, ending_text, phase_text, record_results_for};
use crate::report::summary::{grey_authors_text, summary_body};
use crate::service::{Service, ServiceError};

use super::board;
use super::compose::{compose, mail, subject};
use super::outmail::{Attachment, OutMail};

/// Turns every queued notice into mails in the outbox; returns how many mails.
pub fn queue_notices(
    service: &Service,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<Notified, ServiceError> {
    let mut notified = Notified::default();
    for (key, notice) in service.pending_notices()? {
        if notified.held.iter().any(|(id, _)| *id == notice.game) {
            continue;
        }
        // A game that cannot be read (its store damaged) keeps its notices queued, and
        // holds back no other game's.
        let read = service.find_game(&notice.game).and_then(|game| match game {
            Some(game) => Ok(Some((service.variant(game.variant())?, game))),
            None => Ok(None),
        });
        let read = match read {
            Ok(read) => read,
            Err(e) => {
                notified.held.push((notice.game.clone(), e));
                continue;
            }
        };
        let mails = match read {
            Some((variant, game)) => {
                match mails_for(service, config, &game, &variant, &notice, now) {
                    Ok(mails) => mails,
                    // A moderator's template that fails must not hold this notice and every
                    // one behind it for ever: the built-in templates tell it.
                    Err(_) if config.templates.is_some() => {
                        let builtin = Config {
                            templates: None,
                            ..config.clone()
                        };
                        mails_for(service, &builtin, &game, &variant, &notice, now)?
                    }
                    Err(e) => return Err(e),
                }
            }
            // A game deleted since: nobody left to tell.
            None => Vec::new(),
        };
        notified.queued += mails.len();
        let sealed: Vec<_> = mails.iter().map(OutMail::seal).collect();
        service.notice_told(key, &sealed)?;
    }
    Ok(notified)
}

/// What [`queue_notices`] did.
#[derive(Debug, Default)]
pub struct Notified {
    /// Mails written from notices.
    pub queued: usize,
    /// Games whose notices stay queued, their game unreadable, with the reason.
    pub held: Vec<(String, ServiceError)>,
}

/// Who hears of a notice: the houses named (a reminder), else every player, the
/// moderator and the observers. A house's missed deadline or civil disorder goes to its
/// player and the moderator, who may have to find someone.
fn recipients(game: &Game, notice: &Notice) -> Vec<(String, Lang)> {
    let moderator_too = matches!(
        notice.kind,
        NoticeKind::Missed { .. } | NoticeKind::CivilDisorder { .. }
    );
    // A failed address is the moderator's business (it names the address); when the
    // moderator's own address is the one failing, nobody can be told by mail.
    if let NoticeKind::Undeliverable { address, .. } = &notice.kind {
        return game
            .moderator()
            .iter()
            .filter(|m| m.address != *address)
            .map(|m| (m.address.clone(), game.settings().lang))
            .collect();
    }
    if let NoticeKind::SignOnFailures { house, .. } = &notice.kind {
        return throttle_recipients(game, house.as_deref());
    }
    match &notice.kind {
        // A seat taken or asked for is the moderator's business.
        NoticeKind::Joined { .. } | NoticeKind::SeatAsked { .. } => {
            return game
                .moderator()
                .iter()
                .map(|m| (m.address.clone(), game.settings().lang))
                .collect();
        }
        // The outgoing player, or the address that asked, is in the game no more (or
        // not yet): the notice names it.
        NoticeKind::SeatLost { address, lang, .. }
        | NoticeKind::SeatRefused { address, lang, .. } => {
            return vec![(address.clone(), *lang)];
        }
        _ => {}
    }
    let mut to: Vec<(String, Lang)> = game
        .seats()
        .iter()
        .filter(|s| notice.houses.is_empty() || notice.houses.iter().any(|x| x == s.house()))
        .filter(|s| !s.resigned())
        .filter_map(|s| s.player().map(|p| (p.address().to_string(), p.lang())))
        .collect();
    if (notice.houses.is_empty() || moderator_too)
        && let Some(m) = &game.moderator()
    {
        // `settings.lang`: the language of the moderator's results and notices.
        to.push((m.address.clone(), game.settings().lang));
    }
    if notice.houses.is_empty() {
        to.extend(game.observers().iter().map(|o| (o.address.clone(), o.lang)));
    }
    let mut seen = std::collections::HashSet::new();
    to.retain(|(a, _)| seen.insert(a.clone()));
    to
}

/// Who hears that sign-ons failed again and again: the house's player (if the house was the
/// target) and the moderator; never the observers, nor the other houses.
fn throttle_recipients(game: &Game, house: Option<&str>) -> Vec<(String, Lang)> {
    let mut to: Vec<(String, Lang)> = house
        .and_then(|h| game.seat(h))
        .filter(|s| !s.resigned())
        .and_then(|s| s.player())
        .map(|p| (p.address().to_string(), p.lang()))
        .into_iter()
        .collect();
    if let Some(m) = &game.moderator()
        && to.iter().all(|(a, _)| *a != m.address)
    {
        to.push((m.address.clone(), game.settings().lang));
    }
    to
}

fn mails_for(
    service: &Service,
    config: &Config,
    game: &Game,
    variant: &Variant,
    notice: &Notice,
    now: DateTime<Utc>,
) -> Result<Vec<OutMail>, ServiceError> {
    let to = recipients(game, notice);
    if to.is_empty() {
        return Ok(Vec::new());
    }
    let render_error = ServiceError::Render;
    // The phase record of a results notice, read once for all its recipients, and
    // whether it is the last phase played.
    let results = match &notice.kind {
        NoticeKind::Results { index } => match service.phase_played(game.id(), *index)? {
            Some(record) => {
                let last = service.last_phase(game.id())?.map(|r| r.index);
                Some((record, last == Some(*index)))
            }
            // Rolled back before it was told: nothing to send.
            None => return Ok(Vec::new()),
        },
        _ => None,
    };
    // One text per language and audience: a house reads its own rejected lines, the
    // moderator everyone's, the others none (`Audience`).
    let mut bodies: HashMap<(Lang, Audience), String> = HashMap::new();
    // The end of a game tells its summary (issue 23, D13): the history, read once; its
    // replay is the game-over mail's picture.
    let history = match notice.kind {
        NoticeKind::GameOver => Some(service.history(game.id())?),
        _ => None,
    };
    // One picture per language (its title and legend are in the reader's words), drawn
    // once for all the readers of that language, not once a mail.
    let mut pictures: HashMap<Lang, Option<Attachment>> = HashMap::new();
    let mut picture = |lang: Lang| {
        pictures
            .entry(lang)
            .or_insert_with(|| match (&results, &notice.kind) {
                (Some((record, _)), _) => board::phase_attachment(variant, game, record, lang),
                (None, NoticeKind::Started) => board::current_attachment(variant, game, lang),
                (None, NoticeKind::GameOver) => history
                    .as_deref()
                    .and_then(|records| board::replay_attachment(variant, game, records, lang)),
                _ => None,
            })
            .clone()
    };
    // Grey press is anonymous while the game runs; at its end, its authors are told
    // where the moderator said so (`SET GREY AUTHORS shown`).
    let trail = match notice.kind {
        NoticeKind::GameOver if game.settings().reveal_grey => {
            Some(service.audit_trail(game.id())?)
        }
        _ => None,
    };
    // The position the game begins with, for each house's own units in its mail.
    let start = match notice.kind {
        NoticeKind::Started => Some(game.position().clone()),
        _ => None,
    };
    let mut mails = Vec::new();
    for (address, lang) in to {
        let mail = match &results {
            Some((record, is_last)) => {
                let audience = audience_of(game, &address).narrowed(record);
                let key = (lang, audience);
                if let Entry::Vacant(slot) = bodies.entry(key.clone()) {
                    let text = record_results_for(
                        game,
                        variant,
                        record,
                        *is_last,
                        &key.1,
                        lang,
                        config.templates.as_deref(),
                    )
                    .map_err(render_error)?;
                    slot.insert(text);
                }
                let text = &bodies[&key];
                // The phase the results are of (theirs, `phase`, is the same), read even
                // when the stored results are not.
                let data = json!({ "game": { "id": game.id() }, "phase": record.phase });
                let subject = subject(config, "results", data, lang).map_err(render_error)?;
                let picture = wants_picture(game, &address)
                    .then(|| picture(lang))
                    .flatten();
                mail(config, &address, subject, text.clone(), now).carrying(picture.as_ref())
            }
            None => {
                let mut data = notice_data(game, variant, &notice.kind, lang);
                if let (Some(records), Some(map)) = (&history, data.as_object_mut()) {
                    let summary = summary_body(game, variant, records, lang);
                    map.insert("summary".into(), Value::String(summary.trim().to_string()));
                }
                if let (Some(trail), Some(map)) = (&trail, data.as_object_mut())
                    && let Some(grey) = grey_authors_text(game, variant, trail, lang)
                {
                    map.insert("grey".into(), Value::String(grey.trim_end().to_string()));
                }
                // "The game begins": each player reads what their own house commands.
                if let (Some(position), Audience::House(house)) =
                    (&start, audience_of(game, &address))
                    && let Some(map) = data.as_object_mut()
                {
                    let brief = board::house_brief(variant, position, &house, lang);
                    map.insert(
                        "own".into(),
                        crate::report::localized(&brief, variant, lang),
                    );
                }
                compose(
                    config,
                    "notice.txt",
                    kind_word(&notice.kind),
                    data,
                    &address,
                    lang,
                    now,
                )
                .map_err(render_error)?
                .carrying(
                    wants_picture(game, &address)
                        .then(|| picture(lang))
                        .flatten()
                        .as_ref(),
                )
            }
        };
        mails.push(mail.about(game.id()));
    }
    Ok(mails)
}

/// Whether the mail to `address` carries the board's picture: not when it is a player's
/// who turned their own pictures off (`SET PICTURES off`); the game's switch is read where
/// the picture is drawn.
fn wants_picture(game: &Game, address: &str) -> bool {
    !game.seats().iter().any(|s| {
        !s.resigned()
            && s.player()
                .is_some_and(|p| p.address() == address && !p.pictures())
    })
}

/// Who an address is in the game, for the results it may read: the moderator, a house's
/// player, or anybody else (observers).
fn audience_of(game: &Game, address: &str) -> Audience {
    if game
        .moderator()
        .as_ref()
        .is_some_and(|m| m.address == address)
    {
        return Audience::Moderator;
    }
    game.seats()
        .iter()
        .find(|s| !s.resigned() && s.player().is_some_and(|p| p.address() == address))
        .map_or(Audience::Public, |s| Audience::House(s.house().clone()))
}

fn kind_word(kind: &NoticeKind) -> &'static str {
    match kind {
        NoticeKind::Started => "started",
        NoticeKind::Results { .. } => "results",
        NoticeKind::Reminder { .. } => "reminder",
        NoticeKind::PlayerReplaced { .. } => "replaced",
        NoticeKind::Resigned { .. } => "resigned",
        NoticeKind::DeadlineChanged { .. } => "deadline",
        NoticeKind::Paused => "paused",
        NoticeKind::Resumed => "resumed",
        NoticeKind::RolledBack { .. } => "rolled-back",
        NoticeKind::GameOver => "game-over",
        NoticeKind::Grace { .. } => "grace",
        NoticeKind::Missed { .. } => "missed",
        NoticeKind::CivilDisorder { .. } => "civil-disorder",
        NoticeKind::Undeliverable { .. } => "undeliverable",
        NoticeKind::SignOnFailures { .. } => "sign-on-failures",
        NoticeKind::Joined { .. } => "joined",
        NoticeKind::SeatAsked { .. } => "seat-asked",
        NoticeKind::SeatLost { .. } => "seat-lost",
        NoticeKind::SeatRefused { .. } => "seat-refused",
    }
}

fn notice_data(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Value {
    let house = match kind {
        NoticeKind::PlayerReplaced { house }
        | NoticeKind::Resigned { house }
        | NoticeKind::Missed { house, .. }
        | NoticeKind::CivilDisorder { house, .. } => variant
            .house_by_name(house)
            .map(|h| variant.house(h).name_in(lang).to_string()),
        NoticeKind::SignOnFailures {
            house: Some(house), ..
        } => variant
            .house_by_name(house)
            .map(|h| variant.house(h).name_in(lang).to_string()),
        _ => None,
    };
    let (failures, since) = match kind {
        NoticeKind::SignOnFailures {
            failures, since, ..
        } => (
            Some(*failures),
            Some(format_deadline(
                *since,
                game.settings().schedule.time_zone,
                lang,
            )),
        ),
        _ => (None, None),
    };
    let zone = game.settings().schedule.time_zone;
    // The phase the notice is about, when it is not the one being played (a missed
    // deadline is told once the phase is processed).
    let (missed_phase, missed_kind, missed) = match kind {
        NoticeKind::Missed {
            phase, missed: n, ..
        } => (Some(*phase), Some(*phase), Some(*n)),
        NoticeKind::CivilDisorder { phase, .. } => (Some(*phase), Some(*phase), None),
        _ => (None, None, None),
    };
    json!({
        "kind": kind_word(kind),
        "game": { "id": game.id(), "name": game.name() },
        "phase": phase_text(game.phase(), lang),
        "deadline": game.deadline_text(lang),
        "deadline_utc": game.deadline().map(|d| d.to_rfc3339()),
        "house": house,
        "ending": game.ending().map(|e| ending_text(e, variant, lang)),
        "grace_end": match kind {
            NoticeKind::Grace { until, .. } => Some(format_deadline(*until, zone, lang)),
            _ => None,
        },
        "missed_phase": missed_phase.map(|p| phase_text(p, lang)),
        "missed_kind": missed_kind.map(|p| p.kind),
        "missed": missed,
        "civil_disorder_after": game.settings().civil_disorder_after,
        "failure": match kind {
            NoticeKind::Undeliverable { address, reason, house } => json!({
                "address": address,
                "reason": reason,
                "house": house.as_ref().map(|h| variant
                    .house_by_name(h)
                    .map_or_else(|| h.to_string(), |i| variant.house(i).name_in(lang).to_string())),
            }),
            _ => Value::Null,
        },
        "failures": failures,
        "since": since,
        "join": join_text(game, variant, kind, lang),
        "join_subject": match kind {
            NoticeKind::Joined { .. } => Some(crate::say!(lang, "join.subject_joined")),
            NoticeKind::SeatAsked { .. } => Some(crate::say!(lang, "join.subject_asked")),
            NoticeKind::SeatLost { .. } => Some(crate::say!(lang, "join.subject_lost")),
            NoticeKind::SeatRefused { .. } => Some(crate::say!(lang, "join.subject_refused")),
            _ => None,
        },
    })
}

/// The sentence of a notice about a seat taken, asked for, lost or refused (issue 23,
/// joining): worded here, from the message catalogue, and shown as it is by the template.
fn join_text(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Option<String> {
    let name = |house: &str| {
        variant.house_by_name(house).map_or_else(
            || house.to_string(),
            |h| variant.house(h).name_in(lang).to_string(),
        )
    };
    let id = game.id();
    Some(match kind {
        NoticeKind::Joined {
            house,
            address,
            left,
            started,
        } => crate::say!(
            lang,
            "join.notice_joined",
            house = name(house),
            address,
            left,
            started,
            phase = phase_text(game.phase(), lang),
            deadline = game.deadline_text(lang)
        ),
        NoticeKind::SeatAsked { house, address } => crate::say!(
            lang,
            "join.notice_asked",
            house = name(house),
            id = house.to_string(),
            address,
            game = id
        ),
        NoticeKind::SeatLost { house, removed, .. } => crate::say!(
            lang,
            "join.notice_lost",
            house = name(house),
            removed,
            game = id
        ),
        NoticeKind::SeatRefused { house, .. } => {
            crate::say!(lang, "join.notice_refused", house = name(house), game = id)
        }
        _ => return None,
    })
}
