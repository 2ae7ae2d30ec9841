//! Redaction for everything the process shows: one pass that every text leaving the process
//! goes through (`output` applies it to stdout, errors, hints, notes, progress and `-v` logs).
//!
//! It removes:
//! - every secret this process knows: tokens as they are acquired (`register`, called by
//!   `auth::Secret::new`), the clusterToken, and the values of `AZURE_CLIENT_SECRET`,
//!   `AKSGPU_ACCESS_TOKEN` and `AKSGPU_CLUSTER_TOKEN`;
//! - `Bearer …` credentials and JWT-shaped strings (`eyJ….….…`), whoever's they are;
//! - on stderr also: the values of secret-looking JSON keys (`"accessToken": "…"`) and every
//!   query parameter of a URL except `api-version` (ARM's signed operation URLs carry
//!   `t=&c=&s=&h=`, storage SAS URLs `sig=&se=&skoid=…`).
//!
//! Stdout keeps URL queries and JSON keys (plans print a `clusterToken` placeholder; catalog
//! sources are documentation links), but never a secret value.

use std::borrow::Cow;

use reqwest::Url;

/// What a removed value is replaced with.
pub const MASK: &str = "REDACTED";

pub use crate::secret::register;
use crate::secret::MIN_SECRET_LEN;

/// Environment variables whose values are secrets.
const SECRET_VARS: &[&str] = &["AZURE_CLIENT_SECRET", "AKSGPU_ACCESS_TOKEN", "AKSGPU_CLUSTER_TOKEN"];

/// The text without control characters (terminal escapes), newlines kept: server text is
/// never allowed to drive the terminal.
pub fn sanitize(text: &str) -> String {
    text.chars().filter(|c| !c.is_control() || *c == '\n').collect()
}

fn known_secrets() -> Vec<String> {
    let mut v: Vec<String> = crate::secret::registered();
    for k in SECRET_VARS {
        if let Ok(x) = std::env::var(k) {
            let x = x.trim();
            if x.len() >= MIN_SECRET_LEN {
                v.push(x.to_owned());
            }
        }
    }
    // Longest first, so a secret that contains another is removed whole.
    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
    v
}

/// `path?api-version=…` with every other query value replaced (signed operation URLs carry
/// `t=&c=&s=&h=` signatures).
pub fn url(u: &Url) -> String {
    let mut out = u.path().to_owned();
    let pairs: Vec<String> = u
        .query_pairs()
        .map(|(k, v)| if k == "api-version" { format!("{k}={v}") } else { format!("{k}={MASK}") })
        .collect();
    if !pairs.is_empty() {
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

const SAFE_HEADERS: &[&str] = &[
    "content-type",
    "accept",
    "if-match",
    "if-none-match",
    "x-ms-client-request-id",
    "x-ms-correlation-request-id",
    "x-ms-request-id",
    "retry-after",
    "location",
    "azure-asyncoperation",
];

/// A header value for logs: allow-listed headers with their URLs' queries stripped, the rest
/// `REDACTED`.
pub fn header(name: &str, value: &str) -> String {
    if SAFE_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
        text(value)
    } else {
        MASK.to_owned()
    }
}

/// The full pass, for server text (bodies, messages, logs); the same as [`text`].
pub fn body(text_in: &str) -> String {
    text(text_in)
}

/// The full pass for stderr: [`secrets`], then secret-looking JSON values and every URL query
/// parameter except `api-version`.
pub fn text(s: &str) -> String {
    url_queries(&json_keys(&secrets(s)))
}

/// The pass for stdout: known secrets, `Bearer …` credentials and JWT-shaped strings. Text with
/// nothing to hide is passed through without a copy (results can be tens of kilobytes).
pub fn secrets(s: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(s);
    for k in known_secrets() {
        if out.contains(&k) {
            out = Cow::Owned(out.replace(&k, MASK));
        }
    }
    if memchr::memmem::find(out.as_bytes(), b"eyJ").is_some() {
        out = Cow::Owned(jwts(&out));
    }
    if mentions_bearer(out.as_bytes()) {
        out = Cow::Owned(bearer(&out));
    }
    out
}

/// "bearer" in any case, found with a vectorised scan for its first letter.
fn mentions_bearer(b: &[u8]) -> bool {
    memchr::memchr2_iter(b'b', b'B', b).any(|i| b.get(i..i + 6).is_some_and(|w| w.eq_ignore_ascii_case(b"bearer")))
}

fn is_b64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// `eyJ<header>.<payload>.<signature>` (a JWT's header is base64url JSON, so starts `eyJ`).
fn jwts(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = s[i..].find("eyJ") {
        let start = i + off;
        let mut end = start;
        while end < b.len() && (is_b64url(b[end]) || b[end] == b'.' || b[end] == b'=') {
            end += 1;
        }
        let run = &s[start..end];
        let starts_word = start == 0 || !(is_b64url(b[start - 1]) || b[start - 1] == b'.');
        if starts_word && run.trim_end_matches('.').matches('.').count() >= 2 {
            out.push_str(&s[copied..start]);
            out.push_str(MASK);
            copied = end;
        }
        i = end.max(start + 3);
    }
    out.push_str(&s[copied..]);
    out
}

fn is_token68(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b)
}

