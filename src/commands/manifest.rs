//! `aksgpu manifest`: flags (and, with -g/--cluster, the pool read from Azure) → a pure
//! `ManifestSpec` → YAML or JSON.

use std::collections::BTreeMap;

use crate::cli::{KindArg, ManifestArgs};
use crate::commands::print_document;
use crate::commands::session::{self as azure, subscription};
use crate::commands::Ctx;
use crate::domain::setting::Words;
use crate::domain::MigStrategy;
use crate::error::{did_you_mean, Error};
use crate::ops::manifest::{self as mf, Os};
use crate::ops::session::Progress;
use crate::ops::{Catalog, VmSize};

/// What is known about the target pool: from the flags, completed from Azure.
#[derive(Debug, Default)]
struct Target {
    taints: Option<Vec<String>>,
    vm_size: Option<String>,
    mig: Option<String>,
    /// The pool's managed MIG strategy (`gpuProfile.nvidia.migStrategy`), when read.
    pool_strategy: Option<MigStrategy>,
    spot: bool,
    os: Option<Os>,
}

/// `aksgpu manifest`
pub fn manifest(ctx: &Ctx, a: &ManifestArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let mut t = Target {
        taints: a.taints.clone(),
        vm_size: a.vm_size.clone(),
        mig: a.mig_profile.clone(),
        pool_strategy: None,
        spot: a.spot,
        os: a.os,
    };
    let mut at = None;
    if let (Some(pool), Some(rg), Some(cluster)) = (&a.pool, &a.resource_group, &a.cluster) {
        at = Some(read_pool(a, pool, rg, cluster, &mut t)?);
    }
    let size = match &t.vm_size {
        Some(s) => Some(catalog.size(s).ok_or_else(|| {
            Error::usage(format!("--vm-size {s:?} is not in the catalog"), did_you_mean(&catalog.suggest_sizes(s)))
        })?),
        None => None,
    };
    let (resource, single) = match resource(&catalog, &t, size)? {
        r @ mf::GpuResource::MigSlice(_) => {
            let strategy = mig_strategy(ctx, (a, &t), &r, at.as_ref())?;
            (mf::under_strategy(r.clone(), strategy), (strategy == MigStrategy::Single).then_some(r))
        }
        r => (r, None),
    };
    if a.gpus == 0 {
        return Err(Error::usage("--gpus must be at least 1", None).into());
    }
    if let Some(s) = size {
        check_schedulable(&catalog, s, single.as_ref().unwrap_or(&resource), a.gpus)?;
    }
    let spec = spec(a, t, size, resource)?;
    let spec = if a.smoke_test { mf::smoke_test(&spec) } else { spec };
    print_document(&ctx.printer, a.output, &mf::manifest_yaml(&spec))
}

/// The MIG strategy a MIG slice is requested by (`plan::manifest::mig_strategy`): the pool's
/// managed MIG strategy, else the GPU Operator release's (read when the pool was read from
/// Azure), else `--mig-strategy`, else assumed mixed. The note says which, and from where; a
/// `--mig-strategy` that contradicts what was read is a usage error.
fn mig_strategy(
    ctx: &Ctx,
    (a, t): (&ManifestArgs, &Target),
    slice: &mf::GpuResource,
    at: Option<&Connected>,
) -> Result<MigStrategy, Error> {
    use crate::ops::manifest::{ReleaseMig, StrategySource as S};
    let release = match (t.pool_strategy, at) {
        (Some(_), _) => ReleaseMig::Unread("the pool's managed MIG decides".into()),
        (None, Some(c)) => azure::run_with_spinner(&ctx.printer, &Progress::default(), None, async |report| {
            report("reading the GPU Operator's Helm release (its MIG strategy)");
            let facts = crate::ops::Facts::with_cache_dir();
            let sub_rg_cluster = (c.subscription.as_str(), c.resource_group.as_str(), c.cluster.as_str());
            Ok(crate::ops::operator::release_mig((&c.client, &facts), &c.cred, sub_rg_cluster, a.arm.timeout).await)
        })?,
        (None, None) => ReleaseMig::Unread("the pool was not read from Azure (no -g and --cluster)".into()),
    };
    let given = a.mig_strategy.map(MigStrategy::from);
    let (strategy, from) = crate::ops::manifest::mig_strategy(t.pool_strategy, &release, given).map_err(|e| {
        Error::usage(
            format!(
                "--mig-strategy {} contradicts {}, which is {}: a pod requesting the wrong resource stays Pending",
                e.given.as_str(),
                source_words(&e.from),
                e.read.as_str()
            ),
            Some("drop --mig-strategy".into()),
        )
    })?;
    let from = match from {
        S::Given { .. } => "--mig-strategy".to_owned(),
        S::Assumed { why } => format!(
            "assumed{}; pass --mig-strategy single if the device plugin runs the single strategy",
            why.map(|w| format!(": {w}")).unwrap_or_default()
        ),
        s => source_words(&s),
    };
    let asks = mf::resource_name(&mf::under_strategy(slice.clone(), strategy));
    ctx.printer.note(&format!("note: MIG strategy {} ({from}): the pod requests {asks}", strategy.as_str()));
    Ok(strategy)
}

