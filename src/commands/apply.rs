//! `aksgpu apply -f`, `aksgpu diff -f` and `aksgpu export`: the GPU setup of a cluster as
//! one file. The file becomes the same specs `create-pool` builds (`plan::gitops`); the live
//! state is read once; every change runs through the workflows the single commands run
//! (`ops::gitops`), in dependency order: features, pools (concurrently), operator, KAITO.
//! This module reads the files, connects, asks, and renders.

mod render;

use std::path::Path;

pub use crate::ops::gitops::{inputs, Input, MAX_FILE};
use std::time::Instant;

use serde_json::json;

use crate::cli::{ApplyArgs, ArmArgs, DiffArgs, ExportArgs, ManifestFormat};
use crate::commands::dry_run::PlanPricing;
use crate::commands::session as azure;
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::gitops::{self as adapter, Apply, Row, RowResult};
use crate::ops::gitops::{Action, Change, Desired, Live};
use crate::ops::operator::ReleaseView;
use crate::ops::pool::ClusterFacts;
use crate::ops::session::ArmClient;
use crate::ops::session::Progress;
use crate::ops::Cred;
use crate::ops::{Catalog, Facts as Store, Plan};

/// The file, validated, with a client for its cluster.
struct Loaded {
    catalog: Catalog,
    desired: Desired,
    client: ArmClient,
    /// The run's facts: the live state and every pool's preflight share one read of each.
    facts: Store,
    cred: Option<Cred>,
    base: String,
    printer: crate::output::Printer,
    timeout: std::time::Duration,
    /// The file as named on the command line (for resume hints).
    file: String,
}

impl Loaded {
    /// What `ops::gitops::execute` runs against.
    fn apply<'a>(&'a self, on_feature: crate::ops::feature::OnFeature<'a>) -> Apply<'a> {
        Apply {
            catalog: &self.catalog,
            desired: &self.desired,
            client: &self.client,
            facts: &self.facts,
            cred: self.cred.as_ref(),
            file: &self.file,
            on_feature,
            skip_preflight: false,
        }
    }
}

/// Read and validate the file (exit 2 when bad), then connect. With `offline_ok` (dry runs)
/// a missing credential leaves a client without one and `{subscription}` as placeholder.
fn load(
    ctx: &Ctx,
    input: &Input,
    (arm, currency): (&ArmArgs, Option<&str>),
    offline_ok: bool,
) -> anyhow::Result<Loaded> {
    // The catalog's own error (exit 2) and its hint reach the top with the context.
    let mut catalog = ctx.catalog()?;
    crate::commands::prices_for(&mut catalog, currency, &ctx.printer)?;
    let (cfg, subscription) = adapter::parse(input, arm.subscription.as_deref())?;
    let arm = ArmArgs { subscription, ..arm.clone() };
    let guess = arm.subscription.clone().unwrap_or_else(|| "{subscription}".to_owned());
    // What the file can be refused for on its own is refused before any request; a
    // `recommend:` pool is then ranked in the cluster's location: connect and read it first.
    adapter::check_alone(&catalog, input, &cfg)?;
    let early = match cfg.pools.iter().any(|p| p.recommend.is_some()) {
        true => Some(connect(&arm, offline_ok, &ctx.printer)?),
        false => None,
    };
    let facts = Store::with_cache_dir();
    let place = match &early {
        Some((client, sub, _)) => match azure::run_interruptible(&Progress::default(), async {
            adapter::cluster_place((client, &facts), sub, &cfg.cluster).await
        }) {
            Err(e) if offline_ok && crate::ops::session::is_auth_failure(&e) => {
                ctx.printer.note(&format!("note: {e}; recommend: ranks without the cluster's location"));
                ClusterFacts::default()
            }
            r => r?,
        },
        None => ClusterFacts::default(),
    };
    let mut desired = adapter::validate(&catalog, input, &cfg, &guess, &place)?;
    for spec in &desired.pools {
        // Said in the file's terms (`taints`, not `--node-taints`).
        let words = |w| crate::error::flag_text(&adapter::hint_words(w));
        for n in &spec.notes {
            ctx.printer.note(&format!("note: pool {}: {}", spec.name, words(n)));
        }
        for w in &spec.warnings {
            ctx.printer.note(&format!("warning: pool {}: {}", spec.name, words(w)));
        }
    }
    let (client, sub, cred) = match early {
        Some(c) => c,
        None => connect(&arm, offline_ok, &ctx.printer)?,
    };
    adapter::set_subscription(&mut desired, &sub);
    Ok(Loaded {
        catalog,
        desired,
        client,
        facts,
        cred,
        base: azure::base_url(&arm),
        printer: ctx.printer,
        timeout: arm.timeout,
        file: input.name.clone(),
    })
}

