//! Tenant and user isolation of every id-taking route: a user of another tenant (and, for a user's
//! own rows, another user of the same tenant) naming someone's id gets a failure, never the row, and
//! the row stays as it was. The table must list every route registered in `src/routes/mod.rs`,
//! either as a case or as a route that takes no id: a new route fails this test until it is listed.

use crate::common;

use std::collections::BTreeSet;

use common::{Fallible, System, User, data, envelope};
use base64::Engine;
use reqwest::Method;

/// Routes that name no row of anyone: they act on the caller or the tenant as a whole.
const NO_ID: &[&str] = &[
    "GET /system/info",
    "GET /category/taskvideo",
    "POST /favorite/list",
    "POST /user/sendCode",
    "POST /user/login",
    "POST /user/handoff",
    "GET /user/me",
    "POST /user/logout",
    "GET /manage/users",
    "GET /ai/abilities",
    "POST /ai/text",
    "POST /ai/keywords",
    "POST /tts/textToVoice",
    "POST /ai/textToImage",
    "GET /videotask/mine",
    "GET /category/audio",
    "GET /font/ofdefault",
    "POST /font/upload",
    "POST /search/history/add",
    "GET /search/history",
    "POST /search/history/clear",
    "POST /upload/material",
    "POST /upload/multimaterial",
    // Opens an upload in the caller's own material directory (made from the token's identity).
    "POST /upload/resumable",
    // One-click filming's upload: the clips become the caller's own materials.
    "POST /v2/videotask/oneClick/upload",
    "POST /material/ofuser",
    "POST /material/ofdefault",
    "GET /material/quota",
    // The uuid is a catalogue key, not a row: every tenant gets the same generated shapes.
    "GET /shape/{uuid}",
    // Catalogue keys too: the previews are drawn from the project's own sample documents.
    "GET /catalogue/preview/{kind}/{key}",
    "GET /template/list",
    "GET /template/mine",
    "GET /template/check",
    // The caller's own variant profile, a document's size, a number, an upload of the caller's own.
    "GET /ring/profile",
    "POST /ring/precheck",
    "POST /material/v2/ifdownloadbyphone",
    "POST /upload/copyright",
    "GET /ring/orders",
    // The tenant's orders, for its managers (tests/ring.rs: refused to a creator).
    "GET /manage/ring/orders",
    // The catalogue of toolbox types, and the caller's own tool runs.
    "GET /toolbox/types",
    "GET /toolbox/mine",
    // The tenant's industry categories a smart task is filed under.
    "GET /aitask/getCategory",
    // Videos imported by address become the caller's own materials (tests/url_import.rs).
    "POST /material/v2/batchUrlVideoAddResult",
    // The manage area's counts, queues, music list and upload, for its template managers (tests/manage.rs).
    "GET /manage/overview",
    "POST /manage/review/list",
    "POST /manage/music/list",
    "POST /manage/music/upload",
    // The tenant's system library, for its administrators (tests/maintain.rs: refused to others).
    "POST /maintain/material/list",
    "POST /maintain/material/upload",
    // The tenant's task search, audit trail, farm and settings, for its administrators
    // (tests/maintain_farm.rs: refused to others, another tenant's rows never shown).
    "GET /maintain/task/list",
    "GET /maintain/audit",
    "GET /maintain/farm",
    "POST /maintain/farm/maintenance",
    "GET /maintain/migrations",
    "GET /maintain/config",
    "POST /maintain/config",
    // The tenant's offer of the editor's animations and art-word styles: read by its users, set by
    // its administrators (tests/maintain_farm.rs); `{catalogue}` names a catalogue, not a row.
    "GET /catalogue/offer/{catalogue}",
    "POST /maintain/catalogue/offer",
    // The tenant's collections: every one for its template managers, the published ones for its
    // users (tests/collections.rs).
    "GET /manage/collection/list",
    "GET /collection/list",
    // The caller's own application and applications; the tenant's queue for its template managers
    // (tests/providers.rs).
    "POST /service/apply",
    "GET /service/applications",
    "GET /manage/service/list",
    // The tenant's contests (tests/contests.rs).
    "GET /contest/list",
    // The tenant's published services, and the caller's own side of the marketplace (tests/market.rs).
    "GET /market/services",
    "GET /market/mine",
    // The caller's own enterprise workspace; the tenant's enterprises for its administrators
    // (tests/enterprise.rs).
    "GET /enterprise/space",
    "GET /manage/enterprise/list",
];

/// Whose rows a route reaches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scope {
    /// Rows the whole tenant shares (categories, users): only another tenant is a stranger.
    Tenant,
    /// One user's rows (tasks, favourites): another user of the same tenant is a stranger too.
    User,
}

