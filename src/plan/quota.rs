//! vCPU quota: what a family has left, how many nodes of a size still fit, and the
//! Microsoft.Quota request that raises a limit. Pure.
//!
//! Compute quota lives at the scope `subscriptions/{sub}/providers/Microsoft.Compute/
//! locations/{region}`; its resource names are the usage names (`standardNCADSA100v4Family`,
//! `cores`). A new limit is a PUT of `{properties: {limit: {limitObjectType: LimitValue,
//! value}, name: {value}}}` on `…/providers/Microsoft.Quota/quotas/{family}` (Microsoft.Quota
//! `quota.json` 2025-09-01, example `putComputeOneSkuQuotaRequest.json`); Azure answers 202
//! with a `location` whose last segment is the request id, and `quotaRequests/{id}` reports
//! `provisioningState` Accepted, InProgress, Succeeded, Failed or Invalid.

use serde::Serialize;
use serde_json::{json, Value};

use super::agent_pool::surge_for;
use super::{Plan, Step, StepKind};
use crate::domain::api;
use crate::domain::setting::{Setting, Words};
use crate::resources::compute::Usage as ComputeUsage;
use crate::resources::{self, MissingField};

/// The Compute quota scope of a region.
pub fn scope(sub: &str, location: &str) -> String {
    format!("/subscriptions/{sub}/providers/Microsoft.Compute/locations/{location}")
}

/// The quota limit resource of a family.
pub fn quota_url(sub: &str, location: &str, family: &str) -> String {
    format!("{}/providers/Microsoft.Quota/quotas/{family}?api-version={}", scope(sub, location), api::QUOTA)
}

/// A quota request's status.
pub fn request_url(sub: &str, location: &str, id: &str) -> String {
    format!("{}/providers/Microsoft.Quota/quotaRequests/{id}?api-version={}", scope(sub, location), api::QUOTA)
}

/// The Compute usages of a region (usage, limit per family).
pub fn usages_url(sub: &str, location: &str) -> String {
    format!("{}/usages?api-version={}", scope(sub, location), api::USAGES)
}

/// The request body that sets `family`'s limit to `limit` vCPUs.
pub fn body(family: &str, limit: u64) -> Value {
    body_of(family, json!(limit))
}

/// The body with `limit` as given (a number, or a dry run's placeholder).
fn body_of(family: &str, limit: Value) -> Value {
    json!({"properties": {"limit": {"limitObjectType": "LimitValue", "value": limit}, "name": {"value": family}}})
}

/// The plan of a quota request: the usages it decides from, one PUT, then the request's status.
pub fn plan(sub: &str, location: &str, family: &str, limit: u64) -> Plan {
    shown_plan(sub, location, family, limit, json!(limit))
}

/// The plan with the body's limit as given: `plan`'s, or a dry run's placeholder for a limit
/// read at run time (`limit` then only words the step's purpose).
pub fn shown_plan(sub: &str, location: &str, family: &str, limit: u64, body_limit: Value) -> Plan {
    let id = super::read_at_run_time("the request id in the Location Azure returns");
    Plan {
        steps: vec![
            read_usages(sub, location),
            Step::write(
                StepKind::RequestQuota,
                "PUT",
                quota_url(sub, location, family),
                Some(body_of(family, body_limit)),
                format!("ask for a {family} limit of {limit} vCPUs in {location}"),
            ),
            read_request(sub, location, &id)
                .repeated(Words::new("until Succeeded, Failed or Invalid, or {0}", &[Setting::Timeout])),
        ],
    }
}

/// GET the Compute usages of a region (every page).
pub fn read_usages(sub: &str, location: &str) -> Step {
    Step::read(
        StepKind::ReadUsages,
        usages_url(sub, location),
        format!("read the vCPU usages and limits in {location}"),
    )
    .then_follows(super::Follow::NextLink)
}

/// GET a quota request's status.
pub fn read_request(sub: &str, location: &str, id: &str) -> Step {
    Step::read(StepKind::ReadQuotaRequest, request_url(sub, location, id), "read the quota request's status")
}

fn norm(f: &str) -> String {
    f.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

/// One usage counter as read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Usage {
    /// The quota resource name (`standardNCADSA100v4Family`, `cores`).
    pub name: String,
    /// What Azure calls it for people.
    pub display: String,
    pub used: u64,
    pub limit: u64,
}

impl Usage {
    /// vCPUs still free.
    pub fn free(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }
}

