//! Marketplace rows (issue 30): a tenant's services and the requests placed with them. Every query
//! is scoped to the viewer's tenant; a service is changed by its provider only, a request is seen by
//! its requester and the service's provider only.

use std::collections::BTreeMap;

use reelforge_kit::BlobStore;
use reelforge_kit::db::now_millis;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use super::entity::video_task;
use super::template::{join_ids, split_ids};
use super::{TaskStore, renders_prefix};
use crate::domain::{Owner, TaskError, TaskStatus, blank_rule};
use crate::market::{NOTE_MAX, REASON_MAX, Request, RequestState, Sample, Service, ServiceInput, ServiceKind, check_service, required_text};

/// A provider's service.
pub(super) mod market_service {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "market_service")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub provider_id: String,
        pub title: String,
        pub kind: String,
        #[sea_orm(column_type = "Text")]
        pub description: String,
        pub price: String,
        pub delivery_days: i32,
        /// Comma-joined in order, with a comma at each end like a template's categories.
        #[sea_orm(column_type = "Text")]
        pub sample_task_ids: String,
        pub published: bool,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A user's request to a service.
pub(super) mod market_request {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "market_request")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub service_id: i64,
        pub requester_id: String,
        pub provider_id: String,
        #[sea_orm(column_type = "Text")]
        pub note: String,
        pub state: String,
        #[sea_orm(column_type = "Text")]
        pub reason: String,
        pub delivered_task_id: i64,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

fn to_service(m: market_service::Model, viewer: &Owner, open_requests: i64) -> Service {
    let mine = m.provider_id == viewer.user_id;
    Service {
        id: m.id,
        kind: ServiceKind::parse(&m.kind).unwrap_or(ServiceKind::Video),
        title: m.title,
        description: m.description,
        price: m.price,
        delivery_days: m.delivery_days,
        sample_task_ids: split_ids(&m.sample_task_ids),
        published: m.published,
        open_requests: if mine { open_requests } else { 0 },
        mine,
        provider_id: m.provider_id,
        updated_ms: m.updated_ms,
        cover_task_id: 0,
        cover_key: String::new(),
    }
}

fn to_request(m: market_request::Model, viewer: &Owner, titles: &BTreeMap<i64, String>) -> Request {
    Request {
        service_title: titles.get(&m.service_id).cloned().unwrap_or_default(),
        state: RequestState::parse(&m.state).unwrap_or(RequestState::Open),
        mine: m.requester_id == viewer.user_id,
        id: m.id,
        service_id: m.service_id,
        note: m.note,
        reason: m.reason,
        delivered_task_id: m.delivered_task_id,
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
    }
}

fn no_service(field: &str, id: i64) -> TaskError {
    TaskError::Invalid(format!("{field}service {id} does not exist"))
}

fn no_request(id: i64) -> TaskError {
    TaskError::Invalid(format!("requestId: request {id} does not exist"))
}

impl TaskStore {
    /// Refuses a caller the auth service does not know as a service provider.
    async fn require_provider(&self, owner: &Owner) -> Result<(), TaskError> {
        if self.providers.is_provider(owner).await? { Ok(()) } else { Err(TaskError::Forbidden("SERVICE_PROVIDER")) }
    }

    /// The viewer's rendered work `id` (a video made in the editor); `field` names it in refusals.
    pub(super) async fn rendered_work(&self, owner: &Owner, id: i64, field: &str) -> Result<video_task::Model, TaskError> {
        let task = video_task::Entity::find_by_id(id)
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .filter(video_task::Column::ToolType.eq(""))
            .one(&self.db)
            .await?
            .ok_or_else(|| TaskError::Invalid(format!("{field}: task {id} does not exist")))?;
        if task.video_key.is_empty() {
            return Err(TaskError::Invalid(format!("{field}: task {id} has no video yet: make the video first")));
        }
        Ok(task)
    }

