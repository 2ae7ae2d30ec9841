//! The `aksgpu` binary: a thin wrapper around `aksgpu::run`.

fn main() -> std::process::ExitCode {
    // A shell asking for completions (COMPLETE=<shell>) is answered here, and the process exits.
    aksgpu::commands::completions::complete_env();
    std::process::ExitCode::from(aksgpu::run(std::env::args_os()))
}
