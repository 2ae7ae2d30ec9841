//! The run's facts: every read-only fact a run needs (the cluster, its agentPools list, the
//! resource SKUs and the usages of a location, a pool, a feature) is read once and shared by
//! every step that needs it, including steps running at the same time: the first step to ask
//! sends the GET, the others wait for its answer instead of sending their own.
//!
//! Facts are memoised by URL (ARM paths are case-insensitive, so the key is the URL in lower
//! case) in async once-cells. A failed read is not remembered: the next step to ask reads
//! again. A write this run sends to a cluster makes what it changes stale, so
//! [`Store::changed`] forgets the cluster, its pools and the usages (quota), and the next step
//! reads them again. Polls and read-backs after a lost answer never go through the store: they
//! must see the present.
//!
//! The store also remembers each cluster's location in the cache directory (see
//! [`locations`]): a location never changes (Azure cannot move a managed cluster), so a later
//! run can read the SKUs and usages of that location at the same time as the cluster.

pub mod locations;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use std::any::Any;

use serde_json::Value;
use tokio::sync::OnceCell;

use super::wire;
use crate::arm::{ArmClient, ArmError};
use crate::plan::{cluster_path, Step};
use crate::resources::{AgentPool, AsRead, Listed, ManagedCluster};

/// A fact as held: the JSON of a GET (`null` for a 404 read with `get_opt`), or a typed list.
type Fact = Arc<dyn Any + Send + Sync>;

type Cell = Arc<OnceCell<Fact>>;

/// The facts of one run; cheap to clone (clones share the memo).
#[derive(Debug, Clone, Default)]
pub struct Store {
    memo: Arc<Mutex<HashMap<String, Cell>>>,
    locations: locations::Cache,
}

impl Store {
    /// An empty store that remembers cluster locations in `locations`.
    pub fn new(locations: locations::Cache) -> Self {
        Store { memo: Arc::default(), locations }
    }

    /// An empty store with the location cache in the user's cache directory.
    pub fn with_cache_dir() -> Self {
        Self::new(locations::Cache::in_cache_dir())
    }

    fn cell(&self, url: &str) -> Cell {
        let key = url.to_ascii_lowercase();
        match self.memo.lock() {
            Ok(mut m) => m.entry(key).or_default().clone(),
            // A poisoned memo only loses sharing, never correctness.
            Err(_) => Cell::default(),
        }
    }

    /// The fact `step` reads, read by `read` the first time it is asked for; held as `F`.
    async fn read<F, Fut>(&self, step: &Step, read: impl FnOnce() -> Fut) -> Result<Arc<F>, ArmError>
    where
        F: Any + Send + Sync,
        Fut: std::future::Future<Output = Result<F, ArmError>>,
    {
        let cell = self.cell(&step.url);
        let fact = cell.get_or_try_init(|| async { Ok::<Fact, ArmError>(Arc::new(read().await?)) }).await?;
        fact.clone().downcast::<F>().map_err(|_| ArmError::Bug {
            message: format!("the run's facts hold {} as another type than asked", step.url),
        })
    }

    /// Send the plan's read `step` once per run; any non-2xx answer is an error (and is not
    /// remembered).
    pub async fn get(&self, client: &ArmClient, step: &Step) -> Result<Value, ArmError> {
        let v: Arc<Value> = self.read(step, || wire::get::<Value>(client, step)).await?;
        Ok(Value::clone(&v))
    }

    /// Send the plan's read `step` once per run; 404 is `None`.
    pub async fn get_opt(&self, client: &ArmClient, step: &Step) -> Result<Option<Value>, ArmError> {
        let v: Arc<Option<Value>> = self.read(step, || wire::get_opt::<Value>(client, step)).await?;
        Ok(Option::clone(&v))
    }

    /// Every page of the list the plan's `step` reads, once per run, each item read as `T`
    /// (an item of another shape is an error naming it, never skipped).
    pub async fn list<T>(&self, client: &ArmClient, step: &Step) -> Result<Vec<T>, ArmError>
    where
        T: Listed + Clone + Send + Sync + 'static,
    {
        let v: Arc<Vec<T>> = self.read(step, || wire::list::<T>(client, step)).await?;
        Ok(Vec::clone(&v))
    }

