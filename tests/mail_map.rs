//! The board in the mails: the results mail carries the picture after
//! its text, as a real MIME message parsed back with mail-parser; the welcome mail's
//! example order belongs to the house (every house of Westeros); `CARTE`/`MAP` answered
//! with the map, never for a stranger or an automatic mail; the game setting that turns
//! pictures off. Each picture costs ~150 ms to draw: the tests draw a handful.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use corbeau::config::Judge;
use corbeau::game::Settings;
use corbeau::judge::Position;
use corbeau::lang::Lang;
use corbeau::mail::board::house_brief;
use corbeau::mail::dispatch::Handled;
use corbeau::mail::outmail::{Media, OutMail};
use corbeau::mail::transport::message;
use corbeau::map::{Owner, UnitKind, Variant};
use corbeau::service::Envelope;
use mail_parser::{MessageParser, MimeHeaders, PartType};

use support::TempDir;
use support::world::{
    BARATHEON, GAME, GameSpec, JUDGE, LANNISTER, LANNISTER_SECRET, MODERATOR, MODERATOR_SECRET,
    STARK, STARK_SECRET, STRANGER, World, now,
};

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A judge with `westeros-1`: three players (Lannister reads English) and a moderator;
/// `start` starts it. The notices are turned into mails whenever the outbox is read.
fn world(name: &str, settings: Settings, start: bool) -> World {
    let mut w = World::westeros("mailmap", name, settings, start);
    w.subject = "carte";
    w
}

/// The mails queued since the last look (notices turned into mails first).
fn take(w: &World) -> Vec<OutMail> {
    w.notices(now())
}

fn judge() -> Judge {
    Judge {
        address: JUDGE.into(),
        ..Judge::default()
    }
}

fn to<'a>(mails: &'a [OutMail], address: &str) -> Vec<&'a OutMail> {
    mails.iter().filter(|m| m.to == address).collect()
}

/// The mail as the transport sends it, parsed back: its text part and its one PNG
/// (bytes, file name, disposition).
struct Parsed {
    content_type: String,
    text: String,
    png: Vec<u8>,
    name: String,
    disposition: String,
}

fn parse_sent(mail: &OutMail) -> Parsed {
    let raw = message(&mail.seal(), &judge()).unwrap().formatted();
    let m = MessageParser::default().parse(&raw).expect("a message");
    let ct = m.content_type().expect("a content type");
    let content_type = format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or_default());
    let parts: Vec<_> = m
        .parts
        .iter()
        .filter(|p| !matches!(p.body, PartType::Multipart(_)))
        .collect();
    assert_eq!(parts.len(), 2, "a text part and a picture");
    let text = match &parts[0].body {
        PartType::Text(t) => t.to_string(),
        other => panic!("the first part is not text: {other:?}"),
    };
    let png = match &parts[1].body {
        PartType::Binary(b) | PartType::InlineBinary(b) => b.to_vec(),
        other => panic!("the second part is not binary: {other:?}"),
    };
    let pct = parts[1].content_type().expect("the picture's type");
    assert_eq!((pct.ctype(), pct.subtype()), ("image", Some("png")));
    let disposition = parts[1].content_disposition().expect("a disposition");
    Parsed {
        content_type,
        text,
        png,
        name: parts[1].attachment_name().unwrap_or_default().to_string(),
        disposition: disposition.ctype().to_string(),
    }
}

fn check_png(bytes: &[u8]) {
    assert!(bytes.starts_with(PNG_SIGNATURE), "not a PNG");
    assert!(bytes.len() < 250_000, "{} bytes", bytes.len());
}

/// Decodes a PNG into (width, RGB bytes).
fn decode(bytes: &[u8]) -> (usize, Vec<u8>) {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, ::png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width as usize, buf)
}

