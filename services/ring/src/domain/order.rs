//! Ring orders and the moves between their states (platform spec §4).

use super::RingError;

/// The state of a ring order, with the spec's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderState {
    /// −2: the number has no video-ringtone service.
    NotJoin,
    /// −1: failed, with a reason.
    Error,
    /// 0: recorded, not yet handed to the platform.
    NotSet,
    /// 1: the ring is set.
    Success,
    /// 2: queued for delivery or being delivered.
    Setting,
    /// 3: a set ring was cancelled (the platform is told).
    CancelSetting,
}

impl OrderState {
    /// Every state.
    pub const ALL: [OrderState; 6] = [
        Self::NotJoin,
        Self::Error,
        Self::NotSet,
        Self::Success,
        Self::Setting,
        Self::CancelSetting,
    ];

    /// The spec's number.
    pub fn code(self) -> i32 {
        match self {
            Self::NotJoin => -2,
            Self::Error => -1,
            Self::NotSet => 0,
            Self::Success => 1,
            Self::Setting => 2,
            Self::CancelSetting => 3,
        }
    }

    /// The state of a number; `None` for one the spec does not give.
    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Whether a second save of the same task and phone answers this order instead of making a new
    /// one: every state but failed and cancelled.
    pub fn is_live(self) -> bool {
        !matches!(self, Self::Error | Self::CancelSetting)
    }
}

/// What may be delivered to a ring platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Set the ring.
    Set,
    /// Cancel a set ring.
    Cancel,
}

impl Action {
    /// The wire name (`set`, `cancel`), also the outbox's.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Set => "set",
            Self::Cancel => "cancel",
        }
    }

    /// The action of a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "set" => Some(Self::Set),
            "cancel" => Some(Self::Cancel),
            _ => None,
        }
    }
}

/// One ring order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The order id.
    pub id: i64,
    /// The tenant (variant) it belongs to.
    pub tenant: String,
    /// The user who ordered it.
    pub user_id: String,
    /// The finished task whose video is the ring.
    pub task_id: i64,
    /// The task's name when ordered.
    pub task_name: String,
    /// Storage key of the task's video when ordered.
    pub video_key: String,
    /// Storage key of the task's cover when ordered.
    pub cover_key: String,
    /// The 11-digit number.
    pub phone: String,
    /// Where it stands.
    pub state: OrderState,
    /// Why it failed (ERROR), or what the platform said.
    pub reason: String,
    /// Whether a failed order may be uploaded again (the platform was unreachable, not refusing).
    pub retryable: bool,
    /// The copyright proof named, if any.
    pub copyright_id: String,
    /// The platform's reference for the set ring.
    pub platform_ref: String,
    /// Deliveries tried for the current action.
    pub attempts: u32,
    /// Unix milliseconds.
    pub created_ms: i64,
    /// Unix milliseconds.
    pub updated_ms: i64,
}

/// What a ring platform answered to one delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted, with the platform's reference.
    Accepted {
        /// The platform's reference.
        reference: String,
    },
    /// Refused for good (a 4xx), with the platform's reason.
    Refused {
        /// The platform's words.
        reason: String,
    },
    /// The number has no video-ringtone service.
    NotJoined,
    /// Not answered (5xx, timeout, refused connection): try again later.
    Unreachable {
        /// What went wrong, for the log and the outbox row.
        error: String,
    },
}

/// The reason an order shows when every delivery try failed to reach the platform.
pub const UNREACHABLE: &str = "ring platform unreachable";

/// The moves of an order, as pure functions of its state: each answers the state after the move or
/// the refusal `order_state`.
pub mod moves {
    use super::*;

    /// `ringUpload`: a recorded order, or one whose delivery could not reach the platform, is queued.
    pub fn upload(order: &Order) -> Result<OrderState, RingError> {
        match order.state {
            OrderState::NotSet => Ok(OrderState::Setting),
            OrderState::Error if order.retryable => Ok(OrderState::Setting),
            from => Err(RingError::OrderState {
                from,
                action: "upload",
            }),
        }
    }

    /// `cancel`: only a set ring can be cancelled.
    pub fn cancel(order: &Order) -> Result<OrderState, RingError> {
        match order.state {
            OrderState::Success => Ok(OrderState::CancelSetting),
            from => Err(RingError::OrderState {
                from,
                action: "cancel",
            }),
        }
    }

