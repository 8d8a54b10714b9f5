//! Contests (issue 30): `/contest/list`, `/contest/{id}`, `/contest/submit|withdraw|like`, the works'
//! media (`/contest/media/{entryId}/{part}`), and for template managers `/manage/contest/save|score|delete`.
//! The task service keeps the rows and decides who may; the gateway signs the entries' media.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use super::maintain_task::time;
use super::template::{PreviewQuery, Previews, serve_preview};
use crate::caller::Caller;
use crate::media::PreviewOf;
use crate::{ApiError, AppState, body, caller, envelope};

/// A contest as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContestDto {
    id: i64,
    title: String,
    theme: String,
    rules: String,
    start_ms: i64,
    end_ms: i64,
    start_time: String,
    end_time: String,
    /// likes or scores.
    ranking: String,
    /// upcoming, open or closed (by the server's clock).
    state: String,
    /// The template to start from (0: none).
    template_id: i64,
    entry_count: i64,
}

fn contest_dto(c: pb::Contest) -> ContestDto {
    ContestDto {
        start_time: time(c.start_ms),
        end_time: time(c.end_ms),
        id: c.id,
        title: c.title,
        theme: c.theme,
        rules: c.rules,
        start_ms: c.start_ms,
        end_ms: c.end_ms,
        ranking: c.ranking,
        state: c.state,
        template_id: c.template_id,
        entry_count: c.entry_count,
    }
}

/// An entry as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryDto {
    id: i64,
    contest_id: i64,
    task_id: i64,
    task_name: String,
    submitted_ms: i64,
    likes: i64,
    /// The caller liked it.
    liked: bool,
    /// The judges' score (scores contests).
    score: Option<i32>,
    /// Its place once the contest is closed (ties share one).
    rank: Option<u32>,
    /// The caller's own entry.
    mine: bool,
    /// Signed same-origin addresses ("" when the work has none).
    cover_url: String,
    video_url: String,
}

fn entry_dto(e: pb::ContestEntry, previews: &Previews<'_>) -> Result<EntryDto, ApiError> {
    let (cover_url, video_url) = previews.urls_of(PreviewOf::ContestEntry, e.id, &e.video_key, &e.cover_key)?;
    Ok(EntryDto {
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
        cover_url,
        video_url,
    })
}

/// A contest with its entries.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContestDetailDto {
    contest: ContestDto,
    /// Closed: in rank order; otherwise the newest first.
    entries: Vec<EntryDto>,
}

fn entry_answer(state: &AppState, caller: &Caller, e: pb::ContestEntry, msg: &str) -> Result<HttpResponse, ApiError> {
    Ok(envelope::ok_with(entry_dto(e, &Previews::of(state, caller))?, msg))
}

