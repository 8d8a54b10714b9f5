//! What the maintenance area reads and changes of the farm (issue 29): the task search, render
//! attempts, the audit trail and the maintenance switch.

use crate::domain::{Task, TaskStatus};

/// The filters of the administrators' task search; each one left out matches every task.
#[derive(Debug, Clone, Default)]
pub struct TaskSearch {
    /// One task id.
    pub task_id: Option<i64>,
    /// The owner's user id.
    pub user_id: Option<String>,
    /// The task's status.
    pub status: Option<TaskStatus>,
}

/// A task as the administrators' search shows it: with its owner.
#[derive(Debug, Clone)]
pub struct TaskRow {
    /// The task.
    pub task: Task,
    /// Its owner.
    pub user_id: String,
    /// A tool run's toolbox type; empty for an editor work.
    pub tool_type: String,
}

/// One attempt of a render job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The job.
    pub job_id: String,
    /// The attempt number within the job (the reaper retries a silent worker's job).
    pub attempt: u32,
    /// queued, running, done, failed, cancelled, or retried (taken back from a silent worker).
    pub state: String,
    /// When the job was queued.
    pub queued_ms: i64,
    /// When a worker started the attempt (0: not yet).
    pub started_ms: i64,
    /// When it ended (0: not yet).
    pub ended_ms: i64,
    /// Why it failed (empty: it did not).
    pub error: String,
}

/// An administrator action to record.
#[derive(Debug, Clone)]
pub struct AuditInput {
    /// Who acted (user id).
    pub actor: String,
    /// What was done (`requeue`, `maintenance`, `material.update` …).
    pub action: String,
    /// What it was done to, as `kind:id`.
    pub item: String,
    /// The item before.
    pub before: String,
    /// The item after.
    pub after: String,
}

/// A recorded administrator action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Who acted.
    pub actor: String,
    /// What was done.
    pub action: String,
    /// What it was done to.
    pub item: String,
    /// The item before.
    pub before: String,
    /// The item after.
    pub after: String,
    /// When, in milliseconds since the epoch.
    pub at_ms: i64,
}

/// A tenant's render farm as the upgrade page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Farm {
    /// Whether new renders and tool runs are refused.
    pub maintenance: bool,
    /// Who last switched it.
    pub changed_by: String,
    /// When it was last switched (0: never).
    pub changed_ms: i64,
    /// Jobs waiting for a worker.
    pub queued: u64,
    /// Jobs a worker renders.
    pub running: u64,
}

/// The kind and range of a run-time setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    /// `true` or `false`.
    Switch,
    /// A whole number within the bounds, both included.
    Number {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
}

/// A per-tenant setting an administrator may change at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingDef {
    /// The key.
    pub key: &'static str,
    /// Its kind and range.
    pub kind: SettingKind,
    /// The value when the tenant set none.
    pub default: &'static str,
}

/// Tool runs are offered (off: every new tool run is refused).
pub const TOOLBOX_ENABLED: &str = "toolbox.enabled";
/// How many tool runs one user may have queued or running at once.
pub const TOOLBOX_MAX_ACTIVE: &str = "toolbox.maxActivePerUser";

/// Every setting the config page offers; the task service reads each where it acts, per call.
pub const SETTINGS: [SettingDef; 2] = [
    SettingDef { key: TOOLBOX_ENABLED, kind: SettingKind::Switch, default: "true" },
    SettingDef { key: TOOLBOX_MAX_ACTIVE, kind: SettingKind::Number { min: 1, max: 50 }, default: "20" },
];

/// Returns the setting `key` with `value` in its canonical form, or a message naming the key.
pub fn parse_setting(key: &str, value: &str) -> Result<(SettingDef, String), crate::domain::TaskError> {
    let invalid = |why: String| crate::domain::TaskError::Invalid(format!("{key}: {why}"));
    let def = SETTINGS.iter().find(|d| d.key == key).copied().ok_or_else(|| invalid("no such setting".into()))?;
    let value = value.trim();
    let canonical = match def.kind {
        SettingKind::Switch => match value {
            "true" | "1" | "on" => "true".to_owned(),
            "false" | "0" | "off" => "false".to_owned(),
            _ => return Err(invalid(format!("`{value}` is not true or false"))),
        },
        SettingKind::Number { min, max } => {
            let n: i64 = value.parse().map_err(|_| invalid(format!("`{value}` is not a whole number")))?;
            if !(min..=max).contains(&n) {
                return Err(invalid(format!("{n} is out of range {min}–{max}")));
            }
            n.to_string()
        }
    };
    Ok((def, canonical))
}

/// A setting as the config page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// Its definition.
    pub def: SettingDef,
    /// The tenant's value (the default when none is set).
    pub value: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_out_of_range_names_its_key() {
        let e = parse_setting(TOOLBOX_MAX_ACTIVE, "51").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with("toolbox.maxActivePerUser:") && e.contains("out of range 1–50"), "{e}");
        assert!(parse_setting(TOOLBOX_ENABLED, "maybe").is_err());
        assert!(parse_setting("nope", "1").is_err());
        assert_eq!(parse_setting(TOOLBOX_MAX_ACTIVE, " 7 ").ok().map(|(_, v)| v), Some("7".to_owned()));
        assert_eq!(parse_setting(TOOLBOX_ENABLED, "off").ok().map(|(_, v)| v), Some("false".to_owned()));
    }
}
