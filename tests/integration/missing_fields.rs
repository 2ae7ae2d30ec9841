//! A field Azure did not send is missing, not zero and not what was asked for: quota, `wait`,
//! the create summary and a long-running operation's status, through the binary against the
//! fake ARM server.

use serde_json::json;

use crate::fake_arm::{pool_path, respond, Action, FakeArm, SUB};
use crate::support::{aksgpu_arm, CreatePool};

const FAMILY: &str = "standardNCADSA100v4Family";

/// Drop `currentValue` from the family's usage counter.
fn usage_without_current_value(arm: &FakeArm) {
    arm.with(|s| {
        for u in &mut s.usages {
            if u["name"]["value"] == FAMILY {
                u.as_object_mut().expect("usage").remove("currentValue");
            }
        }
    });
}

/// A usage counter without `currentValue` is not "0 used": `quota show` and the create
/// preflight both say the field is missing, and no pool is created.
#[test]
fn a_usage_without_current_value_is_not_read_as_free() {
    let arm = FakeArm::start();
    usage_without_current_value(&arm);
    let show = aksgpu_arm(&arm.base, &["quota", "show", "--location", "eastus", "--family", FAMILY, "-o", "json"], &[]);
    assert_ne!(show.code, 0, "{}", show.stdout);
    assert!(show.stderr.contains(&format!("usage {FAMILY} has no currentValue")), "{}", show.stderr);
    assert!(!show.stdout.contains("\"free\""), "{}", show.stdout);

    let create = aksgpu_arm(&arm.base, &CreatePool::new().args(), &[]);
    assert_ne!(create.code, 0, "{}", create.stdout);
    assert!(create.stderr.contains("has no currentValue"), "{}", create.stderr);
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
}

/// `aksgpu wait` on a pool whose state Azure does not send never prints Succeeded.
#[test]
fn wait_does_not_print_succeeded_without_a_state() {
    let arm = FakeArm::start();
    assert_eq!(aksgpu_arm(&arm.base, &CreatePool::new().args(), &[]).code, 0);
    arm.with(|s| {
        for p in s.pools.values_mut() {
            p["properties"].as_object_mut().expect("properties").remove("provisioningState");
        }
    });
    let w = aksgpu_arm(
        &arm.base,
        &["wait", "-g", "rg", "--cluster", "c1", "--name", "gpu", "--timeout", "3s", "-o", "json"],
        &[],
    );
    assert_ne!(w.code, 0, "{}", w.stdout);
    assert!(!w.stdout.contains("Succeeded"), "{}", w.stdout);
}

