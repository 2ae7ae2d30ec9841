//! Where ARM is, and which URLs may carry the bearer token.
//!
//! The token goes only to the configured ARM origin (scheme, host, port). `https` is required,
//! except for loopback hosts, which is how tests and local fakes reach the client through
//! `AKSGPU_ARM_ENDPOINT`.

use reqwest::Url;

use super::error::ArmError;

/// Azure clouds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cloud {
    AzureCloud,
    AzureChinaCloud,
    AzureUsGovernment,
}

impl Cloud {
    /// Every cloud, in the order the CLI lists them.
    pub const ALL: &'static [Cloud] = &[Cloud::AzureCloud, Cloud::AzureChinaCloud, Cloud::AzureUsGovernment];

    /// The name az uses (`az cloud list`).
    pub fn name(self) -> &'static str {
        match self {
            Cloud::AzureCloud => "AzureCloud",
            Cloud::AzureChinaCloud => "AzureChinaCloud",
            Cloud::AzureUsGovernment => "AzureUSGovernment",
        }
    }

    /// The audience of Azure Monitor managed Prometheus query tokens, which is also the
    /// domain its query endpoints live under (learn.microsoft.com
    /// azure-monitor/metrics/prometheus-api-promql; docs.azure.cn for the China cloud).
    pub fn prometheus_audience(self) -> &'static str {
        match self {
            Cloud::AzureCloud => "https://prometheus.monitor.azure.com",
            Cloud::AzureChinaCloud => "https://prometheus.monitor.azure.cn",
            Cloud::AzureUsGovernment => "https://prometheus.monitor.azure.us",
        }
    }

    /// The ARM base URL.
    pub fn arm_url(self) -> &'static str {
        match self {
            Cloud::AzureCloud => "https://management.azure.com",
            Cloud::AzureChinaCloud => "https://management.chinacloudapi.cn",
            Cloud::AzureUsGovernment => "https://management.usgovcloudapi.net",
        }
    }
}

/// The ARM endpoint in use.
#[derive(Debug, Clone)]
pub struct Endpoint {
    base: Url,
    /// OAuth scope for tokens.
    pub scope: String,
}

/// True for 127.0.0.0/8, ::1 and localhost.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

impl Endpoint {
    /// The endpoint for a cloud, or the override (`AKSGPU_ARM_ENDPOINT`).
    pub fn new(cloud: Cloud, override_url: Option<&str>) -> Result<Self, ArmError> {
        let default_scope = format!("{}/.default", cloud.arm_url());
        let text = override_url.map(str::trim).filter(|s| !s.is_empty()).unwrap_or(cloud.arm_url());
        let base = Url::parse(text).map_err(|e| ArmError::Config {
            message: format!("ARM endpoint {text:?} is not a URL: {e}"),
            hint: Some("set AKSGPU_ARM_ENDPOINT to a URL such as https://management.azure.com".into()),
        })?;
        match base.scheme() {
            "https" => {}
            "http" if is_loopback(&base) => {}
            "http" => {
                return Err(ArmError::Config {
                    message: format!("ARM endpoint {text} uses plain http on a non-loopback host"),
                    hint: Some("use https; plain http is accepted only for 127.0.0.1, ::1 or localhost".into()),
                })
            }
            other => {
                return Err(ArmError::Config {
                    message: format!("ARM endpoint {text} has unsupported scheme {other}"),
                    hint: Some("use an https URL".into()),
                })
            }
        }
        Ok(Self { base, scope: default_scope })
    }

    /// The endpoint of another Azure service whose token has `scope` (a Prometheus query
    /// endpoint): https, or plain http on loopback only. The token goes to this origin alone.
    pub fn service(url: &str, scope: &str) -> Result<Self, ArmError> {
        let base = Url::parse(url.trim())
            .map_err(|e| ArmError::Config { message: format!("endpoint {url:?} is not a URL: {e}"), hint: None })?;
        if base.scheme() != "https" && !(base.scheme() == "http" && is_loopback(&base)) {
            return Err(ArmError::Config {
                message: format!("endpoint {url} is not https (plain http is accepted on loopback only)"),
                hint: Some("use the https query endpoint of the Azure Monitor workspace".into()),
            });
        }
        Ok(Self { base, scope: scope.to_owned() })
    }

    /// True when this endpoint is on loopback (a local fake).
    pub fn is_loopback(&self) -> bool {
        is_loopback(&self.base)
    }

    /// The base URL without a trailing slash.
    pub fn base(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }

