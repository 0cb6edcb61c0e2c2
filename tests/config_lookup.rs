//! Where the configuration and the store are looked for (docs/configuration.md): `--config`,
//! then `CORBEAU_CONFIG`, then `./corbeau.toml`, then the system-wide file (here
//! `CORBEAU_SYSTEM_CONFIG`, which the tests' builds read in place of
//! `/etc/corbeau/corbeau.toml`); only `game new`, `ingest`, `tick` and
//! `serve` make a store where there is none, and every other command says which data
//! directory it looked at instead of leaving an empty store behind.

#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use support::TempDir;

fn corbeau(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    c.current_dir(dir)
        .args(args)
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_LANG")
        .env_remove("CORBEAU_LOG")
        .env_remove("CORBEAU_NOW")
        .env_remove("JOURNAL_STREAM")
        .env_remove("CORBEAU_SYSTEM_CONFIG")
        .stdin(Stdio::null());
    c
}

fn run(c: &mut Command) -> (i32, String, String) {
    let out: Output = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file and folder under `dir`, relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            found.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_command_that_needs_a_store_creates_none_and_says_where_it_looked() {
    let dir = TempDir::new("config-lookup", "empty");
    let commands: &[&[&str]] = &[
        &["game", "list"],
        &["game", "show", "bataille"],
        &["player", "ready", "bataille", "stark"],
        &["orders", "show", "bataille", "stark"],
        &["history", "bataille"],
        &["export", "bataille"],
        &["outbox"],
        &["publish", "site"],
    ];
    for args in commands {
        let (code, out, err) = run(&mut corbeau(&dir, args));
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert_eq!(
            err,
            "corbeau: aucun stockage dans corbeau-data (dossier par défaut, aucun fichier de \
             configuration trouvé) : rien n'a été créé ; `corbeau game new` y crée un \
             stockage, --data ou --config en désigne un autre\n",
            "{args:?}"
        );
        assert_eq!(tree(&dir), Vec::<String>::new(), "{args:?} left something");
    }
    // In English, and naming the folder --data gave.
    let (code, _, err) = run(&mut corbeau(
        &dir,
        &["game", "list", "--lang", "en", "--data", "ailleurs"],
    ));
    assert_eq!(code, 1);
    assert!(
        err.starts_with("corbeau: no store in ailleurs (given by --data or CORBEAU_DATA): "),
        "{err}"
    );
    assert_eq!(tree(&dir), Vec::<String>::new());
    // `game new` makes the store; then `game list` finds it.
    let (code, _, err) = run(&mut corbeau(
        &dir,
        &["game", "new", "bataille", "--variant", "westeros"],
    ));
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&mut corbeau(&dir, &["game", "list"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bataille "), "{out}");
}

#[test]
fn tick_creates_the_store_it_works_on() {
    let dir = TempDir::new("config-lookup", "tick");
    let (code, _, err) = run(&mut corbeau(&dir, &["tick"]));
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("corbeau-data/conf").is_file(), "{:?}", tree(&dir));
}

#[test]
fn the_option_beats_the_variable_which_beats_the_working_directory_file() {
    let dir = TempDir::new("config-lookup", "order");
    for name in ["ici", "variable", "option"] {
        fs::create_dir(dir.join(name)).unwrap();
        fs::write(
            dir.join(name).join("corbeau.toml"),
            format!("data_dir = \"data-{name}\"\nlang = \"en\"\n"),
        )
        .unwrap();
    }
    let here = dir.join("ici");
    let looked = |c: &mut Command| {
        let (code, _, err) = run(c);
        assert_eq!(code, 1, "{err}");
        err
    };
    // ./corbeau.toml: its data_dir, relative to it.
    let err = looked(&mut corbeau(&here, &["game", "list"]));
    assert!(
        err.starts_with("corbeau: no store in data-ici (data_dir of corbeau.toml): "),
        "{err}"
    );
    // CORBEAU_CONFIG beats it.
    let variable = dir.join("variable/corbeau.toml");
    let err = looked(corbeau(&here, &["game", "list"]).env("CORBEAU_CONFIG", &variable));
    let expected = format!(
        "corbeau: no store in {} (data_dir of {}): ",
        dir.join("variable/data-variable").display(),
        variable.display()
    );
    assert!(err.starts_with(&expected), "{err}");
    // --config beats both, before the command's name or after it.
    let option = dir.join("option/corbeau.toml");
    let option = option.to_str().unwrap();
    let expected = format!(
        "corbeau: no store in {} (data_dir of {option}): ",
        dir.join("option/data-option").display()
    );
    for args in [
        ["--config", option, "game", "list"],
        ["game", "list", "--config", option],
    ] {
        let err = looked(corbeau(&here, &args).env("CORBEAU_CONFIG", &variable));
        assert!(err.starts_with(&expected), "{args:?}: {err}");
    }
    // The system-wide file comes last: read in a folder without corbeau.toml, never
    // where there is one.
    fs::write(
        dir.join("system.toml"),
        "data_dir = \"data-system\"\nlang = \"en\"\n",
    )
    .unwrap();
    let system = dir.join("system.toml");
    let err = looked(
        corbeau(&dir.join("option"), &["game", "list"]).env("CORBEAU_SYSTEM_CONFIG", &system),
    );
    assert!(
        err.starts_with("corbeau: no store in data-option (data_dir of corbeau.toml): "),
        "{err}"
    );
    let err = looked(corbeau(&dir, &["game", "list"]).env("CORBEAU_SYSTEM_CONFIG", &system));
    let expected = format!(
        "corbeau: no store in {} (data_dir of {}): ",
        dir.join("data-system").display(),
        system.display()
    );
    assert!(err.starts_with(&expected), "{err}");
    fs::remove_file(&system).unwrap();
    assert_eq!(
        tree(&dir),
        [
            "ici",
            "ici/corbeau.toml",
            "option",
            "option/corbeau.toml",
            "variable",
            "variable/corbeau.toml"
        ]
    );
}

#[test]
fn tick_warns_while_the_judge_address_is_the_default() {
    let dir = TempDir::new("config-lookup", "address");
    let (code, _, err) = run(&mut corbeau(&dir, &["tick", "--lang", "en"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            " WARN the judge's address is still the default one, `corbeau@localhost`: nobody \
             can answer it; set the real one in [judge] address of a configuration file\n"
        ),
        "{err}"
    );
    fs::write(
        dir.join("corbeau.toml"),
        "[judge]\naddress = \"juge@example.org\"\n",
    )
    .unwrap();
    let (code, _, err) = run(&mut corbeau(&dir, &["tick"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
}
