//! The sign-in flows on SQLite with the memory cache and on PostgreSQL with Redis; code mail over a
//! real SMTP server on loopback; hand-offs; logout, disabled users and the administrators' calls;
//! many users behind one client address, its proof-of-work challenges and its ceiling.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reelforge_auth::challenge::{self, Challenges};
use reelforge_auth::{Auth, AuthError, Challenge, Limits, Proof, ProofError, UserStore, grant, migrate};
use reelforge_kit::config::{AuthConfig, SigningKeyConfig, TenantConfig};
use reelforge_kit::identity::{Identity, IdentityError, OperatorLevel};
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite, redis_url, unique};
use reelforge_kit::{Cache, Config, Keyring};

type TestResult = Result<(), Box<dyn std::error::Error>>;
type Fallible<T> = Result<T, Box<dyn std::error::Error>>;

const HANDOFF_SECRET: &str = "host-platform-secret-for-cc-0123456789";

fn keys() -> Fallible<Keyring> {
    Ok(Keyring::new(&[SigningKeyConfig { id: "k1".into(), secret: "0123456789abcdef0123456789abcdef".into() }])?)
}

fn config(dir: &Path) -> Config {
    let mut c = Config { data_dir: dir.to_path_buf(), ..Config::default() };
    c.auth.token_hours = 1;
    c.auth.user_check_seconds = 2;
    if let Some(cc) = c.tenants.get_mut("cc") {
        *cc = TenantConfig { hosts: vec!["cc.example.net".into()], handoff_secret: HANDOFF_SECRET.into(), ..TenantConfig::default() };
    }
    c
}

/// The gateway's caller for `tenant`: a service token.
fn gateway(keys: &Keyring, tenant: &str) -> Fallible<Identity> {
    Ok(keys.verify(&keys.service_token(tenant, None, 60)?)?)
}

/// A client address no other test run used: Redis keeps the per-address counters for an hour.
fn ip() -> String {
    let n = uuid::Uuid::new_v4().as_u128();
    format!("fd00::{:x}:{:x}", (n >> 16) as u16, n as u16)
}

/// Reads the last code mailed to `mail` from the dev outbox.
fn last_code(outbox: &Path, mail: &str) -> Fallible<String> {
    let text = std::fs::read_to_string(outbox.join("mail-outbox.log"))?;
    let line = text.lines().rev().find(|l| l.split('\t').nth(2) == Some(mail)).ok_or("no mail in the outbox")?;
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.len(), 4, "{line}");
    assert!(chrono::DateTime::parse_from_rfc3339(fields[0]).is_ok(), "{line}");
    let code = fields[3].strip_prefix("your Reelforge verification code is ").ok_or("outbox line format")?;
    Ok(code.to_owned())
}

fn other_code(code: &str) -> String {
    let first = if code.starts_with('0') { '1' } else { '0' };
    std::iter::once(first).chain(code.chars().skip(1)).collect()
}

struct Setup {
    auth: Auth,
    users: UserStore,
    keys: Keyring,
    dir: tempfile::TempDir,
}

async fn setup(db_url: &str, cache: Arc<dyn Cache>) -> Fallible<Setup> {
    let db = reelforge_kit::db::connect(db_url).await?;
    migrate(&db).await?;
    migrate(&db).await?;
    let dir = tempfile::tempdir()?;
    let keys = keys()?;
    let auth = Auth::new(db.clone(), cache, &config(dir.path()), keys.clone())?;
    Ok(Setup { auth, users: UserStore::new(db), keys, dir })
}

fn is_wrong_code<T: std::fmt::Debug>(r: &Result<T, AuthError>) -> bool {
    matches!(r, Err(AuthError::Refused(m)) if m.starts_with("验证码错误或已过期"))
}

