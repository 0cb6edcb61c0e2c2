//! Queued notices (results, reminders, the game's events) turned into mails: one per
//! recipient, in the recipient's language. A notice and its mails change places in one
//! transaction, so a crash never loses the news nor tells it twice.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::Config;
use crate::game::{Game, GameError, Notice, NoticeKind};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::game_text::{Audience, ending_text, phase_text, record_results_for};
use crate::service::Service;

use super::compose::{compose, mail, subject};
use super::outmail::OutMail;

/// Turns every queued notice into mails in the outbox; returns how many mails.
pub fn queue_notices(
    service: &Service,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<usize, GameError> {
    let mut queued = 0;
    for (key, notice) in service.store.notices()? {
        let mails = match service.store.game(&notice.game)? {
            Some(game) => {
                let variant = service.variant(&game.variant)?;
                mails_for(service, config, &game, &variant, &notice, now)?
            }
            // A game deleted since: nobody left to tell.
            None => Vec::new(),
        };
        queued += mails.len();
        service.store.notice_to_mails(key, &mails)?;
    }
    Ok(queued)
}

/// Who hears of a notice: the houses named (a reminder), else every player, the
/// moderator and the observers.
fn recipients(game: &Game, notice: &Notice) -> Vec<(String, Lang)> {
    let mut to: Vec<(String, Lang)> = game
        .seats
        .iter()
        .filter(|s| notice.houses.is_empty() || notice.houses.contains(&s.house))
        .filter(|s| !s.resigned)
        .filter_map(|s| s.player.as_ref().map(|p| (p.address.clone(), p.lang)))
        .collect();
    if notice.houses.is_empty() {
        if let Some(m) = &game.moderator {
            // `settings.lang`: the language of the moderator's results and notices.
            to.push((m.address.clone(), game.settings.lang));
        }
        to.extend(game.observers.iter().map(|o| (o.address.clone(), o.lang)));
    }
    let mut seen = std::collections::HashSet::new();
    to.retain(|(a, _)| seen.insert(a.clone()));
    to
}

fn mails_for(
    service: &Service,
    config: &Config,
    game: &Game,
    variant: &Variant,
    notice: &Notice,
    now: DateTime<Utc>,
) -> Result<Vec<OutMail>, GameError> {
    let to = recipients(game, notice);
    if to.is_empty() {
        return Ok(Vec::new());
    }
    let render_error = |e: crate::report::RenderError| GameError::Internal(e.to_string());
    // The phase record of a results notice, read once for all its recipients, and
    // whether it is the last phase played.
    let results = match &notice.kind {
        NoticeKind::Results { index } => match service.store.phase(&game.id, *index)? {
            Some(record) => {
                let last = service.store.last_phase(&game.id)?.map(|r| r.index);
                Some((record, last == Some(*index)))
            }
            // Rolled back before it was told: nothing to send.
            None => return Ok(Vec::new()),
        },
        _ => None,
    };
    // One text per language and audience: a house reads its own rejected lines, the
    // moderator everyone's, the others none (`Audience`).
    let mut bodies: HashMap<(Lang, Audience), (String, Value)> = HashMap::new();
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
                    let phase = record.results.get("phase").cloned().unwrap_or(Value::Null);
                    slot.insert((text, phase));
                }
                let (text, phase) = &bodies[&key];
                let data = json!({ "game": { "id": game.id }, "phase": phase });
                let subject = subject(config, "results", data, lang).map_err(render_error)?;
                mail(config, &address, subject, text.clone(), now)
            }
            None => {
                let data = notice_data(game, variant, &notice.kind, lang);
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
            }
        };
        mails.push(mail.about(&game.id));
    }
    Ok(mails)
}

/// Who an address is in the game, for the results it may read: the moderator, a house's
/// player, or anybody else (observers).
fn audience_of(game: &Game, address: &str) -> Audience {
    if game
        .moderator
        .as_ref()
        .is_some_and(|m| m.address == address)
    {
        return Audience::Moderator;
    }
    game.seats
        .iter()
        .find(|s| !s.resigned && s.player.as_ref().is_some_and(|p| p.address == address))
        .map_or(Audience::Public, |s| Audience::House(s.house.clone()))
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
    }
}

fn notice_data(game: &Game, variant: &Variant, kind: &NoticeKind, lang: Lang) -> Value {
    let house = match kind {
        NoticeKind::PlayerReplaced { house } | NoticeKind::Resigned { house } => variant
            .house_by_name(house)
            .map(|h| variant.house(h).name.clone()),
        _ => None,
    };
    json!({
        "kind": kind_word(kind),
        "game": { "id": game.id, "name": game.name },
        "phase": phase_text(game.phase, lang),
        "deadline": game.deadline_text(lang),
        "deadline_utc": game.deadline.map(|d| d.to_rfc3339()),
        "house": house,
        "ending": game.ending.as_ref().map(|e| ending_text(e, variant, lang)),
    })
}
