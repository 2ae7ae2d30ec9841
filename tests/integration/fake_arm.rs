//! A stateful fake ARM server on 127.0.0.1 for the tests: clusters, agent pools, async
//! operations, resource SKUs, usages and features, with scripted faults (status codes,
//! connection resets, stalls, huge bodies) and a log of every request it received.
//!
//! It speaks plain HTTP/1.1 with `Connection: close` on its own thread, so tests stay
//! synchronous and can run the real binary against it.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

pub const SUB: &str = "00000000-0000-0000-0000-000000000001";
pub const TOKEN: &str = "fake-token-7f3c9a";

/// One received request.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Path with query.
    pub target: String,
    /// Lower-case header names.
    pub headers: HashMap<String, String>,
    pub body: String,
    /// The round trip it belongs to: one more than the latest round of any request answered
    /// before it arrived. Requests a client sends at once share a round; a request sent after
    /// an answer it waited for is in a later one. (Meaningful with a `latency` that exceeds
    /// the spread of concurrent arrivals.)
    pub round: usize,
}

impl Recorded {
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// What a scripted fault does.
#[derive(Debug, Clone)]
pub enum Action {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Close the connection without answering.
    Reset,
    /// Send headers, then nothing.
    Stall,
    /// A body of this many bytes.
    Huge(usize),
    /// Read the request, then answer nothing (a stall before the headers).
    StallHeaders,
    /// Apply the request as usual, then lose the answer this way.
    AppliedThenLost(Loss),
    /// Answer as usual (a placeholder that lets earlier requests through a later fault).
    Pass,
    /// The front end took the write and the connection dropped (a reset) before the service
    /// committed it: the change is committed only after `.0` more requests to the same
    /// resource were served, so a read-back in between sees the resource as it was (as a PUT
    /// that AKS is still validating when the client gives up on the answer).
    AcceptedLate(usize),
    /// Someone else updates cluster `.0` (its eTag becomes `.1`) while this request is not
    /// applied and answered with `.2` (another writer won the race).
    OtherWriterThen(String, String, Box<Action>),
}

/// How an applied request's answer is lost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Loss {
    /// Close the connection without answering.
    Reset,
    /// Send the headers and part of the body, then close.
    CloseMidBody,
    /// Answer nothing (the client's read timeout or deadline ends it).
    Stall,
    /// Answer this status (500, 502, 504) instead.
    Status(u16),
    /// Answer the real status and headers, but with the body cut in half (and a
    /// `content-length` that matches what is sent): a 201 whose JSON cannot be parsed.
    Truncated,
    /// Answer the real status and headers, then a body of this many bytes (over the client's
    /// cap): a 2xx it cannot read, as a front end that pads or streams a runaway body sends.
    Huge(usize),
}

/// A fault that replaces the normal answer for matching requests, `times` times.
#[derive(Debug, Clone)]
pub struct Fault {
    pub method: &'static str,
    pub path_contains: String,
    pub times: usize,
    pub action: Action,
}

/// A create that Azure turns down for one size (and zones and priority, when given).
#[derive(Debug, Clone)]
pub struct PutFailure {
    /// The size (`*`: every size).
    pub vm_size: String,
    /// Only when the PUT asks exactly these zones (None: any).
    pub zones: Option<Vec<String>>,
    /// Only for spot (Some(true)) or on-demand (Some(false)) requests.
    pub spot: Option<bool>,
    /// Sync: the PUT itself answers `status` with `error`. Async: the PUT is accepted, the pool
    /// is Creating, and the operation ends Failed with `error`.
    pub sync: bool,
    pub status: u16,
    pub error: Value,
}

impl PutFailure {
    /// A failure with this ARM error code, in `error.code` (sync, 400/409) or as the
    /// operation's error whose `details[0].code` carries it (async).
    pub fn code(vm_size: &str, code: &str, sync: bool) -> Self {
        // Azure's wording, shortened (https://aka.ms/allocation-guidance).
        let message = if code.contains("Quota") || code == "OperationNotAllowed" {
            format!("Operation results in exceeding approved {vm_size} family cores quota.")
        } else {
            "Allocation failed. We do not have sufficient capacity for the requested VM size in this region.".to_owned()
        };
        let _ = vm_size;
        let error = if sync {
            json!({"error": {"code": code, "message": message, "target": "vmSize"}})
        } else {
            json!({"code": "ReconcileVMSSAgentPoolFailed", "message": "Code=\"VMSSAgentPoolReconcileFailed\"",
                   "details": [{"code": code, "message": message}]})
        };
        PutFailure {
            vm_size: vm_size.into(),
            zones: None,
            spot: None,
            sync,
            status: if sync { 400 } else { 200 },
            error,
        }
    }

    fn matches(&self, body: &Value) -> bool {
        let p = &body["properties"];
        let zones: Vec<String> = p["availabilityZones"]
            .as_array()
            .map(|a| a.iter().filter_map(|z| z.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        p["vmSize"].as_str().is_some_and(|v| self.vm_size == "*" || v.eq_ignore_ascii_case(&self.vm_size))
            && self.zones.as_ref().is_none_or(|z| *z == zones)
            && self.spot.is_none_or(|s| s == (p["scaleSetPriority"] == "Spot"))
    }
}

/// How PUT agent pool answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LroStyle {
    AsyncOperation,
    Location,
    BodyOnly,
    Sync,
}

#[derive(Debug)]
struct Op {
    statuses: Vec<String>,
    polls: usize,
    pool_key: String,
    error: Option<Value>,
    /// Cluster power state to set when the operation succeeds (stop/start).
    power: Option<String>,
}

/// The outcome of one in-cluster command.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// Polls answered 202 Running before the result.
    pub running_polls: usize,
    pub state: String,
    pub exit_code: i64,
    pub logs: String,
}