/// The picture of the starting board shows Stark's colour where Stark's army stands
/// (as tests/draw.rs checks the renderer itself).
fn stark_army_in_its_colour(png: &[u8], variant: &Variant) {
    let start = Position::starting(variant, Some(3)).unwrap();
    let stark = variant.house_by_name("stark").unwrap();
    let army = start
        .units
        .iter()
        .find(|u| u.owner == Owner::House(stark) && u.kind == UnitKind::Army)
        .unwrap();
    let (width, rgb) = decode(png);
    let drawing = variant.drawing.as_ref().unwrap();
    let scale = width as f64 / drawing.width;
    let at = drawing.unit_point(variant, army.region);
    let (x, y) = ((at.x * scale) as usize, ((at.y + 48.0) * scale) as usize);
    let i = (y * width + x) * 3;
    let c = variant
        .house(stark)
        .colour
        .trim_start_matches('#')
        .to_string();
    let wanted: Vec<i32> = (0..3)
        .map(|k| i32::from(u8::from_str_radix(&c[2 * k..2 * k + 2], 16).unwrap()))
        .collect();
    let found = [rgb[i], rgb[i + 1], rgb[i + 2]];
    assert!(
        found
            .iter()
            .zip(&wanted)
            .all(|(&f, w)| (i32::from(f) - w).abs() <= 12),
        "found {found:?}, wanted {wanted:?}"
    );
}

fn process(w: &World) {
    w.submit(GAME, "stark", "A Winterfell -> Moat Cailin\n", now());
    w.process(GAME, now());
}

#[test]
fn a_results_mail_carries_the_board_after_its_complete_text() {
    let w = world("results", Settings::default(), true);
    take(&w);
    process(&w);
    let mails = take(&w);
    let results: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.body.contains(":: counts:"))
        .collect();
    // Three players, the moderator; French and English.
    assert_eq!(results.len(), 4, "{mails:#?}");
    for mail in &results {
        assert_eq!(mail.attachments.len(), 1, "to {}", mail.to);
        let a = &mail.attachments[0];
        assert_eq!(a.media, Media::Png);
        check_png(&a.bytes);
    }
    // One picture per language, shared by its readers, named after the game and phase.
    let fr = &to(&mails, STARK)[0].attachments[0];
    let fr2 = &to(&mails, BARATHEON)[0].attachments[0];
    let en = &to(&mails, LANNISTER)[0].attachments[0];
    assert_eq!(fr, fr2);
    assert_ne!(
        fr.bytes, en.bytes,
        "the legend is in each reader's language"
    );
    assert_eq!(fr.name, "westeros-1-printemps-298-mouvements.png");
    assert_eq!(en.name, "westeros-1-spring-298-movement.png");
    // Stored as one string (the MIME body, the picture in base64), not an array of numbers.
    let stored = serde_json::to_value(to(&mails, STARK)[0].seal()).unwrap();
    assert!(stored["body"].is_string(), "{stored}");
    let back: Envelope = serde_json::from_value(stored).unwrap();
    assert_eq!(&OutMail::open(&back), to(&mails, STARK)[0]);

    // As sent: multipart/mixed, the whole results text first, then the PNG inline.
    let mail = to(&mails, STARK)[0];
    let parsed = parse_sent(mail);
    assert_eq!(parsed.content_type, "multipart/mixed");
    assert_eq!(
        parsed.text.replace("\r\n", "\n").trim_end(),
        mail.body.trim_end()
    );
    assert!(parsed.text.contains("Moat Cailin"), "{}", parsed.text);
    assert_eq!(parsed.disposition, "inline");
    assert_eq!(parsed.name, "westeros-1-printemps-298-mouvements.png");
    assert_eq!(parsed.png, fr.bytes);
    check_png(&parsed.png);
}

#[test]
fn a_mail_without_picture_is_the_plain_text_mail_it_always_was() {
    let mail = OutMail::new(
        "corbeau.test",
        STARK,
        "Sujet".into(),
        "texte\n".into(),
        now(),
    );
    let raw = String::from_utf8(message(&mail.seal(), &judge()).unwrap().formatted()).unwrap();
    assert!(
        raw.contains("Content-Type: text/plain; charset=utf-8\r\n"),
        "{raw}"
    );
    assert!(!raw.contains("multipart"), "{raw}");
    // And its stored form has no trace of a multipart.
    let stored = serde_json::to_string(&mail.seal()).unwrap();
    assert!(!stored.contains("multipart"), "{stored}");
}

