//! Issue 24's holes at the edge: no metrics on the public port, API answers never stored, the docs
//! page under its own policy, no source maps, the client address from trusted proxies only, and no
//! default variant for hosts nobody configured.

use crate::common;

use common::{Fallible, System, data, envelope};
use reelforge_kit::config::TrustedProxy;
use reqwest::StatusCode;

type TestResult = Fallible<()>;

/// `http://127.0.0.1:PORT`, the gateway's root.
fn root(s: &System) -> String {
    s.base.trim_end_matches(reelforge_gateway::BASE).to_owned()
}

/// A built SPA in a directory of the test: the entry point, a script and its source map.
fn built_spa() -> Fallible<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir(dir.path().join("assets"))?;
    std::fs::write(dir.path().join("index.html"), "<!doctype html><html><head><title>r</title></head><body><script src=\"/assets/app.js\"></script></body></html>")?;
    std::fs::write(dir.path().join("assets/app.js"), "console.log('app')\n//# sourceMappingURL=app.js.map\n")?;
    std::fs::write(dir.path().join("assets/app.js.map"), r#"{"version":3,"sources":["../src/secret.tsx"],"mappings":""}"#)?;
    Ok(dir)
}

fn header(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
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

fn last_code(s: &System, mail: &str) -> Fallible<String> {
    let text = std::fs::read_to_string(s.dir.path().join("mail-outbox.log"))?;
    let line = text.lines().rev().find(|l| l.split('\t').nth(2) == Some(mail)).ok_or("no mail")?;
    Ok(line.rsplit(' ').next().ok_or("no code")?.to_owned())
}

#[tokio::test]
async fn api_answers_are_not_stored_and_static_assets_keep_their_caching() -> TestResult {
    let spa = built_spa()?;
    let static_dir = spa.path().to_path_buf();
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.http.static_dir = static_dir).await?;
    let client = reqwest::Client::new();
    let post = |path: &str| client.post(format!("{}{path}", s.base)).header("X-Variant", "qs");

    let mail = format!("{}@example.cn", uuid::Uuid::new_v4().simple());
    let sent = post("/user/sendCode").form(&[("mail", &mail)]).send().await?;
    assert_eq!(header(&sent, "cache-control").as_deref(), Some("no-store"), "sendCode");
    let login = post("/user/login").json(&serde_json::json!({"mail": mail, "code": last_code(&s, &mail)?})).send().await?;
    assert_eq!(header(&login, "cache-control").as_deref(), Some("no-store"), "the login answer carries the token");
    let v: serde_json::Value = login.json().await?;
    assert!(v["data"]["token"].as_str().is_some_and(|t| !t.is_empty()), "{v}");
    for path in ["/system/info", "/category/taskvideo", "/openapi.json", "/docs"] {
        let res = client.get(format!("{}{path}", s.base)).header("X-Variant", "qs").send().await?;
        assert_eq!(header(&res, "cache-control").as_deref(), Some("no-store"), "{path}");
    }

    for path in ["/", "/assets/app.js"] {
        let res = reqwest::get(format!("{}{path}", root(&s))).await?;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&res, "cache-control"), None, "{path} keeps the static files' caching");
        assert!(header(&res, "etag").is_some(), "{path} is revalidated by its ETag");
    }
    Ok(())
}

/// The sources a directive allows, e.g. `script-src`; `default-src` when absent.
fn sources<'a>(policy: &'a str, directive: &str) -> Vec<&'a str> {
    let find = |name: &str| {
        policy.split(';').map(str::trim).find_map(|d| d.strip_prefix(name).filter(|rest| rest.is_empty() || rest.starts_with(' ')))
    };
    find(directive).or_else(|| find("default-src")).map(|rest| rest.split_whitespace().collect()).unwrap_or_default()
}

/// The value of `attr="…"` in a tag.
fn attr<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let start = tag.find(&format!("{attr}=\""))? + attr.len() + 2;
    tag[start..].split('"').next()
}

