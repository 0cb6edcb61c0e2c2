//! The board in the judge's mails: its picture attached (results, welcome, "the game
//! begins", `CARTE`), and what a house commands at the start — its units, its home
//! centres and an example order it could really give (docs/email.md, "Pictures").
//!
//! A picture is an extra: when it cannot be drawn (a variant file without drawing data)
//! the mail goes without it, its text complete; the moderator's setting `pictures` turns
//! them off for the whole game.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;

use crate::config::Config;
use crate::game::{Game, PhaseRecord};
use crate::judge::{PhaseKind, Position};
use crate::lang::Lang;
use crate::map::{Crossing, HouseId, Owner, ProvinceKind, RegionId, UnitKind, Variant};
pub use crate::report::DislodgedBrief;
use crate::report::game_text::{Audience, phase_text, record_results_for, status_word};
use crate::report::{PhaseAsk, Place, UnitView, province_place, unit_view};
use crate::service::picture::{Format, current_picture, phase_picture};
use crate::service::{Service, ServiceError};

use super::compose::compose;
use super::outmail::{Attachment, OutMail};

/// A player just seated, to be welcomed.
#[derive(Debug, Clone, Copy)]
pub struct Welcome<'a> {
    /// The house as written or its id (resolved against the variant).
    pub house: &'a str,
    pub address: &'a str,
    /// The player's secret, in clear: the welcome mail is where the player learns it.
    pub secret: &'a str,
    pub lang: Lang,
    /// The player takes over a house (`REMPLACER`, `player replace`).
    pub replace: bool,
    /// The player asked for the house by mail (`JOIN`, `TAKEOVER`): no moderator gave it.
    pub asked: bool,
}

