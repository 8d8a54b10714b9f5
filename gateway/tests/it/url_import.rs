//! Videos imported by address (docs/toolbox.md "URL import") from HTTP servers of the test: the
//! listed host's video becomes the caller's material; an unlisted host, a redirect to one, a body
//! past the video limit, a page that is no video and a tenant with no list are refused naming
//! `urls[i]` (or `urls`), nothing is stored, and the unlisted server is never asked.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A tiny HTTP/1.0 server on `ip`: `/clip.mp4` the clip, `/big.mp4` 2 MiB that start as an MP4,
/// `/page.html` a page, `/away` a redirect to `target`; it counts the requests it answers.
async fn server(ip: &str, clip: Vec<u8>, target: String) -> Fallible<(u16, Arc<AtomicUsize>)> {
    let listener = tokio::net::TcpListener::bind((ip, 0)).await?;
    let port = listener.local_addr()?.port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let clip = Arc::new(clip);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            let (clip, target) = (clip.clone(), target.clone());
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let (status, extra, body): (&str, String, Vec<u8>) = match path.as_str() {
                    "/clip.mp4" => ("200 OK", String::new(), clip.to_vec()),
                    "/big.mp4" => {
                        let mut big = clip[..clip.len().min(64)].to_vec();
                        big.resize(2 * 1024 * 1024, 0);
                        ("200 OK", String::new(), big)
                    }
                    "/page.html" => ("200 OK", String::new(), b"<html><body>not a video</body></html>".to_vec()),
                    "/away" => ("302 Found", format!("Location: {target}\r\n"), Vec::new()),
                    _ => ("404 Not Found", String::new(), Vec::new()),
                };
                let reply = format!("HTTP/1.0 {status}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n", body.len());
                let _ = socket.write_all(reply.as_bytes()).await;
                let _ = socket.write_all(&body).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    Ok((port, hits))
}

async fn objects(s: &System, user: &User) -> Fallible<Vec<String>> {
    let prefix = reelforge_kit::blob::user_material_prefix(&user.tenant, &user.user_id);
    Ok(s.blobs.list(&prefix).await?)
}

#[tokio::test]
async fn a_listed_hosts_video_becomes_a_material_and_nothing_else_is_fetched() -> Fallible<()> {
    let clip = common::ring_clip()?.to_vec();
    // The unlisted server (127.0.0.2) first: the listed one redirects to it.
    let (away_port, away_hits) = server("127.0.0.2", clip.clone(), String::new()).await?;
    let (port, hits) = server("127.0.0.1", clip.clone(), format!("http://127.0.0.2:{away_port}/clip.mp4")).await?;
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        if let Some(qs) = c.tenants.get_mut("qs") {
            qs.import_hosts = vec![format!("127.0.0.1:{port}")];
        }
        c.upload.video_mb = 1;
    })
    .await?;
    let ann = s.user("qs", "ann", 8).await?;
    let base = format!("http://127.0.0.1:{port}");

    let refusals = [
        (json!({"urls": []}), "urls", ""),
        (json!({"urls": [format!("{base}/clip.mp4"), format!("http://127.0.0.2:{away_port}/clip.mp4")]}), "urls[1]", "is not one videos may be imported from"),
        (json!({"urls": [format!("{base}/away")]}), "urls[0]", "127.0.0.2"),
        (json!({"urls": [format!("{base}/big.mp4")]}), "urls[0]", "file too large"),
        (json!({"urls": [format!("{base}/page.html")]}), "urls[0]", ""),
        (json!({"urls": [format!("http://127.0.0.1:{}/clip.mp4", port.wrapping_add(1))]}), "urls[0]", "is not one"),
        (json!({"urls": ["file:///etc/passwd"]}), "urls[0]", "not an http"),
    ];
    for (body, field, words) in refusals {
        let answer = envelope(s.call(Method::POST, "/material/v2/batchUrlVideoAddResult", &ann).json(&body)).await?;
        assert_eq!(answer["code"], 3000, "{body}: {answer}");
        assert_eq!(answer["data"]["field"].as_str(), Some(field), "{body}: {answer}");
        let desc = answer["desc"].as_str().unwrap_or_default();
        assert!(desc.starts_with(field) && desc.contains(words), "{body}: {desc}");
    }
    assert_eq!(away_hits.load(Ordering::SeqCst), 0, "the unlisted server is never asked");
    assert!(objects(&s, &ann).await?.is_empty(), "nothing stored");
    assert_eq!(data(s.call(Method::POST, "/material/ofuser", &ann).json(&json!({}))).await?["total"], 0, "no material");

    let fetched_before = hits.load(Ordering::SeqCst);
    let answer = data(s.call(Method::POST, "/material/v2/batchUrlVideoAddResult", &ann).json(&json!({"urls": [format!("{base}/clip.mp4")]}))).await?;
    let id = answer["materialIds"][0].as_str().ok_or("materialIds")?.to_owned();
    assert_eq!(hits.load(Ordering::SeqCst), fetched_before + 1);
    let m = common::settled(&s, &ann, &id).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str(), m["state"].as_str()), (Some("video"), Some("clip.mp4"), Some("ready")), "{m}");
    assert_eq!(m["fileSize"].as_u64(), Some(clip.len() as u64), "{m}");

    // Another tenant lists no host: its users import nothing.
    let cid = s.user("cc", "cid", 8).await?;
    let off = envelope(s.call(Method::POST, "/material/v2/batchUrlVideoAddResult", &cid).json(&json!({"urls": [format!("{base}/clip.mp4")]}))).await?;
    assert_eq!((off["code"].as_i64(), off["data"]["field"].as_str()), (Some(3000), Some("urls")), "{off}");
    assert!(off["desc"].as_str().is_some_and(|d| d.contains("not configured")), "{off}");
    Ok(())
}
