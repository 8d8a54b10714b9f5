//! Materials and their rules, free of transport and SQL types.

use reelforge_kit::status::{ErrorKind, ServiceError};

/// The kinds of material the library holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialKind {
    /// A still picture.
    Picture,
    /// An animated GIF.
    Gif,
    /// A vector shape.
    Shape,
    /// A group of materials.
    MaterialGroup,
    /// A video clip.
    Video,
    /// An audio clip.
    Audio,
    /// A special effect (atmosphere, border).
    SpecialEffects,
    /// An art word.
    ArtWord,
    /// A background.
    Backgrounds,
    /// A dynamic-effect word.
    DynamicWord,
    /// A presentation (pptx).
    Pptx,
}

const KINDS: [(MaterialKind, &str); 11] = [
    (MaterialKind::Picture, "picture"),
    (MaterialKind::Gif, "gif"),
    (MaterialKind::Shape, "shape"),
    (MaterialKind::MaterialGroup, "materialGroup"),
    (MaterialKind::Video, "video"),
    (MaterialKind::Audio, "audio"),
    (MaterialKind::SpecialEffects, "specialEffects"),
    (MaterialKind::ArtWord, "artWord"),
    (MaterialKind::Backgrounds, "backgrounds"),
    (MaterialKind::DynamicWord, "dynamicWord"),
    (MaterialKind::Pptx, "pptx"),
];

/// The file extensions an upload of each kind may have: the spec's lists (editor-core §7) and the
/// common formats GStreamer or libheif decode (mkv, m4v, webp, heic/heif, avif, ogg, flac). The
/// gateway's list must be the same (its test compares them).
pub const UPLOAD_EXTENSIONS: [(MaterialKind, &[&str]); 5] = [
    (MaterialKind::Picture, &["jpg", "jpeg", "png", "bmp", "webp", "heic", "heif", "avif"]),
    (MaterialKind::Video, &["mp4", "m4v", "mov", "mkv", "webm", "avi", "mpeg", "mpg", "vob", "wmv", "3gp"]),
    (MaterialKind::Audio, &["mp3", "m4a", "aac", "wav", "ogg", "flac", "wma"]),
    (MaterialKind::Gif, &["gif"]),
    (MaterialKind::Pptx, &["pptx"]),
];

/// Picture extensions read through libheif (GStreamer has no element for HEIF items).
pub const HEIF_EXTENSIONS: [&str; 3] = ["heic", "heif", "avif"];

/// Picture extensions browsers do not show: a JPEG (or PNG, with alpha) preview is made.
pub const PICTURE_NEEDS_PREVIEW: [&str; 2] = ["heic", "heif"];

/// Video containers browsers do not play whatever their codec: an H.264/AAC MP4 preview is made.
pub const VIDEO_NEEDS_PREVIEW: [&str; 7] = ["wmv", "avi", "mpg", "mpeg", "vob", "3gp", "mkv"];

/// Video codecs (GStreamer caps names) browsers play in MP4, MOV or WebM; any other codec (HEVC,
/// MPEG-4 part 2, Motion JPEG, ProRes) gets a preview too.
pub const PLAYABLE_VIDEO_CODECS: [&str; 4] = ["video/x-h264", "video/x-vp8", "video/x-vp9", "video/x-av1"];

/// Most pixels an uploaded picture (or one GIF frame) may have when decoded.
pub const MAX_PICTURE_PIXELS: u64 = 100_000_000;
/// Most frames an uploaded GIF may have.
pub const MAX_GIF_FRAMES: usize = 1000;
/// Most pixels of all an uploaded GIF's frames together (each frame counted at the GIF's size),
/// which is what decoding it whole costs.
pub const MAX_GIF_PIXELS: u64 = 200_000_000;
/// How big a video or audio upload may be inside, past its byte size: its frames, length and
/// streams (`upload.video_max_pixels`, `upload.media_max_seconds`, `upload.media_max_streams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MediaLimits {
    /// Most pixels of a video's frame.
    pub video_pixels: u64,
    /// Longest duration, seconds.
    pub seconds: u64,
    /// Most decoded streams.
    pub streams: u64,
}

