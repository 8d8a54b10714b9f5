//! Layers that can never show: warning-severity problems (the document saves and renders), almost
//! always a mistake the editor shows and the renderer logs, each with the path of the field to fix.

use crate::layer::Layer;
use crate::rule::Rule;
use crate::validate::{Problem, ProblemCode};

/// Slack for comparing times written as decimal seconds.
const TIME_EPSILON: f64 = 1e-6;

/// Returns every layer of a rule that can never show, in document order: one that ends at or
/// before its start, starts at or after its scene's end, has no width or height, lies wholly
/// outside the stage at rest (with no in- or out-animation that could carry it in), is fully
/// transparent for its whole life, or whose text is only whitespace. Dynamic words are left
/// out of the last check: a template fills their text later.
pub fn warnings(rule: &Rule) -> Vec<Problem> {
    let r = &rule.resolution_ratio;
    let mut out = Vec::new();
    for (i, scene) in rule.scenes.iter().enumerate() {
        for (j, layer) in scene.layers.iter().enumerate() {
            let p = format!("scenes[{i}].layers[{j}]");
            layer_warnings(
                &p,
                layer,
                scene.time_length,
                Some((r.width, r.height)),
                &mut out,
            );
        }
    }
    out
}

/// Adds the warnings of one layer; `stage` is `None` for group members, whose positions are
/// relative to their group.
fn layer_warnings(
    p: &str,
    layer: &Layer,
    scene_length: f64,
    stage: Option<(f64, f64)>,
    out: &mut Vec<Problem>,
) {
    let Some(c) = layer.common() else {
        return;
    };
    let mut warn = |path: String, message: String| {
        out.push(Problem::warning(path, ProblemCode::NeverShown, message));
    };
    if c.end_time <= c.start_time {
        warn(
            format!("{p}.endTime"),
            format!(
                "ends at {} s, not after its start at {} s: never shown",
                c.end_time, c.start_time
            ),
        );
    } else if c.start_time >= scene_length - TIME_EPSILON {
        warn(
            format!("{p}.startTime"),
            format!("starts at or after the scene end ({scene_length} s): never shown"),
        );
    }
    if !matches!(layer, Layer::Group(_)) {
        for (name, v) in [("w", c.w), ("h", c.h)] {
            if v <= 0.0 {
                warn(format!("{p}.{name}"), "zero size: never shown".to_owned());
            }
        }
    }
    let animated = !c.motion_in.is_empty() || !c.motion_out.is_empty();
    if let Some((sw, sh)) = stage.filter(|_| !animated && c.w > 0.0 && c.h > 0.0) {
        // The box's bounds once rotated about its centre.
        let (sin, cos) = c.rotate.to_radians().sin_cos();
        let half_w = (c.w * cos.abs() + c.h * sin.abs()) / 2.0;
        let half_h = (c.w * sin.abs() + c.h * cos.abs()) / 2.0;
        let (cx, cy) = (c.x + c.w / 2.0, c.y + c.h / 2.0);
        if cx + half_w <= 0.0 || cy + half_h <= 0.0 || cx - half_w >= sw || cy - half_h >= sh {
            warn(
                p.to_owned(),
                format!("entirely outside the stage ({sw}×{sh}): never shown"),
            );
        }
    }
    match layer {
        Layer::Picture(l) | Layer::Gif(l) if l.opacity <= 0.0 => warn(
            format!("{p}.opacity"),
            "0 for the layer's whole life: never shown".to_owned(),
        ),
        Layer::ArtWord(l) if l.alpha <= 0.0 => warn(
            format!("{p}.alpha"),
            "0 for the layer's whole life: never shown".to_owned(),
        ),
        _ => {}
    }
    if let Layer::Word(l) = layer {
        whitespace(p, l.text.displayed(), out);
    }
    if let Layer::ArtWord(l) = layer {
        whitespace(p, l.text.displayed(), out);
    }
    if let Layer::Group(g) = layer {
        for (k, member) in g.attach_list.iter().enumerate() {
            layer_warnings(
                &format!("{p}.attachList[{k}]"),
                member,
                scene_length,
                None,
                out,
            );
        }
    }
}

