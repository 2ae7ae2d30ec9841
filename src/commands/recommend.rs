//! `aksgpu recommend`: flags → `ops::recommend::RecommendRequest` → `ops::recommend` → table/JSON/YAML.

use crate::cli::{Format, RecommendArgs};
use crate::commands::Ctx;
use crate::error::{flag, flag_text, Error};
use crate::ops::recommend::{self as recommend, fmt_num, Constraint, Os, Ranking, Requirements, Workload};
use crate::ops::recommend::{has_requirements, prefer_reserved};
use crate::output::{emit, table, Align, Printer, Render};

/// `aksgpu recommend`
pub fn run(ctx: &Ctx, args: &RecommendArgs) -> anyhow::Result<()> {
    let mut catalog = ctx.catalog()?;
    let source = crate::commands::prices_for(&mut catalog, args.currency.as_deref(), &ctx.printer)?;
    let asked;
    let asked_flag = !has_requirements(&args.request());
    let mut managed_gpu = false;
    let args = if !asked_flag {
        args
    } else if ctx.printer.interactive {
        asked = crate::wizard::ask(&catalog, args)?;
        managed_gpu = asked.managed_gpu;
        &asked.args
    } else {
        return Err(Error::usage(
            "no workload described",
            Some("pass --workload and/or --model (e.g. `aksgpu recommend --workload inference --model llama-3.1-8b`); on a terminal, run it without flags for a wizard".to_owned()),
        )
        .into());
    };
    let mut outcome = crate::ops::recommend::recommend(&mut catalog, &args.request(), &source)?;
    let p = &ctx.printer;
    if let Some(id) = &args.capacity_reservation_group {
        let reserved = read_reserved(p, id)?;
        prefer_reserved(&mut outcome, id, &reserved);
    }
    let top = top_pick_cost(&catalog, &outcome.requirements, &outcome);
    if args.output == Format::Table {
        notes(p, &outcome);
        for n in top.iter().flat_map(|t| &t.notes) {
            p.note(&format!("note: {n}"));
        }
        if let Some(n) = managed_gpu_note(&catalog, &outcome) {
            p.note(&format!("note: {n}"));
        }
    }
    emit(p, args.output, &outcome)?;
    // The wizard's answer ends with what the top pick costs, as every plan does.
    if let (Some(t), true, Format::Table) = (&top, asked_flag, args.output) {
        p.out(&format!("\n{}", crate::commands::dry_run::plan_pricing_text(t)))?;
    }
    if managed_gpu {
        managed_gpu_next(p, &catalog, &outcome, args.spot)?;
    }
    let no_fit = outcome.no_fit();
    // The process ends here: skip freeing the catalog and the outcome one by one.
    std::mem::forget(catalog);
    std::mem::forget(outcome);
    if let Some(nf) = no_fit {
        let closest: Vec<String> =
            nf.closest.iter().map(|r| format!("{} ({})", r.vm_size, flag_text(&r.reason))).collect();
        return Err(Error::NoFit {
            message: format!(
                "no size fits: {} removed the last {} candidate(s)",
                constraint_words(nf.constraint),
                nf.candidates_before
            )
            .into(),
            hint: if closest.is_empty() { None } else { Some(format!("closest: {}", closest.join("; ")).into()) },
        }
        .into());
    }
    Ok(())
}

/// The sizes a capacity reservation group reserves, with the instances still free: one GET,
/// with credentials for the subscription the id names.
fn read_reserved(p: &Printer, id: &str) -> Result<Vec<(String, u64)>, Error> {
    let subscription = crate::ops::recommend::reservation_subscription(id)?;
    let c = crate::ops::session::for_reservation(subscription, Some(crate::output::log_line));
    let az = crate::ops::session::connect(&c)?;
    let progress = crate::commands::session::Progress::default();
    crate::commands::session::run_with_spinner(p, &progress, None, async |report| {
        crate::ops::recommend::reserved(&az.client, id, &report).await
    })
}

