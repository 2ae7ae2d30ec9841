//! The HTTP client for ARM: authentication, retries, request ids, size caps and redacted logs.
//!
//! Every request carries a fresh `x-ms-client-request-id` and the run's one
//! `x-ms-correlation-request-id`. The bearer token goes only to the ARM origin. A 401 drops the
//! cached token and re-sends once; a second 401 is an authentication error. Bodies are read
//! with a cap (8 MiB) so a runaway response cannot exhaust memory.

use std::time::{Duration, Instant, SystemTime};

use reqwest::header::HeaderMap;
use reqwest::Method;
use serde::de::DeserializeOwned;

use super::auth::TokenCache;
use super::endpoint::Endpoint;
use super::error::{ArmError, ErrorBody};
use super::redact;
use super::retry::{jitter, retry_after, retryable_status, transient, RetryPolicy, Sleeper};

/// Largest response body read.
pub const BODY_CAP: usize = 8 * 1024 * 1024;

/// A completed HTTP exchange.
#[derive(Debug, Clone)]
pub struct ArmResponse {
    pub method: Method,
    /// Redacted path (for messages).
    pub path: String,
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    pub attempts: u32,
    correlation_id: String,
}

impl ArmResponse {
    /// A header as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The server's request id.
    pub fn request_id(&self) -> Option<String> {
        self.header("x-ms-request-id").map(str::to_owned)
    }

    /// True for 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The typed error for a non-2xx answer.
    pub fn to_error(&self) -> ArmError {
        ArmError::Http(Box::new(super::error::HttpFailure {
            method: self.method.to_string(),
            path: self.path.clone(),
            status: self.status,
            body: ErrorBody::parse(&self.body),
            snippet: snippet(&self.body),
            request_id: self.request_id(),
            correlation_id: self.correlation_id.clone(),
            attempts: self.attempts,
        }))
    }

    /// Fail unless 2xx.
    pub fn require_ok(self) -> Result<Self, ArmError> {
        if self.ok() {
            Ok(self)
        } else {
            Err(self.to_error())
        }
    }

    /// Parse the body as JSON.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ArmError> {
        serde_json::from_slice(&self.body).map_err(|e| ArmError::InvalidResponse {
            method: self.method.to_string(),
            path: self.path.clone(),
            status: self.status,
            message: format!("not the JSON expected: {e}"),
            snippet: snippet(&self.body),
            request_id: self.request_id(),
        })
    }

    /// The body as JSON, or `null` when empty.
    pub fn value(&self) -> Result<serde_json::Value, ArmError> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(serde_json::Value::Null);
        }
        self.json()
    }
}

/// First ~200 bytes of a body, redacted and printable.
pub fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(200)]);
    let text = if text.trim_start().starts_with('<') { "(HTML page)".to_owned() } else { text.into_owned() };
    redact::body(&crate::output::sanitize(&text))
}

/// How much the client logs to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Verbosity {
    #[default]
    Quiet,
    /// `-v`: one line per request and retry.
    Requests,
    /// `-vv`: plus allow-listed headers.
    Headers,
}

/// The ARM client.
#[derive(Debug)]
pub struct ArmClient {
    http: reqwest::Client,
    /// Where ARM is.
    pub endpoint: Endpoint,
    tokens: Option<TokenCache>,
    /// One id for every request of this run.
    pub correlation_id: String,
    /// Waits between retries and polls.
    pub sleeper: Sleeper,
    /// Retry settings.
    pub policy: RetryPolicy,
    /// Logging level.
    pub verbosity: Verbosity,
    /// Requests fail with `Throttled` rather than wait past this instant.
    pub deadline: Option<Instant>,
}

/// A request to send (owned bytes, rebuilt on each attempt).
#[derive(Debug, Clone)]
pub struct Req {
    pub method: Method,
    pub url: String,
    pub body: Option<Vec<u8>>,
    pub headers: Vec<(&'static str, String)>,
}

impl Req {
    /// A GET.
    pub fn get(url: impl Into<String>) -> Self {
        Self { method: Method::GET, url: url.into(), body: None, headers: Vec::new() }
    }

    /// A request with a JSON body.
    pub fn json(method: Method, url: impl Into<String>, body: &serde_json::Value) -> Self {
        Self { method, url: url.into(), body: Some(body.to_string().into_bytes()), headers: Vec::new() }
    }

    /// A POST with no body.
    pub fn post(url: impl Into<String>) -> Self {
        Self { method: Method::POST, url: url.into(), body: None, headers: Vec::new() }
    }

    /// Add a header.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }
}

fn user_agent() -> String {
    format!("aksgpu/{}", env!("CARGO_PKG_VERSION"))
}

impl ArmClient {
    /// A client; `tokens` is `None` when no credential is available (reads will fail with an
    /// auth error, which dry runs use to fall back to flags only).
    pub fn new(endpoint: Endpoint, tokens: Option<TokenCache>, sleeper: Sleeper) -> Result<Self, ArmError> {
        let read_timeout = std::env::var("AKSGPU_HTTP_TIMEOUT")
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| *v > 0.0)
            .map_or(Duration::from_secs(60), Duration::from_secs_f64);
        Self::with_read_timeout(endpoint, tokens, sleeper, read_timeout)
    }