fn whitespace(p: &str, text: &str, out: &mut Vec<Problem>) {
    if text.trim().is_empty() {
        out.push(Problem::warning(
            format!("{p}.content"),
            ProblemCode::NeverShown,
            "no text but whitespace: never shown",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_with(layers: &str) -> Rule {
        let text = format!(
            r#"{{"resolutionRatio":{{"width":640,"height":360}},
                "scenes":[{{"timeLength":5,"layers":[{layers}]}}]}}"#
        );
        Rule::parse(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn paths(rule: &Rule) -> Vec<String> {
        warnings(rule).into_iter().map(|p| p.path).collect()
    }

    const WORD: &str = r#""type":"word","content":"Hi","x":10,"y":10,"w":100,"h":40"#;

    #[test]
    fn a_visible_layer_gives_no_warning() {
        let rule = rule_with(&format!(r#"{{{WORD},"startTime":0,"endTime":3}}"#));
        assert!(warnings(&rule).is_empty(), "{:?}", warnings(&rule));
    }

    #[test]
    fn each_kind_of_invisible_layer_is_named_by_its_path() {
        let rule = rule_with(&format!(
            r#"{{{WORD},"startTime":3,"endTime":3}},
               {{{WORD},"startTime":5,"endTime":5}},
               {{"type":"picture","src":"a.png","w":0,"h":40,"opacity":1}},
               {{{WORD},"x":700}},
               {{"type":"picture","src":"a.png","x":10,"y":10,"w":50,"h":50,"opacity":0}},
               {{"type":"word","content":"  \n ","x":10,"y":10,"w":100,"h":40}},
               {{"type":"artWord","content":"A","alpha":0,"x":10,"y":10,"w":100,"h":40}}"#
        ));
        assert_eq!(
            paths(&rule),
            [
                "scenes[0].layers[0].endTime",
                "scenes[0].layers[1].endTime",
                "scenes[0].layers[2].w",
                "scenes[0].layers[3]",
                "scenes[0].layers[4].opacity",
                "scenes[0].layers[5].content",
                "scenes[0].layers[6].alpha",
            ]
        );
    }

    #[test]
    fn rotation_and_animation_can_bring_a_layer_onto_the_stage() {
        // A tall thin box just left of the stage reaches onto it once turned on its side.
        let rule = rule_with(&format!(
            r#"{{{WORD},"x":-30,"y":50,"w":20,"h":200,"rotate":90}},
               {{{WORD},"x":-200,"motionIn":"MOTIONIN_MOVE_RIGHT"}}"#
        ));
        assert!(warnings(&rule).is_empty(), "{:?}", warnings(&rule));
    }

    #[test]
    fn a_null_end_time_lasts_to_the_scene_end() {
        let rule = rule_with(&format!(r#"{{{WORD},"startTime":1,"endTime":null}}"#));
        let end = rule.scenes[0].layers[0].common().map(|c| c.end_time);
        assert_eq!(end, Some(5.0));
        assert!(warnings(&rule).is_empty());
        assert!(
            crate::validate(&rule).is_empty(),
            "{:?}",
            crate::validate(&rule)
        );
    }

    #[test]
    fn a_null_end_time_in_a_group_member_lasts_to_the_scene_end() {
        let rule = rule_with(&format!(
            r#"{{"type":"group","endTime":null,"attachList":[{{{WORD},"endTime":null}},{{{WORD}}}]}}"#
        ));
        let Some(Layer::Group(g)) = rule.scenes[0].layers.first() else {
            panic!("not a group");
        };
        assert_eq!(g.common.end_time, 5.0);
        assert_eq!(g.attach_list[0].common().map(|c| c.end_time), Some(5.0));
        assert_eq!(g.attach_list[1].common().map(|c| c.end_time), Some(3.0));
    }
}