/// For every house of Westeros: the example order of its welcome reads and is legal for
/// that house on the starting position, and moves one of its own units.
#[test]
fn every_house_gets_an_example_order_of_its_own() {
    let w = World::new("mailmap", "houses");
    let spec = GameSpec {
        name: None,
        players: 7,
        moderator: None,
        ..GameSpec::westeros("sept", Settings::default())
    };
    w.create_game(spec, now());
    let variant = w.variant("sept");
    let houses: Vec<String> = variant
        .setup(7)
        .unwrap()
        .houses
        .iter()
        .map(|&h| variant.house(h).id.clone())
        .collect();
    assert_eq!(houses.len(), 7);
    let addresses: Vec<String> = (0..houses.len()).map(|i| format!("p{i}@x.test")).collect();
    let players: Vec<(&str, &str, &str, Lang)> = houses
        .iter()
        .zip(&addresses)
        .map(|(house, address)| (house.as_str(), address.as_str(), "hash", Lang::Fr))
        .collect();
    w.seat("sept", &players, true, now());
    let position = w.game("sept").position().clone();
    let mut examples = std::collections::BTreeSet::new();
    // Each language's example names the provinces as that reader knows them, and is a
    // legal order of the house either way.
    for lang in [Lang::Fr, Lang::En] {
        for house in &houses {
            let brief = house_brief(&variant, &position, house, lang).unwrap();
            let example = brief
                .example
                .clone()
                .unwrap_or_else(|| panic!("{house}: no example"));
            assert!(
                !brief.units.is_empty() && !brief.homes.is_empty(),
                "{house}"
            );
            // The example's unit is one of the house's units listed above it.
            let unit = example.split(" -> ").next().unwrap();
            assert!(
                brief.units.iter().any(|u| {
                    let p = variant.province_by_id(&u.at.province).unwrap();
                    format!("{} {}", u.letter, variant.province(p).name_in(lang)) == unit
                }),
                "{house}: {example} moves no unit of its own"
            );
            w.submit("sept", house, &example, now());
            let checked =
                corbeau::report::checked_orders(&w.game("sept"), &variant, &w.house("sept", house))
                    .unwrap();
            assert_eq!(checked.counts.illegal, 0, "{house}: `{example}` illegal");
            assert_eq!(checked.counts.orders, 1, "{house}: `{example}`");
            examples.insert((lang, example));
        }
    }
    assert_eq!(
        examples.len(),
        14,
        "one example per house and language: {examples:?}"
    );
    assert!(
        examples.contains(&(Lang::En, "A Winterfell -> Castle Black".to_string()))
            || examples
                .iter()
                .any(|(l, e)| *l == Lang::En && e.contains("Castle Black")
                    || e.contains("White Harbor")),
        "English examples use English names: {examples:?}"
    );
}

#[test]
fn the_game_begins_mail_tells_each_house_its_own_and_attaches_the_board() {
    let mut w = world("start", Settings::default(), false);
    take(&w);
    assert!(matches!(
        w.send(
            MODERATOR,
            &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nDEMARRER\n")
        ),
        Handled::Answered { .. }
    ));
    let mails = take(&w);
    let variant = w.variant(GAME);
    let started: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.body.contains(":: corbeau: started"))
        .collect();
    assert_eq!(started.len(), 4, "three players and the moderator");
    let stark = started.iter().find(|m| m.to == STARK).unwrap();
    assert!(stark.body.contains("Vous jouez Stark."), "{}", stark.body);
    assert!(
        stark.body.contains("Vos centres d'origine"),
        "{}",
        stark.body
    );
    assert!(
        stark.body.contains("Un ordre possible, par exemple : A "),
        "{}",
        stark.body
    );
    let lannister = started.iter().find(|m| m.to == LANNISTER).unwrap();
    assert!(
        lannister.body.contains("You play Lannister."),
        "{}",
        lannister.body
    );
    assert!(
        !lannister.body.contains("Winterfell ->"),
        "{}",
        lannister.body
    );
    let moderator = started.iter().find(|m| m.to == MODERATOR).unwrap();
    assert!(!moderator.body.contains("Vous jouez"), "{}", moderator.body);
    for mail in &started {
        assert_eq!(mail.attachments.len(), 1, "to {}", mail.to);
    }
    stark_army_in_its_colour(&stark.attachments[0].bytes, &variant);
}

