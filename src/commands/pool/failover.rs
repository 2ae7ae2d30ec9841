//! `create-pool` with failover flags (`--fallback-vm-size`, `--recommend --failover`,
//! `--fallback-on-demand`, `--max-attempts`): the candidates, the run, and the attempts table.

use serde_json::{json, Value};

use crate::cli::{CreatePoolArgs, Format};
use crate::commands::{session as azure, Ctx};
use crate::error::Error;
use crate::ops::failover::{
    self as ops_failover, Attempt, AttemptResult, Candidate, Created, Failover, NextStep, NotWithFailover, Stopped,
};
use crate::ops::pool::{provisioning_state, CreateOptions, PoolSpec};
use crate::ops::session::{ArmClient, Progress};
use crate::ops::{Catalog, Plan};
use crate::output::{emit, table, Align, Printer, Shown};

/// `aksgpu create-pool` with failover.
pub fn run(
    ctx: &Ctx,
    catalog: &Catalog,
    a: &CreatePoolArgs,
    client: &ArmClient,
    subscription: &str,
    opts: CreateOptions,
) -> anyhow::Result<()> {
    let p = &ctx.printer;
    if let Err(not) = ops_failover::check_alone(a.no_wait, a.install_operator, a.register_features) {
        let flag = match not {
            NotWithFailover::NoWait => "--no-wait",
            NotWithFailover::InstallOperator => "--install-operator",
            NotWithFailover::RegisterFeatures => "--register-features",
        };
        return Err(Error::usage(
            format!("{flag} cannot be combined with failover (--fallback-vm-size, --failover, --fallback-on-demand, --max-attempts)"),
            Some(format!("drop {flag}; after the pool exists, run the step on its own")),
        )
        .into());
    }
    let mut opts = opts;
    let candidates = candidates(ctx, catalog, a, client, subscription, &mut opts)?;
    let policy = ops_failover::policy(a.failover.max_attempts, a.failover.failover, a.failover.fallback_on_demand);
    if !a.write.yes && !a.write.dry_run {
        if !p.interactive {
            return Err(Error::usage(
                "create-pool changes Azure and costs money; without a terminal it needs --yes",
                Some("add --yes (or --dry-run to see the candidates first)".into()),
            )
            .into());
        }
        let sizes: Vec<&str> = candidates.iter().map(|c| c.size.name.as_str()).collect();
        crate::commands::confirm::ask(&format!(
            "Create pool {} in cluster {}, trying {} in turn?",
            a.at.name,
            a.at.target.cluster,
            sizes.join(" then ")
        ))?;
    }
    let Some(first) = candidates.first().cloned() else {
        return Err(Error::no_fit("no candidate sizes", None).into());
    };
    let progress = Progress::default();
    let result = azure::run_with_spinner(p, &progress, Some(client), async |report| {
        Ok(crate::ops::pool::failover(client, catalog, (candidates, &opts, policy), (&report, &progress)).await)
    })?;
    let base = azure::base_url(&a.at.arm);
    match result {
        Ok(Failover::Existing(outcome)) => {
            p.note("note: the pool exists already, so there is nothing to fail over");
            crate::commands::pool::render(p, a.write.output, catalog, (&first, &outcome, None), base)?;
            Ok(())
        }
        Ok(Failover::DryRun { candidates, plan, location }) => {
            render_dry_run(p, a.write.output, &base, &candidates, &plan, location)
        }
        Ok(Failover::Done { attempts, created, location }) => {
            render_done(p, a, subscription, &attempts, created, location.as_deref())
        }
        Err(Stopped { error, attempts }) => {
            if !attempts.is_empty() {
                p.note(&format!("attempts before the failure:\n{}", attempts_table(&attempts)));
            }
            Err(Error::from(error).into())
        }
    }
}

/// The validated candidates (`ops::failover::candidates`): `--vm-size` then each
/// `--fallback-vm-size`, or the ranked recommendations in the cluster's region (read from the
/// cluster when `--location` is not given and credentials exist; `opts.location` then holds it).
fn candidates(
    ctx: &Ctx,
    catalog: &Catalog,
    a: &CreatePoolArgs,
    client: &ArmClient,
    subscription: &str,
    opts: &mut CreateOptions,
) -> Result<Vec<PoolSpec>, Error> {
    use crate::ops::failover::{CandidatesRequest, Sizes};
    let p = &ctx.printer;
    let sizes = match &a.vm_size {
        Some(size) => {
            // The same checks as without failover (stray workload flags, the size itself).
            let facts = crate::commands::pool::ClusterFacts::default();
            crate::commands::pool::spec(catalog, a, subscription, &facts, p)?;
            Sizes::Named(std::iter::once(size.clone()).chain(a.failover.fallback_vm_sizes.iter().cloned()).collect())
        }
        None => Sizes::Recommended(Box::new(a.recommend_request())),
    };
    let req = CandidatesRequest {
        pool: a.pool_request(subscription, String::new(), a.pool.gpu_driver),
        sizes,
        location: opts.location.clone(),
    };
    let progress = Progress::default();
    let store = opts.facts.clone();
    let found = azure::run_with_spinner(p, &progress, None, async |report| {
        Ok(crate::ops::failover::candidates((client, &store), catalog, req, report).await)
    })?
    .map_err(|e| crate::commands::pool::in_flags(e, "--recommend found no size that fits"))?;
    if let Some(list) = &found.ranked {
        let at = found.location.as_deref().map(|r| format!(" in {r}")).unwrap_or_default();
        p.note(&format!("failover candidates{at}: {}", list.join(", ")));
    }
    for n in found.specs.first().map(|s| s.notes.clone()).unwrap_or_default() {
        p.note(&format!("note: {}", crate::error::flag_text(&n)));
    }
    opts.location = found.location;
    Ok(found.specs)
}

