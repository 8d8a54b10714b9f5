//! What the starter library holds: each entry's name, kind, system category, style class and how
//! it is made. The category and style ids are documented in docs/materials.md.

use crate::domain::MaterialKind;
use reelforge_pixels::music::Tune;
use reelforge_pixels::paint::Canvas;
use reelforge_pixels::pictures as p;

/// Masks (spec editor-core §7: system materials by categoryId, 2003 masks): white shapes on
/// transparent, the white part shows the layer.
pub const MASKS: i64 = 2003;
/// Still backgrounds.
pub const BACKGROUNDS_STATIC: i64 = 3001;
/// Animated backgrounds (GIF).
pub const BACKGROUNDS_DYNAMIC: i64 = 3002;
/// Button samples.
pub const BUTTONS: i64 = 4001;
/// Atmosphere effects (overlays with alpha, still and animated).
pub const ATMOSPHERE: i64 = 5001;
/// Border effects (frames with a transparent middle).
pub const BORDERS: i64 = 5002;
/// Music.
pub const MUSIC: i64 = 6001;

/// The eight background style classes (spec editor-core §2) by `styleId`.
pub const STYLES: [(i64, &str); 8] = [
    (1, "gradient"),
    (2, "Chinese style"),
    (3, "real shot"),
    (4, "hand drawn"),
    (5, "texture"),
    (6, "tech"),
    (7, "business"),
    (8, "other"),
];

/// How an entry is made.
pub enum Art {
    /// A still picture of `w`×`h`; opaque ones are stored as JPEG, the others as PNG.
    Still {
        w: u32,
        h: u32,
        opaque: bool,
        draw: fn(&mut Canvas),
    },
    /// A looping GIF of `frames` frames of `w`×`h`.
    Moving {
        w: u16,
        h: u16,
        frames: u16,
        draw: fn(&mut Canvas, f32),
    },
    /// A synthesised track, stored as WAV.
    Music(Tune),
}

/// One starter material.
pub struct Entry {
    /// Stable name of the entry: the material's id is made from it and the tenant.
    pub key: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Its material kind.
    pub kind: MaterialKind,
    /// Its system category.
    pub category_id: i64,
    /// Its style class, -1 none.
    pub style_id: i64,
    /// How it is made.
    pub art: Art,
}

const TALL: (u32, u32) = (720, 1280);
const WIDE: (u32, u32) = (1280, 720);
/// Frames of an animated item: 16 at 8/100 s, a loop of 1.28 s.
const FRAMES: u16 = 16;
/// Delay of a GIF frame, hundredths of a second.
pub const FRAME_DELAY_CS: u16 = 8;

fn background(
    key: &'static str,
    name: &'static str,
    style_id: i64,
    (w, h): (u32, u32),
    draw: fn(&mut Canvas),
) -> Entry {
    Entry {
        key,
        name,
        kind: MaterialKind::Backgrounds,
        category_id: BACKGROUNDS_STATIC,
        style_id,
        art: Art::Still {
            w,
            h,
            opaque: true,
            draw,
        },
    }
}

fn moving_background(
    key: &'static str,
    name: &'static str,
    style_id: i64,
    (w, h): (u16, u16),
    draw: fn(&mut Canvas, f32),
) -> Entry {
    Entry {
        key,
        name,
        kind: MaterialKind::Backgrounds,
        category_id: BACKGROUNDS_DYNAMIC,
        style_id,
        art: Art::Moving {
            w,
            h,
            frames: FRAMES,
            draw,
        },
    }
}

fn overlay(
    key: &'static str,
    name: &'static str,
    kind: MaterialKind,
    category_id: i64,
    (w, h): (u32, u32),
    draw: fn(&mut Canvas),
) -> Entry {
    Entry {
        key,
        name,
        kind,
        category_id,
        style_id: -1,
        art: Art::Still {
            w,
            h,
            opaque: false,
            draw,
        },
    }
}

fn track(key: &'static str, name: &'static str, tune: Tune) -> Entry {
    Entry {
        key,
        name,
        kind: MaterialKind::Audio,
        category_id: MUSIC,
        style_id: -1,
        art: Art::Music(tune),
    }
}

