//! A fake Hugging Face Hub on 127.0.0.1, and the tests of `--model org/name` against it.
//!
//! It answers `/{repo}/resolve/main/{file}` as the Hub does (huggingface/huggingface_hub
//! `hf_hub_url`): 200 with the file, 206 for a `Range`, 401/403 with `X-Error-Code: GatedRepo`
//! for a gated model without (or with a refused) token, 401 `RepoNotFound`, 404 `EntryNotFound`,
//! 302 redirects to a CDN host, and scripted slow or garbled answers. Every request is logged.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{temp_dir, Run};

/// The token the fake accepts for gated models.
const TOKEN: &str = "hf_fakeTokenAbcdef0123456789";

/// One received request: path and lower-case headers.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: HashMap<String, String>,
}

/// What a path answers.
#[derive(Clone)]
enum Answer {
    File(Vec<u8>),
    /// Needs `Authorization: Bearer TOKEN`; else 401 (no token) or 403 (another token).
    Gated(Vec<u8>),
    Status(u16, &'static str),
    /// 302 to this path on `localhost` (another host than 127.0.0.1, as the Hub's CDN is).
    RedirectToCdn(String),
    /// Headers, then nothing for this long.
    Slow(Duration),
}

struct FakeHub {
    base: String,
    port: u16,
    routes: Arc<Mutex<HashMap<String, Answer>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl FakeHub {
    fn start() -> FakeHub {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let routes: Arc<Mutex<HashMap<String, Answer>>> = Arc::default();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let (r, s) = (routes.clone(), seen.clone());
        thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let (r, s) = (r.clone(), s.clone());
                thread::spawn(move || serve(conn, &r, &s, port));
            }
        });
        FakeHub { base: format!("http://127.0.0.1:{port}"), port, routes, seen }
    }

    fn route(&self, path: &str, a: Answer) {
        self.routes.lock().expect("lock").insert(path.to_owned(), a);
    }

    fn file(&self, repo: &str, file: &str, a: Answer) {
        self.route(&format!("/{repo}/resolve/main/{file}"), a);
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }
}

fn serve(mut conn: TcpStream, routes: &Mutex<HashMap<String, Answer>>, seen: &Mutex<Vec<Seen>>, port: u16) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut buf = Vec::new();
    let mut tmp = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match conn.read(&mut tmp) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next().and_then(|l| l.split(' ').nth(1)).unwrap_or("").to_owned();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    seen.lock().expect("lock").push(Seen { path: path.clone(), headers: headers.clone() });
    let answer = routes.lock().expect("lock").get(&path).cloned();
    let bearer = headers.get("authorization").cloned();
    let (status, extra, body): (u16, Vec<(String, String)>, Vec<u8>) = match answer {
        None => (404, vec![("X-Error-Code".into(), "EntryNotFound".into())], b"Entry not found".to_vec()),
        Some(Answer::File(b)) => ranged(&headers, b),
        Some(Answer::Gated(b)) => match bearer.as_deref() {
            Some(v) if v == format!("Bearer {TOKEN}") => ranged(&headers, b),
            Some(_) => {
                (403, vec![("X-Error-Code".into(), "GatedRepo".into())], b"Access to model is restricted".to_vec())
            }
            None => (401, vec![("X-Error-Code".into(), "GatedRepo".into())], b"Access to model is restricted".to_vec()),
        },
        Some(Answer::Status(s, code)) => (s, vec![("X-Error-Code".into(), code.into())], b"no".to_vec()),
        Some(Answer::RedirectToCdn(p)) => {
            (302, vec![("Location".into(), format!("http://localhost:{port}/cdn{p}"))], vec![])
        }
        Some(Answer::Slow(d)) => {
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n");
            thread::sleep(d);
            return;
        }
    };
    let mut out = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (k, v) in extra {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let _ = conn.write_all(out.as_bytes());
    let _ = conn.write_all(&body);
}