/// The created pool's summary shows what Azure returned: fields it left out are "not
/// returned" (null in JSON), never the requested values.
#[test]
fn the_create_summary_does_not_fill_in_what_azure_left_out() {
    let arm = FakeArm::start();
    let path = pool_path("c1", "gpu");
    let bare = json!({"id": path, "name": "gpu", "properties": {"provisioningState": "Succeeded"}});
    arm.fault("PUT", "agentPools/gpu", 1, respond(200, bare.clone()));
    let r = aksgpu_arm(&arm.base, &CreatePool::new().with(&["-o", "json"]).args(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["provisioning_state"], "Succeeded", "{v}");
    for field in ["vm_size", "count", "node_taints"] {
        assert!(v[field].is_null(), "{field} was filled in: {v}");
    }
    arm.fault("PUT", "agentPools/gpu", 1, respond(200, bare));
    let text = aksgpu_arm(&arm.base, &CreatePool::new().args(), &[]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("size    not returned"), "{}", text.stdout);
    assert!(text.stdout.contains("nodes   not returned"), "{}", text.stdout);
    assert!(text.stdout.contains("taints  not returned"), "{}", text.stdout);
}

/// An operation status of the wrong shape (`status` not a string) is an error, not "no
/// status yet, poll again" until the deadline.
#[test]
fn an_operation_status_of_the_wrong_shape_is_an_error() {
    let arm = FakeArm::start();
    let bad = Action::Respond { status: 200, headers: vec![], body: json!({"status": 7}).to_string() };
    arm.fault("GET", "/operations/", 1, bad);
    let r = aksgpu_arm(&arm.base, &CreatePool::new().with(&["--timeout", "20s"]).args(), &[]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("operation status"), "{}", r.stderr);
    assert!(!r.stderr.contains("timed out"), "{}", r.stderr);
}

/// A list page without `value` (required in ARM's list results, e.g. `AgentPoolListResult` in
/// `managedClusters.json`) is an answer of another shape: the usages are not read as an empty
/// list (no counter, nothing checked), `quota show` fails naming the field.
#[test]
fn a_list_page_without_value_is_not_an_empty_list() {
    let arm = FakeArm::start();
    arm.fault("GET", "/usages", 1, respond(200, json!({"nextLink": null})));
    let show = aksgpu_arm(&arm.base, &["quota", "show", "--location", "eastus", "--family", FAMILY, "-o", "json"], &[]);
    assert_ne!(show.code, 0, "{}", show.stdout);
    assert!(show.stderr.contains("list page has no value"), "{}", show.stderr);
    assert!(!show.stdout.contains("\"free\""), "{}", show.stdout);
}

/// A listed item of another shape is an error naming its field, never skipped: a pool of the
/// cluster whose `maxPods` is not a number, and that leaves its driver to the GPU Operator, is
/// not left out of the driver-label decision (leaving it out would create the new pool without
/// `nvidia.com/gpu.deploy.driver=false`, and the operator would put a second driver on it).
#[test]
fn a_listed_pool_of_another_shape_is_an_error_not_skipped() {
    let arm = FakeArm::start();
    arm.put_pool(
        "c1",
        "op",
        json!({"id": pool_path("c1", "op"), "name": "op", "properties": {
            "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "mode": "User", "osType": "Linux",
            "provisioningState": "Succeeded", "maxPods": "thirty", "gpuProfile": {"driver": "None"}}}),
    );
    let r = aksgpu_arm(&arm.base, &CreatePool::new().vm_size("Standard_NC4as_T4_v3").args(), &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("agent pool op has no properties.maxPods of the documented type"), "{}", r.stderr);
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
}

/// A cluster without `location` (required on a tracked resource, `ManagedCluster` in
/// `managedClusters.json`) is an error naming the field before any write, whether or not
/// `--location` is given: the checks never run against an empty region (which would skip the
/// capacity reservation group's region check), and no PUT is sent.
#[test]
fn a_cluster_without_a_location_is_an_error_before_any_write() {
    let arm = FakeArm::start();
    arm.edit_cluster("c1", |c| {
        c.as_object_mut().expect("cluster").remove("location");
    });
    let west =
        format!("/subscriptions/{SUB}/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/crgwest");
    let group = json!({"id": west, "name": "crgwest", "location": "westus",
        "properties": {"instanceView": {"capacityReservations": [{"name": "r1", "utilizationInfo": {"currentCapacity": 4, "virtualMachinesAllocated": []}}]}}});
    let res = json!({"name": "r1", "location": "westus", "sku": {"name": "Standard_NC24ads_A100_v4", "capacity": 4}});
    arm.with(|s| s.reservation_groups.insert(west.to_ascii_lowercase(), (group, vec![res])));
    for extra in [
        vec!["--location", "eastus"],
        vec!["--location", "eastus", "--capacity-reservation-group", &west],
        vec!["--location", "eastus", "--fallback-vm-size", "Standard_NC4as_T4_v3"],
        vec![],
    ] {
        let r = aksgpu_arm(&arm.base, &CreatePool::new().with(&extra).args(), &[]);
        assert_eq!(r.code, 1, "{extra:?}: {}", r.stderr);
        assert!(r.stderr.contains("cluster c1 has no location"), "{extra:?}: {}", r.stderr);
        assert_eq!(arm.count("PUT", "/"), 0, "{extra:?}: {:?}", arm.calls());
    }
}

/// A usage without `name.value` (`name` is required on `Usage` in `computeRPCommon.json`) is
/// an error naming the field: it is not passed over while looking for the family's counter,
/// and no pool is created.
#[test]
fn a_usage_without_a_name_is_an_error_not_passed_over() {
    let arm = FakeArm::start();
    arm.with(|s| {
        for u in &mut s.usages {
            if u["name"]["value"] == FAMILY {
                u["name"].as_object_mut().expect("name").remove("value");
            }
        }
    });
    let show = aksgpu_arm(&arm.base, &["quota", "show", "--location", "eastus", "--family", FAMILY, "-o", "json"], &[]);
    assert_eq!(show.code, 1, "{}", show.stdout);
    assert!(show.stderr.contains("a usage has no name.value"), "{}", show.stderr);
    let create = aksgpu_arm(&arm.base, &CreatePool::new().args(), &[]);
    assert_eq!(create.code, 1, "{}", create.stdout);
    assert!(create.stderr.contains("a usage has no name.value"), "{}", create.stderr);
    assert_eq!(arm.count("PUT", "/"), 0, "{:?}", arm.calls());
}
