//! `aksgpu apply|diff|export`: the GPU setup of a cluster as one versioned file (pure).
//!
//! `config` reads and validates the file (`apiVersion: aksgpu/v1`, `kind: GpuConfig`) into the
//! same `PoolSpec`s `create-pool` builds, with file:line:column on every error; `diff` compares
//! it with the live state the executor read; `export` writes the live state back as a file.

pub mod config;
pub mod diff;
pub mod export;
pub mod locate;
pub mod release;

pub use config::{ConfigError, Desired, GpuConfig};
pub use diff::{Action, Change, Live};
