//! The contest calls of the task service (issue 30): conversions between the wire and the domain.

use reelforge_proto::task as pb;

use crate::contest::{Contest, ContestInput, Entry};

/// A contest as the wire carries it, its state at `now_ms`.
pub(crate) fn contest_to_pb(c: Contest, now_ms: i64) -> pb::Contest {
    pb::Contest {
        state: c.state(now_ms).name().to_owned(),
        ranking: c.ranking.name().to_owned(),
        id: c.id,
        title: c.title,
        theme: c.theme,
        rules: c.rules,
        start_ms: c.start_ms,
        end_ms: c.end_ms,
        template_id: c.template_id,
        entry_count: c.entry_count,
    }
}

/// An entry as the wire carries it.
pub(crate) fn entry_to_pb(e: Entry) -> pb::ContestEntry {
    pb::ContestEntry {
        id: e.id,
        contest_id: e.contest_id,
        task_id: e.task_id,
        task_name: e.task_name,
        submitted_ms: e.submitted_ms,
        likes: e.likes,
        liked: e.liked,
        score: e.score,
        rank: e.rank,
        mine: e.mine,
        video_key: e.video_key,
        cover_key: e.cover_key,
    }
}

/// A save from the wire.
pub(crate) fn input_of(r: pb::SaveContestRequest) -> ContestInput {
    ContestInput { id: r.id, title: r.title, theme: r.theme, rules: r.rules, start_ms: r.start_ms, end_ms: r.end_ms, ranking: r.ranking, template_id: r.template_id }
}
