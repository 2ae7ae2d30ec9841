//! Microsoft.Compute answers the tool reads: usages (`Usage` in Microsoft's
//! `computeRPCommon.json`, 2025-04-01, where `name`, `limit` and `currentValue` are required).

use serde::Deserialize;
use serde_json::Value;

use super::MissingField;

/// One vCPU usage counter as Azure lists it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub name: Option<UsageName>,
    pub limit: Option<i64>,
    pub current_value: Option<i64>,
}

/// `name` of a usage: the quota resource id and its display name.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageName {
    pub value: Option<String>,
    pub localized_value: Option<String>,
}

/// A usage counter whose needed fields Azure sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The quota resource name (`standardNCADSA100v4Family`, `cores`).
    pub name: String,
    /// What Azure calls it for people (the name when Azure sent no display name: a label only).
    pub display: String,
    pub limit: i64,
    pub used: i64,
}

fn norm(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

impl Usage {
    /// `name.value`, when Azure sent it.
    pub fn id(&self) -> Option<&str> {
        self.name.as_ref()?.value.as_deref()
    }

    /// The counter's numbers. A usage without `currentValue` is an error naming it: counting it
    /// as 0 used would make the whole limit look free.
    pub fn counter(&self) -> Result<Counter, MissingField> {
        let name = super::required(&self.id().map(str::to_owned), "a usage", "name.value")?;
        let label = format!("usage {name}");
        let limit = super::required(&self.limit, &label, "limit")?;
        let used = super::required(&self.current_value, &label, "currentValue")?;
        let display = self.name.as_ref().and_then(|n| n.localized_value.clone()).unwrap_or_else(|| name.clone());
        Ok(Counter { name, display, limit, used })
    }
}

/// The counter named `name` (spaces and case ignored) among the usages Azure listed: `None`
/// when Azure listed no such counter, an error when it listed one without its numbers or a
/// usage of the wrong shape.
pub fn find_usage(usages: &[Value], name: &str) -> Result<Option<Counter>, MissingField> {
    let want = norm(name);
    for v in usages {
        let u: Usage = super::parse(v, "a usage")?;
        if u.id().is_some_and(|n| norm(n) == want) {
            return u.counter().map(Some);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Shaped like Microsoft's Usage_List example.
    #[test]
    fn a_usage_without_current_value_is_missing_not_free() {
        let listed = [
            json!({"name": {"value": "cores", "localizedValue": "Total Regional vCPUs"}, "limit": 100, "currentValue": 10, "unit": "Count"}),
            json!({"name": {"value": "standardNCADSA100v4Family"}, "limit": 96, "unit": "Count"}),
        ];
        let c = find_usage(&listed, "Cores").expect("typed").expect("listed");
        assert_eq!((c.limit, c.used, c.display.as_str()), (100, 10, "Total Regional vCPUs"));
        let e = find_usage(&listed, "standardNCADSA100v4Family").expect_err("no currentValue");
        assert_eq!(e.field, "currentValue");
        assert!(e.to_string().contains("usage standardNCADSA100v4Family has no currentValue"), "{e}");
        assert_eq!(find_usage(&listed, "lowPriorityCores"), Ok(None));
    }
}
