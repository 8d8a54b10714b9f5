//! Who is calling, proven by a token: HS256 JWTs signed with rotating keys (the header's `kid` picks
//! the key), issued to users at sign-in and minted for a few minutes by internal callers (service
//! tokens). Every gRPC service verifies the token in the call's `authorization` metadata and reads
//! the caller from it, never from fields of the message.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::config::SigningKeyConfig;

/// The audience of every token Reelforge signs for itself.
pub const AUDIENCE: &str = "reelforge";
/// The metadata key that carries the token.
pub const AUTHORIZATION: &str = "authorization";
/// The metadata key the gateway puts the browser's address in.
pub const CLIENT_IP: &str = "x-client-ip";
/// The longest life of a service token, in seconds.
pub const SERVICE_TOKEN_MAX_SECONDS: u64 = 300;
/// The shortest secret a signing key may have, in bytes.
pub const MIN_SECRET_BYTES: usize = 32;
/// Seconds of clock difference tolerated between processes.
const LEEWAY_SECONDS: u64 = 5;

/// Why a token or a key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The call carries no token.
    #[error("authorization: no token")]
    Missing,
    /// Bad signature, unknown key, wrong algorithm, audience or shape, expired or not yet valid.
    #[error("authorization: invalid or expired token")]
    Invalid,
    /// A user's token was needed and the call carries a service token without one (or the reverse).
    #[error("authorization: {0}")]
    WrongKind(&'static str),
    /// The caller's role may not do this.
    #[error("role {0} required")]
    Forbidden(&'static str),
    /// A configured signing key is unusable; the message names it.
    #[error("{0}")]
    Key(String),
}

impl crate::status::ServiceError for IdentityError {
    fn kind(&self) -> crate::status::ErrorKind {
        use crate::status::ErrorKind;
        match self {
            Self::Missing | Self::Invalid | Self::WrongKind(_) => ErrorKind::Unauthenticated,
            Self::Forbidden(_) => ErrorKind::Forbidden,
            Self::Key(_) => ErrorKind::Internal,
        }
    }
}

/// The role a user acts in, derived from their operator level (spec platform §6, editor-core §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Makes videos from templates (everyone not below).
    CreateVideo,
    /// Makes templates (template manager, level 4).
    CreateTemplate,
    /// Manages templates and categories (operations manager, level 3).
    TemplateManager,
}

impl Role {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CreateVideo => "CREATE_VIDEO",
            Self::CreateTemplate => "CREATE_TEMPLATE",
            Self::TemplateManager => "TEMPLATE_MANAGER",
        }
    }
}

/// The operator levels of the spec; 5 is not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OperatorLevel {
    /// 0: administrator; manages users.
    Admin,
    /// 1: distributor (a channel user).
    Distributor,
    /// 2: enterprise administrator.
    EnterpriseAdmin,
    /// 3: operations manager; acts as TEMPLATE_MANAGER.
    OperationsManager,
    /// 4: template manager; acts as CREATE_TEMPLATE.
    TemplateManager,
    /// 6: vendor.
    Vendor,
    /// 7: merchant producer.
    MerchantProducer,
    /// 8: operation; the level of a new user.
    Operation,
    /// 9: sub-distributor (a channel user).
    SubDistributor,
}

impl OperatorLevel {
    /// Every level, in numeric order.
    pub const ALL: [OperatorLevel; 9] = [
        Self::Admin,
        Self::Distributor,
        Self::EnterpriseAdmin,
        Self::OperationsManager,
        Self::TemplateManager,
        Self::Vendor,
        Self::MerchantProducer,
        Self::Operation,
        Self::SubDistributor,
    ];

    /// The level of a user on first sign-in.
    pub const DEFAULT: OperatorLevel = Self::Operation;

