//! Sign-in through the gateway: the code from the dev outbox, the rate limit with Retry-After, many
//! users behind one address with proof-of-work challenges past its threshold and a ceiling, tokens
//! checked on every call (expired, tampered, wrong key, alg none, revoked: 4000), logout, me, the
//! variants' headers, role rules, the administrators' users page and hand-offs.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reelforge_kit::identity::{Claims, OperatorLevel};
use reqwest::Method;

type TestResult = Fallible<()>;

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn last_code(s: &System, mail: &str) -> Fallible<String> {
    let text = std::fs::read_to_string(s.dir.path().join("mail-outbox.log"))?;
    let line = text.lines().rev().find(|l| l.split('\t').nth(2) == Some(mail)).ok_or("no mail")?;
    Ok(line.rsplit(' ').next().ok_or("no code")?.to_owned())
}

fn post(s: &System, path: &str, variant: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new().post(format!("{}{path}", s.base)).header("X-Variant", variant)
}

async fn sign_in_me_logout_and_rate_limit(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let mail = format!("{}@example.cn", uuid::Uuid::new_v4().simple());
    let sent = data(post(&s, "/user/sendCode", "qs").form(&[("mail", &mail)])).await?;
    assert_eq!(sent["resendAfterSeconds"], 60);

    let again = post(&s, "/user/sendCode", "qs").form(&[("mail", &mail)]).send().await?;
    let wait = again.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok()).ok_or("Retry-After")?;
    let v: serde_json::Value = again.json().await?;
    assert_eq!(v["code"], 3000);
    assert_eq!(v["data"], serde_json::json!({"reason": "rate_limited", "retryAfterSeconds": wait}), "{v}");
    assert!(v["desc"].as_str().is_some_and(|d| d.is_ascii() && d.contains(&format!("try again in {wait} seconds"))), "one language: {v}");

    let bad = envelope(post(&s, "/user/login", "qs").json(&serde_json::json!({"mail": mail, "code": "000000x"}))).await?;
    assert_eq!(bad["code"], 3000);
    assert!(bad["desc"].as_str().is_some_and(|d| d.starts_with("验证码错误或已过期")), "{bad}");
    let code = last_code(&s, &mail)?;
    let login = data(post(&s, "/user/login", "qs").json(&serde_json::json!({"mail": mail, "code": code}))).await?;
    assert_eq!(login["userId"], mail.as_str());
    assert_eq!((login["role"].as_str(), login["operatorLevel"].as_i64(), login["tenant"].as_str()), (Some("CREATE_VIDEO"), Some(8), Some("qs")));
    let user = User { tenant: "qs".into(), user_id: mail.clone(), token: login["token"].as_str().ok_or("token")?.to_owned() };

    let me = data(s.call(Method::GET, "/user/me", &user)).await?;
    assert_eq!((me["userId"].as_str(), me["tenant"].as_str()), (Some(mail.as_str()), Some("qs")));
    data(s.call(Method::POST, "/user/logout", &user)).await?;
    assert_eq!(envelope(s.call(Method::GET, "/user/me", &user)).await?["code"], 4000, "a revoked token");
    Ok(())
}

fn send_code(s: &System, body: serde_json::Value) -> reqwest::RequestBuilder {
    post(s, "/user/sendCode", "qs").json(&body)
}

/// The challenge of a `challenge_required` or `challenge_failed` refusal, after checking its shape.
fn challenge_of(v: &serde_json::Value, reason: &str) -> Fallible<(String, u32)> {
    assert_eq!((v["code"].as_i64(), v["data"]["reason"].as_str()), (Some(3000), Some(reason)), "{v}");
    assert!(v["data"].get("retryAfterSeconds").is_none(), "a challenge is not a wait: {v}");
    let token = v["data"]["challenge"]["token"].as_str().ok_or("challenge.token")?.to_owned();
    let bits = u32::try_from(v["data"]["challenge"]["bits"].as_u64().ok_or("challenge.bits")?)?;
    Ok((token, bits))
}

