//! The arguments of each keyword: game ids and secrets are single words, houses and
//! phases are kept as written for the dispatcher to resolve, lists of houses are split.

use std::str::FromStr;

use super::keywords::{Head, Keyword};
use super::{Command, CommandError, EndBy, PressTo};
use crate::game::SettingKind;
use crate::lang::Lang;
use crate::map::fold;

/// The command of a keyword line (not a press header: see [`press_to`]).
pub(super) fn command(head: &Head<'_>) -> Result<Command, CommandError> {
    let bad = || wrong(head);
    let bare = |command: Command| if head.bare() { Ok(command) } else { Err(bad()) };
    let words: Vec<&str> = head.rest.split_whitespace().collect();
    let rest = || Some(head.rest.to_string()).filter(|r| !r.is_empty());
    match head.keyword() {
        Keyword::SignOn => sign_on(&words).ok_or_else(bad),
        // Words after the secret (`merci`) are no part of it: the dispatcher ignores them
        // and says so, and never quotes them back (they may be the secret, misplaced).
        Keyword::Moderator => match words[..] {
            [game, secret, ..] if is_game_id(game) => Ok(Command::Moderator {
                game: game.to_string(),
                secret: secret.to_string(),
            }),
            _ => Err(bad()),
        },
        Keyword::Orders => bare(Command::Orders { partial: false }),
        Keyword::PartialOrders => bare(Command::Orders { partial: true }),
        Keyword::Ready => bare(Command::Ready(true)),
        Keyword::NotReady => bare(Command::Ready(false)),
        Keyword::Status => bare(Command::Status),
        // njudge's `LIST <game>`: that game's line alone.
        Keyword::List => match words[..] {
            [] => Ok(Command::List { game: None }),
            [game] if is_game_id(game) => Ok(Command::List {
                game: Some(game.to_string()),
            }),
            _ => Err(bad()),
        },
        Keyword::History => Ok(history(&words)),
        Keyword::Draw if head.bare() => Ok(Command::Draw(true)),
        Keyword::Draw => {
            let houses = house_list(&words);
            (!houses.is_empty())
                .then_some(Command::DrawWith(houses))
                .ok_or_else(bad)
        }
        Keyword::NoDraw => bare(Command::Draw(false)),
        Keyword::Concede => house(&words).map(Command::Concede).ok_or_else(bad),
        Keyword::Resign => bare(Command::Resign),
        Keyword::Address => match words[..] {
            [address] => email(address)
                .map(|a| Command::Address {
                    address: a.to_string(),
                    code: None,
                })
                .ok_or_else(bad),
            [address, code] => email(address)
                .map(|a| Command::Address {
                    address: a.to_string(),
                    code: Some(code.to_string()),
                })
                .ok_or_else(bad),
            _ => Err(bad()),
        },
        Keyword::Absence => absence(&words).ok_or_else(bad),
        Keyword::Language => match words[..] {
            [lang] => language(lang).map(Command::Language).ok_or_else(bad),
            _ => Err(bad()),
        },
        Keyword::Observe => match words[..] {
            [game] if is_game_id(game) => Ok(Command::Observe {
                game: game.to_string(),
            }),
            [game, confirm, token, ..] if is_game_id(game) && is_confirm(confirm) => {
                Ok(Command::ConfirmObserve {
                    game: game.to_string(),
                    token: token.to_string(),
                })
            }
            _ => Err(bad()),
        },
        Keyword::Observers => match words[..] {
            [answer] => yes_no(answer).map(Command::Observers).ok_or_else(bad),
            _ => Err(bad()),
        },
        Keyword::Unobserve => match words[..] {
            [game, secret] if is_game_id(game) => Ok(Command::Unobserve {
                game: game.to_string(),
                secret: secret.to_string(),
            }),
            _ => Err(bad()),
        },
        Keyword::Map => match words[..] {
            [] => Ok(Command::Map { game: None }),
            [game] if is_game_id(game) => Ok(Command::Map {
                game: Some(game.to_string()),
            }),
            _ => Err(bad()),
        },
        Keyword::Zone => match words[..] {
            [zone] => Ok(Command::Zone(zone.to_string())),
            _ => Err(bad()),
        },
        Keyword::Pictures => match words[..] {
            [answer] => yes_no(answer).map(Command::Pictures).ok_or_else(bad),
            _ => Err(bad()),
        },
        Keyword::Help => bare(Command::Help),
        Keyword::Stop => bare(Command::Stop),
        Keyword::Start => bare(Command::Start),
        Keyword::Process => rest().map(Command::Process).ok_or_else(bad),
        Keyword::Preview => bare(Command::Preview),
        Keyword::Pause => bare(Command::Pause),
        Keyword::Resume => bare(Command::Resume),
        Keyword::Extend => rest().map(Command::Extend).ok_or_else(bad),
        Keyword::Rollback => rest().map(Command::Rollback).ok_or_else(bad),
        Keyword::AddPlayer => seat(&words)
            .map(|(house, address, lang)| Command::AddPlayer {
                house,
                address,
                lang,
            })
            .ok_or_else(bad),
        Keyword::ReplacePlayer => seat(&words)
            .map(|(house, address, lang)| Command::ReplacePlayer {
                house,
                address,
                lang,
            })
            .ok_or_else(bad),
        Keyword::RemovePlayer => house(without_player_word(&words))
            .map(Command::RemovePlayer)
            .ok_or_else(bad),
        Keyword::EndGame => end_by(&words).map(Command::EndGame).ok_or_else(bad),
        Keyword::Set => setting(&words).ok_or_else(bad),
        Keyword::Password => match words[..] {
            [secret] => Ok(Command::Password(secret.to_string())),
            _ => Err(bad()),
        },
        Keyword::Create => create(&words).ok_or_else(bad),
        Keyword::Phase => Ok(Command::Phase {
            phase: ahead_phase(&words),
            written: head.rest.to_string(),
        }),
        Keyword::ClearAhead => bare(Command::ClearAhead),
        Keyword::WhoGame => match words[..] {
            [game] if is_game_id(game) => Ok(Command::WhoGame {
                game: game.to_string(),
            }),
            _ => Err(bad()),
        },
        Keyword::Summary => match words[..] {
            [] => Ok(Command::Summary { game: None }),
            [game] if is_game_id(game) => Ok(Command::Summary {
                game: Some(game.to_string()),
            }),
            _ => Err(bad()),
        },
        // Whatever njudge file is named, only the map has a counterpart of its own here.
        Keyword::Get => Ok(Command::Get {
            map: words
                .first()
                .is_some_and(|w| matches!(fold(w).as_str(), "map" | "maps" | "carte")),
        }),
        Keyword::WhoIs => Ok(Command::WhoIs),
        Keyword::Record => bare(Command::Record),
        // One word: the header of a message that runs to `END PRESS` (its body put in by
        // the reader of press); more: a one-line message.
        Keyword::Alert => {
            let house = words.first().and_then(|w| house(&[w]));
            let body = words.get(1..).unwrap_or_default().join(" ");
            house
                .map(|house| Command::Alert { house, body })
                .ok_or_else(bad)
        }
        Keyword::Join => match words.split_first() {
            Some((game, rest)) if is_game_id(game) => {
                let (rest, token) = confirmed(rest);
                Ok(Command::Join {
                    game: game.to_string(),
                    house: house(rest),
                    token,
                })
            }
            _ => Err(bad()),
        },
        Keyword::TakeOver => match words.split_first() {
            Some((game, rest)) if is_game_id(game) => {
                let (rest, token) = confirmed(rest);
                house(rest)
                    .map(|house| Command::TakeOver {
                        game: game.to_string(),
                        house,
                        token,
                    })
                    .ok_or_else(bad)
            }
            _ => Err(bad()),
        },
        Keyword::Approve => answer(&words)
            .map(|(house, address)| Command::Approve { house, address })
            .ok_or_else(bad),
        Keyword::Reject => answer(&words)
            .map(|(house, address)| Command::Reject { house, address })
            .ok_or_else(bad),
        Keyword::Standby => {
            let (rest, token) = confirmed(&words);
            let on = match rest {
                [word] => match fold(word).as_str() {
                    "on" | "oui" | "yes" => Some(true),
                    "off" | "non" | "no" => Some(false),
                    _ => None,
                },
                _ => None,
            };
            on.map(|on| Command::Standby { on, token }).ok_or_else(bad)
        }
        Keyword::Announce => bare(Command::Announce),
        Keyword::PressEnd => Err(CommandError::PressEndWithoutPress {
            command: head.written.to_string(),
        }),
        // The block's lines are counted by the reader of blocks (`diary`).
        Keyword::Diary => bare(Command::Diary { lines: 0 }),
        Keyword::DiaryEnd => Err(CommandError::DiaryEndWithoutDiary {
            command: head.written.to_string(),
        }),
        Keyword::Press | Keyword::GreyPress | Keyword::Broadcast | Keyword::GreyBroadcast => {
            press_to(head).map(|to| Command::Press {
                to,
                grey: matches!(head.keyword(), Keyword::GreyPress | Keyword::GreyBroadcast),
                body: String::new(),
            })
        }
    }
}

