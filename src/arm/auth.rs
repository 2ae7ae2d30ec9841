//! Credentials: which one is used, and a token cache that refreshes before expiry.
//!
//! The order, unless `--auth`/`AKSGPU_AUTH` picks one: `AKSGPU_ACCESS_TOKEN` (a pre-minted
//! bearer token); a service principal from `AZURE_TENANT_ID`/`AZURE_CLIENT_ID`/
//! `AZURE_CLIENT_SECRET`; workload identity (`AZURE_FEDERATED_TOKEN_FILE`); then
//! `DeveloperToolsCredential` (az CLI, azd). Managed identity is used only when asked for
//! (probing IMDS off Azure is slow). Tokens are held in `Secret`, whose `Debug`/`Display`
//! never show the value, refreshed five minutes before they expire, and dropped after a 401.
//! A token fetch ends within `TOKEN_DEADLINE` (or `--timeout`, when sooner), so a hung login
//! endpoint cannot hold a run; when a chain of credentials fails, each one's reason is kept.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use azure_core::credentials::TokenCredential;
use base64::Engine as _;
use tokio::sync::Mutex;

use super::endpoint::Cloud;
use super::error::ArmError;
use crate::domain::setting::{Setting, Words};
use crate::resources::auth::{AzureProfile, JwtClaims};

pub use crate::secret::Secret;

/// A bearer token with its expiry.
#[derive(Debug, Clone)]
pub struct Token {
    pub secret: Secret,
    /// When it expires (None = unknown).
    pub expires_at: Option<SystemTime>,
}

/// How a credential was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuthMethod {
    /// `AKSGPU_ACCESS_TOKEN`.
    AccessToken,
    /// `AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`.
    ServicePrincipal,
    /// `AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids).
    WorkloadIdentity,
    /// Managed identity (IMDS, App Service, Arc).
    ManagedIdentity,
    /// az CLI, then azd.
    DeveloperTools,
}

impl AuthMethod {
    /// Every kind, in the documented order.
    pub const ALL: &'static [AuthMethod] = &[
        AuthMethod::AccessToken,
        AuthMethod::ServicePrincipal,
        AuthMethod::WorkloadIdentity,
        AuthMethod::ManagedIdentity,
        AuthMethod::DeveloperTools,
    ];

    /// Name as typed in `--auth` and `AKSGPU_AUTH`.
    pub fn name(self) -> &'static str {
        match self {
            AuthMethod::AccessToken => "access-token",
            AuthMethod::ServicePrincipal => "service-principal",
            AuthMethod::WorkloadIdentity => "workload-identity",
            AuthMethod::ManagedIdentity => "managed-identity",
            AuthMethod::DeveloperTools => "developer-tools",
        }
    }

    /// Where the credential comes from, in a few words.
    pub fn source(self) -> &'static str {
        match self {
            AuthMethod::AccessToken => "`AKSGPU_ACCESS_TOKEN`",
            AuthMethod::ServicePrincipal => "`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`",
            AuthMethod::WorkloadIdentity => "`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)",
            AuthMethod::ManagedIdentity => "Managed identity (IMDS, App Service, Arc)",
            AuthMethod::DeveloperTools => "az CLI, then azd",
        }
    }

    /// Human name.
    pub fn describe(self) -> &'static str {
        match self {
            AuthMethod::AccessToken => "pre-minted token (AKSGPU_ACCESS_TOKEN)",
            AuthMethod::ServicePrincipal => "service principal (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET)",
            AuthMethod::WorkloadIdentity => "workload identity (AZURE_FEDERATED_TOKEN_FILE)",
            AuthMethod::ManagedIdentity => "managed identity",
            AuthMethod::DeveloperTools => "developer tools (az CLI, then azd)",
        }
    }
}

/// Read-only view of the environment, so the choice is testable.
pub trait Env {
    /// A variable, if set and not empty.
    fn var(&self, key: &str) -> Option<String>;
}

/// The process environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, key: &str) -> Option<String> {
        std::env::var(key).ok().filter(|v| !v.trim().is_empty())
    }
}

