//! The OpenAPI document at `/diyvrbt/openapi.json` and a small docs page at `/diyvrbt/docs`.

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::routes::{ai, catalogue, category, favourite, font, frame, history, manage, material, search, shape, system, task, template, user};

/// The API description, built from the handlers' annotations.
#[derive(OpenApi)]
#[openapi(
    info(title = "Reelforge API", description = "Every answer is the envelope {code, data, desc}: 2000 success, 3000 failure with a message, 4000/4001 login expired. Bodies may be form-encoded or JSON."),
    paths(
        system::info, category::list, category::create, category::delete, category::rename,
        favourite::add, favourite::remove, favourite::list, task::save, task::get, task::run, task::state,
        task::mine, task::cancel, task::events, task::download, task::cover, task::media_ticket,
        user::send_code, user::login, user::handoff, user::get_me, user::logout,
        manage::list, manage::level, manage::disable, ai::abilities,
        category::set_push, category::audio, search::add, search::list, search::clear,
        font::of_default, font::of_user_and_default, font::upload, font::delete, font::file, font::test,
        task::of_ids, task::update_one, task::store, task::delete, task::batch_delete, task::duplicate, task::clear,
        history::store, history::store_time, history::get_one,
        material::upload, material::upload_many, material::of_user, material::of_default, material::info,
        material::by_ids, material::rename, material::delete, material::batch_delete, material::delete_by_choice,
        material::move_category, material::audit, material::batch_open_state, material::change_cover,
        material::video_state, material::volume, material::file,
        shape::get, catalogue::preview,
        template::list, template::mine, template::check_list, template::check_get, template::get, template::slots, template::preview,
        template::fill, template::submit, template::audit, template::categories, template::set_push,
        template::sheet_csv, template::sheet_xlsx, template::run_cards, template::run_one_card,
        frame::still
    )
)]
pub struct ApiDoc;

/// Registers the document and the page.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/openapi.json", web::get().to(document)).route("/docs", web::get().to(page));
}

async fn document() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

async fn page() -> HttpResponse {
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(DOCS_PAGE)
}

const DOCS_PAGE: &str = r#"<!doctype html><html lang="en"><meta charset="utf-8"><title>Reelforge API</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2em;max-width:960px}code{background:#f3f3f3;padding:1px 4px}
h2{margin-top:1.5em}.m{display:inline-block;width:4em;font-weight:bold}</style>
<h1>Reelforge API</h1><p id="d"></p><p>Machine-readable: <a href="openapi.json">openapi.json</a></p><div id="p"></div>
<script>fetch('openapi.json').then(r=>r.json()).then(doc=>{document.getElementById('d').textContent=doc.info.description;
const p=document.getElementById('p');for(const [path,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){
const e=document.createElement('div');e.innerHTML='<span class=m>'+m.toUpperCase()+'</span> <code></code> <span></span>';
e.querySelector('code').textContent=path;e.querySelector('span:last-child').textContent=op.description||op.summary||'';p.appendChild(e);}}});</script></html>"#;