async fn suite(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache.clone()).await?;
    let (auth, outbox) = (&s.auth, s.dir.path());
    let qs = gateway(&s.keys, "qs")?;
    let cc = gateway(&s.keys, "cc")?;
    let mail = format!("{}@example.cn", unique("u"));
    let client = ip();

    assert!(matches!(auth.send_code(&qs, &client, "not-a-mail").await, Err(AuthError::Invalid(m)) if m.starts_with("mail")));
    assert_eq!(auth.send_code(&qs, &client, &mail).await?, 60);
    match auth.send_code(&qs, &client, &mail).await {
        Err(e @ AuthError::RateLimited { wait_seconds, .. }) => {
            assert!((1..=60).contains(&wait_seconds), "{wait_seconds}");
            assert!(e.to_string().contains(&format!("try again in {wait_seconds} seconds")), "{e}");
        }
        other => return Err(format!("60 s resend interval: {other:?}").into()),
    }
    let code = last_code(outbox, &mail)?;
    assert_eq!(code.len(), 6);
    let stored = cache.get(&format!("auth:code:qs:{mail}")).await?.ok_or("the code is kept")?;
    assert!(!stored.contains(&code), "only a hash of the code is kept");
    let life = cache.ttl(&format!("auth:code:qs:{mail}")).await?.ok_or("the code expires")?;
    assert!(life <= Duration::from_secs(300) && life > Duration::from_secs(250), "five-minute life: {life:?}");

    // A user token cannot ask for codes: only the gateway's service token may.
    let (user_token, _) = s.keys.issue_user("qs", &mail, OperatorLevel::DEFAULT, 60)?;
    let as_user = auth.send_code(&s.keys.verify(&user_token)?, &client, &mail).await;
    assert!(matches!(as_user, Err(AuthError::Identity(IdentityError::WrongKind(_)))), "{as_user:?}");

    assert!(is_wrong_code(&auth.login(&qs, &client, &mail, &other_code(&code)).await));
    assert!(is_wrong_code(&auth.login(&cc, &client, &mail, &code).await), "codes are per tenant");
    let login = auth.login(&qs, &client, &mail, &code).await?;
    assert_eq!((login.user.user_id.as_str(), login.user.level.number()), (mail.as_str(), 8));
    assert!(is_wrong_code(&auth.login(&qs, &client, &mail, &code).await), "codes are single-use");

    let caller = s.keys.verify(&login.token)?;
    assert_eq!((caller.tenant.as_str(), caller.user_id.as_deref()), ("qs", Some(mail.as_str())));
    assert_eq!(auth.verify(&caller).await?.user_id, mail);

    // Logout revokes this token only.
    let (second, _) = s.keys.issue_user("qs", &mail, OperatorLevel::DEFAULT, 3600)?;
    auth.logout(&caller).await?;
    assert!(matches!(auth.verify(&caller).await, Err(AuthError::Revoked)));
    assert!(auth.verify(&s.keys.verify(&second)?).await.is_ok());
    Ok(())
}

/// Five wrong tries burn the code, and twenty concurrent guesses compare it at most five times.
async fn burning(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let qs = gateway(&s.keys, "qs")?;
    let mail = format!("{}@example.cn", unique("b"));
    s.auth.send_code(&qs, "", &mail).await?;
    let code = last_code(s.dir.path(), &mail)?;
    for _ in 0..5 {
        assert!(is_wrong_code(&s.auth.login(&qs, "", &mail, &other_code(&code)).await));
    }
    assert!(is_wrong_code(&s.auth.login(&qs, "", &mail, &code).await), "the fifth wrong try burned it");

    let codes = s.auth.codes();
    let mail = Arc::new(reelforge_auth::Mail::parse(&format!("{}@example.cn", unique("c")))?);
    let (code, _) = codes.issue("qs", &mail).await?;
    let before = codes.compared();
    let mut guesses = Vec::new();
    for i in 0..20u32 {
        let (codes, mail, code) = (codes.clone(), mail.clone(), code.clone());
        let guess = format!("{:06}", (code.parse::<u32>().unwrap_or(0) + 1 + i) % 1_000_000);
        guesses.push(tokio::spawn(async move { codes.check("qs", &mail, &guess).await }));
    }
    for g in guesses {
        assert!(is_wrong_code(&g.await?));
    }
    assert_eq!(codes.compared() - before, 5, "twenty concurrent guesses, five comparisons");
    assert!(is_wrong_code(&codes.check("qs", &mail, &code).await), "burned");
    Ok(())
}

