//! Shared test vectors: the inputs and expected outputs of the timeline maths, in
//! `tests/vectors/*.json`, checked here and by the frontend's TypeScript port
//! (`frontend/tests/timeline/vectors.test.ts`). `UPDATE_VECTORS=1 cargo test` rewrites them.

use reelforge_timeline::animation::{
    LayerTiming, animation_state, layer_state, motion_max_scale, motion_zoom,
};
use reelforge_timeline::catalogue::{animations::ANIMATIONS, transitions::TRANSITIONS};
use reelforge_timeline::colour;
use reelforge_timeline::shape;
use reelforge_timeline::layout::{
    default_attach_range, extended_scene_length, size_category, slot_kind,
};
use reelforge_timeline::layer::{reversed_file_of, reversed_on_the_fly};
use reelforge_timeline::time::{FrameRate, Timeline};
use reelforge_timeline::transition::{composite, mask_contains};
use reelforge_timeline::volume;
use serde_json::{Value, json};
use std::path::PathBuf;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TOLERANCE: f64 = 1e-9;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

/// Returns a JSON number, or null for ±∞ (JSON has none; null means −∞ dB, silence).
fn num(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

fn vectors() -> Result<Vec<(&'static str, Value)>, serde_json::Error> {
    let progresses = [
        0.0, 0.1, 0.25, 0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 1.0,
    ];
    let animation: Vec<Value> = ANIMATIONS
        .iter()
        .flat_map(|a| progresses.iter().map(move |u| (a, *u)))
        .map(|(a, u)| Ok(json!({ "input": { "key": a.key, "u": u }, "expected": serde_json::to_value(animation_state(a, u))? })))
        .collect::<Result<_, serde_json::Error>>()?;

    // (motion, in, in time, out, out time, start, end, rotate)
    let timings = [
        (
            "",
            "MOTIONIN_OPACITY",
            1.0,
            "MOTIONOUT_OPACITY",
            1.0,
            1.0,
            4.0,
            0.0,
        ),
        (
            "",
            "MOTIONIN_BOUNCE_UP",
            1.5,
            "MOTIONOUT_MOVE_LEFT",
            0.5,
            0.0,
            3.0,
            30.0,
        ),
        (
            "",
            "MOTIONIN_MOVE_RIGHT",
            2.0,
            "PYTHONERASE_DOWN_OUT",
            2.0,
            0.5,
            2.5,
            -12.5,
        ),
        ("", "PYTHONERASE_UP", 0.8, "", 1.0, 2.0, 5.0, 0.0),
        ("", "UNKNOWN", 1.0, "MOTIONIN_OPACITY", 1.0, 0.0, 2.0, 0.0),
        ("ZOOM_IN", "", 1.0, "", 1.0, 0.0, 5.0, 0.0),
        (
            "ZOOM_OUT",
            "MOTIONIN_OPACITY",
            1.0,
            "MOTIONOUT_MOVE_LEFT",
            1.0,
            1.5,
            4.5,
            10.0,
        ),
        (
            "KEN_BURNS",
            "MOTIONIN_BOUNCE_UP",
            0.5,
            "PYTHONERASE_DOWN_OUT",
            0.5,
            0.0,
            2.0,
            0.0,
        ),
        ("zoomIn", "", 1.0, "MOTIONOUT_OPACITY", 2.0, 2.0, 3.0, -45.0),
        ("zoomOut", "", 1.0, "", 1.0, 0.25, 0.75, 0.0),
        ("zoom_in", "MOTIONIN_OPACITY", 1.0, "", 1.0, 0.0, 1.0, 0.0),
    ];
    let mut layer = Vec::new();
    for (motion, mi, it, mo, ot, start, end, rotate) in timings {
        let timing = LayerTiming {
            start,
            end,
            rotate,
            motion: motion.into(),
            motion_in: mi.into(),
            in_time: it,
            motion_out: mo.into(),
            out_time: ot,
        };
        for k in -1..=21 {
            let t = start + (end - start) * f64::from(k) / 20.0;
            layer.push(json!({ "input": { "timing": timing, "t": t }, "expected": serde_json::to_value(layer_state(&timing, t))? }));
        }
    }

    let motions: Vec<Value> = [
        "ZOOM_IN",
        "zoomIn",
        "KEN_BURNS",
        "ZOOM_OUT",
        "zoomOut",
        "",
        "zoom_in",
        "Ken_Burns",
        " ZOOM_IN",
        "PAN_LEFT",
    ]
    .iter()
    .map(|m| json!({ "input": { "motion": m }, "expected": { "zoom": motion_zoom(m), "maxScale": motion_max_scale(m) } }))
    .collect();

    let colours: Vec<Value> = [
        "#fff",
        "#FFF",
        "#0f8",
        "#abcd",
        "#F0A8",
        "#1e3a8a",
        "#1E3A8A",
        "#00000080",
        "#ffffff00",
        "  #102030 ",
        "\t#abc\n",
        "rgb(1, 2, 3)",
        "rgb(1,2,3)",
        "RGB( 10 , 20 , 30 )",
        "rgba(0, 0, 0, 0.5)",
        "rgba(255, 128, 0, 1)",
        "rgba(10, 20, 30, 0)",
        "rgba(1, 2, 3)",
        "rgb(1, 2, 3, 0.25)",
        "rgb(300, -20, 255.6)",
        "rgb(127.5, 0.49, 0.5)",
        "rgba(0, 0, 0, 1.5)",
        "rgba(0, 0, 0, -0.5)",
        "rgba(0, 0, 0, 0.002)",
        "rgba(0, 0, 0, 0.498)",
        "rgb(.5, 5., +1e1)",
        "rgb(-0, 1e400, 2E1)",
        "transparent",
        "TRANSPARENT",
        " transparent ",
        "",
        "   ",
        "#",
        "#1",
        "#12",
        "#12345",
        "#1234567",
        "#123456789",
        "#ggg",
        "#+f+f+f",
        "# fff",
        "fff",
        "red",
        "none",
        "rgb()",
        "rgb(1, 2)",
        "rgb(1, 2, 3, 4, 5)",
        "rgb(1, 2, 3",
        "rgb 1, 2, 3)",
        "rgb (1, 2, 3)",
        "rgb(1,,3)",
        "rgb(1, 2, 3,)",
        "rgb(a, b, c)",
        "rgb(nan, 0, 0)",
        "rgb(inf, 0, 0)",
        "rgb(-inf, 0, 0)",
        "rgb(50%, 0, 0)",
        "rgb(0x10, 0, 0)",
        "rgb(1 2 3)",
        "rgb(., 0, 0)",
        "rgb(1e, 0, 0)",
        "hsl(0, 100%, 50%)",
        "transparent!",
    ]
    .iter()
    .map(|s| json!({ "input": { "s": s }, "expected": colour::parse(s) }))
    .collect();

    let mut transition = Vec::new();
    for info in TRANSITIONS {
        for p in [0.0, 0.1, 0.25, 0.49, 0.5, 0.51, 0.75, 0.9, 1.0] {
            transition.push(json!({ "input": { "key": info.key, "p": p }, "expected": serde_json::to_value(composite(info.kind, p))? }));
        }
    }

    let mut masks = Vec::new();
    for info in TRANSITIONS {
        let c = composite(info.kind, 0.37);
        for (x, y) in [
            (0.05, 0.5),
            (0.5, 0.05),
            (0.5, 0.5),
            (0.62, 0.3),
            (0.31, 0.81),
            (0.97, 0.97),
            (0.2, 0.44),
        ] {
            masks.push(json!({ "input": { "mask": c.top.mask, "x": x, "y": y, "width": 640.0, "height": 360.0 },
                               "expected": mask_contains(&c.top.mask, x, y, 640.0, 360.0) }));
        }
    }

    let mut volume_slider = Vec::new();
    for s in [
        -10.0, 0.0, 3.0, 3.125, 6.25, 10.0, 50.0, 55.0, 99.0, 100.0, 137.5, 150.0, 199.0, 200.0,
        250.0,
    ] {
        volume_slider.push(json!({ "input": { "slider": s }, "expected": {
            "step": volume::slider_step(s), "gain": volume::slider_to_gain(s), "db": num(volume::slider_to_db(s)) } }));
    }
    let mut volume_db = Vec::new();
    for db in [
        -120.0, -96.0, -30.0, -24.08, -20.0, -6.0206, -3.0, 0.0, 0.5, 3.0, 6.0206, 12.0,
    ] {
        volume_db.push(json!({ "input": { "db": db }, "expected": {
            "slider": volume::db_to_slider(db), "gain": volume::db_to_gain(db),
            "measured": volume::check_measured_db(db).ok().map(num).unwrap_or(Value::Null),
            "measuredOrFallback": volume::measured_db_or_fallback(Some(db)) } }));
    }

    let sizes: Vec<Value> = [
        (1280.0, 720.0),
        (640.0, 360.0),
        (848.0, 480.0),
        (640.0, 480.0),
        (640.0, 640.0),
        (360.0, 640.0),
        (720.0, 1280.0),
        (1100.0, 1000.0),
        (1200.0, 1000.0),
        (1300.0, 1000.0),
        (1500.0, 1000.0),
        (1700.0, 1000.0),
        (1701.0, 1000.0),
        (0.0, 100.0),
        (100.0, 0.0),
        (-5.0, 10.0),
    ]
    .iter()
    .map(
        |(w, h)| json!({ "input": { "width": w, "height": h }, "expected": size_category(*w, *h) }),
    )
    .collect();

    let attach: Vec<Value> = [
        (0.0, 10.0),
        (1.0, 10.0),
        (8.5, 10.0),
        (9.0, 10.0),
        (10.0, 10.0),
        (12.0, 10.0),
        (-3.0, 10.0),
        (0.5, 1.0),
        (0.0, 0.0),
        (2.0, 3.0),
    ]
    .iter()
    .map(|(c, d)| {
        let (s, e) = default_attach_range(*c, *d);
        json!({ "input": { "current": c, "duration": d }, "expected": { "start": s, "end": e } })
    })
    .collect();

    let extension: Vec<Value> = [(5.0, 3.0), (5.0, 5.0), (5.0, 7.25), (3.0, 3.0001), (2.0, -1.0)]
        .iter()
        .map(|(l, e)| json!({ "input": { "sceneLength": l, "layerEnd": e }, "expected": extended_scene_length(*l, *e) }))
        .collect();

    let mut slots = Vec::new();
    for t in [
        "word",
        "artWord",
        "picture",
        "gif",
        "video",
        "shape",
        "dynamicWord",
        "group",
        "",
    ] {
        for cm in [0, 1, 2] {
            slots.push(json!({ "input": { "materialType": t, "canModify": cm }, "expected": slot_kind(t, cm) }));
        }
    }

    let mut frames = Vec::new();
    for (num_, den) in [(25u32, 1u32), (30, 1), (30000, 1001), (24, 1)] {
        let rate = FrameRate::new(num_, den).map_err(serde::de::Error::custom)?;
        for s in [0.0, 0.02, 0.5, 1.0, 1.0 / 3.0, 2.5, 4.98, 5.0, 59.99] {
            frames.push(json!({ "input": { "rate": rate, "seconds": s }, "expected": {
                "frames": rate.frames_for(s), "secondsOfFrames": rate.seconds_of(rate.frames_for(s)),
                "micros": rate.micros_of(rate.frames_for(s)), "sample48k": rate.sample_of(rate.frames_for(s), 48000) } }));
        }
    }

    let mut clip_times = Vec::new();
    for fps in [25u32, 30, 24] {
        let rate = FrameRate::new(fps, 1).map_err(serde::de::Error::custom)?;
        for (start, end) in [(0.0, Some(4.5)), (1.2, Some(2.9)), (0.0, Some(0.01)), (2.0, None), (3.0, Some(1.0))] {
            for layer in [-0.5, 0.0, 1.0, 1.69, 4.45, 4.49, 4.5, 9.0] {
                clip_times.push(json!({ "input": { "fps": fps, "layerSeconds": layer, "start": start, "end": end },
                    "expected": rate.clip_source_time(layer, start, end) }));
            }
        }
    }

    let plans = [
        (
            FrameRate::FPS_30,
            vec![
                (5.0, "OVERLAY", 1.0),
                (5.0, "MOVE_LEFT", 1.0),
                (5.0, "", 1.0),
            ],
        ),
        (
            FrameRate::FPS_25,
            vec![
                (2.0, "CIRCLE_OPEN", 3.0),
                (3.3, "FLASH_WHITE", 0.5),
                (2.04, "none", 1.0),
                (4.0, "MOSAIC", 0.0),
            ],
        ),
        (
            FrameRate {
                num: 30000,
                den: 1001,
            },
            vec![(3.0, "CLOCKWISE", 1.0), (3.0, "BOGUS", 1.0), (2.5, "", 1.0)],
        ),
    ];
    let mut timeline = Vec::new();
    for (rate, scenes) in plans {
        let plan = Timeline::plan(rate, &scenes);
        let probes: Vec<i64> = (-1..=plan.total_frames)
            .step_by(7)
            .chain([plan.total_frames - 1])
            .collect();
        let at: Vec<Value> = probes
            .iter()
            .map(|f| serde_json::to_value(plan.at(*f)))
            .collect::<Result<_, _>>()?;
        let scenes_json: Vec<Value> = scenes
            .iter()
            .map(|(l, e, t)| json!({ "timeLength": l, "effect": e, "effectTime": t }))
            .collect();
        timeline.push(
            json!({ "input": { "rate": rate, "scenes": scenes_json, "probes": probes },
                              "expected": { "plan": plan, "at": at } }),
        );
    }

    let shapes: Vec<Value> = [
        "rect",
        "circle",
        "sun",
        "line",
        "wave-line",
        "equilateral-triangle",
        "isosceles-triangle",
        "right-triangle",
        "hexagon",
        "octagon",
        "simple-star",
        "min-snow",
        "unknown-kind",
    ]
    .iter()
    .flat_map(|k| [(k, 100.0, 80.0), (k, 37.5, 120.0)])
    .map(|(k, w, h)| Ok(json!({ "input": { "kind": k, "w": w, "h": h }, "expected": serde_json::to_value(shape::outline(k, w, h))? })))
    .collect::<Result<_, serde_json::Error>>()?;

    let square = reelforge_timeline::catalogue::shapes::svg("rect").unwrap_or_default();
    let star = reelforge_timeline::catalogue::shapes::svg("star").unwrap_or_default();
    let drawings: Vec<Value> = [
        ("rect", square.as_str(), "", (300.0, 120.0), 24.0),
        ("rect", square.as_str(), "", (37.5, 120.25), 8.125),
        ("rect", square.as_str(), "", (640.0, 360.0), 1000.0),
        ("rect", square.as_str(), "", (50.0, 50.0), 0.0),
        ("rect", square.as_str(), "", (0.0, 20.0), 4.0),
        ("rect", square.as_str(), "specialSvg", (300.0, 120.0), 24.0),
        ("rect", "  ", "", (300.0, 120.0), 24.0),
        ("star", star.as_str(), "", (300.0, 120.0), 24.0),
    ]
    .iter()
    .map(|&(kind, code, style, size, r)| {
        json!({ "input": { "kind": kind, "code": code, "svgStyleType": style, "w": size.0, "h": size.1, "radius": r },
                "expected": shape::shape_drawing(kind, code, style, size, r) })
    })
    .collect();

    Ok(vec![
        ("animation_state", Value::Array(animation)),
        ("shape_outline", Value::Array(shapes)),
        ("shape_drawing", Value::Array(drawings)),
        ("layer_state", Value::Array(layer)),
        ("motion_zoom", Value::Array(motions)),
        ("colour", Value::Array(colours)),
        ("transition", Value::Array(transition)),
        ("mask_contains", Value::Array(masks)),
        ("volume_slider", Value::Array(volume_slider)),
        ("volume_db", Value::Array(volume_db)),
        ("size_category", Value::Array(sizes)),
        ("attach_range", Value::Array(attach)),
        ("scene_extension", Value::Array(extension)),
        ("slot_kind", Value::Array(slots)),
        ("frames", Value::Array(frames)),
        ("clip_source_time", Value::Array(clip_times)),
        ("timeline", Value::Array(timeline)),
        ("reverse_playback", Value::Array(reverse_playback())),
    ])
}

/// What a video layer's `reverseBy` asks: the renderer's reverse, or a reversed file's original.
fn reverse_playback() -> Vec<Value> {
    let inputs = [
        Value::Null,
        json!(true),
        json!(false),
        json!(1),
        json!(0),
        json!("1"),
        json!("0"),
        json!("false"),
        json!(""),
        json!("yes"),
        json!({"materialId": "m-1", "videoSrc": "/diyvrbt/material/file/m-1/original"}),
        json!({"materialId": 42}),
        json!({"materialId": ""}),
        json!({}),
        json!([1]),
    ];
    inputs
        .into_iter()
        .map(|r| json!({ "input": { "reverseBy": r }, "expected": { "onTheFly": reversed_on_the_fly(&r), "original": reversed_file_of(&r) } }))
        .collect()
}

/// Compares two JSON values, numbers within [`TOLERANCE`]; returns the first difference's path.
fn diff(path: &str, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            ((x - y).abs() > TOLERANCE).then(|| format!("{path}: {x} != {y}"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| diff(&format!("{path}[{i}]"), p, q)),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().find_map(|(k, v)| {
                y.get(k).map_or(Some(format!("{path}.{k} missing")), |w| {
                    diff(&format!("{path}.{k}"), v, w)
                })
            })
        }
        _ => (a != b).then(|| format!("{path}: {a} != {b}")),
    }
}

#[test]
fn vectors_match_the_implementation() -> TestResult {
    let update = std::env::var_os("UPDATE_VECTORS").is_some();
    for (name, cases) in vectors()? {
        let path = dir().join(format!("{name}.json"));
        if update {
            let doc = json!({ "function": name, "tolerance": 1e-6, "cases": cases });
            std::fs::write(&path, serde_json::to_string_pretty(&doc)? + "\n")?;
            continue;
        }
        let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
        let stored_cases = stored.get("cases").ok_or("no cases")?;
        if let Some(d) = diff(name, stored_cases, &cases) {
            return Err(format!("{} differs from the implementation at {d}; rerun with UPDATE_VECTORS=1 if intended", path.display()).into());
        }
    }
    Ok(())
}
