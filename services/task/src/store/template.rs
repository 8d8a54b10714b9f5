//! Template rows: submit, the audit flow, the tenant-wide list with its filters, the starter seed,
//! filling a template into a new task and the business-card batches. Every query is scoped to the
//! viewer's tenant; what is not approved is seen only by its creator and the tenant's managers.

use std::collections::BTreeMap;

use reelforge_kit::db::now_millis;
use reelforge_timeline::Rule;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};

use super::entity::{template_seed, video_task, video_template};
use super::{TaskStore, like_escape, new_task_row};
use crate::domain::{Order, Owner, Run, TaskDraft, TaskError, check_name, check_rule_for, template_grant};
use reelforge_timeline::source::Access;
use crate::template::{
    self, AuditState, CardReport, Replacement, SheetFormat, Slot, Template, TemplateFilter, TemplateKind, Viewer,
};

pub(super) fn join_ids(ids: &[i64]) -> String {
    if ids.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = ids.iter().map(ToString::to_string).collect();
    format!(",{},", parts.join(","))
}

pub(super) fn split_ids(text: &str) -> Vec<i64> {
    text.split(',').filter_map(|p| p.trim().parse().ok()).collect()
}

pub(super) fn to_template(m: video_template::Model) -> Template {
    Template {
        id: m.id,
        name: m.name,
        kind: TemplateKind::parse(&m.kind).unwrap_or(TemplateKind::Classic),
        used_for: m.used_for,
        size_category_id: m.size_category_id,
        category_ids: split_ids(&m.category_ids),
        cover_key: m.cover_key,
        video_key: m.video_key,
        duration_ms: m.duration_ms,
        counts: (m.replace_word, m.replace_picture, m.replace_video),
        audit: AuditState::parse(&m.audit_state).unwrap_or(AuditState::Draft),
        reason: m.reason,
        push: m.push,
        creator_id: m.creator_id,
        task_id: m.task_id,
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
        task_info: m.task_info,
        ivvr_info: m.ivvr_info,
    }
}

/// The slot counts of a document, as stored with its template.
fn counts(rule: &Rule) -> (i32, i32, i32) {
    let c = reelforge_timeline::layout::template_slots(rule);
    let n = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    (n(c.text), n(c.picture), n(c.video))
}

/// A new template row of `tenant` (not yet inserted).
struct NewTemplate<'a> {
    tenant: &'a str,
    /// Whose document it is: the creator's, with what the template their task was made from lends.
    access: &'a Access,
    creator_id: &'a str,
    task_id: i64,
    name: String,
    kind: TemplateKind,
    audit: AuditState,
    category_ids: &'a [i64],
    size_category_id: i32,
    task_info: String,
    starter: &'a str,
    preview_task_id: i64,
}

