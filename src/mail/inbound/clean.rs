//! The body reduced to what the sender wrote in this mail. Commands and orders are read
//! from it line by line, so a quoted copy of earlier results must never be left in it:
//! quoted lines and the lines that introduce them go, and everything after a signature
//! separator, a forwarded or original-message block or an unquoted copy of a previous
//! mail is cut. Client footers ("Envoyé de mon iPhone") go too. The rules and the
//! clients they come from: docs/email-ingest.md.

/// The text (normalised: `\n` line ends, no trailing spaces) without quotes, signature,
/// footers and earlier mails, and without leading, trailing or repeated blank lines.
pub(super) fn clean(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let lines = &lines[..own_text_end(&lines)];
    let mut keep: Vec<bool> = lines
        .iter()
        .map(|line| !is_quoted(line) && !is_footer(line))
        .collect();
    for start in 0..lines.len() {
        let Some(attribution) = attribution_at(lines, start) else {
            continue;
        };
        let end = start + attribution.lines;
        let introduces_quote = match next_content(lines, end) {
            Some(next) => is_quoted(next),
            None => attribution.dated,
        };
        if introduces_quote {
            keep[start..end].fill(false);
        }
    }
    assemble(lines, &keep)
}

/// Where the sender's own text ends: at the first unquoted line that starts a signature,
/// a forwarded or original message, or a copy of a previous mail.
fn own_text_end(lines: &[&str]) -> usize {
    (0..lines.len())
        .find(|&at| {
            let line = lines[at];
            !is_quoted(line)
                && (is_signature_separator(line)
                    || is_message_separator(line)
                    || is_forward_intro(line)
                    || starts_header_block(lines, at)
                    || starts_unquoted_copy(lines, at))
        })
        .unwrap_or(lines.len())
}

/// `>` quoting at any depth, spaced or not (`> >`, `>>`, ` > `).
pub(super) fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The first non-blank line from `at` on.
fn next_content<'a>(lines: &[&'a str], at: usize) -> Option<&'a str> {
    lines
        .get(at..)?
        .iter()
        .copied()
        .find(|line| !is_blank(line))
}

/// Lower case, curly apostrophes straight and runs of spaces single, for comparing a
/// line with the fixed phrases mail clients write.
fn folded(line: &str) -> String {
    line.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace('’', "'")
}

/// `-- ` (RFC 3676 4.3) and the `--` left of it by clients and by the removal of
/// trailing spaces.
fn is_signature_separator(line: &str) -> bool {
    line.trim_end() == "--"
}

/// Titles clients put between dashes above an earlier message they include:
/// Outlook's `-----Original Message-----`, Gmail's `---------- Forwarded message ---------`,
/// Thunderbird's `-------- Message transféré --------`, Samsung's `-------- Message d'origine --------`.
fn is_message_separator(line: &str) -> bool {
    const TITLES: &[&str] = &[
        "original message",
        "message original",
        "message d'origine",
        "forwarded message",
        "message transféré",
    ];
    let line = line.trim();
    if !line.starts_with("---") {
        return false;
    }
    let title = folded(line.trim_matches(|c: char| c == '-' || c == ' '));
    TITLES.contains(&title.as_str())
}

/// Apple Mail's line above a forwarded message.
fn is_forward_intro(line: &str) -> bool {
    const INTROS: &[&str] = &[
        "begin forwarded message",
        "début du message réexpédié",
        "début du message transféré",
    ];
    let line = folded(line);
    INTROS.contains(&line.trim_end_matches(':').trim_end())
}

/// Outlook's header block above the previous mail it includes unquoted, with or without
/// its rule of underscores:
///
/// ```text
/// ________________________________
/// De : Corbeau <judge@corbeau.example>
/// Envoyé : lundi 3 novembre 2026 10:00
/// ```
///
/// A `From`/`De` line counts only when a `Sent`/`Date`/`Envoyé` line follows within the
/// block, so that a press text beginning "De : Maison Stark" is not cut.
fn starts_header_block(lines: &[&str], at: usize) -> bool {
    let line = lines[at];
    if is_rule(line) {
        return lines
            .get(at + 1..)
            .and_then(|rest| rest.iter().position(|l| !is_blank(l)))
            .is_some_and(|skip| skip <= 1 && starts_header_block(lines, at + 1 + skip));
    }
    if !header_label(line).is_some_and(|label| FROM_LABELS.contains(&label.as_str())) {
        return false;
    }
    lines
        .iter()
        .skip(at + 1)
        .take(4)
        .map_while(|l| header_label(l))
        .any(|label| SENT_LABELS.contains(&label.as_str()))
}

const FROM_LABELS: &[&str] = &["from", "de"];
const SENT_LABELS: &[&str] = &["sent", "date", "envoyé", "envoyé le", "envoye"];

/// Outlook's rule of underscores (32 of them; fewer in some versions).
fn is_rule(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 10 && line.chars().all(|c| c == '_')
}

