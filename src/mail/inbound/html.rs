//! An HTML body turned into lines of text, for the clients that send no text/plain part.
//!
//! mail-parser's own conversion breaks lines only at `<br>` and `</p>`, so the `<div>`
//! per line that Gmail, Apple Mail and Outlook on the web write would run every order
//! into one line, and it keeps the text of `<blockquote>`, where replies put the quoted
//! previous mail. Here block elements end lines and quoted blocks come out as `> `
//! lines, which the cleaner then drops like any quoted text. Entities are still decoded
//! by mail-parser.

use mail_parser::decoders::html::html_to_text;

/// Elements that begin and end a line, as a browser lays them out.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
];

/// Elements whose content is never shown.
const HIDDEN: &[&str] = &["head", "script", "style", "template", "title"];

/// Turns an HTML document into text, one line per line a reader would see.
pub(super) fn to_text(markup: &str) -> String {
    let mut text = Text::default();
    let mut rest = markup;
    while let Some(lt) = rest.find('<') {
        text.chars(&rest[..lt]);
        rest = text.markup(&rest[lt..]);
    }
    text.chars(rest);
    text.out
}

#[derive(Default)]
struct Text {
    out: String,
    /// Something was written on the current line.
    in_line: bool,
    /// Whitespace was seen since the last character written.
    space: bool,
    /// Depth of `<blockquote>`.
    quote: usize,
    /// Depth of `<pre>`, where whitespace is kept.
    pre: usize,
}

impl Text {
    /// Handles the markup at the start of `s` (which starts with `<`); returns what follows.
    fn markup<'a>(&mut self, s: &'a str) -> &'a str {
        if let Some(comment) = s.strip_prefix("<!--") {
            return comment.find("-->").map_or("", |end| &comment[end + 3..]);
        }
        if s.starts_with("<!") || s.starts_with("<?") {
            return s.find('>').map_or("", |end| &s[end + 1..]);
        }
        let (closing, after) = match s[1..].strip_prefix('/') {
            Some(after) => (true, after),
            None => (false, &s[1..]),
        };
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == ':' || c == '-'))
            .unwrap_or(after.len());
        if name_len == 0 || !after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            // A `<` that starts no tag ("A1 < 3") is text.
            self.char('<');
            return &s[1..];
        }
        let name = after[..name_len].to_ascii_lowercase();
        let rest = tag_end(&after[name_len..]);
        if !closing && HIDDEN.contains(&name.as_str()) {
            return skip_element(rest, &name);
        }
        match name.as_str() {
            "br" => self.newline(),
            // Table cells side by side stay on one line, apart.
            "td" | "th" => self.space |= self.in_line,
            _ if BLOCKS.contains(&name.as_str()) => {
                self.end_line();
                match (name.as_str(), closing) {
                    ("blockquote", false) => self.quote += 1,
                    ("blockquote", true) => self.quote = self.quote.saturating_sub(1),
                    ("pre", false) => self.pre += 1,
                    ("pre", true) => self.pre = self.pre.saturating_sub(1),
                    _ => {}
                }
            }
            _ => {}
        }
        rest
    }

    /// Writes a run of text, with its entities decoded.
    fn chars(&mut self, run: &str) {
        let mut rest = run;
        while let Some(c) = rest.chars().next() {
            if c == '&'
                && let Some(len) = entity_len(rest)
            {
                for decoded in html_to_text(&rest[..len]).chars() {
                    self.char(decoded);
                }
                rest = &rest[len..];
                continue;
            }
            self.char(c);
            rest = &rest[c.len_utf8()..];
        }
    }

    fn char(&mut self, c: char) {
        if self.pre > 0 {
            match c {
                '\n' => return self.newline(),
                '\r' => return,
                _ => return self.put(c),
            }
        }
        if c.is_ascii_whitespace() {
            self.space = true;
        } else {
            if self.space && self.in_line {
                self.out.push(' ');
            }
            self.put(c);
        }
    }

    fn put(&mut self, c: char) {
        if !self.in_line && self.quote > 0 {
            self.out.push_str(&">".repeat(self.quote));
            self.out.push(' ');
        }
        self.out.push(c);
        self.in_line = true;
        self.space = false;
    }

    /// `<br>`: always a new line, so `<div><br></div>` is an empty line.
    fn newline(&mut self) {
        self.out.push('\n');
        self.in_line = false;
        self.space = false;
    }

    /// A block boundary: a new line unless the current one is still empty.
    fn end_line(&mut self) {
        if self.in_line {
            self.newline();
        }
        self.space = false;
    }
}

/// What follows the `>` that closes a tag, skipping quoted attribute values (a `>` in a
/// style or a link does not end the tag).
fn tag_end(s: &str) -> &str {
    let mut quote = None;
    for (at, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return &s[at + 1..],
            _ => {}
        }
    }
    ""
}

/// What follows the end tag of a hidden element. A `<head>` left open ends at `<body>`;
/// another hidden element left open hides the rest.
fn skip_element<'a>(s: &'a str, name: &str) -> &'a str {
    if let Some(at) = find_ignore_case(s, &format!("</{name}")) {
        return tag_end(&s[at..]);
    }
    match (name, find_ignore_case(s, "<body")) {
        ("head", Some(at)) => &s[at..],
        _ => "",
    }
}

/// Where the ASCII `needle` first occurs in `s`, ignoring ASCII case.
fn find_ignore_case(s: &str, needle: &str) -> Option<usize> {
    s.as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The length of the character reference at the start of `s` (`&eacute;`, `&#233;`,
/// `&#xE9;`), if it is one.
fn entity_len(s: &str) -> Option<usize> {
    let body = s.get(1..)?;
    let end = body.find(';')?;
    let name = &body[..end];
    let plausible = !name.is_empty()
        && name.len() <= 32
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '#');
    plausible.then_some(end + 2)
}

#[cfg(test)]
mod tests {
    use super::to_text;

    #[test]
    fn divs_and_paragraphs_are_lines() {
        let html = "<div dir=\"ltr\"><div>A1 Ner -&gt; Som</div><div>F Crb S A1</div>\
                    <div><br></div><p class=MsoNormal>Merci<o:p></o:p></p></div>";
        assert_eq!(to_text(html), "A1 Ner -> Som\nF Crb S A1\n\nMerci\n");
    }

    #[test]
    fn blockquotes_become_quoted_lines() {
        let html = "<p>Oui</p><blockquote type=\"cite\"><div>:: game: x</div>\
                    <blockquote>A Win H</blockquote></blockquote><p>Fin</p>";
        assert_eq!(to_text(html), "Oui\n> :: game: x\n>> A Win H\nFin\n");
    }

    #[test]
    fn entities_and_whitespace() {
        let html = "<p>  Port-R&eacute;al&nbsp;: \n  l&#8217;arm&#xE9;e  &amp; la flotte &c </p>";
        assert_eq!(to_text(html), "Port-Réal\u{A0}: l’armée & la flotte &c\n");
    }

    #[test]
    fn hidden_elements_and_comments_are_skipped() {
        let html = "<html><head><style>p {color: red}</style><title>t</title></head>\
                    <body><!--[if mso]>x<![endif]--><script>a<b</script>Texte</body></html>";
        assert_eq!(to_text(html), "Texte\n");
    }

    #[test]
    fn pre_keeps_its_lines() {
        assert_eq!(
            to_text("<pre>A Win H\n  F Bla -> Mfr</pre>"),
            "A Win H\n  F Bla -> Mfr\n"
        );
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(to_text("<div>3 < 4 <> 5</div>"), "3 < 4 <> 5\n");
    }
}