impl<'a> Welcome<'a> {
    /// The welcome a seating calls for, by mail or by the command line alike.
    pub fn of(event: &'a crate::game::Event) -> Option<Welcome<'a>> {
        match event {
            crate::game::Event::Seated {
                house,
                address,
                lang,
                replaced,
                secret,
            } => Some(Welcome {
                house,
                address,
                secret: &secret.0,
                lang: *lang,
                replace: *replaced,
                asked: false,
            }),
            _ => None,
        }
    }
}

/// The welcome mail of a player seated in `game` (already changed): the secret, what the
/// house commands and an example order of its own, the board as it stands, and for a
/// replacement the game's last results as that house reads them. Written the same for
/// `AJOUTER`/`REMPLACER` by mail and `player add/replace --welcome`.
pub fn welcome_mail(
    service: &Service,
    config: &Config,
    game: &Game,
    variant: &Variant,
    welcome: &Welcome<'_>,
    now: DateTime<Utc>,
) -> Result<OutMail, ServiceError> {
    let internal = ServiceError::Render;
    let lang = welcome.lang;
    let house = game.house_id(variant, welcome.house)?;
    let name = variant.house_name_in(&house, lang);
    let address = crate::game::check_address(welcome.address)?;
    let own = house_brief(variant, game.position(), &house, lang)
        .map(|brief| crate::report::localized(&brief, variant, lang));
    let last = match service.last_phase(game.id())? {
        Some(record) if welcome.replace => Some(
            record_results_for(
                game,
                variant,
                &record,
                true,
                &Audience::House(house.clone()),
                lang,
                config.templates.as_deref(),
            )
            .map_err(internal)?,
        ),
        _ => None,
    };
    let data = json!({
        "game": { "id": game.id(), "name": game.name(), "variant": variant.name_in(lang) },
        "house": name,
        "secret": welcome.secret,
        "judge": config.judge.address,
        "status": status_word(game.status(), lang),
        "deadline": game.deadline_text(lang),
        "own": own,
        "replaced": welcome.replace,
        "asked": welcome.asked,
        "results": last,
    });
    let picture = current_attachment(variant, game, lang);
    let mail =
        compose(config, "welcome.txt", "welcome", data, &address, lang, now).map_err(internal)?;
    Ok(mail.about(game.id()).carrying(picture.as_ref()))
}

/// The board after the played phase `record`, with that phase's orders drawn, as a PNG
/// named after the game and the phase; none when the game's pictures are off or the
/// picture cannot be drawn.
pub fn phase_attachment(
    variant: &Variant,
    game: &Game,
    record: &PhaseRecord,
    lang: Lang,
) -> Option<Attachment> {
    if !game.settings().pictures {
        return None;
    }
    let stem = format!("{} {}", game.id(), phase_text(record.phase, lang));
    match phase_picture(variant, game, record, lang, Format::Png) {
        Ok(png) => Some(Attachment::png(&stem, png)),
        Err(e) => {
            no_picture(game.id(), &stem, &e);
            None
        }
    }
}

/// The board as it stands, as a PNG named after the game and its phase; none when the
/// game's pictures are off or the picture cannot be drawn.
pub fn current_attachment(variant: &Variant, game: &Game, lang: Lang) -> Option<Attachment> {
    if !game.settings().pictures {
        return None;
    }
    let stem = format!("{} {}", game.id(), phase_text(game.phase(), lang));
    match current_picture(variant, game, lang, Format::Png) {
        Ok(png) => Some(Attachment::png(&stem, png)),
        Err(e) => {
            no_picture(game.id(), &stem, &e);
            None
        }
    }
}

/// The replay of a finished game: an animated PNG of every played phase with its orders
/// drawn (`draw::replay`), named after the game; none when the game's pictures are off,
/// no phase was played, or it cannot be drawn.
pub fn replay_attachment(
    variant: &Variant,
    game: &Game,
    records: &[PhaseRecord],
    lang: Lang,
) -> Option<Attachment> {
    if !game.settings().pictures || records.is_empty() {
        return None;
    }
    let stem = format!("{} {}", game.id(), crate::say!(lang, "picture.replay"));
    match crate::service::picture::replay_picture(variant, game, records, lang) {
        Ok(png) => Some(Attachment::png(&stem, png)),
        Err(e) => {
            no_picture(game.id(), &stem, &e);
            None
        }
    }
}

/// What one house commands on a position: for the welcome and "the game begins" mails.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HouseBrief {
    /// The house's name.
    pub name: String,
    /// Its units on the board, armies first.
    pub units: Vec<UnitView>,
    /// Its home centres (where it builds).
    pub homes: Vec<Place>,
    /// An order the house may give on this position (`A Winterfell -> Moat Cailin`), as
    /// a player would type it; none when it has no unit that can move.
    pub example: Option<String>,
    /// Its units dislodged, waiting to retreat (a retreat phase), with where each may
    /// go: a player seated then has these to order, and nothing else.
    pub dislodged: Vec<DislodgedBrief>,
    /// What the position's phase asks of the house (its dislodged units are the ones
    /// above).
    pub asks: PhaseAsk,
}

/// The brief of `house` (an id or name of the variant) on `position`; none for a house
/// the variant does not know.
pub fn house_brief(
    variant: &Variant,
    position: &Position,
    house: &str,
    lang: Lang,
) -> Option<HouseBrief> {
    let id = variant.house_by_name(house)?;
    let mut units: Vec<_> = position
        .units
        .iter()
        .filter(|u| u.owner == Owner::House(id))
        .collect();
    // Armies first, as the example prefers them: their orders are the plainest.
    units.sort_by_key(|u| {
        (
            u.kind,
            variant
                .province(variant.province_of(u.region))
                .name_in(lang)
                .to_string(),
        )
    });
    let asks = PhaseAsk::of(variant, position, id);
    let homes = variant
        .house(id)
        .home
        .iter()
        .map(|&p| province_place(variant, p))
        .collect();
    Some(HouseBrief {
        name: variant.house(id).name_in(lang).to_string(),
        units: units.iter().map(|u| unit_view(variant, u)).collect(),
        homes,
        // A move is an order only in a movement phase; a player seated in a retreat or
        // an adjustment gets no example rather than a wrong one.
        example: (position.phase.kind == PhaseKind::Movement)
            .then(|| example_order(variant, position, id, lang))
            .flatten(),
        dislodged: asks.retreats().to_vec(),
        asks,
    })
}

