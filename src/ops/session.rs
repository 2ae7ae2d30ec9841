//! The session every Azure workflow runs in: the ARM client built from the shared settings,
//! the subscription (an id, or a name resolved with one read), the dry run's choice between
//! reading with credentials and planning offline, and what Ctrl-C leaves true (the abort POST
//! included). The front end maps its flags into [`Connection`] and shows the spinner.

use std::future::Future;
use std::sync::Arc;

use crate::arm::auth::{self, AuthMethod, ProcessEnv, TokenCache};
use crate::arm::retry::Sleeper;
use crate::arm::{Cloud, Endpoint, Verbosity};
use crate::domain::setting::{Setting, Words};
use crate::error::Error;

pub use crate::arm::{ArmClient, ArmError};
pub use crate::provision::{Progress, Started};

/// How to reach Azure: the shared settings of every command that does.
#[derive(Debug, Clone)]
pub struct Connection {
    /// A subscription id or display name; `None`: `AZURE_SUBSCRIPTION_ID` or az's default.
    pub subscription: Option<String>,
    pub auth: Option<AuthMethod>,
    pub cloud: Cloud,
    /// Bounds everything: requests, retry waits, token fetches and polling.
    pub timeout: std::time::Duration,
    /// 0 quiet, 1 requests, 2 and more headers.
    pub verbosity: u8,
    /// Where request logs go (the front end's writer).
    pub log_sink: Option<fn(&str)>,
}

/// A client plus what was resolved on the way.
#[derive(Debug)]
pub struct Azure {
    pub client: ArmClient,
    pub method: AuthMethod,
    /// The credential (for tokens with other scopes, e.g. runCommand's clusterToken).
    pub source: Arc<dyn auth::TokenSource>,
    pub subscription: Result<(String, SubscriptionSource), SubscriptionError>,
}

pub use crate::arm::auth::SubscriptionOrigin;

/// Where the subscription came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionSource {
    /// The subscription setting gave a display name, resolved to its id with one read.
    ByName,
    /// As the credential layer found it: the setting's id, `AZURE_SUBSCRIPTION_ID` or az's
    /// default.
    Found(crate::arm::auth::SubscriptionOrigin),
}

/// Why there is no subscription to use.
#[derive(Debug, Clone)]
pub enum SubscriptionError {
    /// The name given for the subscription setting matches none, or several: usage (exit 2),
    /// the words naming the setting.
    Name { message: Words, hint: Words },
    /// None found, or the read that resolves a name failed (with its own class).
    Arm(Box<crate::arm::ArmError>),
}

impl From<SubscriptionError> for Error {
    fn from(e: SubscriptionError) -> Self {
        match e {
            SubscriptionError::Name { message, hint } => Error::usage(message, hint),
            SubscriptionError::Arm(e) => Error::Arm(e),
        }
    }
}

impl Azure {
    /// The credential, for workflows that mint other tokens.
    pub fn cred(&self) -> super::Cred {
        super::Cred { method: self.method, source: self.source.clone() }
    }
}

/// The ARM base URL in use (for printing plans).
pub fn base_url(cloud: Cloud) -> String {
    std::env::var("AKSGPU_ARM_ENDPOINT")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| cloud.arm_url().to_owned())
}

/// The subscription a dry run shows: an id given (checked), else `AZURE_SUBSCRIPTION_ID` or
/// az's default, else the placeholder `{subscription}`. No credential is needed.
pub fn dry_run_subscription(c: &Connection) -> Result<String, Error> {
    let env = ProcessEnv;
    if subscription_name(c).is_some() {
        // A name is resolved with a read, which a dry run does not make.
        return Ok("{subscription}".to_owned());
    }
    match auth::subscription(c.subscription.as_deref(), &env) {
        Ok((s, _)) => Ok(s),
        Err(e) if c.subscription.as_deref().is_some_and(|s| !s.trim().is_empty()) => Err(Error::from(e)),
        Err(_) => Ok("{subscription}".to_owned()),
    }
}

