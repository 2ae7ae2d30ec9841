//! Parsers for the quantities users type: memory sizes, parameter counts, prices and counts;
//! and [`money`], the one function that formats an amount of money for people.
//!
//! Each returns a `Result<_, String>` whose message says what was expected, so clap can show it
//! next to the flag name. None of them panic on any input (property-tested).

/// How a memory quantity was written, so the tool can say how it read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Memory {
    /// The value in the catalog's GPU-memory unit, GiB.
    pub gib: f64,
    /// True when the user wrote GB, MB or TB.
    pub decimal: bool,
}

impl Memory {
    /// A note for output when GB/MB/TB were read, saying how.
    ///
    /// GPU memory is sold in "GB" that are really GiB: NVIDIA's "A100 80GB" has 80 GiB
    /// (81920 MiB), and Microsoft's size tables list it as "80 GB"; the catalog records those
    /// figures (gpus.yaml `memory_gib`: A100 80, H100 NVL 94). So `80GB` means the GPU sold as
    /// 80 GB, not 80×10⁹ bytes = 74.51 GiB.
    pub fn note(&self, written: &str) -> Option<String> {
        self.decimal.then(|| {
            format!(
                "{written} read as GPU vendors and Azure's size tables write it: {} GB = {} GiB, the catalog's figure (an A100 sold as 80 GB has 80 GiB)",
                fmt(self.gib),
                fmt(self.gib)
            )
        })
    }
}

fn fmt(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn split_number(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|(i, c)| {
            !(c.is_ascii_digit()
                || *c == '.'
                || ((*c == 'e' || *c == 'E')
                    && t[i + 1..].chars().next().is_some_and(|n| n.is_ascii_digit() || n == '-' || n == '+'))
                || ((*c == '-' || *c == '+') && *i > 0 && matches!(t.as_bytes()[i - 1], b'e' | b'E')))
        })
        .map_or(t.len(), |(i, _)| i);
    if end == 0 {
        return None;
    }
    let n: f64 = t[..end].parse().ok()?;
    Some((n, t[end..].trim()))
}

/// Parse a memory size: `16`, `16GiB`, `16g`, `16 GB`, `24576MiB`, `0.5TiB`.
///
/// A bare number and `g`/`G`/`Gi`/`GiB` mean GiB. `GB` is read as GPU vendors and Microsoft's
/// size tables use it for GPU memory, the same figure as GiB (see [`Memory::note`]); `MB` is a
/// thousandth of that and `TB` a thousand.
pub fn parse_memory(text: &str) -> Result<Memory, String> {
    let err = || {
        format!(
            "{text:?} is not a memory size; write a number with an optional unit: 16, 16GiB, 16g, 16GB (decimal), 24576MiB"
        )
    };
    let (n, unit) = split_number(text).ok_or_else(err)?;
    if text.trim_start().starts_with('-') {
        return Err(format!("{text:?}: memory cannot be negative"));
    }
    let (factor, decimal) = match unit.to_ascii_lowercase().as_str() {
        "" | "g" | "gi" | "gib" => (1.0, false),
        "m" | "mi" | "mib" => (1.0 / 1024.0, false),
        "t" | "ti" | "tib" => (1024.0, false),
        "gb" => (1.0, true),
        "mb" => (1e-3, true),
        "tb" => (1e3, true),
        _ => return Err(err()),
    };
    let gib = n * factor;
    if !gib.is_finite() || gib < 0.0 {
        return Err(err());
    }
    if gib > 1e7 {
        return Err(format!("{text:?} is larger than any GPU configuration"));
    }
    Ok(Memory { gib, decimal })
}

