//! The user's cache directory and the file helpers every cache shares (the price cache, the
//! Hugging Face Hub cache, the cluster locations, the provider-refresh marker) and the files the
//! user names (`export -f`): bounded reads that never block on a FIFO, atomic private writes,
//! and the dates the caches record.
//!
//! The directory is `AKSGPU_CACHE_DIR`, else `$XDG_CACHE_HOME/aksgpu`, else
//! `~/.cache/aksgpu`.

use std::path::{Path, PathBuf};

/// The cache directory.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty()).map(PathBuf::from);
    var("AKSGPU_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("aksgpu")))
        .or_else(|| var("HOME").map(|h| h.join(".cache").join("aksgpu")))
}

/// A cache larger than this is ignored: a refresh of every catalog size in every region is
/// well under 1 MiB.
pub const MAX_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// The bytes of a regular file of at most `MAX_CACHE_BYTES`, or `Ok(None)` when absent. The
/// file is opened without blocking (a FIFO would block a plain open) and checked on the open
/// handle, so a file swapped in after a check cannot slip through.
pub fn read_regular_capped(path: &Path) -> Result<Option<Vec<u8>>, CacheError> {
    use std::io::Read as _;
    let io = |source| CacheError::Io { path: path.to_owned(), source };
    let file = match open_nonblocking(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(CacheError::Invalid(format!("{} is not a regular file", path.display())));
    }
    let too_large =
        || CacheError::Invalid(format!("{} is larger than {} MiB", path.display(), MAX_CACHE_BYTES / (1024 * 1024)));
    if meta.len() > MAX_CACHE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.take(MAX_CACHE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_CACHE_BYTES {
        return Err(too_large());
    }
    Ok(Some(bytes))
}

/// Why a cache file was not read: the system refused it (an I/O failure), or it is there but
/// not a cache this version reads.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Reading the file failed.
    #[error("cannot read {}: {source}", path.display())]
    Io { path: std::path::PathBuf, source: std::io::Error },
    /// The file is not a usable cache (corrupt, too large, not a regular file, an old format,
    /// fetched in the future).
    #[error("{0}")]
    Invalid(String),
}

/// Open for reading without blocking on a FIFO (`O_NONBLOCK`; regular files read as usual).
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

/// Open for reading (no FIFOs to block on in a cache directory off Unix).
#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Write `bytes` to `path` atomically, as the price cache is written (the Hub cache, the
/// cluster locations and the provider-refresh marker share it): the cache directory is created, and
/// the file is private (mode 0600).
pub fn write_atomic(path: &Path, bytes: &[u8], prefix: &str) -> std::io::Result<()> {
    atomic(path, bytes, prefix, true, None)
}

/// Write a file the user named (`export -f FILE`) atomically: through a new temporary file in
/// its directory (which must exist: nothing is created for a mistyped path), renamed over
/// `path`, readable as a file written by hand is (mode 0644 less the umask).
pub fn write_user_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    atomic(path, bytes, &format!(".{name}."), false, Some(0o644))
}

/// The one atomic write: a uniquely named temporary file created exclusively (`O_EXCL`, so
/// never through a planted symlink) in `path`'s directory, synced, then renamed over `path`
/// (a symlink at `path` is replaced, not followed). An error speaks of `path` and its
/// directory, never of the temporary file (whose name the person never gave).
fn atomic(path: &Path, bytes: &[u8], prefix: &str, create_dir: bool, mode: Option<u32>) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let plain = |e: std::io::Error| in_directory(dir, &e);
    if create_dir {
        std::fs::create_dir_all(dir).map_err(plain)?;
    }
    let mut b = tempfile::Builder::new();
    b.prefix(prefix).suffix(".tmp");
    #[cfg(unix)]
    if let Some(m) = mode {
        use std::os::unix::fs::PermissionsExt as _;
        b.permissions(std::fs::Permissions::from_mode(m));
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut tmp = b.tempfile_in(dir).map_err(plain)?;
    tmp.write_all(bytes).map_err(plain)?;
    tmp.as_file().sync_all().map_err(plain)?;
    tmp.persist(path).map_err(|e| plain(e.error))?;
    Ok(())
}

/// An I/O error in `dir`, worded without the path it happened at (the temporary file's):
/// "no such directory (no/such)", "Permission denied (os error 13) in directory /x".
fn in_directory(dir: &Path, e: &std::io::Error) -> std::io::Error {
    let what = match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    };
    let words = match e.kind() {
        std::io::ErrorKind::NotFound => format!("no such directory ({})", dir.display()),
        _ => format!("{what} in directory {}", dir.display()),
    };
    std::io::Error::new(e.kind(), words)
}

/// YYYY-MM-DD → unix seconds (UTC midnight; days from civil, proleptic Gregorian).
pub fn epoch_of(as_of: &str) -> Option<u64> {
    let b = as_of.get(..10)?;
    let y: i64 = b.get(..4)?.parse().ok()?;
    let m: i64 = b.get(5..7)?.parse().ok()?;
    let d: i64 = b.get(8..10)?.parse().ok()?;
    let (y, m) = if m <= 2 { (y - 1, m + 12) } else { (y, m) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m - 3) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400).ok()
}

/// Unix seconds → YYYY-MM-DD (UTC), the inverse of `epoch_of` for whole days.
pub fn date_of(secs: u64) -> String {
    let (y, m, d) = crate::domain::calendar::civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0));
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_to_epoch() {
        assert_eq!(epoch_of("1970-01-01"), Some(0));
        assert_eq!(epoch_of("2026-11-30"), Some(1_795_996_800));
        assert_eq!(epoch_of("2000-03-01"), Some(951_868_800));
        assert_eq!(epoch_of("unknown"), None);
        for d in ["1970-01-01", "2000-02-29", "2000-03-01", "2026-06-18", "2026-11-30"] {
            assert_eq!(date_of(epoch_of(d).expect("date")), d);
        }
    }
}
