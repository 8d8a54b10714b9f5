//! Builds the gRPC server of one or all eight services over the opened backends, with the standard
//! health service, a span per call carrying the caller's request id, and the revocation check
//! (`reelforge_kit::revocation`) in front of every service.

use std::sync::atomic::{AtomicBool, Ordering};

use reelforge_kit::{Config, Keyring};
use tonic::transport::Server;
use tonic::transport::server::Router;

use crate::backends::Backends;
use crate::target::Target;

/// Whether the services migrate their tables when they start (the default).
static MIGRATE_AT_START: AtomicBool = AtomicBool::new(true);

/// Services of this process start on the tables as they are: `reelforge admin migrate` migrated
/// them (`--skip-migrations`, `REELFORGE_SKIP_MIGRATIONS`). `all` migrates regardless: nothing
/// else migrates its embedded database.
pub fn skip_migrations_at_start() {
    MIGRATE_AT_START.store(false, Ordering::Relaxed);
}

fn wants(targets: &[Target], t: Target) -> bool {
    targets.contains(&Target::All) || targets.contains(&t)
}

/// Runs the services' migrations (unless skipped, see [`skip_migrations_at_start`]), then returns a
/// router serving those in `targets`.
pub async fn router(
    targets: &[Target],
    b: &Backends,
    config: &Config,
    keys: &Keyring,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> Result<Router, String> {
    let (reporter, health) = tonic_health::server::health_reporter();
    let mut auth = None;
    let mut material = None;
    let mut category = None;
    let mut favourite = None;
    let mut font = None;
    let mut task = None;
    let mut ai = None;
    let mut ring = None;
    let migrate = |what: &'static str| move |e: sea_orm::DbErr| format!("{what} migrations: {e}");
    let migrating = targets.contains(&Target::All) || MIGRATE_AT_START.load(Ordering::Relaxed);
    if !migrating {
        tracing::info!("migrations skipped at start (reelforge admin migrate applies them)");
    }
    if wants(targets, Target::Auth) {
        let db = b.db()?;
        if migrating {
            reelforge_auth::migrate(&db)
                .await
                .map_err(migrate("auth"))?;
        }
        auth = Some(
            reelforge_auth::grpc_service(db, b.cache()?, config, keys.clone())
                .map_err(|e| format!("auth: {e}"))?,
        );
    }
    if wants(targets, Target::Material) {
        let db = b.db()?;
        if migrating {
            reelforge_material::migrate(&db)
                .await
                .map_err(migrate("material"))?;
        }
        let quota = reelforge_material::Quota::from_config(&config.quota);
        let limits = reelforge_material::MediaLimits::from_config(&config.upload);
        let blob = b.blob()?;
        if config.janitor.interval_minutes > 0 {
            let grace = std::time::Duration::from_secs(config.janitor.grace_hours.saturating_mul(3600));
            let every = std::time::Duration::from_secs(config.janitor.interval_minutes.saturating_mul(60));
            let janitor = reelforge_material::Janitor::new(reelforge_material::MaterialStore::new(db.clone()), blob.clone(), grace);
            tokio::spawn(janitor.run(every));
        }
        material = Some(reelforge_material::grpc_service_with_storage(db, blob, quota, limits, keys));
    }
    if wants(targets, Target::Category) {
        let db = b.db()?;
        if migrating {
            reelforge_category::migrate(&db)
                .await
                .map_err(migrate("category"))?;
        }
        // A category is deleted only when no template is filed under it: the task service knows.
        let tasks = reelforge_kit::grpc::channel(&config.services.task.url, &config.timeouts)
            .map_err(|e| format!("category service: task service url: {e}"))?;
        category = Some(reelforge_category::grpc_service(db, tasks, keys));
    }
    if wants(targets, Target::Favourite) {
        let db = b.db()?;
        if migrating {
            reelforge_favourite::migrate(&db)
                .await
                .map_err(migrate("favourite"))?;
        }
        favourite = Some(reelforge_favourite::grpc_service(db, keys));
    }
    if wants(targets, Target::Font) {
        let db = b.db()?;
        if migrating {
            reelforge_font::migrate(&db)
                .await
                .map_err(migrate("font"))?;
        }
        let dirs = [std::path::PathBuf::from(reelforge_font::system::DEBIAN_FONT_DIR)];
        let system = tokio::task::spawn_blocking(move || reelforge_font::SystemFonts::load(&dirs))
            .await
            .map_err(|e| format!("font: reading the system fonts: {e}"))?;
        font = Some(reelforge_font::grpc_service(
            db,
            b.blob()?,
            std::sync::Arc::new(system),
            keys,
        ));
    }
    if wants(targets, Target::Task) {
        let db = b.db()?;
        if migrating {
            reelforge_task::migrate(&db)
                .await
                .map_err(migrate("task"))?;
        }
        let settings = reelforge_task::FarmSettings {
            queue: reelforge_task::RENDER_QUEUE.to_owned(),
            stale: std::time::Duration::from_secs(config.worker.stale_seconds.max(1)),
            max_attempts: config.queue.delivery_limit.max(1),
            tenant_in_queue: config.render.tenant_in_queue.max(1),
        };
        let backends = reelforge_task::Backends {
            db,
            queue: b.queue()?,
            bus: b.bus()?,
            cache: b.cache()?,
            blob: b.blob()?,
            // Saves and runs ask the material library whose materials a document may name.
            materials: reelforge_kit::grpc::channel(&config.services.material.url, &config.timeouts)
                .map_err(|e| format!("task service: material service url: {e}"))?,
            // The marketplace asks the auth service who is a service provider.
            auth: reelforge_kit::grpc::channel(&config.services.auth.url, &config.timeouts)
                .map_err(|e| format!("task service: auth service url: {e}"))?,
            migrations: crate::migrate::books(),
        };
        task = Some(
            reelforge_task::grpc_service(backends, settings, keys, shutdown.clone())
                .await
                .map_err(|e| format!("task service: {e}"))?,
        );
    }
    if wants(targets, Target::Ai) {
        ai = Some(reelforge_ai::grpc_service(&config.ai, keys));
    }
    if wants(targets, Target::Ring) {
        let db = b.db()?;
        if migrating {
            reelforge_ring::migrate(&db)
                .await
                .map_err(migrate("ring"))?;
        }
        // Orders are made from finished tasks, read from the task service.
        let tasks = reelforge_kit::grpc::channel(&config.services.task.url, &config.timeouts)
            .map_err(|e| format!("ring service: task service url: {e}"))?;
        let backends = reelforge_ring::Backends {
            db,
            blob: b.blob()?,
            tasks: std::sync::Arc::new(reelforge_ring::TaskService::new(tasks, keys.clone())),
            scratch: config.data_dir.join("scratch"),
        };
        ring = Some(
            reelforge_ring::grpc_service(backends, &config.ring, &config.timeouts, keys, shutdown)
                .map_err(|e| format!("ring service: {e}"))?,
        );
    }
    reporter
        .set_service_status("", tonic_health::ServingStatus::Serving)
        .await;
    // Every service refuses a signed-out, disabled or changed user's token before its own verifier
    // runs: the gateway's check is not the only wall.
    let revocations = reelforge_kit::revocation::Revocations::new(b.cache()?);
    Ok(Server::builder()
        .trace_fn(reelforge_kit::telemetry::grpc_span)
        .add_service(health)
        .add_optional_service(auth.map(|s| revocations.guard(keys, s)))
        .add_optional_service(material.map(|s| revocations.guard(keys, s)))
        .add_optional_service(category.map(|s| revocations.guard(keys, s)))
        .add_optional_service(favourite.map(|s| revocations.guard(keys, s)))
        .add_optional_service(font.map(|s| revocations.guard(keys, s)))
        .add_optional_service(task.map(|s| revocations.guard(keys, s)))
        .add_optional_service(ai.map(|s| revocations.guard(keys, s)))
        .add_optional_service(ring.map(|s| revocations.guard(keys, s))))
}