/// Parse a parameter count: `7B`, `70b`, `1.5T`, `7e9`, `350M`, `8000000000`; a bare number
/// below 10,000 is read as billions (`7` = 7B). Returns billions.
pub fn parse_params(text: &str) -> Result<f64, String> {
    let err = || format!("{text:?} is not a parameter count; write 7B, 70b, 1.5T, 350M or 7e9");
    if text.trim_start().starts_with('-') {
        return Err(format!("{text:?}: a parameter count cannot be negative"));
    }
    let (n, unit) = split_number(text).ok_or_else(err)?;
    let billions = match unit.to_ascii_lowercase().as_str() {
        "" if n < 10_000.0 => n,
        "" => n / 1e9,
        "k" => n / 1e6,
        "m" => n / 1e3,
        "b" | "bn" => n,
        "t" => n * 1e3,
        _ => return Err(err()),
    };
    if !billions.is_finite() || billions <= 0.0 {
        return Err(format!("{text:?}: a parameter count must be positive"));
    }
    if billions > 100_000.0 {
        return Err(format!("{text:?} is beyond any model this tool can size (100T)"));
    }
    Ok(billions)
}

/// Parse a price in USD: `5`, `$5`, `2.75`.
pub fn parse_price(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_start_matches('$').trim();
    let v: f64 = t.parse().map_err(|_| format!("{text:?} is not a price; write USD per hour such as 5 or 2.75"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("{text:?}: a price must be a positive number of USD"));
    }
    Ok(v)
}

/// Parse a positive whole count (GPUs, tokens, concurrency, nodes).
///
/// ```
/// assert_eq!(aksgpu::units::parse_count("200"), Ok(200));
/// assert!(aksgpu::units::parse_count("-1").is_err());
/// ```
pub fn parse_count(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    if t.starts_with('-') {
        return Err(format!("{text:?}: must be a positive whole number, not negative"));
    }
    let (n, unit) = split_number(&t).ok_or_else(|| format!("{text:?} is not a whole number"))?;
    let n = match unit.to_ascii_lowercase().as_str() {
        "" => n,
        "k" => n * 1024.0,
        _ => return Err(format!("{text:?} is not a whole number (a k suffix means ×1024 for token counts)")),
    };
    if n.fract() != 0.0 || !n.is_finite() {
        return Err(format!("{text:?} must be a whole number"));
    }
    if n < 1.0 {
        return Err(format!("{text:?} must be at least 1"));
    }
    if n > 1e12 {
        return Err(format!("{text:?} is too large"));
    }
    Ok(n as u64)
}

/// Parse a latency in seconds: `2s`, `800ms`, or plain seconds (`1.5`).
pub fn parse_latency(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let err = || format!("{text:?} is not a latency; write 2s, 800ms or 1.5");
    let (num, scale) = match t.strip_suffix("ms") {
        Some(n) => (n, 1e-3),
        None => (t.strip_suffix('s').unwrap_or(t), 1.0),
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e6 => Ok(v * scale),
        _ => Err(err()),
    }
}

/// Parse a positive rate such as tokens per second (`20`, `1.5k`, `2500`).
pub fn parse_rate(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix(['k', 'K']) {
        Some(n) => (n, 1e3),
        None => (t, 1.0),
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v * scale),
        _ => Err(format!("{text:?} is not a positive rate; write 20, 2500 or 1.5k")),
    }
}

/// Parse a duration: `90s`, `30m`, `2h`, `1h30m`, or bare seconds (`600`).
///
/// ```
/// use std::time::Duration;
/// use aksgpu::units::parse_duration;
/// assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
/// assert_eq!(parse_duration("600"), Ok(Duration::from_secs(600)));
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let err = || format!("{text:?} is not a duration; write 90s, 30m, 2h or 1h30m");
    if t.is_empty() || t.starts_with('-') {
        return Err(err());
    }
    if let Ok(secs) = t.parse::<f64>() {
        return if secs.is_finite() && secs > 0.0 && secs < 1e7 {
            Ok(std::time::Duration::from_secs_f64(secs))
        } else {
            Err(err())
        };
    }
    let mut total = 0.0;
    let mut num = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let n: f64 = num.parse().map_err(|_| err())?;
        num.clear();
        total += n * match c {
            's' => 1.0,
            'm' => 60.0,
            'h' => 3600.0,
            'd' => 86400.0,
            _ => return Err(err()),
        };
    }
    if !(num.is_empty() && total > 0.0 && total < 1e7) {
        return Err(err());
    }
    Ok(std::time::Duration::from_secs_f64(total))
}

