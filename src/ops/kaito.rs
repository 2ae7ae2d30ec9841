//! The KAITO workflows' sizing: which instance type and how many nodes a Workspace needs for a
//! model (the cheapest KAITO-capable size that holds it, as `recommend --model` sizes it), and
//! the Workspace with its cost.

use std::collections::BTreeMap;

use crate::catalog::{Catalog, LlmModel, Vendor};
use crate::cost::{PlanPricing, PoolPricing};
use crate::domain::did_you_mean;
use crate::domain::setting::{Setting, Words};
use crate::error::Error;
use crate::plan::kaito::{workspace_name, WorkspaceSpec};

pub use crate::plan::kaito::workspace_yaml;
use crate::recommend::{self, ModelSpec, Os, Requirements, Workload};

/// `kaito workspace`: the model, and what the user fixed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkspaceRequest {
    /// The model (catalog id or alias); it must have a KAITO preset.
    pub model: String,
    /// The instance type to check instead of choosing one.
    pub instance_type: Option<String>,
    /// The Workspace name [default: from the model id].
    pub name: Option<String>,
    /// The Workspace namespace.
    pub namespace: Option<String>,
    /// The region to price and choose in (the cluster's location when read).
    pub region: Option<String>,
    /// The cluster whose location `region` is, when it was read from one.
    pub cluster: Option<String>,
    /// Catalog rules to override (only `kaito-min-compute-capability`).
    pub overrides: Vec<String>,
    /// The service to size for (context, concurrency, lengths, targets), as `recommend` takes
    /// it; the model and workload come from the fields above.
    pub service: super::recommend::Need,
}

/// The Workspace, what its nodes cost, and the notes that explain the choice.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The Workspace to render.
    pub spec: WorkspaceSpec,
    /// Where and why the instance type was chosen (the manifest's comment).
    pub place: Words,
    /// Notes about the choice, first the place.
    pub notes: Vec<Words>,
    /// Warnings: a catalog rule overridden.
    pub warnings: Vec<Words>,
    /// What the Workspace's nodes cost.
    pub cost: PlanPricing,
}

/// The location of the named cluster, for sizing a workspace there: one GET (a cluster
/// without a location is refused, naming it).
pub async fn cluster_location(
    client: &crate::arm::ArmClient,
    (subscription, resource_group, cluster): (&str, &str, &str),
    report: super::Report<'_>,
) -> Result<String, Error> {
    let step = crate::plan::read_cluster(
        &crate::plan::cluster_path(subscription, resource_group, cluster),
        "the cluster's location",
    );
    report("reading the cluster's location");
    let c = crate::provision::wire::get::<crate::resources::ManagedCluster>(client, &step).await?;
    let facts = super::pool::ClusterFacts::from_cluster(&c)?;
    facts.location.ok_or_else(|| {
        Error::from(crate::resources::MissingField { resource: format!("cluster {cluster}"), field: "location".into() })
    })
}

/// The model, which must be in the catalog and have a KAITO preset (checked before anything
/// is read from Azure).
pub fn check_workspace_model<'c>(catalog: &'c Catalog, model: &str) -> Result<(&'c LlmModel, String), Error> {
    let m = catalog.model(model).ok_or_else(|| {
        Error::Setting(Box::new(crate::domain::setting::SettingError {
            settings: vec![Setting::Model],
            message: format!("{{0}} {model:?} is not in the catalog"),
            hint: did_you_mean(&catalog.suggest_models(model)),
            rule: None,
        }))
    })?;
    let Some(preset) = m.kaito_preset.clone() else {
        let hint = match catalog.nearest_kaito_preset(m) {
            Some(near) => Words::new(
                format!(
                    "the nearest model with a preset is {} ({}, {}B params): aksgpu kaito workspace {{0:flag}} {}",
                    near.aliases.first().unwrap_or(&near.id),
                    near.id,
                    near.params_b,
                    near.aliases.first().unwrap_or(&near.id)
                ),
                &[Setting::Model],
            ),
            None => "no model in the catalog has a KAITO preset".into(),
        };
        return Err(Error::usage(format!("{} has no KAITO preset", m.id), hint));
    };
    Ok((m, preset))
}

