//! Benchmark: the polls `aksgpu` sends while it waits for a long-running operation, on a
//! simulated clock (`arm::lro::polls_over_with`: the waits, no request time), with answers
//! that carry no `Retry-After` (the schedule: 2, 4, 8, 16, then 32 s) and with answers that
//! carry `Retry-After: 5` (followed exactly, as Azure's SDKs and the Azure CLI do). Targets:
//! without the header, at most 52 polls for a 26-minute create (the Azure CLI's fixed 30 s
//! interval gives 52) and a 1-minute create seen within 10 s of its end; with the header, the
//! operation seen within the header's 5 s of its end. Run with `cargo bench --bench polls`.

#![allow(clippy::print_stdout)]

use std::time::Duration;

use aksgpu::arm::lro::polls_over_with;

fn main() {
    let five = Duration::from_secs(5);
    println!(
        "{:>10}  {:>14}  {:>6}  {:>14}  {:>12}",
        "operation", "Retry-After", "polls", "seen after end", "az CLI (30 s)"
    );
    for header in [None, Some(five)] {
        for minutes in [1u64, 5, 26, 60] {
            let total = Duration::from_secs(minutes * 60);
            let (polls, seen) = polls_over_with(total, header);
            let late = seen - total;
            let said = header.map_or_else(|| "none".to_owned(), |d| format!("{} s", d.as_secs()));
            println!(
                "{:>7} min  {said:>14}  {polls:>6}  {:>12} s  {:>12}",
                minutes,
                late.as_secs(),
                (minutes * 60).div_ceil(30)
            );
        }
    }
    let (polls, _) = polls_over_with(Duration::from_secs(26 * 60), None);
    let (_, seen) = polls_over_with(Duration::from_secs(60), None);
    let late = (seen - Duration::from_secs(60)).as_secs();
    let (_, seen5) = polls_over_with(Duration::from_secs(60), Some(five));
    let late5 = (seen5 - Duration::from_secs(60)).as_secs();
    println!(
        "targets: no Retry-After: 26-minute create {polls} polls (<= 52), 1-minute create seen {late} s after it ends (<= 10 s); \
         Retry-After: 5: 1-minute create seen {late5} s after it ends (<= 5 s)"
    );
    assert!(polls <= 52 && late <= 10 && late5 <= 5, "a target is missed");
}
