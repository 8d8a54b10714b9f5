//! Enterprise rows (issue 30, the enterprise workspace): enterprises, their members and what members
//! share with them. Every query is scoped to the caller's tenant and, for shares and members, to the
//! caller's own enterprise unless the caller is an administrator (operator level 0). Another
//! enterprise's share or member reads as one that does not exist.

use std::collections::BTreeMap;

use reelforge_kit::BlobStore;
use reelforge_kit::db::now_millis;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use super::entity::video_task;
use super::market::copy_work;
use super::{TaskStore, copy_name};
use crate::domain::{Owner, TaskError};
use crate::enterprise::{Actor, Enterprise, Member, Share, ShareKind, Space, check_name, work_id};

/// An enterprise of a tenant.
pub(super) mod enterprise_row {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "enterprise")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub name: String,
        pub created_by: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A user's membership (one enterprise per user of a tenant).
pub(super) mod enterprise_member {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "enterprise_member")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub enterprise_id: i64,
        pub user_id: String,
        pub added_by: String,
        pub added_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A work or material a member shared (each once per enterprise).
pub(super) mod enterprise_share {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "enterprise_share")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub enterprise_id: i64,
        pub kind: String,
        pub item_id: String,
        pub name: String,
        pub media_kind: String,
        pub user_id: String,
        pub video_key: String,
        pub cover_key: String,
        pub shared_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

fn to_member(m: enterprise_member::Model) -> Member {
    Member { enterprise_id: m.enterprise_id, user_id: m.user_id, added_by: m.added_by, added_ms: m.added_ms }
}

fn to_share(m: enterprise_share::Model, viewer: &str) -> Share {
    Share {
        kind: ShareKind::parse(&m.kind).unwrap_or(ShareKind::Work),
        mine: m.user_id == viewer,
        id: m.id,
        item_id: m.item_id,
        name: m.name,
        media_kind: m.media_kind,
        shared_by: m.user_id,
        shared_ms: m.shared_ms,
        video_key: m.video_key,
        cover_key: m.cover_key,
    }
}

fn not_in_one() -> TaskError {
    TaskError::Invalid("you are not in an enterprise: ask your enterprise administrator to add you".into())
}

fn no_share(id: i64) -> TaskError {
    TaskError::Invalid(format!("shareId: share {id} does not exist"))
}

fn no_enterprise(field: &str, id: i64) -> TaskError {
    TaskError::Invalid(format!("{field}: enterprise {id} does not exist"))
}

impl TaskStore {
    /// The membership of `owner`, if they are in an enterprise.
    async fn membership(&self, owner: &Owner) -> Result<Option<enterprise_member::Model>, TaskError> {
        Ok(enterprise_member::Entity::find()
            .filter(enterprise_member::Column::Tenant.eq(&owner.tenant))
            .filter(enterprise_member::Column::UserId.eq(&owner.user_id))
            .one(&self.db)
            .await?)
    }

    /// Enterprise `id` of `tenant`; `field` names the id when there is none.
    async fn enterprise_row(&self, tenant: &str, id: i64, field: &str) -> Result<enterprise_row::Model, TaskError> {
        enterprise_row::Entity::find_by_id(id).filter(enterprise_row::Column::Tenant.eq(tenant)).one(&self.db).await?.ok_or_else(|| no_enterprise(field, id))
    }

    async fn members_of(&self, tenant: &str, ids: &[i64]) -> Result<Vec<enterprise_member::Model>, TaskError> {
        Ok(enterprise_member::Entity::find()
            .filter(enterprise_member::Column::Tenant.eq(tenant))
            .filter(enterprise_member::Column::EnterpriseId.is_in(ids.to_vec()))
            .order_by_asc(enterprise_member::Column::AddedMs)
            .order_by_asc(enterprise_member::Column::Id)
            .all(&self.db)
            .await?)
    }

    /// Enterprises with their member counts, and their members when `with_members`.
    async fn enterprises_of(&self, tenant: &str, rows: Vec<enterprise_row::Model>, with_members: bool) -> Result<Vec<Enterprise>, TaskError> {
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut by_enterprise: BTreeMap<i64, Vec<Member>> = BTreeMap::new();
        for m in self.members_of(tenant, &ids).await? {
            by_enterprise.entry(m.enterprise_id).or_default().push(to_member(m));
        }
        Ok(rows
            .into_iter()
            .map(|r| {
                let members = by_enterprise.remove(&r.id).unwrap_or_default();
                Enterprise {
                    member_count: members.len() as i64,
                    members: if with_members { members } else { Vec::new() },
                    id: r.id,
                    name: r.name,
                    created_ms: r.created_ms,
                }
            })
            .collect())
    }

