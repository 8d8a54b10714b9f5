//! The ringtone journey through the gateway with the ring platform inside the binary: a finished
//! work, the number checked, a copyright proof uploaded, the order saved (twice: one order),
//! uploaded, delivered (SUCCESS, "my ringtones"), cancelled; the refusals in the envelope with
//! their reasons; the tenant's orders for its managers only.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;

use crate::common::{self, Fallible, data, envelope};

/// A one-page PDF as small as the format allows.
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

#[tokio::test]
async fn a_finished_work_becomes_a_ringtone_and_is_cancelled() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "ringer", 8).await?;
    let task = data(s.call(Method::POST, "/videotask/save", &me).form(&[
        ("taskInfo", common::rule().to_string()),
        ("name", "我的彩铃".into()),
    ]))
    .await?
    .as_i64()
    .ok_or("task id")?;
    let early = envelope(
        s.call(Method::POST, "/platform/saveRing", &me)
            .json(&json!({"taskId": task, "phone": "13800138000", "copyrightAgreed": true})),
    )
    .await?;
    assert_eq!(
        (early["code"].as_i64(), early["data"]["reason"].as_str()),
        (Some(3000), Some("task_not_finished")),
        "{early}"
    );
    common::finish_task(&s, &me, task).await?;

    let profile = data(s.call(Method::GET, "/ring/profile", &me)).await?;
    assert_eq!(
        (profile["variant"].as_str(), profile["maxSeconds"].as_f64()),
        (Some("qs"), Some(3.0)),
        "{profile}"
    );
    // The finished work measured against it, and a document's own rules.
    let report = data(s.call(Method::POST, "/ring/check", &me).json(&json!({"taskId": task}))).await?;
    assert_eq!(
        (report["conforms"].as_bool(), report["measured"]["height"].as_u64()),
        (Some(true), Some(320)),
        "{report}"
    );
    // A conforming video has nothing to fix; a fix that is not this task's is not found.
    let fix = envelope(s.call(Method::POST, "/ring/fix", &me).json(&json!({"taskId": task}))).await?;
    assert_eq!((fix["code"].as_i64(), fix["data"]["reason"].as_str()), (Some(3000), Some("nothing_to_fix")), "{fix}");
    let stray = envelope(s.call(Method::POST, "/ring/check", &me).json(&json!({"taskId": task, "fixId": task}))).await?;
    assert_eq!((stray["code"].as_i64(), stray["data"]["reason"].as_str()), (Some(3000), Some("fix_not_found")), "{stray}");
    let pre = data(
        s.call(Method::POST, "/ring/precheck", &me)
            .json(&json!({"width": 1280, "height": 720, "seconds": 2.0})),
    )
    .await?;
    assert_eq!(pre["conforms"], false, "{pre}");
    assert_eq!(pre["violations"][0]["rule"], "size", "{pre}");
    let phone = data(
        s.call(Method::POST, "/material/v2/ifdownloadbyphone", &me)
            .json(&json!({"phone": "+86 138 0013 8000"})),
    )
    .await?;
    assert_eq!(
        phone,
        json!({"phone": "13800138000", "allowed": true, "state": 0, "reason": ""})
    );
    let bad = envelope(
        s.call(Method::POST, "/material/v2/ifdownloadbyphone", &me)
            .json(&json!({"phone": "12345"})),
    )
    .await?;
    assert_eq!(
        (bad["code"].as_i64(), bad["data"]["reason"].as_str()),
        (Some(3000), Some("phone_invalid")),
        "{bad}"
    );

    // The copyright proof: a PDF that ends as one; a cut one is refused.
    let (ct, body) = common::multipart(&[("file", Some("授权书.pdf"), PDF)]);
    let proof = data(
        s.call(Method::POST, "/upload/copyright", &me)
            .header("Content-Type", ct)
            .body(body),
    )
    .await?;
    assert_eq!(proof["name"], "授权书.pdf");
    let url = proof["url"].as_str().ok_or("proof url")?;
    let origin = s.base.trim_end_matches("/diyvrbt");
    let file = reqwest::get(format!("{origin}{url}")).await?;
    assert_eq!(file.status().as_u16(), 200);
    assert_eq!(
        file.bytes().await?.as_ref(),
        PDF,
        "the proof is served by its signed URL"
    );
    let (ct, body) = common::multipart(&[("file", Some("cut.pdf"), &PDF[..40])]);
    let cut = envelope(
        s.call(Method::POST, "/upload/copyright", &me)
            .header("Content-Type", ct)
            .body(body),
    )
    .await?;
    assert_eq!(cut["data"]["reason"], "unreadable_file", "{cut}");

    let save = json!({"taskId": task, "phone": "138 0013 8000", "copyrightAgreed": false, "copyrightId": proof["id"]});
    let order = data(s.call(Method::POST, "/platform/saveRing", &me).json(&save)).await?;
    assert_eq!(
        (
            order["state"].as_i64(),
            order["phone"].as_str(),
            order["taskName"].as_str()
        ),
        (Some(0), Some("13800138000"), Some("我的彩铃")),
        "{order}"
    );
    let id = order["id"].as_i64().ok_or("order id")?;
    let again = data(s.call(Method::POST, "/platform/saveRing", &me).json(&save)).await?;
    assert_eq!(
        again["id"].as_i64(),
        Some(id),
        "a second submit answers the same order"
    );
    let no_proof = envelope(
        s.call(Method::POST, "/platform/saveRing", &me)
            .json(&json!({"taskId": task, "phone": "13800138001"})),
    )
    .await?;
    assert_eq!(
        no_proof["data"]["reason"], "copyright_missing",
        "{no_proof}"
    );

    let queued = data(
        s.call(Method::POST, "/material/ringUpload", &me)
            .json(&json!({"orderId": id})),
    )
    .await?;
    assert_eq!(
        queued["state"].as_i64(),
        Some(2),
        "SETTING: submitted, waiting"
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    let set = loop {
        let mine = data(s.call(Method::GET, "/ring/orders", &me)).await?;
        let o = mine["list"][0].clone();
        if o["state"] == 1 {
            assert_eq!(mine["total"], 1, "one order: {mine}");
            break o;
        }
        assert!(
            Instant::now() < deadline,
            "the order was not delivered: {mine}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(set["phone"], "138****8000", "masked in lists: {set}");
    assert!(
        set["platformRef"]
            .as_str()
            .is_some_and(|r| r.starts_with("local-")),
        "{set}"
    );
    assert!(
        set["cover"]
            .as_str()
            .is_some_and(|c| c.starts_with("/diyvrbt/ring/file?key=")),
        "{set}"
    );
    let twice = envelope(
        s.call(Method::POST, "/material/ringUpload", &me)
            .json(&json!({"orderId": id})),
    )
    .await?;
    assert_eq!(twice["data"]["reason"], "order_state", "{twice}");

    let cancelled = data(
        s.call(Method::POST, "/ring/cancel", &me)
            .json(&json!({"orderId": id})),
    )
    .await?;
    assert_eq!(cancelled["state"].as_i64(), Some(3));

    // The tenant's orders: its managers see them, a creator is refused, another tenant sees none.
    let creator = envelope(s.call(Method::GET, "/manage/ring/orders", &me)).await?;
    assert_eq!(creator["code"], 4001, "{creator}");
    let manager = s.user("qs", "ops", 3).await?;
    let all = data(s.call(Method::GET, "/manage/ring/orders?state=3", &manager)).await?;
    assert_eq!(
        (all["total"].as_u64(), all["list"][0]["id"].as_i64()),
        (Some(1), Some(id)),
        "{all}"
    );
    let elsewhere = s.user("cc", "ops", 3).await?;
    let none = data(s.call(Method::GET, "/manage/ring/orders", &elsewhere)).await?;
    assert_eq!(none["total"], 0, "{none}");
    Ok(())
}

/// A proof one byte over 5 MiB inside a body whose announced length passes the first check: the
/// answer is the envelope's `file_too_large`, read while the client is still sending, and the
/// gateway serves the next request.
#[tokio::test]
async fn an_over_size_proof_is_refused_in_the_envelope() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "bigproof", 8).await?;
    let addr = s.config.http.addr.clone();
    let mut file = PDF.to_vec();
    file.resize(5 * 1024 * 1024 + 1, b' ');
    let mut body = b"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\nContent-Type: application/pdf\r\n\r\n".to_vec();
    body.extend_from_slice(&file);
    body.extend_from_slice(b"\r\n--x--\r\n");
    let head = format!(
        "POST /diyvrbt/upload/copyright HTTP/1.1\r\nHost: {addr}\r\nX-Variant: qs\r\nAuthorization: {}\r\nuserId: {}\r\nmobile: \r\n\
         Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {}\r\n\r\n",
        me.token,
        me.user_id,
        body.len()
    );
    let answer = tokio::task::spawn_blocking(move || -> Result<String, std::io::Error> {
        use std::io::{Read, Write};
        let conn = std::net::TcpStream::connect(&addr)?;
        conn.set_read_timeout(Some(Duration::from_secs(20)))?;
        let mut writer = conn.try_clone()?;
        // The server may answer and stop reading before the body ends: a write error then is expected.
        let sender = std::thread::spawn(move || {
            let _ = writer.write_all(head.as_bytes()).and_then(|()| writer.write_all(&body));
        });
        let mut reader = conn;
        let (mut buf, mut chunk) = (Vec::new(), [0u8; 4096]);
        while !buf.ends_with(b"}") {
            match reader.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let _ = reader.shutdown(std::net::Shutdown::Both);
        let _ = sender.join();
        Ok(String::from_utf8_lossy(&buf).into_owned())
    })
    .await??;
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(body).map_err(|e| format!("{e}: {answer}"))?;
    assert_eq!((v["code"].as_i64(), v["data"]["reason"].as_str()), (Some(3000), Some("file_too_large")), "{v}");
    let mine = data(s.call(Method::GET, "/ring/orders", &me)).await?;
    assert_eq!(mine["total"], 0, "nothing recorded: {mine}");
    Ok(())
}
