//! Creating a pool with failover: try the planner's candidates one at a time until one is
//! created, Azure fails in a way no other candidate would fix, or the attempts run out.
//!
//! Rules: preflight is read once (cluster, pool, SKUs, usages); a pool that exists at the
//! start is left to the plain `create` (no failover, never deleted). Candidates that preflight
//! proves impossible are skipped without a request. One PUT at a time, and never the same
//! size, zones and priority twice. After a capacity or quota failure of a pool this run
//! created (the PUT was accepted, then the operation failed), the pool is deleted and its
//! absence confirmed before the next PUT under the same name. Any other failure stops at once.

use std::time::Instant;

use reqwest::Method;
use serde::Serialize;
use serde_json::Value;

use super::pool::{self, CreateError, CreateOptions, CreateOutcome};
use super::Progress;
use crate::arm::error::FailureClass;
use crate::arm::lro;
use crate::arm::{ArmClient, ArmError};
use crate::catalog::Catalog;
use crate::plan::agent_pool::PoolSpec;
use crate::plan::failover::{self as plan, AttemptResult};
use crate::plan::preflight::{self, Facts, PreflightFailure};
use crate::plan::StepKind;

/// How far to go.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// Most PUTs to send (None: every candidate).
    pub max_attempts: Option<u32>,
    /// After a spot capacity failure, try the same size on-demand.
    pub fallback_on_demand: bool,
}

/// One attempt (or one candidate preflight skipped).
#[derive(Debug, Clone, Serialize)]
pub struct Attempt {
    pub vm_size: String,
    pub zones: Vec<String>,
    pub spot: bool,
    pub outcome: AttemptResult,
    /// The ARM error code (None for created, and for preflight's own verdicts).
    pub code: Option<String>,
    pub message: String,
}

impl Attempt {
    fn new(spec: &PoolSpec, outcome: AttemptResult, code: Option<String>, message: String) -> Self {
        Attempt { vm_size: spec.size.name.clone(), zones: spec.zones.clone(), spot: spec.spot, outcome, code, message }
    }
}

/// A candidate with preflight's verdict, for `--dry-run`.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub vm_size: String,
    pub zones: Vec<String>,
    pub spot: bool,
    /// `go`, `restricted`, `quota`, or `not checked` (no preflight reads).
    pub preflight: String,
    pub reason: Option<String>,
}

/// What happened.
#[derive(Debug)]
pub enum Failover {
    /// The pool existed already: the plain create ran (no failover).
    Existing(CreateOutcome),
    /// `--dry-run`: the candidates in order, with preflight's verdicts; nothing written.
    DryRun { candidates: Vec<Candidate>, plan: crate::plan::Plan, location: Option<String> },
    /// Every attempt, and the pool created (spec, pool, location) if one was.
    Done { attempts: Vec<Attempt>, created: Option<Box<Created>>, location: Option<String> },
}

/// The pool failover created, and the candidate that made it.
#[derive(Debug)]
pub struct Created {
    pub spec: PoolSpec,
    pub pool: Value,
}

/// A failure that stopped failover, with the attempts before it.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct Stopped {
    #[source]
    pub error: CreateError,
    pub attempts: Vec<Attempt>,
}