/// An amount of money in millionths of a currency unit (micro-dollars for USD), the unit the
/// bundled price table is packed in (`build.rs`). Sums and products over node counts and
/// hours are exact integer arithmetic, so `3 × $3.673` is `$11.019`, never `11.018999…`;
/// it is rounded to cents once, for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Amount(i64);

impl Amount {
    /// The largest amount held: about 9.2 × 10¹² units, far above any fleet's yearly bill.
    const LIMIT: f64 = 9.2e12;

    /// From millionths.
    pub const fn from_micros(micros: i64) -> Amount {
        Amount(micros)
    }

    /// From a decimal figure (a price read from YAML or JSON), rounded to the nearest
    /// millionth; `None` when not finite or beyond `LIMIT`.
    pub fn from_f64(v: f64) -> Option<Amount> {
        (v.is_finite() && v.abs() <= Self::LIMIT).then(|| Amount((v * 1e6).round() as i64))
    }

    /// The amount in millionths.
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// `self × n`, or `None` on overflow.
    pub fn times(self, n: u64) -> Option<Amount> {
        i64::try_from(n).ok().and_then(|n| self.0.checked_mul(n)).map(Amount)
    }

    /// `self + other`, or `None` on overflow.
    pub fn plus(self, other: Amount) -> Option<Amount> {
        self.0.checked_add(other.0).map(Amount)
    }

    /// `self × num / den`, rounded half away from zero; `None` on overflow or `den == 0`.
    pub fn ratio(self, num: u64, den: u64) -> Option<Amount> {
        let (n, d) = (i128::from(self.0) * i128::from(num), i128::from(den));
        if d == 0 {
            return None;
        }
        let q = (n.abs() + d / 2) / d;
        i64::try_from(if n < 0 { -q } else { q }).ok().map(Amount)
    }

    /// Rounded to whole cents (half away from zero), as the decimal figure JSON carries.
    pub fn to_cents_f64(self) -> f64 {
        let c = (self.0.abs() + 5_000) / 10_000;
        let c = if self.0 < 0 { -c } else { c };
        c as f64 / 100.0
    }

