//! Failover candidates for `create-pool` when Azure has no capacity or quota: which pools to
//! try, in which order, and what to try after a failure. Pure.
//!
//! The order follows SkyPilot's failover provisioner (`sky/provision/provisioner.py`,
//! `sky/backends/cloud_vm_ray_backend.py` `FailoverCloudErrorHandlerV2`): the size asked
//! first, then each fallback (or each ranked recommendation); a capacity failure in a
//! multi-zone request narrows to one zone at a time before moving to the next size, and a
//! spot capacity failure moves to on-demand when asked. A size preflight already proves
//! impossible (restricted SKU, too little quota) is skipped without a request.

use std::collections::{HashSet, VecDeque};

use serde::Serialize;

use super::agent_pool::{Deployment, PoolRequest, PoolSpec, SpecError};
use super::preflight::{Facts, PreflightFailure, SizeVerdict};
use super::{Plan, Step, StepKind};
use crate::catalog::Catalog;
use crate::domain::setting::{Setting, Words};

/// How one attempt ended (the JSON `outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttemptResult {
    /// The pool was created.
    Created,
    /// Azure had no capacity (AllocationFailed, ZonalAllocationFailed, SkuNotAvailable, …).
    Capacity,
    /// Not enough vCPU quota (Azure said so, or preflight proved it without a request).
    Quota,
    /// Preflight: the size is not offered or is restricted for the subscription there.
    Restricted,
    /// Any other failure: failover stops.
    Failed,
}

impl AttemptResult {
    /// The word shown in tables.
    pub fn word(self) -> &'static str {
        match self {
            AttemptResult::Created => "created",
            AttemptResult::Capacity => "capacity",
            AttemptResult::Quota => "quota",
            AttemptResult::Restricted => "restricted",
            AttemptResult::Failed => "failed",
        }
    }
}

/// What makes two attempts the same request: size, zones and priority.
pub type Key = (String, Vec<String>, bool);

/// The identity of a candidate: never send the same one twice.
pub fn key(spec: &PoolSpec) -> Key {
    let mut zones = spec.zones.clone();
    zones.sort();
    (spec.size.name.to_ascii_lowercase(), zones, spec.spot)
}

/// A size to fall back to, and the deployment it was recommended for (none for a size the user
/// named: a pool of it runs the count asked for, not another size's nodes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    pub size: String,
    pub deployment: Option<Deployment>,
}

impl Fallback {
    /// A size the user named.
    pub fn named(size: &str) -> Self {
        Fallback { size: size.to_owned(), deployment: None }
    }
}

/// The candidates in order: `req` as asked, then the same request with each of `fallbacks`
/// as its size and deployment. Every candidate is validated like `--vm-size` (a fallback the
/// pool's other flags rule out is a usage error, found before anything is sent).
pub fn candidates(catalog: &Catalog, req: &PoolRequest, fallbacks: &[Fallback]) -> Result<Vec<PoolSpec>, SpecError> {
    let mut out: Vec<PoolSpec> = Vec::new();
    let first = Fallback { size: req.vm_size.clone(), deployment: req.deployment.clone() };
    for Fallback { size, deployment } in std::iter::once(&first).chain(fallbacks) {
        let r = PoolRequest { vm_size: size.clone(), deployment: deployment.clone(), ..req.clone() };
        let spec = PoolSpec::validate(catalog, &r).map_err(|e| SpecError {
            message: if size == &req.vm_size {
                e.message
            } else {
                Words::plain(format!("fallback {size}: ")).then("", e.message)
            },
            ..e
        })?;
        if !out.iter().any(|s| key(s) == key(&spec)) {
            out.push(spec);
        }
    }
    Ok(out)
}

