//! The interactive wizard for `aksgpu recommend` with no requirement flags (terminals only).
//!
//! It asks the few questions that matter and fills a `RecommendArgs`, so the answer goes
//! through exactly the same validation and recommender as flags would. It starts from the
//! flags given on the command line and never asks again for one of them (`--os`,
//! `--k8s-version`, `--spot`); the others (`--precision`, `--max-price-per-hour`, `--region`,
//! …) are kept as given.
//!
//! Ctrl-C: dialoguer's selection prompts hide the cursor, and console turns the Ctrl-C it reads
//! in raw mode into a SIGINT, whose default action would end the process with the cursor
//! hidden. While the questions are asked, [`catch_interrupt`] handles SIGINT instead: it shows
//! the cursor and exits 130. [`prompt_error`] does the same for a prompt that returns the
//! interruption as an error.

use dialoguer::{theme::SimpleTheme, Confirm, Input, Select};

use crate::catalog::Catalog;
use crate::cli::RecommendArgs;
use crate::error::Error;
use crate::recommend::{Os, Workload};
use crate::units;

const WORKLOADS: [(Workload, &str); 8] = [
    (Workload::Inference, "inference — serve a model"),
    (Workload::FineTuning, "fine-tuning — LoRA/QLoRA on a model"),
    (Workload::Training, "training — full training"),
    (Workload::DataScience, "data-science — RAPIDS, notebooks"),
    (Workload::Cv, "cv — computer vision"),
    (Workload::Video, "video — hardware encode/transcode"),
    (Workload::Vdi, "vdi — virtual desktops, visualisation"),
    (Workload::Hpc, "hpc — multi-node with InfiniBand"),
];

/// While it lives, Ctrl-C shows the cursor again and exits 130 at once, whether it comes from
/// console (which reads ^C in raw mode and raises SIGINT) or from the terminal between two
/// prompts. Dropping it stops the watcher, so Ctrl-C means what the command that follows says
/// (stop waiting, abort…). The SIGINT handler tokio installs stays for the life of the process.
pub struct InterruptGuard {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Start watching for Ctrl-C; returns once the handler is installed.
pub fn catch_interrupt() -> InterruptGuard {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (ready, is_ready) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_io().build() else {
            let _ = ready.send(());
            return;
        };
        rt.block_on(async move {
            #[cfg(unix)]
            let Ok(mut sig) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()) else {
                let _ = ready.send(());
                return;
            };
            let _ = ready.send(());
            #[cfg(unix)]
            let interrupted = sig.recv();
            #[cfg(not(unix))]
            let interrupted = tokio::signal::ctrl_c();
            tokio::select! {
                _ = interrupted => {
                    let _ = write_stderr(b"\x1b[?25h\nerror: interrupted; nothing was changed\n");
                    std::process::exit(i32::from(crate::error::exit::INTERRUPTED));
                }
                _ = stopped => {}
            }
        });
    });
    let _ = is_ready.recv();
    InterruptGuard { stop: Some(stop), thread: Some(thread) }
}

impl Drop for InterruptGuard {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A failed prompt as an error: Ctrl-C is `Interrupted` (exit 130) with the cursor shown
/// again; anything else is a usage error naming what was being asked.
pub fn prompt_error(what: &str) -> impl FnOnce(dialoguer::Error) -> Error + '_ {
    move |e| {
        let dialoguer::Error::IO(io) = &e;
        // dialoguer hides the cursor in selection prompts and returns early on errors.
        let _ = console_show_cursor();
        if io.kind() == std::io::ErrorKind::Interrupted {
            // The prompt's line is left open: end it before the error.
            let _ = write_stderr(b"\n");
            Error::Interrupted { message: "interrupted; nothing was changed".into(), hints: vec![] }
        } else {
            Error::usage(format!("{what}: {e}"), None)
        }
    }
}

/// Show the terminal cursor (DECTCEM), on stderr where dialoguer draws.
fn console_show_cursor() -> std::io::Result<()> {
    write_stderr(b"\x1b[?25h")
}

/// Write to stderr when it is a terminal (the escape sequences mean nothing elsewhere).
fn write_stderr(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::{IsTerminal, Write};
    let mut err = std::io::stderr();
    if err.is_terminal() {
        err.write_all(bytes)?;
        err.flush()?;
    }
    Ok(())
}

/// What the wizard asked: the filled-in `recommend` arguments, and the pool the answer is for.
#[derive(Debug, Clone)]
pub struct Answers {
    pub args: RecommendArgs,
    /// An AKS-managed GPU pool (asked on Linux only): it maps into the pool request's
    /// `managed_gpu`, as `create-pool --managed-gpu` and a GpuConfig's `managedGpu: true` do.
    pub managed_gpu: bool,
}

