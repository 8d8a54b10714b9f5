//! Which outbox rows the relay publishes next: per-tenant fairness (issue 24). A tenant has at most
//! `cap` jobs in the queue (published, or being published, and not yet started); rows go out
//! round-robin across tenants, each tenant's oldest job first.

use std::collections::HashMap;

use reelforge_kit::db::now_millis;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait};

use super::entity::{render_job, render_outbox};
use super::{ACTIVE, JOB_QUEUED, OutboxEntry, TaskStore};
use crate::domain::TaskError;

/// How long a relay owns a row it claimed; a relay that dies mid-publish leaves the row due again
/// after this, so the job is published by another pass (at least once).
const CLAIM_MS: i64 = 30_000;

/// Outbox job ids of rows due now: neither claimed by a relay nor waiting out a backoff.
fn due_job_ids(now: i64) -> sea_orm::sea_query::SelectStatement {
    render_outbox::Entity::find()
        .select_only()
        .column(render_outbox::Column::JobId)
        .filter(render_outbox::Column::NextMs.lte(now))
        .into_query()
}

/// Deals `per_tenant` out one row per tenant per round, in the order the tenants are given.
fn round_robin(per_tenant: Vec<Vec<OutboxEntry>>, max: usize) -> Vec<OutboxEntry> {
    let mut lanes: Vec<_> = per_tenant.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    while out.len() < max {
        let before = out.len();
        out.extend(
            lanes
                .iter_mut()
                .filter_map(Iterator::next)
                .take(max - out.len()),
        );
        if out.len() == before {
            break;
        }
    }
    out
}

impl TaskStore {
    /// Returns up to `max` outbox rows to publish now: round-robin across tenants, oldest job first
    /// within each, and only while the tenant has fewer than `cap` jobs queued whose row is not due
    /// (sent, claimed or backing off). Rows of jobs no longer queued or running are dropped first.
    pub async fn outbox_fair(&self, cap: u32, max: u64) -> Result<Vec<OutboxEntry>, TaskError> {
        // A cancelled, ended or deleted job's row must never go out; cancel deletes its row, and
        // this catches rows left by older versions.
        let active = render_job::Entity::find()
            .select_only()
            .column(render_job::Column::Id)
            .filter(render_job::Column::State.is_in(ACTIVE))
            .into_query();
        render_outbox::Entity::delete_many()
            .filter(Expr::col(render_outbox::Column::JobId).not_in_subquery(active))
            .exec(&self.db)
            .await?;
        let now = now_millis();
        let in_queue: HashMap<String, i64> = render_job::Entity::find()
            .select_only()
            .column(render_job::Column::Tenant)
            .column_as(Expr::col(render_job::Column::Id).count(), "n")
            .filter(render_job::Column::State.eq(JOB_QUEUED))
            .filter(Expr::col(render_job::Column::Id).not_in_subquery(due_job_ids(now)))
            .group_by(render_job::Column::Tenant)
            .into_tuple::<(String, i64)>()
            .all(&self.db)
            .await?
            .into_iter()
            .collect();
        // Tenants with a due row, the one waiting longest first.
        let waiting: Vec<(String, i64)> = render_job::Entity::find()
            .select_only()
            .column(render_job::Column::Tenant)
            .column_as(Expr::col(render_job::Column::CreatedMs).min(), "oldest")
            .filter(render_job::Column::State.eq(JOB_QUEUED))
            .filter(Expr::col(render_job::Column::Id).in_subquery(due_job_ids(now)))
            .group_by(render_job::Column::Tenant)
            .order_by_asc(Expr::col(render_job::Column::CreatedMs).min())
            .into_tuple()
            .all(&self.db)
            .await?;
        let mut lanes = Vec::new();
        for (tenant, _) in waiting {
            let free = i64::from(cap) - in_queue.get(&tenant).copied().unwrap_or(0);
            if free <= 0 {
                continue;
            }
            let jobs: Vec<String> = render_job::Entity::find()
                .select_only()
                .column(render_job::Column::Id)
                .filter(render_job::Column::Tenant.eq(&tenant))
                .filter(render_job::Column::State.eq(JOB_QUEUED))
                .filter(Expr::col(render_job::Column::Id).in_subquery(due_job_ids(now)))
                .order_by_asc(render_job::Column::CreatedMs)
                .order_by_asc(render_job::Column::Id)
                .limit(Ord::min(u64::try_from(free).unwrap_or(0), max))
                .into_tuple()
                .all(&self.db)
                .await?;
            let rows = render_outbox::Entity::find()
                .filter(render_outbox::Column::JobId.is_in(jobs.iter().cloned()))
                .filter(render_outbox::Column::NextMs.lte(now))
                .all(&self.db)
                .await?;
            let lane: Vec<OutboxEntry> = jobs
                .iter()
                .filter_map(|j| rows.iter().find(|r| &r.job_id == j))
                .map(|r| OutboxEntry {
                    id: r.id.clone(),
                    body: r.body.clone(),
                    tries: u32::try_from(r.tries).unwrap_or(0),
                    due_ms: r.next_ms,
                })
                .collect();
            lanes.push(lane);
        }
        Ok(round_robin(
            lanes,
            usize::try_from(max).unwrap_or(usize::MAX),
        ))
    }

    /// Claims a row for this relay's publish (a compare-and-set on its due time); false when
    /// another relay took it first. A claimed row counts as in the queue until it is due again.
    pub async fn outbox_claim(&self, entry: &OutboxEntry) -> Result<bool, TaskError> {
        let claimed = render_outbox::Entity::update_many()
            .col_expr(
                render_outbox::Column::NextMs,
                Expr::value(now_millis() + CLAIM_MS),
            )
            .filter(render_outbox::Column::Id.eq(&entry.id))
            .filter(render_outbox::Column::NextMs.eq(entry.due_ms))
            .exec(&self.db)
            .await?;
        Ok(claimed.rows_affected > 0)
    }

    /// When the oldest render job queued and not yet started was queued (`None`: none waits).
    pub async fn oldest_queued_ms(&self) -> Result<Option<i64>, TaskError> {
        let oldest: Option<Option<i64>> = render_job::Entity::find()
            .select_only()
            .column_as(Expr::col(render_job::Column::CreatedMs).min(), "oldest")
            .filter(render_job::Column::State.eq(JOB_QUEUED))
            .into_tuple()
            .one(&self.db)
            .await?;
        Ok(oldest.flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str) -> OutboxEntry {
        OutboxEntry {
            id: id.into(),
            body: Vec::new(),
            tries: 0,
            due_ms: 0,
        }
    }

    #[test]
    fn round_robin_takes_one_per_tenant_per_round() {
        let lanes = vec![
            vec![entry("a1"), entry("a2"), entry("a3")],
            vec![entry("b1")],
            vec![entry("c1"), entry("c2")],
        ];
        let ids: Vec<String> = round_robin(lanes.clone(), 10)
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(ids, ["a1", "b1", "c1", "a2", "c2", "a3"]);
        let ids: Vec<String> = round_robin(lanes, 4).into_iter().map(|e| e.id).collect();
        assert_eq!(ids, ["a1", "b1", "c1", "a2"]);
    }
}