fn zones_text(z: &[String]) -> String {
    if z.is_empty() {
        "-".to_owned()
    } else {
        z.join(",")
    }
}

/// The attempts as a table for people.
pub fn attempts_table(attempts: &[Attempt]) -> String {
    let rows: Vec<Vec<String>> = attempts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            vec![
                (i + 1).to_string(),
                t.vm_size.clone(),
                zones_text(&t.zones),
                if t.spot { "spot" } else { "on-demand" }.to_owned(),
                t.outcome.word().to_owned(),
                t.code
                    .clone()
                    .unwrap_or_else(|| if t.outcome == AttemptResult::Created { "-" } else { "preflight" }.to_owned()),
                t.message.clone(),
            ]
        })
        .collect();
    table(&["#", "VM SIZE", "ZONES", "PRIORITY", "OUTCOME", "CODE", "MESSAGE"], &[Align::Right], &rows)
}

fn render_dry_run(
    p: &Printer,
    format: Format,
    base: &str,
    candidates: &[Candidate],
    plan: &Plan,
    location: Option<String>,
) -> anyhow::Result<()> {
    let rows: Vec<Vec<String>> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            vec![
                (i + 1).to_string(),
                c.vm_size.clone(),
                zones_text(&c.zones),
                if c.spot { "spot" } else { "on-demand" }.to_owned(),
                c.preflight.clone(),
                c.reason.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let header = format!(
        "Dry run: no change is made. Failover candidates, in order{}:\n{}\nA real run sends one create request at a time, in this order.",
        location.as_deref().map(|l| format!(" (cluster in {l})")).unwrap_or_default(),
        table(&["#", "VM SIZE", "ZONES", "PRIORITY", "PREFLIGHT", "REASON"], &[Align::Right], &rows).trim_end()
    );
    crate::commands::dry_run::render_plan(p, format, base, plan, &header, json!({"candidates": candidates}))?;
    Ok(())
}

/// The next steps after every attempt failed, worded as commands to run.
fn next_steps(attempts: &[Attempt], quota_command: &dyn Fn(&str) -> String) -> Vec<String> {
    ops_failover::next_steps(attempts)
        .into_iter()
        .map(|s| match s {
            NextStep::RequestQuota { vm_size } => format!("ask for quota: {}", quota_command(&vm_size)),
            NextStep::ReserveCapacity => "reserve capacity: `az capacity reservation group create …` and `az capacity reservation create --sku SIZE \
             --capacity N …`, then pass --capacity-reservation-group ID"
                .to_owned(),
            NextStep::OtherRegion => {
                "try another region: `aksgpu recommend … --region R` lists where the sizes are offered".to_owned()
            }
        })
        .collect()
}

fn render_done(
    p: &Printer,
    a: &CreatePoolArgs,
    sub: &str,
    attempts: &[Attempt],
    created: Option<Box<Created>>,
    location: Option<&str>,
) -> anyhow::Result<()> {
    let loc = location.unwrap_or("{cluster-location}").to_owned();
    let quota_cmd = |size: &str| -> String {
        let nodes = a.pool.max_count.or(a.pool.count).unwrap_or(1);
        format!("aksgpu quota request --subscription {sub} --location {loc} --vm-size {size} --nodes {nodes}")
    };
    let table_text = attempts_table(attempts);
    let Some(c) = created else {
        let steps = next_steps(attempts, &quota_cmd);
        let v = json!({"status": "failed", "attempts": attempts, "created": Value::Null, "location": location, "next_steps": steps});
        let text = format!("No attempt created pool {}:\n{table_text}", a.at.name);
        emit(p, a.write.output, &Shown::new(text, v))?;
        let listed: Vec<String> = attempts
            .iter()
            .map(|t| {
                format!("{} [{}] {}", t.vm_size, zones_text(&t.zones), t.code.as_deref().unwrap_or(t.outcome.word()))
            })
            .collect();
        return Err(Error::NoFit {
            message: format!("all {} attempt(s) failed: {}", attempts.len(), listed.join("; ")).into(),
            hint: Some(steps.join("\n").into()),
        }
        .into());
    };
    let (spec, pool) = (&c.spec, &c.pool);
    let v = json!({
        "status": "created",
        "attempts": attempts,
        "created": {"vm_size": spec.size.name, "zones": spec.zones, "spot": spec.spot},
        "pool_id": crate::ops::pool::created_pool(spec, pool).map_or_else(|_| spec.path(), |p| p.pool_id),
        "provisioning_state": provisioning_state(pool),
        "location": location,
    });
    let text = format!(
        "Created pool {} in cluster {} as {} ({}) after {} attempt(s):\n{table_text}",
        spec.name,
        spec.cluster,
        spec.size.name,
        if spec.zones.is_empty() { "no zones".to_owned() } else { format!("zones {}", spec.zones.join(",")) },
        attempts.len()
    );
    emit(p, a.write.output, &Shown::new(text, v))?;
    Ok(())
}
