//! Preview features (AFEC) and resource-provider registration.
//!
//! Register: read the feature first (already `Registered` → nothing to do; not found → it has
//! most likely gone GA), POST register, poll until `Registered` (`Pending` means Microsoft must
//! approve: stop and say so), then re-register the resource provider and poll its
//! `registrationState`, which is what makes the flag take effect. A register POST whose
//! answer was lost is never resent: the feature's (or provider's) state is read instead.
//!
//! A run stopped (Ctrl-C, `--timeout`) while the feature is still `Registering` leaves the
//! provider `Registered` but not refreshed, and Azure's feature resource carries only
//! `properties.state`: nothing Azure returns tells a later run that the refresh is owed. So a
//! marker file (`provider-refresh/{subscription}--{namespace}` in the cache directory) is
//! written before the register POST is sent and removed only once the provider's
//! re-registration is confirmed; a run that finds the feature `Registered` and the marker
//! present re-registers the provider.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::resources::{self, Feature as FeatureResource};

use super::reconcile::{self, send_write, Sent};
use super::{wire, Progress};
use crate::arm::{ArmClient, ArmError};

pub use crate::plan::features::{misspelling_of, went_ga, GA_FEATURES, GPU_FEATURES, NAMESPACE};

pub use crate::plan::features::{feature_url, provider_url};

/// How registration ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum Registration {
    /// It was registered already.
    AlreadyRegistered,
    /// The feature does not exist: most likely generally available now.
    NotFound,
    /// Registered now, provider refreshed.
    Registered { provider_state: String },
    /// Needs approval by Microsoft.
    Pending,
}

/// The state of a feature. A feature without `properties.state` reads "Unknown", which fails
/// safe: it is neither Registered nor Pending, so registration goes on polling until Azure says.
fn state_of(f: &FeatureResource) -> String {
    f.properties.state.clone().unwrap_or_else(|| "Unknown".to_owned())
}

/// `state_of` an answer read as a feature; a body of another shape is an error naming the
/// request and the field.
fn answer_state(resp: &crate::arm::ArmResponse) -> Result<String, ArmError> {
    let f: FeatureResource = resources::parse(&resp.value()?, "feature").map_err(|e| resp.shape_error(&e))?;
    Ok(state_of(&f))
}

/// A feature's state; `None` when the feature does not exist: HTTP 404, or any refusal whose
/// code is `FeatureNotFound` (the code decides, whatever the status).
pub async fn state(client: &ArmClient, sub: &str, namespace: &str, name: &str) -> Result<Option<String>, ArmError> {
    let read = crate::plan::features::read_feature(sub, namespace, name);
    match wire::get_opt::<FeatureResource>(client, &read).await {
        // No `properties.state` reads "Unknown" (see `state_of`: it fails safe).
        Ok(f) => Ok(f.as_ref().map(state_of)),
        Err(ArmError::Http(h)) if h.body.as_ref().is_some_and(feature_not_found) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The code Azure answers for a feature it does not have.
const FEATURE_NOT_FOUND: &str = "FeatureNotFound";

/// True when Azure's answer says the feature does not exist.
fn not_found_answer(resp: &crate::arm::ArmResponse) -> bool {
    resp.status == 404
        || (!resp.ok() && crate::arm::ErrorBody::parse(&resp.body).as_ref().is_some_and(feature_not_found))
}

fn feature_not_found(b: &crate::arm::ErrorBody) -> bool {
    b.code == FEATURE_NOT_FOUND || b.innermost().code == FEATURE_NOT_FOUND
}

/// The resource provider's `registrationState`; `None` when Azure sent none.
pub async fn provider_state(client: &ArmClient, sub: &str, namespace: &str) -> Result<Option<String>, ArmError> {
    let p: resources::Provider = wire::get(client, &crate::plan::features::read_provider(sub, namespace)).await?;
    Ok(p.registration_state)
}

/// What registering would do, from the feature's state (and the provider's, when the feature is
/// Registered): `Some(outcome)` when nothing is to be sent but the provider's refresh
/// (`refresh == true`), `None` when the feature is to be registered. A dry run stops here.
pub async fn decide(
    client: &ArmClient,
    feature: Feature<'_>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Decision, ArmError> {
    let Feature { subscription: sub, namespace, name } = feature;
    Ok(match state(client, sub, namespace, name).await? {
        None => Decision::Done(Registration::NotFound),
        Some(s) if s.eq_ignore_ascii_case("Registered") => {
            // A run stopped (Ctrl-C, --timeout) before the provider was refreshed left the
            // feature Registered: the provider's own state, or the marker that run left,
            // decides whether to refresh it.
            let owed = refresh_owed(sub, namespace);
            match provider_state(client, sub, namespace).await? {
                Some(p) if !p.eq_ignore_ascii_case("Registered") => Decision::RefreshProvider,
                _ if owed => {
                    progress(&format!("an earlier registration stopped before {namespace} was re-registered"));
                    Decision::RefreshProvider
                }
                _ => Decision::Done(Registration::AlreadyRegistered),
            }
        }
        Some(s) if s.eq_ignore_ascii_case("Pending") => Decision::Done(Registration::Pending),
        Some(_) => Decision::Register,
    })
}

/// What [`decide`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing to send.
    Done(Registration),
    /// The feature is Registered, but the provider still needs its re-registration.
    RefreshProvider,
    /// Register the feature, then refresh the provider.
    Register,
}

/// States of several features, read concurrently.
pub async fn states(
    client: &ArmClient,
    sub: &str,
    namespace: &str,
    names: &[&str],
) -> Result<Vec<Option<String>>, ArmError> {
    futures_util::future::join_all(names.iter().map(|n| state(client, sub, namespace, n))).await.into_iter().collect()
}

/// A preview feature of one subscription: `{namespace}/{name}`.
#[derive(Debug, Clone, Copy)]
pub struct Feature<'a> {
    pub subscription: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
}