impl MediaLimits {
    /// The limits configured.
    pub fn from_config(c: &reelforge_kit::config::UploadConfig) -> Self {
        Self { video_pixels: c.video_max_pixels, seconds: c.media_max_seconds, streams: c.media_max_streams }
    }
}

impl Default for MediaLimits {
    fn default() -> Self {
        Self::from_config(&reelforge_kit::config::UploadConfig::default())
    }
}
/// How far an uploaded pptx may expand when read.
pub const PPTX_LIMITS: reelforge_kit::ooxml::Limits =
    reelforge_kit::ooxml::Limits { max_entries: 10_000, max_total_bytes: 1 << 30, max_xml_depth: 256 };

/// `data.reason` of an upload refused because it cannot be decoded as what it claims to be.
pub const UNREADABLE_FILE: &str = "unreadable_file";
/// `data.reason` of an upload refused because decoding it would go beyond a limit (pixels, GIF
/// frames, a zip's expansion, a video's frame size, duration or streams).
pub const CONTENT_TOO_LARGE: &str = "content_too_large";

/// `data.reason` of an upload refused because it would take its owner or tenant beyond a quota.
pub const QUOTA_EXCEEDED: &str = "quota_exceeded";

/// How much a user and a tenant may keep: bytes and materials, 0 unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quota {
    /// Bytes one user may keep.
    pub user_bytes: u64,
    /// Materials one user may keep.
    pub user_materials: u64,
    /// Bytes of one tenant's users together.
    pub tenant_bytes: u64,
    /// Materials of one tenant's users together.
    pub tenant_materials: u64,
}

impl Quota {
    /// The quotas configured (MiB become bytes).
    pub fn from_config(c: &reelforge_kit::config::QuotaConfig) -> Self {
        let mib = |n: u64| n.saturating_mul(1024 * 1024);
        Self {
            user_bytes: mib(c.user_mb),
            user_materials: c.user_materials,
            tenant_bytes: mib(c.tenant_mb),
            tenant_materials: c.tenant_materials,
        }
    }
}

/// What a user and their tenant keep: their live uploads (not deleted, not system materials).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Bytes the user keeps.
    pub bytes: u64,
    /// Materials the user keeps.
    pub materials: u64,
    /// Bytes the tenant's users keep together.
    pub tenant_bytes: u64,
    /// Materials the tenant's users keep together.
    pub tenant_materials: u64,
}

/// Whether `used + more` stays within `limit` (0 is unlimited).
fn fits(used: u64, more: u64, limit: u64) -> bool {
    limit == 0 || used.saturating_add(more) <= limit
}

impl Usage {
    /// Which quota one more material of `bytes` would exceed, if any, as the refusal says it.
    pub fn exceeds(&self, quota: &Quota, bytes: u64) -> Option<MaterialError> {
        let over = |what: &str, used: u64, limit: u64| {
            Some(MaterialError::QuotaExceeded { message: format!("quota exceeded: {what} ({used} of {limit} used)"), usage: *self, quota: *quota })
        };
        if !fits(self.bytes, bytes, quota.user_bytes) {
            return over("the user's storage", self.bytes, quota.user_bytes);
        }
        if !fits(self.materials, 1, quota.user_materials) {
            return over("the user's materials", self.materials, quota.user_materials);
        }
        if !fits(self.tenant_bytes, bytes, quota.tenant_bytes) {
            return over("the tenant's storage", self.tenant_bytes, quota.tenant_bytes);
        }
        if !fits(self.tenant_materials, 1, quota.tenant_materials) {
            return over("the tenant's materials", self.tenant_materials, quota.tenant_materials);
        }
        None
    }
}

/// The kind an uploaded file with extension `ext` (lower case) is, if uploads of it are accepted.
pub fn upload_kind(ext: &str) -> Option<MaterialKind> {
    UPLOAD_EXTENSIONS.iter().find(|(_, exts)| exts.contains(&ext)).map(|(k, _)| *k)
}