#[tokio::test]
async fn the_docs_page_runs_under_its_own_policy_and_the_spa_keeps_its_own() -> TestResult {
    let spa = built_spa()?;
    let static_dir = spa.path().to_path_buf();
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.http.static_dir = static_dir).await?;
    let page = reqwest::get(format!("{}/docs", s.base)).await?;
    assert_eq!(page.status(), StatusCode::OK);
    let policy = header(&page, "content-security-policy").ok_or("the docs page has a policy")?;
    let html = page.text().await?;
    let scripts = sources(&policy, "script-src");
    let styles = sources(&policy, "style-src");
    assert!(sources(&policy, "connect-src").contains(&"'self'"), "it fetches openapi.json: {policy}");

    // Whatever the page runs, the policy allows, and it all comes from this gateway.
    let mut loaded = 0;
    for (tag, kind, allowed, content_type) in [("<script", "src", &scripts, "text/javascript"), ("<link", "href", &styles, "text/css")] {
        for piece in html.split(tag).skip(1) {
            let open = piece.split('>').next().unwrap_or_default();
            let Some(url) = attr(open, kind) else {
                if tag == "<script" {
                    return Err(format!("an inline script runs only under 'unsafe-inline' or its hash: {policy}\n{html}").into());
                }
                continue;
            };
            assert!(!url.contains("//"), "{url}: nothing from another origin (no CDN)");
            assert!(allowed.contains(&"'self'"), "{url} is allowed by {policy}");
            let res = reqwest::get(format!("{}/{url}", s.base)).await?;
            assert_eq!(res.status(), StatusCode::OK, "{url}");
            assert!(header(&res, "content-type").is_some_and(|t| t.starts_with(content_type)), "{url} is {content_type} (nosniff)");
            loaded += 1;
        }
    }
    assert_eq!(loaded, 2, "the page's script and style: {html}");
    if html.contains("<style") || html.contains(" style=\"") {
        assert!(styles.contains(&"'unsafe-inline'"), "inline styles need 'unsafe-inline': {policy}");
    }
    for source in scripts.iter().chain(&styles) {
        assert!(!source.contains("://") && *source != "*", "{source}: no other origin may serve the page's code");
    }

    let spa_page = reqwest::get(format!("{}/", root(&s))).await?;
    let spa_policy = header(&spa_page, "content-security-policy").ok_or("the SPA has a policy")?;
    assert_eq!(sources(&spa_policy, "script-src"), ["'self'"], "the SPA's scripts: {spa_policy}");
    assert_ne!(spa_policy, policy);
    Ok(())
}

#[tokio::test]
async fn source_maps_are_not_served() -> TestResult {
    let spa = built_spa()?;
    let static_dir = spa.path().to_path_buf();
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.http.static_dir = static_dir).await?;
    assert_eq!(reqwest::get(format!("{}/assets/app.js", root(&s))).await?.status(), StatusCode::OK);
    for path in ["/assets/app.js.map", "/assets/app%2Ejs%2Emap", "/assets/missing.js.map"] {
        let res = reqwest::get(format!("{}{path}", root(&s))).await?;
        assert_refused(res, path).await?;
    }
    Ok(())
}

/// Asks for a code for a fresh address through a proxy chain; answers the envelope code.
async fn send_code(s: &System, forwarded: &str) -> Fallible<i64> {
    let mail = format!("{}@example.cn", uuid::Uuid::new_v4().simple());
    let v = envelope(
        reqwest::Client::new()
            .post(format!("{}/user/sendCode", s.base))
            .header("X-Variant", "qs")
            .header("X-Forwarded-For", forwarded)
            .form(&[("mail", &mail)]),
    )
    .await?;
    v["code"].as_i64().ok_or_else(|| format!("not an envelope: {v}").into())
}

async fn behind_proxies(proxies: &[&str]) -> Fallible<System> {
    let trusted = proxies.iter().map(|p| TrustedProxy::parse(p)).collect::<Result<Vec<_>, _>>()?;
    common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.http.client_ip_header = "X-Forwarded-For".into();
        c.http.trusted_proxies = trusted;
        c.auth.requests_per_ip_per_hour = 3;
    })
    .await
}

#[tokio::test]
async fn the_per_address_limit_counts_the_right_most_address_no_trusted_proxy_wrote() -> TestResult {
    let s = behind_proxies(&["127.0.0.1", "10.0.0.0/8"]).await?;
    for n in 1..=3 {
        assert_eq!(send_code(&s, &format!("6.6.6.{n}, 203.0.113.9, 10.1.2.3")).await?, 2000, "request {n}");
    }
    assert_eq!(send_code(&s, "6.6.6.4, 203.0.113.9, 10.1.2.3").await?, 3000, "a made-up first entry is no new address");
    assert_eq!(send_code(&s, "203.0.113.10").await?, 2000, "another browser behind the proxy");
    Ok(())
}