    /// The enterprise `actor` may manage: any of the tenant's for an administrator naming one,
    /// otherwise the enterprise administrator's own (`enterprise_id` 0 or its id). An enterprise the
    /// caller is not in reads as one that does not exist; `field` names the id in refusals.
    async fn managed_enterprise(&self, actor: &Actor, enterprise_id: i64, field: &str) -> Result<enterprise_row::Model, TaskError> {
        let tenant = &actor.owner.tenant;
        if actor.is_manager() && enterprise_id > 0 {
            return self.enterprise_row(tenant, enterprise_id, field).await;
        }
        match self.membership(&actor.owner).await? {
            Some(m) if enterprise_id == 0 || enterprise_id == m.enterprise_id => {
                if !actor.is_enterprise_admin() {
                    return Err(TaskError::Forbidden("enterprise administrator (operator level 2)"));
                }
                self.enterprise_row(tenant, m.enterprise_id, field).await
            }
            _ if enterprise_id > 0 => Err(no_enterprise(field, enterprise_id)),
            _ if actor.is_manager() => Err(TaskError::Invalid(format!("{field}: required"))),
            _ => Err(not_in_one()),
        }
    }

    /// The workspace as `actor` sees it: their enterprise, its shares (a shared work whose task was
    /// deleted is left out; its video and cover as the task has them now) and, for an enterprise
    /// administrator, its members. No enterprise: an empty space.
    pub async fn enterprise_space(&self, actor: &Actor) -> Result<Space, TaskError> {
        let Some(member) = self.membership(&actor.owner).await? else { return Ok(Space::default()) };
        let tenant = &actor.owner.tenant;
        let admin = actor.is_enterprise_admin();
        let row = self.enterprise_row(tenant, member.enterprise_id, "enterpriseId").await?;
        let enterprise = self.enterprises_of(tenant, vec![row], admin).await?.pop();
        let rows = enterprise_share::Entity::find()
            .filter(enterprise_share::Column::Tenant.eq(tenant))
            .filter(enterprise_share::Column::EnterpriseId.eq(member.enterprise_id))
            .order_by_desc(enterprise_share::Column::SharedMs)
            .order_by_desc(enterprise_share::Column::Id)
            .all(&self.db)
            .await?;
        let task_ids: Vec<i64> = rows.iter().filter(|r| r.kind == ShareKind::Work.name()).filter_map(|r| r.item_id.parse().ok()).collect();
        let tasks: BTreeMap<i64, video_task::Model> = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(tenant))
            .filter(video_task::Column::Id.is_in(task_ids))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|t| (t.id, t))
            .collect();
        let mut shares = Vec::with_capacity(rows.len());
        for mut r in rows {
            if r.kind == ShareKind::Work.name() {
                let live = r.item_id.parse::<i64>().ok().and_then(|id| tasks.get(&id)).filter(|t| t.user_id == r.user_id && !t.video_key.is_empty());
                let Some(task) = live else { continue };
                r.name = task.name.clone();
                r.video_key = task.video_key.clone();
                r.cover_key = task.cover_key.clone();
            }
            shares.push(to_share(r, &actor.owner.user_id));
        }
        Ok(Space { enterprise, admin, shares })
    }

    /// A member shares one of their rendered works or their own materials with their enterprise;
    /// another user's item reads as one that does not exist, and a second share of it is refused.
    pub async fn enterprise_share(&self, actor: &Actor, kind: &str, item_id: &str) -> Result<Share, TaskError> {
        let kind = ShareKind::parse(kind)?;
        let owner = &actor.owner;
        let (item_id, name, media_kind, video_key, cover_key) = match kind {
            ShareKind::Work => {
                let work = self.rendered_work(owner, work_id(item_id)?, "itemId").await?;
                (work.id.to_string(), work.name, "video".to_owned(), work.video_key, work.cover_key)
            }
            ShareKind::Material => {
                let m = self
                    .library
                    .own_material(owner, item_id)
                    .await?
                    .ok_or_else(|| TaskError::Invalid(format!("itemId: material {} is not one of your materials, or was deleted", item_id.trim())))?;
                // The preview plays a video's original; any other kind shows its cover only.
                let video_key = if m.kind == "video" { m.video_key } else { String::new() };
                (m.id, m.name, m.kind, video_key, m.cover_key)
            }
        };
        let member = self.membership(owner).await?.ok_or_else(not_in_one)?;
        let already = enterprise_share::Entity::find()
            .filter(enterprise_share::Column::Tenant.eq(&owner.tenant))
            .filter(enterprise_share::Column::EnterpriseId.eq(member.enterprise_id))
            .filter(enterprise_share::Column::Kind.eq(kind.name()))
            .filter(enterprise_share::Column::ItemId.eq(&item_id))
            .one(&self.db)
            .await?;
        if already.is_some() {
            return Err(TaskError::Invalid(format!("itemId: this {} is already shared with your enterprise", kind.name())));
        }
        let row = enterprise_share::ActiveModel {
            tenant: Set(owner.tenant.clone()),
            enterprise_id: Set(member.enterprise_id),
            kind: Set(kind.name().to_owned()),
            item_id: Set(item_id),
            name: Set(name),
            media_kind: Set(media_kind),
            user_id: Set(owner.user_id.clone()),
            video_key: Set(video_key),
            cover_key: Set(cover_key),
            shared_ms: Set(now_millis()),
            ..Default::default()
        }
        .insert(&self.db)
        .await?;
        Ok(to_share(row, &owner.user_id))
    }

    /// A share of the caller's enterprise; another enterprise's (or tenant's) reads as none.
    async fn own_enterprise_share(&self, actor: &Actor, id: i64) -> Result<enterprise_share::Model, TaskError> {
        let member = self.membership(&actor.owner).await?.ok_or_else(|| no_share(id))?;
        enterprise_share::Entity::find_by_id(id)
            .filter(enterprise_share::Column::Tenant.eq(&actor.owner.tenant))
            .filter(enterprise_share::Column::EnterpriseId.eq(member.enterprise_id))
            .one(&self.db)
            .await?
            .ok_or_else(|| no_share(id))
    }

    /// The sharer, or an enterprise administrator of the share's enterprise, takes it out.
    pub async fn enterprise_unshare(&self, actor: &Actor, id: i64) -> Result<(), TaskError> {
        let share = self.own_enterprise_share(actor, id).await?;
        if share.user_id != actor.owner.user_id && !actor.is_enterprise_admin() {
            return Err(TaskError::Forbidden("enterprise administrator (operator level 2), or the sharer's"));
        }
        enterprise_share::Entity::delete_by_id(share.id).exec(&self.db).await?;
        Ok(())
    }

    /// A member copies a shared work into their own works (named "{name} 副本"): the sharer's row
    /// is only read. Returns the new task's id.
    pub async fn enterprise_copy(&self, actor: &Actor, id: i64, blob: &BlobStore) -> Result<i64, TaskError> {
        let share = self.own_enterprise_share(actor, id).await?;
        if share.kind != ShareKind::Work.name() {
            return Err(TaskError::Invalid(format!("shareId: share {id} is a material, not a work")));
        }
        let sharer = Owner { tenant: share.tenant.clone(), user_id: share.user_id.clone() };
        let work = self.rendered_work(&sharer, work_id(&share.item_id)?, "shareId").await.map_err(|e| match e {
            TaskError::Invalid(_) => TaskError::Invalid(format!("shareId: the work of share {id} was deleted")),
            other => other,
        })?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let new_task = copy_work(&txn, &work, &actor.owner, copy_name(&work.name), &format!("enterprise-share-{id}"), blob).await?;
        txn.commit().await?;
        Ok(new_task)
    }

    /// Adds a user of the tenant (by account or mobile number) to an enterprise the actor manages;
    /// a user of another tenant is not found, and a user already in an enterprise is refused.
    pub async fn enterprise_add_member(&self, actor: &Actor, enterprise_id: i64, named: &str) -> Result<Member, TaskError> {
        let enterprise = self.managed_enterprise(actor, enterprise_id, "enterpriseId").await?;
        let named = named.trim();
        if named.is_empty() {
            return Err(TaskError::Invalid("userId: required (an account or a mobile number)".into()));
        }
        let person = self
            .directory
            .user_of(&actor.owner.tenant, named)
            .await?
            .ok_or_else(|| TaskError::Invalid(format!("userId: no user `{named}` here (an account or a mobile number of this platform)")))?;
        if person.disabled {
            return Err(TaskError::Invalid(format!("userId: user {} is disabled", person.user_id)));
        }
        let who = Owner { tenant: actor.owner.tenant.clone(), user_id: person.user_id.clone() };
        if let Some(m) = self.membership(&who).await? {
            let name = if m.enterprise_id == enterprise.id { enterprise.name.clone() } else { "another enterprise".to_owned() };
            return Err(TaskError::Invalid(format!("userId: {} is already a member of {name}", person.user_id)));
        }
        let row = enterprise_member::ActiveModel {
            tenant: Set(actor.owner.tenant.clone()),
            enterprise_id: Set(enterprise.id),
            user_id: Set(person.user_id),
            added_by: Set(actor.owner.user_id.clone()),
            added_ms: Set(now_millis()),
            ..Default::default()
        }
        .insert(&self.db)
        .await?;
        Ok(to_member(row))
    }

    /// Removes a member from an enterprise the actor manages, with everything they shared with it.
    pub async fn enterprise_remove_member(&self, actor: &Actor, enterprise_id: i64, user_id: &str) -> Result<(), TaskError> {
        let enterprise = self.managed_enterprise(actor, enterprise_id, "enterpriseId").await?;
        let user_id = user_id.trim();
        let member = enterprise_member::Entity::find()
            .filter(enterprise_member::Column::Tenant.eq(&actor.owner.tenant))
            .filter(enterprise_member::Column::EnterpriseId.eq(enterprise.id))
            .filter(enterprise_member::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
            .ok_or_else(|| TaskError::Invalid(format!("userId: {user_id} is not a member of {}", enterprise.name)))?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        enterprise_share::Entity::delete_many()
            .filter(enterprise_share::Column::Tenant.eq(&actor.owner.tenant))
            .filter(enterprise_share::Column::EnterpriseId.eq(enterprise.id))
            .filter(enterprise_share::Column::UserId.eq(user_id))
            .exec(&txn)
            .await?;
        enterprise_member::Entity::delete_by_id(member.id).exec(&txn).await?;
        txn.commit().await?;
        Ok(())
    }

    /// The tenant's enterprises with their members, the oldest first (administrators).
    pub async fn enterprises(&self, actor: &Actor) -> Result<Vec<Enterprise>, TaskError> {
        actor.require_manager()?;
        let tenant = &actor.owner.tenant;
        let rows = enterprise_row::Entity::find().filter(enterprise_row::Column::Tenant.eq(tenant)).order_by_asc(enterprise_row::Column::Id).all(&self.db).await?;
        self.enterprises_of(tenant, rows, true).await
    }

    /// Creates (`id` 0) or renames an enterprise of the tenant (administrators); names are unique
    /// within a tenant.
    pub async fn enterprise_save(&self, actor: &Actor, id: i64, name: &str) -> Result<Enterprise, TaskError> {
        actor.require_manager()?;
        let name = check_name(name)?;
        let tenant = &actor.owner.tenant;
        let taken = enterprise_row::Entity::find()
            .filter(enterprise_row::Column::Tenant.eq(tenant))
            .filter(enterprise_row::Column::Name.eq(name.as_str()))
            .filter(enterprise_row::Column::Id.ne(id))
            .select_only()
            .column(enterprise_row::Column::Id)
            .into_tuple::<i64>()
            .one(&self.db)
            .await?;
        if taken.is_some() {
            return Err(TaskError::Invalid(format!("name: an enterprise named {name} exists")));
        }
        let row = if id > 0 {
            let mut row: enterprise_row::ActiveModel = self.enterprise_row(tenant, id, "id").await?.into();
            row.name = Set(name);
            row.update(&self.db).await?
        } else {
            enterprise_row::ActiveModel {
                tenant: Set(tenant.clone()),
                name: Set(name),
                created_by: Set(actor.owner.user_id.clone()),
                created_ms: Set(now_millis()),
                ..Default::default()
            }
            .insert(&self.db)
            .await?
        };
        self.enterprises_of(tenant, vec![row], true).await?.pop().ok_or_else(|| no_enterprise("id", id))
    }
}