/// A dry run's reads, as `terraform plan` makes them: with credentials, `read(client,
/// subscription)` sends the plan's GETs (never a write) and its result shows the real values;
/// without credentials, or when they fail, `offline(subscription)` builds the plan from the
/// settings, with placeholders naming what would be read, and `note` is told why.
pub fn dry_run_reads<T>(
    c: &Connection,
    note: impl FnOnce(String),
    read: impl AsyncFnOnce(&ArmClient, &str) -> Result<T, Error>,
    offline: impl FnOnce(&str) -> Result<T, Error>,
) -> Result<T, Error> {
    let fallback = |why: String| -> Result<T, Error> {
        note(why);
        offline(&dry_run_subscription(c)?)
    };
    let az = match connect(c) {
        Ok(az) => az,
        Err(e) => return fallback(format!("no credentials ({e})")),
    };
    let sub = match &az.subscription {
        Ok((s, _)) => s.clone(),
        Err(e) => return fallback(Error::from(e.clone()).to_string()),
    };
    let client = az.client;
    match run_interruptible(&Progress::default(), None, read(&client, &sub)) {
        Err(Error::Arm(e)) if matches!(*e, crate::arm::ArmError::Auth { .. }) => {
            fallback(format!("credentials failed ({e})"))
        }
        r => r,
    }
}

/// Build the ARM client from the settings and the environment.
pub fn connect(c: &Connection) -> Result<Azure, Error> {
    let env = ProcessEnv;
    let endpoint = Endpoint::new(c.cloud, std::env::var("AKSGPU_ARM_ENDPOINT").ok().as_deref())?;
    let method = auth::choose(c.auth, &env)?;
    let source = auth::source(method, c.cloud, &env)?;
    let tokens = Some(TokenCache::new(source.clone(), endpoint.scope.clone()));
    let mut client = ArmClient::new(endpoint, tokens, Sleeper::from_env())?;
    client.deadline = std::time::Instant::now().checked_add(c.timeout);
    client.verbosity = verbosity(c);
    client.log_sink = c.log_sink;
    let subscription = match subscription_name(c) {
        Some(name) => resolve_name(&crate::ops::runtime()?, &client, name),
        None => auth::subscription(c.subscription.as_deref(), &env)
            .map(|(s, from)| (s, SubscriptionSource::Found(from)))
            .map_err(|e| SubscriptionError::Arm(Box::new(e))),
    };
    Ok(Azure { client, method, source, subscription })
}

/// The subscription when it is a name rather than an id.
fn subscription_name(c: &Connection) -> Option<&str> {
    c.subscription.as_deref().map(str::trim).filter(|s| !s.is_empty() && !auth::is_subscription_id(s))
}

/// The id of the subscription called `name` (az matches the display name, ignoring case):
/// one GET of the subscriptions list (Microsoft.Resources Subscriptions - List), every page.
fn resolve_name(
    rt: &tokio::runtime::Runtime,
    client: &ArmClient,
    name: &str,
) -> Result<(String, SubscriptionSource), SubscriptionError> {
    let subs: Vec<crate::resources::fleet::SubscriptionEntry> = rt
        .block_on(crate::provision::wire::list(client, &crate::plan::read_subscriptions()))
        .map_err(|e| SubscriptionError::Arm(Box::new(e)))?;
    // An entry without a display name matches no name; one without an id is no id (refused below).
    let display = |s: &crate::resources::fleet::SubscriptionEntry| s.display_name.clone().unwrap_or_default();
    let found: Vec<String> = subs
        .iter()
        .filter(|s| display(s).eq_ignore_ascii_case(name))
        .map(|s| s.subscription_id.clone().unwrap_or_default())
        .collect();
    match found.as_slice() {
        [id] if auth::is_subscription_id(id) => Ok((id.to_ascii_lowercase(), SubscriptionSource::ByName)),
        [] => {
            let names: Vec<String> = subs.iter().map(display).take(10).collect();
            Err(SubscriptionError::Name {
                message: subscription_words(format!(
                    "{{0}} {name:?}: no subscription of that name is visible to this credential"
                )),
                hint: if names.is_empty() {
                    "the credential sees no subscription; check `aksgpu auth status`".into()
                } else {
                    format!("pass an id, or one of: {}", names.join(", ")).into()
                },
            })
        }
        ids => Err(SubscriptionError::Name {
            message: subscription_words(format!("{{0}} {name:?}: {} subscriptions have that name", ids.len())),
            hint: format!("pass the id instead: {}", ids.join(", ")).into(),
        }),
    }
}