    /// The level with number `n`, if the spec gives one.
    pub fn from_number(n: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.number() == n)
    }

    /// The level's number.
    pub fn number(self) -> i32 {
        match self {
            Self::Admin => 0,
            Self::Distributor => 1,
            Self::EnterpriseAdmin => 2,
            Self::OperationsManager => 3,
            Self::TemplateManager => 4,
            Self::Vendor => 6,
            Self::MerchantProducer => 7,
            Self::Operation => 8,
            Self::SubDistributor => 9,
        }
    }

    /// The spec's name of the level.
    pub fn name(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Distributor => "distributor",
            Self::EnterpriseAdmin => "enterpriseAdmin",
            Self::OperationsManager => "operationsManager",
            Self::TemplateManager => "templateManager",
            Self::Vendor => "vendor",
            Self::MerchantProducer => "merchantProducer",
            Self::Operation => "operation",
            Self::SubDistributor => "subDistributor",
        }
    }

    /// Template manager makes templates, operations manager manages them, anyone else makes videos.
    pub fn role(self) -> Role {
        match self {
            Self::TemplateManager => Role::CreateTemplate,
            Self::OperationsManager => Role::TemplateManager,
            _ => Role::CreateVideo,
        }
    }

    /// Channel users: distributors and sub-distributors.
    pub fn is_channel(self) -> bool {
        matches!(self, Self::Distributor | Self::SubDistributor)
    }
}

/// Whether a token speaks for a signed-in user or for an internal caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// Issued at sign-in; lives `auth.token_hours`.
    User,
    /// Minted by a holder of the key for one tenant; lives at most five minutes.
    Service,
}

/// What a token says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The user's id; for a service token, the user it acts for, or empty.
    pub sub: String,
    /// The tenant (variant key).
    pub tenant: String,
    /// The role at issue time; empty for a service token.
    pub role: String,
    /// The operator level at issue time; -1 for a service token.
    pub level: i32,
    /// User or service.
    pub typ: TokenKind,
    /// The id of the key that signed it (also in the header).
    pub kid: String,
    /// A unique id, for revocation.
    pub jti: String,
    /// Issue time, seconds since the epoch.
    pub iat: u64,
    /// Not valid before, seconds since the epoch.
    pub nbf: u64,
    /// Expiry, seconds since the epoch.
    pub exp: u64,
    /// Always [`AUDIENCE`].
    pub aud: String,
}

/// A verified caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The tenant every row it reads or writes must belong to.
    pub tenant: String,
    /// User or service.
    pub kind: TokenKind,
    /// The user; for a service token, the user it acts for, if any.
    pub user_id: Option<String>,
    /// The user's operator level at issue time; none for a service token.
    pub level: Option<OperatorLevel>,
    /// The token's id.
    pub jti: String,
    /// Issue time, seconds since the epoch.
    pub issued_at: u64,
    /// Expiry, seconds since the epoch.
    pub expires_at: u64,
}

impl Identity {
    /// The role of a user token; a service token has none.
    pub fn role(&self) -> Option<Role> {
        self.level.map(OperatorLevel::role)
    }

    /// The tenant and user the call acts for: a user token, or a service token acting for a user.
    pub fn owner(&self) -> Result<(&str, &str), IdentityError> {
        match &self.user_id {
            Some(u) => Ok((&self.tenant, u)),
            None => Err(IdentityError::WrongKind("a user's token is required")),
        }
    }

    /// Refuses anything but a signed-in user's token.
    pub fn require_user(&self) -> Result<(&str, &str), IdentityError> {
        if self.kind != TokenKind::User {
            return Err(IdentityError::WrongKind("a user's token is required"));
        }
        self.owner()
    }

    /// Refuses anything but a service token.
    pub fn require_service(&self) -> Result<(), IdentityError> {
        if self.kind == TokenKind::Service { Ok(()) } else { Err(IdentityError::WrongKind("a service token is required")) }
    }

    /// Refuses a caller that is not a user acting in `role`.
    pub fn require_role(&self, role: Role) -> Result<(), IdentityError> {
        self.require_user()?;
        if self.role() == Some(role) { Ok(()) } else { Err(IdentityError::Forbidden(role.as_str())) }
    }

    /// Refuses a caller that is not a user of operator level 0.
    pub fn require_admin(&self) -> Result<(), IdentityError> {
        self.require_user()?;
        if self.level == Some(OperatorLevel::Admin) { Ok(()) } else { Err(IdentityError::Forbidden("administrator (operator level 0)")) }
    }
}

struct Key {
    id: String,
    secret: Vec<u8>,
    encoding: EncodingKey,
    decoding: DecodingKey,
}

/// The signing keys: the first signs, every one verifies (rotation: put the new key first and keep
/// the old one until the tokens it signed have expired).
#[derive(Clone)]
pub struct Keyring {
    keys: Arc<Vec<Key>>,
    by_id: Arc<HashMap<String, usize>>,
}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.keys.iter().map(|k| k.id.as_str()).collect();
        f.debug_struct("Keyring").field("ids", &ids).finish_non_exhaustive()
    }
}

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