/// The top pick priced at its node count, in the asked region (else the one it was priced in).
fn top_pick_cost(
    catalog: &crate::ops::Catalog,
    req: &recommend::Requirements,
    o: &Ranking,
) -> Option<crate::commands::dry_run::PlanPricing> {
    let top = o.recommendations.first()?;
    let pool = crate::ops::cost::PoolPricing {
        pool: "top pick",
        size: &top.vm_size,
        os: req.os,
        spot: req.spot,
        min_nodes: top.fit.nodes,
        max_nodes: top.fit.nodes,
    };
    let region = req.region.as_deref().or(top.price_region.as_deref());
    Some(crate::commands::dry_run::PlanPricing::new(catalog, &[pool], region))
}

/// A constraint as `recommend`'s flags name it: "the --gpu-memory limit", "the memory fit check".
pub(crate) fn constraint_words(c: Constraint) -> String {
    match (c.setting(), c.check()) {
        (Some(s), _) => format!("the {} limit", flag(s)),
        (None, check) => format!("the {} check", check.unwrap_or_default()),
    }
}

/// A constraint's stable name in JSON (`rejected[].constraint`): the flag that sets a limit
/// (`--gpu-memory`), or the check's name (`memory fit`). The region's is `--region`, as it
/// was named before `--location` became the flag, so that scripts comparing it keep working.
pub(crate) fn constraint_json_name(c: Constraint) -> String {
    match (c, c.setting(), c.check()) {
        (Constraint::Region, _, _) => "--region".to_owned(),
        (_, Some(s), _) => flag(s),
        (_, None, check) => check.unwrap_or_default().to_owned(),
    }
}

impl serde::Serialize for Constraint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&constraint_json_name(*self))
    }
}

/// What sets a deployment in JSON (`serving.binding`): a target's flag (`--max-ttft`), or the
/// cap's name (`kv-capacity`).
impl serde::Serialize for recommend::service::Binding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.setting(), self.cap()) {
            (Some(t), _) => s.serialize_str(&flag(t)),
            (None, cap) => s.serialize_str(cap.unwrap_or_default()),
        }
    }
}

/// Where the top pick is an NVIDIA size on Linux: AKS-managed GPU pools keep its whole NVIDIA
/// stack, DCGM metrics included (the catalog's managed-GPU rules, preview feature).
fn managed_gpu_note(catalog: &crate::ops::Catalog, o: &Ranking) -> Option<String> {
    let top = o.recommendations.first()?;
    let rule = catalog.managed_gpu_rule(recommend::ManagedGpuLimit::NvidiaLinux)?;
    let (feature, _) = catalog.managed_gpu_feature()?;
    (top.gpu_vendor == recommend::Vendor::Nvidia && o.requirements.os == Os::Linux).then(|| {
        format!(
            "`aksgpu create-pool --vm-size {} --managed-gpu` makes it an AKS-managed GPU pool: AKS installs and keeps the driver, device plugin, DCGM and dcgm-exporter (GPU metrics for idle and health; preview feature {feature}, rule {})",
            top.vm_size, rule.id
        )
    })
}

/// The wizard asked for an AKS-managed GPU pool: the `create-pool --managed-gpu` command for
/// the first NVIDIA size, once the pool request it maps into passes the same checks.
fn managed_gpu_next(p: &Printer, catalog: &crate::ops::Catalog, o: &Ranking, spot: bool) -> Result<(), Error> {
    match crate::ops::pool::managed_gpu_pool(catalog, o, spot) {
        None => p.note("note: an AKS-managed GPU pool needs an NVIDIA size, and none was ranked"),
        Some(Err(e)) => {
            let e = crate::commands::pool::in_flags(e, "");
            p.note(&format!("warning: not as an AKS-managed GPU pool: {e}"));
        }
        Some(Ok(spec)) => {
            let feature = catalog.managed_gpu_feature().map(|(f, _)| f);
            let spot = if spec.spot { " --spot" } else { "" };
            // The recommended deployment's nodes, as the pool request sizes it.
            let (name, size, count) = (&spec.name, &spec.size.name, spec.count);
            let command = match feature {
                Some(_) => format!("`aksgpu create-pool -g RESOURCE_GROUP --cluster CLUSTER --name {name} --vm-size {size} --count {count} --managed-gpu{spot} --register-features`"),
                None => format!("`aksgpu create-pool -g RESOURCE_GROUP --cluster CLUSTER --name {name} --vm-size {size} --count {count} --managed-gpu{spot}`"),
            };
            let why = feature.map(|f| format!(" (preview feature {f}, which `--register-features` registers)"));
            p.out(&format!("\nAs an AKS-managed GPU pool{}:\n  {command}\n", why.unwrap_or_default()))?;
        }
    }
    Ok(())
}