/// Pick the credential kind: explicit choice, else the first whose variables are set.
pub fn choose(explicit: Option<AuthMethod>, env: &dyn Env) -> Result<AuthMethod, ArmError> {
    if let Some(m) = explicit.or_else(|| {
        env.var("AKSGPU_AUTH")
            .and_then(|v| AuthMethod::ALL.iter().copied().find(|m| m.name().eq_ignore_ascii_case(v.trim())))
    }) {
        return Ok(m);
    }
    if let Some(v) = env.var("AKSGPU_AUTH") {
        return Err(ArmError::Config {
            message: format!("AKSGPU_AUTH={v:?} is not a credential kind"),
            hint: Some(
                "use access-token, service-principal, workload-identity, managed-identity or developer-tools".into(),
            ),
        });
    }
    if env.var("AKSGPU_ACCESS_TOKEN").is_some() {
        return Ok(AuthMethod::AccessToken);
    }
    if env.var("AZURE_TENANT_ID").is_some()
        && env.var("AZURE_CLIENT_ID").is_some()
        && env.var("AZURE_CLIENT_SECRET").is_some()
    {
        return Ok(AuthMethod::ServicePrincipal);
    }
    if env.var("AZURE_FEDERATED_TOKEN_FILE").is_some() {
        return Ok(AuthMethod::WorkloadIdentity);
    }
    Ok(AuthMethod::DeveloperTools)
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Something that can mint tokens for a scope.
pub trait TokenSource: Send + Sync + fmt::Debug {
    /// Fetch a fresh token.
    fn fetch<'a>(&'a self, scope: &'a str) -> BoxFuture<'a, Result<Token, ArmError>>;
}

/// A fixed token (AKSGPU_ACCESS_TOKEN); its expiry is read from the JWT `exp` claim if present.
#[derive(Debug)]
pub struct StaticToken(pub Secret);

impl TokenSource for StaticToken {
    fn fetch<'a>(&'a self, _scope: &'a str) -> BoxFuture<'a, Result<Token, ArmError>> {
        Box::pin(async move {
            let expires_at = jwt_expiry(self.0.expose());
            if let Some(at) = expires_at {
                if at <= SystemTime::now() {
                    return Err(ArmError::Auth {
                        message: "AKSGPU_ACCESS_TOKEN has expired".into(),
                        hint: Some(
                            "mint a new one: az account get-access-token --resource https://management.azure.com"
                                .into(),
                        ),
                    });
                }
            }
            Ok(Token { secret: self.0.clone(), expires_at })
        })
    }
}

/// The `exp` claim of a JWT, if the token is one.
pub fn jwt_expiry(token: &str) -> Option<SystemTime> {
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let claims: JwtClaims = serde_json::from_slice(&bytes).ok()?;
    let exp = claims.expiry().ok()?;
    UNIX_EPOCH.checked_add(Duration::from_secs(exp))
}

/// An `azure_identity` credential.
#[derive(Debug)]
pub struct AzureSource {
    pub method: AuthMethod,
    pub cred: Arc<dyn TokenCredential>,
}

impl TokenSource for AzureSource {
    fn fetch<'a>(&'a self, scope: &'a str) -> BoxFuture<'a, Result<Token, ArmError>> {
        Box::pin(async move {
            let t = self.cred.get_token(&[scope], None).await.map_err(|e| ArmError::Auth {
                message: format!("{} could not get a token: {}", self.method.describe(), reasons(&e.to_string())),
                hint: Some(match self.method {
                    AuthMethod::DeveloperTools => {
                        "sign in with `az login` (or `azd auth login`), or set AKSGPU_ACCESS_TOKEN / a service principal".into()
                    }
                    AuthMethod::ServicePrincipal => "check AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET".into(),
                    AuthMethod::WorkloadIdentity => {
                        "check AZURE_FEDERATED_TOKEN_FILE, AZURE_CLIENT_ID and AZURE_TENANT_ID".into()
                    }
                    _ => "check the identity with `aksgpu auth status`".into(),
                }),
            })?;
            let secs = t.expires_on.unix_timestamp();
            let expires_at = u64::try_from(secs).ok().and_then(|s| UNIX_EPOCH.checked_add(Duration::from_secs(s)));
            Ok(Token { secret: Secret::new(t.token.secret()), expires_at })
        })
    }
}

fn first_line(s: &str) -> String {
    super::redact::sanitize(s.lines().next().unwrap_or(s)).chars().take(300).collect()
}

/// A credential error with every reason it carries: a chain (az CLI, then azd) reports
/// "Multiple errors were encountered…" followed by one line per credential, and each of those
/// lines is kept (sanitized, at most 12 lines of 300 characters), without the
/// troubleshooting link.
pub fn reasons(s: &str) -> String {
    let lines: Vec<String> = s
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("To troubleshoot, visit"))
        .take(12)
        .map(|l| super::redact::sanitize(l).chars().take(300).collect())
        .collect();
    match lines.as_slice() {
        [] => "no reason given".to_owned(),
        [one] => one.clone(),
        [head, rest @ ..] => format!("{head}\n  - {}", rest.join("\n  - ")),
    }
}

