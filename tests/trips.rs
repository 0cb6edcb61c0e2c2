//! What players and administrators tripped on, each mended and kept so: a name with an
//! apostrophe in the published order tables, the deploy guide's welcomes, ordinary borders
//! of the classic map drawn as straits, Switzerland's name, a closed pipe and hidden
//! commands in the completions, the locale, the Postfix alias after the package is
//! removed, issue numbers in the product, the maps of the published pages on a phone, the
//! centre chart's lines, two mails of one second, and `STATUS` after the end.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chrono::{DateTime, Utc};
use support::judge::{Clocked, body_of, corbeau, mails_to, root, run, said};
use support::secret_in;

use corbeau::draw::{Picture, svg};
use corbeau::judge::Position;
use corbeau::lang::Lang;
use corbeau::map::{Variant, load_variant};

const NOW: &str = "2026-03-23T08:00:00Z";
const MODERATOR: &str = "mod@example.org";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

fn source(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn variant(name: &str) -> Variant {
    load_variant(name).unwrap_or_else(|e| panic!("{e}"))
}

/// The starting position of `variant` drawn as an SVG for a reader of `lang`.
fn drawn(variant: &Variant, lang: Lang) -> String {
    let position = Position::starting(variant, None).unwrap();
    let picture = Picture {
        variant,
        position: &position,
        orders: &[],
        played: None,
        title: "trips",
        lang,
    };
    svg(&picture).unwrap()
}

/// A judge's folder with a Westeros game of three houses (Stark, Lannister, Baratheon)
/// in `lang`, started, its players seated with secrets the test knows.
fn started_game(name: &str, lang: &str, extra: &str) -> Clocked {
    let j = Clocked::new(root(&format!("trips-{name}"), extra), t0());
    j.ok(&[
        "game",
        "new",
        "g",
        "--players",
        "3",
        "--moderator",
        MODERATOR,
        "--game-lang",
        lang,
    ]);
    j.seat_players(
        "g",
        &[
            ("Stark", "alice@example.org", "stark-secret-1", lang),
            ("Lannister", "bob@example.org", "lannister-secret-2", lang),
            ("Baratheon", "carol@example.org", "baratheon-secret-3", lang),
        ],
    );
    j.ok(&["game", "start", "g"]);
    j
}

// ------------------------------------------------------------ names escaped once

/// The order tables of a phase page escape a name once: `Presqu'île de Claquepince` is
/// `Presqu&#x27;île` in the HTML, which a browser shows as written, never
/// `Presqu&amp;#x27;île`, which it showed as `Presqu&#x27;île`. A name made to harm stays
/// inert all the same (tests/publish.rs).
#[test]
fn a_name_with_an_apostrophe_is_escaped_once_in_the_order_tables() {
    let j = started_game("apostrophe", "fr", "");
    j.ok(&["game", "process", "g"]);
    let site = j.dir.join("site");
    j.ok(&["publish", site.to_str().unwrap()]);
    let page = fs::read_to_string(site.join("games/g/phase-000.html")).unwrap();
    let tables = &page[page.find("<table class=\"orders\">").unwrap()..];
    assert!(
        tables.contains("Presqu&#x27;île de Claquepince (cla)"),
        "{tables}"
    );
    assert!(!page.contains("&amp;#x"), "escaped twice:\n{page}");
}

// ------------------------------------------------------------ the deploy guide's welcomes

/// The moderator's lines of the deploy guide (`game new` to `game start`), run as written
/// but for the judge's folder: each player's welcome, with the secret `player add`
/// printed, waits to leave and leaves at the next pass, as the guide says.
#[test]
fn the_deploy_guide_s_player_lines_queue_each_player_s_welcome() {
    let guide = fs::read_to_string(source("docs/deploy.md")).unwrap();
    let prefix = "runuser -u corbeau -- corbeau --config /etc/corbeau/corbeau.toml ";
    let lines: Vec<&str> = guide
        .lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .skip_while(|l| !l.starts_with("game new"))
        .take_while(|l| !l.starts_with("game start"))
        .collect();
    let adds: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("player add"))
        .collect();
    assert_eq!(adds.len(), 3, "{lines:?}");
    let j = Clocked::new(root("trips-guide", ""), t0());
    let mut printed = Vec::new();
    for line in &lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let out = j.ok(&args);
        if line.starts_with("player add") {
            let address = args[4];
            let secret = out
                .lines()
                .find(|l| l.contains("secret"))
                .and_then(|l| l.split_whitespace().last())
                .unwrap()
                .to_string();
            printed.push((address.to_string(), secret));
        }
    }
    let show = j.ok(&["outbox"]);
    for (address, _) in &printed {
        assert!(
            show.contains(address.as_str()),
            "no mail waits for {address}:\n{show}"
        );
    }
    let mut j = j;
    j.tick(t0());
    for (address, secret) in &printed {
        let mails = mails_to(&j.dir, address);
        let welcome = mails
            .iter()
            .map(|m| body_of(m))
            .find(|b| b.contains("PARTIE essai") || b.contains("SIGNON essai"))
            .unwrap_or_else(|| panic!("no welcome for {address}: {mails:?}"));
        assert_eq!(&secret_in(&welcome), secret, "{welcome}");
    }
}