/// Every id-taking route with its scope.
const CASES: &[(&str, Scope)] = &[
    ("POST /category/taskvideo", Scope::Tenant),
    ("POST /category/taskvideo/delete", Scope::Tenant),
    ("POST /category/updatename", Scope::Tenant),
    ("POST /favorite/add", Scope::User),
    ("POST /favorite/remove", Scope::User),
    ("POST /videotask/save", Scope::User),
    ("GET /videotask/ofone/{id}", Scope::User),
    ("POST /videotask/runtask", Scope::User),
    ("GET /videotask/state", Scope::User),
    ("GET /videotask/events", Scope::User),
    ("GET /videotask/download", Scope::User),
    ("GET /videotask/cover", Scope::User),
    ("POST /videotask/mediaTicket", Scope::User),
    ("POST /v2/videotask/cancelTask", Scope::User),
    // One-click filming: a category of the victim's tenant (none of its templates is approved);
    // the victim's pending template (a neighbour, a manager, sees it: it has no video slot) with
    // the victim's clip (tests/one_click.rs refuses another user's clip in a usable template).
    ("POST /v2/videotask/oneClick/template", Scope::Tenant),
    ("POST /v2/videotask/oneClick/run", Scope::User),
    ("GET /videotask/ofids/{ids}", Scope::User),
    ("POST /videotask/updateOneTask", Scope::User),
    ("POST /videotask/store", Scope::User),
    ("POST /videotask/delete", Scope::User),
    ("POST /videotask/batchDelete", Scope::User),
    ("POST /videotask/duplicate", Scope::User),
    ("POST /videotask/clear", Scope::User),
    ("POST /redis/history/store", Scope::User),
    ("GET /redis/history/getStoreTime", Scope::User),
    ("GET /redis/history/getOne", Scope::User),
    ("POST /manage/users/level", Scope::Tenant),
    ("POST /manage/users/disable", Scope::Tenant),
    ("POST /category/setPush", Scope::Tenant),
    ("GET /font/ofuseranddefault/{id}", Scope::User),
    ("POST /font/delete", Scope::User),
    ("DELETE /font/delete", Scope::User),
    ("GET /font/file/{id}", Scope::User),
    ("POST /font/test", Scope::User),
    ("POST /material/info/{id}", Scope::User),
    ("POST /material/byIds", Scope::User),
    ("POST /material/updatename", Scope::User),
    ("POST /material/delete", Scope::User),
    ("POST /material/batchDelete", Scope::User),
    ("POST /material/batchDeleteByChoice", Scope::User),
    ("POST /material/updateMaterialCategory", Scope::User),
    // Auditors decide on any material of their tenant: only another tenant is a stranger.
    ("POST /material/updatematerial", Scope::Tenant),
    ("POST /material/batchUpdateOpenState", Scope::User),
    ("POST /material/changeCoverPic", Scope::User),
    ("POST /material/getVideoState", Scope::User),
    ("POST /material/getVolumeDB", Scope::User),
    ("POST /material/videoClip", Scope::User),
    ("POST /material/cutAudio", Scope::User),
    ("POST /material/cropVideo", Scope::User),
    ("POST /material/croppicture", Scope::User),
    ("POST /material/v2/reverVideo", Scope::User),
    ("POST /material/v2/reverToUuid", Scope::User),
    ("GET /material/file/{id}/{part}", Scope::User),
    // A pending template is seen by its creator and the tenant's managers (the strangers of the
    // same tenant here are managers), so only another tenant is a stranger; a same-tenant user who
    // is no manager is refused in tests/templates.rs.
    ("GET /template/{id}", Scope::Tenant),
    ("GET /template/check/{id}", Scope::Tenant),
    ("GET /template/slots/{id}", Scope::Tenant),
    // Read only with the ticket of a template answer, bound to one template and tenant: a stranger
    // holding their own answer's ticket gets nothing of this template (tests/templates.rs checks
    // the ticket of a real preview).
    ("GET /template/media/{id}/{part}", Scope::Tenant),
    ("POST /template/fill", Scope::Tenant),
    ("POST /template/submit", Scope::User),
    ("POST /template/audit", Scope::Tenant),
    ("POST /template/categories", Scope::Tenant),
    ("POST /template/setPush", Scope::Tenant),
    ("GET /business/template.csv", Scope::Tenant),
    ("GET /business/template.xlsx", Scope::Tenant),
    ("POST /v2/business/runBusinessCardTasks", Scope::Tenant),
    ("POST /v2/business/runOneBusinessCardTask", Scope::Tenant),
    ("POST /videotask/frame", Scope::User),
    ("POST /ai/climax", Scope::User),
    ("POST /ring/check", Scope::User),
    ("POST /ring/fix", Scope::User),
    ("POST /platform/saveRing", Scope::User),
    ("POST /material/ringUpload", Scope::User),
    ("POST /ring/cancel", Scope::User),
    // Served only with a signature the ring service made for one key: naming someone's key with
    // any other signature is not found.
    ("GET /ring/file", Scope::User),
    // A tool run names its input materials: only the caller's own (or system ones) are taken.
    ("POST /toolbox/run", Scope::User),
    ("GET /toolbox/run/{id}", Scope::User),
    ("GET /toolbox/file/{id}/{index}", Scope::User),
    ("POST /toolbox/use", Scope::User),
    // An audit names a work or a material: only the caller's own are audited.
    ("POST /ai/audit", Scope::User),
    // A smart task of the victim's video (filed under the victim's tenant's category), and the victim's run read as one.
    ("POST /aitask/smartClips", Scope::User),
    ("POST /aitask/get", Scope::User),
    // A recognition names its material: only the caller's own (or system ones) are recognised.
    ("POST /ASR/voiceToText", Scope::User),
    // A similar image names its source picture: only the caller's own (or system ones) are taken.
    ("POST /ai/similarImage", Scope::User),
    // A resumable upload lives in its owner's material directory: another user's id is not found.
    ("HEAD /upload/resumable/{id}", Scope::User),
    ("PATCH /upload/resumable/{id}", Scope::User),
    ("DELETE /upload/resumable/{id}", Scope::User),
    // An administrator changes the system materials of their own tenant only.
    ("POST /maintain/material/update", Scope::Tenant),
    // Template managers decide on their own tenant's users' materials, and keep its music only.
    ("POST /manage/review/decide", Scope::Tenant),
    ("POST /manage/music/update", Scope::Tenant),
    // An administrator sees and requeues the renders of their own tenant only.
    ("GET /maintain/task/attempts/{id}", Scope::Tenant),
    ("POST /maintain/task/requeue", Scope::Tenant),
    // A template manager curates their own tenant's collections; users see its published ones.
    ("GET /manage/collection/{id}", Scope::Tenant),
    ("POST /manage/collection/save", Scope::Tenant),
    ("POST /manage/collection/publish", Scope::Tenant),
    ("POST /manage/collection/order", Scope::Tenant),
    ("POST /manage/collection/delete", Scope::Tenant),
    ("GET /collection/{id}", Scope::Tenant),
    // A template manager reviews their own tenant's service-provider applications.
    ("GET /manage/service/{id}", Scope::Tenant),
    ("POST /manage/service/decide", Scope::Tenant),
    // A tenant's contests: its users see them and like their entries; a user enters and withdraws
    // their own work only; its template managers change them and score the entries.
    ("GET /contest/{id}", Scope::Tenant),
    ("GET /contest/media/{id}/{part}", Scope::Tenant),
    ("POST /contest/submit", Scope::User),
    ("POST /contest/withdraw", Scope::User),
    ("POST /contest/like", Scope::Tenant),
    ("POST /manage/contest/save", Scope::Tenant),
    ("POST /manage/contest/score", Scope::Tenant),
    ("POST /manage/contest/delete", Scope::Tenant),
    // A tenant's published services are its users'; a service is changed by its provider only, a
    // request is answered by its service's provider and withdrawn by its requester only.
    ("GET /market/service/{id}", Scope::Tenant),
    ("GET /market/media/{id}/{part}", Scope::Tenant),
    ("POST /market/service/save", Scope::User),
    ("POST /market/service/publish", Scope::User),
    ("POST /market/request", Scope::Tenant),
    ("POST /market/request/withdraw", Scope::User),
    ("POST /market/request/decline", Scope::User),
    ("POST /market/request/deliver", Scope::User),
    // An enterprise's shares and members are its members' only: another tenant's caller and a user
    // of the same tenant outside the enterprise find none of them.
    ("POST /enterprise/share", Scope::User),
    ("POST /enterprise/unshare", Scope::User),
    ("POST /enterprise/copy", Scope::User),
    ("POST /enterprise/member/add", Scope::User),
    ("POST /enterprise/member/remove", Scope::User),
    ("GET /enterprise/media/{id}/{part}", Scope::User),
    ("POST /manage/enterprise/save", Scope::Tenant),
];

/// The routes `src/routes/mod.rs` registers, as "METHOD path".
pub(crate) fn registered() -> BTreeSet<String> {
    let source = include_str!("../../src/routes/mod.rs");
    let mut out = BTreeSet::new();
    let mut rest = source;
    while let Some(i) = rest.find(".route(\"") {
        rest = &rest[i + 8..];
        let Some(end) = rest.find('"') else { break };
        let path = &rest[..end];
        let method = rest[end..].split("web::").nth(1).and_then(|m| m.split("()").next()).unwrap_or_default();
        out.insert(format!("{} {path}", method.to_uppercase()));
    }
    out
}

#[test]
fn every_registered_route_is_listed() {
    let routes = registered();
    assert!(routes.len() > 10, "routes are read from mod.rs: {routes:?}");
    let api: BTreeSet<String> = routes.into_iter().filter(|r| !r.ends_with("/healthz") && !r.ends_with("/readyz") && !r.ends_with("/metrics")).collect();
    let listed: BTreeSet<String> = NO_ID.iter().map(|s| (*s).to_owned()).chain(CASES.iter().map(|(r, _)| (*r).to_owned())).collect();
    let unlisted: Vec<&String> = api.difference(&listed).collect();
    assert!(unlisted.is_empty(), "routes neither in CASES (id-taking) nor in NO_ID: {unlisted:?}");
    let stale: Vec<&String> = listed.difference(&api).collect();
    assert!(stale.is_empty(), "listed routes that are not registered: {stale:?}");
}

