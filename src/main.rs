//! The `aksgpu` binary: a thin wrapper around `aksgpu::run`.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(aksgpu::run(std::env::args_os()))
}
