//! Names, labels, taints and tags of a pool request: the Kubernetes and ARM rules they follow.

use super::*;

/// True for a valid Kubernetes label/taint key (optional DNS prefix + name).
pub(super) fn valid_key(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().last().is_some_and(|c| c.is_ascii_alphanumeric());
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !l.starts_with('-')
                    && !l.ends_with('-')
            })
    });
    name_ok && prefix_ok
}

pub(super) fn valid_value(v: &str) -> bool {
    v.is_empty()
        || (v.len() <= 63
            && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && v.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
            && v.chars().last().is_some_and(|c| c.is_ascii_alphanumeric()))
}

/// Parse `key=value:Effect` (value optional: `key:Effect`).
pub fn parse_taint(t: &str) -> Result<String, SpecError> {
    let t = t.trim();
    let bad = |why: &str| {
        err(
            Setting::NodeTaints,
            format!("{t:?} is not a taint: {why}"),
            Some("write key=value:Effect with Effect NoSchedule, PreferNoSchedule or NoExecute".into()),
        )
    };
    let (kv, effect) = t.rsplit_once(':').ok_or_else(|| bad("missing :Effect"))?;
    if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        return Err(bad(&format!("unknown effect {effect:?}")));
    }
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    if !valid_key(key) {
        return Err(bad(&format!("invalid key {key:?}")));
    }
    if !valid_value(value) {
        return Err(bad(&format!("invalid value {value:?}")));
    }
    Ok(t.to_owned())
}

pub(super) fn parse_pairs(
    flag: Setting,
    items: &[String],
    check: impl Fn(&str, &str) -> bool,
) -> Result<BTreeMap<String, String>, SpecError> {
    let mut out = BTreeMap::new();
    for item in items.iter().flat_map(|s| s.split(',')).map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| err(flag, format!("{item:?} is not key=value"), Some("write key=value".into())))?;
        if !check(k, v) {
            return Err(err(flag, format!("{item:?} has an invalid key or value"), None));
        }
        out.insert(k.to_owned(), v.to_owned());
    }
    Ok(out)
}

/// Pool names: 1–12 lowercase letters and digits, starting with a letter (AKS).
pub fn check_pool_name(name: &str) -> Result<(), SpecError> {
    let ok = !name.is_empty()
        && name.len() <= 12
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(err(
            Setting::Name,
            format!("pool name {name:?} is invalid"),
            Some("use 1–12 lowercase letters and digits, starting with a letter (e.g. gpu1)".into()),
        ))
    }
}

/// Resource group names (ARM): 1–90 of letters, digits, `-_.()`, not ending in `.`.
pub fn check_resource_group(rg: &str) -> Result<(), SpecError> {
    let ok = !rg.is_empty()
        && rg.len() <= 90
        && !rg.ends_with('.')
        && rg.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '(' | ')'));
    if ok {
        Ok(())
    } else {
        Err(err(Setting::ResourceGroup, format!("{rg:?} is not a resource group name"), None))
    }
}

/// AKS cluster names: 1–63 letters, digits, `-` and `_`, starting and ending alphanumeric.
pub fn check_cluster(c: &str) -> Result<(), SpecError> {
    let ok = !c.is_empty()
        && c.len() <= 63
        && c.chars().all(|x| x.is_ascii_alphanumeric() || x == '-' || x == '_')
        && c.chars().next().is_some_and(|x| x.is_ascii_alphanumeric())
        && c.chars().last().is_some_and(|x| x.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(err(Setting::Cluster, format!("{c:?} is not an AKS cluster name"), None))
    }
}
