//! Every model KAITO ships as a preset gets a Workspace offline: the vendored list
//! (tests/data/kaito-presets.txt, with the KAITO commit it was read from) against the catalog.

use serde_json::Value;

use crate::support::aksgpu_with;

fn presets() -> Vec<&'static str> {
    include_str!("../data/kaito-presets.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn every_current_kaito_preset_writes_a_workspace_offline() {
    let presets = presets();
    assert!(presets.len() >= 30, "{presets:?}");
    let mut failed = Vec::new();
    for preset in presets {
        let r = aksgpu_with(&["kaito", "workspace", "--model", preset], &[]);
        let name = serde_yaml_ng::from_str::<Value>(&r.stdout)
            .ok()
            .and_then(|v| v["inference"]["preset"]["name"].as_str().map(str::to_owned));
        if r.code != 0 || name.as_deref() != Some(preset) {
            failed.push(format!("{preset}: exit {}, preset {name:?}: {}", r.code, r.stderr.trim()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