/// 206 with the asked bytes for `Range: bytes=A-B`, else 200 with all of them.
fn ranged(headers: &HashMap<String, String>, body: Vec<u8>) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let range = headers.get("range").and_then(|r| r.strip_prefix("bytes=")).and_then(|r| r.split_once('-'));
    match range.and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?))) {
        Some((a, b)) if a < body.len() => {
            let end = (b + 1).min(body.len());
            let cr = format!("bytes {a}-{}/{}", end - 1, body.len());
            (206, vec![("Content-Range".into(), cr)], body[a..end].to_vec())
        }
        _ => (200, vec![], body),
    }
}

/// Qwen/Qwen3-8B's config.json (as litgpt mirrors it), under another name.
fn qwen3_8b_config() -> Vec<u8> {
    json!({"architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 36,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 12288,
        "max_position_embeddings": 40960, "vocab_size": 151936, "torch_dtype": "bfloat16",
        "sliding_window": null, "use_sliding_window": false})
    .to_string()
    .into_bytes()
}

fn index(total_size: u64) -> Vec<u8> {
    json!({"metadata": {"total_size": total_size}, "weight_map": {"lm_head.weight": "model-00005-of-00005.safetensors"}})
        .to_string()
        .into_bytes()
}

/// A single-file safetensors: header length, header, then (absent) tensor data.
fn safetensors(tensors: &[(&str, &[u64], u64)]) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), json!({"format": "pt"}));
    let mut at = 0u64;
    for (name, shape, bytes) in tensors {
        header.insert((*name).into(), json!({"dtype": "BF16", "shape": shape, "data_offsets": [at, at + bytes]}));
        at += bytes;
    }
    let h = Value::Object(header).to_string().into_bytes();
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&h);
    out.extend_from_slice(&[0u8; 64]);
    out
}

