//! One-click filming (docs/toolbox.md, "One-click filming"): a template chosen by category and
//! length, the user's clips put into its video slots in document order, each cut so that it fills
//! its slot, and pictures into its picture slots. Pure functions over the document model; the store
//! picks the templates, asks the material library for the clips' lengths and saves the result
//! through the template fill ([`crate::template::fill`], then the save's one document check).

use reelforge_timeline::layout::SlotKind;
use reelforge_timeline::source::MATERIAL_FILE_PREFIX;
use reelforge_timeline::{Id, Layer, Rule};
use serde_json::{Value, json};

use crate::domain::{MaterialFacts, Owner, TaskError};
use crate::template::{self, Replacement};

/// How many templates a choice answers, the closest length first.
pub const CHOICES: usize = 12;

/// The longest length a choice may ask for, seconds (a day).
pub const MAX_WANTED_S: f64 = 86_400.0;

/// A video slot of a template: the layer, its scene and how long it shows, seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct VideoSlot {
    /// The layer's id.
    pub id: String,
    /// Its scene, from 0.
    pub scene_index: u32,
    /// How long the layer shows in its scene, seconds.
    pub seconds: f64,
}

/// A clip the user chose: a video material of the library and its length.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// The material id.
    pub id: String,
    /// Its length, seconds.
    pub seconds: f64,
}

/// Where a clip went: its slot and the stretch of it that plays there.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The slot (layer id).
    pub slot_id: String,
    /// The clip's material id.
    pub material_id: String,
    /// The cut's in point in the clip, seconds (always 0: a clip plays from its start).
    pub start: f64,
    /// The cut's out point in the clip, seconds.
    pub end: f64,
    /// The slot's length, seconds; past `end - start` the clip holds its last frame.
    pub slot: f64,
}

impl Placed {
    /// Seconds the clip's last frame is held because the clip is shorter than its slot (0: none).
    pub fn held(&self) -> f64 {
        hundredths_down(self.slot - (self.end - self.start)).max(0.0)
    }
}

/// Rounds down to a hundredth of a second (the editor's step), so that a cut never ends past the
/// clip; the small lift keeps a value already on a hundredth (0.29 is 28.999… × 100) where it is.
fn hundredths_down(seconds: f64) -> f64 {
    ((seconds * 100.0) + 1e-6).floor() / 100.0
}

/// The same-origin address of a material's original file, as documents name it.
fn address(material_id: &str) -> String {
    format!("{MATERIAL_FILE_PREFIX}{material_id}/original")
}

/// Reads the wanted length (`timeLength`, seconds) as milliseconds.
pub fn wanted_ms(seconds: f64) -> Result<i64, TaskError> {
    if !seconds.is_finite() || seconds <= 0.0 || seconds > MAX_WANTED_S {
        return Err(TaskError::Invalid(format!("timeLength: {seconds} is not a length in seconds above 0 and at most {MAX_WANTED_S}")));
    }
    Ok((seconds * 1000.0).round() as i64)
}

/// Orders templates `(id, length ms)` by how close their length is to `wanted_ms`, the nearer
/// first (on a tie the lower id, the older template), and keeps the first [`CHOICES`].
pub fn closest(mut templates: Vec<(i64, i64)>, wanted_ms: i64) -> Vec<(i64, i64)> {
    templates.sort_by_key(|&(id, ms)| ((ms - wanted_ms).abs(), id));
    templates.truncate(CHOICES);
    templates
}

/// The video slots of a template document in document order (scene by scene, group members
/// included, as [`template::slots`] lists them), each with how long its layer shows: its span
/// inside its scene.
pub fn video_slots(rule: &Rule) -> Vec<VideoSlot> {
    let wanted: Vec<String> = template::slots(rule).into_iter().filter(|s| s.kind == SlotKind::Video).map(|s| s.id).collect();
    let mut out = Vec::new();
    let mut rule = rule.clone();
    let lengths: Vec<f64> = rule.scenes.iter().map(|s| s.time_length).collect();
    template::each_layer_mut(&mut rule, &mut |scene, layer| {
        let (Layer::Video(_), Some(common)) = (&*layer, layer.common()) else { return };
        let id = common.id.to_string();
        if !wanted.contains(&id) || out.iter().any(|s: &VideoSlot| s.id == id) {
            return;
        }
        let scene_length = lengths.get(scene as usize).copied().unwrap_or_default();
        // An open end is the scene's end; a layer reaching past its scene is cut there.
        let end = if common.end_time.is_finite() { common.end_time.min(scene_length) } else { scene_length };
        let seconds = (end - common.start_time.max(0.0)).max(0.0);
        out.push(VideoSlot { id, scene_index: scene, seconds });
    });
    out
}

