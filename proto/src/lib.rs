//! The Reelforge contracts: one gRPC service per file, plus the render queue messages.
//! Generated code is never edited by hand.
#![allow(clippy::all, missing_docs)]

/// Shared messages: the caller, paging.
pub mod common {
    tonic::include_proto!("reelforge.common.v1");
}
/// Sign-in by mail code and token verification.
pub mod auth {
    tonic::include_proto!("reelforge.auth.v1");
}
/// The material library.
pub mod material {
    tonic::include_proto!("reelforge.material.v1");
}
/// Task-video categories.
pub mod category {
    tonic::include_proto!("reelforge.category.v1");
}
/// Favourites.
pub mod favourite {
    tonic::include_proto!("reelforge.favourite.v1");
}
/// Video tasks: save, fetch, run, state.
pub mod task {
    tonic::include_proto!("reelforge.task.v1");
}
/// The AI ability catalogue.
pub mod ai {
    tonic::include_proto!("reelforge.ai.v1");
}
/// Render queue message bodies (no service).
pub mod render {
    tonic::include_proto!("reelforge.render.v1");
}