// ------------------------------------------------------------ the classic map's borders

/// The ordinary borders the classic map drew as dashed straits, their shared edge under
/// the 12 units of `MIN_VISIBLE_EDGE`: each pair, by its provinces' ids.
const ORDINARY: [(&str, &str); 8] = [
    ("gas", "bur"),
    ("pie", "tyr"),
    ("rom", "ven"),
    ("bur", "mun"),
    ("tri", "tyr"),
    ("adr", "ion"),
    ("bul", "gre"),
    ("den", "nth"),
];

/// These borders are shared edges of the picture, drawn solid like any other; no dashed
/// passage names them in the SVG. The classic map has no island and no strait that is
/// not a shared edge: it needs no passage at all (tests/draw.rs checks, for both maps,
/// that every passage is a border with no visible edge).
#[test]
fn the_classic_map_draws_its_ordinary_borders_solid() {
    let v = variant("classique");
    let drawing = v.drawing.as_ref().unwrap();
    let named: Vec<(String, String)> = drawing
        .passages
        .iter()
        .map(|&(a, b)| (v.province(a).id.clone(), v.province(b).id.clone()))
        .collect();
    let text = drawn(&v, Lang::En);
    for (a, b) in ORDINARY {
        assert!(
            !named.contains(&(a.into(), b.into())) && !named.contains(&(b.into(), a.into())),
            "{a}–{b} is a passage: {named:?}"
        );
        assert!(
            !text.contains(&format!("<title>{a}–{b}</title>"))
                && !text.contains(&format!("<title>{b}–{a}</title>")),
            "{a}–{b} drawn as a passage"
        );
    }
    assert!(named.is_empty(), "{named:?}");
}

// ------------------------------------------------------------ Switzerland

#[test]
fn switzerland_is_named_in_the_reader_s_language() {
    let v = variant("classique");
    let en = drawn(&v, Lang::En);
    assert!(en.contains(">Switzerland</text>"), "no Switzerland");
    assert!(!en.contains("Suisse"));
    let fr = drawn(&v, Lang::Fr);
    assert!(fr.contains(">Suisse</text>"));
    assert!(!fr.contains("Switzerland"));
}

// ------------------------------------------------------------ closed pipes, completions

/// Runs corbeau with its standard output a pipe already closed by its reader (as
/// `… | head` once head has had enough): its standard error and exit code.
fn with_closed_pipe(dir: &Path, args: &[&str]) -> (String, Option<i32>) {
    let mut child = corbeau(dir)
        .args(args)
        .env("CORBEAU_NOW", NOW)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    (err, status.code())
}

/// Every command that prints a lot stops quietly on a closed pipe: no panic, no message,
/// its own exit code.
#[test]
fn a_closed_pipe_ends_every_long_output_quietly() {
    let j = started_game("pipe", "en", "");
    j.ok(&["game", "process", "g"]);
    let site = j.dir.join("site");
    let site = site.to_str().unwrap();
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["completions", "fish"],
        &["--help"],
        &["game", "new", "--help"],
        &["adjudicate"],
        &["adjudicate", "--json"],
        &[
            "datc",
            source("tests/datc/datc-v3.0.case").to_str().unwrap(),
        ],
        &["publish", site],
        &["history", "g", "1"],
        &["game", "show", "g"],
    ] {
        let (err, code) = with_closed_pipe(&j.dir, args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_ne!(code, Some(101), "{args:?}: {err}");
        assert!(code.is_some(), "{args:?}: killed by a signal");
    }
}

