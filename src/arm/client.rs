//! The HTTP client for ARM: authentication, retries, request ids, size caps and redacted logs.
//!
//! Every request carries a fresh `x-ms-client-request-id` and the run's one
//! `x-ms-correlation-request-id`. The bearer token goes only to the ARM origin. A 401 drops the
//! cached token and re-sends once; a second 401 is an authentication error. Bodies are read
//! with a cap (8 MiB) so a runaway response cannot exhaust memory. Every request ends within
//! its deadline (`REQUEST_DEADLINE`, or `--timeout` when sooner): connecting, the token,
//! reading, retries and their waits included.

use std::time::{Duration, Instant, SystemTime};

use reqwest::header::HeaderMap;
use reqwest::Method;
use serde::de::DeserializeOwned;

use super::auth::TokenCache;
use super::endpoint::Endpoint;
use super::error::{ArmError, ErrorBody};
use super::redact;
use super::retry::{self, jitter, retry_after, transient, RetryPolicy, Sleeper};
use crate::resources::page::Page;

/// Largest response body read.
pub const BODY_CAP: usize = 8 * 1024 * 1024;

/// The read timeout of one attempt (`AKSGPU_HTTP_TIMEOUT` seconds overrides it).
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(60);
/// The largest `AKSGPU_HTTP_TIMEOUT` taken at face value.
pub const MAX_READ_TIMEOUT: Duration = Duration::from_secs(3600);

/// The default deadline of one request: all its attempts, the waits between them and the
/// token it needs end within this, or sooner when `--timeout` leaves less.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(120);

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
        request_id(&self.headers).map(str::to_owned)
    }

    /// This 2xx answer's body is not of the documented shape (`e`: the field it lacks).
    pub fn shape_error(&self, e: &crate::resources::MissingField) -> ArmError {
        ArmError::InvalidResponse {
            method: self.method.to_string(),
            path: self.path.clone(),
            status: self.status,
            message: e.to_string(),
            snippet: snippet(&self.body),
            request_id: self.request_id(),
        }
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

/// The server's request id (`x-ms-request-id`) among `headers`.
fn request_id(headers: &HeaderMap) -> Option<&str> {
    headers.get("x-ms-request-id").and_then(|v| v.to_str().ok())
}

/// First ~200 bytes of a body, redacted and printable.
pub fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(200)]);
    let text = if text.trim_start().starts_with('<') { "(HTML page)".to_owned() } else { text.into_owned() };
    redact::body(&super::redact::sanitize(&text))
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

/// How many HTTP clients this process built (each loads the TLS root certificates): a run
/// that sends nothing builds none.
static HTTP_CLIENTS_BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many HTTP clients this process has built so far.
pub fn http_clients_built() -> usize {
    HTTP_CLIENTS_BUILT.load(std::sync::atomic::Ordering::Relaxed)
}

/// The ARM client.
#[derive(Debug)]
pub struct ArmClient {
    /// Built on the first request: a dry run that sends nothing never pays for the TLS set-up
    /// (loading the root certificates is most of an offline run's work).
    http: std::sync::OnceLock<reqwest::Client>,
    read_timeout: Duration,
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
    /// Where log lines go (already redacted); none: nothing is logged.
    pub log_sink: Option<fn(&str)>,
    /// The `--timeout` deadline: every request, retry wait and token fetch ends by then
    /// (`Throttled` when the server asks for a longer wait).
    pub deadline: Option<Instant>,
    /// Numbers each attempt, so `-v` pairs every answer (`← #3`) with its request (`→ #3`)
    /// even when requests run concurrently.
    sent: std::sync::atomic::AtomicU64,
}

/// A request to send (owned bytes, rebuilt on each attempt).
#[derive(Debug, Clone)]
pub struct Req {
    pub method: Method,
    pub url: String,
    pub body: Option<Vec<u8>>,
    pub headers: Vec<(String, String)>,
    /// Send exactly once: no retry of any kind (the abort POST).
    pub once: bool,
    /// A POST that changes nothing (a Resource Graph query): retried like a GET.
    pub read_only: bool,
}

impl Req {
    /// A GET.
    pub fn get(url: impl Into<String>) -> Self {
        Self { method: Method::GET, url: url.into(), body: None, headers: Vec::new(), once: false, read_only: false }
    }

