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

/// Print a result in the format asked for. The one place results reach stdout. With
/// `--query` the JMESPath result is printed instead, its table form generic.
pub fn emit<T: Render + ?Sized>(p: &Printer, format: Format, value: &T) -> io::Result<()> {
    if format == Format::None {
        return Ok(());
    }
    if let Some(q) = p.query {
        let v = query(q, &serde_json::to_value(value).map_err(io::Error::other)?)?;
        return match format {
            Format::Table => p.out(&generic_table(&v)),
            Format::Tsv => p.out(&tsv(&v)?),
            Format::Json | Format::None => p.json(&v),
            Format::Yaml => p.yaml(&v),
        };
    }
    match format {
        Format::Table => p.out(&value.table()),
        Format::Json => p.json(value),
        Format::Yaml => p.yaml(value),
        Format::Tsv => p.out(&tsv(value)?),
        Format::None => Ok(()),
    }
}

/// Check a `--query` expression (a usage error before anything runs).
pub fn check_query(expr: &str) -> Result<(), crate::error::Error> {
    jmespath::compile(expr).map(|_| ()).map_err(|e| {
        crate::error::Error::usage(
            format!("--query {expr:?}: {e}"),
            "JMESPath syntax: https://jmespath.org/specification.html",
        )
    })
}

/// Run a JMESPath query over a result (`jmespath` crate: the JMESPath specification).
pub fn query(expr: &str, value: &serde_json::Value) -> io::Result<serde_json::Value> {
    let compiled = jmespath::compile(expr).map_err(|e| io::Error::other(format!("--query: {e}")))?;
    let found = compiled.search(value).map_err(|e| io::Error::other(format!("--query: {e}")))?;
    serde_json::to_value(&*found).map_err(io::Error::other)
}

/// A scalar as az's tsv and table print it: strings bare, null empty.
fn cell(v: &serde_yaml_ng::Value) -> Option<String> {
    use serde_yaml_ng::Value;
    match v {
        Value::Null => Some(String::new()),
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => None,
    }
}

/// Tab-separated values as az's `-o tsv`: one line per list item, the scalar fields of an
/// object in their order (nested objects and lists left out), no header. (Through YAML's
/// value, which keeps field order; serde_json's map sorts keys.)
pub fn tsv<T: Serialize + ?Sized>(value: &T) -> io::Result<String> {
    use serde_yaml_ng::Value;
    let v = serde_yaml_ng::to_value(value).map_err(io::Error::other)?;
    let row = |v: &Value| match v {
        Value::Mapping(m) => m.values().filter_map(cell).collect::<Vec<_>>().join("\t"),
        Value::Sequence(a) => a.iter().filter_map(cell).collect::<Vec<_>>().join("\t"),
        other => cell(other).unwrap_or_default(),
    };
    let lines: Vec<String> = match &v {
        Value::Sequence(items) => items.iter().map(row).collect(),
        other => vec![row(other)],
    };
    Ok(lines.join("\n"))
}

/// The table form of a `--query` result: a list of objects as columns named by their keys,
/// anything else as tsv.
fn generic_table(v: &serde_json::Value) -> String {
    use serde_json::Value;
    let Value::Array(items) = v else { return tsv(v).unwrap_or_default() };
    let mut headers: Vec<&str> = Vec::new();
    for item in items {
        let Value::Object(m) = item else { return tsv(v).unwrap_or_default() };
        for k in m.keys() {
            if !headers.contains(&k.as_str()) {
                headers.push(k);
            }
        }
    }
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|i| {
            let row = headers.iter().map(|h| i.get(*h).map(|c| tsv(c).unwrap_or_default()).unwrap_or_default());
            row.collect()
        })
        .collect();
    table(&headers, &[], &rows)
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
    /// `--query`: a JMESPath expression applied to every result `emit` prints.
    pub query: Option<&'static str>,
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
        Self {
            stderr_tty,
            interactive: stderr_tty && io::stdin().is_terminal() && io::stdout().is_terminal(),
            query: None,
        }
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

/// Progress while Azure works: a spinner on a terminal; elsewhere (CI logs) one plain stderr
/// line per state change and a "still …" line whenever `interval` passes without one, so a
/// no-output watchdog never mistakes a long wait for a hang.
pub struct Spinner {
    bar: Option<indicatif::ProgressBar>,
    plain: Option<std::sync::Arc<std::sync::Mutex<PlainProgress>>>,
    stop: std::sync::Mutex<Option<std::sync::mpsc::Sender<()>>>,
}

/// How often a plain-progress line is written at least: `AKSGPU_PROGRESS_INTERVAL` seconds
/// (for tests), else 30 s, well inside the one-minute promise.
pub fn progress_interval() -> std::time::Duration {
    std::env::var("AKSGPU_PROGRESS_INTERVAL")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 60.0)
        .and_then(|v| std::time::Duration::try_from_secs_f64(v).ok())
        .unwrap_or(std::time::Duration::from_secs(30))
}