/// Per-address daily, per-client hourly limits; the answer never depends on the account existing.
async fn limits(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let auth = s.auth.with_limits(Limits {
        resend_seconds: 0,
        per_address_per_day: 2,
        challenge_after_per_ip_per_hour: 4,
        per_ip_per_hour: 4,
        per_tenant_per_day: 1_000_000,
        ..Limits::from_config(&AuthConfig::default())
    });
    let qs = gateway(&s.keys, "qs")?;
    let (ip1, ip2, ip3) = (&ip(), &ip(), &ip());
    let known = format!("{}@example.cn", unique("k"));
    grant(&s.users, &config(s.dir.path()).tenants, "qs", &known, 8).await?;
    let unknown = format!("{}@example.cn", unique("n"));
    assert_eq!(auth.send_code(&qs, ip1, &known).await?, auth.send_code(&qs, ip1, &unknown).await?);
    auth.send_code(&qs, ip2, &known).await?;
    match auth.send_code(&qs, ip2, &known).await {
        Err(AuthError::RateLimited { wait_seconds, .. }) => assert!(wait_seconds > 3600, "a day's limit: {wait_seconds}"),
        other => return Err(format!("per-address daily limit: {other:?}").into()),
    }
    auth.send_code(&qs, ip1, &format!("{}@example.cn", unique("x"))).await?;
    auth.send_code(&qs, ip1, &format!("{}@example.cn", unique("x"))).await?;
    match auth.send_code(&qs, ip1, &format!("{}@example.cn", unique("x"))).await {
        Err(AuthError::RateLimited { wait_seconds, .. }) => assert!((1..=3600).contains(&wait_seconds)),
        other => return Err(format!("per-client limit: {other:?}").into()),
    }
    auth.send_code(&qs, ip3, &format!("{}@example.cn", unique("x"))).await?;
    Ok(())
}

/// The default limits with challenges of a few bits, so that tests solve them at once.
fn easy(tune: impl FnOnce(&mut Limits)) -> Limits {
    let mut l = Limits { challenge_bits: 8, ..Limits::from_config(&AuthConfig::default()) };
    tune(&mut l);
    l
}

fn solved(c: &Challenge) -> Proof {
    Proof { token: c.token.clone(), solution: challenge::solve(&c.token, c.bits) }
}

/// Forty users behind one client address (a carrier's NAT) each get a code and sign in with the
/// default limits: the first thirty requests freely, the later codes after solving a challenge,
/// and never a wait. Today's code refused the sixteenth user for an hour.
async fn shared_address(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let auth = s.auth.clone().with_limits(easy(|_| {}));
    let qs = gateway(&s.keys, "qs")?;
    let nat = ip();
    let mut challenged = 0;
    for i in 0..40 {
        let mail = format!("{}@example.cn", unique(&format!("nat{i}")));
        let sent = match auth.send_code(&qs, &nat, &mail).await {
            Err(AuthError::ChallengeRequired(c)) => {
                challenged += 1;
                assert_eq!(c.bits, 8);
                auth.send_code_with_proof(&qs, &nat, &mail, Some(&solved(&c))).await
            }
            other => other,
        };
        assert_eq!(sent.map_err(|e| format!("user {i}: {e:?}"))?, 60);
        let login = auth.login(&qs, &nat, &mail, &last_code(s.dir.path(), &mail)?).await?;
        assert_eq!(login.user.user_id, mail);
    }
    // Thirty requests (fifteen codes, fifteen sign-ins) pass freely; then each code is challenged.
    assert_eq!(challenged, 25);
    Ok(())
}

fn refused_because(r: &Result<u64, AuthError>, why: ProofError) -> Fallible<Challenge> {
    match r {
        Err(AuthError::ChallengeFailed { why: w, challenge }) if *w == why => Ok(challenge.clone()),
        other => Err(format!("expected a refused challenge ({why:?}): {other:?}").into()),
    }
}