/// Run failover over `candidates` (the first is the pool as asked).
pub async fn create(
    client: &ArmClient,
    catalog: &Catalog,
    candidates: Vec<PoolSpec>,
    opts: &CreateOptions,
    policy: Policy,
    progress: &(dyn Fn(&str) + Sync),
    started: &Progress,
) -> Result<Failover, Stopped> {
    let stop = |error: CreateError, attempts: &[Attempt]| Stopped { error, attempts: attempts.to_vec() };
    let Some(first) = candidates.first().cloned() else {
        return Ok(Failover::Done { attempts: vec![], created: None, location: opts.location.clone() });
    };
    let started_at = Instant::now();
    let facts = if opts.skip_preflight || (opts.dry_run && !client.has_credentials()) {
        None
    } else {
        progress("preflight: reading cluster, pool, SKUs and quota");
        match pool::read_facts(client, &first, opts).await {
            Ok(f) => Some(f),
            // A dry run whose credentials fail plans from the flags alone, as create-pool's does.
            Err(ArmError::Auth { .. }) if opts.dry_run => None,
            Err(e) => return Err(stop(e.into(), &[])),
        }
    };
    if facts.as_ref().is_some_and(|f| f.pool.is_some()) {
        // The pool is there already: the plain create decides (identical, or refused); it
        // reads nothing again (the facts are the run's).
        let one = CreateOptions { skip_preflight: false, ..opts.clone() };
        return pool::create(client, catalog, &first, &one, progress, started)
            .await
            .map(Failover::Existing)
            .map_err(|e| stop(e, &[]));
    }
    let location = facts.as_ref().and_then(|f| f.cluster.location().ok()).or_else(|| opts.location.clone());
    // Each candidate as create-pool makes it: with the GPU Operator's no-driver label when the
    // cluster's pools (read by preflight) leave their driver to the operator.
    let mut candidates = candidates;
    if facts.is_some() {
        for c in &mut candidates {
            match pool::driver_label(client, catalog, c, opts).await {
                Ok(Some((labelled, note))) => {
                    progress(&note);
                    *c = labelled;
                }
                Ok(None) => {}
                Err(e) => return Err(stop(e.into(), &[])),
            }
        }
    }
    if let Some(f) = &facts {
        preflight::check_cluster(catalog, &first, f).map_err(|r| stop(r.into(), &[]))?;
    }
    if opts.dry_run {
        return dry_run(candidates, facts.as_ref(), location, policy).map_err(|r| stop(r.into(), &[]));
    }
    let deadline = started_at + opts.timeout;
    let mut run =
        Run { client, facts: facts.as_ref(), opts, policy, progress, started, deadline, attempts: Vec::new() };
    match run.attempt_all(candidates).await {
        Ok(created) => Ok(Failover::Done { attempts: run.attempts, created, location }),
        Err(e) => Err(stop(e, &run.attempts)),
    }
}

fn dry_run(
    candidates: Vec<PoolSpec>,
    facts: Option<&Facts>,
    location: Option<String>,
    policy: Policy,
) -> Result<Failover, PreflightFailure> {
    let list = candidates
        .iter()
        .map(|c| {
            let (verdict, reason) = match facts.map(|f| plan::preflight(c, f)).transpose()? {
                None => ("not checked".to_owned(), None),
                Some(None) => ("go".to_owned(), None),
                Some(Some((o, why))) => (o.word().to_owned(), Some(why)),
            };
            Ok(Candidate {
                vm_size: c.size.name.clone(),
                zones: c.zones.clone(),
                spot: c.spot,
                preflight: verdict,
                reason,
            })
        })
        .collect::<Result<_, PreflightFailure>>()?;
    let mut reads = pool::plan(&candidates[0], location.as_deref()).steps;
    reads.retain(|s| s.read_only && s.kind != StepKind::Await);
    // Every PUT a real run may send, in its order, as the same queue decides them.
    let puts = plan::possible_puts(candidates, facts, policy.fallback_on_demand)?;
    Ok(Failover::DryRun { candidates: list, plan: plan::plan(reads, &puts, policy.max_attempts), location })
}

/// One failover run's state.
struct Run<'a> {
    client: &'a ArmClient,
    facts: Option<&'a Facts>,
    opts: &'a CreateOptions,
    policy: Policy,
    progress: &'a (dyn Fn(&str) + Sync),
    started: &'a Progress,
    deadline: Instant,
    attempts: Vec<Attempt>,
}

