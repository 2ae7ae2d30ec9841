//! Redaction for everything the client logs or shows: URLs keep only `api-version` in their
//! query, headers print through an allow-list, and JSON-ish text hides token-like values.

use reqwest::Url;

/// `path?api-version=…` with every other query value replaced (signed operation URLs carry
/// `t=&c=&s=&h=` signatures).
pub fn url(u: &Url) -> String {
    let mut out = u.path().to_owned();
    let pairs: Vec<String> = u
        .query_pairs()
        .map(|(k, v)| if k == "api-version" { format!("{k}={v}") } else { format!("{k}=REDACTED") })
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

/// A header value for logs: allow-listed headers as they are, the rest `REDACTED`.
pub fn header(name: &str, value: &str) -> String {
    if SAFE_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
        value.to_owned()
    } else {
        "REDACTED".to_owned()
    }
}

const SECRET_KEYS: &[&str] =
    &["accesstoken", "access_token", "secret", "password", "clienttoken", "clustertoken", "token"];

/// Hide values of secret-looking JSON keys and bearer tokens in free text.
pub fn body(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let lower = text.to_ascii_lowercase();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < text.len() {
        let mut matched = false;
        for key in SECRET_KEYS {
            let pat = format!("\"{key}\"");
            if lower[i..].starts_with(&pat) {
                // Copy the key, then skip to the value and replace it.
                out.push_str(&text[i..i + pat.len()]);
                let mut j = i + pat.len();
                while j < text.len() && (bytes[j] == b' ' || bytes[j] == b':') {
                    out.push(bytes[j] as char);
                    j += 1;
                }
                if j < text.len() && bytes[j] == b'"' {
                    let end = text[j + 1..].find('"').map_or(text.len(), |e| j + 1 + e + 1);
                    out.push_str("\"REDACTED\"");
                    i = end;
                } else {
                    i = j;
                }
                matched = true;
                break;
            }
        }
        if !matched {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    text_bearer(&out)
}

/// Hide `Bearer …` tokens and JWT-looking strings in free text.
pub fn text(s: &str) -> String {
    text_bearer(s)
}

fn text_bearer(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let looks_jwt = w.starts_with("eyJ") && w.matches('.').count() >= 2;
            if looks_jwt {
                "REDACTED"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
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
        let b = body(r#"{"accessToken": "abc", "other": "keep", "clusterToken":"zzz"}"#);
        assert!(!b.contains("abc") && !b.contains("zzz") && b.contains("keep"), "{b}");
        assert_eq!(text("token eyJhbGc.eyJzdWI.sig here"), "token REDACTED here");
    }
}