#[test]
fn a_replacement_gets_its_units_the_map_and_the_last_results() {
    let mut w = world("replace", Settings::default(), true);
    process(&w);
    take(&w);
    let body = format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nREMPLACER Stark bran@nord.test\n");
    w.send(MODERATOR, &body);
    let mails = take(&w);
    let welcome: Vec<&OutMail> = to(&mails, "bran@nord.test")
        .into_iter()
        .filter(|m| m.body.starts_with(":: corbeau: welcome"))
        .collect();
    assert_eq!(welcome.len(), 1, "{mails:#?}");
    let welcome = welcome[0];
    assert!(welcome.body.contains("Vos unités"), "{}", welcome.body);
    assert!(
        welcome.body.contains("Les derniers résultats de la partie"),
        "{}",
        welcome.body
    );
    assert!(welcome.body.contains(":: counts:"), "{}", welcome.body);
    // The results of spring as Stark reads them: its refused move is there.
    assert!(
        welcome
            .body
            .contains("A Winterfell (win) -> Moat Cailin (moa)"),
        "{}",
        welcome.body
    );
    assert_eq!(welcome.attachments.len(), 1);
    assert_eq!(
        welcome.attachments[0].name,
        "westeros-1-automne-298-mouvements.png"
    );
}

#[test]
fn map_by_mail_answers_the_game_s_people_with_the_board_and_nobody_else() {
    let mut w = world("map", Settings::default(), true);
    take(&w);
    // A player, signed on; twice in the mail gives one picture.
    w.send(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nCARTE\nCARTE\n"),
    );
    let mails = take(&w);
    let reply = to(&mails, STARK);
    assert_eq!(reply.len(), 1);
    assert!(
        reply[0].body.contains("La carte de la partie est jointe"),
        "{}",
        reply[0].body
    );
    assert!(reply[0].body.contains("Date limite"), "{}", reply[0].body);
    assert!(
        !reply[0].body.contains("vouliez-vous dire"),
        "{}",
        reply[0].body
    );
    assert_eq!(reply[0].attachments.len(), 1);
    assert_eq!(
        reply[0].attachments[0].name,
        "westeros-1-printemps-298-mouvements.png"
    );
    check_png(&reply[0].attachments[0].bytes);

    // `MAP game` from a stranger: told how to get it, no picture.
    w.send(STRANGER, &format!("MAP {GAME}\n"));
    let mails = take(&w);
    let reply = to(&mails, STRANGER);
    assert_eq!(reply.len(), 1);
    assert!(reply[0].attachments.is_empty());
    let flat = reply[0]
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("ask to observe it (OBSERVE westeros-1)"),
        "{flat}"
    );

    // An automatic mail (an auto-reply quoting `CARTE`) is not answered at all.
    let mut auto = w.inbound(STARK, &format!("CARTE {GAME}\n"));
    auto.automatic = true;
    assert_eq!(w.handle(&auto, now()), Handled::Ignored);
    assert!(take(&w).is_empty());
}

#[test]
fn with_pictures_off_no_mail_carries_one_and_the_text_is_the_same() {
    let mut w = world("off", Settings::default(), true);
    take(&w);
    w.send(
        MODERATOR,
        &format!("MODERATEUR {GAME} {MODERATOR_SECRET}\nIMAGES non\n"),
    );
    let mails = take(&w);
    assert!(
        to(&mails, MODERATOR)[0]
            .body
            .contains("ne porteront plus de carte")
    );
    assert!(!w.game(GAME).settings().pictures);
    process(&w);
    w.send(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nCARTE\n"),
    );
    let mails = take(&w);
    assert!(mails.len() >= 5, "{mails:#?}");
    for mail in &mails {
        assert!(
            mail.attachments.is_empty(),
            "to {}: {}",
            mail.to,
            mail.subject
        );
    }
    let reply = mails
        .iter()
        .find(|m| m.to == STARK && m.subject.starts_with("Re:"))
        .unwrap();
    assert!(
        reply.body.contains("désactivé les images"),
        "{}",
        reply.body
    );
    // The results read the same as with pictures on (the same phase in another world).
    let on = world("on", Settings::default(), true);
    take(&on);
    process(&on);
    let with = take(&on);
    let text = |mails: &[OutMail]| {
        mails
            .iter()
            .find(|m| m.to == LANNISTER && m.body.contains(":: counts:"))
            .unwrap()
            .body
            .clone()
    };
    assert_eq!(text(&mails), text(&with));
}

