//! Typed errors, their exit codes and hints.
//!
//! Library code returns these; the top level (`lib::run`) wraps them in `anyhow` for context,
//! prints the chain with any `hint:` lines, and maps the first typed error it finds to the
//! documented exit code.

use crate::arm::ArmError;
use crate::catalog::CatalogError;
use crate::domain::setting::Words;

/// Documented exit codes.
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// Nothing fits, or an operation failed.
    pub const FAILED: u8 = 1;
    /// Usage or configuration error.
    pub const USAGE: u8 = 2;
    /// Authentication or authorisation error.
    pub const AUTH: u8 = 3;
    /// Timed out or still running.
    pub const TIMEOUT: u8 = 4;
    /// A bug in aksgpu (sysexits `EX_SOFTWARE`).
    pub const SOFTWARE: u8 = 70;
    /// Interrupted by Ctrl-C.
    pub const INTERRUPTED: u8 = 130;

    /// Every code with its meaning, in one place: `--help`, the man page's EXIT STATUS and the
    /// table in docs/reference.md (a test checks it lists the same codes) come from here.
    pub const TABLE: &[(u8, &str)] = &[
        (OK, "success (also when stdout is closed early, e.g. | head)"),
        (FAILED, "nothing fits, failed, refused or not confirmed; a file or system error; diff: differences"),
        (USAGE, "usage or configuration error (bad flag, bad file, misspelled feature); diff: any error"),
        (AUTH, "authentication or authorisation error"),
        (TIMEOUT, "timed out or still running (the Azure operation continues; `aksgpu wait` resumes)"),
        (SOFTWARE, "a bug in aksgpu: please report it"),
        (INTERRUPTED, "interrupted (Ctrl-C)"),
    ];

    /// The table as `--help` prints it.
    pub fn help() -> String {
        let mut out = String::from("Exit codes:");
        for (code, meaning) in TABLE {
            out.push_str(&format!("\n  {code:<4} {meaning}"));
        }
        out
    }
}

