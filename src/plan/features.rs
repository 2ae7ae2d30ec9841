//! Preview-feature registration requests (pure): the feature, its register POST, and the
//! resource provider's re-registration that makes the flag take effect.

use super::{Plan, Step, StepKind};
use crate::domain::api;

/// A feature's ARM path.
pub fn feature_url(sub: &str, namespace: &str, name: &str) -> String {
    format!(
        "/subscriptions/{sub}/providers/Microsoft.Features/providers/{namespace}/features/{name}?api-version={}",
        api::FEATURES
    )
}

/// The register URL.
pub fn register_url(sub: &str, namespace: &str, name: &str) -> String {
    format!(
        "/subscriptions/{sub}/providers/Microsoft.Features/providers/{namespace}/features/{name}/register?api-version={}",
        api::FEATURES
    )
}

/// The provider URL.
pub fn provider_url(sub: &str, namespace: &str) -> String {
    format!("/subscriptions/{sub}/providers/{namespace}?api-version={}", api::PROVIDERS)
}

/// The provider re-registration URL.
pub fn provider_register_url(sub: &str, namespace: &str) -> String {
    format!("/subscriptions/{sub}/providers/{namespace}/register?api-version={}", api::PROVIDERS)
}

/// `register-feature`: read the feature's state, register it and poll its state, then
/// re-register the provider and poll it. The executor stops after the read when the feature
/// is already Registered, Pending or unknown.
pub fn register(sub: &str, namespace: &str, name: &str) -> Plan {
    Plan {
        steps: vec![
            read_feature(sub, namespace, name),
            register_feature(sub, namespace, name),
            read_feature(sub, namespace, name)
                .saying(format!("read the state of {namespace}/{name} while it registers"))
                .repeated("every 15 s until Registered (Pending stops: Microsoft must approve it)"),
            register_provider(sub, namespace),
            read_provider(sub, namespace)
                .saying(format!("read the registrationState of {namespace}"))
                .repeated("every 10 s until Registered"),
        ],
    }
}

/// GET a feature's state.
pub fn read_feature(sub: &str, namespace: &str, name: &str) -> Step {
    Step::read(
        StepKind::ReadFeature,
        feature_url(sub, namespace, name),
        "read the feature's state (nothing is sent when it is Registered, Pending or unknown)",
    )
}

/// GET a resource provider's registration state.
pub fn read_provider(sub: &str, namespace: &str) -> Step {
    Step::read(
        StepKind::ReadProvider,
        provider_url(sub, namespace),
        format!("read the registrationState of {namespace} (a feature Registered before it was refreshed)"),
    )
}

/// POST a feature's registration.
pub fn register_feature(sub: &str, namespace: &str, name: &str) -> Step {
    let url = register_url(sub, namespace, name);
    Step::write(StepKind::RegisterFeature, "POST", url, None, format!("register {namespace}/{name}"))
}

/// POST the provider's re-registration.
pub fn register_provider(sub: &str, namespace: &str) -> Step {
    let url = provider_register_url(sub, namespace);
    Step::write(
        StepKind::RegisterProvider,
        "POST",
        url,
        None,
        format!("re-register {namespace} so the flag takes effect"),
    )
}

/// GPU-related preview flags `aksgpu feature list` shows.
pub const GPU_FEATURES: &[(&str, &str)] = &[
    ("WindowsGPUPreview", "Windows GPU node pools"),
    ("ManagedGPUExperiencePreview", "AKS-managed GPU node pools (driver, device plugin, DCGM)"),
    ("AKSInfinibandSupport", "InfiniBand (RDMA) node pools"),
];

/// Preview flags of `Microsoft.ContainerService` known to have gone generally available (and
/// so no longer listed in `GPU_FEATURES`).
pub const GA_FEATURES: &[&str] = &[];

/// What a feature Azure reports as not found (`FeatureNotFound`) means, for a name this
/// version knows as a preview feature (`GPU_FEATURES`, `GA_FEATURES`): Azure removes a
/// preview flag when the feature becomes generally available, so there is nothing to
/// register. Any other name is most likely misspelled, and is an error.
pub const NO_LONGER_PREVIEW: &str = "no longer a preview feature; nothing to register";

/// Whether "not found" for this feature means it is no longer a preview feature: the catalog
/// knows the name as one.
pub fn went_ga(namespace: &str, name: &str) -> bool {
    namespace.eq_ignore_ascii_case(NAMESPACE)
        && GPU_FEATURES.iter().map(|f| f.0).chain(GA_FEATURES.iter().copied()).any(|f| f.eq_ignore_ascii_case(name))
}

/// A known feature name `name` is most likely a misspelling of (edit distance at most 3, not
/// the name itself in another case).
pub fn misspelling_of(namespace: &str, name: &str) -> Option<&'static str> {
    if !namespace.eq_ignore_ascii_case(NAMESPACE) {
        return None;
    }
    let known = GPU_FEATURES.iter().map(|f| f.0).chain(GA_FEATURES.iter().copied());
    let lower = name.to_ascii_lowercase();
    let mut best: Option<(usize, &'static str)> = None;
    for k in known {
        let d = crate::catalog::edit_distance(&lower, &k.to_ascii_lowercase());
        if d == 0 {
            return None;
        }
        if d <= 3 && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// The default namespace.
pub const NAMESPACE: &str = "Microsoft.ContainerService";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_names_are_caught_and_unknown_ones_are_not_ga() {
        assert_eq!(misspelling_of(NAMESPACE, "WindowsGPUPrevew"), Some("WindowsGPUPreview"));
        assert_eq!(misspelling_of(NAMESPACE, "windowsgpupreview"), None, "the name in another case is the name");
        assert_eq!(misspelling_of(NAMESPACE, "SomethingElseEntirely"), None);
        assert_eq!(misspelling_of("Microsoft.Compute", "WindowsGPUPrevew"), None);
        assert!(!went_ga(NAMESPACE, "WindowsGPUPrevew"));
        assert!(!went_ga(NAMESPACE, "GPUDedicatedVHDPreview"), "a name the catalog does not know");
        assert!(went_ga(NAMESPACE, "windowsgpupreview"), "a known preview flag Azure removed has gone GA");
        assert!(!went_ga("Microsoft.Compute", "WindowsGPUPreview"));
    }
}
