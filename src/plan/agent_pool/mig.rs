//! Managed GPU, managed MIG (`gpuProfile.nvidia`) and `--mig-profile` (`gpuInstanceProfile`):
//! the catalog's rules and the API's constraints, checked before any request.

use super::*;

/// A managed-GPU refusal: the rule for `limit` (its id and source), overridable.
pub(super) fn managed_refusal(
    catalog: &Catalog,
    r: &PoolRequest,
    warnings: &mut Vec<Words>,
    limit: crate::catalog::ManagedGpuLimit,
    (field, message, hint): (Setting, Words, Option<Words>),
) -> Result<(), SpecError> {
    let rule = catalog.managed_gpu_rule(limit);
    let (id, source) = rule.map_or((limit.rule_id(), "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    catalog_refusal(r, warnings, (id, source), err(field, message, hint))
}

/// Compute and memory slices of a MIG profile out of a GPU's 7 and 8 (NVIDIA MIG User Guide,
/// "Supported MIG Profiles": A100/H100/H200 1g = 1/8 of memory, 2g = 2/8, 3g = 4/8, 4g = 4/8,
/// 7g = 8/8).
pub(super) fn mig_slices(profile: &str) -> Option<(u32, u32)> {
    Some(match profile {
        "MIG1g" => (1, 1),
        "MIG2g" => (2, 2),
        "MIG3g" => (3, 4),
        "MIG4g" => (4, 4),
        "MIG7g" => (7, 8),
        _ => return None,
    })
}

/// `--managed-gpu`, `--gpu-mig-strategy` and `--mig-profiles`: the limits the docs state (each
/// a catalog rule, overridable), the spec's own constraints (not overridable: the API refuses
/// them), and the MIG layout against the GPU's slices, before any request. Returns the driver
/// to send and `gpuProfile.nvidia`.
pub(super) fn check_managed(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (os, gpu_driver, autoscale): (Os, Option<&'static str>, bool),
    (notes, warnings): (&mut Vec<Words>, &mut Vec<Words>),
) -> Result<(Option<&'static str>, Option<NvidiaSpec>), SpecError> {
    use crate::catalog::ManagedGpuLimit as L;
    let mig = r.mig_strategy.is_some() || !r.mig_profiles.is_empty();
    if !r.managed_gpu && !mig {
        return Ok((gpu_driver, None));
    }
    if !r.managed_gpu {
        let m = Words::new(
            "managed MIG ({0}, {1}) configures AKS-managed GPU pools",
            &[Setting::MigStrategy, Setting::MigProfiles],
        );
        managed_refusal(
            catalog,
            r,
            warnings,
            L::MigNeedsManaged,
            (Setting::MigStrategy, m, Some(Words::new("add {0}", &[Setting::ManagedGpu]))),
        )?;
    }
    if r.managed_gpu {
        if size.gpu_vendor != Vendor::Nvidia || os == Os::Windows {
            let m = format!(
                "AKS-managed GPU pools are NVIDIA on Linux only; {} is {} on {}",
                size.name,
                size.gpu_model,
                os_name(os)
            );
            managed_refusal(catalog, r, warnings, L::NvidiaLinux, (Setting::ManagedGpu, m.into(), None))?;
        }
        if gpu_driver == Some("None") {
            let m = Words::new(
                "{0} none cannot go with an AKS-managed GPU pool: AKS installs the driver (it ignores None)",
                &[Setting::GpuDriver],
            );
            let hint = Some(Words::new(
                "drop {0} none, or drop {1} to bring your own driver",
                &[Setting::GpuDriver, Setting::ManagedGpu],
            ));
            managed_refusal(catalog, r, warnings, L::DriverInstall, (Setting::GpuDriver, m, hint))?;
        }
        if autoscale {
            let m = "the cluster autoscaler is not supported on AKS-managed GPU pools during the preview".into();
            let hint = Some(Words::new("use {0}, and scale with `aksgpu pool scale`", &[Setting::Count]));
            managed_refusal(catalog, r, warnings, L::NoAutoscaler, (Setting::MinCount, m, hint))?;
        }
        let fixed = catalog.managed_gpu_rule(L::Immutable).map(|x| format!(" (rule {}, {})", x.id, x.source));
        notes.push(Words::plain(format!(
            "managed GPU: AKS installs and keeps the driver, device plugin, DCGM and dcgm-exporter; fixed once the pool exists{}",
            fixed.unwrap_or_default()
        )));
    }
    let mig_strategy = check_mig_layout(catalog, size, r, (notes, warnings))?;
    let nvidia = NvidiaSpec { managed: r.managed_gpu, mig_strategy, mig_profiles: canonical_profiles(&r.mig_profiles) };
    Ok((Some("Install"), Some(nvidia)))
}

pub(super) fn canonical_profiles(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|p| {
            API_MIG_PROFILES
                .iter()
                .find(|v| v.eq_ignore_ascii_case(p.trim()))
                .map_or(p.trim().to_owned(), |v| (*v).to_owned())
        })
        .collect()
}

/// `--gpu-mig-strategy` as the API spells it.
fn mig_strategy(r: &PoolRequest) -> Result<Option<&'static str>, SpecError> {
    match r.mig_strategy.as_deref().map(str::trim) {
        None => Ok(None),
        Some(s) if s.eq_ignore_ascii_case("single") => Ok(Some("Single")),
        Some(s) if s.eq_ignore_ascii_case("mixed") => Ok(Some("Mixed")),
        Some(s) => {
            Err(err(Setting::MigStrategy, format!("{s:?} is not a MIG strategy"), Some("use Single or Mixed".into())))
        }
    }
}

/// The managed MIG layout: the strategy names, the API's profile values, exclusive with
/// `--mig-profile`, one profile for `Single`, and the profiles fit one GPU's 7 compute and 8
/// memory slices (AKS rejects wider layouts).
pub(super) fn check_mig_layout(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (notes, warnings): (&mut Vec<Words>, &mut Vec<Words>),
) -> Result<Option<&'static str>, SpecError> {
    let strategy = mig_strategy(r)?;
    if strategy.is_none() && r.mig_profiles.is_empty() {
        return Ok(None);
    }
    if r.mig_profile.is_some() {
        return Err(err(
            Setting::MigProfiles,
            Words::new(
                "{0} (gpuProfile.nvidia.migProfiles) and {1} (gpuInstanceProfile) are mutually exclusive (AKS API spec)",
                &[Setting::MigProfiles, Setting::MigProfile],
            ),
            Some(Words::new("drop {0}; {1} replaces it on managed pools", &[Setting::MigProfile, Setting::MigProfiles])),
        ));
    }
    let Some(strategy) = strategy else {
        let m = Words::new("{0} needs {1} Single or Mixed", &[Setting::MigProfiles, Setting::MigStrategy]);
        return Err(err(Setting::MigStrategy, m, None));
    };
    let profiles = canonical_profiles(&r.mig_profiles);
    if profiles.is_empty() {
        return Err(err(
            Setting::MigProfiles,
            Words::new(
                format!("{{0}} {strategy} needs {{1}} (e.g. MIG3g,MIG3g)"),
                &[Setting::MigStrategy, Setting::MigProfiles],
            ),
            None,
        ));
    }
    if strategy == "Single" && profiles.len() != 1 {
        return Err(err(
            Setting::MigProfiles,
            Words::new(
                format!("{{0}} Single takes exactly one profile (AKS API spec); got {}", profiles.join(",")),
                &[Setting::MigStrategy],
            ),
            Some(Words::new("list one profile, or use {0} Mixed", &[Setting::MigStrategy])),
        ));
    }
    if let Some(bad) = profiles.iter().find(|p| mig_slices(p).is_none()) {
        return Err(err(
            Setting::MigProfiles,
            format!("{bad:?} is not a GPU instance profile"),
            Some(format!("use {}", API_MIG_PROFILES.join(", ")).into()),
        ));
    }
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::Mig { .. }));
    let (id, source) = rule.map_or(("mig-models", "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    if !size.mig_capable {
        let e =
            err(Setting::MigProfiles, format!("{} ({}) does not support MIG on AKS", size.name, size.gpu_model), None);
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    // Single repeats its one profile on every GPU; Mixed lists the partitions of each GPU.
    let (compute, memory) = if strategy == "Single" {
        let (c, m) = mig_slices(&profiles[0]).unwrap_or((7, 8));
        (c * (7 / c), m * (8 / m))
    } else {
        profiles.iter().filter_map(|p| mig_slices(p)).fold((0, 0), |(c, m), (a, b)| (c + a, m + b))
    };
    if compute > 7 || memory > 8 {
        return Err(err(
            Setting::MigProfiles,
            format!(
                "{} is too wide for one {} GPU: {compute} of 7 compute slices and {memory} of 8 memory slices (3g and 4g take 4 memory slices each)",
                profiles.join(","),
                size.gpu_model
            ),
            Some("fewer or smaller partitions, e.g. MIG3g,MIG3g or MIG4g,MIG2g,MIG1g (NVIDIA MIG User Guide, supported profiles)".into()),
        ));
    }
    notes.push(format!("managed MIG {strategy}: {} per GPU", profiles.join(", ")).into());
    Ok(Some(strategy))
}

/// `--mig-profile`: Linux, a MIG-capable size, and a profile of its GPU. The first two rest on
/// the catalog's `mig` rule and the third on `gpus.yaml`: each is overridable, and the value
/// sent must then still be one of the AKS API's `GPUInstanceProfile` values.
pub(super) fn check_mig(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    os: Os,
    (notes, warnings): (&mut Vec<Words>, &mut Vec<Words>),
) -> Result<Option<String>, SpecError> {
    let Some(p) = &r.mig_profile else { return Ok(None) };
    let want = p.trim();
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::Mig { .. }));
    let (id, source) = rule.map_or(("mig-models", "catalog/rules.yaml"), |x| (x.id.as_str(), x.source.as_str()));
    if os == Os::Windows {
        let e = err(Setting::MigProfile, "MIG is not available on Windows node pools", None);
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    if !size.mig_capable {
        let e = err(
            Setting::MigProfile,
            format!("{} ({}) does not support MIG on AKS", size.name, size.gpu_model),
            Some(Words::new("MIG needs an A100, H100 or H200 size: `aksgpu recommend {0:flag}`", &[Setting::Mig])),
        );
        catalog_refusal(r, warnings, (id, source), e)?;
    }
    let gpu = catalog.gpu(&size.gpu_model);
    let profiles = gpu.map(|g| g.mig_profiles.as_slice()).unwrap_or_default();
    if let Some(m) =
        profiles.iter().find(|m| m.profile.eq_ignore_ascii_case(want) || m.slice.eq_ignore_ascii_case(want))
    {
        notes.push(
            format!("MIG {} = {} × {} per GPU; fixed once the pool exists", m.profile, m.instances, m.slice).into(),
        );
        return Ok(Some(m.profile.clone()));
    }
    let listed = profiles.iter().map(|m| format!("{} ({})", m.profile, m.slice)).collect::<Vec<_>>();
    let e = err(
        Setting::MigProfile,
        format!("{want:?} is not a MIG profile of {}", size.gpu_model),
        Some(Words::plain(if listed.is_empty() {
            format!("the catalog lists no MIG profile for {}", size.gpu_model)
        } else {
            format!("use one of {}", listed.join(", "))
        })),
    );
    let gpu_source = gpu.map_or("catalog/gpus.yaml", |g| g.source.as_str());
    catalog_refusal(r, warnings, (RULE_MIG_PROFILES, gpu_source), e)?;
    // Overridden: the catalog cannot map a slice name, and the API takes only its own values.
    let Some(api) = API_MIG_PROFILES.iter().find(|v| v.eq_ignore_ascii_case(want)) else {
        return Err(err(
            Setting::MigProfile,
            format!("{want:?} is not a value the AKS API takes: use one of {}", API_MIG_PROFILES.join(", ")),
            Some("gpuInstanceProfile is an enum of the AgentPool API (managedClusters.json)".into()),
        ));
    };
    notes.push(format!("MIG {api}: the instance count and memory per slice are unknown to the catalog").into());
    Ok(Some((*api).to_owned()))
}
