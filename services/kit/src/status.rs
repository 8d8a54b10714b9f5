//! The table of error codes shared by services and the gateway: a service error becomes a
//! `tonic::Status` once, in its `grpc.rs`, and the gateway turns that status into the envelope.

/// What went wrong, in the words the gateway maps to envelope codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input was wrong; the message names the field (envelope 3000).
    Invalid,
    /// The thing does not exist, or belongs to another tenant or user (envelope 3000).
    NotFound,
    /// The caller's token is missing, invalid or expired (envelope 4000).
    Unauthenticated,
    /// The caller's role may not do this (envelope 4001).
    Forbidden,
    /// The state changed under the caller (envelope 3000).
    Conflict,
    /// The feature is not offered by this deployment yet (envelope 3000).
    Unavailable,
    /// Too many attempts (envelope 3000).
    RateLimited,
    /// A fault of ours; logged with its cause, never shown (envelope 3000 with a generic message).
    Internal,
}

impl ErrorKind {
    /// The gRPC code for this kind.
    pub fn grpc_code(self) -> tonic::Code {
        match self {
            Self::Invalid => tonic::Code::InvalidArgument,
            Self::NotFound => tonic::Code::NotFound,
            Self::Unauthenticated => tonic::Code::Unauthenticated,
            Self::Forbidden => tonic::Code::PermissionDenied,
            Self::Conflict => tonic::Code::FailedPrecondition,
            Self::Unavailable => tonic::Code::Unimplemented,
            Self::RateLimited => tonic::Code::ResourceExhausted,
            Self::Internal => tonic::Code::Internal,
        }
    }

    /// The envelope code the gateway answers with for a gRPC code.
    pub fn envelope_code(code: tonic::Code) -> i32 {
        match code {
            tonic::Code::Ok => 2000,
            tonic::Code::Unauthenticated => 4000,
            tonic::Code::PermissionDenied => 4001,
            _ => 3000,
        }
    }
}

/// The status metadata key a rate-limited answer carries its wait in, in seconds.
pub const RETRY_AFTER_METADATA: &str = "retry-after";

/// The status metadata key a refusal carries its stable reason in (`rate_limited`, …), which the
/// gateway answers as `data.reason` so clients word it in their own language.
pub const REASON_METADATA: &str = "x-reason";

/// The status metadata key a refusal carries its details in, as `name=number` pairs joined by `;`
/// (`usedBytes=10;limitBytes=5`), which the gateway answers beside `data.reason`.
pub const DETAILS_METADATA: &str = "x-details";

/// The binary status metadata key a ring order refused for its video carries the profile's
/// violations in, as JSON (`[{rule, measured, limit, message, fixable}]`).
pub const VIOLATIONS_METADATA: &str = "x-violations-bin";

/// The status metadata key a refusal carries a proof-of-work challenge token in.
pub const CHALLENGE_METADATA: &str = "x-challenge";

/// The status metadata key a refusal carries its challenge's difficulty in, in leading zero bits.
pub const CHALLENGE_BITS_METADATA: &str = "x-challenge-bits";

/// A service error that knows its kind; implemented by every service's error enum.
pub trait ServiceError: std::error::Error {
    /// The kind that chooses the status code.
    fn kind(&self) -> ErrorKind;
}

/// Converts a service error into a status: internal errors are logged with their cause chain and
/// answered with a generic message.
pub fn to_status<E: ServiceError>(err: E) -> tonic::Status {
    let kind = err.kind();
    if kind == ErrorKind::Internal {
        let mut chain = err.to_string();
        let mut source = err.source();
        while let Some(s) = source {
            chain.push_str(": ");
            chain.push_str(&s.to_string());
            source = s.source();
        }
        tracing::error!(error = %chain, "internal error");
        return tonic::Status::internal("internal error, please retry later");
    }
    tonic::Status::new(kind.grpc_code(), err.to_string())
}
