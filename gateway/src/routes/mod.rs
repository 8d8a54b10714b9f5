//! The API routes, one module per noun, and the health endpoints.

pub mod ai;
pub mod ai_picture;
pub mod aitask;
pub mod asr;
pub mod catalogue;
pub mod category;
pub mod collection;
pub mod contest;
pub mod enterprise;
pub mod favourite;
pub mod font;
pub mod frame;
pub mod health;
pub mod history;
pub mod maintain;
pub mod maintain_task;
pub mod manage;
pub mod market;
pub mod provider;
pub mod resumable;
pub mod material;
pub mod material_edit;
pub mod one_click;
pub mod review;
pub mod ring;
pub mod search;
pub mod shape;
pub mod system;
pub mod task;
pub mod template;
pub mod toolbox;
pub mod url_import;
pub mod user;
pub mod video_audit;

use actix_web::web;

/// Registers `/healthz`, `/readyz`, and `/metrics` answering 404 (it is served on the admin address).
pub fn health(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(health::healthz))
        .route("/readyz", web::get().to(health::readyz))
        .route("/metrics", web::get().to(health::metrics));
}

/// Registers the routes under the base path.
pub fn api(cfg: &mut web::ServiceConfig) {
    cfg.route("/system/info", web::get().to(system::info))
        .route("/catalogue/preview/{kind}/{key}", web::get().to(catalogue::preview))
        .route("/catalogue/offer/{catalogue}", web::get().to(catalogue::offer))
        .route("/category/taskvideo", web::get().to(category::list))
        .route("/category/taskvideo", web::post().to(category::create))
        .route("/category/taskvideo/delete", web::post().to(category::delete))
        .route("/category/updatename", web::post().to(category::rename))
        .route("/category/setPush", web::post().to(category::set_push))
        .route("/category/audio", web::get().to(category::audio))
        .route("/search/history/add", web::post().to(search::add))
        .route("/search/history", web::get().to(search::list))
        .route("/search/history/clear", web::post().to(search::clear))
        .route("/favorite/add", web::post().to(favourite::add))
        .route("/favorite/remove", web::post().to(favourite::remove))
        .route("/favorite/list", web::post().to(favourite::list))
        .route("/font/ofdefault", web::get().to(font::of_default))
        .route("/font/ofuseranddefault/{id}", web::get().to(font::of_user_and_default))
        .route("/font/upload", web::post().to(font::upload))
        .route("/font/delete", web::post().to(font::delete))
        .route("/font/delete", web::delete().to(font::delete))
        .route("/font/file/{id}", web::get().to(font::file))
        .route("/font/test", web::post().to(font::test))
        .route("/videotask/save", web::post().to(task::save))
        .route("/videotask/ofone/{id}", web::get().to(task::get))
        .route("/videotask/runtask", web::post().to(task::run))
        .route("/videotask/state", web::get().to(task::state))
        .route("/videotask/mine", web::get().to(task::mine))
        .route("/videotask/events", web::get().to(task::events))
        .route("/videotask/download", web::get().to(task::download))
        .route("/toolbox/types", web::get().to(toolbox::types))
        .route("/toolbox/run", web::post().to(toolbox::run))
        .route("/toolbox/mine", web::get().to(toolbox::mine))
        .route("/toolbox/run/{id}", web::get().to(toolbox::get))
        .route("/toolbox/file/{id}/{index}", web::get().to(toolbox::file))
        .route("/toolbox/use", web::post().to(toolbox::use_output))
        .route("/aitask/smartClips", web::post().to(aitask::smart_clips))
        .route("/aitask/get", web::post().to(aitask::get))
        .route("/aitask/getCategory", web::get().to(aitask::categories))
        .route("/material/v2/batchUrlVideoAddResult", web::post().to(url_import::batch))
        .route("/material/videoClip", web::post().to(material_edit::video_clip))
        .route("/material/cutAudio", web::post().to(material_edit::cut_audio))
        .route("/material/cropVideo", web::post().to(material_edit::crop_video))
        .route("/material/croppicture", web::post().to(material_edit::crop_picture))
        .route("/material/v2/reverVideo", web::post().to(material_edit::reverse_video))
        .route("/material/v2/reverToUuid", web::post().to(material_edit::reversed_uuid))
        .route("/videotask/cover", web::get().to(task::cover))
        .route("/videotask/mediaTicket", web::post().to(task::media_ticket))
        .route("/v2/videotask/cancelTask", web::post().to(task::cancel))
        .route("/v2/videotask/oneClick/template", web::post().to(one_click::template))
        .route("/v2/videotask/oneClick/upload", web::post().to(one_click::upload))
        .route("/v2/videotask/oneClick/run", web::post().to(one_click::run))
        .route("/videotask/ofids/{ids}", web::get().to(task::of_ids))
        .route("/videotask/updateOneTask", web::post().to(task::update_one))
        .route("/videotask/store", web::post().to(task::store))
        .route("/videotask/delete", web::post().to(task::delete))
        .route("/videotask/batchDelete", web::post().to(task::batch_delete))
        .route("/videotask/duplicate", web::post().to(task::duplicate))
        .route("/videotask/clear", web::post().to(task::clear))
        .route("/template/list", web::get().to(template::list))
        .route("/template/mine", web::get().to(template::mine))
        .route("/template/check", web::get().to(template::check_list))
        .route("/template/check/{id}", web::get().to(template::check_get))
        .route("/template/slots/{id}", web::get().to(template::slots))
        .route("/template/media/{id}/{part}", web::get().to(template::preview))
        .route("/template/fill", web::post().to(template::fill))
        .route("/template/submit", web::post().to(template::submit))
        .route("/template/audit", web::post().to(template::audit))
        .route("/template/categories", web::post().to(template::categories))
        .route("/template/setPush", web::post().to(template::set_push))
        .route("/template/{id}", web::get().to(template::get))
        .route("/business/template.csv", web::get().to(template::sheet_csv))
        .route("/business/template.xlsx", web::get().to(template::sheet_xlsx))
        .route("/v2/business/runBusinessCardTasks", web::post().to(template::run_cards))
        .route("/v2/business/runOneBusinessCardTask", web::post().to(template::run_one_card))
        .route("/redis/history/store", web::post().to(history::store))
        .route("/redis/history/getStoreTime", web::get().to(history::store_time))
        .route("/redis/history/getOne", web::get().to(history::get_one))
        .route("/user/sendCode", web::post().to(user::send_code))
        .route("/user/login", web::post().to(user::login))
        .route("/user/handoff", web::post().to(user::handoff))
        .route("/user/me", web::get().to(user::get_me))
        .route("/user/logout", web::post().to(user::logout))
        .route("/manage/users", web::get().to(manage::list))
        .route("/manage/users/level", web::post().to(manage::level))
        .route("/manage/users/disable", web::post().to(manage::disable))
        .route("/ai/abilities", web::get().to(ai::abilities))
        .route("/ai/climax", web::post().to(ai::climax))
        .route("/ai/text", web::post().to(ai::text))
        .route("/ai/keywords", web::post().to(ai::keywords))
        .route("/tts/textToVoice", web::post().to(ai::text_to_voice))
        .route("/ASR/voiceToText", web::post().to(asr::voice_to_text))
        .route("/ai/audit", web::post().to(video_audit::audit))
        .route("/ai/textToImage", web::post().to(ai_picture::text_to_image))
        .route("/ai/similarImage", web::post().to(ai_picture::similar_image))
        .route("/upload/material", web::post().to(material::upload))
        .route("/upload/multimaterial", web::post().to(material::upload_many))
        .route("/upload/resumable", web::post().to(resumable::create))
        .route("/upload/resumable/{id}", web::head().to(resumable::offset))
        .route("/upload/resumable/{id}", web::patch().to(resumable::append))
        .route("/upload/resumable/{id}", web::delete().to(resumable::terminate))
        .route("/material/ofuser", web::post().to(material::of_user))
        .route("/material/ofdefault", web::post().to(material::of_default))
        .route("/material/quota", web::get().to(material::quota))
        .route("/shape/{uuid}", web::get().to(shape::get))
        .route("/material/info/{id}", web::post().to(material::info))
        .route("/material/byIds", web::post().to(material::by_ids))
        .route("/material/updatename", web::post().to(material::rename))
        .route("/material/delete", web::post().to(material::delete))
        .route("/material/batchDelete", web::post().to(material::batch_delete))
        .route("/material/batchDeleteByChoice", web::post().to(material::delete_by_choice))
        .route("/material/updateMaterialCategory", web::post().to(material::move_category))
        .route("/material/updatematerial", web::post().to(material::audit))
        .route("/material/batchUpdateOpenState", web::post().to(material::batch_open_state))
        .route("/material/changeCoverPic", web::post().to(material::change_cover))
        .route("/material/getVideoState", web::post().to(material::video_state))
        .route("/material/getVolumeDB", web::post().to(material::volume))
        .route("/material/file/{id}/{part}", web::get().to(material::file))
        .route("/maintain/material/list", web::post().to(maintain::list))
        .route("/maintain/material/upload", web::post().to(maintain::upload))
        .route("/maintain/material/update", web::post().to(maintain::update))
        .route("/maintain/task/list", web::get().to(maintain_task::list))
        .route("/maintain/task/attempts/{id}", web::get().to(maintain_task::attempts))
        .route("/maintain/task/requeue", web::post().to(maintain_task::requeue))
        .route("/maintain/audit", web::get().to(maintain_task::audit))
        .route("/maintain/farm", web::get().to(maintain_task::farm_state))
        .route("/maintain/farm/maintenance", web::post().to(maintain_task::set_maintenance))
        .route("/maintain/migrations", web::get().to(maintain_task::migrations))
        .route("/maintain/config", web::get().to(maintain_task::settings))
        .route("/maintain/config", web::post().to(maintain_task::set_setting))
        .route("/maintain/catalogue/offer", web::post().to(catalogue::set_offer))
        .route("/videotask/frame", web::post().to(frame::still))
        .route("/manage/overview", web::get().to(review::overview))
        .route("/manage/collection/list", web::get().to(collection::manage_list))
        .route("/manage/collection/save", web::post().to(collection::save))
        .route("/manage/collection/publish", web::post().to(collection::publish))
        .route("/manage/collection/order", web::post().to(collection::order))
        .route("/manage/collection/delete", web::post().to(collection::delete))
        .route("/manage/contest/save", web::post().to(contest::save))
        .route("/manage/contest/score", web::post().to(contest::score))
        .route("/manage/contest/delete", web::post().to(contest::delete))
        .route("/contest/list", web::get().to(contest::list))
        .route("/contest/submit", web::post().to(contest::submit))
        .route("/contest/withdraw", web::post().to(contest::withdraw))
        .route("/contest/like", web::post().to(contest::like))
        .route("/contest/media/{id}/{part}", web::get().to(contest::media))
        .route("/contest/{id}", web::get().to(contest::detail))
        .route("/enterprise/space", web::get().to(enterprise::space))
        .route("/enterprise/share", web::post().to(enterprise::share))
        .route("/enterprise/unshare", web::post().to(enterprise::unshare))
        .route("/enterprise/copy", web::post().to(enterprise::copy))
        .route("/enterprise/member/add", web::post().to(enterprise::add_member))
        .route("/enterprise/member/remove", web::post().to(enterprise::remove_member))
        .route("/enterprise/media/{id}/{part}", web::get().to(enterprise::media))
        .route("/manage/enterprise/list", web::get().to(enterprise::manage_list))
        .route("/manage/enterprise/save", web::post().to(enterprise::save))
        .route("/market/services", web::get().to(market::services))
        .route("/market/service/{id}", web::get().to(market::service))
        .route("/market/mine", web::get().to(market::mine))
        .route("/market/service/save", web::post().to(market::save))
        .route("/market/service/publish", web::post().to(market::publish))
        .route("/market/request", web::post().to(market::request))
        .route("/market/request/withdraw", web::post().to(market::withdraw))
        .route("/market/request/decline", web::post().to(market::decline))
        .route("/market/request/deliver", web::post().to(market::deliver))
        .route("/market/media/{id}/{part}", web::get().to(market::media))
        .route("/manage/collection/{id}", web::get().to(collection::manage_one))
        .route("/service/apply", web::post().to(provider::apply))
        .route("/service/applications", web::get().to(provider::mine))
        .route("/manage/service/list", web::get().to(provider::review_list))
        .route("/manage/service/decide", web::post().to(provider::decide))
        .route("/manage/service/{id}", web::get().to(provider::review_one))
        .route("/collection/list", web::get().to(collection::published))
        .route("/collection/{id}", web::get().to(collection::published_one))
        .route("/manage/review/list", web::post().to(review::review_list))
        .route("/manage/review/decide", web::post().to(review::decide))
        .route("/manage/music/list", web::post().to(review::music_list))
        .route("/manage/music/upload", web::post().to(review::music_upload))
        .route("/manage/music/update", web::post().to(review::music_update))
        .route("/ring/profile", web::get().to(ring::profile))
        .route("/ring/precheck", web::post().to(ring::precheck))
        .route("/ring/check", web::post().to(ring::check))
        .route("/ring/fix", web::post().to(ring::fix))
        .route("/material/v2/ifdownloadbyphone", web::post().to(ring::if_download_by_phone))
        .route("/upload/copyright", web::post().to(ring::upload_copyright))
        .route("/platform/saveRing", web::post().to(ring::save_ring))
        .route("/material/ringUpload", web::post().to(ring::ring_upload))
        .route("/ring/cancel", web::post().to(ring::cancel))
        .route("/ring/orders", web::get().to(ring::orders))
        .route("/manage/ring/orders", web::get().to(ring::tenant_orders))
        .route("/ring/file", web::get().to(ring::file));
}
