//! Channels to the other services, with the configured deadlines.

use tonic::transport::{Channel, Endpoint};

use crate::config::TimeoutConfig;

/// Makes a lazily connecting channel to `url` whose connects and calls time out as `timeouts`
/// says (a stream's deadline is its first answer: its messages may follow for as long as they
/// come); must run inside a Tokio runtime.
pub fn channel(url: &str, timeouts: &TimeoutConfig) -> Result<Channel, tonic::transport::Error> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(TimeoutConfig::of(timeouts.connect_seconds))
        .timeout(TimeoutConfig::of(timeouts.service_call_seconds))
        .connect_lazy())
}
