//! Normalising documents before use: subtitles beyond the maximum duration, and subtitle ends.

use crate::layer::Layer;

/// How much is shaved off each subtitle's end, seconds (spec §5).
pub const SUBTITLE_END_SHAVE: f64 = 0.05;

/// Returns whether a layer is a subtitle (a text layer whose businessType is "subtitle").
pub fn is_subtitle(layer: &Layer) -> bool {
    layer.text().is_some_and(|t| t.business_type == "subtitle")
}

/// Drops the subtitle layers that start at or beyond `max_duration`, clamps the others to it and
/// shaves 50 ms off their ends (dropping any left empty). Returns how many were dropped.
pub fn normalise_subtitles(layers: &mut Vec<Layer>, max_duration: f64) -> usize {
    let before = layers.len();
    layers.retain_mut(|layer| {
        if !is_subtitle(layer) {
            return true;
        }
        let Some(c) = layer.common_mut() else {
            return true;
        };
        if c.start_time >= max_duration {
            return false;
        }
        c.end_time = c.end_time.min(max_duration) - SUBTITLE_END_SHAVE;
        c.end_time > c.start_time
    });
    before - layers.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::{LayerCommon, TextFields, TextLayer};

    fn subtitle(start: f64, end: f64) -> Layer {
        Layer::Word(TextLayer {
            common: LayerCommon {
                start_time: start,
                end_time: end,
                ..LayerCommon::default()
            },
            text: TextFields {
                business_type: "subtitle".into(),
                ..TextFields::default()
            },
            ..TextLayer::default()
        })
    }

    #[test]
    fn subtitles_past_the_limit_go_and_ends_are_shaved() {
        let mut layers = vec![
            subtitle(0.0, 2.0),
            subtitle(4.0, 6.0),
            subtitle(6.0, 7.0),
            subtitle(4.97, 5.5),
        ];
        assert_eq!(normalise_subtitles(&mut layers, 5.0), 2);
        let ends: Vec<f64> = layers
            .iter()
            .filter_map(|l| l.common().map(|c| c.end_time))
            .collect();
        assert_eq!(ends, vec![1.95, 4.95]);
    }
}
