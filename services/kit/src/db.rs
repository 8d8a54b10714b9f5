//! The relational database: sea-orm on SQLite (embedded) or PostgreSQL, chosen by the URL.

use std::time::Duration;

use sea_orm::{ConnectOptions, Database, DatabaseConnection, DbErr};

/// Connects to `url` (`sqlite://…` or `postgres://…`), creating the SQLite file's directory.
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    if let Some(rest) = url.strip_prefix("sqlite://") {
        let path = rest.split('?').next().unwrap_or_default();
        if let Some(dir) = std::path::Path::new(path).parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| DbErr::Custom(format!("cannot create {}: {e}", dir.display())))?;
        }
    }
    let mut opts = ConnectOptions::new(url.to_owned());
    opts.connect_timeout(Duration::from_secs(5)).acquire_timeout(Duration::from_secs(10)).sqlx_logging(false);
    if url.starts_with("sqlite:") {
        // SQLite allows one writer; a small pool avoids lock storms in the embedded mode.
        opts.max_connections(4);
    }
    let db = Database::connect(opts).await?;
    if url.starts_with("sqlite:") {
        use sea_orm::ConnectionTrait;
        db.execute_unprepared("PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON;").await?;
    }
    Ok(db)
}

/// Milliseconds since the Unix epoch, the time unit of every stored timestamp.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}
