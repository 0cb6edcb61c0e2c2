//! Positions that used to be read leniently: each is now refused with a clear message.

use corbeau::case::read_position;
use corbeau::map::load_variant;

fn refusal(variant: &str, text: &str) -> String {
    let variant = load_variant(variant).expect("built-in variant");
    match read_position(&variant, "position.txt", text) {
        Ok(p) => panic!("accepted: {text:?} as {p:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_negative_year_is_no_year() {
    let e = refusal(
        "classique",
        "phase winter -5 adjustment\nunit England: F lon\n",
    );
    assert!(
        e.starts_with("position.txt:1: unknown phase `winter -5 adjustment`"),
        "{e}"
    );
    let e = refusal("classique", "phase S-5M\n");
    assert!(e.contains("unknown phase `S-5M`"), "{e}");
}

#[test]
fn winter_is_for_adjustments_only() {
    for phase in [
        "winter 1901 movement",
        "hiver 1901 retraite",
        "spring 1901 adjustment",
        "W1901M",
    ] {
        let e = refusal("classique", &format!("phase {phase}\n"));
        assert!(e.contains(&format!("unknown phase `{phase}`")), "{e}");
        assert!(e.contains("adjustments in winter and only then"), "{e}");
    }
}

#[test]
fn the_classic_map_has_no_dragons() {
    let e = refusal(
        "classique",
        "phase spring 1901 movement\nunit England: D lon\n",
    );
    assert!(e.contains("variant classique has no dragons"), "{e}");
    assert!(e.starts_with("position.txt:2:"), "{e}");
    // Westeros has them.
    let westeros = load_variant("westeros").expect("westeros");
    let text = "phase spring 298 movement\nunit Targaryen: D pey Balerion\n";
    assert!(read_position(&westeros, "p", text).is_ok());
}

#[test]
fn a_dislodged_unit_needs_a_retreat_phase() {
    let e = refusal(
        "classique",
        "phase spring 1901 movement\nunit England: F lon\ndislodged France: A pic <- bel\n",
    );
    assert!(e.starts_with("position.txt:3:"), "{e}");
    assert!(
        e.contains("a dislodged unit belongs to a retreat phase"),
        "{e}"
    );
    // The phase line may come after: the check is made once the file is read.
    let e = refusal(
        "classique",
        "dislodged France: A pic\nphase autumn 1901 movement\n",
    );
    assert!(e.contains("autumn 1901 movement"), "{e}");
    // In a retreat phase the same line is read.
    let classique = load_variant("classique").expect("classique");
    let text = "phase spring 1901 retreat\nunit England: A bel\ndislodged France: A pic <- bel\n";
    let position = read_position(&classique, "p", text).expect("retreat position");
    assert_eq!(position.dislodged.len(), 1);
}

/// `corbeau adjudicate` over many files: JSON Lines in the order of the files, an
/// unreadable file named on stderr and in its own line, exit 1, and no progress bar when
/// stderr is not a terminal.
#[test]
fn a_batch_gives_json_lines_in_order_and_names_the_unreadable_file() {
    let dir = crate::support::TempDir::new("batch", "json-lines");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/examples/westeros-printemps-298.txt"
    );
    let mut args: Vec<String> = vec![
        "adjudicate".into(),
        "--lang".into(),
        "en".into(),
        "--json".into(),
    ];
    for n in 0..5 {
        let path = dir.join(format!("turn-{n}.txt"));
        std::fs::copy(example, &path).expect("copy");
        args.push(path.display().to_string());
    }
    let missing = dir.join("missing.txt").display().to_string();
    args.insert(6, missing.clone());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_corbeau"))
        .args(&args)
        .env_remove("CORBEAU_LANG")
        .output()
        .expect("run corbeau");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let files: Vec<String> = stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("one JSON value a line");
            v["file"].as_str().expect("file").to_string()
        })
        .collect();
    assert_eq!(files, args[4..].to_vec());
    let error_line = stdout.lines().nth(2).expect("third line");
    assert!(error_line.contains("\"error\""), "{error_line}");
    assert!(
        stderr.contains(&format!(
            "could not be read, nothing was adjudicated for them: {missing}"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("5 file(s) adjudicated, 1 unreadable"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no progress bar off a terminal: {stderr}"
    );
}

/// `corbeau datc … | head`: the reader closes the pipe before the listing ends. The command
/// must neither panic nor print a broken-pipe error; it finishes and exits with its own
/// status (all cases pass: 0). The read end is closed before the first write, so every
/// write meets the closed pipe.
#[test]
fn a_closed_stdout_ends_the_listing_quietly() {
    use std::process::{Command, Stdio};
    let root = env!("CARGO_MANIFEST_DIR");
    for args in [
        vec!["datc", "tests/datc/datc-v3.0.case"],
        vec!["datc", "tests/datc/datc-v2.4.case"],
        vec!["adjudicate"],
        vec!["adjudicate", "--json"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_corbeau"))
            .args(&args)
            .current_dir(root)
            .env("LANG", "en")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("corbeau runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("corbeau ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.to_lowercase().contains("broken pipe"),
            "{args:?}: {stderr}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