/// Register a feature and refresh the provider.
pub async fn register(
    client: &ArmClient,
    feature: Feature<'_>,
    deadline: Instant,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Registration, ArmError> {
    let Feature { subscription: sub, namespace, name } = feature;
    let began = Instant::now();
    let resume = format!("az feature show --namespace {namespace} --name {name}");
    let timed_out =
        |what: &str| ArmError::TimedOut { what: what.to_owned(), elapsed: began.elapsed(), resume: (&resume).into() };
    match decide(client, feature, progress).await? {
        Decision::Done(outcome) => return Ok(outcome),
        Decision::RefreshProvider => {
            return refresh_provider(client, sub, namespace, deadline, progress, started, timed_out).await
        }
        Decision::Register => {}
    }
    progress(&format!("registering {name}"));
    // Recorded before the POST: once it is sent, the provider's refresh is owed until confirmed.
    let marked = owe_refresh(sub, namespace, progress);
    let resource = feature_url(sub, namespace, name);
    let post = crate::plan::features::register_feature(sub, namespace, name);
    let mut current = match send_write(client, &post, started, &resource, &resume).await? {
        Sent::Answer(resp) if not_found_answer(&resp) => {
            if marked {
                refresh_paid(sub, namespace, progress);
            }
            return Ok(Registration::NotFound);
        }
        Sent::Answer(resp) => answer_state(&resp.require_ok()?)?,
        Sent::Lost(lost) => {
            // Read the feature's state: Registering, Registered or Pending means the POST took.
            let read = crate::plan::features::read_feature(sub, namespace, name);
            let f = read_back(client, &read, &format!("feature {namespace}/{name}"), &resume, &lost, |f| {
                let s = state_of(f);
                ["Registering", "Registered", "Pending"].iter().any(|x| x.eq_ignore_ascii_case(&s))
            })
            .await?;
            started.accepted(&resource, &resume);
            state_of(&f)
        }
    };
    loop {
        if current.eq_ignore_ascii_case("Registered") {
            break;
        }
        if current.eq_ignore_ascii_case("Pending") {
            return Ok(Registration::Pending);
        }
        if Instant::now() >= deadline {
            return Err(timed_out(&format!("feature {name} (state {current})")));
        }
        progress(&format!("{name}: {current}"));
        client.sleeper.sleep(Duration::from_secs(15).min(deadline.saturating_duration_since(Instant::now()))).await;
        if Instant::now() >= deadline {
            return Err(timed_out(&format!("feature {name} (state {current})")));
        }
        current = match state(client, sub, namespace, name).await {
            Err(ArmError::Deadline { .. }) => return Err(timed_out(&format!("feature {name} (state {current})"))),
            Ok(Some(s)) => s,
            Ok(None) => return Ok(Registration::NotFound),
            Err(e) => return Err(e),
        };
    }
    refresh_provider(client, sub, namespace, deadline, progress, started, timed_out).await
}

/// Re-register the provider (what makes the flag take effect) and wait for `Registered`.
async fn refresh_provider(
    client: &ArmClient,
    sub: &str,
    namespace: &str,
    deadline: Instant,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
    timed_out: impl Fn(&str) -> ArmError,
) -> Result<Registration, ArmError> {
    progress(&format!("re-registering {namespace}"));
    let resource = provider_url(sub, namespace);
    let resume = format!("az provider show --namespace {namespace} --query registrationState");
    let post = crate::plan::features::register_provider(sub, namespace);
    let read = crate::plan::features::read_provider(sub, namespace);
    match send_write(client, &post, started, &resource, &resume).await? {
        Sent::Answer(resp) => {
            resp.require_ok()?;
        }
        Sent::Lost(lost) => {
            read_back(client, &read, &format!("provider {namespace}"), &resume, &lost, |p: &resources::Provider| {
                let s = p.registration_state.as_deref().unwrap_or_default();
                s.eq_ignore_ascii_case("Registering") || s.eq_ignore_ascii_case("Registered")
            })
            .await?;
        }
    }
    loop {
        let p: resources::Provider = match wire::get(client, &read).await {
            Err(ArmError::Deadline { .. }) => return Err(timed_out(&format!("provider {namespace}"))),
            r => r?,
        };
        // No state sent reads "Unknown": not Registered, so it is read again until the deadline.
        let s = p.registration_state.unwrap_or_else(|| "Unknown".to_owned());
        if s.eq_ignore_ascii_case("Registered") {
            refresh_paid(sub, namespace, progress);
            return Ok(Registration::Registered { provider_state: s });
        }
        if Instant::now() >= deadline {
            return Err(timed_out(&format!("provider {namespace} (state {s})")));
        }
        progress(&format!("{namespace}: {s}"));
        client.sleeper.sleep(Duration::from_secs(10).min(deadline.saturating_duration_since(Instant::now()))).await;
        if Instant::now() >= deadline {
            return Err(timed_out(&format!("provider {namespace} (state {s})")));
        }
    }
}

/// After a lost answer to a register POST: read the feature (or provider) back, typed as `T`;
/// `ours` decides (a body of another shape shows no registration).
async fn read_back<T: serde::de::DeserializeOwned>(
    client: &ArmClient,
    read: &crate::plan::Step,
    what: &str,
    resume: &str,
    lost: &str,
    ours: impl Fn(&T) -> bool + Sync,
) -> Result<T, ArmError> {
    let read = wire::get_opt::<Value>(client, read).await;
    match read.map(|v| v.and_then(|v| T::deserialize(&v).ok())) {
        Ok(Some(f)) if ours(&f) => Ok(f),
        Ok(_) => Err(reconcile::not_applied(what, lost, "its state shows no registration")),
        Err(e) => Err(ArmError::Unconfirmed {
            what: what.to_owned(),
            message: format!("{lost}; reading it back failed: {e}"),
            resume: resume.into(),
        }),
    }
}

/// The marker saying a feature registration was sent for `sub` and the `namespace` provider
/// is still owed its re-registration; `None` without a cache directory.
pub fn refresh_marker(sub: &str, namespace: &str) -> Option<PathBuf> {
    const SEPARATOR: &str = "--";
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '_' })
            .collect()
    };
    // `SUB--NAMESPACE` (the separator is no flag: it names a file).
    let name = [safe(sub), safe(namespace)].join(SEPARATOR);
    crate::cache::cache_dir().map(|d| d.join("provider-refresh").join(name))
}