/// Someone's rows, made through the API.
struct Rows {
    owner: User,
    category: i64,
    task: i64,
    favourite: &'static str,
    font: String,
    /// Another user of the owner's tenant, for the user-management routes.
    colleague: User,
    /// An uploaded material.
    material: String,
    /// A template offered from the task, pending audit.
    template: i64,
    /// The task's rendered video.
    video_key: String,
    /// A ring order of the task.
    order: i64,
    /// A tool run on the material.
    tool_run: i64,
    /// A system material the tenant's administrator uploaded.
    system_material: String,
    /// A published topic of one of the tenant's starter templates.
    collection: i64,
    /// The colleague's pending application to become a service provider.
    application: i64,
    /// An open contest ranked by scores, and the owner's entry of the task in it.
    contest: i64,
    entry: i64,
    /// A provider's published service, and the owner's open request to it.
    service: i64,
    request: i64,
    /// The owner's resumable upload, its first part sent: its path under the API.
    upload: String,
    /// The owner's enterprise (the owner and the colleague its members), and the owner's share of the task in it.
    enterprise: i64,
    share: i64,
}

/// The victim's task document: one text slot, so it can be offered as a template.
fn slotted_rule() -> serde_json::Value {
    let mut rule = common::rule();
    rule["scenes"][0]["layers"] = serde_json::json!([{"type": "word", "id": 1, "startTime": 0, "endTime": 2, "w": 200, "h": 60,
        "canModify": 1, "content": "他们的字", "maxLength": 8}]);
    rule
}

async fn rows_of(s: &System, tenant: &str, name: &str) -> Fallible<Rows> {
    let owner = s.user(tenant, name, 3).await?;
    let category = data(s.call(Method::POST, "/category/taskvideo", &owner).json(&serde_json::json!({"categoryName": "他们的", "dimension": "industry"})))
        .await?["categoryId"]
        .as_i64()
        .ok_or("category id")?;
    let task = data(s.call(Method::POST, "/videotask/save", &owner).form(&[("taskInfo", slotted_rule().to_string()), ("name", "他们的".into())]))
        .await?
        .as_i64()
        .ok_or("task id")?;
    let template = data(s.call(Method::POST, "/template/submit", &owner).json(&serde_json::json!({"taskId": task, "kind": "classic"})))
        .await?["id"]
        .as_i64()
        .ok_or("template id")?;
    data(s.call(Method::POST, "/favorite/add", &owner).json(&serde_json::json!({"id": "m-victim", "type": "picture"}))).await?;
    let (ct, body) = common::multipart(&[("file", Some("theirs.ttf"), &common::latin_font()?)]);
    let font = data(s.call(Method::POST, "/font/upload", &owner).header("Content-Type", ct).body(body)).await?["id"].as_str().ok_or("font id")?.to_owned();
    data(s.call(Method::POST, "/redis/history/store", &owner).json(&serde_json::json!({"taskId": task, "history": VICTIM_HISTORY}))).await?;
    let colleague = s.user(tenant, &format!("{name}-colleague"), 8).await?;
    let material = common::upload(s, &owner, "他们的.png", common::PNG).await?;
    let video_key = common::finish_task(s, &owner, task).await?;
    let order = data(s.call(Method::POST, "/platform/saveRing", &owner).json(&serde_json::json!({"taskId": task, "phone": "13800138000", "copyrightAgreed": true})))
        .await?["id"]
        .as_i64()
        .ok_or("order id")?;
    let run = serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [material], "params": {"speed": 2}});
    let tool_run = data(s.call(Method::POST, "/toolbox/run", &owner).json(&run)).await?["taskId"].as_i64().ok_or("tool run id")?;
    let admin = s.user(tenant, &format!("{name}-admin"), 0).await?;
    let system_material = common::upload_system(s, &admin, "2003", "他们的遮罩.png", common::PNG).await?;
    let starter = data(s.call(Method::GET, "/template/list", &owner)).await?["list"][0]["id"].as_i64().ok_or("a starter template")?;
    let topic = serde_json::json!({"kind": "topic", "name": "他们的专题", "templateIds": [starter]});
    let collection = data(s.call(Method::POST, "/manage/collection/save", &owner).json(&topic)).await?["id"].as_i64().ok_or("collection id")?;
    data(s.call(Method::POST, "/manage/collection/publish", &owner).json(&serde_json::json!({"id": collection, "published": true}))).await?;
    let apply = serde_json::json!({"name": "他们的工作室", "contact": "13800138000", "intro": "他们的样片"});
    let application = data(s.call(Method::POST, "/service/apply", &colleague).json(&apply)).await?["id"].as_i64().ok_or("application id")?;
    let now = reelforge_kit::db::now_millis();
    let open = serde_json::json!({"title": "他们的比赛", "startMs": now - 60_000, "endMs": now + 3_600_000, "ranking": "scores"});
    let contest = data(s.call(Method::POST, "/manage/contest/save", &owner).json(&open)).await?["id"].as_i64().ok_or("contest id")?;
    let entry = data(s.call(Method::POST, "/contest/submit", &owner).json(&serde_json::json!({"contestId": contest, "taskId": task}))).await?["id"].as_i64().ok_or("entry id")?;
    let provider = s.user(tenant, &format!("{name}-provider"), 8).await?;
    let studio = serde_json::json!({"name": "他们的工作室", "contact": "13800138000", "intro": "他们的"});
    let applied = data(s.call(Method::POST, "/service/apply", &provider).json(&studio)).await?["id"].as_i64().ok_or("application id")?;
    data(s.call(Method::POST, "/manage/service/decide", &owner).json(&serde_json::json!({"id": applied, "approve": true}))).await?;
    let offer = serde_json::json!({"title": "他们的服务", "kind": "video", "deliveryDays": 3});
    let service = data(s.call(Method::POST, "/market/service/save", &provider).json(&offer)).await?["id"].as_i64().ok_or("service id")?;
    data(s.call(Method::POST, "/market/service/publish", &provider).json(&serde_json::json!({"id": service, "published": true}))).await?;
    let request = data(s.call(Method::POST, "/market/request", &owner).json(&serde_json::json!({"serviceId": service, "note": "他们的需求"}))).await?["id"].as_i64().ok_or("request id")?;
    let opened = s
        .call(Method::POST, "/upload/resumable", &owner)
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Length", common::MP4.len().to_string())
        .header("Upload-Metadata", format!("filename {}", base64::engine::general_purpose::STANDARD.encode("他们的.mp4")))
        .send()
        .await?;
    let upload = opened.headers().get("location").and_then(|v| v.to_str().ok()).ok_or("an upload's location")?.trim_start_matches("/diyvrbt").to_owned();
    let first = s
        .call(Method::PATCH, &upload, &owner)
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Offset", "0")
        .header("Content-Type", "application/offset+octet-stream")
        .body(common::MP4[..1000].to_vec())
        .send()
        .await?;
    assert_eq!(first.status(), reqwest::StatusCode::NO_CONTENT, "the victim's first part is stored");
    let enterprise = data(s.call(Method::POST, "/manage/enterprise/save", &admin).json(&serde_json::json!({"name": "他们的企业"}))).await?["id"].as_i64().ok_or("enterprise id")?;
    for member in [&owner, &colleague] {
        data(s.call(Method::POST, "/enterprise/member/add", &admin).json(&serde_json::json!({"enterpriseId": enterprise, "userId": member.user_id}))).await?;
    }
    let share = data(s.call(Method::POST, "/enterprise/share", &owner).json(&serde_json::json!({"kind": "work", "itemId": task}))).await?["id"].as_i64().ok_or("share id")?;
    Ok(Rows { owner, category, task, favourite: "m-victim", font, colleague, material, template, video_key, order, tool_run, system_material, collection, application, contest, entry, service, request, upload, enterprise, share })
}

/// The editor state the victim keeps for their task.
const VICTIM_HISTORY: &str = r#"{"name":"他们的"}"#;

