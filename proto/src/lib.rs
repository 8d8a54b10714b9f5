//! The Reelforge contracts: one gRPC service per file, plus the render queue messages.
//! Generated code is never edited by hand; modules mirror the proto packages so cross-package
//! references resolve, and each package is re-exported under its short name.
#![allow(clippy::all, missing_docs)]

/// The generated packages, nested as in the `.proto` files.
pub mod reelforge {
    /// Shared messages: the caller, paging.
    pub mod common {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.common.v1");
        }
    }
    /// Sign-in by mail code and token verification.
    pub mod auth {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.auth.v1");
        }
    }
    /// The material library.
    pub mod material {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.material.v1");
        }
    }
    /// Task-video categories.
    pub mod category {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.category.v1");
        }
    }
    /// Favourites.
    pub mod favourite {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.favourite.v1");
        }
    }
    /// Fonts: system fonts and user uploads.
    pub mod font {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.font.v1");
        }
    }
    /// Video tasks: save, fetch, run, state.
    pub mod task {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.task.v1");
        }
    }
    /// The AI ability catalogue.
    pub mod ai {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.ai.v1");
        }
    }
    /// Video ringtones: delivery profiles, checks and ring orders.
    pub mod ring {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.ring.v1");
        }
    }
    /// Render queue message bodies (no service).
    pub mod render {
        /// Version 1 of the contract.
        pub mod v1 {
            tonic::include_proto!("reelforge.render.v1");
        }
    }
}

pub use reelforge::common::v1 as common;
pub use reelforge::auth::v1 as auth;
pub use reelforge::material::v1 as material;
pub use reelforge::category::v1 as category;
pub use reelforge::favourite::v1 as favourite;
pub use reelforge::font::v1 as font;
pub use reelforge::task::v1 as task;
pub use reelforge::ai::v1 as ai;
pub use reelforge::ring::v1 as ring;
pub use reelforge::render::v1 as render;
