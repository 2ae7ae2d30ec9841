#!/usr/bin/env bash
# Full-process benchmark: `aksgpu recommend …` (plain, with serving targets, and with a full
# live price cache) against `aksgpu --version`, plus peak RSS.
# Targets (docs/benchmarks.md, "Current figures"): recommend ≤ 1.5× the time of
# --version, with or without a price cache; peak RSS ≤ 20 MB.
# Usage: benches/startup.sh [RUNS]   (builds the release binary first; BIN=path measures
# another build instead, e.g. an earlier release, with no build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet
fi
bin=${BIN:-target/release/aksgpu}
unset AKSGPU_CATALOG
rec=(recommend --workload inference --model llama-3.1-8b -o json)
serve=(recommend --model llama-3.1-70b --concurrency 200 --input-tokens 2000 --output-tokens 500
  --min-tokens-per-second-per-user 20 --max-ttft 2s -o json)
cached=("${rec[@]}")

# A full price cache, written the way `aksgpu prices refresh` writes it: a fake Retail Prices
# server (loopback) answers every catalog size in every region of catalog/regions.yaml with
# Linux, Linux spot, Windows and Windows spot prices (the bundled price where there is one,
# else a made-up one), so the cache is the largest a refresh can write.
full_cache=$(mktemp -d)
trap 'rm -rf "$full_cache"; [ -n "${fake_pid:-}" ] && kill "$fake_pid" 2>/dev/null || true' EXIT
python3 - "$full_cache/port" <<'PY' &
import http.server, json, re, sys, urllib.parse, yaml
prices = yaml.safe_load(open("catalog/prices.yaml"))["sizes"]
regions = [r["name"] for r in yaml.safe_load(open("catalog/regions.yaml"))["regions"]]
def items(size):
    bundled = prices.get(size, {})
    base = next((p["linux"] for p in bundled.values() if "linux" in p), 1.0)
    out = []
    for r in regions:
        linux = bundled.get(r, {}).get("linux", round(base * 1.1, 4))
        for windows in (False, True):
            for spot in (False, True):
                price = round(linux * (1.3 if windows else 1.0) * (0.2 if spot else 1.0), 6)
                out.append({"armSkuName": size, "armRegionName": r, "type": "Consumption", "unitOfMeasure": "1 Hour",
                            "productName": "Virtual Machines Series" + (" Windows" if windows else ""),
                            "skuName": size.removeprefix("Standard_") + (" Spot" if spot else ""), "unitPrice": price})
    return out
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        size = re.search(r"armSkuName eq '([^']+)'", q.get("$filter", [""])[0])
        skip = int(q.get("$skip", ["0"])[0])
        page = items(size.group(1))[skip:skip + 100] if size else []
        body = json.dumps({"Items": page, "NextPageLink": None}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
PY
fake_pid=$!
for _ in $(seq 100); do [ -s "$full_cache/port" ] && break; sleep 0.1; done
AKSGPU_CACHE_DIR=$full_cache AKSGPU_PRICES_ENDPOINT="http://127.0.0.1:$(cat "$full_cache/port")" \
  "$bin" prices refresh -o json | python3 -c 'import json,sys; v=json.load(sys.stdin); print("full cache  %s size-regions for %s sizes from %s items" % (v["size_regions"], v["sizes"], v["items"]))'
kill "$fake_pid"
for f in "$full_cache"/prices.*; do echo "            $(stat -c %s "$f") bytes in $f"; done

for cmd in rec serve cached; do
  declare -n args=$cmd
  if [ "$cmd" = cached ]; then
    export AKSGPU_CACHE_DIR=$full_cache
    echo "== aksgpu ${args[*]}  (with the full price cache)"
  else
    export AKSGPU_CACHE_DIR=$full_cache/none
    echo "== aksgpu ${args[*]}"
  fi
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
export AKSGPU_CACHE_DIR=$full_cache/none

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
  n=$(AKSGPU_CACHE_DIR=$full_cache valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "${rec[@]}" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
  echo "instructions ${n:-?}  aksgpu ${rec[*]}  (with the full price cache)"
fi
