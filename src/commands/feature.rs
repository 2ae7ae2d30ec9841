//! `aksgpu register-feature` and `aksgpu feature list`: the preview features GPU pools need.

use std::time::Instant;

use serde_json::{json, Value};

use crate::cli::{FeatureListArgs, Format, RegisterFeatureArgs};
use crate::commands::session::{self as azure, base_url, subscription, Progress};
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::feature::{self as ops_feature, AlreadyDone, Feature, Registration as FeatureOutcome};
use crate::ops::Plan;
use crate::output::{emit, Printer, Shown};

pub(crate) fn print_plan(p: &Printer, format: Format, base: &str, plan: &Plan, extra: Value) -> Result<(), Error> {
    crate::commands::dry_run::render_plan(p, format, base, plan, "Dry run: no change is made.", extra)
}

/// Say on stderr how registering a feature went (shared by `register-feature`, `create-pool
/// --register-features` and `apply`).
pub fn feature_note(p: &Printer, feature: Feature<'_>, out: &FeatureOutcome) {
    let Feature { namespace, name, .. } = feature;
    match out {
        FeatureOutcome::AlreadyRegistered => p.note(&format!("{namespace}/{name} is already Registered")),
        FeatureOutcome::NotFound if ops_feature::went_ga(namespace, name) => p.note(&format!(
            "{namespace}/{name}: Azure no longer has this flag (FeatureNotFound): {}",
            ops_feature::NO_LONGER_PREVIEW
        )),
        FeatureOutcome::NotFound => p.note(&format!("{namespace}/{name} does not exist in this subscription")),
        FeatureOutcome::Registered { .. } => {
            p.note(&format!("{namespace}/{name} is Registered and {namespace} was refreshed"))
        }
        FeatureOutcome::Pending => {}
    }
}

/// `aksgpu register-feature`
pub fn register(ctx: &Ctx, a: &RegisterFeatureArgs) -> anyhow::Result<()> {
    let question = format!("Register the preview feature {}/{} on the subscription?", a.namespace, a.name);
    ops_feature::check_name(&a.namespace, &a.name)?;
    crate::commands::confirm::write(ctx, "feature register", a.write.yes, a.write.dry_run, &question)?;
    if a.write.dry_run {
        let (plan, found) = azure::dry_run_reads(
            &ctx.printer,
            &a.arm,
            async |client, sub| {
                ops_feature::dry_run_read(client, Feature { subscription: sub, namespace: &a.namespace, name: &a.name })
                    .await
            },
            |sub| {
                Ok((ops_feature::dry_run(Feature { subscription: sub, namespace: &a.namespace, name: &a.name }), None))
            },
        )?;
        if let Some(found) = found {
            let found = match found {
                AlreadyDone::Done(o) => outcome_word(&o),
                AlreadyDone::ProviderRefreshOnly => "registered; only the provider's re-registration is sent",
            };
            ctx.printer.note(&format!("note: {}/{} is {found}: a real run sends no registration", a.namespace, a.name));
        }
        return Ok(print_plan(&ctx.printer, a.write.output, &base_url(&a.arm), &plan, json!({}))?);
    }
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let progress = Progress::default();
    let deadline = az.client.deadline.unwrap_or_else(|| Instant::now() + a.arm.timeout);
    let client = az.client;
    let p = ctx.printer;
    let r = azure::run_with_spinner(&ctx.printer, &progress, None, async |report| {
        let feature = Feature { subscription: &sub, namespace: &a.namespace, name: &a.name };
        let out = ops_feature::register(&client, feature, deadline, &report, &progress).await?;
        feature_note(&p, feature, &out);
        Ok(out)
    });
    let out = r?;
    ops_feature::verdict(&a.namespace, &a.name, &out)?;
    let shown = Shown::new(
        format!("{}/{}: {}", a.namespace, a.name, outcome_word(&out)),
        json!({"feature": a.name, "namespace": a.namespace, "result": out}),
    );
    emit(&ctx.printer, a.write.output, &shown)?;
    Ok(())
}

fn outcome_word(o: &FeatureOutcome) -> &'static str {
    match o {
        FeatureOutcome::AlreadyRegistered => "already registered",
        FeatureOutcome::NotFound => ops_feature::NO_LONGER_PREVIEW,
        FeatureOutcome::Registered { .. } => "registered",
        FeatureOutcome::Pending => "pending approval",
    }
}

/// `aksgpu feature list`
pub fn list(ctx: &Ctx, a: &FeatureListArgs) -> anyhow::Result<()> {
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    let states =
        azure::run_interruptible(&Progress::default(), async { ops_feature::gpu_feature_states(&client, &sub).await })?;
    let rows: Vec<Value> = ops_feature::GPU_FEATURES
        .iter()
        .zip(&states)
        .map(|((n, what), s)| json!({"name": n, "namespace": ops_feature::NAMESPACE, "state": s.clone().unwrap_or_else(|| "NotFound".into()), "purpose": what}))
        .collect();
    let t: Vec<Vec<String>> = ops_feature::GPU_FEATURES
        .iter()
        .zip(&states)
        .map(|((n, what), s)| vec![(*n).to_owned(), s.clone().unwrap_or_else(|| "NotFound".into()), (*what).to_owned()])
        .collect();
    let text = crate::output::table(&["FEATURE", "STATE", "FOR"], &[crate::output::Align::Left; 3], &t);
    emit(&ctx.printer, a.output, &Shown::new(text, rows))?;
    Ok(())
}
