//! The `register-feature` workflow (also run by `create-pool --register-features` and
//! `apply`): register a preview feature and refresh its provider; a feature that waits for
//! Microsoft's approval is refused.

use std::time::Instant;

use crate::arm::ArmClient;
use crate::error::Error;
use crate::provision::features::{self, Feature, Outcome};
use crate::provision::Progress;

use super::Report;

/// Hears how a feature registration went (the CLI says it on stderr).
pub type OnFeature<'a> = &'a (dyn Fn(Feature<'_>, &Outcome) + Sync);

/// Register `feature`; Pending (waiting for Microsoft's approval) is refused.
pub async fn register(
    client: &ArmClient,
    feature: Feature<'_>,
    deadline: Instant,
    report: Report<'_>,
    started: &Progress,
) -> Result<Outcome, Error> {
    let out = features::register(client, feature, deadline, report, started).await?;
    if out == Outcome::Pending {
        let Feature { namespace, name, .. } = feature;
        return Err(Error::Refused {
            message: format!("{namespace}/{name} is Pending: Microsoft has to approve it for this subscription"),
            hint: Some("wait for the approval (az feature show shows the state), then run again".into()),
        });
    }
    Ok(out)
}

/// A misspelling of a known preview feature: exit 2 with the name it most likely means.
pub fn check_name(namespace: &str, name: &str) -> Result<(), Error> {
    match features::misspelling_of(namespace, name) {
        Some(known) => Err(Error::usage(
            format!("{namespace}/{name} is not a feature this version knows"),
            crate::error::did_you_mean(&[known]),
        )),
        None => Ok(()),
    }
}

/// Azure has no such feature, and it is not one known to have gone generally available.
pub fn not_found(namespace: &str, name: &str) -> Error {
    Error::usage(
        format!("feature {namespace}/{name} does not exist in this subscription, and is not known to have gone generally available"),
        Some(format!("check the name: az feature list --namespace {namespace} -o table")),
    )
}

/// The state of each preview feature GPU pools may need (`GPU_FEATURES`, in order): `None`
/// when the subscription has no such feature.
pub async fn gpu_feature_states(client: &ArmClient, subscription: &str) -> Result<Vec<Option<String>>, Error> {
    let names: Vec<&str> = features::GPU_FEATURES.iter().map(|f| f.0).collect();
    Ok(features::states(client, subscription, features::NAMESPACE, &names).await?)
}
