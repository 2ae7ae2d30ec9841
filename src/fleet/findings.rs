//! Findings on a GPU pool as read, each from a catalog rule (`catalog/rules.yaml`) with its id,
//! source and severity (`info` < `warning` < `error`).

use serde::Serialize;

use crate::catalog::model::{Status, VmSize};
use crate::catalog::{Catalog, FleetCheck, KubeVersion, NodeImageVersion, RuleKind, Severity};
use crate::cost;

use super::FleetPool;

/// One finding: the rule, how much it matters, what it means for this pool, and the rule's source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    pub source: String,
}

/// The `fleet_check` rule for `check`, if the catalog has one.
fn check_rule(catalog: &Catalog, check: FleetCheck) -> Option<(&str, Severity, &str)> {
    catalog.rules.iter().find_map(|r| match &r.kind {
        RuleKind::FleetCheck { check: c, severity } if *c == check => {
            Some((r.id.as_str(), *severity, r.source.as_str()))
        }
        _ => None,
    })
}

fn finding(rule: &str, severity: Severity, source: &str, message: String) -> Finding {
    Finding { rule: rule.to_owned(), severity, message, source: source.to_owned() }
}

/// Every finding for `pool` (of catalog size `size`); money in `currency`.
pub fn for_pool(catalog: &Catalog, size: &VmSize, pool: &FleetPool, currency: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(lifecycle(catalog, size));
    out.extend(node_image_floor(catalog, pool));
    out.extend(idle_minimum(catalog, pool, currency));
    out.extend(operator_minimum(catalog, pool));
    out.extend(windows_version(catalog, pool));
    out.extend(unsupported(catalog, size));
    out
}

fn lifecycle(catalog: &Catalog, size: &VmSize) -> Option<Finding> {
    let (check, word) = match size.status {
        Status::Retired => (FleetCheck::RetiredSize, "retired"),
        Status::Retiring => (FleetCheck::RetiringSize, "retiring"),
        Status::Current => return None,
    };
    let (id, severity, source) = check_rule(catalog, check)?;
    let date = size.retirement_date.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
    let source = size.retirement_source.as_deref().unwrap_or(source);
    Some(finding(id, severity, source, format!("{} is {word}{date}", size.name)))
}

/// A pool of a size with a node image floor (`node_image_floor` rules) that runs an older image
/// (a warning: the host driver needs the newer image). An image Azure did not report, or one
/// that does not parse as `…-YYYYMM.DD.N`, is no finding: unknown is not old.
fn node_image_floor(catalog: &Catalog, pool: &FleetPool) -> Option<Finding> {
    let (floor, rule) = catalog.node_image_floor(&pool.vm_size)?;
    let image = NodeImageVersion::parse(pool.node_image_version.as_deref()?).ok()?;
    (image < floor).then(|| {
        finding(
            &rule.id,
            Severity::Warning,
            &rule.source,
            format!(
                "node image {image} is older than {floor}, which {} needs for its GPU driver: \
                 az aks nodepool upgrade -g {} --cluster-name {} -n {} --node-image-only",
                pool.vm_size, pool.resource_group, pool.cluster, pool.pool
            ),
        )
    })
}

fn idle_minimum(catalog: &Catalog, pool: &FleetPool, currency: &str) -> Option<Finding> {
    let min = pool.min_count.filter(|m| *m > 0 && pool.autoscaling)?;
    let (id, severity, source) = check_rule(catalog, FleetCheck::IdleMinimum)?;
    let cost = cost::monthly(pool.node_hourly_price, min)
        .map(|c| format!("{c:.2} {currency} a month"))
        .unwrap_or_else(|| "an unknown amount (no price for the size in this region)".into());
    Some(finding(
        id,
        severity,
        source,
        format!("the autoscaler minimum keeps {min} node(s) running while idle: {cost}"),
    ))
}

/// A GPU Operator pool (`gpuProfile.driver: None`: the operator installs the driver) whose
/// autoscaler may scale to zero.
fn operator_minimum(catalog: &Catalog, pool: &FleetPool) -> Option<Finding> {
    let operator = pool.gpu_driver.as_deref().is_some_and(|d| d.eq_ignore_ascii_case("None"));
    if !operator || !pool.autoscaling {
        return None;
    }
    catalog.rules.iter().find_map(|r| match r.kind {
        RuleKind::OperatorAutoscalerMin { min_count } if pool.min_count.is_some_and(|m| m < min_count) => {
            Some(finding(
                &r.id,
                Severity::Warning,
                &r.source,
                format!(
                    "GPU Operator pool (gpuProfile.driver None) with autoscaler minimum {}: keep it at {min_count} or more",
                    pool.min_count.unwrap_or(0)
                ),
            ))
        }
        _ => None,
    })
}

fn windows_version(catalog: &Catalog, pool: &FleetPool) -> Option<Finding> {
    if !pool.os.as_deref().is_some_and(|o| o.eq_ignore_ascii_case("Windows")) {
        return None;
    }
    let (min, _, _) = catalog.windows_min_kubernetes()?;
    let v = KubeVersion::parse(pool.kubernetes_version.as_deref()?).ok()?;
    if !v.minor_lt(&min) {
        return None;
    }
    let rule = catalog.rules.iter().find(|r| matches!(r.kind, RuleKind::WindowsMinKubernetes { .. }))?;
    Some(finding(
        &rule.id,
        Severity::Error,
        &rule.source,
        format!("Windows GPU pool on Kubernetes {v}: Windows GPU pools need {min} or later"),
    ))
}

fn unsupported(catalog: &Catalog, size: &VmSize) -> Option<Finding> {
    if size.aks_supported {
        return None;
    }
    let (id, severity, source) = check_rule(catalog, FleetCheck::UnsupportedSize)?;
    let why = catalog
        .unsupported_reason(&size.series)
        .map(|r| r.summary.clone())
        .or_else(|| size.aks_note.as_deref().map(str::to_owned))
        .unwrap_or_else(|| "the catalog lists it as not supported".into());
    let source = size.aks_source.as_deref().unwrap_or(source);
    Some(finding(id, severity, source, format!("AKS does not support {} for GPU pools: {why}", size.name)))
}