fn new_row(t: NewTemplate<'_>) -> Result<video_template::ActiveModel, TaskError> {
    let checked = check_rule_for(&t.task_info, t.access)?;
    let rule = Rule::parse(&t.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
    let (word, picture, video) = counts(&rule);
    let now = now_millis();
    Ok(video_template::ActiveModel {
        tenant: Set(t.tenant.to_owned()),
        creator_id: Set(t.creator_id.to_owned()),
        task_id: Set(t.task_id),
        name: Set(t.name),
        kind: Set(t.kind.name().to_owned()),
        used_for: Set(t.kind.used_for().to_owned()),
        audit_state: Set(t.audit.name().to_owned()),
        reason: Set(String::new()),
        push: Set(false),
        category_ids: Set(join_ids(t.category_ids)),
        size_category_id: Set(t.size_category_id),
        task_info: Set(t.task_info),
        ivvr_info: Set(String::new()),
        duration_ms: Set(checked.duration_ms),
        replace_word: Set(word),
        replace_picture: Set(picture),
        replace_video: Set(video),
        cover_key: Set(String::new()),
        video_key: Set(String::new()),
        starter: Set(t.starter.to_owned()),
        preview_task_id: Set(t.preview_task_id),
        created_ms: Set(now),
        updated_ms: Set(now),
        ..Default::default()
    })
}

/// The hidden task of `owner` whose render is a template's preview: the template's document drawn
/// small ([`template::preview_document`]), never listed among the owner's works; made from the
/// template the owner's task was (`template_id`), whose materials it names too.
fn preview_task(
    owner: &Owner,
    access: &Access,
    template_id: i64,
    name: &str,
    task_info: &str,
    size_category_id: i32,
) -> Result<video_task::ActiveModel, TaskError> {
    let task_info = template::preview_document(task_info)?;
    let checked = check_rule_for(&task_info, access)?;
    Ok(new_task_row(
        owner,
        TaskDraft {
            task_id: None,
            name: name.to_owned(),
            task_info,
            size_category_id,
            used_for: template::PREVIEW_USED_FOR.to_owned(),
            version: None,
            duration_ms: checked.duration_ms,
            warnings: Vec::new(),
            template_id,
        },
    ))
}

/// Default and largest page of the template lists.
pub const TEMPLATE_PAGE_MAX: u64 = 100;

impl TaskStore {
    /// Seeds the starter templates of `tenant` once: the seed row's primary key makes a second (or
    /// concurrent) seeding fail, and the templates are inserted in the same transaction. Returns
    /// whether this call seeded.
    pub async fn seed_starters(&self, tenant: &str) -> Result<bool, TaskError> {
        if template_seed::Entity::find_by_id(tenant.to_owned()).one(&self.db).await?.is_some() {
            return Ok(false);
        }
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let claimed = template_seed::ActiveModel { tenant: Set(tenant.to_owned()), created_ms: Set(now_millis()) }.insert(&txn).await;
        if let Err(e) = claimed {
            txn.rollback().await?;
            // Another call seeded this tenant first.
            return match e.sql_err() {
                Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => Ok(false),
                _ => Err(e.into()),
            };
        }
        // Starters name no material, so their previews need no owner's library: they belong to no user.
        let owner = Owner { tenant: tenant.to_owned(), user_id: String::new() };
        let access = owner.access();
        let mut previews = Vec::new();
        for s in template::starters() {
            let preview_task_id = preview_task(&owner, &access, 0, s.name, &s.task_info, s.size_category_id)?.insert(&txn).await?.id;
            new_row(NewTemplate {
                tenant,
                access: &access,
                creator_id: "",
                task_id: 0,
                name: s.name.to_owned(),
                kind: s.kind,
                audit: AuditState::Approved,
                category_ids: &[],
                size_category_id: s.size_category_id,
                task_info: s.task_info,
                starter: s.key,
                preview_task_id,
            })?
            .insert(&txn)
            .await?;
            previews.push(preview_task_id);
        }
        txn.commit().await?;
        for id in previews {
            self.render_preview(&owner, id).await;
        }
        Ok(true)
    }

    /// Queues the render of a template's preview; a template without one still works, so a
    /// failure is logged, not answered.
    async fn render_preview(&self, owner: &Owner, preview_task_id: i64) {
        if let Err(e) = self.run(owner, preview_task_id).await {
            tracing::warn!(error = %e, preview_task_id, "template preview not queued");
        }
    }

    async fn template_row(&self, tenant: &str, id: i64) -> Result<video_template::Model, TaskError> {
        video_template::Entity::find_by_id(id)
            .filter(video_template::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?
            .ok_or(TaskError::TemplateNotFound(id))
    }

    /// A template the viewer may see: approved in their tenant, their own, or any of their
    /// tenant's for a manager; anything else is 'not found'.
    pub async fn template(&self, viewer: &Viewer, id: i64) -> Result<Template, TaskError> {
        let row = self.template_row(&viewer.owner.tenant, id).await?;
        let visible = row.audit_state == AuditState::Approved.name() || row.creator_id == viewer.owner.user_id || viewer.manager;
        if !visible {
            return Err(TaskError::TemplateNotFound(id));
        }
        Ok(to_template(row))
    }

    /// The slots of a template the viewer may see.
    pub async fn template_slots(&self, viewer: &Viewer, id: i64) -> Result<Vec<Slot>, TaskError> {
        let t = self.template(viewer, id).await?;
        let rule = Rule::parse(&t.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        Ok(template::slots(&rule))
    }

    async fn page(
        &self,
        query: sea_orm::Select<video_template::Entity>,
        order: Order,
        page: u64,
        size: u64,
    ) -> Result<(Vec<Template>, u64), TaskError> {
        let query = match order {
            Order::Newest => query.order_by_desc(video_template::Column::UpdatedMs).order_by_desc(video_template::Column::Id),
            Order::Oldest => query.order_by_asc(video_template::Column::CreatedMs).order_by_asc(video_template::Column::Id),
        };
        let pages = query.paginate(&self.db, size.clamp(1, TEMPLATE_PAGE_MAX));
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(to_template).collect(), total))
    }

    pub(super) fn filtered(tenant: &str, filter: &TemplateFilter) -> sea_orm::Select<video_template::Entity> {
        let mut query = video_template::Entity::find().filter(video_template::Column::Tenant.eq(tenant));
        if let Some(kind) = filter.kind {
            query = query.filter(video_template::Column::Kind.eq(kind.name()));
        }
        if !filter.size_category_ids.is_empty() {
            query = query.filter(video_template::Column::SizeCategoryId.is_in(filter.size_category_ids.iter().copied()));
        }
        if let Some(category) = filter.category_id {
            query = query.filter(video_template::Column::CategoryIds.contains(format!(",{category},")));
        }
        let name = filter.name.trim();
        if !name.is_empty() {
            let pattern = format!("%{}%", like_escape(&name.to_lowercase()));
            query = query.filter(
                Expr::expr(sea_orm::sea_query::Func::lower(Expr::col(video_template::Column::Name)))
                    .like(sea_orm::sea_query::LikeExpr::new(pattern).escape('\\')),
            );
        }
        query
    }

    /// One page of the tenant's approved templates that pass `filter`, seeding the starters on the
    /// tenant's first list.
    pub async fn approved_templates(
        &self,
        viewer: &Viewer,
        filter: &TemplateFilter,
        page: u64,
        size: u64,
    ) -> Result<(Vec<Template>, u64), TaskError> {
        self.seed_starters(&viewer.owner.tenant).await?;
        let query = Self::filtered(&viewer.owner.tenant, filter).filter(video_template::Column::AuditState.eq(AuditState::Approved.name()));
        self.page(query, filter.order, page, size).await
    }

    /// One page of the templates the viewer submitted, any state, last changed first.
    pub async fn my_templates(&self, viewer: &Viewer, page: u64, size: u64) -> Result<(Vec<Template>, u64), TaskError> {
        let query = video_template::Entity::find()
            .filter(video_template::Column::Tenant.eq(&viewer.owner.tenant))
            .filter(video_template::Column::CreatorId.eq(&viewer.owner.user_id));
        self.page(query, Order::Newest, page, size).await
    }

    /// A manager's list: one page of the tenant's templates in `state` that pass `filter`.
    pub async fn templates_to_check(
        &self,
        viewer: &Viewer,
        state: AuditState,
        filter: &TemplateFilter,
        page: u64,
        size: u64,
    ) -> Result<(Vec<Template>, u64), TaskError> {
        viewer.require_manager()?;
        let query = Self::filtered(&viewer.owner.tenant, filter).filter(video_template::Column::AuditState.eq(state.name()));
        self.page(query, filter.order, page, size).await
    }

    /// Offers the viewer's task as a template of `kind`, pending audit: its document is copied (and
    /// checked again), its slot counts taken from it. A business card needs texts carrying a card
    /// field; every other kind at least one slot.
    pub async fn submit_template(
        &self,
        viewer: &Viewer,
        task_id: i64,
        kind: TemplateKind,
        category_ids: &[i64],
        size_category_id: Option<i32>,
    ) -> Result<Template, TaskError> {
        let task = self.get(&viewer.owner, task_id).await?;
        let rule = Rule::parse(&task.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        if kind == TemplateKind::BusinessCard && template::card_fields(&rule).is_empty() {
            return Err(TaskError::Invalid("kind: a business card needs texts carrying a card field (cardField)".into()));
        }
        if template::slots(&rule).is_empty() {
            return Err(TaskError::Invalid("taskInfo: no replaceable layer (canModify = 1); a template needs at least one".into()));
        }
        let size_category_id = size_category_id.filter(|s| *s > 0).unwrap_or(task.size_category_id);
        let made_from = self.made_from(&viewer.owner, task_id).await?;
        let access = viewer.owner.access().with_grant(self.template_grant(&viewer.owner.tenant, made_from).await?);
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        // The preview renders as the creator, whose library its materials are looked up in.
        let preview_task_id =
            preview_task(&viewer.owner, &access, made_from, &task.name, &task.task_info, size_category_id)?.insert(&txn).await?.id;
        let row = new_row(NewTemplate {
            tenant: &viewer.owner.tenant,
            access: &access,
            creator_id: &viewer.owner.user_id,
            task_id,
            name: task.name,
            kind,
            audit: AuditState::Pending,
            category_ids,
            size_category_id,
            task_info: task.task_info,
            starter: "",
            preview_task_id,
        })?
        .insert(&txn)
        .await?;
        txn.commit().await?;
        self.render_preview(&viewer.owner, preview_task_id).await;
        Ok(to_template(row))
    }

    /// A manager approves or rejects a submitted template; a rejection needs a reason.
    pub async fn audit_template(&self, viewer: &Viewer, id: i64, approve: bool, reason: &str) -> Result<Template, TaskError> {
        viewer.require_manager()?;
        let reason = reason.trim();
        if !approve && reason.is_empty() {
            return Err(TaskError::Invalid("reason: required when rejecting".into()));
        }
        let row = self.template_row(&viewer.owner.tenant, id).await?;
        if row.audit_state == AuditState::Draft.name() {
            return Err(TaskError::Invalid(format!("template {id} has not been submitted")));
        }
        let state = if approve { AuditState::Approved } else { AuditState::Rejected };
        let mut active: video_template::ActiveModel = row.into();
        active.audit_state = Set(state.name().to_owned());
        active.reason = Set(if approve { String::new() } else { reason.to_owned() });
        active.updated_ms = Set(now_millis());
        Ok(to_template(active.update(&self.db).await?))
    }

    /// A manager sets a template's categories (and size, when given).
    pub async fn set_template_categories(
        &self,
        viewer: &Viewer,
        id: i64,
        category_ids: &[i64],
        size_category_id: Option<i32>,
    ) -> Result<Template, TaskError> {
        viewer.require_manager()?;
        let row = self.template_row(&viewer.owner.tenant, id).await?;
        let mut active: video_template::ActiveModel = row.into();
        active.category_ids = Set(join_ids(category_ids));
        if let Some(size) = size_category_id.filter(|s| *s > 0) {
            active.size_category_id = Set(size);
        }
        active.updated_ms = Set(now_millis());
        Ok(to_template(active.update(&self.db).await?))
    }

    /// A manager pushes or stops pushing templates of the tenant, all or none.
    pub async fn set_template_push(&self, viewer: &Viewer, ids: &[i64], push: bool) -> Result<Vec<i64>, TaskError> {
        viewer.require_manager()?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let changed = video_template::Entity::update_many()
            .col_expr(video_template::Column::Push, Expr::value(push))
            .col_expr(video_template::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_template::Column::Id.is_in(ids.iter().copied()))
            .filter(video_template::Column::Tenant.eq(&viewer.owner.tenant))
            .exec(&txn)
            .await?;
        if changed.rows_affected != ids.len() as u64 {
            txn.rollback().await?;
            let found: Vec<i64> = video_template::Entity::find()
                .filter(video_template::Column::Id.is_in(ids.iter().copied()))
                .filter(video_template::Column::Tenant.eq(&viewer.owner.tenant))
                .all(&self.db)
                .await?
                .into_iter()
                .map(|m| m.id)
                .collect();
            let missing = ids.iter().find(|id| !found.contains(id)).copied().unwrap_or_default();
            return Err(TaskError::TemplateNotFound(missing));
        }
        txn.commit().await?;
        Ok(ids.to_vec())
    }

    /// How many of the tenant's templates (any audit state) are filed under one of `categories`,
    /// with the names of the first `names` of them, oldest first: where a category is in use.
    pub async fn category_use(&self, tenant: &str, categories: &[i64], names: u64) -> Result<(u64, Vec<String>), TaskError> {
        if categories.is_empty() {
            return Ok((0, Vec::new()));
        }
        let mut any = sea_orm::Condition::any();
        for c in categories {
            any = any.add(video_template::Column::CategoryIds.contains(format!(",{c},")));
        }
        let query = video_template::Entity::find().filter(video_template::Column::Tenant.eq(tenant)).filter(any);
        let total = query.clone().count(&self.db).await?;
        let first = query
            .order_by_asc(video_template::Column::CreatedMs)
            .order_by_asc(video_template::Column::Id)
            .paginate(&self.db, std::cmp::Ord::max(names, 1))
            .fetch_page(0)
            .await?;
        Ok((total, first.into_iter().map(|m| m.name).collect()))
    }

    /// Saves `task_info` as a new task of the viewer made from template `t`.
    pub(super) async fn task_from(&self, viewer: &Viewer, t: &Template, name: &str, task_info: String) -> Result<i64, TaskError> {
        let access = viewer.owner.access().with_grant(template_grant(&t.creator_id, &t.task_info));
        let checked = check_rule_for(&task_info, &access)?;
        self.confirm(&viewer.owner, &checked.materials).await?;
        let draft = TaskDraft {
            task_id: None,
            name: check_name(if name.trim().is_empty() { &t.name } else { name })?,
            task_info,
            size_category_id: t.size_category_id,
            used_for: t.used_for.clone(),
            version: None,
            duration_ms: checked.duration_ms,
            warnings: Vec::new(),
            template_id: t.id,
        };
        self.save(&viewer.owner, draft).await
    }

    /// Makes a new task of the viewer from a template they may see, its slots replaced; the template
    /// is not changed. Returns the task id.
    pub async fn fill_template(&self, viewer: &Viewer, id: i64, name: &str, replaces: &[Replacement]) -> Result<i64, TaskError> {
        let t = self.template(viewer, id).await?;
        let mut rule = Rule::parse(&t.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        template::fill(&mut rule, replaces, &viewer.owner)?;
        let info = serde_json::to_string(&rule).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        self.task_from(viewer, &t, name, info).await
    }

    /// A business-card template the viewer may see, with its card fields.
    pub async fn card_template(&self, viewer: &Viewer, id: i64) -> Result<(Template, Rule, BTreeMap<i64, i64>), TaskError> {
        let t = self.template(viewer, id).await?;
        if t.kind != TemplateKind::BusinessCard {
            return Err(TaskError::Invalid(format!("templateId: template {id} is not a business card")));
        }
        let rule = Rule::parse(&t.task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        let fields = template::card_fields(&rule);
        Ok((t, rule, fields))
    }

    /// Makes one card: checks the values, fills a copy of the template, saves it as a new task of
    /// the viewer and runs it. The error is for the card's row, naming what did not fit.
    async fn one_card(
        &self,
        viewer: &Viewer,
        t: &Template,
        rule: &Rule,
        fields: &BTreeMap<i64, i64>,
        values: &BTreeMap<i64, String>,
    ) -> Result<(i64, Run), TaskError> {
        template::check_card(fields, values).map_err(TaskError::Invalid)?;
        let mut card = rule.clone();
        template::fill_card(&mut card, values);
        let info = serde_json::to_string(&card).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
        let name = values.get(&1).filter(|n| !n.trim().is_empty()).map_or_else(|| t.name.clone(), |n| format!("{} {}", t.name, n.trim()));
        let name: String = name.chars().take(crate::domain::MAX_NAME_CHARS).collect();
        let task_id = self.task_from(viewer, t, &name, info).await?;
        let run = self.run(&viewer.owner, task_id).await?;
        Ok((task_id, run))
    }

    /// One card from its field values: a new task and its render job.
    pub async fn card(&self, viewer: &Viewer, id: i64, values: &BTreeMap<i64, String>) -> Result<(i64, Run), TaskError> {
        let (t, rule, fields) = self.card_template(viewer, id).await?;
        self.one_card(viewer, &t, &rule, &fields, values).await
    }

    /// Cards from a sheet: a sheet that cannot be used is refused whole; otherwise each row is a
    /// new task with its render job, or a line of the report saying why not.
    pub async fn card_batch(&self, viewer: &Viewer, id: i64, file_name: &str, bytes: &[u8]) -> Result<CardReport, TaskError> {
        let (t, rule, fields) = self.card_template(viewer, id).await?;
        let rows = template::read_sheet(SheetFormat::of_name(file_name)?, bytes)?;
        let cards = template::card_rows(&rows, &fields)?;
        let mut report = CardReport::default();
        for card in cards {
            match self.one_card(viewer, &t, &rule, &fields, &card.values).await {
                Ok((task_id, run)) => report.made.push((card.row, task_id, run.job_id)),
                Err(TaskError::Invalid(reason)) => report.failed.push((card.row, reason)),
                Err(e) => return Err(e),
            }
        }
        Ok(report)
    }
}
