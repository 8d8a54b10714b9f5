//! `make bench-ringtone`: times `measure` + `check` on a 30 s 1080×1920 25 fps H.264/AAC MP4
//! (made once by ffmpeg, cached under ~/.cache/reelforge/bench) against ffmpeg's own EBU R128
//! pass over the same file, median of three runs each, taking turns. That pass decodes the video
//! too (ffmpeg decodes every stream it maps); the same pass with `-vn`, sound only, is printed
//! beside it as the floor of any loudness measurement.

use reelforge_conform::{check, measure};
use reelforge_kit::config::DeliveryProfile;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

type Error = Box<dyn std::error::Error>;

/// Runs per side; the median is printed.
const RUNS: usize = 3;

fn main() -> Result<(), Error> {
    let file = bench_file()?;
    let profile = DeliveryProfile::for_variant("qs");
    let (mut ours, mut theirs, mut sound_only) = (Vec::new(), Vec::new(), Vec::new());
    let mut report = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = check(&profile, &measure(&file)?);
        ours.push(t.elapsed().as_secs_f64() * 1000.0);
        report = Some(r);
        theirs.push(ffmpeg_ebur128(&file, false)?);
        sound_only.push(ffmpeg_ebur128(&file, true)?);
    }
    if let Some(r) = report {
        let m = &r.measured;
        println!(
            "file: {} ({} bytes): {}x{} {:.2} fps {:.2} s, {} kbit/s, {:.1} LUFS, {:.1} dBTP, conforms {}, seam {:?}",
            file.display(),
            m.file_bytes,
            m.width,
            m.height,
            m.fps,
            m.seconds,
            m.video_kbps,
            m.loudness_lufs.unwrap_or(f64::NAN),
            m.true_peak_dbtp.unwrap_or(f64::NAN),
            r.conforms,
            r.seam
        );
    }
    let (ours, theirs, sound_only) = (
        median(&mut ours),
        median(&mut theirs),
        median(&mut sound_only),
    );
    println!("validate ms: {ours:.0}");
    println!("ffmpeg ebur128 ms: {theirs:.0}");
    println!("ratio: {:.2}", ours / theirs);
    println!(
        "ffmpeg ebur128 -vn ms: {sound_only:.0} (ratio {:.2})",
        ours / sound_only
    );
    Ok(())
}

/// Returns the milliseconds of ffmpeg's EBU R128 pass over `file` (`-vn`: the sound only).
fn ffmpeg_ebur128(file: &Path, sound_only: bool) -> Result<f64, Error> {
    let t = Instant::now();
    let mut cmd = Command::new("ffmpeg");
    cmd.args(["-nostats", "-hide_banner", "-i"]).arg(file);
    if sound_only {
        cmd.arg("-vn");
    }
    let status = cmd
        .args(["-af", "ebur128=peak=true", "-f", "null", "-"])
        .output()?
        .status;
    if !status.success() {
        return Err("ffmpeg's ebur128 pass failed".into());
    }
    Ok(t.elapsed().as_secs_f64() * 1000.0)
}

/// Returns the cached bench file, making it first when missing.
fn bench_file() -> Result<PathBuf, Error> {
    let home = std::env::var_os("HOME").ok_or("HOME is not set")?;
    let dir = Path::new(&home).join(".cache/reelforge/bench");
    let file = dir.join("ringtone-30s-1080x1920.mp4");
    if file.is_file() {
        return Ok(file);
    }
    std::fs::create_dir_all(&dir)?;
    let part = dir.join("ringtone-30s-1080x1920.part.mp4");
    // What our render writes: x264 veryfast CRF 23, 250-frame GOP, AAC 128 kbit/s, moov first.
    let status = Command::new("ffmpeg")
        .args(["-y", "-nostats", "-hide_banner", "-loglevel", "error"])
        .args([
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=1080x1920:rate=25:duration=30",
        ])
        .args([
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:sample_rate=48000:duration=30,volume=6dB",
        ])
        .args([
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", "250", "-pix_fmt",
            "yuv420p",
        ])
        .args([
            "-c:a",
            "aac",
            "-b:a",
            "128k",
            "-ac",
            "2",
            "-movflags",
            "+faststart",
        ])
        .arg(&part)
        .status()?;
    if !status.success() {
        return Err("ffmpeg could not make the bench file".into());
    }
    std::fs::rename(&part, &file)?;
    Ok(file)
}

/// Returns the median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
