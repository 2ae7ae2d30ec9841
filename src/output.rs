//! Terminal output: every result, note, error, spinner and progress bar goes through here.
//!
//! Results go to stdout: each command's result implements [`Render`] (its table; JSON and YAML
//! come from `Serialize`) and [`emit`] prints it in the `-o` format asked for. Notes, warnings,
//! errors, spinners and progress bars go to stderr. A closed pipe (`aksgpu cost -o json | head
//! -c1`) surfaces as an `io::Error` of kind `BrokenPipe` (wrapped in `Error::Output`), and the
//! top level exits quietly with 0.
//!
//! Every text passes `arm::redact` on its way out, here and nowhere else, so no path can skip
//! it: stdout loses known secrets, `Bearer …` credentials and JWTs; stderr (errors, hints,
//! notes, progress, `-v` logs) also loses secret JSON values and URL query parameters other
//! than `api-version`.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{self, IsTerminal, Write};

use serde::Serialize;

use crate::arm::redact;
use crate::cli::Format;

/// A command's result: its table form for people; JSON and YAML come from `Serialize`.
pub trait Render: Serialize {
    /// The table (or short text) shown for `-o table`.
    fn table(&self) -> String;
}

/// Print a result in the format asked for. The one place results reach stdout.
pub fn emit<T: Render + ?Sized>(p: &Printer, format: Format, value: &T) -> io::Result<()> {
    match format {
        Format::Table => p.out(&value.table()),
        Format::Json => p.json(value),
        Format::Yaml => p.yaml(value),
    }
}

/// A result whose table form is ready-made text: a sentence or a table for `-o table`, any
/// serializable value for JSON and YAML.
#[derive(Debug, Clone)]
pub struct Shown<T: Serialize = serde_json::Value> {
    /// What a person reads.
    pub text: String,
    /// What a script reads.
    pub value: T,
}

impl<T: Serialize> Shown<T> {
    /// A text and its structured form.
    pub fn new(text: impl Into<String>, value: T) -> Self {
        Self { text: text.into(), value }
    }
}

impl<T: Serialize> Serialize for Shown<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<T: Serialize> Render for Shown<T> {
    fn table(&self) -> String {
        self.text.clone()
    }
}

/// Writes results and diagnostics.
#[derive(Debug, Clone, Copy)]
pub struct Printer {
    /// Whether stderr is a terminal (progress and colour only then).
    pub stderr_tty: bool,
    /// Whether stdin and stderr are both terminals (prompts only then).
    pub interactive: bool,
}

impl Default for Printer {
    fn default() -> Self {
        Self::detect()
    }
}

impl Printer {
    /// Detect terminals.
    pub fn detect() -> Self {
        let stderr_tty = io::stderr().is_terminal();
        Self { stderr_tty, interactive: stderr_tty && io::stdin().is_terminal() && io::stdout().is_terminal() }
    }

    /// Write text to stdout, without any secret value.
    pub fn out(&self, text: &str) -> io::Result<()> {
        let text = redact::secrets(text);
        let mut o = io::stdout().lock();
        o.write_all(text.as_bytes())?;
        if !text.ends_with('\n') {
            o.write_all(b"\n")?;
        }
        o.flush()
    }

    /// Write pretty JSON to stdout (documents such as `manifest -o json`; results use `emit`).
    pub fn json<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
        // Results run to tens of kilobytes: start with room for them rather than regrowing.
        let mut buf = Vec::with_capacity(1 << 15);
        serde_json::to_writer_pretty(&mut buf, value).map_err(io::Error::other)?;
        self.out(&String::from_utf8(buf).map_err(io::Error::other)?)
    }

    /// Write YAML to stdout (results use `emit`).
    fn yaml<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
        let text = serde_yaml_ng::to_string(value).map_err(io::Error::other)?;
        self.out(&text)
    }

    /// A line on stderr (notes, warnings).
    pub fn note(&self, text: &str) {
        let text = redact::text(text);
        with_spinner_hidden(|| {
            let _ = writeln!(io::stderr().lock(), "{text}");
        });
    }

    /// An error with its hints on stderr.
    pub fn error(&self, message: &str, hints: &[String]) {
        let message = redact::text(message);
        with_spinner_hidden(|| {
            let mut e = io::stderr().lock();
            let _ = writeln!(e, "error: {message}");
            for h in hints {
                let _ = writeln!(e, "hint: {}", redact::text(h));
            }
        });
    }
}

