//! The ability catalogue, free of transport types.

/// The group an ability is listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Creation abilities (创作能力).
    Create,
    /// Analysis abilities (分析能力).
    Analyze,
    /// Other abilities (其他能力).
    Other,
}

impl Group {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Analyze => "analyze",
            Self::Other => "other",
        }
    }
}

/// One listed ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ability {
    /// Stable kebab-case key.
    pub key: &'static str,
    /// Where it is listed.
    pub group: Group,
    /// Chinese name.
    pub name_zh: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// Whether the front end has a page for it (otherwise a description only).
    pub has_page: bool,
}

const fn ability(key: &'static str, group: Group, name_zh: &'static str, name_en: &'static str, has_page: bool) -> Ability {
    Ability { key, group, name_zh, name_en, has_page }
}

/// The key of the music climax cut (`POST /ai/climax`, the same analysis as the ringtone's).
pub const MUSIC_CLIMAX_CUT: &str = "music-climax-cut";

/// The key of the ability hidden for the migu variant.
pub const DYNAMIC_WORD: &str = "dynamic-word";

const CATALOGUE: &[Ability] = &[
    // Creation abilities with a page.
    ability("text-generation", Group::Create, "文本生成", "Text generation", true),
    ability("translation", Group::Create, "翻译", "Translation", true),
    ability("title-generation", Group::Create, "标题生成", "Title generation", true),
    ability("dialogue-summary", Group::Create, "对话摘要", "Dialogue summary", true),
    ability("smart-reply", Group::Create, "智能回复", "Smart reply", true),
    ability("rewrite", Group::Create, "文本改写", "Rewrite", true),
    ability("keyword-generation", Group::Create, "关键词生成", "Keyword generation", true),
    ability("text-to-image", Group::Create, "文生图", "Text to image", true),
    ability("similar-image-generation", Group::Create, "相似图生成", "Similar image generation", true),
    ability("video-highlight-extraction", Group::Create, "视频高光提取", "Video highlight extraction", true),
    ability("cover-generation", Group::Create, "封面自动生成", "Cover auto-generation", true),
    ability(MUSIC_CLIMAX_CUT, Group::Create, "音乐高潮截取", "Music climax cut", true),
    ability("audio-noise-reduction", Group::Create, "音频降噪", "Audio noise reduction", true),
    ability("echo-cancellation", Group::Create, "回声消除", "Echo cancellation", true),
    ability("gain-control", Group::Create, "增益控制", "Gain control", true),
    // Creation abilities listed with a description only.
    ability("video-generation", Group::Create, "视频生成", "Video generation", false),
    ability("style-transfer", Group::Create, "风格迁移", "Style transfer", false),
    ability("cutting", Group::Create, "智能抠图", "Cutting", false),
    ability("makeup", Group::Create, "美妆", "Makeup", false),
    ability("face-fusion", Group::Create, "人脸融合", "Face fusion", false),
    ability("attribute-change", Group::Create, "属性编辑", "Attribute change", false),
    ability("music-creation", Group::Create, "音乐创作", "Music creation", false),
    ability("singing", Group::Create, "AI 演唱", "Singing", false),
    ability("smart-soundtrack", Group::Create, "智能配乐", "Smart soundtrack", false),
    ability(DYNAMIC_WORD, Group::Create, "动效字", "Dynamic-effect word", false),
    // Analysis abilities.
    ability("speech-content-analysis", Group::Analyze, "语音内容分析", "Speech content analysis", true),
    ability("text-to-speech", Group::Analyze, "语音合成", "Text to speech", true),
    ability("keyword-extraction", Group::Analyze, "关键词提取", "Keyword extraction", true),
    ability("video-auditing", Group::Analyze, "视频审核", "Video auditing", true),
    ability("face-recognition", Group::Analyze, "人脸识别", "Face recognition", false),
    // Other abilities.
    ability("gesture-recognition", Group::Other, "手势识别", "Gesture recognition", true),
];

/// Returns the abilities listed for a tenant (variant): the dynamic-effect word is hidden for migu.
/// Whether each is offered is computed from the providers (`crate::provider`), not listed here.
pub fn catalogue(tenant: &str) -> Vec<Ability> {
    CATALOGUE.iter().filter(|a| !(tenant == "migu" && a.key == DYNAMIC_WORD)).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(list: &[Ability], group: Group, page: bool) -> usize {
        list.iter().filter(|a| a.group == group && a.has_page == page).count()
    }

    #[test]
    fn counts_per_group() {
        let all = catalogue("qs");
        assert_eq!(count(&all, Group::Create, true), 15);
        assert_eq!(count(&all, Group::Create, false), 10);
        assert_eq!(count(&all, Group::Analyze, true), 4);
        assert_eq!(count(&all, Group::Analyze, false), 1);
        assert_eq!(count(&all, Group::Other, true), 1);
        assert_eq!(all.len(), 31);
    }

    #[test]
    fn keys_are_unique_kebab_case() {
        let all = catalogue("qs");
        let mut keys: Vec<_> = all.iter().map(|a| a.key).collect();
        assert!(keys.iter().all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '-')));
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), all.len());
    }

    #[test]
    fn dynamic_word_hidden_for_migu() {
        assert!(catalogue("qs").iter().any(|a| a.key == DYNAMIC_WORD));
        assert!(!catalogue("migu").iter().any(|a| a.key == DYNAMIC_WORD));
        assert_eq!(catalogue("migu").len(), 30);
    }
}