/// Where a material is in its processing after upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Stored, not yet probed.
    Processing,
    /// Probed and usable.
    Ready,
    /// Probing failed; never offered as usable.
    Failed,
}

impl State {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Processing => "processing",
            Self::Ready => "ready",
            Self::Failed => "failed",
        }
    }

    /// Parses the stored name; unknown names read as ready (rows made before probing existed).
    pub fn parse(s: &str) -> Self {
        match s {
            "processing" => Self::Processing,
            "failed" => Self::Failed,
            _ => Self::Ready,
        }
    }
}

/// What probing found out about a material's file, and the keys of the files made from it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Probed {
    /// Seconds, 0 for stills.
    pub duration: f64,
    /// Pixels, 0 without a picture.
    pub width: i32,
    /// Pixels, 0 without a picture.
    pub height: i32,
    /// Frames per second, 0 for stills and audio.
    pub frame_rate: f64,
    /// Degrees clockwise the picture is to be turned for display (0, 90, 180, 270).
    pub rotation: i32,
    /// Whether there is an audio stream.
    pub has_audio: bool,
    /// The main stream's codec, as GStreamer describes it.
    pub codec: String,
    /// Key of the JPEG cover, empty when none.
    pub cover_key: String,
    /// Key of the filmstrip sprite (video), empty when none.
    pub filmstrip_key: String,
    /// Key of the waveform peaks JSON (audio), empty when none.
    pub waveform_key: String,
    /// Key of the browser-playable preview (H.264/AAC MP4), empty when none.
    pub preview_key: String,
    /// Mean loudness in dBFS, when there is audio.
    pub mean_db: Option<f64>,
    /// Peak level in dBFS, when there is audio.
    pub peak_db: Option<f64>,
}

/// Loudness below this (dBFS) is silence: `getVolumeDB` refuses it.
pub const SILENCE_DB: f64 = -96.0;

/// The prefix of every object a user uploads: `t/{tenant}/u/{user}/materials/`.
pub fn user_prefix(tenant: &str, user_id: &str) -> String {
    reelforge_kit::blob::user_material_prefix(tenant, user_id)
}

/// An uploaded object's key checked against its owner: it must be
/// `t/{tenant}/u/{user}/materials/{uuid}/original.{ext}` with an extension of `kind`; answers the
/// uuid, which becomes the material's id.
pub fn parse_upload_key(owner: &Owner, key: &str, kind: MaterialKind) -> Result<String, MaterialError> {
    let bad = || MaterialError::Invalid(format!("key: `{key}` is not an upload of this user"));
    let rest = key.strip_prefix(&user_prefix(&owner.tenant, &owner.user_id)).ok_or_else(bad)?;
    let (id, file) = rest.split_once('/').ok_or_else(bad)?;
    let ext = file.strip_prefix("original.").ok_or_else(bad)?;
    let id = uuid::Uuid::parse_str(id).map_err(|_| bad())?.to_string();
    if rest != format!("{id}/original.{ext}") {
        return Err(bad());
    }
    match upload_kind(ext) {
        Some(k) if k == kind => Ok(id),
        _ => Err(MaterialError::Invalid(format!("type: `{ext}` is not a {} file", kind.as_str()))),
    }
}

/// The key of a file made from the material whose original is `original_key` (cover.jpg, …).
pub fn derived_key(original_key: &str, file: &str) -> String {
    match original_key.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{file}"),
        None => file.to_owned(),
    }
}

/// Which materials a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// Any.
    #[default]
    Any,
    /// Wider than high, or square.
    Landscape,
    /// Higher than wide.
    Portrait,
}

/// How a list is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Newest first.
    #[default]
    Newest,
    /// Most used in renders first, then newest.
    Hottest,
}

/// Open states: 0 private, 1 open (approved), 2 pending audit, 3 rejected.
pub const OPEN_STATES: std::ops::RangeInclusive<i32> = 0..=3;

