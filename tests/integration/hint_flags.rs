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
