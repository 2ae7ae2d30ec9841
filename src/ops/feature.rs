//! The `register-feature` workflow (also run by `create-pool --register-features` and
//! `apply`): register a preview feature and refresh its provider; a feature that waits for
//! Microsoft's approval is refused.

use std::time::Instant;

use crate::arm::{ArmClient, ArmError};
use crate::error::Error;
use crate::plan::Plan;
use crate::provision::features::{self, Decision};

pub use crate::plan::features::NO_LONGER_PREVIEW;
pub use crate::provision::features::{went_ga, Feature, Registration, GPU_FEATURES, NAMESPACE};
use crate::provision::Progress;

use super::Report;

/// Hears how a feature registration went (the CLI says it on stderr).
pub type OnFeature<'a> = &'a (dyn Fn(Feature<'_>, &Registration) + Sync);

/// Register `feature`; Pending (waiting for Microsoft's approval) is refused.
pub async fn register(
    client: &ArmClient,
    feature: Feature<'_>,
    deadline: Instant,
    report: Report<'_>,
    started: &Progress,
) -> Result<Registration, Error> {
    let out = features::register(client, feature, deadline, report, started).await?;
    if out == Registration::Pending {
        return Err(pending(feature.namespace, feature.name));
    }
    Ok(out)
}

/// A feature waiting for Microsoft's approval: still pending (exit 4), not refused.
fn pending(namespace: &str, name: &str) -> Error {
    Error::Pending {
        message: format!("{namespace}/{name} is Pending: Microsoft has to approve it for this subscription").into(),
        hint: Some("wait for the approval (az feature show shows the state), then run again".into()),
    }
}

/// What a dry run plans for registering `feature` before something that needs it (`create-pool
/// --register-features`), decided from the same reads as the real run's: the steps a real run
/// sends, and whether the feature will be Registered by then. A feature waiting for
/// Microsoft's approval is refused, as the real run refuses it. Without credentials (or when
/// they fail) nothing is read: the whole registration is planned.
pub async fn plan_register(client: &ArmClient, feature: Feature<'_>) -> Result<(Plan, bool), Error> {
    let Feature { subscription: sub, namespace, name } = feature;
    let full = crate::plan::features::register(sub, namespace, name);
    if !client.has_credentials() {
        return Ok((full, true));
    }
    let read = crate::plan::features::read_feature(sub, namespace, name);
    let provider = crate::plan::features::read_provider(sub, namespace);
    Ok(match features::decide(client, feature, &|_| {}).await {
        Err(ArmError::Auth { .. }) | Ok(Decision::Register) => (full, true),
        Err(e) => return Err(e.into()),
        // Registered, but the provider's refresh is still owed: the provider is read, then
        // re-registered and read until Registered.
        Ok(Decision::RefreshProvider) => {
            let mut refresh: Vec<_> = full.steps.into_iter().skip(3).collect();
            refresh.insert(0, provider);
            refresh.insert(0, read);
            (Plan { steps: refresh }, true)
        }
        Ok(Decision::Done(Registration::Pending)) => return Err(pending(namespace, name)),
        Ok(Decision::Done(Registration::AlreadyRegistered)) => (Plan { steps: vec![read, provider] }, false),
        Ok(Decision::Done(_)) => (Plan { steps: vec![read] }, false),
    })
}

/// `register-feature`'s verdict on how registration ends (or, in a dry run, would end from the
/// same reads): Pending is still pending (exit 4), a feature Azure does not have and that is not
/// known to have gone generally available is a usage error (exit 2); anything else is done.
pub fn verdict(namespace: &str, name: &str, out: &Registration) -> Result<(), Error> {
    match out {
        Registration::Pending => Err(pending(namespace, name)),
        Registration::NotFound if !features::went_ga(namespace, name) => Err(not_found(namespace, name)),
        _ => Ok(()),
    }
}

/// A misspelling of a known preview feature: exit 2 with the name it most likely means.
pub fn check_name(namespace: &str, name: &str) -> Result<(), Error> {
    match features::misspelling_of(namespace, name) {
        Some(known) => Err(Error::usage(
            format!("{namespace}/{name} is not a feature this version knows"),
            crate::domain::did_you_mean(&[known]),
        )),
        None => Ok(()),
    }
}

/// Azure has no such feature, and it is not one known to have gone generally available.
pub fn not_found(namespace: &str, name: &str) -> Error {
    Error::usage(
        format!("feature {namespace}/{name} does not exist in this subscription, and is not a preview feature this version knows (so not known to have gone generally available)"),
        Some(format!("check the name: az feature list --namespace {namespace} -o table")),
    )
}

/// The state of each preview feature GPU pools may need (`GPU_FEATURES`, in order): `None`
/// when the subscription has no such feature.
pub async fn gpu_feature_states(client: &ArmClient, subscription: &str) -> Result<Vec<Option<String>>, Error> {
    let names: Vec<&str> = features::GPU_FEATURES.iter().map(|f| f.0).collect();
    Ok(features::states(client, subscription, features::NAMESPACE, &names).await?)
}

/// What `register-feature --dry-run` found from the real run's reads, when a real run would
/// send no registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlreadyDone {
    /// Registration is over, as the real run would end it (its verdict applied).
    Done(Registration),
    /// Registered; only the provider's re-registration would be sent.
    ProviderRefreshOnly,
}

/// The dry run of `register-feature`: the plan a real run starts from, and (with `client`
/// reading) what the reads found when the real run would send no registration. The real
/// run's verdict on the same reads applies: same exit code, same message.
pub async fn dry_run_read(client: &ArmClient, feature: Feature<'_>) -> Result<(Plan, Option<AlreadyDone>), Error> {
    let plan = dry_run(feature);
    let found = match features::decide(client, feature, &|_| {}).await? {
        Decision::Done(o) => {
            verdict(feature.namespace, feature.name, &o)?;
            Some(AlreadyDone::Done(o))
        }
        Decision::RefreshProvider => Some(AlreadyDone::ProviderRefreshOnly),
        Decision::Register => None,
    };
    Ok((plan, found))
}

/// The plan of `register-feature` from its names alone (a dry run without credentials).
pub fn dry_run(feature: Feature<'_>) -> Plan {
    crate::plan::features::register(feature.subscription, feature.namespace, feature.name)
}