/// Words naming the subscription setting at `{0}`.
fn subscription_words(text: String) -> Words {
    Words::new(text, &[Setting::Subscription])
}

/// A client with no credentials (dry runs when none can be set up), logging as asked.
/// It builds no HTTP client until something is sent (see `ArmClient::with_read_timeout`).
pub fn offline(c: &Connection) -> Result<ArmClient, Error> {
    let endpoint = Endpoint::new(c.cloud, std::env::var("AKSGPU_ARM_ENDPOINT").ok().as_deref())?;
    let mut client = ArmClient::new(endpoint, None, Sleeper::from_env())?;
    client.verbosity = verbosity(c);
    client.log_sink = c.log_sink;
    Ok(client)
}

fn verbosity(c: &Connection) -> Verbosity {
    match c.verbosity {
        0 => Verbosity::Quiet,
        1 => Verbosity::Requests,
        _ => Verbosity::Headers,
    }
}

/// How long the abort POST may take before Ctrl-C gives up on its answer.
pub const ABORT_LIMIT: std::time::Duration = std::time::Duration::from_secs(15);

/// Run a future on a single-threaded runtime; Ctrl-C stops waiting and says what is true
/// (`Error::Interrupted`): nothing was changed, a write may have been accepted, or the
/// operation continues in Azure. Nothing is cancelled or deleted in Azure, except that with
/// `abort = Some(client)` and an abort step recorded in `progress` (`--abort-on-interrupt`),
/// Ctrl-C also sends that one POST `…/abort`, exactly once. A second Ctrl-C exits at once,
/// even while the abort is unanswered.
pub fn run_interruptible<T>(
    progress: &Progress,
    abort: Option<&ArmClient>,
    fut: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let rt = crate::ops::runtime()?;
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
async fn send_abort(client: &ArmClient, step: &crate::plan::Step) -> Result<(), AbortFailed> {
    let req = crate::provision::wire::request(step, None).map_err(|e| AbortFailed::Request(Box::new(e)))?.once();
    tokio::select! {
        r = tokio::time::timeout(ABORT_LIMIT, client.send(&req)) => match r {
            Ok(Ok(resp)) if resp.ok() => Ok(()),
            Ok(Ok(resp)) => Err(AbortFailed::Status(resp.status)),
            Ok(Err(e)) => Err(AbortFailed::Request(Box::new(e))),
            Err(_) => Err(AbortFailed::NoAnswer),
        },
        _ = tokio::signal::ctrl_c() => Err(AbortFailed::SecondInterrupt),
    }
}

/// Why the abort POST did not go through.
#[derive(Debug, thiserror::Error)]
enum AbortFailed {
    #[error("HTTP {0}")]
    Status(u16),
    #[error("{0}")]
    Request(Box<crate::arm::ArmError>),
    #[error("no answer within {}", crate::arm::error::human(ABORT_LIMIT))]
    NoAnswer,
    #[error("second Ctrl-C: stopped waiting for its answer")]
    SecondInterrupt,
}

/// The Ctrl-C error for what had been sent.
fn interrupted(s: Started, aborted: Option<Result<(), AbortFailed>>) -> Error {
    let (Some(res), Some(resume)) = (s.resource, s.resume) else {
        return Error::Interrupted {
            message: "interrupted before any change was sent: Nothing was changed in Azure".into(),
            hints: vec![],
        };
    };
    if s.in_flight {
        return Error::Interrupted {
            message: "interrupted while a change was in flight: it may have been accepted by Azure".into(),
            hints: vec![format!("resource: {res}").into(), Words::plain("check its state with: ").then("", resume)],
        };
    }
    let message = match aborted {
        Some(Ok(())) => "interrupted: stopped waiting and asked Azure to abort the operation (nothing was deleted)".into(),
        Some(Err(why)) => format!(
            "interrupted: stopped waiting; the abort request was sent once and failed ({why}), so the operation may continue in Azure"
        ),
        None => "interrupted: stopped waiting; the operation continues in Azure (nothing was cancelled or deleted)".into(),
    };
    Error::Interrupted {
        message,
        hints: vec![format!("resource: {res}").into(), Words::plain("resume with: ").then("", resume)],
    }
}

/// A run's client, as [`connect_or_offline`] made it.
#[derive(Debug)]
pub struct Connected {
    pub client: ArmClient,
    /// The resolved subscription; offline, the one given or the placeholder `{subscription}`.
    pub subscription: String,
    /// The credential; `None` offline.
    pub cred: Option<super::Cred>,
    /// Why the run plans offline (no credentials, or no subscription), for a note; `None`
    /// when connected.
    pub offline_because: Option<String>,
}

/// Connect; with `offline_ok` (a dry run), a missing credential or subscription gives a
/// client without credentials that sends nothing, and says why, instead of failing.
pub fn connect_or_offline(c: &Connection, offline_ok: bool) -> Result<Connected, Error> {
    let placeholder = || c.subscription.clone().unwrap_or_else(|| "{subscription}".to_owned());
    let offline_with = |why: String| -> Result<Connected, Error> {
        Ok(Connected { client: offline(c)?, subscription: placeholder(), cred: None, offline_because: Some(why) })
    };
    match connect(c) {
        Ok(az) => {
            let cred = az.cred();
            match az.subscription {
                Ok((s, _)) => {
                    Ok(Connected { client: az.client, subscription: s, cred: Some(cred), offline_because: None })
                }
                Err(e) if offline_ok => offline_with(Error::from(e).to_string()),
                Err(e) => Err(Error::from(e)),
            }
        }
        Err(e) if offline_ok => offline_with(format!("no credentials ({e})")),
        Err(e) => Err(e),
    }
}

/// The settings for reading a capacity reservation group named by its resource id (`recommend`
/// has no cloud, credential or timeout settings of its own): the subscription the id names,
/// Azure's public cloud, the default credential chain, and five minutes.
pub fn for_reservation(subscription: String, log_sink: Option<fn(&str)>) -> Connection {
    Connection {
        subscription: Some(subscription),
        auth: None,
        cloud: Cloud::AzureCloud,
        timeout: std::time::Duration::from_secs(300),
        verbosity: 0,
        log_sink,
    }
}

/// Whether the session's credential gives a token now (bounded by the client's deadline, else
/// the token deadline: a hung login endpoint cannot hold it), and until when. The token itself
/// never leaves the client.
pub async fn token_expiry(az: &Azure) -> Result<Option<std::time::SystemTime>, ArmError> {
    let cache = az.client.tokens().ok_or_else(|| ArmError::Auth { message: "no credential".into(), hint: None })?;
    let deadline = az.client.deadline.unwrap_or_else(|| std::time::Instant::now() + auth::TOKEN_DEADLINE);
    cache.token_until(deadline).await?;
    Ok(cache.expires_at().await)
}

/// Whether an error is a credential that failed (a dry run then plans offline).
pub fn is_auth_failure(e: &Error) -> bool {
    matches!(e, Error::Arm(a) if matches!(**a, ArmError::Auth { .. }))
}