/// The Workspace for a request: its instance type and node count, the notes, and the cost.
pub fn workspace(catalog: &Catalog, a: &WorkspaceRequest) -> Result<Workspace, Error> {
    let (model, preset) = check_workspace_model(catalog, &a.model)?;
    if let Some(bad) = a.overrides.iter().find(|o| o.as_str() != "kaito-min-compute-capability") {
        let message = format!("{{0}} {bad:?}: kaito workspace can only override kaito-min-compute-capability");
        return Err(Error::usage(Words::new(message, &[Setting::Override]), None));
    }
    let region = a.region.as_deref();
    let (instance, count, mut notes, warnings) =
        kaito_instance(catalog, model, a.instance_type.as_deref(), (region, &a.overrides), &a.service)?;
    if let (Some(cluster), Some(first)) = (&a.cluster, notes.first_mut()) {
        first.text.push_str(&format!(", the location of cluster {cluster}"));
    }
    let place = match (region, &a.instance_type) {
        (Some(r), Some(_)) => format!("instance type given; prices in region {r}").into(),
        (None, Some(_)) => {
            Words::new("instance type given; no region (pass {0} for your cluster's location)", &[Setting::Location])
        }
        (_, None) => notes.first().cloned().unwrap_or_default(),
    };
    let name = a.name.clone().unwrap_or_else(|| workspace_name(&model.id));
    let mut labels = BTreeMap::new();
    labels.insert("apps".to_owned(), name.trim_start_matches("workspace-").to_owned());
    let spec = WorkspaceSpec {
        name,
        namespace: a.namespace.clone(),
        instance_type: instance,
        count,
        preset,
        label_selector: labels,
    };
    // KAITO provisions `count` nodes of the instance type for the workspace: say what they cost.
    let pool = PoolPricing {
        pool: &spec.name,
        size: &spec.instance_type,
        os: Os::Linux,
        spot: false,
        min_nodes: spec.count,
        max_nodes: spec.count,
    };
    let cost = PlanPricing::new(catalog, &[pool], region);
    Ok(Workspace { spec, place, notes, warnings, cost })
}

/// A refused `--instance-type`: with `--override kaito-min-compute-capability`, a refusal by
/// the catalog's compute-capability floor (its reading of KAITO and vLLM) becomes a warning
/// (returned); any other refusal stands.
pub(crate) fn kaito_override(catalog: &Catalog, why: NotKaito, overrides: &[String]) -> Result<Words, Error> {
    let rule =
        catalog.rules.iter().find(|r| matches!(r.kind, crate::catalog::RuleKind::KaitoMinComputeCapability { .. }));
    let instance = |text: String| Words::new(text, &[Setting::InstanceType, Setting::Override]);
    match (rule, why) {
        (Some(rule), NotKaito::BelowFloor(m)) if overrides.contains(&rule.id) => Ok(instance(format!(
            "overriding catalog rule {} ({{0}}: {m}; source: {}); risk: the preset may fail to start on this GPU",
            rule.id, rule.source
        ))),
        (Some(rule), NotKaito::BelowFloor(m)) => Err(Error::usage(
            instance(format!("{{0}}: {m}")),
            instance(format!("this rests on the catalog (rule {}); `{{1:flag}} {}` proceeds anyway", rule.id, rule.id)),
        )),
        (_, NotKaito::BelowFloor(m) | NotKaito::Never(m)) => Err(Error::usage(instance(format!("{{0}}: {m}")), None)),
    }
}

/// Whether KAITO accepts `name` as an instanceType: whole NVIDIA GPUs of at least compute
/// capability `min_cc`; otherwise why not.
/// Why a size cannot be a KAITO instance type.
#[derive(Debug)]
pub(crate) enum NotKaito {
    /// Below the catalog's compute-capability floor (or no known capability): a catalog rule,
    /// which `--override` may lift.
    BelowFloor(String),
    /// Not a size KAITO takes at all.
    Never(String),
}

fn kaito_capable(catalog: &Catalog, name: &str, min_cc: (u32, u32)) -> Result<(), NotKaito> {
    let s = catalog.size(name).ok_or_else(|| NotKaito::Never(format!("{name} is not in the catalog")))?;
    let g = catalog.gpu(&s.gpu_model);
    if s.gpu_vendor == Vendor::Amd {
        return Err(NotKaito::Never(format!(
            "{} has AMD GPUs; KAITO does not accept AMD sizes as instanceType",
            s.name
        )));
    }
    if s.gpu_count.is_partial() {
        return Err(NotKaito::Never(format!("{} is a partial GPU; KAITO needs whole GPUs", s.name)));
    }
    match g.and_then(crate::catalog::GpuModel::cc) {
        Some(cc) if cc >= min_cc => Ok(()),
        Some(cc) => Err(NotKaito::BelowFloor(format!(
            "{} ({}) has compute capability {}.{}; KAITO presets need {}.{}+",
            s.name, s.gpu_model, cc.0, cc.1, min_cc.0, min_cc.1
        ))),
        None => Err(NotKaito::BelowFloor(format!("{} has no known compute capability", s.name))),
    }
}