/// The usage counter named `name` (spaces and case ignored), if Azure listed one; a counter
/// without its numbers is an error naming the field (never 0 used).
pub fn usage(usages: &[ComputeUsage], name: &str) -> Result<Option<Usage>, MissingField> {
    let Some(c) = resources::compute::find_usage(usages, name)? else { return Ok(None) };
    let label = format!("usage {}", c.name);
    let count = |n: i64, field: &'static str| {
        u64::try_from(n).map_err(|_| MissingField { resource: label.clone(), field: field.into() })
    };
    Ok(Some(Usage {
        used: count(c.used, "currentValue")?,
        limit: count(c.limit, "limit")?,
        display: c.display,
        name: c.name,
    }))
}

/// vCPUs that `nodes` nodes of `vcpus` each need, counting surge nodes.
pub fn vcpus_for(vcpus: u32, nodes: u32) -> u64 {
    u64::from(vcpus) * u64::from(nodes + surge_for(nodes))
}

/// How many nodes of `vcpus` each fit in `free` vCPUs, counting surge.
pub fn nodes_that_fit(vcpus: u32, free: u64) -> u32 {
    let mut n = 0;
    while n < 100_000 && vcpus_for(vcpus, n + 1) <= free {
        n += 1;
    }
    n
}

/// One pool a run creates, as the vCPU quota sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Demand {
    pub pool: String,
    pub vm_size: String,
    /// vCPUs of one node of the size.
    pub vcpus: u32,
    /// The quota family (`standardNCADSA100v4Family`), when known.
    pub family: Option<String>,
    /// The nodes the create allocates: the pool's `count` (with the autoscaler, its initial
    /// count, `minCount` unless set). The autoscaler grows a pool later, one scale-up at a
    /// time, and Azure checks quota then; the create itself asks for `count` VMs.
    pub nodes: u32,
    /// Spot pools draw on the regional `lowPriorityCores` quota instead of the family's and
    /// the regional `cores` (<https://learn.microsoft.com/azure/quotas/spot-quota>).
    pub spot: bool,
}

impl Demand {
    /// vCPUs charged: the nodes plus the surge nodes (the rule `vcpus_for` counts).
    pub fn charge(&self) -> u64 {
        vcpus_for(self.vcpus, self.nodes)
    }

    /// The usage counters the pool draws on: the family's and the regional total, or for spot
    /// the regional low-priority total.
    pub fn counters(&self) -> Vec<&str> {
        if self.spot {
            vec!["lowPriorityCores"]
        } else {
            self.family.as_deref().into_iter().chain(["cores"]).collect()
        }
    }
}

/// A usage counter that the pools charged to it so far overrun.
#[derive(Debug, Clone, PartialEq)]
pub struct Overrun {
    /// The counter as read (free = limit − used).
    pub usage: Usage,
    /// Every pool charged to the counter up to and including the one that overran it, in
    /// order, with its charge.
    pub pools: Vec<(String, u64)>,
}

impl Overrun {
    /// vCPUs the pools need together.
    pub fn needed(&self) -> u64 {
        self.pools.iter().map(|(_, v)| v).sum()
    }
}

/// Charge `demands` cumulatively, in the order given (the order `apply` creates them), against
/// every counter each draws on, from one read of the usages. Returns, per pool in the same
/// order, the counters that the pools up to it overrun (empty: it fits with those before it).
/// A counter Azure did not list is not checked (Azure decides).
pub fn charge_together(
    usages: &[ComputeUsage],
    demands: &[Demand],
) -> Result<Vec<(String, Vec<Overrun>)>, MissingField> {
    let mut charged: Vec<(String, Vec<(String, u64)>)> = Vec::new();
    let mut out = Vec::new();
    for d in demands {
        let mut overruns = Vec::new();
        for counter in d.counters() {
            let Some(usage) = usage(usages, counter)? else { continue };
            let key = norm(&usage.name);
            let i = match charged.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    charged.push((key, Vec::new()));
                    charged.len() - 1
                }
            };
            charged[i].1.push((d.pool.clone(), d.charge()));
            let o = Overrun { usage, pools: charged[i].1.clone() };
            if o.needed() > o.usage.free() {
                overruns.push(o);
            }
        }
        out.push((d.pool.clone(), overruns));
    }
    Ok(out)
}

/// What to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The current limit is already enough.
    Enough { limit: u64 },
    /// Ask for this limit.
    Ask { from: u64, to: u64 },
    /// The limit asked is below today's: refused (a request never lowers a limit).
    Lower { limit: u64, asked: u64 },
}

/// Decide from the current usage and a wanted limit.
pub fn decide(current: &Usage, wanted: u64) -> Decision {
    if wanted < current.limit {
        Decision::Lower { limit: current.limit, asked: wanted }
    } else if wanted == current.limit {
        Decision::Enough { limit: current.limit }
    } else {
        Decision::Ask { from: current.limit, to: wanted }
    }
}

