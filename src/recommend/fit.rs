//! How a size holds the memory need: the GPUs per copy, the tensor-parallel split, nodes and
//! MIG slices.

use super::*;

/// True when `want` names this size's GPU (id, id prefix such as `A100`, or a word of its name).
pub fn gpu_matches(want: &str, size: &VmSize, gpu: Option<&GpuModel>) -> bool {
    let w = want.trim().to_ascii_lowercase();
    if w.is_empty() {
        return false;
    }
    size.gpu_model.to_ascii_lowercase() == w
        || size.gpu_model.to_ascii_lowercase().starts_with(&format!("{w}-"))
        || gpu.is_some_and(|g| g.name.to_ascii_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).any(|t| t == w))
}

/// An AMD size for a CUDA workload.
fn rocm(size: &VmSize) -> Words {
    let why = format!("{} GPUs need ROCm, not CUDA (name the model with {{0}} to include AMD)", size.gpu_vendor);
    Words::new(why, &[Setting::GpuModel])
}

pub(super) fn workload_mismatch(req: &Requirements, size: &VmSize, gpu: Option<&GpuModel>) -> Option<Words> {
    let cc = gpu.and_then(GpuModel::cc);
    let amd_named = req.serving.vm_size.is_some()
        || req.gpu_models.iter().any(|m| {
            let m = m.to_ascii_lowercase();
            m.starts_with("mi") || m.starts_with('v')
        });
    let cuda = size.gpu_vendor == Vendor::Nvidia;
    match req.workload {
        Workload::Training | Workload::FineTuning | Workload::Hpc | Workload::DataScience => {
            if size.gpu_count.is_partial() {
                return Some(
                    format!(
                        "{} is a partial GPU ({} of one); {} needs whole GPUs",
                        size.name,
                        size.gpu_count,
                        req.workload.name()
                    )
                    .into(),
                );
            }
            if !cuda && !amd_named {
                return Some(rocm(size));
            }
        }
        Workload::Inference | Workload::Cv => {
            if !cuda && !amd_named {
                return Some(rocm(size));
            }
        }
        Workload::Vdi => {
            if !size.driver.is_grid() {
                return Some(
                    format!("virtual desktops need a GRID (vGPU) driver; AKS installs {} here", size.driver).into(),
                );
            }
        }
        Workload::Video => {
            if !gpu.is_some_and(|g| g.nvenc) {
                return Some(format!("{} has no hardware video encoder (NVENC)", size.gpu_model).into());
            }
        }
    }
    if req.workload == Workload::Hpc && !size.infiniband() {
        return Some("HPC needs InfiniBand between nodes; this size has none".into());
    }
    if req.workload == Workload::DataScience && cc.is_some_and(|c| c < (7, 0)) {
        return Some(
            format!(
                "RAPIDS needs CUDA compute capability ≥ 7.0; {} has {}.{}",
                size.gpu_model,
                cc.map_or(0, |c| c.0),
                cc.map_or(0, |c| c.1)
            )
            .into(),
        );
    }
    None
}

/// A memory-fit failure: the reason, and how many GiB per GPU are missing (for "closest").
type FitError = (String, f64);

pub(super) fn fit_size(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    max_nodes: u32,
) -> Result<Fit, FitError> {
    let gpu_id = &*size.gpu_model;
    let usable = estimate::layout(gpu_id, 1.0, 1, None).usable_fraction;
    if req.mig {
        return fit_mig(req, size, mig_profiles, usable);
    }
    let per_gpu_mem = size.gpu_memory_per_gpu_gib;
    let avail = per_gpu_mem * usable;
    let fit = |need_gib: f64, total: f64, per_node: f64, nodes: u32, l: Option<Layout>| Fit {
        required_per_gpu_gib: need_gib,
        available_per_gpu_gib: avail,
        gpu_memory_per_gpu_gib: per_gpu_mem,
        required_total_gib: total,
        gpus_used_per_node: per_node,
        nodes,
        mig: None,
        layout: l,
        replicas_per_node: 1,
        sequences_per_replica: req.concurrency,
        estimate: None,
    };
    let (Some(need), Some(model)) = (&req.need, &req.model) else {
        let used = if size.gpu_count.is_partial() { size.gpu_count.value() } else { f64::from(size.gpu_count.whole()) };
        return Ok(fit(0.0, 0.0, used, 1, None));
    };
    let train = need.activations.is_some();
    let recomputes: &[Option<Recompute>] =
        if train { &[Some(Recompute::None), Some(Recompute::Selective), Some(Recompute::Full)] } else { &[None] };
    let make =
        |l: Layout, per_node: f64, nodes: u32| fit(need.per_gpu_at(&l), need.total_at(&l), per_node, nodes, Some(l));
    if size.gpu_count.is_partial() {
        let best = recomputes.iter().map(|r| estimate::layout(gpu_id, 1.0, 1, *r));
        if let Some(l) = best.clone().find(|l| need.per_gpu_at(l) <= avail) {
            return Ok(make(l, size.gpu_count.value(), 1));
        }
        let least = best.map(|l| need.per_gpu_at(&l)).fold(f64::MAX, f64::min);
        return Err((
            format!(
                "needs {least:.1} GiB on one GPU; this {} share of a {} offers {avail:.1} usable GiB",
                size.gpu_count, size.gpu_model
            ),
            least - avail,
        ));
    }
    let g = size.gpu_count.whole().max(1);
    let options = gpu_options(req, g, train);
    // A copy that only just fits (see `tight_fit`) gives way to a wider one on the same node.
    let mut tight = None;
    for &n in &options {
        let Some(tp) = split_tp(req, model.arch, n, train) else { continue };
        let replicas = if train { 1 } else { g / n };
        let seqs = req.concurrency.div_ceil(u64::from(replicas.max(1)));
        for r in recomputes {
            let l = estimate::layout(gpu_id, f64::from(n), tp, *r).with_experts(req.serving.expert_parallel);
            let per_gpu = if train { need.per_gpu_at(&l) } else { need.per_gpu_with(&l, seqs) };
            if per_gpu <= avail {
                let mut f = make(l, f64::from(n), 1);
                f.required_per_gpu_gib = per_gpu;
                f.required_total_gib = per_gpu * f64::from(n);
                f.replicas_per_node = replicas;
                f.sequences_per_replica = seqs;
                if train || tight_fit(req, &f).is_none() {
                    return Ok(f);
                }
                tight.get_or_insert(f);
                break;
            }
        }
    }
    if let Some(f) = tight {
        return Ok(f);
    }
    fit_nodes(req, size, need, model.arch, recomputes, max_nodes, avail)
        .map(|(l, per_node, nodes)| make(l, per_node, nodes))
}

