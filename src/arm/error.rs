//! ARM error bodies and the client's typed errors.
//!
//! ARM wraps errors as `{"error":{code,message,target,details[]}}`; the AKS resource provider
//! often answers with a flat `{"code","message","target"}`. Both parse into `ErrorBody`. The
//! innermost code (e.g. `QuotaExceeded` inside `InvalidTemplateDeployment`) is shown first,
//! with a hint for the codes whose fix is known.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::redact::sanitize;
use crate::domain::setting::{Setting, Words};

/// One ARM error object (recursive).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub details: Vec<ErrorBody>,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ErrorBody>, D::Error> {
    Ok(Option::<Vec<ErrorBody>>::deserialize(d)?.unwrap_or_default())
}

impl ErrorBody {
    /// Parse an error from a response body: wrapped (`{"error":{…}}`) or flat (`{"code":…}`).
    pub fn parse(body: &[u8]) -> Option<Self> {
        let v: serde_json::Value = serde_json::from_slice(body).ok()?;
        Self::from_value(&v)
    }

    /// From a JSON value holding an error (wrapped or flat).
    pub fn from_value(v: &serde_json::Value) -> Option<Self> {
        let obj = match v.get("error") {
            Some(e) if e.is_object() => e,
            _ => v,
        };
        let e: ErrorBody = serde_json::from_value(obj.clone()).ok()?;
        (!e.code.is_empty() || !e.message.is_empty()).then_some(e)
    }

    /// The deepest error along the first-detail chain (the real cause).
    pub fn innermost(&self) -> &ErrorBody {
        let mut e = self;
        while let Some(d) = e.details.iter().find(|d| !d.code.is_empty() || !d.message.is_empty()) {
            e = d;
        }
        e
    }

    /// Every code, innermost first.
    pub fn codes(&self) -> Vec<&str> {
        let mut chain = vec![self.code.as_str()];
        let mut e = self;
        while let Some(d) = e.details.iter().find(|d| !d.code.is_empty()) {
            chain.push(d.code.as_str());
            e = d;
        }
        chain.reverse();
        chain.retain(|c| !c.is_empty());
        chain
    }

    /// "QuotaExceeded: message (in InvalidTemplateDeployment)".
    pub fn describe(&self) -> String {
        let inner = self.innermost();
        let mut s = format!("{}: {}", sanitize(&inner.code), sanitize(&inner.message));
        if let Some(t) = &inner.target {
            s.push_str(&format!(" [target {}]", sanitize(t)));
        }
        let outer: Vec<&str> = self.codes().into_iter().skip(1).collect();
        if !outer.is_empty() {
            s.push_str(&format!(" (in {})", outer.join(" → ")));
        }
        s
    }
}

/// Codes that mean "Azure has no capacity for this size there now" (Azure's allocation-failure
/// guidance: <https://learn.microsoft.com/troubleshoot/azure/virtual-machines/windows/allocation-failure>;
/// `SkuNotAvailable`: <https://learn.microsoft.com/troubleshoot/azure/azure-kubernetes/create-upgrade-delete/error-code-skunotavailable>).
pub const CAPACITY_CODES: [&str; 5] = [
    "AllocationFailed",
    "ZonalAllocationFailed",
    "OverconstrainedAllocationRequest",
    "OverconstrainedZonalAllocationRequest",
    "SkuNotAvailable",
];

/// Codes that mean "the subscription's vCPU quota is too small" (`OperationNotAllowed` only
/// when its message speaks of quota).
pub const QUOTA_CODES: [&str; 3] = ["QuotaExceeded", "ErrCode_InsufficientVCPUQuota", "InsufficientVCPUQuota"];

/// What a failed create means for trying again elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureClass {
    /// No capacity for the size (in those zones): another size or zone may work.
    Capacity,
    /// Not enough vCPU quota: another family may work; more quota will.
    Quota,
    /// Anything else: trying elsewhere would not help.
    Other,
}

