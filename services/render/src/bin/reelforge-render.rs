//! Stand-alone `reelforge-render RULE.json --materials DIR -o out.mp4` until the main binary
//! wires `reelforge render`.

use clap::Parser;

#[derive(Parser)]
#[command(about = "Render a Reelforge rule to MP4")]
struct Cli {
    #[command(flatten)]
    args: reelforge_render::cli::RenderArgs,
}

fn main() -> anyhow::Result<()> {
    reelforge_render::cli::run(Cli::parse().args)
}