/// Past the threshold a code needs a solved challenge: a valid solution passes once; a wrong,
/// forged (another address, changed bits), reused or expired one is refused with a fresh challenge.
async fn challenges(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache.clone()).await?;
    let auth = s.auth.clone().with_limits(easy(|l| {
        l.resend_seconds = 0;
        l.challenge_after_per_ip_per_hour = 2;
    }));
    let qs = gateway(&s.keys, "qs")?;
    let client = ip();
    let mail = || format!("{}@example.cn", unique("ch"));
    auth.send_code(&qs, &client, &mail()).await?;
    auth.send_code(&qs, &client, &mail()).await?;
    let c = match auth.send_code(&qs, &client, &mail()).await {
        Err(e @ AuthError::ChallengeRequired(_)) => {
            assert_eq!(e.reason(), Some("challenge_required"));
            e.challenge().cloned().ok_or("a challenge")?
        }
        other => return Err(format!("past the threshold: {other:?}").into()),
    };

    let wrong = (0u32..).map(|n| n.to_string()).find(|n| !challenge::solves(&c.token, n, c.bits)).ok_or("a non-solution")?;
    let r = auth.send_code_with_proof(&qs, &client, &mail(), Some(&Proof { token: c.token.clone(), solution: wrong })).await;
    let fresh = refused_because(&r, ProofError::Wrong)?;
    assert_ne!(fresh.token, c.token, "a refusal carries a fresh challenge");
    assert!(r.as_ref().err().and_then(AuthError::reason) == Some("challenge_failed"));

    let elsewhere = Challenges::new(cache.clone(), s.keys.clone(), 8, Duration::from_secs(120)).issue("qs", &ip())?;
    let r = auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&elsewhere))).await;
    refused_because(&r, ProofError::Forged).map_err(|e| format!("another address's challenge: {e}"))?;
    let other_tenant = Challenges::new(cache.clone(), s.keys.clone(), 8, Duration::from_secs(120)).issue("cc", &client)?;
    refused_because(&auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&other_tenant))).await, ProofError::Forged)?;
    let easier = Challenge { token: c.token.replacen("c1.8.", "c1.0.", 1), bits: 0 };
    refused_because(&auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&easier))).await, ProofError::Forged)?;

    let proof = solved(&c);
    assert_eq!(auth.send_code_with_proof(&qs, &client, &mail(), Some(&proof)).await?, 0);
    refused_because(&auth.send_code_with_proof(&qs, &client, &mail(), Some(&proof)).await, ProofError::Used)?;
    assert_eq!(auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&fresh))).await?, 0, "the fresh one works");

    let short = s.auth.clone().with_limits(easy(|l| {
        l.challenge_after_per_ip_per_hour = 0;
        l.challenge_ttl = Duration::from_secs(1);
    }));
    let other = ip();
    let Err(AuthError::ChallengeRequired(c)) = short.send_code(&qs, &other, &mail()).await else {
        return Err("a zero threshold challenges the first code".into());
    };
    let proof = solved(&c);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    refused_because(&short.send_code_with_proof(&qs, &other, &mail(), Some(&proof)).await, ProofError::Expired)?;
    Ok(())
}