/// Checks an open state an owner may set on their own materials: private or submitted for audit;
/// approving and rejecting is the auditors' ([`check_audit_state`]).
pub fn check_owner_open_state(state: i32) -> Result<i32, MaterialError> {
    match state {
        0 | 2 => Ok(state),
        1 | 3 => Err(MaterialError::Forbidden("openState: only an auditor approves or rejects".into())),
        other => Err(MaterialError::Invalid(format!("openState: `{other}` is not 0, 1, 2 or 3"))),
    }
}

/// Checks an open state an auditor sets.
pub fn check_audit_state(state: i32) -> Result<i32, MaterialError> {
    if OPEN_STATES.contains(&state) {
        Ok(state)
    } else {
        Err(MaterialError::Invalid(format!("openState: `{state}` is not 0, 1, 2 or 3")))
    }
}

impl MaterialKind {
    /// Parses the wire name.
    pub fn parse(s: &str) -> Result<Self, MaterialError> {
        KINDS
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(k, _)| *k)
            .ok_or_else(|| MaterialError::Invalid(format!("type: unknown `{s}`")))
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        KINDS.iter().find(|(k, _)| *k == self).map(|(_, n)| *n).unwrap_or("picture")
    }
}

/// Who is asking: materials are always scoped to a tenant and a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The tenant (variant key).
    pub tenant: String,
    /// The user's id.
    pub user_id: String,
}

/// A stored material.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Its id (a UUID).
    pub id: String,
    /// The uploader, empty for system materials.
    pub user_id: String,
    /// Its display name.
    pub name: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Its category, 0 when none.
    pub category_id: i64,
    /// Whether it is shared (1) or private (0).
    pub open_state: i32,
    /// The storage key of the file, made by the server.
    pub relative_path: String,
    /// The storage key of its preview picture, may be empty.
    pub picture_path: String,
    /// Duration in seconds (0 for stills).
    pub time_length: f64,
    /// Pixel size as "WxH".
    pub size: String,
    /// Processing or audit state.
    pub material_state: i32,
    /// Whether it is one of the tenant's system materials.
    pub system: bool,
    /// Creation time, milliseconds since the epoch.
    pub created_ms: i64,
    /// Processing state.
    pub state: State,
    /// Why probing failed, empty otherwise.
    pub fail_reason: String,
    /// Bytes of the original file.
    pub file_size: u64,
    /// Its style class, -1 when none.
    pub style_id: i64,
    /// Why an audit rejected it.
    pub audit_reason: String,
    /// What probing found.
    pub probed: Probed,
}

/// What is needed to record a material; the id and storage key are made by the store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMaterial {
    /// Display name (the file name of the upload).
    pub name: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Its category, 0 when none.
    pub category_id: i64,
    /// Shared (1) or private (0).
    pub open_state: i32,
    /// Preview picture key, may be empty.
    pub picture_path: String,
    /// Duration in seconds.
    pub time_length: f64,
    /// Pixel size as "WxH".
    pub size: String,
    /// Processing or audit state.
    pub material_state: i32,
    /// A tenant system material rather than a user's own.
    pub system: bool,
}

/// Page number (from 1) and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number.
    pub num: u64,
    /// Rows per page.
    pub size: u64,
}

/// Largest page size accepted, and the default (spec platform §9: the library asks 1200 at once).
pub const MAX_PAGE_SIZE: u64 = 1200;

impl PageRequest {
    /// Applies the defaults (page 1 of 1200 rows) to zeros and caps the size.
    pub fn new(num: u32, size: u32) -> Self {
        let num = if num == 0 { 1 } else { u64::from(num) };
        let size = if size == 0 { MAX_PAGE_SIZE } else { u64::from(size).min(MAX_PAGE_SIZE) };
        Self { num, size }
    }
}