/// Choose the KAITO instance type for a model (pure): the cheapest KAITO-capable size that
/// holds it, or check the one given (`overrides` may pass the compute-capability floor):
/// the size, its node count, the notes and the warnings.
pub fn kaito_instance(
    catalog: &Catalog,
    model: &crate::catalog::LlmModel,
    instance: Option<&str>,
    (region, overrides): (Option<&str>, &[String]),
    service: &super::recommend::Need,
) -> Result<(String, u32, Vec<Words>, Vec<Words>), Error> {
    let min_cc = catalog.kaito_min_compute_capability().unwrap_or((8, 0));
    // The same precision, checkpoint and context resolution as `recommend --model`.
    let spec = ModelSpec::from_model(model);
    let resolved = recommend::weights::resolve(Some(&spec), None, Workload::Inference)
        .map_err(super::recommend::precision_error)?;
    // The service as `recommend` reads it: the same requirements, so the same answer.
    let ask = super::recommend::RecommendRequest {
        need: super::recommend::Need {
            workload: Some(Workload::Inference),
            model: Some(model.id.clone()),
            ..service.clone()
        },
        region: region.map(str::to_owned),
        top: u64::MAX,
        ..super::recommend::RecommendRequest::default()
    };
    let req: Requirements = super::recommend::requirements(catalog, &ask)?;
    let out = recommend::recommend(catalog, &req);
    let kaito_ok = |name: &str| kaito_capable(catalog, name, min_cc);
    let mut notes: Vec<Words> = resolved.notes.into_iter().map(Words::from).collect();
    notes.push(
        format!(
            "sized for {} in {} ({}) with a {}-token context",
            model.id,
            req.precision.name(),
            resolved.weights.map_or_else(String::new, |w| w.formula),
            req.context
        )
        .into(),
    );
    if let Some(want) = instance {
        let size = catalog.size(want).ok_or_else(|| {
            Error::usage(
                Words::new(format!("{{0}} {want:?} is not in the catalog"), &[Setting::InstanceType]),
                did_you_mean(&catalog.suggest_sizes(want)),
            )
        })?;
        let warnings = match kaito_ok(&size.name) {
            Err(why) => vec![kaito_override(catalog, why, overrides)?],
            Ok(()) => Vec::new(),
        };
        if let Some(r) = out.recommendations.iter().find(|r| r.vm_size == size.name) {
            return Ok((size.name.clone(), r.fit.nodes, notes, warnings));
        }
        let why = out
            .rejected
            .iter()
            .chain(&out.below_top)
            .find(|r| r.vm_size == size.name)
            .map(|r| r.reason.clone())
            .unwrap_or_default();
        let cannot = format!("{{0}} {}: it cannot hold {}: ", size.name, model.id);
        return Err(Error::usage(
            Words::new(cannot, &[Setting::InstanceType]).then("", why),
            Words::new("leave out {0} to get the cheapest size that fits", &[Setting::InstanceType]),
        ));
    }
    let pick = out.recommendations.iter().find(|r| kaito_ok(&r.vm_size).is_ok()).ok_or_else(|| Error::NoFit {
        message: format!("no KAITO-capable size holds {}", model.id).into(),
        hint: Some("try a smaller model".into()),
    })?;
    let chosen = Words::plain(format!("instance type {}: ", pick.vm_size));
    notes.push(chosen.then("", Words::join(&pick.reasons, "; ")));
    // The first note says where the choice was priced; the manifest carries it as a comment.
    notes.insert(0, place(region, pick.price_region.as_deref()));
    Ok((pick.vm_size.clone(), pick.fit.nodes, notes, Vec::new()))
}

/// Where a chosen instance type was priced: the region asked for, else its cheapest one.
fn place(region: Option<&str>, priced_in: Option<&str>) -> Words {
    match (region, priced_in) {
        (Some(r), _) => format!("chosen for region {r} (priced there)").into(),
        (None, Some(r)) => Words::new(
            format!(
                "chosen without a region: the cheapest list price is in {r}; pass {{0}} for your cluster's location"
            ),
            &[Setting::Location],
        ),
        (None, None) => {
            Words::new("chosen without a region or a price; pass {0} for your cluster's location", &[Setting::Location])
        }
    }
}