/// The ceiling is hard even with solved challenges; the (address, mail) pair has its own limit that
/// leaves the address's other users alone; a refusal's text is in one language.
async fn ceiling_and_pairs(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache.clone()).await?;
    let tight = |threshold: i64| {
        easy(|l| {
            l.resend_seconds = 0;
            l.challenge_after_per_ip_per_hour = threshold;
            l.per_ip_per_hour = 6;
            l.per_ip_mail_per_hour = 3;
        })
    };
    let auth = s.auth.clone().with_limits(tight(2));
    let qs = gateway(&s.keys, "qs")?;
    let client = ip();
    let mail = || format!("{}@example.cn", unique("ceil"));
    auth.send_code(&qs, &client, &mail()).await?;
    auth.send_code(&qs, &client, &mail()).await?;
    for _ in 0..2 {
        // The unsolved ask counts too: two challenged codes take four of the six requests.
        let Err(AuthError::ChallengeRequired(c)) = auth.send_code(&qs, &client, &mail()).await else {
            return Err("past the threshold".into());
        };
        auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&c))).await?;
    }
    let unused = Challenges::new(cache.clone(), s.keys.clone(), 8, Duration::from_secs(120)).issue("qs", &client)?;
    match auth.send_code_with_proof(&qs, &client, &mail(), Some(&solved(&unused))).await {
        Err(e @ AuthError::RateLimited { wait_seconds, .. }) => {
            assert!((1..=3600).contains(&wait_seconds), "{wait_seconds}");
            assert_eq!(e.reason(), Some("rate_limited"));
            assert!(e.to_string().is_ascii(), "one language in the server's text: {e}");
        }
        other => return Err(format!("past the ceiling, even solved: {other:?}").into()),
    }
    assert!(matches!(auth.login(&qs, &client, &mail(), "123456").await, Err(AuthError::RateLimited { .. })), "sign-ins too");

    let auth = s.auth.clone().with_limits(tight(100));
    let (pair, m) = (ip(), mail());
    for _ in 0..3 {
        assert!(is_wrong_code(&auth.login(&qs, &pair, &m, "123456").await));
    }
    match auth.send_code(&qs, &pair, &m).await {
        Err(AuthError::RateLimited { wait_seconds, .. }) => assert!((1..=3600).contains(&wait_seconds)),
        other => return Err(format!("per-pair limit: {other:?}").into()),
    }
    auth.send_code(&qs, &pair, &mail()).await.map_err(|e| format!("another user behind the address: {e:?}"))?;
    auth.send_code(&qs, &ip(), &m).await.map_err(|e| format!("the same mail from another address: {e:?}"))?;
    Ok(())
}

/// Two replicas over one cache count the same requests; a client refused for the rest of its window
/// is let in with the right code once the window has ended: a wait, never a lockout (catalogue S8).
async fn backoff(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache.clone()).await?;
    let window = Duration::from_secs(2);
    let limits = easy(|l| {
        l.resend_seconds = 0;
        l.per_ip_mail_per_hour = 2;
        l.client_window = window;
    });
    let a = s.auth.clone().with_limits(limits);
    let b = Auth::new(reelforge_kit::db::connect(db_url).await?, cache, &config(s.dir.path()), s.keys.clone())?.with_limits(limits);
    let qs = gateway(&s.keys, "qs")?;
    let (client, mail) = (ip(), format!("{}@example.cn", unique("wait")));
    a.send_code(&qs, &client, &mail).await?;
    let code = last_code(s.dir.path(), &mail)?;
    assert!(is_wrong_code(&b.login(&qs, &client, &mail, &other_code(&code)).await), "the second request, on the other replica");
    let refused_at = Instant::now();
    match a.login(&qs, &client, &mail, &code).await {
        Err(AuthError::RateLimited { wait_seconds, .. }) => assert!((1..=2).contains(&wait_seconds), "{wait_seconds}"),
        other => return Err(format!("the third request in the window, though the code is right: {other:?}").into()),
    }
    assert!(matches!(b.send_code(&qs, &client, &mail).await, Err(AuthError::RateLimited { .. })), "the other replica refuses too");
    // Asked again until the window has ended (a bounded poll): the right code then signs in.
    let login = loop {
        match a.login(&qs, &client, &mail, &code).await {
            Ok(login) => break login,
            Err(AuthError::RateLimited { .. }) if refused_at.elapsed() < window * 10 => tokio::time::sleep(Duration::from_millis(100)).await,
            other => return Err(format!("after the window: {other:?}").into()),
        }
    };
    assert_eq!(login.user.user_id, mail);
    Ok(())
}