/// The label of a mail-header-like line (`From: x`, `De : x`, `*Envoyé :* x` as a
/// text part shows bold labels), lower-cased.
fn header_label(line: &str) -> Option<String> {
    let line = line.trim_start().trim_start_matches('*');
    let (label, _) = line.split_once(':')?;
    let label = label.trim().trim_end_matches('*').trim_end();
    (!label.is_empty() && label.chars().count() <= 12).then(|| folded(label))
}

/// An attribution line ("On … wrote:", "Le … a écrit :") found at the start of an
/// unquoted block of text: the client copied the previous mail without `>` (Yahoo's
/// text part, Outlook set to "include original text"), so the rest is not the sender's.
/// Only an attribution with a time of day counts here, as every client writes one and
/// a press text ("Le 12 du mois, Lord Tywin a écrit :") seldom does.
fn starts_unquoted_copy(lines: &[&str], at: usize) -> bool {
    let Some(attribution) = attribution_at(lines, at) else {
        return false;
    };
    attribution.timed
        && next_content(lines, at + attribution.lines).is_some_and(|next| !is_quoted(next))
}

/// An attribution line, possibly wrapped over several lines as Gmail's text part does:
///
/// ```text
/// On Mon, Nov 3, 2026 at 10:00 AM Corbeau (Westeros) <judge@corbeau.example>
/// wrote:
/// ```
struct Attribution {
    /// How many lines it takes.
    lines: usize,
    /// It begins "On"/"Le" and holds a date: a client wrote it.
    dated: bool,
    /// It holds a time of day as well.
    timed: bool,
}

fn attribution_at(lines: &[&str], start: usize) -> Option<Attribution> {
    const WRAP_MAX: usize = 3;
    for count in 1..=WRAP_MAX {
        let pieces = lines.get(start..start + count)?;
        if pieces.iter().any(|l| is_blank(l) || is_quoted(l)) {
            return None;
        }
        let joined = folded(&pieces.join(" "));
        let ends = ["wrote:", "a écrit :", "a écrit:", "a ecrit :", "a ecrit:"]
            .iter()
            .any(|end| joined.ends_with(end));
        let first = folded(pieces[0]);
        let dated = (first.starts_with("on ") || first.starts_with("le "))
            && first.chars().any(|c| c.is_ascii_digit());
        // Clients wrap only a long line: every piece but the last is long.
        let wrapped_fits = pieces[..count - 1]
            .iter()
            .all(|piece| piece.trim().chars().count() >= 40);
        if ends && (count == 1 || dated && wrapped_fits) {
            return Some(Attribution {
                lines: count,
                dated,
                timed: dated && has_time_of_day(&joined),
            });
        }
    }
    None
}

/// `10:00`, `9:05`, `10:00:00`.
fn has_time_of_day(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}

/// Lines mobile and desktop clients add below what was written.
fn is_footer(line: &str) -> bool {
    // Each starts a whole line; the device or app named after "Sent from my" varies.
    const APP_FOOTERS: &[&str] = &[
        "sent from mail for windows",
        "envoyé à partir de courrier pour windows",
        "sent from outlook",
        "envoyé à partir d'outlook",
        "envoyé depuis outlook",
        "get outlook for ios",
        "get outlook for android",
        "télécharger outlook pour ios",
        "télécharger outlook pour android",
        "obtenir outlook pour ios",
        "obtenir outlook pour android",
        "sent from yahoo mail",
        "envoyé de yahoo mail",
        "envoyé depuis yahoo mail",
        "sent with proton mail",
        "sent with protonmail",
        "envoyé avec la messagerie sécurisée proton mail",
        "sent from gmail mobile",
    ];
    const DEVICE_INTROS: &[&str] = &[
        "sent from my ",
        "sent from a ",
        "envoyé de mon ",
        "envoyé depuis mon ",
        "envoyé à partir de mon ",
        "envoye de mon ",
        "envoye depuis mon ",
    ];
    // A device must follow, so that "Envoyé de mon donjon, …" in a press text stays.
    const DEVICES: &[&str] = &[
        "android",
        "appareil",
        "blackberry",
        "fairphone",
        "galaxy",
        "huawei",
        "ipad",
        "iphone",
        "ipod",
        "mobile",
        "motorola",
        "nokia",
        "oneplus",
        "phone",
        "pixel",
        "samsung",
        "smartphone",
        "tablet",
        "tablette",
        "telephone",
        "téléphone",
        "windows phone",
        "xiaomi",
    ];
    let mut line = folded(line);
    // Outlook mobile's text part appends the link: "Get Outlook for iOS<https://aka.ms/…>".
    if let Some(link) = line.find("<http") {
        line.truncate(link);
    }
    let line = line.trim().trim_end_matches('.').trim_end();
    if line.chars().count() > 80 {
        return false;
    }
    let names_device = |rest: &str| {
        DEVICES.iter().any(|device| {
            rest.strip_prefix(device)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric()))
        })
    };
    APP_FOOTERS.iter().any(|footer| line.starts_with(footer))
        || DEVICE_INTROS
            .iter()
            .any(|intro| line.strip_prefix(intro).is_some_and(names_device))
}

