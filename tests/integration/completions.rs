//! The committed completion scripts match what the binary generates, their install help, and
//! the man pages.
//! Set `AKSGPU_UPDATE_COMPLETIONS=1` to rewrite them.

use crate::support::aksgpu;

const SHELLS: [(&str, &str); 5] = [
    ("bash", "aksgpu.bash"),
    ("zsh", "_aksgpu"),
    ("fish", "aksgpu.fish"),
    ("powershell", "_aksgpu.ps1"),
    ("elvish", "aksgpu.elv"),
];

#[test]
fn committed_completions_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let update = std::env::var_os("AKSGPU_UPDATE_COMPLETIONS").is_some();
    for (shell, file) in SHELLS {
        let run = aksgpu(&["completions", shell]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains("aksgpu"));
        let path = dir.join(file);
        if update {
            std::fs::write(&path, &run.stdout).expect("write completion");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == run.stdout,
            "completions/{file} is stale: run `AKSGPU_UPDATE_COMPLETIONS=1 cargo test completions` and commit"
        );
    }
}

#[test]
fn man_page_renders() {
    let run = aksgpu(&["man"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains(".TH aksgpu 1"), "{}", &run.stdout[..200.min(run.stdout.len())]);
    for s in ["recommend", ".SH ENVIRONMENT", ".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
        assert!(run.stdout.contains(s), "{s} missing");
    }
}

/// Every subcommand has a page, nested ones named word by word, with its own flags and the
/// three extra sections; an unknown name is a usage error.
#[test]
fn every_subcommand_has_a_man_page() {
    for (words, title, flag) in [
        (&["create-pool"][..], "aksgpu-create-pool", "\\-\\-min\\-count"),
        (&["kaito", "workspace"][..], "aksgpu-kaito-workspace", "\\-\\-instance\\-type"),
        (&["cluster", "stop"][..], "aksgpu-cluster-stop", "\\-\\-dry\\-run"),
        (&["man"][..], "aksgpu-man", "SUBCOMMAND"),
    ] {
        let mut args = vec!["man"];
        args.extend_from_slice(words);
        let run = aksgpu(&args);
        assert_eq!(run.code, 0, "{words:?}: {}", run.stderr);
        assert!(run.stdout.contains(&format!(".TH {title} 1")), "{words:?}: {}", &run.stdout[..200]);
        assert!(run.stdout.contains(flag), "{words:?} lacks {flag}");
        for s in [".SH OPTIONS", ".SH ENVIRONMENT", ".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
            assert!(run.stdout.contains(s), "{words:?} lacks {s}");
        }
    }
    let bad = aksgpu(&["man", "kaito", "nope"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("nope") && bad.stderr.contains("workspace"), "{}", bad.stderr);
}

/// `man --install DIR` writes every page: one file per subcommand path, each the same page
/// `aksgpu man WORDS` prints, and no temporary file is left behind.
#[test]
fn man_install_writes_every_page() {
    let dir = crate::support::temp_dir("man-install").join("man1");
    let run = aksgpu(&["man", "--install", dir.to_str().expect("utf8")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let mut want: Vec<String> =
        aksgpu::commands::man::paths().iter().map(|p| aksgpu::commands::man::file_name(p)).collect();
    want.sort();
    assert_eq!(names, want);
    assert!(names.len() > 20 && names.contains(&"aksgpu-kaito-workspace.1".to_owned()), "{names:?}");
    let page = std::fs::read_to_string(dir.join("aksgpu-create-pool.1")).expect("page");
    assert_eq!(page, aksgpu(&["man", "create-pool"]).stdout);
    assert!(run.stdout.contains(&format!("Wrote {} man pages", names.len())), "{}", run.stdout);
    // A subcommand and --install together are a usage error.
    assert_eq!(aksgpu(&["man", "kaito", "--install", dir.to_str().expect("utf8")]).code, 2);
}

/// `completions --help` says where the script goes in each shell.
#[test]
fn completions_help_says_how_to_install_each_shell() {
    let run = aksgpu(&["completions", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        "aksgpu completions bash > ~/.local/share/bash-completion/completions/aksgpu",
        "source <(aksgpu completions zsh)",
        "aksgpu completions fish > ~/.config/fish/completions/aksgpu.fish",
        "aksgpu completions powershell | Out-String | Invoke-Expression",
        "eval (aksgpu completions elvish | slurp)",
    ] {
        assert!(run.stdout.contains(line), "missing {line:?}:\n{}", run.stdout);
    }
    assert!(aksgpu(&["completions", "-h"]).stdout.contains("--help"));
}

/// Ask the binary for completions the way the fish registration script does.
fn complete(words: &[&str], catalog: Option<&std::path::Path>) -> Vec<String> {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.env("COMPLETE", "fish").env_remove("AKSGPU_CATALOG").arg("--").arg("aksgpu").args(words);
    if let Some(dir) = catalog {
        cmd.env("AKSGPU_CATALOG", dir);
    }
    let out = cmd.output().expect("run aksgpu");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.split('\t').next().unwrap_or("").to_owned()).collect()
}

#[test]
fn completion_offers_catalog_sizes_models_gpus_and_regions() {
    let models = complete(&["recommend", "--model", "llama-3.1-"], None);
    assert!(models.contains(&"llama-3.1-8b".to_owned()), "{models:?}");
    assert!(complete(&["recommend", "--model", "meta-llama/"], None)
        .contains(&"meta-llama/Llama-3.1-8B-Instruct".to_owned()));
    let sizes = complete(&["catalog", "show", "Standard_NC24a"], None);
    assert_eq!(sizes, ["Standard_NC24ads_A100_v4"]);
    assert!(complete(&["create-pool", "--vm-size", "Standard_ND96isr_H1"], None)
        .contains(&"Standard_ND96isr_H100_v5".to_owned()));
    assert!(complete(&["recommend", "--gpu-model", "H100-"], None).contains(&"H100-NVL".to_owned()));
    assert_eq!(complete(&["recommend", "--region", "westeu"], None), ["westeurope"]);
    assert!(complete(&["cost", "--region", "austria"], None).contains(&"austriaeast".to_owned()));
    // Flags and fixed enums still complete.
    assert!(complete(&["recommend", "--work"], None).contains(&"--workload".to_owned()));
    assert!(complete(&["recommend", "--workload", "infer"], None).contains(&"inference".to_owned()));
}

/// The candidates come from the catalog in use: a model added in an override catalog completes.
#[test]
fn completion_reads_the_catalog_override() {
    let dir = std::env::temp_dir().join(format!("aksgpu-complete-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("models.yaml"),
        "- {id: org/zz-test-7b, aliases: [zz-test-7b], params_b: 7, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, head_dim: 128, context: 4096, native_dtype: bf16, checkpoint_gib: 13.04, source: test}\n",
    )
    .expect("write");
    assert_eq!(complete(&["recommend", "--model", "zz-"], Some(&dir)), ["zz-test-7b"]);
    assert!(complete(&["recommend", "--model", "zz-"], None).is_empty());
}

/// Run the committed bash script's completion function as bash does at a TAB: COMP_WORDS split
/// at `=` (COMP_WORDBREAKS), `$2` the word being completed. Returns COMPREPLY.
fn bash_complete(words: &[&str], cword: usize, current: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/completions/aksgpu.bash");
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_aksgpu")).parent().expect("bin dir").to_owned();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{script}'; COMP_WORDS=({}); COMP_CWORD={cword}; COMP_TYPE=9; \
         _clap_complete_aksgpu aksgpu '{current}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.get(cword.saturating_sub(1)).copied().unwrap_or("")
    );
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .env("PATH", path)
        .env_remove("AKSGPU_CATALOG")
        .output()
        .expect("run bash");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

/// Bash completes `--flag=value` (the value alone replaces what follows `=`), and the
/// space-separated form still works.
#[test]
fn bash_completes_flag_equals_value() {
    if !crate::support::require(
        "bash (for the completion script test)",
        std::process::Command::new("bash").arg("--version").output().is_ok(),
    ) {
        return;
    }
    assert_eq!(bash_complete(&["aksgpu", "recommend", "--workload", "=", "infer"], 4, "infer"), ["inference"]);
    assert!(bash_complete(&["aksgpu", "recommend", "--workload", "="], 3, "").contains(&"inference".to_owned()));
    assert_eq!(bash_complete(&["aksgpu", "recommend", "--location", "=", "westeu"], 4, "westeu"), ["westeurope"]);
    assert_eq!(bash_complete(&["aksgpu", "recommend", "--workload", "infer"], 3, "infer"), ["inference"]);
    assert!(bash_complete(&["aksgpu", "recommend", "--work"], 2, "--work").contains(&"--workload".to_owned()));
}
