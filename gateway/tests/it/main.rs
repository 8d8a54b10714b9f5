//! The gateway's integration tests, one binary: each file a module, the shared system in `common`.
//! One binary links the service set once instead of once per file (docs/benchmarks.md, "Build").

mod common;

mod ai;
mod ai_media;
mod ai_picture;
mod aitask;
mod asr;
mod climax;
mod collections;
mod contests;
mod enterprise;
mod frame;
mod hardening;
mod isolation;
mod library;
mod maintain;
mod manage;
mod market;
mod material_edits;
mod maintain_farm;
mod one_click;
mod materials;
mod providers;
mod resumable;
mod revocation;
mod ring;
mod signin;
mod tasks;
mod templates;
mod toolbox;
mod trust;
mod uploads;
mod url_import;
mod video_audit;
