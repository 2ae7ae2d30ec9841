//! Every `console` example in README.md and docs/*.md is run, and what it shows is what the tool
//! prints; every relative link in them points to a file that exists.
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

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// README.md and every docs/*.md, as (path relative to the repository, text), README first.
fn pages() -> Vec<(String, String)> {
    let mut docs: Vec<String> = std::fs::read_dir(format!("{ROOT}/docs"))
        .expect("docs/")
        .map(|e| e.expect("docs entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    std::iter::once("README.md".to_owned())
        .chain(docs)
        .map(|p| {
            let text = std::fs::read_to_string(format!("{ROOT}/{p}")).unwrap_or_else(|e| panic!("{p}: {e}"));
            (p, text)
        })
        .collect()
}

/// The examples of one page that are stale, each with what the tool printed.
fn stale_examples(page: &str, text: &str) -> Vec<String> {
    let mut stale = Vec::new();
    for (command, lines) in &examples(text) {
        let args = words(command);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = aksgpu_with(&args, &[]);
        let (err, out): (Vec<&str>, Vec<&str>) = lines.iter().map(String::as_str).partition(|l| is_stderr(l));
        let out_got: Vec<&str> = r.stdout.lines().collect();
        let err_got: Vec<&str> = r.stderr.lines().collect();
        if let Err(why) = shows(&out_got, &out).and_then(|()| says(&err_got, &err)) {
            stale.push(format!(
                "{page}: `aksgpu {command}` (exit {}): {why}\n--- stdout\n{}\n--- stderr\n{}",
                r.code, r.stdout, r.stderr
            ));
        }
    }
    stale
}

#[test]
fn every_console_example_in_the_readme_and_docs_is_what_the_tool_prints() {
    let pages = pages();
    let in_readme = examples(&pages[0].1).len();
    assert!(in_readme >= 4, "the README lost its console examples ({in_readme} found)");
    let in_docs: usize = pages[1..].iter().map(|(_, t)| examples(t).len()).sum();
    assert!(in_docs >= 2, "docs/*.md lost their console examples ({in_docs} found)");
    let stale: Vec<String> = pages.iter().flat_map(|(p, t)| stale_examples(p, t)).collect();
    assert!(stale.is_empty(), "console examples that are stale:\n\n{}", stale.join("\n\n"));
}

/// The targets of the markdown links `[text](target)` in `text`, outside code blocks and spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `](` inside backticks is not a link.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Why a relative link `target` in `page` is broken, if it is.
fn broken(page: &str, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, frag) = target.split_once('#').unwrap_or((target, ""));
    let dir = std::path::Path::new(page).parent().unwrap_or(std::path::Path::new(""));
    let path = if file.is_empty() { std::path::PathBuf::from(page) } else { dir.join(file) };
    let full = std::path::Path::new(ROOT).join(&path);
    if !full.exists() {
        return Some(format!("{page}: ({target}): {} does not exist", path.display()));
    }
    if frag.is_empty() || !file.is_empty() && !file.ends_with(".md") {
        return None;
    }
    let text = std::fs::read_to_string(&full).unwrap_or_default();
    (!anchors(&text).iter().any(|a| a == frag))
        .then(|| format!("{page}: ({target}): no heading #{frag} in {}", path.display()))
}

#[test]
fn every_relative_link_in_the_readme_and_docs_points_to_a_file_that_exists() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for (page, text) in pages() {
        for target in links(&text) {
            seen += 1;
            bad.extend(broken(&page, &target));
        }
    }
    assert!(seen >= 10, "found only {seen} links: the link reader is broken");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_link_check_can_fail() {
    assert!(broken("README.md", "docs/no-such-page.md").is_some());
    assert!(broken("docs/json.md", "docs/fleet.md").is_some(), "relative to docs/, not the root");
    assert!(broken("docs/json.md", "fleet.md").is_none());
    assert!(broken("README.md", "docs/reference.md#no-such-heading").is_some());
    assert!(broken("README.md", "docs/reference.md#exit-codes").is_none());
    assert_eq!(anchor(" Credentials, endpoint, subscription"), "credentials-endpoint-subscription");
    assert_eq!(links("[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n"), vec!["x.md"]);
}

#[test]
fn the_matcher_can_fail() {
    assert!(shows(&["a", "b"], &["a"]).is_err());
    assert!(shows(&["a", "x", "b"], &["a", "…", "b"]).is_ok());
    assert!(shows(&["b", "a"], &["a", "…", "b"]).is_err());
    assert!(says(&["x", "note: y"], &["note: y"]).is_ok());
    assert!(says(&["note: y"], &["note: z"]).is_err());
}

/// The exit-code table of docs/reference.md lists exactly the codes the tool documents in `--help`
/// and the man page (`error::exit::TABLE`), and `--help` prints each of them; the README's
/// summary names each code.
#[test]
fn the_docs_document_every_exit_code() {
    let reference = std::fs::read_to_string(format!("{ROOT}/docs/reference.md")).expect("docs/reference.md");
    let section = reference.split("## Exit codes").nth(1).expect("an Exit codes section");
    let in_table: Vec<u8> = section
        .lines()
        .skip_while(|l| !l.starts_with("| 0 |"))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1)?.trim().parse().ok())
        .collect();
    let documented: Vec<u8> = aksgpu::error::exit::TABLE.iter().map(|(c, _)| *c).collect();
    assert_eq!(in_table, documented);
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).expect("README");
    let summary = readme.split("## Exit codes").nth(1).expect("an Exit codes summary in the README");
    let summary = summary.split("\n## ").next().unwrap_or_default();
    let words: Vec<&str> = summary.split(|c: char| c.is_whitespace() || c == ';').collect();
    for code in &documented {
        assert!(words.contains(&code.to_string().as_str()), "the README's exit-code summary lacks {code}");
    }
    let help = crate::support::aksgpu(&["--help"]).stdout;
    for (code, meaning) in aksgpu::error::exit::TABLE {
        // clap wraps long lines to the terminal width: compare the start of each meaning.
        let start: String = meaning.chars().take(20).collect();
        assert!(help.contains(&format!("  {code:<4} {start}")), "--help lacks exit code {code}:\n{help}");
    }
}
