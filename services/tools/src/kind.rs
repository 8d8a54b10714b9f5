//! The toolbox task types of spec platform §9, their pages and whether they run yet.

/// A toolbox task type (spec platform §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolType {
    /// Split a video by times or scene changes.
    VideoSplit,
    /// A pptx to a video.
    PptConverter,
    /// Uploaded clips and a template to an assembled editor task (the `oneClick` routes).
    OneClickFilming,
    /// The sound of a video as mp3, aac or wav.
    ExtractAudio,
    /// Audio plus a picture (or waveform) to a video.
    PrePictureVideo,
    /// Keep or remove ranges of a video, joined.
    QuickCutVideo,
    /// Keep or remove ranges of a sound, joined.
    QuickCutAudio,
    /// A range of a video as an animated GIF.
    VideoToGif,
    /// Replace, mix or gain a video's sound.
    VideoReplaceAudio,
    /// A video to a target size or quality.
    VideoCompress,
    /// Scene detection to the clips to keep.
    IntelligentTask,
    /// The voice of a sound, without its music.
    ExtractPersonAudio,
    /// Skin smoothing and tone.
    VideoBeauty,
    /// Person matting.
    ExtractPortrait,
    /// Upscaling with sharpening.
    IncreaseResolution,
    /// A box of the picture.
    VideoCrop,
    /// A user-drawn box inpainted or blurred.
    VideoRemoveWatermark,
    /// A caption band inpainted or blurred.
    VideoRemoveSubtitle,
    /// Landscape to 9:16 or 1:1.
    VideoHToV,
    /// 0.25× to 4×, pitch kept.
    VideoSpeedup,
    /// Business cards from a sheet (its own page and routes).
    BusinessCard,
    /// Key frames of a video as pictures: one per detected scene, or one every so often (the page
    /// `ai-frame-cut` of §2's tool list; §9 lists no type whose outputs are pictures).
    VideoKeyFrames,
    /// The best frames of a video as cover pictures (the AI ability `cover-generation`, docs/ai.md).
    VideoCover,
    /// A sound's steady noise suppressed (the AI ability `audio-noise-reduction`).
    AudioDenoise,
    /// A recording's echo of a far-end sound cancelled (the AI ability `echo-cancellation`).
    AudioEchoCancel,
    /// A sound's level brought up or down to a loudness (the AI ability `gain-control`).
    AudioGainControl,
    /// A video played backwards, its sound reversed with it (the editor's reverse,
    /// `/material/v2/reverVideo`; §9 lists no type for it).
    VideoReverse,
}

impl ToolType {
    /// Every type, in §9's order (shown, hidden, then the others), then those §9 does not list.
    pub const ALL: [Self; 27] = [
        Self::VideoSplit,
        Self::PptConverter,
        Self::OneClickFilming,
        Self::ExtractAudio,
        Self::PrePictureVideo,
        Self::QuickCutVideo,
        Self::QuickCutAudio,
        Self::VideoToGif,
        Self::VideoReplaceAudio,
        Self::VideoCompress,
        Self::IntelligentTask,
        Self::ExtractPersonAudio,
        Self::VideoBeauty,
        Self::ExtractPortrait,
        Self::IncreaseResolution,
        Self::VideoCrop,
        Self::VideoRemoveWatermark,
        Self::VideoRemoveSubtitle,
        Self::VideoHToV,
        Self::VideoSpeedup,
        Self::BusinessCard,
        Self::VideoKeyFrames,
        Self::VideoCover,
        Self::AudioDenoise,
        Self::AudioEchoCancel,
        Self::AudioGainControl,
        Self::VideoReverse,
    ];

