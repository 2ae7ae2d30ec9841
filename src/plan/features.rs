//! Preview-feature registration requests (pure): the feature, its register POST, and the
//! resource provider's re-registration that makes the flag take effect.

use super::{Plan, Step, StepKind};
use crate::arm::api;

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

/// `register-feature`: read the feature's state, register it, then re-register the provider.
/// The executor stops after the read when the feature is already Registered, Pending or
/// unknown, and polls between the writes.
pub fn register(sub: &str, namespace: &str, name: &str) -> Plan {
    Plan {
        steps: vec![
            Step::read(
                StepKind::ReadFeature,
                feature_url(sub, namespace, name),
                "read the feature's state (nothing is sent when it is Registered, Pending or unknown)",
            ),
            Step::write(
                StepKind::RegisterFeature,
                "POST",
                register_url(sub, namespace, name),
                None,
                format!("register {namespace}/{name}, then poll its state until Registered"),
            ),
            Step::write(
                StepKind::RegisterProvider,
                "POST",
                provider_register_url(sub, namespace),
                None,
                format!("re-register {namespace} so the flag takes effect, then poll until Registered"),
            ),
        ],
    }
}
