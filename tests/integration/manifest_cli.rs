//! `aksgpu manifest` through the binary: partial-GPU sizes and refused flag combinations.

use crate::support::aksgpu;

fn limits(v: &serde_json::Value) -> serde_json::Value {
    v["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"].clone()
}

/// A partial-GPU size (1/6 or 1/2 of an A10) exposes one `nvidia.com/gpu`: a one-GPU workload
/// is fine there, and asking for two is refused (exit 2) with the reason: a pod cannot span nodes.
#[test]
fn a_partial_gpu_size_exposes_one_gpu() {
    for size in ["Standard_NV6ads_A10_v5", "Standard_NC8ads_A10_v4"] {
        let r = aksgpu(&["manifest", "--vm-size", size, "-o", "json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(limits(&r.json()), serde_json::json!({"nvidia.com/gpu": 1}), "{size}");
        assert!(!r.stderr.contains("warning"), "{size}: {}", r.stderr);
        let two = aksgpu(&["manifest", "--vm-size", size, "--gpus", "2"]);
        assert_eq!(two.code, 2, "{}", two.stderr);
        assert!(two.stdout.is_empty(), "no manifest for an unschedulable count");
        assert!(
            two.stderr.contains("exposes 1 GPU(s) per node") && two.stderr.contains("seen as one GPU"),
            "{}",
            two.stderr
        );
    }
    let whole = aksgpu(&["manifest", "--vm-size", "Standard_NC48ads_A100_v4", "--gpus", "2"]);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    assert!(!whole.stderr.contains("warning"), "{}", whole.stderr);
    let three = aksgpu(&["manifest", "--vm-size", "Standard_NC48ads_A100_v4", "--gpus", "3"]);
    assert_eq!(three.code, 2, "{}", three.stderr);
    assert!(
        three.stderr.contains("exposes 2 GPU(s) per node") && three.stderr.contains("--gpus 2 or fewer"),
        "{}",
        three.stderr
    );
    // A MIG slice: 7 1g.10gb instances per A100 80GB.
    let mig = ["manifest", "--vm-size", "Standard_NC24ads_A100_v4", "--mig-profile", "MIG1g", "--gpus"];
    assert_eq!(aksgpu(&[&mig[..], &["7"]].concat()).code, 0);
    let eight = aksgpu(&[&mig[..], &["8"]].concat());
    assert_eq!(eight.code, 2, "{}", eight.stderr);
    assert!(eight.stderr.contains("exposes 7 1g.10gb MIG instance(s) per node"), "{}", eight.stderr);
}

#[test]
fn empty_pool_or_image_is_a_usage_error_naming_the_flag() {
    for (args, flag) in [
        (&["manifest", "--pool", ""][..], "--pool"),
        (&["manifest", "--pool", "  "][..], "--pool"),
        (&["manifest", "--pool", "gpu", "--image", ""][..], "--image"),
    ] {
        let r = aksgpu(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(flag) && r.stderr.contains("must not be empty"), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?} printed a manifest");
    }
}

#[test]
fn pool_and_vm_size_together_are_refused() {
    let r = aksgpu(&["manifest", "--pool", "gpu", "--vm-size", "Standard_NC24ads_A100_v4"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--pool") && r.stderr.contains("--vm-size"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

/// With --pool (and no cluster to read), a MIG slice is named directly; a MIGxg profile needs
/// the size and says how to give it.
#[test]
fn pool_with_a_mig_slice() {
    let r = aksgpu(&["manifest", "--pool", "gpu", "--mig-profile", "1g.10gb", "--kind", "pod", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["spec"]["nodeSelector"]["agentpool"], "gpu");
    assert_eq!(v["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/mig-1g.10gb"], 1);
    let r = aksgpu(&["manifest", "--pool", "gpu", "--mig-profile", "MIG1g"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--mig-profile MIG1g needs the VM size") && r.stderr.contains("--cluster"),
        "{}",
        r.stderr
    );
}