    /// Resolve a path (`/subscriptions/…`) or an absolute URL.
    pub fn resolve(&self, path_or_url: &str) -> Result<Url, ArmError> {
        if path_or_url.starts_with("http://") || path_or_url.starts_with("https://") {
            let u = Url::parse(path_or_url).map_err(|e| ArmError::Config {
                message: format!("server sent an invalid URL {path_or_url:?}: {e}"),
                hint: None,
            })?;
            if u.scheme() != "https" && !is_loopback(&u) {
                return Err(ArmError::Config {
                    message: format!("refusing to follow non-https URL on host {}", u.host_str().unwrap_or("?")),
                    hint: None,
                });
            }
            return Ok(u);
        }
        let joined = format!("{}{}", self.base(), if path_or_url.starts_with('/') { "" } else { "/" });
        Url::parse(&(joined + path_or_url)).map_err(|e| ArmError::Config {
            message: format!("cannot build a URL from {path_or_url:?}: {e}"),
            hint: None,
        })
    }

    /// True when `url` is the ARM origin, so the bearer token may be sent to it.
    pub fn may_carry_token(&self, url: &Url) -> bool {
        url.scheme() == self.base.scheme()
            && url.host_str().map(str::to_ascii_lowercase) == self.base.host_str().map(str::to_ascii_lowercase)
            && url.port_or_known_default() == self.base.port_or_known_default()
    }
}

/// True when a discovered Prometheus query endpoint may be trusted with a token: https on
/// the cloud's `*.prometheus.monitor.azure.*` domain, or loopback when ARM itself is loopback.
pub fn prometheus_trusted(url: &Url, cloud: Cloud, arm_loopback: bool) -> bool {
    if is_loopback(url) {
        return arm_loopback;
    }
    let domain = cloud.prometheus_audience().trim_start_matches("https://");
    url.scheme() == "https" && url.host_str().is_some_and(|h| h.to_ascii_lowercase().ends_with(&format!(".{domain}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovered_prometheus_endpoints() {
        let u = |s: &str| Url::parse(s).expect("url");
        let c = Cloud::AzureCloud;
        assert!(prometheus_trusted(&u("https://amw-abc.eastus.prometheus.monitor.azure.com"), c, false));
        assert!(!prometheus_trusted(&u("http://amw-abc.eastus.prometheus.monitor.azure.com"), c, false));
        assert!(!prometheus_trusted(&u("https://prometheus.monitor.azure.com.evil.example"), c, false));
        assert!(!prometheus_trusted(&u("https://evil.example/prometheus.monitor.azure.com"), c, false));
        assert!(!prometheus_trusted(&u("http://127.0.0.1:9090"), c, false));
        assert!(prometheus_trusted(&u("http://127.0.0.1:9090"), c, true));
        assert!(prometheus_trusted(
            &u("https://x.chinanorth3.prometheus.monitor.azure.cn"),
            Cloud::AzureChinaCloud,
            false
        ));
        assert!(Endpoint::service("http://10.0.0.1:9090", "s").is_err());
        assert!(Endpoint::service("http://[::1]:9090", "s").is_ok());
    }

    #[test]
    fn endpoints_and_token_scoping() {
        let e = Endpoint::new(Cloud::AzureCloud, None).expect("default");
        assert_eq!(e.base(), "https://management.azure.com");
        assert_eq!(e.scope, "https://management.azure.com/.default");
        let u = e.resolve("/subscriptions/x?api-version=1").expect("resolves");
        assert!(e.may_carry_token(&u));
        assert!(!e.may_carry_token(&Url::parse("https://evil.example/x").expect("url")));
        assert!(!e.may_carry_token(&Url::parse("http://management.azure.com/x").expect("url")));
        let local = Endpoint::new(Cloud::AzureCloud, Some("http://127.0.0.1:8080")).expect("loopback ok");
        assert!(local.may_carry_token(&local.resolve("/a").expect("url")));
        assert!(!local.may_carry_token(&Url::parse("http://127.0.0.1:9090/a").expect("url")));
        assert!(Endpoint::new(Cloud::AzureCloud, Some("http://10.0.0.1")).is_err());
        assert!(Endpoint::new(Cloud::AzureCloud, Some("ftp://x")).is_err());
        assert!(e.resolve("http://example.com/op").is_err());
        assert_eq!(
            Endpoint::new(Cloud::AzureChinaCloud, None).expect("cn").base(),
            "https://management.chinacloudapi.cn"
        );
    }
}
