//! The single integration test binary: the real `aksgpu` binary, end to end.

mod catalog_cli;
mod completions;
mod properties;
mod recommend_cli;
mod support;
mod wizard_tmux;
