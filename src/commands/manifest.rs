//! `aksgpu manifest`: flags (and, with -g/--cluster, the pool read from Azure) → a pure
//! `ManifestSpec` → YAML or JSON.

use std::collections::BTreeMap;

use crate::cli::{KindArg, ManifestArgs};
use crate::commands::print_document;
use crate::commands::session::{self as azure, subscription};
use crate::commands::Ctx;
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
    /// The MIG strategy and where it came from.
    strategy: Option<(MigStrategy, &'static str)>,
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
        strategy: a.mig_strategy.map(|m| (MigStrategy::from(m), "--mig-strategy")),
        spot: a.spot,
        os: a.os,
    };
    if let (Some(pool), Some(rg), Some(cluster)) = (&a.pool, &a.resource_group, &a.cluster) {
        read_pool(a, pool, rg, cluster, &mut t)?;
    }
    let size = match &t.vm_size {
        Some(s) => Some(catalog.size(s).ok_or_else(|| {
            Error::usage(format!("--vm-size {s:?} is not in the catalog"), did_you_mean(&catalog.suggest_sizes(s)))
        })?),
        None => None,
    };
    let (resource, single) = strategy_resource(ctx, resource(&catalog, &t, size)?, t.strategy);
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

/// A MIG slice is requested by the device plugin's strategy: under `single` every slice is a
/// `nvidia.com/gpu`, under `mixed` a `nvidia.com/mig-<slice>`. The strategy is the flag's, the
/// pool's (managed MIG), else assumed mixed; the output says which, and from where. Returns the
/// resource and, under `single`, the slice (for the per-node count).
fn strategy_resource(
    ctx: &Ctx,
    r: mf::GpuResource,
    strategy: Option<(MigStrategy, &'static str)>,
) -> (mf::GpuResource, Option<mf::GpuResource>) {
    let mf::GpuResource::MigSlice(slice) = &r else { return (r, None) };
    let (strategy, from) = strategy.unwrap_or((MigStrategy::Mixed, "assumed: not given and not read from a managed MIG pool; pass --mig-strategy single if the device plugin runs the single strategy"));
    let asks = match strategy {
        MigStrategy::Single => "nvidia.com/gpu".to_owned(),
        MigStrategy::Mixed => format!("nvidia.com/mig-{}", slice.trim_start_matches("mig-")),
    };
    ctx.printer.note(&format!("note: MIG strategy {} ({from}): the pod requests {asks}", strategy.as_str()));
    match strategy {
        MigStrategy::Single => (mf::GpuResource::Nvidia, Some(r.clone())),
        MigStrategy::Mixed => (r, None),
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

/// Fill what the flags left open from the pool in Azure.
fn read_pool(a: &ManifestArgs, pool: &str, rg: &str, cluster: &str, t: &mut Target) -> Result<(), Error> {
    let az = azure::connect(&a.arm)?;
    let sub = subscription(&az)?;
    let client = az.client;
    let f = azure::run_interruptible(&Progress::default(), async {
        crate::ops::manifest::read_pool(&client, (&sub, rg, cluster, pool)).await
    })?;
    if t.taints.is_none() {
        t.taints = Some(f.taints);
    }
    t.vm_size = t.vm_size.take().or(f.vm_size);
    t.mig = t.mig.take().or(f.mig_profile);
    if t.strategy.is_none() {
        t.strategy = f.mig_strategy.map(|m| (m, "the pool's gpuProfile.nvidia.migStrategy"));
    }
    t.spot = t.spot || f.spot;
    if t.os.is_none() && f.windows {
        t.os = Some(Os::Windows);
    }
    Ok(())
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
        .map(|x| mf::parse_taint(x).map_err(|e| Error::usage(format!("--taints: {}", e.message), e.hint)))
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
