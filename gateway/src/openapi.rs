//! The OpenAPI document at `/diyvrbt/openapi.json` and a small docs page at `/diyvrbt/docs`, whose
//! script and style are served beside it (`docs.js`, `docs.css`) so that it runs under its own strict policy.

use actix_web::http::header::CONTENT_SECURITY_POLICY;
use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::routes::{ai, ai_picture, aitask, asr, catalogue, category, collection, contest, enterprise, favourite, font, frame, history, maintain, maintain_task, manage, market, material, one_click, provider, resumable, review, ring, search, shape, system, task, template, toolbox, url_import, user, video_audit};

/// The API description, built from the handlers' annotations.
#[derive(OpenApi)]
#[openapi(
    info(title = "Reelforge API", description = "Every answer is the envelope {code, data, desc}: 2000 success, 3000 failure with a message, 4000/4001 login expired. Bodies may be form-encoded or JSON."),
    paths(
        system::info, category::list, category::create, category::delete, category::rename,
        favourite::add, favourite::remove, favourite::list, task::save, task::get, task::run, task::state,
        task::mine, task::cancel, task::events, task::download, task::cover, task::media_ticket,
        user::send_code, user::login, user::handoff, user::get_me, user::logout,
        manage::list, manage::level, manage::disable, ai::abilities, ai::climax, ai::text, ai::keywords, ai::text_to_voice, asr::voice_to_text, video_audit::audit, ai_picture::text_to_image, ai_picture::similar_image,
        category::set_push, category::audio, search::add, search::list, search::clear,
        font::of_default, font::of_user_and_default, font::upload, font::delete, font::file, font::test,
        task::of_ids, task::update_one, task::store, task::delete, task::batch_delete, task::duplicate, task::clear,
        history::store, history::store_time, history::get_one,
        material::upload, material::upload_many, resumable::create, resumable::offset, resumable::append, resumable::terminate, material::of_user, material::of_default, material::info,
        material::by_ids, material::rename, material::delete, material::batch_delete, material::delete_by_choice,
        material::move_category, material::audit, material::batch_open_state, material::change_cover,
        material::video_state, material::volume, material::file, material::quota,
        maintain::list, maintain::upload, maintain::update,
        maintain_task::list, maintain_task::attempts, maintain_task::requeue, maintain_task::audit, maintain_task::farm_state, maintain_task::migrations,
        maintain_task::set_maintenance, maintain_task::settings, maintain_task::set_setting,
        collection::published, collection::published_one, collection::manage_list, collection::manage_one, collection::save,
        collection::publish, collection::order, collection::delete,
        contest::list, contest::detail, contest::submit, contest::withdraw, contest::like, contest::media, contest::save, contest::score, contest::delete,
        enterprise::space, enterprise::share, enterprise::unshare, enterprise::copy, enterprise::add_member, enterprise::remove_member,
        enterprise::media, enterprise::manage_list, enterprise::save,
        market::services, market::service, market::mine, market::save, market::publish, market::request, market::withdraw,
        market::decline, market::deliver, market::media,
        provider::apply, provider::mine, provider::review_list, provider::review_one, provider::decide,
        shape::get, catalogue::preview, catalogue::offer, catalogue::set_offer,
        template::list, template::mine, template::check_list, template::check_get, template::get, template::slots, template::preview,
        template::fill, template::submit, template::audit, template::categories, template::set_push,
        template::sheet_csv, template::sheet_xlsx, template::run_cards, template::run_one_card,
        frame::still,
        review::overview, review::review_list, review::decide, review::music_list, review::music_upload, review::music_update,
        ring::profile, ring::precheck, ring::check, ring::fix, ring::if_download_by_phone, ring::upload_copyright, ring::save_ring,
        ring::ring_upload, ring::cancel, ring::orders, ring::tenant_orders, ring::file,
        toolbox::types, toolbox::run, toolbox::mine, toolbox::get, toolbox::file, toolbox::use_output,
        aitask::smart_clips, aitask::get, aitask::categories, url_import::batch,
        one_click::template, one_click::upload, one_click::run,
        crate::routes::material_edit::video_clip, crate::routes::material_edit::cut_audio, crate::routes::material_edit::crop_video,
        crate::routes::material_edit::crop_picture, crate::routes::material_edit::reverse_video, crate::routes::material_edit::reversed_uuid
    )
)]
pub struct ApiDoc;

/// Registers the document, the page and the page's script and style.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/openapi.json", web::get().to(document))
        .route("/docs", web::get().to(page))
        .route("/docs.js", web::get().to(script))
        .route("/docs.css", web::get().to(style));
}

async fn document() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

/// The page's own policy: it loads its script, its style and the document from here, and nothing
/// else; the SPA's policy (`harden.rs`) stays as it is.
const DOCS_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

async fn page() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((CONTENT_SECURITY_POLICY, DOCS_POLICY))
        .body(DOCS_PAGE)
}

async fn script() -> HttpResponse {
    HttpResponse::Ok().content_type("text/javascript; charset=utf-8").body(DOCS_SCRIPT)
}

async fn style() -> HttpResponse {
    HttpResponse::Ok().content_type("text/css; charset=utf-8").body(DOCS_STYLE)
}

// No inline script or style: the page works under a policy without 'unsafe-inline'.
const DOCS_PAGE: &str = r#"<!doctype html><html lang="en"><meta charset="utf-8"><title>Reelforge API</title>
<link rel="stylesheet" href="docs.css"><script src="docs.js" defer></script>
<h1>Reelforge API</h1><p id="d"></p><p>Machine-readable: <a href="openapi.json">openapi.json</a></p><div id="p"></div></html>"#;

const DOCS_STYLE: &str = "body{font:14px/1.5 system-ui,sans-serif;margin:2em;max-width:960px}code{background:#f3f3f3;padding:1px 4px}
h2{margin-top:1.5em}.m{display:inline-block;width:4em;font-weight:bold}
";

const DOCS_SCRIPT: &str = r#"fetch('openapi.json').then(r=>r.json()).then(doc=>{document.getElementById('d').textContent=doc.info.description;
const p=document.getElementById('p');for(const [path,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){
const e=document.createElement('div');const v=document.createElement('span');v.className='m';v.textContent=m.toUpperCase();
const c=document.createElement('code');c.textContent=path;const d=document.createElement('span');d.textContent=op.description||op.summary||'';
e.append(v,' ',c,' ',d);p.appendChild(e);}}});
"#;
