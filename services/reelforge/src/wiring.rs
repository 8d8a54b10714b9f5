//! Builds a target from the configuration and runs it until SIGTERM/SIGINT.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use reelforge_gateway::{AppState, Clients};
use reelforge_kit::{Config, Keyring};
use tokio::sync::watch;

use crate::backends::Backends;
use crate::target::Target;

/// Loads configuration and runs `target`; every failure is one line naming the problem.
pub fn run(target: Target, config_file: Option<&Path>) -> Result<(), String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    reelforge_kit::telemetry::init(&config.log.format, &config.log.filter);
    // REELFORGE_CONFIG and REELFORGE_SKIP_MIGRATIONS are the command line's, not keys.
    for key in Config::unknown_env_keys()
        .into_iter()
        .filter(|k| !matches!(k.as_str(), "REELFORGE_CONFIG" | "REELFORGE_SKIP_MIGRATIONS"))
    {
        tracing::warn!(%key, "environment variable names no configuration key");
    }
    // Two rustls crypto providers are linked (aws-lc-rs and ring); pick one for the process.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    runtime.block_on(run_async(target, config))
}

/// `reelforge admin grant`: sets a user's operator level in the configured database.
pub fn grant(
    config_file: Option<&Path>,
    tenant: &str,
    mail: &str,
    level: i32,
) -> Result<(), String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    runtime.block_on(async {
        let url = config.database_url();
        let db = reelforge_kit::db::connect(&url)
            .await
            .map_err(|e| format!("database: {e}"))?;
        reelforge_auth::migrate(&db)
            .await
            .map_err(|e| format!("auth migrations: {e}"))?;
        let users = reelforge_auth::UserStore::new(db);
        let user = reelforge_auth::grant(&users, &config.tenants, tenant, mail, level)
            .await
            .map_err(|e| e.to_string())?;
        println!(
            "{} of tenant {} now has operator level {} ({}, role {})",
            user.user_id,
            user.tenant,
            user.level.number(),
            user.level.name(),
            user.level.role().as_str()
        );
        Ok(())
    })
}

fn shutdown_signal() -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = ctrl_c => {}
            _ = term => {}
        }
        tracing::info!("shutting down");
        let _ = tx.send(true);
    });
    rx
}

async fn wait(mut rx: watch::Receiver<bool>) {
    while !*rx.borrow() {
        if rx.changed().await.is_err() {
            return;
        }
    }
}

/// Binds the gRPC address before the services are built, so a service that calls another in the
/// same process (the task service asks the material library) knows where.
async fn bind_grpc(addr: SocketAddr) -> Result<(tokio::net::TcpListener, SocketAddr), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("gRPC listen {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("gRPC listen {addr}: {e}"))?;
    Ok((listener, local))
}

async fn serve_grpc(
    router: tonic::transport::server::Router,
    (listener, local): (tokio::net::TcpListener, SocketAddr),
    rx: watch::Receiver<bool>,
) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), String> {
    let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
    let handle = tokio::spawn(async move {
        if let Err(e) = router
            .serve_with_incoming_shutdown(incoming, wait(rx))
            .await
        {
            tracing::error!(error = %e, "gRPC server stopped");
        }
    });
    Ok((local, handle))
}

fn ready_check(
    channels: Vec<tonic::transport::Channel>,
    backends: Backends,
) -> reelforge_gateway::ReadyCheck {
    Arc::new(move || {
        let channels = channels.clone();
        let backends = backends.clone();
        Box::pin(async move {
            backends.check().await?;
            for ch in channels {
                let mut client = tonic_health::pb::health_client::HealthClient::new(ch);
                let req = tonic_health::pb::HealthCheckRequest {
                    service: String::new(),
                };
                match tokio::time::timeout(Duration::from_secs(2), client.check(req)).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(s)) => return Err(format!("service health: {}", s.message())),
                    Err(_) => return Err("service health: no answer within 2 s".into()),
                }
            }
            Ok(())
        })
    })
}

/// Renders and covers for the gateway, from the blob store; its tickets end with their sign-in.
fn media(backends: &Backends, keys: &Keyring) -> Result<reelforge_gateway::media::Media, String> {
    let secret =
        reelforge_gateway::media_ticket_secret(keys).map_err(|e| format!("media tickets: {e}"))?;
    let cache = backends.cache()?;
    Ok(reelforge_gateway::media::Media::new(
        backends.blob()?,
        &secret,
        reelforge_kit::revocation::Revocations::new(cache.clone()),
        cache,
    ))
}

