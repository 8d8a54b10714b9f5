//! The sign-in flow on SQLite with the memory cache and on PostgreSQL with Redis.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use reelforge_auth::{Auth, AuthError, Claims, Mail, Tokens, UserStore, migrate};
use reelforge_kit::Cache;
use reelforge_kit::config::AuthConfig;
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite, redis_url, unique};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SECRET: &str = "test-secret";

fn config() -> AuthConfig {
    AuthConfig { jwt_secret: SECRET.into(), token_hours: 1, code_ttl_seconds: 120 }
}

/// Reads the last code mailed to `mail` from the dev outbox.
fn last_code(outbox: &Path, mail: &str) -> Result<String, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(outbox.join("mail-outbox.log"))?;
    let line = text.lines().rev().find(|l| l.split('\t').nth(2) == Some(mail)).ok_or("no mail in the outbox")?;
    Ok(line.chars().rev().take(6).collect::<String>().chars().rev().collect())
}

fn other_code(code: &str) -> String {
    let first = if code.starts_with('0') { '1' } else { '0' };
    std::iter::once(first).chain(code.chars().skip(1)).collect()
}

async fn setup(db_url: &str, cache: Arc<dyn Cache>) -> Result<(Auth, UserStore, PathBuf), Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(db_url).await?;
    migrate(&db).await?;
    migrate(&db).await?;
    let outbox = std::env::temp_dir().join(unique("reelforge-outbox"));
    Ok((Auth::new(db.clone(), cache, &config(), outbox.clone()), UserStore::new(db), outbox))
}

async fn suite(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let (auth, users, outbox) = setup(db_url, cache.clone()).await?;
    let mail = format!("{}@example.cn", unique("u"));

    assert!(matches!(auth.send_code("qs", "not-a-mail").await, Err(AuthError::Invalid(m)) if m.starts_with("mail")));
    assert_eq!(auth.send_code("qs", &mail).await?, 60);
    assert!(matches!(auth.send_code("qs", &mail).await, Err(AuthError::RateLimited(_))), "60 s resend interval");
    let code = last_code(&outbox, &mail)?;
    assert_eq!(code.len(), 6);

    // A wrong code is refused and does not burn the right one before five tries.
    let wrong = auth.login("qs", &mail, &other_code(&code)).await;
    assert!(matches!(wrong, Err(AuthError::Unauthenticated(m)) if m == "verification code is wrong or expired"));
    assert!(matches!(auth.login("cc", &mail, &code).await, Err(AuthError::Unauthenticated(_))), "codes are per tenant");

    let login = auth.login("qs", &mail, &code).await?;
    assert_eq!((login.user_id.as_str(), login.role.as_str(), login.operator_level), (mail.as_str(), "CREATE_VIDEO", 8));
    assert!(matches!(auth.login("qs", &mail, &code).await, Err(AuthError::Unauthenticated(_))), "codes are single-use");

    let caller = auth.verify(&login.token, "qs")?;
    assert_eq!((caller.tenant.as_str(), caller.user_id.as_str(), caller.role.as_str()), ("qs", mail.as_str(), "CREATE_VIDEO"));
    assert!(matches!(auth.verify(&login.token, "cc"), Err(AuthError::Unauthenticated(_))), "cross-tenant token refused");

    // The second sign-in finds the same user; the role follows the operator level.
    users.set_operator_level("qs", &Mail::parse(&mail)?, 4).await?;
    let auth = auth.with_resend_interval(0);
    auth.send_code("qs", &mail).await?;
    let again = auth.login("qs", &mail, &last_code(&outbox, &mail)?).await?;
    assert_eq!((again.role.as_str(), again.operator_level), ("CREATE_TEMPLATE", 4));

    // Five wrong tries burn the code.
    auth.send_code("qs", &mail).await?;
    let code = last_code(&outbox, &mail)?;
    for _ in 0..5 {
        assert!(auth.login("qs", &mail, &other_code(&code)).await.is_err());
    }
    assert!(matches!(auth.login("qs", &mail, &code).await, Err(AuthError::Unauthenticated(_))), "burnt after five wrong tries");

    // Five codes per ten minutes (three sent so far).
    auth.send_code("qs", &mail).await?;
    auth.send_code("qs", &mail).await?;
    assert!(matches!(auth.send_code("qs", &mail).await, Err(AuthError::RateLimited(m)) if m == "too many codes, try later"));
    Ok(())
}

#[tokio::test]
async fn on_sqlite_with_memory_cache() -> TestResult {
    suite(&fresh_sqlite(), reelforge_kit::cache::open("memory://").await?).await
}

#[tokio::test]
async fn on_postgres_with_redis() -> TestResult {
    suite(&fresh_postgres().await?, reelforge_kit::cache::open(&redis_url()).await?).await
}

#[test]
fn bad_tokens_are_refused() -> TestResult {
    let tokens = Tokens::new(SECRET, 1);
    let now = jsonwebtoken::get_current_timestamp();
    let claims = Claims {
        sub: "a@x.cn".into(),
        tenant: "qs".into(),
        role: "CREATE_VIDEO".into(),
        exp: now + 600,
        iat: now,
        aud: "reelforge".into(),
    };
    let good = tokens.sign(&claims)?;
    assert_eq!(tokens.verify(&good, "qs")?.user_id, "a@x.cn");

    let expired = tokens.sign(&Claims { exp: now - 3600, iat: now - 7200, ..claims.clone() })?;
    assert!(matches!(tokens.verify(&expired, "qs"), Err(AuthError::Unauthenticated(_))), "expired");

    let wrong_aud = tokens.sign(&Claims { aud: "elsewhere".into(), ..claims.clone() })?;
    assert!(matches!(tokens.verify(&wrong_aud, "qs"), Err(AuthError::Unauthenticated(_))), "audience");

    let foreign = Tokens::new("another-secret", 1).sign(&claims)?;
    assert!(matches!(tokens.verify(&foreign, "qs"), Err(AuthError::Unauthenticated(_))), "other key");

    // Tamper with the payload: claim a different role, keep the signature.
    let parts: Vec<&str> = good.split('.').collect();
    let forged_claims = tokens.sign(&Claims { role: "TEMPLATE_MANAGER".into(), ..claims.clone() })?;
    let forged_payload = forged_claims.split('.').nth(1).ok_or("payload")?;
    let tampered = format!("{}.{}.{}", parts[0], forged_payload, parts[2]);
    assert!(matches!(tokens.verify(&tampered, "qs"), Err(AuthError::Unauthenticated(_))), "tampered");

    // An unsigned token ("alg": "none") is refused by the allowlist.
    let none_header = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0"; // {"alg":"none","typ":"JWT"}
    let unsigned = format!("{none_header}.{}.", parts[1]);
    assert!(matches!(tokens.verify(&unsigned, "qs"), Err(AuthError::Unauthenticated(_))), "alg none");
    Ok(())
}