fn connect(
    arm: &ArmArgs,
    offline_ok: bool,
    p: &crate::output::Printer,
) -> Result<(ArmClient, String, Option<Cred>), Error> {
    let c = crate::ops::session::connect_or_offline(&azure::connection(arm), offline_ok)?;
    if let Some(why) = &c.offline_because {
        p.note(&format!("note: {why}; the plan comes from the file alone (placeholders for what would be read)"));
    }
    Ok((c.client, c.subscription, c.cred))
}

/// Read the live state and compare. `check_release`: read the operator's release through a
/// runCommand (a POST: only `apply` itself does).
fn read_and_diff(l: &Loaded, check_release: bool) -> Result<(Live, Vec<Change>), Error> {
    let deadline = Instant::now() + l.timeout;
    azure::run_interruptible(&Progress::default(), async {
        adapter::read_and_diff(
            (&l.client, &l.facts),
            (&l.catalog, &l.desired),
            l.cred.as_ref(),
            deadline,
            check_release,
        )
        .await
    })
}

/// `aksgpu diff -f FILE`: exit 0 nothing would change, 1 something would, 2 bad file.
pub fn diff(ctx: &Ctx, a: &DiffArgs) -> anyhow::Result<()> {
    let inputs = inputs(&a.file, a.arm.timeout)?;
    let (mut n, mut total, mut differ) = (0, 0, false);
    let mut docs = Files::new(ctx, a.output, &a.file, inputs.len());
    for input in &inputs {
        docs.start(&input.name);
        let read = load(ctx, input, (&a.arm, a.currency.as_deref()), false).and_then(|l| {
            let (live, changes) = read_and_diff(&l, false)?;
            let cost = pricing(&l, Some(&live));
            Ok((l, live, changes, cost))
        });
        let (l, live, changes, cost) = match read {
            Ok(x) => x,
            Err(e) => return docs.stop(e),
        };
        docs.add(&input.name, render::changes(&changes, &cost))?;
        if let Err(e) = quota_note(&l, &live, &changes) {
            return docs.stop(e.into());
        }
        differ |= adapter::any_changes(&changes);
        n += changes.iter().filter(|c| !matches!(c.action, Action::NoChange | Action::NotChecked)).count();
        total += changes.len();
    }
    docs.finish()?;
    if differ {
        return Err(Error::Differences {
            message: format!("{n} of {total} resource(s) would change (see ACTION)").into(),
            hint: Some(format!("apply it with: aksgpu apply -f {}", a.file.display()).into()),
        }
        .into());
    }
    Ok(())
}

/// The documents of the files of one `-f`, printed as [`render::files`] says: a directory's
/// files in one JSON or YAML document (even when a file fails: those before it, and its own
/// if it printed one), a single file's document as it is.
struct Files<'a> {
    p: &'a crate::output::Printer,
    format: crate::cli::Format,
    directory: bool,
    several: bool,
    /// Held back for one document (a directory, not a table).
    held: Vec<(String, render::Doc)>,
}

impl<'a> Files<'a> {
    fn new(ctx: &'a Ctx, format: crate::cli::Format, path: &Path, n: usize) -> Self {
        let directory = path.is_dir();
        Files { p: &ctx.printer, format, directory, several: n > 1, held: Vec::new() }
    }

    fn streams(&self) -> bool {
        !self.directory || self.format == crate::cli::Format::Table
    }

    /// A file begins: with several files in a table, its name.
    fn start(&self, name: &str) {
        if self.several && self.format == crate::cli::Format::Table {
            self.p.note(&format!("== {name}"));
        }
    }

    fn add(&mut self, name: &str, doc: impl Into<render::Doc>) -> Result<(), Error> {
        let doc = doc.into();
        if self.streams() {
            return render::files(self.p, self.format, false, vec![(name.to_owned(), doc)]);
        }
        self.held.push((name.to_owned(), doc));
        Ok(())
    }

    /// Print what is held back.
    fn finish(&mut self) -> Result<(), Error> {
        match self.streams() {
            true => Ok(()),
            false => render::files(self.p, self.format, true, std::mem::take(&mut self.held)),
        }
    }

    /// A file failed: print what is held back, then fail.
    fn stop(&mut self, e: anyhow::Error) -> anyhow::Result<()> {
        self.finish()?;
        Err(e)
    }
}