    /// A client with an explicit per-request read timeout (connect timeout stays 10 s).
    pub fn with_read_timeout(
        endpoint: Endpoint,
        tokens: Option<TokenCache>,
        sleeper: Sleeper,
        read_timeout: Duration,
    ) -> Result<Self, ArmError> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(read_timeout)
            .timeout(read_timeout * 2)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(user_agent())
            .build()
            .map_err(|e| ArmError::Config { message: format!("cannot build the HTTP client: {e}"), hint: None })?;
        Ok(Self {
            http,
            endpoint,
            tokens,
            correlation_id: uuid::Uuid::new_v4().to_string(),
            sleeper,
            policy: RetryPolicy::default(),
            verbosity: Verbosity::Quiet,
            deadline: None,
        })
    }

    /// True when a credential is configured.
    pub fn has_credentials(&self) -> bool {
        self.tokens.is_some()
    }

    /// The token cache, if any.
    pub fn tokens(&self) -> Option<&TokenCache> {
        self.tokens.as_ref()
    }

    fn log(&self, level: Verbosity, line: impl FnOnce() -> String) {
        if self.verbosity >= level {
            crate::output::log_line(&line());
        }
    }

    /// Send with retries. Returns every completed exchange, 2xx or not (after retries for
    /// retryable statuses); transport failures and auth failures are errors.
    pub async fn send(&self, req: &Req) -> Result<ArmResponse, ArmError> {
        let url = self.endpoint.resolve(&req.url)?;
        if !self.endpoint.may_carry_token(&url) {
            return Err(ArmError::Config {
                message: format!(
                    "refusing to send a request to {} (not the ARM endpoint {})",
                    url.host_str().unwrap_or("?"),
                    self.endpoint.base()
                ),
                hint: Some("the server pointed at another host; the token is only sent to the ARM endpoint".into()),
            });
        }
        let path = redact::url(&url);
        let mut attempt: u32 = 0;
        let mut refreshed_after_401 = false;
        loop {
            attempt += 1;
            let token = match &self.tokens {
                Some(t) => Some(t.token().await?),
                None => None,
            };
            let request_id = uuid::Uuid::new_v4().to_string();
            let mut rb = self
                .http
                .request(req.method.clone(), url.clone())
                .header("x-ms-client-request-id", &request_id)
                .header("x-ms-correlation-request-id", &self.correlation_id)
                .header("accept", "application/json");
            if let Some(body) = &req.body {
                rb = rb.header("content-type", "application/json").body(body.clone());
            }
            for (k, v) in &req.headers {
                rb = rb.header(*k, v);
            }
            if let Some(t) = &token {
                rb = rb.bearer_auth(t.expose());
            }
            self.log(Verbosity::Requests, || format!("→ {} {path} (attempt {attempt})", req.method));
            self.log(Verbosity::Headers, || {
                let mut h = vec![
                    format!("  x-ms-client-request-id: {request_id}"),
                    format!("  x-ms-correlation-request-id: {}", self.correlation_id),
                ];
                if token.is_some() {
                    h.push("  authorization: REDACTED".into());
                }
                for (k, v) in &req.headers {
                    h.push(format!("  {k}: {}", redact::header(k, v)));
                }
                h.join("\n")
            });
            let started = Instant::now();
            let outcome = match rb.send().await {
                Ok(resp) => read_capped(resp).await,
                Err(e) => Err(e.into()),
            };
            let (status, headers, body) = match outcome {
                Ok(x) => x,
                Err(ReadError::TooLarge) => {
                    return Err(ArmError::InvalidResponse {
                        method: req.method.to_string(),
                        path,
                        status: 0,
                        message: format!("response body larger than {} MiB; refused", BODY_CAP / (1024 * 1024)),
                        snippet: String::new(),
                        request_id: None,
                    })
                }
                Err(ReadError::Transport(e)) => {
                    let message = describe_transport(&*e);
                    if transient(&*e) && attempt <= self.policy.max_retries {
                        let d = self.policy.backoff(attempt, jitter());
                        self.log(Verbosity::Requests, || format!("  {message}; retrying in {:.1}s", d.as_secs_f64()));
                        self.wait(d, &path).await?;
                        continue;
                    }
                    return Err(ArmError::Transport {
                        method: req.method.to_string(),
                        path,
                        message,
                        attempts: attempt,
                        correlation_id: self.correlation_id.clone(),
                    });
                }
            };
            self.log(Verbosity::Requests, || {
                format!(
                    "← {status} in {} ms{}",
                    started.elapsed().as_millis(),
                    headers
                        .get("x-ms-request-id")
                        .and_then(|v| v.to_str().ok())
                        .map(|r| format!(" (request id {r})"))
                        .unwrap_or_default()
                )
            });
            self.log(Verbosity::Headers, || {
                headers
                    .iter()
                    .filter(|(k, _)| k.as_str().starts_with("x-ms-ratelimit-remaining"))
                    .map(|(k, v)| format!("  {k}: {}", v.to_str().unwrap_or("?")))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
            let resp = ArmResponse {
                method: req.method.clone(),
                path: path.clone(),
                status,
                headers,
                body,
                attempts: attempt,
                correlation_id: self.correlation_id.clone(),
            };
            if status == 401 && self.tokens.is_some() {
                if refreshed_after_401 {
                    let detail =
                        ErrorBody::parse(&resp.body).map(|b| format!(": {}", b.describe())).unwrap_or_default();
                    return Err(ArmError::Auth {
                        message: format!("Azure rejected the credentials twice (HTTP 401){detail}"),
                        hint: Some(
                            "check the identity with `aksgpu auth status`; sign in again or mint a new token".into(),
                        ),
                    });
                }
                refreshed_after_401 = true;
                if let Some(t) = &self.tokens {
                    t.invalidate().await;
                }
                self.log(Verbosity::Requests, || "  401: refreshing the token and sending once more".into());
                attempt -= 1;
                continue;
            }
            if retryable_status(status) && attempt <= self.policy.max_retries {
                let server = retry_after(&resp.headers, SystemTime::now());
                let d = server.unwrap_or_else(|| self.policy.backoff(attempt, jitter()));
                let who = if status == 429 {
                    match ErrorBody::parse(&resp.body).map(|b| b.code) {
                        Some(c) if c == "Throttled" => " (throttled by the AKS resource provider)",
                        Some(c) if c.contains("Subscription") || c.contains("TooMany") => " (throttled by ARM)",
                        _ => " (throttled)",
                    }
                } else {
                    ""
                };
                self.log(Verbosity::Requests, || {
                    format!(
                        "  HTTP {status}{who}; retrying in {:.1}s{}",
                        d.as_secs_f64(),
                        if server.is_some() { " as the server asked" } else { "" }
                    )
                });
                self.wait(d, &path).await?;
                continue;
            }
            return Ok(resp);
        }
    }

    async fn wait(&self, d: Duration, path: &str) -> Result<(), ArmError> {
        if let Some(deadline) = self.deadline {
            if Instant::now() + d > deadline {
                return Err(ArmError::Throttled { path: path.to_owned(), wait: d });
            }
        }
        self.sleeper.sleep(d).await;
        Ok(())
    }

    /// GET and parse JSON; any non-2xx is an error.
    pub async fn get_json<T: DeserializeOwned>(&self, url: &str) -> Result<T, ArmError> {
        self.send(&Req::get(url)).await?.require_ok()?.json()
    }

    /// GET and parse JSON; 404 is `None`.
    pub async fn get_json_opt<T: DeserializeOwned>(&self, url: &str) -> Result<Option<T>, ArmError> {
        let resp = self.send(&Req::get(url)).await?;
        if resp.status == 404 {
            return Ok(None);
        }
        resp.require_ok()?.json().map(Some)
    }

    /// GET every page of a list, following `nextLink` until it is absent or a page is empty.
    pub async fn list(&self, url: &str) -> Result<Vec<serde_json::Value>, ArmError> {
        let mut out = Vec::new();
        let mut next = Some(url.to_owned());
        let mut pages = 0;
        while let Some(u) = next.take() {
            pages += 1;
            if pages > 1000 {
                break;
            }
            let page: serde_json::Value = self.get_json(&u).await?;
            let items = page.get("value").and_then(|v| v.as_array()).cloned().unwrap_or_default();
            if items.is_empty() {
                break;
            }
            out.extend(items);
            next = page.get("nextLink").and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(str::to_owned);
        }
        Ok(out)
    }
}

enum ReadError {
    TooLarge,
    Transport(Box<dyn std::error::Error + Send + Sync>),
}

impl From<reqwest::Error> for ReadError {
    fn from(e: reqwest::Error) -> Self {
        ReadError::Transport(Box::new(e))
    }
}

async fn read_capped(mut resp: reqwest::Response) -> Result<(u16, HeaderMap, Vec<u8>), ReadError> {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    if resp.content_length().is_some_and(|n| n as usize > BODY_CAP) {
        return Err(ReadError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        if body.len() + chunk.len() > BODY_CAP {
            return Err(ReadError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok((status, headers, body))
}

fn describe_transport(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = Vec::new();
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(x) = cur {
        let s = redact::text(&x.to_string());
        if !parts.iter().any(|p: &String| p.contains(&s)) {
            parts.push(s);
        }
        cur = x.source();
    }
    parts.join(": ")
}