    async fn open_counts(&self, tenant: &str, ids: &[i64]) -> Result<BTreeMap<i64, i64>, TaskError> {
        // Counted in the database, as a contest's entries are: only the numbers come back.
        let counts: Vec<(i64, i64)> = market_request::Entity::find()
            .select_only()
            .column(market_request::Column::ServiceId)
            .column_as(Expr::col(market_request::Column::Id).count(), "n")
            .filter(market_request::Column::Tenant.eq(tenant))
            .filter(market_request::Column::ServiceId.is_in(ids.to_vec()))
            .filter(market_request::Column::State.eq(RequestState::Open.name()))
            .group_by(market_request::Column::ServiceId)
            .into_tuple()
            .all(&self.db)
            .await?;
        Ok(counts.into_iter().collect())
    }

    /// Services with their open request counts and card covers (the first sample with a cover).
    async fn shown(&self, viewer: &Owner, rows: Vec<market_service::Model>) -> Result<Vec<Service>, TaskError> {
        let counts = self.open_counts(&viewer.tenant, &rows.iter().map(|r| r.id).collect::<Vec<_>>()).await?;
        let mut services: Vec<Service> = rows.into_iter().map(|r| { let n = counts.get(&r.id).copied().unwrap_or(0); to_service(r, viewer, n) }).collect();
        let samples: Vec<i64> = services.iter().flat_map(|s| s.sample_task_ids.iter().copied()).collect();
        if samples.is_empty() {
            return Ok(services);
        }
        let covers: BTreeMap<(String, i64), String> = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(&viewer.tenant))
            .filter(video_task::Column::Id.is_in(samples))
            .filter(video_task::Column::CoverKey.ne(""))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|t| ((t.user_id, t.id), t.cover_key))
            .collect();
        for s in &mut services {
            if let Some((id, key)) = s.sample_task_ids.iter().find_map(|id| covers.get(&(s.provider_id.clone(), *id)).map(|k| (*id, k.clone()))) {
                s.cover_task_id = id;
                s.cover_key = key;
            }
        }
        Ok(services)
    }

    async fn one_shown(&self, viewer: &Owner, row: market_service::Model) -> Result<Service, TaskError> {
        let id = row.id;
        self.shown(viewer, vec![row]).await?.pop().ok_or_else(|| no_service("", id))
    }

    async fn titles(&self, tenant: &str, ids: Vec<i64>) -> Result<BTreeMap<i64, String>, TaskError> {
        let rows = market_service::Entity::find().filter(market_service::Column::Tenant.eq(tenant)).filter(market_service::Column::Id.is_in(ids)).all(&self.db).await?;
        Ok(rows.into_iter().map(|r| (r.id, r.title)).collect())
    }

    async fn requests_where(&self, viewer: &Owner, condition: Condition) -> Result<Vec<Request>, TaskError> {
        let rows = market_request::Entity::find()
            .filter(market_request::Column::Tenant.eq(&viewer.tenant))
            .filter(condition)
            .order_by_desc(market_request::Column::Id)
            .all(&self.db)
            .await?;
        let titles = self.titles(&viewer.tenant, rows.iter().map(|r| r.service_id).collect()).await?;
        Ok(rows.into_iter().map(|r| to_request(r, viewer, &titles)).collect())
    }

    /// The tenant's published services (of `kind`, or every kind), the last changed first.
    pub async fn services(&self, viewer: &Owner, kind: Option<ServiceKind>) -> Result<Vec<Service>, TaskError> {
        let mut query = market_service::Entity::find().filter(market_service::Column::Tenant.eq(&viewer.tenant)).filter(market_service::Column::Published.eq(true));
        if let Some(kind) = kind {
            query = query.filter(market_service::Column::Kind.eq(kind.name()));
        }
        let rows = query.order_by_desc(market_service::Column::UpdatedMs).order_by_desc(market_service::Column::Id).all(&self.db).await?;
        self.shown(viewer, rows).await
    }

    async fn service_row(&self, viewer: &Owner, id: i64, field: &str) -> Result<market_service::Model, TaskError> {
        let row = market_service::Entity::find_by_id(id)
            .filter(market_service::Column::Tenant.eq(&viewer.tenant))
            .one(&self.db)
            .await?
            .ok_or_else(|| no_service(field, id))?;
        // An unpublished service is its provider's own draft.
        if !row.published && row.provider_id != viewer.user_id {
            return Err(no_service(field, id));
        }
        Ok(row)
    }

    /// One service as the viewer sees it, with its samples (the provider's works that still have a
    /// video) and the viewer's own requests to it.
    pub async fn service(&self, viewer: &Owner, id: i64) -> Result<(Service, Vec<Sample>, Vec<Request>), TaskError> {
        let row = self.service_row(viewer, id, "").await?;
        let service = self.one_shown(viewer, row).await?;
        let tasks: BTreeMap<i64, video_task::Model> = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(&viewer.tenant))
            .filter(video_task::Column::UserId.eq(&service.provider_id))
            .filter(video_task::Column::Id.is_in(service.sample_task_ids.clone()))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|t| (t.id, t))
            .collect();
        let samples = service
            .sample_task_ids
            .iter()
            .filter_map(|id| tasks.get(id))
            .filter(|t| !t.video_key.is_empty())
            .map(|t| Sample { task_id: t.id, name: t.name.clone(), video_key: t.video_key.clone(), cover_key: t.cover_key.clone() })
            .collect();
        let mine = Condition::all().add(market_request::Column::ServiceId.eq(id)).add(market_request::Column::RequesterId.eq(&viewer.user_id));
        Ok((service, samples, self.requests_where(viewer, mine).await?))
    }

    /// The viewer's own services (any state), the requests to them and the viewer's own requests.
    pub async fn my_market(&self, viewer: &Owner) -> Result<(Vec<Service>, Vec<Request>, Vec<Request>), TaskError> {
        let rows = market_service::Entity::find()
            .filter(market_service::Column::Tenant.eq(&viewer.tenant))
            .filter(market_service::Column::ProviderId.eq(&viewer.user_id))
            .order_by_desc(market_service::Column::UpdatedMs)
            .order_by_desc(market_service::Column::Id)
            .all(&self.db)
            .await?;
        let services = self.shown(viewer, rows).await?;
        let received = self.requests_where(viewer, Condition::all().add(market_request::Column::ProviderId.eq(&viewer.user_id))).await?;
        let sent = self.requests_where(viewer, Condition::all().add(market_request::Column::RequesterId.eq(&viewer.user_id))).await?;
        Ok((services, received, sent))
    }

    /// Saves a provider's service (a new one unpublished); its samples are the provider's own
    /// rendered works.
    pub async fn save_service(&self, owner: &Owner, input: &ServiceInput) -> Result<Service, TaskError> {
        // Someone else's service is one that does not exist, whoever asks.
        let before = if input.id > 0 { Some(self.own_service(owner, input.id).await?) } else { None };
        self.require_provider(owner).await?;
        let checked = check_service(input)?;
        for id in &checked.sample_task_ids {
            self.rendered_work(owner, *id, "sampleTaskIds").await?;
        }
        let now = now_millis();
        let mut row = market_service::ActiveModel {
            tenant: Set(owner.tenant.clone()),
            provider_id: Set(owner.user_id.clone()),
            title: Set(checked.title),
            kind: Set(checked.kind.name().to_owned()),
            description: Set(checked.description),
            price: Set(checked.price),
            delivery_days: Set(checked.delivery_days),
            sample_task_ids: Set(join_ids(&checked.sample_task_ids)),
            updated_ms: Set(now),
            ..Default::default()
        };
        let saved = if let Some(before) = before {
            row.id = Set(before.id);
            row.update(&self.db).await?
        } else {
            row.published = Set(false);
            row.created_ms = Set(now);
            row.insert(&self.db).await?
        };
        self.one_shown(owner, saved).await
    }

    /// Publishes or withdraws a provider's own service.
    pub async fn publish_service(&self, owner: &Owner, id: i64, published: bool) -> Result<Service, TaskError> {
        let row = self.own_service(owner, id).await?;
        self.require_provider(owner).await?;
        let mut active: market_service::ActiveModel = row.into();
        active.published = Set(published);
        active.updated_ms = Set(now_millis());
        let saved = active.update(&self.db).await?;
        self.one_shown(owner, saved).await
    }

    /// The provider's own service `id` (a draft or published).
    async fn own_service(&self, owner: &Owner, id: i64) -> Result<market_service::Model, TaskError> {
        let row = self.service_row(owner, id, "id: ").await?;
        if row.provider_id != owner.user_id {
            return Err(no_service("id: ", id));
        }
        Ok(row)
    }

    /// Places the viewer's request with another provider's published service (one open at a time).
    pub async fn place_request(&self, owner: &Owner, service_id: i64, note: &str) -> Result<Request, TaskError> {
        let service = self.service_row(owner, service_id, "serviceId: ").await?;
        if !service.published {
            return Err(no_service("serviceId: ", service_id));
        }
        if service.provider_id == owner.user_id {
            return Err(TaskError::Invalid(format!("serviceId: service {service_id} is your own")));
        }
        let note = required_text("note", note, NOTE_MAX)?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let open = market_request::Entity::find()
            .filter(market_request::Column::ServiceId.eq(service_id))
            .filter(market_request::Column::RequesterId.eq(&owner.user_id))
            .filter(market_request::Column::State.eq(RequestState::Open.name()))
            .one(&txn)
            .await?;
        if let Some(r) = open {
            return Err(TaskError::Invalid(format!("serviceId: you already have an open request ({}) for service {service_id}", r.id)));
        }
        let now = now_millis();
        let row = market_request::ActiveModel {
            tenant: Set(owner.tenant.clone()),
            service_id: Set(service_id),
            requester_id: Set(owner.user_id.clone()),
            provider_id: Set(service.provider_id.clone()),
            note: Set(note),
            state: Set(RequestState::Open.name().to_owned()),
            reason: Set(String::new()),
            delivered_task_id: Set(0),
            created_ms: Set(now),
            updated_ms: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        Ok(to_request(row, owner, &BTreeMap::from([(service_id, service.title)])))
    }

    /// A request the viewer placed (`as_provider` false) or that was placed with their service.
    async fn request_row(&self, viewer: &Owner, id: i64, as_provider: bool) -> Result<market_request::Model, TaskError> {
        let row = market_request::Entity::find_by_id(id).filter(market_request::Column::Tenant.eq(&viewer.tenant)).one(&self.db).await?.ok_or_else(|| no_request(id))?;
        let who = if as_provider { &row.provider_id } else { &row.requester_id };
        if *who != viewer.user_id {
            return Err(no_request(id));
        }
        Ok(row)
    }

    async fn answered(&self, viewer: &Owner, row: market_request::Model) -> Result<Request, TaskError> {
        let titles = self.titles(&viewer.tenant, vec![row.service_id]).await?;
        Ok(to_request(row, viewer, &titles))
    }

    /// Moves an open request to `state` (with a decline's reason), only if it is still open.
    async fn close_request(&self, viewer: &Owner, row: market_request::Model, state: RequestState, reason: String, action: &str) -> Result<Request, TaskError> {
        RequestState::parse(&row.state).unwrap_or(RequestState::Open).require_open(row.id, action)?;
        let id = row.id;
        let changed = market_request::Entity::update_many()
            .col_expr(market_request::Column::State, Expr::value(state.name()))
            .col_expr(market_request::Column::Reason, Expr::value(reason))
            .col_expr(market_request::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(market_request::Column::Id.eq(id))
            .filter(market_request::Column::State.eq(RequestState::Open.name()))
            .exec(&self.db)
            .await?;
        let now = self.request_row(viewer, id, row.provider_id == viewer.user_id).await?;
        if changed.rows_affected == 0 {
            RequestState::parse(&now.state).unwrap_or(RequestState::Open).require_open(id, action)?;
        }
        self.answered(viewer, now).await
    }

    /// The requester takes back their open request.
    pub async fn withdraw_request(&self, owner: &Owner, id: i64) -> Result<Request, TaskError> {
        let row = self.request_row(owner, id, false).await?;
        self.close_request(owner, row, RequestState::Withdrawn, String::new(), "withdrawn").await
    }

    /// The provider declines an open request to their service, with a reason the requester sees.
    pub async fn decline_request(&self, owner: &Owner, id: i64, reason: &str) -> Result<Request, TaskError> {
        let row = self.request_row(owner, id, true).await?;
        let reason = required_text("reason", reason, REASON_MAX)?;
        self.close_request(owner, row, RequestState::Declined, reason, "declined").await
    }

    /// The provider answers an open request with one of their rendered works: it becomes a new work
    /// of the requester (the video and cover copied under the new task's keys, a blank document of
    /// the same size, since the provider's document names the provider's own materials), and the
    /// request is delivered, in one transaction with the copy.
    pub async fn deliver_request(&self, owner: &Owner, id: i64, task_id: i64, blob: &BlobStore) -> Result<Request, TaskError> {
        let row = self.request_row(owner, id, true).await?;
        RequestState::parse(&row.state).unwrap_or(RequestState::Open).require_open(id, "delivered")?;
        let work = self.rendered_work(owner, task_id, "taskId").await?;
        let requester = Owner { tenant: owner.tenant.clone(), user_id: row.requester_id.clone() };
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let still_open = market_request::Entity::find_by_id(id).filter(market_request::Column::State.eq(RequestState::Open.name())).one(&txn).await?;
        if still_open.is_none() {
            drop(txn);
            let now = self.request_row(owner, id, true).await?;
            RequestState::parse(&now.state).unwrap_or(RequestState::Open).require_open(id, "delivered")?;
            return Err(no_request(id));
        }
        let new_task = copy_work(&txn, &work, &requester, work.name.clone(), &format!("delivery-{id}"), blob).await?;
        let now = now_millis();
        let mut delivered: market_request::ActiveModel = row.into();
        delivered.state = Set(RequestState::Delivered.name().to_owned());
        delivered.delivered_task_id = Set(new_task);
        delivered.updated_ms = Set(now);
        let saved = delivered.update(&txn).await?;
        txn.commit().await?;
        self.answered(owner, saved).await
    }
}

/// Makes a rendered work a new work of `to` inside `txn`: a blank document of the same size (the
/// original's names its owner's materials) with the video and cover copied under the new task's keys
/// (`renders/{stem}.mp4|jpg`); returns the new task's id. A copy that fails removes what it wrote.
pub(super) async fn copy_work(
    txn: &sea_orm::DatabaseTransaction,
    work: &video_task::Model,
    to: &Owner,
    name: String,
    stem: &str,
    blob: &BlobStore,
) -> Result<i64, TaskError> {
    let now = now_millis();
    let task = video_task::ActiveModel {
        tenant: Set(to.tenant.clone()),
        user_id: Set(to.user_id.clone()),
        name: Set(name),
        task_info: Set(blank_rule(&work.task_info, &work.used_for)),
        status: Set(TaskStatus::Success.code()),
        size_category_id: Set(work.size_category_id),
        used_for: Set(work.used_for.clone()),
        video_key: Set(String::new()),
        cover_key: Set(String::new()),
        reason: Set(String::new()),
        percent: Set(100),
        created_ms: Set(now),
        updated_ms: Set(now),
        version: Set(1),
        duration_ms: Set(work.duration_ms),
        loudness: Set(work.loudness),
        template_id: Set(0),
        ..Default::default()
    }
    .insert(txn)
    .await?;
    let new_task = task.id;
    let base = format!("{}renders/{stem}", renders_prefix(&to.tenant, new_task));
    let video_key = format!("{base}.mp4");
    let cover_key = if work.cover_key.is_empty() { String::new() } else { format!("{base}.jpg") };
    let copied = async {
        blob.copy(&work.video_key, &video_key).await?;
        if !cover_key.is_empty() {
            blob.copy(&work.cover_key, &cover_key).await?;
        }
        Ok::<(), reelforge_kit::BlobError>(())
    }
    .await;
    if let Err(e) = copied {
        for key in [&video_key, &cover_key] {
            if !key.is_empty() {
                let _ = blob.delete(key).await;
            }
        }
        return Err(TaskError::Blob(e));
    }
    let mut keys: video_task::ActiveModel = task.into();
    keys.video_key = Set(video_key);
    keys.cover_key = Set(cover_key);
    keys.update(txn).await?;
    Ok(new_task)
}
