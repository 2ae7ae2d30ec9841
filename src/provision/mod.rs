//! The executor: reads the facts a plan needs, then sends the plan's writes and waits for
//! them. It never decides what to create (that is `plan`); it deletes nothing but, during failover, a pool the same run created that failed.

pub mod cluster_ops;
pub mod facts;
pub mod failover;
pub mod features;
pub mod kaito;
pub mod operator;
pub mod pool;
pub mod prices;
pub mod quota;
pub mod reconcile;
pub mod runcommand;
pub mod wire;

use std::sync::{Arc, Mutex};

use crate::arm::{ArmClient, ArmError};
use crate::domain::setting::Words;
use crate::plan::{Plan, StepKind};
use crate::resources::{AgentPool, AsRead, ManagedCluster};

/// Read a cluster and its agent pools, at once, through the run's facts (each is read once
/// per run, whichever step asks first).
pub async fn read_cluster_and_pools(
    client: &ArmClient,
    facts: &facts::Store,
    sub: &str,
    rg: &str,
    cluster: &str,
) -> Result<(AsRead<ManagedCluster>, Vec<AsRead<AgentPool>>), ArmError> {
    let (c, pools) = tokio::join!(facts.cluster(client, sub, rg, cluster), facts.pools(client, sub, rg, cluster));
    Ok((c?, pools?))
}

/// The plan's first step of `kind`; a plan without it is a bug, reported (never a panic).
pub fn step(plan: &Plan, kind: StepKind) -> Result<&crate::plan::Step, ArmError> {
    plan.step(kind)
        .ok_or_else(|| ArmError::Config { message: format!("internal: the plan has no {kind:?} step"), hint: None })
}

/// What the executor has changed in Azure so far (for Ctrl-C messages).
#[derive(Debug, Clone, Default)]
pub struct Progress {
    inner: Arc<Mutex<Started>>,
    /// Set by [`Progress::child`]: the parent's state, and what it reports, once this one
    /// sends a write.
    parent: Option<(Arc<Mutex<Started>>, String, Words)>,
}

/// The write in flight or accepted, if any.
#[derive(Debug, Clone, Default)]
pub struct Started {
    /// Resource id / path of what is being changed.
    pub resource: Option<String>,
    /// The command that resumes waiting (or checks the state), naming settings by id.
    pub resume: Option<Words>,
    /// True while the write is sent but not answered (or its answer was lost): Azure may or
    /// may not have accepted it.
    pub in_flight: bool,
    /// The operation's abort POST, when the user asked for `--abort-on-interrupt`.
    pub abort: Option<crate::plan::Step>,
}

impl Progress {
    /// A progress of its own for one of several operations: its `clear` never erases what
    /// another sent, and its first write marks this (the parent) as changing `resource`,
    /// resumed by `resume`. Until then the parent still says nothing was sent, so a Ctrl-C
    /// during reads says "nothing was changed".
    pub fn child(&self, resource: &str, resume: impl Into<Words>) -> Progress {
        Progress { inner: Arc::default(), parent: Some((self.inner.clone(), resource.to_owned(), resume.into())) }
    }

    /// Record that a write is about to be sent.
    pub fn sending(&self, resource: &str, resume: impl Into<Words>) {
        if let Ok(mut s) = self.inner.lock() {
            s.resource = Some(resource.to_owned());
            s.resume = Some(resume.into());
            s.in_flight = true;
        }
        if let Some((parent, what, resume)) = &self.parent {
            if let Ok(mut s) = parent.lock() {
                // Once any write went out, the parent says changes may have been accepted.
                s.resource = Some(what.clone());
                s.resume = Some(resume.clone());
                s.in_flight = true;
            }
        }
    }

    /// Record that a write was accepted.
    pub fn accepted(&self, resource: &str, resume: impl Into<Words>) {
        if let Ok(mut s) = self.inner.lock() {
            s.resource = Some(resource.to_owned());
            s.resume = Some(resume.into());
            s.in_flight = false;
        }
        if let Some((parent, what, resume)) = &self.parent {
            if let Ok(mut s) = parent.lock() {
                if s.resource.is_none() {
                    s.resource = Some(what.clone());
                    s.resume = Some(resume.clone());
                }
            }
        }
    }

    /// Record that the write was not applied: nothing has changed.
    pub fn clear(&self) {
        if let Ok(mut s) = self.inner.lock() {
            *s = Started::default();
        }
    }

    /// Record the abort POST to send on Ctrl-C.
    pub fn abort_with(&self, step: &crate::plan::Step) {
        if let Ok(mut s) = self.inner.lock() {
            s.abort = Some(step.clone());
        }
    }

    /// What was accepted so far.
    pub fn started(&self) -> Started {
        self.inner.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_marks_its_parent_only_when_it_writes() {
        let parent = Progress::default();
        let a = parent.child("pool a, b in cluster c", "aksgpu apply -f f.yaml");
        let b = parent.child("pool a, b in cluster c", "aksgpu apply -f f.yaml");
        assert!(parent.started().resource.is_none(), "reads alone change nothing");
        a.sending("/pools/a", "az aks nodepool show");
        b.clear();
        let s = parent.started();
        assert!(s.in_flight && s.resume == Some(Words::plain("aksgpu apply -f f.yaml")), "{s:?}");
    }
}