/// Errors with a known exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user asked for something invalid (exit 2).
    #[error("{}", flag_text(message))]
    Usage { message: Words, hint: Option<Words> },
    /// A `recommend` setting is invalid (exit 2): worded with the CLI flags here, with a
    /// GpuConfig's keys by the file front end.
    #[error("{}", flag_words(.0).0)]
    Setting(Box<crate::domain::setting::SettingError>),
    /// Nothing satisfies the request (exit 1).
    #[error("{}", flag_text(message))]
    NoFit { message: Words, hint: Option<Words> },
    /// The catalog could not be loaded (exit 2).
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// Azure (or the ARM client) failed; the exit code depends on how.
    #[error(transparent)]
    Arm(Box<crate::arm::ArmError>),
    /// A service other than Azure refused the credential (exit 3): a gated Hugging Face model.
    #[error("{}", flag_text(message))]
    Denied { message: Words, hint: Option<Words> },
    /// A service other than Azure could not be reached, failed or answered with something
    /// unusable (exit 1, as a network failure): the Hugging Face Hub.
    #[error("{}", flag_text(message))]
    Unavailable { message: Words, hint: Option<Words> },
    /// What was asked is still pending outside this run (exit 4, as an operation still
    /// running): a preview feature waiting for Microsoft's approval.
    #[error("{}", flag_text(message))]
    Pending { message: Words, hint: Option<Words> },
    /// Azure answered without a field the workflow needs (exit 1): the answer, not the
    /// request, is at fault.
    #[error("{field}")]
    Missing { field: crate::resources::MissingField, hint: Option<Words> },
    /// A preflight check refused the request (exit 1).
    #[error("{}", flag_text(message))]
    Refused { message: Words, hint: Option<Words> },
    /// Ctrl-C (exit 130).
    #[error("{message}")]
    Interrupted { message: String, hints: Vec<Words> },
    /// A confirmation answered "no" (exit 1): nothing was changed.
    #[error("not confirmed; nothing was changed")]
    NotConfirmed,
    /// Writing the result failed (exit 1); a closed pipe (`BrokenPipe`) exits 0 at the top.
    #[error("writing output")]
    Output(#[from] std::io::Error),
    /// Reading or writing a named file failed (exit 1).
    #[error("{}: cannot {action}: {source}", path.display())]
    Io { path: std::path::PathBuf, action: &'static str, source: std::io::Error },
    /// The operating system refused a resource the tool needs (threads, file descriptors, the
    /// async runtime): exit 1, like an I/O failure; not a bug and not a usage error.
    #[error("the system refused {what}: {source}")]
    System { what: &'static str, source: std::io::Error },
    /// A bug in aksgpu, not in the input or in Azure (exit 70, sysexits `EX_SOFTWARE`).
    #[error("internal error: {message}")]
    Internal { message: String },
    /// `diff` found differences: exit 1, reported as a result, not as an error.
    #[error("{}", flag_text(message))]
    Differences { message: Words, hint: Option<Words> },
}

impl Error {
    /// A usage error with a hint.
    pub fn usage(message: impl Into<Words>, hint: impl IntoHint) -> Self {
        Error::Usage { message: message.into(), hint: hint.into_hint() }
    }

    /// A refusal (exit 1) with a hint.
    pub fn refused(message: impl Into<Words>, hint: impl IntoHint) -> Self {
        Error::Refused { message: message.into(), hint: hint.into_hint() }
    }

    /// Nothing fits (exit 1), with a hint.
    pub fn no_fit(message: impl Into<Words>, hint: impl IntoHint) -> Self {
        Error::NoFit { message: message.into(), hint: hint.into_hint() }
    }

    /// An internal error (a bug): exit 70 with a request to report it.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::Internal { message: message.into() }
    }

    /// A failed read or write of `path`.
    pub fn io(path: impl Into<std::path::PathBuf>, action: &'static str, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), action, source }
    }

    /// The documented exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage { .. } | Error::Setting(_) | Error::Catalog(_) => exit::USAGE,
            Error::Denied { .. } => exit::AUTH,
            Error::NoFit { .. }
            | Error::Refused { .. }
            | Error::Unavailable { .. }
            | Error::Missing { .. }
            | Error::Output(_)
            | Error::Io { .. }
            | Error::System { .. }
            | Error::NotConfirmed => exit::FAILED,
            Error::Differences { .. } => exit::FAILED,
            Error::Internal { .. } => exit::SOFTWARE,
            Error::Pending { .. } => exit::TIMEOUT,
            Error::Arm(e) => arm_exit_code(e),
            Error::Interrupted { .. } => exit::INTERRUPTED,
        }
    }

    /// The fixes, when they are known.
    pub fn hints(&self) -> Vec<String> {
        match self {
            Error::Usage { hint, .. }
            | Error::NoFit { hint, .. }
            | Error::Refused { hint, .. }
            | Error::Denied { hint, .. }
            | Error::Unavailable { hint, .. }
            | Error::Pending { hint, .. }
            | Error::Missing { hint, .. }
            | Error::Differences { hint, .. } => hint.iter().map(flag_text).collect(),
            Error::Setting(e) => flag_words(e).1.into_iter().collect(),
            Error::Internal { .. } => vec![REPORT.to_owned()],
            Error::System { .. } => {
                vec!["the process ran out of a system resource: check `ulimit -n` (open files) and `ulimit -u`"
                    .to_owned()]
            }
            Error::Catalog(CatalogError::Parse { .. } | CatalogError::Invalid { .. }) => {
                vec!["fix the file, or drop --catalog / AKSGPU_CATALOG to use the bundled catalog".to_owned()]
            }
            Error::Catalog(_) => vec!["check the --catalog / AKSGPU_CATALOG path".to_owned()],
            Error::Arm(e) => e.hints().iter().map(flag_text).collect(),
            Error::Interrupted { hints, .. } => hints.iter().map(flag_text).collect(),
            Error::Output(_) | Error::Io { .. } | Error::NotConfirmed => vec![],
        }
    }

    /// The message and hint of an error worded in [`Words`], for a front end that names their
    /// settings its own way (a GpuConfig's keys); none for an error worded otherwise.
    pub fn words(&self) -> Option<(&Words, Option<&Words>)> {
        match self {
            Error::Usage { message, hint }
            | Error::NoFit { message, hint }
            | Error::Refused { message, hint }
            | Error::Denied { message, hint }
            | Error::Unavailable { message, hint }
            | Error::Pending { message, hint }
            | Error::Differences { message, hint } => Some((message, hint.as_ref())),
            _ => None,
        }
    }

    /// The first hint.
    pub fn hint(&self) -> Option<String> {
        self.hints().into_iter().next()
    }
}

/// A setting as the CLI names it: its canonical flag (`--location`).
pub fn flag(s: crate::domain::setting::Setting) -> String {
    format!("--{}", s.long())
}

/// Text naming settings, worded with the CLI's flags.
pub fn flag_text(w: &Words) -> String {
    w.render(flag, flag)
}

