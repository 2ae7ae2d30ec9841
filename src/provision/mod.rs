//! The executor: reads the facts a plan needs, then sends the plan's writes and waits for
//! them. It never decides what to create (that is `plan`); it never deletes anything.

pub mod cluster_ops;
pub mod features;
pub mod kaito;
pub mod operator;
pub mod pool;
pub mod prices;
pub mod runcommand;

use std::sync::{Arc, Mutex};

/// What the executor has changed in Azure so far (for Ctrl-C messages).
#[derive(Debug, Clone, Default)]
pub struct Progress {
    inner: Arc<Mutex<Started>>,
}

/// The write that Azure accepted, if any.
#[derive(Debug, Clone, Default)]
pub struct Started {
    /// Resource id / path of what is being changed.
    pub resource: Option<String>,
    /// The command that resumes waiting.
    pub resume: Option<String>,
    /// The operation's abort URL, when the user asked for `--abort-on-interrupt`.
    pub abort_url: Option<String>,
}

impl Progress {
    /// Record that a write was accepted.
    pub fn accepted(&self, resource: &str, resume: &str) {
        if let Ok(mut s) = self.inner.lock() {
            s.resource = Some(resource.to_owned());
            s.resume = Some(resume.to_owned());
        }
    }

    /// Record the abort URL to POST on Ctrl-C.
    pub fn abort_with(&self, url: &str) {
        if let Ok(mut s) = self.inner.lock() {
            s.abort_url = Some(url.to_owned());
        }
    }

    /// What was accepted so far.
    pub fn started(&self) -> Started {
        self.inner.lock().map(|s| s.clone()).unwrap_or_default()
    }
}
