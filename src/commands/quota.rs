//! `aksgpu quota show` and `aksgpu quota request`: the vCPU quota of the GPU VM families in
//! a region, and Microsoft.Quota requests for more (never less).

use std::time::Instant;

use serde_json::{json, Value};

use crate::cli::{QuotaFamilyArgs, QuotaRequestArgs, QuotaShowArgs};
use crate::commands::{session as azure, Ctx};
use crate::error::Error;
use crate::ops::quota::{
    self as ops, ComputeUsage, QuotaAsk, QuotaPlan, QuotaQuery, QuotaTarget, RequestStatus, Usage,
};
use crate::ops::session::{ArmClient, Progress};
use crate::output::{emit, table, Align, Shown};

fn query(w: &QuotaFamilyArgs) -> QuotaQuery {
    QuotaQuery { location: w.location.clone(), vm_size: w.vm_size.clone(), family: w.family.clone() }
}

fn connect(arm: &crate::cli::ArmArgs) -> Result<(ArmClient, String), Error> {
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
    let w = ops::resolve(&catalog, &query(&a.which))?;
    let (client, sub) = connect(&a.arm)?;
    let progress = Progress::default();
    let p = &ctx.printer;
    if let Some(id) = &a.request {
        let s =
            azure::run_with_spinner(p, &progress, None, async |_| ops::status(&client, &sub, &w.location, id).await)?;
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
        ops::usages(&client, &sub, &w.location).await
    })?;
    let shown = ops::usage(&catalog, &w, &usages)?;
    let rows: Vec<Vec<String>> = shown.rows.iter().map(|(u, fit)| row(u, *fit)).collect();
    let mut headers = vec!["FAMILY", "USED", "LIMIT", "FREE"];
    if w.size.is_some() {
        headers.push("NODES THAT FIT");
    }
    let mut text = format!("vCPU quota in {} (cores = total regional vCPUs):\n", w.location);
    text.push_str(&table(&headers, &[Align::Left, Align::Right, Align::Right, Align::Right, Align::Right], &rows));
    if let Some((size, vcpus)) = &w.size {
        let n = shown.nodes_that_fit.unwrap_or(0);
        text.push_str(&format!("{n} more node(s) of {size} ({vcpus} vCPUs) fit, counting one surge node per 10.\n"));
    }
    let v = json!({
        "location": w.location,
        "usages": shown.rows.iter().map(|(u, _)| json!({"name": u.name, "display": u.display, "used": u.used, "limit": u.limit, "free": u.free()})).collect::<Vec<_>>(),
        "vm_size": w.size.as_ref().map(|s| s.0.clone()),
        "nodes_that_fit": shown.nodes_that_fit,
    });
    emit(p, a.output, &Shown::new(text, v))?;
    Ok(())
}

/// `aksgpu quota request`
pub fn request(ctx: &Ctx, a: &QuotaRequestArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let w = ops::resolve(&catalog, &query(&a.which))?;
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
    let to = a.limit.map_or_else(|| "today's usage plus what the nodes need".to_owned(), |l| l.to_string());
    let question = format!("Ask Azure to raise the {family} vCPU limit in {} to {to}?", w.location);
    crate::commands::confirm::write(ctx, "quota request", a.write.yes, a.write.dry_run, &question)?;
    let p = &ctx.printer;
    if a.write.dry_run {
        // With credentials the usages are read (a GET); without, today's limit is a placeholder.
        let (sub, usages) = azure::dry_run_reads(
            p,
            &a.arm,
            async |client, sub| Ok((sub.to_owned(), Some(ops::usages(client, sub, &w.location).await?))),
            |sub| Ok((sub.to_owned(), None)),
        )?;
        return dry_run(p, a, &w, &family, &sub, usages.as_deref());
    }
    let (client, sub) = connect(&a.arm)?;
    let progress = Progress::default();
    let usages = azure::run_with_spinner(p, &progress, None, async |report| {
        report("reading usages");
        ops::usages(&client, &sub, &w.location).await
    })?;
    let Some((family, from, to)) = decide(p, a, &w, &family, &usages)? else { return Ok(()) };
    let check = format!("aksgpu quota show --subscription {sub} --location {} --family {family}", w.location);
    let started = Instant::now();
    let deadline = started + a.arm.timeout;
    let status = azure::run_with_spinner(p, &progress, Some(&client), async |report| {
        ops::raise(&client, (&sub, &w.location), &family, to, &check, deadline, (&report, &progress)).await
    })?;
    report(p, a, (&family, &w.location, from, to), &status, &check, started.elapsed())
}

