//! What a worker does when a service or storage fails for a passing reason (a restart, a rolling
//! update, a broker or S3 away for a moment): it tries again, in place, with exponential backoff and
//! jitter, for a bounded time, and only then hands the job back, after a delay that grows with the
//! job's deliveries. Handing back at once made a task service restart of a few seconds burn a
//! job's whole delivery limit in milliseconds (each hand-back is a delivery: the redelivery failed
//! at once again) and dead-letter it, failing tasks that would have rendered a moment later.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// The first wait before a call to a service is tried again.
pub const FIRST_DELAY: Duration = Duration::from_millis(250);
/// The longest wait between two tries.
pub const MAX_DELAY: Duration = Duration::from_secs(8);
/// How long a failing call (start, finish, a material lookup, an upload) is tried before the job
/// is handed back: longer than a service's restart, shorter than the reaper's stale limit (90 s).
pub const BUDGET: Duration = Duration::from_secs(60);
/// How long a release is tried while the job is being handed back (a stopping worker must be gone
/// within its grace period; the reaper takes back a job whose release never arrived).
pub const RELEASE_BUDGET: Duration = Duration::from_secs(10);
/// The wait before the first hand-back of a delivery to the queue; it doubles with each further
/// delivery of the job, up to [`MAX_HAND_BACK_DELAY`]. A stopping worker hands back at once.
pub const HAND_BACK_DELAY: Duration = Duration::from_secs(2);
/// The longest wait before a hand-back.
pub const MAX_HAND_BACK_DELAY: Duration = Duration::from_secs(30);

/// Exponential backoff with jitter within a time budget.
#[derive(Debug)]
pub struct Backoff {
    step: Duration,
    max: Duration,
    until: Instant,
}

impl Backoff {
    /// Waits starting at `first`, doubling up to `max`, for `budget` from now.
    pub fn new(first: Duration, max: Duration, budget: Duration) -> Self {
        Self {
            step: first,
            max,
            until: Instant::now() + budget,
        }
    }

    /// The worker's backoff for a service or storage call ([`FIRST_DELAY`], [`MAX_DELAY`]) within
    /// `budget`.
    pub fn service(budget: Duration) -> Self {
        Self::new(FIRST_DELAY, MAX_DELAY, budget)
    }

    /// The wait before the next try (the current step, jittered to between half of it and all of
    /// it, and never past the budget), or `None` once the budget is spent.
    pub fn next_delay(&mut self) -> Option<Duration> {
        let left = self.until.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        let step = self.step;
        self.step = self.step.saturating_mul(2).min(self.max);
        Some(jitter(step).min(left))
    }
}

/// The wait before handing back a job delivered `attempt` times (1 on the first delivery):
/// [`HAND_BACK_DELAY`] doubling per delivery up to [`MAX_HAND_BACK_DELAY`], jittered, so the
/// redeliveries of a job spread over the time a service takes to come back.
pub fn hand_back_delay(attempt: u32) -> Duration {
    let doublings = attempt.saturating_sub(1).min(16);
    jitter(
        HAND_BACK_DELAY
            .saturating_mul(1 << doublings)
            .min(MAX_HAND_BACK_DELAY),
    )
}

/// `d` scaled by a random factor in [0.5, 1]: workers that failed together do not all come back
/// at the same instant.
pub fn jitter(d: Duration) -> Duration {
    let r = (uuid::Uuid::new_v4().as_u128() >> 64) as u64;
    d.mul_f64(0.5 + 0.5 * (r as f64 / u64::MAX as f64))
}

/// Whether a failed call may succeed when tried again: the service was away, timed out, was
/// overloaded or failed inside. A refusal (bad input, not found, not allowed, a state conflict,
/// not offered) is final.
pub fn passing(status: &tonic::Status) -> bool {
    use tonic::Code;
    matches!(
        status.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::DeadlineExceeded
            | Code::Aborted
            | Code::Cancelled
            | Code::Internal
            | Code::ResourceExhausted
    )
}

/// Sleeps `delay`; answers `true` at once when `shutdown` turns (or is) true instead.
pub async fn sleep_unless_stopping(delay: Duration, shutdown: &mut watch::Receiver<bool>) -> bool {
    if *shutdown.borrow() {
        return true;
    }
    tokio::select! {
        () = tokio::time::sleep(delay) => false,
        // A closed channel (no one left to stop the worker) only disables this branch.
        Ok(_) = shutdown.wait_for(|stopping| *stopping) => true,
    }
}

