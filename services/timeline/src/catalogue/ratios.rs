//! Aspect ratios with their size ids, editing sizes and target sizes (editor-core §3).

use serde::Serialize;
use ts_rs::TS;

/// An aspect ratio.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AspectRatio.ts", rename_all = "camelCase")]
pub struct AspectRatio {
    /// "16:9", "4:3", "1:1", "9:16" or "custom".
    pub name: &'static str,
    /// Size category id.
    pub size_id: i32,
    /// Editing size in pixels, `None` when not fixed.
    pub editing: Option<[u32; 2]>,
    /// Output size in pixels; for 4:3 and 1:1 the spec gives none and this is the editing
    /// size scaled to 720 lines, "in proportion" as the render issue asks.
    pub target: Option<[u32; 2]>,
    /// Hidden in the ratio picker.
    pub hidden: bool,
}

/// The ratios.
pub static RATIOS: &[AspectRatio] = &[
    AspectRatio {
        name: "16:9",
        size_id: 41,
        editing: Some([640, 360]),
        target: Some([1280, 720]),
        hidden: false,
    },
    AspectRatio {
        name: "4:3",
        size_id: 42,
        editing: Some([640, 480]),
        target: Some([960, 720]),
        hidden: false,
    },
    AspectRatio {
        name: "1:1",
        size_id: 51,
        editing: Some([640, 640]),
        target: Some([720, 720]),
        hidden: false,
    },
    AspectRatio {
        name: "9:16",
        size_id: 50,
        editing: Some([360, 640]),
        target: Some([720, 1280]),
        hidden: false,
    },
    AspectRatio {
        name: "custom",
        size_id: -1,
        editing: None,
        target: None,
        hidden: true,
    },
];

/// Returns the ratio with a size id.
pub fn by_size_id(size_id: i64) -> Option<&'static AspectRatio> {
    RATIOS.iter().find(|r| i64::from(r.size_id) == size_id)
}