#[tokio::test]
async fn many_users_behind_one_address_get_codes_past_a_challenge_up_to_the_ceiling() -> TestResult {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.auth.challenge_after_per_ip_per_hour = 3;
        c.auth.requests_per_ip_per_hour = 12;
        c.auth.challenge_bits = 8;
    })
    .await?;
    let mail = |i: usize| format!("user{i}-{}@example.cn", uuid::Uuid::new_v4().simple());
    for i in 0..3 {
        assert_eq!(data(send_code(&s, serde_json::json!({"mail": mail(i)}))).await?["resendAfterSeconds"], 60);
    }
    let fourth = mail(3);
    let refused = send_code(&s, serde_json::json!({"mail": fourth})).send().await?;
    assert!(refused.headers().get("retry-after").is_none());
    let (token, bits) = challenge_of(&refused.json().await?, "challenge_required")?;
    assert_eq!(bits, 8);
    let solution = reelforge_auth::challenge::solve(&token, bits);
    let body = serde_json::json!({"mail": fourth, "challenge": token, "solution": solution});
    data(send_code(&s, body.clone())).await?;
    assert!(last_code(&s, &fourth).is_ok(), "the fourth user got a code");

    let reused = envelope(send_code(&s, serde_json::json!({"mail": mail(4), "challenge": token, "solution": solution}))).await?;
    let (fresh, _) = challenge_of(&reused, "challenge_failed")?;
    let wrong = (0u32..).map(|n| n.to_string()).find(|n| !reelforge_auth::challenge::solves(&fresh, n, bits)).ok_or("a non-solution")?;
    let wrong = envelope(send_code(&s, serde_json::json!({"mail": mail(5), "challenge": fresh, "solution": wrong}))).await?;
    let (fresh, _) = challenge_of(&wrong, "challenge_failed")?;

    // Seven requests so far; each further one is solved, until the ceiling of twelve holds anyway.
    let mut token = fresh;
    for i in 6..11 {
        let solution = reelforge_auth::challenge::solve(&token, bits);
        let v = envelope(send_code(&s, serde_json::json!({"mail": mail(i), "challenge": token, "solution": solution}))).await?;
        assert_eq!(v["code"], 2000, "request {}: {v}", i + 2);
        let next = envelope(send_code(&s, serde_json::json!({"mail": mail(i)}))).await?;
        if next["data"]["reason"] == "rate_limited" {
            assert_eq!(i, 8, "the ceiling is the twelfth request: {next}");
            return Ok(());
        }
        token = challenge_of(&next, "challenge_required")?.0;
    }
    Err("the ceiling did not hold".into())
}

