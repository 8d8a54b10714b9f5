//! The transitions: id, key, names and group (editor-core §3). The maths of each is in `transition`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Every transition the renderer and the browser draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[ts(export_to = "TransitionKind.ts", rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(missing_docs)]
pub enum TransitionKind {
    MoveLeft,
    MoveRight,
    MoveUp,
    MoveDown,
    MoveLeftUp,
    MoveRightUp,
    MoveLeftDown,
    MoveRightDown,
    RollDown,
    RollUp,
    CurtainOpen,
    CurtainClose,
    EraseLeft,
    EraseRight,
    EraseUp,
    EraseDown,
    CircleOpen,
    CircleClose,
    Mosaic,
    Overlay,
    ShuttersHorizontal,
    ShuttersVertical,
    TrackIn,
    TrackOut,
    Clockwise,
    AntiClockwise,
    FlashBlack,
    FlashWhite,
    MirrorFoldHorizontal,
    MirrorFoldVertical,
}

/// A catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TransitionInfo.ts", rename_all = "camelCase")]
pub struct TransitionInfo {
    /// Numeric id.
    pub id: u32,
    /// Key written in a scene's `effect`.
    pub key: &'static str,
    /// The transition.
    pub kind: TransitionKind,
    /// Chinese name.
    pub name_zh: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// 1: movements, 2: masks and effects.
    pub group: u8,
}

use TransitionKind as K;

const fn t(
    id: u32,
    key: &'static str,
    kind: K,
    name_zh: &'static str,
    name_en: &'static str,
    group: u8,
) -> TransitionInfo {
    TransitionInfo {
        id,
        key,
        kind,
        name_zh,
        name_en,
        group,
    }
}

/// The transitions.
pub static TRANSITIONS: &[TransitionInfo] = &[
    t(1, "MOVE_LEFT", K::MoveLeft, "左移", "Move left", 1),
    t(2, "MOVE_RIGHT", K::MoveRight, "右移", "Move right", 1),
    t(3, "MOVE_UP", K::MoveUp, "上移", "Move up", 1),
    t(4, "MOVE_DOWN", K::MoveDown, "下移", "Move down", 1),
    t(
        5,
        "MOVE_LEFT_UP",
        K::MoveLeftUp,
        "左上移",
        "Move to top left",
        1,
    ),
    t(
        6,
        "MOVE_RIGHT_UP",
        K::MoveRightUp,
        "右上移",
        "Move to top right",
        1,
    ),
    t(
        7,
        "MOVE_LEFT_DOWN",
        K::MoveLeftDown,
        "左下移",
        "Move to bottom left",
        1,
    ),
    t(
        8,
        "MOVE_RIGHT_DOWN",
        K::MoveRightDown,
        "右下移",
        "Move to bottom right",
        1,
    ),
    t(9, "ROLL_DOWN", K::RollDown, "向下滚动", "Roll down", 1),
    t(10, "ROLL_UP", K::RollUp, "向上滚动", "Roll up", 1),
    t(
        11,
        "CURTAIN_OPEN",
        K::CurtainOpen,
        "开幕",
        "Curtain open",
        2,
    ),
    t(
        12,
        "CURTAIN_CLOSE",
        K::CurtainClose,
        "闭幕",
        "Curtain close",
        2,
    ),
    t(13, "ERASE_LEFT", K::EraseLeft, "向左擦除", "Erase left", 2),
    t(
        14,
        "ERASE_RIGHT",
        K::EraseRight,
        "向右擦除",
        "Erase right",
        2,
    ),
    t(15, "ERASE_UP", K::EraseUp, "向上擦除", "Erase up", 2),
    t(16, "ERASE_DOWN", K::EraseDown, "向下擦除", "Erase down", 2),
    t(
        17,
        "CIRCLE_OPEN",
        K::CircleOpen,
        "圆形展开",
        "Circle open",
        2,
    ),
    t(
        18,
        "CIRCLE_CLOSE",
        K::CircleClose,
        "圆形收缩",
        "Circle close",
        2,
    ),
    t(19, "MOSAIC", K::Mosaic, "马赛克", "Mosaic", 2),
    t(20, "OVERLAY", K::Overlay, "叠化", "Dissolve", 2),
    t(
        21,
        "SHUTTERS_HORIZONTAL",
        K::ShuttersHorizontal,
        "横向百叶窗",
        "Horizontal shutters",
        2,
    ),
    t(
        22,
        "SHUTTERS_VERTICAL",
        K::ShuttersVertical,
        "竖向百叶窗",
        "Vertical shutters",
        2,
    ),
    t(23, "TRACK_IN", K::TrackIn, "推进", "Track in", 1),
    t(24, "TRACK_OUT", K::TrackOut, "拉远", "Track out", 1),
    t(25, "CLOCKWISE", K::Clockwise, "顺时针", "Clockwise", 2),
    t(
        26,
        "ANTI_CLOCKWISE",
        K::AntiClockwise,
        "逆时针",
        "Anticlockwise",
        2,
    ),
    t(27, "FLASH_BLACK", K::FlashBlack, "闪黑", "Flash black", 2),
    t(28, "FLASH_WHITE", K::FlashWhite, "闪白", "Flash white", 2),
    t(
        29,
        "MIRROR_FOLD_HORIZONTAL",
        K::MirrorFoldHorizontal,
        "水平镜像折叠",
        "Horizontal mirror fold",
        1,
    ),
    t(
        30,
        "MIRROR_FOLD_VERTICAL",
        K::MirrorFoldVertical,
        "垂直镜像折叠",
        "Vertical mirror fold",
        1,
    ),
];

/// Returns the transition a document names by key or numeric id; "" and "none" name a cut.
pub fn find(name: &str) -> Option<&'static TransitionInfo> {
    TRANSITIONS
        .iter()
        .find(|t| t.key == name || name.parse::<u32>().is_ok_and(|id| id == t.id))
}

/// Returns whether a document's transition name is acceptable: empty, "none", or in the catalogue.
pub fn is_known(name: &str) -> bool {
    name.is_empty() || name == "none" || find(name).is_some()
}
