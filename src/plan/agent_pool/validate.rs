//! Validating a pool request against the catalog and its AKS rules: overrides, size, OS,
//! Windows, counts, driver, spot and placement, then the `PoolSpec`.

use super::*;

/// A refusal that rests on catalog rule `id` (not on Azure's answer): overridden, it becomes a
/// warning naming the rule, its source and the risk; otherwise the refusal carries the rule,
/// for each front end to say how to override it.
pub(super) fn catalog_refusal(
    r: &PoolRequest,
    warnings: &mut Vec<Words>,
    (id, source): (&str, &str),
    e: SpecError,
) -> Result<(), SpecError> {
    if r.overrides.iter().any(|o| o == id) {
        let rest = Words::plain(format!("; source: {source}); risk: {OVERRIDE_RISK}"));
        warnings.push(Words::plain(format!("overriding catalog rule {id} (")).then("", e.words()).then("", rest));
        return Ok(());
    }
    Err(SpecError { rule: Some(Box::new((id.to_owned(), source.to_owned()))), ..e })
}

/// Every id `--override` accepts: the rules in `rules.yaml` and the catalog-fact ids.
pub fn override_ids(catalog: &Catalog) -> Vec<String> {
    // `fleet_check` rules report on pools as read; they refuse nothing, so nothing overrides them.
    let mut ids: Vec<String> = catalog
        .rules
        .iter()
        .filter(|r| !matches!(r.kind, crate::catalog::RuleKind::FleetCheck { .. }))
        .map(|r| r.id.clone())
        .collect();
    for id in [RULE_SIZE_UNSUPPORTED, RULE_SIZE_OS_SKUS, RULE_SIZE_RETIRED, RULE_MIG_PROFILES, RULE_REGION] {
        ids.push(id.to_owned());
    }
    ids
}

/// The hint a refusal resting on catalog rule `id` carries on the CLI: how to override it.
pub fn override_hint(id: &str, source: &str) -> Words {
    rests_on(id, source, Words::new(format!("{{0:flag}} {id}"), &[Setting::Override]))
}

/// The same in a GpuConfig file: the line that overrides it.
pub fn file_override_hint(id: &str, source: &str) -> Words {
    rests_on(id, source, Words::plain(format!("overrides: [{id}]")))
}

/// "this rests on the catalog …; `how` proceeds anyway".
fn rests_on(id: &str, source: &str, how: Words) -> Words {
    let head = Words::plain(format!("this rests on the catalog (rule {id}, source {source}); `"));
    head.then("", how).then("", Words::plain("` proceeds anyway"))
}

/// `--override` ids must name a rule: a typo would otherwise override nothing, silently.
pub(super) fn check_overrides(catalog: &Catalog, r: &PoolRequest) -> Result<(), SpecError> {
    check_override_ids(catalog, &r.overrides)
}

/// Every `--override` id must be one `override_ids` lists; the error lists them.
pub fn check_override_ids(catalog: &Catalog, overrides: &[String]) -> Result<(), SpecError> {
    if overrides.is_empty() {
        return Ok(());
    }
    let ids = override_ids(catalog);
    match overrides.iter().find(|o| !ids.contains(o)) {
        None => Ok(()),
        Some(bad) => Err(err(
            Setting::Override,
            format!("{bad:?} is not a catalog rule id"),
            Some(format!("rule ids: {}", ids.join(", ")).into()),
        )),
    }
}

