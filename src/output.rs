//! The one module that writes to the terminal.
//!
//! Results go to stdout (tables for people, JSON/YAML for scripts); notes, warnings and errors
//! go to stderr. A closed pipe (`aksgpu catalog list | head`) is reported as `BrokenPipe` so
//! the top level can exit quietly with 0.
//!
//! Every text passes `arm::redact` on its way out, here and nowhere else, so no path can skip
//! it: stdout loses known secrets, `Bearer …` credentials and JWTs; stderr (errors, hints,
//! notes, progress, `-v` logs) also loses secret JSON values and URL query parameters other
//! than `api-version`.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{self, IsTerminal, Write};

use serde::Serialize;

use crate::arm::redact;

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

    /// Write pretty JSON to stdout.
    pub fn json<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        self.out(&text)
    }

    /// Write YAML to stdout.
    pub fn yaml<T: Serialize + ?Sized>(&self, value: &T) -> io::Result<()> {
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

/// Render rows as an aligned table with a header line.
pub fn table(headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
    let cols = headers.len();
    let mut width: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::new();
        for (i, cell) in cells.enumerate().take(cols) {
            let pad = width[i].saturating_sub(cell.chars().count());
            let right = aligns.get(i).copied().unwrap_or(Align::Left) == Align::Right;
            if i > 0 {
                s.push_str("  ");
            }
            if right {
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            } else {
                s.push_str(cell);
                if i + 1 < cols {
                    s.push_str(&" ".repeat(pad));
                }
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut headers.iter().copied());
    for row in rows {
        line(&mut row.iter().map(String::as_str));
    }
    out
}

/// Above this, amounts print in scientific notation: an f64 holds 15 exact digits, and a
/// whole-dollar conversion of a larger value would saturate (1e308 once printed as
/// `$18,446,744,073,709,551,615`).
const MONEY_EXACT_LIMIT: f64 = 1e15;

/// `$1.23`, `$2,555`, `-$4.00`, `$1.000e20`, or `unknown` (none, NaN or infinite).
pub fn money(v: Option<f64>) -> String {
    match v {
        Some(v) if !v.is_finite() => "unknown".to_owned(),
        Some(v) if v < 0.0 => format!("-{}", money(Some(-v))),
        Some(v) if v >= MONEY_EXACT_LIMIT => format!("${v:.3e}"),
        Some(v) if v >= 1000.0 => format!("${}", group_thousands(v)),
        Some(v) => format!("${v:.2}"),
        None => "unknown".to_owned(),
    }
}

/// Whole dollars with thousands separators, for `1000 ≤ v < MONEY_EXACT_LIMIT`.
fn group_thousands(v: f64) -> String {
    let s = format!("{:.0}", v.round());
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align() {
        let t = table(
            &["A", "BB"],
            &[Align::Left, Align::Right],
            &[vec!["xyz".into(), "1".into()], vec!["q".into(), "22".into()]],
        );
        assert_eq!(t, "A    BB\nxyz   1\nq    22\n");
    }

    #[test]
    fn money_formats() {
        assert_eq!(money(Some(3.5)), "$3.50");
        assert_eq!(money(Some(2555.0)), "$2,555");
        assert_eq!(money(None), "unknown");
        // Never saturates, never prints nonsense.
        assert_eq!(money(Some(1e308)), "$1.000e308");
        assert_eq!(money(Some(999_999_999_999_999.0)), "$999,999,999,999,999");
        assert_eq!(money(Some(f64::INFINITY)), "unknown");
        assert_eq!(money(Some(f64::NAN)), "unknown");
        assert_eq!(money(Some(-1234.0)), "-$1,234");
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
