//! The enterprise calls of the task service (issue 30, the enterprise workspace): who acts, and
//! conversions between the wire and the domain.

use reelforge_kit::identity;
use reelforge_kit::status::to_status;
use reelforge_proto::task as pb;
use tonic::{Request, Status};

use crate::domain::Owner;
use crate::enterprise::{Actor, Enterprise, Member, Share};

/// The verified caller with their operator level (a service token has none, so it manages nothing).
pub(crate) fn actor<T>(req: &Request<T>) -> Result<Actor, Status> {
    let caller = identity::caller(req)?;
    let (tenant, user_id) = caller.owner().map_err(to_status)?;
    Ok(Actor { owner: Owner { tenant: tenant.to_owned(), user_id: user_id.to_owned() }, level: caller.level })
}

/// A member as the wire carries it.
pub(crate) fn member_to_pb(m: Member) -> pb::EnterpriseMember {
    pb::EnterpriseMember { enterprise_id: m.enterprise_id, user_id: m.user_id, added_by: m.added_by, added_ms: m.added_ms }
}

/// An enterprise as the wire carries it.
pub(crate) fn enterprise_to_pb(e: Enterprise) -> pb::Enterprise {
    pb::Enterprise {
        id: e.id,
        name: e.name,
        created_ms: e.created_ms,
        member_count: e.member_count,
        members: e.members.into_iter().map(member_to_pb).collect(),
    }
}

/// A share as the wire carries it.
pub(crate) fn share_to_pb(s: Share) -> pb::EnterpriseShareItem {
    pb::EnterpriseShareItem {
        kind: s.kind.name().to_owned(),
        id: s.id,
        item_id: s.item_id,
        name: s.name,
        media_kind: s.media_kind,
        shared_by: s.shared_by,
        shared_ms: s.shared_ms,
        mine: s.mine,
        video_key: s.video_key,
        cover_key: s.cover_key,
    }
}
