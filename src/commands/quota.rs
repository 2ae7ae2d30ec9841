//! `aksgpu quota show` and `aksgpu quota request`: the vCPU quota of the GPU VM families in
//! a region, and Microsoft.Quota requests for more (never less).

use std::time::Instant;

use serde_json::{json, Value};

use crate::arm::ArmError;
use crate::catalog::Catalog;
use crate::cli::{QuotaFamilyArgs, QuotaRequestArgs, QuotaShowArgs};
use crate::commands::{azure, Ctx};
use crate::error::Error;
use crate::output::{emit, table, Align, Shown};
use crate::plan::quota::{self as plan, Decision, RequestStatus, Usage};
use crate::provision::quota as exec;
use crate::provision::Progress;

/// The family and location asked, resolved: (location, family, the size's vCPUs if a size).
struct Which {
    location: String,
    family: Option<String>,
    size: Option<(String, u32)>,
}

fn resolve(catalog: &Catalog, w: &QuotaFamilyArgs) -> Result<Which, Error> {
    let location = crate::ops::recommend::region_arg(catalog, "--location", &w.location)?;
    let size = match &w.vm_size {
        None => None,
        Some(s) => Some(catalog.size(s).ok_or_else(|| {
            Error::usage(
                format!("--vm-size {s:?} is not in the catalog"),
                Some("pass --family with the quota family name".into()),
            )
        })?),
    };
    let family = match (&w.family, size) {
        (Some(f), _) => Some(f.trim().to_owned()),
        (None, Some(s)) => Some(s.quota_family.as_deref().map(str::to_owned).ok_or_else(|| {
            Error::usage(
                format!("the catalog has no quota family for {}", s.name),
                Some("pass --family (az vm list-usage --location L shows the names)".into()),
            )
        })?),
        (None, None) => None,
    };
    Ok(Which { location, family, size: size.map(|s| (s.name.to_string(), s.vcpus)) })
}

fn connect(arm: &crate::cli::ArmArgs) -> Result<(crate::arm::ArmClient, String), Error> {
    let az = azure::connect(arm)?;
    let sub = azure::subscription(&az)?;
    Ok((az.client, sub))
}

fn row(u: &Usage, fit: Option<u32>) -> Vec<String> {
    let mut r = vec![u.name.clone(), u.used.to_string(), u.limit.to_string(), u.free().to_string()];
    r.extend(fit.map(|n| n.to_string()));
    r
}

/// `aksgpu quota show`
pub fn show(ctx: &Ctx, a: &QuotaShowArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let w = resolve(&catalog, &a.which)?;
    let (client, sub) = connect(&a.arm)?;
    let progress = Progress::default();
    let p = &ctx.printer;
    if let Some(id) = &a.request {
        let s = azure::run_with_spinner(p, &progress, None, async |_| {
            exec::status(&client, &sub, &w.location, id).await.map_err(Error::from)
        })?;
        let text = format!(
            "quota request {} is {}{}",
            s.id,
            s.state,
            s.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default()
        );
        emit(p, a.output, &Shown::new(text, json!(s)))?;
        return Ok(());
    }
    let usages = azure::run_with_spinner(p, &progress, None, async |report| {
        report("reading usages");
        exec::usages(&client, &sub, &w.location).await.map_err(Error::from)
    })?;
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
    let found: Vec<Usage> = names.iter().filter_map(|n| plan::usage(&usages, n)).collect();
    if found.iter().all(|u| u.name == "cores") && w.family.is_some() {
        return Err(Error::NoFit {
            message: format!("Azure reports no usage for {} in {}", w.family.as_deref().unwrap_or(""), w.location),
            hint: Some("check the family name: az vm list-usage --location L -o table".into()),
        }
        .into());
    }
    let regional = found.iter().find(|u| u.name == "cores").map(Usage::free);
    let fit = |u: &Usage| {
        w.size.as_ref().map(|(_, vcpus)| plan::nodes_that_fit(*vcpus, u.free().min(regional.unwrap_or(u64::MAX))))
    };
    let rows: Vec<Vec<String>> = found.iter().map(|u| row(u, if u.name == "cores" { None } else { fit(u) })).collect();
    let mut headers = vec!["FAMILY", "USED", "LIMIT", "FREE"];
    if w.size.is_some() {
        headers.push("NODES THAT FIT");
    }
    let mut text = format!("vCPU quota in {} (cores = total regional vCPUs):\n", w.location);
    text.push_str(&table(&headers, &[Align::Left, Align::Right, Align::Right, Align::Right, Align::Right], &rows));
    if let Some((size, vcpus)) = &w.size {
        let n = found.first().and_then(fit).unwrap_or(0);
        text.push_str(&format!("{n} more node(s) of {size} ({vcpus} vCPUs) fit, counting one surge node per 10.\n"));
    }
    let v = json!({
        "location": w.location,
        "usages": found.iter().map(|u| json!({"name": u.name, "display": u.display, "used": u.used, "limit": u.limit, "free": u.free()})).collect::<Vec<_>>(),
        "vm_size": w.size.as_ref().map(|s| s.0.clone()),
        "nodes_that_fit": w.size.as_ref().and_then(|_| found.first().and_then(fit)),
    });
    emit(p, a.output, &Shown::new(text, v))?;
    Ok(())
}

