
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'aksgpu' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'aksgpu'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'aksgpu' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices')
            [CompletionResult]::new('recommend', 'recommend', [CompletionResultType]::ParameterValue, 'Recommend VM sizes for a described workload (offline, from the bundled catalog)')
            [CompletionResult]::new('create-pool', 'create-pool', [CompletionResultType]::ParameterValue, 'Create a GPU node pool through ARM: validation, preflight, PUT, wait')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait for a pool''s operation to finish (resume after --no-wait, a timeout or Ctrl-C)')
            [CompletionResult]::new('register-feature', 'register-feature', [CompletionResultType]::ParameterValue, 'Register an AKS preview feature and refresh the resource provider')
            [CompletionResult]::new('feature', 'feature', [CompletionResultType]::ParameterValue, 'Preview features that matter for GPUs')
            [CompletionResult]::new('install-operator', 'install-operator', [CompletionResultType]::ParameterValue, 'Install the NVIDIA GPU Operator with Helm through AKS runCommand')
            [CompletionResult]::new('kaito', 'kaito', [CompletionResultType]::ParameterValue, 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model')
            [CompletionResult]::new('manifest', 'manifest', [CompletionResultType]::ParameterValue, 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits')
            [CompletionResult]::new('cost', 'cost', [CompletionResultType]::ParameterValue, 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice')
            [CompletionResult]::new('prices', 'prices', [CompletionResultType]::ParameterValue, 'Live prices from the Azure Retail Prices API')
            [CompletionResult]::new('cluster', 'cluster', [CompletionResultType]::ParameterValue, 'Stop or start a whole cluster (nodes stop costing while stopped)')
            [CompletionResult]::new('cost-analysis', 'cost-analysis', [CompletionResultType]::ParameterValue, 'AKS cost analysis (metricsProfile.costAnalysis)')
            [CompletionResult]::new('pool', 'pool', [CompletionResultType]::ParameterValue, 'Node pool operations')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Credentials and subscription in use')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;catalog' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List GPU sizes')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the catalog with the live resource SKUs of a location')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;catalog;list' {
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'Only this family: NC, NCC, ND, NV or NG')
            [CompletionResult]::new('--gpu-model', '--gpu-model', [CompletionResultType]::ParameterName, 'Only sizes with this GPU (e.g. A100, H100-NVL, T4)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('--include-retired', '--include-retired', [CompletionResultType]::ParameterName, 'Include retired sizes')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;catalog;show' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;catalog;diff' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('--location', '--location', [CompletionResultType]::ParameterName, 'Azure region, e.g. eastus')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--fail-on-drift', '--fail-on-drift', [CompletionResultType]::ParameterName, 'Exit 1 when the catalog lacks sizes or disagrees with Azure (for scheduled jobs)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;catalog;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List GPU sizes')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the catalog with the live resource SKUs of a location')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;catalog;help;list' {
            break
        }
        'aksgpu;catalog;help;show' {
            break
        }
        'aksgpu;catalog;help;diff' {
            break
        }
        'aksgpu;catalog;help;help' {
            break
        }
        'aksgpu;recommend' {
            [CompletionResult]::new('--workload', '--workload', [CompletionResultType]::ParameterName, 'Kind of workload')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Open model to size for (Hugging Face id or alias such as llama-3.1-8b)')
            [CompletionResult]::new('--model-params', '--model-params', [CompletionResultType]::ParameterName, 'Parameter count of a model not in the catalog (7B, 70b, 1.5T, 7e9)')
            [CompletionResult]::new('--precision', '--precision', [CompletionResultType]::ParameterName, 'Weight precision [default: the model''s native precision, else bf16]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Tokens of context per sequence [default: 4096 for inference, 2048 for training]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Concurrent sequences (inference) or micro-batch size (training) [default: 1]')
            [CompletionResult]::new('--gpu-memory', '--gpu-memory', [CompletionResultType]::ParameterName, 'GPU memory per GPU, at least (16GiB, 24g, 80GB); --gpu-memory-max for an upper bound')
            [CompletionResult]::new('--gpu-memory-min', '--gpu-memory-min', [CompletionResultType]::ParameterName, 'Minimum GPU memory per GPU')
            [CompletionResult]::new('--gpu-memory-max', '--gpu-memory-max', [CompletionResultType]::ParameterName, 'Maximum GPU memory per GPU')
            [CompletionResult]::new('--total-gpu-memory', '--total-gpu-memory', [CompletionResultType]::ParameterName, 'GPU memory of the whole VM, at least; --total-gpu-memory-max for an upper bound')
            [CompletionResult]::new('--total-gpu-memory-min', '--total-gpu-memory-min', [CompletionResultType]::ParameterName, 'Minimum GPU memory of the whole VM')
            [CompletionResult]::new('--total-gpu-memory-max', '--total-gpu-memory-max', [CompletionResultType]::ParameterName, 'Maximum GPU memory of the whole VM')
            [CompletionResult]::new('--gpus', '--gpus', [CompletionResultType]::ParameterName, 'GPUs per VM, exactly (fractions allowed: 0.5, 1/6)')
            [CompletionResult]::new('--gpus-min', '--gpus-min', [CompletionResultType]::ParameterName, 'Minimum GPUs per VM')
            [CompletionResult]::new('--gpus-max', '--gpus-max', [CompletionResultType]::ParameterName, 'Maximum GPUs per VM')
            [CompletionResult]::new('--gpu-model', '--gpu-model', [CompletionResultType]::ParameterName, 'GPU model (A100, H100, H100-NVL, T4, A10, MI300X…); repeat or comma-separate for several')
            [CompletionResult]::new('--os', '--os', [CompletionResultType]::ParameterName, 'Node operating system')
            [CompletionResult]::new('--k8s-version', '--k8s-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster (checked against the Windows GPU minimum)')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'Azure region for prices (e.g. eastus) [default: the cheapest bundled region per size]')
            [CompletionResult]::new('--max-price-per-hour', '--max-price-per-hour', [CompletionResultType]::ParameterName, 'Highest acceptable USD per hour for the whole fit (all nodes)')
            [CompletionResult]::new('--top', '--top', [CompletionResultType]::ParameterName, 'How many recommendations to show')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('--spot', '--spot', [CompletionResultType]::ParameterName, 'Price with spot VMs')
            [CompletionResult]::new('--mig', '--mig', [CompletionResultType]::ParameterName, 'Use multi-instance GPU slices (A100/H100/H200, Linux)')
            [CompletionResult]::new('--include-retired', '--include-retired', [CompletionResultType]::ParameterName, 'Consider retired sizes')
            [CompletionResult]::new('--include-unsupported', '--include-unsupported', [CompletionResultType]::ParameterName, 'Consider sizes AKS does not support for GPU pools')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;create-pool' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Pool name: 1–12 lowercase letters/digits (≤ 6 on Windows)')
            [CompletionResult]::new('--vm-size', '--vm-size', [CompletionResultType]::ParameterName, 'VM size (e.g. Standard_NC24ads_A100_v4)')
            [CompletionResult]::new('--workload', '--workload', [CompletionResultType]::ParameterName, 'With --recommend: the workload')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'With --recommend: the model (alias or Hugging Face id)')
            [CompletionResult]::new('--model-params', '--model-params', [CompletionResultType]::ParameterName, 'With --recommend: parameter count of another model')
            [CompletionResult]::new('--precision', '--precision', [CompletionResultType]::ParameterName, 'With --recommend: weight precision')
            [CompletionResult]::new('--gpu-memory-min', '--gpu-memory-min', [CompletionResultType]::ParameterName, 'With --recommend: minimum GPU memory per GPU')
            [CompletionResult]::new('--gpu-model', '--gpu-model', [CompletionResultType]::ParameterName, 'With --recommend: GPU models to consider')
            [CompletionResult]::new('--max-price-per-hour', '--max-price-per-hour', [CompletionResultType]::ParameterName, 'With --recommend: highest acceptable USD per hour')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Node count (fixed size; with the autoscaler, the starting count)')
            [CompletionResult]::new('--min-count', '--min-count', [CompletionResultType]::ParameterName, 'Autoscaler minimum (with --max-count)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Autoscaler maximum (with --min-count)')
            [CompletionResult]::new('--os', '--os', [CompletionResultType]::ParameterName, 'Node OS')
            [CompletionResult]::new('--os-sku', '--os-sku', [CompletionResultType]::ParameterName, 'OS SKU (Ubuntu, AzureLinux, Ubuntu2404, Windows2022, Windows2025, …)')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'Kubernetes version for the pool [default: the control plane''s]')
            [CompletionResult]::new('--node-taints', '--node-taints', [CompletionResultType]::ParameterName, 'Taints, key=value:Effect; repeat or comma-separate; '''' for none [default: sku=gpu:NoSchedule]')
            [CompletionResult]::new('--labels', '--labels', [CompletionResultType]::ParameterName, 'Node labels, key=value; repeat or comma-separate')
            [CompletionResult]::new('--mig-profile', '--mig-profile', [CompletionResultType]::ParameterName, 'MIG profile (MIG1g, MIG2g, MIG3g, MIG4g, MIG7g, or a slice name like 3g.40gb); fixed once created')
            [CompletionResult]::new('--gpu-driver', '--gpu-driver', [CompletionResultType]::ParameterName, 'Let AKS install the GPU driver (install) or not (none, for the NVIDIA GPU Operator or AMD)')
            [CompletionResult]::new('--spot-max-price', '--spot-max-price', [CompletionResultType]::ParameterName, 'Highest spot price in USD/hour, or -1 for up to the on-demand price')
            [CompletionResult]::new('--eviction-policy', '--eviction-policy', [CompletionResultType]::ParameterName, 'Spot eviction policy: Delete or Deallocate')
            [CompletionResult]::new('--zones', '--zones', [CompletionResultType]::ParameterName, 'Availability zones (1,2,3)')
            [CompletionResult]::new('--max-pods', '--max-pods', [CompletionResultType]::ParameterName, 'Maximum pods per node (10–250)')
            [CompletionResult]::new('--os-disk-type', '--os-disk-type', [CompletionResultType]::ParameterName, 'OS disk type: Managed or Ephemeral')
            [CompletionResult]::new('--tags', '--tags', [CompletionResultType]::ParameterName, 'Azure tags, key=value; repeat or comma-separate')
            [CompletionResult]::new('--location', '--location', [CompletionResultType]::ParameterName, 'The cluster''s region, if known: preflight then reads everything at once')
            [CompletionResult]::new('--mig-strategy', '--mig-strategy', [CompletionResultType]::ParameterName, 'With --install-operator: MIG strategy')
            [CompletionResult]::new('--time-slicing', '--time-slicing', [CompletionResultType]::ParameterName, 'With --install-operator: time slicing replicas')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--recommend', '--recommend', [CompletionResultType]::ParameterName, 'Take the top `aksgpu recommend` result for --workload/--model/… instead of --vm-size')
            [CompletionResult]::new('--spot', '--spot', [CompletionResultType]::ParameterName, 'Spot VMs (evictable, cheaper)')
            [CompletionResult]::new('--register-features', '--register-features', [CompletionResultType]::ParameterName, 'Register the preview features the pool needs (WindowsGPUPreview for Windows) first')
            [CompletionResult]::new('--install-operator', '--install-operator', [CompletionResultType]::ParameterName, 'Install the NVIDIA GPU Operator after the pool (pool gets --gpu-driver none unless told otherwise; the autoscaler minimum must be at least 1)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the exact requests and send no write (preflight reads run when credentials exist)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'Return once Azure accepts the request; resume with `aksgpu wait`')
            [CompletionResult]::new('--abort-on-interrupt', '--abort-on-interrupt', [CompletionResultType]::ParameterName, 'On Ctrl-C while waiting, also ask Azure to abort the pool operation (POST …/abort). Without it, Ctrl-C only stops waiting')
            [CompletionResult]::new('--skip-preflight', '--skip-preflight', [CompletionResultType]::ParameterName, 'Skip the preflight reads (existence, SKU, quota checks)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;wait' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Pool name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;register-feature' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Resource provider namespace')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;feature' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the GPU-related preview flags and their state on the subscription')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;feature;list' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;feature;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the GPU-related preview flags and their state on the subscription')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;feature;help;list' {
            break
        }
        'aksgpu;feature;help;help' {
            break
        }
        'aksgpu;install-operator' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'The GPU pool to serve [default: every GPU pool of the cluster]')
            [CompletionResult]::new('--driver-mode', '--driver-mode', [CompletionResultType]::ParameterName, 'Driver mode [default: follow the pool''s gpuProfile.driver]')
            [CompletionResult]::new('--chart-version', '--chart-version', [CompletionResultType]::ParameterName, 'GPU Operator chart version [default: the pinned version]')
            [CompletionResult]::new('--mig-strategy', '--mig-strategy', [CompletionResultType]::ParameterName, 'MIG strategy (single: `nvidia.com/gpu` per slice; mixed: `nvidia.com/mig-<slice>`)')
            [CompletionResult]::new('--time-slicing', '--time-slicing', [CompletionResultType]::ParameterName, 'Share each GPU between N pods by time slicing')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the values and the exact runCommand requests; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;kaito' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster')
            [CompletionResult]::new('workspace', 'workspace', [CompletionResultType]::ParameterValue, 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;kaito;enable' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the PUT body; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;kaito;workspace' {
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Model (alias or Hugging Face id) with a KAITO preset')
            [CompletionResult]::new('--instance-type', '--instance-type', [CompletionResultType]::ParameterName, 'VM size for the workspace [default: the cheapest KAITO-capable size that holds the model]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Workspace name (default: `workspace-<model>`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'Region for prices when choosing the size')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (yaml by default)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (yaml by default)')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;kaito;help' {
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster')
            [CompletionResult]::new('workspace', 'workspace', [CompletionResultType]::ParameterValue, 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;kaito;help;enable' {
            break
        }
        'aksgpu;kaito;help;workspace' {
            break
        }
        'aksgpu;kaito;help;help' {
            break
        }
        'aksgpu;manifest' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Target pool (nodeSelector agentpool=NAME); with -g and --cluster its taints, size and MIG profile are read from Azure')
            [CompletionResult]::new('--vm-size', '--vm-size', [CompletionResultType]::ParameterName, 'Target VM size (nodeSelector node.kubernetes.io/instance-type) instead of a pool')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group (with --pool, to read the pool)')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group (with --pool, to read the pool)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Cluster (with --pool, to read the pool)')
            [CompletionResult]::new('--taints', '--taints', [CompletionResultType]::ParameterName, 'Pool taints to tolerate [default: sku=gpu:NoSchedule]')
            [CompletionResult]::new('--mig-profile', '--mig-profile', [CompletionResultType]::ParameterName, 'MIG profile of the pool (mixed strategy: requests `nvidia.com/mig-<slice>`)')
            [CompletionResult]::new('--os', '--os', [CompletionResultType]::ParameterName, 'Node OS (windows requests microsoft.com/directx)')
            [CompletionResult]::new('--gpus', '--gpus', [CompletionResultType]::ParameterName, 'GPUs (or MIG slices) to request')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Container image')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Workload name')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Kind of workload')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--spot', '--spot', [CompletionResultType]::ParameterName, 'The pool is spot (tolerate the spot taint)')
            [CompletionResult]::new('--smoke-test', '--smoke-test', [CompletionResultType]::ParameterName, 'Emit the CUDA smoke-test Job (nvidia-smi) for checking a new pool instead')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;cost' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('--vm-size', '--vm-size', [CompletionResultType]::ParameterName, 'VM size to price')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Read every GPU pool of this cluster instead (with -g)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Fixed node count')
            [CompletionResult]::new('--min-count', '--min-count', [CompletionResultType]::ParameterName, 'Autoscaler minimum')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Autoscaler maximum')
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'Region [default: the cluster''s, or the cheapest bundled region]')
            [CompletionResult]::new('--os', '--os', [CompletionResultType]::ParameterName, 'Node OS')
            [CompletionResult]::new('--hours-per-day', '--hours-per-day', [CompletionResultType]::ParameterName, 'Hours a day the nodes run')
            [CompletionResult]::new('--need-gpu-memory', '--need-gpu-memory', [CompletionResultType]::ParameterName, 'The per-GPU memory the workload needs [default: what the size has]')
            [CompletionResult]::new('--need-gpus', '--need-gpus', [CompletionResultType]::ParameterName, 'The GPUs per node the workload needs [default: what the size has]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--spot', '--spot', [CompletionResultType]::ParameterName, 'Spot prices')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;prices' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch current prices for the catalog''s GPU sizes into the local cache')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;prices;refresh' {
            [CompletionResult]::new('--region', '--region', [CompletionResultType]::ParameterName, 'Only these regions (repeat or comma-separate) [default: every region]')
            [CompletionResult]::new('--currency', '--currency', [CompletionResultType]::ParameterName, 'Currency (prices compare in USD; others are stored but not used for ranking)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;prices;help' {
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch current prices for the catalog''s GPU sizes into the local cache')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;prices;help;refresh' {
            break
        }
        'aksgpu;prices;help;help' {
            break
        }
        'aksgpu;cluster' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the cluster (control plane and nodes)')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a stopped cluster')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;cluster;stop' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the request; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;cluster;start' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the request; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;cluster;help' {
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the cluster (control plane and nodes)')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a stopped cluster')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;cluster;help;stop' {
            break
        }
        'aksgpu;cluster;help;start' {
            break
        }
        'aksgpu;cluster;help;help' {
            break
        }
        'aksgpu;cost-analysis' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable AKS cost analysis (Standard or Premium tier)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;cost-analysis;enable' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the request; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;cost-analysis;help' {
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable AKS cost analysis (Standard or Premium tier)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;cost-analysis;help;enable' {
            break
        }
        'aksgpu;cost-analysis;help;help' {
            break
        }
        'aksgpu;pool' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('scale', 'scale', [CompletionResultType]::ParameterValue, 'Change a pool''s node count or autoscaler bounds (nothing else)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;pool;scale' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group of the cluster')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'AKS cluster name')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Pool name')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Fixed node count (pools without the autoscaler)')
            [CompletionResult]::new('--min-count', '--min-count', [CompletionResultType]::ParameterName, 'Autoscaler minimum (turns the autoscaler on)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Autoscaler maximum')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the request; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;pool;help' {
            [CompletionResult]::new('scale', 'scale', [CompletionResultType]::ParameterValue, 'Change a pool''s node count or autoscaler bounds (nothing else)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;pool;help;scale' {
            break
        }
        'aksgpu;pool;help;help' {
            break
        }
        'aksgpu;auth' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which credential, endpoint and subscription would be used, and whether a token can be had')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;auth;status' {
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id [default: AZURE_SUBSCRIPTION_ID, then the az CLI default]')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Credential to use [default: AKSGPU_AUTH, else the first available in the documented order]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud (AKSGPU_ARM_ENDPOINT overrides the ARM URL)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting after this long (the Azure operation continues)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log requests to stderr (-v), with headers (-vv); tokens are always redacted')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which credential, endpoint and subscription would be used, and whether a token can be had')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;auth;help;status' {
            break
        }
        'aksgpu;auth;help;help' {
            break
        }
        'aksgpu;completions' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;man' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'Catalog directory whose YAML files replace the bundled ones (same relative paths)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aksgpu;help' {
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Browse the bundled GPU catalog: sizes, GPUs, AKS rules and prices')
            [CompletionResult]::new('recommend', 'recommend', [CompletionResultType]::ParameterValue, 'Recommend VM sizes for a described workload (offline, from the bundled catalog)')
            [CompletionResult]::new('create-pool', 'create-pool', [CompletionResultType]::ParameterValue, 'Create a GPU node pool through ARM: validation, preflight, PUT, wait')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait for a pool''s operation to finish (resume after --no-wait, a timeout or Ctrl-C)')
            [CompletionResult]::new('register-feature', 'register-feature', [CompletionResultType]::ParameterValue, 'Register an AKS preview feature and refresh the resource provider')
            [CompletionResult]::new('feature', 'feature', [CompletionResultType]::ParameterValue, 'Preview features that matter for GPUs')
            [CompletionResult]::new('install-operator', 'install-operator', [CompletionResultType]::ParameterValue, 'Install the NVIDIA GPU Operator with Helm through AKS runCommand')
            [CompletionResult]::new('kaito', 'kaito', [CompletionResultType]::ParameterValue, 'KAITO (AI toolchain operator): enable it, or write a Workspace for a model')
            [CompletionResult]::new('manifest', 'manifest', [CompletionResultType]::ParameterValue, 'Kubernetes YAML for a GPU workload on a pool: tolerations, node selector, GPU limits')
            [CompletionResult]::new('cost', 'cost', [CompletionResultType]::ParameterValue, 'What a GPU pool costs (by size, or every GPU pool of a cluster), with advice')
            [CompletionResult]::new('prices', 'prices', [CompletionResultType]::ParameterValue, 'Live prices from the Azure Retail Prices API')
            [CompletionResult]::new('cluster', 'cluster', [CompletionResultType]::ParameterValue, 'Stop or start a whole cluster (nodes stop costing while stopped)')
            [CompletionResult]::new('cost-analysis', 'cost-analysis', [CompletionResultType]::ParameterValue, 'AKS cost analysis (metricsProfile.costAnalysis)')
            [CompletionResult]::new('pool', 'pool', [CompletionResultType]::ParameterValue, 'Node pool operations')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Credentials and subscription in use')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;help;catalog' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List GPU sizes')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the catalog with the live resource SKUs of a location')
            break
        }
        'aksgpu;help;catalog;list' {
            break
        }
        'aksgpu;help;catalog;show' {
            break
        }
        'aksgpu;help;catalog;diff' {
            break
        }
        'aksgpu;help;recommend' {
            break
        }
        'aksgpu;help;create-pool' {
            break
        }
        'aksgpu;help;wait' {
            break
        }
        'aksgpu;help;register-feature' {
            break
        }
        'aksgpu;help;feature' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the GPU-related preview flags and their state on the subscription')
            break
        }
        'aksgpu;help;feature;list' {
            break
        }
        'aksgpu;help;install-operator' {
            break
        }
        'aksgpu;help;kaito' {
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable the KAITO add-on (and the OIDC issuer it needs) on a cluster')
            [CompletionResult]::new('workspace', 'workspace', [CompletionResultType]::ParameterValue, 'Write a kaito.sh/v1beta1 Workspace for a model, with a recommended instance type')
            break
        }
        'aksgpu;help;kaito;enable' {
            break
        }
        'aksgpu;help;kaito;workspace' {
            break
        }
        'aksgpu;help;manifest' {
            break
        }
        'aksgpu;help;cost' {
            break
        }
        'aksgpu;help;prices' {
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch current prices for the catalog''s GPU sizes into the local cache')
            break
        }
        'aksgpu;help;prices;refresh' {
            break
        }
        'aksgpu;help;cluster' {
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the cluster (control plane and nodes)')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start a stopped cluster')
            break
        }
        'aksgpu;help;cluster;stop' {
            break
        }
        'aksgpu;help;cluster;start' {
            break
        }
        'aksgpu;help;cost-analysis' {
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable AKS cost analysis (Standard or Premium tier)')
            break
        }
        'aksgpu;help;cost-analysis;enable' {
            break
        }
        'aksgpu;help;pool' {
            [CompletionResult]::new('scale', 'scale', [CompletionResultType]::ParameterValue, 'Change a pool''s node count or autoscaler bounds (nothing else)')
            break
        }
        'aksgpu;help;pool;scale' {
            break
        }
        'aksgpu;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which credential, endpoint and subscription would be used, and whether a token can be had')
            break
        }
        'aksgpu;help;auth;status' {
            break
        }
        'aksgpu;help;completions' {
            break
        }
        'aksgpu;help;man' {
            break
        }
        'aksgpu;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
