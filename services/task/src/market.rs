//! The service marketplace (issue 30): service providers of a tenant publish services (a template
//! design or a video-making service: a description, sample works of their own, a price text and a
//! delivery time); users place requests; the provider answers one by delivering one of their
//! rendered works, copied into the requester's works, or by declining it with a reason. The rules
//! live here; `store::market` holds the rows. Who is a provider is the auth service's to say
//! (`Providers`): an approved application makes one.

use crate::domain::{Owner, TaskError};

/// Longest title, in characters.
pub const TITLE_MAX: usize = 40;
/// Longest description, in characters.
pub const DESCRIPTION_MAX: usize = 1000;
/// Longest price text, in characters.
pub const PRICE_MAX: usize = 40;
/// Longest request note, in characters.
pub const NOTE_MAX: usize = 500;
/// Longest reason for declining, in characters.
pub const REASON_MAX: usize = 200;
/// Most sample works of one service.
pub const SAMPLES_MAX: usize = 6;
/// The longest delivery time, in days.
pub const DAYS_MAX: i32 = 60;

/// Whether a user is a service provider, as the auth service knows it.
#[async_trait::async_trait]
pub trait Providers: Send + Sync {
    /// Whether `owner` is a service provider of their tenant.
    async fn is_provider(&self, owner: &Owner) -> Result<bool, TaskError>;
}

/// A task service that cannot ask: nobody is a provider.
pub struct NoProviders;

#[async_trait::async_trait]
impl Providers for NoProviders {
    async fn is_provider(&self, _owner: &Owner) -> Result<bool, TaskError> {
        Ok(false)
    }
}

/// What a service offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceKind {
    /// 模板设计: the provider designs a template.
    Template,
    /// 视频制作: the provider makes the video.
    Video,
}

impl ServiceKind {
    /// Its name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Template => "template",
            Self::Video => "video",
        }
    }

    /// Reads a kind; the message names the field.
    pub fn parse(text: &str) -> Result<Self, TaskError> {
        match text.trim() {
            "template" => Ok(Self::Template),
            "video" => Ok(Self::Video),
            other => Err(TaskError::Invalid(format!("kind: `{other}` is not template or video"))),
        }
    }
}

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestState {
    /// Waiting for the provider.
    Open,
    /// Taken back by the requester.
    Withdrawn,
    /// Declined by the provider, with a reason.
    Declined,
    /// Answered with a work, now in the requester's works.
    Delivered,
}

impl RequestState {
    const ALL: [Self; 4] = [Self::Open, Self::Withdrawn, Self::Declined, Self::Delivered];

    /// Its name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Withdrawn => "withdrawn",
            Self::Declined => "declined",
            Self::Delivered => "delivered",
        }
    }

    /// Reads a stored state.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == text)
    }

    /// Refuses `action` ("withdrawn", "declined", "delivered") unless the request is open.
    pub fn require_open(self, id: i64, action: &str) -> Result<(), TaskError> {
        if self == Self::Open {
            Ok(())
        } else {
            Err(TaskError::Invalid(format!("requestId: request {id} is {}, only an open request is {action}", self.name())))
        }
    }
}

/// A service as a provider saves it (`id` 0: a new one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServiceInput {
    pub id: i64,
    pub title: String,
    pub kind: String,
    pub description: String,
    pub price: String,
    pub delivery_days: i32,
    pub sample_task_ids: Vec<i64>,
}

/// A save's checked fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedService {
    pub title: String,
    pub kind: ServiceKind,
    pub description: String,
    pub price: String,
    pub delivery_days: i32,
    /// In order, each once.
    pub sample_task_ids: Vec<i64>,
}

fn within(field: &str, text: &str, max: usize) -> Result<(), TaskError> {
    if text.chars().count() > max {
        return Err(TaskError::Invalid(format!("{field}: at most {max} characters")));
    }
    Ok(())
}