/// The binary run on `dir`'s store in `lang` (its output; it must succeed), once it has
/// made and started the game `cli` with three players.
fn cli_game<'a>(dir: &'a TempDir, lang: &'a str) -> impl Fn(&[&str]) -> String + 'a {
    let run = move |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(args)
            .env("CORBEAU_DATA", &**dir)
            .env("CORBEAU_LANG", lang)
            .env_remove("CORBEAU_CONFIG")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {said}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["game", "new", "cli", "--players", "3"]);
    for (house, address) in [
        ("stark", STARK),
        ("lannister", LANNISTER),
        ("baratheon", BARATHEON),
    ] {
        run(&["player", "add", "cli", house, address]);
    }
    run(&["game", "start", "cli"]);
    run
}

/// `corbeau player replace … --welcome` mails the same welcome as `REMPLACER` by mail,
/// in one transaction with the seat; without `--welcome`, no mail (the moderator passes
/// the printed secret on).
#[test]
fn player_replace_on_the_command_line_can_mail_the_welcome() {
    let dir = TempDir::new("mailmap", "cli");
    let run = cli_game(&dir, "fr");
    run(&["player", "replace", "cli", "stark", "rickon@nord.test"]);
    let printed = run(&[
        "player",
        "replace",
        "cli",
        "stark",
        "bran@nord.test",
        "--welcome",
    ]);
    assert!(
        printed.contains("envoyé dans son courrier d'accueil"),
        "{printed}"
    );
    let outbox = World::outbox_in(&dir);
    assert!(
        to(&outbox, "rickon@nord.test")
            .iter()
            .all(|m| !m.body.starts_with(":: corbeau: welcome"))
    );
    let welcome: Vec<&OutMail> = to(&outbox, "bran@nord.test")
        .into_iter()
        .filter(|m| m.body.starts_with(":: corbeau: welcome"))
        .collect();
    assert_eq!(welcome.len(), 1, "{outbox:#?}");
    assert!(
        welcome[0].body.contains("Vos unités"),
        "{}",
        welcome[0].body
    );
    assert_eq!(welcome[0].attachments.len(), 1);
}

/// The bound of docs/drawing.md: a Westeros results mail, its picture included, is at
/// most 120 000 bytes as the transport sends it (headers, text, the PNG in base64). The
/// phase is the bundled example turn for the three houses seated, its orders all drawn
/// (moves, supports, bounces); the moderator's mail, which lists every order, is the
/// heaviest.
#[test]
fn a_westeros_results_mail_with_its_picture_weighs_at_most_120_kb_as_sent() {
    let w = world("weight", Settings::default(), true);
    take(&w);
    w.submit(
        GAME,
        "stark",
        "A Win -> Roc\nF Bla -> Det\nA Moa -> Jum\n",
        now(),
    );
    w.submit(
        GAME,
        "lannister",
        "F Lan -> Sdo\nA Pie -> Viv\nA Mfm -> Ner\n",
        now(),
    );
    w.submit(
        GAME,
        "baratheon",
        "F Acc -> Bna\nA Boi -> Bie\nA Che soutient A Boi -> Bie\n",
        now(),
    );
    w.process(GAME, now());
    let mails = take(&w);
    let sizes: Vec<(String, usize)> = mails
        .iter()
        .filter(|m| m.body.contains(":: counts:"))
        .map(|m| {
            assert_eq!(m.attachments.len(), 1, "to {}", m.to);
            let raw = message(&m.seal(), &judge()).unwrap().formatted();
            (m.to.clone(), raw.len())
        })
        .collect();
    assert_eq!(sizes.len(), 4, "{sizes:?}");
    for (to, size) in &sizes {
        // The figure of docs/drawing.md: `cargo test --release --test mail_map weighs -- --nocapture`.
        println!("results mail to {to}: {size} bytes");
        assert!(*size <= 120_000, "the results mail to {to} is {size} bytes");
    }
}

