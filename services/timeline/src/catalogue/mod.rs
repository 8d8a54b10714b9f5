//! Catalogues as data: filters, transitions, animations, art-word styles, shapes, ratios, codes,
//! media types and the text decoration lines.
//! Every list is exported to the frontend as `gen/catalogue.ts` (see `typescript`).

pub mod animations;
pub mod art_words;
pub mod codes;
pub mod filters;
pub mod media;
pub mod ratios;
pub mod shapes;
pub mod text;
pub mod transitions;

use serde::Serialize;

/// Every catalogue in one value, as exported to the frontend.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalogue {
    /// The 14 filters.
    pub filters: &'static [filters::Filter],
    /// The transitions.
    pub transitions: &'static [transitions::TransitionInfo],
    /// The in- and out-animations.
    pub animations: &'static [animations::AnimationInfo],
    /// The art-word styles.
    pub art_words: &'static [art_words::ArtWordStyle],
    /// The 24 shape kinds.
    pub shapes: &'static [shapes::ShapeKind],
    /// The aspect ratios.
    pub ratios: &'static [ratios::AspectRatio],
    /// Render quality levels.
    pub quality_levels: &'static [codes::QualityLevel],
    /// Task status codes.
    pub task_statuses: &'static [codes::Code],
    /// Setting status codes.
    pub setting_statuses: &'static [codes::Code],
    /// Operator levels.
    pub operator_levels: &'static [codes::Code],
    /// Roles.
    pub roles: &'static [&'static str],
    /// Company-card text field kinds.
    pub card_fields: &'static [codes::Code],
    /// Toolbox task types with their visibility.
    pub toolbox_tasks: &'static [codes::ToolboxTask],
    /// Media types by extension.
    pub media_types: &'static [media::MediaExtensions],
    /// Ducking and loudness constants.
    pub audio: crate::audio::AudioRules,
    /// Where a text's underline and strike-through lie.
    pub text: text::TextRules,
}

/// Returns every catalogue.
pub fn all() -> Catalogue {
    Catalogue {
        filters: filters::FILTERS,
        transitions: transitions::TRANSITIONS,
        animations: animations::ANIMATIONS,
        art_words: art_words::ART_WORDS,
        shapes: shapes::SHAPES,
        ratios: ratios::RATIOS,
        quality_levels: codes::QUALITY_LEVELS,
        task_statuses: codes::TASK_STATUSES,
        setting_statuses: codes::SETTING_STATUSES,
        operator_levels: codes::OPERATOR_LEVELS,
        roles: codes::ROLES,
        card_fields: codes::CARD_FIELDS,
        toolbox_tasks: codes::TOOLBOX_TASKS,
        audio: crate::audio::AUDIO_RULES,
        media_types: media::MEDIA_TYPES,
        text: text::TEXT_RULES,
    }
}