#[derive(Debug)]
pub struct State {
    pub clusters: HashMap<String, Value>,
    pub pools: HashMap<String, Value>,
    ops: HashMap<String, Op>,
    /// BodyOnly: pool key → the states successive GETs report.
    body_scripts: HashMap<String, (Vec<String>, usize)>,
    pub skus: Vec<Value>,
    pub usages: Vec<Value>,
    pub features: HashMap<String, Value>,
    pub faults: Vec<Fault>,
    pub log: Vec<Recorded>,
    /// Indices into `log` of writes (PUT/POST/PATCH/DELETE) the server applied (answered 2xx,
    /// whether or not the answer reached the client).
    pub applied: Vec<usize>,
    /// URLs (path and query) the server's answers pointed the client to, by how: `"operation"`
    /// for `Azure-AsyncOperation`, `Operation-Location` and `Location` headers, `"next-link"` for
    /// `nextLink` in bodies (Azure's follow-ups).
    pub given: Vec<(&'static str, String)>,
    /// Statuses an operation reports on successive polls (the last repeats).
    pub op_statuses: Vec<String>,
    /// Error body for a Failed/Canceled operation.
    pub op_error: Option<Value>,
    /// The `Retry-After` an operation's status answers carry (None: no header).
    pub op_retry_after: Option<String>,
    pub lro_style: LroStyle,
    /// Where Azure-AsyncOperation points (None = this server).
    pub op_base: Option<String>,
    /// States GET cluster reports on successive calls (then Succeeded).
    pub cluster_states: Vec<String>,
    /// Refuse a cluster PUT while the cluster is Updating with 409 `OperationNotAllowed`, as
    /// AKS refuses a second operation while one is in progress.
    pub busy_cluster_conflicts: bool,
    /// A write taken by `Action::AcceptedLate`: its resource key, the request, and how many
    /// more requests to that resource are served before it is committed.
    pub late: Option<(String, Recorded, usize)>,
    pub page_size: usize,
    /// Added before every answer (benchmarks).
    pub latency: Duration,
    /// Hand out a nextLink to an empty page after the last full one (as ARM sometimes does).
    pub trailing_empty_page: bool,
    /// Feature name (lower case) → states successive GETs report after a register POST.
    pub feature_scripts: HashMap<String, Vec<String>>,
    /// States still to report after a register POST.
    feature_progress: HashMap<String, Vec<String>>,
    /// States the provider reports after a re-register POST.
    pub provider_states: Vec<String>,
    /// Scripted runCommand results, used in order (else answered from the command text).
    pub run_results: Vec<RunResult>,
    /// runCommand id → (polls so far, result).
    runs: HashMap<String, (usize, RunResult)>,
    /// Retail Prices items served under /api/retail/prices.
    pub retail_items: Vec<Value>,
    /// Items per Retail Prices page.
    pub retail_page: usize,
    /// Leave out NextPageLink (the client must fall back to $skip).
    pub retail_drop_next_link: bool,
    /// Node name, allocatable GPUs the allocatable check reports.
    pub gpu_nodes: Vec<(String, String)>,
    /// Validator pods the validator check reports.
    pub validator_pods: Vec<(String, String)>,
    /// The cluster's GPU Operator Helm release: (chart, user-supplied values). `helm list` /
    /// `helm get values` commands print it; a `helm upgrade --install` replaces it with the
    /// chart version and the values file it was sent (as Helm does without `--reuse-values`).
    pub helm_release: Option<(String, Value)>,
    /// What `GET /subscriptions` lists (Subscriptions - List), paged by `page_size`.
    pub subscriptions: Vec<Value>,
    /// Creates Azure turns down (first match wins, every time it matches).
    pub put_failures: Vec<PutFailure>,
    /// GETs a deleted pool stays visible (Deleting) before it is gone.
    pub delete_polls: usize,
    /// Quota requests: statuses successive status reads report (the last repeats).
    pub quota_statuses: Vec<String>,
    /// The error a Failed quota request carries.
    pub quota_error: Option<Value>,
    /// Quota request id → (family, limit asked, reads so far).
    quota_requests: HashMap<String, (String, i64, usize)>,
    /// Capacity reservation groups: group path (lower case) → (group, reservations).
    pub reservation_groups: HashMap<String, (Value, Vec<Value>)>,
    /// Cluster GETs after a stop/start succeeds that still report the old powerState (a stale
    /// read, as a lagging replica gives).
    pub stale_power_reads: usize,
    /// (cluster key, power state) held back while `stale_power_reads` runs down.
    pending_power: Option<(String, String)>,
    /// Pool key → GETs still answered before the pool is gone (a pool being deleted).
    pub vanish_after: HashMap<String, usize>,
    next_op: usize,
    /// The latest round trip answered (see `Recorded::round`).
    answered_round: usize,
    /// Azure Resource Graph (`POST /providers/Microsoft.ResourceGraph/resources`), see `fake_graph`.
    pub graph: crate::fake_graph::Graph,
    /// Other resources a GET reads as they are (lower-case path → body): data collection rules,
    /// their associations, Azure Monitor workspaces.
    pub resources: HashMap<String, Value>,
}

impl State {
    /// Set the vCPU limit of the usage counter `name` (a family such as
    /// `standardNCASv3_T4Family`, or `cores`).
    pub fn set_usage_limit(&mut self, name: &str, limit: u64) {
        for u in &mut self.usages {
            if u["name"]["value"] == name {
                u["limit"] = serde_json::json!(limit);
            }
        }
    }
}

pub struct FakeArm {
    pub base: String,
    pub state: Arc<Mutex<State>>,
}

fn lower_key(path: &str) -> String {
    path.to_ascii_lowercase()
}

pub fn cluster_path(name: &str) -> String {
    format!("/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/{name}")
}

pub fn pool_path(cluster: &str, pool: &str) -> String {
    format!("{}/agentPools/{pool}", cluster_path(cluster))
}

impl FakeArm {
    /// Start a server with one cluster `c1` in eastus (Kubernetes 1.33), SKUs and quota for
    /// the common GPU sizes, and operations that succeed on the third poll.
    pub fn start() -> FakeArm {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let mut clusters = HashMap::new();
        clusters.insert(lower_key(&cluster_path("c1")), default_cluster("c1"));
        let state = Arc::new(Mutex::new(State {
            clusters,
            pools: HashMap::new(),
            ops: HashMap::new(),
            body_scripts: HashMap::new(),
            skus: default_skus(),
            usages: default_usages(),
            features: HashMap::new(),
            faults: Vec::new(),
            log: Vec::new(),
            applied: Vec::new(),
            given: Vec::new(),
            op_statuses: vec!["InProgress".into(), "InProgress".into(), "Succeeded".into()],
            op_error: None,
            op_retry_after: Some("1".into()),
            lro_style: LroStyle::AsyncOperation,
            op_base: None,
            cluster_states: Vec::new(),
            busy_cluster_conflicts: false,
            late: None,
            page_size: 2,
            latency: Duration::ZERO,
            trailing_empty_page: true,
            feature_scripts: HashMap::new(),
            feature_progress: HashMap::new(),
            provider_states: vec!["Registering".into(), "Registered".into()],
            run_results: Vec::new(),
            runs: HashMap::new(),
            retail_items: Vec::new(),
            retail_page: 100,
            retail_drop_next_link: false,
            gpu_nodes: vec![("aks-gpu-12345-vmss000000".into(), "1".into())],
            validator_pods: vec![("nvidia-cuda-validator-x7k2p".into(), "Succeeded".into())],
            helm_release: None,
            subscriptions: vec![
                subscription("11111111-2222-3333-4444-555555555555", "Dev/Test"),
                subscription("22222222-3333-4444-5555-666666666666", "Sandbox"),
                subscription(SUB, "ML Production"),
            ],
            put_failures: Vec::new(),
            delete_polls: 2,
            quota_statuses: vec!["InProgress".into(), "Succeeded".into()],
            quota_error: None,
            quota_requests: HashMap::new(),
            reservation_groups: HashMap::new(),
            stale_power_reads: 0,
            pending_power: None,
            vanish_after: HashMap::new(),
            next_op: 0,
            answered_round: 0,
            graph: crate::fake_graph::Graph::default(),
            resources: HashMap::new(),
        }));
        let st = state.clone();
        let b = base.clone();
        thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let st = st.clone();
                let b = b.clone();
                thread::spawn(move || handle(conn, &st, &b));
            }
        });
        FakeArm { base, state }
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let mut s = self.state.lock().expect("state");
        f(&mut s)
    }

    pub fn fault(&self, method: &'static str, path_contains: &str, times: usize, action: Action) {
        self.with(|s| s.faults.push(Fault { method, path_contains: path_contains.to_owned(), times, action }));
    }

    pub fn log(&self) -> Vec<Recorded> {
        self.with(|s| s.log.clone())
    }

    /// The follow-up URLs (path and query) the server's answers handed out.
    pub fn given(&self) -> Vec<(&'static str, String)> {
        self.with(|s| s.given.clone())
    }

    /// (method, path) of every request, queries dropped.
    pub fn calls(&self) -> Vec<(String, String)> {
        self.log().iter().map(|r| (r.method.clone(), r.path().to_owned())).collect()
    }

    pub fn count(&self, method: &str, path_contains: &str) -> usize {
        self.log().iter().filter(|r| r.method == method && r.target.contains(path_contains)).count()
    }

    /// Writes sent after the first applied write matching `method` and `path_contains`: a
    /// client that never repeats an accepted write keeps this at 0.
    pub fn resent_after_applied(&self, method: &str, path_contains: &str) -> usize {
        self.with(|s| {
            let hit = |r: &Recorded| r.method == method && r.target.contains(path_contains);
            let Some(&first) = s.applied.iter().find(|&&i| hit(&s.log[i])) else { return 0 };
            s.log[first + 1..].iter().filter(|r| hit(r)).count()
        })
    }

    /// Applied writes matching `method` and `path_contains`.
    pub fn applied_count(&self, method: &str, path_contains: &str) -> usize {
        self.with(|s| {
            s.applied.iter().filter(|&&i| s.log[i].method == method && s.log[i].target.contains(path_contains)).count()
        })
    }

    pub fn put_pool(&self, cluster: &str, pool: &str, body: Value) {
        self.with(|s| s.pools.insert(lower_key(&pool_path(cluster, pool)), body));
    }

    /// The states successive GETs of pool `pool` report (the last repeats), as an operation
    /// started elsewhere runs on it.
    pub fn script_pool(&self, cluster: &str, pool: &str, states: &[&str]) {
        let key = lower_key(&pool_path(cluster, pool));
        self.with(|s| s.body_scripts.insert(key, (states.iter().map(|x| (*x).to_owned()).collect(), 0)));
    }

    /// Pool `pool` is Deleting: `gets` more GETs see it, then it is gone (404).
    pub fn deleting_pool(&self, cluster: &str, pool: &str, gets: usize) {
        let key = lower_key(&pool_path(cluster, pool));
        self.with(|s| {
            if let Some(p) = s.pools.get_mut(&key) {
                p["properties"]["provisioningState"] = json!("Deleting");
            }
            s.vanish_after.insert(key, gets);
        });
    }

    /// Change the stored resource of cluster `name` (panics when there is none).
    pub fn edit_cluster(&self, name: &str, f: impl FnOnce(&mut Value)) {
        self.with(|s| f(s.clusters.get_mut(&lower_key(&cluster_path(name))).expect("no such cluster")));
    }
}