/// The error of a keyword whose arguments do not fit its form.
pub(super) fn wrong(head: &Head<'_>) -> CommandError {
    CommandError::Arguments {
        command: head.written.to_string(),
        keyword: head.keyword(),
        found: head.rest.to_string(),
    }
}

/// Who a press header sends to: `À Stark, Lannister`, `TO MODERATOR`, `À TOUS`, or nothing
/// after `DIFFUSION`/`BROADCAST`.
pub(super) fn press_to(head: &Head<'_>) -> Result<PressTo, CommandError> {
    if matches!(head.keyword(), Keyword::Broadcast | Keyword::GreyBroadcast) {
        return if head.bare() {
            Ok(PressTo::All)
        } else {
            Err(wrong(head))
        };
    }
    let words: Vec<&str> = head.rest.split_whitespace().collect();
    let words = match words.split_first() {
        Some((first, rest)) if PREPOSITIONS.contains(&fold(first).as_str()) => rest,
        _ => &words[..],
    };
    let folded = fold(&words.join(" "));
    if MODERATOR.contains(&folded.as_str()) {
        return Ok(PressTo::Moderator);
    }
    if EVERYONE.contains(&folded.as_str()) {
        return Ok(PressTo::All);
    }
    let houses = house_list(words);
    let mentions_moderator = houses.iter().any(|h| MODERATOR.contains(&fold(h).as_str()));
    if houses.is_empty() || mentions_moderator {
        return Err(wrong(head));
    }
    Ok(PressTo::Houses(houses))
}

