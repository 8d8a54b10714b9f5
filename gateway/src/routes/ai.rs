//! The AI ability catalogue, the text abilities and keywords, the music climax cut (the editor's
//! audio panel and ringtones), and text to speech (a dubbing, run on the farm).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::ai as pb;
use serde::{Deserialize, Serialize};

use crate::routes::toolbox::{RunAnswer, refusal};
use crate::{ApiError, AppState, body, caller, envelope};

/// An ability as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AbilityDto {
    key: String,
    group: String,
    name_zh: String,
    name_en: String,
    has_page: bool,
    /// Computed: a provider is configured for the caller's tenant and answers its health check.
    available: bool,
    /// `local`, `http` or `none`.
    provider: String,
    /// Why not available (`not-configured`, `no-local-implementation`, `key-missing`, `unreachable`…);
    /// empty when available. Clients word it themselves.
    reason_code: String,
    /// The same in (English) words, with what would enable it.
    reason: String,
}

/// Lists the AI abilities and whether this deployment offers them to the caller's tenant.
#[utoipa::path(get, path = "/diyvrbt/ai/abilities", responses((status = 200, body = [AbilityDto])))]
pub async fn abilities(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::anonymous(&req, &state)?;
    let list = state.clients.ai.clone().list_abilities(caller.request(pb::ListAbilitiesRequest {})?).await?;
    let out: Vec<AbilityDto> = list
        .into_inner()
        .items
        .into_iter()
        .map(|a| AbilityDto {
            key: a.key,
            group: a.group,
            name_zh: a.name_zh,
            name_en: a.name_en,
            has_page: a.has_page,
            available: a.available,
            provider: a.provider,
            reason_code: a.reason_code,
            reason: a.reason,
        })
        .collect();
    Ok(envelope::ok(out))
}

/// Body of the climax cut: a music material of the caller's (or a system one) and the length of
/// the section wanted, seconds (the ringtone's, the document's duration).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClimaxBody {
    #[serde(default)]
    material_id: String,
    #[serde(default)]
    seconds: f64,
}

/// Where the strongest section lies, milliseconds into the track.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClimaxDto {
    start_ms: u64,
    end_ms: u64,
}

/// The music climax cut: where the strongest `seconds` of the music start (energy and onsets);
/// another caller's material does not exist, bad input is refused (3000) naming the field, with
/// its `data.reason`.
#[utoipa::path(post, path = "/diyvrbt/ai/climax", request_body = ClimaxBody, responses((status = 200, body = ClimaxDto)))]
pub async fn climax(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, crate::frame::ClimaxError> {
    let b: ClimaxBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let user = caller.user()?;
    let frames = state.frames.as_ref().ok_or(ApiError::NotAvailable("the music climax cut on this gateway"))?;
    let cut = frames.climax(&caller.tenant, &user.user_id, &b.material_id, b.seconds).await?;
    Ok(envelope::ok(ClimaxDto { start_ms: cut.start_ms, end_ms: cut.end_ms }))
}

/// Body of a text ability: which one (`text-generation`, `translation`, `rewrite`, `title-generation`,
/// `dialogue-summary`, `smart-reply`, `keyword-generation`), the text (at most 8000 characters) and,
/// for translation, the target language (`zh-CN`, `en-US`).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextBody {
    #[serde(default)]
    ability: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    language: String,
}

/// The text a provider wrote, and its model.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextDto {
    text: String,
    model: String,
}

/// A text ability through its provider (docs/ai.md): the HTTP provider's chat, or a title or summary
/// extracted locally (`model` then names the method). Refused
/// (3000) naming the cause: empty or over-long text, an unsupported language, an ability with no
/// provider ("not-configured: …" with what would enable it), a provider that timed out or failed.
#[utoipa::path(post, path = "/diyvrbt/ai/text", request_body = TextBody, responses((status = 200, body = TextDto)))]
pub async fn text(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: TextBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    let msg = pb::GenerateTextRequest { ability: b.ability, text: b.text, language: b.language };
    let out = state.clients.ai.clone().generate_text(caller.request(msg)?).await?.into_inner();
    Ok(envelope::ok(TextDto { text: out.text, model: out.model }))
}

/// Body of the keyword extraction: the text (at most 8000 characters) and how many keywords
/// (1 to 50; 0 or absent: 10).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordsBody {
    #[serde(default)]
    text: String,
    #[serde(default)]
    top_n: u32,
}

/// One keyword and its TF-IDF weight.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordDto {
    word: String,
    weight: f64,
}

/// Keyword extraction, local: Chinese word segmentation and TF-IDF, heaviest first.
#[utoipa::path(post, path = "/diyvrbt/ai/keywords", request_body = KeywordsBody, responses((status = 200, body = [KeywordDto])))]
pub async fn keywords(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: KeywordsBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    let msg = pb::ExtractKeywordsRequest { text: b.text, top_n: b.top_n };
    let out = state.clients.ai.clone().extract_keywords(caller.request(msg)?).await?.into_inner();
    Ok(envelope::ok(out.items.into_iter().map(|k| KeywordDto { word: k.word, weight: k.weight }).collect::<Vec<_>>()))
}

/// Body of a dubbing (JSON, as the spec's client sends text-to-voice calls).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads this type: the route forwards the fields as they came.
#[allow(dead_code)]
pub struct SpeechBody {
    /// What is said: 1–1000 characters, with at least one letter, character or digit.
    text: String,
    /// `cmn` (普通话) or `en` (English).
    voice: String,
    /// Speed, 0.5–2 (1: the voice's normal speed; absent: 1).
    rate: Option<f64>,
    /// Pitch, a whole number 0–99 (50: the voice's own; absent: 50).
    pitch: Option<u32>,
}

/// Text to speech (`tts/textToVoice`, docs/ai.md): a dubbing queued on the render farm as a
/// `TEXT_TO_VOICE` run; its progress is `/videotask/events?taskId=`, its WAV `/toolbox/run/{id}`'s
/// output 0, which `/toolbox/use` makes the caller's audio material. Refused (3000) before anything
/// is queued: an ability with no working provider for the tenant (`data.reason`: its code, the
/// words in `desc`), a bad field (`data.field`: `text`, `voice`, `rate`, `pitch`, or an unknown key).
#[utoipa::path(post, path = "/diyvrbt/tts/textToVoice", request_body = SpeechBody, responses((status = 200, body = RunAnswer)))]
pub async fn text_to_voice(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    // The fields go to the task service as they came, so that an unknown one is refused by name.
    let fields = body::fields(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    let ask = pb::GetAbilityRequest { key: reelforge_ai::speech::ABILITY.to_owned() };
    let ability = state.clients.ai.clone().get_ability(caller.request(ask)?).await?.into_inner();
    if !ability.available {
        let why = format!("{}: {}", ability.reason_code, ability.reason);
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "reason": ability.reason_code }), &why));
    }
    let ask = reelforge_proto::task::RunToolRequest {
        tool_type: reelforge_ai::speech::TEXT_TO_VOICE.to_owned(),
        params: serde_json::Value::Object(fields).to_string(),
        material_ids: Vec::new(),
        source_task_id: 0,
    };
    match state.clients.task.clone().run_tool(caller.request(ask)?).await {
        Ok(r) => {
            let r = r.into_inner();
            Ok(envelope::ok(RunAnswer { task_id: r.task_id, job_id: r.job_id }))
        }
        Err(s) => refusal(s.into()),
    }
}