    /// Exact decimal value (for prices shown per node, e.g. `3.673`).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

/// The symbol for a currency code: `$`, `€`, `£`, or the code and a space (`CHF `).
pub fn currency_symbol(code: &str) -> String {
    match code.to_ascii_uppercase().as_str() {
        "USD" => "$".to_owned(),
        "EUR" => "€".to_owned(),
        "GBP" => "£".to_owned(),
        "JPY" => "¥".to_owned(),
        other => format!("{other} "),
    }
}

/// `money` in any currency: `€1.23`, `£2,555`, `CHF 4.00`; USD is `money` itself.
pub fn money_in(v: Option<f64>, currency: &str) -> String {
    in_currency(money(v), currency)
}

/// `money_column` in a currency.
pub fn money_column_in(values: &[Option<f64>], currency: &str) -> Vec<String> {
    money_column(values).into_iter().map(|s| in_currency(s, currency)).collect()
}

/// A `$` amount written with the currency's symbol.
fn in_currency(usd: String, currency: &str) -> String {
    if currency.eq_ignore_ascii_case("USD") {
        return usd;
    }
    let sym = currency_symbol(currency);
    if let Some(rest) = usd.strip_prefix("-$") {
        return format!("-{sym}{rest}");
    }
    match usd.strip_prefix('$') {
        Some(rest) => format!("{sym}{rest}"),
        None => usd,
    }
}

/// Above this, amounts print in scientific notation: an f64 holds 15 exact digits, and a
/// whole-dollar conversion of a larger value would saturate (1e308 once printed as
/// `$18,446,744,073,709,551,615`).
const MONEY_EXACT_LIMIT: f64 = 1e15;

/// `$1.23`, `$2,555`, `-$4.00`, `$1.000e20`, or `unknown` (none, NaN or infinite).
pub fn money(v: Option<f64>) -> String {
    match v {
        Some(v) if !v.is_finite() => "unknown".to_owned(),
        Some(v) if v < 0.0 => format!("-{}", money(Some(-v))),
        Some(v) if v >= MONEY_EXACT_LIMIT => format!("${v:.3e}"),
        Some(v) if v >= 1000.0 => format!("${}", group_thousands(v)),
        Some(v) => {
            // Whole cents, half away from zero (0.125 → $0.13), not the binary float's digits.
            let c = (v * 100.0).round() as u64;
            format!("${}.{:02}", c / 100, c % 100)
        }
        None => "unknown".to_owned(),
    }
}

/// One table column of amounts, formatted one way: whole dollars for every cell when any
/// cell reaches $1,000 (`$384`, `$1,606`), else dollars and cents for every cell.
pub fn money_column(values: &[Option<f64>]) -> Vec<String> {
    let whole = values.iter().flatten().any(|v| v.is_finite() && v.abs() >= 1000.0 && v.abs() < MONEY_EXACT_LIMIT);
    values
        .iter()
        .map(|v| match v {
            Some(v) if whole && v.is_finite() && v.abs() < 1000.0 => {
                let sign = if *v < 0.0 && v.round() != 0.0 { "-" } else { "" };
                format!("{sign}${}", v.abs().round())
            }
            _ => money(*v),
        })
        .collect()
}

/// Whole dollars with thousands separators, for `1000 ≤ v < MONEY_EXACT_LIMIT`.
fn group_thousands(v: f64) -> String {
    let s = format!("{:.0}", v.round());
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `$1.23/h` (or `unknown/h`): an hourly price, formatted by [`money`].
pub fn per_hour(v: Option<f64>) -> String {
    format!("{}/h", money(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_formats() {
        assert_eq!(money(Some(3.5)), "$3.50");
        assert_eq!(money(Some(2555.0)), "$2,555");
        assert_eq!(money(None), "unknown");
        // Never saturates, never prints nonsense.
        assert_eq!(money(Some(1e308)), "$1.000e308");
        assert_eq!(money(Some(999_999_999_999_999.0)), "$999,999,999,999,999");
        assert_eq!(money(Some(f64::INFINITY)), "unknown");
        assert_eq!(money(Some(f64::NAN)), "unknown");
        assert_eq!(money(Some(-1234.0)), "-$1,234");
        assert_eq!(per_hour(Some(0.5)), "$0.50/h");
        // Cents round half away from zero, whatever the binary digits.
        assert_eq!(money(Some(0.125)), "$0.13");
        assert_eq!(money(Some(2.675)), "$2.68");
    }

    #[test]
    fn a_money_column_is_formatted_one_way() {
        assert_eq!(money_column(&[Some(383.98), Some(1606.0), None]), ["$384", "$1,606", "unknown"]);
        assert_eq!(money_column(&[Some(383.98), Some(2.2)]), ["$383.98", "$2.20"]);
    }

    #[test]
    fn amounts_are_exact() {
        let p = Amount::from_f64(3.673).expect("price");
        assert_eq!(p.micros(), 3_673_000);
        assert_eq!(p.times(3).map(Amount::micros), Some(11_019_000));
        // Float arithmetic drifts here: 0.1 × 3 = 0.30000000000000004.
        assert_eq!(Amount::from_f64(0.1).and_then(|a| a.times(3)), Amount::from_f64(0.3));
        // 730 h at $3.673 = $2,681.29 exactly; half a cent rounds away from zero.
        assert_eq!(p.times(730).map(Amount::to_cents_f64), Some(2681.29));
        assert_eq!(Amount::from_micros(5_000).to_cents_f64(), 0.01);
        assert_eq!(Amount::from_micros(-5_000).to_cents_f64(), -0.01);
        assert_eq!(p.ratio(8 * 730, 24).map(Amount::micros), Some(893_763_333));
        assert_eq!(p.ratio(1, 0), None);
        assert_eq!(Amount::from_micros(i64::MAX).times(2), None);
        assert_eq!(Amount::from_f64(f64::NAN), None);
        assert_eq!(Amount::from_f64(1e300), None);
        assert_eq!(money_in(Some(2555.0), "EUR"), "€2,555");
        assert_eq!(money_in(Some(1.5), "gbp"), "£1.50");
        assert_eq!(money_in(Some(-4.0), "CHF"), "-CHF 4.00");
        assert_eq!(money_in(Some(4.0), "USD"), "$4.00");
        assert_eq!(money_in(None, "EUR"), "unknown");
    }

    #[test]
    fn memory_units() {
        assert_eq!(parse_memory("16").expect("ok").gib, 16.0);
        assert_eq!(parse_memory("16GiB").expect("ok").gib, 16.0);
        assert_eq!(parse_memory("16g").expect("ok").gib, 16.0);
        assert_eq!(parse_memory("16 Gi").expect("ok").gib, 16.0);
        assert_eq!(parse_memory("24576MiB").expect("ok").gib, 24.0);
        // GPU memory as sold: an "80 GB" A100 meets 80GB, an H100 NVL "94 GB" meets 94GB.
        let gb = parse_memory("80GB").expect("ok");
        assert!(gb.decimal);
        assert_eq!(gb.gib, 80.0);
        assert_eq!(parse_memory("94 GB").expect("ok").gib, 94.0);
        assert_eq!(parse_memory("24000MB").expect("ok").gib, 24.0);
        assert_eq!(parse_memory("1TB").expect("ok").gib, 1000.0);
        let note = gb.note("--gpu-memory 80GB").expect("note");
        assert!(note.contains("80 GB = 80 GiB") && note.contains("size tables"), "{note}");
        assert!(parse_memory("80GiB").expect("ok").note("x").is_none());
        assert!(parse_memory("lots").is_err());
        assert!(parse_memory("-4GiB").is_err());
        assert!(parse_memory("16 parsecs").is_err());
        assert!(parse_memory("").is_err());
    }

    #[test]
    fn params_units() {
        assert_eq!(parse_params("7B").expect("ok"), 7.0);
        assert_eq!(parse_params("70b").expect("ok"), 70.0);
        assert_eq!(parse_params("1.5T").expect("ok"), 1500.0);
        assert_eq!(parse_params("7e9").expect("ok"), 7.0);
        assert_eq!(parse_params("350M").expect("ok"), 0.35);
        assert_eq!(parse_params("7").expect("ok"), 7.0);
        assert_eq!(parse_params("8000000000").expect("ok"), 8.0);
        assert!(parse_params("-7B").is_err());
        assert!(parse_params("0").is_err());
        assert!(parse_params("seven").is_err());
        assert!(parse_params("7X").is_err());
    }

    #[test]
    fn durations() {
        use std::time::Duration;
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("60m"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("600"), Ok(Duration::from_secs(600)));
        assert!(parse_duration("-5m").is_err());
        assert!(parse_duration("5x").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("0").is_err());
    }

    #[test]
    fn prices_and_counts() {
        assert_eq!(parse_price("$5").expect("ok"), 5.0);
        assert!(parse_price("-1").is_err());
        assert!(parse_price("free").is_err());
        assert_eq!(parse_count("8192").expect("ok"), 8192);
        assert_eq!(parse_count("8k").expect("ok"), 8192);
        assert!(parse_count("-2").is_err());
        assert!(parse_count("0").is_err());
        assert!(parse_count("1.5").is_err());
    }
}
