//! The tests of the crate's internals, one module per source file (`units::yuv` tests `src/yuv.rs`):
//! here rather than in `#[cfg(test)]` modules so the crate, at opt-level 3 in every profile, is not
//! built a second time as a unit-test harness (`[lib] test = false`; docs/benchmarks.md, "Build").
//! The internals they reach are `#[doc(hidden)] pub` in the crate.

mod compose;
mod encode;
mod engine;
mod materials;
mod mix;
mod mp4edit;
mod threads;
mod yuv;

use reelforge_render::encode::EncodeSettings;

/// Returns a 64×36, 30 fps encoder with sound at x264 quality `crf`, for tests that need an MP4.
fn tiny(crf: u32) -> EncodeSettings {
    EncodeSettings {
        width: 64,
        height: 36,
        fps: (30, 1),
        crf,
        audio_bitrate: 128_000,
        audio: true,
        watchdog_s: 20,
    }
}