/// Words that may come between `PRESSE` and its recipients (`À` folds to `a`).
const PREPOSITIONS: &[&str] = &["a", "au", "aux", "pour", "to", "for"];
const MODERATOR: &[&str] = &[
    "moderateur",
    "moderatrice",
    "le moderateur",
    "la moderatrice",
    "moderator",
    "the moderator",
];
const EVERYONE: &[&str] = &["tous", "tout le monde", "all", "everyone", "everybody"];

/// Houses separated by commas, semicolons, `&`, `+`, blanks, `et` or `and`: one word each
/// (Westeros' and the classic map's houses are all one word).
fn house_list(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .flat_map(|w| w.split([',', ';', '&', '+']))
        .filter_map(|w| house(&[w]))
        .filter(|w| !matches!(fold(w).as_str(), "et" | "and"))
        .collect()
}

/// A house as written over several words (`Maison Stark`), without the punctuation
/// around it (`Stark.`, `(Stark)`), which is no part of any house's name.
fn house(words: &[&str]) -> Option<String> {
    let name = words.join(" ");
    let name = name.trim_matches(|c: char| !c.is_alphanumeric());
    (!name.is_empty()).then(|| name.to_string())
}

/// `game house… secret`: the house is every word between (`Maison Stark` is an alias).
fn sign_on(words: &[&str]) -> Option<Command> {
    let (game, rest) = words.split_first()?;
    let (secret, words) = rest.split_last()?;
    let house = house(words)?;
    is_game_id(game).then(|| Command::SignOn {
        game: game.to_string(),
        house,
        secret: secret.to_string(),
    })
}