    /// The wire name (`EXTRACT_AUDIO`).
    pub fn name(self) -> &'static str {
        match self {
            Self::VideoSplit => "VIDEO_SPLIT",
            Self::PptConverter => "PPT_CONVERTER",
            Self::OneClickFilming => "ONE_CLICK_FILMING",
            Self::ExtractAudio => "EXTRACT_AUDIO",
            Self::PrePictureVideo => "PRE_PICTURE_VIDEO",
            Self::QuickCutVideo => "QUICK_CUT_VIDEO",
            Self::QuickCutAudio => "QUICK_CUT_AUDIO",
            Self::VideoToGif => "VIDEO_TO_GIF",
            Self::VideoReplaceAudio => "VIDEO_REPLACE_AUDIO",
            Self::VideoCompress => "VIDEO_COMPRESS",
            Self::IntelligentTask => "INTELLIGENT_TASK",
            Self::ExtractPersonAudio => "EXTRACT_PERSON_AUDIO",
            Self::VideoBeauty => "VIDEO_BEAUTY",
            Self::ExtractPortrait => "EXTRACT_PORTRAIT",
            Self::IncreaseResolution => "INCREASE_RESOLUTION",
            Self::VideoCrop => "VIDEO_CROP",
            Self::VideoRemoveWatermark => "VIDEO_REMOVE_WATERMARK",
            Self::VideoRemoveSubtitle => "VIDEO_REMOVE_SUBTITLE",
            Self::VideoHToV => "VIDEO_H_TO_V",
            Self::VideoSpeedup => "VIDEO_SPEEDUP",
            Self::BusinessCard => "BUSINESS_CARD",
            Self::VideoKeyFrames => "VIDEO_KEY_FRAMES",
            Self::VideoCover => "VIDEO_COVER",
            Self::AudioDenoise => "AUDIO_DENOISE",
            Self::AudioEchoCancel => "AUDIO_ECHO_CANCEL",
            Self::AudioGainControl => "AUDIO_GAIN_CONTROL",
            Self::VideoReverse => "VIDEO_REVERSE",
        }
    }

    /// Reads a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The page under `/tools/` (empty for the editor's crop, which has none).
    pub fn path(self) -> &'static str {
        match self {
            Self::VideoSplit => "video-separation",
            Self::PptConverter => "ppt",
            Self::OneClickFilming => "ai-one-step-video-cut",
            Self::ExtractAudio => "extract-audio",
            Self::PrePictureVideo => "audio-to-video",
            Self::QuickCutVideo => "fast-video-cut",
            Self::QuickCutAudio => "fast-audio-cut",
            Self::VideoToGif => "video-to-gif",
            Self::VideoReplaceAudio => "replace-video-volume",
            Self::VideoCompress => "video-compress",
            Self::IntelligentTask => "ai-video-cut",
            Self::ExtractPersonAudio => "vocal-separate",
            Self::VideoBeauty => "intelligent-beauty",
            Self::ExtractPortrait => "ai-extract-portrait",
            Self::IncreaseResolution => "ai-recover-video",
            // The editor's crop and reverse have no page.
            Self::VideoCrop | Self::VideoReverse => "",
            Self::VideoRemoveWatermark => "smart-watermark-remove",
            Self::VideoRemoveSubtitle => "remove-captions",
            Self::VideoHToV => "change-screen",
            Self::VideoSpeedup => "speed-video",
            Self::BusinessCard => "business-card",
            Self::VideoKeyFrames => "ai-frame-cut",
            // The AI abilities' runs have their pages under /ai/ability, not /tools.
            Self::VideoCover | Self::AudioDenoise | Self::AudioEchoCancel | Self::AudioGainControl => "",
        }
    }

    /// Whether §9 lists the type as hidden (shown only where configuration names it).
    pub fn hidden(self) -> bool {
        matches!(
            self,
            Self::ExtractPortrait
                | Self::IncreaseResolution
                | Self::VideoCrop
                | Self::VideoReverse
                | Self::VideoRemoveWatermark
                | Self::VideoRemoveSubtitle
                | Self::VideoHToV
                | Self::VideoCover
                | Self::AudioDenoise
                | Self::AudioEchoCancel
                | Self::AudioGainControl
        )
    }

    /// Whether a tool run of this type can be asked for (`POST /toolbox/run`).
    pub fn runs(self) -> bool {
        matches!(
            self,
            Self::ExtractAudio
                | Self::VideoToGif
                | Self::VideoCompress
                | Self::VideoSpeedup
                | Self::QuickCutVideo
                | Self::QuickCutAudio
                | Self::VideoCrop
                | Self::VideoReverse
                | Self::VideoReplaceAudio
                | Self::PrePictureVideo
                | Self::VideoHToV
                | Self::VideoSplit
                | Self::IntelligentTask
                | Self::ExtractPersonAudio
                | Self::VideoRemoveWatermark
                | Self::VideoRemoveSubtitle
                | Self::PptConverter
                | Self::VideoBeauty
                | Self::IncreaseResolution
                | Self::VideoKeyFrames
                | Self::VideoCover
                | Self::AudioDenoise
                | Self::AudioEchoCancel
                | Self::AudioGainControl
        )
    }

    /// Why the type is not available; `None` when its page works.
    pub fn why_unavailable(self) -> Option<Unavailable> {
        match self {
            Self::PptConverter if crate::pipeline::ppt::office_programs().is_err() => Some(Unavailable::NotConfigured),
            Self::AudioDenoise | Self::AudioEchoCancel | Self::AudioGainControl if !crate::pipeline::dsp::installed() => Some(Unavailable::NoAudioDsp),
            Self::VideoCover if !crate::pipeline::cover::installed() => Some(Unavailable::NoFrameDecoder),
            _ if self.runs() => None,
            // Their pages work through their own routes, not as tool runs: the card routes, and
            // one-click filming's `oneClick` routes (a template filled into an editor task).
            Self::BusinessCard | Self::OneClickFilming => None,
            Self::ExtractPortrait => Some(Unavailable::NoModel),
            _ => Some(Unavailable::NotBuilt),
        }
    }

    /// Why the type is not available, in English words for the user; `None` when its page works.
    pub fn unavailable(self) -> Option<&'static str> {
        self.why_unavailable().map(Unavailable::reason)
    }
}