/// Run the binary against the fake Hub with its own cache directory and no HF_* of the host.
fn run_hub(hub: &FakeHub, cache: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aksgpu"));
    cmd.args(args).stdin(Stdio::null());
    for (k, _) in std::env::vars() {
        if k.starts_with("HF_") || k.starts_with("AKSGPU_") || k.starts_with("AZURE_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("HOME", "/nonexistent-aksgpu-home").env("AKSGPU_CACHE_DIR", cache).env("HF_ENDPOINT", &hub.base);
    cmd.env("AKSGPU_HTTP_TIMEOUT", "2");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run aksgpu");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn a_model_not_in_the_catalog_is_read_from_the_hub_and_cached() {
    let hub = FakeHub::start();
    let repo = "acme/Qwen3-8B-Tuned";
    hub.file(repo, "config.json", Answer::File(qwen3_8b_config()));
    hub.file(repo, "model.safetensors.index.json", Answer::File(index(16_381_470_720)));
    let cache = temp_dir("hub-cache-200");
    let args = ["recommend", "--model", repo, "-o", "json", "--top", "1"];
    let r = run_hub(&hub, &cache, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let m = &v["requirements"]["model"];
    assert_eq!(m["id"], repo);
    // 16,381,470,720 bytes / 2 (BF16) = 8.19B parameters; 15.26 GiB of weights.
    assert_eq!(m["params_b"], 8.19);
    assert_eq!(m["checkpoint_gib"], 15.26);
    assert_eq!(m["arch"]["kv_heads"], 8);
    let notes = v["requirements"]["notes"].to_string();
    assert!(notes.contains("read from the Hugging Face Hub (fetched)"), "{notes}");
    let fetched = hub.seen().len();
    assert_eq!(fetched, 2, "config.json and the index: {:?}", hub.seen());
    assert!(cache.join("hub").join("acme--Qwen3-8B-Tuned.json").is_file());

    // The second run reads the cache: no request.
    let again = run_hub(&hub, &cache, &args, &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(hub.seen().len(), fetched);
    assert!(again.json()["requirements"]["notes"].to_string().contains("(cached)"));

    // A corrupt cache is ignored and replaced.
    std::fs::write(cache.join("hub").join("acme--Qwen3-8B-Tuned.json"), b"{not json").expect("write");
    let third = run_hub(&hub, &cache, &args, &[]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert_eq!(hub.seen().len(), fetched + 2);
}

#[test]
fn a_single_safetensors_file_is_sized_from_its_header_alone() {
    let hub = FakeHub::start();
    let repo = "acme/tiny-llama";
    let cfg = json!({"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16"});
    hub.file(repo, "config.json", Answer::File(cfg.to_string().into_bytes()));
    // 128256 × 2048 embeddings + 16 × 2048 × 8192 + one 2048 norm, in BF16.
    let file = safetensors(&[
        ("model.embed_tokens.weight", &[128_256, 2048], 128_256 * 2048 * 2),
        ("model.layers.mlp", &[16, 2048, 8192], 16 * 2048 * 8192 * 2),
        ("model.norm.weight", &[2048], 4096),
    ]);
    hub.file(repo, "model.safetensors", Answer::File(file));
    let cache = temp_dir("hub-cache-single");
    let r = run_hub(&hub, &cache, &["recommend", "--model", repo, "-o", "json", "--top", "1"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let m = &r.json()["requirements"]["model"];
    // 262,670,336 + 268,435,456 + 2,048 = 531,107,840 parameters.
    assert_eq!(m["params_b"], 0.53);
    let seen = hub.seen();
    let ranges: Vec<&str> = seen.iter().filter_map(|s| s.headers.get("range").map(String::as_str)).collect();
    assert_eq!(ranges.first(), Some(&"bytes=0-7"), "the header length is read first: {seen:?}");
    assert_eq!(ranges.len(), 2, "then only the header: {seen:?}");
}

#[test]
fn a_gated_model_needs_a_token_that_is_never_printed() {
    let hub = FakeHub::start();
    let repo = "acme/Gated-8B";
    hub.file(repo, "config.json", Answer::Gated(qwen3_8b_config()));
    hub.file(repo, "model.safetensors.index.json", Answer::Gated(index(16_381_470_720)));
    let cache = temp_dir("hub-cache-gated");
    let args = ["recommend", "--model", repo, "-o", "json", "--top", "1"];

    let no_token = run_hub(&hub, &cache, &args, &[]);
    assert_eq!(no_token.code, 3, "{}", no_token.stderr);
    assert!(no_token.stderr.contains("gated"), "{}", no_token.stderr);
    assert!(no_token.stderr.contains("--hf-token or set HF_TOKEN"), "{}", no_token.stderr);
    assert!(no_token.stderr.contains("--model-params"), "{}", no_token.stderr);

    let wrong = run_hub(&hub, &cache, &args, &[("HF_TOKEN", "hf_wrongTokenZyx9876543210")]);
    assert_eq!(wrong.code, 3, "{}", wrong.stderr);
    assert!(wrong.stderr.contains("the token has no access"), "{}", wrong.stderr);
    assert!(
        !wrong.stderr.contains("hf_wrongTokenZyx9876543210") && !wrong.stdout.contains("hf_wrongTokenZyx9876543210")
    );

    let mut with_flag: Vec<&str> = args.to_vec();
    with_flag.extend(["--hf-token", TOKEN]);
    let ok = run_hub(&hub, &cache, &with_flag, &[]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert_eq!(ok.json()["requirements"]["model"]["params_b"], 8.19);
    for out in [&ok.stdout, &ok.stderr] {
        assert!(!out.contains(TOKEN), "the token leaked: {out}");
    }
    let cached = std::fs::read_to_string(cache.join("hub").join("acme--Gated-8B.json")).expect("cache");
    assert!(!cached.contains(TOKEN), "the token is never stored");
}

#[test]
fn redirects_are_followed_and_the_token_stays_with_the_hub() {
    let hub = FakeHub::start();
    let repo = "acme/Redirected-8B";
    hub.file(repo, "config.json", Answer::RedirectToCdn("/blobs/config".into()));
    hub.route("/cdn/blobs/config", Answer::File(qwen3_8b_config()));
    hub.file(repo, "model.safetensors.index.json", Answer::File(index(16_381_470_720)));
    let cache = temp_dir("hub-cache-redirect");
    let r = run_hub(&hub, &cache, &["recommend", "--model", repo, "-o", "json", "--top", "1"], &[("HF_TOKEN", TOKEN)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let seen = hub.seen();
    let cdn = seen.iter().find(|s| s.path.starts_with("/cdn/")).expect("the CDN was asked");
    assert_eq!(cdn.headers.get("host").map(|h| h.starts_with("localhost")), Some(true));
    assert!(!cdn.headers.contains_key("authorization"), "the token followed the redirect to another host");
    let first = seen.iter().find(|s| s.path.ends_with("config.json")).expect("config asked");
    assert_eq!(first.headers.get("authorization").map(String::as_str), Some(format!("Bearer {TOKEN}").as_str()));

    // A redirect loop ends.
    let looped = "acme/Loop";
    hub.file(looped, "config.json", Answer::RedirectToCdn("/loop".into()));
    hub.route("/cdn/loop", Answer::RedirectToCdn("/loop".into()));
    let l = run_hub(&hub, &cache, &["recommend", "--model", looped], &[]);
    // The Hub failing is not the user's input: exit 1, as a network failure.
    assert_eq!(l.code, 1, "{}", l.stderr);
    assert!(l.stderr.contains("too many redirects"), "{}", l.stderr);
}

#[test]
fn missing_garbled_slow_and_unreachable_hubs() {
    let hub = FakeHub::start();
    let cache = temp_dir("hub-cache-faults");
    hub.file("acme/Gone", "config.json", Answer::Status(401, "RepoNotFound"));
    let gone = run_hub(&hub, &cache, &["recommend", "--model", "acme/Gone"], &[]);
    assert_eq!(gone.code, 2, "{}", gone.stderr);
    assert!(gone.stderr.contains("acme/Gone is not on the Hugging Face Hub"), "{}", gone.stderr);
    assert!(gone.stderr.contains("--model-params"), "{}", gone.stderr);

    let absent = run_hub(&hub, &cache, &["recommend", "--model", "acme/Nothing"], &[]);
    assert_eq!(absent.code, 2, "a 404 config.json: {}", absent.stderr);
    assert!(absent.stderr.contains("not on the Hugging Face Hub"), "{}", absent.stderr);

    hub.file("acme/Garbled", "config.json", Answer::File(b"{\"hidden_size\": 40".to_vec()));
    let garbled = run_hub(&hub, &cache, &["recommend", "--model", "acme/Garbled"], &[]);
    // The Hub answered with something unusable: its fault, not the input's (exit 1).
    assert_eq!(garbled.code, 1, "{}", garbled.stderr);
    assert!(garbled.stderr.contains("config.json is not JSON"), "{}", garbled.stderr);

    hub.file("acme/NoWeights", "config.json", Answer::File(qwen3_8b_config()));
    let no_weights = run_hub(&hub, &cache, &["recommend", "--model", "acme/NoWeights"], &[]);
    assert_eq!(no_weights.code, 1, "{}", no_weights.stderr);
    assert!(no_weights.stderr.contains("no model.safetensors"), "{}", no_weights.stderr);

    // Slow: the timeout (AKSGPU_HTTP_TIMEOUT=2) ends it; with --model-params that sizes it.
    hub.file("acme/Slow", "config.json", Answer::Slow(Duration::from_secs(8)));
    let slow = run_hub(&hub, &cache, &["recommend", "--model", "acme/Slow"], &[]);
    // Unreachable in time: a transport failure (exit 1), not a usage error.
    assert_eq!(slow.code, 1, "{}", slow.stderr);
    assert!(slow.stderr.contains("cannot reach the Hugging Face Hub"), "{}", slow.stderr);
    assert!(slow.stderr.contains("hint: offline: pass --model-params"), "{}", slow.stderr);
    let fallback = run_hub(
        &hub,
        &cache,
        &["recommend", "--model", "acme/Slow", "--model-params", "8B", "-o", "json", "--top", "1"],
        &[],
    );
    assert_eq!(fallback.code, 0, "{}", fallback.stderr);
    let v = fallback.json();
    assert_eq!(v["requirements"]["model"]["id"], "acme/Slow");
    assert_eq!(v["requirements"]["model"]["params_b"], 8.0);
    assert!(v["requirements"]["notes"].to_string().contains("sized from --model-params instead"));

    // Refused: nothing listens on the port any more.
    let closed = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let refused = run_hub(
        &hub,
        &cache,
        &["recommend", "--model", "acme/Any"],
        &[("HF_ENDPOINT", &format!("http://127.0.0.1:{port}"))],
    );
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(refused.stderr.contains("connect"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--model-params"), "{}", refused.stderr);
    let _ = hub.port;
}

#[test]
fn catalog_models_and_hf_hub_offline_never_touch_the_network() {
    let hub = FakeHub::start();
    let cache = temp_dir("hub-cache-none");
    for model in
        ["llama-3.1-8b", "Qwen/Qwen3-8B", "Qwen/Qwen3-8B-Base", "meta-llama/Llama-3.2-1B", "google/gemma-3-27b-pt"]
    {
        let r = run_hub(&hub, &cache, &["recommend", "--model", model, "-o", "json", "--top", "1"], &[]);
        assert_eq!(r.code, 0, "{model}: {}", r.stderr);
    }
    let base = run_hub(&hub, &cache, &["recommend", "--model", "Qwen/Qwen3-8B-Base", "-o", "json", "--top", "1"], &[]);
    assert_eq!(base.json()["requirements"]["model"]["id"], "Qwen/Qwen3-8B");
    let off = run_hub(&hub, &cache, &["recommend", "--model", "acme/Offline-7B"], &[("HF_HUB_OFFLINE", "1")]);
    // Offline by choice: the Hub is not reached, so the model cannot be sized (exit 1).
    assert_eq!(off.code, 1, "{}", off.stderr);
    assert!(off.stderr.contains("HF_HUB_OFFLINE"), "{}", off.stderr);
    assert!(hub.seen().is_empty(), "{:?}", hub.seen());
}

/// `create-pool --recommend --model org/name` sizes a Hub model too (then sends nothing: --dry-run).
#[test]
fn create_pool_recommend_reads_a_hub_model() {
    let hub = FakeHub::start();
    let repo = "acme/Qwen3-8B-Pool";
    hub.file(repo, "config.json", Answer::File(qwen3_8b_config()));
    hub.file(repo, "model.safetensors.index.json", Answer::File(index(16_381_470_720)));
    let arm = crate::fake_arm::FakeArm::start();
    let cache = temp_dir("hub-cache-pool");
    let cache = cache.to_string_lossy().into_owned();
    let args = crate::support::CreatePool::new().without_vm_size().with(&[
        "--recommend",
        "--model",
        repo,
        "--location",
        "eastus",
        "--dry-run",
        "-o",
        "json",
    ]);
    let hub_env = [("HF_ENDPOINT", hub.base.as_str()), ("AKSGPU_CACHE_DIR", cache.as_str())];
    let r = crate::support::aksgpu_arm(&arm.base, &args.args(), &hub_env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("recommended Standard_"), "{}", r.stderr);
    assert_eq!(hub.seen().len(), 2, "{:?}", hub.seen());
}