/// Words in JSON and YAML output are the CLI's: a string, each setting named by its flag
/// (`"--include-unpriced to list it"`), as the table says it.
impl serde::Serialize for Words {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&flag_text(self))
    }
}

/// What an error's hint may be given as: none (`None`), plain text, or [`Words`] naming settings.
pub trait IntoHint {
    /// The hint, if any.
    fn into_hint(self) -> Option<Words>;
}

impl IntoHint for Option<String> {
    fn into_hint(self) -> Option<Words> {
        self.map(Words::plain)
    }
}

impl IntoHint for String {
    fn into_hint(self) -> Option<Words> {
        Some(Words::plain(self))
    }
}

impl IntoHint for &str {
    fn into_hint(self) -> Option<Words> {
        Some(Words::plain(self))
    }
}

impl IntoHint for Words {
    fn into_hint(self) -> Option<Words> {
        Some(self)
    }
}

/// A refused setting worded with the CLI's flags; one resting on a catalog rule says how to
/// override it.
pub fn flag_words(e: &crate::domain::setting::SettingError) -> (String, Option<String>) {
    let (message, _) = e.render(flag, flag);
    let hint = e.hint.as_ref().map(|h| Words::new(h.as_str(), &e.settings));
    (message, with_override_words(hint, e.rule.as_ref()).as_ref().map(flag_text))
}

/// `hint`, then how to override catalog rule `(id, source)`, as [`Words`] the front end words.
pub fn with_override_words(hint: Option<Words>, rule: Option<&(String, String)>) -> Option<Words> {
    let Some((id, source)) = rule else { return hint };
    let also = crate::plan::agent_pool::override_hint(id, source);
    Some(match hint {
        Some(h) => h.then("; ", also),
        None => also,
    })
}

/// A refused pool setting (exit 2), worded with the CLI's flags: `--min-count: --min-count 3
/// is larger than --max-count 1`; one resting on a catalog rule says how to override it.
impl From<crate::plan::SpecError> for Error {
    fn from(e: crate::plan::SpecError) -> Self {
        let hint = with_override_words(e.hint.clone(), e.rule.as_deref());
        Error::Usage { message: e.words(), hint }
    }
}

/// What an internal error asks for.
pub const REPORT: &str =
    "this is a bug in aksgpu, not in your input: please report it with the command line, `aksgpu --version` and this message";

/// `diff`'s exit code for an error, as kubectl's: 1 means "differences", so an error that
/// would exit 1 (a 404 cluster, a refused connection) exits 2 instead.
pub fn diff_exit_code(code: u8) -> u8 {
    if code == exit::FAILED {
        exit::USAGE
    } else {
        code
    }
}

/// The exit code for an ARM failure: 3 for credentials and permissions, 4 when the outcome is
/// pending or unknown (the operation may go on in Azure), 2 for configuration, else 1.
fn arm_exit_code(e: &ArmError) -> u8 {
    match e {
        ArmError::Auth { .. } => exit::AUTH,
        ArmError::Http(h) if h.status == 401 || h.status == 403 => exit::AUTH,
        ArmError::TimedOut { .. }
        | ArmError::PollingLost { .. }
        | ArmError::OutcomeUnknown { .. }
        | ArmError::Unconfirmed { .. }
        | ArmError::Pending { .. }
        | ArmError::Deadline { .. } => exit::TIMEOUT,
        ArmError::Config { .. } => exit::USAGE,
        ArmError::Bug { .. } => exit::SOFTWARE,
        _ => exit::FAILED,
    }
}

impl From<crate::plan::cluster::ChangeRefused> for Error {
    fn from(e: crate::plan::cluster::ChangeRefused) -> Self {
        use crate::plan::cluster::ChangeRefused;
        match e {
            ChangeRefused::Setting(e) => Error::Setting(Box::new(e)),
            ChangeRefused::State { message, hint } => {
                Error::Refused { message: message.into(), hint: hint.map(Into::into) }
            }
            ChangeRefused::Conflict(e) => {
                let (message, hint) = flag_words(&e);
                Error::Refused { message: message.into(), hint: hint.map(Into::into) }
            }
            ChangeRefused::Missing(field) => Error::Missing { field, hint: None },
        }
    }
}

impl From<crate::resources::MissingField> for Error {
    fn from(field: crate::resources::MissingField) -> Self {
        Error::Missing { field, hint: None }
    }
}

