//! What a game's pages show beyond its maps and press: each phase's orders with their
//! outcomes (the public results, as the results mail to everyone gives them), the
//! supply-centre chart, the game's public data as `game.json` and its phases as an Atom
//! feed (`feed.xml`). docs/publish.md says what each holds; docs/game-json.schema.json is
//! the form of `game.json`.

use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use crate::draw::xml_text;
use crate::game::{Game, PhaseRecord};
use crate::judge::Phase;
use crate::lang::Lang;
use crate::map::Variant;
use crate::position::write_position;
use crate::report::localized;

/// Version of `game.json`; bumped when a field changes meaning or goes.
pub const GAME_JSON_FORMAT: u32 = 1;

/// The results of a phase as everyone may read them, names in `lang`: the results mail's
/// public audience, so no rejected line (a house's own mistakes and superseded sets stay
/// between it and the moderator). None: results stored in a form this corbeau cannot read.
pub(super) fn public_results(record: &PhaseRecord, variant: &Variant, lang: Lang) -> Option<Json> {
    let mut view = record.results.view()?.clone();
    view.rejected.clear();
    view.counts.rejected = 0;
    Some(localized(&view, variant, lang))
}

/// The width and height of the chart's drawing, in its own units. Narrow on purpose: a
/// phone's column (about 386 CSS px at 412 px) shows it at no less than its size, so its
/// 12-unit labels never read under 12 px.
const CHART_W: f64 = 360.0;
const CHART_H: f64 = 200.0;
const LEFT: f64 = 30.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;
/// At most this many year labels under the chart: more would run into each other.
const MAX_X_LABELS: usize = 7;
/// The stroke of the last house's line, and how much wider each line before it is.
const SERIES_WIDTH: f64 = 2.0;
const SERIES_STEP: f64 = 1.5;

/// The supply centres of each house over the years, for the chart and its table: a point
/// at the start of the game (before its first phase) and one at the end of each year
/// played (after its last phase). None before any phase is played.
pub(super) fn centre_chart(variant: &Variant, records: &[PhaseRecord], lang: Lang) -> Option<Json> {
    let first = records.first()?;
    // (label, counts): the year's label is its number, the start's is the template's.
    let mut points: Vec<(Option<i32>, Vec<usize>)> =
        vec![(None, first.position_before.centre_counts(variant))];
    for (i, record) in records.iter().enumerate() {
        let last_of_year = records
            .get(i + 1)
            .is_none_or(|next| next.phase.year != record.phase.year);
        if last_of_year {
            points.push((
                Some(record.phase.year),
                record.position_after.centre_counts(variant),
            ));
        }
    }
    let top = points
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    // Round the scale up to an even number so that its middle tick is a whole number.
    let top = top + top % 2;
    let span_x = (points.len() - 1).max(1) as f64;
    let x = |i: usize| LEFT + (CHART_W - LEFT - RIGHT) * i as f64 / span_x;
    let y = |n: usize| TOP + (CHART_H - TOP - BOTTOM) * (1.0 - n as f64 / top as f64);
    let holding: Vec<_> = variant
        .houses
        .iter()
        .enumerate()
        .filter(|(h, _)| {
            points
                .iter()
                .any(|(_, c)| c.get(*h).copied().unwrap_or(0) > 0)
        })
        .collect();
    // Each line sits exactly on its counts: a line moved apart to stay visible would read
    // as up to half a centre more or less. Houses with as many centres run on one line,
    // so the lines are drawn thickest first, each one step thinner than the one before:
    // every colour shows along a shared stretch as a stripe of the band.
    let widest = SERIES_WIDTH + SERIES_STEP * (holding.len().max(1) - 1) as f64;
    let series: Vec<Json> = holding
        .iter()
        .enumerate()
        .map(|(k, &(h, house))| {
            let counts: Vec<usize> = points
                .iter()
                .map(|(_, c)| c.get(h).copied().unwrap_or(0))
                .collect();
            let mut line = String::new();
            for (i, n) in counts.iter().enumerate() {
                let _ = write!(
                    line,
                    "{}{:.1},{:.1}",
                    if i > 0 { " " } else { "" },
                    x(i),
                    y(*n)
                );
            }
            json!({
                "name": house.name_in(lang),
                "colour": super::safe_colour(&house.colour),
                "counts": counts,
                "points": line,
                "width": format!("{:.1}", widest - SERIES_STEP * k as f64),
            })
        })
        .collect();
    let step = points.len().div_ceil(MAX_X_LABELS).max(1);
    let x_labels: Vec<Json> = points
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i + 1 == points.len())
        .map(|(i, (year, _))| json!({ "x": format!("{:.1}", x(i)), "year": year }))
        .collect();
    let y_labels: Vec<Json> = [0, top / 2, top]
        .iter()
        .map(|n| json!({ "y": format!("{:.1}", y(*n)), "n": n }))
        .collect();
    Some(json!({
        "width": CHART_W,
        "height": CHART_H,
        "left": LEFT,
        "right": CHART_W - RIGHT,
        "bottom": CHART_H - BOTTOM,
        "label_y": CHART_H - 6.0,
        "years": points.iter().map(|(year, _)| *year).collect::<Vec<_>>(),
        "series": series,
        "x_labels": x_labels,
        "y_labels": y_labels,
    }))
}