/// Exact-frame stills for the gateway: materials looked up at `material_url` and read from the
/// blob store, drawn under the data directory's scratch.
fn frames(
    backends: &Backends,
    config: &Config,
    keys: &Keyring,
    task_url: &str,
    material_url: &str,
) -> Result<reelforge_gateway::frame::Frames, String> {
    let clients = reelforge_worker::Clients::connect(task_url, material_url, keys.clone(), &config.timeouts)
        .map_err(|e| format!("still service urls: {e}"))?;
    Ok(reelforge_gateway::frame::Frames::new(
        clients,
        backends.blob()?,
        material_cache(config),
        &config.data_dir.join("scratch"),
    ))
}

/// The materials kept between renders and stills, under the data directory.
fn material_cache(config: &Config) -> reelforge_worker::MaterialCache {
    reelforge_worker::MaterialCache::new(
        config.data_dir.join("cache").join("materials"),
        config.worker.material_cache_mb.saturating_mul(1 << 20),
    )
}

/// The render threads' nice value in `all` unless configured (docs/operations.md, "Renders
/// beside the API"): the API's threads keep the default priority and get the cores first, the
/// renders take what is left.
const ALL_RENDER_NICE: i32 = 10;

/// The render worker over the opened backends, calling the services at these URLs.
fn worker(
    backends: &Backends,
    config: &Config,
    keys: &Keyring,
    task_url: &str,
    material_url: &str,
) -> Result<reelforge_worker::Worker, String> {
    let clients = reelforge_worker::Clients::connect(task_url, material_url, keys.clone(), &config.timeouts)
        .map_err(|e| format!("worker service urls: {e}"))?;
    let settings = reelforge_worker::WorkerSettings {
        queue: reelforge_worker::RENDER_QUEUE.to_owned(),
        scratch: config.data_dir.join("scratch"),
        concurrency: usize::from(config.worker.concurrency.max(1)),
        heartbeat: Duration::from_secs(config.worker.heartbeat_seconds.max(1)),
        material_cache: material_cache(config),
        time_limit: reelforge_worker::RenderTimeLimit {
            floor: Duration::from_secs(config.worker.render_limit_seconds),
            per_video_second: Duration::from_secs(config.worker.render_limit_per_video_second),
        },
        render_nice: config.worker.render_nice.unwrap_or(0),
        tools: reelforge_tools::Limits::new(&config.tools),
        ai: config.ai.clone(),
    };
    Ok(reelforge_worker::Worker::new(
        backends.queue()?,
        backends.bus()?,
        backends.blob()?,
        clients,
        settings,
    ))
}

/// The signing keys: the configured ones; for `all` alone, when none is configured, a key kept in
/// the data directory. Any other target refuses to start without one.
fn keyring(target: Target, config: &Config) -> Result<Keyring, String> {
    let keys = if !config.auth.keys.is_empty() {
        config.auth.keys.clone()
    } else if target == Target::All {
        vec![reelforge_kit::identity::local_key(&config.data_dir).map_err(|e| e.to_string())?]
    } else {
        return Err(format!(
            "auth.keys (REELFORGE_AUTH__KEYS) is required for target {target}"
        ));
    };
    Keyring::new(&keys).map_err(|e| e.to_string())
}