/// Calls `call` until it succeeds, fails for good (see [`passing`]), `backoff` is spent or, when
/// `shutdown` is given, the worker is stopping (after at least one call); answers the last result.
pub async fn call<T, F, Fut>(
    what: &'static str,
    mut backoff: Backoff,
    mut shutdown: Option<&mut watch::Receiver<bool>>,
    mut call: F,
) -> Result<T, tonic::Status>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, tonic::Status>>,
{
    loop {
        match call().await {
            Err(status) if passing(&status) => {
                let Some(delay) = backoff.next_delay() else {
                    return Err(status);
                };
                tracing::warn!(
                    call = what,
                    error = %status.message(),
                    retry_in_ms = delay.as_millis() as u64,
                    "task service call failed: trying again"
                );
                match shutdown.as_deref_mut() {
                    Some(rx) => {
                        if sleep_unless_stopping(delay, rx).await {
                            return Err(status);
                        }
                    }
                    None => tokio::time::sleep(delay).await,
                }
            }
            done => return done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn backoff_doubles_with_jitter_up_to_its_cap_and_ends_with_its_budget() {
        let mut b = Backoff::new(
            Duration::from_millis(10),
            Duration::from_millis(80),
            Duration::from_millis(300),
        );
        let begun = Instant::now();
        let mut steps = Vec::new();
        while let Some(d) = b.next_delay() {
            steps.push(d);
            tokio::time::sleep(d).await;
        }
        let nominal = [10, 20, 40, 80, 80, 80];
        for (d, n) in steps.iter().zip(nominal) {
            assert!(
                *d >= Duration::from_millis(n / 2) && *d <= Duration::from_millis(n),
                "{steps:?}"
            );
        }
        assert!(
            steps.len() >= 5,
            "tried until the budget was spent: {steps:?}"
        );
        assert!(
            steps.iter().all(|d| *d <= Duration::from_millis(80)),
            "{steps:?}"
        );
        assert!(
            begun.elapsed() >= Duration::from_millis(300),
            "the budget bounds the waits: {steps:?}"
        );
    }

    fn quick() -> Backoff {
        Backoff::new(
            Duration::from_millis(1),
            Duration::from_millis(4),
            Duration::from_secs(5),
        )
    }

    #[test]
    fn hand_backs_wait_longer_with_each_delivery() {
        for (attempt, nominal) in [(1, 2), (2, 4), (3, 8), (4, 16), (5, 30), (40, 30)] {
            let d = hand_back_delay(attempt);
            assert!(
                d >= Duration::from_secs(nominal) / 2 && d <= Duration::from_secs(nominal),
                "delivery {attempt}: {d:?}"
            );
        }
    }

    #[test]
    fn only_passing_faults_are_tried_again() {
        for code in [
            tonic::Code::Unavailable,
            tonic::Code::Internal,
            tonic::Code::Unknown,
        ] {
            assert!(passing(&tonic::Status::new(code, "x")), "{code:?}");
        }
        for code in [
            tonic::Code::InvalidArgument,
            tonic::Code::NotFound,
            tonic::Code::PermissionDenied,
            tonic::Code::Unauthenticated,
            tonic::Code::FailedPrecondition,
        ] {
            assert!(!passing(&tonic::Status::new(code, "x")), "{code:?}");
        }
    }

    #[tokio::test]
    async fn a_call_is_tried_until_the_service_answers() {
        let (_tx, mut rx) = watch::channel(false);
        let mut calls = 0;
        let got = call("start", quick(), Some(&mut rx), || {
            calls += 1;
            let n = calls;
            async move {
                if n < 4 {
                    Err(tonic::Status::unavailable("connection refused"))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(got.ok(), Some(4));
    }

    #[tokio::test]
    async fn a_refusal_or_a_stopping_worker_ends_the_tries() {
        let (tx, mut rx) = watch::channel(false);
        let mut calls = 0;
        let got: Result<(), _> = call("finish", quick(), Some(&mut rx), || {
            calls += 1;
            async { Err(tonic::Status::permission_denied("not yours")) }
        })
        .await;
        assert_eq!(
            got.map_err(|s| s.code()),
            Err(tonic::Code::PermissionDenied)
        );
        assert_eq!(calls, 1, "a refusal is not tried again");

        tx.send(true).ok();
        let mut calls = 0;
        let got: Result<(), _> = call("start", quick(), Some(&mut rx), || {
            calls += 1;
            async { Err(tonic::Status::unavailable("down")) }
        })
        .await;
        assert!(got.is_err());
        assert_eq!(calls, 1, "a stopping worker calls once and hands back");
    }
}