/// The words of a request, and its token when they end with `CONFIRMER <jeton>` (the
/// confirmation of a `JOIN`, `TAKEOVER` or `CREATE`).
fn confirmed<'w>(words: &'w [&'w str]) -> (&'w [&'w str], Option<String>) {
    match words {
        [rest @ .., confirm, token] if is_confirm(confirm) => (rest, Some(token.to_string())),
        _ => (words, None),
    }
}

/// The moderator's answer to a request: the house, then the address that asked, if the
/// last word is one.
fn answer(words: &[&str]) -> Option<(String, Option<String>)> {
    match words {
        [house_words @ .., last] if !house_words.is_empty() && email(last).is_some() => {
            Some((house(house_words)?, email(last).map(str::to_string)))
        }
        _ => house(words).map(|h| (h, None)),
    }
}

/// The word between the game and the token of `OBSERVER <partie> CONFIRMER <jeton>`.
pub(super) fn is_confirm(word: &str) -> bool {
    matches!(
        fold(word).as_str(),
        "confirmer" | "confirme" | "confirmation" | "confirm"
    )
}

/// The moderator's answer to `OBSERVATEURS`/`OBSERVERS`: allowed or not.
fn yes_no(word: &str) -> Option<bool> {
    let word = fold(word);
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    match word {
        "oui" | "permis" | "autorises" | "yes" | "on" | "allowed" => Some(true),
        "non" | "interdits" | "no" | "off" | "forbidden" | "none" => Some(false),
        _ => None,
    }
}

/// Games are named with ASCII letters, digits, `-` and `_` (docs/games.md); the case is
/// left for the dispatcher to fold.
/// `HISTORY [<game>] [<phase>]`: a first word that reads as no phase (`S298M`, `spring`)
/// is the game, as njudge's `HISTORY <game>`; the rest, if any, the phase.
fn history(words: &[&str]) -> Command {
    let phase = |words: &[&str]| Some(words.join(" ")).filter(|p| !p.is_empty());
    match words.split_first() {
        Some((first, rest))
            if is_game_id(first)
                && crate::position::parse_phase(first).is_none()
                && !is_phase_word(first) =>
        {
            Command::History {
                game: Some(first.to_string()),
                phase: phase(rest),
            }
        }
        _ => Command::History {
            game: None,
            phase: phase(words),
        },
    }
}

/// The first word of a phase written out (`spring 298 movement`, `automne 298 …`).
fn is_phase_word(word: &str) -> bool {
    matches!(
        fold(word).as_str(),
        "spring" | "printemps" | "autumn" | "fall" | "automne" | "winter" | "hiver"
    )
}

fn is_game_id(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
}

/// An address as people paste it, angle brackets or not; the dispatcher checks it further.
fn email(word: &str) -> Option<&str> {
    let address = word
        .strip_prefix('<')
        .and_then(|w| w.strip_suffix('>'))
        .unwrap_or(word);
    let (local, domain) = address.split_once('@')?;
    (!local.is_empty() && !domain.is_empty() && !address.contains(['<', '>'])).then_some(address)
}

/// `fr`, `en`, `français`, `anglais`, `english`, `french`, in any case.
fn language(word: &str) -> Option<Lang> {
    Lang::from_str(&fold(word)).ok()
}

/// `AJOUTER`/`REMPLACER`'s `[JOUEUR] house… address [lang]`.
fn seat(words: &[&str]) -> Option<(String, String, Option<Lang>)> {
    let words = without_player_word(words);
    let at = words.iter().position(|w| w.contains('@'))?;
    let (house_words, rest) = words.split_at(at);
    let (address, lang) = rest.split_first()?;
    let lang = match lang {
        [] => None,
        [lang] => Some(language(lang)?),
        _ => return None,
    };
    Some((house(house_words)?, email(address)?.to_string(), lang))
}

/// `AJOUTER JOUEUR Stark …` reads as well as `AJOUTER Stark …`.
fn without_player_word<'a, 'w>(words: &'a [&'w str]) -> &'a [&'w str] {
    match words.split_first() {
        Some((first, rest)) if matches!(fold(first).as_str(), "joueur" | "joueuse" | "player") => {
            rest
        }
        _ => words,
    }
}