/// The limit that makes room for `nodes` more nodes: usage + what they need.
pub fn limit_for_nodes(current: &Usage, vcpus: u32, nodes: u32) -> u64 {
    current.used + vcpus_for(vcpus, nodes)
}

/// A quota request's state as Azure reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestStatus {
    pub id: String,
    /// Accepted, InProgress, Succeeded, Failed, Invalid.
    pub state: String,
    pub message: Option<String>,
    /// `error.code` of a Failed request.
    pub code: Option<String>,
}

impl RequestStatus {
    /// The status of a `quotaRequests/{id}` body read typed (a body of another shape is an
    /// error where it is read); no state sent reads "Unknown", which is not final (it is read
    /// again, never taken as done).
    pub fn of(id: &str, r: resources::quota::QuotaRequest) -> RequestStatus {
        let p = r.properties;
        let sub_msg = p.value.iter().find_map(|x| x.message.clone());
        let (code, error_msg) = p.error.map_or((None, None), |e| (e.code, e.message));
        RequestStatus {
            id: r.name.unwrap_or_else(|| id.to_owned()),
            state: p.provisioning_state.unwrap_or_else(|| "Unknown".to_owned()),
            message: error_msg.or(p.message).or(sub_msg),
            code,
        }
    }

    /// Succeeded, Failed or Invalid: nothing more will happen.
    pub fn is_final(&self) -> bool {
        ["Succeeded", "Failed", "Invalid"].iter().any(|s| s.eq_ignore_ascii_case(&self.state))
    }
}

