//! Benchmark: the polls `aksgpu` sends while it waits for a long-running operation, on a
//! simulated clock (`arm::lro::polls_over`: the schedule's waits, no request time). Targets: at
//! most 52 polls for a 26-minute create (the Azure CLI's fixed 30 s interval gives 52), and a
//! 1-minute create seen within 10 s of its end. Run with `cargo bench --bench polls`.

#![allow(clippy::print_stdout)]

use std::time::Duration;

use aksgpu::arm::lro::polls_over;

fn main() {
    println!("{:>10}  {:>6}  {:>14}  {:>12}", "operation", "polls", "seen after end", "az CLI (30 s)");
    for minutes in [1u64, 5, 26, 60] {
        let total = Duration::from_secs(minutes * 60);
        let (polls, seen) = polls_over(total);
        let late = seen - total;
        println!("{:>7} min  {polls:>6}  {:>12} s  {:>12}", minutes, late.as_secs(), (minutes * 60).div_ceil(30));
    }
    let (polls, _) = polls_over(Duration::from_secs(26 * 60));
    let (_, seen) = polls_over(Duration::from_secs(60));
    let late = (seen - Duration::from_secs(60)).as_secs();
    println!("targets: 26-minute create {polls} polls (<= 52); 1-minute create seen {late} s after it ends (<= 10 s)");
    assert!(polls <= 52 && late <= 10, "a target is missed");
}