/// Checks that `clips` clips and `pictures` pictures fit template `template_id`: at least one clip,
/// no more clips than video slots and no more pictures than picture slots. Slots left over keep
/// the template's own material (which the template lends to the task made from it).
pub fn fit(rule: &Rule, template_id: i64, clips: usize, pictures: usize) -> Result<(), TaskError> {
    let slots = template::slots(rule);
    let videos = slots.iter().filter(|s| s.kind == SlotKind::Video).count();
    let stills = slots.iter().filter(|s| s.kind == SlotKind::Picture).count();
    if videos == 0 {
        return Err(TaskError::Invalid(format!("templateId: template {template_id} does not have a video slot")));
    }
    if clips == 0 {
        return Err(TaskError::Invalid("materialIds: choose at least one clip".into()));
    }
    if clips > videos {
        return Err(TaskError::Invalid(format!("materialIds: {clips} clips, but template {template_id} has {videos} video slots")));
    }
    if pictures > stills {
        return Err(TaskError::Invalid(format!("pictureIds: {pictures} pictures, but template {template_id} has {stills} picture slots")));
    }
    Ok(())
}

/// Why the material the field names cannot go where it was put, or `None` when it can.
fn unusable(field: &str, id: &str, fact: Option<&MaterialFacts>, kinds: &[&str], what: &str) -> Option<TaskError> {
    let why = match fact {
        None => format!("material {id} is not one of your materials (nor a system material), or was deleted"),
        Some(f) if f.state == "processing" => format!("material {id} is still being processed: try again once it is ready"),
        Some(f) if f.state != "ready" => format!("material {id} could not be read when it was uploaded"),
        Some(f) if !kinds.contains(&f.kind.as_str()) => format!("material {id} is a {}: choose {what}", f.kind),
        Some(_) => return None,
    };
    Some(TaskError::Invalid(format!("{field}: {why}")))
}

/// The clips of `ids` (the `materialIds` of a run, in order) from the library's facts: each must be
/// a ready video the owner may use (the facts leave out the others) with a length; the refusal
/// names its place (`materialIds[1]`).
pub fn clips(ids: &[String], facts: &[MaterialFacts]) -> Result<Vec<Clip>, TaskError> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| {
            let field = format!("materialIds[{i}]");
            let fact = facts.iter().find(|f| f.id == *id);
            if let Some(e) = unusable(&field, id, fact, &["video"], "a video") {
                return Err(e);
            }
            match fact {
                Some(f) if f.duration_ms > 0 => Ok(Clip { id: id.clone(), seconds: f.duration_ms as f64 / 1000.0 }),
                _ => Err(TaskError::Invalid(format!("{field}: material {id} has no known length"))),
            }
        })
        .collect()
}

/// Checks the pictures of `ids` (the `pictureIds` of a run) against the library's facts: each a
/// ready picture or GIF the owner may use; the refusal names its place (`pictureIds[0]`).
pub fn check_pictures(ids: &[String], facts: &[MaterialFacts]) -> Result<(), TaskError> {
    for (i, id) in ids.iter().enumerate() {
        let fact = facts.iter().find(|f| f.id == *id);
        if let Some(e) = unusable(&format!("pictureIds[{i}]"), id, fact, &["picture", "gif"], "a picture") {
            return Err(e);
        }
    }
    Ok(())
}