fn notes(p: &Printer, o: &Ranking) {
    for n in &o.requirements.notes {
        p.note(&format!("note: {}", flag_text(n)));
    }
    for w in &o.requirements.warnings {
        p.note(&format!("warning: {}", flag_text(w)));
    }
}

impl Render for Ranking {
    fn table(&self) -> String {
        render(self)
    }
}

/// The human-readable answer.
pub fn render(o: &Ranking) -> String {
    let r = &o.requirements;
    let mut out = describe(r, o.recommendations.first());
    let advice = o.advice.as_ref().map(|a| flag_text(&a.line(|v| crate::output::money_in(Some(v), &o.currency))));
    if o.recommendations.is_empty() {
        // The error on stderr says "no size fits" with the constraint and the closest sizes.
        if let Some(a) = advice {
            out.push_str(&format!("\n{a}\n"));
        }
        return out;
    }
    out.push('\n');
    // RANKED BY: the price the ranking used when the requested one is unknown (e.g. Windows).
    let basis_col = o.recommendations.iter().any(|x| x.price_per_hour.is_none());
    out.push_str(&ranking_table(o, basis_col));
    for (i, rec) in o.recommendations.iter().enumerate() {
        out.push_str(&format!("\n{}. {}\n", i + 1, rec.vm_size));
        for reason in &rec.reasons {
            out.push_str(&format!("   + {}\n", flag_text(reason)));
        }
        for w in &rec.warnings {
            out.push_str(&format!("   ! {}\n", flag_text(w)));
        }
        if rec.price_source.is_some() {
            // As a `cost` row says it: where from, its date and age, per size and region (the
            // full source is the row's `price_source` in -o json).
            let kind = if rec.price_live { "live cache" } else { "bundled" };
            let date = rec.price_date.as_deref().unwrap_or("date unknown");
            let age = rec.price_age_days.map(|d| format!(", {d} day(s) old")).unwrap_or_default();
            out.push_str(&format!("   price: {kind}, {date}{age}\n"));
        }
    }
    let more = if o.below_top.is_empty() {
        String::new()
    } else {
        format!("; {} more fit below --top (below_top[])", o.below_top.len())
    };
    out.push_str(&format!(
        "\n{} size(s) ruled out (rejected[] with -o json shows each reason){more}; prices: {} per hour, 730 h/month.\n",
        o.rejected.len(),
        recommend::price_kind(r)
    ));
    if basis_col {
        out.push_str(&format!(
            "Unknown {} prices are never guessed: those sizes rank by the price under RANKED BY; `aksgpu prices refresh` fetches current ones.\n",
            recommend::price_kind(r)
        ));
    }
    if let Some(a) = advice {
        out.push_str(&format!("{a}\n"));
    }
    out
}

/// The "Workload:" and "Memory:" lines. For training and fine-tuning, what the GPUs hold
/// depends on the setup (activations on the checkpointing, overhead on the GPU), so the line is
/// the first-ranked size's, as its row says it.
fn describe(r: &Requirements, top: Option<&recommend::Recommendation>) -> String {
    let mut out = String::new();
    let mut what = vec![r.workload.name().to_owned()];
    if let Some(m) = &r.model {
        what.push(format!(
            "{} ({}B params)",
            m.id.clone().unwrap_or_else(|| "custom model".to_owned()),
            fmt_num(m.params_b)
        ));
        what.push(r.precision.name().to_owned());
        what.push(format!("context {} × {}", r.context, r.concurrency));
    }
    what.push(if r.os == Os::Windows { "windows" } else { "linux" }.to_owned());
    what.push(if r.spot { "spot" } else { "on-demand" }.to_owned());
    if let Some(reg) = &r.region {
        what.push(reg.clone());
    }
    out.push_str(&format!("Workload: {}\n", what.join(" · ")));
    if r.workload == Workload::Inference && r.model.is_some() {
        out.push_str(&format!("Serving:  {}\n", serving_line(r)));
    }
    if let Some(need) = &r.need {
        let trains = need.method != recommend::Method::Inference;
        let fitted = top.filter(|_| trains).and_then(|t| Some((t, t.fit.layout?))).filter(|(t, _)| t.fit.mig.is_none());
        let (terms, on) = match fitted {
            Some((t, l)) => (recommend::memory_terms(&need.fitted(l)), format!(" as fitted on #1 {}", t.vm_size)),
            None => (recommend::memory_terms(need), String::new()),
        };
        out.push_str(&format!(
            "Memory:   {terms}{on} (usable fraction {}, {} on A10)\n",
            need.constants.usable_fraction, need.constants.usable_fraction_a10
        ));
    }
    out
}

