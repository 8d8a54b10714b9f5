//! The `reelforge render RULE.json --materials DIR -o out.mp4` command: renders a document on
//! the spot with a progress line on the terminal.

use crate::render::{Progress, RenderOptions, render};
use anyhow::Context;
use reelforge_timeline::ValidateOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reelforge render`.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The rule (taskInfo JSON) to render.
    pub rule: PathBuf,
    /// Directory the rule's material paths are looked up in; its optional `materials.json`
    /// (`{"<id>": "<path>"}`) gives the materials the rule names by id (backgrounds, masks).
    #[arg(long, default_value = ".")]
    pub materials: PathBuf,
    /// Output MP4 file.
    #[arg(short, long, default_value = "out.mp4")]
    pub output: PathBuf,
    /// Also write a cover JPEG here.
    #[arg(long)]
    pub cover: Option<PathBuf>,
    /// Render only scenes FIRST..END (0-based, END exclusive), e.g. 1..3.
    #[arg(long)]
    pub scenes: Option<String>,
    /// Write only the frame at this time (seconds) as a PNG to the output path.
    #[arg(long)]
    pub still: Option<f64>,
    /// Directory of extra font files (the font store).
    #[arg(long)]
    pub fonts: Option<PathBuf>,
    /// No progress line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Render this many times in this process, printing each render's wall time: every render
    /// after the first runs warm, as the farm's worker renders (GStreamer's plugins loaded once).
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
}

fn parse_range(s: &str) -> anyhow::Result<std::ops::Range<usize>> {
    let (a, b) = s.split_once("..").context("scenes must look like 1..3")?;
    Ok(a.trim().parse()?..b.trim().parse()?)
}

/// Runs the command.
pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.rule)
        .with_context(|| format!("reading {}", args.rule.display()))?;
    let rule = reelforge_timeline::Rule::parse(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    // Refused before anything is loaded, so an unbounded document fails at once.
    let report = reelforge_timeline::check(&rule, &ValidateOptions::from_env());
    if !report.is_ok() {
        let list: Vec<String> = report.errors().map(|p| format!("  {p}")).collect();
        anyhow::bail!(
            "{} is refused, nothing rendered:\n{}",
            args.rule.display(),
            list.join("\n")
        );
    }
    if !args.quiet {
        for w in report.warnings() {
            eprintln!("warning: {w}");
        }
    }
    let materials = crate::materials::Materials::open(&args.materials)?;
    if let Some(dir) = &args.fonts {
        crate::compose::text::load_fonts_dir(dir);
    }
    if let Some(t) = args.still {
        let b = crate::engine::render_frame(&rule, &materials, t)?;
        crate::engine::write_png(&b, &args.output)?;
        return Ok(());
    }
    let opts = RenderOptions {
        scenes: args.scenes.as_deref().map(parse_range).transpose()?,
        cover: args.cover.clone(),
        cover_at: None,
        nice: 0,
    };
    let started = Instant::now();
    let quiet = args.quiet;
    let mut last_print = Instant::now();
    let mut on_progress = |p: Progress| {
        if quiet || (last_print.elapsed().as_millis() < 100 && p.done != p.total) {
            return;
        }
        last_print = Instant::now();
        let pct = (p.done * 100).checked_div(p.total).unwrap_or(0);
        let bar: String = (0..30)
            .map(|i| if i * 100 < pct * 30 { '#' } else { '-' })
            .collect();
        eprint!(
            "\r{:<8} [{bar}] {:>3}% {}/{} frames {:.1}s ",
            p.stage.name(),
            pct,
            p.done,
            p.total,
            started.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
    };
    let cancel = AtomicBool::new(false);
    let mut report = render(&rule, &materials, &args.output, &opts, &mut on_progress, &cancel)?;
    if args.repeat > 1 {
        eprintln!("render 1: {:.3} s", started.elapsed().as_secs_f64());
        for n in 2..=args.repeat {
            let again = Instant::now();
            report = render(&rule, &materials, &args.output, &opts, &mut |_| {}, &cancel)?;
            eprintln!("render {n}: {:.3} s", again.elapsed().as_secs_f64());
        }
    }
    if !quiet {
        eprintln!();
        eprintln!(
            "wrote {} ({}x{}, {} frames, {:.2} s) in {:.2} s",
            args.output.display(),
            report.size.0,
            report.size.1,
            report.frames,
            report.duration,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
