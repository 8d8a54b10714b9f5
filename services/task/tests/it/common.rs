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

/// A two-second canvas scene with no layers and no materials: a document any user may save.
pub fn canvas_rule() -> String {
    serde_json::json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 25,
        "resolutionRatio": {"name": "16:9", "width": 640, "height": 360, "ratio": "16:9", "sizeId": 41, "targetWidth": 1280},
        "scenes": [{"id": 1, "type": "canvas", "timeLength": 2, "bgColor": "#1e3a8a", "effectTime": 1, "layers": []}],
        "audio": []
    })
    .to_string()
}