pub fn respond(status: u16, body: Value) -> Action {
    Action::Respond { status, headers: vec![], body: body.to_string() }
}

pub fn respond_h(status: u16, headers: &[(&str, &str)], body: &str) -> Action {
    Action::Respond {
        status,
        headers: headers.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
        body: body.to_owned(),
    }
}

pub fn default_cluster(name: &str) -> Value {
    json!({
        "id": cluster_path(name),
        "name": name,
        "type": "Microsoft.ContainerService/ManagedClusters",
        "location": "eastus",
        "eTag": "etag-1",
        "sku": {"name": "Base", "tier": "Standard"},
        "properties": {
            "provisioningState": "Succeeded",
            "powerState": {"code": "Running"},
            "kubernetesVersion": "1.33",
            "currentKubernetesVersion": "1.33.2",
            "agentPoolProfiles": [{"name": "system", "mode": "System", "vmSize": "Standard_D4ds_v5", "count": 2}]
        }
    })
}

pub fn sku(name: &str, family: &str, zones: &[&str]) -> Value {
    json!({
        "resourceType": "virtualMachines", "name": name, "tier": "Standard", "family": family,
        "locations": ["eastus"],
        "locationInfo": [{"location": "eastus", "zones": zones}],
        "capabilities": [{"name": "LowPriorityCapable", "value": "True"}],
        "restrictions": []
    })
}

/// One entry of the subscriptions list, in the shape Microsoft.Resources' Subscriptions - List
/// answers (`subscriptionId`, `displayName`, `state`).
pub fn subscription(id: &str, name: &str) -> Value {
    json!({"id": format!("/subscriptions/{id}"), "subscriptionId": id, "displayName": name, "state": "Enabled", "tenantId": "00000000-0000-0000-0000-00000000aaaa"})
}

pub fn default_skus() -> Vec<Value> {
    vec![
        json!({"resourceType": "disks", "name": "Premium_LRS", "locations": ["eastus"]}),
        sku("Standard_NC4as_T4_v3", "standardNCASv3_T4Family", &["1", "2", "3"]),
        sku("Standard_NC24ads_A100_v4", "StandardNCADSA100v4Family", &["1", "2", "3"]),
        sku("Standard_NV36ads_A10_v5", "StandardNVADSA10v5Family", &["1", "2", "3"]),
        sku("Standard_ND96asr_v4", "Standard NDASv4_A100 Family", &["1", "2"]),
        sku("Standard_ND96isr_MI300X_v5", "standardNDISv5MI300XFamily", &["1"]),
    ]
}

pub fn default_usages() -> Vec<Value> {
    let u = |name: &str, limit: i64, current: i64| json!({"unit": "Count", "currentValue": current, "limit": limit, "name": {"value": name, "localizedValue": name}});
    vec![
        u("cores", 1000, 20),
        u("lowPriorityCores", 200, 0),
        u("standardNCASv3_T4Family", 64, 0),
        u("standardNCADSA100v4Family", 96, 0),
        u("standardNVADSA10v5Family", 72, 0),
        u("standardNDASv4_A100Family", 192, 0),
        u("standardNDISv5MI300XFamily", 192, 0),
    ]
}

fn read_request(conn: &mut TcpStream) -> Option<Recorded> {
    conn.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut buf = Vec::new();
    let mut tmp = [0u8; 8192];
    let header_end = loop {
        let n = conn.read(&mut tmp).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
    let target = first.next()?.to_owned();
    let mut headers = HashMap::new();
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = buf[header_end..].to_vec();
    while body.len() < len {
        let n = conn.read(&mut tmp).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&tmp[..n]);
    }
    Some(Recorded { method, target, headers, body: String::from_utf8_lossy(&body).into_owned(), round: 0 })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        412 => "Precondition Failed",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn write(conn: &mut TcpStream, status: u16, headers: &[(String, String)], body: &str) {
    let mut out =
        format!("HTTP/1.1 {status} {}\r\nconnection: close\r\ncontent-length: {}\r\n", reason(status), body.len());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) && !body.is_empty() {
        out.push_str("content-type: application/json\r\n");
    }
    out.push_str("x-ms-request-id: fake-request-1\r\n");
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let _ = conn.write_all(out.as_bytes());
    let _ = conn.write_all(body.as_bytes());
    let _ = conn.flush();
}