impl Keyring {
    /// Builds the ring from configured keys; refuses none, an empty or repeated id, or a short secret.
    pub fn new(keys: &[SigningKeyConfig]) -> Result<Self, IdentityError> {
        // Only the rust_crypto backend is compiled in; installing it explicitly keeps token code
        // working if another crate ever turns on a second backend. A second install is a no-op.
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        if keys.is_empty() {
            return Err(IdentityError::Key("auth.keys: no signing key".into()));
        }
        let mut out = Vec::new();
        let mut by_id = HashMap::new();
        for (i, k) in keys.iter().enumerate() {
            if k.id.is_empty() || k.id.len() > 64 || !k.id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                return Err(IdentityError::Key(format!("auth.keys[{i}].id: 1 to 64 letters, digits, `-` or `_`")));
            }
            if k.secret.len() < MIN_SECRET_BYTES {
                return Err(IdentityError::Key(format!("auth.keys[{i}].secret: at least {MIN_SECRET_BYTES} bytes")));
            }
            if by_id.insert(k.id.clone(), i).is_some() {
                return Err(IdentityError::Key(format!("auth.keys[{i}].id: `{}` appears twice", k.id)));
            }
            out.push(Key {
                id: k.id.clone(),
                secret: k.secret.as_bytes().to_vec(),
                encoding: EncodingKey::from_secret(k.secret.as_bytes()),
                decoding: DecodingKey::from_secret(k.secret.as_bytes()),
            });
        }
        Ok(Self { keys: Arc::new(out), by_id: Arc::new(by_id) })
    }

    /// The id of the key that signs.
    pub fn signing_key_id(&self) -> &str {
        self.keys.first().map_or("", |k| k.id.as_str())
    }

    /// A keyed hash (HMAC-SHA256 under the signing key) of `data` for `purpose`, as hex: for secrets
    /// kept where the key is not, such as one-time codes in the cache.
    pub fn mac(&self, purpose: &str, data: &[u8]) -> Result<String, IdentityError> {
        use hmac::Mac;
        let key = self.keys.first().ok_or_else(|| IdentityError::Key("auth.keys: no signing key".into()))?;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key.secret).map_err(|e| IdentityError::Key(format!("mac: {e}")))?;
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(data);
        Ok(mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Signs claims as given (their `kid` is replaced by the signing key's).
    pub fn sign(&self, claims: &Claims) -> Result<String, IdentityError> {
        let key = self.keys.first().ok_or_else(|| IdentityError::Key("auth.keys: no signing key".into()))?;
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(key.id.clone());
        let claims = Claims { kid: key.id.clone(), ..claims.clone() };
        jsonwebtoken::encode(&header, &claims, &key.encoding).map_err(|e| IdentityError::Key(format!("signing: {e}")))
    }

    /// Issues a user's token valid `seconds`; returns it with its claims.
    pub fn issue_user(&self, tenant: &str, user_id: &str, level: OperatorLevel, seconds: u64) -> Result<(String, Claims), IdentityError> {
        let now = now();
        let claims = Claims {
            sub: user_id.to_owned(),
            tenant: tenant.to_owned(),
            role: level.role().as_str().to_owned(),
            level: level.number(),
            typ: TokenKind::User,
            kid: String::new(),
            jti: uuid::Uuid::new_v4().to_string(),
            iat: now,
            nbf: now,
            exp: now.saturating_add(seconds),
            aud: AUDIENCE.to_owned(),
        };
        let token = self.sign(&claims)?;
        Ok((token, Claims { kid: self.signing_key_id().to_owned(), ..claims }))
    }

    /// Mints a service token for `tenant`, acting for `user` when given, valid `seconds` (at most
    /// [`SERVICE_TOKEN_MAX_SECONDS`]).
    pub fn service_token(&self, tenant: &str, user: Option<&str>, seconds: u64) -> Result<String, IdentityError> {
        let now = now();
        self.sign(&Claims {
            sub: user.unwrap_or_default().to_owned(),
            tenant: tenant.to_owned(),
            role: String::new(),
            level: -1,
            typ: TokenKind::Service,
            kid: String::new(),
            jti: uuid::Uuid::new_v4().to_string(),
            iat: now,
            nbf: now,
            exp: now.saturating_add(seconds.min(SERVICE_TOKEN_MAX_SECONDS)),
            aud: AUDIENCE.to_owned(),
        })
    }

    /// Checks a token: HS256 only, a known `kid`, signature, `exp`, `nbf`, audience, kind and shape.
    pub fn verify(&self, token: &str) -> Result<Identity, IdentityError> {
        let refuse = |why: &str| {
            tracing::debug!(why, "token refused");
            IdentityError::Invalid
        };
        let header = jsonwebtoken::decode_header(token).map_err(|e| refuse(&e.to_string()))?;
        if header.alg != Algorithm::HS256 {
            return Err(refuse("algorithm"));
        }
        let kid = header.kid.ok_or_else(|| refuse("no kid"))?;
        let key = self.by_id.get(&kid).and_then(|i| self.keys.get(*i)).ok_or_else(|| refuse("unknown kid"))?;
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_nbf = true;
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "nbf", "aud", "sub"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &key.decoding, &validation).map_err(|e| refuse(&e.to_string()))?.claims;
        if claims.kid != kid || claims.tenant.is_empty() || claims.jti.is_empty() {
            return Err(refuse("claims"));
        }
        let (user_id, level) = match claims.typ {
            TokenKind::User => {
                let level = OperatorLevel::from_number(claims.level).ok_or_else(|| refuse("level"))?;
                if claims.sub.is_empty() || claims.role != level.role().as_str() {
                    return Err(refuse("user claims"));
                }
                (Some(claims.sub), Some(level))
            }
            TokenKind::Service => {
                if claims.exp.saturating_sub(claims.iat) > SERVICE_TOKEN_MAX_SECONDS {
                    return Err(refuse("service token lives too long"));
                }
                ((!claims.sub.is_empty()).then_some(claims.sub), None)
            }
        };
        Ok(Identity {
            tenant: claims.tenant,
            kind: claims.typ,
            user_id,
            level,
            jti: claims.jti,
            issued_at: claims.iat,
            expires_at: claims.exp,
        })
    }

    /// A gRPC server interceptor that verifies the call's token and leaves the [`Identity`] in the
    /// request's extensions; a call without a valid token is refused as unauthenticated.
    pub fn verifier(&self) -> Verifier {
        Verifier { keys: self.clone() }
    }
}

