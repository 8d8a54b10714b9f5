//! Builds a target from the configuration and runs it until SIGTERM/SIGINT.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use reelforge_gateway::{AppState, Clients};
use reelforge_kit::Config;
use tokio::sync::watch;

use crate::backends::Backends;
use crate::target::Target;
use crate::worker::Worker;

/// Loads configuration and runs `target`; every failure is one line naming the problem.
pub fn run(target: Target, config_file: Option<&Path>) -> Result<(), String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    reelforge_kit::telemetry::init(&config.log.format, &config.log.filter);
    for key in Config::unknown_env_keys() {
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

async fn serve_grpc(
    router: tonic::transport::server::Router,
    addr: SocketAddr,
    rx: watch::Receiver<bool>,
) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("gRPC listen {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("gRPC listen {addr}: {e}"))?;
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

fn ready_check(channels: Vec<tonic::transport::Channel>) -> reelforge_gateway::ReadyCheck {
    Arc::new(move || {
        let channels = channels.clone();
        Box::pin(async move {
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

fn materials_dir(config: &Config) -> std::path::PathBuf {
    let url = config.storage_url();
    match url.strip_prefix("fs://") {
        Some(dir) => dir.into(),
        None => config.data_dir.join("materials"),
    }
}

async fn run_async(target: Target, config: Config) -> Result<(), String> {
    let rx = shutdown_signal();
    let backends = Backends::open(target, &config).await?;
    match target {
        Target::All => {
            let router = crate::services::router(&[Target::All], &backends, &config).await?;
            let (addr, grpc) =
                serve_grpc(router, SocketAddr::from(([127, 0, 0, 1], 0)), rx.clone()).await?;
            let channel = reelforge_gateway::clients::channel(&format!("http://{addr}"))
                .map_err(|e| format!("gRPC client: {e}"))?;
            let worker = Worker {
                queue: backends.queue()?,
                blob: backends.blob()?,
                tasks: reelforge_proto::task::task_service_client::TaskServiceClient::new(
                    channel.clone(),
                ),
                library:
                    reelforge_proto::material::material_service_client::MaterialServiceClient::new(
                        channel.clone(),
                    ),
                materials: materials_dir(&config),
                scratch: config.data_dir.join("scratch"),
            };
            let worker = tokio::spawn(worker.run(rx.clone()));
            let state = AppState {
                clients: Clients::shared(channel.clone()),
                mode: "all".into(),
                ready: ready_check(vec![channel]),
            };
            let http = reelforge_gateway::serve(&config, state)
                .map_err(|e| format!("http listen {}: {e}", config.http.addr))?;
            tracing::info!(addr = %config.http.addr, grpc = %addr, "reelforge all is up");
            http.await.map_err(|e| format!("http: {e}"))?;
            let _ = worker.await;
            let _ = grpc.await;
            Ok(())
        }
        Target::Gateway => {
            let s = &config.services;
            let urls = [
                &s.auth.url,
                &s.material.url,
                &s.category.url,
                &s.favourite.url,
                &s.task.url,
                &s.ai.url,
            ];
            let mut channels = Vec::new();
            for url in urls {
                channels.push(
                    reelforge_gateway::clients::channel(url)
                        .map_err(|e| format!("service url {url}: {e}"))?,
                );
            }
            let clients = Clients::from_config(s).map_err(|e| format!("service urls: {e}"))?;
            let state = AppState {
                clients,
                mode: "distributed".into(),
                ready: ready_check(channels),
            };
            let http = reelforge_gateway::serve(&config, state)
                .map_err(|e| format!("http listen {}: {e}", config.http.addr))?;
            tracing::info!(addr = %config.http.addr, "gateway is up");
            http.await.map_err(|e| format!("http: {e}"))
        }
        Target::Worker => {
            let channel = reelforge_gateway::clients::channel(&config.services.task.url)
                .map_err(|e| format!("task service url: {e}"))?;
            let material = reelforge_gateway::clients::channel(&config.services.material.url)
                .map_err(|e| format!("material service url: {e}"))?;
            let admin = crate::admin::serve(&config.admin.addr, "worker")?;
            let admin_handle = admin.handle();
            let worker = Worker {
                queue: backends.queue()?,
                blob: backends.blob()?,
                tasks: reelforge_proto::task::task_service_client::TaskServiceClient::new(channel),
                library:
                    reelforge_proto::material::material_service_client::MaterialServiceClient::new(
                        material,
                    ),
                materials: materials_dir(&config),
                scratch: config.data_dir.join("scratch"),
            };
            let admin_task = tokio::spawn(admin);
            worker.run(rx).await;
            admin_handle.stop(true).await;
            let _ = admin_task.await;
            Ok(())
        }
        service => {
            let addr = service_addr(&config, service)?;
            let router = crate::services::router(&[service], &backends, &config).await?;
            let admin = crate::admin::serve(&config.admin.addr, service.name())?;
            let admin_handle = admin.handle();
            let admin_task = tokio::spawn(admin);
            let (local, grpc) = serve_grpc(router, addr, rx.clone()).await?;
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
        Target::Task => &s.task.listen,
        Target::Ai => &s.ai.listen,
        other => return Err(format!("{other} is not a gRPC service")),
    };
    listen
        .parse()
        .map_err(|e| format!("services.{target}.listen `{listen}`: {e}"))
}