/// What `apply` would refuse for the vCPU quota of the pools it creates together, as a note:
/// `diff` reads the SKU and usages lists of the cluster's location, as apply's dry run does.
fn quota_note(l: &Loaded, live: &Live, changes: &[Change]) -> Result<(), Error> {
    let check = adapter::check_quota((&l.client, &l.facts), &l.desired, (live, changes));
    match azure::run_interruptible(&Progress::default(), async { Ok(check.await) })? {
        Err(Error::Refused { message, hint }) => {
            l.printer.note(&format!("note: apply would refuse: {}", crate::error::flag_text(&message)));
            if let Some(h) = hint {
                l.printer.note(&format!("hint: {}", crate::error::flag_text(&h)));
            }
            Ok(())
        }
        other => other,
    }
}

/// `aksgpu apply -f FILE`
pub fn apply(ctx: &Ctx, a: &ApplyArgs) -> anyhow::Result<()> {
    let inputs = inputs(&a.file, a.arm.timeout)?;
    let mut docs = Files::new(ctx, a.write.output, &a.file, inputs.len());
    for input in &inputs {
        docs.start(&input.name);
        let (doc, result) = apply_one(ctx, a, input);
        if let Some(d) = doc {
            docs.add(&input.name, d)?;
        }
        if let Err(e) = result {
            return docs.stop(e);
        }
    }
    docs.finish()?;
    Ok(())
}

/// What one file of `-f` printed (its document, when it got that far) and how it ended.
type FileOutcome = (Option<render::Doc>, anyhow::Result<()>);

/// `apply` for one file of `-f`.
fn apply_one(ctx: &Ctx, a: &ApplyArgs, input: &Input) -> FileOutcome {
    let l = match load(ctx, input, (&a.arm, a.currency.as_deref()), a.write.dry_run) {
        Ok(l) => l,
        Err(e) => return (None, Err(e)),
    };
    if a.write.dry_run {
        return match dry_run_doc(&l, (a.skip_preflight, a.read_release)) {
            Ok(d) => (Some(d), Ok(())),
            Err(e) => (None, Err(e.into())),
        };
    }
    let (live, changes) = match read_and_diff(&l, true) {
        Ok(x) => x,
        Err(e) => return (None, Err(e.into())),
    };
    let cost = pricing(&l, Some(&live));
    if let Some(refused) = refusal(&changes, &cost) {
        return refused;
    }
    if !adapter::any_changes(&changes) {
        let rows: Vec<Row> = changes.iter().map(|c| Row::of(c, RowResult::Unchanged, c.detail.clone())).collect();
        return (Some(render::results(&rows, &cost).into()), Ok(()));
    }
    let operator = adapter::operator_values(&l.catalog, &l.desired, Some(&live));
    if let Err(e) = confirm(ctx, a, (&l.desired.cluster, operator.as_ref()), &changes, &cost) {
        return (None, Err(e.into()));
    }
    let (rows, failure) = match execute(ctx, &l, (&live, &changes), a.skip_preflight) {
        Ok(x) => x,
        Err(e) => return (None, Err(e.into())),
    };
    let doc = Some(render::results(&rows, &cost).into());
    match failure {
        None => (doc, Ok(())),
        Some(e) => {
            let done = rows.iter().filter(|r| r.result == RowResult::Done).count();
            let not_run = rows.iter().filter(|r| r.result == RowResult::NotRun).count();
            // A refusal is not resumed by running again: its message and hint say what to change.
            let next = match e {
                Error::Refused { .. } => "change what the error says, then run the same apply again",
                _ => "run the same apply again to resume",
            };
            let e = anyhow::Error::new(e)
                .context(format!("apply stopped: {done} change(s) done, {not_run} not run; {next}"));
            (doc, Err(e))
        }
    }
}

/// A dry run's document: the plan, priced, with the changes when the live state was read.
fn dry_run_doc(l: &Loaded, (skip_preflight, read_release): (bool, bool)) -> Result<render::Doc, Error> {
    let (plan, changes, location, operator) = dry_run_plan(l, skip_preflight, read_release)?;
    let mut header = match &changes {
        Some(c) => format!("Dry run: no change is made. {}", render::summary(c)),
        None => "Dry run: no change is made. No credentials: every resource is shown as created; \
                 {…} placeholders stand for what would be read."
            .to_owned(),
    };
    // The operator's Helm values as YAML (not only inside the runCommand's archive).
    if let Some((values, read)) = &operator {
        let release = read.as_ref().map_or_else(
            || crate::commands::install_operator::RELEASE_NOTE.to_owned(),
            crate::commands::install_operator::release_text,
        );
        header.push_str(&format!(
            "\n\nGPU Operator values (values.yaml, attached to the runCommand as context):\n\n{values}\n{release}"
        ));
    }
    let why = if changes.is_some() {
        "Azure did not send the cluster's location"
    } else {
        "the cluster's region is not known offline: apply reads it from the cluster; run with credentials"
    };
    let extra = match changes {
        Some(c) => json!({"preflight": if skip_preflight { "skipped" } else { "read" }, "changes": c}),
        None => json!({"preflight": "not run"}),
    };
    let extra = match operator {
        Some((values, read)) => crate::commands::dry_run::with_release(extra, Some(values.as_str()), read.as_ref()),
        None => extra,
    };
    let cost = PlanPricing::new(&l.catalog, &adapter::pool_pricing(&l.desired), location.as_deref())
        .region_unknown_because(why);
    Ok(render::Doc::Plan(crate::commands::dry_run::priced_plan((&l.base, &plan, &header), extra, &cost)))
}