/// `aksgpu quota request`
pub fn request(ctx: &Ctx, a: &QuotaRequestArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let w = resolve(&catalog, &a.which)?;
    let Some(family) = w.family.clone() else {
        return Err(Error::usage("quota request needs --vm-size with --nodes, or --family with --limit", None).into());
    };
    if a.nodes.is_none() && a.limit.is_none() {
        return Err(Error::usage(
            "say how much: --nodes N (with --vm-size) or --limit VCPUS (with --family)",
            Some(format!("aksgpu quota show --location {} --family {family} shows today's limit", w.location)),
        )
        .into());
    }
    let (client, sub) = connect(&a.arm)?;
    let p = &ctx.printer;
    let progress = Progress::default();
    let usages = azure::run_with_spinner(p, &progress, None, async |report| {
        report("reading usages");
        exec::usages(&client, &sub, &w.location).await.map_err(Error::from)
    })?;
    let Some(current) = plan::usage(&usages, &family) else {
        return Err(Error::NoFit {
            message: format!("Azure reports no usage for {family} in {}", w.location),
            hint: Some("check the family name: az vm list-usage --location L -o table".into()),
        }
        .into());
    };
    let family = current.name.clone();
    let wanted = match (a.limit, a.nodes, &w.size) {
        (Some(l), _, _) => l,
        (None, Some(n), Some((_, vcpus))) => plan::limit_for_nodes(&current, *vcpus, n),
        _ => return Err(Error::usage("--nodes needs --vm-size", None).into()),
    };
    let check = format!("aksgpu quota show --subscription {sub} --location {} --family {family}", w.location);
    let (from, to) = match plan::decide(&current, wanted) {
        Decision::Lower { limit, asked } => {
            return Err(Error::usage(
                format!("{family} in {} has a limit of {limit} vCPUs; {asked} would lower it, and a quota request never lowers a limit", w.location),
                Some("ask for more than today's limit, or nothing".into()),
            )
            .into())
        }
        Decision::Enough { limit } => {
            let text = format!("{family} in {} already allows {limit} vCPUs ({} used): nothing to ask for", w.location, current.used);
            emit(p, a.output, &Shown::new(text, json!({"status": "enough", "family": family, "location": w.location, "limit": limit, "used": current.used})))?;
            return Ok(());
        }
        Decision::Ask { from, to } => (from, to),
    };
    if a.dry_run {
        let header = format!(
            "Dry run: nothing is sent. The request raises {family} in {} from {from} to {to} vCPUs:",
            w.location
        );
        azure::render_plan(
            p,
            a.output,
            &azure::base_url(&a.arm),
            &plan::plan(&sub, &w.location, &family, to),
            &header,
            json!({"family": family, "from": from, "to": to}),
        )?;
        return Ok(());
    }
    let deadline = Instant::now() + a.arm.timeout;
    let status = azure::run_with_spinner(p, &progress, Some(&client), async |report| {
        report(&format!("asking for {to} vCPUs of {family}"));
        let Some(id) = exec::submit(&client, &sub, &w.location, &family, to, &check, &progress).await? else {
            return Ok(RequestStatus { id: String::new(), state: "Succeeded".into(), message: None, code: None });
        };
        exec::follow(&client, &sub, &w.location, &id, deadline, &check, report).await.map_err(Error::from)
    })?;
    report(p, a, &family, &w.location, from, to, &status, &check)
}

#[allow(clippy::too_many_arguments)]
fn report(
    p: &crate::output::Printer,
    a: &QuotaRequestArgs,
    family: &str,
    location: &str,
    from: u64,
    to: u64,
    s: &RequestStatus,
    check: &str,
) -> anyhow::Result<()> {
    let check = if s.id.is_empty() { check.to_owned() } else { format!("{check} --request {}", s.id) };
    let v: Value = json!({"status": s.state, "request_id": s.id, "family": family, "location": location, "from": from, "to": to,
        "message": s.message, "code": s.code, "check": check});
    let reason = s.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
    let text = format!(
        "Quota request for {family} in {location} ({from} → {to} vCPUs) is {}{reason}\nCheck it with: {check}",
        s.state
    );
    emit(p, a.output, &Shown::new(text, v))?;
    if s.state.eq_ignore_ascii_case("Succeeded") {
        return Ok(());
    }
    if s.is_final() {
        return Err(Error::NoFit {
            message: format!("Azure did not grant the {family} quota request ({}{}){reason}", s.state, s.code.as_deref().map(|c| format!(" {c}")).unwrap_or_default()),
            hint: Some("open a quota support request in the portal (https://aka.ms/ProdportalCRP), or try another region or family".into()),
        }
        .into());
    }
    Err(Error::from(ArmError::TimedOut {
        what: format!("quota request {}", s.id),
        elapsed: a.arm.timeout,
        resume: check,
    })
    .into())
}
