//! What a player or moderator is told about a line that is no valid command: the keyword
//! as they wrote it, and the form it expects, in their language.

use super::CommandError;
use super::keywords::Keyword;
use crate::lang::Lang;

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
                match (lang, found.is_empty()) {
                    (Lang::Fr, true) => {
                        format!("`{command}` attend : {form} (il manque la suite).")
                    }
                    (Lang::Fr, false) => format!("`{command}` attend : {form} (reçu : `{found}`)."),
                    (Lang::En, true) => format!("`{command}` needs: {form} (nothing followed it)."),
                    (Lang::En, false) => format!("`{command}` needs: {form} (got: `{found}`)."),
                }
            }
            CommandError::PressWithoutEnd => lang
                .pick(
                    "Ce message de presse n'a pas de fin : il n'a pas été envoyé, et toute la \
                     suite du courriel a été prise pour son texte. Terminez-le par une ligne \
                     FIN PRESSE (ou END PRESS), seule sur sa ligne.",
                    "This press message has no end: it was not sent, and the whole rest of \
                     the mail was taken as its text. End it with a line END PRESS (or FIN \
                     PRESSE) on its own.",
                )
                .to_string(),
            CommandError::EmptyPress => lang
                .pick(
                    "Ce message de presse est vide : il n'a pas été envoyé. Écrivez son texte \
                     entre la ligne PRESSE et la ligne FIN PRESSE.",
                    "This press message is empty: it was not sent. Write its text between the \
                     PRESS line and the END PRESS line.",
                )
                .to_string(),
            CommandError::PressEndWithoutPress { command } => match lang {
                Lang::Fr => format!(
                    "`{command}` ne termine aucun message de presse : un message commence par \
                     PRESSE À <maison>, <maison>… ou par DIFFUSION, sur sa propre ligne."
                ),
                Lang::En => format!(
                    "`{command}` ends no press message: a message starts with PRESS TO \
                     <house>, <house>… or with BROADCAST, on a line of its own."
                ),
            },
        }
    }
}

