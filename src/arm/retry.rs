//! The one retry policy: which failures are retried, how long to wait, and the sleeper.
//!
//! Retries are method-aware, so a write is never sent twice:
//! - GET (and HEAD) is retried on HTTP 408/429/500/502/503/504 and on transport errors
//!   (connect, reset, timeout, EOF) found anywhere in the error's `source()` chain.
//! - PUT, POST, PATCH and DELETE are resent only when the request provably never left (a
//!   connect error) or the answer says it was not applied (429, or 503 with `Retry-After`).
//!   Any other failure after the request may have left is an ambiguous outcome: the caller
//!   reads the resource's state instead of resending (see `provision::reconcile`).
//!
//! TLS certificate errors are never retried. Three retries (four attempts). The wait is the
//! server's `retry-after-ms`, `x-ms-retry-after-ms` or `Retry-After` when present (parsed with
//! checked conversions and capped at `MAX_RETRY_AFTER`), else
//! `min(60 s, 0.8 s × (2^n − 1) × U[0.8, 1.3))`.

use std::error::Error as StdError;
use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;
use reqwest::Method;

/// The longest server-requested wait taken at face value; longer (or absurd) values are
/// capped here, and any wait longer than the time left fails at once as throttling.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 3600);

/// Retry settings.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Backoff unit.
    pub base: Duration,
    /// Longest single wait.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_retries: 3, base: Duration::from_millis(800), max_delay: Duration::from_secs(60) }
    }
}

impl RetryPolicy {
    /// The backoff before retry `n` (1-based), with `jitter` in [0.8, 1.3).
    pub fn backoff(&self, n: u32, jitter: f64) -> Duration {
        let factor = (2f64.powi(n.min(30) as i32) - 1.0) * jitter.clamp(0.8, 1.3);
        let d = self.base.as_secs_f64() * factor;
        secs(d).unwrap_or(self.max_delay).min(self.max_delay)
    }
}

/// A duration from seconds with checked conversion: `None` for NaN, negative or infinite
/// values; anything above `MAX_RETRY_AFTER` becomes `MAX_RETRY_AFTER`.
pub fn secs(s: f64) -> Option<Duration> {
    if !s.is_finite() || s < 0.0 {
        return None;
    }
    Some(Duration::try_from_secs_f64(s.min(MAX_RETRY_AFTER.as_secs_f64())).unwrap_or(MAX_RETRY_AFTER))
}

/// True for the HTTP statuses worth retrying (for a read).
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 429 | 500 | 502 | 503 | 504)
}

/// True for methods that change nothing, so a resend is always safe.
pub fn is_read(method: &Method) -> bool {
    *method == Method::GET || *method == Method::HEAD
}

/// Whether a request with this method may be sent again after this status. Reads: any
/// retryable status. Writes: only when the answer says it was not applied: 429, or 503 with a
/// `Retry-After` (ARM's "not processed, come back later").
pub fn may_resend_after_status(method: &Method, status: u16, has_retry_after: bool) -> bool {
    if is_read(method) {
        return retryable_status(status);
    }
    status == 429 || (status == 503 && has_retry_after)
}

/// True when the status leaves a write's outcome unknown: it may have been applied before the
/// failure (408, 500, 502, 503 without `Retry-After`, 504).
pub fn ambiguous_status(status: u16, has_retry_after: bool) -> bool {
    matches!(status, 408 | 500 | 502 | 504) || (status == 503 && !has_retry_after)
}

/// True when a transport error proves the request never reached the server: the connection
/// could not be made (refused, DNS, TLS handshake). Resets, closes and timeouts after
/// connecting are not proof: the server may have read and applied the request.
pub fn never_sent(err: &(dyn StdError + 'static)) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(err);
    while let Some(e) = cur {
        if let Some(r) = e.downcast_ref::<reqwest::Error>() {
            if r.is_connect() {
                return true;
            }
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        cur = e.source();
    }
    false
}

/// True when a transport error is transient (walks the `source()` chain); TLS certificate
/// problems are never retried.
pub fn transient(err: &(dyn StdError + 'static)) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(err);
    let mut transient = false;
    while let Some(e) = cur {
        let text = e.to_string().to_ascii_lowercase();
        if text.contains("certificate") || text.contains("invalid peer") || text.contains("unknownissuer") {
            return false;
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            if matches!(
                io.kind(),
                ConnectionReset
                    | ConnectionAborted
                    | ConnectionRefused
                    | BrokenPipe
                    | TimedOut
                    | UnexpectedEof
                    | Interrupted
                    | NotConnected
            ) {
                transient = true;
            }
        }
        if let Some(r) = e.downcast_ref::<reqwest::Error>() {
            if r.is_timeout() || r.is_connect() || r.is_request() || r.is_body() || r.is_decode() {
                transient = true;
            }
        }
        if text.contains("connection reset")
            || text.contains("connection closed")
            || text.contains("incomplete message")
            || text.contains("timed out")
            || text.contains("unexpected eof")
            || text.contains("broken pipe")
        {
            transient = true;
        }
        cur = e.source();
    }
    transient
}

/// The server's requested wait: `retry-after-ms`, then `x-ms-retry-after-ms`, then
/// `Retry-After` (seconds or an HTTP date; a past date means now). `None` when absent or
/// unreadable.
pub fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    for name in ["retry-after-ms", "x-ms-retry-after-ms"] {
        if let Some(v) = headers.get(name).and_then(|v| v.to_str().ok()) {
            if let Some(d) = v.trim().parse::<f64>().ok().and_then(|ms| secs(ms / 1000.0)) {
                return Some(d);
            }
        }
    }
    let v = headers.get("retry-after")?.to_str().ok()?.trim();
    if let Ok(s) = v.parse::<f64>() {
        return secs(s);
    }
    let when = httpdate::parse_http_date(v).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO).min(MAX_RETRY_AFTER))
}