/// A player turns the pictures of their own mails off (`RÉGLER IMAGES non`,
/// `SET PICTURES off`) and on again; their results then come without the board, everyone
/// else's with it. A player cannot turn them off for the game.
#[test]
fn a_player_who_sets_pictures_off_gets_results_without_the_board() {
    let mut w = world("player-off", Settings::default(), true);
    take(&w);
    w.send(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nRÉGLER IMAGES non\n"),
    );
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nSET PICTURES off\n"),
    );
    let replies = take(&w);
    assert!(
        to(&replies, STARK)[0]
            .body
            .contains("Vos courriers de la partie ne porteront plus de carte"),
        "{}",
        to(&replies, STARK)[0].body
    );
    assert!(
        to(&replies, LANNISTER)[0]
            .body
            .contains("Your mails of this game will carry no map any more"),
        "{}",
        to(&replies, LANNISTER)[0].body
    );
    w.send(
        LANNISTER,
        &format!("SIGNON {GAME} Lannister {LANNISTER_SECRET}\nSET PICTURES on\n"),
    );
    // A forger writing from Baratheon's address, without the secret, changes nothing.
    w.send(BARATHEON, "SET PICTURES off\n");
    let forged = take(&w);
    let answer = &to(&forged, BARATHEON)[0].body;
    assert!(
        answer.contains("sign on first") || answer.contains("s'identifier"),
        "{answer}"
    );
    let g = w.game(GAME);
    assert!(g.settings().pictures, "the game's pictures stay on");
    let player = |house: &str| g.seat(house).unwrap().player().unwrap().pictures();
    assert!(!player("stark"));
    assert!(player("lannister"));
    assert!(player("baratheon"));

    process(&w);
    let mails = take(&w);
    let results: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.body.contains(":: counts:"))
        .collect();
    assert_eq!(results.len(), 4, "{mails:#?}");
    for mail in results {
        let carries = !mail.attachments.is_empty();
        assert_eq!(carries, mail.to != STARK, "to {}", mail.to);
    }
    // Asked for, the map still comes: `CARTE` is the player's own request.
    w.send(
        STARK,
        &format!("PARTIE {GAME} Stark {STARK_SECRET}\nCARTE\n"),
    );
    let reply = take(&w);
    assert_eq!(to(&reply, STARK)[0].attachments.len(), 1);
}

/// The moderator's way on the command line: `game pictures GAME no --house HOUSE`.
#[test]
fn the_moderator_turns_one_player_s_pictures_off_on_the_command_line() {
    let dir = TempDir::new("mailmap", "cli-pictures");
    let run = cli_game(&dir, "en");
    let said = run(&["game", "pictures", "cli", "off", "--house", "Baratheon"]);
    assert!(
        said.contains("baratheon: the player's mails carry no picture any more"),
        "{said}"
    );
    let audit = run(&["game", "audit", "cli"]);
    assert!(
        audit.contains("baratheon: no more board pictures in the player's mails"),
        "{audit}"
    );
    run(&["game", "process", "cli"]);
    let config = corbeau::config::Config {
        data_dir: dir.to_path_buf(),
        ..corbeau::config::Config::default()
    };
    {
        let service = corbeau::service::Service::open(&dir).unwrap();
        corbeau::mail::notify::queue_notices(&service, &config, now()).unwrap();
    }
    let outbox = World::outbox_in(&dir);
    let results: Vec<&OutMail> = outbox
        .iter()
        .filter(|m| m.body.contains(":: counts:"))
        .collect();
    assert_eq!(results.len(), 3, "{outbox:#?}");
    for mail in results {
        assert_eq!(
            mail.attachments.is_empty(),
            mail.to == BARATHEON,
            "to {}",
            mail.to
        );
    }
}

/// The game-over mail carries the replay, an animated PNG of every played phase.
#[test]
fn the_game_over_mail_carries_the_replay_of_the_game() {
    let w = world("replay", Settings::default(), true);
    take(&w);
    process(&w);
    w.process(GAME, now());
    take(&w);
    w.act(
        GAME,
        corbeau::game::Action::End(corbeau::game::EndBy::Draw),
        now(),
    );
    let mails = take(&w);
    let over: Vec<&OutMail> = mails
        .iter()
        .filter(|m| m.body.contains("game-over"))
        .collect();
    assert!(!over.is_empty(), "{mails:#?}");
    let played = w.history(GAME).len();
    assert!(played >= 2, "{played} phases");
    for mail in over {
        assert_eq!(mail.attachments.len(), 1, "to {}", mail.to);
        let a = &mail.attachments[0];
        assert_eq!(a.media, Media::Png);
        assert!(
            a.name.contains("rejeu") || a.name.contains("replay"),
            "{}",
            a.name
        );
        let decoder = ::png::Decoder::new(std::io::Cursor::new(&a.bytes[..]));
        let reader = decoder.read_info().expect("a PNG");
        let control = reader.info().animation_control().expect("animated");
        assert_eq!(control.num_frames as usize, played, "one frame per phase");
        assert_eq!(reader.info().width, corbeau::draw::REPLAY_WIDTH);
    }
}