/// A refused or Failed resource stops `apply` before anything is sent: its document and error.
fn refusal(changes: &[Change], cost: &PlanPricing) -> Option<FileOutcome> {
    if let Some(r) = changes.iter().find(|c| c.action == Action::Refused) {
        let e = Error::Refused {
            message: format!("apply refused before sending anything: {} {}: {}", r.kind, r.name, r.detail).into(),
            hint: r.hint.clone(),
        };
        return Some((Some(render::changes(changes, cost).into()), Err(e.into())));
    }
    let f = changes.iter().find(|c| c.action == Action::Failed)?;
    let rows: Vec<Row> = changes
        .iter()
        .map(|c| match c.action {
            Action::Failed => Row::of(c, RowResult::Failed, c.detail.clone()),
            Action::NoChange => Row::of(c, RowResult::Unchanged, c.detail.clone()),
            _ => Row::of(c, RowResult::NotRun, "not run: nothing is built on a Failed pool"),
        })
        .collect();
    let e = Error::Refused {
        message: format!("apply refused before sending anything: pool {} is {}", f.name, f.detail).into(),
        hint: f.hint.clone(),
    };
    Some((Some(render::results(&rows, cost).into()), Err(e.into())))
}

/// Run the changes (features, pools, operator, KAITO) with a spinner: each row's result, and
/// the failure that stopped the run, if one did.
fn execute(
    ctx: &Ctx,
    l: &Loaded,
    (live, changes): (&Live, &[Change]),
    skip_preflight: bool,
) -> Result<(Vec<Row>, Option<Error>), Error> {
    let p = &ctx.printer;
    let progress = Progress::default();
    let started = Instant::now();
    let said = |f: crate::ops::feature::Feature<'_>, out: &crate::ops::feature::Registration| {
        crate::commands::feature::feature_note(p, f, out)
    };
    let run = Apply { skip_preflight, ..l.apply(&said) };
    azure::run_with_spinner(p, &progress, None, async |report| {
        Ok(adapter::execute(&run, (live, changes), started + l.timeout, report, &progress).await)
    })
}

fn confirm(
    ctx: &Ctx,
    a: &ApplyArgs,
    (cluster, operator): (&str, Option<&(String, Option<ReleaseView>)>),
    changes: &[Change],
    cost: &PlanPricing,
) -> Result<(), Error> {
    if a.write.yes {
        return Ok(());
    }
    if !ctx.printer.interactive {
        return Err(Error::usage(
            "apply changes Azure and costs money; without a terminal it needs --yes",
            Some("add --yes (or run `aksgpu diff -f FILE` / `apply --dry-run` first)".into()),
        ));
    }
    crate::output::emit(&ctx.printer, crate::cli::Format::Table, &render::changes(changes, cost))?;
    // The operator's release was read (apply's release check): what its install changes in it.
    let installs = changes.iter().any(|c| c.kind == "operator" && c.action == Action::Create);
    if let (true, Some((_, Some(view)))) = (installs, operator) {
        ctx.printer.note(&crate::commands::install_operator::release_text(view));
    }
    crate::commands::confirm::ask(&format!("Apply these changes to cluster {cluster}?"))
}

/// The dry run's steps: from the live state and only for what would change when credentials
/// exist; otherwise every resource as if created, with placeholders for what would be read.
/// A dry run's steps, the changes when the live state was read, the cluster's region, and the
/// operator's Helm values (with the release, when `read_release` read it).
type DryRunPlan = (Plan, Option<Vec<Change>>, Option<String>, Option<(String, Option<ReleaseView>)>);

