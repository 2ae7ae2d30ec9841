//! The front end's commands, one file per command (group): each maps its flags into the typed
//! request of an `ops` workflow and renders the result through `output`.

pub mod apply;
pub mod auth;
pub mod az_defaults;
pub mod catalog;
pub mod cluster;
pub mod completions;
pub mod confirm;
pub mod cost;
pub mod cost_analysis;
pub mod dry_run;
pub mod feature;
pub mod fleet;
pub mod install_operator;
pub mod kaito;
pub mod man;
pub mod manifest;
pub mod pool;
pub mod prices;
pub mod quota;
pub mod recommend;
pub mod session;
pub mod wait;

use std::path::PathBuf;

use anyhow::Context as _;

use crate::error::Error;
use crate::ops::prices::{CurrencyError, PriceSource};
use crate::ops::Catalog;
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

/// Merge the live price cache into the catalog; returns where prices come from (and prints
/// a warning for an expired or corrupt cache).
pub fn with_live_prices(catalog: &mut Catalog, p: &Printer) -> PriceSource {
    let (source, warning) = crate::ops::prices::with_live_prices(catalog);
    if let Some(w) = warning {
        p.note(&format!("warning: {w}"));
    }
    source
}

/// The prices in `currency` (see `ops::prices::prices_in`); a currency without a usable cache
/// is a usage error naming `--currency` and the refresh command.
pub fn prices_in(catalog: &mut Catalog, currency: &str, p: &Printer) -> Result<PriceSource, Error> {
    let hint = || Some(format!("run `aksgpu prices refresh --currency {currency}`; bundled prices are USD only"));
    match crate::ops::prices::prices_in(catalog, currency) {
        Ok((source, warning)) => {
            if let Some(w) = warning {
                p.note(&format!("warning: {w}"));
            }
            Ok(source)
        }
        Err(CurrencyError::NoCacheDir) => {
            Err(Error::usage("no cache directory (set HOME or AKSGPU_CACHE_DIR)", hint()))
        }
        Err(CurrencyError::Unreadable { path, source }) => Err(Error::io(path, "read", source)),
        Err(CurrencyError::Unusable(why)) => Err(Error::usage(format!("--currency {currency}: {why}"), hint())),
    }
}

/// The prices for `--currency`: none given is USD as always (nothing more is read); a
/// currency given is `prices_in` (a non-USD one needs its cache, else exit 2 with the refresh
/// command).
pub fn prices_for(catalog: &mut Catalog, currency: Option<&str>, p: &Printer) -> Result<PriceSource, Error> {
    match currency {
        None => Ok(with_live_prices(catalog, p)),
        Some(c) => prices_in(catalog, c, p),
    }
}

/// Print a generated YAML document as YAML, or as JSON.
pub(crate) fn print_document(p: &Printer, format: crate::cli::ManifestFormat, yaml: &str) -> anyhow::Result<()> {
    match format {
        crate::cli::ManifestFormat::Yaml => p.out(yaml)?,
        crate::cli::ManifestFormat::Json => {
            let v: serde_json::Value = serde_yaml_ng::from_str(yaml)
                .map_err(|e| Error::internal(format!("reading back our own YAML: {e}")))?;
            p.json(&v)?;
        }
    }
    Ok(())
}
