//! `reelforge`: one binary for every target. `reelforge all` runs everything in one process;
//! `reelforge gateway|auth|material|category|favourite|task|ai|worker` runs one target;
//! `reelforge render RULE.json --materials DIR -o out.mp4` renders a document on the spot.

mod admin;
mod backends;
mod services;
mod target;
mod wiring;
mod worker;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::target::Target;

/// Command line of `reelforge`.
#[derive(Parser)]
#[command(
    name = "reelforge",
    version,
    about = "Reelforge: the video editor platform and its render farm"
)]
struct Cli {
    /// Configuration file (default: ./reelforge.toml when present).
    #[arg(short, long, global = true, env = "REELFORGE_CONFIG")]
    config: Option<PathBuf>,
    /// Lists the targets with their backends and the targets they call.
    #[arg(long)]
    list_targets: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Renders a document to an MP4 on the spot.
    Render(reelforge_render::cli::RenderArgs),
    /// Runs a target: all, gateway, auth, material, category, favourite, task, ai or worker.
    #[command(external_subcommand)]
    Target(Vec<String>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.list_targets {
        for t in Target::ALL {
            println!(
                "{:<10} backends: {:?}  calls: {:?}",
                t.name(),
                t.backends(),
                t.calls()
            );
        }
        return ExitCode::SUCCESS;
    }
    let result = match cli.command {
        Some(Command::Render(args)) => {
            reelforge_render::cli::run(args).map_err(|e| format!("render: {e:#}"))
        }
        Some(Command::Target(words)) => match words.as_slice() {
            [name] => Target::parse(name).and_then(|t| wiring::run(t, cli.config.as_deref())),
            _ => Err(format!("expected one target, got `{}`", words.join(" "))),
        },
        None => wiring::run(Target::All, cli.config.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("reelforge: {problem}");
            ExitCode::FAILURE
        }
    }
}