fn dry_run_plan(l: &Loaded, skip_preflight: bool, read_release: bool) -> Result<DryRunPlan, Error> {
    let offline = |l: &Loaded| -> Result<DryRunPlan, Error> {
        if read_release && l.desired.operator.is_some() {
            return Err(Error::Refused {
                message: "the GPU Operator's release is read through the cluster, and this dry run has no credentials"
                    .into(),
                hint: Some("sign in (az login), or drop --read-release".into()),
            });
        }
        Ok((offline_plan(l)?, None, None, adapter::operator_values(&l.catalog, &l.desired, None)))
    };
    if l.cred.is_none() {
        return offline(l);
    }
    let (live, changes) = match read_and_diff(l, read_release) {
        Ok(x) => x,
        Err(e) if crate::ops::session::is_auth_failure(&e) => {
            l.printer.note(&format!("note: credentials failed ({e}); the plan comes from the file alone"));
            return offline(l);
        }
        Err(e) => return Err(e),
    };
    let progress = Progress::default();
    let at = (&l.client, &l.facts);
    let plan = azure::run_interruptible(&progress, async {
        let how = (l.timeout, skip_preflight);
        adapter::dry_run_steps(at, (&l.catalog, &l.desired), (&live, &changes), how, &progress).await
    })?;
    let operator = adapter::operator_values(&l.catalog, &l.desired, Some(&live));
    Ok((plan, Some(changes), adapter::cluster_location(&live.cluster), operator))
}

/// The file's pools priced in the cluster's region (read from `live`).
fn pricing(l: &Loaded, live: Option<&Live>) -> PlanPricing {
    adapter::plan_pricing(&l.catalog, &l.desired, live)
}

/// Without credentials: every resource as if created, placeholders for what would be read.
fn offline_plan(l: &Loaded) -> Result<Plan, Error> {
    adapter::offline_plan(&l.catalog, &l.desired)
}

/// `aksgpu export -g RG --cluster NAME`
pub fn export(ctx: &Ctx, a: &ExportArgs) -> anyhow::Result<()> {
    if let Some(path) = a.file.as_ref().filter(|p| !a.force && std::fs::symlink_metadata(p).is_ok()) {
        // Refused before anything is read from Azure.
        return Err(Error::usage(
            format!("--output-file {} exists; nothing was written", path.display()),
            Some("add --force to replace it, or write to stdout and redirect".to_owned()),
        )
        .into());
    }
    use crate::ops::gitops::{check_cluster, check_resource_group};
    let (rg, name) = (&a.target.resource_group, &a.target.cluster);
    // The names go into the request URLs: checked before anything is sent.
    check_resource_group(rg).and_then(|()| check_cluster(name)).map_err(Error::from)?;
    let catalog = ctx.catalog()?;
    let az = azure::connect(&a.arm)?;
    let sub = azure::subscription(&az)?;
    let client = az.client;
    let (cluster, pools, features) =
        azure::run_interruptible(&Progress::default(), async { adapter::read_export(&client, &sub, rg, name).await })?;
    let feats: Vec<(&str, Option<String>)> = features.iter().map(|(n, s)| (*n, s.clone())).collect();
    // The subscription read, so the file names the cluster it came from.
    let file = adapter::export(&catalog, Some(&sub), rg, name, &cluster, &pools, &feats)
        .map_err(|e| Error::refused(e.to_string(), None))?;
    let text = match a.output {
        ManifestFormat::Yaml => format!(
            "# aksgpu export of cluster {name} (resource group {rg}); apply with: aksgpu apply -f FILE\n{}",
            serde_yaml_ng::to_string(&file).map_err(|e| Error::internal(format!("writing the file as YAML: {e}")))?
        ),
        ManifestFormat::Json => serde_json::to_string_pretty(&file)? + "\n",
    };
    match &a.file {
        Some(path) => {
            if !a.force && std::fs::symlink_metadata(path).is_ok() {
                return Err(Error::usage(
                    format!("--output-file {} exists; nothing was written", path.display()),
                    Some("add --force to replace it, or write to stdout and redirect".to_owned()),
                )
                .into());
            }
            write_atomic(path, &text)?;
            ctx.printer.note(&format!("wrote {} ({} GPU pool(s))", path.display(), file.pools.len()));
        }
        None => ctx.printer.out(&text)?,
    }
    Ok(())
}

/// Write `text` to `path` through a new temporary file in the same directory, then rename it
/// over `path`: a reader never sees half a file, and a symlink planted at `path` is replaced,
/// never followed (`cache::write_user_file`). An error names `path`, not the temporary file.
fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    crate::ops::write_user_file(path, text.as_bytes()).map_err(|e| Error::io(path, "write", e))
}
