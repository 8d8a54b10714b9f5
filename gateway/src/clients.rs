//! Typed gRPC clients of the eight services. The same types serve both modes: in `all` they reach the
//! in-process services over loopback, in distributed mode the services' own addresses.

use reelforge_proto::{
    ai::ai_service_client::AiServiceClient, auth::auth_service_client::AuthServiceClient,
    category::category_service_client::CategoryServiceClient, favourite::favourite_service_client::FavouriteServiceClient,
    font::font_service_client::FontServiceClient,
    material::material_service_client::MaterialServiceClient, ring::ring_service_client::RingServiceClient,
    task::task_service_client::TaskServiceClient,
};
use reelforge_kit::config::TimeoutConfig;
use tonic::service::interceptor::InterceptedService;
use reelforge_kit::grpc::channel;
use tonic::transport::Channel;

/// The interceptor that carries the request id.
pub type Propagate = fn(tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status>;
/// A channel that carries the request id.
pub type Traced = InterceptedService<Channel, Propagate>;

/// One client per service.
#[derive(Clone)]
pub struct Clients {
    /// Auth service.
    pub auth: AuthServiceClient<Traced>,
    /// Material service.
    pub material: MaterialServiceClient<Traced>,
    /// Category service.
    pub category: CategoryServiceClient<Traced>,
    /// Favourite service.
    pub favourite: FavouriteServiceClient<Traced>,
    /// Font service.
    pub font: FontServiceClient<Traced>,
    /// Task service.
    pub task: TaskServiceClient<Traced>,
    /// AI service.
    pub ai: AiServiceClient<Traced>,
    /// Ring service.
    pub ring: RingServiceClient<Traced>,
}

fn traced(ch: Channel) -> Traced {
    InterceptedService::new(ch, reelforge_kit::telemetry::propagate_request_id as Propagate)
}

impl Clients {
    /// Clients over one channel per service.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        auth: Channel,
        material: Channel,
        category: Channel,
        favourite: Channel,
        font: Channel,
        task: Channel,
        ai: Channel,
        ring: Channel,
    ) -> Self {
        Self {
            auth: AuthServiceClient::new(traced(auth)),
            material: MaterialServiceClient::new(traced(material)),
            category: CategoryServiceClient::new(traced(category)),
            favourite: FavouriteServiceClient::new(traced(favourite)),
            // An upload is one message of up to 30 MB.
            font: FontServiceClient::new(traced(font)).max_encoding_message_size(32 * 1024 * 1024),
            task: TaskServiceClient::new(traced(task)),
            ai: AiServiceClient::new(traced(ai)),
            ring: RingServiceClient::new(traced(ring)),
        }
    }

    /// Clients that all use one channel (every service behind one server).
    pub fn shared(ch: Channel) -> Self {
        Self::new(ch.clone(), ch.clone(), ch.clone(), ch.clone(), ch.clone(), ch.clone(), ch.clone(), ch)
    }

    /// Clients from the configured service URLs.
    pub fn from_config(s: &reelforge_kit::config::ServicesConfig, t: &TimeoutConfig) -> Result<Self, tonic::transport::Error> {
        Ok(Self::new(
            channel(&s.auth.url, t)?,
            channel(&s.material.url, t)?,
            channel(&s.category.url, t)?,
            channel(&s.favourite.url, t)?,
            channel(&s.font.url, t)?,
            channel(&s.task.url, t)?,
            channel(&s.ai.url, t)?,
            channel(&s.ring.url, t)?,
        ))
    }
}
