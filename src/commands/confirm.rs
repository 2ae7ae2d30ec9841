//! Asking before a write: every command that changes Azure asks on a terminal, needs `--yes`
//! without one, and never asks for `--dry-run`. "No" exits 1 (`Error::NotConfirmed`); Ctrl-C
//! at the question exits 130.

use crate::commands::Ctx;
use crate::error::Error;

/// Whether to ask: never with `--yes` or `--dry-run`; on a terminal, yes; without one,
/// `--yes` is required (a usage error before anything is read or sent).
pub fn needed(ctx: &Ctx, command: &str, yes: bool, dry_run: bool) -> Result<bool, Error> {
    if yes || dry_run {
        return Ok(false);
    }
    if !ctx.printer.interactive {
        return Err(Error::usage(
            format!("{command} changes Azure; without a terminal it needs --yes"),
            Some("add --yes (or --dry-run to see the requests first)".into()),
        ));
    }
    Ok(true)
}

/// Ask `prompt` (default no). Ctrl-C exits 130; "no" is `NotConfirmed` (exit 1).
pub fn ask(prompt: &str) -> Result<(), Error> {
    let _interrupt = crate::wizard::catch_interrupt();
    let yes = dialoguer::Confirm::new()
        .with_prompt(prompt)
        .default(false)
        .interact()
        .map_err(crate::wizard::prompt_error("reading the answer"))?;
    if yes {
        Ok(())
    } else {
        Err(Error::NotConfirmed)
    }
}

/// `needed`, then `ask` when it is.
pub fn write(ctx: &Ctx, command: &str, yes: bool, dry_run: bool, prompt: &str) -> Result<(), Error> {
    if needed(ctx, command, yes, dry_run)? {
        ask(prompt)?;
    }
    Ok(())
}