/// From the usages read: `(family as Azure names it, today's limit, the limit to ask for)`, or
/// `None` when the limit already suffices (said on stdout); a request that would lower the limit
/// is refused.
fn decide(
    p: &crate::output::Printer,
    a: &QuotaRequestArgs,
    w: &QuotaTarget,
    family: &str,
    usages: &[ComputeUsage],
) -> anyhow::Result<Option<(String, u64, u64)>> {
    match ops::decide(w, family, usages, QuotaAsk { limit: a.limit, nodes: a.nodes })? {
        QuotaPlan::Enough { family, limit, used } => {
            let text =
                format!("{family} in {} already allows {limit} vCPUs ({used} used): nothing to ask for", w.location);
            let v = json!({"status": "enough", "family": family, "location": w.location, "limit": limit, "used": used});
            emit(p, a.write.output, &Shown::new(text, v))?;
            Ok(None)
        }
        QuotaPlan::Raise { family, from, to } => Ok(Some((family, from, to))),
    }
}

/// `quota request --dry-run`: the plan from the usages read, or (no credentials) with today's
/// limit, and with `--nodes` the new one, as placeholders.
fn dry_run(
    p: &crate::output::Printer,
    a: &QuotaRequestArgs,
    w: &QuotaTarget,
    family: &str,
    sub: &str,
    usages: Option<&[ComputeUsage]>,
) -> anyhow::Result<()> {
    let base = azure::base_url(&a.arm);
    let Some(usages) = usages else {
        let to = match a.limit {
            Some(l) => json!(l),
            None => json!(ops::read_at_run_time("today's usage and limit, plus the vCPUs of --nodes")),
        };
        let header = format!(
            "Dry run: nothing is sent. The request raises {family} in {}; today's limit is read at run time:",
            w.location
        );
        let from = json!(ops::read_at_run_time("today's limit"));
        return render_dry_run(p, a, (&base, sub, &w.location), (family, from, to), &header);
    };
    let Some((family, from, to)) = decide(p, a, w, family, usages)? else { return Ok(()) };
    let header =
        format!("Dry run: nothing is sent. The request raises {family} in {} from {from} to {to} vCPUs:", w.location);
    render_dry_run(p, a, (&base, sub, &w.location), (&family, json!(from), json!(to)), &header)
}

/// The quota request's plan as a dry run, with the limits it goes from and to (numbers, or
/// what is read at run time).
fn render_dry_run(
    p: &crate::output::Printer,
    a: &QuotaRequestArgs,
    (base, sub, location): (&str, &str, &str),
    (family, from, to): (&str, Value, Value),
    header: &str,
) -> anyhow::Result<()> {
    let plan = ops::plan_for(sub, location, family, to.clone());
    let extra = json!({"family": family, "from": from, "to": to});
    crate::commands::dry_run::render_plan(p, a.write.output, base, &plan, header, extra)?;
    Ok(())
}

fn report(
    p: &crate::output::Printer,
    a: &QuotaRequestArgs,
    (family, location, from, to): (&str, &str, u64, u64),
    s: &RequestStatus,
    check: &str,
    elapsed: std::time::Duration,
) -> anyhow::Result<()> {
    let check = if s.id.is_empty() { check.to_owned() } else { format!("{check} --request {}", s.id) };
    let v: Value = json!({"status": s.state, "request_id": s.id, "family": family, "location": location, "from": from, "to": to,
        "message": s.message, "code": s.code, "check": check});
    let reason = s.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
    let text = format!(
        "Quota request for {family} in {location} ({from} → {to} vCPUs) is {}{reason}\nCheck it with: {check}",
        s.state
    );
    emit(p, a.write.output, &Shown::new(text, v))?;
    match ops::not_granted(s, family, elapsed, &check) {
        None => Ok(()),
        Some(e) => Err(e.into()),
    }
}
