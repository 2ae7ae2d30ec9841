//! Microsoft.Quota answers the tool reads: a quota request's status (`QuotaRequestDetails` in
//! Microsoft's `quota.json`, 2025-09-01: `properties.provisioningState`, `message`, `error`,
//! and per-limit `value[].message`).

use serde::Deserialize;

/// A `quotaRequests/{id}` body.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct QuotaRequest {
    pub name: Option<String>,
    #[serde(default)]
    pub properties: QuotaRequestProperties,
}

/// `properties` of a quota request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuotaRequestProperties {
    pub provisioning_state: Option<String>,
    pub message: Option<String>,
    pub error: Option<QuotaError>,
    #[serde(default)]
    pub value: Vec<QuotaSubRequest>,
}

/// `error` of a failed request.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct QuotaError {
    pub code: Option<String>,
    pub message: Option<String>,
}

/// One limit of a request (`value[]`), of which the tool reads the message.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct QuotaSubRequest {
    pub message: Option<String>,
}