/// A list query: the user's own materials or the tenant's system ones, optionally filtered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialQuery {
    /// Only this kind.
    pub kind: Option<MaterialKind>,
    /// Only this category.
    pub category_id: Option<i64>,
    /// The tenant's system materials instead of the user's.
    pub system: bool,
    /// Which page.
    pub page: PageRequest,
    /// Only this style class.
    pub style_id: Option<i64>,
    /// Only this open state.
    pub open_state: Option<i32>,
    /// Only this orientation.
    pub orientation: Orientation,
    /// The sort.
    pub order: Order,
    /// With the users' materials an auditor approved for the tenant's library (system lists).
    pub shared: bool,
}

/// Checks a material name.
pub fn parse_name(name: &str) -> Result<String, MaterialError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(MaterialError::Invalid("materialName: must not be empty".into()));
    }
    if name.chars().count() > 255 {
        return Err(MaterialError::Invalid("materialName: longer than 255 characters".into()));
    }
    Ok(name.to_owned())
}

/// Makes the storage key of a material from trusted parts only: the tenant, the user (none for a
/// system material), the id and a sanitised extension of the original name. The layout is the
/// uploads' (`…/materials/{id}/original.{ext}`), under the tenant's prefix, so the worker's and
/// the validation's tenant confinement accept it and derived files sit beside it.
pub fn storage_key(tenant: &str, user_id: Option<&str>, id: &str, name: &str) -> String {
    let prefix = match user_id {
        Some(user) => reelforge_kit::blob::user_material_prefix(tenant, user),
        None => reelforge_kit::blob::system_material_prefix(tenant),
    };
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()));
    match ext {
        Some(ext) => format!("{prefix}{id}/original.{ext}"),
        None => format!("{prefix}{id}/original"),
    }
}

/// Why a material call failed.
#[derive(Debug, thiserror::Error)]
pub enum MaterialError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// No such material visible to the caller.
    #[error("material {0} does not exist")]
    NotFound(String),
    /// The caller's role may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// Silent audio: no loudness to answer.
    #[error("material {0} is silent (below -96 dB)")]
    Silent(String),
    /// The material has no audio (or has not been probed yet).
    #[error("material {0} has no measured audio")]
    NoAudio(String),
    /// Blob storage failed.
    #[error("material storage: {0}")]
    Blob(#[from] reelforge_kit::BlobError),
    /// This service was started without blob storage.
    #[error("uploads are not available from this material service")]
    NoStorage,
    /// The starter library could not be made.
    #[error("starter library: {0}")]
    Starter(String),
    /// The upload could not be copied or read for its inspection.
    #[error("{0}")]
    Scratch(String),
    /// An upload whose content cannot be used: `reason` is [`UNREADABLE_FILE`] or
    /// [`CONTENT_TOO_LARGE`], the message says what was found.
    #[error("{message}")]
    Refused {
        /// The stable reason clients word themselves.
        reason: &'static str,
        /// What was wrong, for people.
        message: String,
    },
    /// An upload that would take its owner or their tenant beyond a quota.
    #[error("{message}")]
    QuotaExceeded {
        /// Which quota, for people.
        message: String,
        /// What was kept when it was refused.
        usage: Usage,
        /// The quotas.
        quota: Quota,
    },
    /// The database failed.
    #[error("material store")]
    Store(#[from] sea_orm::DbErr),
}

impl MaterialError {
    /// An upload that cannot be decoded as what it claims to be.
    pub fn unreadable(message: impl Into<String>) -> Self {
        Self::Refused { reason: UNREADABLE_FILE, message: message.into() }
    }

    /// An upload that would go beyond a decoding limit.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::Refused { reason: CONTENT_TOO_LARGE, message: message.into() }
    }

    /// The stable reason of a refused upload.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Self::Refused { reason, .. } => Some(reason),
            Self::QuotaExceeded { .. } => Some(QUOTA_EXCEEDED),
            _ => None,
        }
    }
}

