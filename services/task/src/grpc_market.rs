//! The marketplace calls of the task service (issue 30): conversions between the wire and the domain.

use reelforge_proto::task as pb;

use crate::market::{Request, Sample, Service, ServiceInput, ServiceKind};
use crate::domain::TaskError;

/// A service as the wire carries it.
pub(crate) fn service_to_pb(s: Service) -> pb::MarketService {
    pb::MarketService {
        kind: s.kind.name().to_owned(),
        id: s.id,
        title: s.title,
        description: s.description,
        price: s.price,
        delivery_days: s.delivery_days,
        sample_task_ids: s.sample_task_ids,
        published: s.published,
        mine: s.mine,
        open_requests: s.open_requests,
        updated_ms: s.updated_ms,
        cover_task_id: s.cover_task_id,
        cover_key: s.cover_key,
    }
}

/// A sample as the wire carries it.
pub(crate) fn sample_to_pb(s: Sample) -> pb::ServiceSample {
    pb::ServiceSample { task_id: s.task_id, name: s.name, video_key: s.video_key, cover_key: s.cover_key }
}

/// A request as the wire carries it.
pub(crate) fn request_to_pb(r: Request) -> pb::MarketRequest {
    pb::MarketRequest {
        state: r.state.name().to_owned(),
        id: r.id,
        service_id: r.service_id,
        service_title: r.service_title,
        note: r.note,
        reason: r.reason,
        delivered_task_id: r.delivered_task_id,
        mine: r.mine,
        created_ms: r.created_ms,
        updated_ms: r.updated_ms,
    }
}

/// A kind filter from the wire: empty for every kind.
pub(crate) fn kind_filter(kind: &str) -> Result<Option<ServiceKind>, TaskError> {
    if kind.trim().is_empty() { Ok(None) } else { ServiceKind::parse(kind).map(Some) }
}

/// A save from the wire.
pub(crate) fn input_of(r: pb::SaveServiceRequest) -> ServiceInput {
    ServiceInput { id: r.id, title: r.title, kind: r.kind, description: r.description, price: r.price, delivery_days: r.delivery_days, sample_task_ids: r.sample_task_ids }
}