fn not_found(what: &str) -> (u16, Vec<(String, String)>, String) {
    (
        404,
        vec![("x-ms-failure-cause".into(), "gateway".into())],
        json!({"error": {"code": "ResourceNotFound", "message": format!("The Resource '{what}' was not found.")}})
            .to_string(),
    )
}

fn handle(mut conn: TcpStream, st: &Arc<Mutex<State>>, base: &str) {
    let Some(mut req) = read_request(&mut conn) else { return };
    let latency = match st.lock() {
        Ok(s) => {
            req.round = s.answered_round + 1;
            s.latency
        }
        Err(_) => Duration::ZERO,
    };
    if !latency.is_zero() {
        thread::sleep(latency);
    }
    commit_late(st, &req, base);
    let (index, fault) = {
        let mut s = st.lock().expect("state");
        // Answered from here on (after the latency): later arrivals are a later round.
        s.answered_round = s.answered_round.max(req.round);
        s.log.push(req.clone());
        let idx = s
            .faults
            .iter()
            .position(|f| f.times > 0 && f.method == req.method && req.target.contains(&f.path_contains));
        let fault = idx.map(|i| {
            s.faults[i].times -= 1;
            s.faults[i].action.clone()
        });
        (s.log.len() - 1, fault)
    };
    let Some(mut action) = fault.filter(|a| !matches!(a, Action::Pass)) else {
        let (status, headers, body) = answer(st, &req, base, index);
        write(&mut conn, status, &headers, &body);
        return;
    };
    if let Action::OtherWriterThen(cluster, etag, then) = action {
        if let Some(c) = st.lock().expect("state").clusters.get_mut(&lower_key(&cluster_path(&cluster))) {
            c["eTag"] = json!(etag);
        }
        action = *then;
    }
    match action {
        Action::Respond { status, headers, body } => write(&mut conn, status, &headers, &body),
        Action::Reset => {
            let _ = conn.shutdown(std::net::Shutdown::Both);
        }
        Action::Stall => {
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{");
            thread::sleep(Duration::from_secs(30));
        }
        Action::StallHeaders => thread::sleep(Duration::from_secs(30)),
        Action::Huge(n) => huge(&mut conn, n),
        Action::AppliedThenLost(loss) => {
            let (status, headers, body) = answer(st, &req, base, index);
            lose(&mut conn, loss, status, &headers, &body);
        }
        Action::OtherWriterThen(..) => write(&mut conn, 500, &[], "{}"),
        Action::AcceptedLate(n) => {
            st.lock().expect("state").late = Some((lower_key(req.path()), req.clone(), n));
            let _ = conn.shutdown(std::net::Shutdown::Both);
        }
        Action::Pass => {}
    }
}

/// Commit a write taken by `Action::AcceptedLate` once enough requests to its resource were
/// served (before `req` is answered).
fn commit_late(st: &Arc<Mutex<State>>, req: &Recorded, base: &str) {
    let due = {
        let mut s = st.lock().expect("state");
        match s.late.as_mut() {
            Some((key, _, n)) if *key == lower_key(req.path()) => {
                if *n == 0 {
                    s.late.take()
                } else {
                    *n -= 1;
                    None
                }
            }
            _ => None,
        }
    };
    if let Some((_, write, _)) = due {
        let index = st.lock().expect("state").log.iter().position(|r| r.target == write.target).unwrap_or(0);
        answer(st, &write, base, index);
    }
}

/// Route the request and note applied writes.
fn answer(st: &Arc<Mutex<State>>, req: &Recorded, base: &str, index: usize) -> (u16, Vec<(String, String)>, String) {
    let (status, headers, body) = route(st, req, base);
    let mut s = st.lock().expect("state");
    if req.method != "GET" && (200..300).contains(&status) {
        s.applied.push(index);
    }
    // ARM's `nextLink`, and the Retail Prices API's `NextPageLink`.
    let next = serde_json::from_str::<Value>(&body)
        .ok()
        .and_then(|v| v["nextLink"].as_str().or(v["NextPageLink"].as_str()).map(str::to_owned));
    let operation = ["azure-asyncoperation", "operation-location", "location"];
    let pointed = headers
        .iter()
        .filter(|(k, _)| operation.contains(&k.to_ascii_lowercase().as_str()))
        .map(|(_, v)| ("operation", v.clone()))
        .chain(next.map(|n| ("next-link", n)));
    for (how, url) in pointed.collect::<Vec<_>>() {
        let target = url.strip_prefix(base).unwrap_or(&url).to_owned();
        s.given.push((how, target));
    }
    drop(s);
    (status, headers, body)
}

fn lose(conn: &mut TcpStream, loss: Loss, status: u16, headers: &[(String, String)], body: &str) {
    match loss {
        Loss::Reset => {
            let _ = conn.shutdown(std::net::Shutdown::Both);
        }
        Loss::CloseMidBody => {
            let mut head = format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n");
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", body.len() + 100));
            let _ = conn.write_all(head.as_bytes());
            let _ = conn.write_all(&body.as_bytes()[..body.len() / 2]);
            let _ = conn.shutdown(std::net::Shutdown::Both);
        }
        Loss::Stall => thread::sleep(Duration::from_secs(30)),
        Loss::Truncated => write(conn, status, headers, &body[..body.len() / 2]),
        Loss::Huge(n) => huge_answer(conn, status, headers, n),
        Loss::Status(code) => write(
            conn,
            code,
            &[],
            &json!({"error": {"code": "InternalServerError", "message": "the front end lost the answer"}}).to_string(),
        ),
    }
}

fn huge(conn: &mut TcpStream, n: usize) {
    huge_answer(conn, 200, &[], n);
}

/// `status` and `headers`, then `n` bytes of body.
fn huge_answer(conn: &mut TcpStream, status: u16, headers: &[(String, String)], n: usize) {
    let mut head = format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("content-length: {n}\r\n\r\n"));
    let _ = conn.write_all(head.as_bytes());
    let chunk = vec![b' '; 64 * 1024];
    let mut sent = 0;
    while sent < n {
        if conn.write_all(&chunk).is_err() {
            break;
        }
        sent += chunk.len();
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn query_param<'a>(target: &'a str, key: &str) -> Option<&'a str> {
    target.split_once('?')?.1.split('&').find_map(|kv| kv.strip_prefix(&format!("{key}=")))
}