/// Where a strategy read from Azure came from, in words.
fn source_words(s: &crate::ops::manifest::StrategySource) -> String {
    use crate::ops::manifest::StrategySource as S;
    match s {
        S::Pool => "the pool's gpuProfile.nvidia.migStrategy".into(),
        S::Release => "the GPU Operator's Helm release, mig.strategy".into(),
        S::ChartDefault => "the GPU Operator's Helm release, which leaves mig.strategy at the chart's default".into(),
        S::Given { .. } => "--mig-strategy".into(),
        S::Assumed { .. } => "assumed".into(),
    }
}

/// A pod's GPUs come from one node: refuse a count the size cannot give (exit 2).
fn check_schedulable(catalog: &Catalog, s: &VmSize, resource: &mf::GpuResource, gpus: u32) -> Result<(), Error> {
    let (per_node, what) = match resource {
        mf::GpuResource::Nvidia => {
            let partial = if s.gpu_count.is_partial() {
                format!(" (a {} share of one {}, seen as one GPU)", s.gpu_count, s.gpu_model)
            } else {
                String::new()
            };
            (mf::gpus_per_node(s.gpu_count), format!("GPU(s) per node{partial}"))
        }
        mf::GpuResource::MigSlice(slice) => {
            let want = slice.trim().trim_start_matches("nvidia.com/").trim_start_matches("mig-");
            let profile = catalog
                .gpu(&s.gpu_model)
                .and_then(|g| g.mig_profiles.iter().find(|p| p.slice.eq_ignore_ascii_case(want)));
            match profile {
                Some(p) => (p.instances * s.gpu_count.whole(), format!("{} MIG instance(s) per node", p.slice)),
                None => return Ok(()),
            }
        }
        mf::GpuResource::DirectX => return Ok(()),
    };
    if gpus <= per_node {
        return Ok(());
    }
    let more = match resource {
        mf::GpuResource::MigSlice(_) => "a larger MIG slice or a size with more GPUs".to_owned(),
        _ => format!("a size with more GPUs per node (`aksgpu recommend --gpus-min {gpus}`)"),
    };
    Err(Error::usage(
        format!("--gpus {gpus}: {} exposes {per_node} {what}, and a pod cannot span nodes", s.name),
        Some(format!("use --gpus {per_node} or fewer, or {more}")),
    ))
}

/// The connection a pool was read through, kept to read the GPU Operator's release.
struct Connected {
    client: crate::ops::session::ArmClient,
    cred: crate::ops::Cred,
    subscription: String,
    resource_group: String,
    cluster: String,
}