/// Administrators list, change and disable users of their tenant; tokens of changed users stop working.
async fn management(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let tenants = config(s.dir.path()).tenants;
    let admin_mail = format!("{}@example.cn", unique("admin"));
    let admin = grant(&s.users, &tenants, "qs", &admin_mail, 0).await?;
    assert_eq!(admin.level, OperatorLevel::Admin);
    assert!(matches!(grant(&s.users, &tenants, "zz", &admin_mail, 0).await, Err(AuthError::Invalid(m)) if m.contains("unknown variant `zz`")));
    assert!(matches!(grant(&s.users, &tenants, "qs", &admin_mail, 5).await, Err(AuthError::Invalid(m)) if m.starts_with("level")));
    let ann = grant(&s.users, &tenants, "qs", &format!("{}@example.cn", unique("ann")), 8).await?;
    let other_tenant = grant(&s.users, &tenants, "cc", &format!("{}@example.cn", unique("bob")), 8).await?;

    let token = |u: &reelforge_auth::User| -> Fallible<Identity> {
        let (t, _) = s.keys.issue_user(&u.tenant, &u.user_id, u.level, 3600)?;
        Ok(s.keys.verify(&t)?)
    };
    let as_admin = token(&admin)?;
    let as_ann = token(&ann)?;
    let refused = s.auth.list_users(&as_ann, "", 1, 10).await;
    assert!(matches!(refused, Err(AuthError::Identity(IdentityError::Forbidden(_)))), "{refused:?}");
    let page = s.auth.list_users(&as_admin, "ann", 1, 10).await?;
    assert_eq!((page.total, page.list.len()), (1, 1));
    assert_eq!(page.list[0].user_id, ann.user_id);
    let all = s.auth.list_users(&as_admin, "", 1, 1).await?;
    assert_eq!((all.total, all.list.len()), (2, 1), "paged, and only the admin's tenant");
    assert!(matches!(s.auth.set_level(&as_admin, &other_tenant.user_id, 3).await, Err(AuthError::NoSuchUser(_))), "another tenant's user");
    assert!(matches!(s.auth.set_level(&as_admin, &ann.user_id, 5).await, Err(AuthError::Invalid(_))));

    assert!(s.auth.verify(&as_ann).await.is_ok(), "the check keeps a copy of ann's row");
    s.auth.set_level(&as_admin, &ann.user_id, 3).await?;
    assert!(matches!(s.auth.verify(&as_ann).await, Err(AuthError::Revoked)), "a changed level needs a new sign-in");
    let ann = reelforge_auth::User { level: OperatorLevel::OperationsManager, ..ann };
    let as_manager = token(&ann)?;
    assert_eq!(s.auth.verify(&as_manager).await?.level.role().as_str(), "TEMPLATE_MANAGER");
    s.auth.set_disabled(&as_admin, &ann.user_id, true).await?;
    assert!(matches!(s.auth.verify(&as_manager).await, Err(AuthError::Revoked)), "a disabled user's tokens stop working");
    s.auth.set_disabled(&as_admin, &ann.user_id, false).await?;
    assert!(s.auth.verify(&as_manager).await.is_ok());
    assert!(matches!(s.auth.set_disabled(&as_admin, &admin.user_id, true).await, Err(AuthError::Invalid(_))));
    Ok(())
}

/// Token checks answer from a copy of the user's row kept `auth.user_check_seconds`, so the table is
/// not read on every signed-in request; the table stays the durable check: a user disabled where
/// this replica did not see it (another replica, while a cache restart lost the marks) is refused
/// once the copy has lived its time.
async fn user_checks(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let tenants = config(s.dir.path()).tenants;
    let ann = grant(&s.users, &tenants, "qs", &format!("{}@example.cn", unique("ann")), 8).await?;
    let (token, _) = s.keys.issue_user("qs", &ann.user_id, ann.level, 3600)?;
    let as_ann = s.keys.verify(&token)?;
    assert!(s.auth.verify(&as_ann).await.is_ok());

    s.users.set_disabled("qs", &ann.user_id, true).await?;
    assert!(s.auth.verify(&as_ann).await.is_ok(), "the next check answers from the copy, not the table");
    let deadline = Instant::now() + Duration::from_secs(30);
    while s.auth.verify(&as_ann).await.is_ok() {
        assert!(Instant::now() < deadline, "the disabled row was never read again");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(matches!(s.auth.verify(&as_ann).await, Err(AuthError::Revoked)));
    Ok(())
}

fn handoff_token(secret: &str, claims: serde_json::Value) -> Fallible<String> {
    let header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    Ok(jsonwebtoken::encode(&header, &claims, &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()))?)
}

