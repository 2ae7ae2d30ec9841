//! Quota (in progress).
use crate::cli::{QuotaRequestArgs, QuotaShowArgs};
use crate::commands::Ctx;
/// `aksgpu quota show`
pub fn show(_ctx: &Ctx, _a: &QuotaShowArgs) -> anyhow::Result<()> { Ok(()) }
/// `aksgpu quota request`
pub fn request(_ctx: &Ctx, _a: &QuotaRequestArgs) -> anyhow::Result<()> { Ok(()) }