/// The completions offer what `--help` shows, never a hidden command or option.
#[test]
fn the_completions_offer_no_hidden_command() {
    let dir = root("trips-completions", "");
    for shell in ["bash", "zsh", "fish"] {
        let out = run(corbeau(&dir).args(["completions", shell]), "");
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        for hidden in ["package-files", "datc-convert", "--now", "--isolated"] {
            assert!(!text.contains(hidden), "{shell}: offers `{hidden}`");
        }
        for shown in ["adjudicate", "publish", "config", "welcome"] {
            assert!(text.contains(shown), "{shell}: no `{shown}`");
        }
    }
}

// ------------------------------------------------------------ the locale

/// `corbeau game show` of a game that does not exist, in a folder whose configuration
/// writes no `lang`, with these variables: its error.
fn refusal(dir: &Path, vars: &[(&str, &str)]) -> String {
    let mut c = corbeau(dir);
    c.args(["game", "show", "nothing-here"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    for (k, v) in vars {
        c.env(k, v);
    }
    let out = run(&mut c, "");
    assert_ne!(out.status.code(), Some(0));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `--lang`, then `CORBEAU_LANG`, then the file's `lang`, then `LC_ALL`, `LC_MESSAGES`,
/// `LANG` (the first set), then French (docs/configuration.md).
#[test]
fn the_command_line_follows_the_locale_after_its_own_settings() {
    let dir = root("trips-locale", "");
    let french = refusal(&dir, &[]);
    let english = refusal(&dir, &[("CORBEAU_LANG", "en")]);
    assert_ne!(french, english);
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("LANG", "en_US.UTF-8")], &english),
        (&[("LANG", "fr_FR.UTF-8")], &french),
        (&[("LANG", "C.UTF-8")], &french),
        (&[("LANG", "POSIX")], &french),
        (&[("LANG", "de_DE.UTF-8")], &french),
        (
            &[("LC_MESSAGES", "en_GB.UTF-8"), ("LANG", "fr_FR.UTF-8")],
            &english,
        ),
        (
            &[("LC_ALL", "fr_CA.UTF-8"), ("LC_MESSAGES", "en_GB.UTF-8")],
            &french,
        ),
        (&[("LC_ALL", ""), ("LANG", "en_US")], &english),
        (&[("CORBEAU_LANG", "fr"), ("LANG", "en_US.UTF-8")], &french),
    ];
    for (vars, want) in cases {
        assert_eq!(&refusal(&dir, vars), want, "{vars:?}");
    }
    // `--lang` beats the locale.
    let mut c = corbeau(&dir);
    c.args(["game", "show", "nothing-here", "--lang", "fr"])
        .env("LANG", "en_US.UTF-8");
    assert_eq!(String::from_utf8_lossy(&run(&mut c, "").stderr), french);
    // A file that writes `lang` beats the locale; the judge's runs keep it.
    let written = root("trips-locale-file", "");
    let config = written.join("corbeau.toml");
    let text = fs::read_to_string(&config).unwrap();
    fs::write(&config, format!("lang = \"fr\"\n{text}")).unwrap();
    assert_eq!(
        refusal(&written, &[("LANG", "en_US.UTF-8")]),
        refusal(&written, &[])
    );
    assert_ne!(
        refusal(&written, &[("LANG", "en_US.UTF-8")]),
        refusal(&written, &[("CORBEAU_LANG", "en")])
    );
    // A command that reads no configuration follows the locale too: the bundled
    // example's results.
    let adjudicate = |vars: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
        c.arg("adjudicate")
            .env_remove("CORBEAU_LANG")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG");
        for (k, v) in vars {
            c.env(k, v);
        }
        let out = run(&mut c, "");
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let fr = adjudicate(&[("CORBEAU_LANG", "fr")]);
    let en = adjudicate(&[("CORBEAU_LANG", "en")]);
    assert_ne!(fr, en);
    assert_eq!(adjudicate(&[("LANG", "en_US.UTF-8")]), en);
    assert_eq!(adjudicate(&[("LANG", "fr_FR.UTF-8")]), fr);
    assert_eq!(adjudicate(&[("LANG", "C")]), fr);
}

