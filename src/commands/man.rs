//! `aksgpu man [SUBCOMMAND…]`: a roff man page for the program or any subcommand, nested ones
//! named word by word (`aksgpu man kaito workspace`, page title `aksgpu-kaito-workspace`).
//!
//! clap_mangen renders NAME, SYNOPSIS, DESCRIPTION, OPTIONS and SUBCOMMANDS from the clap
//! definition; this module adds ENVIRONMENT, EXIT STATUS and EXAMPLES.

use clap::CommandFactory;
use clap_mangen::roff::{bold, roman, Roff};

use crate::cli::Cli;
use crate::error::Error;

/// Environment variables every command reads.
const ENV_ALWAYS: &[(&str, &str)] = &[
    ("AKSGPU_CATALOG", "catalog override directory (same as --catalog)"),
    (
        "AKSGPU_CACHE_DIR",
        "where prices.bin, locations.json and provider-refresh markers are kept (default $XDG_CACHE_HOME/aksgpu or ~/.cache/aksgpu)",
    ),
    ("AZURE_DEFAULTS_GROUP, AZURE_DEFAULTS_LOCATION", "defaults for -g and -l, as in az (a note names the source)"),
    ("AZURE_CONFIG_DIR", "az's directory (default ~/.azure): group and location under [defaults] in its config file"),
];

/// Environment variables of the commands that talk to Azure (those with --subscription).
const ENV_AZURE: &[(&str, &str)] = &[
    ("AKSGPU_ACCESS_TOKEN", "a pre-minted ARM bearer token (first in the credential order)"),
    (
        "AKSGPU_AUTH",
        "force a credential: access-token, service-principal, workload-identity, managed-identity, developer-tools",
    ),
    (
        "AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_FEDERATED_TOKEN_FILE",
        "service principal / workload identity",
    ),
    ("AZURE_AUTHORITY_HOST", "login host for service principal and workload identity tokens"),
    ("AZURE_SUBSCRIPTION_ID", "the subscription (after --subscription)"),
    (
        "AKSGPU_PROMETHEUS_TOKEN",
        "the managed Prometheus token for usage and fleet --usage when AKSGPU_ACCESS_TOKEN is the credential",
    ),
    (
        "AKSGPU_CLUSTER_TOKEN",
        "runCommand clusterToken for Entra ID clusters when AKSGPU_ACCESS_TOKEN is the credential",
    ),
    ("AKSGPU_ARM_ENDPOINT", "ARM base URL override (plain http only on loopback)"),
    ("AKSGPU_HTTP_TIMEOUT", "read timeout of one attempt in seconds (default 60, at most 3600)"),
];

