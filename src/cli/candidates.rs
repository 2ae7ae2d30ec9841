//! The values the dynamic completion engine (`commands::completions`) offers for size, model,
//! GPU and region arguments, read from the catalog in use (bundled, or `AKSGPU_CATALOG`).

use clap_complete::engine::CompletionCandidate;

use crate::catalog::{Catalog, Status};

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