/// The kept lines, without leading and trailing blank lines and with runs of blank lines
/// (often left where a quote was removed) made one.
fn assemble(lines: &[&str], keep: &[bool]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for (line, _) in lines.iter().zip(keep).filter(|(_, kept)| **kept) {
        if is_blank(line) && out.last().is_none_or(|last| last.is_empty()) {
            continue;
        }
        out.push(if is_blank(line) { "" } else { line });
    }
    while out.last() == Some(&"") {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn quoted_lines_at_any_depth_go() {
        let text = "A1 Ner -> Som\n> :: game: westeros\n>> A Win H\n > > F Bla -> Mfr\nF Crb S A1";
        assert_eq!(clean(text), "A1 Ner -> Som\nF Crb S A1");
    }

    #[test]
    fn attributions_before_a_quote_go() {
        let text = "Ordres :\nA Win H\n\nLe lun. 3 nov. 2026 à 10:00, Corbeau <judge@corbeau.example> a écrit :\n\n> :: game: westeros";
        assert_eq!(clean(text), "Ordres :\nA Win H");
    }

    #[test]
    fn a_gmail_wrapped_attribution_goes_whole() {
        let text = "A Win H\n\nOn Mon, Nov 3, 2026 at 10:00 AM Corbeau (Westeros) <judge@corbeau.example>\nwrote:\n\n> A Win H";
        assert_eq!(clean(text), "A Win H");
    }

    #[test]
    fn a_line_above_an_attribution_is_not_taken_for_its_first_half() {
        let text = "Le Nord se souvient.\nLe 03/11/2026 à 10:00, Corbeau a écrit :\n> A Win H";
        assert_eq!(clean(text), "Le Nord se souvient.");
    }

    #[test]
    fn an_attribution_over_unquoted_text_cuts_it() {
        let text = "A Win H\n\nOn Monday, November 3, 2026, 10:00:00 AM GMT+1, Corbeau <judge@corbeau.example> wrote:\n\n:: game: westeros\nA Win -> Moa";
        assert_eq!(clean(text), "A Win H");
    }

    #[test]
    fn a_press_text_quoting_a_letter_is_kept() {
        let text = "Presse à tous :\nLe 12 du mois, Lord Tywin a écrit :\nRendez-vous à Port-Réal.";
        assert_eq!(clean(text), text);
    }

    #[test]
    fn the_signature_is_cut_with_or_without_its_space() {
        assert_eq!(clean("A Win H\n-- \nJon\nA Win -> Moa"), "A Win H");
        assert_eq!(clean("A Win H\n--\nJon"), "A Win H");
        assert_eq!(clean("A Win H\n---\nB"), "A Win H\n---\nB");
    }

    #[test]
    fn outlook_blocks_are_cut() {
        let with_rule = "A Win H\n\n________________________________\nDe : Corbeau <judge@corbeau.example>\nEnvoyé : lundi 3 novembre 2026 10:00\nÀ : jon@example.org\nObjet : Résultats\n\nA Win -> Moa";
        assert_eq!(clean(with_rule), "A Win H");
        let bare = "A Win H\nFrom: Corbeau <judge@corbeau.example>\nSent: Monday, November 3, 2026 10:00 AM\nTo: jon@example.org\n\nA Win -> Moa";
        assert_eq!(clean(bare), "A Win H");
        let original = "A Win H\n-----Message d'origine-----\nDe : Corbeau";
        assert_eq!(clean(original), "A Win H");
    }

    #[test]
    fn a_press_text_with_header_like_lines_is_kept() {
        let text = "De : Maison Stark\nÀ : Maison Lannister\nL'hiver vient.";
        assert_eq!(clean(text), text);
    }

    #[test]
    fn forwards_are_cut() {
        assert_eq!(
            clean("Voir plus bas\n\nDébut du message réexpédié :\n\nDe: Corbeau"),
            "Voir plus bas"
        );
        assert_eq!(
            clean("FYI\n---------- Forwarded message ---------\nFrom: x"),
            "FYI"
        );
    }

    #[test]
    fn footers_go_but_not_press_texts_that_look_like_them() {
        let text = "A Win H\n\nEnvoyé de mon iPhone\nSent from my Samsung Galaxy smartphone.\nGet Outlook for iOS<https://aka.ms/o0ukef>\nEnvoyé de mon donjon de Winterfell";
        assert_eq!(clean(text), "A Win H\n\nEnvoyé de mon donjon de Winterfell");
    }

    #[test]
    fn blank_lines_are_trimmed_and_collapsed() {
        assert_eq!(
            clean("\n\nA Win H\n\n> q\n\nF Bla H\n\n"),
            "A Win H\n\nF Bla H"
        );
    }
}