/// `--os` and `--os-sku` against AKS's OS SKU list, the GPU rules, and what AKS provisions for
/// this size (`aks.os_skus`, from AKS's node-provisioning code). Returns the OS and the canonical
/// OS SKU; notes when the chosen OS SKU is one the AKS docs and code disagree about.
pub(super) fn check_os(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (notes, warnings): (&mut Vec<Words>, &mut Vec<Words>),
) -> Result<(Os, Option<String>), SpecError> {
    let os = r.os.unwrap_or_else(|| {
        if r.os_sku.as_deref().is_some_and(|s| s.starts_with("Windows")) {
            Os::Windows
        } else {
            Os::Linux
        }
    });
    // A size the catalog marks unsupported lists no OS SKUs: with nothing listed there is
    // nothing to hold the OS to (the size itself was refused, or overridden).
    let os_allowed = size.aks_os_skus.is_empty()
        || match os {
            Os::Windows => size.aks_os_skus.iter().any(|o| o.starts_with("Windows")),
            Os::Linux => size.aks_os_skus.iter().any(|o| !o.starts_with("Windows")),
        };
    let sizes_source = size.aks_source.as_deref().unwrap_or("catalog/sizes");
    if !os_allowed {
        catalog_refusal(
            r,
            warnings,
            (RULE_SIZE_OS_SKUS, sizes_source),
            err(
                Setting::Os,
                format!("AKS allows only {} on {}", size.aks_os_skus.join(", "), size.name),
                Some(Words::new("choose another {0} or size", &[Setting::Os])),
            ),
        )?;
    }
    let Some(s) = &r.os_sku else { return Ok((os, None)) };
    let canon = OS_SKUS.iter().find(|k| k.eq_ignore_ascii_case(s)).copied().ok_or_else(|| {
        let hint = format!("use one of {}", OS_SKUS.join(", "));
        err(Setting::OsSku, format!("{s:?} is not an AKS OS SKU"), Some(hint.into()))
    })?;
    if canon.starts_with("Windows") != (os == Os::Windows) {
        let m = Words::new(format!("{canon} does not match {{0}} {}", os_name(os)), &[Setting::Os]);
        return Err(err(Setting::OsSku, m, None));
    }
    for rule in &catalog.rules {
        if let RuleKind::UnsupportedOsSkus { os_skus, reason } = &rule.kind {
            if os_skus.iter().any(|o| o.eq_ignore_ascii_case(canon)) {
                let e = err(Setting::OsSku, format!("{canon}: {reason}"), Some(rule.source.as_str().into()));
                catalog_refusal(r, warnings, (&rule.id, &rule.source), e)?;
            }
        }
    }
    if !size.aks_os_skus.is_empty() && !os_sku_provisioned(&size.aks_os_skus, canon) {
        let same_os: Vec<&str> = size
            .aks_os_skus
            .iter()
            .map(String::as_str)
            .filter(|o| o.starts_with("Windows") == (os == Os::Windows))
            .collect();
        let e = err(
            Setting::OsSku,
            format!("AKS does not provision {} GPU nodes with {canon}; it allows {}", size.name, same_os.join(", ")),
            Some(Words::new(format!("use {{0}} {} (source: {sizes_source})", same_os.join(" or ")), &[Setting::OsSku])),
        );
        catalog_refusal(r, warnings, (RULE_SIZE_OS_SKUS, sizes_source), e)?;
    }
    for rule in catalog.rules_for(size) {
        if let Some((ConflictFact::OsSkus, win, lose)) = rule.kind.conflict() {
            if win.iter().any(|o| o == canon) != lose.iter().any(|o| o == canon) {
                notes.push(format!("{canon} on {}: {} [rule {}]", size.name, rule.summary, rule.id).into());
            }
        }
    }
    Ok((os, Some(canon.to_owned())))
}

/// True if AKS provisions `sku` where the catalog lists `allowed`. A listed `Ubuntu` covers the
/// versioned Ubuntu SKUs (Ubuntu2204, Ubuntu2404, Ubuntu2604: AKS's "ubuntu" image family) and a
/// listed `AzureLinux` covers its deprecated name `CBLMariner`. `AzureLinux3` is only allowed when
/// listed: AKS's GPU SKU table tells Azure Linux 2 (`azurelinux`) and 3 (`azurelinux3`) apart.
pub(super) fn os_sku_provisioned(allowed: &[String], sku: &str) -> bool {
    let family = match sku {
        "Ubuntu2204" | "Ubuntu2404" | "Ubuntu2604" => "Ubuntu",
        "CBLMariner" => "AzureLinux",
        other => other,
    };
    allowed.iter().any(|o| o == sku || o == family)
}

