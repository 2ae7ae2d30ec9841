
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
        'aksgpu;catalog;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List GPU sizes')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;catalog;help;list' {
            break
        }
        'aksgpu;catalog;help;show' {
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
            [CompletionResult]::new('--gpu-memory', '--gpu-memory', [CompletionResultType]::ParameterName, 'GPU memory per GPU, exactly (16GiB, 24g, 80GB)')
            [CompletionResult]::new('--gpu-memory-min', '--gpu-memory-min', [CompletionResultType]::ParameterName, 'Minimum GPU memory per GPU')
            [CompletionResult]::new('--gpu-memory-max', '--gpu-memory-max', [CompletionResultType]::ParameterName, 'Maximum GPU memory per GPU')
            [CompletionResult]::new('--total-gpu-memory', '--total-gpu-memory', [CompletionResultType]::ParameterName, 'GPU memory of the whole VM, exactly')
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
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aksgpu;help;catalog' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List GPU sizes')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region')
            break
        }
        'aksgpu;help;catalog;list' {
            break
        }
        'aksgpu;help;catalog;show' {
            break
        }
        'aksgpu;help;recommend' {
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