/// The identity cloud: `AZURE_AUTHORITY_HOST` (the variable `azure_identity` documents) when
/// set, else the login host of `--cloud`.
fn cloud_config(cloud: Cloud, authority: Option<&str>) -> azure_core::cloud::CloudConfiguration {
    use azure_core::cloud::{CloudConfiguration, CustomConfiguration};
    if let Some(host) = authority {
        let mut custom = CustomConfiguration::default();
        custom.authority_host = host.trim_end_matches('/').to_owned();
        return CloudConfiguration::Custom(custom);
    }
    match cloud {
        Cloud::AzureCloud => CloudConfiguration::AzurePublic,
        Cloud::AzureChinaCloud => CloudConfiguration::AzureChina,
        Cloud::AzureUsGovernment => CloudConfiguration::AzureGovernment,
    }
}

/// Build the token source for a method.
pub fn source(method: AuthMethod, cloud: Cloud, env: &dyn Env) -> Result<Arc<dyn TokenSource>, ArmError> {
    let cfg = |e: azure_core::Error| ArmError::Auth {
        message: format!("cannot set up {}: {}", method.describe(), first_line(&e.to_string())),
        hint: None,
    };
    let authority = env.var("AZURE_AUTHORITY_HOST");
    let client_options = || azure_core::http::ClientOptions {
        cloud: Some(Arc::new(cloud_config(cloud, authority.as_deref()))),
        ..Default::default()
    };
    let missing = |what: &str| ArmError::Auth {
        message: format!("{} needs {what}", method.describe()),
        hint: Some(Words::new("set the variable, or choose another credential with {0}", &[Setting::Auth])),
    };
    Ok(match method {
        AuthMethod::AccessToken => {
            let t = env.var("AKSGPU_ACCESS_TOKEN").ok_or_else(|| missing("AKSGPU_ACCESS_TOKEN"))?;
            Arc::new(StaticToken(Secret::new(t.trim())))
        }
        AuthMethod::ServicePrincipal => {
            let tenant = env.var("AZURE_TENANT_ID").ok_or_else(|| missing("AZURE_TENANT_ID"))?;
            let client = env.var("AZURE_CLIENT_ID").ok_or_else(|| missing("AZURE_CLIENT_ID"))?;
            let secret = env.var("AZURE_CLIENT_SECRET").ok_or_else(|| missing("AZURE_CLIENT_SECRET"))?;
            let opts = azure_identity::ClientSecretCredentialOptions { client_options: client_options() };
            let cred = azure_identity::ClientSecretCredential::new(
                &tenant,
                client,
                azure_core::credentials::Secret::new(secret),
                Some(opts),
            )
            .map_err(cfg)?;
            Arc::new(AzureSource { method, cred })
        }
        AuthMethod::WorkloadIdentity => {
            let mut opts = azure_identity::WorkloadIdentityCredentialOptions::default();
            opts.credential_options.client_options = client_options();
            let cred = azure_identity::WorkloadIdentityCredential::new(Some(opts)).map_err(cfg)?;
            Arc::new(AzureSource { method, cred })
        }
        AuthMethod::ManagedIdentity => {
            let mut opts = azure_identity::ManagedIdentityCredentialOptions::default();
            if let Some(id) = env.var("AZURE_CLIENT_ID") {
                opts.user_assigned_id = Some(azure_identity::UserAssignedId::ClientId(id));
            }
            opts.client_options = client_options();
            let cred = azure_identity::ManagedIdentityCredential::new(Some(opts)).map_err(cfg)?;
            Arc::new(AzureSource { method, cred })
        }
        AuthMethod::DeveloperTools => {
            let cred = azure_identity::DeveloperToolsCredential::new(None).map_err(cfg)?;
            Arc::new(AzureSource { method, cred })
        }
    })
}

