//! Shared wiring for commands that talk to Azure: the client, the runtime, Ctrl-C, progress.

use std::future::Future;
use std::sync::Arc;

use crate::arm::auth::{self, AuthMethod, ProcessEnv, TokenCache};
use crate::arm::retry::Sleeper;
use crate::arm::{ArmClient, ArmError, Endpoint, Verbosity};
use crate::cli::ArmArgs;
use crate::error::Error;
use crate::provision::Progress;

/// A client plus what was resolved on the way.
#[derive(Debug)]
pub struct Azure {
    pub client: ArmClient,
    pub method: AuthMethod,
    /// The credential (for tokens with other scopes, e.g. runCommand's clusterToken).
    pub source: Arc<dyn auth::TokenSource>,
    pub subscription: Result<(String, &'static str), ArmError>,
}

/// The ARM base URL in use (for printing plans).
pub fn base_url(args: &ArmArgs) -> String {
    std::env::var("AKSGPU_ARM_ENDPOINT")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| args.cloud.arm_url().to_owned())
}

/// The resolved subscription. A subscription that cannot be resolved is a usage error with
/// its hint (a name no subscription has, none given); a failure while resolving it keeps its
/// own class: a 401/403 exits 3, the network 1, the deadline 4.
pub fn subscription(az: &Azure) -> Result<String, Error> {
    match &az.subscription {
        Ok((s, _)) => Ok(s.clone()),
        Err(ArmError::Config { message, hint }) => Err(Error::usage(
            message.clone(),
            hint.clone().or_else(|| Some("pass --subscription or set AZURE_SUBSCRIPTION_ID".into())),
        )),
        Err(e) => Err(Error::from(e.clone())),
    }
}

/// The subscription a dry run shows: `--subscription` (checked), else `AZURE_SUBSCRIPTION_ID`
/// or az's default, else the placeholder `{subscription}`. No credential is needed.
pub fn dry_run_subscription(args: &ArmArgs) -> Result<String, Error> {
    let env = ProcessEnv;
    if subscription_name(args).is_some() {
        // A name is resolved with a read, which a dry run does not make.
        return Ok("{subscription}".to_owned());
    }
    match auth::subscription(args.subscription.as_deref(), &env) {
        Ok((s, _)) => Ok(s),
        Err(e) if args.subscription.as_deref().is_some_and(|s| !s.trim().is_empty()) => Err(Error::from(e)),
        Err(_) => Ok("{subscription}".to_owned()),
    }
}

/// A dry run's reads, as `terraform plan` makes them: with credentials, `read(client,
/// subscription)` sends the plan's GETs (never a write) and its result shows the real values;
/// without credentials, or when they fail, `offline(subscription)` builds the plan from the
/// flags, with placeholders naming what would be read (and a note says why).
pub fn dry_run_reads<T>(
    p: &crate::output::Printer,
    args: &ArmArgs,
    read: impl AsyncFnOnce(&ArmClient, &str) -> Result<T, Error>,
    offline: impl FnOnce(&str) -> Result<T, Error>,
) -> Result<T, Error> {
    let fallback = |why: String| -> Result<T, Error> {
        p.note(&format!("note: {why}: the plan comes from the flags alone (placeholders for what would be read)"));
        offline(&dry_run_subscription(args)?)
    };
    let az = match connect(args) {
        Ok(az) => az,
        Err(e) => return fallback(format!("no credentials ({e})")),
    };
    let sub = match &az.subscription {
        Ok((s, _)) => s.clone(),
        Err(e) => return fallback(e.to_string()),
    };
    let client = az.client;
    match run_interruptible(&Progress::default(), read(&client, &sub)) {
        Err(Error::Arm(e)) if matches!(*e, ArmError::Auth { .. }) => fallback(format!("credentials failed ({e})")),
        r => r,
    }
}