/// `stranger` tries `route` on `victim`'s id; answers the envelope.
async fn attempt(s: &System, route: &str, stranger: &User, victim: &Rows) -> Fallible<serde_json::Value> {
    let json = |v: serde_json::Value| s.call(Method::POST, &route[5..], stranger).json(&v);
    let tus = |method: Method| s.call(method, &victim.upload, stranger).header("Tus-Resumable", "1.0.0");
    let r = match route {
        // A HEAD answer has no body: its status stands for the envelope.
        "HEAD /upload/resumable/{id}" => {
            let status = tus(Method::HEAD).send().await?.status();
            let code = if status.is_success() { 2000 } else { 3000 };
            return Ok(serde_json::json!({"code": code, "desc": format!("{status}: not found")}));
        }
        "PATCH /upload/resumable/{id}" => tus(Method::PATCH)
            .header("Upload-Offset", "1000")
            .header("Content-Type", "application/offset+octet-stream")
            .body(common::MP4[1000..].to_vec()),
        "DELETE /upload/resumable/{id}" => tus(Method::DELETE),
        "POST /category/taskvideo" => json(serde_json::json!({"categoryName": "子", "dimension": "industry", "higherUpId": victim.category})),
        "POST /category/taskvideo/delete" => json(serde_json::json!({"categoryId": victim.category})),
        "POST /category/updatename" => json(serde_json::json!({"categoryId": victim.category, "categoryName": "mine"})),
        "POST /favorite/add" => json(serde_json::json!({"id": victim.favourite, "type": "picture"})),
        "POST /favorite/remove" => json(serde_json::json!({"id": victim.favourite, "type": "picture"})),
        "POST /videotask/save" => s
            .call(Method::POST, "/videotask/save", stranger)
            .form(&[("taskId", victim.task.to_string()), ("taskInfo", common::rule().to_string()), ("name", "mine".into())]),
        "GET /videotask/ofone/{id}" => s.call(Method::GET, &format!("/videotask/ofone/{}", victim.task), stranger),
        "POST /videotask/runtask" => json(serde_json::json!({"taskId": victim.task})),
        "GET /videotask/state" => s.call(Method::GET, &format!("/videotask/state?taskId={}", victim.task), stranger),
        "GET /videotask/events" => s.call(Method::GET, &format!("/videotask/events?taskId={}", victim.task), stranger),
        "GET /videotask/download" => s.call(Method::GET, &format!("/videotask/download?taskId={}", victim.task), stranger),
        "GET /videotask/cover" => s.call(Method::GET, &format!("/videotask/cover?taskId={}", victim.task), stranger),
        "POST /videotask/mediaTicket" => json(serde_json::json!({"taskId": victim.task})),
        "POST /v2/videotask/cancelTask" => json(serde_json::json!({"taskIds": [victim.task]})),
        "POST /v2/videotask/oneClick/template" => json(serde_json::json!({"categoryId": victim.category, "timeLength": 2})),
        "POST /v2/videotask/oneClick/run" => json(serde_json::json!({"templateId": victim.template, "materialIds": [victim.material]})),
        "GET /videotask/ofids/{ids}" => s.call(Method::GET, &format!("/videotask/ofids/{}", victim.task), stranger),
        "POST /videotask/updateOneTask" => json(serde_json::json!({"id": victim.task, "name": "mine"})),
        "POST /videotask/store" => json(serde_json::json!({"id": victim.task, "taskName": "mine", "videoCreateInfo": common::rule().to_string()})),
        "POST /videotask/delete" => json(serde_json::json!({"taskId": victim.task})),
        "POST /videotask/batchDelete" => json(serde_json::json!({"taskIds": victim.task.to_string()})),
        "POST /videotask/duplicate" => json(serde_json::json!({"taskId": victim.task})),
        "POST /videotask/clear" => json(serde_json::json!({"taskId": victim.task})),
        "POST /redis/history/store" => json(serde_json::json!({"taskId": victim.task, "history": "{}"})),
        "GET /redis/history/getStoreTime" => s.call(Method::GET, &format!("/redis/history/getStoreTime?taskId={}", victim.task), stranger),
        "GET /redis/history/getOne" => s.call(Method::GET, &format!("/redis/history/getOne?taskId={}", victim.task), stranger),
        "POST /manage/users/level" => json(serde_json::json!({"userId": victim.colleague.user_id, "operatorLevel": 3})),
        "POST /manage/users/disable" => json(serde_json::json!({"userId": victim.colleague.user_id, "disabled": true})),
        "POST /category/setPush" => json(serde_json::json!({"ids": [victim.category], "push": true})),
        "GET /font/ofuseranddefault/{id}" => s.call(Method::GET, &format!("/font/ofuseranddefault/{}", victim.owner.user_id), stranger),
        "POST /font/delete" => json(serde_json::json!({"id": victim.font})),
        "DELETE /font/delete" => {
            let (ct, body) = common::multipart(&[("id", None, victim.font.as_bytes())]);
            s.call(Method::DELETE, "/font/delete", stranger).header("Content-Type", ct).body(body)
        }
        "GET /font/file/{id}" => s.call(Method::GET, &format!("/font/file/{}", victim.font), stranger),
        "POST /font/test" => json(serde_json::json!({"fontId": victim.font, "text": "他们的"})),
        "POST /material/info/{id}" => s.call(Method::POST, &format!("/material/info/{}", victim.material), stranger),
        "POST /material/byIds" => json(serde_json::json!({"ids": victim.material})),
        "POST /material/updatename" => json(serde_json::json!({"materialId": victim.material, "materialName": "mine"})),
        "POST /material/delete" => json(serde_json::json!({"materialId": victim.material})),
        "POST /material/batchDelete" => json(serde_json::json!({"materialIds": victim.material})),
        "POST /material/batchDeleteByChoice" => json(serde_json::json!({"isAll": false, "isSoftDelete": false, "deleteUuid": victim.material})),
        "POST /material/updateMaterialCategory" => json(serde_json::json!({"materialIds": victim.material, "categoryIds": "7"})),
        "POST /material/updatematerial" => json(serde_json::json!({"materialId": victim.material, "openState": 3, "reasonsForFailureOfAudit": "x"})),
        "POST /material/batchUpdateOpenState" => json(serde_json::json!({"materialIds": victim.material, "openState": 2})),
        "POST /material/changeCoverPic" => {
            let (ct, body) = common::multipart(&[("materialId", None, victim.material.as_bytes()), ("uploadFile", Some("c.png"), common::PNG)]);
            s.call(Method::POST, "/material/changeCoverPic", stranger).header("Content-Type", ct).body(body)
        }
        "POST /material/getVideoState" => json(serde_json::json!({"id": victim.material})),
        "POST /material/getVolumeDB" => json(serde_json::json!({"materialId": victim.material})),
        "POST /material/videoClip" => json(serde_json::json!({"materialId": victim.material, "startTime": 0, "endTime": 1000})),
        "POST /material/cutAudio" => json(serde_json::json!({"materialId": victim.material, "startTime": 0, "endTime": 1000})),
        "POST /material/cropVideo" => json(serde_json::json!({"materialId": victim.material, "x": 0, "y": 0, "width": 16, "height": 16})),
        "POST /material/croppicture" => json(serde_json::json!({"materialId": victim.material, "x": 0, "y": 0, "width": 16, "height": 16})),
        "POST /material/v2/reverVideo" => json(serde_json::json!({"uuid": victim.material, "isFile": true})),
        "POST /material/v2/reverToUuid" => json(serde_json::json!({"uuid": victim.material})),
        "GET /material/file/{id}/{part}" => s.call(Method::GET, &format!("/material/file/{}/original", victim.material), stranger),
        "GET /template/{id}" => s.call(Method::GET, &format!("/template/{}", victim.template), stranger),
        "GET /template/check/{id}" => s.call(Method::GET, &format!("/template/check/{}", victim.template), stranger),
        "GET /template/slots/{id}" => s.call(Method::GET, &format!("/template/slots/{}", victim.template), stranger),
        "GET /template/media/{id}/{part}" => s.call(Method::GET, &format!("/template/media/{}/cover?ticket={}", victim.template, stranger.token), stranger),
        "POST /template/fill" => json(serde_json::json!({"templateId": victim.template, "replaces": [{"id": "1", "replaceContent": "mine"}]})),
        "POST /template/submit" => json(serde_json::json!({"taskId": victim.task, "kind": "classic"})),
        "POST /template/audit" => json(serde_json::json!({"id": victim.template, "approve": true})),
        "POST /template/categories" => json(serde_json::json!({"id": victim.template, "categoryIds": [7]})),
        "POST /template/setPush" => json(serde_json::json!({"ids": [victim.template], "push": true})),
        "GET /business/template.csv" => s.call(Method::GET, &format!("/business/template.csv?templateId={}", victim.template), stranger),
        "GET /business/template.xlsx" => s.call(Method::GET, &format!("/business/template.xlsx?templateId={}", victim.template), stranger),
        "POST /v2/business/runBusinessCardTasks" => {
            let id = victim.template.to_string();
            let (ct, body) = common::multipart(&[("templateId", None, id.as_bytes()), ("file", Some("c.csv"), "姓名\n张三\n".as_bytes())]);
            s.call(Method::POST, "/v2/business/runBusinessCardTasks", stranger).header("Content-Type", ct).body(body)
        }
        "POST /v2/business/runOneBusinessCardTask" => json(serde_json::json!({"templateId": victim.template, "fields": {"1": "张三"}})),
        "POST /videotask/frame" => {
            let mut doc = common::rule();
            // Only the victim's material is named (a scene's id names a background material).
            if let Some(scene) = doc["scenes"][0].as_object_mut() {
                scene.remove("id");
            }
            doc["scenes"][0]["layers"] = serde_json::json!([{"type": "picture", "src": format!("/diyvrbt/material/file/{}/original", victim.material), "x": 0, "y": 0, "w": 64, "h": 64, "startTime": 0, "endTime": 2}]);
            json(serde_json::json!({"taskInfo": doc.to_string(), "time": 0.5}))
        }
        "POST /ai/climax" => json(serde_json::json!({"materialId": victim.material, "seconds": 1})),
        "POST /ring/check" => json(serde_json::json!({"taskId": victim.task})),
        "POST /ring/fix" => json(serde_json::json!({"taskId": victim.task})),
        "POST /platform/saveRing" => json(serde_json::json!({"taskId": victim.task, "phone": "13800138000", "copyrightAgreed": true})),
        "POST /material/ringUpload" => json(serde_json::json!({"orderId": victim.order})),
        "POST /ring/cancel" => json(serde_json::json!({"orderId": victim.order})),
        "GET /ring/file" => {
            let forged = format!("/ring/file?key={}&exp=99999999999&sig={}", victim.video_key.replace('/', "%2F"), "0".repeat(64));
            s.call(Method::GET, &forged, stranger)
        }
        "POST /toolbox/run" => json(serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [victim.material], "params": {"speed": 2}})),
        "GET /toolbox/run/{id}" => s.call(Method::GET, &format!("/toolbox/run/{}", victim.tool_run), stranger),
        "GET /toolbox/file/{id}/{index}" => s.call(Method::GET, &format!("/toolbox/file/{}/0?download=1", victim.tool_run), stranger),
        "POST /toolbox/use" => json(serde_json::json!({"taskId": victim.tool_run, "index": 0})),
        "POST /ai/audit" => json(serde_json::json!({"taskId": victim.task})),
        "POST /aitask/smartClips" => json(serde_json::json!({"materialIds": [victim.material], "industryId": victim.category})),
        "POST /aitask/get" => json(serde_json::json!({"id": victim.tool_run})),
        "POST /ASR/voiceToText" => json(serde_json::json!({"materialId": victim.material})),
        "POST /ai/similarImage" => json(serde_json::json!({"materialId": victim.material})),
        "POST /maintain/material/update" => json(serde_json::json!({"materialIds": victim.system_material, "materialName": "mine", "openState": 0})),
        "POST /manage/review/decide" => json(serde_json::json!({"materialIds": victim.material, "approve": false, "reason": "mine"})),
        "POST /manage/music/update" => json(serde_json::json!({"materialIds": victim.system_material, "materialName": "mine", "openState": 0})),
        "GET /maintain/task/attempts/{id}" => s.call(Method::GET, &format!("/maintain/task/attempts/{}", victim.task), stranger),
        "POST /maintain/task/requeue" => json(serde_json::json!({"taskId": victim.task})),
        "GET /manage/collection/{id}" => s.call(Method::GET, &format!("/manage/collection/{}", victim.collection), stranger),
        "POST /manage/collection/save" => json(serde_json::json!({"id": victim.collection, "kind": "topic", "name": "mine", "templateIds": []})),
        "POST /manage/collection/publish" => json(serde_json::json!({"id": victim.collection, "published": false})),
        "POST /manage/collection/order" => json(serde_json::json!({"kind": "topic", "ids": [victim.collection]})),
        "POST /manage/collection/delete" => json(serde_json::json!({"id": victim.collection})),
        "GET /collection/{id}" => s.call(Method::GET, &format!("/collection/{}", victim.collection), stranger),
        "GET /manage/service/{id}" => s.call(Method::GET, &format!("/manage/service/{}", victim.application), stranger),
        "POST /manage/service/decide" => json(serde_json::json!({"id": victim.application, "approve": true})),
        "GET /contest/{id}" => s.call(Method::GET, &format!("/contest/{}", victim.contest), stranger),
        "GET /contest/media/{id}/{part}" => s.call(Method::GET, &format!("/contest/media/{}/video?ticket={}", victim.entry, stranger.token), stranger),
        "POST /contest/submit" => json(serde_json::json!({"contestId": victim.contest, "taskId": victim.task})),
        "POST /contest/withdraw" => json(serde_json::json!({"entryId": victim.entry})),
        "POST /contest/like" => json(serde_json::json!({"entryId": victim.entry})),
        "POST /manage/contest/save" => json(serde_json::json!({"id": victim.contest, "title": "mine", "startMs": 1, "endMs": 2, "ranking": "scores"})),
        "POST /manage/contest/score" => json(serde_json::json!({"entryId": victim.entry, "score": 1})),
        "POST /manage/contest/delete" => json(serde_json::json!({"id": victim.contest})),
        "GET /market/service/{id}" => s.call(Method::GET, &format!("/market/service/{}", victim.service), stranger),
        "GET /market/media/{id}/{part}" => s.call(Method::GET, &format!("/market/media/{}/video?ticket={}", victim.task, stranger.token), stranger),
        "POST /market/service/save" => json(serde_json::json!({"id": victim.service, "title": "mine", "kind": "video", "deliveryDays": 1})),
        "POST /market/service/publish" => json(serde_json::json!({"id": victim.service, "published": false})),
        "POST /market/request" => json(serde_json::json!({"serviceId": victim.service, "note": "mine"})),
        "POST /market/request/withdraw" => json(serde_json::json!({"requestId": victim.request})),
        "POST /market/request/decline" => json(serde_json::json!({"requestId": victim.request, "reason": "mine"})),
        "POST /market/request/deliver" => json(serde_json::json!({"requestId": victim.request, "taskId": victim.task})),
        "POST /enterprise/share" => json(serde_json::json!({"kind": "work", "itemId": victim.task})),
        "POST /enterprise/unshare" => json(serde_json::json!({"shareId": victim.share})),
        "POST /enterprise/copy" => json(serde_json::json!({"shareId": victim.share})),
        "POST /enterprise/member/add" => json(serde_json::json!({"enterpriseId": victim.enterprise, "userId": stranger.user_id})),
        "POST /enterprise/member/remove" => json(serde_json::json!({"enterpriseId": victim.enterprise, "userId": victim.colleague.user_id})),
        "GET /enterprise/media/{id}/{part}" => s.call(Method::GET, &format!("/enterprise/media/{}/video?ticket={}", victim.share, stranger.token), stranger),
        "POST /manage/enterprise/save" => json(serde_json::json!({"id": victim.enterprise, "name": "mine"})),
        other => return Err(format!("no attempt written for {other}").into()),
    };
    envelope(r).await
}