/// Why a toolbox type is not available: a stable code the interface words in its own language,
/// and the server's English reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// It needs a model, and none ships in a package on the farm.
    NoModel,
    /// Its tool is not built yet.
    NotBuilt,
    /// It needs a program the farm does not have installed (PPT_CONVERTER: LibreOffice's
    /// `soffice` and poppler's `pdftoppm`).
    NotConfigured,
    /// The audio filters' GStreamer element (`webrtcdsp`, with `webrtcechoprobe`) is not installed.
    NoAudioDsp,
    /// The cover frames' decoding elements are not installed (GStreamer's `videoconvert`, `videoscale`).
    NoFrameDecoder,
}

impl Unavailable {
    /// The stable code (`no_model`, `not_built`).
    pub fn code(self) -> &'static str {
        match self {
            Self::NoModel => "no_model",
            Self::NotBuilt => "not_built",
            Self::NotConfigured | Self::NoAudioDsp | Self::NoFrameDecoder => "not_configured",
        }
    }

    /// The reason in English.
    pub fn reason(self) -> &'static str {
        match self {
            Self::NoModel => "person matting needs a segmentation model, and none ships in a package on the farm",
            Self::NotBuilt => "this tool is not built yet",
            Self::NotConfigured => "not configured: LibreOffice (soffice) or poppler (pdftoppm) is not installed on the farm (make deps-debian)",
            Self::NoAudioDsp => {
                "not configured: GStreamer's webrtcdsp and webrtcechoprobe (the Debian package gstreamer1.0-plugins-bad) are not installed on the farm"
            }
            Self::NoFrameDecoder => "not configured: GStreamer's videoconvert (the Debian package gstreamer1.0-plugins-base) is not installed on the farm",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_pages_are_unique() {
        for t in ToolType::ALL {
            assert_eq!(ToolType::parse(t.name()), Some(t));
        }
        let mut paths: Vec<&str> = ToolType::ALL.iter().map(|t| t.path()).filter(|p| !p.is_empty()).collect();
        let n = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), n);
        assert_eq!(ToolType::parse("extract_audio"), None);
    }

    #[test]
    fn only_the_built_tools_run() {
        let runs: Vec<&str> = ToolType::ALL.iter().filter(|t| t.runs()).map(|t| t.name()).collect();
        assert_eq!(runs.len(), 24);
        assert!(ToolType::ExtractPortrait.unavailable().is_some_and(|r| r.contains("model")));
        assert!(ToolType::VideoSpeedup.unavailable().is_none());
        assert_eq!(ToolType::ExtractPortrait.why_unavailable().map(Unavailable::code), Some("no_model"));
        assert_eq!(ToolType::OneClickFilming.why_unavailable(), None, "its page works through the oneClick routes");
        assert!(!ToolType::OneClickFilming.runs(), "and it is no tool run");
        let ppt = ToolType::PptConverter.why_unavailable();
        assert_eq!(ppt.is_none(), crate::pipeline::ppt::office_programs().is_ok());
    }
}