/// The request id at the end of a `location` (…/operationsStatus/{id} or …/quotaRequests/{id}).
pub fn request_id(location: &str) -> Option<String> {
    let path = location.split('?').next()?;
    let mut segs = path.trim_end_matches('/').rsplit('/');
    let id = segs.next()?;
    let kind = segs.next()?;
    let ok = kind.eq_ignore_ascii_case("operationsStatus") || kind.eq_ignore_ascii_case("quotaRequests");
    (ok && !id.is_empty()).then(|| id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn together(usages: &[ComputeUsage], demands: &[Demand]) -> Vec<(String, Vec<Overrun>)> {
        charge_together(usages, demands).expect("usages of the documented shape")
    }

    fn u(used: u64, limit: u64) -> Usage {
        Usage { name: "f".into(), display: "f".into(), used, limit }
    }

    #[test]
    fn surge_is_counted_and_limits_never_go_down() {
        // 24 vCPUs × (4 nodes + 1 surge).
        assert_eq!(vcpus_for(24, 4), 120);
        assert_eq!(vcpus_for(24, 11), 24 * 13);
        assert_eq!(nodes_that_fit(24, 120), 4);
        assert_eq!(nodes_that_fit(24, 47), 0);
        let cur = u(48, 96);
        assert_eq!(limit_for_nodes(&cur, 24, 4), 168);
        assert_eq!(decide(&cur, 168), Decision::Ask { from: 96, to: 168 });
        assert_eq!(decide(&cur, 96), Decision::Enough { limit: 96 });
        assert_eq!(decide(&cur, 64), Decision::Lower { limit: 96, asked: 64 });
    }

    fn usages() -> Vec<ComputeUsage> {
        let u = |name: &str, limit: u64, used: u64| json!({"name": {"value": name, "localizedValue": name}, "limit": limit, "currentValue": used});
        let listed = [u("standardNCADSA100v4Family", 96, 0), u("cores", 200, 20), u("lowPriorityCores", 48, 0)];
        resources::parse_listed(&listed).expect("usages")
    }

    fn a100(pool: &str, nodes: u32) -> Demand {
        Demand {
            pool: pool.into(),
            vm_size: "Standard_NC24ads_A100_v4".into(),
            vcpus: 24,
            family: Some("standardNCADSA100v4Family".into()),
            nodes,
            spot: false,
        }
    }

    fn overrun_names(v: &[(String, Vec<Overrun>)]) -> Vec<Vec<String>> {
        v.iter().map(|(_, o)| o.iter().map(|o| o.usage.name.clone()).collect()).collect()
    }

    /// Two pools of 24 × (1 + 1 surge) = 48 vCPUs each fit the family's 96 alone and together;
    /// a third overruns it, and only the third is refused, naming all three.
    #[test]
    fn pools_are_charged_cumulatively_in_order() {
        let v = together(&usages(), &[a100("a", 1), a100("b", 1)]);
        assert_eq!(overrun_names(&v), vec![Vec::<String>::new(), vec![]]);
        let v = together(&usages(), &[a100("a", 1), a100("b", 1), a100("c", 1)]);
        assert_eq!(overrun_names(&v), vec![vec![], vec![], vec!["standardNCADSA100v4Family".to_owned()]]);
        let o = &v[2].1[0];
        assert_eq!((o.needed(), o.usage.free()), (144, 96));
        assert_eq!(o.pools.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
    }

    /// Fits alone, not together; surge counted: 3 nodes are 24 × (3 + 1) = 96, which fits
    /// alone; with a 1-node pool before it (48) the family needs 144.
    #[test]
    fn fits_alone_but_not_together_counting_surge() {
        assert!(together(&usages(), &[a100("big", 3)])[0].1.is_empty());
        assert!(together(&usages(), &[a100("one", 1)])[0].1.is_empty());
        let v = together(&usages(), &[a100("one", 1), a100("big", 3)]);
        assert_eq!(v[1].1[0].needed(), 48 + 96);
        // 4 nodes without surge would be 96: surge makes it 120, over the limit alone.
        assert_eq!(a100("x", 4).charge(), 120);
    }

    /// The regional `cores` limit binds when each family has room: two families of 96 each,
    /// 180 regional vCPUs free.
    #[test]
    fn the_regional_limit_counts_every_family() {
        let mut u = usages();
        u.extend(
            resources::parse_listed::<ComputeUsage>(&[
                json!({"name": {"value": "standardNCADSH100v5Family"}, "limit": 960, "currentValue": 0}),
            ])
            .expect("usage"),
        );
        let h100 = |pool: &str, nodes: u32| Demand {
            vm_size: "Standard_NC40ads_H100_v5".into(),
            vcpus: 40,
            family: Some("standardNCADSH100v5Family".into()),
            ..a100(pool, nodes)
        };
        // 96 (a100, 3 nodes) + 40 × (2 + 1) = 120 → 216 > 180 regional; each family fits.
        let v = together(&u, &[a100("a", 3), h100("h", 2)]);
        assert_eq!(overrun_names(&v), vec![vec![], vec!["cores".to_owned()]]);
        assert_eq!((v[1].1[0].needed(), v[1].1[0].usage.free()), (216, 180));
    }

    /// Spot pools draw on `lowPriorityCores` only: they do not use the family's or regional
    /// on-demand room, and overrun the low-priority limit on their own.
    #[test]
    fn spot_pools_use_the_low_priority_quota() {
        let spot = |pool: &str, nodes: u32| Demand { spot: true, ..a100(pool, nodes) };
        let v = together(&usages(), &[a100("a", 1), a100("b", 1), spot("s", 1)]);
        assert_eq!(overrun_names(&v), vec![Vec::<String>::new(), vec![], vec![]]);
        let v = together(&usages(), &[spot("s", 1), spot("t", 1)]);
        assert_eq!(overrun_names(&v), vec![vec![], vec!["lowPriorityCores".to_owned()]]);
        // A counter Azure did not list is not checked.
        assert!(together(&[], &[a100("a", 100)])[0].1.is_empty());
    }

    #[test]
    fn the_body_and_status_follow_microsofts_examples() {
        assert_eq!(
            body("standardFSv2Family", 10),
            json!({"properties": {"limit": {"limitObjectType": "LimitValue", "value": 10}, "name": {"value": "standardFSv2Family"}}})
        );
        let loc = "https://management.azure.com/subscriptions/s/providers/Microsoft.Compute/locations/eastus/providers/Microsoft.Quota/operationsStatus/2B5C8515-37D8?api-version=2023-02-01";
        assert_eq!(request_id(loc).as_deref(), Some("2B5C8515-37D8"));
        assert_eq!(request_id("https://x/other/abc"), None);
        let failed = json!({"name": "2B5C", "properties": {"provisioningState": "Failed", "message": "m",
            "error": {"code": "ContactSupport", "message": "Request failed, please contact support."}}});
        let read = |v: &Value| resources::parse(v, "quota request").expect("typed");
        let s = RequestStatus::of("x", read(&failed));
        assert_eq!((s.state.as_str(), s.code.as_deref(), s.is_final()), ("Failed", Some("ContactSupport"), true));
        assert_eq!(s.message.as_deref(), Some("Request failed, please contact support."));
        assert!(!RequestStatus::of("x", read(&json!({"properties": {"provisioningState": "InProgress"}}))).is_final());
        assert_eq!(RequestStatus::of("x", read(&json!({}))).state, "Unknown");
    }
}
