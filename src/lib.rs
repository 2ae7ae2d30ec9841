//! aksgpu: an advisor and provisioner for GPU node pools on Azure Kubernetes Service.
//!
//! Data flows one way:
//!
//! ```text
//! catalog (bundled YAML → compact forms at build time; live price cache merged by `pricing`)
//!    → recommend (pure: requirements → ranked sizes with fit, cost, reasons)
//!    → plan      (pure: validated specs → exact ARM requests as kind-tagged `Step`s, preflight)
//!    → provision (the executor: reads, then sends a plan's steps by kind) over arm (the only
//!                 HTTP: auth, retries, polling; its own error type, no exit codes)
//! ```
//!
//! `domain` holds the enums every stage shares (no clap: `cli` maps flags to them). `cost` and
//! `drift` are pure too. `ops` runs each workflow over the stages, from a typed request that CLI
//! flags and GpuConfig fields both map into; `output` formats results and errors for the
//! terminal; `commands` maps flags to requests and renders the results, one module per command
//! family; `error` maps errors to exit codes, once.

pub mod arm;
pub mod cache;
pub mod catalog;
pub mod cli;
pub mod commands;
pub mod cost;
pub mod domain;
pub mod drift;
pub mod error;
pub mod fleet;
pub mod hub;
pub mod ops;
pub mod output;
pub mod plan;
pub mod pricing;
pub mod provision;
pub mod recommend;
pub mod resources;
pub mod secret;
pub mod units;
pub mod wizard;

use std::ffi::OsString;

use clap::FromArgMatches;

pub use error::{exit, Error};

use crate::cli::{
    AuthCommand, CatalogCommand, Cli, ClusterCommand, Command, CostAnalysisCommand, FeatureCommand, KaitoCommand,
    PoolCommand, PricesCommand, QuotaCommand,
};
use crate::commands::Ctx;
use crate::output::Printer;

/// Parse `args`, run the command, print errors, and return the process exit code.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let defaults = commands::az_defaults::AzDefaults::from_env();
    let mut cmd = defaults.apply(cli::command());
    let parsed = cmd.try_get_matches_from_mut(args).and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let (cli, matches) = match parsed {
        Ok(x) => x,
        Err(e) => {
            let e = e.format(&mut cmd);
            let code = if e.use_stderr() { exit::USAGE } else { exit::OK };
            let _ = e.print();
            return code;
        }
    };
    let mut printer = Printer::detect();
    if let Some(q) = &cli.query {
        if let Err(e) = output::check_query(q) {
            printer.error(&e.to_string(), &e.hints());
            return e.exit_code();
        }
        // One expression for the whole run: `Printer` stays `Copy`.
        printer.query = Some(Box::leak(q.clone().into_boxed_str()));
    }
    for note in defaults.notes(&matches) {
        printer.note(&note);
    }
    let ctx = Ctx { printer, catalog_dir: cli.catalog.clone() };
    match dispatch(&ctx, &cli.command) {
        Ok(()) => exit::OK,
        Err(err) => {
            let code = report(&printer, &err);
            let differences = err.chain().any(|c| matches!(c.downcast_ref::<Error>(), Some(Error::Differences { .. })));
            match &cli.command {
                Command::Diff(_) if !differences => error::diff_exit_code(code),
                _ => code,
            }
        }
    }
}

fn dispatch(ctx: &Ctx, command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Catalog(CatalogCommand::List(a)) => commands::catalog::list(ctx, a),
        Command::Catalog(CatalogCommand::Show(a)) => commands::catalog::show(ctx, a),
        Command::Catalog(CatalogCommand::Models(a)) => commands::catalog::models(ctx, a),
        Command::Catalog(CatalogCommand::Gpus(a)) => commands::catalog::gpus(ctx, a),
        Command::Catalog(CatalogCommand::Regions(a)) => commands::catalog::regions(ctx, a),
        Command::Recommend(a) => commands::recommend::run(ctx, a),
        Command::CreatePool(a) | Command::Pool(PoolCommand::Create(a)) => commands::pool::create(ctx, a),
        Command::Wait(a) | Command::Pool(PoolCommand::Wait(a)) => commands::wait::run(ctx, a),
        Command::Auth(AuthCommand::Status(a)) => commands::auth::status(ctx, a),
        Command::RegisterFeature(a) | Command::Feature(FeatureCommand::Register(a)) => {
            commands::feature::register(ctx, a)
        }
        Command::Feature(FeatureCommand::List(a)) => commands::feature::list(ctx, a),
        Command::InstallOperator(a) => commands::install_operator::run(ctx, a),
        Command::Kaito(KaitoCommand::Enable(a)) => commands::kaito::enable(ctx, a),
        Command::Kaito(KaitoCommand::Workspace(a)) => commands::kaito::workspace(ctx, a),
        Command::Manifest(a) => commands::manifest::manifest(ctx, a),
        Command::Cost(a) => commands::cost::run(ctx, a),
        Command::Prices(PricesCommand::Refresh(a)) => commands::prices::refresh(ctx, a),
        Command::Catalog(CatalogCommand::Diff(a)) => commands::catalog::diff(ctx, a),
        Command::Cluster(ClusterCommand::Stop(a)) => commands::cluster::power(ctx, a, false),
        Command::Cluster(ClusterCommand::Start(a)) => commands::cluster::power(ctx, a, true),
        Command::CostAnalysis(CostAnalysisCommand::Enable(a)) => commands::cost_analysis::enable(ctx, a),
        Command::Pool(PoolCommand::Scale(a)) => commands::pool::scale(ctx, a),
        Command::Apply(a) => commands::apply::apply(ctx, a),
        Command::Diff(a) => commands::apply::diff(ctx, a),
        Command::Export(a) => commands::apply::export(ctx, a),
        Command::Quota(QuotaCommand::Show(a)) => commands::quota::show(ctx, a),
        Command::Quota(QuotaCommand::Request(a)) => commands::quota::request(ctx, a),
        Command::Fleet(a) => commands::fleet::fleet(ctx, a),
        Command::Usage(a) => commands::fleet::usage(ctx, a),
        Command::Completions(a) => Ok(ctx.printer.out(&commands::completions::script(a.shell))?),
        Command::Man(a) => match &a.install {
            Some(dir) => commands::man::install(ctx, dir),
            None => Ok(ctx.printer.out(&commands::man::page(&a.command)?)?),
        },
    }
}

/// Print an error chain with hints and return its exit code. A closed stdout pipe exits 0.
pub fn report(printer: &Printer, err: &anyhow::Error) -> u8 {
    if err
        .chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
    {
        return exit::OK;
    }
    let typed = err.chain().find_map(|c| c.downcast_ref::<Error>());
    if let Some(e @ Error::Differences { .. }) = typed {
        // A result, not a failure: said without "error:".
        printer.note(&e.to_string());
        for h in e.hints() {
            printer.note(&format!("hint: {h}"));
        }
        return e.exit_code();
    }
    let mut message = err.to_string();
    for cause in err.chain().skip(1) {
        let c = cause.to_string();
        if !message.contains(&c) {
            message.push_str(": ");
            message.push_str(&c);
        }
    }
    let hints: Vec<String> = typed.map(Error::hints).unwrap_or_default();
    printer.error(&message, &hints);
    typed.map_or(exit::FAILED, Error::exit_code)
}