/// `VICTOIRE house…`, `NUL`, `CONCESSION house`, `ABANDON` and their English forms.
fn end_by(words: &[&str]) -> Option<EndBy<String>> {
    let (how, rest) = words.split_first()?;
    match fold(how).as_str() {
        "victoire" | "win" | "victory" => {
            let houses = house_list(rest);
            (!houses.is_empty()).then_some(EndBy::Win(houses))
        }
        "nul" | "draw" => rest.is_empty().then_some(EndBy::Draw),
        "concession" | "concede" => house(rest).map(EndBy::Concede),
        "abandon" => rest.is_empty().then_some(EndBy::Abandon),
        _ => None,
    }
}

/// `ABSENCE [du|from] date [time] (au|to|-) date [time]`, or two dates without words
/// between; the dates and times are kept as written (`parse_local_time` reads them).
fn absence(words: &[&str]) -> Option<Command> {
    let words = match words.split_first() {
        Some((first, rest)) if matches!(fold(first).as_str(), "du" | "de" | "from") => rest,
        _ => words,
    };
    let is_separator = |w: &&str| {
        matches!(*w, "-" | "–" | "—" | "->" | "→")
            || matches!(fold(w).as_str(), "au" | "to" | "until" | "jusqu au")
    };
    let (from, to) = match words.iter().position(is_separator) {
        Some(at) => (words.get(..at)?, words.get(at + 1..)?),
        None => {
            let second = words.iter().skip(1).position(|w| is_date(w))? + 1;
            words.split_at(second)
        }
    };
    let moment = |part: &[&str]| -> Option<String> {
        let (date, time) = part.split_first()?;
        let time_ok = time.iter().all(|w| {
            w.starts_with(|c: char| c.is_ascii_digit()) || matches!(fold(w).as_str(), "a" | "at")
        });
        (is_date(date) && time_ok).then(|| part.join(" "))
    };
    Some(Command::Absence {
        from: moment(from)?,
        to: moment(to)?,
    })
}

/// `2026-12-24`, `24/12/2026`: digits with `-` or `/` (the calendar checks the rest).
fn is_date(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit()) && word.contains(['-', '/'])
}

/// `CREATE <game>` then optional words in any order, each once: `VARIANT <name>`,
/// `PLAYERS <n>` (French `VARIANTE`, `JOUEURS`). Room is left for words of one word.
fn create(words: &[&str]) -> Option<Command> {
    let (game, rest) = words.split_first()?;
    let (mut rest, token) = confirmed(rest);
    if !is_game_id(game) {
        return None;
    }
    let (mut variant, mut players) = (None, None);
    while let Some((word, after)) = rest.split_first() {
        let (value, after) = after.split_first()?;
        match fold(word).as_str() {
            "variant" | "variante" if variant.is_none() => variant = Some(value.to_string()),
            "players" | "joueurs" | "joueuses" if players.is_none() => {
                players = Some(value.parse::<u8>().ok()?)
            }
            _ => return None,
        }
        rest = after;
    }
    Some(Command::Create {
        game: game.to_string(),
        variant,
        players,
        token,
    })
}