async fn bad_tokens_and_headers_are_login_expired(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    assert_eq!(data(s.call(Method::GET, "/user/me", &ann)).await?["userId"], ann.user_id.as_str());

    let (_, claims) = s.keys.issue_user("qs", &ann.user_id, OperatorLevel::DEFAULT, 3600)?;
    let expired = s.keys.sign(&Claims { iat: claims.iat - 7200, nbf: claims.iat - 7200, exp: claims.iat - 3600, ..claims.clone() })?;
    let parts: Vec<String> = ann.token.split('.').map(str::to_owned).collect();
    let raised = serde_json::json!({"sub": ann.user_id, "tenant":"qs","role":"CREATE_VIDEO","level":0,"typ":"user",
        "kid":"k1","jti":"x","iat":claims.iat,"nbf":claims.nbf,"exp":claims.exp,"aud":"reelforge"});
    let tampered = format!("{}.{}.{}", parts[0], b64(raised.to_string().as_bytes()), parts[2]);
    let none = format!("{}.{}.", b64(br#"{"alg":"none","typ":"JWT","kid":"k1"}"#), b64(raised.to_string().as_bytes()));
    let other = reelforge_kit::Keyring::new(&[reelforge_kit::config::SigningKeyConfig { id: "k1".into(), secret: "another-secret-another-secret-another".into() }])?;
    let (wrong_key, _) = other.issue_user("qs", &ann.user_id, OperatorLevel::DEFAULT, 3600)?;
    let service = s.keys.service_token("qs", Some(&ann.user_id), 60)?;
    for (what, token) in [("expired", expired), ("tampered", tampered), ("alg none", none), ("wrong key", wrong_key), ("service token", service), ("garbage", "x".into())] {
        let u = User { token, ..ann.clone() };
        let v = envelope(s.call(Method::GET, "/user/me", &u)).await?;
        assert_eq!(v["code"], 4000, "{what}: {v}");
        assert_eq!(v["desc"], "登录过期,请重新登录！");
    }
    let anon = envelope(reqwest::Client::new().get(format!("{}/user/me", s.base))).await?;
    assert_eq!(anon["code"], 4000);

    let someone_else = reqwest::Client::new()
        .get(format!("{}/user/me", s.base))
        .header("X-Variant", "qs")
        .header("Authorization", &ann.token)
        .header("userId", "bob@example.cn");
    assert_eq!(envelope(someone_else).await?["code"], 4000, "userId must be the token's subject");
    let other_variant = reqwest::Client::new()
        .get(format!("{}/user/me", s.base))
        .header("X-Variant", "migu")
        .header("Authorization", &ann.token)
        .header("userId", &ann.user_id);
    assert_eq!(envelope(other_variant).await?["code"], 4000, "a token works for its own variant only");

    let cc = s.user("cc", "cat", 8).await?;
    assert_eq!(data(s.call(Method::GET, "/user/me", &cc)).await?["tenant"], "cc");
    let bare = reqwest::Client::new().get(format!("{}/user/me", s.base)).header("X-Variant", "cc").header("Authorization", &cc.token);
    assert_eq!(envelope(bare).await?["code"], 4000, "cc sends a Bearer token");
    let by_host = reqwest::Client::new()
        .get(format!("{}/user/me", s.base))
        .header("Host", "cc.example.net")
        .header("Authorization", format!("Bearer {}", cc.token));
    assert_eq!(data(by_host).await?["tenant"], "cc", "the variant from a configured host");
    // A token is bound to its tenant whatever names the request's: another tenant's host refuses it.
    let qs_on_cc_host = reqwest::Client::new()
        .get(format!("{}/user/me", s.base))
        .header("Host", "cc.example.net")
        .header("Authorization", format!("Bearer {}", ann.token))
        .header("userId", &ann.user_id);
    assert_eq!(envelope(qs_on_cc_host).await?["code"], 4000, "a qs token on cc's host");
    let cc_on_qs_host =
        reqwest::Client::new().get(format!("{}/user/me", s.base)).header("Authorization", &cc.token).header("userId", &cc.user_id);
    assert_eq!(envelope(cc_on_qs_host).await?["code"], 4000, "a cc token on qs's host");
    let cc_task = reqwest::Client::new()
        .get(format!("{}/videotask/mine", s.base))
        .header("Host", "cc.example.net")
        .header("Authorization", format!("Bearer {}", ann.token));
    assert_eq!(envelope(cc_task).await?["code"], 4000, "a qs token reaches none of cc's rows through cc's host");

    let info = data(reqwest::Client::new().get(format!("{}/system/info", s.base)).header("Host", "cc.example.net")).await?;
    assert_eq!((info["variant"].as_str(), info["variants"].as_array().map(Vec::len)), (Some("cc"), Some(4)), "{info}");
    assert_eq!(info["sceneLimit"], 48, "the default scene limit: {info}");
    let unknown = envelope(reqwest::Client::new().get(format!("{}/category/taskvideo", s.base)).header("X-Variant", "zz")).await?;
    assert_eq!(unknown["code"], 3000);
    assert!(unknown["desc"].as_str().is_some_and(|d| d.contains("unknown variant `zz`")), "{unknown}");
    Ok(())
}

async fn roles_and_the_users_page(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let maker = s.user("qs", "maker", 8).await?;
    let manager = s.user("qs", "manager", 3).await?;
    let body = serde_json::json!({"categoryName": "新闻", "dimension": "industry"});
    let refused = envelope(s.call(Method::POST, "/category/taskvideo", &maker).json(&body)).await?;
    assert_eq!(refused["code"], 4001, "{refused}");
    data(s.call(Method::POST, "/category/taskvideo", &manager).json(&body)).await?;

    assert_eq!(envelope(s.call(Method::GET, "/manage/users", &maker)).await?["code"], 4001);
    assert_eq!(envelope(s.call(Method::GET, "/manage/users", &manager)).await?["code"], 4001);
    let page = data(s.call(Method::GET, "/manage/users?keyword=maker&pageNum=1&pageSize=10", &admin)).await?;
    assert_eq!(page["total"], 1);
    assert_eq!(page["list"][0]["userId"], maker.user_id.as_str());
    assert_eq!((page["list"][0]["operatorLevel"].as_i64(), page["list"][0]["role"].as_str()), (Some(8), Some("CREATE_VIDEO")));
    assert_eq!(page["list"][0]["disabled"], false);

    let five = envelope(s.call(Method::POST, "/manage/users/level", &admin).json(&serde_json::json!({"userId": maker.user_id, "operatorLevel": 5}))).await?;
    assert!(five["code"] == 3000 && five["desc"].as_str().is_some_and(|d| d.starts_with("operatorLevel")), "{five}");
    data(s.call(Method::POST, "/manage/users/level", &admin).json(&serde_json::json!({"userId": maker.user_id, "operatorLevel": 4}))).await?;
    assert_eq!(envelope(s.call(Method::GET, "/user/me", &maker)).await?["code"], 4000, "signs in again after a level change");
    data(s.call(Method::POST, "/manage/users/disable", &admin).json(&serde_json::json!({"userId": manager.user_id, "disabled": true}))).await?;
    assert_eq!(envelope(s.call(Method::GET, "/user/me", &manager)).await?["code"], 4000, "a disabled user's token stops working");
    Ok(())
}

fn handoff_token(claims: serde_json::Value) -> Fallible<String> {
    let header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    Ok(jsonwebtoken::encode(&header, &claims, &jsonwebtoken::EncodingKey::from_secret(common::CC_HANDOFF_SECRET.as_bytes()))?)
}

async fn a_hand_off_signs_in_and_returns_only_to_own_hosts(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let now = jsonwebtoken::get_current_timestamp();
    let token = |jti: &str| {
        handoff_token(serde_json::json!({"sub": "u1001", "mobile": "13800000000", "tenant": "cc", "jti": jti,
            "iat": now, "exp": now + 60, "aud": "reelforge-handoff"}))
    };
    let first = data(post(&s, "/user/handoff", "cc").json(&serde_json::json!({"handoff": token("j1")?, "kind": "corp", "back": "https://cc.example.net/portal"}))).await?;
    assert_eq!((first["userId"].as_str(), first["mobile"].as_str(), first["tenant"].as_str()), (Some("u1001"), Some("13800000000"), Some("cc")));
    assert_eq!(first["backUrl"], "https://cc.example.net/portal");
    let user = User { tenant: "cc".into(), user_id: "u1001".into(), token: first["token"].as_str().ok_or("token")?.to_owned() };
    assert_eq!(data(s.call(Method::GET, "/user/me", &user)).await?["userId"], "u1001");

    let open = data(post(&s, "/user/handoff", "cc").json(&serde_json::json!({"handoff": token("j2")?, "kind": "ivvr", "back": "https://evil.example.org/"}))).await?;
    assert_eq!(open["backUrl"], "", "no open redirect");
    let replay = envelope(post(&s, "/user/handoff", "cc").json(&serde_json::json!({"handoff": token("j1")?, "kind": "corp", "back": ""}))).await?;
    assert!(replay["code"] == 3000 && replay["desc"].as_str().is_some_and(|d| d.contains("already used")), "{replay}");
    let kind = envelope(post(&s, "/user/handoff", "cc").json(&serde_json::json!({"handoff": token("j3")?, "kind": "bank", "back": ""}))).await?;
    assert!(kind["desc"].as_str().is_some_and(|d| d.starts_with("kind")), "{kind}");
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_sign_in_routes() -> TestResult {
    let s = common::start().await?;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for path in ["/diyvrbt/user/sendCode", "/diyvrbt/user/login", "/diyvrbt/user/handoff", "/diyvrbt/user/me", "/diyvrbt/user/logout", "/diyvrbt/manage/users", "/diyvrbt/manage/users/level", "/diyvrbt/manage/users/disable"] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
    Ok(())
}

/// The status, the headers a client could tell apart and the body of a code request.
async fn code_answer(s: &System, mail: &str) -> Fallible<(u16, Option<String>, Option<String>, serde_json::Value)> {
    let r = post(s, "/user/sendCode", "qs").form(&[("mail", mail)]).send().await?;
    let header = |name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (content_type, retry_after) = (header("content-type"), header("retry-after"));
    Ok((r.status().as_u16(), content_type, retry_after, r.json().await?))
}

/// A code asked for an address with an account and for one without gets the same HTTP answer,
/// first and repeated, so the answer tells no one which addresses have accounts (catalogue S10).
async fn a_code_request_does_not_tell_whether_an_account_exists(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let known = s.user("qs", "known", 8).await?;
    let unknown = format!("{}@example.cn", uuid::Uuid::new_v4().simple());
    let (first_known, first_unknown) = (code_answer(&s, &known.user_id).await?, code_answer(&s, &unknown).await?);
    assert_eq!(first_known.3["code"], 2000, "{first_known:?}");
    assert_eq!(first_known, first_unknown, "the first request");
    let (again_known, again_unknown) = (code_answer(&s, &known.user_id).await?, code_answer(&s, &unknown).await?);
    assert_eq!(again_known.3["data"]["reason"], "rate_limited", "{again_known:?}");
    assert_eq!(again_known.0, again_unknown.0);
    assert_eq!(again_known.3["code"], again_unknown.3["code"]);
    // The wait counts down by the second: the two may be a second apart, never different in kind.
    let wait = |a: &(u16, Option<String>, Option<String>, serde_json::Value)| a.3["data"]["retryAfterSeconds"].as_u64();
    assert!(wait(&again_known).zip(wait(&again_unknown)).is_some_and(|(k, u)| k.abs_diff(u) <= 1), "{again_known:?} {again_unknown:?}");
    Ok(())
}

common::on_both_backends!(
    sign_in_me_logout_and_rate_limit,
    bad_tokens_and_headers_are_login_expired,
    roles_and_the_users_page,
    a_hand_off_signs_in_and_returns_only_to_own_hosts,
    a_code_request_does_not_tell_whether_an_account_exists,
);
