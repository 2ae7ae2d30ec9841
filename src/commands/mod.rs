//! One module per subcommand; each wires catalog, recommender and output together.

pub mod apply;
pub mod auth;
pub mod az_defaults;
pub mod catalog;
pub mod completions;
pub mod confirm;
pub mod cost;
pub mod dry_run;
pub mod fleet;
pub mod install_operator;
pub mod man;
pub mod manifest;
pub mod pool;
pub mod quota;
pub mod recommend;
pub mod session;
pub mod wait;

use std::path::PathBuf;

use anyhow::Context as _;

use crate::catalog::Catalog;
use crate::output::Printer;

/// What every command gets: the printer and where the catalog comes from.
#[derive(Debug)]
pub struct Ctx {
    /// Terminal output.
    pub printer: Printer,
    /// `--catalog DIR`, if given.
    pub catalog_dir: Option<PathBuf>,
}

impl Ctx {
    /// Load the catalog (bundled, or with the override directory applied).
    pub fn catalog(&self) -> anyhow::Result<Catalog> {
        match &self.catalog_dir {
            None => Catalog::bundled().map_err(crate::Error::from).context("loading the bundled catalog"),
            Some(dir) => Catalog::with_override(dir)
                .map_err(crate::Error::from)
                .with_context(|| format!("loading the catalog override in {}", dir.display())),
        }
    }
}
