
use builtin;
use str;

set edit:completion:arg-completer[aksgpu] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'aksgpu'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'aksgpu'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand catalog 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices'
            cand recommend 'Recommend VM sizes for a described workload (offline, from the bundled catalog)'
            cand create-pool 'Create a GPU node pool through ARM: validation, preflight, PUT, wait'
            cand wait 'Wait for a pool''s operation to finish (resume after --no-wait, a timeout or Ctrl-C)'
            cand register-feature 'Register an AKS preview feature and refresh the resource provider'
            cand feature 'Preview features that matter for GPUs'
            cand install-operator 'Install the NVIDIA GPU Operator with Helm through AKS runCommand'
            cand kaito 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model'
            cand manifest 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits'
            cand cost 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice'
            cand prices 'Live prices from the Azure Retail Prices API'
            cand cluster 'Stop or start a whole cluster (nodes stop costing while stopped)'
            cand cost-analysis 'AKS cost analysis (metricsProfile.costAnalysis)'
            cand pool 'Node pool operations'
            cand auth 'Credentials and subscription in use'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;catalog'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List GPU sizes'
            cand show 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
            cand diff 'Compare the catalog with the live resource SKUs of a location'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;catalog;list'= {
            cand --family 'Only this family: NC, NCC, ND, NV or NG'
            cand --gpu-model 'Only sizes with this GPU (e.g. A100, H100-NVL, T4)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand --include-retired 'Include retired sizes'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;catalog;show'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;catalog;diff'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand --location 'Azure region, e.g. eastus'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --fail-on-drift 'Exit 1 when the catalog lacks sizes or disagrees with Azure (for scheduled jobs)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;catalog;help'= {
            cand list 'List GPU sizes'
            cand show 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
            cand diff 'Compare the catalog with the live resource SKUs of a location'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;catalog;help;list'= {
        }
        &'aksgpu;catalog;help;show'= {
        }
        &'aksgpu;catalog;help;diff'= {
        }
        &'aksgpu;catalog;help;help'= {
        }
        &'aksgpu;recommend'= {
            cand --workload 'Kind of workload'
            cand --model 'Open model to size for (Hugging Face id or alias such as llama-3.1-8b)'
            cand --model-params 'Parameter count of a model not in the catalog (7B, 70b, 1.5T, 7e9)'
            cand --precision 'Weight precision [default: the model''s native precision, else bf16]'
            cand --context 'Tokens of context per sequence [default: 4096 for inference, 2048 for training]'
            cand --concurrency 'Concurrent sequences (inference) or micro-batch size (training) [default: 1]'
            cand --gpu-memory 'GPU memory per GPU, at least (16GiB, 24g, 80GB); --gpu-memory-max for an upper bound'
            cand --gpu-memory-min 'Minimum GPU memory per GPU'
            cand --gpu-memory-max 'Maximum GPU memory per GPU'
            cand --total-gpu-memory 'GPU memory of the whole VM, at least; --total-gpu-memory-max for an upper bound'
            cand --total-gpu-memory-min 'Minimum GPU memory of the whole VM'
            cand --total-gpu-memory-max 'Maximum GPU memory of the whole VM'
            cand --gpus 'GPUs per VM, exactly (fractions allowed: 0.5, 1/6)'
            cand --gpus-min 'Minimum GPUs per VM'
            cand --gpus-max 'Maximum GPUs per VM'
            cand --gpu-model 'GPU model (A100, H100, H100-NVL, T4, A10, MI300X…); repeat or comma-separate for several'
            cand --os 'Node operating system'
            cand --k8s-version 'Kubernetes version of the cluster (checked against the Windows GPU minimum)'
            cand --region 'Azure region for prices (e.g. eastus) [default: the cheapest bundled region per size]'
            cand --max-price-per-hour 'Highest acceptable USD per hour for the whole fit (all nodes)'
            cand --top 'How many recommendations to show'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand --spot 'Price with spot VMs'
            cand --mig 'Use multi-instance GPU slices (A100/H100/H200, Linux)'
            cand --include-retired 'Consider retired sizes'
            cand --include-unsupported 'Consider sizes AKS does not support for GPU pools'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;create-pool'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand --name 'Pool name: 1–12 lowercase letters/digits (≤ 6 on Windows)'
            cand --vm-size 'VM size (e.g. Standard_NC24ads_A100_v4)'
            cand --workload 'With --recommend: the workload'
            cand --model 'With --recommend: the model (alias or Hugging Face id)'
            cand --model-params 'With --recommend: parameter count of another model'
            cand --precision 'With --recommend: weight precision'
            cand --gpu-memory-min 'With --recommend: minimum GPU memory per GPU'
            cand --gpu-model 'With --recommend: GPU models to consider'
            cand --max-price-per-hour 'With --recommend: highest acceptable USD per hour'
            cand --count 'Node count (fixed size; with the autoscaler, the starting count)'
            cand --min-count 'Autoscaler minimum (with --max-count)'
            cand --max-count 'Autoscaler maximum (with --min-count)'
            cand --os 'Node OS'
            cand --os-sku 'OS SKU (Ubuntu, AzureLinux, Ubuntu2404, Windows2022, Windows2025, …)'
            cand --kubernetes-version 'Kubernetes version for the pool [default: the control plane''s]'
            cand --node-taints 'Taints, key=value:Effect; repeat or comma-separate; '''' for none [default: sku=gpu:NoSchedule]'
            cand --labels 'Node labels, key=value; repeat or comma-separate'
            cand --mig-profile 'MIG profile (MIG1g, MIG2g, MIG3g, MIG4g, MIG7g, or a slice name like 3g.40gb); fixed once created'
            cand --gpu-driver 'Let AKS install the GPU driver (install) or not (none, for the NVIDIA GPU Operator or AMD)'
            cand --spot-max-price 'Highest spot price in USD/hour, or -1 for up to the on-demand price'
            cand --eviction-policy 'Spot eviction policy: Delete or Deallocate'
            cand --zones 'Availability zones (1,2,3)'
            cand --max-pods 'Maximum pods per node (10–250)'
            cand --os-disk-type 'OS disk type: Managed or Ephemeral'
            cand --tags 'Azure tags, key=value; repeat or comma-separate'
            cand --location 'The cluster''s region, if known: preflight then reads everything at once'
            cand --mig-strategy 'With --install-operator: MIG strategy'
            cand --time-slicing 'With --install-operator: time slicing replicas'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --recommend 'Take the top `aksgpu recommend` result for --workload/--model/… instead of --vm-size'
            cand --spot 'Spot VMs (evictable, cheaper)'
            cand --register-features 'Register the preview features the pool needs (WindowsGPUPreview for Windows) first'
            cand --install-operator 'Install the NVIDIA GPU Operator after the pool (pool gets --gpu-driver none unless told otherwise; the autoscaler minimum must be at least 1)'
            cand --dry-run 'Print the exact requests and send no write (preflight reads run when credentials exist)'
            cand --no-wait 'Return once Azure accepts the request; resume with `aksgpu wait`'
            cand --abort-on-interrupt 'On Ctrl-C while waiting, also ask Azure to abort the pool operation (POST …/abort). Without it, Ctrl-C only stops waiting'
            cand --skip-preflight 'Skip the preflight reads (existence, SKU, quota checks)'
            cand -y 'Do not ask for confirmation (required without a terminal)'
            cand --yes 'Do not ask for confirmation (required without a terminal)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;wait'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand --name 'Pool name'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;register-feature'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand --namespace 'Resource provider namespace'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;feature'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Show the GPU-related preview flags and their state on the subscription'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;feature;list'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;feature;help'= {
            cand list 'Show the GPU-related preview flags and their state on the subscription'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;feature;help;list'= {
        }
        &'aksgpu;feature;help;help'= {
        }
        &'aksgpu;install-operator'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand --pool 'The GPU pool to serve [default: every GPU pool of the cluster]'
            cand --driver-mode 'Driver mode [default: follow the pool''s gpuProfile.driver]'
            cand --chart-version 'GPU Operator chart version [default: the pinned version]'
            cand --mig-strategy 'MIG strategy (single: `nvidia.com/gpu` per slice; mixed: `nvidia.com/mig-<slice>`)'
            cand --time-slicing 'Share each GPU between N pods by time slicing'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the values and the exact runCommand requests; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;kaito'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand enable 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
            cand workspace 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;kaito;enable'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the PUT body; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;kaito;workspace'= {
            cand --model 'Model (alias or Hugging Face id) with a KAITO preset'
            cand --instance-type 'VM size for the workspace [default: the cheapest KAITO-capable size that holds the model]'
            cand --name 'Workspace name (default: `workspace-<model>`)'
            cand --namespace 'Namespace'
            cand --region 'Region for prices when choosing the size'
            cand -o 'Output format (yaml by default)'
            cand --output 'Output format (yaml by default)'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;kaito;help'= {
            cand enable 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
            cand workspace 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;kaito;help;enable'= {
        }
        &'aksgpu;kaito;help;workspace'= {
        }
        &'aksgpu;kaito;help;help'= {
        }
        &'aksgpu;manifest'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand --pool 'Target pool (nodeSelector agentpool=NAME); with -g and --cluster its taints, size and MIG profile are read from Azure'
            cand --vm-size 'Target VM size (nodeSelector node.kubernetes.io/instance-type) instead of a pool'
            cand -g 'Resource group (with --pool, to read the pool)'
            cand --resource-group 'Resource group (with --pool, to read the pool)'
            cand --cluster 'Cluster (with --pool, to read the pool)'
            cand --taints 'Pool taints to tolerate [default: sku=gpu:NoSchedule]'
            cand --mig-profile 'MIG profile of the pool (mixed strategy: requests `nvidia.com/mig-<slice>`)'
            cand --os 'Node OS (windows requests microsoft.com/directx)'
            cand --gpus 'GPUs (or MIG slices) to request'
            cand --image 'Container image'
            cand --name 'Workload name'
            cand --namespace 'Namespace'
            cand --kind 'Kind of workload'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --spot 'The pool is spot (tolerate the spot taint)'
            cand --smoke-test 'Emit the CUDA smoke-test Job (nvidia-smi) for checking a new pool instead'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;cost'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand --vm-size 'VM size to price'
            cand --cluster 'Read every GPU pool of this cluster instead (with -g)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --count 'Fixed node count'
            cand --min-count 'Autoscaler minimum'
            cand --max-count 'Autoscaler maximum'
            cand --region 'Region [default: the cluster''s, or the cheapest bundled region]'
            cand --os 'Node OS'
            cand --hours-per-day 'Hours a day the nodes run'
            cand --need-gpu-memory 'The per-GPU memory the workload needs [default: what the size has]'
            cand --need-gpus 'The GPUs per node the workload needs [default: what the size has]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --spot 'Spot prices'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;prices'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand refresh 'Fetch current prices for the catalog''s GPU sizes into the local cache'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;prices;refresh'= {
            cand --region 'Only these regions (repeat or comma-separate) [default: every region]'
            cand --currency 'Currency (prices compare in USD; others are stored but not used for ranking)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr'
            cand --verbose 'Log requests to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;prices;help'= {
            cand refresh 'Fetch current prices for the catalog''s GPU sizes into the local cache'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;prices;help;refresh'= {
        }
        &'aksgpu;prices;help;help'= {
        }
        &'aksgpu;cluster'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand stop 'Stop the cluster (control plane and nodes)'
            cand start 'Start a stopped cluster'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;cluster;stop'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the request; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;cluster;start'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the request; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;cluster;help'= {
            cand stop 'Stop the cluster (control plane and nodes)'
            cand start 'Start a stopped cluster'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;cluster;help;stop'= {
        }
        &'aksgpu;cluster;help;start'= {
        }
        &'aksgpu;cluster;help;help'= {
        }
        &'aksgpu;cost-analysis'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand enable 'Enable AKS cost analysis (Standard or Premium tier)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;cost-analysis;enable'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the request; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;cost-analysis;help'= {
            cand enable 'Enable AKS cost analysis (Standard or Premium tier)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;cost-analysis;help;enable'= {
        }
        &'aksgpu;cost-analysis;help;help'= {
        }
        &'aksgpu;pool'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand scale 'Change a pool''s node count or autoscaler bounds (nothing else)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;pool;scale'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -g 'Resource group of the cluster'
            cand --resource-group 'Resource group of the cluster'
            cand --cluster 'AKS cluster name'
            cand --name 'Pool name'
            cand --count 'Fixed node count (pools without the autoscaler)'
            cand --min-count 'Autoscaler minimum (turns the autoscaler on)'
            cand --max-count 'Autoscaler maximum'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --dry-run 'Print the request; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;pool;help'= {
            cand scale 'Change a pool''s node count or autoscaler bounds (nothing else)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;pool;help;scale'= {
        }
        &'aksgpu;pool;help;help'= {
        }
        &'aksgpu;auth'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Which credential, endpoint and subscription would be used, and whether a token can be had'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;auth;status'= {
            cand --subscription 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]'
            cand --auth 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]'
            cand --cloud 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)'
            cand --timeout 'Give up waiting after this long (the Azure operation continues)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -v 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand --verbose 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;auth;help'= {
            cand status 'Which credential, endpoint and subscription would be used, and whether a token can be had'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;auth;help;status'= {
        }
        &'aksgpu;auth;help;help'= {
        }
        &'aksgpu;completions'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;man'= {
            cand --catalog 'Catalog directory whose YAML files replace the bundled ones (same relative paths)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aksgpu;help'= {
            cand catalog 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices'
            cand recommend 'Recommend VM sizes for a described workload (offline, from the bundled catalog)'
            cand create-pool 'Create a GPU node pool through ARM: validation, preflight, PUT, wait'
            cand wait 'Wait for a pool''s operation to finish (resume after --no-wait, a timeout or Ctrl-C)'
            cand register-feature 'Register an AKS preview feature and refresh the resource provider'
            cand feature 'Preview features that matter for GPUs'
            cand install-operator 'Install the NVIDIA GPU Operator with Helm through AKS runCommand'
            cand kaito 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model'
            cand manifest 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits'
            cand cost 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice'
            cand prices 'Live prices from the Azure Retail Prices API'
            cand cluster 'Stop or start a whole cluster (nodes stop costing while stopped)'
            cand cost-analysis 'AKS cost analysis (metricsProfile.costAnalysis)'
            cand pool 'Node pool operations'
            cand auth 'Credentials and subscription in use'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;help;catalog'= {
            cand list 'List GPU sizes'
            cand show 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
            cand diff 'Compare the catalog with the live resource SKUs of a location'
        }
        &'aksgpu;help;catalog;list'= {
        }
        &'aksgpu;help;catalog;show'= {
        }
        &'aksgpu;help;catalog;diff'= {
        }
        &'aksgpu;help;recommend'= {
        }
        &'aksgpu;help;create-pool'= {
        }
        &'aksgpu;help;wait'= {
        }
        &'aksgpu;help;register-feature'= {
        }
        &'aksgpu;help;feature'= {
            cand list 'Show the GPU-related preview flags and their state on the subscription'
        }
        &'aksgpu;help;feature;list'= {
        }
        &'aksgpu;help;install-operator'= {
        }
        &'aksgpu;help;kaito'= {
            cand enable 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster'
            cand workspace 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type'
        }
        &'aksgpu;help;kaito;enable'= {
        }
        &'aksgpu;help;kaito;workspace'= {
        }
        &'aksgpu;help;manifest'= {
        }
        &'aksgpu;help;cost'= {
        }
        &'aksgpu;help;prices'= {
            cand refresh 'Fetch current prices for the catalog''s GPU sizes into the local cache'
        }
        &'aksgpu;help;prices;refresh'= {
        }
        &'aksgpu;help;cluster'= {
            cand stop 'Stop the cluster (control plane and nodes)'
            cand start 'Start a stopped cluster'
        }
        &'aksgpu;help;cluster;stop'= {
        }
        &'aksgpu;help;cluster;start'= {
        }
        &'aksgpu;help;cost-analysis'= {
            cand enable 'Enable AKS cost analysis (Standard or Premium tier)'
        }
        &'aksgpu;help;cost-analysis;enable'= {
        }
        &'aksgpu;help;pool'= {
            cand scale 'Change a pool''s node count or autoscaler bounds (nothing else)'
        }
        &'aksgpu;help;pool;scale'= {
        }
        &'aksgpu;help;auth'= {
            cand status 'Which credential, endpoint and subscription would be used, and whether a token can be had'
        }
        &'aksgpu;help;auth;status'= {
        }
        &'aksgpu;help;completions'= {
        }
        &'aksgpu;help;man'= {
        }
        &'aksgpu;help;help'= {
        }
    ]
    $completions[$command]
}