/// Examples by subcommand path ("" is the program itself). Each one parses: see the tests.
const EXAMPLES: &[(&str, &[&str])] = &[
    ("", &["aksgpu recommend --workload inference --model llama-3.1-8b", "aksgpu catalog list --gpu-model A100", "aksgpu man create-pool"]),
    ("catalog", &["aksgpu catalog list --family NC", "aksgpu catalog show NC24ads_A100_v4"]),
    ("catalog list", &["aksgpu catalog list --gpu-model H100", "aksgpu catalog list -o names"]),
    ("catalog show", &["aksgpu catalog show Standard_NC24ads_A100_v4", "aksgpu catalog show NV6ads_A10_v5 -o json"]),
    ("catalog diff", &["aksgpu catalog diff --location eastus --fail-on-drift"]),
    ("catalog models", &["aksgpu catalog models", "aksgpu catalog models -o json"]),
    ("catalog gpus", &["aksgpu catalog gpus"]),
    ("catalog regions", &["aksgpu catalog regions -o yaml"]),
    ("recommend", &[
        "aksgpu recommend",
        "aksgpu recommend --workload inference --model llama-3.1-70b --precision fp8 -l westeurope",
        "aksgpu recommend --model llama-3.1-8b -l westeurope,northeurope,swedencentral -o tsv --query [0].vm_size",
        "aksgpu recommend --gpu-memory 80GB --max-price-per-hour 5 --spot",
    ]),
    ("create-pool", &[
        "aksgpu create-pool -g rg --cluster aks1 --name gpu --vm-size Standard_NC24ads_A100_v4 --min-count 0 --max-count 3 --dry-run",
        "aksgpu create-pool -g rg --cluster aks1 --name gpu --recommend --workload inference --model llama-3.1-8b --yes",
        "aksgpu create-pool -g rg --cluster aks1 --name gpu --vm-size Standard_NC24ads_A100_v4 --zones 1,2,3 --fallback-vm-size Standard_NC40ads_H100_v5 --yes",
        "aksgpu create-pool -g rg --cluster aks1 --name gpu --recommend --model llama-3.1-8b --failover --max-attempts 4 --dry-run",
    ]),
    ("quota", &["aksgpu quota show --location eastus", "aksgpu quota request --location eastus --vm-size Standard_NC24ads_A100_v4 --nodes 4"]),
    ("quota show", &["aksgpu quota show --location eastus --vm-size Standard_NC24ads_A100_v4"]),
    ("quota request", &[
        "aksgpu quota request --location eastus --vm-size Standard_NC24ads_A100_v4 --nodes 4 --dry-run",
        "aksgpu quota request --location eastus --family standardNCADSA100v4Family --limit 192",
    ]),
    ("wait", &["aksgpu wait -g rg --cluster aks1 --name gpu"]),
    ("register-feature", &["aksgpu register-feature WindowsGPUPreview"]),
    ("feature", &["aksgpu feature list", "aksgpu feature register WindowsGPUPreview"]),
    ("feature list", &["aksgpu feature list -o json"]),
    ("feature register", &["aksgpu feature register WindowsGPUPreview --dry-run"]),
    ("install-operator", &["aksgpu install-operator -g rg --cluster aks1 --pool gpu --dry-run"]),
    ("kaito", &["aksgpu kaito enable -g rg --cluster aks1", "aksgpu kaito workspace --model llama-3.1-8b"]),
    ("kaito enable", &["aksgpu kaito enable -g rg --cluster aks1 --dry-run"]),
    ("kaito workspace", &["aksgpu kaito workspace --model llama-3.1-8b --region eastus > workspace.yaml"]),
    ("manifest", &[
        "aksgpu manifest --pool gpu -g rg --cluster aks1 --image ghcr.io/me/app:1",
        "aksgpu manifest --vm-size Standard_NC24ads_A100_v4 --smoke-test | kubectl apply -f -",
    ]),
    ("cost", &[
        "aksgpu cost --vm-size Standard_NC24ads_A100_v4 --min-count 0 --max-count 3 --region eastus",
        "aksgpu cost -g rg --cluster aks1",
    ]),
    ("prices", &["aksgpu prices refresh"]),
    ("prices refresh", &["aksgpu prices refresh --region eastus,westeurope"]),
    ("cluster", &["aksgpu cluster stop -g rg --cluster aks1"]),
    ("cluster stop", &["aksgpu cluster stop -g rg --cluster aks1 --dry-run"]),
    ("cluster start", &["aksgpu cluster start -g rg --cluster aks1"]),
    ("cost-analysis", &["aksgpu cost-analysis enable -g rg --cluster aks1"]),
    ("cost-analysis enable", &["aksgpu cost-analysis enable -g rg --cluster aks1 --dry-run"]),
    ("pool", &["aksgpu pool create -g rg --cluster-name aks1 -n gpu -s Standard_NC24ads_A100_v4 -c 1 --dry-run", "aksgpu pool scale -g rg --cluster aks1 --name gpu --count 2"]),
    ("pool create", &[
        "aksgpu pool create -g rg --cluster-name aks1 -n gpu -s Standard_NC24ads_A100_v4 -c 1 --zones 1 2 3 --labels team=ml tier=gpu --dry-run",
        "aksgpu pool create -g rg --cluster aks1 --name gpu --recommend --model llama-3.1-8b --priority Spot --yes",
    ]),
    ("pool wait", &["aksgpu pool wait -g rg --cluster aks1 --name gpu"]),
    ("pool scale", &["aksgpu pool scale -g rg --cluster aks1 --name gpu --min-count 0 --max-count 4"]),
    ("apply", &["aksgpu apply -f examples/gpuconfig.yaml --dry-run", "aksgpu apply -f clusters/ --yes", "aksgpu apply -f - --dry-run"]),
    ("diff", &["aksgpu diff -f examples/gpuconfig.yaml", "aksgpu diff -f gpuconfig.yaml -o json"]),
    ("export", &["aksgpu export -g rg --cluster aks1 > gpuconfig.yaml", "aksgpu export -g rg --cluster aks1 --output-file gpuconfig.yaml --force"]),
    ("fleet", &[
        "aksgpu fleet",
        "aksgpu fleet --subscription ML-Prod --subscription Research -o json",
        "aksgpu fleet --management-group ml --fail-on warning",
        "aksgpu fleet --usage --since 30d",
    ]),
    ("usage", &["aksgpu usage -g rg --cluster aks1 --since 7d", "aksgpu usage -g rg --cluster aks1 --idle-below 10 -o json"]),
    ("auth", &["aksgpu auth status"]),
    ("auth status", &["aksgpu auth status -o json"]),
    ("completions", &["aksgpu completions bash > ~/.local/share/bash-completion/completions/aksgpu"]),
    ("man", &["aksgpu man create-pool | man -l -", "aksgpu man kaito workspace", "aksgpu man --install ~/.local/share/man/man1"]),
];