impl Run<'_> {
    /// Try candidates in order (follow-ups first) until one is created.
    async fn attempt_all(&mut self, candidates: Vec<PoolSpec>) -> Result<Option<Box<Created>>, CreateError> {
        // The same queue the dry run lists the possible PUTs with (`plan::possible_puts`).
        let mut queue = plan::Queue::new(candidates);
        let mut puts = 0u32;
        while let Some(spec) = queue.pop() {
            let skip = match self.facts {
                Some(f) => plan::preflight(&spec, f)?.map(|(o, w)| (o, w, f)),
                None => None,
            };
            if let Some((outcome, why, f)) = skip {
                (self.progress)(&format!("skipping {}: {why}", spec.size.name));
                self.attempts.push(Attempt::new(&spec, outcome, None, why));
                queue.skipped(&spec, outcome, f)?;
                continue;
            }
            if self.policy.max_attempts.is_some_and(|m| puts >= m) {
                break;
            }
            puts += 1;
            let (outcome, code, message, pool) = self.attempt(&spec).await?;
            self.attempts.push(Attempt::new(&spec, outcome, code, message));
            if let Some(pool) = pool {
                return Ok(Some(Box::new(Created { spec, pool })));
            }
            queue.failed(&spec, outcome, self.policy.fallback_on_demand);
        }
        Ok(None)
    }

    /// One PUT and its wait: (outcome, code, message, the pool when created). A failure that
    /// is not about capacity or quota is returned as the error.
    async fn attempt(
        &self,
        spec: &PoolSpec,
    ) -> Result<(AttemptResult, Option<String>, String, Option<Value>), CreateError> {
        let zones =
            if spec.zones.is_empty() { "any zone".to_owned() } else { format!("zones {}", spec.zones.join(",")) };
        (self.progress)(&format!("trying {} ({zones}{})", spec.size.name, if spec.spot { ", spot" } else { "" }));
        let p = pool::plan(spec, None);
        let Some(put) = p.step(StepKind::CreatePool) else {
            return Err(ArmError::Config { message: "no create step in the plan".into(), hint: None }.into());
        };
        let op = pool::operation(spec, Instant::now(), self.deadline)?;
        let sent = pool::put_once(self.client, spec, put, &op, self.progress, self.started).await;
        self.opts.facts.changed(&crate::plan::cluster_path(&spec.subscription, &spec.resource_group, &spec.cluster));
        let accepted = match sent {
            Ok(a) => a,
            Err(CreateError::Arm(e)) => {
                return match classify(&e, false) {
                    Some((o, c, m)) => Ok((o, Some(c), m, None)),
                    None => Err(e.into()),
                }
            }
            Err(e) => return Err(e),
        };
        let waited = match accepted {
            Some(resp) => lro::wait(self.client, resp, &Method::PUT, &op, self.progress).await,
            None => lro::wait_resource(self.client, &op, self.progress).await,
        };
        match waited {
            Ok(pool) => {
                // The state Azure returned, never assumed.
                let state =
                    lro::provisioning_state(&pool).unwrap_or_else(|| "of a state Azure did not return".to_owned());
                Ok((AttemptResult::Created, None, format!("pool {} is {state}", spec.name), Some(pool)))
            }
            Err(e) => {
                let Some((outcome, code, message)) = classify(&e, true) else { return Err(e.into()) };
                // This run's PUT created the pool (If-None-Match: *) and it failed: remove it
                // before the next attempt under the same name.
                self.started.clear();
                pool::delete_and_wait_gone(self.client, spec, &op, self.progress).await?;
                Ok((outcome, Some(code), message, None))
            }
        }
    }
}

/// Capacity or quota: (outcome, code, message); `None` for anything else.
fn classify(e: &ArmError, accepted: bool) -> Option<(AttemptResult, String, String)> {
    let outcome = match e.class() {
        FailureClass::Capacity => AttemptResult::Capacity,
        FailureClass::Quota => AttemptResult::Quota,
        FailureClass::Other => return None,
    };
    let body = e.body()?;
    let code = body.deciding_code().to_owned();
    let all = {
        let mut v = vec![body];
        let mut i = 0;
        while i < v.len() {
            let d: Vec<&crate::arm::ErrorBody> = v[i].details.iter().collect();
            v.extend(d);
            i += 1;
        }
        v
    };
    let msg = all.iter().find(|e| e.code == code).map_or(body.message.as_str(), |e| e.message.as_str());
    let how = if accepted { "operation failed" } else { "PUT refused" };
    Some((outcome, code, format!("{how}: {}", crate::arm::redact::sanitize(msg))))
}