/// Checks a save: trimmed texts within their lengths, 1–60 days, at most six samples (each once).
pub fn check_service(input: &ServiceInput) -> Result<CheckedService, TaskError> {
    let title = input.title.trim();
    if title.is_empty() {
        return Err(TaskError::Invalid("title: required".into()));
    }
    within("title", title, TITLE_MAX)?;
    let kind = ServiceKind::parse(&input.kind)?;
    within("description", input.description.trim(), DESCRIPTION_MAX)?;
    within("price", input.price.trim(), PRICE_MAX)?;
    if !(1..=DAYS_MAX).contains(&input.delivery_days) {
        return Err(TaskError::Invalid(format!("deliveryDays: {} is out of range 1–{DAYS_MAX}", input.delivery_days)));
    }
    let mut samples: Vec<i64> = Vec::new();
    for id in &input.sample_task_ids {
        if !samples.contains(id) {
            samples.push(*id);
        }
    }
    if samples.len() > SAMPLES_MAX {
        return Err(TaskError::Invalid(format!("sampleTaskIds: at most {SAMPLES_MAX} samples")));
    }
    Ok(CheckedService {
        title: title.to_owned(),
        kind,
        description: input.description.trim().to_owned(),
        price: input.price.trim().to_owned(),
        delivery_days: input.delivery_days,
        sample_task_ids: samples,
    })
}

/// Checks a required text (a note, a reason) within `max` characters; answers it trimmed.
pub fn required_text(field: &str, text: &str, max: usize) -> Result<String, TaskError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TaskError::Invalid(format!("{field}: required")));
    }
    within(field, text, max)?;
    Ok(text.to_owned())
}

/// A service with what a viewer sees of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Service {
    pub id: i64,
    pub provider_id: String,
    pub title: String,
    pub kind: ServiceKind,
    pub description: String,
    pub price: String,
    pub delivery_days: i32,
    pub sample_task_ids: Vec<i64>,
    pub published: bool,
    /// The viewer provides it.
    pub mine: bool,
    /// Open requests to it (counted for its provider only).
    pub open_requests: i64,
    pub updated_ms: i64,
    /// Its first sample that has a cover, for a card: the task and the cover's key (0 and "": none).
    pub cover_task_id: i64,
    pub cover_key: String,
}

/// A sample work of a service: its name and media keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub task_id: i64,
    pub name: String,
    pub video_key: String,
    pub cover_key: String,
}

/// A request with what a viewer sees of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub id: i64,
    pub service_id: i64,
    pub service_title: String,
    pub note: String,
    pub state: RequestState,
    pub reason: String,
    /// The requester's task the delivered work became (0 until delivered).
    pub delivered_task_id: i64,
    /// The viewer placed it.
    pub mine: bool,
    pub created_ms: i64,
    pub updated_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_is_checked_field_by_field() {
        let ok = ServiceInput { title: " 拜年视频定制 ".into(), kind: "video".into(), delivery_days: 3, sample_task_ids: vec![4, 5, 4], ..Default::default() };
        let checked = check_service(&ok).ok();
        assert_eq!(checked.as_ref().map(|c| (c.title.as_str(), c.kind, c.sample_task_ids.clone())), Some(("拜年视频定制", ServiceKind::Video, vec![4, 5])));
        let message = |i: ServiceInput| check_service(&i).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(message(ServiceInput { title: String::new(), ..ok.clone() }), "title: required");
        assert_eq!(message(ServiceInput { kind: "gig".into(), ..ok.clone() }), "kind: `gig` is not template or video");
        assert_eq!(message(ServiceInput { delivery_days: 0, ..ok.clone() }), "deliveryDays: 0 is out of range 1–60");
        assert_eq!(message(ServiceInput { price: "元".repeat(41), ..ok.clone() }), "price: at most 40 characters");
        assert_eq!(message(ServiceInput { sample_task_ids: (1..=7).collect(), ..ok }), "sampleTaskIds: at most 6 samples");
        assert_eq!(required_text("note", "  ", NOTE_MAX).err().map(|e| e.to_string()), Some("note: required".into()));
    }

    #[test]
    fn only_an_open_request_is_answered() {
        assert!(RequestState::Open.require_open(3, "delivered").is_ok());
        let e = RequestState::Withdrawn.require_open(3, "delivered").err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "requestId: request 3 is withdrawn, only an open request is delivered");
        assert_eq!(RequestState::parse("declined"), Some(RequestState::Declined));
    }
}