#[tokio::test]
async fn the_address_header_counts_only_from_a_trusted_proxy() -> TestResult {
    let s = behind_proxies(&["10.0.0.0/8"]).await?;
    for n in 1..=3 {
        assert_eq!(send_code(&s, &format!("6.6.6.{n}, 203.0.113.{n}")).await?, 2000, "request {n}");
    }
    assert_eq!(send_code(&s, "6.6.6.4, 203.0.113.4").await?, 3000, "the peer (127.0.0.1) is no proxy: its header is its own");
    Ok(())
}

#[tokio::test]
async fn hosts_no_variant_names_are_refused_but_probes_answer() -> TestResult {
    // The harness names cc.example.net for cc and the loopback address for qs.
    let s = common::start().await?;
    let client = reqwest::Client::new();
    let get = |path: &str, host: &str| client.get(format!("{}{path}", root(&s))).header("Host", host);
    for host in ["evil.example.org", "cc.example.net.evil.org", "cc.evil.org", "10.0.0.1:8080"] {
        assert_refused(get("/diyvrbt/system/info", host).send().await?, host).await?;
        assert_refused(get("/diyvrbt/system/info", host).header("X-Variant", "qs").send().await?, host).await?;
        assert_refused(get("/", host).send().await?, host).await?;
        for probe in ["/healthz", "/readyz"] {
            assert_eq!(get(probe, host).send().await?.status(), StatusCode::OK, "{probe} for {host}");
        }
    }
    let cc = envelope(get("/diyvrbt/system/info", "cc.example.net:443")).await?;
    assert_eq!(cc["code"], 2000, "{cc}");
    Ok(())
}

/// Catalogue T1: the same requests on each carrier's own host get that carrier: its variant, the
/// entry page naming it (the front end's headers and pictures follow it), its ringtone limits, and
/// only its own users; a user of one carrier is a stranger on another's host.
#[tokio::test]
async fn each_carriers_host_gets_its_own_variant_page_limits_and_users() -> TestResult {
    let carriers = [("qs", "127.0.0.1", 3.0), ("cc", "cc.example.net", 4.0), ("migu", "migu.example.net", 5.0), ("cu", "cu.example.net", 6.0)];
    let spa = built_spa()?;
    let static_dir = spa.path().to_path_buf();
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.http.static_dir = static_dir;
        for (variant, host, seconds) in carriers {
            c.tenants.entry(variant.to_owned()).or_default().hosts = vec![host.to_owned()];
            c.ring.profiles.entry(variant.to_owned()).or_insert_with(common::ring_profile).max_seconds = seconds;
        }
    })
    .await?;
    let client = reqwest::Client::new();
    let mut users = Vec::new();
    for (variant, _, _) in carriers {
        users.push(s.user(variant, "carrier", 1).await?);
    }
    // As the carrier's browser signs its calls: cc's with a bearer token, the others' with userId.
    let signed = |r: reqwest::RequestBuilder, user: &common::User| {
        if user.tenant == "cc" {
            r.header("Authorization", format!("Bearer {}", user.token))
        } else {
            r.header("Authorization", &user.token).header("userId", &user.user_id)
        }
    };
    for ((variant, host, seconds), user) in carriers.iter().zip(&users) {
        let get = |path: &str| client.get(format!("{}{path}", root(&s))).header("Host", *host);
        let info = envelope(get("/diyvrbt/system/info")).await?;
        assert_eq!((info["code"].as_i64(), info["data"]["variant"].as_str()), (Some(2000), Some(*variant)), "{host}: {info}");

        let page = get("/").send().await?;
        assert_eq!(page.status(), StatusCode::OK, "{host}");
        let tag = header(&page, "etag").ok_or("the entry page has an ETag")?;
        let body = page.text().await?;
        assert!(body.contains(&format!("<meta name=\"reelforge-variant\" content=\"{variant}\" />")), "{host}: {body}");
        let again = get("/").header("If-None-Match", &tag).send().await?;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{host}: the same page revalidates");

        let profile = data(signed(get("/diyvrbt/ring/profile"), user)).await?;
        assert_eq!((profile["variant"].as_str(), profile["maxSeconds"].as_f64()), (Some(*variant), Some(*seconds)), "{host}: {profile}");

        for stranger in users.iter().filter(|u| u.tenant != *variant) {
            let v = envelope(signed(get("/diyvrbt/ring/profile"), stranger)).await?;
            assert_eq!(v["code"], 4000, "{}'s user on {host}: {v}", stranger.tenant);
        }
    }
    // Entry pages differ by carrier, so a cache keyed by host never serves one carrier another's.
    let tags: std::collections::HashSet<String> = futures::future::try_join_all(carriers.iter().map(|(_, host, _)| {
        let request = client.get(format!("{}/", root(&s))).header("Host", *host);
        async move { Ok::<_, reqwest::Error>(header(&request.send().await?, "etag").unwrap_or_default()) }
    }))
    .await?
    .into_iter()
    .collect();
    assert_eq!(tags.len(), carriers.len(), "{tags:?}");
    assert_refused(client.get(format!("{}/", root(&s))).header("Host", "carrier.example.org").send().await?, "an unknown host").await?;
    Ok(())
}

