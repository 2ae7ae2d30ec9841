//! The quota workflows: `quota show` (a family's usage, and how many nodes of a size fit) and
//! `quota request` (raise a family's vCPU limit, never lower it).

use std::time::Instant;

use serde_json::Value;

use crate::arm::ArmClient;
use crate::catalog::Catalog;
use crate::domain::setting::{Setting, Words};
use crate::error::Error;
use crate::plan::quota::{self as plan, Decision};

pub use crate::plan::quota::{RequestStatus, Usage};
pub use crate::plan::read_at_run_time;
use crate::provision::quota as exec;
use crate::provision::Progress;
/// One usage counter as Azure lists it (what `usages` reads).
pub use crate::resources::compute::Usage as ComputeUsage;

use super::Report;

/// Which quota: a location, and a family or a size whose family the catalog knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuotaQuery {
    pub location: String,
    pub vm_size: Option<String>,
    pub family: Option<String>,
}

/// A `QuotaQuery`, resolved against the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaTarget {
    /// The ARM region name.
    pub location: String,
    /// The quota family, when one was named or follows from the size.
    pub family: Option<String>,
    /// The size asked about, with its vCPUs.
    pub size: Option<(String, u32)>,
}

/// Resolve the location and the family.
pub fn resolve(catalog: &Catalog, w: &QuotaQuery) -> Result<QuotaTarget, Error> {
    let location = super::recommend::region_arg(catalog, &w.location)?;
    let size = match &w.vm_size {
        None => None,
        Some(s) => Some(catalog.size(s).ok_or_else(|| {
            Error::usage(
                Words::new(format!("{{0}} {s:?} is not in the catalog"), &[Setting::VmSize]),
                Words::new("pass {0} with the quota family name", &[Setting::Family]),
            )
        })?),
    };
    let family = match (&w.family, size) {
        (Some(f), _) => Some(f.trim().to_owned()),
        (None, Some(s)) => Some(s.quota_family.as_deref().map(str::to_owned).ok_or_else(|| {
            Error::usage(
                format!("the catalog has no quota family for {}", s.name),
                Words::new("pass {0} (az vm list-usage --location L shows the names)", &[Setting::Family]),
            )
        })?),
        (None, None) => None,
    };
    Ok(QuotaTarget { location, family, size: size.map(|s| (s.name.to_string(), s.vcpus)) })
}

/// What `quota show` found: the usages (the family's, or every GPU family's, then the regional
/// `cores`), and for a size how many more nodes fit under each.
#[derive(Debug, Clone)]
pub struct QuotaUsage {
    /// (usage, nodes of the size that fit; none for `cores` or without a size).
    pub rows: Vec<(Usage, Option<u32>)>,
    /// Nodes of the size that fit under its family and the regional limit.
    pub nodes_that_fit: Option<u32>,
}

/// The families to show from the usages Azure listed for the location.
pub fn usage(catalog: &Catalog, w: &QuotaTarget, usages: &[ComputeUsage]) -> Result<QuotaUsage, Error> {
    let mut names: Vec<String> = match &w.family {
        Some(f) => vec![f.clone()],
        None => {
            let mut fams: Vec<String> =
                catalog.sizes.iter().filter_map(|s| s.quota_family.as_deref().map(str::to_owned)).collect();
            fams.sort();
            fams.dedup();
            fams
        }
    };
    names.push("cores".into());
    let mut found: Vec<Usage> = Vec::new();
    for n in &names {
        found.extend(plan::usage(usages, n).map_err(missing)?);
    }
    if let Some(family) = w.family.as_deref().filter(|_| found.iter().all(|u| u.name == "cores")) {
        return Err(unknown_family(family, &w.location));
    }
    let regional = found.iter().find(|u| u.name == "cores").map(Usage::free);
    let fit = |u: &Usage| {
        w.size.as_ref().map(|(_, vcpus)| plan::nodes_that_fit(*vcpus, u.free().min(regional.unwrap_or(u64::MAX))))
    };
    let nodes_that_fit = w.size.as_ref().and_then(|_| found.first().and_then(fit));
    let rows = found
        .into_iter()
        .map(|u| {
            let f = if u.name == "cores" { None } else { fit(&u) };
            (u, f)
        })
        .collect();
    Ok(QuotaUsage { rows, nodes_that_fit })
}

/// A family Azure does not report in the region: a name Azure does not have is a usage error
/// (exit 2), as a feature name Azure does not have.
fn unknown_family(family: &str, location: &str) -> Error {
    Error::usage(
        format!("Azure reports no usage for {family} in {location}"),
        Some("check the family name: az vm list-usage --location L -o table".to_owned()),
    )
}

