//! Issue 24's holes at the edge: no metrics on the public port, API answers never stored, the docs
//! page under its own policy, no source maps, the client address from trusted proxies only, and no
//! default variant for hosts nobody configured.

mod common;

use common::{Fallible, System, data};
use reqwest::StatusCode;

type TestResult = Fallible<()>;

/// `http://127.0.0.1:PORT`, the gateway's root.
fn root(s: &System) -> String {
    s.base.trim_end_matches(reelforge_gateway::BASE).to_owned()
}

/// Asserts a 404 answered in the envelope.
async fn assert_refused(res: reqwest::Response, what: &str) -> TestResult {
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "{what}");
    let v: serde_json::Value = res.json().await.map_err(|e| format!("{what}: not an envelope: {e}"))?;
    assert_eq!((v["code"].as_i64(), v["desc"].as_str()), (Some(3000), Some("not found")), "{what}: {v}");
    Ok(())
}

#[tokio::test]
async fn metrics_are_not_served_on_the_public_port() -> TestResult {
    let s = common::start().await?;
    data(reqwest::Client::new().get(format!("{}/system/info", s.base))).await?;
    let res = reqwest::get(format!("{}/metrics", root(&s))).await?;
    assert_refused(res, "/metrics on the public port").await?;
    Ok(())
}