    /// The managed cluster, read once per run, typed (its JSON kept for a write that sends it
    /// back); a body of another shape is an error naming the field. Its location, when sent, is
    /// remembered for later runs.
    pub async fn cluster(
        &self,
        client: &ArmClient,
        sub: &str,
        rg: &str,
        cluster: &str,
    ) -> Result<AsRead<ManagedCluster>, ArmError> {
        let step = crate::plan::read_cluster(&cluster_path(sub, rg, cluster), "the cluster");
        let v = self.get(client, &step).await?;
        let c = AsRead::<ManagedCluster>::parse(v, "cluster").map_err(|e| wire::step_shape_error(&step, &e))?;
        if let Ok(loc) = c.location() {
            self.locations.remember(&locations::Key::new(sub, rg, cluster), &loc);
        }
        Ok(c)
    }

    /// The cluster's agent pools (every page), read once per run; each keeps its JSON for a
    /// write that sends it back.
    pub async fn pools(
        &self,
        client: &ArmClient,
        sub: &str,
        rg: &str,
        cluster: &str,
    ) -> Result<Vec<AsRead<AgentPool>>, ArmError> {
        self.list(client, &crate::plan::read_pools(&cluster_path(sub, rg, cluster), "the cluster's pools")).await
    }

    /// The pool named `pool`, from the cluster's agentPools list (one list for every pool of
    /// the run, instead of one GET per pool). Names compare as ARM compares them, ignoring case.
    pub async fn pool_from_list(
        &self,
        client: &ArmClient,
        (sub, rg, cluster): (&str, &str, &str),
        pool: &str,
    ) -> Result<Option<AsRead<AgentPool>>, ArmError> {
        let pools = self.pools(client, sub, rg, cluster).await?;
        Ok(crate::resources::find_named(&pools, pool).cloned())
    }

    /// The location remembered for this cluster by an earlier run, if any.
    pub fn cached_location(&self, sub: &str, rg: &str, cluster: &str) -> Option<String> {
        self.locations.get(&locations::Key::new(sub, rg, cluster))
    }

    /// A write was sent to the cluster at `cluster_path` (or one of its pools): forget the
    /// cluster, everything under it and the usages, so the next step reads them as they are
    /// now. The SKU lists stay: a write to a cluster does not change what a region offers.
    pub fn changed(&self, cluster_path: &str) {
        let prefix = cluster_path.to_ascii_lowercase();
        if let Ok(mut m) = self.memo.lock() {
            m.retain(|k, _| !(k.starts_with(&prefix) || k.contains("/usages?")));
        }
    }

    /// How many facts are held (read or being read).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.memo.lock().map_or(0, |m| m.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::api;
    use crate::plan::with_api;

    #[test]
    fn keys_ignore_case_and_writes_forget_the_cluster_and_quota() {
        let s = Store::default();
        let c = with_api(&cluster_path("s", "RG", "c1"), api::AKS);
        assert!(Arc::ptr_eq(&s.cell(&c), &s.cell(&c.to_ascii_uppercase())), "one fact per URL, whatever its case");
        let pools = format!("{}/agentPools?api-version=x", cluster_path("s", "rg", "c1"));
        let other = format!("{}?api-version=x", cluster_path("s", "rg", "c2"));
        let skus = crate::plan::skus_url("s", "eastus");
        let usages = "/subscriptions/s/providers/Microsoft.Compute/locations/eastus/usages?api-version=x";
        for u in [&pools, &other, &skus, &usages.to_owned()] {
            s.cell(u);
        }
        assert_eq!(s.len(), 5);
        s.changed(&cluster_path("s", "rg", "C1"));
        let left: Vec<String> = s.memo.lock().expect("memo").keys().cloned().collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(left.contains(&other.to_ascii_lowercase()) && left.contains(&skus.to_ascii_lowercase()), "{left:?}");
    }
}
