//! The single integration test binary: the real `aksgpu` binary, end to end.

#![allow(clippy::print_stderr)]

mod apply;
mod architecture;
mod capacity;
mod catalog_cli;
mod ci_prerequisites;
mod cli_conventions;
mod completions;
mod conformance;
mod create_pool;
mod dry_runs;
mod edges;
mod exit_codes;
mod facts;
mod fake_arm;
mod fake_graph;
mod fake_hub;
mod fault_props;
mod faults;
mod fleet;
mod gpu_fields;
mod gpu_stack;
mod hint_flags;
mod kaito_presets;
mod manifest_cli;
mod missing_fields;
mod money;
mod polling;
mod price_cache;
mod properties;
mod quota_together;
mod readme;
mod recommend_cli;
mod redaction;
mod schema;
mod serving_calibration;
mod serving_search;
mod snapshots;
mod support;
mod untyped_json;
mod usage_prom;
mod wire;
mod wizard_tmux;
