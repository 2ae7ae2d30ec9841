//! The workflows, one function per command family, each taking a typed request and returning
//! a typed result (in the spirit of cargo's `ops`).
//!
//! The front ends (`cli.rs` with `commands/`, and a GpuConfig file through `plan::gitops`) map
//! what the user wrote into the same requests; they parse and render, and the work happens
//! here, over the pure layers (`recommend`, `cost`, `plan`) and the executor (`provision`).
//! Nothing here writes to the terminal or knows an exit code.

pub mod kaito;
pub mod recommend;
