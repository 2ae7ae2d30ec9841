//! The reasons and warnings on a recommendation, in words.

use super::*;

pub(super) fn explain(
    catalog: &Catalog,
    req: &Requirements,
    size: &VmSize,
    gpu: Option<&GpuModel>,
    fit: &Fit,
    price: Option<&Price>,
) -> (Vec<Words>, Vec<Words>) {
    let mut reasons: Vec<String> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    explain_fit(req, size, fit, &mut reasons, &mut warnings);
    explain_workload(req, size, gpu, &mut reasons);
    if let (Some(g), Some(_)) = (gpu, &req.model) {
        precision_warnings(req, g, &mut warnings);
    }
    if size.gpu_count.is_partial() {
        reasons.push(format!(
            "partial GPU: {} of a {} ({} GiB)",
            size.gpu_count,
            size.gpu_model,
            fmt_num(size.gpu_memory_gib)
        ));
    }
    let mut reasons: Vec<Words> = reasons.into_iter().map(Words::from).collect();
    let mut warnings: Vec<Words> = warnings.into_iter().map(Words::from).collect();
    explain_price(req, price, &mut reasons, &mut warnings);
    size_warnings(catalog, req, size, &mut warnings);
    if req.spot {
        warnings.push(
            "spot: Azure can evict these nodes at any time (taint kubernetes.azure.com/scalesetpriority=spot)".into(),
        );
    }
    (reasons, warnings)
}

/// How the memory fits (MIG slice, GPUs, setup), and over-provisioning or multi-node warnings.
pub(super) fn explain_fit(
    req: &Requirements,
    size: &VmSize,
    fit: &Fit,
    reasons: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    if let Some(m) = &fit.mig {
        reasons.push(format!(
            "MIG {} ({}): {} instance(s) per GPU, {} per node, {} GiB each",
            m.profile,
            m.slice,
            m.instances_per_gpu,
            m.instances_per_node,
            fmt_num(m.memory_gib)
        ));
    }
    if let (Some(need), Some(l)) = (&req.need, fit.layout) {
        // One copy of the model: its GPUs and the nodes they span (more nodes of copies are
        // the serving answer's replicas).
        let copy_nodes = (l.gpus / fit.gpus_used_per_node.max(1e-9)).round().max(1.0);
        reasons.push(format!(
            "fits: {:.1} GiB needed per GPU on {} GPU(s){}{}, {:.1} GiB usable ({} × {} GiB)",
            fit.required_per_gpu_gib,
            fmt_num(if fit.mig.is_some() { fit.gpus_used_per_node } else { l.gpus }),
            if copy_nodes > 1.0 { format!(" across {copy_nodes} nodes") } else { String::new() },
            if req.workload == Workload::Inference && fit.replicas_per_node > 1 {
                format!(" per copy, {} copies per node", fit.replicas_per_node)
            } else {
                String::new()
            },
            fit.available_per_gpu_gib,
            l.usable_fraction,
            fmt_num(fit.gpu_memory_per_gpu_gib)
        ));
        // Training and fine-tuning: what the GPUs hold in this setup, as the header says it.
        if need.method != estimate::Method::Inference && fit.mig.is_none() {
            reasons.push(format!("memory: {}", memory_terms(&need.fitted(l))));
        }
        if let (Some(setup), None) = (need.fitted(l).setup, &fit.mig) {
            reasons.push(format!("setup: {setup}"));
        }
        let have = fit.available_per_gpu_gib * if fit.mig.is_some() { 1.0 } else { size.gpu_count.value().max(l.gpus) };
        let copies = f64::from(fit.replicas_per_node.max(1));
        let needed =
            if fit.mig.is_some() { fit.required_per_gpu_gib } else { fit.required_per_gpu_gib * l.gpus * copies };
        // Copies of the model fill a node on purpose (serving figures count them all).
        if needed > 0.0 && have / needed > 2.0 && fit.replicas_per_node <= 1 {
            warnings.push(format!("over-provisioned: {:.1}× the GPU memory this workload needs", have / needed));
        }
        if l.gpus > fit.gpus_used_per_node + 1e-9 && req.workload == Workload::Inference {
            let nodes = (l.gpus / fit.gpus_used_per_node.max(1.0)).round();
            warnings.push(format!(
                "needs {nodes} nodes per copy: multi-node inference (pipeline parallel across nodes) over {}; the last resort{}",
                size.interconnect.as_deref().unwrap_or("Azure networking (no InfiniBand)"),
                if size.infiniband() { "" } else { ": without InfiniBand every token crosses the VM network" }
            ));
        }
    }
}

/// What suits the workload kind (NVENC, GRID, InfiniBand, RAPIDS).
pub(super) fn explain_workload(req: &Requirements, size: &VmSize, gpu: Option<&GpuModel>, reasons: &mut Vec<String>) {
    match req.workload {
        Workload::Video if gpu.is_some_and(|g| g.nvenc) => {
            reasons.push(format!("{} has NVENC hardware video encode", size.gpu_model))
        }
        Workload::Vdi => reasons.push("GRID (vGPU) driver for virtual desktops".to_owned()),
        Workload::Hpc => reasons.push(format!("InfiniBand: {}", size.interconnect.as_deref().unwrap_or("yes"))),
        Workload::DataScience => {
            if let Some(cc) = gpu.and_then(|g| g.compute_capability.clone()) {
                reasons.push(format!("CUDA compute capability {cc}: RAPIDS-capable"));
            }
        }
        _ => {}
    }
}

