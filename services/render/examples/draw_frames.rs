//! Draws every frame of a document without encoding, to see the engine's own cost apart from
//! x264's: `cargo run --release -p reelforge-render --example draw_frames -- RULE.json DIR [RUNS]`.
//! Prints the median wall seconds of drawing per second of video and in all.

use reelforge_render::compose::Bitmap;
use reelforge_render::{Engine, Materials};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(rule), Some(dir)) = (args.next(), args.next()) else {
        anyhow::bail!("usage: draw_frames RULE.json MATERIALS_DIR [RUNS]");
    };
    let runs: usize = args.next().map_or(Ok(5), |r| r.parse())?;
    let rule = reelforge_timeline::Rule::parse(&std::fs::read_to_string(&rule)?)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let materials = Materials::open(std::path::Path::new(&dir))?;
    let mut totals = Vec::new();
    let mut per_second: Vec<Vec<f64>> = Vec::new();
    for _ in 0..runs {
        let mut engine = Engine::new(&rule, &materials)?;
        engine.prepare_scenes_ahead(0);
        let (w, h) = engine.size;
        let mut frame = Bitmap::new(w, h);
        let fps = engine.timeline.rate.fps();
        let mut seconds = vec![0.0; (engine.total_frames() as f64 / fps).ceil() as usize];
        let t0 = Instant::now();
        for f in 0..engine.total_frames() {
            let t = Instant::now();
            engine.draw(f, &mut frame)?;
            engine.release(f);
            if let Some(s) = seconds.get_mut((f as f64 / fps) as usize) {
                *s += t.elapsed().as_secs_f64();
            }
        }
        totals.push(t0.elapsed().as_secs_f64());
        per_second.push(seconds);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let n = per_second.first().map_or(0, Vec::len);
    let secs: Vec<String> = (0..n)
        .map(|i| {
            let v = per_second
                .iter()
                .filter_map(|r| r.get(i).copied())
                .collect();
            format!("{:.0}", median(v) * 1000.0)
        })
        .collect();
    println!("draw ms per second of video: {}", secs.join(" "));
    println!("draw total {:.3} s (median of {runs})", median(totals));
    Ok(())
}