async fn run_async(target: Target, mut config: Config) -> Result<(), String> {
    let keys = keyring(target, &config)?;
    let rx = shutdown_signal();
    let backends = Backends::open(target, &config).await?;
    match target {
        Target::All => {
            // The services keep serving until the HTTP drain and the worker's hand-back are over.
            let (services_stop, services_rx) = watch::channel(false);
            let bound = bind_grpc(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
            // The services call each other on the loopback port too.
            config.services.material.url = format!("http://{}", bound.1);
            config.services.task.url = format!("http://{}", bound.1);
            config.services.auth.url = format!("http://{}", bound.1);
            let router = crate::services::router(
                &[Target::All],
                &backends,
                &config,
                &keys,
                services_rx.clone(),
            )
            .await?;
            let (addr, grpc) = serve_grpc(router, bound, services_rx).await?;
            let channel = reelforge_kit::grpc::channel(&format!("http://{addr}"), &config.timeouts)
                .map_err(|e| format!("gRPC client: {e}"))?;
            let url = format!("http://{addr}");
            // x264 takes every core it is given; in one process the API's threads must come first.
            config.worker.render_nice = config.worker.render_nice.or(Some(ALL_RENDER_NICE));
            let worker = worker(&backends, &config, &keys, &url, &url)?;
            let worker = tokio::spawn(worker.run(rx.clone()));
            let state = AppState {
                clients: Clients::shared(channel.clone()),
                mode: "all".into(),
                ready: ready_check(vec![channel], backends.clone()),
                media: Some(media(&backends, &keys)?),
                frames: Some(frames(&backends, &config, &keys, &url, &url)?),
                keys,
            };
            let http = reelforge_gateway::serve(&config, state)
                .map_err(|e| format!("http listen {}: {e}", config.http.addr))?;
            let admin = crate::admin::serve(&config.admin.addr, target.name(), backends.clone())?;
            let admin_handle = admin.handle();
            let admin_task = tokio::spawn(admin);
            tracing::info!(addr = %config.http.addr, grpc = %addr, admin = %config.admin.addr, "reelforge all is up");
            let served = http.await.map_err(|e| format!("http: {e}"));
            admin_handle.stop(true).await;
            let _ = admin_task.await;
            let _ = worker.await;
            let _ = services_stop.send(true);
            let _ = grpc.await;
            served
        }
        Target::Gateway => {
            let s = &config.services;
            let urls = [
                &s.auth.url,
                &s.material.url,
                &s.category.url,
                &s.favourite.url,
                &s.font.url,
                &s.task.url,
                &s.ai.url,
                &s.ring.url,
            ];
            let mut channels = Vec::new();
            for url in urls {
                channels.push(
                    reelforge_kit::grpc::channel(url, &config.timeouts)
                        .map_err(|e| format!("service url {url}: {e}"))?,
                );
            }
            let clients = Clients::from_config(s, &config.timeouts).map_err(|e| format!("service urls: {e}"))?;
            let state = AppState {
                clients,
                mode: "distributed".into(),
                ready: ready_check(channels, backends.clone()),
                media: Some(media(&backends, &keys)?),
                frames: Some(frames(
                    &backends,
                    &config,
                    &keys,
                    &s.task.url,
                    &s.material.url,
                )?),
                keys,
            };
            let http = reelforge_gateway::serve(&config, state)
                .map_err(|e| format!("http listen {}: {e}", config.http.addr))?;
            let admin = crate::admin::serve(&config.admin.addr, target.name(), backends.clone())?;
            let admin_handle = admin.handle();
            let admin_task = tokio::spawn(admin);
            tracing::info!(addr = %config.http.addr, admin = %config.admin.addr, "gateway is up");
            let served = http.await.map_err(|e| format!("http: {e}"));
            admin_handle.stop(true).await;
            let _ = admin_task.await;
            served
        }
        Target::Worker => {
            let worker = worker(
                &backends,
                &config,
                &keys,
                &config.services.task.url,
                &config.services.material.url,
            )?;
            let admin = crate::admin::serve(&config.admin.addr, "worker", backends.clone())?;
            let admin_handle = admin.handle();
            let admin_task = tokio::spawn(admin);
            worker.run(rx).await;
            admin_handle.stop(true).await;
            let _ = admin_task.await;
            Ok(())
        }
        service => {
            let addr = service_addr(&config, service)?;
            let bound = bind_grpc(addr).await?;
            let router =
                crate::services::router(&[service], &backends, &config, &keys, rx.clone()).await?;
            let admin = crate::admin::serve(&config.admin.addr, service.name(), backends.clone())?;
            let admin_handle = admin.handle();
            let admin_task = tokio::spawn(admin);
            let (local, grpc) = serve_grpc(router, bound, rx.clone()).await?;
            tracing::info!(target = %service, grpc = %local, admin = %config.admin.addr, "service is up");
            let _ = grpc.await;
            admin_handle.stop(true).await;
            let _ = admin_task.await;
            Ok(())
        }
    }
}

fn service_addr(config: &Config, target: Target) -> Result<SocketAddr, String> {
    let s = &config.services;
    let listen = match target {
        Target::Auth => &s.auth.listen,
        Target::Material => &s.material.listen,
        Target::Category => &s.category.listen,
        Target::Favourite => &s.favourite.listen,
        Target::Font => &s.font.listen,
        Target::Task => &s.task.listen,
        Target::Ai => &s.ai.listen,
        Target::Ring => &s.ring.listen,
        other => return Err(format!("{other} is not a gRPC service")),
    };
    listen
        .parse()
        .map_err(|e| format!("services.{target}.listen `{listen}`: {e}"))
}
