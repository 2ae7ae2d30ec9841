//! The committed completion scripts match what the binary generates, and the man page renders.
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
    assert!(run.stdout.contains(".TH aksgpu"), "{}", &run.stdout[..200.min(run.stdout.len())]);
    assert!(run.stdout.contains("recommend"));
}