/// Fill what the flags left open from the pool in Azure.
fn read_pool(a: &ManifestArgs, pool: &str, rg: &str, cluster: &str, t: &mut Target) -> Result<Connected, Error> {
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let cred = crate::ops::Cred { method: az.method, source: az.source.clone() };
    let client = az.client;
    let f = azure::run_interruptible(&Progress::default(), async {
        crate::ops::manifest::read_pool(&client, (&sub, rg, cluster, pool)).await
    })?;
    if t.taints.is_none() {
        t.taints = Some(f.taints);
    }
    t.vm_size = t.vm_size.take().or(f.vm_size);
    t.mig = t.mig.take().or(f.mig_profile);
    t.pool_strategy = f.mig_strategy;
    t.spot = t.spot || f.spot;
    if t.os.is_none() && f.windows {
        t.os = Some(Os::Windows);
    }
    let (resource_group, cluster) = (rg.to_owned(), cluster.to_owned());
    Ok(Connected { client, cred, subscription: sub, resource_group, cluster })
}

/// The extended resource: DirectX on Windows, a MIG slice, or whole NVIDIA GPUs.
fn resource(catalog: &Catalog, t: &Target, size: Option<&VmSize>) -> Result<mf::GpuResource, Error> {
    if t.os == Some(Os::Windows) {
        if t.mig.is_some() {
            return Err(Error::usage("--mig-profile: MIG is not available on Windows", None));
        }
        return Ok(mf::GpuResource::DirectX);
    }
    let Some(m) = &t.mig else { return Ok(mf::GpuResource::Nvidia) };
    if m.contains('.') {
        return Ok(mf::GpuResource::MigSlice(m.clone()));
    }
    let s = size.ok_or_else(|| {
        Error::usage(
            format!("--mig-profile {m} needs the VM size to name the slice"),
            Some(
                "pass the slice (e.g. --mig-profile 1g.10gb), or --vm-size, or -g and --cluster to read the pool"
                    .into(),
            ),
        )
    })?;
    let g = catalog.gpu(&s.gpu_model);
    let slice = g
        .and_then(|g| g.mig_profiles.iter().find(|p| p.profile.eq_ignore_ascii_case(m)).map(|p| p.slice.clone()))
        .ok_or_else(|| Error::usage(format!("--mig-profile {m} is not a MIG profile of {}", s.gpu_model), None))?;
    Ok(mf::GpuResource::MigSlice(slice))
}

/// The manifest's spec from the flags and the target.
fn spec(
    a: &ManifestArgs,
    t: Target,
    size: Option<&VmSize>,
    resource: mf::GpuResource,
) -> Result<mf::ManifestSpec, Error> {
    let taints: Vec<String> = t
        .taints
        .unwrap_or_else(|| vec![mf::DEFAULT_TAINT.to_owned()])
        .iter()
        .flat_map(|x| x.split(','))
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| {
            mf::parse_taint(x)
                .map_err(|e| Error::Usage { message: Words::plain("--taints: ").then("", e.message), hint: e.hint })
        })
        .collect::<Result<_, _>>()?;
    let mut node_selector = BTreeMap::new();
    match (&a.pool, size) {
        (Some(p), _) => node_selector.insert("agentpool".to_owned(), p.clone()),
        (None, Some(s)) => node_selector.insert("node.kubernetes.io/instance-type".to_owned(), s.name.clone()),
        (None, None) => None,
    };
    let windows = t.os == Some(Os::Windows);
    let default_image = if windows { mf::WINDOWS_SMOKE_IMAGE } else { mf::LINUX_SMOKE_IMAGE };
    Ok(mf::ManifestSpec {
        name: a.name.clone(),
        namespace: a.namespace.clone(),
        image: a.image.clone().unwrap_or_else(|| default_image.to_owned()),
        kind: match a.kind {
            KindArg::Pod => mf::Kind::Pod,
            KindArg::Deployment => mf::Kind::Deployment,
            KindArg::Job => mf::Kind::Job,
        },
        gpus: a.gpus,
        taints,
        spot: t.spot,
        node_selector,
        resource,
        command: (a.image.is_none() && !windows).then(|| vec!["sleep".into(), "infinity".into()]),
    })
}
