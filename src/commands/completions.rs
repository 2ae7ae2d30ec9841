//! `aksgpu completions SHELL` and the dynamic completion engine (`aksgpu man` is in `man`).
//!
//! The completion scripts are clap_complete's dynamic ("env") registration: at each TAB the
//! shell runs `COMPLETE=<shell> aksgpu -- <words>`, and `complete_env` (called first thing in
//! `main`) answers from the clap definition plus the catalog. So flags and enum values complete
//! as before, and size names, model names and aliases, GPU models and regions complete from the
//! catalog in use (bundled, or `AKSGPU_CATALOG`). A normal run only reads one environment
//! variable here.

use clap::CommandFactory;
use clap_complete::engine::CompletionCandidate;
use clap_complete::env::{CompleteEnv, Shells};

use crate::catalog::{Catalog, Status};
use crate::cli::{Cli, Shell};

/// Environment variable that turns a run into a completion request.
const VAR: &str = "COMPLETE";

/// Answer a completion request and exit, when `COMPLETE` is set; otherwise return at once.
pub fn complete_env() {
    CompleteEnv::with_factory(Cli::command).var(VAR).bin("aksgpu").completer("aksgpu").complete();
}

/// The completion script for `shell`: the same text `COMPLETE=<shell> aksgpu` prints.
pub fn script(shell: Shell) -> String {
    let name = match shell {
        Shell::Bash => "bash",
        Shell::Zsh => "zsh",
        Shell::Fish => "fish",
        Shell::Powershell => "powershell",
        Shell::Elvish => "elvish",
    };
    let mut buf = Vec::new();
    if let Some(c) = Shells::builtins().completer(name) {
        // Writing into a Vec cannot fail.
        let _ = c.write_registration(VAR, "aksgpu", "aksgpu", "aksgpu", &mut buf);
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

/// The catalog completions read: `AKSGPU_CATALOG` when set, else the bundled one. `None` when
/// it cannot be loaded (completion then offers nothing rather than failing the shell).
fn catalog() -> Option<Catalog> {
    match std::env::var_os("AKSGPU_CATALOG").filter(|v| !v.is_empty()) {
        Some(dir) => Catalog::with_override(std::path::Path::new(&dir)).ok(),
        None => Catalog::bundled().ok(),
    }
}

fn candidate(value: &str, help: Option<String>) -> CompletionCandidate {
    CompletionCandidate::new(value).help(help.map(Into::into))
}

/// VM size names (retired sizes hidden).
pub fn sizes() -> Vec<CompletionCandidate> {
    let Some(c) = catalog() else { return Vec::new() };
    c.sizes
        .iter()
        .map(|s| {
            candidate(&s.name, Some(format!("{} × {} {} GiB", s.gpu_count, s.gpu_model, s.gpu_memory_per_gpu_gib)))
                .hide(s.status == Status::Retired)
        })
        .collect()
}

/// Model aliases and Hugging Face ids.
pub fn models() -> Vec<CompletionCandidate> {
    let Some(c) = catalog() else { return Vec::new() };
    c.models
        .iter()
        .flat_map(|m| {
            m.aliases
                .iter()
                .map(|a| candidate(a, Some(m.id.clone())))
                .chain(std::iter::once(candidate(&m.id, Some(format!("{}B parameters", m.params_b)))))
        })
        .collect()
}

/// GPU model ids.
pub fn gpus() -> Vec<CompletionCandidate> {
    let Some(c) = catalog() else { return Vec::new() };
    c.gpus.iter().map(|g| candidate(&g.id, Some(g.name.clone()))).collect()
}

/// Azure region names.
pub fn regions() -> Vec<CompletionCandidate> {
    let Some(c) = catalog() else { return Vec::new() };
    c.regions.regions.iter().map(|r| candidate(&r.name, Some(r.display_name.clone()))).collect()
}
