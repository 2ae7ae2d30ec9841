//! Days since the Unix epoch as a proleptic Gregorian date: the one calendar conversion the
//! caches (a price table's date) and the fleet view (RFC 3339 times for PromQL) share.
//! The algorithm is Howard Hinnant's `civil_from_days`
//! (<https://howardhinnant.github.io/date_algorithms.html#civil_from_days>).

/// `(year, month 1–12, day 1–31)` of the day `days` after 1970-01-01 (negative: before it).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked days: the epoch, a leap day, the day before the epoch and 2026-12-04
    /// (20,791 days after 1970-01-01: 56 years of 365 days plus 14 leap days, then 337 days).
    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(20_791), (2026, 12, 4));
    }
}
