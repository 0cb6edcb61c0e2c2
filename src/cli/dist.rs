//! `corbeau package-files DIR` (hidden): the files of the Debian package that come from
//! the command line's own definition, the man pages (`DIR/man/`, one per command and
//! subcommand) and the shell completions (`DIR/completions/`). They are written by hand
//! when the command line changes and kept in the repository (pkg/), so that `cargo deb`
//! needs nothing else and a normal build does none of this; tests/package_files.rs
//! fails when they are out of date.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Command;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

use super::Error;

#[derive(Debug, clap::Args)]
pub(super) struct PackageFilesArgs {
    /// The folder to write man/ and completions/ into (pkg/ of the source tree).
    dir: PathBuf,
}

pub(super) fn run(root: Command, args: PackageFilesArgs) -> Result<(), Error> {
    let man = args.dir.join("man");
    let completions = args.dir.join("completions");
    fs::create_dir_all(&man)?;
    fs::create_dir_all(&completions)?;
    // A command that was removed or renamed must not leave its page behind.
    for entry in fs::read_dir(&man)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "1") {
            fs::remove_file(path)?;
        }
    }
    let mut root = root.disable_help_subcommand(true);
    root.build();
    write_pages(&root, None, &man)?;
    for (shell, name) in [
        (clap_complete::Shell::Bash, "corbeau.bash"),
        (clap_complete::Shell::Zsh, "_corbeau"),
        (clap_complete::Shell::Fish, "corbeau.fish"),
    ] {
        let mut text = Vec::new();
        clap_complete::generate(shell, &mut completed(&root), "corbeau", &mut text);
        fs::write(completions.join(name), text)?;
    }
    Ok(())
}

/// `cmd` as the shells complete it: without its hidden subcommands and options, which
/// the completion generators would offer (they list every one). Built anew, since a
/// command cannot lose a subcommand: only what completion reads is carried over (names,
/// aliases, help lines, options and their values).
pub(super) fn completed(cmd: &Command) -> Command {
    // `--help` and `--version` are left for the new command to make, once: a command
    // already built holds its own.
    let own =
        |a: &&clap::Arg| !a.is_hide_set() && !["help", "version"].contains(&a.get_id().as_str());
    let mut out = Command::new(cmd.get_name().to_string())
        .args(cmd.get_arguments().filter(own).cloned())
        .subcommands(
            cmd.get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(completed),
        )
        .visible_aliases(cmd.get_visible_aliases().map(str::to_string))
        .disable_help_subcommand(cmd.is_disable_help_subcommand_set())
        .disable_version_flag(cmd.get_version().is_none());
    if let Some(about) = cmd.get_about() {
        out = out.about(about.clone());
    }
    if let Some(version) = cmd.get_version() {
        out = out.version(version.to_string());
    }
    out
}

/// The page of `cmd` and of each of its visible subcommands, each page ending with the
/// pages around it: its parent's, its subcommands', and corbeau.toml(5).
fn write_pages(cmd: &Command, parent: Option<&str>, dir: &Path) -> Result<(), Error> {
    let name = page_name(cmd);
    let subcommands: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    let mut text = Vec::new();
    Man::new(cmd.clone()).manual("corbeau").render(&mut text)?;
    let mut see_also = Vec::new();
    for page in parent
        .into_iter()
        .map(|p| (p.to_string(), "1"))
        .chain(subcommands.iter().map(|s| (page_name(s), "1")))
        .chain([("corbeau.toml".to_string(), "5")])
    {
        if !see_also.is_empty() {
            see_also.push(roman(", "));
        }
        see_also.push(bold(page.0));
        see_also.push(roman(format!("({})", page.1)));
    }
    let mut roff = Roff::new();
    roff.control("SH", ["SEE ALSO"]).text(see_also);
    text.extend_from_slice(roff.to_roff().as_bytes());
    fs::write(dir.join(format!("{name}.1")), text)?;
    for sub in subcommands {
        write_pages(sub, Some(&name), dir)?;
    }
    Ok(())
}

/// `corbeau`, `corbeau-game`, `corbeau-game-new`: clap's display name once built.
fn page_name(cmd: &Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string()
}
