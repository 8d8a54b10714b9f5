//! The collection calls of the task service (issue 29) as the wire carries them.

use reelforge_kit::status::to_status;
use reelforge_proto::task as pb;
use tonic::Status;

use crate::collection::{CollectionCard, CollectionDetail, CollectionInput, CollectionKind};
use crate::grpc::template_to_pb;
use crate::grpc_maintain::audit_to_pb;

/// The kind a list asks for: empty is every kind.
pub(crate) fn kind_filter(kind: &str) -> Result<Option<CollectionKind>, Status> {
    if kind.trim().is_empty() { Ok(None) } else { CollectionKind::parse(kind).map(Some).map_err(to_status) }
}

/// A manager's save as the store takes it.
pub(crate) fn input_of(req: pb::SaveCollectionRequest) -> Result<CollectionInput, Status> {
    Ok(CollectionInput {
        id: (req.id > 0).then_some(req.id),
        kind: CollectionKind::parse(&req.kind).map_err(to_status)?,
        name: req.name,
        description: req.description,
        template_ids: req.template_ids,
        cover_template_id: (req.cover_template_id > 0).then_some(req.cover_template_id),
    })
}

/// A collection of a list: no templates, no audit trail.
pub(crate) fn card_to_pb(card: CollectionCard) -> pb::Collection {
    let c = card.collection;
    let (cover_template_id, cover_key) = card.cover.unwrap_or((c.cover_template_id, String::new()));
    pb::Collection {
        id: c.id,
        kind: c.kind.name().to_owned(),
        name: c.name,
        description: c.description,
        published: c.published,
        position: c.position,
        cover_template_id,
        cover_key,
        template_ids: c.template_ids,
        template_count: u32::try_from(card.approved).unwrap_or(u32::MAX),
        updated_by: c.updated_by,
        updated_ms: c.updated_ms,
        templates: Vec::new(),
        audit: Vec::new(),
    }
}

/// A collection with its templates and audit trail.
pub(crate) fn detail_to_pb(d: CollectionDetail) -> pb::Collection {
    pb::Collection {
        templates: d.templates.into_iter().map(|t| template_to_pb(t, false)).collect(),
        audit: d.audit.into_iter().map(audit_to_pb).collect(),
        ..card_to_pb(d.card)
    }
}

/// A list of collections.
pub(crate) fn list_to_pb(cards: Vec<CollectionCard>) -> pb::CollectionList {
    pb::CollectionList { items: cards.into_iter().map(card_to_pb).collect() }
}
