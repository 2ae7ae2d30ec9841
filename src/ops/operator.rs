//! The `install-operator` workflow (also run by `create-pool --install-operator` and `apply`):
//! read the cluster and its pools, decide the Helm values, mint a `clusterToken` when the
//! cluster uses Entra ID, then install and validate the NVIDIA GPU Operator over runCommand.

use std::time::{Duration, Instant};

use crate::arm::{ArmClient, ArmError};
use crate::catalog::Catalog;
use crate::error::Error;
use crate::plan::Plan;
use crate::provision::facts::Store;
use crate::provision::operator::{self, InstallError, Report as Installed};
use crate::provision::Progress;

use super::{Cred, Report};

pub use crate::provision::operator::{Install, InstallRequest, Report as InstallReport};

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

/// What a dry run read of the release (`install-operator --dry-run --read-release`): the
/// release, the change in its values, and the values the install would send.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ReleaseView {
    pub release: String,
    pub values_diff: Vec<String>,
    pub values_yaml: String,
    /// The `helm upgrade --install` the run would send on this release (its merged values).
    #[serde(skip)]
    pub install_step: crate::plan::Step,
}

/// Read the GPU Operator's release with the plan's read-only runCommand (no token: a cluster
/// that needs one is not read, and the reason is the answer) and merge `install` on top of it.
pub async fn read_release(
    client: &ArmClient,
    install: &Install,
    plan: &Plan,
    timeout: Duration,
) -> Result<ReleaseView, Error> {
    use crate::plan::gitops::release::{self, Release};
    if install.needs_cluster_token == Some(true) {
        return Err(Error::Refused {
            message:
                "the cluster uses Entra ID: reading its release needs a cluster token, which a dry run does not mint"
                    .into(),
            hint: Some(
                "drop --read-release, or run without --dry-run (the run reads the release first and prints the change)"
                    .into(),
            ),
        });
    }
    let step = plan
        .steps_of(crate::plan::StepKind::ReadRelease)
        .next()
        .ok_or_else(|| Error::internal("the install plan has no release read"))?;
    let (quiet, reads) = (|_: &str| {}, crate::provision::Progress::default());
    let deadline = Instant::now() + timeout;
    let r = crate::provision::runcommand::run(client, (&install.cluster_path, step), None, deadline, &quiet, &reads)
        .await?;
    let (name, current) = match release::parse(&r.logs) {
        Release::Absent => ("absent".to_owned(), serde_json::Value::Null),
        Release::Present { chart, status, values } => (format!("{chart} ({status})"), values),
        Release::Unread(why) => {
            return Err(Error::Refused {
                message: format!("the GPU Operator's Helm release could not be read ({why})"),
                hint: None,
            })
        }
    };
    let (merged, values_diff) = crate::plan::install::merge(install, &current);
    let install_step = crate::plan::install::install_step(&merged);
    Ok(ReleaseView { release: name, values_diff, values_yaml: merged.values_yaml, install_step })
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
