//! Collection rows (issue 29): a tenant's topics, cases and industries. Every query is scoped to
//! the viewer's tenant; managers change them (each change audited in the same transaction), users
//! see the published ones with their templates that are still approved.

use std::collections::BTreeMap;

use reelforge_kit::db::now_millis;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use super::TaskStore;
use super::entity::video_template;
use super::maintain::audit_row;
use super::template::{join_ids, split_ids, to_template};
use crate::collection::{Collection, CollectionCard, CollectionDetail, CollectionInput, CollectionKind, check_order};
use crate::domain::TaskError;
use crate::maintain::AuditInput;
use crate::template::{AuditState, Template, Viewer};

/// How many audit entries a collection's detail shows.
const TRAIL_MAX: u64 = 50;

/// One collection of a tenant.
pub(super) mod template_collection {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "template_collection")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub kind: String,
        pub name: String,
        #[sea_orm(column_type = "Text")]
        pub description: String,
        pub published: bool,
        pub position: i32,
        pub cover_template_id: i64,
        /// Comma-joined in order, with a comma at each end like a template's categories.
        #[sea_orm(column_type = "Text")]
        pub template_ids: String,
        pub updated_by: String,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

use template_collection::{ActiveModel, Column, Entity, Model};

fn to_collection(m: Model) -> Collection {
    Collection {
        id: m.id,
        kind: CollectionKind::parse(&m.kind).unwrap_or(CollectionKind::Topic),
        name: m.name,
        description: m.description,
        published: m.published,
        position: m.position,
        cover_template_id: m.cover_template_id,
        template_ids: split_ids(&m.template_ids),
        updated_by: m.updated_by,
        updated_ms: m.updated_ms,
    }
}

/// What the audit trail keeps of a collection: its name, state and templates.
fn summary(c: &Collection) -> String {
    let state = if c.published { "published" } else { "draft" };
    let ids: Vec<String> = c.template_ids.iter().map(ToString::to_string).collect();
    format!("{} ({state}): [{}]", c.name, ids.join(", "))
}

fn item(id: i64) -> String {
    format!("collection:{id}")
}

