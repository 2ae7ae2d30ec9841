//! The price of a size in the asked region: which meter applies, and what is said when none does.

use super::*;

pub(super) fn round_cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

pub(super) fn in_region(req: &Requirements) -> String {
    req.region.as_ref().map(|r| format!(" in {r}")).unwrap_or_default()
}

/// "linux on-demand", "windows spot".
pub fn price_kind(req: &Requirements) -> String {
    format!(
        "{} {}",
        if req.os == Os::Windows { "windows" } else { "linux" },
        if req.spot { "spot" } else { "on-demand" }
    )
}

/// The prices to try, best first, with their field name, ranking tier and basis. Windows ranks
/// by the Linux price when its own is unknown (the bundled table has no Windows prices); an
/// unknown spot price ranks after known ones, by the on-demand price.
pub(super) fn price_fallbacks(os: Os, spot: bool) -> &'static [(&'static str, u8, &'static str)] {
    match (os, spot) {
        (Os::Linux, false) => &[("linux", 0, "linux on-demand")],
        (Os::Linux, true) => &[("linux_spot", 0, "linux spot"), ("linux", 1, "linux on-demand (spot unknown)")],
        (Os::Windows, false) => {
            &[("windows", 0, "windows on-demand"), ("linux", 0, "linux on-demand (windows unknown)")]
        }
        (Os::Windows, true) => &[
            ("windows_spot", 0, "windows spot"),
            ("linux_spot", 0, "linux spot (windows spot unknown)"),
            ("linux", 1, "linux on-demand (windows spot unknown)"),
        ],
    }
}

pub(super) fn field(p: &RegionPrice, name: &str) -> Option<f64> {
    match name {
        "linux" => p.linux,
        "linux_spot" => p.linux_spot,
        "windows" => p.windows,
        "windows_spot" => p.windows_spot,
        _ => None,
    }
}

/// What one region offers for a size: the requested price, and the price the ranking uses.
pub(super) struct Found {
    own: Option<f64>,
    tier: u8,
    rank: f64,
    basis: &'static str,
    field: &'static str,
}

impl Found {
    /// Lowest tier, then a region where the requested price is known, then the cheapest.
    fn key(&self) -> (u8, bool) {
        (self.tier, self.own.is_none())
    }
}

pub(super) fn price_in(p: &RegionPrice, os: Os, spot: bool) -> Option<Found> {
    let wanted = price_fallbacks(os, spot);
    let own = field(p, wanted[0].0);
    wanted.iter().find_map(|&(f, tier, basis)| field(p, f).map(|rank| Found { own, tier, rank, basis, field: f }))
}

pub(super) fn pick_price(catalog: &Catalog, req: &Requirements, size: &VmSize) -> Option<Price> {
    let best = match &req.region {
        Some(region) => {
            catalog.price(&size.name, region).and_then(|p| price_in(p, req.os, req.spot)).map(|x| (region.as_str(), x))
        }
        None => catalog
            .price_regions(&size.name)
            .filter(|(r, _)| req.regions.is_empty() || req.regions.iter().any(|w| w == r))
            .filter_map(|(r, p)| price_in(p, req.os, req.spot).map(|x| (r, x)))
            .min_by(|(ra, a), (rb, b)| a.key().cmp(&b.key()).then(a.rank.total_cmp(&b.rank)).then(ra.cmp(rb))),
    };
    let Some((region, found)) = best else {
        // Not sold (no list price) here or anywhere: kept only with --include-unpriced.
        return (req.include_unpriced || (req.include_retired && size.status == Status::Retired)).then(|| Price {
            per_node_hour: None,
            rank_per_node_hour: None,
            rank_tier: 2,
            basis: "unpriced".to_owned(),
            region: req.region.clone(),
            cheapest_region: false,
            field: "",
        });
    };
    Some(Price {
        per_node_hour: found.own,
        rank_per_node_hour: Some(found.rank),
        rank_tier: found.tier,
        basis: found.basis.to_owned(),
        region: Some(region.to_owned()),
        cheapest_region: req.region.is_none(),
        field: found.field,
    })
}

/// Why a size is taken as not sold: no list price in `--region` (or in any region).
pub(super) fn unpriced(req: &Requirements, price: Option<&Price>) -> Option<Words> {
    if price.is_some() {
        return None;
    }
    let why = match &req.region {
        Some(r) => format!("no list price in {r}: not sold there"),
        None if !req.regions.is_empty() => format!("no list price in {}: not sold there", req.regions.join(", ")),
        None => "no list price in any region: not sold".to_owned(),
    };
    Some(Words::new(format!("{why} ({{0}} to list it)"), &[Setting::IncludeUnpriced]))
}