    /// A request with a JSON body.
    pub fn json(method: Method, url: impl Into<String>, body: &serde_json::Value) -> Self {
        Self {
            method,
            url: url.into(),
            body: Some(body.to_string().into_bytes()),
            headers: Vec::new(),
            once: false,
            read_only: false,
        }
    }

    /// A POST with no body.
    pub fn post(url: impl Into<String>) -> Self {
        Self { method: Method::POST, url: url.into(), body: None, headers: Vec::new(), once: false, read_only: false }
    }

    /// A POST that only reads (a query): retried like a GET, never an ambiguous write.
    pub fn query(url: impl Into<String>, body: &serde_json::Value) -> Self {
        Self { read_only: true, ..Self::json(Method::POST, url, body) }
    }

    /// True when sending it again is always safe (a GET, HEAD or a query POST).
    pub fn reads(&self) -> bool {
        self.read_only || retry::is_read(&self.method)
    }

    /// Send this request exactly once, whatever happens.
    pub fn once(mut self) -> Self {
        self.once = true;
        self
    }

    /// Add a header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
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
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| *v > 0.0)
            .and_then(|v| Duration::try_from_secs_f64(v.min(MAX_READ_TIMEOUT.as_secs_f64())).ok())
            .unwrap_or(DEFAULT_READ_TIMEOUT);
        Self::with_read_timeout(endpoint, tokens, sleeper, read_timeout)
    }

    /// A client with an explicit per-request read timeout (connect timeout stays 10 s). The
    /// HTTP client itself is built on the first request.
    pub fn with_read_timeout(
        endpoint: Endpoint,
        tokens: Option<TokenCache>,
        sleeper: Sleeper,
        read_timeout: Duration,
    ) -> Result<Self, ArmError> {
        Ok(Self {
            http: std::sync::OnceLock::new(),
            read_timeout,
            endpoint,
            tokens,
            correlation_id: uuid::Uuid::new_v4().to_string(),
            sleeper,
            policy: RetryPolicy::default(),
            verbosity: Verbosity::Quiet,
            log_sink: None,
            deadline: None,
            sent: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// The HTTP client, built on first use.
    fn http(&self) -> Result<&reqwest::Client, ArmError> {
        if let Some(c) = self.http.get() {
            return Ok(c);
        }
        let built = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(self.read_timeout)
            .timeout(self.read_timeout.saturating_mul(2))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(user_agent())
            .build()
            .map_err(|e| ArmError::Config { message: format!("cannot build the HTTP client: {e}"), hint: None })?;
        HTTP_CLIENTS_BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.log(Verbosity::Headers, || "  HTTP client built (TLS root certificates loaded)".into());
        Ok(self.http.get_or_init(|| built))
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
        if let Some(sink) = self.log_sink.filter(|_| self.verbosity >= level) {
            sink(&redact::text(&line()));
        }
    }

    /// The instant this request (all attempts and waits) must end by: `REQUEST_DEADLINE`
    /// from now, or the client's `--timeout` deadline when that is sooner.
    fn request_deadline(&self) -> Instant {
        let own = Instant::now() + REQUEST_DEADLINE;
        self.deadline.map_or(own, |d| d.min(own))
    }

    /// Refuse (before sending) a URL the token must not go to: another host, scheme or port
    /// than the ARM endpoint.
    pub fn check_url(&self, url: &str) -> Result<(), ArmError> {
        self.checked_url(&Req::get(url)).map(|_| ())
    }

    fn checked_url(&self, req: &Req) -> Result<reqwest::Url, ArmError> {
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
        Ok(url)
    }

    /// Send with method-aware retries (see `retry`). Returns every completed exchange, 2xx or
    /// not; transport and auth failures are errors, and a write whose answer was lost is
    /// `ArmError::OutcomeUnknown` (never resent). The whole request, token included, ends
    /// within `REQUEST_DEADLINE` or the `--timeout` deadline, whichever is sooner.
    pub async fn send(&self, req: &Req) -> Result<ArmResponse, ArmError> {
        let url = self.checked_url(req)?;
        let path = redact::url(&url);
        let deadline = self.request_deadline();
        let mut attempt: u32 = 0;
        let mut refreshed_after_401 = false;
        loop {
            attempt += 1;
            if self.deadline.is_some_and(|d| d <= Instant::now()) {
                // Nothing is sent after --timeout: not even a write's first attempt.
                return Err(ArmError::Deadline { method: req.method.to_string(), path, waited: Duration::ZERO });
            }
            let resp = match self.attempt(req, &url, &path, attempt, deadline).await? {
                Attempt::Answer(resp) => resp,
                Attempt::Failed(e) => {
                    if self.resend_after_transport(req, &*e, attempt, &path, deadline).await {
                        continue;
                    }
                    return Err(self.transport_error(
                        req,
                        &path,
                        describe_transport(&*e),
                        attempt,
                        retry::never_sent(&*e),
                    ));
                }
                Attempt::NoAnswer(waited) => return Err(self.no_answer(req, &path, waited, attempt, deadline)),
            };
            if resp.status == 401 && self.tokens.is_some() && !req.once {
                if refreshed_after_401 {
                    return Err(twice_unauthorized(&resp));
                }
                refreshed_after_401 = true;
                if let Some(t) = &self.tokens {
                    t.invalidate().await;
                }
                self.log(Verbosity::Requests, || "  401: refreshing the token and sending once more".into());
                attempt -= 1;
                continue;
            }
            let server = retry_after(&resp.headers, SystemTime::now());
            if !req.once
                && attempt <= self.policy.max_retries
                && retry::may_resend_after_status(
                    if req.reads() { &Method::GET } else { &req.method },
                    resp.status,
                    server.is_some(),
                )
            {
                let d = server.unwrap_or_else(|| self.policy.backoff(attempt, jitter()));
                if self
                    .pause(d, server.is_some(), &path, deadline, || throttle_note(&resp, d, server.is_some()))
                    .await?
                {
                    continue;
                }
            }
            if !req.reads() && retry::ambiguous_status(resp.status, server.is_some()) {
                return Err(ArmError::OutcomeUnknown {
                    method: req.method.to_string(),
                    path,
                    message: resp.to_error().to_string(),
                    correlation_id: self.correlation_id.clone(),
                });
            }
            return Ok(resp);
        }
    }

    /// One attempt: token, request, capped body, all before `deadline`.
    async fn attempt(
        &self,
        req: &Req,
        url: &reqwest::Url,
        path: &str,
        attempt: u32,
        deadline: Instant,
    ) -> Result<Attempt, ArmError> {
        let token = match &self.tokens {
            Some(t) => Some(t.token_until(deadline).await?),
            None => None,
        };
        let request_id = uuid::Uuid::new_v4().to_string();
        let rb = self.build(req, url, token.as_ref(), &request_id)?;
        let n = self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        self.log(Verbosity::Requests, || format!("→ #{n} {} {path} (attempt {attempt})", req.method));
        self.log(Verbosity::Headers, || self.header_lines(req, &request_id, token.is_some()));
        let started = Instant::now();
        let exchange = async {
            match rb.send().await {
                Ok(resp) => read_capped(resp).await,
                Err(e) => Err(e.into()),
            }
        };
        let (status, headers, body) = match tokio::time::timeout_at(deadline.into(), exchange).await {
            Err(_) => return Ok(Attempt::NoAnswer(started.elapsed())),
            Ok(Err(ReadError::Transport(e))) => return Ok(Attempt::Failed(e)),
            // A write's answer that cannot be read is a lost answer: Azure may have applied
            // it (a 2xx), so the caller reads the resource back instead of calling it failed.
            Ok(Err(ReadError::TooLarge(status))) if !retry::is_read(&req.method) => {
                return Err(ArmError::OutcomeUnknown {
                    method: req.method.to_string(),
                    path: path.to_owned(),
                    message: format!(
                        "HTTP {status} with a body larger than {} MiB, not read",
                        BODY_CAP / (1024 * 1024)
                    ),
                    correlation_id: self.correlation_id.clone(),
                })
            }
            Ok(Err(ReadError::TooLarge(status))) => {
                return Err(ArmError::InvalidResponse {
                    method: req.method.to_string(),
                    path: path.to_owned(),
                    status,
                    message: format!("response body larger than {} MiB; refused", BODY_CAP / (1024 * 1024)),
                    snippet: String::new(),
                    request_id: None,
                })
            }
            Ok(Ok(x)) => x,
        };
        self.log_answer(n, req, path, status, &headers, started);
        Ok(Attempt::Answer(ArmResponse {
            method: req.method.clone(),
            path: path.to_owned(),
            status,
            headers,
            body,
            attempts: attempt,
            correlation_id: self.correlation_id.clone(),
        }))
    }

    fn build(
        &self,
        req: &Req,
        url: &reqwest::Url,
        token: Option<&super::auth::Secret>,
        request_id: &str,
    ) -> Result<reqwest::RequestBuilder, ArmError> {
        let mut rb = self
            .http()?
            .request(req.method.clone(), url.clone())
            .header("x-ms-client-request-id", request_id)
            .header("x-ms-correlation-request-id", &self.correlation_id)
            .header("accept", "application/json");
        match &req.body {
            Some(body) => rb = rb.header("content-type", "application/json").body(body.clone()),
            // ARM answers 411 to a bodiless POST without Content-Length (seanmonstar/reqwest#838).
            None if !retry::is_read(&req.method) => rb = rb.header(reqwest::header::CONTENT_LENGTH, "0"),
            None => {}
        }
        for (k, v) in &req.headers {
            rb = rb.header(k.as_str(), v);
        }
        if let Some(t) = token {
            rb = rb.bearer_auth(t.expose());
        }
        Ok(rb)
    }

    fn header_lines(&self, req: &Req, request_id: &str, with_token: bool) -> String {
        let mut h = vec![
            format!("  x-ms-client-request-id: {request_id}"),
            format!("  x-ms-correlation-request-id: {}", self.correlation_id),
        ];
        if with_token {
            h.push("  authorization: REDACTED".into());
        }
        for (k, v) in &req.headers {
            h.push(format!("  {k}: {}", redact::header(k, v)));
        }
        h.join("\n")
    }

    fn log_answer(&self, n: u64, req: &Req, path: &str, status: u16, headers: &HeaderMap, started: Instant) {
        // With -vv the answer repeats its request line: concurrent requests interleave.
        let which =
            if self.verbosity >= Verbosity::Headers { format!(" {} {path}", req.method) } else { String::new() };
        self.log(Verbosity::Requests, || {
            format!(
                "← #{n}{which}: {status} in {} ms{}",
                started.elapsed().as_millis(),
                request_id(headers).map(|r| format!(" (request id {r})")).unwrap_or_default()
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
    }

    /// After a transport failure: wait and return true when the request may be sent again
    /// (a transient failure of a read, or of a write that provably never left).
    async fn resend_after_transport(
        &self,
        req: &Req,
        e: &(dyn std::error::Error + 'static),
        attempt: u32,
        path: &str,
        deadline: Instant,
    ) -> bool {
        let safe = req.reads() || retry::never_sent(e);
        if req.once || !safe || !transient(e) || attempt > self.policy.max_retries {
            return false;
        }
        let d = self.policy.backoff(attempt, jitter());
        let note = || format!("  {}; retrying in {:.1}s", describe_transport(e), d.as_secs_f64());
        matches!(self.pause(d, false, path, deadline, note).await, Ok(true))
    }

    fn transport_error(&self, req: &Req, path: &str, message: String, attempts: u32, never_sent: bool) -> ArmError {
        if req.reads() || never_sent {
            return ArmError::Transport {
                method: req.method.to_string(),
                path: path.to_owned(),
                message,
                attempts,
                correlation_id: self.correlation_id.clone(),
            };
        }
        ArmError::OutcomeUnknown {
            method: req.method.to_string(),
            path: path.to_owned(),
            message,
            correlation_id: self.correlation_id.clone(),
        }
    }

    /// The request's deadline passed with no answer.
    fn no_answer(&self, req: &Req, path: &str, waited: Duration, attempts: u32, deadline: Instant) -> ArmError {
        let by_timeout = self.deadline.is_some_and(|d| d <= deadline);
        if !req.reads() {
            let message = format!("no answer within {}", super::error::human(waited));
            return self.transport_error(req, path, message, attempts, false);
        }
        if by_timeout {
            return ArmError::Deadline { method: req.method.to_string(), path: path.to_owned(), waited };
        }
        let message = format!(
            "no answer within {} (the per-request limit is {})",
            super::error::human(waited),
            super::error::human(REQUEST_DEADLINE)
        );
        self.transport_error(req, path, message, attempts, false)
    }

    /// Wait `d` before the next attempt. Returns false (no retry) when a computed backoff
    /// does not fit before `deadline`; a server-requested wait that does not fit is a
    /// `Throttled` error naming the wait.
    async fn pause(
        &self,
        d: Duration,
        from_server: bool,
        path: &str,
        deadline: Instant,
        note: impl FnOnce() -> String,
    ) -> Result<bool, ArmError> {
        let left = deadline.saturating_duration_since(Instant::now());
        if d > left {
            if from_server {
                return Err(ArmError::Throttled { path: path.to_owned(), wait: d, left });
            }
            return Ok(false);
        }
        self.log(Verbosity::Requests, note);
        self.sleeper.sleep(d).await;
        Ok(true)
    }

    /// Send a GET and parse JSON; any non-2xx is an error.
    pub async fn get_json<T: DeserializeOwned>(&self, req: &Req) -> Result<T, ArmError> {
        self.send(req).await?.require_ok()?.json()
    }

    /// Send a GET and parse JSON; 404 is `None`.
    pub async fn get_json_opt<T: DeserializeOwned>(&self, req: &Req) -> Result<Option<T>, ArmError> {
        let resp = self.send(req).await?;
        if resp.status == 404 {
            return Ok(None);
        }
        resp.require_ok()?.json().map(Some)
    }

    /// Send `first` and GET every further page of the list at the `nextLink` each page returns
    /// (a URL Azure gives), until it is absent or a page is empty. A page without `value`, a
    /// `nextLink` that repeats an earlier page, or more than [`MAX_PAGES`] pages, is an error:
    /// never a silent partial or duplicated list. Each item is read as `T`: an item of another
    /// shape, or without a field every item carries, is an error naming it, never skipped.
    pub async fn list<T: crate::resources::Listed>(&self, first: &Req) -> Result<Vec<T>, ArmError> {
        let mut out = Vec::new();
        let mut next = Some(first.clone());
        let mut seen = std::collections::HashSet::new();
        while let Some(req) = next.take() {
            let u = req.url.clone();
            let stop = if !seen.insert(u.clone()) {
                Some("its nextLink repeats an earlier page")
            } else if seen.len() > MAX_PAGES {
                Some("it has more pages than the limit")
            } else {
                None
            };
            if let Some(why) = stop {
                let path = reqwest::Url::parse(&u).map_or_else(|_| "the list".to_owned(), |x| x.path().to_owned());
                return Err(ArmError::InvalidResponse {
                    method: "GET".into(),
                    path,
                    status: 200,
                    message: format!("the list was not read: {why} ({MAX_PAGES} pages at most)"),
                    snippet: String::new(),
                    request_id: None,
                });
            }
            let resp = self.send(&req).await?.require_ok()?;
            // A page without `value` is an answer of another shape, never an empty last page.
            let page: Page = resp.json()?;
            let link = page.next().map(Req::get);
            let items: Vec<T> = page.typed().map_err(|e| resp.shape_error(&e))?;
            if items.is_empty() {
                break;
            }
            out.extend(items);
            next = link;
        }
        Ok(out)
    }
}

/// The most pages one list is read in.
pub const MAX_PAGES: usize = 1000;

/// How one attempt ended.
enum Attempt {
    Answer(ArmResponse),
    Failed(Box<dyn std::error::Error + Send + Sync>),
    /// The deadline passed first (after this long).
    NoAnswer(Duration),
}

fn twice_unauthorized(resp: &ArmResponse) -> ArmError {
    let detail = ErrorBody::parse(&resp.body).map(|b| format!(": {}", b.describe())).unwrap_or_default();
    ArmError::Auth {
        message: format!("Azure rejected the credentials twice (HTTP 401){detail}"),
        hint: Some("check the identity with `aksgpu auth status`; sign in again or mint a new token".into()),
    }
}

/// The `-v` line for a retried status, saying who throttled on a 429.
fn throttle_note(resp: &ArmResponse, d: Duration, from_server: bool) -> String {
    let who = if resp.status == 429 {
        match ErrorBody::parse(&resp.body).map(|b| b.code) {
            Some(c) if c == "Throttled" => " (throttled by the AKS resource provider)",
            Some(c) if c.contains("Subscription") || c.contains("TooMany") => " (throttled by ARM)",
            _ => " (throttled)",
        }
    } else {
        ""
    };
    format!(
        "  HTTP {}{who}; retrying in {:.1}s{}",
        resp.status,
        d.as_secs_f64(),
        if from_server { " as the server asked" } else { "" }
    )
}

enum ReadError {
    /// The body passed the cap; the answer's status.
    TooLarge(u16),
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
        return Err(ReadError::TooLarge(status));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        if body.len() + chunk.len() > BODY_CAP {
            return Err(ReadError::TooLarge(status));
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
