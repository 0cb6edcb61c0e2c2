//! What a player or moderator is told about a line that is no valid command: the keyword
//! as they wrote it, and the form it expects, in their language (`command.*`, `usage.*`).

use super::CommandError;
use super::keywords::Keyword;
use crate::lang::Lang;
use crate::say;

impl CommandError {
    /// The error for a player or a moderator, in their language.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CommandError::Arguments {
                command,
                keyword,
                found,
            } => {
                // The form is the reply's language's (`PARTIE` in an English reply gets
                // the SIGNON form): a form in the other language would need its prose too.
                let form = keyword.usage(lang);
                say!(lang, "command.arguments", command, form, found)
            }
            CommandError::PressWithoutEnd => say!(lang, "command.press_without_end"),
            CommandError::EmptyPress => say!(lang, "command.empty_press"),
            CommandError::PressEndWithoutPress { command } => {
                say!(lang, "command.press_end_without_press", command)
            }
            CommandError::DiaryWithoutEnd { lines } => {
                say!(lang, "shorthand.diary_without_end", lines)
            }
            CommandError::DiaryEndWithoutDiary { command } => {
                say!(lang, "shorthand.diary_end_without_diary", command)
            }
        }
    }
}

impl Keyword {
    /// The form of the command, with an example where the arguments need one.
    pub fn usage(self, lang: Lang) -> String {
        match self {
            Keyword::SignOn => say!(lang, "usage.sign_on"),
            Keyword::Moderator => say!(lang, "usage.moderator"),
            Keyword::Orders => say!(lang, "usage.orders"),
            Keyword::PartialOrders => say!(lang, "usage.partial_orders"),
            Keyword::Ready => say!(lang, "usage.ready"),
            Keyword::NotReady => say!(lang, "usage.not_ready"),
            Keyword::Status => say!(lang, "usage.status"),
            Keyword::List => say!(lang, "usage.list"),
            Keyword::History => say!(lang, "usage.history"),
            Keyword::Draw => say!(lang, "usage.draw"),
            Keyword::NoDraw => say!(lang, "usage.no_draw"),
            Keyword::Concede => say!(lang, "usage.concede"),
            Keyword::Resign => say!(lang, "usage.resign"),
            Keyword::Address => say!(lang, "usage.address"),
            Keyword::Absence => say!(lang, "usage.absence"),
            Keyword::Language => say!(lang, "usage.language"),
            Keyword::Observe => say!(lang, "usage.observe"),
            Keyword::Unobserve => say!(lang, "usage.unobserve"),
            Keyword::Press => say!(lang, "usage.press"),
            Keyword::GreyPress => say!(lang, "usage.grey_press"),
            Keyword::Broadcast => say!(lang, "usage.broadcast"),
            Keyword::GreyBroadcast => say!(lang, "usage.grey_broadcast"),
            Keyword::PressEnd => say!(lang, "usage.press_end"),
            Keyword::Help => say!(lang, "usage.help"),
            Keyword::Stop => say!(lang, "usage.stop"),
            Keyword::Start => say!(lang, "usage.start"),
            Keyword::Process => say!(lang, "usage.process"),
            Keyword::Preview => say!(lang, "usage.preview"),
            Keyword::Pause => say!(lang, "usage.pause"),
            Keyword::Resume => say!(lang, "usage.resume"),
            Keyword::Extend => say!(lang, "usage.extend"),
            Keyword::Rollback => say!(lang, "usage.rollback"),
            Keyword::AddPlayer => say!(lang, "usage.add_player"),
            Keyword::ReplacePlayer => say!(lang, "usage.replace_player"),
            Keyword::RemovePlayer => say!(lang, "usage.remove_player"),
            Keyword::Observers => say!(lang, "usage.observers"),
            Keyword::Map => say!(lang, "usage.map"),
            Keyword::Pictures => say!(lang, "usage.pictures"),
            Keyword::EndGame => say!(lang, "usage.end_game"),
            Keyword::Set => say!(lang, "usage.set"),
            Keyword::Password => say!(lang, "habits.usage_password"),
            Keyword::Create => say!(lang, "create.usage"),
            Keyword::WhoGame => say!(lang, "whogame.usage"),
            Keyword::Summary => say!(lang, "summary.usage"),
            Keyword::Alert => say!(lang, "alert.usage"),
            Keyword::Get => say!(lang, "habits.usage_get"),
            Keyword::WhoIs => say!(lang, "habits.usage_whois"),
            Keyword::Record => say!(lang, "record.usage"),
            Keyword::Zone => say!(lang, "zone.usage"),
            Keyword::Join => say!(lang, "join.usage_join"),
            Keyword::TakeOver => say!(lang, "join.usage_takeover"),
            Keyword::Approve => say!(lang, "join.usage_approve"),
            Keyword::Reject => say!(lang, "join.usage_reject"),
            Keyword::Standby => say!(lang, "standby.usage"),
            Keyword::Announce => say!(lang, "standby.usage_announce"),
            Keyword::Phase => say!(lang, "ahead.usage_phase"),
            Keyword::ClearAhead => say!(lang, "ahead.usage_clear"),
            Keyword::Diary => say!(lang, "shorthand.usage_diary"),
            Keyword::DiaryEnd => say!(lang, "shorthand.usage_diary_end"),
        }
    }
}
