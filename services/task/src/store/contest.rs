//! Contest rows (issue 30): contests, their entries and the entries' likes. Every query is scoped to
//! the viewer's tenant; a manager's save, score and delete are audited in the same transaction.

use std::collections::{BTreeMap, BTreeSet};

use reelforge_kit::db::now_millis;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use super::TaskStore;
use super::entity::{video_task, video_template};
use super::maintain::audit_row;
use crate::contest::{Contest, ContestInput, Entry, Ranking, arrange, check_input, check_score};
use crate::domain::{Owner, TaskError};
use crate::maintain::AuditInput;
use crate::template::Viewer;

/// A contest of a tenant.
pub(super) mod contest_row {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "contest")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub title: String,
        #[sea_orm(column_type = "Text")]
        pub theme: String,
        #[sea_orm(column_type = "Text")]
        pub rules: String,
        pub start_ms: i64,
        pub end_ms: i64,
        pub ranking: String,
        pub template_id: i64,
        pub updated_by: String,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A user's work entered in a contest (one per user per contest).
pub(super) mod contest_entry {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "contest_entry")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub contest_id: i64,
        pub task_id: i64,
        pub user_id: String,
        pub submitted_ms: i64,
        pub score: Option<i32>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A user's like of an entry (one per user per entry).
pub(super) mod contest_like {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "contest_like")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub entry_id: i64,
        pub user_id: String,
        pub at_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

fn to_contest(m: contest_row::Model, entry_count: i64) -> Contest {
    Contest {
        id: m.id,
        title: m.title,
        theme: m.theme,
        rules: m.rules,
        start_ms: m.start_ms,
        end_ms: m.end_ms,
        ranking: Ranking::parse(&m.ranking).unwrap_or(Ranking::Likes),
        template_id: m.template_id,
        entry_count,
    }
}

/// What the audit trail keeps of a contest.
fn summary(c: &Contest) -> String {
    format!("{} ({}, {}–{}, template {})", c.title, c.ranking.name(), crate::contest::clock(c.start_ms), crate::contest::clock(c.end_ms), c.template_id)
}

fn item(id: i64) -> String {
    format!("contest:{id}")
}

fn no_contest(field: &str, id: i64) -> TaskError {
    TaskError::Invalid(format!("{field}contest {id} does not exist"))
}

fn no_entry(id: i64) -> TaskError {
    TaskError::Invalid(format!("entryId: entry {id} does not exist"))
}

impl TaskStore {
    async fn contest_row(&self, tenant: &str, id: i64, field: &str) -> Result<Contest, TaskError> {
        let row = contest_row::Entity::find_by_id(id).filter(contest_row::Column::Tenant.eq(tenant)).one(&self.db).await?.ok_or_else(|| no_contest(field, id))?;
        let count = contest_entry::Entity::find().filter(contest_entry::Column::ContestId.eq(id)).count(&self.db).await?;
        Ok(to_contest(row, i64::try_from(count).unwrap_or(i64::MAX)))
    }

    async fn entry_row(&self, tenant: &str, id: i64) -> Result<contest_entry::Model, TaskError> {
        contest_entry::Entity::find_by_id(id).filter(contest_entry::Column::Tenant.eq(tenant)).one(&self.db).await?.ok_or_else(|| no_entry(id))
    }

    /// The tenant's contests, the newest start first, each with its number of entries.
    pub async fn contests(&self, tenant: &str) -> Result<Vec<Contest>, TaskError> {
        let rows = contest_row::Entity::find()
            .filter(contest_row::Column::Tenant.eq(tenant))
            .order_by_desc(contest_row::Column::StartMs)
            .order_by_desc(contest_row::Column::Id)
            .all(&self.db)
            .await?;
        let counts: Vec<(i64, i64)> = contest_entry::Entity::find()
            .select_only()
            .column(contest_entry::Column::ContestId)
            .column_as(Expr::col(contest_entry::Column::Id).count(), "n")
            .filter(contest_entry::Column::Tenant.eq(tenant))
            .group_by(contest_entry::Column::ContestId)
            .into_tuple()
            .all(&self.db)
            .await?;
        let counts: BTreeMap<i64, i64> = counts.into_iter().collect();
        Ok(rows.into_iter().map(|r| { let n = counts.get(&r.id).copied().unwrap_or(0); to_contest(r, n) }).collect())
    }

    /// One contest with its entries as `viewer` sees them at `now_ms` (`arrange`).
    pub async fn contest_detail(&self, viewer: &Owner, id: i64, now_ms: i64) -> Result<(Contest, Vec<Entry>), TaskError> {
        let c = self.contest_row(&viewer.tenant, id, "").await?;
        let rows = contest_entry::Entity::find().filter(contest_entry::Column::ContestId.eq(id)).filter(contest_entry::Column::Tenant.eq(&viewer.tenant)).all(&self.db).await?;
        let mut entries = self.entries_of(viewer, rows).await?;
        arrange(&mut entries, c.ranking, c.state(now_ms));
        Ok((c, entries))
    }

