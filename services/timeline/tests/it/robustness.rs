//! Property tests: arbitrary bytes and arbitrary JSON never panic the parser or the validator,
//! and parse → serialise → parse is the identity. Bounded so `cargo test` stays within seconds.

use proptest::prelude::*;
use reelforge_timeline::animation::{LayerTiming, MOTION_ZOOM, layer_state};
use reelforge_timeline::catalogue::transitions::TRANSITIONS;
use reelforge_timeline::task::parse_ivvr_info;
use reelforge_timeline::time::{FrameRate, Timeline};
use reelforge_timeline::{Rule, composite, validate};
use serde_json::{Map, Value, json};

/// Arbitrary JSON, biased towards the shapes of a rule so the deep code paths run.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z0-9#_ ]{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("word"),
            Just("picture"),
            Just("group"),
            Just("video"),
            Just("artWord"),
            Just("shape")
        ]
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        let key = prop_oneof![
            Just("type".to_string()),
            Just("scenes".to_string()),
            Just("layers".to_string()),
            Just("attachList".to_string()),
            Just("fontSize".to_string()),
            Just("timeLength".to_string()),
            Just("videoSrc".to_string()),
            Just("effect".to_string()),
            Just("audio".to_string()),
            "[a-z]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A rule-shaped document with arbitrary values in its slots.
fn arb_rule_json() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(arb_json(), 0..4),
        arb_json(),
        arb_json(),
    )
        .prop_map(|(layers, extra, len)| {
            json!({ "version": 1, "ruleType": "VIDEO_EDIT", "frameRate": len, "scenes": [
            { "timeLength": len, "layers": layers, "futureField": extra },
            { "effect": "OVERLAY", "layers": [ { "type": "group", "attachList": [extra] } ] }
        ], "resolutionRatio": { "width": 640, "height": 360 }, "mystery": extra })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(rule) = Rule::parse(&text) {
            let _ = validate(&rule);
        }
        let _ = Rule::parse_or_placeholder(&text);
        let _ = parse_ivvr_info(&text);
    }

    #[test]
    fn json_round_trips(doc in prop_oneof![arb_json(), arb_rule_json()]) {
        let text = serde_json::to_string(&doc).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Ok(rule) = Rule::parse(&text) {
            let _ = validate(&rule);
            let _ = Timeline::for_rule(&rule);
            let saved = serde_json::to_string(&rule).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let again = Rule::parse(&saved).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&again, &rule);
            let saved_again = serde_json::to_string(&again).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(saved_again, saved);
        }
    }

    #[test]
    fn maths_stays_in_range(p in any::<f64>(), t in -10.0f64..10.0, start in -5.0f64..5.0, len in 0.0f64..5.0,
                            it in -1.0f64..4.0, ot in -1.0f64..4.0, i in 0usize..30, fps in 1u32..120) {
        let info = &TRANSITIONS[i % TRANSITIONS.len()];
        let c = composite(info.kind, p);
        for plane in [c.top, c.bottom] {
            prop_assert!((0.0..=1.0).contains(&plane.alpha));
        }
        prop_assert!((0.0..=1.0).contains(&c.flash.alpha));
        let timing = LayerTiming { start, end: start + len, rotate: 0.0, motion: "ZOOM_OUT".into(), motion_in: "MOTIONIN_BOUNCE_LEFT".into(), in_time: it,
            motion_out: "PYTHONERASE_UP_OUT".into(), out_time: ot };
        let s = layer_state(&timing, t);
        prop_assert!((0.0..=1.0).contains(&s.opacity) && (0.0..=1.0).contains(&s.clip.fraction));
        prop_assert!((1.0..=MOTION_ZOOM).contains(&s.scale));
        let rate = FrameRate::new(fps, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let plan = Timeline::plan(rate, &[(len, info.key, it), (len + 2.0, "", 1.0)]);
        let mut frames = 0;
        for f in 0..plan.total_frames {
            prop_assert!(plan.at(f).is_some());
            frames += 1;
        }
        prop_assert_eq!(frames, plan.total_frames);
    }
}

#[test]
fn oversized_and_deep_input_is_refused() {
    let big = " ".repeat(reelforge_timeline::validate::MAX_DOCUMENT_BYTES + 1);
    assert!(Rule::parse(&big).is_err());
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(Rule::parse(&deep).is_err());
    assert_eq!(
        Rule::parse_or_placeholder(&deep).resolution_ratio.size_id,
        41
    );
    assert!(parse_ivvr_info("{oops").is_empty());
    assert_eq!(
        parse_ivvr_info(r#"[{"pic":"a.png","video":"a.mp4"}]"#).len(),
        1
    );
    assert_eq!(parse_ivvr_info(r#""[{\"pic\":\"a.png\"}]""#).len(), 1);
}