/// The size: known, not retired, and AKS-supported for GPU pools.
pub(super) fn check_size<'a>(
    catalog: &'a Catalog,
    r: &PoolRequest,
    warnings: &mut Vec<Words>,
) -> Result<&'a VmSize, SpecError> {
    let Some(size) = catalog.size(&r.vm_size) else {
        let near = catalog.suggest_sizes(&r.vm_size);
        return Err(err(
            Setting::VmSize,
            format!("{:?} is not a GPU size in the catalog", r.vm_size),
            Some(did_you_mean(&near).unwrap_or_else(|| "list sizes with `aksgpu catalog list`".into()).into()),
        ));
    };
    let retired = size.status == Status::Retired;
    if retired {
        let e = err(
            Setting::VmSize,
            format!(
                "{} is retired{}",
                size.name,
                size.retirement_date.as_ref().map(|d| format!(" (since {d})")).unwrap_or_default()
            ),
            Some("pick a current size: `aksgpu recommend` or `aksgpu catalog list`".into()),
        );
        let source = size.retirement_source.as_deref().unwrap_or(&size.source);
        catalog_refusal(r, warnings, (RULE_SIZE_RETIRED, source), e)?;
    }
    let rule = catalog.unsupported_reason(&size.series).or_else(|| {
        catalog.rules_for(size).into_iter().find(|x| matches!(x.kind.conflict(), Some((ConflictFact::Supported, ..))))
    });
    // A retired size is marked unsupported because it is retired (rule
    // retired-sizes-in-aks-code says the same): that refusal was the one above. A series rule
    // of its own (NVv4) still refuses.
    if !size.aks_supported && (!retired || catalog.unsupported_reason(&size.series).is_some()) {
        let why = rule
            .map(|r| r.summary.clone())
            .or_else(|| size.aks_note.as_deref().map(str::to_owned))
            .unwrap_or_else(|| "AKS does not support it for GPU node pools".into());
        let (id, source) = match rule {
            Some(x) => (x.id.as_str(), x.source.as_str()),
            None => (RULE_SIZE_UNSUPPORTED, size.aks_source.as_deref().unwrap_or("catalog/sizes")),
        };
        // Since 2025-10-12 AKS accepts any GPU size with gpuProfile.driver None: a warning, not
        // a refusal, when the driver is the user's (and the flag that allows it named otherwise).
        let byo = catalog.driver_none_any_size().filter(|_| !retired);
        match byo {
            Some(any) if r.gpu_driver == Some(GpuDriver::None) => warnings.push(Words::plain(format!(
                "{}: AKS does not support this size ({why}); you install and own the driver (rule {}, source {}; catalog rule {id}, source {source})",
                size.name, any.id, any.source
            ))),
            _ => {
                let through = byo.map(|any| {
                    let t = format!("or {{0}} none to bring your own driver (rule {}, source {})", any.id, any.source);
                    Words::new(t, &[Setting::GpuDriver])
                });
                let hint = match through {
                    Some(t) => Words::plain("pick another size: `aksgpu recommend`").then(", ", t),
                    None => Words::plain("pick another size: `aksgpu recommend`"),
                };
                let e = err(Setting::VmSize, format!("{}: {why}", size.name), Some(hint));
                catalog_refusal(r, warnings, (id, source), e)?;
            }
        }
    }
    Ok(size)
}

/// Windows pool rules (name length, Kubernetes version); returns the parsed version.
pub(super) fn check_windows(
    catalog: &Catalog,
    r: &PoolRequest,
    os: Os,
    warnings: &mut Vec<Words>,
) -> Result<Option<KubeVersion>, SpecError> {
    let kubernetes_version = r.kubernetes_version;
    if os == Os::Windows {
        for rule in &catalog.rules {
            if let RuleKind::WindowsPoolNameMax { max_length } = rule.kind {
                if r.name.len() > max_length {
                    let e = err(
                        Setting::Name,
                        format!(
                            "Windows pool names are limited to {max_length} characters; {:?} has {}",
                            r.name,
                            r.name.len()
                        ),
                        Some(
                            format!("use a shorter name such as {:?}", &r.name[..max_length.min(r.name.len())]).into(),
                        ),
                    );
                    catalog_refusal(r, warnings, (&rule.id, &rule.source), e)?;
                }
            }
        }
        if let (Some(v), Some((min, feature, ns))) = (kubernetes_version, catalog.windows_min_kubernetes()) {
            if v.minor_lt(&min) {
                let e = err(
                    Setting::KubernetesVersion,
                    format!("Windows GPU node pools need Kubernetes {min} or later, not {v}"),
                    Some(format!("use {min} or later; the {feature} feature ({ns}) must also be registered").into()),
                );
                let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::WindowsMinKubernetes { .. }));
                let (id, source) = rule.map_or(("windows-gpu-min-kubernetes", "catalog/rules.yaml"), |x| {
                    (x.id.as_str(), x.source.as_str())
                });
                catalog_refusal(r, warnings, (id, source), e)?;
            }
        }
        if let Some(w) = windows_override_warning(catalog, r, warnings) {
            warnings.push(w);
        }
    }
    Ok(kubernetes_version)
}