/// The longest wait for a token (a hung login endpoint or `az` must not hold a run). Shorter
/// when `--timeout` leaves less.
pub const TOKEN_DEADLINE: Duration = Duration::from_secs(30);

/// The error for a credential that gave no token in time.
pub fn no_token_in_time(waited: Duration) -> ArmError {
    ArmError::Auth {
        message: format!(
            "no token after {}: the credential's login endpoint did not answer",
            super::error::human(waited)
        ),
        hint: Some(
            "check the network and the login endpoint (AZURE_AUTHORITY_HOST), or set AKSGPU_ACCESS_TOKEN".into(),
        ),
    }
}

/// A token from `source` for `scope`, bounded like `TokenCache::token_until`.
pub async fn fetch_until(
    source: &dyn TokenSource,
    scope: &str,
    deadline: std::time::Instant,
) -> Result<Token, ArmError> {
    let started = std::time::Instant::now();
    let limit = deadline.min(started + TOKEN_DEADLINE);
    tokio::time::timeout_at(limit.into(), source.fetch(scope))
        .await
        .unwrap_or_else(|_| Err(no_token_in_time(started.elapsed())))
}

/// Caches one token; refreshes it five minutes before expiry or after `invalidate`.
#[derive(Debug)]
pub struct TokenCache {
    source: Arc<dyn TokenSource>,
    scope: String,
    cached: Mutex<Option<Token>>,
    /// Refresh this long before expiry.
    pub refresh_margin: Duration,
}

impl TokenCache {
    /// A cache over a source.
    pub fn new(source: Arc<dyn TokenSource>, scope: impl Into<String>) -> Self {
        Self { source, scope: scope.into(), cached: Mutex::new(None), refresh_margin: Duration::from_secs(300) }
    }

    /// A valid token, fetching a new one when the cached one is missing or near expiry; the
    /// fetch ends within `TOKEN_DEADLINE`, or by `deadline` when that is sooner.
    pub async fn token_until(&self, deadline: std::time::Instant) -> Result<Secret, ArmError> {
        let limit = deadline.min(std::time::Instant::now() + TOKEN_DEADLINE);
        let started = std::time::Instant::now();
        match tokio::time::timeout_at(limit.into(), self.token()).await {
            Ok(r) => r,
            Err(_) => Err(no_token_in_time(started.elapsed())),
        }
    }

    /// A valid token, fetching a new one when the cached one is missing or near expiry.
    pub async fn token(&self) -> Result<Secret, ArmError> {
        let mut guard = self.cached.lock().await;
        let fresh =
            guard.as_ref().is_some_and(|t| t.expires_at.is_none_or(|at| at > SystemTime::now() + self.refresh_margin));
        if !fresh {
            *guard = Some(self.source.fetch(&self.scope).await?);
        }
        guard
            .as_ref()
            .map(|t| t.secret.clone())
            .ok_or_else(|| ArmError::Auth { message: "no token".into(), hint: None })
    }

    /// Forget the cached token (after a 401).
    pub async fn invalidate(&self) {
        *self.cached.lock().await = None;
    }

    /// The cached token's expiry, if any.
    pub async fn expires_at(&self) -> Option<SystemTime> {
        self.cached.lock().await.as_ref().and_then(|t| t.expires_at)
    }
}

/// Where the subscription id came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionOrigin {
    /// The subscription setting (a flag, a file) gave the id.
    Setting,
    /// `AZURE_SUBSCRIPTION_ID`.
    Env,
    /// The az CLI's default (`azureProfile.json`).
    AzDefault,
}