    /// Entries with their works' names and media, like counts and whether `viewer` liked each.
    async fn entries_of(&self, viewer: &Owner, rows: Vec<contest_entry::Model>) -> Result<Vec<Entry>, TaskError> {
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let tasks: BTreeMap<i64, video_task::Model> = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(&viewer.tenant))
            .filter(video_task::Column::Id.is_in(rows.iter().map(|r| r.task_id).collect::<Vec<_>>()))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|t| (t.id, t))
            .collect();
        let likes = contest_like::Entity::find().filter(contest_like::Column::EntryId.is_in(ids)).all(&self.db).await?;
        let mut counts: BTreeMap<i64, i64> = BTreeMap::new();
        let mut liked: BTreeSet<i64> = BTreeSet::new();
        for like in likes {
            *counts.entry(like.entry_id).or_default() += 1;
            if like.user_id == viewer.user_id {
                liked.insert(like.entry_id);
            }
        }
        Ok(rows
            .into_iter()
            .map(|r| {
                let task = tasks.get(&r.task_id);
                Entry {
                    id: r.id,
                    contest_id: r.contest_id,
                    task_id: r.task_id,
                    task_name: task.map(|t| t.name.clone()).unwrap_or_default(),
                    submitted_ms: r.submitted_ms,
                    likes: counts.get(&r.id).copied().unwrap_or(0),
                    liked: liked.contains(&r.id),
                    score: r.score,
                    rank: None,
                    mine: r.user_id == viewer.user_id,
                    video_key: task.map(|t| t.video_key.clone()).unwrap_or_default(),
                    cover_key: task.map(|t| t.cover_key.clone()).unwrap_or_default(),
                }
            })
            .collect())
    }

    async fn entry_of(&self, viewer: &Owner, row: contest_entry::Model) -> Result<Entry, TaskError> {
        self.entries_of(viewer, vec![row]).await?.pop().ok_or(TaskError::Invalid("entryId: the entry is gone".into()))
    }

    /// Opens or changes a contest (managers); its ranking stays once it has entries.
    pub async fn save_contest(&self, viewer: &Viewer, input: &ContestInput) -> Result<Contest, TaskError> {
        viewer.require_manager()?;
        let tenant = &viewer.owner.tenant;
        let (title, theme, rules, ranking) = check_input(input)?;
        if input.template_id > 0 {
            video_template::Entity::find_by_id(input.template_id)
                .filter(video_template::Column::Tenant.eq(tenant))
                .one(&self.db)
                .await?
                .ok_or_else(|| TaskError::Invalid(format!("templateId: template {} does not exist", input.template_id)))?;
        }
        let before = if input.id > 0 { Some(self.contest_row(tenant, input.id, "id: ").await?) } else { None };
        if let Some(b) = &before
            && b.ranking != ranking
            && b.entry_count > 0
        {
            return Err(TaskError::Invalid(format!("ranking: contest {} already has entries", b.id)));
        }
        let now = now_millis();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let mut row = contest_row::ActiveModel {
            tenant: Set(tenant.clone()),
            title: Set(title),
            theme: Set(theme),
            rules: Set(rules),
            start_ms: Set(input.start_ms),
            end_ms: Set(input.end_ms),
            ranking: Set(ranking.name().to_owned()),
            template_id: Set(input.template_id),
            updated_by: Set(viewer.owner.user_id.clone()),
            updated_ms: Set(now),
            ..Default::default()
        };
        let saved = if let Some(b) = &before {
            row.id = Set(b.id);
            row.update(&txn).await?
        } else {
            row.created_ms = Set(now);
            row.insert(&txn).await?
        };
        let after = to_contest(saved, before.as_ref().map_or(0, |b| b.entry_count));
        let entry = AuditInput {
            actor: viewer.owner.user_id.clone(),
            action: if before.is_some() { "contest.update" } else { "contest.create" }.into(),
            item: item(after.id),
            before: before.as_ref().map(summary).unwrap_or_default(),
            after: summary(&after),
        };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        Ok(after)
    }

    /// Deletes a contest without entries (managers).
    pub async fn delete_contest(&self, viewer: &Viewer, id: i64) -> Result<(), TaskError> {
        viewer.require_manager()?;
        let tenant = &viewer.owner.tenant;
        let c = self.contest_row(tenant, id, "id: ").await?;
        if c.entry_count > 0 {
            return Err(TaskError::Invalid(format!("id: contest {id} has {} entries; it can't be deleted", c.entry_count)));
        }
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        contest_row::Entity::delete_many().filter(contest_row::Column::Id.eq(id)).filter(contest_row::Column::Tenant.eq(tenant)).exec(&txn).await?;
        let entry = AuditInput { actor: viewer.owner.user_id.clone(), action: "contest.delete".into(), item: item(id), before: summary(&c), after: String::new() };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        Ok(())
    }

    /// Enters `owner`'s rendered work `task_id` in an open contest, once per contest.
    pub async fn submit_entry(&self, owner: &Owner, contest_id: i64, task_id: i64, now_ms: i64) -> Result<Entry, TaskError> {
        let c = self.contest_row(&owner.tenant, contest_id, "contestId: ").await?;
        c.require_open(now_ms, "contestId", "entries")?;
        let task = video_task::Entity::find_by_id(task_id)
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .filter(video_task::Column::ToolType.eq(""))
            .one(&self.db)
            .await?
            .ok_or_else(|| TaskError::Invalid(format!("taskId: task {task_id} does not exist")))?;
        if task.video_key.is_empty() {
            return Err(TaskError::Invalid(format!("taskId: task {task_id} has no video yet: make the video first")));
        }
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let already = contest_entry::Entity::find()
            .filter(contest_entry::Column::ContestId.eq(contest_id))
            .filter(contest_entry::Column::UserId.eq(&owner.user_id))
            .one(&txn)
            .await?;
        if let Some(e) = already {
            return Err(TaskError::Invalid(format!("contestId: you already entered contest {contest_id} (entry {}); withdraw it to enter another work", e.id)));
        }
        let row = contest_entry::ActiveModel {
            tenant: Set(owner.tenant.clone()),
            contest_id: Set(contest_id),
            task_id: Set(task_id),
            user_id: Set(owner.user_id.clone()),
            submitted_ms: Set(now_ms),
            score: Set(None),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        self.entry_of(owner, row).await
    }

    /// Takes `owner`'s entry out of its contest while it is open, with its likes.
    pub async fn withdraw_entry(&self, owner: &Owner, entry_id: i64, now_ms: i64) -> Result<(), TaskError> {
        let row = self.entry_row(&owner.tenant, entry_id).await?;
        if row.user_id != owner.user_id {
            return Err(no_entry(entry_id));
        }
        self.contest_row(&owner.tenant, row.contest_id, "entryId: ").await?.require_open(now_ms, "entryId", "withdrawals")?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        contest_like::Entity::delete_many().filter(contest_like::Column::EntryId.eq(entry_id)).exec(&txn).await?;
        contest_entry::Entity::delete_by_id(entry_id).exec(&txn).await?;
        txn.commit().await?;
        Ok(())
    }

    /// `owner` likes another user's entry of an open contest, once.
    pub async fn like_entry(&self, owner: &Owner, entry_id: i64, now_ms: i64) -> Result<Entry, TaskError> {
        let row = self.entry_row(&owner.tenant, entry_id).await?;
        if row.user_id == owner.user_id {
            return Err(TaskError::Invalid(format!("entryId: entry {entry_id} is your own")));
        }
        self.contest_row(&owner.tenant, row.contest_id, "entryId: ").await?.require_open(now_ms, "entryId", "likes")?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let already = contest_like::Entity::find()
            .filter(contest_like::Column::EntryId.eq(entry_id))
            .filter(contest_like::Column::UserId.eq(&owner.user_id))
            .count(&txn)
            .await?;
        if already > 0 {
            return Err(TaskError::Invalid(format!("entryId: you already liked entry {entry_id}")));
        }
        contest_like::ActiveModel {
            tenant: Set(owner.tenant.clone()),
            entry_id: Set(entry_id),
            user_id: Set(owner.user_id.clone()),
            at_ms: Set(now_ms),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        self.entry_of(owner, row).await
    }

    /// A judge's score of an entry of a contest ranked by scores (managers), audited.
    pub async fn score_entry(&self, viewer: &Viewer, entry_id: i64, score: i32) -> Result<Entry, TaskError> {
        viewer.require_manager()?;
        let tenant = &viewer.owner.tenant;
        let score = check_score(score)?;
        let row = self.entry_row(tenant, entry_id).await?;
        let c = self.contest_row(tenant, row.contest_id, "entryId: ").await?;
        if c.ranking != Ranking::Scores {
            return Err(TaskError::Invalid(format!("entryId: contest {} is ranked by likes", c.id)));
        }
        let before = row.score.map(|s| s.to_string()).unwrap_or_default();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let mut active: contest_entry::ActiveModel = row.into();
        active.score = Set(Some(score));
        let row = active.update(&txn).await?;
        let entry = AuditInput { actor: viewer.owner.user_id.clone(), action: "contest.score".into(), item: format!("contest-entry:{entry_id}"), before, after: score.to_string() };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        self.entry_of(&viewer.owner, row).await
    }
}
