//! Quota reads and requests over ARM: the Compute usages of a region, one Microsoft.Quota
//! PUT (sent once: a lost answer is never resent), and following the request's status.

use std::time::Instant;

use super::reconcile::{send_write, Sent};
use super::{wire, Progress};
use crate::arm::lro::{Operation, Poller};
use crate::arm::{ArmClient, ArmError};
use crate::plan::quota::{self, RequestStatus};
use crate::resources::compute::Usage;

/// The Compute usages (per family, and the regional totals) of `location`.
pub async fn usages(client: &ArmClient, sub: &str, location: &str) -> Result<Vec<Usage>, ArmError> {
    wire::list(client, &quota::read_usages(sub, location)).await
}

/// Send the request for `family` to reach `limit`: the request id to follow, or `None` when
/// Azure answered with no request to follow (the limit is set).
pub async fn submit(
    client: &ArmClient,
    sub: &str,
    location: &str,
    family: &str,
    limit: u64,
    check: &str,
    started: &Progress,
) -> Result<Option<String>, ArmError> {
    let plan = quota::plan(sub, location, family, limit);
    let put = super::step(&plan, crate::plan::StepKind::RequestQuota)?;
    match send_write(client, put, started, &put.url, check).await? {
        Sent::Answer(resp) if resp.ok() => Ok(resp.header("location").and_then(quota::request_id)),
        Sent::Answer(resp) => Err(resp.to_error()),
        Sent::Lost(message) => {
            Err(ArmError::Unconfirmed { what: format!("the {family} quota request"), message, resume: check.into() })
        }
    }
}

/// Read a request's status once.
pub async fn status(client: &ArmClient, sub: &str, location: &str, id: &str) -> Result<RequestStatus, ArmError> {
    let step = quota::read_request(sub, location, id);
    Ok(RequestStatus::of(id, wire::get_typed(client, &step, "quota request").await?))
}

/// Follow a request until it is Succeeded, Failed or Invalid, or `deadline` passes (then the
/// last status, still in progress, is returned).
pub async fn follow(
    client: &ArmClient,
    sub: &str,
    location: &str,
    id: &str,
    deadline: Instant,
    check: &str,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<RequestStatus, ArmError> {
    let op = Operation {
        what: format!("quota request {id}"),
        resource: wire::request(&quota::read_request(sub, location, id), None)?,
        resume: check.into(),
        deadline,
        started: Instant::now(),
    };
    let mut poller = Poller::default();
    let mut last: Option<RequestStatus> = None;
    loop {
        let s = match (status(client, sub, location, id).await, last.take()) {
            (Ok(s), _) => s,
            // The --timeout ran out during the read: the last status stands.
            (Err(ArmError::Deadline { .. } | ArmError::TimedOut { .. }), Some(prev)) => return Ok(prev),
            (Err(e), _) => return Err(e),
        };
        progress(&format!("quota request {}", s.state));
        if s.is_final() {
            return Ok(s);
        }
        match poller.pause(client, None, &op).await {
            Ok(()) => last = Some(s),
            Err(ArmError::TimedOut { .. }) => return Ok(s),
            Err(e) => return Err(e),
        }
    }
}