/// A dry run as shown: JSON/YAML `{"dry_run": true, "steps": [...], …extra}`, or a listing
/// with each request, its headers and its body.
#[derive(Debug, serde::Serialize)]
pub struct DryRun {
    #[serde(skip)]
    header: String,
    /// Printed after the steps in a table (the plan's cost).
    #[serde(skip)]
    footer: String,
    dry_run: bool,
    steps: Vec<crate::plan::Step>,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

impl DryRun {
    /// The plan with absolute URLs under `base`, a header line, and extra fields for scripts.
    pub fn new(base: &str, plan: &crate::plan::Plan, header: &str, extra: serde_json::Value) -> Self {
        let extra = match extra {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        Self {
            header: header.to_owned(),
            footer: String::new(),
            dry_run: true,
            steps: plan.absolute(base).steps,
            extra,
        }
    }
}

impl crate::output::Render for DryRun {
    fn table(&self) -> String {
        let mut out = format!("{}\n", self.header);
        for (i, s) in self.steps.iter().enumerate() {
            out.push_str(&format!("\n{}. {} {}\n   {}\n", i + 1, s.method, s.url, s.purpose));
            if let Some(when) = &s.when {
                out.push_str(&format!("   sent {when}\n"));
            }
            if let Some(f) = s.follow {
                out.push_str(&format!("   {}\n", f.describe()));
            }
            if let Some(until) = &s.repeat {
                out.push_str(&format!("   sent again {until}\n"));
            }
            for (k, v) in &s.headers {
                out.push_str(&format!("   {k}: {v}\n"));
            }
            if let Some(b) = &s.body {
                let pretty = serde_json::to_string_pretty(b).unwrap_or_default();
                out.push_str(&pretty.lines().map(|l| format!("   {l}\n")).collect::<String>());
            }
        }
        if !self.footer.is_empty() {
            out.push('\n');
            out.push_str(&self.footer);
        }
        out
    }
}

/// Print a dry-run plan with its cost: the table after the steps, `cost` in JSON and YAML.
pub fn render_priced_plan(
    p: &crate::output::Printer,
    format: crate::cli::Format,
    (base, plan, header): (&str, &crate::plan::Plan, &str),
    extra: serde_json::Value,
    cost: &crate::commands::money::PlanPricing,
) -> Result<(), Error> {
    Ok(crate::output::emit(p, format, &priced_plan((base, plan, header), extra, cost))?)
}

/// A dry-run plan with its cost (see [`render_priced_plan`]), not yet printed.
pub fn priced_plan(
    (base, plan, header): (&str, &crate::plan::Plan, &str),
    extra: serde_json::Value,
    cost: &crate::commands::money::PlanPricing,
) -> DryRun {
    let mut d = DryRun::new(base, plan, header, extra);
    d.footer = crate::commands::money::plan_pricing_text(cost);
    d.extra.insert("cost".into(), serde_json::to_value(cost).unwrap_or_default());
    d
}

/// Print a dry-run plan (see [`DryRun`]).
pub fn render_plan(
    p: &crate::output::Printer,
    format: crate::cli::Format,
    base: &str,
    plan: &crate::plan::Plan,
    header: &str,
    extra: serde_json::Value,
) -> Result<(), Error> {
    Ok(crate::output::emit(p, format, &DryRun::new(base, plan, header, extra))?)
}

pub use crate::ops::Cred;

/// Build the ARM client from the shared flags and the environment.
pub fn connect(args: &ArmArgs) -> Result<Azure, Error> {
    let env = ProcessEnv;
    let endpoint = Endpoint::new(args.cloud, std::env::var("AKSGPU_ARM_ENDPOINT").ok().as_deref())?;
    let method = auth::choose(args.auth, &env)?;
    let source = auth::source(method, args.cloud, &env)?;
    let tokens = Some(TokenCache::new(source.clone(), endpoint.scope.clone()));
    let mut client = ArmClient::new(endpoint, tokens, Sleeper::from_env())?;
    // `--timeout` bounds everything: requests, retry waits, token fetches and polling.
    client.deadline = std::time::Instant::now().checked_add(args.timeout);
    client.verbosity = verbosity(args);
    client.log_sink = Some(crate::output::log_line);
    let subscription = match subscription_name(args) {
        Some(name) => resolve_name(&crate::error::runtime()?, &client, name),
        None => auth::subscription(args.subscription.as_deref(), &env),
    };
    Ok(Azure { client, method, source, subscription })
}

/// `--subscription` when it is a name rather than an id.
fn subscription_name(args: &ArmArgs) -> Option<&str> {
    args.subscription.as_deref().map(str::trim).filter(|s| !s.is_empty() && !auth::is_subscription_id(s))
}

/// The id of the subscription called `name` (az matches the display name, ignoring case):
/// one GET of the subscriptions list (Microsoft.Resources Subscriptions - List), every page.
fn resolve_name(
    rt: &tokio::runtime::Runtime,
    client: &ArmClient,
    name: &str,
) -> Result<(String, &'static str), ArmError> {
    let subs = rt.block_on(crate::provision::wire::list(client, &crate::plan::read_subscriptions()))?;
    let field = |s: &serde_json::Value, k: &str| s.get(k).and_then(serde_json::Value::as_str).unwrap_or("").to_owned();
    let found: Vec<String> = subs
        .iter()
        .filter(|s| field(s, "displayName").eq_ignore_ascii_case(name))
        .map(|s| field(s, "subscriptionId"))
        .collect();
    match found.as_slice() {
        [id] if auth::is_subscription_id(id) => Ok((id.to_ascii_lowercase(), "--subscription (by name)")),
        [] => {
            let names: Vec<String> = subs.iter().map(|s| field(s, "displayName")).take(10).collect();
            Err(ArmError::Config {
                message: format!("--subscription {name:?}: no subscription of that name is visible to this credential"),
                hint: Some(if names.is_empty() {
                    "the credential sees no subscription; check `aksgpu auth status`".to_owned()
                } else {
                    format!("pass an id, or one of: {}", names.join(", "))
                }),
            })
        }
        ids => Err(ArmError::Config {
            message: format!("--subscription {name:?}: {} subscriptions have that name", ids.len()),
            hint: Some(format!("pass the id instead: {}", ids.join(", "))),
        }),
    }
}

/// A client with no credentials (dry runs when none can be set up), logging as `-v` asks.
/// It builds no HTTP client until something is sent (see `ArmClient::with_read_timeout`).
pub fn offline(args: &ArmArgs) -> Result<ArmClient, Error> {
    let endpoint = Endpoint::new(args.cloud, std::env::var("AKSGPU_ARM_ENDPOINT").ok().as_deref())?;
    let mut client = ArmClient::new(endpoint, None, Sleeper::from_env())?;
    client.verbosity = verbosity(args);
    client.log_sink = Some(crate::output::log_line);
    Ok(client)
}

fn verbosity(args: &ArmArgs) -> Verbosity {
    match args.verbosity() {
        0 => Verbosity::Quiet,
        1 => Verbosity::Requests,
        _ => Verbosity::Headers,
    }
}

/// Run a future on a single-threaded runtime; Ctrl-C stops waiting and says what is true
/// (exit 130): nothing was changed, a write may have been accepted, or the operation
/// continues in Azure. Nothing is cancelled or deleted in Azure.
pub fn run_interruptible<T>(progress: &Progress, fut: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
    run_interruptible_abort(progress, None, fut)
}

/// How long the abort POST may take before Ctrl-C gives up on its answer.
pub const ABORT_LIMIT: std::time::Duration = std::time::Duration::from_secs(15);

/// Like `run_interruptible`; with `abort = Some(client)` and an abort URL recorded in
/// `progress` (`--abort-on-interrupt`), Ctrl-C also sends that one POST `…/abort`, exactly
/// once. A second Ctrl-C exits at once, even while the abort is unanswered.
pub fn run_interruptible_abort<T>(
    progress: &Progress,
    abort: Option<&ArmClient>,
    fut: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let rt = crate::error::runtime()?;
    rt.block_on(async {
        tokio::select! {
            r = fut => r,
            _ = tokio::signal::ctrl_c() => {
                let s = progress.started();
                let aborted = match (abort, &s.abort) {
                    (Some(client), Some(step)) if !s.in_flight => Some(send_abort(client, step).await),
                    _ => None,
                };
                Err(interrupted(s, aborted))
            }
        }
    })
}

/// Send the abort POST once (no retry), giving up on its answer after `ABORT_LIMIT` or at a
/// second Ctrl-C. `Ok(())` when Azure accepted it, else why not.
async fn send_abort(client: &ArmClient, step: &crate::plan::Step) -> Result<(), String> {
    let req = crate::provision::wire::request(step, None).map_err(|e| e.to_string())?.once();
    tokio::select! {
        r = tokio::time::timeout(ABORT_LIMIT, client.send(&req)) => match r {
            Ok(Ok(resp)) if resp.ok() => Ok(()),
            Ok(Ok(resp)) => Err(format!("HTTP {}", resp.status)),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {}", crate::arm::error::human(ABORT_LIMIT))),
        },
        _ = tokio::signal::ctrl_c() => Err("second Ctrl-C: stopped waiting for its answer".into()),
    }
}

/// The Ctrl-C error for what had been sent.
fn interrupted(s: crate::provision::Started, aborted: Option<Result<(), String>>) -> Error {
    let (Some(res), Some(resume)) = (s.resource, s.resume) else {
        return Error::Interrupted {
            message: "interrupted before any change was sent: Nothing was changed in Azure".into(),
            hints: vec![],
        };
    };
    if s.in_flight {
        return Error::Interrupted {
            message: "interrupted while a change was in flight: it may have been accepted by Azure".into(),
            hints: vec![format!("resource: {res}"), format!("check its state with: {resume}")],
        };
    }
    let message = match aborted {
        Some(Ok(())) => "interrupted: stopped waiting and asked Azure to abort the operation (nothing was deleted)".into(),
        Some(Err(why)) => format!(
            "interrupted: stopped waiting; the abort request was sent once and failed ({why}), so the operation may continue in Azure"
        ),
        None => "interrupted: stopped waiting; the operation continues in Azure (nothing was cancelled or deleted)".into(),
    };
    Error::Interrupted { message, hints: vec![format!("resource: {res}"), format!("resume with: {resume}")] }
}

pub use crate::output::Spinner;

/// Run `f` with a progress spinner (shown only on a terminal) fed by the `report` it is given,
/// and with Ctrl-C handling as in `run_interruptible_abort`.
pub fn run_with_spinner<T>(
    printer: &crate::output::Printer,
    progress: &Progress,
    abort: Option<&ArmClient>,
    f: impl AsyncFnOnce(&(dyn Fn(&str) + Sync)) -> Result<T, Error>,
) -> Result<T, Error> {
    let spinner = Spinner::new(printer.stderr_tty);
    let report = |s: &str| spinner.set(s);
    let r = run_interruptible_abort(progress, abort, f(&report));
    spinner.finish();
    r
}