/// With `--override windows-gpu-min-kubernetes` on a Windows pool: the preflight will not hold
/// the cluster's version or the preview feature's registration to the rule either; say so.
pub(super) fn windows_override_warning(catalog: &Catalog, r: &PoolRequest, warnings: &[Words]) -> Option<Words> {
    let rule = catalog.rules.iter().find(|x| matches!(x.kind, RuleKind::WindowsMinKubernetes { .. }))?;
    let (_, feature, _) = catalog.windows_min_kubernetes()?;
    let said = warnings.iter().any(|w| w.text.contains(&format!("catalog rule {} ", rule.id)));
    (r.overrides.contains(&rule.id) && !said).then(|| {
        Words::plain(format!(
            "overriding catalog rule {} (the cluster's Kubernetes version and the {feature} registration are not checked; source: {}); risk: {OVERRIDE_RISK}",
            rule.id, rule.source
        ))
    })
}

/// Node count and autoscaler range: (count, Some((min, max)) when autoscaling).
/// A size recommended for a deployment on several nodes: with no count asked for, the pool
/// runs the deployment's nodes (a note says so; returned, the request with that count); a
/// count asked for is kept, with a warning when it holds fewer nodes than the deployment needs
/// (a fixed count, or the autoscaler's maximum).
pub(super) fn deployment_count(
    r: &PoolRequest,
    (notes, warnings): (&mut Vec<Words>, &mut Vec<Words>),
) -> Option<PoolRequest> {
    let d = r.deployment.as_ref()?;
    let n = d.nodes.max(1);
    let nodes = if n == 1 { "node" } else { "nodes" };
    let runs = format!("the recommended deployment runs on {n} {nodes} ({})", d.split);
    match (r.count, r.min_count, r.max_count) {
        (None, None, None) => {
            if n > 1 {
                notes.push(Words::new(format!("count {n}: {runs}; {{0}} sets another"), &[Setting::Count]));
            }
            return Some(PoolRequest { count: Some(n), ..r.clone() });
        }
        (_, _, Some(max)) if max < n => warnings.push(Words::new(
            format!("{{0}} {max} keeps the autoscaler below the {n} {nodes} the workload described needs: {runs}"),
            &[Setting::MaxCount],
        )),
        (Some(c), None, None) if c < n => warnings.push(Words::new(
            format!("{{0}} {c} is fewer than the {n} {nodes} the workload described needs: {runs}"),
            &[Setting::Count],
        )),
        _ => {}
    }
    None
}

pub(super) fn check_counts(r: &PoolRequest) -> Result<(u32, Option<(u32, u32)>), SpecError> {
    let autoscale = match (r.min_count, r.max_count) {
        (Some(a), Some(b)) => {
            if a > b {
                let m =
                    Words::new(format!("{{0}} {a} is larger than {{1}} {b}"), &[Setting::MinCount, Setting::MaxCount]);
                return Err(err(Setting::MinCount, m, None));
            }
            if b == 0 {
                return Err(err(Setting::MaxCount, Words::new("{0} must be at least 1", &[Setting::MaxCount]), None));
            }
            if b > 1000 {
                return Err(err(Setting::MaxCount, Words::new("{0} must be at most 1000", &[Setting::MaxCount]), None));
            }
            Some((a, b))
        }
        (None, None) => None,
        _ => {
            return Err(err(
                Setting::MinCount,
                Words::new("{0} and {1} enable the autoscaler together", &[Setting::MinCount, Setting::MaxCount]),
                Some(Words::new("pass both, or {0} alone", &[Setting::Count])),
            ))
        }
    };
    let count = match (r.count, autoscale) {
        (Some(c), Some((a, b))) if c < a || c > b => {
            return Err(err(
                Setting::Count,
                Words::new(
                    format!("{{0}} {c} is outside {{1}} {a} … {{2}} {b}"),
                    &[Setting::Count, Setting::MinCount, Setting::MaxCount],
                ),
                None,
            ))
        }
        (Some(c), _) => c,
        (None, Some((a, _))) => a,
        (None, None) => 1,
    };
    if count > 1000 {
        return Err(err(Setting::Count, Words::new("{0} must be at most 1000", &[Setting::Count]), None));
    }
    Ok((count, autoscale))
}