/// Sends `head` (a request line and headers, without the blank line) and then `body` in one write
/// on a fresh connection, and reads the answer: its status and its body. A write the server cut
/// short (it answered before reading everything) is not an error: the answer is still read.
fn exchange(addr: &str, head: &str, body: &[u8]) -> Result<(u16, String), String> {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    conn.set_read_timeout(Some(std::time::Duration::from_secs(20))).map_err(|e| e.to_string())?;
    let mut bytes = format!("{head}\r\nConnection: close\r\n\r\n").into_bytes();
    bytes.extend_from_slice(body);
    let _ = conn.write_all(&bytes);
    let mut answer = Vec::new();
    let mut chunk = [0u8; 8192];
    // Until the announced body is whole (the server may keep the connection open a while).
    let whole = |a: &[u8]| {
        let text = String::from_utf8_lossy(a);
        let Some((head, body)) = text.split_once("\r\n\r\n") else { return false };
        let length = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").and_then(|n| n.trim().parse::<usize>().ok()));
        length.is_some_and(|n| body.len() >= n)
    };
    while !whole(&answer) {
        match conn.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) if answer.is_empty() => return Err(format!("no answer: {e}")),
            Err(_) => break,
        }
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(|| format!("not HTTP: {text:.200}"))?;
    // One answer per connection (`Connection: close`), so the rest is its body.
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    Ok((status, body))
}

#[tokio::test]
async fn every_route_taking_a_body_refuses_an_oversized_one_in_the_envelope() -> TestResult {
    const LIMIT: usize = 64 * 1024;
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.http.max_body_bytes = LIMIT).await?;
    let me = s.user("qs", "bulky", 8).await?;
    let mut routes: Vec<String> = crate::isolation::registered()
        .into_iter()
        .filter_map(|r| r.strip_prefix("POST ").map(str::to_owned))
        .collect();
    // Signing out (its body is not read) ends the session the other routes use: last.
    routes.sort_by_key(|r| r == "/user/logout");
    assert!(routes.len() > 50, "routes with a body, from the route table: {routes:?}");
    let addr = s.config.http.addr.clone();
    let body = serde_json::json!({ "name": "x".repeat(2 * LIMIT) }).to_string().into_bytes();
    // Two chunks of the same body: the length is never announced.
    let half = body.len() / 2;
    let mut chunked = Vec::new();
    for part in [&body[..half], &body[half..]] {
        chunked.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
        chunked.extend_from_slice(part);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let mut read_and_refused = 0;
    for route in &routes {
        // Path parameters get an id nobody has.
        let path: String = route.split('/').map(|seg| if seg.starts_with('{') { "1" } else { seg }).collect::<Vec<_>>().join("/");
        let head = format!(
            "POST /diyvrbt{path} HTTP/1.1\r\nHost: {addr}\r\nX-Variant: qs\r\nAuthorization: {}\r\nuserId: {}\r\nmobile: \r\n\
             Content-Type: application/json",
            me.token, me.user_id
        );
        // Announced: refused before a byte is read, so none is sent.
        let (status, answer) = tokio::task::spawn_blocking({
            let (addr, head) = (addr.clone(), format!("{head}\r\nContent-Length: {}", body.len()));
            move || exchange(&addr, &head, b"")
        })
        .await?
        .map_err(|e| format!("{route} announced: {e}"))?;
        let v: serde_json::Value = serde_json::from_str(&answer).map_err(|e| format!("{route}: not an envelope ({e}): {answer}"))?;
        assert_eq!(status, 413, "{route} announced: {v}");
        assert_eq!((v["code"].as_i64(), v["data"]["reason"].as_str()), (Some(3000), Some("body_too_large")), "{route}: {v}");
        assert_eq!(v["data"]["limitBytes"].as_u64(), Some(LIMIT as u64), "{route}: {v}");
        assert!(v["desc"].as_str().is_some_and(|d| d.contains("http.max_body_bytes")), "{route}: {v}");
        // Chunked: a route that reads its body refuses it once past the limit; one that takes no
        // body answers as it would without it. Never a server error, always the envelope.
        let (status, answer) = tokio::task::spawn_blocking({
            let (addr, head, chunked) = (addr.clone(), format!("{head}\r\nTransfer-Encoding: chunked"), chunked.clone());
            move || exchange(&addr, &head, &chunked)
        })
        .await?
        .map_err(|e| format!("{route} chunked: {e}"))?;
        assert!(status < 500, "{route} chunked: {status} {answer}");
        let v: serde_json::Value = serde_json::from_str(&answer).map_err(|e| format!("{route} chunked: not an envelope ({e}): {answer}"))?;
        assert!(v["code"].as_i64().is_some(), "{route} chunked: {v}");
        if status == 413 {
            assert_eq!(v["data"]["reason"], "body_too_large", "{route} chunked: {v}");
            read_and_refused += 1;
        }
    }
    assert!(read_and_refused > routes.len() / 2, "{read_and_refused} of {} routes refused the chunked body", routes.len());
    // The gateway is still whole, and a body within the limit is read.
    let after = s.user("qs", "after", 8).await?;
    data(s.call(reqwest::Method::POST, "/material/ofuser", &after).json(&serde_json::json!({ "name": "ok" }))).await?;
    Ok(())
}

