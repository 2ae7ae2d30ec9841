//! Every `--flag` a command names in its notes, errors and hints is a flag that command has,
//! checked against clap's own command tree. Text inside backticks names another command
//! (`aksgpu recommend …`, `az aks …`) and is skipped.

use clap::CommandFactory;

use crate::fake_arm::FakeArm;
use crate::support::{aksgpu_arm, aksgpu_with, CreatePool};

/// The long flags of `aksgpu <path>` (and the global ones).
fn flags_of(path: &[&str]) -> Vec<String> {
    let mut cmd = aksgpu::cli::Cli::command();
    cmd.build();
    let mut at = cmd;
    for p in path {
        at = at.find_subcommand(p).unwrap_or_else(|| panic!("no subcommand {p}")).clone();
    }
    let mut out: Vec<String> = at.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect();
    out.extend(["--help".to_owned(), "--version".to_owned()]);
    out
}

/// `--flags` named in `text` outside backticks.
fn named_flags(text: &str) -> Vec<String> {
    let outside: String = text.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    for (i, _) in outside.match_indices("--") {
        let rest = &outside[i + 2..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        let before = outside[..i].chars().last();
        if !name.is_empty()
            && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && before.is_none_or(|c| !c.is_alphanumeric())
        {
            out.push(format!("--{}", name.trim_end_matches('-')));
        }
    }
    out
}

fn check(path: &[&str], stderr: &str) {
    let have = flags_of(path);
    for f in named_flags(stderr) {
        assert!(have.contains(&f), "`aksgpu {}` names {f}, which it does not have:\n{stderr}", path.join(" "));
    }
}

#[test]
fn the_flag_finder_sees_flags_and_skips_other_commands() {
    assert_eq!(
        named_flags("pass --region, or `aksgpu recommend --model x`; min-count --max-count"),
        ["--region", "--max-count"]
    );
    assert!(flags_of(&["create-pool"]).contains(&"--location".to_owned()));
    assert!(!flags_of(&["create-pool"]).contains(&"--region".to_owned()));
}

/// create-pool's notes, errors and hints (offline dry runs, so no cluster is read) name only
/// create-pool's flags: `--location`, never `recommend`'s `--region`.
#[test]
fn create_pool_hints_name_its_own_flags() {
    let arm = FakeArm::start();
    let runs: Vec<Vec<&str>> = vec![
        vec!["--recommend", "--model", "llama-3.1-8b", "--dry-run"],
        vec!["--recommend", "--model", "llama-3.1-405b", "--gpu-model", "T4", "--dry-run"],
        vec!["--recommend", "--dry-run"],
        vec!["--dry-run"],
    ];
    for extra in runs {
        let args = CreatePool::new().without_vm_size().with(&extra);
        let r = aksgpu_with(&args.args(), &[("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9")]);
        check(&["create-pool"], &r.stderr);
        let r = aksgpu_arm(&arm.base, &args.args(), &[]);
        check(&["create-pool"], &r.stderr);
    }
    let r = aksgpu_with(&CreatePool::new().with(&["--model", "llama-3.1-8b"]).args(), &[]);
    check(&["create-pool"], &r.stderr);
}

#[test]
fn kaito_workspace_hints_name_its_own_flags() {
    for extra in [vec![], vec!["--region", "northeurope"], vec!["--instance-type", "Standard_NC64as_T4_v3"]] {
        let mut args = vec!["kaito", "workspace", "--model", "llama-3.1-8b"];
        args.extend(extra);
        let r = aksgpu_with(&args, &[]);
        check(&["kaito", "workspace"], &r.stderr);
        check(&["kaito", "workspace"], r.stdout.lines().next().unwrap_or(""));
    }
}

/// Every string literal in a command's source that names `--flags` (outside backticks) names
/// flags of the commands that source serves. Catches a hint written for another command.
#[test]
fn hint_texts_in_the_sources_name_flags_their_commands_have() {
    let sources: &[(&str, &str, &[&[&str]])] = &[
        ("create_pool.rs", include_str!("../../src/commands/create_pool.rs"), &[&["create-pool"]]),
        ("wait.rs", include_str!("../../src/commands/wait.rs"), &[&["wait"]]),
        (
            "money.rs",
            include_str!("../../src/commands/money.rs"),
            &[
                &["cost"],
                &["prices", "refresh"],
                &["catalog", "diff"],
                &["cluster", "stop"],
                &["cost-analysis", "enable"],
                &["pool", "scale"],
            ],
        ),
        (
            "gpu_stack.rs",
            include_str!("../../src/commands/gpu_stack.rs"),
            &[
                &["register-feature"],
                &["feature", "list"],
                &["install-operator"],
                &["kaito", "enable"],
                &["kaito", "workspace"],
                &["create-pool"],
            ],
        ),
        ("provision/pool.rs", include_str!("../../src/provision/pool.rs"), &[&["create-pool"]]),
        ("recommend.rs", include_str!("../../src/commands/recommend.rs"), &[&["recommend"]]),
        ("ops/recommend.rs", include_str!("../../src/ops/recommend.rs"), &[&["recommend"]]),
        ("ops/kaito.rs", include_str!("../../src/ops/kaito.rs"), &[&["kaito", "workspace"]]),
        ("ops/feature.rs", include_str!("../../src/ops/feature.rs"), &[&["register-feature"]]),
        ("ops/operator.rs", include_str!("../../src/ops/operator.rs"), &[&["install-operator"]]),
        ("ops/pool.rs", include_str!("../../src/ops/pool.rs"), &[&["create-pool"]]),
        ("ops/cost.rs", include_str!("../../src/ops/cost.rs"), &[&["cost"]]),
        (
            "ops/cluster.rs",
            include_str!("../../src/ops/cluster.rs"),
            &[&["cluster", "stop"], &["cost-analysis", "enable"], &["pool", "scale"], &["kaito", "enable"]],
        ),
        ("ops/quota.rs", include_str!("../../src/ops/quota.rs"), &[&["quota", "show"], &["quota", "request"]]),
        ("ops/prices.rs", include_str!("../../src/ops/prices.rs"), &[&["prices", "refresh"]]),
        ("ops/drift.rs", include_str!("../../src/ops/drift.rs"), &[&["catalog", "diff"]]),
        ("manifest.rs", include_str!("../../src/commands/manifest.rs"), &[&["manifest"]]),
        ("plan/preflight.rs", include_str!("../../src/plan/preflight.rs"), &[&["create-pool"]]),
    ];
    let mut bad = Vec::new();
    for (file, text, commands) in sources {
        let have: Vec<String> = commands.iter().flat_map(|c| flags_of(c)).collect();
        let code = text.split("#[cfg(test)]").next().unwrap_or(text);
        for (n, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") || t.starts_with("#[") {
                continue;
            }
            // String literals on the line: the text between pairs of unescaped quotes.
            for lit in line.split('"').skip(1).step_by(2) {
                // A bare flag is data (a table of names), not a text shown to anyone.
                if lit.starts_with("--") && !lit.contains(' ') {
                    continue;
                }
                for f in named_flags(lit) {
                    if !have.contains(&f) {
                        bad.push(format!("{file}:{}: {f} in {lit:?}", n + 1));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "flags their commands do not have:\n{}", bad.join("\n"));
}

/// Each setting id's long name is the canonical flag of some command (never only an alias):
/// the front end words a `Setting` as `--{long}`, so that flag must exist.
#[test]
fn every_setting_id_is_named_by_a_canonical_flag() {
    fn longs(cmd: &clap::Command, out: &mut Vec<String>) {
        out.extend(cmd.get_arguments().filter_map(|a| a.get_long()).map(str::to_owned));
        for sub in cmd.get_subcommands() {
            longs(sub, out);
        }
    }
    let mut all = Vec::new();
    longs(&aksgpu::cli::Cli::command(), &mut all);
    let missing: Vec<&str> = aksgpu::domain::setting::Setting::ALL
        .iter()
        .map(|s| s.long())
        .filter(|l| !all.iter().any(|a| a == l))
        .collect();
    assert!(missing.is_empty(), "settings no command takes as a flag: {missing:?}");
    assert_eq!(aksgpu::error::flag(aksgpu::domain::setting::Setting::Location), "--location");
}

/// A recommend refusal from `create-pool --recommend` names create-pool's flag for the
/// setting: the same id, worded once (`--location`, not recommend's old `--region`).
#[test]
fn a_refused_location_is_named_by_the_flag_create_pool_has() {
    let r = aksgpu_with(
        &[
            "create-pool",
            "-g",
            "rg",
            "--cluster",
            "c1",
            "-n",
            "gpu",
            "--recommend",
            "--model",
            "phi-4",
            "--region",
            "nowhere-land!",
            "--dry-run",
        ],
        &[
            ("AKSGPU_ARM_ENDPOINT", "http://127.0.0.1:9"),
            ("AZURE_SUBSCRIPTION_ID", "00000000-0000-0000-0000-000000000000"),
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--location \"nowhere-land!\" is not an Azure region"), "{}", r.stderr);
    check(&["create-pool"], &r.stderr);
}

/// `cost`, `kaito workspace` and `prices refresh` name a bad location by the canonical flag
/// (`--location`) whichever spelling was typed; they used to say `--region`.
#[test]
fn a_bad_location_is_named_by_the_canonical_flag_everywhere() {
    for args in [
        &["cost", "--vm-size", "Standard_NC24ads_A100_v4", "--region", "nowhere-land!"][..],
        &["kaito", "workspace", "--model", "llama-3.1-8b", "--region", "nowhere-land!"][..],
        &["prices", "refresh", "--region", "nowhere-land!"][..],
    ] {
        let r = aksgpu_with(args, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("--location \"nowhere-land!\" is not an Azure region"), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("--region \""), "{args:?}: {}", r.stderr);
    }
}