fn page(items: &[Value], target: &str, size: usize, base: &str, trailing: bool) -> String {
    let skip: usize = query_param(target, "skip").and_then(|v| v.parse().ok()).unwrap_or(0);
    let end = (skip + size).min(items.len());
    let page: Vec<Value> = items.get(skip..end).map(<[Value]>::to_vec).unwrap_or_default();
    let mut v = json!({ "value": page });
    if end < items.len() || (trailing && end == items.len() && !page.is_empty()) {
        // ARM sometimes hands out a nextLink to an empty last page: keep doing so.
        let path = target.split('?').next().unwrap_or("");
        let mut query: Vec<String> = target
            .split_once('?')
            .map(|(_, q)| q.split('&').filter(|kv| !kv.starts_with("skip=")).map(str::to_owned).collect())
            .unwrap_or_default();
        query.push(format!("skip={end}"));
        v["nextLink"] = json!(format!("{base}{path}?{}", query.join("&")));
    }
    v.to_string()
}

fn route(st: &Arc<Mutex<State>>, req: &Recorded, base: &str) -> (u16, Vec<(String, String)>, String) {
    let mut s = st.lock().expect("state");
    let path = req.path().to_owned();
    let key = lower_key(&path);
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    if key == "/providers/microsoft.resourcegraph/resources" && req.method == "POST" {
        return crate::fake_graph::answer(&mut s.graph, req);
    }
    if req.method == "GET" {
        if let Some(v) = s.resources.get(&key) {
            return (200, vec![], v.to_string());
        }
    }
    if key.contains("/providers/microsoft.quota/") {
        return quota(&mut s, req, &segs, base);
    }
    if key.contains("/capacityreservationgroups/") {
        let group = key.split("/capacityreservations").next().unwrap_or("").to_owned();
        let Some((g, list)) = s.reservation_groups.get(&group).cloned() else { return not_found(&path) };
        if key.ends_with("/capacityreservations") {
            let size = s.page_size;
            return (200, vec![], page(&list, &req.target, size, base, false));
        }
        return (200, vec![], g.to_string());
    }
    // Operation status: .../locations/{loc}/operations/{id}
    if let Some(i) = segs.iter().position(|x| *x == "operations" || *x == "operationresults") {
        let id = segs.get(i + 1).copied().unwrap_or("");
        let location_style = segs[i] == "operationresults";
        let Some(op) = s.ops.get_mut(id) else { return not_found(id) };
        let idx = op.polls.min(op.statuses.len() - 1);
        op.polls += 1;
        let status = op.statuses[idx].clone();
        let pool_key = op.pool_key.clone();
        let err = op.error.clone();
        let power = op.power.clone();
        let terminal =
            matches!(status.to_ascii_lowercase().as_str(), "succeeded" | "failed" | "canceled" | "cancelled");
        if terminal {
            if let Some(p) = s.pools.get_mut(&pool_key) {
                p["properties"]["provisioningState"] = json!(status);
            }
            if s.clusters.contains_key(&pool_key) {
                set_cluster_state(&mut s, &pool_key, &status, power.as_deref());
            }
        }
        let retry_after: Vec<(String, String)> =
            s.op_retry_after.iter().map(|v| ("retry-after".to_owned(), v.clone())).collect();
        if location_style {
            if !terminal {
                let mut h = vec![("location".into(), format!("{base}{}?api-version=2016-03-30", path))];
                h.extend(retry_after);
                return (202, h, String::new());
            }
            return (204, vec![], String::new());
        }
        let mut body = json!({"name": id, "status": status, "startTime": "2026-11-30T10:00:00Z"});
        if let Some(e) = err {
            if !status.eq_ignore_ascii_case("succeeded") && terminal {
                body["error"] = e;
            }
        }
        return (200, retry_after, body.to_string());
    }
    // Features.
    if let Some(i) = segs.iter().position(|x| *x == "features") {
        if let Some(name) = segs.get(i + 1) {
            let lname = name.to_ascii_lowercase();
            if req.method == "POST" && segs.get(i + 2) == Some(&"register") {
                if !s.features.contains_key(&lname) {
                    return (
                        404,
                        vec![],
                        json!({"error": {"code": "FeatureNotFound", "message": "not found"}}).to_string(),
                    );
                }
                let script = s.feature_scripts.get(&lname).cloned().unwrap_or_else(|| vec!["Registered".into()]);
                let first = script.first().cloned().unwrap_or_else(|| "Registered".into());
                if let Some(f) = s.features.get_mut(&lname) {
                    f["properties"]["state"] = json!(first);
                }
                let rest: Vec<String> = script.into_iter().skip(1).collect();
                s.feature_scripts.remove(&lname);
                s.feature_progress.insert(lname.clone(), rest);
                return (200, vec![], s.features[&lname].to_string());
            }
            if req.method == "GET" {
                let next =
                    s.feature_progress
                        .get_mut(&lname)
                        .and_then(|v| if v.is_empty() { None } else { Some(v.remove(0)) });
                if let (Some(st), Some(f)) = (next, s.features.get_mut(&lname)) {
                    f["properties"]["state"] = json!(st);
                }
            }
            return match s.features.get(&lname) {
                Some(f) => (200, vec![], f.to_string()),
                None => {
                    (404, vec![], json!({"error": {"code": "FeatureNotFound", "message": "not found"}}).to_string())
                }
            };
        }
    }
    // Subscriptions - List.
    if path == "/subscriptions" && req.method == "GET" {
        let (items, size, trailing) = (s.subscriptions.clone(), s.page_size, s.trailing_empty_page);
        return (200, vec![], page(&items, &req.target, size, base, trailing));
    }
    // Retail Prices.
    if path == "/api/retail/prices" {
        let query = req.target.split_once('?').map(|x| x.1).unwrap_or("");
        let decoded = percent_decode(query);
        let field = |name: &str| {
            decoded.split(&format!("{name} eq '")).nth(1).and_then(|r| r.split('\'').next()).map(str::to_owned)
        };
        let sku = field("armSkuName");
        let region = field("armRegionName");
        // As the API: `currencyCode='EUR'` serves the meters in euros (here: the items whose
        // currencyCode is EUR); without it, USD.
        let currency =
            decoded.split("currencyCode='").nth(1).and_then(|r| r.split('\'').next()).unwrap_or("USD").to_owned();
        let skip: usize =
            decoded.split("$skip=").nth(1).and_then(|v| v.split('&').next()).and_then(|v| v.parse().ok()).unwrap_or(0);
        let matching: Vec<Value> = s
            .retail_items
            .iter()
            .filter(|i| {
                sku.as_deref().is_none_or(|k| i["armSkuName"] == k)
                    && region.as_deref().is_none_or(|r| i["armRegionName"] == r)
                    && i["currencyCode"].as_str().unwrap_or("USD") == currency
            })
            .cloned()
            .collect();
        let page: Vec<Value> = matching.iter().skip(skip).take(s.retail_page).cloned().collect();
        let next = if skip + page.len() < matching.len() && !s.retail_drop_next_link {
            let kept: Vec<&str> =
                query.split('&').filter(|kv| !kv.starts_with("$skip=") && !kv.starts_with("%24skip=")).collect();
            json!(format!("{base}/api/retail/prices?{}&$skip={}", kept.join("&"), skip + page.len()))
        } else {
            Value::Null
        };
        return (
            200,
            vec![],
            json!({"BillingCurrency": currency, "Items": page, "NextPageLink": next, "Count": page.len()}).to_string(),
        );
    }
    // Cluster stop/start.
    if req.method == "POST" && (key.ends_with("/stop") || key.ends_with("/start")) {
        let ckey = key.rsplit_once('/').map(|x| x.0).unwrap_or("").to_owned();
        if s.clusters.contains_key(&ckey) {
            let power = if key.ends_with("/stop") { "Stopped" } else { "Running" };
            let going = if key.ends_with("/stop") { "Stopping" } else { "Starting" };
            if let Some(c) = s.clusters.get_mut(&ckey) {
                c["properties"]["provisioningState"] = json!(going);
            }
            s.next_op += 1;
            let id = format!("op{}", s.next_op);
            let statuses = s.op_statuses.clone();
            s.ops.insert(id.clone(), Op { statuses, polls: 0, pool_key: ckey, error: None, power: Some(power.into()) });
            let loc = format!("{base}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operationresults/{id}?api-version=2016-03-30");
            return (202, vec![("location".into(), loc), ("retry-after".into(), "1".into())], String::new());
        }
    }
    // Provider registration.
    if segs.len() >= 4
        && segs[2] == "providers"
        && !segs[3].eq_ignore_ascii_case("Microsoft.Features")
        && !key.contains("/locations/")
        && !key.contains("/skus")
    {
        let ns = segs[3].to_owned();
        if req.method == "POST" && segs.get(4) == Some(&"register") {
            return (200, vec![], json!({"namespace": ns, "registrationState": "Registering"}).to_string());
        }
        if req.method == "GET" && segs.len() == 4 {
            let st = if s.provider_states.len() > 1 {
                s.provider_states.remove(0)
            } else {
                s.provider_states.first().cloned().unwrap_or_else(|| "Registered".into())
            };
            return (200, vec![], json!({"namespace": ns, "registrationState": st}).to_string());
        }
    }
    // runCommand and its results.
    if key.ends_with("/runcommand") && req.method == "POST" {
        let body: Value = serde_json::from_str(&req.body).unwrap_or(Value::Null);
        let command = body["command"].as_str().unwrap_or("").to_owned();
        let result = if s.run_results.is_empty() {
            let logs = if command.contains("helm get values") {
                helm_list(&s.helm_release)
            } else if command.contains("helm upgrade --install") {
                s.helm_release = Some(helm_upgrade(&command, &body));
                "Release \"gpu-operator\" has been upgraded. Happy Helming!\n".to_owned()
            } else if command.contains("nvidia-cuda-validator") {
                s.validator_pods.iter().map(|(p, ph)| format!("{p} {ph}\n")).collect::<String>()
            } else if command.contains("allocatable") {
                format!("NAME GPU\n{}", s.gpu_nodes.iter().map(|(n, g)| format!("{n} {g}\n")).collect::<String>())
            } else {
                "Release \"gpu-operator\" has been upgraded. Happy Helming!\n".to_owned()
            };
            RunResult { running_polls: 1, state: "Succeeded".into(), exit_code: 0, logs }
        } else {
            s.run_results.remove(0)
        };
        s.next_op += 1;
        let id = format!("cmd{}", s.next_op);
        s.runs.insert(id.clone(), (0, result));
        let cluster = path.trim_end_matches("/runCommand").trim_end_matches("/runcommand");
        let loc = format!("{base}{}/commandResults/{id}?api-version=2026-10-01", cluster.to_ascii_lowercase());
        return (202, vec![("location".into(), loc), ("retry-after".into(), "1".into())], String::new());
    }
    if let Some(i) = segs.iter().position(|x| x.eq_ignore_ascii_case("commandResults")) {
        let id = segs.get(i + 1).copied().unwrap_or("");
        let Some((polls, r)) = s.runs.get_mut(id) else { return not_found(id) };
        *polls += 1;
        if *polls <= r.running_polls {
            return (
                202,
                vec![
                    ("location".into(), format!("{base}{path}?api-version=2026-10-01")),
                    ("retry-after".into(), "1".into()),
                ],
                json!({"id": id, "properties": {"provisioningState": "Running"}}).to_string(),
            );
        }
        let body = json!({"id": id, "properties": {"provisioningState": r.state, "exitCode": r.exit_code, "startedAt": "2026-11-30T10:00:00Z", "finishedAt": "2026-11-30T10:00:05Z", "logs": r.logs}});
        return (200, vec![], body.to_string());
    }
    // SKUs and usages.
    if key.ends_with("/providers/microsoft.compute/skus") {
        let size = s.page_size;
        return (200, vec![], page(&s.skus, &req.target, size, base, s.trailing_empty_page));
    }
    if key.ends_with("/usages") {
        let size = s.page_size;
        return (200, vec![], page(&s.usages, &req.target, size + 3, base, s.trailing_empty_page));
    }
    // Agent pools.
    if let Some(i) = segs.iter().position(|x| x.eq_ignore_ascii_case("agentPools")) {
        let cluster_key = lower_key(&format!("/{}", segs[..i].join("/")));
        if !s.clusters.contains_key(&cluster_key) {
            return not_found(&cluster_key);
        }
        if let Some(pool) = segs.get(i + 1) {
            let pool = (*pool).to_owned();
            if segs.get(i + 2) == Some(&"abort") && req.method == "POST" {
                return (204, vec![], String::new());
            }
            match req.method.as_str() {
                "GET" => {
                    advance_op_for(&mut s, &key);
                    if let Some(left) = s.vanish_after.get_mut(&key) {
                        if *left == 0 {
                            s.vanish_after.remove(&key);
                            s.pools.remove(&key);
                        } else {
                            *left -= 1;
                        }
                    }
                    if let Some((states, n)) = s.body_scripts.get_mut(&key) {
                        let st = states[(*n).min(states.len() - 1)].clone();
                        *n += 1;
                        if let Some(p) = s.pools.get_mut(&key) {
                            p["properties"]["provisioningState"] = json!(st);
                        }
                    }
                    return match s.pools.get(&key) {
                        Some(p) => (200, vec![], p.to_string()),
                        None => not_found(&pool),
                    };
                }
                "PUT" => return put_pool(&mut s, req, &key, &path, &pool, base),
                "DELETE" => {
                    let Some(p) = s.pools.get_mut(&key) else { return (204, vec![], String::new()) };
                    p["properties"]["provisioningState"] = json!("Deleting");
                    let polls = s.delete_polls;
                    s.vanish_after.insert(key.clone(), polls);
                    let loc = format!("{base}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operationresults/del{polls}?api-version=2016-03-30");
                    return (202, vec![("location".into(), loc)], String::new());
                }
                _ => return (405, vec![], String::new()),
            }
        }
        let mut pools: Vec<Value> =
            s.pools.iter().filter(|(k, _)| k.starts_with(&cluster_key)).map(|(_, v)| v.clone()).collect();
        pools.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        let size = s.page_size;
        return (200, vec![], page(&pools, &req.target, size, base, s.trailing_empty_page));
    }
    // Clusters.
    if s.clusters.contains_key(&key) {
        if req.method == "PUT" {
            let updating = s.clusters[&key]["properties"]["provisioningState"] == json!("Updating");
            if s.busy_cluster_conflicts && updating {
                let message = "Operation is not allowed because there's an in progress update managed cluster \
                               operation on the managed cluster. Please wait for it to finish.";
                return (
                    409,
                    vec![],
                    json!({"error": {"code": "OperationNotAllowed", "message": message}}).to_string(),
                );
            }
            let etag = s.clusters[&key].get("eTag").and_then(Value::as_str).map(str::to_owned);
            if let (Some(want), Some(have)) = (req.headers.get("if-match"), etag) {
                if *want != have {
                    return (
                        412,
                        vec![],
                        json!({"error": {"code": "PreconditionFailed", "message": "eTag mismatch"}}).to_string(),
                    );
                }
            }
            let Ok(mut body) = serde_json::from_str::<Value>(&req.body) else {
                return (400, vec![], json!({"code": "InvalidParameter", "message": "bad body"}).to_string());
            };
            let old = s.clusters[&key].clone();
            for k in ["id", "name", "type"] {
                body[k] = old[k].clone();
            }
            body["eTag"] = json!("etag-2");
            body["properties"]["provisioningState"] = json!("Updating");
            body["properties"]["currentKubernetesVersion"] = old["properties"]["currentKubernetesVersion"].clone();
            if body["properties"]["oidcIssuerProfile"]["enabled"] == json!(true) {
                body["properties"]["oidcIssuerProfile"]["issuerURL"] =
                    json!("https://eastus.oic.prod-aks.azure.com/tenant/issuer/");
            }
            s.clusters.insert(key.clone(), body.clone());
            s.next_op += 1;
            let id = format!("op{}", s.next_op);
            let statuses = s.op_statuses.clone();
            s.ops.insert(id.clone(), Op { statuses, polls: 0, pool_key: key.clone(), error: None, power: None });
            let op_url = format!("{base}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operations/{id}?api-version=2016-03-30");
            return (
                200,
                vec![("azure-asyncoperation".into(), op_url), ("retry-after".into(), "1".into())],
                body.to_string(),
            );
        }
        if req.method == "GET" {
            advance_op_for(&mut s, &key);
            if s.pending_power.as_ref().is_some_and(|(k, _)| *k == key) {
                if s.stale_power_reads == 0 {
                    if let (Some((_, pw)), Some(c)) = (s.pending_power.take(), s.clusters.get_mut(&key)) {
                        c["properties"]["powerState"] = json!({"code": pw});
                    }
                } else {
                    s.stale_power_reads -= 1;
                }
            }
            let next = if s.cluster_states.is_empty() { None } else { Some(s.cluster_states.remove(0)) };
            let mut c = s.clusters[&key].clone();
            if let Some(state) = next {
                c["properties"]["provisioningState"] = json!(state);
            }
            return (200, vec![], c.to_string());
        }
        return (405, vec![], String::new());
    }
    if key.contains("/managedclusters/") {
        return not_found(&path);
    }
    (
        404,
        vec![],
        json!({"error": {"code": "NoRoute", "message": format!("fake ARM has no route for {} {}", req.method, path)}})
            .to_string(),
    )
}

