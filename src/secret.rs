//! Secrets, at the domain layer: a value that is never printed, and the registry of every secret
//! this process knows, which the one redaction pass (`arm::redact`) removes from all output.
//! Plans hold secrets (a cluster token in a runCommand body) without importing the HTTP layer.

use std::fmt;
use std::sync::Mutex;

/// Shorter values are not registered: replacing them would garble ordinary text, and no
/// credential is that short.
pub const MIN_SECRET_LEN: usize = 6;

static REGISTRY: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Remember a secret so that no output ever shows it.
pub fn register(secret: &str) {
    let s = secret.trim();
    if s.len() < MIN_SECRET_LEN {
        return;
    }
    if let Ok(mut r) = REGISTRY.lock() {
        if !r.iter().any(|x| x == s) {
            r.push(s.to_owned());
        }
    }
}

/// Every registered secret.
pub fn registered() -> Vec<String> {
    REGISTRY.lock().map(|r| r.clone()).unwrap_or_default()
}

/// A secret string: never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wrap a secret.
    pub fn new(s: impl Into<String>) -> Self {
        let s = s.into();
        register(&s); // so that no output ever shows it
        Self(s)
    }

    /// The value, for the Authorization header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(REDACTED)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("REDACTED")
    }
}
