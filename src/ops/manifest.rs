//! What `manifest` reads of a pool in Azure (with `-g`, `--cluster` and `--pool`) to fill what
//! the request left open: one GET of the pool, with the api-version that has
//! `gpuProfile.nvidia` (managed MIG's strategy and profiles).

use serde_json::Value;

use crate::arm::ArmClient;
use crate::domain::MigStrategy;
use crate::error::Error;

pub use crate::plan::agent_pool::{parse_taint, DEFAULT_TAINT};
pub use crate::plan::manifest::*;
pub use crate::recommend::Os;

/// The pool's settings a manifest depends on, as Azure sent them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PoolFacts {
    pub taints: Vec<String>,
    pub vm_size: Option<String>,
    /// `gpuInstanceProfile`, else the first managed MIG profile.
    pub mig_profile: Option<String>,
    /// `gpuProfile.nvidia.migStrategy`, when it is Single or Mixed.
    pub mig_strategy: Option<MigStrategy>,
    pub spot: bool,
    pub windows: bool,
}

/// Read the pool `pool` of `cluster` (one GET).
pub async fn read_pool(
    client: &ArmClient,
    (subscription, resource_group, cluster, pool): (&str, &str, &str, &str),
) -> Result<PoolFacts, Error> {
    let step = crate::plan::cluster_ops::read_pool_gpu(
        crate::plan::cluster_ops::Target { subscription, resource_group, cluster },
        pool,
    );
    let v: Value = crate::provision::wire::get(client, &step).await?;
    let typed: crate::resources::AgentPool =
        crate::resources::parse(&v, "agent pool").map_err(|e| Error::refused(e.to_string(), None))?;
    let managed_profile = typed.mig_profiles().and_then(|l| l.first().cloned());
    let mig_strategy = match typed.mig_strategy() {
        Some(m) if m.eq_ignore_ascii_case("Single") => Some(MigStrategy::Single),
        Some(m) if m.eq_ignore_ascii_case("Mixed") => Some(MigStrategy::Mixed),
        _ => None,
    };
    Ok(PoolFacts {
        taints: typed.taints().to_vec(),
        vm_size: typed.properties.vm_size.clone(),
        mig_profile: typed.properties.gpu_instance_profile.clone().or(managed_profile),
        mig_strategy,
        spot: typed.is_spot(),
        windows: typed.is_windows(),
    })
}