impl ErrorBody {
    /// Every (code, message) in the tree: this error and all its details, depth first.
    fn walk<'a>(&'a self, out: &mut Vec<&'a ErrorBody>) {
        out.push(self);
        for d in &self.details {
            d.walk(out);
        }
    }

    /// Capacity when any code in the tree (`error.code` or any `details[].code`) is a capacity
    /// code; else quota when any is a quota code; else other.
    pub fn class(&self) -> FailureClass {
        let mut all = Vec::new();
        self.walk(&mut all);
        if all.iter().any(|e| CAPACITY_CODES.iter().any(|c| e.code.eq_ignore_ascii_case(c))) {
            return FailureClass::Capacity;
        }
        let quota = |e: &&ErrorBody| {
            QUOTA_CODES.iter().any(|c| e.code.eq_ignore_ascii_case(c))
                || (e.code.eq_ignore_ascii_case("OperationNotAllowed")
                    && e.message.to_ascii_lowercase().contains("quota"))
        };
        if all.iter().any(quota) {
            return FailureClass::Quota;
        }
        FailureClass::Other
    }

    /// The code that decided `class` (the capacity or quota code), else the innermost code.
    pub fn deciding_code(&self) -> &str {
        let mut all = Vec::new();
        self.walk(&mut all);
        let pick = |codes: &[&str]| all.iter().find(|e| codes.iter().any(|c| e.code.eq_ignore_ascii_case(c))).copied();
        pick(&CAPACITY_CODES)
            .or_else(|| pick(&QUOTA_CODES))
            .or_else(|| {
                all.iter()
                    .find(|e| e.code == "OperationNotAllowed" && e.message.to_ascii_lowercase().contains("quota"))
                    .copied()
            })
            .unwrap_or_else(|| self.innermost())
            .code
            .as_str()
    }
}

impl ArmError {
    /// The ARM error body of a refused request (sync) or a failed operation (async).
    pub fn body(&self) -> Option<&ErrorBody> {
        match self {
            ArmError::Http(f) => f.body.as_ref(),
            ArmError::OperationFailed { body, .. } => body.as_deref(),
            _ => None,
        }
    }

    /// How this failure is classed for failover (other when there is no ARM error body).
    pub fn class(&self) -> FailureClass {
        self.body().map_or(FailureClass::Other, ErrorBody::class)
    }
}

/// A hint for a known ARM error code (innermost first), if any.
pub fn hint_for(body: &ErrorBody) -> Option<Words> {
    for code in body.codes() {
        let msg = body.innermost().message.to_ascii_lowercase();
        let named = match code {
            "SkuNotAvailable" => Some(Words::new(
                "the size is not offered to this subscription in that region or those zones: try other {0} (or none), \
                 another region, or `aksgpu recommend` for alternatives",
                &[Setting::Zones],
            )),
            "AvailabilityZoneNotSupported" => {
                Some(Words::new("the size does not support zones here: drop {0}", &[Setting::Zones]))
            }
            "ResourceNotFound" | "ResourceGroupNotFound" | "NotFound" => Some(Words::new(
                "check {0}, {1} and {2}",
                &[Setting::Subscription, Setting::ResourceGroup, Setting::Cluster],
            )),
            _ => None,
        };
        if named.is_some() {
            return named;
        }
        let h = match code {
            "QuotaExceeded" | "ErrCode_InsufficientVCPUQuota" | "InsufficientVCPUQuota" => {
                "request more vCPU quota for the VM family (Azure portal → Quotas → Compute, or https://aka.ms/ProdportalCRP), \
                 counting surge nodes; or choose another size or region"
            }
            "OperationNotAllowed" if msg.contains("quota") => {
                "request more vCPU quota for the VM family (Azure portal → Quotas → Compute); or choose another size or region"
            }
            "OperationNotAllowed" | "AKSOperationPreempted" | "NotLatestOperation" => {
                "another operation is running on the cluster; wait for it to finish and run the command again"
            }
            "ZonalAllocationFailed" | "AllocationFailed" | "OverconstrainedAllocationRequest"
            | "OverconstrainedZonalAllocationRequest" => {
                "Azure has no capacity for this size there right now: try other zones, another region or another size"
            }
            "AKSCapacityError" | "AksCapacityHeavyUsage" => "the region is short of capacity: try another region",
            "MissingSubscriptionRegistration" => {
                "register the resource provider: az provider register --namespace Microsoft.ContainerService"
            }
            "AuthorizationFailed" | "LinkedAuthorizationFailed" => {
                "your identity lacks the permission named in the message; ask for a role that grants it (e.g. Azure Kubernetes Service Contributor)"
            }
            "RequestDisallowedByPolicy" => "an Azure Policy forbids this request; ask the policy owner",
            "SystemPoolHasRestrictedTaint" => "GPU pools are created with mode User; taints are not allowed on system pools",
            "InvalidParameter" | "BadRequest" => "fix the field named by target and run again",
            "Throttled" | "SubscriptionRequestsThrottled" | "TooManyRequestsReceived" => {
                "Azure is throttling requests; wait a minute and run again"
            }
            _ => continue,
        };
        return Some(Words::plain(h));
    }
    None
}