/// `Bearer <credential>` in any case. A credential has 8+ characters with a digit or a
/// symbol, or 20+ characters, so prose ("a bearer token") stays as it is.
fn bearer(s: &str) -> String {
    let b = s.as_bytes();
    let lower = s.to_ascii_lowercase();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = lower[i..].find("bearer") {
        let at = i + off;
        let mut j = at + "bearer".len();
        i = j;
        if at > 0 && b[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t' || b[j] == b':' || b[j] == b'=') {
            j += 1;
        }
        let start = j;
        while j < b.len() && is_token68(b[j]) {
            j += 1;
        }
        let cred = &s[start..j];
        let credential_like = cred.len() >= 20
            || (cred.len() >= 8 && cred.bytes().any(|c| c.is_ascii_digit() || b"-._~+/=".contains(&c)));
        if start > at + "bearer".len() && credential_like && cred != MASK {
            out.push_str(&s[copied..start]);
            out.push_str(MASK);
            copied = j;
            i = j;
        }
    }
    out.push_str(&s[copied..]);
    out
}

const SECRET_KEYS: &[&str] = &[
    "accesstoken",
    "access_token",
    "refresh_token",
    "refreshtoken",
    "id_token",
    "client_secret",
    "clientsecret",
    "secret",
    "password",
    "clienttoken",
    "clustertoken",
    "token",
    "authorization",
];

/// The string values of secret-looking JSON keys (`"clusterToken": "…"`).
fn json_keys(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = lower[i..].find('"') {
        let q = i + off;
        i = q + 1;
        let rest = &lower[q + 1..];
        let Some(key) = SECRET_KEYS.iter().find(|k| rest.starts_with(**k) && rest[k.len()..].starts_with('"')) else {
            continue;
        };
        let mut j = q + key.len() + 2;
        while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b':') {
            j += 1;
        }
        if j >= bytes.len() || bytes[j] != b'"' || !text[q + key.len() + 2..j].contains(':') {
            continue;
        }
        // The value runs to the next unescaped quote.
        let mut end = j + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let end = end.min(bytes.len());
        out.push_str(&text[copied..j]);
        out.push('"');
        out.push_str(MASK);
        out.push('"');
        copied = (end + 1).min(bytes.len());
        i = copied;
    }
    out.push_str(&text[copied..]);
    out
}

fn ends_value(b: u8) -> bool {
    b.is_ascii_whitespace() || b"&#\"'<>`)\\".contains(&b)
}