/// Whether the route's answer is allowed to succeed: adding or removing a favourite by id acts on
/// the caller's own list (the id names a material, not a row), so only the victim's list counts.
fn acts_on_own_rows(route: &str) -> bool {
    matches!(route, "POST /favorite/add" | "POST /favorite/remove")
}

/// Checks the victim's rows are as they were made.
async fn intact(s: &System, victim: &Rows) -> Fallible<()> {
    let tree = data(s.call(Method::GET, "/category/taskvideo", &victim.owner)).await?;
    let mine = &tree["dataList"][0];
    assert_eq!((mine["categoryId"].as_i64(), mine["categoryName"].as_str()), (Some(victim.category), Some("他们的")), "{tree}");
    assert_eq!(mine["children"].as_array().map(Vec::len), Some(0), "{tree}");
    assert_eq!(mine["push"], false, "not pushed by a stranger: {tree}");
    let task = data(s.call(Method::GET, &format!("/videotask/ofone/{}", victim.task), &victim.owner)).await?;
    assert_eq!((task["taskName"].as_str(), task["status"].as_i64(), task["version"].as_i64()), (Some("他们的"), Some(10), Some(1)), "{task}");
    let orders = data(s.call(Method::GET, "/ring/orders", &victim.owner)).await?;
    assert_eq!((orders["total"].as_u64(), orders["list"][0]["id"].as_i64(), orders["list"][0]["state"].as_i64()), (Some(1), Some(victim.order), Some(0)), "the order as saved: {orders}");
    let all = data(s.call(Method::GET, "/videotask/mine", &victim.owner)).await?;
    assert_eq!(all["total"], 1, "no task deleted or duplicated: {all}");
    let kept = data(s.call(Method::GET, &format!("/redis/history/getOne?taskId={}", victim.task), &victim.owner)).await?;
    assert_eq!(kept.as_str(), Some(VICTIM_HISTORY), "the autosave is the victim's own");
    let favs = data(s.call(Method::POST, "/favorite/list", &victim.owner).json(&serde_json::json!({}))).await?;
    assert_eq!(favs.as_array().map(Vec::len), Some(1), "{favs}");
    let fonts = data(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", victim.owner.user_id), &victim.owner)).await?;
    assert_eq!(fonts[0]["id"].as_str(), Some(victim.font.as_str()), "the font is still there");
    let file = s.call(Method::GET, &format!("/font/file/{}", victim.font), &victim.owner).send().await?;
    assert_eq!(file.bytes().await?.to_vec(), common::latin_font()?, "and its file");
    let me = data(s.call(Method::GET, "/user/me", &victim.colleague)).await?;
    assert_eq!(me["operatorLevel"], 8, "the colleague kept level and access");
    let m = data(s.call(Method::POST, &format!("/material/info/{}", victim.material), &victim.owner)).await?;
    let kept = (m["materialName"].as_str(), m["categoryId"].as_i64(), m["openState"].as_i64(), m["reasonsForFailureOfAudit"].as_str());
    assert_eq!(kept, (Some("他们的.png"), Some(-1), Some(0), Some("")), "{m}");
    let prefix = reelforge_kit::blob::user_material_prefix(&victim.owner.tenant, &victim.owner.user_id);
    let objects = s.blobs.list(&prefix).await?;
    assert!(objects.iter().any(|k| k.ends_with("/original.png")), "the original is still stored: {objects:?}");
    assert!(objects.iter().all(|k| !k.contains("/cover-")), "no cover was replaced: {objects:?}");
    let t = data(s.call(Method::GET, &format!("/template/check/{}", victim.template), &victim.owner)).await?;
    let kept = (t["auditState"].as_str(), t["push"].as_bool(), t["categoryIds"].as_array().map(Vec::len));
    assert_eq!(kept, (Some("pending"), Some(false), Some(0)), "the template as offered: {t}");
    let mine = data(s.call(Method::GET, "/template/mine", &victim.owner)).await?;
    assert_eq!(mine["total"], 1, "no template offered in the victim's name: {mine}");
    let sys = data(s.call(Method::POST, &format!("/material/info/{}", victim.system_material), &victim.owner)).await?;
    assert_eq!((sys["materialName"].as_str(), sys["openState"].as_i64()), (Some("他们的遮罩.png"), Some(1)), "the system material as uploaded: {sys}");
    let tools = data(s.call(Method::GET, "/toolbox/mine", &victim.owner)).await?;
    assert_eq!((tools["total"].as_u64(), tools["dataList"][0]["id"].as_i64()), (Some(1), Some(victim.tool_run)), "the tool run is the victim's own: {tools}");
    let c = data(s.call(Method::GET, &format!("/manage/collection/{}", victim.collection), &victim.owner)).await?;
    let kept = (c["name"].as_str(), c["published"].as_bool(), c["templateIds"].as_array().map(Vec::len));
    assert_eq!(kept, (Some("他们的专题"), Some(true), Some(1)), "the topic as published: {c}");
    let applied = data(s.call(Method::GET, "/service/applications", &victim.colleague)).await?;
    let kept = (applied.as_array().map(Vec::len), applied[0]["id"].as_i64(), applied[0]["state"].as_str());
    assert_eq!(kept, (Some(1), Some(victim.application), Some("pending")), "the application waits as sent: {applied}");
    let c = data(s.call(Method::GET, &format!("/contest/{}", victim.contest), &victim.owner)).await?;
    let e = &c["entries"][0];
    let kept = (c["contest"]["title"].as_str(), c["contest"]["state"].as_str(), c["entries"].as_array().map(Vec::len), e["id"].as_i64(), e["likes"].as_i64(), e["score"].is_null());
    assert_eq!(kept, (Some("他们的比赛"), Some("open"), Some(1), Some(victim.entry), Some(0), true), "the contest and its entry as made: {c}");
    let upload = s.call(Method::HEAD, &victim.upload, &victim.owner).header("Tus-Resumable", "1.0.0").send().await?;
    let at = upload.headers().get("upload-offset").and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!((upload.status(), at.as_deref()), (reqwest::StatusCode::OK, Some("1000")), "the upload stands where its owner left it");
    let m = data(s.call(Method::GET, &format!("/market/service/{}", victim.service), &victim.owner)).await?;
    let kept = (m["service"]["title"].as_str(), m["service"]["published"].as_bool(), m["myRequests"][0]["id"].as_i64(), m["myRequests"][0]["state"].as_str());
    assert_eq!(kept, (Some("他们的服务"), Some(true), Some(victim.request), Some("open")), "the service and the request as made: {m}");
    let e = data(s.call(Method::GET, "/enterprise/space", &victim.colleague)).await?;
    let kept = (e["enterprise"]["id"].as_i64(), e["enterprise"]["name"].as_str(), e["enterprise"]["memberCount"].as_i64(), e["shares"].as_array().map(Vec::len), e["shares"][0]["id"].as_i64());
    assert_eq!(kept, (Some(victim.enterprise), Some("他们的企业"), Some(2), Some(1), Some(victim.share)), "the enterprise, its members and its share as made: {e}");
    Ok(())
}

async fn strangers_never_reach_someone_elses_rows(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let victim = rows_of(&s, "cc", "victim").await?;
    // Strangers are managers and administrators, so a refusal comes from isolation, not their role.
    let other_tenant_manager = s.user("qs", "stranger", 3).await?;
    let other_tenant_admin = s.user("qs", "stranger-admin", 0).await?;
    let same_tenant_user = s.user("cc", "neighbour", 3).await?;
    for (route, scope) in CASES {
        // Collections and provider applications are a template manager's; the rest of the manage
        // and maintenance areas an administrator's.
        let managers = route.contains("/collection/") || route.contains("/manage/service/") || route.contains("/contest/");
        let admins_only = (route.contains("/manage/") && !managers) || route.contains("/maintain/");
        let mut strangers = vec![if admins_only { &other_tenant_admin } else { &other_tenant_manager }];
        if *scope == Scope::User {
            strangers.push(&same_tenant_user);
        }
        for stranger in strangers {
            let answer = attempt(&s, route, stranger, &victim).await?;
            let text = answer.to_string();
            assert!(!text.contains("他们的") && !text.contains(&victim.owner.user_id), "{route} by {}: {text}", stranger.user_id);
            if !acts_on_own_rows(route) {
                assert_eq!(answer["code"], 3000, "{route} by {}: {text}", stranger.user_id);
                let desc = answer["desc"].as_str().unwrap_or_default();
                assert!(desc.contains("not exist") || desc.contains("not found") || desc.contains("does not"), "{route}: a not-found answer: {desc}");
            }
            intact(&s, &victim).await.map_err(|e| format!("after {route} by {}: {e}", stranger.user_id))?;
        }
    }
    Ok(())
}

/// Routes that take a document, or make one from a template: naming another user's private
/// material of the same tenant, by its storage key (buildable from ids a template shows: its
/// creator and a material id) or by its address, is refused (3000, `desc` naming the source), and
/// nothing is saved, queued or drawn.
const DOCUMENT_ROUTES: &[&str] = &["POST /videotask/save", "POST /videotask/store", "POST /videotask/runtask", "POST /videotask/frame", "POST /template/fill"];

#[test]
fn every_document_route_is_a_listed_route() {
    for route in DOCUMENT_ROUTES {
        assert!(CASES.iter().any(|(r, _)| r == route), "{route} is not in CASES");
    }
}

/// A two-second document showing one picture from `src` as a replaceable slot (layer 1), with a
/// text slot (layer 2); no scene background.
fn picture_doc(src: &str) -> serde_json::Value {
    let mut doc = common::rule();
    if let Some(scene) = doc["scenes"][0].as_object_mut() {
        scene.remove("id");
    }
    doc["scenes"][0]["layers"] = serde_json::json!([
        {"type": "picture", "id": 1, "src": src, "x": 0, "y": 0, "w": 64, "h": 64, "startTime": 0, "endTime": 2, "canModify": 1},
        {"type": "word", "id": 2, "startTime": 0, "endTime": 2, "w": 200, "h": 60, "canModify": 1, "content": "字", "maxLength": 8}]);
    doc
}

/// The storage key of `owner`'s uploaded PNG `material`.
fn png_key(owner: &User, material: &str) -> String {
    format!("{}{material}/original.png", reelforge_kit::blob::user_material_prefix(&owner.tenant, &owner.user_id))
}

fn new_row(task_info: String) -> reelforge_task::TaskDraft {
    reelforge_task::TaskDraft {
        task_id: None,
        name: "旧".into(),
        task_info,
        size_category_id: 41,
        used_for: String::new(),
        version: None,
        duration_ms: 2000,
        warnings: Vec::new(),
        template_id: 0,
    }
}

async fn strangers_never_name_someone_elses_materials(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let victim = rows_of(&s, "cc", "victim").await?;
    let neighbour = s.user("cc", "neighbour", 8).await?;
    let key = png_key(&victim.owner, &victim.material);
    assert!(s.blobs.size(&key).await.is_ok(), "the victim's picture is stored under {key}");
    let address = format!("/diyvrbt/material/file/{}/original", victim.material);
    // The neighbour's own template with a picture slot, to fill.
    let own = common::upload(&s, &neighbour, "mine.png", common::PNG).await?;
    let own_doc = picture_doc(&format!("/diyvrbt/material/file/{own}/original"));
    let own_task = data(s.call(Method::POST, "/videotask/save", &neighbour).form(&[("taskInfo", own_doc.to_string()), ("name", "mine".into())]))
        .await?
        .as_i64()
        .ok_or("task id")?;
    let template = data(s.call(Method::POST, "/template/submit", &neighbour).json(&serde_json::json!({"taskId": own_task, "kind": "classic"})))
        .await?["id"]
        .as_i64()
        .ok_or("template id")?;
    // Tasks of the neighbour naming the victim's material, written past the save's check (as rows
    // saved before it would be), to run.
    let store = reelforge_task::TaskStore::new(reelforge_kit::db::connect(&s.db_url).await?);
    let owner = reelforge_task::Owner { tenant: neighbour.tenant.clone(), user_id: neighbour.user_id.clone() };
    let mut stored = Vec::new();
    for (how, src, named) in [("key", key.as_str(), key.as_str()), ("address", address.as_str(), victim.material.as_str())] {
        let doc = picture_doc(src);
        let row = store.save(&owner, new_row(doc.to_string())).await?;
        stored.push(row);
        for route in DOCUMENT_ROUTES {
            let json = |v: serde_json::Value| s.call(Method::POST, &route[5..], &neighbour).json(&v);
            let r = match *route {
                "POST /videotask/save" => s.call(Method::POST, "/videotask/save", &neighbour).form(&[("taskInfo", doc.to_string()), ("name", "theirs".into())]),
                "POST /videotask/store" => json(serde_json::json!({"taskName": "theirs", "videoCreateInfo": doc.to_string()})),
                "POST /videotask/runtask" => json(serde_json::json!({"taskId": row})),
                "POST /videotask/frame" => json(serde_json::json!({"taskInfo": doc.to_string(), "time": 0.5})),
                "POST /template/fill" => json(serde_json::json!({"templateId": template, "replaces": [{"id": "1", "replaceContent": src}]})),
                other => return Err(format!("no attempt written for {other}").into()),
            };
            let res = r.send().await?;
            let kind = res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            let text = res.text().await?;
            assert!(kind.starts_with("application/json"), "{route} naming the victim's {how} answered {kind}, not a refusal");
            let answer: serde_json::Value = serde_json::from_str(&text)?;
            assert_eq!(answer["code"], 3000, "{route} naming the victim's {how}: {answer}");
            let desc = answer["desc"].as_str().unwrap_or_default();
            assert!(desc.contains(named), "{route}: the refusal names the {how} {named}: {desc}");
        }
        let state = data(s.call(Method::GET, &format!("/videotask/state?taskId={row}"), &neighbour)).await?;
        assert_eq!(state["status"], -1, "the run queued nothing: {state}");
    }
    let mine = data(s.call(Method::GET, "/videotask/mine", &neighbour)).await?;
    assert_eq!(mine["total"], 1 + stored.len(), "no task was saved or made from the template: {mine}");
    intact(&s, &victim).await
}

/// A task made from a template may name the template's materials, its creator's, by key or by
/// address: it is filled, saved again and run, and its job carries what the template lends (the
/// worker looks the lent ids up in the creator's library). The same user's document made from no
/// template may not name them.
async fn a_templates_materials_are_usable_through_it_only(backends: common::Backends) -> Fallible<()> {
    use prost::Message;
    let s = common::start_in(backends).await?;
    let maker = s.user("qs", "maker", 3).await?;
    let user = s.user("qs", "user", 8).await?;
    let by_key = common::upload(&s, &maker, "key.png", common::PNG).await?;
    let green = image::RgbaImage::from_pixel(8, 8, image::Rgba([0, 255, 0, 255]));
    let mut png = std::io::Cursor::new(Vec::new());
    green.write_to(&mut png, image::ImageFormat::Png)?;
    let by_id = common::upload(&s, &maker, "id.png", &png.into_inner()).await?;
    let key = png_key(&maker, &by_key);
    let mut doc = picture_doc(&key);
    doc["scenes"][0]["layers"][0]["canModify"] = serde_json::json!(0);
    let second = serde_json::json!({"type": "picture", "id": 3, "src": format!("/diyvrbt/material/file/{by_id}/original"), "x": 64, "y": 0, "w": 64, "h": 64, "startTime": 0, "endTime": 2});
    doc["scenes"][0]["layers"].as_array_mut().ok_or("layers")?.push(second);
    let task = data(s.call(Method::POST, "/videotask/save", &maker).form(&[("taskInfo", doc.to_string()), ("name", "模板".into())])).await?.as_i64().ok_or("task")?;
    let template = data(s.call(Method::POST, "/template/submit", &maker).json(&serde_json::json!({"taskId": task, "kind": "classic"})))
        .await?["id"]
        .as_i64()
        .ok_or("template")?;
    data(s.call(Method::POST, "/template/audit", &maker).json(&serde_json::json!({"id": template, "approve": true}))).await?;

    let filled = data(s.call(Method::POST, "/template/fill", &user).json(&serde_json::json!({"templateId": template, "replaces": [{"id": "2", "replaceContent": "我的"}]})))
        .await?["taskId"]
        .as_i64()
        .ok_or("filled task")?;
    let info = data(s.call(Method::GET, &format!("/videotask/ofone/{filled}"), &user)).await?["videoCreateInfo"].as_str().ok_or("document")?.to_owned();
    assert!(info.contains(&key) && info.contains(&by_id), "{info}");
    let again = s.call(Method::POST, "/videotask/save", &user).form(&[("taskId", filled.to_string()), ("taskInfo", info.clone()), ("name", "我的".into())]);
    assert_eq!(data(again).await?.as_i64(), Some(filled), "saved again through its template");
    data(s.call(Method::POST, "/videotask/runtask", &user).json(&serde_json::json!({"taskId": filled}))).await?;
    let conn = reelforge_kit::db::connect(&s.db_url).await?;
    let queue = reelforge_kit::queue::open(&s.config.queue, &conn).await?;
    let job = loop {
        let delivery = queue.receive(&s.render_queue, std::time::Duration::from_secs(20)).await?.ok_or("the run is queued")?;
        let job = reelforge_proto::render::RenderJob::decode(delivery.body.as_slice())?;
        if job.task_id == filled {
            break job;
        }
        // Another task's job (a starter template's preview): taken off, so that the next one is
        // delivered (RabbitMQ gives a consumer one unacknowledged job at a time).
        queue.ack(delivery).await?;
    };
    assert_eq!((job.user_id.as_str(), job.grant_owner.as_str()), (user.user_id.as_str(), maker.user_id.as_str()));
    assert!(job.granted_keys.contains(&key) && job.granted_materials.contains(&by_id), "{job:?}");

    // Made from no template, the same document is the maker's materials named by someone else.
    let own = s.call(Method::POST, "/videotask/save", &user).form(&[("taskInfo", info.clone()), ("name", "偷".into())]);
    let refused = envelope(own).await?;
    assert!(refused["code"] == 3000 && refused["desc"].as_str().is_some_and(|d| d.contains(&key)), "{refused}");
    let still = envelope(s.call(Method::POST, "/videotask/frame", &user).json(&serde_json::json!({"taskInfo": info, "time": 0.5}))).await?;
    assert!(still["code"] == 3000 && still["desc"].as_str().is_some_and(|d| d.contains(&key)), "{still}");
    Ok(())
}

/// The list routes, with whose rows they list: another tenant's caller (and, for a user's own
/// rows, another user of the same tenant) must find none of the victim's rows in them.
const LIST_ROUTES: &[(&str, Scope)] = &[
    ("GET /videotask/mine", Scope::User),
    ("POST /material/ofuser", Scope::User),
    ("POST /material/ofdefault", Scope::Tenant),
    ("POST /favorite/list", Scope::User),
    ("GET /search/history", Scope::User),
    ("GET /font/ofdefault", Scope::User),
    ("GET /template/list", Scope::Tenant),
    ("GET /template/mine", Scope::User),
    ("GET /template/check", Scope::Tenant),
    ("GET /category/taskvideo", Scope::Tenant),
    ("GET /category/audio", Scope::Tenant),
    ("GET /ring/orders", Scope::User),
    ("GET /manage/ring/orders", Scope::Tenant),
    ("GET /manage/users", Scope::Tenant),
    ("POST /maintain/material/list", Scope::Tenant),
    ("GET /maintain/task/list", Scope::Tenant),
    ("GET /maintain/audit", Scope::Tenant),
    ("GET /contest/list", Scope::Tenant),
    ("GET /market/services", Scope::Tenant),
    ("GET /market/mine", Scope::User),
    ("GET /enterprise/space", Scope::User),
    ("GET /manage/enterprise/list", Scope::Tenant),
];

/// `caller`'s answer of the list route `route`.
async fn list(s: &System, route: &str, caller: &User) -> Fallible<serde_json::Value> {
    let (method, path) = route.split_once(' ').ok_or("route")?;
    let r = if method == "POST" {
        s.call(Method::POST, path, caller).json(&serde_json::json!({}))
    } else {
        s.call(Method::GET, path, caller)
    };
    envelope(r).await
}

/// Every list route swept with two tenants' rows (catalogue T2): the victim sees their rows, a
/// caller of another tenant (an administrator, so that no role hides anything) and another user of
/// the same tenant see none of them.
async fn list_routes_never_show_someone_elses_rows(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let victim = rows_of(&s, "cc", "victim").await?;
    data(s.call(Method::POST, "/search/history/add", &victim.owner).json(&serde_json::json!({"keyword": "他们的搜索"}))).await?;
    let other_tenant_admin = s.user("qs", "stranger-admin", 0).await?;
    let same_tenant_user = s.user("cc", "neighbour", 3).await?;
    for route in ["GET /videotask/mine", "POST /material/ofuser", "GET /search/history", "GET /category/taskvideo"] {
        let own = list(&s, route, &victim.owner).await?;
        assert!(own.to_string().contains("他们的"), "{route}: the victim sees their rows: {own}");
    }
    let favourites = list(&s, "POST /favorite/list", &victim.owner).await?;
    assert!(favourites.to_string().contains(victim.favourite), "{favourites}");
    let theirs = [
        "他们的".to_owned(),
        victim.owner.user_id.clone(),
        victim.colleague.user_id.clone(),
        victim.favourite.to_owned(),
        victim.font.clone(),
        victim.material.clone(),
        victim.video_key.clone(),
        victim.system_material.clone(),
    ];
    for (route, scope) in LIST_ROUTES {
        assert!(NO_ID.contains(route), "{route} is a registered route taking no id");
        let mut strangers = vec![&other_tenant_admin];
        if *scope == Scope::User {
            strangers.push(&same_tenant_user);
        }
        for stranger in strangers {
            let text = list(&s, route, stranger).await?.to_string();
            for row in &theirs {
                assert!(!text.contains(row.as_str()), "{route} by {} shows {row}: {text}", stranger.user_id);
            }
        }
    }
    Ok(())
}

common::on_both_backends!(
    strangers_never_reach_someone_elses_rows,
    strangers_never_name_someone_elses_materials,
    a_templates_materials_are_usable_through_it_only,
    list_routes_never_show_someone_elses_rows,
);
