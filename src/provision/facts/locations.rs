//! Each cluster's location, remembered in the cache directory (`locations.json` next to the
//! price cache), keyed by subscription, resource group and cluster name.
//!
//! A managed cluster's location is fixed when it is created (it is a required, create-only
//! property of the ARM resource: Microsoft.ContainerService `managedClusters.json`), so a
//! later run can start the reads that need it (resource SKUs and usages of that location) at
//! the same time as the cluster GET. The remembered value is only a guess: the cluster as read
//! decides, and a different answer (a cluster deleted and created again elsewhere under the
//! same name) discards the reads made for the guess and replaces the entry.
//!
//! The file is small and bounded ([`MAX_ENTRIES`], [`MAX_BYTES`]); it is read as a regular file
//! only (a FIFO never blocks), a file that is too large or not the expected JSON is ignored,
//! and it is written through a new temporary file renamed over it, so a reader never sees half
//! a file. Two runs writing at once lose at most one entry, which the next run writes again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The most clusters remembered; the least recently written are dropped first.
pub const MAX_ENTRIES: usize = 256;
/// A larger file is not read (and is replaced by the next write).
pub const MAX_BYTES: usize = 256 * 1024;
/// The file's name in the cache directory.
pub const FILE: &str = "locations.json";

/// Which cluster: subscription / resource group / name, in lower case (ARM names are
/// case-insensitive).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key(String);

impl Key {
    /// The key of a cluster.
    pub fn new(sub: &str, rg: &str, cluster: &str) -> Self {
        Key(format!("{sub}/{rg}/{cluster}").to_ascii_lowercase())
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct File {
    version: u32,
    clusters: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    location: String,
    /// Unix seconds of the write (which entries go first when the file is full).
    written: u64,
}

/// Where the locations are kept; `None`: nowhere (no cache directory), nothing remembered.
#[derive(Debug, Clone, Default)]
pub struct Cache {
    path: Option<PathBuf>,
}

impl Cache {
    /// `locations.json` in the user's cache directory (see `cache::cache_dir`).
    pub fn in_cache_dir() -> Self {
        Cache { path: crate::cache::cache_dir().map(|d| d.join(FILE)) }
    }

    /// A cache at `path` (tests).
    pub fn at(path: &Path) -> Self {
        Cache { path: Some(path.to_owned()) }
    }

    /// The location remembered for `key`.
    pub fn get(&self, key: &Key) -> Option<String> {
        let file = read(self.path.as_deref()?)?;
        file.clusters.get(&key.0).map(|e| e.location.clone()).filter(|l| plausible(l))
    }

    /// Remember `location` for `key` (only written when it is new or different). A cache that
    /// cannot be written is no error: the next run reads the cluster first, as without one.
    pub fn remember(&self, key: &Key, location: &str) {
        let Some(path) = self.path.as_deref() else { return };
        if !plausible(location) {
            return;
        }
        let mut file = read(path).unwrap_or_default();
        if file.clusters.get(&key.0).is_some_and(|e| e.location == location) {
            return;
        }
        let written = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        file.version = 1;
        file.clusters.insert(key.0.clone(), Entry { location: location.to_owned(), written });
        while file.clusters.len() > MAX_ENTRIES {
            let oldest = file.clusters.iter().min_by_key(|(_, e)| e.written).map(|(k, _)| k.clone());
            let Some(k) = oldest else { break };
            file.clusters.remove(&k);
        }
        if let Ok(bytes) = serde_json::to_vec(&file) {
            let _ = crate::cache::write_atomic(path, &bytes, ".locations.");
        }
    }
}

/// An Azure location name as ARM writes it in lower case: letters and digits only (it goes
/// into request URLs, so anything else in a tampered file is ignored).
fn plausible(l: &str) -> bool {
    !l.is_empty() && l.len() <= 64 && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// The file, or `None` when absent, unreadable, too large or not the expected JSON.
fn read(path: &Path) -> Option<File> {
    let bytes = crate::cache::read_regular_capped(path).ok()??;
    if bytes.len() > MAX_BYTES {
        return None;
    }
    serde_json::from_slice::<File>(&bytes).ok().filter(|f| f.version == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("aksgpu-locations-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_location_is_remembered_by_cluster_ignoring_case() {
        let d = dir("roundtrip");
        let c = Cache::at(&d.join(FILE));
        assert_eq!(c.get(&Key::new("S", "rg", "c1")), None);
        c.remember(&Key::new("S", "RG", "c1"), "eastus");
        assert_eq!(c.get(&Key::new("s", "rg", "C1")).as_deref(), Some("eastus"));
        assert_eq!(c.get(&Key::new("s", "rg", "c2")), None);
        c.remember(&Key::new("s", "rg", "c1"), "westeurope");
        assert_eq!(c.get(&Key::new("s", "rg", "c1")).as_deref(), Some("westeurope"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn corrupt_huge_or_tampered_files_are_ignored_and_replaced() {
        let d = dir("corrupt");
        std::fs::create_dir_all(&d).expect("dir");
        let path = d.join(FILE);
        let c = Cache::at(&path);
        let k = Key::new("s", "rg", "c1");
        for bad in [
            "{not json".to_owned(),
            format!("{{\"version\":1,\"clusters\":{{}},\"pad\":\"{}\"}}", "x".repeat(MAX_BYTES)),
            r#"{"version":1,"clusters":{"s/rg/c1":{"location":"east us/../x","written":1}}}"#.to_owned(),
            r#"{"version":9,"clusters":{"s/rg/c1":{"location":"eastus","written":1}}}"#.to_owned(),
        ] {
            std::fs::write(&path, &bad).expect("write");
            assert_eq!(c.get(&k), None, "{bad:.60}");
            c.remember(&k, "eastus");
            assert_eq!(c.get(&k).as_deref(), Some("eastus"), "replaced after {bad:.60}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_file_holds_at_most_max_entries() {
        let d = dir("bounded");
        let c = Cache::at(&d.join(FILE));
        for i in 0..MAX_ENTRIES + 5 {
            c.remember(&Key::new("s", "rg", &format!("c{i}")), "eastus");
        }
        let file = read(&d.join(FILE)).expect("file");
        assert_eq!(file.clusters.len(), MAX_ENTRIES);
        assert!(std::fs::metadata(d.join(FILE)).expect("meta").len() as usize <= MAX_BYTES);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn no_cache_directory_remembers_nothing() {
        let c = Cache::default();
        c.remember(&Key::new("s", "rg", "c1"), "eastus");
        assert_eq!(c.get(&Key::new("s", "rg", "c1")), None);
    }
}