/// What `helm list -o json; echo SEPARATOR; helm get values -o json` prints for `release`.
fn helm_list(release: &Option<(String, Value)>) -> String {
    match release {
        None => "[]\n---aksgpu-values---\nnull\n".to_owned(),
        Some((chart, values)) => format!(
            "{}\n---aksgpu-values---\n{}\n",
            json!([{"name": "gpu-operator", "namespace": "gpu-operator", "status": "deployed", "chart": chart}]),
            if values.is_null() { "null".to_owned() } else { values.to_string() }
        ),
    }
}

/// The release a `helm upgrade --install … --version V -f values.yaml` leaves: chart
/// `gpu-operator-V` and the values file from the command's context (a stored zip).
fn helm_upgrade(command: &str, body: &Value) -> (String, Value) {
    use base64::Engine as _;
    let version = command.split_whitespace().skip_while(|w| *w != "--version").nth(1).unwrap_or("?").trim_matches('\'');
    let zip = body["context"]
        .as_str()
        .and_then(|c| base64::engine::general_purpose::STANDARD.decode(c).ok())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&zip).into_owned();
    let values = text
        .find("values.yaml")
        .map(|i| &text[i + "values.yaml".len()..])
        .map(|rest| rest.split("PK\u{1}\u{2}").next().unwrap_or(rest))
        .and_then(|yaml| serde_yaml_ng::from_str::<Value>(yaml).ok())
        .unwrap_or(Value::Null);
    (format!("gpu-operator-{version}"), values)
}

