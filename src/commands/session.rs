//! The front end's side of a session with Azure (`ops::session`): the shared flags as a
//! `Connection`, the usage error when no subscription is known, and the spinner.

use std::future::Future;

use crate::cli::ArmArgs;
use crate::error::Error;
use crate::ops::session::{self, ArmError, Connection, SubscriptionError};

pub use crate::ops::session::{ArmClient, Azure, Progress};
pub use crate::ops::Cred;

/// The shared flags as the session's settings.
pub fn connection(args: &ArmArgs) -> Connection {
    Connection {
        subscription: args.subscription.clone(),
        auth: args.auth,
        cloud: args.cloud,
        timeout: args.timeout,
        verbosity: args.verbosity(),
        log_sink: Some(crate::output::log_line),
    }
}

/// The ARM base URL in use (for printing plans).
pub fn base_url(args: &ArmArgs) -> String {
    session::base_url(args.cloud)
}

/// The resolved subscription. A subscription that cannot be resolved is a usage error with
/// its hint (a name no subscription has, none given); a failure while resolving it keeps its
/// own class: a 401/403 exits 3, the network 1, the deadline 4.
pub fn subscription(az: &Azure) -> Result<String, Error> {
    match &az.subscription {
        Ok((s, _)) => Ok(s.clone()),
        Err(SubscriptionError::Arm(e)) => match &**e {
            ArmError::Config { message, hint } => Err(Error::Usage {
                message: message.clone().into(),
                hint: hint.clone().or_else(|| Some("pass --subscription or set AZURE_SUBSCRIPTION_ID".into())),
            }),
            _ => Err(Error::Arm(e.clone())),
        },
        Err(e) => Err(Error::from(e.clone())),
    }
}

/// The subscription a dry run shows (see `ops::session::dry_run_subscription`).
pub fn dry_run_subscription(args: &ArmArgs) -> Result<String, Error> {
    session::dry_run_subscription(&connection(args))
}

/// A dry run's reads (see `ops::session::dry_run_reads`); a plan made offline says why in a note.
pub fn dry_run_reads<T>(
    p: &crate::output::Printer,
    args: &ArmArgs,
    read: impl AsyncFnOnce(&ArmClient, &str) -> Result<T, Error>,
    offline: impl FnOnce(&str) -> Result<T, Error>,
) -> Result<T, Error> {
    let note = |why: String| {
        p.note(&format!("note: {why}: the plan comes from the flags alone (placeholders for what would be read)"))
    };
    session::dry_run_reads(&connection(args), note, read, offline)
}

/// Build the ARM client from the shared flags and the environment.
pub fn connect(args: &ArmArgs) -> Result<Azure, Error> {
    session::connect(&connection(args))
}

/// A client with no credentials (dry runs when none can be set up), logging as `-v` asks.
pub fn offline(args: &ArmArgs) -> Result<ArmClient, Error> {
    session::offline(&connection(args))
}

/// Run a future with Ctrl-C handling (see `ops::session::run_interruptible`); exit 130 when
/// interrupted.
pub fn run_interruptible<T>(progress: &Progress, fut: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
    session::run_interruptible(progress, None, fut)
}

pub use crate::output::Spinner;

/// Run `f` with a progress spinner (shown only on a terminal) fed by the `report` it is given,
/// and with Ctrl-C handling as in `ops::session::run_interruptible` (`abort`: the one abort
/// POST `--abort-on-interrupt` sends).
pub fn run_with_spinner<T>(
    printer: &crate::output::Printer,
    progress: &Progress,
    abort: Option<&ArmClient>,
    f: impl AsyncFnOnce(&(dyn Fn(&str) + Sync)) -> Result<T, Error>,
) -> Result<T, Error> {
    let spinner = Spinner::new(printer.stderr_tty);
    let report = |s: &str| spinner.set(s);
    let r = session::run_interruptible(progress, abort, f(&report));
    spinner.finish();
    r
}