/// How much `quota request` asks for: `--limit` vCPUs, or enough for `--nodes` more nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaAsk {
    pub limit: Option<u64>,
    pub nodes: Option<u32>,
}

/// What `quota request` will do: nothing (the limit is enough), or raise `family`'s limit.
#[derive(Debug, Clone, PartialEq)]
pub enum QuotaPlan {
    /// Today's limit already allows it.
    Enough { family: String, limit: u64, used: u64 },
    /// Ask for `to` vCPUs (today `from`).
    Raise { family: String, from: u64, to: u64 },
}

/// A field Azure did not send: refused, never read as zero.
fn missing(e: crate::resources::MissingField) -> Error {
    Error::refused(e.to_string(), None)
}

/// Decide the request from the family's usage; a request that would lower the limit is refused.
pub fn decide(w: &QuotaTarget, family: &str, usages: &[ComputeUsage], ask: QuotaAsk) -> Result<QuotaPlan, Error> {
    let Some(current) = plan::usage(usages, family).map_err(missing)? else {
        return Err(unknown_family(family, &w.location));
    };
    let family = current.name.clone();
    let wanted = match (ask.limit, ask.nodes, &w.size) {
        (Some(l), _, _) => l,
        (None, Some(n), Some((_, vcpus))) => plan::limit_for_nodes(&current, *vcpus, n),
        _ => return Err(Error::usage(Words::new("{0} needs {1}", &[Setting::Nodes, Setting::VmSize]), None)),
    };
    match plan::decide(&current, wanted) {
        Decision::Lower { limit, asked } => Err(Error::usage(
            format!("{family} in {} has a limit of {limit} vCPUs; {asked} would lower it, and a quota request never lowers a limit", w.location),
            Some("ask for more than today's limit, or nothing".into()),
        )),
        Decision::Enough { limit } => Ok(QuotaPlan::Enough { family, limit, used: current.used }),
        Decision::Ask { from, to } => Ok(QuotaPlan::Raise { family, from, to }),
    }
}

/// Submit the request for `to` vCPUs of `family` and follow it until Azure decides or
/// `deadline`; `check` is the command that shows it later.
#[allow(clippy::too_many_arguments)]
pub async fn raise(
    client: &ArmClient,
    (subscription, location): (&str, &str),
    family: &str,
    to: u64,
    check: &str,
    deadline: Instant,
    (report, started): (Report<'_>, &Progress),
) -> Result<RequestStatus, Error> {
    report(&format!("asking for {to} vCPUs of {family}"));
    let Some(id) = exec::submit(client, subscription, location, family, to, check, started).await? else {
        return Ok(RequestStatus { id: String::new(), state: "Succeeded".into(), message: None, code: None });
    };
    exec::follow(client, subscription, location, &id, deadline, check, report).await.map_err(Error::from)
}

/// The vCPU usages and limits Azure lists for the location.
pub async fn usages(client: &ArmClient, subscription: &str, location: &str) -> Result<Vec<ComputeUsage>, Error> {
    Ok(exec::usages(client, subscription, location).await?)
}

/// A quota request's status (`quota show --request ID`).
pub async fn status(client: &ArmClient, subscription: &str, location: &str, id: &str) -> Result<RequestStatus, Error> {
    Ok(exec::status(client, subscription, location, id).await?)
}

/// The plan of a quota request for `limit` vCPUs: a number, or (a dry run without the usages)
/// the placeholder saying what the run reads to compute it.
pub fn plan_for(subscription: &str, location: &str, family: &str, limit: Value) -> crate::plan::Plan {
    crate::plan::quota::shown_plan(subscription, location, family, limit.as_u64().unwrap_or_default(), limit)
}

/// How a request's wait ended, as an error when it was not granted: refused by Azure (a final
/// state other than Succeeded: there is no fit), or still pending when the wait, which lasted
/// up to `waited`, ended (resumed with `check`). `None`: granted.
pub fn not_granted(s: &RequestStatus, family: &str, waited: std::time::Duration, check: &str) -> Option<Error> {
    if s.state.eq_ignore_ascii_case("Succeeded") {
        return None;
    }
    if s.is_final() {
        let reason = s.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
        return Some(Error::NoFit {
            message: format!(
                "Azure did not grant the {family} quota request ({}{}){reason}",
                s.state,
                s.code.as_deref().map(|c| format!(" {c}")).unwrap_or_default()
            ).into(),
            hint: Some("open a quota support request in the portal (https://aka.ms/ProdportalCRP), or try another region or family".into()),
        });
    }
    Some(Error::from(crate::arm::ArmError::TimedOut {
        what: format!("quota request {}", s.id),
        elapsed: waited,
        resume: check.into(),
    }))
}