/// What to try right after `spec` failed with `outcome`, before the next candidate:
/// - a spot capacity failure with `fallback_on_demand`: the same size and zones on-demand;
/// - a capacity failure in several zones: each zone alone, in the order given.
///
/// A size preflight skips as restricted has none here: [`open_zones`] says which of its zones
/// are worth trying alone ([`Queue::skipped`]).
pub fn follow_ups(spec: &PoolSpec, outcome: AttemptResult, fallback_on_demand: bool) -> Vec<PoolSpec> {
    if outcome != AttemptResult::Capacity {
        return Vec::new();
    }
    if outcome == AttemptResult::Capacity && spec.spot && fallback_on_demand {
        let mut on_demand = spec.clone();
        on_demand.spot = false;
        on_demand.spot_max_price = None;
        on_demand.eviction_policy = None;
        return vec![on_demand];
    }
    if spec.zones.len() > 1 {
        return spec
            .zones
            .iter()
            .map(|z| {
                let mut one = spec.clone();
                one.zones = vec![z.clone()];
                one
            })
            .collect();
    }
    Vec::new()
}

/// The order failover tries candidates in: each size, zones and priority once (by [`key`]),
/// and after a failure its [`follow_ups`] before the next candidate.
#[derive(Debug, Clone)]
pub struct Queue {
    queue: VecDeque<PoolSpec>,
    tried: HashSet<Key>,
}

impl Queue {
    /// The candidates in order (the first is the pool as asked).
    pub fn new(candidates: Vec<PoolSpec>) -> Queue {
        Queue { queue: candidates.into(), tried: HashSet::new() }
    }

    /// The next candidate not tried yet.
    pub fn pop(&mut self) -> Option<PoolSpec> {
        while let Some(spec) = self.queue.pop_front() {
            if self.tried.insert(key(&spec)) {
                return Some(spec);
            }
        }
        None
    }

    /// `spec`'s PUT ended with `outcome`: its follow-ups go first.
    pub fn failed(&mut self, spec: &PoolSpec, outcome: AttemptResult, fallback_on_demand: bool) {
        self.first(follow_ups(spec, outcome, fallback_on_demand));
    }

    /// Preflight skipped `spec` with `outcome` on `facts`: a restricted multi-zone request is
    /// followed by each of its zones that preflight finds open, alone (never by the restricted
    /// ones, so a skipped size is one attempt, with the zones it was asked for).
    pub fn skipped(&mut self, spec: &PoolSpec, outcome: AttemptResult, facts: &Facts) -> Result<(), PreflightFailure> {
        if outcome == AttemptResult::Restricted {
            self.first(open_zones(spec, facts)?);
        }
        Ok(())
    }

    fn first(&mut self, next: Vec<PoolSpec>) {
        for (i, n) in next.into_iter().enumerate() {
            self.queue.insert(i, n);
        }
    }
}

/// For a request in several zones: each zone alone that preflight on `facts` does not find
/// restricted, in the order given (none when the size is restricted in the region or in
/// every zone asked).
pub fn open_zones(spec: &PoolSpec, facts: &Facts) -> Result<Vec<PoolSpec>, PreflightFailure> {
    if spec.zones.len() < 2 {
        return Ok(Vec::new());
    }
    let mut open = Vec::new();
    for one in spec.zones.iter().map(|z| PoolSpec { zones: vec![z.clone()], ..spec.clone() }) {
        if !matches!(preflight(&one, facts)?, Some((AttemptResult::Restricted, _))) {
            open.push(one);
        }
    }
    Ok(open)
}

/// Every pool a run may PUT, in the order it would: the candidates preflight does not skip
/// (on `facts`, when read), each followed by what a capacity failure leads to (the failure
/// with the most follow-ups; a quota failure has none). A real run sends a prefix of them, in
/// this order, skipping the follow-ups of attempts that failed otherwise; each PUT after the
/// first is sent only when the attempts before it failed.
pub fn possible_puts(
    candidates: Vec<PoolSpec>,
    facts: Option<&Facts>,
    fallback_on_demand: bool,
) -> Result<Vec<PoolSpec>, PreflightFailure> {
    let mut queue = Queue::new(candidates);
    let mut out = Vec::new();
    while let Some(spec) = queue.pop() {
        let skip = match facts {
            Some(f) => preflight(&spec, f)?.map(|(o, _)| (o, f)),
            None => None,
        };
        match skip {
            Some((outcome, f)) => queue.skipped(&spec, outcome, f)?,
            None => {
                queue.failed(&spec, AttemptResult::Capacity, fallback_on_demand);
                out.push(spec);
            }
        }
    }
    Ok(out)
}