/// Errors from the ARM client, the poller and the executor.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ArmError {
    /// ARM answered with an error status.
    #[error(transparent)]
    Http(Box<HttpFailure>),
    /// The request never got an answer (connection, timeout, body too large).
    #[error("{method} {path} failed{}: {message}", retried(*attempts))]
    Transport { method: String, path: String, message: String, attempts: u32, correlation_id: String },
    /// A write may have been applied, but its answer was lost (reset, close, stall, 500, 502,
    /// 504). It is never resent: the caller reads the resource's state instead.
    #[error("{method} {path}: the answer was lost ({message}), so Azure may or may not have applied it")]
    OutcomeUnknown { method: String, path: String, message: String, correlation_id: String },
    /// A write's outcome is unknown and its state could not be read either.
    #[error("{what}: the request may have been accepted, but its state cannot be read ({message})")]
    Unconfirmed { what: String, message: String, resume: Words },
    /// A write whose answer was lost turned out not to have been applied (state read back).
    #[error("{what}: {message}")]
    NotApplied { what: String, message: String, hint: Option<String> },
    /// `--timeout` ran out while a request was waiting for its answer.
    #[error("{method} {path}: {}", deadline_text(*waited))]
    Deadline { method: String, path: String, waited: Duration },
    /// The server's reply could not be read (bad JSON, HTML, wrong shape).
    #[error("{method} {path}: unexpected response (HTTP {status}): {message}; body starts: {snippet:?}")]
    InvalidResponse {
        method: String,
        path: String,
        status: u16,
        message: String,
        snippet: String,
        request_id: Option<String>,
    },
    /// Throttled for longer than the time left.
    #[error("Azure is throttling {path}: it asks to wait {}, more than the {} left before the deadline", human(*wait), human(*left))]
    Throttled { path: String, wait: Duration, left: Duration },
    /// Credentials are missing, wrong or not authorised.
    #[error("{message}")]
    Auth { message: String, hint: Option<Words> },
    /// The long-running operation ended in Failed or Canceled.
    #[error("{what} ended {status}: {}", body.as_deref().map_or_else(|| "no error details".to_owned(), ErrorBody::describe))]
    OperationFailed { what: String, status: String, body: Option<Box<ErrorBody>>, correlation_id: String },
    /// `--timeout` ran out while the operation continues in Azure.
    #[error("timed out after {} waiting for {what}; it is still running in Azure", human(*elapsed))]
    TimedOut { what: String, elapsed: Duration, resume: Words },
    /// Polling lost the connection too often.
    #[error("lost contact with Azure while waiting for {what} ({message}); the operation is still running in Azure")]
    PollingLost { what: String, message: String, resume: Words },
    /// An operation goes on in Azure that this run does not follow: the operation URL of an
    /// accepted write points at a host the token must not go to, or `--no-wait` met an
    /// operation already running. `resume` follows it.
    #[error("{what}: {message}")]
    Pending { what: String, message: String, resume: Words },
    /// Refused before sending: a configuration problem (endpoint, URL, subscription).
    #[error("{message}")]
    Config { message: String, hint: Option<Words> },
    /// A bug in aksgpu found before sending (a plan step that is not a valid request): exit
    /// 70, not the user's input and not Azure.
    #[error("internal error: {message}")]
    Bug { message: String },
}

