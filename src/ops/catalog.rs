//! The catalog as the `catalog` commands show it: its entries, the price source in use, and
//! the GPU matching `recommend --gpu` applies (so a listing filters as a ranking does).

pub use crate::catalog::{
    Catalog, CpuArch, GpuModel, LlmModel, MigProfile, Region, RegionPrice, Rule, RuleKind, Status, VmSize,
};
pub use crate::pricing::PriceSource;
pub use crate::recommend::{fmt_num, gpu_matches};