/// The steps of attempt `n` (from 1), as a failover plan lists them: the pool's create PUT
/// and its wait, then, only when its operation fails for capacity or quota after Azure
/// accepted it, the DELETE of the pool this run created and the reads until it is gone. Every
/// attempt after the first is conditional; `max_attempts` caps how many PUTs are sent.
pub fn attempt_steps(spec: &PoolSpec, n: usize, max_attempts: Option<u32>) -> Vec<Step> {
    let zones = if spec.zones.is_empty() { String::new() } else { format!(" in zones {}", spec.zones.join(",")) };
    let spot = if spec.spot { " (spot)" } else { "" };
    let what = format!("attempt {n}, {}{zones}{spot}", spec.size.name);
    let p = super::pool::plan(spec, None);
    let (Some(put), Some(wait)) = (p.step(StepKind::CreatePool), p.step(StepKind::Await)) else { return vec![] };
    let mut put = put.clone().saying(format!("{what}: {}", put.purpose));
    if n > 1 {
        let cap = max_attempts.map(|m| format!(", and fewer than {m} PUT(s) were sent ({{0}})"));
        let when = "only if every attempt before it failed for capacity or quota";
        put = put.only_if(match cap {
            Some(cap) => Words::new(format!("{when}{cap}"), &[Setting::MaxAttempts]),
            None => Words::plain(when),
        });
    }
    let failed = format!("only if attempt {n}'s operation fails for capacity or quota after Azure accepted its PUT");
    let delete = super::pool::delete(spec).saying(format!("{what}: delete the pool this run created, which failed"));
    let gone = wait
        .clone()
        .saying(format!("{what}: read the pool until it is deleted"))
        .repeated("until Azure answers 404, before the next attempt");
    vec![
        put,
        wait.clone().saying(format!("{what}: {}", wait.purpose)),
        delete.only_if(failed.clone()),
        Step { when: Some(failed.into()), ..gone },
    ]
}

/// A failover plan: preflight's `reads`, then [`attempt_steps`] for each pool in `puts` (see
/// [`possible_puts`]).
pub fn plan(reads: Vec<Step>, puts: &[PoolSpec], max_attempts: Option<u32>) -> Plan {
    let mut steps = reads;
    for (n, spec) in puts.iter().enumerate() {
        steps.extend(attempt_steps(spec, n + 1, max_attempts));
    }
    Plan { steps }
}

/// A refusal's message as a reason: the reservation, SKU and quota checks name no setting in
/// their messages (only in their hints), so the text is the whole of it.
fn reason(message: Words) -> String {
    debug_assert!(message.is_plain(), "{message:?}");
    message.text
}

