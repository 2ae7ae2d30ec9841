//! The `install-operator` workflow (also run by `create-pool --install-operator` and `apply`):
//! read the cluster and its pools, decide the Helm values, mint a `clusterToken` when the
//! cluster uses Entra ID, then install and validate the NVIDIA GPU Operator over runCommand.

use std::time::{Duration, Instant};

use crate::arm::{ArmClient, ArmError};
use crate::catalog::Catalog;
use crate::error::Error;
use crate::plan::Plan;
use crate::provision::facts::Store;
use crate::provision::operator::{self, Install, InstallError, InstallRequest, Report as Installed};
use crate::provision::Progress;

use super::{Cred, Report};

/// Install the operator for `req`; the whole run (reads, token, install, validation) within
/// `timeout`.
pub async fn install(
    (client, facts): (&ArmClient, &Store),
    cred: &Cred,
    catalog: &Catalog,
    req: &InstallRequest,
    timeout: Duration,
    (report, started): (Report<'_>, &Progress),
) -> Result<Installed, Error> {
    let deadline = Instant::now() + timeout;
    let (cluster, pools) = operator::read(client, facts, req).await?;
    let install = operator::resolve(catalog, req, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let token = match install.needs_cluster_token {
        Some(true) => Some(crate::arm::auth::cluster_token(cred.method, &cred.source, deadline).await?),
        _ => None,
    };
    let left = deadline.saturating_duration_since(Instant::now());
    let plan = operator::plan(req, &install);
    Ok(operator::run(client, (&install, &plan), token.as_ref(), left, report, started).await?)
}

/// A dry run with credentials: the cluster and its pools are read (GETs only, as a real run
/// reads them), and the plan is the one a real run sends.
pub async fn dry_run_read(
    (client, facts): (&ArmClient, &Store),
    catalog: &Catalog,
    req: &InstallRequest,
) -> Result<(Install, Plan), Error> {
    let (cluster, pools) = operator::read(client, facts, req).await?;
    let install = operator::resolve(catalog, req, &cluster, &pools)
        .map_err(|r| Error::Refused { message: r.message, hint: r.hint })?;
    let plan = operator::plan(req, &install);
    Ok((install, plan))
}

/// A dry run from the request alone: nothing is read or sent, and what would be read is a
/// placeholder.
pub fn dry_run(req: &InstallRequest) -> (Install, Plan) {
    let install = operator::from_flags(req);
    let plan = operator::plan(req, &install);
    (install, plan)
}

impl From<InstallError> for Error {
    fn from(e: InstallError) -> Self {
        match e {
            InstallError::Arm(a) => Error::from(a),
            InstallError::Refused(r) => Error::Refused { message: r.message, hint: r.hint },
            InstallError::Command { what, result } => {
                let logs: String = result
                    .logs
                    .lines()
                    .rev()
                    .take(40)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n");
                Error::Refused {
                    message: format!(
                        "{what} failed in the cluster ({}){}\n--- command output (last 40 lines) ---\n{logs}",
                        result.describe(),
                        result.reason.map(|r| format!(": {r}")).unwrap_or_default()
                    ),
                    hint: Some("fix the cause above and run again; `helm upgrade --install` is safe to repeat".into()),
                }
            }
            InstallError::NotReady { waited, missing } => Error::from(ArmError::TimedOut {
                what: format!("the GPU Operator to become ready ({})", missing.join("; ")),
                elapsed: waited,
                resume: "run `aksgpu install-operator` again to re-check (it is idempotent)".into(),
            }),
        }
    }
}