/// Puts `clips` into the video slots of `rule` in document order and `pictures` into its picture
/// slots, through the template fill (which refuses what a fill refuses). Each clip plays from its
/// start for as long as its slot shows, cut there (`cutInfo {start: 0, end}`); a clip shorter than
/// its slot plays whole and its last frame is held for the rest of the slot, as the render and the
/// stage hold a cut's last frame. Slots without a clip or picture keep the template's material.
/// Answers where each clip went, in slot order.
pub fn assemble(rule: &mut Rule, template_id: i64, clips: &[Clip], pictures: &[String], owner: &Owner) -> Result<Vec<Placed>, TaskError> {
    fit(rule, template_id, clips.len(), pictures.len())?;
    let placed: Vec<Placed> = video_slots(rule)
        .into_iter()
        .zip(clips)
        .map(|(slot, clip)| Placed {
            slot_id: slot.id,
            material_id: clip.id.clone(),
            start: 0.0,
            end: hundredths_down(clip.seconds.min(slot.seconds)),
            slot: slot.seconds,
        })
        .collect();
    let picture_slots = template::slots(rule).into_iter().filter(|s| s.kind == SlotKind::Picture);
    let stills: Vec<(String, String)> = picture_slots.zip(pictures).map(|(s, id)| (s.id, id.clone())).collect();
    let replaces: Vec<Replacement> = placed
        .iter()
        .map(|p| (&p.slot_id, &p.material_id))
        .chain(stills.iter().map(|(slot, id)| (slot, id)))
        .map(|(slot, id)| Replacement { id: slot.clone(), content: address(id) })
        .collect();
    template::fill(rule, &replaces, owner)?;
    // The fill set the addresses; the layer also names its material and where it came from, as the
    // editor writes a layer made from the library, and a video its cut.
    template::each_layer_mut(rule, &mut |_, layer| {
        let Some(id) = layer.common().map(|c| c.id.to_string()) else { return };
        let clip = placed.iter().find(|p| p.slot_id == id);
        let material = clip.map(|p| &p.material_id).or_else(|| stills.iter().find(|(slot, _)| *slot == id).map(|(_, m)| m));
        let Some(material) = material else { return };
        if let (Layer::Video(v), Some(p)) = (&mut *layer, clip) {
            v.cut_info = json!({"start": p.start, "end": p.end});
        }
        if let Some(common) = layer.common_mut() {
            common.material_id = Some(Id::Text(material.clone()));
            common.source = Value::String(address(material));
        }
    });
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> Owner {
        Owner { tenant: "qs".into(), user_id: "ann".into() }
    }

    /// Two scenes: the first (4 s) holds a picture slot and a video slot over its whole length, a
    /// fixed video that is no slot and a text slot; the second (5 s) a group whose member is a video
    /// slot from 1 s to 4 s, and a video slot with an open end.
    fn template() -> Rule {
        let tpl = |id: &str| format!("/diyvrbt/material/file/{id}/original");
        let doc = json!({
            "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 25,
            "resolutionRatio": {"name": "16:9", "width": 640, "height": 360, "ratio": "16:9", "sizeId": 41, "targetWidth": 1280},
            "scenes": [
                {"id": 1, "type": "canvas", "timeLength": 4, "layers": [
                    {"type": "picture", "id": "p1", "canModify": 1, "src": tpl("tpl-pic"), "startTime": 0, "endTime": 4, "w": 100, "h": 100},
                    {"type": "video", "id": "v1", "canModify": 1, "videoSrc": tpl("tpl-a"), "source": tpl("tpl-a"), "materialId": "tpl-a",
                     "cutInfo": {"start": 2, "end": 6}, "startTime": 0, "endTime": 4, "w": 320, "h": 180},
                    {"type": "video", "id": "fixed", "canModify": 0, "videoSrc": tpl("tpl-b"), "startTime": 0, "endTime": 4, "w": 320, "h": 180},
                    {"type": "word", "id": "t1", "canModify": 1, "content": "标题", "startTime": 0, "endTime": 4, "w": 200, "h": 60}
                ]},
                {"id": 2, "type": "canvas", "timeLength": 5, "layers": [
                    {"type": "group", "id": "g", "startTime": 0, "endTime": 5, "w": 640, "h": 360, "attachList": [
                        {"type": "video", "id": "v2", "canModify": 1, "videoSrc": tpl("tpl-c"), "startTime": 1, "endTime": 4, "w": 320, "h": 180}
                    ]},
                    {"type": "video", "id": "v3", "canModify": 1, "videoSrc": tpl("tpl-d"), "startTime": 0.5, "endTime": null, "w": 320, "h": 180}
                ]}
            ],
            "audio": []
        });
        Rule::parse(&doc.to_string()).unwrap_or_else(|e| panic!("the fixture parses: {e}"))
    }

    fn layer<'a>(rule: &'a Rule, scene: usize, path: &[usize]) -> &'a Layer {
        let mut l = &rule.scenes[scene].layers[path[0]];
        for &i in &path[1..] {
            let Layer::Group(g) = l else { panic!("not a group") };
            l = &g.attach_list[i];
        }
        l
    }

    fn video(rule: &Rule, scene: usize, path: &[usize]) -> (String, Value, Option<Id>) {
        match layer(rule, scene, path) {
            Layer::Video(v) => (v.video_src.as_str().unwrap_or_default().to_owned(), v.cut_info.clone(), v.common.material_id.clone()),
            other => panic!("not a video: {other:?}"),
        }
    }

    fn clip(id: &str, seconds: f64) -> Clip {
        Clip { id: id.into(), seconds }
    }

    #[test]
    fn video_slots_are_in_document_order_with_their_spans() {
        let slots = video_slots(&template());
        let got: Vec<(&str, u32, f64)> = slots.iter().map(|s| (s.id.as_str(), s.scene_index, s.seconds)).collect();
        assert_eq!(got, vec![("v1", 0, 4.0), ("v2", 1, 3.0), ("v3", 1, 4.5)], "the fixed video is no slot; an open end is the scene's");
    }

    #[test]
    fn clips_go_into_the_slots_in_order_cut_to_fill_them() -> Result<(), TaskError> {
        let mut rule = template();
        let placed = assemble(&mut rule, 7, &[clip("c1", 10.0), clip("c2", 3.5), clip("c3", 2.0)], &["pic".into()], &owner())?;
        let cuts: Vec<(&str, &str, f64, f64, f64, f64)> =
            placed.iter().map(|p| (p.slot_id.as_str(), p.material_id.as_str(), p.start, p.end, p.slot, p.held())).collect();
        assert_eq!(cuts, vec![("v1", "c1", 0.0, 4.0, 4.0, 0.0), ("v2", "c2", 0.0, 3.0, 3.0, 0.0), ("v3", "c3", 0.0, 2.0, 4.5, 2.5)]);

        let (src, cut, id) = video(&rule, 0, &[1]);
        assert_eq!((src.as_str(), cut, id), ("/diyvrbt/material/file/c1/original", json!({"start": 0.0, "end": 4.0}), Some(Id::Text("c1".into()))));
        let (src, cut, _) = video(&rule, 1, &[0, 0]);
        assert_eq!((src.as_str(), cut), ("/diyvrbt/material/file/c2/original", json!({"start": 0.0, "end": 3.0})), "a group member is a slot too");
        let (src, cut, _) = video(&rule, 1, &[1]);
        assert_eq!((src.as_str(), cut), ("/diyvrbt/material/file/c3/original", json!({"start": 0.0, "end": 2.0})), "shorter: played whole, then held");
        let Layer::Video(v1) = layer(&rule, 0, &[1]) else { panic!("video") };
        assert_eq!(v1.common.source, json!("/diyvrbt/material/file/c1/original"), "where it came from follows");
        assert_eq!((v1.common.start_time, v1.common.end_time), (0.0, 4.0), "the slot keeps its place and length");
        let Layer::Picture(p) = layer(&rule, 0, &[0]) else { panic!("picture") };
        assert_eq!(p.src, "/diyvrbt/material/file/pic/original");
        let (fixed, _, _) = video(&rule, 0, &[2]);
        assert_eq!(fixed, "/diyvrbt/material/file/tpl-b/original", "a layer that is no slot is left alone");
        Ok(())
    }

    #[test]
    fn fewer_clips_leave_the_templates_own_material_in_the_later_slots() -> Result<(), TaskError> {
        let mut rule = template();
        let placed = assemble(&mut rule, 7, &[clip("c1", 1.234)], &[], &owner())?;
        assert_eq!(placed.len(), 1);
        assert_eq!((placed[0].end, placed[0].held()), (1.23, 2.77), "the cut ends on a hundredth inside the clip");
        let (src, cut, _) = video(&rule, 1, &[0, 0]);
        assert_eq!((src.as_str(), cut), ("/diyvrbt/material/file/tpl-c/original", Value::Null));
        let Layer::Picture(p) = layer(&rule, 0, &[0]) else { panic!("picture") };
        assert_eq!(p.src, "/diyvrbt/material/file/tpl-pic/original");
        Ok(())
    }

    #[test]
    fn what_does_not_fit_is_refused_naming_the_field() {
        let refused = |clips: &[Clip], pictures: &[String]| match assemble(&mut template(), 7, clips, pictures, &owner()) {
            Err(TaskError::Invalid(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(&[], &[]), "materialIds: choose at least one clip");
        let four: Vec<Clip> = (0..4).map(|i| clip(&format!("c{i}"), 5.0)).collect();
        assert_eq!(refused(&four, &[]), "materialIds: 4 clips, but template 7 has 3 video slots");
        assert_eq!(refused(&four[..1], &["a".into(), "b".into()]), "pictureIds: 2 pictures, but template 7 has 1 picture slots");
        let mut no_video = template();
        no_video.scenes.truncate(1);
        no_video.scenes[0].layers.remove(1);
        assert!(matches!(fit(&no_video, 9, 1, 0), Err(TaskError::Invalid(m)) if m == "templateId: template 9 does not have a video slot"));
    }

    #[test]
    fn the_librarys_facts_make_clips_or_a_refusal_naming_the_place() {
        let fact = |id: &str, kind: &str, state: &str, ms: u64| MaterialFacts { id: id.into(), kind: kind.into(), state: state.into(), duration_ms: ms };
        let facts = [fact("a", "video", "ready", 2500), fact("b", "picture", "ready", 0), fact("c", "video", "processing", 0), fact("d", "video", "failed", 0)];
        let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(clips(&ids(&["a", "a"]), &facts).ok(), Some(vec![clip("a", 2.5), clip("a", 2.5)]), "a clip may be used twice");
        let refusal = |r: Result<Vec<Clip>, TaskError>| match r {
            Err(TaskError::Invalid(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(refusal(clips(&ids(&["a", "b"]), &facts)), "materialIds[1]: material b is a picture: choose a video");
        assert!(refusal(clips(&ids(&["x"]), &facts)).starts_with("materialIds[0]: material x is not one of your materials"));
        assert!(refusal(clips(&ids(&["a", "c"]), &facts)).starts_with("materialIds[1]: material c is still being processed"));
        assert!(refusal(clips(&ids(&["d"]), &facts)).starts_with("materialIds[0]: material d could not be read"));
        assert!(check_pictures(&ids(&["b"]), &facts).is_ok());
        assert!(matches!(check_pictures(&ids(&["b", "a"]), &facts), Err(TaskError::Invalid(m)) if m == "pictureIds[1]: material a is a video: choose a picture"));
    }

    #[test]
    fn templates_are_ordered_by_how_close_their_length_is() {
        let got = closest(vec![(1, 30_000), (2, 9_000), (3, 12_000), (4, 11_000), (5, 9_000)], 10_000);
        assert_eq!(got.iter().map(|t| t.0).collect::<Vec<_>>(), vec![2, 4, 5, 3, 1], "1 s either way ties: the older first");
        let many: Vec<(i64, i64)> = (0..20).map(|i| (i, i * 1000)).collect();
        assert_eq!(closest(many, 0).len(), CHOICES);
        assert_eq!(wanted_ms(12.5).ok(), Some(12_500));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, MAX_WANTED_S + 1.0] {
            assert!(matches!(wanted_ms(bad), Err(TaskError::Invalid(m)) if m.starts_with("timeLength: ")), "{bad}");
        }
    }
}