/// Hand-offs: signed by the variant's secret, short, single use, for the variant they name.
async fn handoffs(db_url: &str, cache: Arc<dyn Cache>) -> TestResult {
    let s = setup(db_url, cache).await?;
    let cc = gateway(&s.keys, "cc")?;
    let qs = gateway(&s.keys, "qs")?;
    let now = jsonwebtoken::get_current_timestamp();
    let claims = |jti: &str, tenant: &str, life: u64| {
        serde_json::json!({"sub": "13800000000", "mobile": "13800000000", "tenant": tenant, "jti": jti,
            "iat": now, "exp": now + life, "aud": "reelforge-handoff"})
    };
    let token = handoff_token(HANDOFF_SECRET, claims(&unique("j"), "cc", 120))?;
    let login = s.auth.handoff(&cc, "", &token).await?;
    assert_eq!((login.user.user_id.as_str(), login.user.mobile.as_str(), login.user.tenant.as_str()), ("13800000000", "13800000000", "cc"));
    assert!(s.keys.verify(&login.token).is_ok());
    let refusals = [
        (token.clone(), "already used"),
        (handoff_token(HANDOFF_SECRET, claims(&unique("j"), "cc", 600))?, "120 seconds"),
        (handoff_token("another-secret-another-secret-xx", claims(&unique("j"), "cc", 60))?, "invalid"),
        (handoff_token(HANDOFF_SECRET, claims(&unique("j"), "qs", 60))?, "another variant"),
    ];
    for (t, why) in refusals {
        let r = s.auth.handoff(&cc, "", &t).await;
        assert!(matches!(&r, Err(AuthError::Refused(m)) if m.contains(why)), "{why}: {r:?}");
    }
    let off = s.auth.handoff(&qs, "", &handoff_token(HANDOFF_SECRET, claims(&unique("j"), "qs", 60))?).await;
    assert!(matches!(&off, Err(AuthError::Refused(m)) if m.contains("not configured")), "{off:?}");
    Ok(())
}

async fn sqlite_memory() -> Fallible<(String, Arc<dyn Cache>)> {
    Ok((fresh_sqlite(), reelforge_kit::cache::open("memory://").await?))
}

async fn postgres_redis() -> Fallible<(String, Arc<dyn Cache>)> {
    Ok((fresh_postgres().await?, reelforge_kit::cache::open(&redis_url()).await?))
}

#[tokio::test]
async fn flow_on_sqlite_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    suite(&db, cache).await
}

#[tokio::test]
async fn flow_on_postgres_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    suite(&db, cache).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn burning_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    burning(&db, cache).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn burning_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    burning(&db, cache).await
}

#[tokio::test]
async fn limits_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    limits(&db, cache).await
}

#[tokio::test]
async fn limits_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    limits(&db, cache).await
}

#[tokio::test]
async fn backoff_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    backoff(&db, cache).await
}

#[tokio::test]
async fn backoff_on_postgres_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    backoff(&db, cache).await
}

#[tokio::test]
async fn shared_address_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    shared_address(&db, cache).await
}

#[tokio::test]
async fn shared_address_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    shared_address(&db, cache).await
}

#[tokio::test]
async fn challenges_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    challenges(&db, cache).await
}

#[tokio::test]
async fn challenges_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    challenges(&db, cache).await
}

#[tokio::test]
async fn ceiling_and_pairs_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    ceiling_and_pairs(&db, cache).await
}

#[tokio::test]
async fn ceiling_and_pairs_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    ceiling_and_pairs(&db, cache).await
}

#[tokio::test]
async fn management_on_postgres() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    management(&db, cache).await
}

