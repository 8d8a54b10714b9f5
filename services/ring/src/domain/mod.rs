//! Ring orders, phone numbers, delivery profiles and their rules; nothing here knows proto or SQL.

mod error;
mod order;
mod phone;
pub mod profile;

pub use error::RingError;
pub use order::{Action, Order, OrderState, Outcome, UNREACHABLE, moves};
pub use phone::{Phone, mask};

/// A finished task as the ring service reads it from the task service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedTask {
    /// The task id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Storage key of its rendered MP4.
    pub video_key: String,
    /// Storage key of its cover.
    pub cover_key: String,
}

/// What a ring order is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOrder {
    /// The tenant.
    pub tenant: String,
    /// The user ordering.
    pub user_id: String,
    /// The finished task.
    pub task: FinishedTask,
    /// The checked number.
    pub phone: Phone,
    /// The copyright proof named, or empty when the statement was agreed to.
    pub copyright_id: String,
}

/// Most orders one page lists.
pub const PAGE_MAX: u32 = 100;

/// A page request: page from 1, size 1..=[`PAGE_MAX`] (defaults 1 and 20), an optional state.
pub fn page(
    page: u32,
    size: u32,
    state: Option<i32>,
) -> Result<(u64, u64, Option<OrderState>), RingError> {
    let state =
        match state {
            None => None,
            Some(code) => Some(OrderState::from_code(code).ok_or_else(|| {
                RingError::Invalid(format!("state: `{code}` is not an order state"))
            })?),
        };
    let size = if size == 0 { 20 } else { size.min(PAGE_MAX) };
    Ok((u64::from(page.max(1)), u64::from(size), state))
}
