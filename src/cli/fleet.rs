//! The flags of `fleet` and `usage`.

use clap::{Args, ValueEnum};

use super::{ArmArgs, ClusterTarget, Format};
use crate::catalog::Severity;

/// `--fail-on`: exit 1 when a finding this severe or worse exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Info,
    Warning,
    Error,
}

impl FailOn {
    /// As a severity.
    pub fn severity(self) -> Severity {
        match self {
            FailOn::Info => Severity::Info,
            FailOn::Warning => Severity::Warning,
            FailOn::Error => Severity::Error,
        }
    }
}

/// The Azure options of `fleet`: as everywhere, but `--subscription` repeats.
#[derive(Debug, Clone, Args)]
pub struct FleetScopeArgs {
    /// A subscription id or name to cover (repeat it) [default: every subscription the credential can read].
    #[arg(long = "subscription", value_name = "ID|NAME", conflicts_with = "management_group")]
    pub subscriptions: Vec<String>,
    /// A management group id: every subscription under it.
    #[arg(long, value_name = "ID", value_parser = management_group)]
    pub management_group: Option<String>,
    /// Credential to use [default: AKSGPU_AUTH, else the first available in the documented order].
    #[arg(long, value_parser = super::auth_method())]
    pub auth: Option<crate::arm::auth::AuthMethod>,
    /// Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL).
    #[arg(long, value_parser = super::cloud(), default_value = "AzureCloud")]
    pub cloud: crate::arm::Cloud,
    /// Give up after this long.
    #[arg(long, default_value = "60m", value_parser = crate::units::parse_duration)]
    pub timeout: std::time::Duration,
    /// Log requests to stderr (-v), with headers (-vv). Tokens are always redacted.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Log everything -vv logs.
    #[arg(long)]
    pub debug: bool,
}

impl FleetScopeArgs {
    /// The shared Azure options (no single subscription).
    pub fn arm(&self) -> ArmArgs {
        ArmArgs {
            subscription: None,
            auth: self.auth,
            cloud: self.cloud,
            timeout: self.timeout,
            verbose: self.verbose,
            debug: self.debug,
        }
    }
}

/// The measurement window and threshold of `usage` and `fleet --usage`.
#[derive(Debug, Clone, Args)]
pub struct WindowArgs {
    /// Measure the last DURATION (7d, 36h, 90m).
    #[arg(long, value_name = "DURATION", default_value = "7d", value_parser = crate::units::parse_duration, conflicts_with_all = ["start", "end"])]
    pub since: std::time::Duration,
    /// Window start (RFC 3339, e.g. 2026-11-01T00:00:00Z); needs --end.
    #[arg(long, value_name = "TIME", value_parser = time, requires = "end")]
    pub start: Option<i64>,
    /// Window end (RFC 3339); needs --start.
    #[arg(long, value_name = "TIME", value_parser = time, requires = "start")]
    pub end: Option<i64>,
    /// A GPU whose utilisation stays below this percent is idle.
    #[arg(long, value_name = "PERCENT", default_value = "5", value_parser = percent, allow_negative_numbers = true)]
    pub idle_below: f64,
    /// Query this Prometheus endpoint instead of discovering the cluster's Azure Monitor workspace.
    #[arg(long, value_name = "URL", value_parser = endpoint)]
    pub prometheus_endpoint: Option<String>,
}

/// `aksgpu fleet`
#[derive(Debug, Args)]
#[command(after_help = "Exit codes: 0 read, 1 a finding at or above --fail-on (or a failure), 2 usage, 3 auth.")]
pub struct FleetArgs {
    #[command(flatten)]
    pub scope: FleetScopeArgs,
    /// Exit 1 when a finding of this severity or worse exists (for CI).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// Also measure each GPU pool from the cluster's managed Prometheus.
    #[arg(long)]
    pub usage: bool,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// `aksgpu usage`
#[derive(Debug, Args)]
pub struct UsageArgs {
    #[command(flatten)]
    pub arm: ArmArgs,
    #[command(flatten)]
    pub target: ClusterTarget,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub output: Format,
}

/// A management group id: 1–90 letters, digits, `-`, `_`, `.`, `(` or `)`, not ending in a
/// period (Azure's naming rules for Microsoft.Management/managementGroups).
fn management_group(text: &str) -> Result<String, String> {
    let t = text.trim();
    let t = t.rsplit('/').next().unwrap_or(t);
    if t.is_empty() {
        return Err("a management group id is needed (it is empty)".into());
    }
    let ok = t.len() <= 90
        && !t.ends_with('.')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '(' | ')'));
    if !ok {
        return Err(format!(
            "{text:?} is not a management group id: 1-90 letters, digits, -, _, ., ( or ), not ending in a period"
        ));
    }
    Ok(t.to_owned())
}

fn time(text: &str) -> Result<i64, String> {
    crate::fleet::usage::parse_rfc3339(text)
        .ok_or_else(|| format!("{text:?} is not a time; write RFC 3339, e.g. 2026-11-01T00:00:00Z"))
}

fn percent(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number"))?;
    if !v.is_finite() || !(0.0..=100.0).contains(&v) {
        return Err(format!("{text} is not a percentage between 0 and 100"));
    }
    Ok(v)
}

fn endpoint(text: &str) -> Result<String, String> {
    let u = url::Url::parse(text.trim()).map_err(|e| format!("{text:?} is not a URL: {e}"))?;
    let loopback = crate::arm::endpoint::is_loopback(&u);
    if u.scheme() != "https" && !(u.scheme() == "http" && loopback) {
        return Err(format!("{text} is not https (plain http is accepted on loopback only)"));
    }
    Ok(text.trim().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_values() {
        assert!(management_group("").is_err());
        assert!(management_group("bad id").is_err());
        assert!(management_group("ends.").is_err());
        assert_eq!(
            management_group("/providers/Microsoft.Management/managementGroups/ml-prod").as_deref(),
            Ok("ml-prod")
        );
        assert!(percent("-1").is_err() && percent("101").is_err() && percent("NaN").is_err());
        assert_eq!(percent("2.5"), Ok(2.5));
        assert!(endpoint("http://example.com").is_err());
        assert!(endpoint("http://127.0.0.1:9090").is_ok());
        assert!(endpoint("https://x.eastus.prometheus.monitor.azure.com").is_ok());
        assert!(time("2026-11-01T00:00:00Z").is_ok() && time("last week").is_err());
    }
}
