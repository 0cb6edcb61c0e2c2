//! Press: a house's (or the moderator's) message to other houses, to all, or to the
//! moderator, as the game's press setting allows.

use serde_json::{Value, json};

use crate::game::Event;
use crate::game::{HouseKey, Press};
use crate::lang::Lang;
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::{Located, PressTo};
use super::super::compose::compose;
use super::super::outmail::OutMail;
use super::super::refusal::Refusal;
use super::Desk;
use super::section::ReplySection;

impl Desk<'_> {
    pub(super) fn press(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        sender: Option<HouseKey>,
        to: PressTo,
        grey: bool,
        body: &str,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let (g, variant) = (session.game(), session.variant());
        let to = with_letters(variant, to);
        // The moderator may always write, and anyone may write to the moderator.
        if sender.is_some() && to != PressTo::Moderator {
            let setting = g.settings().press;
            let allowed = match setting {
                Press::None => false,
                Press::Broadcast => to == PressTo::All,
                Press::Full | Press::Grey => true,
            };
            if !allowed {
                let setting = crate::report::press_words(setting, self.lang);
                self.refuse(located, Refusal::PressForbidden { setting });
                return Ok(());
            }
            if grey && setting != Press::Grey {
                self.refuse(located, Refusal::GreyForbidden);
                return Ok(());
            }
        }
        let mut houses: Vec<HouseKey> = match &to {
            PressTo::All => g.seats().iter().map(|s| s.house().clone()).collect(),
            PressTo::Moderator => Vec::new(),
            PressTo::Houses(names) => {
                let mut ids = Vec::new();
                for name in names {
                    match g.house_id(variant, name) {
                        Ok(id) if !ids.contains(&id) => ids.push(id),
                        Ok(_) => {}
                        Err(e) => {
                            let message = self.game_message(&e);
                            self.error(located, message);
                            return Ok(());
                        }
                    }
                }
                ids
            }
        };
        houses.retain(|h| Some(h) != sender.as_ref());
        // Grey press to the moderator is simply signed, since the moderator always sees
        // the sender; the moderator's own press is always signed (docs/email.md, "Press").
        let grey = grey && to != PressTo::Moderator && sender.is_some();
        // Names in each reader's language: one press may go to French and English players.
        let from_name = |lang| match (&sender, grey) {
            (_, true) => None,
            (Some(h), false) => Some(variant.house_name_in(h, lang)),
            (None, false) => None,
        };
        let to_names = |lang| -> Vec<String> {
            match &to {
                PressTo::Houses(_) => houses
                    .iter()
                    .map(|h| variant.house_name_in(h, lang))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let mut recipients: Vec<(String, Lang, bool)> = houses
            .iter()
            .filter_map(|h| g.seat(h))
            .filter(|s| !s.resigned())
            .filter_map(|s| {
                s.player()
                    .map(|p| (p.address().to_string(), p.lang(), false))
            })
            .collect();
        if to == PressTo::All {
            recipients.extend(
                g.observers()
                    .iter()
                    .map(|o| (o.address.to_string(), o.lang, false)),
            );
        }
        recipients.retain(|(a, _, _)| *a != self.mail.from);
        // Press to houses that nobody reads (the sender's own, houses without a player)
        // is not sent: the moderator's copy alone would pass it off as delivered.
        if recipients.is_empty() && to != PressTo::Moderator {
            self.refuse(located, Refusal::NoRecipient);
            return Ok(());
        }
        // The moderator reads all press, grey press with its sender: it is how disputes
        // and abuse get settled.
        if let Some(m) = &g.moderator()
            && sender.is_some()
            && m.address != self.mail.from
        {
            recipients.push((m.address.to_string(), g.settings().lang, true));
        }
        let mut seen = std::collections::HashSet::new();
        recipients.retain(|(a, _, _)| seen.insert(a.clone()));
        if recipients.is_empty() {
            self.refuse(located, Refusal::NoRecipient);
            return Ok(());
        }
        // One mail may cause only so many (`caps`): a press message past them is refused
        // whole, never sent to some and reported sent.
        let left = self.mails_left(g);
        if recipients.len() > left {
            let count = recipients.len();
            let message = say!(self.lang, "caps.press_fanout", count, left);
            self.error(located, message);
            return Ok(());
        }
        let id = g.id().to_string();
        let game_name = g.name().to_string();
        let real_name = |lang| sender.as_ref().map(|h| variant.house_name_in(h, lang));
        for (address, lang, moderator_copy) in &recipients {
            let data = json!({
                "game": { "id": id, "name": game_name },
                "from": from_name(*lang),
                "revealed": if *moderator_copy && grey { real_name(*lang) } else { None },
                "moderator": sender.is_none(),
                "grey": grey,
                "broadcast": to == PressTo::All,
                "to": to_names(*lang),
                "to_moderator": to == PressTo::Moderator,
                "moderator_copy": moderator_copy,
                "moderated": g.moderator().is_some(),
                // The id, one word, for the answer's `PRESS TO` (names may have blanks).
                "from_id": sender.as_ref().filter(|_| !grey).map(|h| h.to_string()),
                "body": body,
            });
            let mail = self.compose("press.txt", "press", data, address, *lang)?;
            self.effects.mails.push(mail.about(&id).seal());
        }
        let to_reader = to_names(self.lang);
        // Signed press to all is public: kept for the published pages (docs/publish.md).
        // The rest is kept too, for the moderator alone: the press archive.
        if to == PressTo::All && !grey {
            self.effects.broadcasts.push(crate::service::Broadcast {
                index: g.played(),
                house: sender.clone(),
                body: body.to_string(),
            });
        } else {
            self.effects.press.push(crate::service::PressRecord {
                index: g.played(),
                house: sender.clone(),
                grey,
                to: match to {
                    PressTo::All => crate::service::Audience::All,
                    PressTo::Moderator => crate::service::Audience::Moderator,
                    PressTo::Houses(_) => crate::service::Audience::Houses(houses.clone()),
                },
                body: body.to_string(),
            });
        }
        Self::note(
            game,
            Event::Press {
                from: sender.clone(),
                recipients: recipients.len(),
                grey,
            },
        );
        let section = ReplySection::Press {
            count: recipients.len(),
            to: to_reader,
            broadcast: to == PressTo::All,
            grey,
        };
        self.section(located.line, &located.text, section);
        Ok(())
    }

    pub(super) fn compose(
        &self,
        template: &str,
        kind: &str,
        data: Value,
        to: &str,
        lang: Lang,
    ) -> Result<OutMail, ServiceError> {
        compose(self.config, template, kind, data, to, lang, self.now).map_err(ServiceError::Render)
    }
}

/// njudge's `PRESS TO FG` (France and Germany) and `PRESS TO M` (the moderator): a word
/// that is no house's name, alias or near misspelling, made only of the variant's house
/// letters and `M`, stands for those houses. Any other word is left for the game to read
/// (and refuse, so that a header mixing letters with garbage sends nothing).
fn with_letters(variant: &crate::map::Variant, to: PressTo) -> PressTo {
    let PressTo::Houses(names) = to else {
        return to;
    };
    let mut houses = Vec::new();
    let mut moderator = false;
    for name in names {
        let letters: Option<Vec<Option<String>>> = (crate::position::house_named(variant, &name)
            .is_none()
            && name.chars().count() <= variant.houses.len() + 1)
            .then(|| {
                name.chars()
                    .map(|c| match c {
                        'M' | 'm' => Some(None),
                        _ if c.is_ascii_alphabetic() => variant
                            .house_by_letter(c)
                            .map(|h| Some(variant.house(h).id.clone())),
                        _ => None,
                    })
                    .collect()
            })
            .flatten();
        match letters {
            Some(letters) => {
                for letter in letters {
                    match letter {
                        Some(house) => houses.push(house),
                        None => moderator = true,
                    }
                }
            }
            None => houses.push(name),
        }
    }
    // The moderator reads every press between houses: `M` beside houses adds nothing.
    if houses.is_empty() && moderator {
        PressTo::Moderator
    } else {
        PressTo::Houses(houses)
    }
}