fn contest_id(value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{value}` is not a contest id")))
}

/// The tenant's contests, the newest start first.
#[utoipa::path(get, path = "/diyvrbt/contest/list", responses((status = 200, body = [ContestDto])))]
pub async fn list(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().list_contests(caller.request(pb::ContestListRequest {})?).await?.into_inner();
    Ok(envelope::ok(r.items.into_iter().map(contest_dto).collect::<Vec<_>>()))
}

/// One contest with its entries (ranked once it is closed).
#[utoipa::path(get, path = "/diyvrbt/contest/{id}", params(("id" = i64, Path)), responses((status = 200, body = ContestDetailDto)))]
pub async fn detail(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let id = contest_id(&id)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().get_contest(caller.request(pb::ContestIdRequest { id })?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    let entries = r.entries.into_iter().map(|e| entry_dto(e, &previews)).collect::<Result<Vec<_>, _>>()?;
    let contest = r.contest.map(contest_dto).ok_or_else(|| ApiError::BadRequest(format!("contest {id} does not exist")))?;
    Ok(envelope::ok(ContestDetailDto { contest, entries }))
}

/// Body of an entry.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitBody {
    contest_id: i64,
    /// One of the caller's works with a video.
    task_id: i64,
}

/// Enters one of the caller's rendered works in an open contest (once per contest).
#[utoipa::path(post, path = "/diyvrbt/contest/submit", request_body = SubmitBody, responses((status = 200, body = EntryDto)))]
pub async fn submit(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SubmitBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::SubmitEntryRequest { contest_id: b.contest_id, task_id: b.task_id };
    let e = state.clients.task.clone().submit_entry(caller.request(r)?).await?.into_inner();
    entry_answer(&state, &caller, e, "作品已提交")
}

/// Body naming an entry.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryBody {
    entry_id: i64,
}

/// Takes the caller's entry out of its contest while it is open.
#[utoipa::path(post, path = "/diyvrbt/contest/withdraw", request_body = EntryBody, responses((status = 200)))]
pub async fn withdraw(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: EntryBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.task.clone().withdraw_entry(caller.request(pb::EntryIdRequest { entry_id: b.entry_id })?).await?;
    Ok(envelope::ok_with(serde_json::json!({}), "作品已撤回"))
}

/// Likes another user's entry of an open contest (once).
#[utoipa::path(post, path = "/diyvrbt/contest/like", request_body = EntryBody, responses((status = 200, body = EntryDto)))]
pub async fn like(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: EntryBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let e = state.clients.task.clone().like_entry(caller.request(pb::EntryIdRequest { entry_id: b.entry_id })?).await?.into_inner();
    entry_answer(&state, &caller, e, "已点赞")
}

/// An entry's work (`part` video or cover), by the signed address an entry carries.
#[utoipa::path(get, path = "/diyvrbt/contest/media/{id}/{part}", params(("id" = i64, Path), ("part" = String, Path), PreviewQuery), responses((status = 200, body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn media(req: HttpRequest, path: web::Path<(String, String)>, q: web::Query<PreviewQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let (id, part) = path.into_inner();
    serve_preview(&req, &state, PreviewOf::ContestEntry, &id, &part, &q.ticket).await
}

/// Body of a manager's save.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveBody {
    /// Absent or 0: a new contest.
    #[serde(default)]
    id: i64,
    #[serde(default)]
    title: String,
    #[serde(default)]
    theme: String,
    #[serde(default)]
    rules: String,
    #[serde(default)]
    start_ms: i64,
    #[serde(default)]
    end_ms: i64,
    /// likes or scores.
    #[serde(default)]
    ranking: String,
    #[serde(default)]
    template_id: i64,
}

/// Opens or changes a contest (template managers; audited under `contest:{id}`).
#[utoipa::path(post, path = "/diyvrbt/manage/contest/save", request_body = SaveBody, responses((status = 200, body = ContestDto)))]
pub async fn save(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SaveBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::SaveContestRequest { id: b.id, title: b.title, theme: b.theme, rules: b.rules, start_ms: b.start_ms, end_ms: b.end_ms, ranking: b.ranking, template_id: b.template_id };
    let c = state.clients.task.clone().save_contest(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(contest_dto(c), "保存成功"))
}

/// Body of a judge's score.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScoreBody {
    entry_id: i64,
    /// 0–100.
    score: i32,
}

/// A judge's score of an entry of a contest ranked by scores (template managers; audited).
#[utoipa::path(post, path = "/diyvrbt/manage/contest/score", request_body = ScoreBody, responses((status = 200, body = EntryDto)))]
pub async fn score(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ScoreBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let e = state.clients.task.clone().score_entry(caller.request(pb::ScoreEntryRequest { entry_id: b.entry_id, score: b.score })?).await?.into_inner();
    entry_answer(&state, &caller, e, "评分已保存")
}

/// Body naming a contest.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct IdBody {
    id: i64,
}

/// Deletes a contest without entries (template managers; audited).
#[utoipa::path(post, path = "/diyvrbt/manage/contest/delete", request_body = IdBody, responses((status = 200)))]
pub async fn delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: IdBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.task.clone().delete_contest(caller.request(pb::ContestIdRequest { id: b.id })?).await?;
    Ok(envelope::ok_with(serde_json::json!({}), "删除成功"))
}
