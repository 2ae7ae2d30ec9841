//! `aksgpu auth status`: which credential, endpoint and subscription a command would use,
//! and whether a token can be had. The token itself is never printed.

use std::time::SystemTime;

use serde_json::json;

use crate::cli::AuthStatusArgs;
use crate::commands::session as azure;
use crate::commands::Ctx;
use crate::error::Error;

/// Where the subscription came from, as the CLI says it: `--subscription (by name)`, or the
/// credential layer's own words (`AZURE_SUBSCRIPTION_ID`).
fn source_words(src: crate::ops::session::SubscriptionSource) -> String {
    use crate::ops::session::SubscriptionSource;
    match src {
        SubscriptionSource::ByName => {
            format!("{} (by name)", crate::error::flag(crate::domain::setting::Setting::Subscription))
        }
        SubscriptionSource::Found(from) => match from {
            crate::ops::session::SubscriptionOrigin::Setting => {
                crate::error::flag(crate::domain::setting::Setting::Subscription)
            }
            crate::ops::session::SubscriptionOrigin::Env => "AZURE_SUBSCRIPTION_ID".to_owned(),
            crate::ops::session::SubscriptionOrigin::AzDefault => "az CLI default (azureProfile.json)".to_owned(),
        },
    }
}

/// `aksgpu auth status`
pub fn status(ctx: &Ctx, a: &AuthStatusArgs) -> anyhow::Result<()> {
    let az = azure::connect(&a.arm)?;
    let rt = crate::ops::runtime()?;
    // Bounded by --timeout and the token deadline: a hung login endpoint cannot hold it.
    let token = rt.block_on(crate::ops::session::token_expiry(&az));
    let expires_in =
        |at: Option<SystemTime>| at.and_then(|t| t.duration_since(SystemTime::now()).ok()).map(|d| d.as_secs() / 60);
    let (sub, sub_source) = match &az.subscription {
        Ok((s, src)) => (Some(s.clone()), Some(source_words(*src))),
        Err(_) => (None, None),
    };
    let v = json!({
        "credential": az.method,
        "credential_description": az.method.describe(),
        "endpoint": az.client.endpoint.base(),
        "subscription": sub,
        "subscription_source": sub_source,
        "token": match &token {
            Ok(at) => json!({"ok": true, "expires_in_minutes": expires_in(*at)}),
            Err(e) => json!({"ok": false, "error": e.to_string()}),
        },
    });
    let mut out = format!("credential    {}\nendpoint      {}\n", az.method.describe(), az.client.endpoint.base());
    match (&sub, &sub_source) {
        (Some(s), Some(src)) => out.push_str(&format!("subscription  {s} (from {src})\n")),
        _ => out.push_str("subscription  none (pass --subscription or set AZURE_SUBSCRIPTION_ID)\n"),
    }
    match &token {
        Ok(Some(at)) => out.push_str(&format!(
            "token         ok, expires in {} min\n",
            expires_in(Some(*at)).map_or("?".into(), |m| m.to_string())
        )),
        Ok(None) => out.push_str("token         ok (expiry unknown)\n"),
        Err(e) => out.push_str(&format!("token         FAILED: {e}\n")),
    }
    crate::output::emit(&ctx.printer, a.output, &crate::output::Shown::new(out, v))?;
    match token {
        Ok(_) => Ok(()),
        Err(e) => Err(Error::from(e).into()),
    }
}
