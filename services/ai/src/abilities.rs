//! The abilities' methods: text through the HTTP provider, or a title and a summary extracted
//! locally (`extract`); keywords locally (jieba's word segmentation with its embedded dictionary,
//! then TF-IDF against its embedded IDF table).

use std::sync::OnceLock;

use jieba_rs::{Jieba, KeywordExtract, TfIdf};

use crate::provider::{AiError, Providers};

/// The longest text an ability takes, in characters.
pub const MAX_TEXT_CHARS: usize = 8000;

/// The most keywords asked for.
pub const MAX_KEYWORDS: usize = 50;

fn checked(text: &str) -> Result<&str, AiError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(AiError::BadInput("text is empty".into()));
    }
    let n = t.chars().count();
    if n > MAX_TEXT_CHARS {
        return Err(AiError::BadInput(format!("text is {n} characters long, at most {MAX_TEXT_CHARS} are taken")));
    }
    Ok(t)
}

/// The target languages translation takes.
pub const LANGUAGES: &[(&str, &str)] = &[("zh-CN", "Simplified Chinese"), ("en-US", "English")];

/// The system prompt of a text ability.
fn prompt(ability: &str, language: &str) -> Result<String, AiError> {
    Ok(match ability {
        "text-generation" => "You write the text the user asks for, in the user's language. Answer with the text only.".into(),
        "rewrite" => "Rewrite the user's text with the same meaning in other words, in the same language. Answer with the text only.".into(),
        "title-generation" => "Write one short title (at most 30 characters) for the user's text, in its language. Answer with the title only.".into(),
        "dialogue-summary" => "Summarise the user's dialogue in a few sentences, in its language: who wants what and what was agreed. Answer with the summary only.".into(),
        "smart-reply" => "Write one short, friendly reply to the user's message, in its language. Answer with the reply only.".into(),
        "keyword-generation" => "Give five to ten keywords for the user's text, in its language, separated by commas. Answer with the keywords only.".into(),
        "translation" => {
            let (_, name) = LANGUAGES
                .iter()
                .find(|(k, _)| *k == language)
                .ok_or_else(|| AiError::BadInput(format!("language \"{language}\" is not supported; use zh-CN or en-US")))?;
            format!("Translate the user's text into {name}. Answer with the translation only.")
        }
        other => return Err(AiError::BadInput(format!("ability \"{other}\" is not a text ability; use one of {}", TEXT_ABILITIES.join(", ")))),
    })
}

/// The abilities `generate_text` serves: a text in, a text out.
pub const TEXT_ABILITIES: &[&str] =
    &["text-generation", "translation", "rewrite", "title-generation", "dialogue-summary", "smart-reply", "keyword-generation"];

/// A text ability for `tenant` through its provider: the HTTP provider's chat, or, for a title or a
/// summary whose provider is `local`, the sentences the text itself ranks first (`extract`); answers
/// the text and the model's (or method's) name.
pub async fn generate_text(providers: &Providers, tenant: &str, ability: &str, text: &str, language: &str) -> Result<(String, String), AiError> {
    let system = prompt(ability, language)?;
    let text = checked(text)?;
    if crate::extract::ABILITIES.contains(&ability) && providers.status(tenant, ability).await.map_err(AiError::Unavailable)? == "local" {
        let (ability, text) = (ability.to_owned(), text.to_owned());
        let out = tokio::task::spawn_blocking(move || if ability == "title-generation" { crate::extract::title(&text) } else { crate::extract::summary(&text) })
            .await
            .map_err(|e| AiError::Upstream(format!("the extraction stopped: {e}")))?;
        return Ok((out, crate::extract::METHOD.to_owned()));
    }
    let http = providers.http(tenant, ability).await?;
    let out = http.chat(providers.client(), &system, text).await?;
    Ok((out.trim().to_owned(), http.model().to_owned()))
}

/// The word segmenter and the keyword table, loaded once (~1 s).
pub(crate) fn engine() -> &'static (Jieba, TfIdf) {
    static ENGINE: OnceLock<(Jieba, TfIdf)> = OnceLock::new();
    ENGINE.get_or_init(|| (Jieba::new(), TfIdf::default()))
}

/// The `top_n` (1..=50) keywords of `text` with their TF-IDF weights, heaviest first. Runs on the
/// blocking pool (the first call loads the dictionary, ~1 s).
pub async fn extract_keywords(text: &str, top_n: usize) -> Result<Vec<(String, f64)>, AiError> {
    let text = checked(text)?.to_owned();
    if top_n > MAX_KEYWORDS {
        return Err(AiError::BadInput(format!("topN is {top_n}, at most {MAX_KEYWORDS}")));
    }
    let top_n = if top_n == 0 { 10 } else { top_n };
    tokio::task::spawn_blocking(move || {
        let (jieba, tfidf) = engine();
        tfidf.extract_keywords(jieba, &text, top_n, Vec::new()).into_iter().map(|k| (k.keyword, k.weight)).collect()
    })
    .await
    .map_err(|e| AiError::Upstream(format!("keyword extraction stopped: {e}")))
}
