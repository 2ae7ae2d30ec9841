//! The workflows, one function per command family, each taking a typed request and returning
//! a typed result (in the spirit of cargo's `ops`).
//!
//! The front ends (`cli.rs` with `commands/`, and a GpuConfig file through `plan::gitops`) map
//! what the user wrote into the same requests; they parse and render, and the work happens
//! here, over the pure layers (`recommend`, `cost`, `plan`) and the executor (`provision`).
//! Nothing here writes to the terminal or knows an exit code.

pub mod catalog;
pub mod cluster;
pub mod cost;
pub mod drift;
pub mod failover;
pub mod feature;
pub mod fleet;
pub mod gitops;
pub mod kaito;
pub mod manifest;
pub mod operator;
pub mod pool;
pub mod pool_facts;
pub mod prices;
pub mod quota;
pub mod recommend;
pub mod session;
pub mod usage;
pub mod wait;

use std::sync::Arc;

use crate::arm::auth::{AuthMethod, TokenSource};

/// The plans a dry run shows (and a run sends), as the front end renders them.
pub use crate::plan::{Plan, Step, StepKind};

/// The catalog every workflow reads (the front end loads it and renders its entries).
pub use crate::catalog::{Catalog, VmSize};

/// A run's facts: each cluster, pool list, SKU list and usages list read once per run.
pub use crate::provision::facts::Store as Facts;

/// Writes a file the user named (`export -f`) atomically.
pub use crate::cache::write_user_file;

/// Where a workflow says what it is doing (the CLI shows it as a spinner's text).
pub type Report<'a> = &'a (dyn Fn(&str) + Sync);

/// A credential: how it was chosen and the source that mints tokens for any scope (the
/// operator install mints a `clusterToken` with it).
#[derive(Debug, Clone)]
pub struct Cred {
    pub method: AuthMethod,
    pub source: Arc<dyn TokenSource>,
}

/// The single-threaded async runtime every workflow that talks to a server uses.
pub fn runtime() -> Result<tokio::runtime::Runtime, crate::error::Error> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|source| crate::error::Error::System { what: "the async runtime", source })
}