/// Whether an earlier registration left the provider's re-registration owed (a regular file
/// at the marker's path; a symlink planted there is not one).
pub fn refresh_owed(sub: &str, namespace: &str) -> bool {
    refresh_marker(sub, namespace).and_then(|p| std::fs::symlink_metadata(p).ok()).is_some_and(|m| m.is_file())
}

/// Record that the provider's re-registration is owed (temporary file + rename). Returns
/// whether this call created the marker. A marker that cannot be written is said, not fatal:
/// only a run stopped before the refresh needs it.
fn owe_refresh(sub: &str, namespace: &str, progress: &(dyn Fn(&str) + Sync)) -> bool {
    let Some(path) = refresh_marker(sub, namespace) else {
        progress(&format!("warning: no cache directory to note that {namespace} is owed a re-registration"));
        return false;
    };
    if refresh_owed(sub, namespace) {
        return false;
    }
    let body = serde_json::json!({"subscription": sub, "namespace": namespace, "owed": "provider re-registration"});
    match crate::cache::write_atomic(&path, body.to_string().as_bytes(), ".provider-refresh.") {
        Ok(()) => true,
        Err(e) => {
            progress(&format!(
                "warning: cannot write {} ({e}); if this run is stopped before {namespace} is re-registered, run `az provider register --namespace {namespace}`",
                path.display()
            ));
            false
        }
    }
}

/// The provider's re-registration is confirmed: remove the marker.
fn refresh_paid(sub: &str, namespace: &str, progress: &(dyn Fn(&str) + Sync)) {
    let Some(path) = refresh_marker(sub, namespace) else { return };
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            progress(&format!(
                "warning: cannot remove {} ({e}); a later run re-registers {namespace} once more",
                path.display()
            ));
        }
        _ => {}
    }
}