impl Spinner {
    /// Start a spinner on a terminal, or plain lines with a heartbeat thread off one.
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
        let (plain, stop) = if tty { (None, None) } else { start_heartbeat(progress_interval()) };
        std::sync::Arc::new(Self { bar, plain, stop: std::sync::Mutex::new(stop) })
    }

    /// Show a state.
    pub fn set(&self, state: &str) {
        let state = redact::text(&sanitize(state));
        if let Some(b) = &self.bar {
            b.set_message(state.clone());
        }
        if let Some(p) = &self.plain {
            let line = p.lock().ok().and_then(|mut p| p.state(&state, std::time::Instant::now()));
            if let Some(l) = line {
                log_line(&l);
            }
        }
    }

    /// Remove the spinner (and stop the heartbeat).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
            if let Ok(mut g) = ACTIVE_SPINNER.lock() {
                *g = None;
            }
        }
        if let Ok(mut s) = self.stop.lock() {
            s.take();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A thread that writes the heartbeat line until the sender is dropped.
fn start_heartbeat(
    interval: std::time::Duration,
) -> (Option<std::sync::Arc<std::sync::Mutex<PlainProgress>>>, Option<std::sync::mpsc::Sender<()>>) {
    use std::sync::mpsc::RecvTimeoutError;
    let plain = std::sync::Arc::new(std::sync::Mutex::new(PlainProgress::new(interval, std::time::Instant::now())));
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let p = plain.clone();
    let spawned = std::thread::Builder::new().name("progress".into()).spawn(move || loop {
        let wait = p.lock().map(|p| p.due_in(std::time::Instant::now())).unwrap_or(interval);
        match rx.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {
                let line = p.lock().ok().and_then(|mut p| p.heartbeat(std::time::Instant::now()));
                if let Some(l) = line {
                    log_line(&l);
                }
            }
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
    });
    match spawned {
        Ok(_) => (Some(plain), Some(tx)),
        // No thread: state lines still come, without the heartbeat.
        Err(_) => (Some(plain), None),
    }
}

/// Plain progress lines, decided from the clock it is given (tested with a fake one).
#[derive(Debug)]
pub struct PlainProgress {
    interval: std::time::Duration,
    started: std::time::Instant,
    last_line: std::time::Instant,
    state: Option<String>,
}

impl PlainProgress {
    /// Nothing shown yet at `now`.
    pub fn new(interval: std::time::Duration, now: std::time::Instant) -> Self {
        Self { interval, started: now, last_line: now, state: None }
    }

    /// A new state: its line, unless it is the state last shown.
    pub fn state(&mut self, state: &str, now: std::time::Instant) -> Option<String> {
        if self.state.as_deref() == Some(state) {
            return None;
        }
        self.state = Some(state.to_owned());
        self.last_line = now;
        Some(format!("{state} ({})", crate::arm::error::human(now.saturating_duration_since(self.started))))
    }

    /// The "still …" line, when `interval` has passed since the last line.
    pub fn heartbeat(&mut self, now: std::time::Instant) -> Option<String> {
        if now.saturating_duration_since(self.last_line) < self.interval {
            return None;
        }
        self.last_line = now;
        let state = self.state.as_deref().unwrap_or("working");
        Some(format!("still {state} ({})", crate::arm::error::human(now.saturating_duration_since(self.started))))
    }

    /// How long until a heartbeat would be due.
    pub fn due_in(&self, now: std::time::Instant) -> std::time::Duration {
        self.interval
            .saturating_sub(now.saturating_duration_since(self.last_line))
            .max(std::time::Duration::from_millis(10))
    }
}

pub use crate::arm::redact::sanitize;
/// The full redaction pass over text a server sent (no signature, token or password value).
pub use crate::arm::redact::text as redact_text;

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

pub use crate::units::{currency_symbol, money, money_column_in, money_in};

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

    /// Off a terminal: one line per state change, a "still" line per interval of silence.
    #[test]
    fn plain_progress_lines_follow_a_fake_clock() {
        use std::time::{Duration, Instant};
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut p = PlainProgress::new(Duration::from_secs(30), t0);
        assert_eq!(p.heartbeat(at(29)), None);
        assert_eq!(p.heartbeat(at(30)).as_deref(), Some("still working (30 s)"));
        assert_eq!(p.state("Creating", at(31)).as_deref(), Some("Creating (31 s)"));
        assert_eq!(p.state("Creating", at(45)), None, "the same state is not repeated");
        assert_eq!(p.heartbeat(at(60)), None);
        assert_eq!(p.heartbeat(at(61)).as_deref(), Some("still Creating (1 min 01 s)"));
        assert_eq!(p.due_in(at(70)), Duration::from_secs(21));
        assert_eq!(p.state("Succeeded", at(75)).as_deref(), Some("Succeeded (1 min 15 s)"));
    }

    #[test]
    fn tsv_and_query_follow_az() {
        #[derive(Serialize)]
        struct Row {
            name: &'static str,
            n: Option<u32>,
            nested: serde_json::Value,
            ok: bool,
        }
        let rows = [
            Row { name: "a", n: Some(1), nested: serde_json::json!({"x": 1}), ok: true },
            Row { name: "b", n: None, nested: serde_json::json!([1]), ok: false },
        ];
        assert_eq!(tsv(&rows).expect("tsv"), "a\t1\ttrue\nb\t\tfalse", "field order kept, nested left out");
        assert_eq!(tsv("x").expect("tsv"), "x");
        let v = serde_json::to_value(&rows).expect("json");
        let q = query("[?ok].name", &v).expect("query");
        assert_eq!(q, serde_json::json!(["a"]));
        assert_eq!(generic_table(&query("[].{N: name}", &v).expect("query")), "N\na\nb\n");
        assert!(check_query("[?").is_err());
    }

    #[test]
    fn sanitize_strips_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb"), "a[31mb");
    }
}