/// Subscription: the setting, then `AZURE_SUBSCRIPTION_ID`, then the az CLI default.
pub fn subscription(flag: Option<&str>, env: &dyn Env) -> Result<(String, SubscriptionOrigin), ArmError> {
    if let Some(s) = flag.map(str::trim).filter(|s| !s.is_empty()) {
        return check_subscription(s).map(|s| (s, SubscriptionOrigin::Setting));
    }
    if let Some(s) = env.var("AZURE_SUBSCRIPTION_ID") {
        return check_subscription(&s).map(|s| (s, SubscriptionOrigin::Env));
    }
    let dir = env
        .var("AZURE_CONFIG_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| env.var("HOME").map(|h| std::path::Path::new(&h).join(".azure")));
    if let Some(dir) = dir {
        if let Ok(bytes) = std::fs::read(dir.join("azureProfile.json")) {
            // The file starts with a UTF-8 BOM when written by az.
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(profile) = serde_json::from_str::<AzureProfile>(text.trim_start_matches('\u{feff}')) {
                if let Some(id) = profile.default_subscription() {
                    return check_subscription(id).map(|s| (s, SubscriptionOrigin::AzDefault));
                }
            }
        }
    }
    Err(ArmError::Config {
        message: "no subscription given".into(),
        hint: Some(Words::new(
            "pass {0}, or set AZURE_SUBSCRIPTION_ID, or choose a default with `az account set --subscription …`",
            &[Setting::Subscription],
        )),
    })
}

/// True for a subscription id (a GUID); anything else given to `--subscription` is a name.
pub fn is_subscription_id(s: &str) -> bool {
    s.len() == 36
        && s.chars()
            .enumerate()
            .all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() })
}

fn check_subscription(s: &str) -> Result<String, ArmError> {
    if is_subscription_id(s) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err(ArmError::Config {
            message: format!("subscription {s:?} is not a subscription id"),
            hint: Some("use the GUID, e.g. 00000000-0000-0000-0000-000000000000 (az account list -o table)".into()),
        })
    }
}

/// The AKS server application whose token `clusterToken` carries (Entra-ID clusters).
pub const AKS_SERVER_SCOPE: &str = "6dae42f8-4368-4678-94ff-3960e28e3630/.default";

