#!/usr/bin/env bash
# Full-process benchmark: `aksgpu recommend …` (plain, and with serving targets) against
# `aksgpu --version`, plus peak RSS.
# Targets (README, "Benchmarks"): recommend ≤ 1.5× the time of
# --version; peak RSS ≤ 20 MB.
# Usage: benches/startup.sh [RUNS]   (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
cargo build --release --locked --quiet
bin=target/release/aksgpu
unset AKSGPU_CATALOG
rec=(recommend --workload inference --model llama-3.1-8b -o json)
serve=(recommend --model llama-3.1-70b --concurrency 200 --input-tokens 2000 --output-tokens 500
  --min-tokens-per-second-per-user 20 --max-ttft 2s -o json)

for cmd in rec serve; do
  declare -n args=$cmd
  echo "== aksgpu ${args[*]}"
python3 - "$bin" "$runs" "${args[@]}" <<'PY'
import statistics, subprocess, sys, time
bin, runs, rec = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def once(args):
    t = time.perf_counter()
    subprocess.run([bin, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t
# Interleaved, so both commands see the same machine: a load change mid-run moves both.
for _ in range(10):  # warm the page cache
    once(["--version"]), once(rec)
pairs = [(once(["--version"]), once(rec)) for _ in range(runs)]
ver = sorted(v for v, _ in pairs)
re_ = sorted(r for _, r in pairs)
p90 = lambda xs: xs[int(len(xs) * 0.9)]
v_med, r_med = statistics.median(ver), statistics.median(re_)
print(f"--version   median {v_med*1e3:.2f} ms  p90 {p90(ver)*1e3:.2f} ms  ({runs} interleaved runs)")
print(f"recommend   median {r_med*1e3:.2f} ms  p90 {p90(re_)*1e3:.2f} ms")
print(f"ratio       {r_med / v_med:.2f}x (target <= 1.5x)")
PY
done
unset -n args

if [ -x /usr/bin/time ]; then
  rss=$(/usr/bin/time -f '%M' "$bin" "${rec[@]}" 2>&1 >/dev/null | tail -n1)
  echo "peak RSS    ${rss} KiB (target <= 20 MB)"
else
  python3 - "$bin" "${rec[@]}" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
print(f"peak RSS    {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} KiB (target <= 20 MB)")
PY
fi
if command -v valgrind >/dev/null; then
  for args in "--version" "${rec[*]}"; do
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" $args 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
    echo "instructions ${n:-?}  aksgpu $args"
  done
fi