/// An error status from ARM, with everything needed to report it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{method} {path} failed with HTTP {status}{}: {}", retried(*attempts), describe_body(body.as_ref(), snippet))]
pub struct HttpFailure {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub body: Option<ErrorBody>,
    pub snippet: String,
    pub request_id: Option<String>,
    pub correlation_id: String,
    pub attempts: u32,
}

/// A duration for people: "350 ms", "4.2 s", "42 s", "3 min 05 s", "2 h 05 min". Never "0s".
pub fn human(d: Duration) -> String {
    let s = d.as_secs();
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if s < 10 {
        format!("{:.1} s", d.as_secs_f64())
    } else if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

fn deadline_text(waited: Duration) -> String {
    if waited < Duration::from_secs(1) {
        "not sent: no time was left before the run's deadline".to_owned()
    } else {
        format!("no answer before the run's deadline (waited {})", human(waited))
    }
}

fn retried(attempts: u32) -> String {
    if attempts > 1 {
        format!(" after {} retries", attempts - 1)
    } else {
        String::new()
    }
}

fn describe_body(body: Option<&ErrorBody>, snippet: &str) -> String {
    match body {
        Some(b) => b.describe(),
        None if snippet.is_empty() => "no error body".to_owned(),
        None => format!("body starts {snippet:?}"),
    }
}

impl ArmError {
    /// Hints: the known fix, the resume command, the correlation id; a resume command names
    /// settings by id, for the front end to word.
    pub fn hints(&self) -> Vec<Words> {
        match self {
            ArmError::TimedOut { resume, .. }
            | ArmError::PollingLost { resume, .. }
            | ArmError::Pending { resume, .. } => vec![Words::plain("resume with: ").then("", resume.clone())],
            ArmError::Unconfirmed { resume, .. } => {
                vec![Words::plain("check its state with: ").then("", resume.clone())]
            }
            _ => self.text_hints(),
        }
    }

    /// The other hints, some naming settings by id.
    fn text_hints(&self) -> Vec<Words> {
        let mut h = Vec::new();
        match self {
            ArmError::Http(f) => {
                if let Some(x) = f.body.as_ref().and_then(hint_for) {
                    h.push(x);
                } else if f.status == 401 || f.status == 403 {
                    h.push(
                        "check the identity with `aksgpu auth status`; 403 means it lacks a role on the resource"
                            .into(),
                    );
                }
                h.push(ids(f.request_id.as_deref(), &f.correlation_id).into());
            }
            ArmError::OperationFailed { body, correlation_id, .. } => {
                if let Some(x) = body.as_deref().and_then(hint_for) {
                    h.push(x);
                }
                h.push(ids(None, correlation_id).into());
            }
            ArmError::Transport { correlation_id, .. } => {
                h.push("check the network and that the ARM endpoint is reachable".into());
                h.push(ids(None, correlation_id).into());
            }
            ArmError::TimedOut { .. }
            | ArmError::PollingLost { .. }
            | ArmError::Pending { .. }
            | ArmError::Unconfirmed { .. } => {}
            ArmError::OutcomeUnknown { correlation_id, .. } => {
                h.push("read the resource's state before sending the request again".into());
                h.push(ids(None, correlation_id).into());
            }
            ArmError::Deadline { .. } => h.push(Words::new("run again with a longer {0}", &[Setting::Timeout])),
            ArmError::Bug { .. } => h.push(
                "this is a bug in aksgpu, not in your input: please report it with the command line, `aksgpu --version` and this message"
                    .into(),
            ),
            ArmError::Throttled { wait, .. } => h.push(format!("wait {} and run again", human(*wait)).into()),
            ArmError::Auth { hint, .. } | ArmError::Config { hint, .. } => h.extend(hint.clone()),
            ArmError::NotApplied { hint, .. } => h.extend(hint.clone().map(Words::plain)),
            ArmError::InvalidResponse { request_id, .. } => {
                if let Some(r) = request_id {
                    h.push(format!("request id {r}").into());
                }
            }
        }
        h
    }
}

fn ids(request_id: Option<&str>, correlation_id: &str) -> String {
    match request_id {
        Some(r) => format!("correlation id {correlation_id}, request id {}", sanitize(r)),
        None => format!("correlation id {correlation_id}"),
    }
}

impl fmt::Display for ErrorBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_wrapped_and_flat_bodies_innermost_first() {
        let wrapped = br#"{"error":{"code":"InvalidTemplateDeployment","message":"outer","details":[{"code":"QuotaExceeded","message":"exceeding approved standardNCADSA100v4Family Cores quota"}]}}"#;
        let e = ErrorBody::parse(wrapped).expect("parses");
        assert_eq!(e.innermost().code, "QuotaExceeded");
        assert_eq!(e.codes(), ["QuotaExceeded", "InvalidTemplateDeployment"]);
        assert!(e.describe().starts_with("QuotaExceeded: exceeding"), "{}", e.describe());
        assert!(hint_for(&e).expect("hint").text.contains("quota"));
        let flat = br#"{"code":"InvalidParameter","details":null,"message":"bad","subcode":"","target":"localDNSProfile.mode"}"#;
        let e = ErrorBody::parse(flat).expect("parses");
        assert_eq!(e.code, "InvalidParameter");
        assert!(e.describe().contains("target localDNSProfile.mode"));
        assert!(ErrorBody::parse(b"<html>502</html>").is_none());
        assert!(ErrorBody::parse(b"{}").is_none());
    }

    #[test]
    fn classes_capacity_and_quota_in_the_code_or_any_detail() {
        let body = |v: serde_json::Value| ErrorBody::from_value(&v).expect("error body");
        for code in CAPACITY_CODES {
            let top = body(serde_json::json!({"error": {"code": code, "message": "m"}}));
            assert_eq!(top.class(), FailureClass::Capacity, "{code}");
            let nested = body(serde_json::json!({"code": "ReconcileVMSSAgentPoolFailed", "message": "outer",
                "details": [{"code": "Other", "message": "x"}, {"code": code, "message": "m"}]}));
            assert_eq!((nested.class(), nested.deciding_code()), (FailureClass::Capacity, code), "{code}");
        }
        for code in ["QuotaExceeded", "ErrCode_InsufficientVCPUQuota"] {
            assert_eq!(body(serde_json::json!({"code": code, "message": "m"})).class(), FailureClass::Quota);
        }
        let q = body(
            serde_json::json!({"code": "OperationNotAllowed", "message": "exceeds approved Total Regional Cores quota"}),
        );
        assert_eq!((q.class(), q.deciding_code()), (FailureClass::Quota, "OperationNotAllowed"));
        let busy =
            body(serde_json::json!({"code": "OperationNotAllowed", "message": "another operation is in progress"}));
        assert_eq!(busy.class(), FailureClass::Other);
        let bad = body(serde_json::json!({"code": "InvalidParameter", "message": "m", "target": "vmSize"}));
        assert_eq!((bad.class(), bad.deciding_code()), (FailureClass::Other, "InvalidParameter"));
    }

    #[test]
    fn timed_out_says_how_to_resume() {
        let t = ArmError::TimedOut { what: "x".into(), elapsed: Duration::from_secs(1), resume: "r".into() };
        assert!(t.hints()[0].text.contains("resume with: r"));
        assert!(t.to_string().contains("after 1.0 s"), "{t}");
    }

    /// No message says "after 0s" or "after 0 retries".
    #[test]
    fn durations_never_read_zero() {
        assert_eq!(human(Duration::from_millis(350)), "350 ms");
        assert_eq!(human(Duration::from_millis(4200)), "4.2 s");
        assert_eq!(human(Duration::from_secs(185)), "3 min 05 s");
        assert_eq!(human(Duration::from_secs(86400)), "24 h 00 min");
        let t = ArmError::TimedOut { what: "x".into(), elapsed: Duration::from_millis(3), resume: "r".into() };
        assert!(!t.to_string().contains("0s"), "{t}");
        let tr = ArmError::Transport {
            method: "GET".into(),
            path: "/p".into(),
            message: "reset".into(),
            attempts: 1,
            correlation_id: "c".into(),
        };
        assert_eq!(tr.to_string(), "GET /p failed: reset");
    }
}
