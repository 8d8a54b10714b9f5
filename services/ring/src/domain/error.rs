//! Why a ring call failed, with the stable reason (docs/ringtone.md) the gateway answers as
//! `data.reason`.

use reelforge_kit::status::{ErrorKind, ServiceError};

use super::OrderState;

/// Why a ring call failed.
#[derive(Debug, thiserror::Error)]
pub enum RingError {
    /// Not a mainland mobile number.
    #[error("phone: not a mainland mobile number")]
    PhoneInvalid,
    /// The number has no video-ringtone service.
    #[error("phone: the number has no video-ringtone service")]
    PhoneNotJoined,
    /// Neither the copyright statement agreed nor a proof named.
    #[error("copyright: agree to the statement or upload a proof")]
    CopyrightMissing,
    /// A named copyright proof is not the caller's.
    #[error("copyright {0} does not exist")]
    CopyrightNotFound(String),
    /// The task is not the caller's (or does not exist).
    #[error("task {0} does not exist")]
    TaskNotFound(i64),
    /// The task has no finished video.
    #[error("task {0} is not finished: render it first")]
    TaskNotFinished(i64),
    /// The fix named is not a finished one-click fix of the task.
    #[error("fix {0} does not exist for this task")]
    FixNotFound(i64),
    /// The fix named has not finished.
    #[error("fix {0} has not finished")]
    FixNotFinished(i64),
    /// The video already conforms: there is nothing to fix.
    #[error("the video already meets the delivery profile")]
    NothingToFix,
    /// A broken rule no re-encode fixes (a video too short, the cover).
    #[error("the one-click fix cannot mend: {0}")]
    NotFixable(String),
    /// The video breaks the delivery profile; `violations` lists each rule.
    #[error("the video breaks the delivery profile: {summary}")]
    ProfileViolation {
        /// The rules broken, one line each.
        summary: String,
        /// The violations as docs/ringtone.md shows them (`[{rule, measured, limit, message, fixable}]`).
        violations: serde_json::Value,
    },
    /// The order is not the caller's (or does not exist).
    #[error("order {0} not found")]
    OrderNotFound(i64),
    /// The move is not allowed from the order's state.
    #[error("order is {}: cannot {action}", state_name(.from))]
    OrderState {
        /// Where the order stands.
        from: OrderState,
        /// The move refused.
        action: &'static str,
    },
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// The task service failed.
    #[error("task service: {0}")]
    Tasks(String),
    /// Blob storage failed.
    #[error("storage: {0}")]
    Blob(String),
    /// Measuring a video failed.
    #[error("measuring the video: {0}")]
    Measure(String),
    /// The database failed.
    #[error("ring store")]
    Store(#[from] sea_orm::DbErr),
}

fn state_name(s: &OrderState) -> &'static str {
    match s {
        OrderState::NotJoin => "NOTJOIN",
        OrderState::Error => "ERROR",
        OrderState::NotSet => "NOTSET",
        OrderState::Success => "SUCCESS",
        OrderState::Setting => "SETTING",
        OrderState::CancelSetting => "CANCEL_SETTING",
    }
}

impl RingError {
    /// The stable reason of docs/ringtone.md, for the refusals it lists (and `task_not_found`).
    pub fn reason(&self) -> Option<&'static str> {
        Some(match self {
            Self::PhoneInvalid => "phone_invalid",
            Self::PhoneNotJoined => "phone_not_joined",
            Self::CopyrightMissing | Self::CopyrightNotFound(_) => "copyright_missing",
            Self::TaskNotFound(_) => "task_not_found",
            Self::TaskNotFinished(_) => "task_not_finished",
            Self::ProfileViolation { .. } => "profile_violation",
            Self::FixNotFound(_) => "fix_not_found",
            Self::FixNotFinished(_) => "fix_not_finished",
            Self::NothingToFix => "nothing_to_fix",
            Self::NotFixable(_) => "not_fixable",
            Self::OrderNotFound(_) => "order_not_found",
            Self::OrderState { .. } => "order_state",
            _ => return None,
        })
    }
}

impl ServiceError for RingError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::PhoneInvalid
            | Self::PhoneNotJoined
            | Self::CopyrightMissing
            | Self::ProfileViolation { .. }
            | Self::NothingToFix
            | Self::NotFixable(_)
            | Self::Invalid(_) => ErrorKind::Invalid,
            Self::TaskNotFinished(_) | Self::FixNotFinished(_) | Self::OrderState { .. } => ErrorKind::Conflict,
            Self::CopyrightNotFound(_) | Self::TaskNotFound(_) | Self::OrderNotFound(_) | Self::FixNotFound(_) => {
                ErrorKind::NotFound
            }
            Self::Tasks(_) | Self::Blob(_) | Self::Measure(_) | Self::Store(_) => {
                ErrorKind::Internal
            }
        }
    }
}
