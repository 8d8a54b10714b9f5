//! `reelforge`: one binary for every target. `reelforge all` runs everything in one process;
//! `reelforge gateway|auth|material|category|favourite|font|task|ai|worker` runs one target;
//! `reelforge render RULE.json --materials DIR -o out.mp4` renders a document on the spot;
//! `reelforge admin grant --mail ADDR --level N [--tenant T]` sets a user's operator level;
//! `reelforge admin migrate` applies the database migrations and exits.

mod admin;
mod backends;
mod migrate;
mod services;
mod target;
mod wiring;

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
    /// Services start without migrating the database (`reelforge admin migrate` did it before, as
    /// the Helm chart's migration Job does). `all` always migrates at start.
    #[arg(long, env = "REELFORGE_SKIP_MIGRATIONS", value_parser = clap::builder::BoolishValueParser::new())]
    skip_migrations: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Renders a document to an MP4 on the spot.
    Render(reelforge_render::cli::RenderArgs),
    /// Administration of the database the configuration names.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Runs a target: all, gateway, auth, material, category, favourite, font, task, ai or worker.
    #[command(external_subcommand)]
    Target(Vec<String>),
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Gives a user an operator level (0 admin … 9 subDistributor), creating the user if missing.
    Grant {
        /// The user's mail address.
        #[arg(long)]
        mail: String,
        /// The operator level: 0-4 or 6-9.
        #[arg(long, allow_negative_numbers = true)]
        level: i32,
        /// The variant (tenant).
        #[arg(long, default_value = "qs")]
        tenant: String,
    },
    /// Applies every service's database migrations to the configured database, then exits (the
    /// Helm chart runs it as a Job before an install or upgrade).
    Migrate,
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
    if cli.skip_migrations {
        services::skip_migrations_at_start();
    }
    let result = match cli.command {
        Some(Command::Render(args)) => {
            reelforge_render::cli::run(args).map_err(|e| format!("render: {e:#}"))
        }
        Some(Command::Admin(AdminCommand::Grant {
            mail,
            level,
            tenant,
        })) => wiring::grant(cli.config.as_deref(), &tenant, &mail, level),
        Some(Command::Admin(AdminCommand::Migrate)) => migrate::run(cli.config.as_deref()),
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