/// The GPUs one copy may use on a node of `g` GPUs, fewest first. Inference: the fewest GPUs
/// that hold one copy of the model with its share of the sequences (copies fill the node:
/// `g / n` of them share `--concurrency`), so powers of two up to `g`, and `g`. Training: the
/// node is paid for whole, so every GPU works (data parallel beyond the tensor-parallel
/// degree) and the least recomputation that fits is chosen. A pinned split keeps only its own.
pub(super) fn gpu_options(req: &Requirements, g: u32, train: bool) -> Vec<u32> {
    let mut options: Vec<u32> = (0..8).map(|i| 1u32 << i).filter(|n| *n <= g).collect();
    if !options.contains(&g) {
        options.push(g);
    }
    if train {
        options = vec![g];
    }
    if let Some(pinned) = pinned_gpus(req) {
        options.retain(|n| *n == pinned);
    }
    options
}

/// GPUs of one copy when `--tensor-parallel`/`--pipeline-parallel` pin the split.
pub(super) fn pinned_gpus(req: &Requirements) -> Option<u32> {
    let s = &req.serving;
    match (s.tensor_parallel, s.pipeline_parallel, s.expert_parallel) {
        (None, None, None) => None,
        (tp, pp, ep) => Some(tp.unwrap_or(1) * pp.unwrap_or(1) * ep.unwrap_or(1)),
    }
}

/// The tensor-parallel degree for a copy of `n` GPUs. Inference: `--tensor-parallel` when
/// pinned, else the largest degree dividing `n` that the head counts allow, the rest of the
/// GPUs being pipeline stages (vLLM's distributed-serving guide: when the model does not split
/// evenly across the GPUs by tensor parallelism, use pipeline parallelism). Training: the
/// largest power of two dividing `n` that passes the head rule, the rest data parallel.
pub(super) fn split_tp(req: &Requirements, arch: Arch, n: u32, train: bool) -> Option<u32> {
    if train {
        return tensor_parallel(arch, n, true);
    }
    // Expert parallelism runs attention data parallel: no tensor parallelism.
    if let Some(ep) = req.serving.expert_parallel {
        return (n % ep == 0).then_some(1);
    }
    match (req.serving.tensor_parallel, req.serving.pipeline_parallel) {
        (Some(tp), _) => (n % tp == 0 && arch.tp_ok(tp)).then_some(tp),
        (None, Some(pp)) => (n % pp == 0 && arch.tp_ok(n / pp)).then_some(n / pp),
        (None, None) => (1..=n).rev().find(|t| n % t == 0 && arch.tp_ok(*t)),
    }
}

/// The tensor-parallel degree for `n` GPUs of a node (training: the largest power of two
/// dividing `n` that passes the head rule; inference: `n` itself).
pub(super) fn tensor_parallel(arch: Arch, n: u32, train: bool) -> Option<u32> {
    if !train {
        return arch.tp_ok(n).then_some(n);
    }
    (0..8).map(|i| 1u32 << i).filter(|t| *t <= n && n % t == 0 && arch.tp_ok(*t)).max()
}