fn phase_json(phase: Phase) -> Json {
    serde_json::to_value(phase).unwrap_or(Json::Null)
}

/// `game.json`: the game's public data (docs/game-json.schema.json). The same things the
/// pages show, for programs: no address, no secret, no press, no rejected line.
pub(super) fn game_json(
    game: &Game,
    variant: &Variant,
    records: &[PhaseRecord],
    lang: Lang,
) -> Json {
    let centres = game.position().centre_counts(variant);
    let houses: Vec<Json> = game
        .seats()
        .iter()
        .filter_map(|seat| {
            let id = variant.house_by_name(seat.house())?;
            let house = variant.house(id);
            Some(json!({
                "id": house.id,
                "name": house.name_in(lang),
                "colour": super::safe_colour(&house.colour),
                "centres": centres.get(usize::from(id.0)).copied().unwrap_or(0),
                "civil_disorder": seat.civil_disorder(),
            }))
        })
        .collect();
    let phases: Vec<Json> = records
        .iter()
        .map(|record| {
            json!({
                "index": record.index,
                "phase": phase_json(record.phase),
                "name": crate::report::game_text::phase_text(record.phase, lang),
                "processed": record.processed.to_rfc3339(),
                "page": super::phase_page(record.index),
                "results": public_results(record, variant, lang),
                "position": write_position(variant, &record.position_after),
            })
        })
        .collect();
    let playing = game.ending().is_none();
    json!({
        "format": GAME_JSON_FORMAT,
        "id": game.id(),
        "name": game.name(),
        "lang": lang.code(),
        "variant": { "id": variant.id, "name": variant.name_in(lang) },
        "players": game.players(),
        "status": serde_json::to_value(game.status()).unwrap_or(Json::Null),
        "phase": playing.then(|| phase_json(game.phase())),
        "ending": game.ending().map(|e| crate::report::game_text::ending_text(e, variant, lang)),
        "houses": houses,
        "position": write_position(variant, game.position()),
        "phases": phases,
    })
}

/// A stable `urn:uuid:` for the feed and its entries. A site has no address of its own
/// (it may be served from anywhere, or opened from disk), so the ids are made from what
/// names the game for good: its id and the moment it was created. Version 8 (RFC 9562):
/// made by the application, from a hash.
fn feed_id(game: &Game, entry: Option<u32>) -> String {
    let created = game.created().to_rfc3339();
    let entry = entry.map(|i| i.to_string()).unwrap_or_default();
    let part = |salt: &[u8]| {
        u64::from_str_radix(
            &super::fingerprint(&[
                salt,
                game.id().as_bytes(),
                created.as_bytes(),
                entry.as_bytes(),
            ]),
            16,
        )
        .unwrap_or(0)
    };
    let (high, low) = (part(b"feed-high"), part(b"feed-low"));
    let high = (high & !0xf000) | 0x8000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// One entry of the feed: a played phase, its page and its public results.
pub(super) struct FeedEntry {
    pub index: u32,
    pub title: String,
    pub updated: String,
    pub results: String,
}

/// `feed.xml`: an Atom feed (RFC 4287) of the game's played phases, newest first, each
/// linking to its page and holding its public results as text. Links are relative to the
/// feed, which sits beside the pages.
pub(super) fn feed(game: &Game, entries: &[FeedEntry]) -> String {
    let updated = entries
        .iter()
        .map(|e| e.updated.clone())
        .max()
        .unwrap_or_else(|| game.created().to_rfc3339());
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(out, "  <id>{}</id>", feed_id(game, None));
    let _ = writeln!(out, "  <title>{}</title>", xml_text(game.name()));
    let _ = writeln!(out, "  <updated>{updated}</updated>");
    out.push_str("  <author><name>corbeau</name></author>\n");
    out.push_str("  <link rel=\"self\" type=\"application/atom+xml\" href=\"feed.xml\"/>\n");
    out.push_str("  <link rel=\"alternate\" type=\"text/html\" href=\"index.html\"/>\n");
    out.push_str("  <generator>corbeau</generator>\n");
    for entry in entries.iter().rev() {
        out.push_str("  <entry>\n");
        let _ = writeln!(out, "    <id>{}</id>", feed_id(game, Some(entry.index)));
        let _ = writeln!(out, "    <title>{}</title>", xml_text(&entry.title));
        let _ = writeln!(out, "    <updated>{}</updated>", entry.updated);
        let _ = writeln!(
            out,
            "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>",
            super::phase_page(entry.index)
        );
        let _ = writeln!(
            out,
            "    <content type=\"text\">{}</content>",
            xml_text(&entry.results)
        );
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_and_forbidden_characters_go() {
        assert_eq!(
            xml_text("<a href=\"x\">'&'</a>\u{1}\n"),
            "&lt;a href=&quot;x&quot;&gt;'&amp;'&lt;/a&gt;\n"
        );
    }
}
