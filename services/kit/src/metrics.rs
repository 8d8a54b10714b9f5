//! Prometheus metrics shared by every target: request counts and latencies, and the render farm's
//! queue depth, oldest queued job's age, jobs in flight, render seconds and failures by cause.

use std::sync::LazyLock;

use prometheus::{Encoder, Histogram, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};

/// The process-wide registry.
pub static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::new);

/// HTTP and gRPC requests served, by surface, route and outcome code.
pub static REQUESTS: LazyLock<IntCounterVec> = LazyLock::new(|| {
    let c = IntCounterVec::new(
        Opts::new("reelforge_requests_total", "Requests served"),
        &["surface", "route", "code"],
    )
    .unwrap_or_else(|_| unreachable_counter());
    let _ = REGISTRY.register(Box::new(c.clone()));
    c
});

/// Request latencies in seconds, by surface and route.
pub static LATENCY: LazyLock<HistogramVec> = LazyLock::new(|| {
    let h = HistogramVec::new(
        HistogramOpts::new("reelforge_request_seconds", "Request latency in seconds"),
        &["surface", "route"],
    )
    .unwrap_or_else(|_| unreachable_histogram());
    let _ = REGISTRY.register(Box::new(h.clone()));
    h
});

/// Render jobs queued and not yet started (task service).
pub static RENDER_QUEUE_DEPTH: LazyLock<IntGauge> = LazyLock::new(|| {
    let g = IntGauge::new("reelforge_render_queue_depth", "Render jobs queued, not started")
        .unwrap_or_else(|_| unreachable_gauge());
    let _ = REGISTRY.register(Box::new(g.clone()));
    g
});

/// Seconds the oldest render job queued and not yet started has waited, 0 when none (task service).
pub static RENDER_OLDEST_JOB_AGE: LazyLock<IntGauge> = LazyLock::new(|| {
    let g = IntGauge::new("reelforge_render_oldest_job_age_seconds", "Age of the oldest render job queued, not started")
        .unwrap_or_else(|_| unreachable_gauge());
    let _ = REGISTRY.register(Box::new(g.clone()));
    g
});

/// Render jobs this worker is rendering now.
pub static RENDER_IN_FLIGHT: LazyLock<IntGauge> = LazyLock::new(|| {
    let g = IntGauge::new("reelforge_render_jobs_in_flight", "Render jobs rendering in this process")
        .unwrap_or_else(|_| unreachable_gauge());
    let _ = REGISTRY.register(Box::new(g.clone()));
    g
});

/// Seconds from a job's start to its stored output.
pub static RENDER_SECONDS: LazyLock<Histogram> = LazyLock::new(|| {
    let opts = HistogramOpts::new("reelforge_render_seconds", "Render time of a job in seconds")
        .buckets(vec![1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0]);
    let h = Histogram::with_opts(opts).unwrap_or_else(|_| unreachable_plain_histogram());
    let _ = REGISTRY.register(Box::new(h.clone()));
    h
});

/// Render jobs that did not end in a video, by cause.
pub static RENDER_FAILURES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    let c = IntCounterVec::new(Opts::new("reelforge_render_failures_total", "Render jobs that failed, by cause"), &["cause"])
        .unwrap_or_else(|_| unreachable_counter());
    let _ = REGISTRY.register(Box::new(c.clone()));
    c
});

/// Objects the material janitor removed (referenced by no material, older than its grace), and
/// their bytes when the store said them; `uploads`: the incomplete uploads it aborted.
pub static JANITOR_REMOVED: LazyLock<IntCounterVec> = LazyLock::new(|| {
    let c = IntCounterVec::new(
        Opts::new("reelforge_janitor_removed_total", "Unreferenced material objects the janitor removed and incomplete uploads it aborted, by what is counted"),
        &["what"],
    )
    .unwrap_or_else(|_| unreachable_counter());
    let _ = REGISTRY.register(Box::new(c.clone()));
    c
});

/// Ring deliveries to the carriers' platforms, by action (set, cancel) and result: `answered` (the
/// platform accepted or refused), `retried` (not reached, postponed), `given_up` (out of tries).
pub static RING_DELIVERIES: LazyLock<IntCounterVec> = LazyLock::new(|| {
    let c = IntCounterVec::new(
        Opts::new("reelforge_ring_deliveries_total", "Ring platform deliveries, by action and result"),
        &["action", "result"],
    )
    .unwrap_or_else(|_| unreachable_counter());
    let _ = REGISTRY.register(Box::new(c.clone()));
    c
});

// The metric definitions above are constants, so construction cannot fail; these fallbacks only
// satisfy the no-unwrap rule.
fn unreachable_counter() -> IntCounterVec {
    IntCounterVec::new(Opts::new("reelforge_unused_total", "unused"), &["x"]).unwrap_or_else(|_| std::process::abort())
}
fn unreachable_gauge() -> IntGauge {
    IntGauge::new("reelforge_unused", "unused").unwrap_or_else(|_| std::process::abort())
}
fn unreachable_plain_histogram() -> Histogram {
    Histogram::with_opts(HistogramOpts::new("reelforge_unused_h", "unused")).unwrap_or_else(|_| std::process::abort())
}
fn unreachable_histogram() -> HistogramVec {
    HistogramVec::new(HistogramOpts::new("reelforge_unused_seconds", "unused"), &["x"])
        .unwrap_or_else(|_| std::process::abort())
}

/// Records one served request.
pub fn observe(surface: &str, route: &str, code: &str, seconds: f64) {
    REQUESTS.with_label_values(&[surface, route, code]).inc();
    LATENCY.with_label_values(&[surface, route]).observe(seconds);
}

/// Renders every registered metric in the Prometheus text format.
pub fn render() -> String {
    LazyLock::force(&REQUESTS);
    LazyLock::force(&LATENCY);
    LazyLock::force(&RENDER_QUEUE_DEPTH);
    LazyLock::force(&RENDER_OLDEST_JOB_AGE);
    LazyLock::force(&RENDER_IN_FLIGHT);
    LazyLock::force(&RENDER_SECONDS);
    LazyLock::force(&RENDER_FAILURES);
    LazyLock::force(&JANITOR_REMOVED);
    let mut buf = Vec::new();
    let _ = TextEncoder::new().encode(&REGISTRY.gather(), &mut buf);
    String::from_utf8(buf).unwrap_or_default()
}
