//! How a dry run is shown: each request of the plan with its headers and body (or the plan
//! as JSON/YAML for scripts), and a plan's cost after its steps.

use crate::error::{flag_text, Error};
use crate::output::{money_in, table, Align};

/// A dry run as shown: JSON/YAML `{"dry_run": true, "steps": [...], …extra}`, or a listing
/// with each request, its headers and its body.
#[derive(Debug, serde::Serialize)]
pub struct DryRun {
    #[serde(skip)]
    header: String,
    /// Printed after the steps in a table (the plan's cost).
    #[serde(skip)]
    footer: String,
    dry_run: bool,
    steps: Vec<crate::ops::Step>,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

impl DryRun {
    /// The plan with absolute URLs under `base`, a header line, and extra fields for scripts.
    pub fn new(base: &str, plan: &crate::ops::Plan, header: &str, extra: serde_json::Value) -> Self {
        let extra = match extra {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        Self {
            header: header.to_owned(),
            footer: String::new(),
            dry_run: true,
            steps: plan.absolute(base).steps,
            extra,
        }
    }
}

impl crate::output::Render for DryRun {
    fn table(&self) -> String {
        let mut out = format!("{}\n", self.header);
        for (i, s) in self.steps.iter().enumerate() {
            out.push_str(&format!("\n{}. {} {}\n   {}\n", i + 1, s.method, s.url, s.purpose));
            if let Some(when) = &s.when {
                out.push_str(&format!("   sent {}\n", flag_text(when)));
            }
            if let Some(f) = s.follow {
                out.push_str(&format!("   {}\n", f.describe()));
            }
            if let Some(until) = &s.repeat {
                out.push_str(&format!("   sent again {}\n", flag_text(until)));
            }
            for (k, v) in &s.headers {
                out.push_str(&format!("   {k}: {v}\n"));
            }
            if let Some(b) = &s.body {
                let pretty = serde_json::to_string_pretty(b).unwrap_or_default();
                out.push_str(&pretty.lines().map(|l| format!("   {l}\n")).collect::<String>());
            }
        }
        if !self.footer.is_empty() {
            out.push('\n');
            out.push_str(&self.footer);
        }
        out
    }
}

/// Print a dry-run plan with its cost: the table after the steps, `cost` in JSON and YAML.
pub fn render_priced_plan(
    p: &crate::output::Printer,
    format: crate::cli::Format,
    (base, plan, header): (&str, &crate::ops::Plan, &str),
    extra: serde_json::Value,
    cost: &PlanPricing,
) -> Result<(), Error> {
    Ok(crate::output::emit(p, format, &priced_plan((base, plan, header), extra, cost))?)
}

/// A dry-run plan with its cost (see [`render_priced_plan`]), not yet printed.
pub fn priced_plan(
    (base, plan, header): (&str, &crate::ops::Plan, &str),
    extra: serde_json::Value,
    cost: &PlanPricing,
) -> DryRun {
    let mut d = DryRun::new(base, plan, header, extra);
    d.footer = plan_pricing_text(cost);
    d.extra.insert("cost".into(), serde_json::to_value(cost).unwrap_or_default());
    d
}

/// Print a dry-run plan (see [`DryRun`]).
pub fn render_plan(
    p: &crate::output::Printer,
    format: crate::cli::Format,
    base: &str,
    plan: &crate::ops::Plan,
    header: &str,
    extra: serde_json::Value,
) -> Result<(), Error> {
    Ok(crate::output::emit(p, format, &DryRun::new(base, plan, header, extra))?)
}

pub use crate::ops::cost::{PlanCost, PlanPricing};

/// A plan's cost as a table: notes, then two rows per pool (minimum and maximum node counts).
pub fn plan_pricing_text(cost: &PlanPricing) -> String {
    let mut out = String::from("Cost (list prices, 730 h a month):\n");
    for n in &cost.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let mut rows = Vec::new();
    for c in &cost.pools {
        let m = |v: Option<f64>| crate::output::money_in(v, &c.currency);
        let region = c.region.clone().unwrap_or_else(|| "unknown".into());
        rows.push(vec![
            c.pool.clone(),
            c.vm_size.clone(),
            c.price_kind.clone(),
            region,
            format!("min {}", c.min_nodes),
            m(c.hourly_at_min),
            m(c.monthly_at_min),
        ]);
        rows.push(vec![
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            format!("max {}", c.max_nodes),
            m(c.hourly_at_max),
            m(c.monthly_at_max),
        ]);
    }
    out.push_str(&table(
        &["POOL", "SIZE", "PRICE", "REGION", "NODES", "PER HOUR", "PER MONTH"],
        &[Align::Left, Align::Left, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right],
        &rows,
    ));
    if let (true, Some(c)) = (cost.pools.len() > 1, cost.pools.first()) {
        let unpriced = cost.pools.iter().filter(|p| p.monthly_at_min.is_none()).count();
        let m = |v: Option<f64>| money_in(v, &c.currency);
        if unpriced == 0 || unpriced == cost.pools.len() {
            out.push_str(&format!(
                "Total per month: {} at the minimums, {} at the maximums\n",
                m(cost.total_monthly_at_min),
                m(cost.total_monthly_at_max)
            ));
        } else {
            // What the priced pools cost at least: one unknown price never hides the rest.
            let known = |f: fn(&PlanCost) -> Option<f64>| {
                crate::ops::cost::sum_cents(cost.pools.iter().filter_map(f).map(Some))
            };
            out.push_str(&format!(
                "Total per month: ≥ {} at the minimums, ≥ {} at the maximums, plus {unpriced} pool{} with unknown price\n",
                m(known(|p| p.monthly_at_min)),
                m(known(|p| p.monthly_at_max)),
                if unpriced == 1 { "" } else { "s" }
            ));
        }
    }
    for c in &cost.pools {
        match (&c.unknown, &c.price_source) {
            (Some(why), _) => out.push_str(&format!("{}: price unknown: {why}\n", c.pool)),
            (None, Some(_)) => out.push_str(&format!(
                "{}: {}{}/h a node, {} price of {}\n",
                c.pool,
                crate::output::currency_symbol(&c.currency),
                c.price_per_node_hour.unwrap_or_default(),
                if c.price_live { "live" } else { "bundled" },
                c.price_date.as_deref().unwrap_or("unknown date")
            )),
            (None, None) => {}
        }
    }
    out
}

/// A dry run's JSON with the GPU Operator's values (`values`) and the release read (`read`:
/// what it is now and what the install changes in its values) added.
pub fn with_release(
    mut extra: serde_json::Value,
    values: Option<&str>,
    read: Option<&crate::ops::operator::ReleaseView>,
) -> serde_json::Value {
    if let serde_json::Value::Object(m) = &mut extra {
        if let Some(v) = values {
            m.insert("operator_values_yaml".to_owned(), serde_json::json!(v));
        }
        if let Some(r) = read {
            m.insert("release".to_owned(), serde_json::json!(r.release));
            m.insert("values_diff".to_owned(), serde_json::json!(r.values_diff));
        }
    }
    extra
}