/// The GPU driver option: AMD and driver-none sizes need `None`, and a series rule may demand
/// particular OS SKUs.
pub(super) fn check_gpu_driver(
    catalog: &Catalog,
    size: &VmSize,
    r: &PoolRequest,
    (os, os_sku): (Os, Option<&str>),
    (notes, notes_w): (&mut Vec<Words>, &mut Vec<Words>),
) -> Result<Option<&'static str>, SpecError> {
    let amd_rule = catalog.rules.iter().find_map(|rule| match &rule.kind {
        RuleKind::SeriesOsDriver { series, os_skus, driver } if series.iter().any(|s| **s == *size.series) => {
            Some((os_skus.clone(), driver.clone(), rule))
        }
        _ => None,
    });
    let mut gpu_driver = r.gpu_driver.map(GpuDriver::arm);
    if size.gpu_vendor == Vendor::Amd || size.driver == Driver::None {
        if gpu_driver == Some("Install") {
            let e = err(
                Setting::GpuDriver,
                Words::new(
                    format!("{} ({}) needs {{0}} none: AKS installs no driver for it", size.name, size.gpu_model),
                    &[Setting::GpuDriver],
                ),
                amd_rule.as_ref().map(|(_, _, rule)| format!("{} [{}]", rule.summary, rule.source).into()),
            );
            match &amd_rule {
                Some((_, _, rule)) => catalog_refusal(r, notes_w, (&rule.id, &rule.source), e)?,
                None => return Err(e),
            }
        }
        if gpu_driver.is_none() {
            notes.push("gpu driver: none (AKS installs no driver for this size)".into());
            gpu_driver = Some("None");
        }
    }
    if let Some((skus, _, rule)) = &amd_rule {
        let chosen = os_sku.unwrap_or(if os == Os::Windows { "Windows2022" } else { "Ubuntu" });
        if !skus.iter().any(|s| s.eq_ignore_ascii_case(chosen)) {
            let e = err(Setting::OsSku, format!("{}: {}", size.name, rule.summary), Some(rule.source.as_str().into()));
            catalog_refusal(r, notes_w, (&rule.id, &rule.source), e)?;
        }
    }
    Ok(gpu_driver)
}

/// Spot settings; returns the eviction policy.
pub(super) fn check_spot(r: &PoolRequest, notes: &mut Vec<Words>) -> Result<Option<&'static str>, SpecError> {
    if !r.spot && (r.spot_max_price.is_some() || r.eviction_policy.is_some()) {
        return Err(err(
            if r.spot_max_price.is_some() { Setting::SpotMaxPrice } else { Setting::EvictionPolicy },
            "only applies to spot pools",
            Some(Words::new("add {0}", &[Setting::Spot])),
        ));
    }
    if let Some(p) = r.spot_max_price {
        if !(p == -1.0 || (p.is_finite() && p > 0.0)) {
            return Err(err(
                Setting::SpotMaxPrice,
                format!("{p} is not a price: use -1 (up to the on-demand price) or a positive USD/hour"),
                None,
            ));
        }
    }
    let eviction_policy = r.eviction_policy.map(EvictionPolicy::name);
    if r.eviction_policy == Some(EvictionPolicy::Deallocate) {
        notes.push("evicted spot nodes are deallocated: their disks still cost money and count against quota".into());
    }
    Ok(eviction_policy)
}

/// A capacity reservation group id: `/subscriptions/…/resourceGroups/…/providers/Microsoft.Compute/capacityReservationGroups/NAME`.
pub(super) fn check_crg(id: Option<&str>) -> Result<Option<String>, SpecError> {
    let Some(id) = id.map(str::trim) else { return Ok(None) };
    let segs: Vec<&str> = id.trim_matches('/').split('/').collect();
    let ok = id.starts_with('/')
        && segs.len() == 8
        && segs[0].eq_ignore_ascii_case("subscriptions")
        && segs[2].eq_ignore_ascii_case("resourceGroups")
        && segs[4].eq_ignore_ascii_case("providers")
        && segs[5].eq_ignore_ascii_case("Microsoft.Compute")
        && segs[6].eq_ignore_ascii_case("capacityReservationGroups")
        && segs.iter().all(|s| !s.is_empty());
    if !ok {
        return Err(err(
            Setting::CapacityReservationGroup,
            format!("{id:?} is not a capacity reservation group resource id"),
            Some(
                "pass /subscriptions/SUB/resourceGroups/RG/providers/Microsoft.Compute/capacityReservationGroups/NAME"
                    .into(),
            ),
        ));
    }
    Ok(Some(id.to_owned()))
}