impl TaskStore {
    /// The tenant's templates among `ids`, by id.
    async fn templates_of(&self, tenant: &str, ids: impl IntoIterator<Item = i64>) -> Result<BTreeMap<i64, Template>, TaskError> {
        let ids: Vec<i64> = ids.into_iter().collect();
        if ids.is_empty() {
            return Ok(BTreeMap::new());
        }
        let rows = video_template::Entity::find()
            .filter(video_template::Column::Tenant.eq(tenant))
            .filter(video_template::Column::Id.is_in(ids))
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().map(|r| (r.id, to_template(r))).collect())
    }

    async fn collection_row(&self, tenant: &str, id: i64) -> Result<Model, TaskError> {
        Entity::find_by_id(id).filter(Column::Tenant.eq(tenant)).one(&self.db).await?.ok_or(TaskError::CollectionNotFound(id))
    }

    /// The tenant's collections of `kind` (none: every kind), by kind and position: every one for a
    /// manager (`manage`), the published ones for anybody else.
    pub async fn collections(&self, viewer: &Viewer, kind: Option<CollectionKind>, manage: bool) -> Result<Vec<CollectionCard>, TaskError> {
        if manage {
            viewer.require_manager()?;
        }
        let mut query = Entity::find().filter(Column::Tenant.eq(&viewer.owner.tenant));
        if let Some(kind) = kind {
            query = query.filter(Column::Kind.eq(kind.name()));
        }
        if !manage {
            query = query.filter(Column::Published.eq(true));
        }
        let rows = query.order_by_asc(Column::Kind).order_by_asc(Column::Position).order_by_asc(Column::Id).all(&self.db).await?;
        let collections: Vec<Collection> = rows.into_iter().map(to_collection).collect();
        let templates = self.templates_of(&viewer.owner.tenant, collections.iter().flat_map(|c| c.template_ids.iter().copied())).await?;
        Ok(collections.into_iter().map(|c| card(c, &templates)).collect())
    }

    /// One collection with its templates in order: for a manager (`manage`) any of the tenant's,
    /// with every template still there and the audit trail; for anybody else a published one with
    /// its approved templates.
    pub async fn collection(&self, viewer: &Viewer, id: i64, manage: bool) -> Result<CollectionDetail, TaskError> {
        if manage {
            viewer.require_manager()?;
        }
        let c = to_collection(self.collection_row(&viewer.owner.tenant, id).await?);
        if !manage && !c.published {
            return Err(TaskError::CollectionNotFound(id));
        }
        let mut found = self.templates_of(&viewer.owner.tenant, c.template_ids.iter().copied()).await?;
        let audit = if manage { self.audit_trail(&viewer.owner.tenant, &item(id), TRAIL_MAX).await? } else { Vec::new() };
        let card = card(c, &found);
        let templates = card
            .collection
            .template_ids
            .iter()
            .filter_map(|id| found.remove(id))
            .filter(|t| manage || t.audit == AuditState::Approved)
            .collect();
        Ok(CollectionDetail { card, templates, audit })
    }

    /// Creates a collection (unpublished, last of its kind) or replaces an existing one's name,
    /// description, templates and cover; each template must be one of the tenant's approved ones
    /// and the name new among the kind's.
    pub async fn save_collection(&self, viewer: &Viewer, input: CollectionInput) -> Result<CollectionDetail, TaskError> {
        viewer.require_manager()?;
        let tenant = viewer.owner.tenant.as_str();
        let input = input.checked()?;
        let existing = match input.id.filter(|id| *id > 0) {
            Some(id) => Some(to_collection(self.collection_row(tenant, id).await?)),
            None => None,
        };
        let kind = existing.as_ref().map_or(input.kind, |c| c.kind);
        let found = self.templates_of(tenant, input.template_ids.iter().copied()).await?;
        if let Some(id) = input.template_ids.iter().find(|id| found.get(id).is_none_or(|t| t.audit != AuditState::Approved)) {
            return Err(TaskError::Invalid(format!("templateIds: {id} is not an approved template")));
        }
        let namesake = Entity::find()
            .filter(Column::Tenant.eq(tenant))
            .filter(Column::Kind.eq(kind.name()))
            .filter(Column::Name.eq(&input.name))
            .one(&self.db)
            .await?;
        if namesake.is_some_and(|n| Some(n.id) != existing.as_ref().map(|c| c.id)) {
            return Err(TaskError::Invalid(format!("name: 「{}」 is already a {}", input.name, kind.name())));
        }
        let now = now_millis();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let row = ActiveModel {
            name: Set(input.name.clone()),
            description: Set(input.description.clone()),
            cover_template_id: Set(input.cover_template_id.unwrap_or(0)),
            template_ids: Set(join_ids(&input.template_ids)),
            updated_by: Set(viewer.owner.user_id.clone()),
            updated_ms: Set(now),
            ..Default::default()
        };
        let (saved, action, before) = match &existing {
            Some(c) => {
                let mut row = row;
                row.id = sea_orm::Unchanged(c.id);
                (row.update(&txn).await?, "collection.update", summary(c))
            }
            None => {
                let last = Entity::find()
                    .filter(Column::Tenant.eq(tenant))
                    .filter(Column::Kind.eq(kind.name()))
                    .order_by_desc(Column::Position)
                    .one(&txn)
                    .await?;
                let mut row = row;
                row.tenant = Set(tenant.to_owned());
                row.kind = Set(kind.name().to_owned());
                row.published = Set(false);
                row.position = Set(last.map_or(0, |l| l.position + 1));
                row.created_ms = Set(now);
                (row.insert(&txn).await?, "collection.create", String::new())
            }
        };
        let saved = to_collection(saved);
        let entry = AuditInput { actor: viewer.owner.user_id.clone(), action: action.into(), item: item(saved.id), before, after: summary(&saved) };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        self.collection(viewer, saved.id, true).await
    }

    /// Publishes or withdraws a collection; an empty one cannot be published.
    pub async fn publish_collection(&self, viewer: &Viewer, id: i64, published: bool) -> Result<CollectionDetail, TaskError> {
        viewer.require_manager()?;
        let tenant = viewer.owner.tenant.as_str();
        let before = to_collection(self.collection_row(tenant, id).await?);
        if published && before.template_ids.is_empty() {
            return Err(TaskError::Invalid("templateIds: a collection needs a template before it is published".into()));
        }
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let row = ActiveModel {
            id: sea_orm::Unchanged(id),
            published: Set(published),
            updated_by: Set(viewer.owner.user_id.clone()),
            updated_ms: Set(now_millis()),
            ..Default::default()
        };
        let after = to_collection(row.update(&txn).await?);
        let action = if published { "collection.publish" } else { "collection.withdraw" };
        let entry = AuditInput { actor: viewer.owner.user_id.clone(), action: action.into(), item: item(id), before: summary(&before), after: summary(&after) };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        self.collection(viewer, id, true).await
    }

    /// Puts the collections of `kind` in the order of `ids`, which names each of them once.
    pub async fn order_collections(&self, viewer: &Viewer, kind: CollectionKind, ids: &[i64]) -> Result<Vec<CollectionCard>, TaskError> {
        viewer.require_manager()?;
        let tenant = viewer.owner.tenant.as_str();
        let existing = Entity::find().filter(Column::Tenant.eq(tenant)).filter(Column::Kind.eq(kind.name())).order_by_asc(Column::Position).all(&self.db).await?;
        let before: Vec<i64> = existing.iter().map(|m| m.id).collect();
        check_order(kind, ids, &before)?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        for (position, id) in ids.iter().enumerate() {
            let row = ActiveModel { id: sea_orm::Unchanged(*id), position: Set(i32::try_from(position).unwrap_or(i32::MAX)), ..Default::default() };
            row.update(&txn).await?;
        }
        let text = |ids: &[i64]| ids.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let entry = AuditInput {
            actor: viewer.owner.user_id.clone(),
            action: "collection.order".into(),
            item: format!("collections:{}", kind.name()),
            before: text(&before),
            after: text(ids),
        };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        self.collections(viewer, Some(kind), true).await
    }

    /// Deletes a collection (its templates stay).
    pub async fn delete_collection(&self, viewer: &Viewer, id: i64) -> Result<(), TaskError> {
        viewer.require_manager()?;
        let tenant = viewer.owner.tenant.as_str();
        let before = to_collection(self.collection_row(tenant, id).await?);
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        Entity::delete_by_id(id).exec(&txn).await?;
        let entry = AuditInput { actor: viewer.owner.user_id.clone(), action: "collection.delete".into(), item: item(id), before: summary(&before), after: String::new() };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        Ok(())
    }
}

/// A collection with its cover and its count of approved templates, from the tenant's templates.
fn card(collection: Collection, templates: &BTreeMap<i64, Template>) -> CollectionCard {
    let approved = |id: &i64| templates.get(id).filter(|t| t.audit == AuditState::Approved);
    let cover = std::iter::once(collection.cover_template_id)
        .chain(collection.template_ids.iter().copied())
        .find_map(|id| approved(&id).filter(|t| !t.cover_key.is_empty()))
        .map(|t| (t.id, t.cover_key.clone()));
    let approved = collection.template_ids.iter().filter(|id| approved(id).is_some()).count();
    CollectionCard { collection, cover, approved }
}
