//! `make bench-tools`: each transcoding tool against the equivalent ffmpeg command on the same
//! input in the same run (a 10 s 1280×720 25 fps H.264/AAC clip made by ffmpeg; for the vocal
//! separation a 10 s stereo song), median of three runs each, taking turns; prints
//! `tool <name>/ffmpeg: R` (R ≤ 1.0: the tool is as fast or faster). Scene detection is timed on
//! its own against ffmpeg's `select='gt(scene,0.4)'` (`tool scene-detect/ffmpeg`); the vocal
//! separation (an STFT per 512 samples) against ffmpeg's plain mid channel and band-pass, which
//! does less: the ratio says what the separation costs over that baseline. Last, `smart cut s: N`:
//! the smart cut of a 60 s 1080p clip, the full re-encode of the same cut beside it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reelforge_tools::{Params, SceneDetect, ToolType};
use serde_json::json;

type Error = Box<dyn std::error::Error>;

/// Runs per side; the median is printed.
const RUNS: usize = 3;

/// One comparison: its name, the tool and its parameters, the ffmpeg commands it is measured
/// against, and its input.
type Case<'a> = (&'a str, ToolType, serde_json::Value, Vec<Vec<String>>, &'a Path);

fn main() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    // `SMART_CUT_ONLY=1 make bench-tools`: the smart cut's two lines alone.
    if std::env::var_os("SMART_CUT_ONLY").is_some() {
        return smart_cut(dir.path());
    }
    let input = dir.path().join("in.mp4");
    let source: Vec<String> = [
        "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=10",
        "-f", "lavfi", "-i", "sine=frequency=997:sample_rate=48000:duration=10",
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-c:a", "aac", "-b:a", "128k", "-shortest",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    ffmpeg(None, &source, &input)?;
    let target = std::fs::metadata(&input)?.len() / 3;
    let target_kbps = (target * 8 / 10 / 1000).saturating_sub(64).to_string();
    let keep = "between(t,2,5)+between(t,6,9)";
    let cases: Vec<(&str, ToolType, serde_json::Value, Vec<Vec<String>>)> = vec![
        ("extract-audio", ToolType::ExtractAudio, json!({"format": "mp3"}), vec![args(&["-vn", "-c:a", "libmp3lame", "-b:a", "192k"], "mp3")]),
        (
            "video-to-gif",
            ToolType::VideoToGif,
            json!({"startMs": 0, "endMs": 5000, "fps": 10, "width": 480, "loop": true}),
            vec![args(&["-t", "5", "-vf", "fps=10,scale=480:-1,split[a][b];[a]palettegen[p];[b][p]paletteuse"], "gif")],
        ),
        (
            "video-compress-quality",
            ToolType::VideoCompress,
            json!({"quality": "medium"}),
            vec![args(&["-c:v", "libx264", "-preset", "veryfast", "-crf", "27", "-c:a", "aac", "-b:a", "128k"], "mp4")],
        ),
        (
            "video-compress-target",
            ToolType::VideoCompress,
            json!({"targetBytes": target}),
            vec![
                args(&["-c:v", "libx264", "-preset", "faster", "-b:v", &format!("{target_kbps}k"), "-pass", "1", "-an", "-f", "null"], "null"),
                args(&["-c:v", "libx264", "-preset", "faster", "-b:v", &format!("{target_kbps}k"), "-pass", "2", "-c:a", "aac", "-b:a", "64k"], "mp4"),
            ],
        ),
        (
            "speed-video",
            ToolType::VideoSpeedup,
            json!({"speed": 2}),
            vec![args(
                &["-filter_complex", "[0:v]setpts=PTS/2[v];[0:a]atempo=2[a]", "-map", "[v]", "-map", "[a]", "-r", "25",
                  "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-c:a", "aac", "-b:a", "128k"],
                "mp4",
            )],
        ),
        (
            "fast-video-cut",
            ToolType::QuickCutVideo,
            json!({"mode": "keep", "ranges": [{"startMs": 2000, "endMs": 5000}, {"startMs": 6000, "endMs": 9000}]}),
            vec![args(
                &["-vf", &format!("select='{keep}',setpts=N/FRAME_RATE/TB"), "-af", &format!("aselect='{keep}',asetpts=N/SR/TB"),
                  "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-c:a", "aac", "-b:a", "128k"],
                "mp4",
            )],
        ),
        (
            "fast-audio-cut",
            ToolType::QuickCutAudio,
            json!({"mode": "keep", "ranges": [{"startMs": 2000, "endMs": 5000}, {"startMs": 6000, "endMs": 9000}]}),
            vec![args(&["-vn", "-af", &format!("aselect='{keep}',asetpts=N/SR/TB"), "-c:a", "aac", "-b:a", "128k"], "m4a")],
        ),
        // A blurred box: the box cut out, box-blurred, laid back over the picture.
        (
            "smart-watermark-remove",
            ToolType::VideoRemoveWatermark,
            json!({"x": 960, "y": 40, "width": 240, "height": 120, "method": "blur"}),
            vec![args(
                &["-filter_complex", "[0:v]split[a][b];[b]crop=240:120:960:40,boxblur=20:3[m];[a][m]overlay=960:40",
                  "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-c:a", "aac", "-b:a", "128k"],
                "mp4",
            )],
        ),
        // A band filled from its border: delogo's interpolation (which wants the band a pixel inside each side).
        (
            "remove-captions",
            ToolType::VideoRemoveSubtitle,
            json!({"mode": "band", "y": 560, "height": 100, "method": "inpaint"}),
            vec![args(
                &["-vf", "delogo=x=1:y=560:w=1278:h=100", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-c:a", "aac", "-b:a", "128k"],
                "mp4",
            )],
        ),
    ];
    let song = dir.path().join("song.m4a");
    let stereo: Vec<String> = [
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
        "-f", "lavfi", "-i", "sine=frequency=2500:sample_rate=48000:duration=10",
        "-filter_complex", "[0][1]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=c0", "-c:a", "aac", "-b:a", "192k",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    ffmpeg(None, &stereo, &song)?;
    let mut cases: Vec<Case> =
        cases.into_iter().map(|(name, tool, params, commands)| (name, tool, params, commands, input.as_path())).collect();
    cases.push((
        "vocal-separate",
        ToolType::ExtractPersonAudio,
        json!({"accompaniment": false}),
        vec![args(&["-af", "pan=mono|c0=0.5*c0+0.5*c1,highpass=f=100,lowpass=f=8000", "-c:a", "aac", "-b:a", "192k"], "m4a")],
        song.as_path(),
    ));
    for (name, tool, params, commands, input) in cases {
        let params = Params::parse(tool, &params)?;
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for run in 0..RUNS {
            let out = dir.path().join(format!("{name}-{run}"));
            let t = Instant::now();
            reelforge_tools::run(&params, &[input.to_path_buf()], &out, &mut |_| {}, &AtomicBool::new(false))?;
            ours.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            for command in &commands {
                let (ext, rest) = command.split_last().ok_or("an empty command")?;
                let target = if ext == "null" { PathBuf::from("/dev/null") } else { dir.path().join(format!("{name}-{run}-ffmpeg.{ext}")) };
                let log = dir.path().join(format!("{name}-{run}-passlog")).display().to_string();
                let full: Vec<String> = ["-passlogfile".to_owned(), log].into_iter().chain(rest.iter().cloned()).collect();
                ffmpeg(Some(input), &full, &target)?;
            }
            theirs.push(t.elapsed().as_secs_f64());
        }
        let (ours, theirs) = (median(&mut ours), median(&mut theirs));
        println!("tool {name}/ffmpeg: {:.2} ({:.2} s / {:.2} s)", ours / theirs, ours, theirs);
    }
    let detect = SceneDetect { sensitivity: 60, min_scene_ms: 1000 };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = Instant::now();
        reelforge_tools::scene::detect(&input, &detect, &AtomicBool::new(false), &mut |_| {})?;
        ours.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let select: Vec<String> = ["-an", "-vf", "select='gt(scene,0.4)'", "-f", "null"].iter().map(|s| (*s).to_owned()).collect();
        ffmpeg(Some(&input), &select, Path::new("-"))?;
        theirs.push(t.elapsed().as_secs_f64());
    }
    let (ours, theirs) = (median(&mut ours), median(&mut theirs));
    println!("tool scene-detect/ffmpeg: {:.2} ({:.2} s / {:.2} s)", ours / theirs, ours, theirs);
    smart_cut(dir.path())
}

/// The smart cut of a 60 s 1920×1080 25 fps H.264/AAC clip (IDR frames every 2 s, as cameras and
/// streams have them) keeping 5.3–25.7 s and 31.1–52.9 s (four partial GOPs at the edges), median
/// of three; beside it the full re-encode of the same cut, once (`smart cut full re-encode s: N`).
fn smart_cut(dir: &Path) -> Result<(), Error> {
    let input = dir.join("long.mp4");
    let source: Vec<String> = [
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=60",
        "-f", "lavfi", "-i", "sine=frequency=997:sample_rate=48000:duration=60",
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-g", "50", "-c:a", "aac", "-b:a", "128k", "-shortest",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    ffmpeg(None, &source, &input)?;
    let params = Params::parse(
        ToolType::QuickCutVideo,
        &json!({"mode": "keep", "ranges": [{"startMs": 5300, "endMs": 25_700}, {"startMs": 31_100, "endMs": 52_900}]}),
    )?;
    let inputs = [input];
    let mut smart = Vec::new();
    for run in 0..RUNS {
        let t = Instant::now();
        let out = reelforge_tools::run(&params, &inputs, &dir.join(format!("smart-{run}")), &mut |_| {}, &AtomicBool::new(false))?;
        smart.push(t.elapsed().as_secs_f64());
        let comment = out.first().map(|o| reelforge_tools::cut_comment(&o.path)).transpose()?.flatten().unwrap_or_default();
        if !comment.starts_with(reelforge_tools::SMART_TAG) {
            return Err(format!("the bench's cut did not take the smart path: {comment}").into());
        }
    }
    let t = Instant::now();
    reelforge_tools::run_as(&params, &inputs, &dir.join("full"), &mut |_| {}, &AtomicBool::new(false), false)?;
    let full = t.elapsed().as_secs_f64();
    println!("smart cut s: {:.2}", median(&mut smart));
    println!("smart cut full re-encode s: {full:.2}");
    Ok(())
}

/// An ffmpeg command's arguments after the input, with the output's extension last.
fn args(list: &[&str], ext: &str) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).chain([ext.to_owned()]).collect()
}

/// Runs `ffmpeg -y [-i input] ARGS output`.
fn ffmpeg(input: Option<&Path>, args: &[String], out: &Path) -> Result<(), Error> {
    let mut cmd = Command::new("ffmpeg");
    cmd.args(["-y", "-v", "error", "-nostdin"]);
    if let Some(input) = input {
        cmd.arg("-i").arg(input);
    }
    let status = cmd.args(args).arg(out).status()?;
    if !status.success() {
        return Err(format!("ffmpeg failed: {args:?}").into());
    }
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