#[tokio::test]
async fn user_checks_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    user_checks(&db, cache).await
}

#[tokio::test]
async fn user_checks_on_postgres_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    user_checks(&db, cache).await
}

#[tokio::test]
async fn handoffs_with_memory_cache() -> TestResult {
    let (db, cache) = sqlite_memory().await?;
    handoffs(&db, cache).await
}

#[tokio::test]
async fn handoffs_with_redis() -> TestResult {
    let (db, cache) = postgres_redis().await?;
    handoffs(&db, cache).await
}

/// An SMTP sink (aiosmtpd) on a free loopback port, writing what it receives to a Maildir.
struct SmtpSink(Child);

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Codes go out over SMTP when `mail.smtp_url` is set, and nothing is written to the outbox.
#[tokio::test]
async fn codes_are_mailed_over_smtp() -> TestResult {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let maildir = tempfile::tempdir()?;
    let sink = SmtpSink(
        Command::new("python3")
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path().join("box"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("python3 -m aiosmtpd (bash deploy/scripts/services-up.sh installs it): {e}"))?,
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            return Err("the SMTP sink did not start (pip install aiosmtpd)".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let db = reelforge_kit::db::connect(&fresh_sqlite()).await?;
    migrate(&db).await?;
    let dir = tempfile::tempdir()?;
    let mut c = config(dir.path());
    c.mail.smtp_url = format!("smtp://127.0.0.1:{port}");
    c.mail.from = "Reelforge <noreply@reelforge.test>".into();
    let keys = keys()?;
    let auth = Auth::new(db, reelforge_kit::cache::open("memory://").await?, &c, keys.clone())?;
    let mail = format!("{}@example.cn", unique("smtp"));
    auth.send_code(&gateway(&keys, "qs")?, "", &mail).await?;

    let mut message = None;
    while message.is_none() && Instant::now() < deadline + Duration::from_secs(10) {
        for entry in std::fs::read_dir(maildir.path().join("box/new")).into_iter().flatten().flatten() {
            message = Some(std::fs::read_to_string(entry.path())?);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(sink);
    let message = message.ok_or("no message reached the SMTP sink")?;
    assert!(message.contains(&format!("To: {mail}")), "{message}");
    assert!(message.contains("From: Reelforge <noreply@reelforge.test>"), "{message}");
    let code = message
        .split("your Reelforge verification code is ")
        .nth(1)
        .map(|rest| rest.chars().take(6).collect::<String>())
        .ok_or("no code in the message")?;
    assert!(code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()), "{code}");
    assert!(!dir.path().join("mail-outbox.log").exists(), "SMTP replaces the dev outbox");
    let login = auth.login(&gateway(&keys, "qs")?, "", &mail, &code).await?;
    assert_eq!(login.user.user_id, mail);
    Ok(())
}

/// A mail server that accepts and never greets fails the code's send within the configured time,
/// instead of holding the sign-in request for ever.
#[tokio::test]
async fn a_silent_mail_server_fails_the_send_in_time() -> TestResult {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    let db = reelforge_kit::db::connect(&fresh_sqlite()).await?;
    migrate(&db).await?;
    let dir = tempfile::tempdir()?;
    let mut c = config(dir.path());
    c.mail.smtp_url = format!("smtp://127.0.0.1:{port}");
    c.mail.from = "Reelforge <noreply@reelforge.test>".into();
    c.timeouts.connect_seconds = 1;
    c.timeouts.mail_seconds = 2;
    let keys = keys()?;
    let auth = Auth::new(db, reelforge_kit::cache::open("memory://").await?, &c, keys.clone())?;
    let mail = format!("{}@example.cn", unique("silent"));
    let started = Instant::now();
    let sent = tokio::time::timeout(Duration::from_secs(30), auth.send_code(&gateway(&keys, "qs")?, "", &mail)).await;
    assert!(matches!(sent, Ok(Err(_))), "the send fails, it does not hang: {sent:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "failed after {:?}", started.elapsed());
    held.abort();
    Ok(())
}
