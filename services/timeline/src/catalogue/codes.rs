//! Status codes, quality levels, operator levels, roles, card field kinds and toolbox task types.

use serde::Serialize;
use ts_rs::TS;

/// A named numeric code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "Code.ts")]
pub struct Code {
    /// Name as the spec writes it.
    pub key: &'static str,
    /// Numeric value.
    pub value: i32,
}

const fn c(key: &'static str, value: i32) -> Code {
    Code { key, value }
}

/// A render quality level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "QualityLevel.ts")]
pub struct QualityLevel {
    /// LOW, MIDDLE or HIGH.
    pub key: &'static str,
    /// The level's value.
    pub value: i32,
}

/// The quality levels: LOW 99, MIDDLE 201, HIGH 401.
pub static QUALITY_LEVELS: &[QualityLevel] = &[
    QualityLevel {
        key: "LOW",
        value: 99,
    },
    QualityLevel {
        key: "MIDDLE",
        value: 201,
    },
    QualityLevel {
        key: "HIGH",
        value: 401,
    },
];

/// A task's status: the one definition the task service stores and every answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    /// Saved, never run (-1).
    New,
    /// Queued for rendering (0).
    Wait,
    /// A worker is rendering it (1).
    Executing,
    /// The last render failed (9).
    Error,
    /// The last render succeeded (10).
    Success,
    /// The user cancelled the last render (11).
    Cancelled,
}

impl TaskStatus {
    /// Every status, in code order.
    pub const ALL: [TaskStatus; 6] = [
        Self::New,
        Self::Wait,
        Self::Executing,
        Self::Error,
        Self::Success,
        Self::Cancelled,
    ];

    /// Returns the stored and wire code.
    pub const fn code(self) -> i32 {
        match self {
            Self::New => -1,
            Self::Wait => 0,
            Self::Executing => 1,
            Self::Error => 9,
            Self::Success => 10,
            Self::Cancelled => 11,
        }
    }

    /// Returns the name the catalogue lists.
    pub const fn key(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::Wait => "wait",
            Self::Executing => "executing",
            Self::Error => "error",
            Self::Success => "success",
            Self::Cancelled => "cancelled",
        }
    }

    /// Returns the status with a code, if one has it.
    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Whether a render is queued or running.
    pub fn is_rendering(self) -> bool {
        matches!(self, Self::Wait | Self::Executing)
    }
}

const fn status(s: TaskStatus) -> Code {
    c(s.key(), s.code())
}

/// Task status codes.
pub static TASK_STATUSES: &[Code] = &[
    status(TaskStatus::New),
    status(TaskStatus::Wait),
    status(TaskStatus::Executing),
    status(TaskStatus::Error),
    status(TaskStatus::Success),
    status(TaskStatus::Cancelled),
];

/// The second status set (setting statuses).
pub static SETTING_STATUSES: &[Code] = &[
    c("NOTJOIN", -2),
    c("ERROR", -1),
    c("NOTSET", 0),
    c("SUCCESS", 1),
    c("SETTING", 2),
    c("CANCEL_SETTING", 3),
];

/// Operator levels (5 is not given).
pub static OPERATOR_LEVELS: &[Code] = &[
    c("admin", 0),
    c("distributor", 1),
    c("enterpriseAdmin", 2),
    c("operationsManager", 3),
    c("templateManager", 4),
    c("vendor", 6),
    c("merchantProducer", 7),
    c("operation", 8),
    c("subDistributor", 9),
];

/// The roles.
pub static ROLES: &[&str] = &[
    "CREATE_TEMPLATE",
    "TEMPLATE_MANAGER",
    "CREATE_VIDEO",
    "SERVICE_PROVIDER",
];

/// Returns the role an operator level gives: template manager → CREATE_TEMPLATE,
/// operations manager → TEMPLATE_MANAGER, anything else → CREATE_VIDEO (editor-core §6).
pub fn role_for_operator_level(level: i64) -> &'static str {
    match level {
        4 => "CREATE_TEMPLATE",
        3 => "TEMPLATE_MANAGER",
        _ => "CREATE_VIDEO",
    }
}

/// Returns whether an operator level is a channel user (distributor or sub-distributor).
pub fn is_channel_level(level: i64) -> bool {
    matches!(level, 1 | 9)
}

/// Company-card text field kinds (12 is absent).
pub static CARD_FIELDS: &[Code] = &[
    c("default", 0),
    c("memberName", 1),
    c("memberJob", 2),
    c("memberDepartment", 3),
    c("memberPhone", 4),
    c("memberEmail", 5),
    c("companyName", 6),
    c("companyAddress", 7),
    c("companyWebsite", 8),
    c("companyPhone", 9),
    c("zodiac", 10),
    c("constellation", 11),
    c("hobby", 13),
    c("city", 14),
    c("tag", 15),
];

/// A toolbox task type and whether the toolbox shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "ToolboxTask.ts")]
pub struct ToolboxTask {
    /// The task type.
    pub key: &'static str,
    /// "shown", "hidden" or "unspecified".
    pub visibility: &'static str,
}

const fn t(key: &'static str, visibility: &'static str) -> ToolboxTask {
    ToolboxTask { key, visibility }
}

/// Toolbox task types.
pub static TOOLBOX_TASKS: &[ToolboxTask] = &[
    t("VIDEO_SPLIT", "shown"),
    t("PPT_CONVERTER", "shown"),
    t("ONE_CLICK_FILMING", "shown"),
    t("EXTRACT_AUDIO", "shown"),
    t("PRE_PICTURE_VIDEO", "shown"),
    t("QUICK_CUT_VIDEO", "shown"),
    t("QUICK_CUT_AUDIO", "shown"),
    t("VIDEO_TO_GIF", "shown"),
    t("VIDEO_REPLACE_AUDIO", "shown"),
    t("VIDEO_COMPRESS", "shown"),
    t("INTELLIGENT_TASK", "shown"),
    t("EXTRACT_PERSON_AUDIO", "shown"),
    t("VIDEO_BEAUTY", "shown"),
    t("EXTRACT_PORTRAIT", "hidden"),
    t("INCREASE_RESOLUTION", "hidden"),
    t("VIDEO_CROP", "hidden"),
    t("IVVR", "hidden"),
    t("VIDEO_REMOVE_WATERMARK", "hidden"),
    t("VIDEO_REMOVE_SUBTITLE", "hidden"),
    t("VIDEO_H_TO_V", "hidden"),
    t("VIDEO_SPEEDUP", "unspecified"),
    t("BUSINESS_CARD", "unspecified"),
];
