//! Mail addresses, users and the errors of sign-in, free of transport and SQL types.

use reelforge_kit::IdentityError;
use reelforge_kit::identity::OperatorLevel;
use reelforge_kit::status::{ErrorKind, ServiceError};

use crate::challenge::{Challenge, ProofError};

/// A checked, lower-cased mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail(String);

impl Mail {
    /// Parses a mail address: one `@`, a non-empty local part, a dotted domain, no spaces.
    pub fn parse(s: &str) -> Result<Self, AuthError> {
        let s = s.trim().to_lowercase();
        let bad = || AuthError::Invalid("mail: not a valid mail address".into());
        if s.len() > 254 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad());
        }
        let (local, domain) = s.split_once('@').ok_or_else(bad)?;
        let domain_ok = domain.contains('.')
            && domain.split('.').all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'));
        if local.is_empty() || local.len() > 64 || domain.contains('@') || !domain_ok {
            return Err(bad());
        }
        Ok(Self(s))
    }

    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Parses an operator level number (0..9, 5 not given), naming `field` when it is not one.
pub fn parse_level(n: i32, field: &str) -> Result<OperatorLevel, AuthError> {
    OperatorLevel::from_number(n).ok_or_else(|| AuthError::Invalid(format!("{field}: {n} is not an operator level (0-4, 6-9)")))
}

/// A user of one tenant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The tenant.
    pub tenant: String,
    /// The user's id: the mail address, or the host platform's id for a user that came by hand-off.
    pub user_id: String,
    /// The mobile number a host platform gave, or empty.
    pub mobile: String,
    /// The operator level.
    pub level: OperatorLevel,
    /// Whether an administrator turned the user off.
    pub disabled: bool,
    /// Creation time, milliseconds since the epoch.
    pub created_ms: i64,
}

/// A successful sign-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The issued JWT.
    pub token: String,
    /// Who signed in.
    pub user: User,
}

/// A page of users for the administrators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserPage {
    /// The users of the page.
    pub list: Vec<User>,
    /// Users matching the search in all.
    pub total: u64,
}

/// The message of a wrong, expired or burned code.
pub const WRONG_CODE: &str = "验证码错误或已过期 (the verification code is wrong or has expired)";

/// Why a sign-in call failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// A wrong, expired or burned code, or a bad hand-off token.
    #[error("{0}")]
    Refused(String),
    /// Too many requests; try again after `wait_seconds`. Clients word it from [`AuthError::reason`]
    /// and the wait, in their own language.
    #[error("{what}; try again in {wait_seconds} seconds")]
    RateLimited {
        /// What was limited.
        what: String,
        /// Seconds until the next try may succeed.
        wait_seconds: u64,
    },
    /// The client address is past its threshold: a code needs this challenge solved.
    #[error("too many requests from this address; solve the challenge and ask again")]
    ChallengeRequired(Challenge),
    /// The solved challenge sent was refused; a fresh one comes with the refusal.
    #[error("{why}; solve the new challenge and ask again")]
    ChallengeFailed {
        /// Why it was refused.
        why: ProofError,
        /// A fresh challenge.
        challenge: Challenge,
    },
    /// The user named does not exist in the caller's tenant.
    #[error("user `{0}` does not exist")]
    NoSuchUser(String),
    /// No such service-provider application in the caller's tenant (or not the caller's own).
    #[error("application {0} does not exist")]
    NoSuchApplication(i64),
    /// The caller's token or role does not allow this.
    #[error(transparent)]
    Identity(#[from] IdentityError),
    /// The caller's token was revoked, or its user disabled or changed since it was issued.
    #[error("authorization: the token is no longer valid")]
    Revoked,
    /// The user was turned off by an administrator.
    #[error("this account is disabled")]
    Disabled,
    /// The cache failed.
    #[error("auth cache")]
    Cache(#[from] reelforge_kit::cache::CacheError),
    /// The database failed.
    #[error("auth store")]
    Store(#[from] sea_orm::DbErr),
    /// The mail could not be delivered.
    #[error("mail: {0}")]
    Mail(String),
}

impl AuthError {
    /// The stable reason of a refusal that clients word themselves: `rate_limited`,
    /// `challenge_required` or `challenge_failed`.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Self::RateLimited { .. } => Some("rate_limited"),
            Self::ChallengeRequired(_) => Some("challenge_required"),
            Self::ChallengeFailed { .. } => Some("challenge_failed"),
            _ => None,
        }
    }

    /// The challenge a refusal carries.
    pub fn challenge(&self) -> Option<&Challenge> {
        match self {
            Self::ChallengeRequired(c) | Self::ChallengeFailed { challenge: c, .. } => Some(c),
            _ => None,
        }
    }
}

impl ServiceError for AuthError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) | Self::Refused(_) | Self::Disabled => ErrorKind::Invalid,
            Self::RateLimited { .. } | Self::ChallengeRequired(_) | Self::ChallengeFailed { .. } => ErrorKind::RateLimited,
            Self::NoSuchUser(_) | Self::NoSuchApplication(_) => ErrorKind::NotFound,
            Self::Identity(e) => e.kind(),
            Self::Revoked => ErrorKind::Unauthenticated,
            Self::Cache(_) | Self::Store(_) | Self::Mail(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_addresses() {
        assert!(Mail::parse(" A@X.cn ").is_ok_and(|m| m.as_str() == "a@x.cn"));
        for bad in ["", "a", "a@", "@x.cn", "a@x", "a b@x.cn", "a@@x.cn", "a@x..cn", "a@x\n.cn"] {
            assert!(matches!(Mail::parse(bad), Err(AuthError::Invalid(m)) if m.starts_with("mail")), "{bad:?}");
        }
    }

    #[test]
    fn levels_are_named_when_wrong() {
        assert!(parse_level(3, "operatorLevel").is_ok());
        for bad in [5, -1, 10] {
            assert!(matches!(parse_level(bad, "operatorLevel"), Err(AuthError::Invalid(m)) if m.starts_with("operatorLevel")));
        }
    }
}