/// Preflight's word on one candidate, as an outcome and reason (`None`: go ahead). With a
/// capacity reservation group, a size it cannot hold is `restricted` too. A cluster without
/// its location is an error (no candidate is checked against an empty region).
pub fn preflight(spec: &PoolSpec, facts: &Facts) -> Result<Option<(AttemptResult, String)>, PreflightFailure> {
    if let Some(r) = &facts.reservation {
        let loc = super::preflight::cluster_location(facts)?;
        if let Err(refusal) = super::preflight::check_reservation(spec, r, &loc) {
            return Ok(Some((AttemptResult::Restricted, reason(refusal.message))));
        }
    }
    Ok(match super::preflight::size_verdict(spec, facts)? {
        SizeVerdict::Go => None,
        SizeVerdict::Restricted(r) => Some((AttemptResult::Restricted, reason(r.message))),
        SizeVerdict::Quota(r) => Some((AttemptResult::Quota, reason(r.message))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(f: impl FnOnce(&mut PoolRequest)) -> PoolRequest {
        let mut r = PoolRequest::example("Standard_NC24ads_A100_v4");
        f(&mut r);
        r
    }

    fn names(specs: &[PoolSpec]) -> Vec<(String, Vec<String>, bool)> {
        specs.iter().map(|s| (s.size.name.clone(), s.zones.clone(), s.spot)).collect()
    }

    #[test]
    fn candidates_are_the_size_then_each_fallback_once() {
        let c = Catalog::bundled().expect("catalog");
        let fallbacks = [Fallback::named("Standard_NC4as_T4_v3"), Fallback::named("Standard_NC24ads_A100_v4")];
        let got = candidates(&c, &req(|_| {}), &fallbacks).expect("valid");
        assert_eq!(
            names(&got),
            [("Standard_NC24ads_A100_v4".into(), vec![], false), ("Standard_NC4as_T4_v3".into(), vec![], false)]
        );
        let e = candidates(&c, &req(|r| r.mig_profile = Some("MIG1g".into())), &fallbacks[..1]).expect_err("no MIG");
        assert!(e.message.text.starts_with("fallback Standard_NC4as_T4_v3:"), "{:?}", e.message);
    }

    #[test]
    fn capacity_in_several_zones_narrows_zone_by_zone_and_spot_moves_on_demand() {
        let c = Catalog::bundled().expect("catalog");
        let zonal = &candidates(&c, &req(|r| r.zones = vec!["1,2,3".into()]), &[]).expect("valid")[0];
        let next = follow_ups(zonal, AttemptResult::Capacity, false);
        assert_eq!(next.iter().map(|s| s.zones.clone()).collect::<Vec<_>>(), [["1"], ["2"], ["3"]]);
        assert!(follow_ups(&next[0], AttemptResult::Capacity, false).is_empty(), "one zone has no narrower request");
        assert!(follow_ups(zonal, AttemptResult::Quota, false).is_empty(), "quota is not about zones");
        assert!(
            follow_ups(zonal, AttemptResult::Restricted, false).is_empty(),
            "preflight's skip decides (open_zones)"
        );
        let spot = &candidates(&c, &req(|r| r.spot = true), &[]).expect("valid")[0];
        let od = follow_ups(spot, AttemptResult::Capacity, true);
        assert_eq!(names(&od), [("Standard_NC24ads_A100_v4".into(), vec![], false)]);
        assert!(od[0].body()["properties"].get("scaleSetPriority").is_none());
        assert!(follow_ups(spot, AttemptResult::Capacity, false).is_empty());
    }

    #[test]
    fn preflight_marks_restricted_and_quota_short_sizes() {
        let c = Catalog::bundled().expect("catalog");
        let spec = &candidates(&c, &req(|r| r.count = Some(2)), &[]).expect("valid")[0];
        let facts = |restrictions: serde_json::Value, limit: i64| Facts {
            cluster: crate::resources::parse(
                &json!({"location": "eastus", "properties": {"provisioningState": "Succeeded"}}),
                "cluster",
            )
            .expect("cluster"),
            skus: crate::resources::parse_listed(&[
                json!({"resourceType": "virtualMachines", "name": "Standard_NC24ads_A100_v4",
                "family": "standardNCADSA100v4Family", "locationInfo": [{"location": "eastus", "zones": ["1"]}],
                "restrictions": restrictions}),
            ])
            .ok(),
            usages: crate::resources::parse_listed(&[
                json!({"name": {"value": "standardNCADSA100v4Family"}, "limit": limit, "currentValue": 0}),
            ])
            .ok(),
            ..Facts::default()
        };
        assert_eq!(preflight(spec, &facts(json!([]), 72)), Ok(None));
        let loc = json!([{"type": "Location", "values": ["eastus"], "reasonCode": "NotAvailableForSubscription"}]);
        let (o, why) = preflight(spec, &facts(loc, 72)).expect("checked").expect("restricted");
        assert_eq!(o, AttemptResult::Restricted);
        assert!(why.contains("NotAvailableForSubscription"), "{why}");
        // 24 vCPUs × (2 nodes + 1 surge) = 72 > 48.
        let (o, why) = preflight(spec, &facts(json!([]), 48)).expect("checked").expect("quota");
        assert_eq!(o, AttemptResult::Quota);
        assert!(why.contains("needs 72"), "{why}");
        let mut nowhere = facts(json!([]), 72);
        nowhere.cluster.location = None;
        nowhere.cluster.name = Some("c1".into());
        let e = preflight(spec, &nowhere).expect_err("a cluster without its location");
        assert!(e.message.text.contains("cluster c1 has no location"), "{e:?}");
    }
}