impl ServiceError for MaterialError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) | Self::Silent(_) | Self::NoAudio(_) | Self::Refused { .. } | Self::QuotaExceeded { .. } => {
                ErrorKind::Invalid
            }
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::Forbidden(_) => ErrorKind::Forbidden,
            Self::Store(_) | Self::Blob(_) | Self::Starter(_) | Self::Scratch(_) => ErrorKind::Internal,
            Self::NoStorage => ErrorKind::Unavailable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_keys_ignore_hostile_names() {
        assert_eq!(storage_key("qs", Some("u1"), "id1", "cat.PNG"), "t/qs/u/u1/materials/id1/original.png");
        assert_eq!(storage_key("qs", Some("../x"), "id1", "../../etc/passwd"), "t/qs/u/..%2Fx/materials/id1/original");
        assert_eq!(storage_key("qs", None, "id1", "x./../y"), "t/qs/sys/materials/id1/original");
    }

    #[test]
    fn quotas_count_the_new_material() {
        let quota = Quota { user_bytes: 100, user_materials: 2, tenant_bytes: 0, tenant_materials: 3 };
        let used = Usage { bytes: 60, materials: 1, tenant_bytes: 1000, tenant_materials: 2 };
        assert!(used.exceeds(&quota, 40).is_none(), "exactly full fits; the tenant's bytes are unlimited");
        assert!(matches!(used.exceeds(&quota, 41), Some(MaterialError::QuotaExceeded { message, .. }) if message.contains("user's storage")));
        let two = Usage { materials: 2, ..used };
        assert!(matches!(two.exceeds(&quota, 1), Some(MaterialError::QuotaExceeded { message, .. }) if message.contains("user's materials")));
        let full = Usage { tenant_materials: 3, ..used };
        assert!(matches!(full.exceeds(&quota, 1), Some(e) if e.reason() == Some(QUOTA_EXCEEDED)));
        assert!(Usage::default().exceeds(&Quota::default(), u64::MAX).is_none(), "0 is unlimited");
    }

    #[test]
    fn page_defaults() {
        assert_eq!(PageRequest::new(0, 0), PageRequest { num: 1, size: 1200 });
        assert_eq!(PageRequest::new(3, 5000).size, MAX_PAGE_SIZE);
    }

    #[test]
    fn upload_keys_belong_to_their_owner() {
        let me = Owner { tenant: "qs".into(), user_id: "a@x.cn".into() };
        let id = "0b8f2a4e-1f5e-4d3a-9c7b-2a1e3f4d5c6b";
        let key = format!("t/qs/u/a@x.cn/materials/{id}/original.png");
        assert_eq!(parse_upload_key(&me, &key, MaterialKind::Picture).ok().as_deref(), Some(id));
        assert!(parse_upload_key(&me, &key, MaterialKind::Video).is_err(), "a png is no video");
        for bad in [
            format!("t/qs/u/b@x.cn/materials/{id}/original.png"),
            format!("t/cc/u/a@x.cn/materials/{id}/original.png"),
            format!("t/qs/u/a@x.cn/materials/{id}/cover.jpg"),
            "t/qs/u/a@x.cn/materials/not-a-uuid/original.png".to_owned(),
            format!("t/qs/u/a@x.cn/materials/{id}/x/original.png"),
            format!("t/qs/u/a@x.cn/materials/{id}/original.exe"),
        ] {
            assert!(parse_upload_key(&me, &bad, MaterialKind::Picture).is_err(), "{bad}");
        }
        assert_eq!(derived_key(&key, "cover.jpg"), format!("t/qs/u/a@x.cn/materials/{id}/cover.jpg"));
    }

    #[test]
    fn owners_submit_and_auditors_decide() {
        assert!(check_owner_open_state(2).is_ok() && check_owner_open_state(0).is_ok());
        assert!(matches!(check_owner_open_state(1), Err(MaterialError::Forbidden(_))));
        assert!(matches!(check_audit_state(7), Err(MaterialError::Invalid(_))));
    }

    #[test]
    fn kinds_round_trip() -> Result<(), MaterialError> {
        for (k, n) in KINDS {
            assert_eq!(MaterialKind::parse(n)?, k);
            assert_eq!(k.as_str(), n);
        }
        assert!(MaterialKind::parse("rocket").is_err());
        Ok(())
    }
}
