//! `aksgpu prices refresh`: fetch the Retail Prices of every catalog size into the price cache.

use crate::cli::PricesRefreshArgs;
use crate::commands::session::{self as azure, Progress};
use crate::commands::Ctx;
use crate::error::Error;
use crate::ops::prices as ops_prices;
use crate::output::{emit, Shown};

/// `aksgpu prices refresh`
pub fn refresh(ctx: &Ctx, a: &PricesRefreshArgs) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    let p = &ctx.printer;
    let req = ops_prices::RefreshRequest { currency: a.currency.clone(), regions: a.region.clone() };
    let queries = ops_prices::queries(&catalog, &req)?;
    let (client, base) = ops_prices::client(a.verbose > 0, Some(crate::output::log_line))?;
    let bar = crate::output::Progress::bar(p.stderr_tty, queries.len() as u64);
    let report = |done: usize, _total: usize| bar.set(done as u64);
    let done = azure::run_interruptible(&Progress::default(), async {
        ops_prices::refresh((&client, &base), queries, &report).await
    });
    bar.finish();
    let r = done?;
    let currency = &r.currency;
    let text = format!(
        "Fetched {} price rows: {} sizes × regions for {} sizes, in {currency}.\nSaved to {} ({}).",
        r.items,
        r.size_regions,
        r.sizes,
        r.path,
        if currency == "USD" {
            "recommend, cost and every plan use it from now on".to_owned()
        } else {
            format!("`--currency {currency}` on cost, recommend and plans uses it")
        }
    );
    emit(p, a.output, &Shown::new(text, &r)).map_err(Error::from)?;
    Ok(())
}
