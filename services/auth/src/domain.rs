//! Mail addresses, roles and the errors of sign-in, free of transport and SQL types.

use reelforge_kit::status::{ErrorKind, ServiceError};

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

/// Checks the tenant (variant key) a request names.
pub fn parse_tenant(s: &str) -> Result<String, AuthError> {
    let s = s.trim();
    if s.is_empty() || s.len() > 32 || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(AuthError::Invalid("tenant: missing or malformed".into()));
    }
    Ok(s.to_owned())
}

/// What a user may do, derived from their operator level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Makes videos from templates.
    CreateVideo,
    /// Makes templates.
    CreateTemplate,
    /// Manages templates.
    TemplateManager,
}

/// Operator level of a new user.
pub const DEFAULT_OPERATOR_LEVEL: i32 = 8;

impl Role {
    /// Maps an operator level: 4 makes templates, 3 manages them, anything else makes videos.
    pub fn from_operator_level(level: i32) -> Self {
        match level {
            4 => Self::CreateTemplate,
            3 => Self::TemplateManager,
            _ => Self::CreateVideo,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CreateVideo => "CREATE_VIDEO",
            Self::CreateTemplate => "CREATE_TEMPLATE",
            Self::TemplateManager => "TEMPLATE_MANAGER",
        }
    }
}

/// A successful sign-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The issued JWT.
    pub token: String,
    /// The user's id (the mail address).
    pub user_id: String,
    /// Their role.
    pub role: Role,
    /// Their operator level.
    pub operator_level: i32,
}

/// Why a sign-in call failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// Too many codes asked for.
    #[error("{0}")]
    RateLimited(String),
    /// Wrong or expired code, or a bad token.
    #[error("{0}")]
    Unauthenticated(String),
    /// The cache failed.
    #[error("auth cache")]
    Cache(#[from] reelforge_kit::cache::CacheError),
    /// The database failed.
    #[error("auth store")]
    Store(#[from] sea_orm::DbErr),
    /// The dev mail outbox could not be written.
    #[error("mail outbox")]
    Outbox(#[from] std::io::Error),
    /// A token could not be signed.
    #[error("token signing")]
    Sign(#[source] jsonwebtoken::errors::Error),
}

impl ServiceError for AuthError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::RateLimited(_) => ErrorKind::RateLimited,
            Self::Unauthenticated(_) => ErrorKind::Unauthenticated,
            Self::Cache(_) | Self::Store(_) | Self::Outbox(_) | Self::Sign(_) => ErrorKind::Internal,
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
    fn roles() {
        assert_eq!(Role::from_operator_level(4), Role::CreateTemplate);
        assert_eq!(Role::from_operator_level(3), Role::TemplateManager);
        assert_eq!(Role::from_operator_level(DEFAULT_OPERATOR_LEVEL), Role::CreateVideo);
    }
}
