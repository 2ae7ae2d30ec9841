//! What the tool reads to sign in: the claims of an access token (a JWT, RFC 7519; `exp` is
//! "NumericDate", seconds since the epoch, section 4.1.4) and the Azure CLI's profile
//! (`azureProfile.json` in `AZURE_CONFIG_DIR` or `~/.azure`: `subscriptions[]` with `id` and
//! `isDefault`, as `az account list` shows them).

use serde::Deserialize;

use super::{required, MissingField};

/// The claims of an access token the tool reads.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct JwtClaims {
    /// Expiry (RFC 7519 4.1.4), in whole seconds.
    pub exp: Option<u64>,
}

impl JwtClaims {
    /// When the token expires (Unix seconds); a token without `exp` says nothing about it.
    pub fn expiry(&self) -> Result<u64, MissingField> {
        required(&self.exp, "access token", "exp")
    }
}

/// The Azure CLI's `azureProfile.json`, the fields read.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AzureProfile {
    pub subscriptions: Option<Vec<ProfileSubscription>>,
}

/// One subscription of the profile.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileSubscription {
    pub id: Option<String>,
    pub is_default: Option<bool>,
}

impl AzureProfile {
    /// The id of the subscription marked `isDefault: true` (`az account set`); none when no
    /// subscription is marked, or the marked one has no id.
    pub fn default_subscription(&self) -> Option<&str> {
        let subs = self.subscriptions.as_deref()?;
        subs.iter().find(|s| s.is_default == Some(true))?.id.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_default_subscription_is_the_one_marked() {
        let p: AzureProfile = crate::resources::parse(
            &json!({"subscriptions": [{"id": "a", "isDefault": false}, {"id": "b", "isDefault": true, "name": "x"}]}),
            "profile",
        )
        .expect("parses");
        assert_eq!(p.default_subscription(), Some("b"));
        let none: AzureProfile = crate::resources::parse(&json!({"installationId": "i"}), "profile").expect("parses");
        assert_eq!(none.default_subscription(), None);
        let c: JwtClaims = crate::resources::parse(&json!({"aud": "x"}), "token").expect("parses");
        assert_eq!(c.expiry().expect_err("no exp").field, "exp");
    }
}
