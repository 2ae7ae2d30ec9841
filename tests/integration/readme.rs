//! Every `console` example in the README is run, and what it shows is what the tool prints.
//!
//! A block starts with `$ aksgpu …`; the lines after it are its output. Lines that begin with
//! `note:`, `warning:`, `error:` or `hint:` are stderr and must appear there, in order. The others
//! are stdout: without a `…` line they are the whole of stdout; a `…` line stands for lines
//! left out, and each run between two `…` must appear in stdout in order.

use crate::support::aksgpu_with;

/// Split a README command line as sh would for these examples: words, "double quotes".
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

fn is_stderr(line: &str) -> bool {
    ["note: ", "warning: ", "error: ", "hint: "].iter().any(|p| line.starts_with(p))
}

/// `want` (runs separated by `…`) appears in `got` in order; without `…`, `got` is exactly `want`.
fn shows(got: &[&str], want: &[&str]) -> Result<(), String> {
    if !want.contains(&"…") {
        return if got == want { Ok(()) } else { Err(format!("expected exactly\n{}", want.join("\n"))) };
    }
    let mut from = 0;
    for run in want.split(|l| *l == "…").filter(|r| !r.is_empty()) {
        let at = (from..=got.len().saturating_sub(run.len())).find(|&i| got[i..].starts_with(run));
        match at {
            Some(i) => from = i + run.len(),
            None => return Err(format!("missing, in order:\n{}", run.join("\n"))),
        }
    }
    Ok(())
}

/// Each stderr line of the example appears in stderr, in order.
fn says(got: &[&str], want: &[&str]) -> Result<(), String> {
    let mut rest = got.iter();
    for w in want {
        if !rest.any(|g| g == w) {
            return Err(format!("stderr lacks (in order): {w}"));
        }
    }
    Ok(())
}

fn examples(readme: &str) -> Vec<(String, Vec<String>)> {
    let blocks = readme.split("```console\n").skip(1).filter_map(|b| b.split("\n```").next());
    blocks
        .map(|b| {
            let mut lines = b.lines();
            let first = lines.next().unwrap_or_default();
            let command = first.strip_prefix("$ aksgpu ").unwrap_or_else(|| panic!("not a `$ aksgpu` line: {first}"));
            (command.to_owned(), lines.map(str::to_owned).collect())
        })
        .collect()
}

#[test]
fn every_console_example_in_the_readme_is_what_the_tool_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let all = examples(&readme);
    assert!(all.len() >= 5, "the README lost its console examples ({} found)", all.len());
    let mut stale = Vec::new();
    for (command, lines) in &all {
        let args = words(command);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = aksgpu_with(&args, &[]);
        let (err, out): (Vec<&str>, Vec<&str>) = lines.iter().map(String::as_str).partition(|l| is_stderr(l));
        let out_got: Vec<&str> = r.stdout.lines().collect();
        let err_got: Vec<&str> = r.stderr.lines().collect();
        if let Err(why) = shows(&out_got, &out).and_then(|()| says(&err_got, &err)) {
            stale.push(format!(
                "`aksgpu {command}` (exit {}): {why}\n--- stdout\n{}\n--- stderr\n{}",
                r.code, r.stdout, r.stderr
            ));
        }
    }
    assert!(stale.is_empty(), "README examples that are stale:\n\n{}", stale.join("\n\n"));
}

#[test]
fn the_matcher_can_fail() {
    assert!(shows(&["a", "b"], &["a"]).is_err());
    assert!(shows(&["a", "x", "b"], &["a", "…", "b"]).is_ok());
    assert!(shows(&["b", "a"], &["a", "…", "b"]).is_err());
    assert!(says(&["x", "note: y"], &["note: y"]).is_ok());
    assert!(says(&["note: y"], &["note: z"]).is_err());
}

/// The README's exit-code table lists exactly the codes the tool documents in `--help` and the
/// man page (`error::exit::TABLE`), and `--help` prints each of them.
#[test]
fn the_readme_documents_every_exit_code() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let section = readme.split("## Exit codes").nth(1).expect("an Exit codes section");
    let in_readme: Vec<u8> = section
        .lines()
        .skip_while(|l| !l.starts_with("| 0 |"))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1)?.trim().parse().ok())
        .collect();
    let documented: Vec<u8> = aksgpu::error::exit::TABLE.iter().map(|(c, _)| *c).collect();
    assert_eq!(in_readme, documented);
    let help = crate::support::aksgpu(&["--help"]).stdout;
    for (code, meaning) in aksgpu::error::exit::TABLE {
        // clap wraps long lines to the terminal width: compare the start of each meaning.
        let start: String = meaning.chars().take(20).collect();
        assert!(help.contains(&format!("  {code:<4} {start}")), "--help lacks exit code {code}:\n{help}");
    }
}
