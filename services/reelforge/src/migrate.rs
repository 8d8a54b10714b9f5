//! `reelforge admin migrate`: every service's migrations against the configured database, once,
//! before the services start (the Helm chart's pre-install/pre-upgrade Job). Each service keeps its
//! migrations in its own table (`seaql_migrations_<service>`), so the order does not matter; the
//! database queue's table is made too when `queue.url` is `db://`.

use std::path::Path;

use reelforge_kit::Config;

/// Loads the configuration and applies every pending migration; one line per service on stdout.
pub fn run(config_file: Option<&Path>) -> Result<(), String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    runtime.block_on(migrate(&config))
}

async fn migrate(config: &Config) -> Result<(), String> {
    let url = config.database_url();
    let db = reelforge_kit::db::connect(&url)
        .await
        .map_err(|e| format!("database: {e}"))?;
    let failed = |what: &'static str| move |e: sea_orm::DbErr| format!("{what} migrations: {e}");
    reelforge_auth::migrate(&db).await.map_err(failed("auth"))?;
    println!("auth: migrated");
    reelforge_material::migrate(&db)
        .await
        .map_err(failed("material"))?;
    println!("material: migrated");
    reelforge_category::migrate(&db)
        .await
        .map_err(failed("category"))?;
    println!("category: migrated");
    reelforge_favourite::migrate(&db)
        .await
        .map_err(failed("favourite"))?;
    println!("favourite: migrated");
    reelforge_font::migrate(&db).await.map_err(failed("font"))?;
    println!("font: migrated");
    reelforge_task::migrate(&db).await.map_err(failed("task"))?;
    println!("task: migrated");
    reelforge_ring::migrate(&db).await.map_err(failed("ring"))?;
    println!("ring: migrated");
    if config.queue.url.starts_with("db:") {
        // The database queue makes its table when it is opened.
        reelforge_kit::queue::open(&config.queue, &db)
            .await
            .map_err(|e| format!("queue table: {e}"))?;
        println!("queue: migrated");
    }
    Ok(())
}

/// Every service's migrations as this binary carries them, in the order `reelforge admin migrate`
/// applies them: what the upgrade page lists (the services share the one database).
pub fn books() -> Vec<reelforge_kit::db::MigrationBook> {
    vec![
        reelforge_auth::migration_book(),
        reelforge_material::migration_book(),
        reelforge_category::migration_book(),
        reelforge_favourite::migration_book(),
        reelforge_font::migration_book(),
        reelforge_task::migration_book(),
        reelforge_ring::migration_book(),
    ]
}
