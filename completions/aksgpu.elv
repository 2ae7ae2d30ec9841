
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
        &'aksgpu;catalog;help'= {
            cand list 'List GPU sizes'
            cand show 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;catalog;help;list'= {
        }
        &'aksgpu;catalog;help;show'= {
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
            cand --gpu-memory 'GPU memory per GPU, exactly (16GiB, 24g, 80GB)'
            cand --gpu-memory-min 'Minimum GPU memory per GPU'
            cand --gpu-memory-max 'Maximum GPU memory per GPU'
            cand --total-gpu-memory 'GPU memory of the whole VM, exactly'
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
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
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
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aksgpu;help;catalog'= {
            cand list 'List GPU sizes'
            cand show 'Show every fact about one size: GPUs, AKS rules, MIG slices, prices by region'
        }
        &'aksgpu;help;catalog;list'= {
        }
        &'aksgpu;help;catalog;show'= {
        }
        &'aksgpu;help;recommend'= {
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