/// Ask the questions on the terminal; returns the filled-in arguments (the flags in `base`
/// kept).
pub fn ask(catalog: &Catalog, base: &RecommendArgs) -> Result<Answers, Error> {
    let _interrupt = catch_interrupt();
    let theme = SimpleTheme;
    let labels: Vec<&str> = WORKLOADS.iter().map(|w| w.1).collect();
    let i = Select::with_theme(&theme)
        .with_prompt("What will the GPUs run?")
        .items(&labels)
        .default(0)
        .interact()
        .map_err(prompt_error("reading the workload"))?;
    let workload = WORKLOADS[i].0;
    let mut args = base.clone();
    args.need.workload = Some(workload);
    if matches!(workload, Workload::Inference | Workload::FineTuning | Workload::Training) {
        ask_model(catalog, &theme, &mut args)?;
    }
    let has_model = args.need.model.is_some() || args.need.model_params.is_some();
    if !has_model {
        ask_memory(&theme, &mut args)?;
    } else if workload == Workload::Inference {
        ask_serving(&theme, &mut args)?;
    }
    if args.os.is_none() {
        let os = Select::with_theme(&theme)
            .with_prompt("Node OS")
            .items(["linux", "windows"])
            .default(usize::from(workload == Workload::Vdi))
            .interact()
            .map_err(prompt_error("reading the OS"))?;
        args.os = Some(if os == 1 { Os::Windows } else { Os::Linux });
    }
    if args.os == Some(Os::Windows) && args.k8s_version.is_none() {
        let v: String = Input::with_theme(&theme)
            .with_prompt("Cluster Kubernetes version (e.g. 1.30)")
            .validate_with(|s: &String| crate::catalog::KubeVersion::parse(s).map(|_| ()))
            .interact_text()
            .map_err(prompt_error("reading the Kubernetes version"))?;
        // Checked by validate_with just above.
        args.k8s_version = crate::catalog::KubeVersion::parse(&v).ok();
    }
    if !args.spot {
        args.spot = Confirm::with_theme(&theme)
            .with_prompt("Use spot VMs (cheaper, can be evicted)?")
            .default(false)
            .interact()
            .map_err(prompt_error("reading the spot choice"))?;
    }
    // AKS-managed GPU pools are NVIDIA on Linux (the catalog's managed-gpu-nvidia-linux rule):
    // not asked for Windows, and the answer applies to the NVIDIA sizes.
    let managed_gpu = args.os == Some(Os::Linux)
        && Confirm::with_theme(&theme)
            .with_prompt("Let AKS install and keep the NVIDIA driver, device plugin and DCGM (an AKS-managed GPU pool; NVIDIA sizes)?")
            .default(false)
            .interact()
            .map_err(prompt_error("reading the managed GPU choice"))?;
    Ok(Answers { args, managed_gpu })
}

/// The model: a catalog alias or id, a parameter count, or nothing.
fn ask_model(catalog: &Catalog, theme: &SimpleTheme, args: &mut RecommendArgs) -> Result<(), Error> {
    let aliases: Vec<&str> = catalog.models.iter().filter_map(|m| m.aliases.first().map(String::as_str)).collect();
    let model: String = Input::with_theme(theme)
        .with_prompt(format!(
            "Model (alias such as {}, a parameter count like 13B, or empty)",
            aliases.first().copied().unwrap_or("llama-3.1-8b")
        ))
        .allow_empty(true)
        .validate_with(|s: &String| -> Result<(), String> {
            let t = s.trim();
            if t.is_empty() || catalog.model(t).is_some() || units::parse_params(t).is_ok() {
                Ok(())
            } else {
                Err(format!("unknown model; known: {}", aliases.join(", ")))
            }
        })
        .interact_text()
        .map_err(prompt_error("reading the model"))?;
    let model = model.trim();
    if catalog.model(model).is_some() {
        args.need.model = Some(model.to_owned());
    } else if !model.is_empty() {
        args.need.model_params = units::parse_params(model).ok();
    }
    Ok(())
}

/// The minimum GPU memory per GPU, when no model says it.
fn ask_memory(theme: &SimpleTheme, args: &mut RecommendArgs) -> Result<(), Error> {
    let mem: String = Input::with_theme(theme)
        .with_prompt("Minimum GPU memory per GPU (e.g. 16GiB, or empty for any)")
        .allow_empty(true)
        .validate_with(|s: &String| -> Result<(), String> {
            if s.trim().is_empty() {
                Ok(())
            } else {
                units::parse_memory(s).map(|_| ())
            }
        })
        .interact_text()
        .map_err(prompt_error("reading the GPU memory"))?;
    if !mem.trim().is_empty() {
        args.need.gpu_memory_min = units::parse_memory(&mem).ok();
    }
    Ok(())
}

/// The service level for inference: concurrent users, per-user speed and time to first token,
/// each optional (Enter skips) and not asked when its flag was given.
fn ask_serving(theme: &SimpleTheme, args: &mut RecommendArgs) -> Result<(), Error> {
    let need = &mut args.need;
    if need.concurrency.is_none() {
        need.concurrency = ask_optional(
            theme,
            "Concurrent users (sequences in flight; Enter to skip)",
            "reading the users",
            units::parse_count,
        )?;
    }
    if need.min_tokens_per_second_per_user.is_none() {
        need.min_tokens_per_second_per_user = ask_optional(
            theme,
            "Output tokens/s each user must see (e.g. 20; Enter to skip)",
            "reading the speed",
            units::parse_rate,
        )?;
    }
    if need.max_ttft.is_none() {
        need.max_ttft = ask_optional(
            theme,
            "Longest time to first token (e.g. 2s, 800ms; Enter to skip)",
            "reading the first-token time",
            units::parse_latency,
        )?;
    }
    Ok(())
}

/// One optional answer, checked by the flag's own parser; empty is `None`.
fn ask_optional<T>(
    theme: &SimpleTheme,
    prompt: &str,
    what: &str,
    parse: fn(&str) -> Result<T, String>,
) -> Result<Option<T>, Error> {
    let text: String = Input::with_theme(theme)
        .with_prompt(prompt)
        .allow_empty(true)
        .validate_with(|s: &String| -> Result<(), String> {
            if s.trim().is_empty() {
                Ok(())
            } else {
                parse(s).map(|_| ())
            }
        })
        .interact_text()
        .map_err(prompt_error(what))?;
    if text.trim().is_empty() {
        Ok(None)
    } else {
        // Checked by validate_with just above.
        Ok(parse(&text).ok())
    }
}