// ------------------------------------------------------------ the package's alias

/// Runs the package's postrm with `action` against the aliases file `aliases`, every
/// system command it calls replaced by one that notes its arguments: what they were.
fn postrm(dir: &Path, aliases: &Path, action: &str) -> String {
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let log = dir.join("calls");
    for name in [
        "postalias",
        "deb-systemd-helper",
        "dpkg-statoverride",
        "systemctl",
    ] {
        let stub = bin.join(name);
        fs::write(
            &stub,
            format!("#!/bin/sh\necho \"{name} $*\" >> '{}'\n", log.display()),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&stub, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let _ = fs::remove_file(&log);
    let out = Command::new("sh")
        .arg(source("pkg/debian/postrm"))
        .arg(action)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("CORBEAU_ALIASES", aliases)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fs::read_to_string(&log).unwrap_or_default()
}

/// Removing or purging the package puts the judge's alias out of use (commented, the map
/// rebuilt); the other aliases stay as they were, and an upgrade touches nothing.
#[test]
fn removing_the_package_puts_the_judge_s_alias_out_of_use() {
    let dir = root("trips-postrm", "");
    let aliases = dir.join("aliases");
    let guide = "juge: \"|/usr/bin/corbeau --config /etc/corbeau/corbeau.toml ingest\"\n";
    let other = "postmaster: root\n";
    for action in ["remove", "purge"] {
        fs::write(&aliases, format!("{other}{guide}")).unwrap();
        let calls = postrm(&dir, &aliases, action);
        assert_eq!(
            fs::read_to_string(&aliases).unwrap(),
            format!("{other}# {guide}"),
            "{action}"
        );
        assert!(
            calls.contains(&format!("postalias {}", aliases.display())),
            "{action}: {calls}"
        );
        // Done once: a second run leaves it as it is.
        let calls = postrm(&dir, &aliases, action);
        assert_eq!(
            fs::read_to_string(&aliases).unwrap(),
            format!("{other}# {guide}")
        );
        assert!(!calls.contains("postalias"), "{calls}");
    }
    fs::write(&aliases, format!("{other}{guide}")).unwrap();
    postrm(&dir, &aliases, "upgrade");
    assert_eq!(
        fs::read_to_string(&aliases).unwrap(),
        format!("{other}{guide}")
    );
}

// ------------------------------------------------------------ issue numbers

/// The files under `dir` (a file itself if it is one), build output aside.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        files_under(&entry.path(), out);
    }
}

/// Where `text` names an issue by its number (`Issue 20:`, `issue 9`), case aside.
fn issue_numbers(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("issue ") {
        let start = from + at;
        let after = &lower[start + "issue ".len()..];
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            let end = (start + 40).min(text.len());
            let end = (end..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            found.push(text[start..end].to_string());
        }
        from = start + "issue ".len();
    }
    found
}