impl Keyword {
    /// The form of the command, with an example where the arguments need one.
    pub fn usage(self, lang: Lang) -> &'static str {
        let (fr, en) = match self {
            Keyword::SignOn => (
                "PARTIE <partie> <maison> <secret>",
                "SIGNON <game> <house> <secret>",
            ),
            Keyword::Moderator => ("MODÉRATEUR <partie> <secret>", "MODERATOR <game> <secret>"),
            Keyword::Orders => (
                "ORDRES seul sur sa ligne, puis un ordre par ligne",
                "ORDERS on its own line, then one order a line",
            ),
            Keyword::PartialOrders => (
                "ORDRES PARTIELS seul sur sa ligne, puis un ordre par ligne",
                "PARTIAL ORDERS on its own line, then one order a line",
            ),
            Keyword::Ready => ("PRÊT seul sur sa ligne", "READY on its own line"),
            Keyword::NotReady => ("PAS PRÊT seul sur sa ligne", "NOT READY on its own line"),
            Keyword::Status => ("ÉTAT seul sur sa ligne", "STATUS on its own line"),
            Keyword::List => ("LISTE seul sur sa ligne", "LIST on its own line"),
            Keyword::History => ("HISTORIQUE [<phase>]", "HISTORY [<phase>]"),
            Keyword::Draw => ("NUL seul sur sa ligne", "DRAW on its own line"),
            Keyword::NoDraw => ("PAS NUL seul sur sa ligne", "NO DRAW on its own line"),
            Keyword::Concede => ("CONCÉDER <maison>", "CONCEDE <house>"),
            Keyword::Resign => ("ABANDONNER seul sur sa ligne", "RESIGN on its own line"),
            Keyword::Address => (
                "ADRESSE <nouvelle adresse électronique>",
                "ADDRESS <new email address>",
            ),
            Keyword::Absence => (
                "ABSENCE du <date> [<heure>] au <date> [<heure>], par exemple \
                 ABSENCE du 2026-12-24 au 2026-12-27 20:00",
                "ABSENCE from <date> [<time>] to <date> [<time>], for example \
                 ABSENCE from 2026-12-24 to 2026-12-27 20:00",
            ),
            Keyword::Language => ("LANGUE fr ou LANGUE en", "LANGUAGE en or LANGUAGE fr"),
            Keyword::Observe => (
                "OBSERVER <partie>, puis OBSERVER <partie> CONFIRMER <jeton>",
                "OBSERVE <game>, then OBSERVE <game> CONFIRM <token>",
            ),
            Keyword::Unobserve => (
                "NE PLUS OBSERVER <partie> <secret>",
                "UNOBSERVE <game> <secret>",
            ),
            Keyword::Press => (
                "PRESSE À <maison>, <maison>… (ou PRESSE AU MODÉRATEUR, ou PRESSE À TOUS), \
                 puis le texte, puis FIN PRESSE",
                "PRESS TO <house>, <house>… (or PRESS TO MODERATOR, or PRESS TO ALL), then \
                 the text, then END PRESS",
            ),
            Keyword::GreyPress => (
                "PRESSE GRISE À <maison>, <maison>… (ou À TOUS), puis le texte, puis FIN PRESSE",
                "GREY PRESS TO <house>, <house>… (or TO ALL), then the text, then END PRESS",
            ),
            Keyword::Broadcast => (
                "DIFFUSION seul sur sa ligne, puis le texte, puis FIN DIFFUSION",
                "BROADCAST on its own line, then the text, then END BROADCAST",
            ),
            Keyword::GreyBroadcast => (
                "DIFFUSION GRISE seul sur sa ligne, puis le texte, puis FIN DIFFUSION",
                "GREY BROADCAST on its own line, then the text, then END BROADCAST",
            ),
            Keyword::PressEnd => (
                "FIN PRESSE seul sur sa ligne, après le texte d'un message de presse",
                "END PRESS on its own line, after the text of a press message",
            ),
            Keyword::Help => ("AIDE seul sur sa ligne", "HELP on its own line"),
            Keyword::Stop => ("FIN seul sur sa ligne", "END on its own line"),
            Keyword::Start => ("DÉMARRER seul sur sa ligne", "START on its own line"),
            Keyword::Process => (
                "TRAITER <phase en cours>, par exemple TRAITER printemps 299 mouvements, \
                 pour qu'une phase ne soit jamais traitée deux fois",
                "PROCESS <current phase>, for example PROCESS spring 299 movement, so that no \
                 phase is ever processed twice",
            ),
            Keyword::Preview => ("APERÇU seul sur sa ligne", "PREVIEW on its own line"),
            Keyword::Pause => ("PAUSE seul sur sa ligne", "PAUSE on its own line"),
            Keyword::Resume => ("REPRENDRE seul sur sa ligne", "RESUME on its own line"),
            Keyword::Extend => (
                "PROLONGER <durée>, par exemple PROLONGER 2j ou PROLONGER 12h",
                "EXTEND <span>, for example EXTEND 2d or EXTEND 12h",
            ),
            Keyword::Rollback => (
                "ANNULER <dernière phase traitée>, par exemple ANNULER printemps 299 mouvements",
                "ROLLBACK <last processed phase>, for example ROLLBACK spring 299 movement",
            ),
            Keyword::AddPlayer => (
                "AJOUTER <maison> <adresse> [fr|en]",
                "ADD <house> <address> [fr|en]",
            ),
            Keyword::ReplacePlayer => (
                "REMPLACER <maison> <adresse> [fr|en]",
                "REPLACE <house> <address> [fr|en]",
            ),
            Keyword::RemovePlayer => ("RETIRER <maison>", "REMOVE PLAYER <house>"),
            Keyword::Observers => ("OBSERVATEURS oui ou non", "OBSERVERS yes or no"),
            Keyword::Map => ("CARTE [<partie>]", "MAP [<game>]"),
            Keyword::Pictures => ("IMAGES oui ou non", "PICTURES yes or no"),
            Keyword::EndGame => (
                "TERMINER VICTOIRE <maison>…, TERMINER NUL, TERMINER CONCESSION <maison> ou \
                 TERMINER ABANDON",
                "END GAME WIN <house>…, END GAME DRAW, END GAME CONCEDE <house> or END GAME \
                 ABANDON",
            ),
        };
        lang.pick(fr, en)
    }
}