/// The examples of a subcommand path (words joined by one space; "" for the program).
pub fn examples(path: &str) -> &'static [&'static str] {
    EXAMPLES.iter().find(|(p, _)| *p == path).map_or(&[], |(_, e)| e)
}

/// Every subcommand path of the CLI, the program itself first ("").
pub fn paths() -> Vec<String> {
    fn walk(cmd: &clap::Command, prefix: &str, out: &mut Vec<String>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
            let path =
                if prefix.is_empty() { sub.get_name().to_owned() } else { format!("{prefix} {}", sub.get_name()) };
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = vec![String::new()];
    walk(&Cli::command(), "", &mut out);
    out
}

/// The man page of `words` (empty: the program) in roff.
pub fn page(words: &[String]) -> Result<String, Error> {
    let mut root = Cli::command();
    root.build();
    let mut cmd = &root;
    for w in words {
        cmd = cmd.find_subcommand(w).ok_or_else(|| {
            let known: Vec<&str> =
                cmd.get_subcommands().map(clap::Command::get_name).filter(|n| *n != "help").collect();
            let at = if cmd.get_name() == "aksgpu" { String::new() } else { format!(" of `{}`", cmd.get_name()) };
            Error::usage(format!("man: no subcommand {w:?}{at}"), Some(format!("one of: {}", known.join(", "))))
        })?;
    }
    let names: Vec<&str> = words.iter().map(String::as_str).collect();
    let path = names.join(" ");
    let man = clap_mangen::Man::new(cmd.clone()).source(format!("aksgpu {}", env!("CARGO_PKG_VERSION")));
    let mut buf = Vec::new();
    let io = |e: std::io::Error| Error::usage(format!("rendering the man page: {e}"), None);
    man.render_title(&mut buf).map_err(io)?;
    man.render_name_section(&mut buf).map_err(io)?;
    man.render_synopsis_section(&mut buf).map_err(io)?;
    man.render_description_section(&mut buf).map_err(io)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buf).map_err(io)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut buf).map_err(io)?;
    }
    // Notes after the options (units, the wizard); exit codes have their own section below.
    if cmd.get_after_help().is_some_and(|h| !h.to_string().starts_with("Exit codes")) {
        man.render_extra_section(&mut buf).map_err(io)?;
    }
    let azure = cmd.get_arguments().any(|a| a.get_id() == "subscription") || cmd.has_subcommands();
    extra_sections(azure, examples(&path)).to_writer(&mut buf).map_err(io)?;
    man.render_version_section(&mut buf).map_err(io)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The file name of a page: `aksgpu.1`, `aksgpu-kaito-workspace.1`.
pub fn file_name(path: &str) -> String {
    let mut name = String::from("aksgpu");
    for w in path.split_whitespace() {
        name.push('-');
        name.push_str(w);
    }
    name + ".1"
}