/// A resource GET moves its running operation on by one poll, as time passes in Azure, so a
/// client that lost the operation URL can follow the resource's own state.
fn advance_op_for(s: &mut State, key: &str) {
    let Some(op) = s.ops.values_mut().find(|o| o.pool_key == key && o.polls < o.statuses.len()) else { return };
    let status = op.statuses[op.polls].clone();
    op.polls += 1;
    let power = op.power.clone();
    if !matches!(status.to_ascii_lowercase().as_str(), "succeeded" | "failed" | "canceled" | "cancelled") {
        return;
    }
    if let Some(p) = s.pools.get_mut(key) {
        p["properties"]["provisioningState"] = json!(status);
    }
    if s.clusters.contains_key(key) {
        set_cluster_state(s, key, &status, power.as_deref());
    }
}

/// A cluster operation ended: set its state, and its powerState on a successful stop/start
/// (held back while `stale_power_reads` runs down).
fn set_cluster_state(s: &mut State, key: &str, status: &str, power: Option<&str>) {
    if let Some(c) = s.clusters.get_mut(key) {
        c["properties"]["provisioningState"] = json!(status);
    }
    if let (Some(pw), true) = (power, status.eq_ignore_ascii_case("succeeded")) {
        if s.stale_power_reads > 0 {
            s.pending_power = Some((key.to_owned(), pw.to_owned()));
        } else if let Some(c) = s.clusters.get_mut(key) {
            c["properties"]["powerState"] = json!({"code": pw});
        }
    }
}