/// The product speaks in plain words: no help text, template, document, grammar, package
/// file or comment names an issue by its number (nor do the tests).
#[test]
fn no_product_text_names_an_issue_by_its_number() {
    let mut files = Vec::new();
    for top in [
        "src",
        "templates",
        "docs",
        "README.md",
        "grammar",
        "pkg",
        "games",
        "tests",
    ] {
        files_under(&source(top), &mut files);
    }
    assert!(files.len() > 100);
    let mut found = Vec::new();
    for file in files {
        // This file names some, to check the search itself.
        if file.ends_with("tests/trips.rs") {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for hit in issue_numbers(&text) {
            found.push(format!("{}: {hit}", file.display()));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
    assert_eq!(issue_numbers("see Issue 20: x").len(), 1);
    assert_eq!(issue_numbers("an issue 9").len(), 1);
    assert!(issue_numbers("the issue is").is_empty());
}

/// `--help` says no issue number either (clap's text comes from the code's comments).
#[test]
fn no_help_text_names_an_issue_by_its_number() {
    let dir = root("trips-help", "");
    for args in [
        &["--help"][..],
        &["game", "new", "--help"],
        &["game", "set", "--help"],
        &["player", "add", "--help"],
        &["bot", "--help"],
    ] {
        let out = run(corbeau(&dir).args(args), "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(issue_numbers(&text).is_empty(), "{args:?}: {text}");
    }
}

// ------------------------------------------------------------ maps on a phone

/// On a narrow screen a map keeps a readable scale and scrolls in its own box: the style
/// sheet's width for it gives the drawn labels at least 12 px (the labels' size and the
/// map's width read from the SVG itself), and the box, not the page, scrolls.
#[test]
fn the_published_maps_stay_readable_on_a_phone() {
    let css = fs::read_to_string(source("src/publish/style.css")).unwrap();
    let narrow = css
        .split("@media (max-width: 49.99rem)")
        .nth(1)
        .expect("a rule for narrow screens");
    let narrow = &narrow[..narrow.find("\n}").unwrap()];
    assert!(
        narrow.contains("figure.map { overflow-x: auto; }"),
        "{narrow}"
    );
    let rem: f64 = narrow
        .split("figure.map img { width: ")
        .nth(1)
        .and_then(|r| r.split("rem").next())
        .and_then(|n| n.parse().ok())
        .expect("the map's width in rem");
    assert!(narrow.contains("max-width: none"), "{narrow}");
    for name in ["westeros", "classique"] {
        let text = drawn(&variant(name), Lang::Fr);
        let width: f64 = text
            .split(" width=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let label: f64 = text
            .split(".l{font-size:")
            .nth(1)
            .and_then(|r| r.split("px").next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let shown = label * rem * 16.0 / width;
        assert!(shown >= 12.0, "{name}: labels at {shown:.1} px");
    }
}

// ------------------------------------------------------------ the centre chart

/// Each line of the centre chart passes exactly through its counts: the chart's scale is
/// read from its own grid (the `0` line and the top line), and every point of a house's
/// line is at the height of its count, as its `<title>` gives them.
#[test]
fn the_centre_chart_s_lines_sit_on_their_counts() {
    let j = started_game("chart", "en", "");
    j.ok(&["game", "process", "g"]);
    let site = j.dir.join("site");
    j.ok(&["publish", site.to_str().unwrap()]);
    let page = fs::read_to_string(site.join("games/g/index.html")).unwrap();
    // The grid: `<line class="grid" … y1="Y" …/>` then `<text …>N</text>`.
    let mut grid = Vec::new();
    for part in page.split("<line class=\"grid\"").skip(1) {
        let y: f64 = part
            .split("y1=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let n: f64 = part
            .split("dominant-baseline=\"middle\">")
            .nth(1)
            .and_then(|r| r.split('<').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        grid.push((n, y));
    }
    assert!(grid.len() >= 2, "{grid:?}");
    let (n0, y0) = grid[0];
    let (n1, y1) = grid[grid.len() - 1];
    let at = |n: f64| y0 + (y1 - y0) * (n - n0) / (n1 - n0);
    let mut lines = 0;
    for part in page.split("<polyline class=\"series\" points=\"").skip(1) {
        let points: Vec<f64> = part
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        let counts: Vec<f64> = part
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .and_then(|t| t.rsplit(": ").next())
            .unwrap()
            .split(", ")
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(points.len(), counts.len());
        for (y, n) in points.iter().zip(&counts) {
            assert!(
                (y - at(*n)).abs() < 0.06,
                "a point of {n} centres at {y}, not {}",
                at(*n)
            );
        }
        lines += 1;
    }
    assert_eq!(lines, 3);
}

// ------------------------------------------------------------ STATUS after the end

/// Once the game is over, `STATUS` says how it ended, not that every house is waiting.
#[test]
fn status_after_the_end_says_the_game_is_over() {
    for (lang, over, waiting) in [
        ("en", "Game over: draw between", "waiting"),
        ("fr", "Partie terminée : match nul entre", "en attente"),
    ] {
        let mut j = started_game(&format!("status-{lang}"), lang, "");
        let before = j.post(
            "alice@example.org",
            "SIGNON g Stark stark-secret-1\nSTATUS\n",
        );
        assert!(
            body_of(&before[0]).contains(waiting),
            "{}",
            body_of(&before[0])
        );
        j.ok(&["game", "end", "g", "--draw"]);
        let after = j.post(
            "alice@example.org",
            "SIGNON g Stark stark-secret-1\nSTATUS\n",
        );
        let body = body_of(&after[0]);
        assert!(body.contains(over), "{body}");
        for word in [waiting, "Stark  "] {
            assert!(!body.contains(word), "`{word}` in:\n{body}");
        }
    }
}

// ------------------------------------------------------------ two mails of one second

/// The house of `address` in game `id`, if it holds one.
fn seat_of(j: &Clocked, id: &str, address: &str) -> Option<String> {
    j.show(id)["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"]["address"] == address)
        .map(|s| s["house"].as_str().unwrap().to_string())
}

/// The files of the spool's `tmp/`: mails handed in whose `ingest` waits for the store.
fn waiting(j: &Clocked) -> usize {
    support::judge::files(&j.dir.join("data/incoming/tmp")).len()
}

/// Two strangers ask for the same house of an open game, and their confirmations reach
/// the mail server one after the other, within a second, while the store is busy: two
/// `corbeau ingest` wait for it. Whichever gets the store first, the confirmation that
/// came first is carried out first: its sender takes the house, the other the next free
/// one. Several rounds, since which waiting `ingest` gets the store first is chance.
#[test]
fn of_two_mails_of_one_second_the_first_is_carried_out_first() {
    let mut j = Clocked::new(root("trips-order", ""), t0());
    for round in 0..4 {
        let id = format!("o{round}");
        j.ok(&[
            "game",
            "new",
            &id,
            "--players",
            "3",
            "--moderator",
            MODERATOR,
            "--open",
            "--start-when-full",
            "no",
        ]);
        let first = format!("first{round}@example.org");
        let second = format!("second{round}@example.org");
        let mut lines = Vec::new();
        for who in [&first, &second] {
            let asked = j.post(who, &format!("JOIN {id} stark\n"));
            let line = support::world::confirmation_line(&body_of(&asked[0]))
                .unwrap_or_else(|| panic!("no confirmation line in {asked:?}"));
            lines.push((who.clone(), line));
        }
        // The store held, as by a long pass: both `ingest` wait for it.
        let data = j.dir.join("data");
        let held = corbeau::service::Service::open(&data).unwrap();
        let mut children = Vec::new();
        for (n, (who, line)) in lines.iter().enumerate() {
            let mail = support::judge::mail(who, &format!("c{round}-{n}@example.net"), line);
            let mut child = j
                .command(&["ingest"])
                .env("CORBEAU_STORE_WAIT", "20")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(mail.as_bytes())
                .unwrap();
            // Its mail is in the spool, waiting, before the next one comes.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while waiting(&j) < n + 1 {
                assert!(std::time::Instant::now() < deadline, "no mail in the spool");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            children.push(child);
        }
        drop(held);
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        }
        assert_eq!(
            seat_of(&j, &id, &first).as_deref(),
            Some("stark"),
            "round {round}"
        );
        assert_ne!(
            seat_of(&j, &id, &second).as_deref(),
            Some("stark"),
            "round {round}"
        );
        // Both were answered.
        for (who, _) in &lines {
            assert!(!mails_to(&j.dir, who).is_empty());
        }
        j.tick(t0());
    }
}

/// Not a check: prints the classic map's passages with their shared edge (the file read
/// from `CLASSIQUE` or games/classique.toml), to place seeds.
#[test]
#[ignore]
fn explore_passages() {
    let path = std::env::var("CLASSIQUE").unwrap_or_else(|_| "games/classique.toml".into());
    let v = match corbeau::map::load_variant_file(&source(&path)) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    };
    let drawing = v.drawing.as_ref().unwrap();
    let mut shared = std::collections::BTreeMap::new();
    for edge in &drawing.edges {
        if let (
            corbeau::map::drawing::Area::Province(a),
            Some(corbeau::map::drawing::Area::Province(b)),
        ) = (edge.left, edge.right)
            && a != b
        {
            *shared.entry((a.min(b), a.max(b))).or_insert(0.0) += edge.from.distance(edge.to);
        }
    }
    for &(a, b) in &drawing.passages {
        println!(
            "PASSAGE {}–{} {:.1}",
            v.province(a).id,
            v.province(b).id,
            shared.get(&(a, b)).copied().unwrap_or(0.0)
        );
    }
}
