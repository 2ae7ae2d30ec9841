//! `aksgpu completions SHELL` and `aksgpu man`: generated from the clap definition at run time.

use clap::CommandFactory;

use crate::cli::{Cli, Shell};

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    match shell {
        Shell::Bash => clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, "aksgpu", &mut buf),
        Shell::Zsh => clap_complete::generate(clap_complete::Shell::Zsh, &mut cmd, "aksgpu", &mut buf),
        Shell::Fish => clap_complete::generate(clap_complete::Shell::Fish, &mut cmd, "aksgpu", &mut buf),
        Shell::Powershell => clap_complete::generate(clap_complete::Shell::PowerShell, &mut cmd, "aksgpu", &mut buf),
        Shell::Elvish => clap_complete::generate(clap_complete::Shell::Elvish, &mut cmd, "aksgpu", &mut buf),
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// File name under `completions/` for each shell.
pub fn file_name(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "aksgpu.bash",
        Shell::Zsh => "_aksgpu",
        Shell::Fish => "aksgpu.fish",
        Shell::Powershell => "_aksgpu.ps1",
        Shell::Elvish => "aksgpu.elv",
    }
}

/// The man page in roff.
pub fn man_page() -> std::io::Result<String> {
    let cmd = Cli::command();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}