/// Every starter material, newest-first order of the lists.
pub fn entries() -> Vec<Entry> {
    use MaterialKind::{Picture, SpecialEffects};
    const MASK: (u32, u32) = (512, 512);
    const BUTTON: (u32, u32) = (480, 160);
    vec![
        background("bg-gradient-dawn", "渐变·晨曦", 1, TALL, p::gradient_dawn),
        background("bg-gradient-ocean", "渐变·海洋", 1, WIDE, p::gradient_ocean),
        background("bg-chinese-ink", "中国风·水墨山水", 2, TALL, p::chinese_ink),
        background(
            "bg-chinese-festive",
            "中国风·喜庆红",
            2,
            WIDE,
            p::chinese_festive,
        ),
        background(
            "bg-scenery-sunset",
            "实景·海上日落",
            3,
            TALL,
            p::scenery_sunset,
        ),
        background(
            "bg-scenery-mountains",
            "实景·山湖",
            3,
            WIDE,
            p::scenery_mountains,
        ),
        background("bg-hand-doodles", "手绘·涂鸦", 4, TALL, p::hand_doodles),
        background("bg-hand-notebook", "手绘·笔记本", 4, WIDE, p::hand_notebook),
        background("bg-texture-linen", "纹理·亚麻", 5, TALL, p::texture_linen),
        background(
            "bg-texture-terrazzo",
            "纹理·水磨石",
            5,
            WIDE,
            p::texture_terrazzo,
        ),
        background("bg-tech-neon", "科技·霓虹网格", 6, TALL, p::tech_neon),
        background("bg-tech-circuit", "科技·电路", 6, WIDE, p::tech_circuit),
        background("bg-business-navy", "商务·深蓝", 7, TALL, p::business_navy),
        background(
            "bg-business-blocks",
            "商务·几何",
            7,
            WIDE,
            p::business_blocks,
        ),
        background("bg-other-confetti", "其他·彩点", 8, TALL, p::other_confetti),
        background("bg-other-stripes", "其他·条纹", 8, WIDE, p::other_stripes),
        moving_background(
            "bg-moving-gradient",
            "动态·流光渐变",
            1,
            (360, 640),
            p::moving_gradient,
        ),
        moving_background(
            "bg-moving-grid",
            "动态·科技网格",
            6,
            (640, 360),
            p::moving_grid,
        ),
        moving_background(
            "bg-moving-bokeh",
            "动态·升起的光",
            7,
            (640, 360),
            p::moving_bokeh,
        ),
        moving_background(
            "bg-moving-snow",
            "动态·雪夜",
            8,
            (360, 640),
            p::moving_snow_night,
        ),
        overlay(
            "mask-circle",
            "蒙版·圆形",
            Picture,
            MASKS,
            MASK,
            p::mask_circle,
        ),
        overlay(
            "mask-rounded",
            "蒙版·圆角矩形",
            Picture,
            MASKS,
            MASK,
            p::mask_rounded,
        ),
        overlay(
            "mask-heart",
            "蒙版·心形",
            Picture,
            MASKS,
            MASK,
            p::mask_heart,
        ),
        overlay(
            "mask-star",
            "蒙版·五角星",
            Picture,
            MASKS,
            MASK,
            p::mask_star,
        ),
        overlay(
            "mask-hexagon",
            "蒙版·六边形",
            Picture,
            MASKS,
            MASK,
            p::mask_hexagon,
        ),
        overlay("mask-soft", "蒙版·柔边", Picture, MASKS, MASK, p::mask_soft),
        overlay(
            "border-gold",
            "边框·金色双线",
            SpecialEffects,
            BORDERS,
            TALL,
            p::border_gold,
        ),
        overlay(
            "border-film",
            "边框·胶片",
            SpecialEffects,
            BORDERS,
            WIDE,
            p::border_film,
        ),
        overlay(
            "border-chinese",
            "边框·中式红框",
            SpecialEffects,
            BORDERS,
            TALL,
            p::border_chinese,
        ),
        overlay(
            "border-glow",
            "边框·柔光",
            SpecialEffects,
            BORDERS,
            WIDE,
            p::border_glow,
        ),
        overlay(
            "fx-bokeh",
            "氛围·光斑",
            SpecialEffects,
            ATMOSPHERE,
            TALL,
            p::atmosphere_bokeh,
        ),
        overlay(
            "fx-sparkles",
            "氛围·星光",
            SpecialEffects,
            ATMOSPHERE,
            WIDE,
            p::atmosphere_sparkles,
        ),
        Entry {
            key: "fx-snowfall",
            name: "氛围·飘雪",
            kind: SpecialEffects,
            category_id: ATMOSPHERE,
            style_id: -1,
            art: Art::Moving {
                w: 360,
                h: 640,
                frames: FRAMES,
                draw: p::moving_snowfall,
            },
        },
        Entry {
            key: "fx-petals",
            name: "氛围·落花",
            kind: SpecialEffects,
            category_id: ATMOSPHERE,
            style_id: -1,
            art: Art::Moving {
                w: 640,
                h: 360,
                frames: FRAMES,
                draw: p::moving_petals,
            },
        },
        overlay(
            "button-orange",
            "按钮·橙色",
            Picture,
            BUTTONS,
            BUTTON,
            p::button_orange,
        ),
        overlay(
            "button-blue",
            "按钮·蓝色",
            Picture,
            BUTTONS,
            BUTTON,
            p::button_blue,
        ),
        overlay(
            "button-red",
            "按钮·红色",
            Picture,
            BUTTONS,
            BUTTON,
            p::button_red,
        ),
        overlay(
            "button-gold",
            "按钮·金色",
            Picture,
            BUTTONS,
            BUTTON,
            p::button_gold,
        ),
        overlay(
            "button-outline",
            "按钮·描边",
            Picture,
            BUTTONS,
            BUTTON,
            p::button_outline,
        ),
        overlay(
            "button-play",
            "按钮·播放",
            Picture,
            BUTTONS,
            (240, 240),
            p::button_play,
        ),
        track(
            "music-morning",
            "晨光",
            Tune {
                bpm: 100.0,
                chords: [[60, 64, 67], [55, 59, 62], [57, 60, 64], [53, 57, 60]],
                drums: false,
                arp_per_beat: 2,
                seconds: 20.0,
            },
        ),
        track(
            "music-city",
            "城市节拍",
            Tune {
                bpm: 120.0,
                chords: [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]],
                drums: true,
                arp_per_beat: 4,
                seconds: 20.0,
            },
        ),
        track(
            "music-warm",
            "温暖时光",
            Tune {
                bpm: 80.0,
                chords: [[53, 57, 60], [58, 62, 65], [60, 64, 67], [53, 57, 60]],
                drums: false,
                arp_per_beat: 2,
                seconds: 24.0,
            },
        ),
        track(
            "music-pulse",
            "科技脉冲",
            Tune {
                bpm: 128.0,
                chords: [[52, 55, 59], [48, 52, 55], [55, 59, 62], [50, 54, 57]],
                drums: true,
                arp_per_beat: 4,
                seconds: 18.0,
            },
        ),
    ]
}