/// Every `?k=v&k=v` query: values replaced except `api-version`'s.
fn url_queries(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = s[i..].find('?') {
        let mut j = i + off + 1;
        i = j;
        // Parameters follow while they look like `key=value`.
        loop {
            let key_start = j;
            while j < b.len() && !ends_value(b[j]) && b[j] != b'=' {
                j += 1;
            }
            if j >= b.len() || b[j] != b'=' || j == key_start {
                break;
            }
            let key = s[key_start..j].trim_start_matches("amp;");
            j += 1;
            let value_start = j;
            while j < b.len() && !ends_value(b[j]) {
                j += 1;
            }
            if !key.eq_ignore_ascii_case("api-version") && j > value_start && &s[value_start..j] != MASK {
                out.push_str(&s[copied..value_start]);
                out.push_str(MASK);
                copied = j;
            }
            i = j;
            if j < b.len() && b[j] == b'&' {
                j += 1;
            } else {
                break;
            }
        }
    }
    out.push_str(&s[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keep_only_api_version() {
        let u = Url::parse("https://m/x/operations/1?api-version=2016-03-30&t=abc&s=sig").expect("url");
        assert_eq!(url(&u), "/x/operations/1?api-version=2016-03-30&t=REDACTED&s=REDACTED");
    }

    #[test]
    fn headers_and_bodies() {
        assert_eq!(header("Authorization", "Bearer x"), "REDACTED");
        assert_eq!(header("x-ms-request-id", "r1"), "r1");
        assert_eq!(header("Location", "https://m/op?api-version=1&sig=abc"), "https://m/op?api-version=1&sig=REDACTED");
        let b = body(r#"{"accessToken": "abc", "other": "keep", "clusterToken":"zzz"}"#);
        assert!(!b.contains("abc") && !b.contains("zzz") && b.contains("keep"), "{b}");
        assert_eq!(text("token eyJhbGc.eyJzdWI.sig here"), "token REDACTED here");
        // An escaped quote does not end the value early.
        assert_eq!(body(r#"{"password":"a\"b","x":1}"#), r#"{"password":"REDACTED","x":1}"#);
    }

    #[test]
    fn registered_and_environment_secrets_go() {
        register("s3cr3t-value-registered");
        register("abc"); // too short to register
        let s = secrets("x s3cr3t-value-registered y abc");
        assert_eq!(s, "x REDACTED y abc");
        // A token is registered the moment it is wrapped (what every credential does on
        // acquisition), without anyone calling `register`.
        let minted = crate::arm::auth::Secret::new("minted-0123456789");
        assert_eq!(secrets(&format!("got {} back", minted.expose())), "got REDACTED back");
    }

    #[test]
    fn bearer_and_jwts_anywhere() {
        assert_eq!(
            secrets("header was 'Authorization: Bearer fake-token-7f3c9a' (echo)"),
            "header was 'Authorization: Bearer REDACTED' (echo)"
        );
        assert_eq!(secrets("BEARER abcdefghijklmnopqrstuvwxyz"), "BEARER REDACTED");
        // Prose stays.
        assert_eq!(secrets("a pre-minted bearer token"), "a pre-minted bearer token");
        assert_eq!(secrets("bearer authentication"), "bearer authentication");
        assert_eq!(secrets(r#"{"t":"eyJ0eXAi.eyJhdWQi.c2ln"}"#), r#"{"t":"REDACTED"}"#);
        assert_eq!(secrets("<p>eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.sig</p>"), "<p>REDACTED</p>");
        // Not a JWT: one dot, or inside a word.
        assert_eq!(secrets("eyJabc.def and keyJa.b.c"), "eyJabc.def and keyJa.b.c");
    }

    #[test]
    fn url_queries_in_free_text() {
        let t = "error sending request for url (https://h/x/operations/1?api-version=2016-03-30&t=tt&c=cc&s=ss&h=hh)";
        assert_eq!(
            text(t),
            "error sending request for url (https://h/x/operations/1?api-version=2016-03-30&t=REDACTED&c=REDACTED&s=REDACTED&h=REDACTED)"
        );
        let sas = r#"see "https://acct.blob.core.windows.net/c/b?sv=1&se=2026&skoid=k&sig=abc%2B" now"#;
        assert_eq!(
            text(sas),
            r#"see "https://acct.blob.core.windows.net/c/b?sv=REDACTED&se=REDACTED&skoid=REDACTED&sig=REDACTED" now"#
        );
        assert_eq!(text("<a href=\"/p?sig=x&amp;api-version=1\">"), "<a href=\"/p?sig=REDACTED&amp;api-version=1\">");
        // Questions are not queries; redaction is idempotent.
        assert_eq!(text("is it ok? yes"), "is it ok? yes");
        let once = text("/p?api-version=1&sig=x");
        assert_eq!(text(&once), once);
        // Non-ASCII text survives.
        assert_eq!(text("prix: 3 € ?é=ü"), "prix: 3 € ?é=REDACTED");
    }
}
