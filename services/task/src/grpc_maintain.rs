//! The maintenance area's calls of the task service (issue 29): administrators of the caller's
//! tenant only; every change is audited.

use reelforge_kit::identity;
use reelforge_kit::status::to_status;
use reelforge_proto::task as pb;
use tonic::{Request, Status};

use crate::domain::{Owner, TaskError, TaskStatus};
use crate::maintain::{AuditEntry, AuditInput, Farm, Setting, SettingKind, TaskSearch};
use crate::offer::{Catalogue, OfferItem};
use crate::store::TaskStore;

/// Default and largest page of the search.
const PAGE_DEFAULT: u64 = 20;
const PAGE_MAX: u64 = 100;
/// How many entries an audit trail answers.
const TRAIL_MAX: u64 = 200;

/// The administrator making the call: their tenant and user id.
pub(crate) fn administrator<T>(req: &Request<T>) -> Result<Owner, Status> {
    let caller = identity::caller(req)?;
    caller.require_admin().map_err(to_status)?;
    let (tenant, user_id) = caller.owner().map_err(to_status)?;
    Ok(Owner { tenant: tenant.to_owned(), user_id: user_id.to_owned() })
}

/// Parses the search's filters: an unknown status code names the field.
pub(crate) fn search_of(req: &pb::AdminSearchRequest) -> Result<(TaskSearch, u64, u64), Status> {
    let status = req
        .status
        .map(|c| TaskStatus::from_code(c).ok_or_else(|| to_status(TaskError::Invalid(format!("status: `{c}` is no task status")))))
        .transpose()?;
    let search = TaskSearch { task_id: (req.task_id > 0).then_some(req.task_id), user_id: Some(req.user_id.clone()), status };
    let page = req.page.unwrap_or_default();
    let size = match u64::from(page.page_size) {
        0 => PAGE_DEFAULT,
        n => n.min(PAGE_MAX),
    };
    Ok((search, u64::from(page.page_num.max(1)), size))
}

/// The audit entry an administrator records for an action of another service; each field is
/// required but the before and after.
pub(crate) fn audit_input(admin: &Owner, e: pb::AuditEntry) -> Result<AuditInput, Status> {
    for (name, value) in [("action", &e.action), ("item", &e.item)] {
        if value.trim().is_empty() {
            return Err(to_status(TaskError::Invalid(format!("{name}: required"))));
        }
    }
    Ok(AuditInput { actor: admin.user_id.clone(), action: e.action, item: e.item, before: e.before, after: e.after })
}

/// The tenant's audit trail of `item` (empty: all).
pub(crate) async fn trail(store: &TaskStore, admin: &Owner, item: &str) -> Result<pb::AuditList, Status> {
    let items = store.audit_trail(&admin.tenant, item.trim(), TRAIL_MAX).await.map_err(to_status)?;
    Ok(pb::AuditList { items: items.into_iter().map(audit_to_pb).collect() })
}

pub(crate) fn audit_to_pb(e: AuditEntry) -> pb::AuditEntry {
    pb::AuditEntry { actor: e.actor, action: e.action, item: e.item, before: e.before, after: e.after, at_ms: e.at_ms }
}

/// The farm as the wire carries it.
pub(crate) fn farm_to_pb(f: Farm) -> pb::FarmReply {
    pb::FarmReply { maintenance: f.maintenance, changed_by: f.changed_by, changed_ms: f.changed_ms, queued: f.queued, running: f.running }
}

/// A service's migration as the wire carries it.
pub(crate) fn migration_to_pb((service, m): (&'static str, reelforge_kit::db::MigrationState)) -> pb::ServiceMigration {
    pb::ServiceMigration { service: service.to_owned(), name: m.name, applied_ms: m.applied_at.map_or(0, |s| s.saturating_mul(1000)), known: m.known }
}

/// A setting as the wire carries it.
pub(crate) fn setting_to_pb(s: Setting) -> pb::Setting {
    let (kind, min, max) = match s.def.kind {
        SettingKind::Switch => ("switch", 0, 1),
        SettingKind::Number { min, max } => ("number", min, max),
    };
    pb::Setting { key: s.def.key.to_owned(), value: s.value, kind: kind.to_owned(), min, max, default_value: s.def.default.to_owned() }
}

/// An offer as the wire carries it.
pub(crate) fn offer_to_pb(catalogue: Catalogue, items: Vec<OfferItem>) -> pb::Offer {
    pb::Offer {
        catalogue: catalogue.name().to_owned(),
        items: items.into_iter().map(|o| pb::OfferItem { key: o.key, offered: o.offered }).collect(),
    }
}

/// An offer from the wire: its catalogue and entries (checked by the store).
pub(crate) fn offer_of(offer: pb::Offer) -> Result<(Catalogue, Vec<OfferItem>), Status> {
    let catalogue = Catalogue::parse(&offer.catalogue).map_err(to_status)?;
    Ok((catalogue, offer.items.into_iter().map(|o| OfferItem { key: o.key.trim().to_owned(), offered: o.offered }).collect()))
}
