//! The relational database: sea-orm on SQLite (embedded) or PostgreSQL, chosen by the URL.

use std::time::Duration;

use sea_orm::sqlx::sqlite::SqliteJournalMode;
use sea_orm::{
    ConnectOptions, Database, DatabaseConnection, DatabaseTransaction, DbErr, SqliteTransactionMode, TransactionOptions,
    TransactionTrait,
};

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
        // SQLite allows one writer; a small pool avoids lock storms in the embedded mode. The
        // settings go on every connection of the pool, not only the first.
        opts.max_connections(4).map_sqlx_sqlite_opts(|o| {
            o.journal_mode(SqliteJournalMode::Wal).busy_timeout(Duration::from_secs(5)).foreign_keys(true)
        });
    }
    Database::connect(opts).await
}

/// Begins a transaction that will write. On SQLite it takes the write lock at `BEGIN IMMEDIATE`,
/// where waiting for a busy writer is allowed: a deferred transaction that reads first and then
/// writes while another connection holds the lock fails at once with "database is locked" (SQLite
/// never waits there, to avoid deadlock). PostgreSQL ignores the mode.
pub async fn begin_write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    db.begin_with_options(TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..TransactionOptions::default()
    })
    .await
}

/// Milliseconds since the Unix epoch, the time unit of every stored timestamp.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

#[cfg(test)]
mod tests {
    use sea_orm::ConnectionTrait;

    use super::*;

    /// The write lock is taken at `begin_write`, before any statement: a writer on another
    /// connection that will not wait is refused until the transaction ends.
    #[tokio::test]
    async fn a_write_transaction_holds_the_lock_from_its_start() -> Result<(), DbErr> {
        let dir = tempfile::tempdir().map_err(|e| DbErr::Custom(e.to_string()))?;
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("lock.db").display());
        let db = connect(&url).await?;
        db.execute_unprepared("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (0);").await?;

        let txn = begin_write(&db).await?;
        let refused = single(&url).await?.execute_unprepared("UPDATE t SET v = 2").await;
        assert!(refused.is_err_and(|e| e.to_string().contains("locked")), "another writer got in");
        txn.execute_unprepared("UPDATE t SET v = v + 1").await?;
        txn.commit().await?;
        single(&url).await?.execute_unprepared("UPDATE t SET v = v * 10").await?;
        let v = db.query_one_raw(sea_orm::Statement::from_string(db.get_database_backend(), "SELECT v FROM t")).await?;
        assert_eq!(v.map(|r| r.try_get::<i64>("", "v")).transpose()?, Some(10));
        Ok(())
    }

    /// One connection to `url` that never waits for a lock.
    async fn single(url: &str) -> Result<DatabaseConnection, DbErr> {
        let mut opts = ConnectOptions::new(url.to_owned());
        opts.max_connections(1).sqlx_logging(false);
        let db = Database::connect(opts).await?;
        db.execute_unprepared("PRAGMA busy_timeout=0").await?;
        Ok(db)
    }
}