/// Lengths, concurrency and targets of an inference request.
fn serving_line(r: &Requirements) -> String {
    let s = &r.serving;
    let mut parts = vec![format!("{} in + {} out tokens", s.input_tokens, s.output_tokens)];
    parts.push(if s.concurrency_given {
        format!("{} sequences in flight", r.concurrency)
    } else if s.min_tokens_per_second_per_user.is_some() || s.max_ttft_seconds.is_some() {
        "most sequences per copy that meet the targets".to_owned()
    } else {
        "largest batch that fits".to_owned()
    });
    if let Some(k) = s.kv_cache_precision {
        parts.push(format!("KV cache {}", k.name()));
    }
    if let Some(x) = s.min_tokens_per_second {
        parts.push(format!("≥ {} tokens/s", fmt_num(x)));
    }
    if let Some(x) = s.min_tokens_per_second_per_user {
        parts.push(format!("≥ {} tokens/s per user", fmt_num(x)));
    }
    if let Some(x) = s.max_ttft_seconds {
        parts.push(format!("first token ≤ {} s", fmt_num(x)));
    }
    if s.rank_by == crate::domain::RankBy::CostPerToken {
        parts.push("ranked by cost per token".to_owned());
    }
    parts.join(" · ")
}

/// The ranked sizes, one row each.
fn ranking_table(o: &Ranking, basis_col: bool) -> String {
    let r = &o.requirements;
    let mig = r.mig;
    // REGION: where each size is priced (its cheapest region) when no --region was given.
    let region_col = r.region.is_none();
    let sym = crate::output::currency_symbol(&o.currency);
    let sym = sym.trim();
    let (per_hour, per_month, per_token, per_instance_h) =
        (format!("{sym}/HOUR"), format!("{sym}/MONTH"), format!("{sym}/M TOK"), format!("{sym}/INSTANCE-H"));
    let mut headers =
        vec!["#", "VM SIZE", "GPU", "NEED/GPU", "USABLE/GPU", "GPUS×NODES", per_hour.as_str(), per_month.as_str()];
    let mut aligns = vec![Align::Right, Align::Left, Align::Left];
    aligns.extend([Align::Right; 5]);
    // Serving figures, when estimated: output tokens/s, per sequence, TTFT, USD per M tokens.
    let serving_col = o.recommendations.iter().any(|x| x.serving.is_some());
    if serving_col {
        headers.extend(["TP×PP×COPIES", "SEQS/COPY", "TOK/S", "TOK/S/USER", "TTFT", per_token.as_str()]);
        aligns.extend([Align::Right; 6]);
    }
    for (on, h, a) in [
        (mig, per_instance_h.as_str(), Align::Right),
        (region_col, "REGION", Align::Left),
        (basis_col, "RANKED BY", Align::Left),
    ] {
        if on {
            headers.push(h);
            aligns.push(a);
        }
    }
    let column = |f: fn(&recommend::Recommendation) -> Option<f64>| {
        crate::output::money_column_in(&o.recommendations.iter().map(f).collect::<Vec<_>>(), &o.currency)
    };
    let (hourly, monthly, per_instance) =
        (column(|r| r.price_per_hour), column(|r| r.monthly_cost), column(|r| r.price_per_instance_hour));
    let rows: Vec<Vec<String>> = o
        .recommendations
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let gpu = match &rec.fit.mig {
                Some(m) => format!("{}× {} {}", fmt_num(rec.gpu_count), rec.gpu_model, m.slice),
                None => format!(
                    "{}× {} {}G",
                    fmt_num_frac(rec.gpu_count),
                    rec.gpu_model,
                    fmt_num(rec.fit.gpu_memory_per_gpu_gib)
                ),
            };
            let mut row = vec![
                (i + 1).to_string(),
                rec.vm_size.clone(),
                gpu,
                if r.need.is_some() { format!("{:.1}G", rec.fit.required_per_gpu_gib) } else { "-".to_owned() },
                format!("{:.1}G", rec.fit.available_per_gpu_gib),
                // Every copy of the model on a node uses its GPUs: 4 copies at TP 2 fill 8 GPUs.
                format!(
                    "{}×{}",
                    fmt_num_frac(rec.fit.gpus_used_per_node * f64::from(rec.fit.replicas_per_node.max(1))),
                    rec.fit.nodes
                ),
                hourly[i].clone(),
                monthly[i].clone(),
            ];
            if serving_col {
                row.extend(serving_cells(rec.serving.as_ref(), &o.currency));
            }
            if mig {
                row.push(per_instance[i].clone());
            }
            if region_col {
                row.push(rec.price_region.clone().unwrap_or_else(|| "-".to_owned()));
            }
            if basis_col {
                row.push(ranked_by(rec, &o.currency));
            }
            row
        })
        .collect();
    table(&headers, &aligns, &rows)
}