/// The `clusterToken` for Entra-ID clusters: `AKSGPU_CLUSTER_TOKEN`, else minted by the
/// credential for the AKS server application.
pub async fn cluster_token(
    az_method: AuthMethod,
    source: &std::sync::Arc<dyn TokenSource>,
    deadline: std::time::Instant,
) -> Result<Secret, ArmError> {
    if let Ok(t) = std::env::var("AKSGPU_CLUSTER_TOKEN") {
        if !t.trim().is_empty() {
            return Ok(Secret::new(t.trim()));
        }
    }
    if az_method == AuthMethod::AccessToken {
        return Err(ArmError::Auth {
            message: "this cluster uses Entra ID: runCommand needs a token for the AKS server app, and AKSGPU_ACCESS_TOKEN is an ARM token".into(),
            hint: Some("set it: `export AKSGPU_CLUSTER_TOKEN=$(az account get-access-token --resource 6dae42f8-4368-4678-94ff-3960e28e3630 --query accessToken -o tsv)`".into()),
        });
    }
    Ok(fetch_until(source.as_ref(), AKS_SERVER_SCOPE, deadline).await?.secret)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct MapEnv(HashMap<&'static str, String>);
    impl Env for MapEnv {
        fn var(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
    }

    fn env(pairs: &[(&'static str, &str)]) -> MapEnv {
        MapEnv(pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect())
    }

    #[test]
    fn credential_order() {
        assert_eq!(choose(None, &env(&[])).expect("ok"), AuthMethod::DeveloperTools);
        assert_eq!(choose(None, &env(&[("AKSGPU_ACCESS_TOKEN", "t")])).expect("ok"), AuthMethod::AccessToken);
        let sp = [("AZURE_TENANT_ID", "t"), ("AZURE_CLIENT_ID", "c"), ("AZURE_CLIENT_SECRET", "s")];
        assert_eq!(choose(None, &env(&sp)).expect("ok"), AuthMethod::ServicePrincipal);
        assert_eq!(
            choose(None, &env(&[("AZURE_FEDERATED_TOKEN_FILE", "/f"), ("AZURE_CLIENT_ID", "c")])).expect("ok"),
            AuthMethod::WorkloadIdentity
        );
        // Managed identity only when asked.
        assert_eq!(choose(None, &env(&[("IDENTITY_ENDPOINT", "x")])).expect("ok"), AuthMethod::DeveloperTools);
        assert_eq!(
            choose(None, &env(&[("AKSGPU_AUTH", "managed-identity")])).expect("ok"),
            AuthMethod::ManagedIdentity
        );
        assert_eq!(
            choose(Some(AuthMethod::DeveloperTools), &env(&[("AKSGPU_ACCESS_TOKEN", "t")])).expect("ok"),
            AuthMethod::DeveloperTools
        );
        assert!(choose(None, &env(&[("AKSGPU_AUTH", "magic")])).is_err());
    }

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("eyJ.super.secret");
        assert_eq!(format!("{s} {s:?}"), "REDACTED Secret(REDACTED)");
        let t = Token { secret: s, expires_at: None };
        assert!(!format!("{t:?}").contains("super"));
    }

    #[test]
    fn jwt_expiry_is_read() {
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"exp":2000000000}"#);
        let at = jwt_expiry(&format!("h.{payload}.s")).expect("exp");
        assert_eq!(at, UNIX_EPOCH + Duration::from_secs(2_000_000_000));
        assert!(jwt_expiry("not-a-jwt").is_none());
        // An absurd exp never panics.
        let huge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(br#"{"exp":18446744073709551615}"#);
        let _ = jwt_expiry(&format!("h.{huge}.s"));
    }

    #[derive(Debug)]
    struct Counting(std::sync::atomic::AtomicU32, Duration);
    impl TokenSource for Counting {
        fn fetch<'a>(&'a self, _s: &'a str) -> BoxFuture<'a, Result<Token, ArmError>> {
            Box::pin(async move {
                let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                Ok(Token { secret: Secret::new(format!("t{n}")), expires_at: Some(SystemTime::now() + self.1) })
            })
        }
    }

    #[test]
    fn cache_refreshes_near_expiry_and_after_invalidate() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
        rt.block_on(async {
            let long = TokenCache::new(Arc::new(Counting(0.into(), Duration::from_secs(3600))), "s");
            assert_eq!(long.token().await.expect("t").expose(), "t0");
            assert_eq!(long.token().await.expect("t").expose(), "t0");
            long.invalidate().await;
            assert_eq!(long.token().await.expect("t").expose(), "t1");
            // A token that expires within the margin is never reused.
            let short = TokenCache::new(Arc::new(Counting(0.into(), Duration::from_secs(60))), "s");
            assert_eq!(short.token().await.expect("t").expose(), "t0");
            assert_eq!(short.token().await.expect("t").expose(), "t1");
        });
    }

    #[test]
    fn subscription_resolution() {
        let id = "00000000-1111-2222-3333-444444444444";
        assert_eq!(subscription(Some(id), &env(&[])).expect("ok").1, SubscriptionOrigin::Setting);
        assert_eq!(subscription(None, &env(&[("AZURE_SUBSCRIPTION_ID", id)])).expect("ok").0, id);
        assert!(subscription(Some("nope"), &env(&[])).is_err());
        let dir = std::env::temp_dir().join(format!("aksgpu-az-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(
            dir.join("azureProfile.json"),
            format!("\u{feff}{{\"subscriptions\":[{{\"id\":\"{id}\",\"isDefault\":true}}]}}"),
        )
        .expect("write");
        let found = subscription(None, &env(&[("AZURE_CONFIG_DIR", dir.to_str().expect("utf8"))])).expect("profile");
        assert_eq!(found.0, id);
        assert!(subscription(None, &env(&[("HOME", "/nonexistent")])).is_err());
    }
}