    /// What a delivery's outcome makes of the order: `None` leaves it as it is (retry later).
    /// A set that is accepted is SUCCESS; refused, ERROR with the reason; a number without the
    /// service, NOTJOIN. A cancel that is accepted stays CANCEL_SETTING; a refused one puts the
    /// ring back to SUCCESS with the platform's reason, since the ring is still set.
    pub fn delivered(action: Action, outcome: &Outcome) -> Option<(OrderState, String)> {
        match (action, outcome) {
            (_, Outcome::Unreachable { .. }) => None,
            (Action::Set, Outcome::Accepted { .. }) => Some((OrderState::Success, String::new())),
            (Action::Set, Outcome::Refused { reason }) => Some((OrderState::Error, reason.clone())),
            (Action::Set, Outcome::NotJoined) => Some((
                OrderState::NotJoin,
                "the number has no video-ringtone service".into(),
            )),
            (Action::Cancel, Outcome::Accepted { .. }) => {
                Some((OrderState::CancelSetting, String::new()))
            }
            (Action::Cancel, Outcome::Refused { reason }) => {
                Some((OrderState::Success, format!("cancel refused: {reason}")))
            }
            (Action::Cancel, Outcome::NotJoined) => {
                Some((OrderState::CancelSetting, String::new()))
            }
        }
    }

    /// What running out of delivery tries makes of the order: a set fails (retryable); a cancel
    /// leaves the ring set, saying the cancel did not reach the platform.
    pub fn exhausted(action: Action) -> (OrderState, String) {
        match action {
            Action::Set => (OrderState::Error, UNREACHABLE.into()),
            Action::Cancel => (
                OrderState::Success,
                format!("cancel not delivered: {UNREACHABLE}"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::moves::*;
    use super::*;

    fn order(state: OrderState, retryable: bool) -> Order {
        Order {
            id: 1,
            tenant: "qs".into(),
            user_id: "u".into(),
            task_id: 1,
            task_name: String::new(),
            video_key: String::new(),
            cover_key: String::new(),
            phone: "13800138000".into(),
            state,
            reason: String::new(),
            retryable,
            copyright_id: String::new(),
            platform_ref: String::new(),
            attempts: 0,
            created_ms: 0,
            updated_ms: 0,
        }
    }

    #[test]
    fn codes_round_trip() {
        for s in OrderState::ALL {
            assert_eq!(OrderState::from_code(s.code()), Some(s));
        }
        assert_eq!(OrderState::from_code(4), None);
        assert!(
            !OrderState::Error.is_live()
                && !OrderState::CancelSetting.is_live()
                && OrderState::NotJoin.is_live()
        );
    }

    #[test]
    fn upload_and_cancel_moves() {
        assert_eq!(
            upload(&order(OrderState::NotSet, false)).ok(),
            Some(OrderState::Setting)
        );
        assert_eq!(
            upload(&order(OrderState::Error, true)).ok(),
            Some(OrderState::Setting)
        );
        for s in [
            OrderState::Error,
            OrderState::Success,
            OrderState::Setting,
            OrderState::CancelSetting,
            OrderState::NotJoin,
        ] {
            assert!(
                matches!(upload(&order(s, false)), Err(RingError::OrderState { .. })),
                "{s:?}"
            );
        }
        assert_eq!(
            cancel(&order(OrderState::Success, false)).ok(),
            Some(OrderState::CancelSetting)
        );
        for s in OrderState::ALL
            .into_iter()
            .filter(|s| *s != OrderState::Success)
        {
            assert!(
                matches!(cancel(&order(s, true)), Err(RingError::OrderState { .. })),
                "{s:?}"
            );
        }
    }

    #[test]
    fn delivery_outcomes() {
        let accepted = Outcome::Accepted {
            reference: "r".into(),
        };
        let refused = Outcome::Refused {
            reason: "too loud".into(),
        };
        let down = Outcome::Unreachable {
            error: "refused".into(),
        };
        assert_eq!(
            delivered(Action::Set, &accepted),
            Some((OrderState::Success, String::new()))
        );
        assert_eq!(
            delivered(Action::Set, &refused),
            Some((OrderState::Error, "too loud".into()))
        );
        assert_eq!(
            delivered(Action::Set, &Outcome::NotJoined).map(|d| d.0),
            Some(OrderState::NotJoin)
        );
        assert_eq!(delivered(Action::Set, &down), None);
        assert_eq!(
            delivered(Action::Cancel, &accepted).map(|d| d.0),
            Some(OrderState::CancelSetting)
        );
        assert_eq!(
            delivered(Action::Cancel, &refused).map(|d| d.0),
            Some(OrderState::Success)
        );
        assert_eq!(
            exhausted(Action::Set),
            (OrderState::Error, UNREACHABLE.into())
        );
        assert_eq!(exhausted(Action::Cancel).0, OrderState::Success);
    }
}
