# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_aksgpu_global_optspecs
    string join \n catalog= h/help V/version
end

function __fish_aksgpu_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_aksgpu_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_aksgpu_using_subcommand
    set -l cmd (__fish_aksgpu_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c aksgpu -n "__fish_aksgpu_needs_command" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_needs_command" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "catalog" -d 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "recommend" -d 'Recommend VM sizes for a described workload (offline, from the bundled catalog)'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "create-pool" -d 'Create a GPU node pool through ARM: validation, preflight, PUT, wait'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "wait" -d 'Wait for a pool\'s operation to finish (resume after --no-wait, a timeout or Ctrl-C)'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "register-feature" -d 'Register an AKS preview feature and refresh the resource provider'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "feature" -d 'Preview features that matter for GPUs'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "install-operator" -d 'Install the NVIDIA GPU Operator with Helm through AKS runCommand'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "kaito" -d 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "manifest" -d 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "cost" -d 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "prices" -d 'Live prices from the Azure Retail Prices API'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "cluster" -d 'Stop or start a whole cluster (nodes stop costing while stopped)'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "cost-analysis" -d 'AKS cost analysis (metricsProfile.costAnalysis)'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "pool" -d 'Node pool operations'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "auth" -d 'Credentials and subscription in use'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c aksgpu -n "__fish_aksgpu_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -f -a "list" -d 'List GPU sizes'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -f -a "show" -d 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -f -a "diff" -d 'Compare the catalog with the live resource SKUs of a location'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and not __fish_seen_subcommand_from list show diff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -l family -d 'Only this family: NC, NCC, ND, NV or NG' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -l gpu-model -d 'Only sizes with this GPU (e.g. A100, H100-NVL, T4)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t''
wide\t''
json\t''
yaml\t''
names\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -l include-retired -d 'Include retired sizes'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from show" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l location -d 'Azure region, e.g. eastus' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -l fail-on-drift -d 'Exit 1 when the catalog lacks sizes or disagrees with Azure (for scheduled jobs)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from help" -f -a "list" -d 'List GPU sizes'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Compare the catalog with the live resource SKUs of a location'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand catalog; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l workload -d 'Kind of workload' -r -f -a "training\t''
fine-tuning\t''
inference\t''
vdi\t''
video\t''
hpc\t''
data-science\t''
cv\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l model -d 'Open model to size for (Hugging Face id or alias such as llama-3.1-8b)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l model-params -d 'Parameter count of a model not in the catalog (7B, 70b, 1.5T, 7e9)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l precision -d 'Weight precision [default: the model\'s native precision, else bf16]' -r -f -a "fp32\t''
bf16\t''
fp16\t''
fp8\t''
int8\t''
int4\t''
mxfp4\t'OCP microscaling FP4: 32 four-bit values share one 8-bit scale (4.25 bits per weight)'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l context -d 'Tokens of context per sequence [default: 4096 for inference, 2048 for training]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l concurrency -d 'Concurrent sequences (inference) or micro-batch size (training) [default: 1]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpu-memory -d 'GPU memory per GPU, at least (16GiB, 24g, 80GB); --gpu-memory-max for an upper bound' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpu-memory-min -d 'Minimum GPU memory per GPU' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpu-memory-max -d 'Maximum GPU memory per GPU' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l total-gpu-memory -d 'GPU memory of the whole VM, at least; --total-gpu-memory-max for an upper bound' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l total-gpu-memory-min -d 'Minimum GPU memory of the whole VM' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l total-gpu-memory-max -d 'Maximum GPU memory of the whole VM' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpus -d 'GPUs per VM, exactly (fractions allowed: 0.5, 1/6)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpus-min -d 'Minimum GPUs per VM' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpus-max -d 'Maximum GPUs per VM' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l gpu-model -d 'GPU model (A100, H100, H100-NVL, T4, A10, MI300X…); repeat or comma-separate for several' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l os -d 'Node operating system' -r -f -a "linux\t''
windows\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l k8s-version -d 'Kubernetes version of the cluster (checked against the Windows GPU minimum)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l region -d 'Azure region for prices (e.g. eastus) [default: the cheapest bundled region per size]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l max-price-per-hour -d 'Highest acceptable USD per hour for the whole fit (all nodes)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l top -d 'How many recommendations to show' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l spot -d 'Price with spot VMs'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l mig -d 'Use multi-instance GPU slices (A100/H100/H200, Linux)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l include-retired -d 'Consider retired sizes'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -l include-unsupported -d 'Consider sizes AKS does not support for GPU pools'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand recommend" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l name -d 'Pool name: 1–12 lowercase letters/digits (≤ 6 on Windows)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l vm-size -d 'VM size (e.g. Standard_NC24ads_A100_v4)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l workload -d 'With --recommend: the workload' -r -f -a "training\t''
fine-tuning\t''
inference\t''
vdi\t''
video\t''
hpc\t''
data-science\t''
cv\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l model -d 'With --recommend: the model (alias or Hugging Face id)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l model-params -d 'With --recommend: parameter count of another model' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l precision -d 'With --recommend: weight precision' -r -f -a "fp32\t''
bf16\t''
fp16\t''
fp8\t''
int8\t''
int4\t''
mxfp4\t'OCP microscaling FP4: 32 four-bit values share one 8-bit scale (4.25 bits per weight)'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l gpu-memory-min -d 'With --recommend: minimum GPU memory per GPU' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l gpu-model -d 'With --recommend: GPU models to consider' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l max-price-per-hour -d 'With --recommend: highest acceptable USD per hour' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l count -d 'Node count (fixed size; with the autoscaler, the starting count)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l min-count -d 'Autoscaler minimum (with --max-count)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l max-count -d 'Autoscaler maximum (with --min-count)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l os -d 'Node OS' -r -f -a "linux\t''
windows\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l os-sku -d 'OS SKU (Ubuntu, AzureLinux, Ubuntu2404, Windows2022, Windows2025, …)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l kubernetes-version -d 'Kubernetes version for the pool [default: the control plane\'s]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l node-taints -d 'Taints, key=value:Effect; repeat or comma-separate; \'\' for none [default: sku=gpu:NoSchedule]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l labels -d 'Node labels, key=value; repeat or comma-separate' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l mig-profile -d 'MIG profile (MIG1g, MIG2g, MIG3g, MIG4g, MIG7g, or a slice name like 3g.40gb); fixed once created' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l gpu-driver -d 'Let AKS install the GPU driver (install) or not (none, for the NVIDIA GPU Operator or AMD)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l spot-max-price -d 'Highest spot price in USD/hour, or -1 for up to the on-demand price' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l eviction-policy -d 'Spot eviction policy: Delete or Deallocate' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l zones -d 'Availability zones (1,2,3)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l max-pods -d 'Maximum pods per node (10–250)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l os-disk-type -d 'OS disk type: Managed or Ephemeral' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l tags -d 'Azure tags, key=value; repeat or comma-separate' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l location -d 'The cluster\'s region, if known: preflight then reads everything at once' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l mig-strategy -d 'With --install-operator: MIG strategy' -r -f -a "single\t''
mixed\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l time-slicing -d 'With --install-operator: time slicing replicas' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l recommend -d 'Take the top `aksgpu recommend` result for --workload/--model/… instead of --vm-size'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l spot -d 'Spot VMs (evictable, cheaper)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l register-features -d 'Register the preview features the pool needs (WindowsGPUPreview for Windows) first'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l install-operator -d 'Install the NVIDIA GPU Operator after the pool (pool gets --gpu-driver none unless told otherwise; the autoscaler minimum must be at least 1)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l dry-run -d 'Print the exact requests and send no write (preflight reads run when credentials exist)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l no-wait -d 'Return once Azure accepts the request; resume with `aksgpu wait`'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l abort-on-interrupt -d 'On Ctrl-C while waiting, also ask Azure to abort the pool operation (POST …/abort). Without it, Ctrl-C only stops waiting'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -l skip-preflight -d 'Skip the preflight reads (existence, SKU, quota checks)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s y -l yes -d 'Do not ask for confirmation (required without a terminal)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand create-pool" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l name -d 'Pool name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand wait" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l namespace -d 'Resource provider namespace' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand register-feature" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and not __fish_seen_subcommand_from list help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'Show the GPU-related preview flags and their state on the subscription'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from help" -f -a "list" -d 'Show the GPU-related preview flags and their state on the subscription'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand feature; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l pool -d 'The GPU pool to serve [default: every GPU pool of the cluster]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l driver-mode -d 'Driver mode [default: follow the pool\'s gpuProfile.driver]' -r -f -a "aks\t'AKS installs it (pool gpuProfile.driver Install): operator driver and toolkit off'
operator\t'The operator installs it (pool created with --gpu-driver none)'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l chart-version -d 'GPU Operator chart version [default: the pinned version]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l mig-strategy -d 'MIG strategy (single: `nvidia.com/gpu` per slice; mixed: `nvidia.com/mig-<slice>`)' -r -f -a "single\t''
mixed\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l time-slicing -d 'Share each GPU between N pods by time slicing' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -l dry-run -d 'Print the values and the exact runCommand requests; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand install-operator" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -f -a "enable" -d 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -f -a "workspace" -d 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and not __fish_seen_subcommand_from enable workspace help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -l dry-run -d 'Print the PUT body; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l model -d 'Model (alias or Hugging Face id) with a KAITO preset' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l instance-type -d 'VM size for the workspace [default: the cheapest KAITO-capable size that holds the model]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l name -d 'Workspace name (default: `workspace-<model>`)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l namespace -d 'Namespace' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l region -d 'Region for prices when choosing the size' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -s o -l output -d 'Output format (yaml by default)' -r -f -a "yaml\t''
json\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from workspace" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from help" -f -a "enable" -d 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from help" -f -a "workspace" -d 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand kaito; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l pool -d 'Target pool (nodeSelector agentpool=NAME); with -g and --cluster its taints, size and MIG profile are read from Azure' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l vm-size -d 'Target VM size (nodeSelector node.kubernetes.io/instance-type) instead of a pool' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -s g -l resource-group -d 'Resource group (with --pool, to read the pool)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l cluster -d 'Cluster (with --pool, to read the pool)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l taints -d 'Pool taints to tolerate [default: sku=gpu:NoSchedule]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l mig-profile -d 'MIG profile of the pool (mixed strategy: requests `nvidia.com/mig-<slice>`)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l os -d 'Node OS (windows requests microsoft.com/directx)' -r -f -a "linux\t''
windows\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l gpus -d 'GPUs (or MIG slices) to request' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l image -d 'Container image' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l name -d 'Workload name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l namespace -d 'Namespace' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l kind -d 'Kind of workload' -r -f -a "pod\t''
deployment\t''
job\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -s o -l output -d 'Output format' -r -f -a "yaml\t''
json\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l spot -d 'The pool is spot (tolerate the spot taint)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -l smoke-test -d 'Emit the CUDA smoke-test Job (nvidia-smi) for checking a new pool instead'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand manifest" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l vm-size -d 'VM size to price' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l cluster -d 'Read every GPU pool of this cluster instead (with -g)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l count -d 'Fixed node count' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l min-count -d 'Autoscaler minimum' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l max-count -d 'Autoscaler maximum' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l region -d 'Region [default: the cluster\'s, or the cheapest bundled region]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l os -d 'Node OS' -r -f -a "linux\t''
windows\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l hours-per-day -d 'Hours a day the nodes run' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l need-gpu-memory -d 'The per-GPU memory the workload needs [default: what the size has]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l need-gpus -d 'The GPUs per node the workload needs [default: what the size has]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -l spot -d 'Spot prices'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and not __fish_seen_subcommand_from refresh help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and not __fish_seen_subcommand_from refresh help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and not __fish_seen_subcommand_from refresh help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and not __fish_seen_subcommand_from refresh help" -f -a "refresh" -d 'Fetch current prices for the catalog\'s GPU sizes into the local cache'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and not __fish_seen_subcommand_from refresh help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -l region -d 'Only these regions (repeat or comma-separate) [default: every region]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -l currency -d 'Currency (prices compare in USD; others are stored but not used for ranking)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -s v -l verbose -d 'Log requests to stderr'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from refresh" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from help" -f -a "refresh" -d 'Fetch current prices for the catalog\'s GPU sizes into the local cache'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand prices; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -f -a "stop" -d 'Stop the cluster (control plane and nodes)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -f -a "start" -d 'Start a stopped cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and not __fish_seen_subcommand_from stop start help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -l dry-run -d 'Print the request; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from stop" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -l dry-run -d 'Print the request; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop the cluster (control plane and nodes)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from help" -f -a "start" -d 'Start a stopped cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cluster; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and not __fish_seen_subcommand_from enable help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and not __fish_seen_subcommand_from enable help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and not __fish_seen_subcommand_from enable help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and not __fish_seen_subcommand_from enable help" -f -a "enable" -d 'Enable AKS cost analysis (Standard or Premium tier)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and not __fish_seen_subcommand_from enable help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -l dry-run -d 'Print the request; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from enable" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from help" -f -a "enable" -d 'Enable AKS cost analysis (Standard or Premium tier)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand cost-analysis; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and not __fish_seen_subcommand_from scale help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and not __fish_seen_subcommand_from scale help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and not __fish_seen_subcommand_from scale help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and not __fish_seen_subcommand_from scale help" -f -a "scale" -d 'Change a pool\'s node count or autoscaler bounds (nothing else)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and not __fish_seen_subcommand_from scale help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -s g -l resource-group -d 'Resource group of the cluster' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l cluster -d 'AKS cluster name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l name -d 'Pool name' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l count -d 'Fixed node count (pools without the autoscaler)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l min-count -d 'Autoscaler minimum (turns the autoscaler on)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l max-count -d 'Autoscaler maximum' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -l dry-run -d 'Print the request; change nothing'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from scale" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "scale" -d 'Change a pool\'s node count or autoscaler bounds (nothing else)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand pool; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "status" -d 'Which credential, endpoint and subscription would be used, and whether a token can be had'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -l subscription -d 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -l auth -d 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]' -r -f -a "access-token\t'`AKSGPU_ACCESS_TOKEN`'
service-principal\t'`AZURE_TENANT_ID` + `AZURE_CLIENT_ID` + `AZURE_CLIENT_SECRET`'
workload-identity\t'`AZURE_FEDERATED_TOKEN_FILE` (+ client and tenant ids)'
managed-identity\t'Managed identity (IMDS, App Service, Arc)'
developer-tools\t'az CLI, then azd'"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -l cloud -d 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)' -r -f -a "AzureCloud\t''
AzureChinaCloud\t''
AzureUSGovernment\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -l timeout -d 'Give up waiting after this long (the Azure operation continues)' -r
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''
yaml\t''"
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Which credential, endpoint and subscription would be used, and whether a token can be had'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand completions" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand completions" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand completions" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand man" -l catalog -d 'Catalog directory whose YAML files replace the bundled ones (same relative paths)' -r -F
complete -c aksgpu -n "__fish_aksgpu_using_subcommand man" -s h -l help -d 'Print help'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand man" -s V -l version -d 'Print version'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "catalog" -d 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "recommend" -d 'Recommend VM sizes for a described workload (offline, from the bundled catalog)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "create-pool" -d 'Create a GPU node pool through ARM: validation, preflight, PUT, wait'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "wait" -d 'Wait for a pool\'s operation to finish (resume after --no-wait, a timeout or Ctrl-C)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "register-feature" -d 'Register an AKS preview feature and refresh the resource provider'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "feature" -d 'Preview features that matter for GPUs'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "install-operator" -d 'Install the NVIDIA GPU Operator with Helm through AKS runCommand'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "kaito" -d 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "manifest" -d 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "cost" -d 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "prices" -d 'Live prices from the Azure Retail Prices API'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "cluster" -d 'Stop or start a whole cluster (nodes stop costing while stopped)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "cost-analysis" -d 'AKS cost analysis (metricsProfile.costAnalysis)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "pool" -d 'Node pool operations'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "auth" -d 'Credentials and subscription in use'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "man" -d 'Print the man page (roff)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and not __fish_seen_subcommand_from catalog recommend create-pool wait register-feature feature install-operator kaito manifest cost prices cluster cost-analysis pool auth completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from catalog" -f -a "list" -d 'List GPU sizes'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from catalog" -f -a "show" -d 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from catalog" -f -a "diff" -d 'Compare the catalog with the live resource SKUs of a location'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from feature" -f -a "list" -d 'Show the GPU-related preview flags and their state on the subscription'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from kaito" -f -a "enable" -d 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from kaito" -f -a "workspace" -d 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from prices" -f -a "refresh" -d 'Fetch current prices for the catalog\'s GPU sizes into the local cache'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from cluster" -f -a "stop" -d 'Stop the cluster (control plane and nodes)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from cluster" -f -a "start" -d 'Start a stopped cluster'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from cost-analysis" -f -a "enable" -d 'Enable AKS cost analysis (Standard or Premium tier)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from pool" -f -a "scale" -d 'Change a pool\'s node count or autoscaler bounds (nothing else)'
complete -c aksgpu -n "__fish_aksgpu_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Which credential, endpoint and subscription would be used, and whether a token can be had'
