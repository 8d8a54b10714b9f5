//! What the task tests share: the result type, owners, the document fixtures and an opened store.

use reelforge_task::{Owner, TaskStore, migrate};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The shared fixture, its materials made the tenant's system ones (which every user of qs may
/// name) and its effect a system key too.
pub fn valid() -> &'static str {
    static VALID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("../../../timeline/tests/fixtures/video_edit_every_layer.json")
            .replace("t/qs/u/2/materials/", "t/qs/sys/materials/")
            .replace("t/qs/fx/", "t/qs/sys/materials/fx/")
    });
    &VALID
}

/// A document with many problems at once.
pub const INVALID: &str = include_str!("../../../timeline/tests/fixtures/malformed_many_problems.json");

pub fn owner(tenant: &str, user: &str) -> Owner {
    Owner { tenant: tenant.into(), user_id: user.into() }
}

/// A task store on a migrated database at `url`.
pub async fn open(url: &str) -> Result<TaskStore, Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    Ok(TaskStore::new(db))
}
