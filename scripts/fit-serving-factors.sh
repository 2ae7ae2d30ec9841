#!/bin/sh
# Fit the serving efficiencies of catalog/serving-factors.yaml once, against the published
# measurements in tests/data/published-serving.yaml: for each (GPU architecture, compute
# precision) a grid search over the compute and memory efficiencies, every row run through the
# real `aksgpu recommend --vm-size … -o json`. Prints the entries to review and paste into the
# factors file; then `cargo test --test integration serving_calibration` checks the result.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --test integration serving_calibration::fit_serving_factors -- --ignored --nocapture