/// A diagnostic line on stderr (request logs with `-v`).
pub fn log_line(text: &str) {
    let text = redact::text(text);
    with_spinner_hidden(|| {
        let _ = writeln!(io::stderr().lock(), "{text}");
    });
}

static ACTIVE_SPINNER: std::sync::Mutex<Option<indicatif::ProgressBar>> = std::sync::Mutex::new(None);

/// Run `f` with the active spinner (if any) taken off the screen, so lines never interleave.
fn with_spinner_hidden(f: impl FnOnce()) {
    let bar = ACTIVE_SPINNER.lock().ok().and_then(|g| g.clone());
    match bar {
        Some(b) => b.suspend(f),
        None => f(),
    }
}

/// A spinner on stderr, only when stderr is a terminal: state text plus elapsed time.
pub struct Spinner {
    bar: Option<indicatif::ProgressBar>,
}

impl Spinner {
    /// Start a spinner (a no-op off a terminal).
    pub fn new(tty: bool) -> std::sync::Arc<Self> {
        let bar = tty.then(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
                b.set_style(style);
            }
            b.set_message("starting");
            b.enable_steady_tick(std::time::Duration::from_millis(120));
            if let Ok(mut g) = ACTIVE_SPINNER.lock() {
                *g = Some(b.clone());
            }
            b
        });
        std::sync::Arc::new(Self { bar })
    }

    /// Show a state.
    pub fn set(&self, state: &str) {
        if let Some(b) = &self.bar {
            b.set_message(redact::text(&sanitize(state)));
        }
    }

    /// Remove the spinner.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
            if let Ok(mut g) = ACTIVE_SPINNER.lock() {
                *g = None;
            }
        }
    }
}

pub use crate::arm::redact::sanitize;

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Render rows as a borderless `comfy-table` with a header line: columns two spaces apart, no
/// rules and no trailing blanks, so `grep` and `awk` still work on it.
pub fn table(headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
    use comfy_table::{presets::NOTHING, CellAlignment, Table};
    let mut t = Table::new();
    t.load_style(NOTHING);
    t.set_header(headers.to_vec());
    for row in rows {
        t.add_row(row.iter().take(headers.len()).cloned().collect::<Vec<_>>());
    }
    for (i, col) in t.column_iter_mut().enumerate() {
        col.set_padding((if i == 0 { 0 } else { 2 }, 0));
        if aligns.get(i) == Some(&Align::Right) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = String::new();
    for line in t.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A progress bar on stderr, drawn only when stderr is a terminal (a no-op otherwise).
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// Start a bar counting to `total`.
    pub fn bar(tty: bool, total: u64) -> Self {
        let bar = tty.then(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            b
        });
        Self { bar }
    }

    /// Move to `done`.
    pub fn set(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

pub use crate::units::money;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align() {
        let t = table(
            &["A", "BB", "C"],
            &[Align::Left, Align::Right, Align::Left],
            &[vec!["xyz".into(), "1".into(), "".into()], vec!["q".into(), "22".into(), "long".into()]],
        );
        assert_eq!(t, "A    BB  C\nxyz   1\nq    22  long\n");
    }

    #[test]
    fn status_shows_text_and_serializes_value() {
        let s = Shown::new("done", serde_json::json!({"status": "done"}));
        assert_eq!(s.table(), "done");
        assert_eq!(serde_json::to_string(&s).unwrap_or_default(), r#"{"status":"done"}"#);
    }

    #[test]
    fn stdout_and_stderr_passes_differ() {
        // What `out` and `error` apply: stdout keeps documentation links, stderr strips queries.
        let link = "https://learn.microsoft.com/x?tabs=a";
        assert_eq!(redact::secrets(link), link);
        assert_eq!(redact::text(link), "https://learn.microsoft.com/x?tabs=REDACTED");
        assert_eq!(redact::secrets("Bearer eyJ0.eyJ1.c2ln"), "Bearer REDACTED");
    }

    #[test]
    fn sanitize_strips_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb"), "a[31mb");
    }
}