/// `aksgpu man --install DIR`: every page into `DIR` (created if missing), each written to a
/// temporary file and renamed, so a reader never sees half a page.
pub fn install(ctx: &crate::commands::Ctx, dir: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Write as _;
    let fail =
        |what: &str, e: std::io::Error| Error::usage(format!("man --install {}: {what}: {e}", dir.display()), None);
    std::fs::create_dir_all(dir).map_err(|e| fail("cannot create the directory", e))?;
    let paths = paths();
    for path in &paths {
        let words: Vec<String> = path.split_whitespace().map(str::to_owned).collect();
        let text = page(&words)?;
        let name = file_name(path);
        let mut tmp = tempfile::Builder::new().prefix(".aksgpu-man.").tempfile_in(dir).map_err(|e| fail(&name, e))?;
        tmp.write_all(text.as_bytes()).map_err(|e| fail(&name, e))?;
        tmp.persist(dir.join(&name)).map_err(|e| fail(&name, e.error))?;
    }
    let v = serde_json::json!({"directory": dir.display().to_string(), "pages": paths.iter().map(|p| file_name(p)).collect::<Vec<_>>()});
    let text =
        format!("Wrote {} man pages to {} (read one with: man aksgpu-create-pool).\n", paths.len(), dir.display());
    crate::output::emit(&ctx.printer, crate::cli::Format::Table, &crate::output::Shown::new(text, v))?;
    Ok(())
}

/// ENVIRONMENT, EXIT STATUS and EXAMPLES.
fn extra_sections(azure: bool, examples: &[&str]) -> Roff {
    let mut roff = Roff::default();
    let mut list = |title: &str, items: &mut dyn Iterator<Item = &(&str, &str)>| {
        roff.control("SH", [title]);
        for (term, text) in items {
            roff.control("TP", []);
            roff.text([bold(*term)]);
            roff.text([roman(*text)]);
        }
    };
    let azure_env: &[(&str, &str)] = if azure { ENV_AZURE } else { &[] };
    list("ENVIRONMENT", &mut ENV_ALWAYS.iter().chain(azure_env));
    let codes: Vec<(String, &str)> = crate::error::exit::TABLE.iter().map(|(c, m)| (c.to_string(), *m)).collect();
    let codes: Vec<(&str, &str)> = codes.iter().map(|(c, m)| (c.as_str(), *m)).collect();
    list("EXIT STATUS", &mut codes.iter());
    if !examples.is_empty() {
        roff.control("SH", ["EXAMPLES"]);
        // One command per line, not filled.
        roff.control("nf", []);
        for e in examples {
            roff.text([roman(*e)]);
        }
        roff.control("fi", []);
    }
    roff
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// Every subcommand page has examples, and every example is a command line that parses.
    #[test]
    fn every_page_has_examples_that_parse() {
        for path in paths() {
            let ex = examples(&path);
            assert!(!ex.is_empty(), "no EXAMPLES for `aksgpu {path}`");
            for e in ex {
                let line = e.split(['|', '>']).next().unwrap_or_default();
                let words: Vec<&str> = line.split_whitespace().collect();
                assert!(line.starts_with(&format!("aksgpu {path}").trim_end().to_owned()), "{e} is not for {path}");
                if let Err(err) = Cli::try_parse_from(&words) {
                    // A group's page may show only the group; a parse error there must be "needs a subcommand".
                    panic!("example {e:?} does not parse: {err}");
                }
            }
        }
        assert!(EXAMPLES.iter().all(|(p, _)| paths().contains(&(*p).to_owned())), "an example names no command");
    }

    #[test]
    fn a_nested_subcommand_has_its_own_page() {
        let text = page(&["kaito".into(), "workspace".into()]).expect("page");
        assert!(text.contains(".TH aksgpu-kaito-workspace 1"), "{}", &text[..200]);
        for s in ["SYNOPSIS", "OPTIONS", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "\\-\\-instance\\-type"] {
            assert!(text.contains(s), "{s} missing");
        }
        // `kaito workspace -g … --cluster …` reads the cluster's location, so it lists them.
        assert!(text.contains("AKSGPU_ACCESS_TOKEN"), "kaito workspace can read Azure");
        let offline = page(&["recommend".into()]).expect("page");
        assert!(!offline.contains("AKSGPU_ACCESS_TOKEN"), "an offline command lists the Azure variables");
        let create = page(&["create-pool".into()]).expect("page");
        assert!(create.contains("AKSGPU_ACCESS_TOKEN") && create.contains("\\-\\-k8s\\-version"));
    }

    #[test]
    fn page_file_names() {
        assert_eq!(file_name(""), "aksgpu.1");
        assert_eq!(file_name("kaito workspace"), "aksgpu-kaito-workspace.1");
    }

    #[test]
    fn an_unknown_subcommand_is_a_usage_error_listing_the_known_ones() {
        let e = page(&["kaito".into(), "nope".into()]).expect_err("unknown");
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("\"nope\" of `kaito`"), "{e}");
        assert!(e.hint().unwrap_or_default().contains("workspace"));
    }
}