/// The resident memory of this process (the gateway runs in it), bytes.
fn resident() -> Fallible<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    Ok(kb.ok_or("no VmRSS")? * 1024)
}

/// A body streamed far past the limit is refused (413 in the envelope) and never held: actix
/// drains what follows the answer without keeping it, so the gateway's memory grows by far less
/// than what was streamed.
#[tokio::test]
async fn a_chunked_body_far_past_the_limit_is_refused_and_never_held() -> TestResult {
    const LIMIT: usize = 1 << 20;
    // Far past anything the other tests of this binary, running beside it, make resident.
    const STREAMED: usize = 768 << 20;
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.http.max_body_bytes = LIMIT).await?;
    let me = s.user("qs", "endless", 8).await?;
    let head = format!(
        "POST /diyvrbt/category/taskvideo HTTP/1.1\r\nHost: {}\r\nX-Variant: qs\r\nAuthorization: {}\r\nuserId: {}\r\nmobile: \r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.config.http.addr, me.token, me.user_id
    );
    let addr = s.config.http.addr.clone();
    let before = resident()?;
    let (sent, answer) = tokio::task::spawn_blocking(move || -> Result<(usize, String), String> {
        use std::io::{Read, Write};
        let mut conn = std::net::TcpStream::connect(&addr).map_err(|e| e.to_string())?;
        conn.set_write_timeout(Some(std::time::Duration::from_secs(5))).map_err(|e| e.to_string())?;
        conn.set_read_timeout(Some(std::time::Duration::from_secs(20))).map_err(|e| e.to_string())?;
        conn.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
        let chunk = [b"10000\r\n".as_slice(), &[b' '; 0x10000], b"\r\n"].concat();
        let mut sent = 0;
        while sent < STREAMED && conn.write_all(&chunk).is_ok() {
            sent += 0x10000;
        }
        let _ = conn.write_all(b"0\r\n\r\n");
        let mut answer = Vec::new();
        let _ = conn.read_to_end(&mut answer);
        Ok((sent, String::from_utf8_lossy(&answer).into_owned()))
    })
    .await??;
    let grown = resident()?.saturating_sub(before);
    assert!(answer.starts_with("HTTP/1.1 413"), "after {sent} bytes: {answer:.300}");
    assert!(answer.contains("body_too_large"), "{answer:.300}");
    assert!(grown < (STREAMED / 2) as u64, "{grown} bytes more resident after streaming {sent} bytes to a {LIMIT}-byte limit");
    Ok(())
}