/// The names of the settings `RÉGLER`/`SET` changes, folded, in French and English.
const SETTINGS: &[(&str, SettingKind)] = &[
    ("grace", SettingKind::Grace),
    ("delai de grace", SettingKind::Grace),
    ("grace period", SettingKind::Grace),
    ("presse", SettingKind::Press),
    ("press", SettingKind::Press),
    ("rappels", SettingKind::Reminders),
    ("rappel", SettingKind::Reminders),
    ("reminders", SettingKind::Reminders),
    ("reminder", SettingKind::Reminders),
    ("jours", SettingKind::Days),
    ("days", SettingKind::Days),
    ("echeance", SettingKind::Deadline),
    ("date limite", SettingKind::Deadline),
    ("deadline", SettingKind::Deadline),
    // Creating a game, who plays, summary.
    ("adresses", SettingKind::Addresses),
    ("addresses", SettingKind::Addresses),
    ("auteurs gris", SettingKind::GreyAuthors),
    ("grey authors", SettingKind::GreyAuthors),
    ("gray authors", SettingKind::GreyAuthors),
    // Joining a game.
    ("ouverte", SettingKind::Open),
    ("ouverture", SettingKind::Open),
    ("open", SettingKind::Open),
    ("demarrage auto", SettingKind::StartWhenFull),
    ("start when full", SettingKind::StartWhenFull),
    // The built-in player.
    ("robots", SettingKind::Bots),
    ("bots", SettingKind::Bots),
    // The rules.
    ("regles", SettingKind::Rules),
    ("edition", SettingKind::Rules),
    ("rules", SettingKind::Rules),
    ("rulebook", SettingKind::Rules),
    // Civil disorder.
    ("desordre civil", SettingKind::CivilDisorder),
    ("civil disorder", SettingKind::CivilDisorder),
    // Players' records.
    ("fiabilite min", SettingKind::MinReliability),
    ("fiabilite minimum", SettingKind::MinReliability),
    ("fiabilite minimale", SettingKind::MinReliability),
    ("min reliability", SettingKind::MinReliability),
    ("minimum reliability", SettingKind::MinReliability),
];

/// `GRÂCE 6h`, `DATE LIMITE 2026-12-01 20:00`: the setting's name (the longest that fits,
/// up to three words), then its value, which must not be empty.
fn setting(words: &[&str]) -> Option<Command> {
    (1..=words.len().min(3)).rev().find_map(|n| {
        let name = fold(&words.get(..n)?.join(" "));
        let &(_, kind) = SETTINGS.iter().find(|(words, _)| *words == name)?;
        let value = words.get(n..)?.join(" ");
        (!value.is_empty()).then_some(Command::Set { kind, value })
    })
}

const SEASON_WORDS: &[&str] = &[
    "spring",
    "printemps",
    "fall",
    "autumn",
    "automne",
    "winter",
    "hiver",
];
const KIND_WORDS: &[&str] = &[
    "movement",
    "mouvement",
    "moves",
    "retreat",
    "retraite",
    "adjustment",
    "ajustement",
    "builds",
];