/// Several nodes: inference in pipeline stages of `tp` GPUs per node, training sharded over
/// every GPU (InfiniBand only).
pub(super) fn fit_nodes(
    req: &Requirements,
    size: &VmSize,
    need: &Need,
    arch: Arch,
    recomputes: &[Option<Recompute>],
    max_nodes: u32,
    avail: f64,
) -> Result<(Layout, f64, u32), FitError> {
    let g = size.gpu_count.whole().max(1);
    let train = need.activations.is_some();
    // Every GPU of each node: tensor parallel within the node as far as the heads allow, the
    // rest pipeline stages (within and across nodes), as KAITO and vLLM run multi-node models.
    let per_node = g;
    let tp = split_tp(req, arch, per_node, train).unwrap_or(1);
    let gpu_id = &*size.gpu_model;
    let least_recompute = *recomputes.last().unwrap_or(&None);
    let floor = need.per_gpu_at(&estimate::layout(gpu_id, 1e12, tp, least_recompute));
    if floor > avail {
        return Err((
            format!(
                "each GPU needs at least {floor:.1} GiB that cannot be split (overhead, activations); a {} offers {avail:.1} usable GiB",
                size.gpu_model
            ),
            floor - avail,
        ));
    }
    for nodes in 2..=max_nodes {
        for r in recomputes {
            let l =
                estimate::layout(gpu_id, f64::from(per_node * nodes), tp, *r).with_experts(req.serving.expert_parallel);
            if need.per_gpu_at(&l) > avail {
                continue;
            }
            let trains = matches!(req.workload, Workload::Training | Workload::FineTuning);
            if trains && req.os == Os::Windows {
                // PyTorch's distributed docs (torch.distributed, "Backends"): on Windows only Gloo
                // and MPI are built, never NCCL; FSDP and ZeRO-3 shard through NCCL's
                // reduce-scatter and all-gather across nodes.
                return Err((
                    format!(
                        "needs {nodes} nodes, and training sharded across nodes (FSDP, ZeRO-3) needs NCCL, \
                         which PyTorch does not build on Windows (pytorch.org/docs/stable/distributed.html, Backends)"
                    ),
                    need.per_gpu_at(&estimate::layout(gpu_id, f64::from(per_node), tp, least_recompute)) - avail,
                ));
            }
            if trains && !size.infiniband() {
                return Err((
                    format!("needs {nodes} nodes, and sharded training across nodes needs InfiniBand, which this size lacks"),
                    need.per_gpu_at(&estimate::layout(gpu_id, f64::from(per_node), tp, least_recompute)) - avail,
                ));
            }
            return Ok((l, f64::from(per_node), nodes));
        }
    }
    let most = estimate::layout(gpu_id, f64::from(per_node * max_nodes.max(1)), tp, least_recompute);
    let needed = need.per_gpu_at(&most);
    Err((
        format!(
            "needs {needed:.1} GiB per GPU even on {per_node} GPU(s){}; a {} offers {avail:.1} usable GiB ({} × {})",
            if max_nodes > 1 { format!(" × {max_nodes} nodes") } else { String::new() },
            size.gpu_model,
            most.usable_fraction,
            fmt_num(size.gpu_memory_per_gpu_gib)
        ),
        needed - avail,
    ))
}

pub(super) fn fit_mig(
    req: &Requirements,
    size: &VmSize,
    mig_profiles: &[crate::catalog::MigProfile],
    usable: f64,
) -> Result<Fit, FitError> {
    let gpus = size.gpu_count.whole();
    let l =
        req.need.as_ref().map(|n| estimate::layout(&size.gpu_model, 1.0, 1, n.activations.map(|_| Recompute::Full)));
    let need_one = req.need.as_ref().zip(l.as_ref()).map(|(n, l)| n.per_gpu_at(l));
    let mut profiles: Vec<&crate::catalog::MigProfile> =
        mig_profiles.iter().filter(|p| req.gpu_memory_gib.contains(p.memory_gib)).collect();
    profiles.sort_by(|a, b| a.memory_gib.total_cmp(&b.memory_gib));
    let largest = mig_profiles.iter().map(|p| p.memory_gib).fold(0.0, f64::max) * usable;
    let chosen =
        profiles.into_iter().find(|p| need_one.is_none_or(|n| n <= p.memory_gib * usable)).ok_or_else(|| {
            (
                format!(
                    "needs {:.1} GiB in one MIG slice; the largest {} slice offers {largest:.1} usable GiB",
                    need_one.unwrap_or(0.0),
                    size.gpu_model,
                ),
                need_one.unwrap_or(0.0) - largest,
            )
        })?;
    Ok(Fit {
        required_per_gpu_gib: need_one.unwrap_or(0.0),
        available_per_gpu_gib: chosen.memory_gib * usable,
        gpu_memory_per_gpu_gib: chosen.memory_gib,
        required_total_gib: need_one.unwrap_or(0.0),
        gpus_used_per_node: 1.0,
        nodes: 1,
        mig: Some(MigFit {
            profile: chosen.profile.clone(),
            slice: chosen.slice.clone(),
            instances_per_gpu: chosen.instances,
            instances_per_node: chosen.instances * gpus,
            memory_gib: chosen.memory_gib,
        }),
        layout: l,
        replicas_per_node: 1,
        sequences_per_replica: req.concurrency,
        estimate: None,
    })
}
