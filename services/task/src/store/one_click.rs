//! One-click filming's rows (docs/toolbox.md, "One-click filming"): the approved templates of a
//! category with a video slot, closest in length first, and the assembly saved as a new task of
//! the caller through the template fill's own save.

use reelforge_timeline::Rule;
use sea_orm::{ColumnTrait, QueryFilter, QuerySelect};

use super::TaskStore;
use super::entity::video_template;
use super::template::to_template;
use crate::domain::TaskError;
use crate::one_click::{self, Placed, VideoSlot};
use crate::template::{AuditState, Template, TemplateFilter, Viewer};

/// A template offered for one-click filming, with its video slots.
#[derive(Debug, Clone, PartialEq)]
pub struct OneClickTemplate {
    /// The template (its document included: the caller may see it).
    pub template: Template,
    /// Its video slots in document order, each with its length.
    pub video_slots: Vec<VideoSlot>,
}

impl TaskStore {
    /// The viewer's tenant's approved templates filed under `category_id` that have a video slot,
    /// the [`one_click::CHOICES`] whose length is closest to `wanted_s` seconds first. A category
    /// without one is refused, naming `categoryId`.
    pub async fn one_click_templates(&self, viewer: &Viewer, category_id: i64, wanted_s: f64) -> Result<Vec<OneClickTemplate>, TaskError> {
        if category_id <= 0 {
            return Err(TaskError::Invalid(format!("categoryId: {category_id} is not a category: choose one")));
        }
        let wanted_ms = one_click::wanted_ms(wanted_s)?;
        let filter = TemplateFilter { category_id: Some(category_id), ..TemplateFilter::default() };
        let approved = || {
            Self::filtered(&viewer.owner.tenant, &filter)
                .filter(video_template::Column::AuditState.eq(AuditState::Approved.name()))
                .filter(video_template::Column::ReplaceVideo.gt(0))
        };
        // Lengths first (two numbers a row), then only the chosen rows with their documents.
        let lengths: Vec<(i64, i64)> = approved()
            .select_only()
            .column(video_template::Column::Id)
            .column(video_template::Column::DurationMs)
            .into_tuple()
            .all(&self.db)
            .await?;
        let chosen = one_click::closest(lengths, wanted_ms);
        if chosen.is_empty() {
            return Err(TaskError::Invalid(format!("categoryId: category {category_id} does not hold an approved template with a video slot")));
        }
        let rows = approved().filter(video_template::Column::Id.is_in(chosen.iter().map(|c| c.0))).all(&self.db).await?;
        let mut out = Vec::with_capacity(chosen.len());
        for (id, _) in chosen {
            let Some(row) = rows.iter().find(|r| r.id == id) else { continue };
            let template = to_template(row.clone());
            let rule = Rule::parse(&template.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
            out.push(OneClickTemplate { video_slots: one_click::video_slots(&rule), template });
        }
        Ok(out)
    }

    /// Assembles a new task of the viewer from template `template_id` (one they may see): the clips
    /// of `material_ids` in its video slots in document order, each cut to its slot by its length in
    /// the material library, the pictures of `picture_ids` in its picture slots; then saved as the
    /// template fill saves (the document checked once for the viewer with what the template lends,
    /// the materials confirmed). Nothing is written when anything is refused. Answers the task and
    /// where each clip went.
    pub async fn one_click_assemble(
        &self,
        viewer: &Viewer,
        template_id: i64,
        material_ids: &[String],
        picture_ids: &[String],
        name: &str,
    ) -> Result<(i64, Vec<Placed>), TaskError> {
        let t = self.template(viewer, template_id).await?;
        let mut rule = Rule::parse(&t.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        // The counts first, so that a list too long for the template asks the library nothing.
        one_click::fit(&rule, t.id, material_ids.len(), picture_ids.len())?;
        let mut ids: Vec<String> = material_ids.iter().chain(picture_ids).cloned().collect();
        ids.sort();
        ids.dedup();
        let facts = self.library.facts(&viewer.owner, &ids).await?;
        let clips = one_click::clips(material_ids, &facts)?;
        one_click::check_pictures(picture_ids, &facts)?;
        let placed = one_click::assemble(&mut rule, t.id, &clips, picture_ids, &viewer.owner)?;
        let info = serde_json::to_string(&rule).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        let task_id = self.task_from(viewer, &t, name, info).await?;
        Ok((task_id, placed))
    }
}