/// How the program waits: for real, or (tests) briefly, with each requested wait recorded.
#[derive(Debug, Clone, Default)]
pub struct Sleeper {
    /// `AKSGPU_TEST_NO_RETRY_DELAY`: cap every wait at 10 ms.
    pub fast: bool,
    waits: std::sync::Arc<std::sync::Mutex<Vec<Duration>>>,
}

impl Sleeper {
    /// From the environment (`AKSGPU_TEST_NO_RETRY_DELAY` set to anything but 0/empty).
    pub fn from_env() -> Self {
        let fast = std::env::var("AKSGPU_TEST_NO_RETRY_DELAY").is_ok_and(|v| !v.is_empty() && v != "0");
        Self { fast, waits: Default::default() }
    }

    /// A sleeper for tests: no real waiting, every wait recorded.
    pub fn recording() -> Self {
        Self { fast: true, waits: Default::default() }
    }

    /// Wait `d` (capped in fast mode); cancellation is by dropping the future.
    pub async fn sleep(&self, d: Duration) {
        if let Ok(mut w) = self.waits.lock() {
            w.push(d);
        }
        let real = if self.fast { d.min(Duration::from_millis(10)) } else { d };
        if !real.is_zero() {
            tokio::time::sleep(real).await;
        }
    }

    /// Every wait requested so far.
    pub fn waits(&self) -> Vec<Duration> {
        self.waits.lock().map(|w| w.clone()).unwrap_or_default()
    }
}

/// A jitter factor in [0.8, 1.3) from a cheap per-process random source.
pub fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    let r = (h.finish() >> 11) as f64 / (1u64 << 53) as f64;
    0.8 + 0.5 * r
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).expect("header"));
        }
        h
    }

    /// the header variants.
    #[test]
    fn retry_after_variants() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(
            retry_after(&headers(&[("retry-after-ms", "1500"), ("retry-after", "10")]), now),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(retry_after(&headers(&[("x-ms-retry-after-ms", "250")]), now), Some(Duration::from_millis(250)));
        assert_eq!(retry_after(&headers(&[("retry-after", "7")]), now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(retry_after(&headers(&[("retry-after", &later)]), now), Some(Duration::from_secs(30)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(retry_after(&headers(&[("retry-after", &past)]), now), Some(Duration::ZERO));
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[]), now), None);
        // Absurd values never panic; they are capped.
        assert_eq!(retry_after(&headers(&[("retry-after", "1e20")]), now), Some(MAX_RETRY_AFTER));
        assert_eq!(retry_after(&headers(&[("retry-after-ms", "1e30")]), now), Some(MAX_RETRY_AFTER));
        assert_eq!(retry_after(&headers(&[("x-ms-retry-after-ms", "inf")]), now), None);
        assert_eq!(retry_after(&headers(&[("retry-after", "NaN")]), now), None);
        assert_eq!(retry_after(&headers(&[("retry-after", "-5")]), now), None);
        assert_eq!(retry_after(&headers(&[("retry-after", "86400")]), now), Some(Duration::from_secs(86400)));
        let far = httpdate::fmt_http_date(now + Duration::from_secs(400 * 86400));
        assert_eq!(retry_after(&headers(&[("retry-after", &far)]), now), Some(MAX_RETRY_AFTER));
    }

    /// Writes are resent only when the answer says they were not applied.
    #[test]
    fn writes_resend_only_when_not_applied() {
        for s in [408, 429, 500, 502, 503, 504] {
            assert!(may_resend_after_status(&Method::GET, s, false), "GET {s}");
        }
        for m in [Method::PUT, Method::POST, Method::PATCH, Method::DELETE] {
            assert!(may_resend_after_status(&m, 429, false));
            assert!(may_resend_after_status(&m, 503, true));
            for s in [408, 500, 502, 503, 504] {
                assert!(!may_resend_after_status(&m, s, false), "{m} {s}");
                assert!(ambiguous_status(s, false), "{s}");
            }
        }
        assert!(!ambiguous_status(503, true));
        assert!(!ambiguous_status(429, false));
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert!(!never_sent(&reset));
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        assert!(never_sent(&refused));
    }

    /// backoff table within bounds, capped at 60 s.
    #[test]
    fn backoff_table() {
        let p = RetryPolicy::default();
        for n in 1..=4u32 {
            let lo = 0.8 * (2f64.powi(n as i32) - 1.0) * 0.8;
            let hi = 0.8 * (2f64.powi(n as i32) - 1.0) * 1.3;
            for j in [0.8, 1.0, 1.2999] {
                let d = p.backoff(n, j).as_secs_f64();
                assert!(d >= lo - 1e-9 && d < hi, "n={n} j={j} d={d}");
            }
        }
        assert_eq!(p.backoff(20, 1.0), Duration::from_secs(60));
        for _ in 0..100 {
            let j = jitter();
            assert!((0.8..1.3).contains(&j), "{j}");
        }
    }

    #[test]
    fn statuses_and_errors() {
        for s in [408, 429, 500, 502, 503, 504] {
            assert!(retryable_status(s));
        }
        for s in [400, 401, 403, 404, 409, 412] {
            assert!(!retryable_status(s));
        }
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert!(transient(&reset));
        let cert = std::io::Error::other("invalid peer certificate: UnknownIssuer");
        assert!(!transient(&cert));
    }
}