/// The phase of a `PHASE` line as njudge's players and French ones write it: `Fall 1905
/// Movement`, `F 1905 M`, `F1905M`, `W1905A`, `printemps 1902`, `A1901R`, `hiver 1901`.
/// Only the first letters of the season and of the phase count (`s`/`p` spring, `f`/`a`
/// autumn, `w`/`h` winter; `m` movement, `r` retreat, `a`/`b` adjustment). As in njudge,
/// autumn and winter are one season: winter with no phase, or with adjustments, is the
/// adjustment phase, and winter movement or retreat is autumn's; no phase written is the
/// movement of spring or autumn.
pub(super) fn ahead_phase(words: &[&str]) -> Option<crate::judge::Phase> {
    use crate::judge::{Phase, PhaseKind, Season};
    let (season, year, kind) = match words {
        [one] => {
            let folded = fold(one);
            let letters_end = folded.find(|c: char| c.is_ascii_digit())?;
            let (season, rest) = folded.split_at(letters_end);
            let digits_end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (year, kind) = rest.split_at(digits_end);
            (season.to_string(), year.to_string(), kind.to_string())
        }
        [season, year] => (fold(season), year.to_string(), String::new()),
        [season, year, kind] => (fold(season), year.to_string(), fold(kind)),
        _ => return None,
    };
    if year.is_empty() || year.len() > 9 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: i32 = year.parse().ok()?;
    // A word longer than a letter must start one of the words meant (`Fa`, `Automne`),
    // so that `Summer` is no spring.
    let known = |word: &str, words: &[&str]| {
        word.chars().count() <= 1
            || words
                .iter()
                .any(|w| w.starts_with(word) || word.starts_with(w))
    };
    if !known(&season, SEASON_WORDS) || !known(&kind, KIND_WORDS) {
        return None;
    }
    let season = match season.chars().next()? {
        's' | 'p' => Season::Spring,
        'f' | 'a' => Season::Autumn,
        'w' | 'h' => Season::Winter,
        _ => return None,
    };
    let kind = match kind.chars().next() {
        None => None,
        Some('m') => Some(PhaseKind::Movement),
        Some('r') => Some(PhaseKind::Retreat),
        Some('a' | 'b') => Some(PhaseKind::Adjustment),
        Some(_) => return None,
    };
    let (season, kind) = match (season, kind) {
        (Season::Winter, None | Some(PhaseKind::Adjustment)) => {
            (Season::Winter, PhaseKind::Adjustment)
        }
        (Season::Winter, Some(kind)) => (Season::Autumn, kind),
        (Season::Autumn, Some(PhaseKind::Adjustment)) => (Season::Winter, PhaseKind::Adjustment),
        (Season::Spring, Some(PhaseKind::Adjustment)) => return None,
        (season, kind) => (season, kind.unwrap_or(PhaseKind::Movement)),
    };
    Some(Phase { year, season, kind })
}

#[cfg(test)]
mod ahead_tests {
    use super::ahead_phase;
    use crate::judge::{Phase, PhaseKind, Season};

    fn read(text: &str) -> Option<Phase> {
        ahead_phase(&text.split_whitespace().collect::<Vec<_>>())
    }

    fn phase(year: i32, season: Season, kind: PhaseKind) -> Option<Phase> {
        Some(Phase { year, season, kind })
    }

    #[test]
    fn njudge_and_french_spellings_of_a_phase() {
        use PhaseKind::*;
        use Season::*;
        for (text, want) in [
            ("Fall 1905 Movement", phase(1905, Autumn, Movement)),
            ("F 1905 M", phase(1905, Autumn, Movement)),
            ("F1905M", phase(1905, Autumn, Movement)),
            ("f1905m", phase(1905, Autumn, Movement)),
            ("S1906M", phase(1906, Spring, Movement)),
            ("F1905R", phase(1905, Autumn, Retreat)),
            ("W1905A", phase(1905, Winter, Adjustment)),
            ("W1905", phase(1905, Winter, Adjustment)),
            ("Winter 1905", phase(1905, Winter, Adjustment)),
            ("Winter 1905 Retreat", phase(1905, Autumn, Retreat)),
            ("Fall 1905 Builds", phase(1905, Winter, Adjustment)),
            ("printemps 1902", phase(1902, Spring, Movement)),
            ("Printemps 1902 retraites", phase(1902, Spring, Retreat)),
            ("A1901R", phase(1901, Autumn, Retreat)),
            ("automne 299 mouvements", phase(299, Autumn, Movement)),
            ("hiver 1901", phase(1901, Winter, Adjustment)),
            ("H1901", phase(1901, Winter, Adjustment)),
            ("P300M", phase(300, Spring, Movement)),
            ("Spring 1902 Adjustment", None),
            ("Summer 1902", None),
            ("Spr 1902 Mov", phase(1902, Spring, Movement)),
            ("Fall 1902 Mumble", None),
            ("Fall", None),
            ("Fall 19x5", None),
            ("Fall 1905 Movement extra", None),
            ("F1905Q", None),
            ("1905", None),
            ("Fall -1905", None),
        ] {
            assert_eq!(read(text), want, "{text}");
        }
    }
}