fn put_pool(
    s: &mut State,
    req: &Recorded,
    key: &str,
    path: &str,
    name: &str,
    base: &str,
) -> (u16, Vec<(String, String)>, String) {
    if s.pools.contains_key(key) && req.headers.get("if-none-match").is_some_and(|v| v == "*") {
        return (
            412,
            vec![],
            json!({"error": {"code": "PreconditionFailed", "message": "the agent pool already exists"}}).to_string(),
        );
    }
    let body: Value = match serde_json::from_str(&req.body) {
        Ok(v) => v,
        Err(_) => {
            return (
                400,
                vec![],
                json!({"code": "InvalidParameter", "message": "body is not JSON", "target": "body"}).to_string(),
            )
        }
    };
    if body["properties"]["vmSize"].as_str().is_none() {
        return (
            400,
            vec![],
            json!({"code": "InvalidParameter", "message": "vmSize is required", "target": "properties.vmSize"})
                .to_string(),
        );
    }
    let failure = s.put_failures.iter().find(|f| f.matches(&body)).cloned();
    if let Some(f) = failure.as_ref().filter(|f| f.sync) {
        return (f.status, vec![], f.error.to_string());
    }
    let sync = s.lro_style == LroStyle::Sync && failure.is_none();
    let mut pool = body.clone();
    pool["id"] = json!(path);
    pool["name"] = json!(name);
    pool["type"] = json!("Microsoft.ContainerService/managedClusters/agentPools");
    pool["properties"]["provisioningState"] = json!(if sync { "Succeeded" } else { "Creating" });
    pool["properties"]["currentOrchestratorVersion"] = json!("1.33.2");
    // The node image is the service's (read-only): an update keeps the pool's.
    if let Some(image) = s.pools.get(key).and_then(|p| p.pointer("/properties/nodeImageVersion")).cloned() {
        pool["properties"]["nodeImageVersion"] = image;
    }
    if pool["properties"]["scaleSetPriority"] == "Spot" {
        let taints = pool["properties"]["nodeTaints"].as_array().cloned().unwrap_or_default();
        let mut t = taints;
        t.push(json!("kubernetes.azure.com/scalesetpriority=spot:NoSchedule"));
        pool["properties"]["nodeTaints"] = json!(t);
    }
    s.pools.insert(key.to_owned(), pool.clone());
    if sync {
        return (200, vec![], pool.to_string());
    }
    s.next_op += 1;
    let id = format!("op{}", s.next_op);
    let (statuses, error) = match failure {
        Some(f) => (vec!["InProgress".to_owned(), "Failed".to_owned()], Some(f.error)),
        None => (s.op_statuses.clone(), s.op_error.clone()),
    };
    s.ops.insert(id.clone(), Op { statuses, polls: 0, pool_key: key.to_owned(), error, power: None });
    let op_base = s.op_base.clone().unwrap_or_else(|| base.to_owned());
    let op_url = format!("{op_base}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operations/{id}?api-version=2016-03-30&t=signature-t&s=signature-s");
    let retry_after = s.op_retry_after.iter().map(|v| ("retry-after".to_owned(), v.clone()));
    match s.lro_style {
        LroStyle::AsyncOperation => {
            (201, [("azure-asyncoperation".into(), op_url)].into_iter().chain(retry_after).collect(), pool.to_string())
        }
        LroStyle::Location => {
            let loc = format!("{op_base}/subscriptions/{SUB}/providers/Microsoft.ContainerService/locations/eastus/operationresults/{id}?api-version=2016-03-30");
            (202, [("location".into(), loc)].into_iter().chain(retry_after).collect(), String::new())
        }
        LroStyle::BodyOnly => {
            // The pool's own state follows the script as the pool is polled.
            let statuses = s.op_statuses.clone();
            s.body_scripts.insert(key.to_owned(), (statuses, 0));
            (201, vec![], pool.to_string())
        }
        LroStyle::Sync => unreachable!(),
    }
}

/// Microsoft.Quota: quota limits (from the Compute usages), PUT/PATCH a new limit (202 +
/// `location` to `operationsStatus/{id}`), and the request's status (`quotaRequests/{id}`).
fn quota(s: &mut State, req: &Recorded, segs: &[&str], base: &str) -> (u16, Vec<(String, String)>, String) {
    let Some(i) = segs.iter().position(|x| x.eq_ignore_ascii_case("Microsoft.Quota")) else {
        return not_found("quota");
    };
    let scope = segs[..i - 1].join("/");
    let kind = segs.get(i + 1).copied().unwrap_or("");
    let name = segs.get(i + 2).copied().unwrap_or("").to_owned();
    let usage_limit = |s: &State, fam: &str| {
        s.usages
            .iter()
            .find(|u| u.pointer("/name/value").and_then(Value::as_str).is_some_and(|n| n.eq_ignore_ascii_case(fam)))
            .and_then(|u| u["limit"].as_i64())
    };
    match (req.method.as_str(), kind) {
        ("GET", "quotas") => match usage_limit(s, &name) {
            Some(limit) => (200, vec![], json!({"id": format!("/{scope}/providers/Microsoft.Quota/quotas/{name}"), "name": name, "type": "Microsoft.Quota/quotas",
                "properties": {"limit": {"limitObjectType": "LimitValue", "value": limit}, "name": {"value": name}, "unit": "Count", "isQuotaApplicable": true}}).to_string()),
            None => not_found(&name),
        },
        ("PUT" | "PATCH", "quotas") => {
            let body: Value = serde_json::from_str(&req.body).unwrap_or(Value::Null);
            let Some(limit) = body.pointer("/properties/limit/value").and_then(Value::as_i64) else {
                return (400, vec![], json!({"error": {"code": "InvalidParameter", "message": "properties.limit.value is required"}}).to_string());
            };
            if body.pointer("/properties/limit/limitObjectType").and_then(Value::as_str) != Some("LimitValue") {
                return (400, vec![], json!({"error": {"code": "InvalidParameter", "message": "limitObjectType must be LimitValue"}}).to_string());
            }
            s.next_op += 1;
            let id = format!("2B5C8515-0000-0000-0000-{:012}", s.next_op);
            s.quota_requests.insert(id.clone(), (name, limit, 0));
            let loc = format!("{base}/{scope}/providers/Microsoft.Quota/operationsStatus/{id}?api-version=2025-09-01");
            (202, vec![("location".into(), loc), ("retry-after".into(), "1".into())], String::new())
        }
        ("GET", "quotaRequests" | "operationsStatus") => {
            let Some((fam, limit, reads)) = s.quota_requests.get_mut(&name) else { return not_found(&name) };
            let state = s.quota_statuses[(*reads).min(s.quota_statuses.len() - 1)].clone();
            *reads += 1;
            let (fam, limit) = (fam.clone(), *limit);
            let mut props = json!({"provisioningState": state, "message": format!("Request {state}"), "requestSubmitTime": "2026-11-30T10:00:00Z",
                "value": [{"limit": {"limitObjectType": "LimitValue", "value": limit}, "name": {"value": fam}, "provisioningState": state}]});
            if state == "Succeeded" {
                if let Some(u) = s.usages.iter_mut().find(|u| u.pointer("/name/value").and_then(Value::as_str).is_some_and(|n| n.eq_ignore_ascii_case(&fam))) {
                    u["limit"] = json!(limit);
                }
            }
            if state == "Failed" {
                let e = s.quota_error.clone().unwrap_or_else(|| json!({"code": "ContactSupport", "message": "Request failed, please contact support."}));
                props["message"] = e["message"].clone();
                props["error"] = e;
            }
            (200, vec![("retry-after".into(), "1".into())], json!({"id": format!("/{scope}/providers/Microsoft.Quota/quotaRequests/{name}"), "name": name, "type": "Microsoft.Quota/quotaRequests", "properties": props}).to_string())
        }
        _ => (405, vec![], String::new()),
    }
}
