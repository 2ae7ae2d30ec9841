//! The `-f` inputs of `apply` and `diff`, read as kubectl reads them (`-` is stdin, a
//! directory is each YAML/JSON file in it), bounded in size and time, and the file checked
//! against the flags it may contradict (`cluster.subscription` against `--subscription`).

use std::path::Path;

use crate::domain::setting::{Setting, Words};
use crate::error::Error;
use crate::ops::pool::ClusterFacts;
use crate::plan::gitops::config::{self, GpuConfig, PoolConfig, RecommendConfig, Source};
use crate::plan::gitops::{ConfigError, Desired};

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Error::Usage { message: e.words(), hint: e.hint.map(|h| *h) }
    }
}

/// One file given with `-f`: its name as shown in errors, and its text.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// What `-f` names, as kubectl reads it: `-` is stdin; a directory is each `*.yaml` (and
/// `*.yml`, `*.json`) file directly in it, in name order; anything else is one file.
pub fn inputs(path: &Path, timeout: std::time::Duration) -> Result<Vec<Input>, Error> {
    let read = |p: &Path| read_file(p, timeout).map(|text| Input { name: p.display().to_string(), text });
    if path.as_os_str() == "-" {
        // Bounded as a file is: at most MAX_FILE bytes, within --timeout (a pipe whose writer
        // never finishes cannot hang the command).
        let read = || -> std::io::Result<Vec<u8>> {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(std::io::stdin(), MAX_FILE + 1), &mut buf)?;
            Ok(buf)
        };
        let text = bounded_read(Path::new("<stdin>"), "-f -", timeout, read)?;
        return Ok(vec![Input { name: "<stdin>".to_owned(), text }]);
    }
    if !path.is_dir() {
        return Ok(vec![read(path)?]);
    }
    let entries = std::fs::read_dir(path)
        .map_err(|e| Error::usage(format!("-f {}: cannot list the directory: {e}", path.display()), None))?;
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::usage(
            format!("-f {}: no *.yaml, *.yml or *.json file in the directory", path.display()),
            None,
        ));
    }
    files.iter().map(|f| read(f)).collect()
}

/// The most a GpuConfig file may hold.
pub const MAX_FILE: u64 = 4 << 20;

/// Read the file: a regular file only (never a FIFO or a device), at most [`MAX_FILE`] bytes,
/// within `timeout` (a slow network file system cannot hang the command).
fn read_file(path: &Path, timeout: std::time::Duration) -> Result<String, Error> {
    use std::io::Read;
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, "read the file", e))?;
    if !meta.is_file() {
        return Err(Error::usage(
            format!("-f {shown}: not a regular file"),
            Some("give the path of a YAML or JSON GpuConfig file".into()),
        ));
    }
    let too_big = || {
        Error::usage(
            format!("-f {shown}: larger than {} MiB; a GpuConfig file is far smaller", MAX_FILE >> 20),
            Some("check that -f names the GpuConfig file".into()),
        )
    };
    if meta.len() > MAX_FILE {
        return Err(too_big());
    }
    let owned = path.to_owned();
    let read = move || -> std::io::Result<Vec<u8>> {
        let f = std::fs::File::open(&owned)?;
        if !f.metadata()?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        let mut buf = Vec::new();
        f.take(MAX_FILE + 1).read_to_end(&mut buf)?;
        Ok(buf)
    };
    bounded_read(path, &format!("-f {shown}"), timeout, read)
}

/// Run `read` on its own thread and wait at most `timeout` for it; the text it read, at most
/// [`MAX_FILE`] bytes of UTF-8. `flag` names the input in errors (`-f path`, `-f -`).
fn bounded_read(
    path: &Path,
    flag: &str,
    timeout: std::time::Duration,
    read: impl FnOnce() -> std::io::Result<Vec<u8>> + Send + 'static,
) -> Result<String, Error> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(read());
    });
    let bytes = match rx.recv_timeout(timeout) {
        Ok(r) => r.map_err(|e| Error::io(path, "read the file", e))?,
        Err(_) => {
            // As a failed read says it (`path: cannot read the file: …`), exit 1, with the
            // timeout setting named by the front end.
            let said = format!("{}: cannot read the file: no answer within {{0}} {timeout:?}", path.display());
            return Err(Error::Unavailable { message: Words::new(said, &[Setting::Timeout]), hint: None });
        }
    };
    if bytes.len() as u64 > MAX_FILE {
        return Err(Error::usage(
            format!("{flag}: larger than {} MiB; a GpuConfig file is far smaller", MAX_FILE >> 20),
            Some("check that -f names the GpuConfig file".into()),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|e| Error::usage(format!("{flag}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()), None))
}

/// The file parsed, and the subscription to use: the file's `cluster.subscription`, which must
/// agree with `--subscription` when both are given, else `--subscription`'s.
pub fn parse(input: &Input, flag: Option<&str>) -> Result<(GpuConfig, Option<String>), Error> {
    let src = Source { name: input.name.clone(), text: &input.text };
    let cfg = config::parse(&src)?;
    let sub = match (&cfg.cluster.subscription, flag) {
        (Some(f), Some(flag)) if !f.eq_ignore_ascii_case(flag) => {
            return Err(src
                .error(
                    "cluster.subscription",
                    format!("{f} differs from the subscription the command line names ({flag})"),
                    None,
                )
                .into())
        }
        (Some(f), _) => Some(f.clone()),
        (None, flag) => flag.map(str::to_owned),
    };
    Ok((cfg, sub))
}

/// The file validated into the desired state (`subscription`: the one in use, or a
/// placeholder offline); a `recommend:` pool picks its size in the cluster's `place`.
pub fn validate(
    catalog: &crate::catalog::Catalog,
    input: &Input,
    cfg: &GpuConfig,
    subscription: &str,
    place: &ClusterFacts,
) -> Result<Desired, Error> {
    let src = Source { name: input.name.clone(), text: &input.text };
    let pick = |at: &str, p: &PoolConfig, r: &RecommendConfig| super::pick(catalog, place, at, (p, r), &cfg.overrides);
    Ok(config::validate(catalog, &src, cfg, subscription, &pick)?)
}

/// The file's content checked on its own, before any request (`config::check_alone`): a
/// `recommend:` pool's settings and model too; which size fits waits for the cluster.
pub fn check_alone(catalog: &crate::catalog::Catalog, input: &Input, cfg: &GpuConfig) -> Result<(), Error> {
    let src = Source { name: input.name.clone(), text: &input.text };
    let check =
        |at: &str, p: &PoolConfig, r: &RecommendConfig| super::check_recommend(catalog, at, (p, r), &cfg.overrides);
    Ok(config::check_alone(catalog, &src, cfg, &check)?)
}

/// The subscription read at connection, written into every pool (the file was validated with
/// a guess).
pub fn set_subscription(desired: &mut Desired, sub: &str) {
    if sub != desired.subscription {
        desired.subscription = sub.to_owned();
        desired.pools.iter_mut().for_each(|p| p.subscription = sub.to_owned());
        desired.fallbacks.values_mut().flatten().for_each(|p| p.subscription = sub.to_owned());
    }
}