impl From<crate::arm::ArmError> for Error {
    fn from(e: crate::arm::ArmError) -> Self {
        Error::Arm(Box::new(e))
    }
}

pub use crate::domain::did_you_mean;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_setting_is_a_usage_error_worded_with_flags() {
        use crate::domain::setting::{Setting, SettingError};
        let e = Error::Setting(Box::new(SettingError {
            settings: vec![Setting::Context],
            message: "{0} 9000 is too long".into(),
            hint: Some("use {0} 4096".into()),
            rule: None,
        }));
        assert_eq!(e.exit_code(), 2);
        assert_eq!(e.to_string(), "--context 9000 is too long");
        assert_eq!(e.hint().as_deref(), Some("use --context 4096"));
    }

    #[test]
    fn words_in_json_name_each_setting_by_its_flag() {
        use crate::domain::setting::Setting;
        let w = Words::new("{0} bf16 instead of {1}", &[Setting::Precision, Setting::KvCachePrecision]);
        assert_eq!(serde_json::to_value(&w).expect("json"), "--precision bf16 instead of --kv-cache-precision");
    }

    #[test]
    fn exit_codes_and_hints() {
        let e = Error::usage("bad", Some("do this".to_owned()));
        assert_eq!(e.exit_code(), 2);
        assert_eq!(e.hint().as_deref(), Some("do this"));
        assert_eq!(Error::NoFit { message: "x".into(), hint: None }.exit_code(), 1);
        assert_eq!(did_you_mean(&["a", "b", "c"]).as_deref(), Some("did you mean a, b or c?"));
        assert_eq!(did_you_mean(&[]), None);
        assert_eq!(Error::NotConfirmed.exit_code(), 1, "a \"no\" is not Ctrl-C (130)");
        assert_eq!(Error::internal("x").exit_code(), 70);
        assert!(Error::internal("x").hint().is_some_and(|h| h.contains("report")));
        let io = Error::io("/tmp/out.yaml", "write", std::io::Error::other("disk full"));
        assert_eq!(io.exit_code(), 1);
        assert!(io.to_string().contains("/tmp/out.yaml"), "{io}");
        assert_eq!((diff_exit_code(1), diff_exit_code(3), diff_exit_code(130)), (2, 3, 130));
    }

    #[test]
    fn arm_exit_codes() {
        use std::time::Duration;
        let code = |e: ArmError| Error::from(e).exit_code();
        assert_eq!(code(ArmError::Auth { message: "x".into(), hint: None }), 3);
        assert_eq!(
            code(ArmError::TimedOut { what: "x".into(), elapsed: Duration::from_secs(1), resume: "r".into() }),
            4
        );
        for e in [
            ArmError::OutcomeUnknown {
                method: "PUT".into(),
                path: "/p".into(),
                message: "m".into(),
                correlation_id: "c".into(),
            },
            ArmError::Unconfirmed { what: "w".into(), message: "m".into(), resume: "r".into() },
            ArmError::Deadline { method: "GET".into(), path: "/p".into(), waited: Duration::from_secs(5) },
        ] {
            assert_eq!(code(e), 4);
        }
        assert_eq!(code(ArmError::Config { message: "m".into(), hint: None }), 2);
        let bug = Error::from(ArmError::Bug { message: "a step without a method".into() });
        assert_eq!(bug.exit_code(), 70);
        assert!(bug.hint().is_some_and(|h| h.contains("report")), "{bug:?}");
    }

    /// Each class has one code, whatever raised it.
    #[test]
    fn classes_by_type() {
        let missing =
            Error::from(crate::resources::MissingField { resource: "cluster".into(), field: "location".into() });
        assert_eq!(missing.exit_code(), 1, "Azure's answer lacking a field is not a refused request");
        assert!(missing.to_string().contains("cluster has no location"), "{missing}");
        assert_eq!(Error::Pending { message: "m".into(), hint: None }.exit_code(), 4);
        let hub = Error::Unavailable { message: "cannot reach the Hub".into(), hint: Some("h".into()) };
        assert_eq!((hub.exit_code(), hub.hint().as_deref()), (1, Some("h")));
        let http = |status| {
            Error::from(ArmError::Http(Box::new(crate::arm::error::HttpFailure {
                method: "GET".into(),
                path: "/subscriptions".into(),
                status,
                body: None,
                snippet: String::new(),
                request_id: None,
                correlation_id: "c".into(),
                attempts: 1,
            })))
            .exit_code()
        };
        assert_eq!((http(401), http(403), http(404), http(500)), (3, 3, 1, 1));
    }
}