/// The serving columns of one row ("-" where not estimated).
fn serving_cells(s: Option<&recommend::service::Serving>, currency: &str) -> Vec<String> {
    let Some(s) = s else { return vec!["-".to_owned(); 6] };
    let sig = recommend::service::fmt_sig;
    vec![
        if s.expert_parallel > 1 {
            format!("EP{}×{}×{}", s.expert_parallel, s.pipeline_parallel, s.replicas)
        } else {
            format!("{}×{}×{}", s.tensor_parallel, s.pipeline_parallel, s.replicas)
        },
        s.concurrency_per_replica.to_string(),
        sig(s.aggregate_output_tokens_per_second),
        sig(s.decode_tokens_per_second_per_sequence),
        format!("{}s", sig(s.ttft_seconds)),
        s.usd_per_million_output_tokens
            .or(s.cost_per_million_output_tokens)
            .map_or_else(|| "-".to_owned(), |c| format!("{}{c:.2}", crate::output::currency_symbol(currency))),
    ]
}

/// "-" when the requested price is known; else the fallback the ranking used.
fn ranked_by(rec: &recommend::Recommendation, currency: &str) -> String {
    match (rec.price_per_hour, rec.rank_price_per_hour) {
        (Some(_), _) => "-".to_owned(),
        (None, Some(p)) => format!(
            "{} {}/h",
            rec.price_basis.split(" (").next().unwrap_or(&rec.price_basis),
            crate::output::money_in(Some(p), currency)
        ),
        (None, None) => "no list price".to_owned(),
    }
}

fn fmt_num_frac(v: f64) -> String {
    let c = recommend::GpuCount::parse(&format!("{v}"));
    match c {
        Ok(c) if c.den != 1 => c.to_string(),
        _ => fmt_num(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constraint_is_named_by_its_flag_and_json_keeps_its_stable_names() {
        assert_eq!(constraint_words(Constraint::GpuMemory), "the --gpu-memory limit");
        assert_eq!(constraint_words(Constraint::Region), "the --location limit");
        assert_eq!(constraint_words(Constraint::MemoryFit), "the memory fit check");
        assert_eq!(constraint_json_name(Constraint::Region), "--region");
        assert_eq!(constraint_json_name(Constraint::Top), "--top");
        assert_eq!(constraint_json_name(Constraint::AksSupport), "AKS support");
        let binding = serde_json::to_value(recommend::service::Binding::MaxTtft).expect("json");
        assert_eq!(binding, "--max-ttft");
        assert_eq!(serde_json::to_value(recommend::service::Binding::KvCapacity).expect("json"), "kv-capacity");
    }
}
