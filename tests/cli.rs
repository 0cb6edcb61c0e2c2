//! The command line: exit codes and messages for good and bad input.

mod support;

use support::cli::corbeau;

#[test]
fn adjudicate_without_arguments_runs_the_bundled_example_in_french() {
    let (code, out, _) = corbeau(&["adjudicate"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(":: corbeau: westeros / printemps 298 / mouvements"),
        "{out}"
    );
    assert!(out.contains("échoué : standoff"), "{out}");
}

#[test]
fn a_misspelt_province_is_refused_with_a_suggestion_and_nothing_adjudicated() {
    let dir = support::TempDir::new("cli", "province");
    let file = dir.join("ordres.txt");
    std::fs::write(&file, "Targaryen:\nA Cla -> Sombrevale\n").expect("write");
    let (code, out, err) = corbeau(&["adjudicate", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("ligne 2, colonne 10"), "{err}");
    assert!(err.contains("vouliez-vous dire Sombreval (Som)"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "Targaryen:\nA Cla -> Sombrevale\n"
    );
}

#[test]
fn a_broken_variant_file_is_reported_with_exit_code_1() {
    let dir = support::TempDir::new("cli", "map");
    let file = dir.join("broken.toml");
    std::fs::write(&file, "[variant\n").expect("write");
    let (code, _, err) = corbeau(&["map", "check", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1);
    assert!(err.contains("not valid TOML"), "{err}");
}

#[test]
fn unknown_command_is_a_user_error() {
    let (code, _, err) = corbeau(&["frobnicate"]);
    assert_eq!(code, 1);
    assert!(err.contains("unrecognized subcommand"), "{err}");
}

#[test]
fn a_configuration_with_an_unknown_key_is_refused_by_name_and_no_store_is_made() {
    let dir = support::TempDir::new("cli", "config");
    let file = dir.join("corbeau.toml");
    std::fs::write(&file, "data_dri = \"ailleurs\"\n").expect("write");
    let (code, out, err) = corbeau(&["game", "list", "--config", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("corbeau.toml") && err.contains("data_dri"),
        "{err}"
    );
    assert!(!dir.join("ailleurs").exists() && !dir.join("corbeau-data").exists());
}