/// The file `reelforge all` keeps its generated signing key in, under the data directory.
pub const LOCAL_KEY_FILE: &str = "signing-key.json";

/// Reads the signing key kept in `dir`, creating a random 256-bit one (file mode 0600) on first use,
/// so that tokens survive restarts of an embedded deployment that configured no key.
pub fn local_key(dir: &Path) -> Result<SigningKeyConfig, IdentityError> {
    let path = dir.join(LOCAL_KEY_FILE);
    let shown = path.display().to_string();
    let io = |e: std::io::Error| IdentityError::Key(format!("signing key file {shown}: {e}"));
    match std::fs::read_to_string(&path) {
        Ok(text) => return serde_json::from_str(&text).map_err(|e| IdentityError::Key(format!("signing key file {shown}: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut secret = [0u8; 32];
    rand::Rng::fill(&mut rand::rng(), &mut secret);
    let key = SigningKeyConfig {
        id: format!("local-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]),
        secret: secret.iter().map(|b| format!("{b:02x}")).collect(),
    };
    let text = serde_json::to_string(&key).map_err(|e| IdentityError::Key(e.to_string()))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            std::io::Write::write_all(&mut file, text.as_bytes()).map_err(io)?;
            tracing::info!(file = %shown, kid = %key.id, "created a signing key for this data directory");
            Ok(key)
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => local_key(dir),
        Err(e) => Err(io(e)),
    }
}

/// The token in `authorization` metadata (`Bearer ` optional).
pub fn bearer(metadata: &tonic::metadata::MetadataMap) -> Option<&str> {
    metadata
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim())
        .filter(|t| !t.is_empty())
}

/// Puts `token` in the request's `authorization` metadata.
pub fn attach<T>(req: &mut tonic::Request<T>, token: &str) -> Result<(), IdentityError> {
    let value = format!("Bearer {token}").parse().map_err(|_| IdentityError::Invalid)?;
    req.metadata_mut().insert(AUTHORIZATION, value);
    Ok(())
}

/// Makes a request carrying `msg` and `token`.
pub fn request<T>(msg: T, token: &str) -> Result<tonic::Request<T>, IdentityError> {
    let mut req = tonic::Request::new(msg);
    attach(&mut req, token)?;
    Ok(req)
}

/// Verifies the token of every call; see [`Keyring::verifier`].
#[derive(Clone)]
pub struct Verifier {
    keys: Keyring,
}

impl tonic::service::Interceptor for Verifier {
    fn call(&mut self, mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        let token = bearer(req.metadata()).ok_or(IdentityError::Missing).map_err(crate::status::to_status)?;
        let identity = self.keys.verify(token).map_err(crate::status::to_status)?;
        req.extensions_mut().insert(identity);
        Ok(req)
    }
}

/// A gRPC service behind a [`Verifier`].
pub type Guarded<S> = tonic::service::interceptor::InterceptedService<S, Verifier>;

/// The verified caller of a request that passed a [`Verifier`].
pub fn caller<T>(req: &tonic::Request<T>) -> Result<Identity, tonic::Status> {
    req.extensions().get::<Identity>().cloned().ok_or_else(|| crate::status::to_status(IdentityError::Missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(keys: &[(&str, &str)]) -> Result<Keyring, IdentityError> {
        Keyring::new(&keys.iter().map(|(id, s)| SigningKeyConfig { id: (*id).into(), secret: (*s).into() }).collect::<Vec<_>>())
    }

    const A: &str = "0123456789abcdef0123456789abcdef-a";
    const B: &str = "0123456789abcdef0123456789abcdef-b";

    fn b64(bytes: &[u8]) -> String {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    #[test]
    fn every_operator_level_maps_to_its_role() {
        let table = [
            (0, Some(("admin", "CREATE_VIDEO", false))),
            (1, Some(("distributor", "CREATE_VIDEO", true))),
            (2, Some(("enterpriseAdmin", "CREATE_VIDEO", false))),
            (3, Some(("operationsManager", "TEMPLATE_MANAGER", false))),
            (4, Some(("templateManager", "CREATE_TEMPLATE", false))),
            (5, None),
            (6, Some(("vendor", "CREATE_VIDEO", false))),
            (7, Some(("merchantProducer", "CREATE_VIDEO", false))),
            (8, Some(("operation", "CREATE_VIDEO", false))),
            (9, Some(("subDistributor", "CREATE_VIDEO", true))),
            (10, None),
            (-1, None),
        ];
        for (n, want) in table {
            let got = OperatorLevel::from_number(n).map(|l| (l.name(), l.role().as_str(), l.is_channel()));
            assert_eq!(got, want, "level {n}");
            if let Some(l) = OperatorLevel::from_number(n) {
                assert_eq!(l.number(), n);
            }
        }
        assert_eq!(OperatorLevel::DEFAULT.number(), 8);
    }

    #[test]
    fn a_user_token_round_trips_and_tampering_is_refused() -> Result<(), IdentityError> {
        let keys = ring(&[("k1", A)])?;
        let (token, claims) = keys.issue_user("qs", "ann@example.com", OperatorLevel::OperationsManager, 3600)?;
        assert_eq!(claims.kid, "k1");
        let id = keys.verify(&token)?;
        assert_eq!((id.tenant.as_str(), id.user_id.as_deref()), ("qs", Some("ann@example.com")));
        assert_eq!(id.role(), Some(Role::TemplateManager));
        assert!(id.require_role(Role::TemplateManager).is_ok());
        assert_eq!(id.require_admin(), Err(IdentityError::Forbidden("administrator (operator level 0)")));

        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        let forged = serde_json::json!({"sub":"bob@example.com","tenant":"cc","role":"TEMPLATE_MANAGER","level":3,"typ":"user",
            "kid":"k1","jti":"x","iat":claims.iat,"nbf":claims.nbf,"exp":claims.exp,"aud":AUDIENCE});
        parts[1] = b64(forged.to_string().as_bytes());
        assert_eq!(keys.verify(&parts.join(".")), Err(IdentityError::Invalid), "changed claims");
        let none_header = b64(br#"{"alg":"none","typ":"JWT","kid":"k1"}"#);
        assert_eq!(keys.verify(&format!("{none_header}.{}.", parts[1])), Err(IdentityError::Invalid), "alg none");
        let hs512 = b64(br#"{"alg":"HS512","typ":"JWT","kid":"k1"}"#);
        assert_eq!(keys.verify(&format!("{hs512}.{}.{}", parts[1], parts[2])), Err(IdentityError::Invalid), "other alg");
        assert_eq!(keys.verify("not-a-token"), Err(IdentityError::Invalid));
        Ok(())
    }

    #[test]
    fn expired_wrong_key_and_rotated_keys() -> Result<(), IdentityError> {
        let old = ring(&[("k1", A)])?;
        let (token, claims) = old.issue_user("qs", "ann@example.com", OperatorLevel::Operation, 3600)?;
        let rotated = ring(&[("k2", B), ("k1", A)])?;
        assert!(rotated.verify(&token).is_ok(), "the old key verifies after rotation");
        let (new_token, new_claims) = rotated.issue_user("qs", "ann@example.com", OperatorLevel::Operation, 3600)?;
        assert_eq!(new_claims.kid, "k2");
        assert_eq!(old.verify(&new_token), Err(IdentityError::Invalid), "a key the ring lacks");
        let retired = ring(&[("k2", B)])?;
        assert_eq!(retired.verify(&token), Err(IdentityError::Invalid), "a retired key no longer verifies");
        let impostor = ring(&[("k1", B)])?;
        let (forged, _) = impostor.issue_user("qs", "ann@example.com", OperatorLevel::Admin, 3600)?;
        assert_eq!(old.verify(&forged), Err(IdentityError::Invalid), "same kid, wrong secret");

        let expired = old.sign(&Claims { iat: claims.iat - 7200, nbf: claims.iat - 7200, exp: claims.iat - 3600, ..claims.clone() })?;
        assert_eq!(old.verify(&expired), Err(IdentityError::Invalid));
        let early = old.sign(&Claims { nbf: claims.iat + 3600, ..claims.clone() })?;
        assert_eq!(old.verify(&early), Err(IdentityError::Invalid));
        let other_aud = old.sign(&Claims { aud: "someone-else".into(), ..claims })?;
        assert_eq!(old.verify(&other_aud), Err(IdentityError::Invalid));
        Ok(())
    }

    #[test]
    fn service_tokens_are_short_and_carry_no_role() -> Result<(), IdentityError> {
        let keys = ring(&[("k1", A)])?;
        let id = keys.verify(&keys.service_token("cc", None, 3600)?)?;
        assert_eq!(id.kind, TokenKind::Service);
        assert!(id.expires_at - id.issued_at <= SERVICE_TOKEN_MAX_SECONDS);
        assert_eq!(id.role(), None);
        assert!(id.owner().is_err() && id.require_user().is_err() && id.require_service().is_ok());
        let acting = keys.verify(&keys.service_token("cc", Some("ann@example.com"), 60)?)?;
        assert_eq!(acting.owner(), Ok(("cc", "ann@example.com")));
        assert!(acting.require_user().is_err(), "a service token is not a signed-in user");
        let now = now();
        let long = keys.sign(&Claims {
            sub: String::new(),
            tenant: "cc".into(),
            role: String::new(),
            level: -1,
            typ: TokenKind::Service,
            kid: String::new(),
            jti: "j".into(),
            iat: now,
            nbf: now,
            exp: now + 3600,
            aud: AUDIENCE.into(),
        })?;
        assert_eq!(keys.verify(&long), Err(IdentityError::Invalid));
        Ok(())
    }

    #[test]
    fn a_local_key_is_made_once_private_and_reused() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let first = local_key(dir.path())?;
        assert_eq!(first.secret.len(), 64, "256 bits, hex");
        assert_eq!(local_key(dir.path())?, first, "reused on the next start");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(LOCAL_KEY_FILE))?.permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let keys = Keyring::new(&[first])?;
        let (token, _) = keys.issue_user("qs", "ann@example.com", OperatorLevel::DEFAULT, 60)?;
        assert!(Keyring::new(&[local_key(dir.path())?])?.verify(&token).is_ok());
        Ok(())
    }

    #[test]
    fn unusable_keys_are_named() {
        let short = ring(&[("k1", "short")]).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(short.contains("auth.keys[0].secret"), "{short}");
        let twice = ring(&[("k1", A), ("k1", B)]).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(twice.contains("auth.keys[1].id"), "{twice}");
        assert!(ring(&[]).is_err());
    }
}
