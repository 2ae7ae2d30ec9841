//! ARM list pages: a collection GET answers `{"value": [...], "nextLink": "..."}`, and `value`
//! is required (e.g. `AgentPoolListResult` in Microsoft's `managedClusters.json` 2026-10-01:
//! `"required": ["value"]`; the pageable operations name `nextLink` as their
//! `x-ms-pageable.nextLinkName`). A page without `value` is not an empty page: it is an answer
//! of another shape, and the list is not read from it.

use serde::Deserialize;
use serde_json::Value;

use super::MissingField;

/// One page of an ARM list.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page<T = Value> {
    pub value: Option<Vec<T>>,
    pub next_link: Option<String>,
}

impl<T> Page<T> {
    /// The items of this page; a page without `value` is an error naming it.
    pub fn items(self) -> Result<Vec<T>, MissingField> {
        self.value.ok_or_else(|| MissingField { resource: "list page".into(), field: "value".into() })
    }

    /// The URL of the next page, when Azure gave one (an empty link is none).
    pub fn next(&self) -> Option<&str> {
        self.next_link.as_deref().filter(|s| !s.is_empty())
    }
}

impl Page<Value> {
    /// The items of this page, typed: a page without `value`, or an item of another shape or
    /// without a field every item carries, is an error naming it (an item is never skipped).
    pub fn typed<T: super::Listed>(self) -> Result<Vec<T>, MissingField> {
        super::parse_listed(&self.items()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_page_without_value_is_missing_it() {
        let p: Page = crate::resources::parse(&json!({"nextLink": "https://x/2"}), "page").expect("parses");
        assert_eq!(p.next(), Some("https://x/2"));
        assert_eq!(p.items().expect_err("no value").field, "value");
        let empty: Page = crate::resources::parse(&json!({"value": [], "nextLink": ""}), "page").expect("parses");
        assert_eq!(empty.next(), None);
        assert_eq!(empty.items().expect("value").len(), 0);
    }
}