/// A move of one of the house's own units to a province it may enter now, written with the
/// provinces' names: an army or a dragon to a whole province, a fleet to a sea or a
/// coast it sails along. An empty province is preferred (the order reads as a plain
/// move), a province without coasts to name (the order needs no coast).
pub fn example_order(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    lang: Lang,
) -> Option<String> {
    let mut units: Vec<_> = position
        .units
        .iter()
        .filter(|u| u.owner == Owner::House(house))
        .collect();
    units.sort_by_key(|u| u.kind);
    let mut best: Option<(u8, String)> = None;
    for unit in units {
        let from = variant.province(variant.province_of(unit.region));
        // The judge's own question: a ford open in this weather, an arrow of the house,
        // never a province closed in this game.
        let passage = position.passage(variant, unit.owner, Crossing::Move);
        for to in variant.region_ids() {
            if to == unit.region
                || !variant.can_move_by(unit.kind, unit.region, to, passage)
                || position.is_closed(variant.province_of(to))
            {
                continue;
            }
            let score = example_score(variant, position, unit.kind, to);
            if best.as_ref().is_some_and(|(s, _)| *s <= score) {
                continue;
            }
            let text = format!(
                "{} {} -> {}",
                unit.kind.letter(),
                from.name_in(lang),
                target_name(variant, to, lang)
            );
            best = Some((score, text));
        }
        // The first unit that can move at all gives the example: armies come first.
        if best.as_ref().is_some_and(|(s, _)| *s == 0) {
            break;
        }
    }
    best.map(|(_, text)| text)
}

/// Lower is better: an empty province of the unit's own element, without coasts.
fn example_score(variant: &Variant, position: &Position, kind: UnitKind, to: RegionId) -> u8 {
    let province = variant.province_of(to);
    let p = variant.province(province);
    let occupied = u8::from(position.unit_in(variant, province).is_some());
    let coasted = u8::from(variant.region(to).coast.is_some());
    // A dragon flying out to sea is legal but a strange first example.
    let odd = u8::from(kind == UnitKind::Dragon && p.kind == ProvinceKind::Sea);
    occupied + 2 * coasted + 4 * odd
}

/// A region as an order names it: the province's name, and its coast when it has one
/// (`Name/coast`).
fn target_name(variant: &Variant, region: RegionId, lang: Lang) -> String {
    let r = variant.region(region);
    let name = variant.province(r.province).name_in(lang);
    match &r.coast {
        Some(coast) => format!("{name}/{coast}"),
        None => name.to_string(),
    }
}

/// Says in the operator's log that a mail goes without its picture.
fn no_picture(game: &str, stem: &str, error: &dyn std::fmt::Display) {
    let error = error.to_string();
    tracing::warn!(
        game,
        "{}",
        crate::say!(crate::lang::operator(), "log.no_picture", game, stem, error)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{GivenOrder, Outcome, adjudicate};
    use crate::map::load_variant;
    use crate::order::parse_order;

    /// The example a seated player is shown is an order the judge carries out as given,
    /// whatever the weather and the provinces closed in the game: never across a ford
    /// the storm closed, along another house's arrow, or into a closed province.
    #[test]
    fn the_example_order_is_legal_in_every_weather_and_setup() {
        for (name, players) in [
            ("tempete", Some(3)),
            ("tempete", None),
            ("westeros", None),
            ("classique", None),
        ] {
            let variant = load_variant(name).expect(name);
            let start = Position::starting(&variant, players).expect("setup");
            let steps = variant.weather.as_ref().map_or(1, |w| w.track.len());
            for step in 0..steps {
                let mut position = start.clone();
                if variant.weather.is_some() {
                    position.weather = Some(step);
                }
                for house in variant.house_ids() {
                    for lang in [Lang::Fr, Lang::En] {
                        let Some(text) = example_order(&variant, &position, house, lang) else {
                            continue;
                        };
                        let source: std::sync::Arc<str> = std::sync::Arc::from("example");
                        let order = parse_order(&variant, &source, 1, &text)
                            .expect("readable")
                            .expect("an order");
                        let given = [GivenOrder {
                            house: Some(house),
                            order,
                        }];
                        let done = adjudicate(&variant, &position, &given);
                        assert!(done.rejected.is_empty(), "{name} {step}: `{text}` rejected");
                        for (_, report) in &done.reports {
                            assert!(
                                !matches!(report.outcome, Outcome::Illegal(_)),
                                "{name} step {step}: `{text}`: {:?}",
                                report.outcome
                            );
                        }
                    }
                }
            }
        }
    }
}