/// Zones, max pods and OS disk type; returns (zones, os disk type).
pub(super) fn check_placement(r: &PoolRequest) -> Result<(Vec<String>, Option<&'static str>), SpecError> {
    let mut zones = Vec::new();
    for z in r.zones.iter().flat_map(|s| s.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        if !matches!(z, "1" | "2" | "3") {
            return Err(err(Setting::Zones, format!("{z:?} is not an availability zone (1, 2 or 3)"), None));
        }
        if !zones.iter().any(|x: &String| x == z) {
            zones.push(z.to_owned());
        }
    }
    if let Some(p) = r.max_pods {
        if !(10..=250).contains(&p) {
            return Err(err(Setting::MaxPods, format!("{p} is outside 10…250"), None));
        }
    }
    Ok((zones, r.os_disk_type.map(OsDiskType::name)))
}

/// The taints asked for (the default GPU taint when none were given).
fn taints(r: &PoolRequest, notes: &mut Vec<Words>) -> Result<Vec<String>, SpecError> {
    match &r.taints {
        None => {
            let t = format!("taint {DEFAULT_TAINT} (default; {{0}} to change, {{0:none}} for none)");
            notes.push(Words::new(t, &[Setting::NodeTaints]));
            Ok(vec![DEFAULT_TAINT.to_owned()])
        }
        Some(list) => list
            .iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(parse_taint)
            .collect::<Result<Vec<_>, _>>(),
    }
}

impl PoolSpec {
    /// Validate a request against the catalog and its AKS rules.
    pub fn validate(catalog: &Catalog, r: &PoolRequest) -> Result<PoolSpec, SpecError> {
        let (mut notes, mut warnings) = (Vec::new(), Vec::new());
        check_overrides(catalog, r)?;
        check_resource_group(&r.resource_group)?;
        check_cluster(&r.cluster)?;
        check_pool_name(&r.name)?;
        let size = check_size(catalog, r, &mut warnings)?;
        let (os, os_sku) = check_os(catalog, size, r, (&mut notes, &mut warnings))?;
        let kubernetes_version = check_windows(catalog, r, os, &mut warnings)?;
        let counted = deployment_count(r, (&mut notes, &mut warnings));
        let (count, autoscale) = check_counts(counted.as_ref().unwrap_or(r))?;
        let taints = taints(r, &mut notes)?;
        let labels = parse_pairs(Setting::Labels, &r.labels, |k, v| valid_key(k) && valid_value(v))?;
        let tags = parse_pairs(Setting::Tags, &r.tags, |k, v| {
            !k.is_empty() && k.len() <= 512 && v.len() <= 256 && !k.contains(['<', '>', '%', '&', '\\', '?', '/'])
        })?;
        let gpu_driver = check_gpu_driver(catalog, size, r, (os, os_sku.as_deref()), (&mut notes, &mut warnings))?;
        let mig_profile = check_mig(catalog, size, r, os, (&mut notes, &mut warnings))?;
        let (gpu_driver, nvidia) =
            check_managed(catalog, size, r, (os, gpu_driver, autoscale.is_some()), (&mut notes, &mut warnings))?;
        let mut labels = labels;
        if nvidia.as_ref().is_some_and(|n| n.managed) {
            // AKS owns a managed pool's stack: a GPU Operator in the cluster stays off its nodes
            // (rule operator-mixed-driver-labels).
            let (k, v) = crate::domain::NO_OPERANDS_LABEL;
            labels.entry(k.to_owned()).or_insert_with(|| v.to_owned());
        }
        let eviction_policy = check_spot(r, &mut notes)?;
        let (zones, os_disk_type) = check_placement(r)?;
        if let Some((min, rule)) = catalog.min_recommended_size(os_name(os)) {
            if let Some(m) = catalog.size(min) {
                if size.gpu_memory_per_gpu_gib + 1e-9 < m.gpu_memory_per_gpu_gib && size.vcpus < m.vcpus {
                    notes.push(Words::plain(format!(
                        "{} is smaller than Microsoft's minimum recommended size {} ({})",
                        size.name, m.name, rule.source
                    )));
                }
            }
        }
        Ok(PoolSpec {
            subscription: r.subscription.clone(),
            resource_group: r.resource_group.clone(),
            cluster: r.cluster.clone(),
            name: r.name.clone(),
            size: size.clone(),
            count,
            autoscale,
            os,
            os_sku,
            kubernetes_version,
            taints,
            labels,
            mig_profile,
            gpu_driver,
            nvidia,
            spot: r.spot,
            spot_max_price: r.spot_max_price,
            eviction_policy,
            zones,
            max_pods: r.max_pods,
            os_disk_type,
            tags,
            capacity_reservation_group: check_crg(r.capacity_reservation_group.as_deref())?,
            notes,
            warnings,
            overrides: r.overrides.clone(),
        })
    }
}