/// Warnings about the size itself: preview, Windows, lifecycle, AKS support, Arm64 host, driver,
/// and Microsoft's minimum recommended size.
pub(super) fn size_warnings(catalog: &Catalog, req: &Requirements, size: &VmSize, warnings: &mut Vec<Words>) {
    if let Some((crate::catalog::AksStatus::Preview, rule)) = catalog.series_status(&size.series) {
        warnings.push(format!("preview: {}", rule.summary).into());
    }
    if req.os == Os::Windows {
        if let Some((v, feature, _)) = catalog.windows_min_kubernetes() {
            warnings.push(format!("Windows GPU pools are preview: Kubernetes ≥ {v} and the {feature} feature").into());
        }
    }
    let on = size.retirement_date.as_ref().map(|d| format!(" on {d}")).unwrap_or_default();
    match size.status {
        Status::Retiring => warnings.push(format!("retiring{on}").into()),
        Status::Retired => warnings.push(format!("retired{on}").into()),
        Status::Current => {}
    }
    if !size.aks_supported {
        warnings.push(Words::new(
            "not supported for AKS GPU node pools: only with {0} none, and you install and own the driver (rule driver-none-any-size)",
            &[Setting::GpuDriver],
        ));
    }
    if size.cpu_architecture == crate::catalog::CpuArch::Arm64 {
        warnings.push("Arm64 host (NVIDIA Grace): container images must be built for linux/arm64".into());
    }
    if size.gpu_vendor == Vendor::Amd {
        warnings.push(Words::new(
            "AMD: create the pool with {0} none and install the AMD GPU Operator",
            &[Setting::GpuDriver],
        ));
    } else if size.driver == Driver::None {
        warnings.push(Words::new(
            format!(
                "AKS installs no GPU driver on {}: create the pool with {{0}} none and install the NVIDIA GPU Operator ({{1}})",
                size.series
            ),
            &[Setting::GpuDriver, Setting::InstallOperator],
        ));
    }
    let os_key = if req.os == Os::Windows { "windows" } else { "linux" };
    if let Some((min, _)) = catalog.min_recommended_size(os_key) {
        if let Some(min) = catalog.size(min) {
            if size.gpu_memory_per_gpu_gib + 1e-9 < min.gpu_memory_per_gpu_gib && size.vcpus < min.vcpus {
                warnings
                    .push(format!("smaller than Microsoft's minimum recommended {} size {}", os_key, min.name).into());
            }
        }
    }
}

pub(super) fn explain_price(
    req: &Requirements,
    price: Option<&Price>,
    reasons: &mut Vec<Words>,
    warnings: &mut Vec<Words>,
) {
    let Some(p) = price else { return };
    let region = p.region.as_deref().unwrap_or("any region");
    match (p.per_node_hour, p.rank_per_node_hour) {
        (Some(v), _) if p.cheapest_region => reasons.push(Words::new(
            format!("{} per node in {region} (cheapest region; {{0}} to choose)", hour_in(v, req)),
            &[Setting::Location],
        )),
        (Some(v), _) => reasons.push(format!("{} per node in {region}", hour_in(v, req)).into()),
        (None, Some(v)) => warnings.push(
            format!(
                "{} price unknown in {region} (`aksgpu prices refresh` fetches it); ranked by the {} price {} per node",
                price_kind(req),
                p.basis.split(" (").next().unwrap_or(&p.basis),
                hour_in(v, req)
            )
            .into(),
        ),
        (None, None) => warnings.push(
            format!(
                "no list price{}: Azure may not sell this size there; ranked last",
                p.region.as_ref().map(|r| format!(" in {r}")).unwrap_or_else(|| " in any region".to_owned())
            )
            .into(),
        ),
    }
}

/// Say how the weights will run when the GPU lacks the precision's native support: every such
/// result carries the warning, whether the precision was chosen or defaulted.
pub(super) fn precision_warnings(req: &Requirements, g: &GpuModel, warnings: &mut Vec<String>) {
    if req.precision == Precision::Fp32 && req.model.as_ref().is_some_and(|m| m.fp16_unstable) {
        warnings.push(format!(
            "{} has no BF16 and this model overflows in fp16 (vLLM refuses float16 for it: numerical instability): \
             it runs in fp32, sized so (twice the bf16 memory)",
            g.id
        ));
        return;
    }
    match req.precision {
        Precision::Bf16 if !g.bf16 && req.workload == Workload::Inference => warnings
            .push(format!("{} has no BF16: vLLM serves the bf16 weights as fp16 (--dtype half), same memory", g.id)),
        Precision::Bf16 if !g.bf16 => warnings
            .push(format!("{} has no BF16: train in fp16 mixed precision with loss scaling (same memory)", g.id)),
        Precision::Fp8 if !g.fp8 => warnings.push(format!(
            "{} has no FP8 tensor cores (compute capability < 8.9): vLLM runs the fp8 weights \
             weight-only through FP8 Marlin, same memory, slower",
            g.id
        )),
        Precision::Mxfp4 if g.cc().is_some_and(|c| c < (9, 0)) => warnings.push(format!(
            "{} runs MXFP4 through vLLM's Marlin kernel (weight-only), same memory, slower than Hopper",
            g.id
        )),
        Precision::Nvfp4 if g.cc().is_some_and(|c| c < (10, 0)) => warnings.push(format!(
            "{} has no FP4 tensor cores (Blackwell has): vLLM runs NVFP4 weight-only through its FP4 Marlin kernel, same memory, slower",
            g.id
        )),
        _ => {}
    }
}

/// Format a number without trailing zeros (`80`, `0.5`, `13.44`).
pub fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}
