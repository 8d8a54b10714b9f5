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

/// A service's database migrations as this binary knows them, and the table recording which the
/// database has: what the maintenance area's upgrade page lists per service.
#[derive(Debug, Clone)]
pub struct MigrationBook {
    /// The service, in the deployment's words (auth, material, …).
    pub service: &'static str,
    /// The table recording the service's applied migrations.
    pub table: String,
    /// The migrations the binary carries, oldest first.
    pub names: Vec<String>,
}

impl MigrationBook {
    /// The book of `M`'s migrations, for `service`.
    pub fn of<M: sea_orm_migration::MigratorTrait>(service: &'static str) -> Self {
        Self {
            service,
            table: M::migration_table_name().to_string(),
            names: M::migrations().iter().map(|m| m.name().to_owned()).collect(),
        }
    }
}

/// One migration of a service and where the database stands with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationState {
    /// The migration's name.
    pub name: String,
    /// When the database applied it (Unix seconds), or `None`: pending.
    pub applied_at: Option<i64>,
    /// Whether this binary carries it (one it does not was applied by a newer version).
    pub known: bool,
}

/// Where the database stands with each migration of `book`, the binary's own in order, then any
/// the table records that the binary does not carry. Reads only: a table not there yet means
/// nothing is applied.
pub async fn migration_states(db: &DatabaseConnection, book: &MigrationBook) -> Result<Vec<MigrationState>, DbErr> {
    use sea_orm::sea_query::{Alias, Query};
    use sea_orm::ConnectionTrait;
    let mut applied: Vec<(String, i64)> = Vec::new();
    if sea_orm_migration::SchemaManager::new(db).has_table(&book.table).await? {
        let query = Query::select()
            .columns([Alias::new("version"), Alias::new("applied_at")])
            .from(Alias::new(&book.table))
            .order_by(Alias::new("version"), sea_orm::sea_query::Order::Asc)
            .to_owned();
        for row in db.query_all(&query).await? {
            applied.push((row.try_get::<String>("", "version")?, row.try_get::<i64>("", "applied_at")?));
        }
    }
    let at = |name: &str| applied.iter().find(|(v, _)| v == name).map(|(_, t)| *t);
    let mut states: Vec<MigrationState> =
        book.names.iter().map(|n| MigrationState { name: n.clone(), applied_at: at(n), known: true }).collect();
    states.extend(
        applied
            .iter()
            .filter(|(v, _)| !book.names.contains(v))
            .map(|(v, t)| MigrationState { name: v.clone(), applied_at: Some(*t), known: false }),
    );
    Ok(states)
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

    /// Each migration of a book is applied (with its time) or pending, and one the table records
    /// that the binary does not carry is listed after them; without the table, all are pending.
    #[tokio::test]
    async fn migration_states_read_the_services_table() -> Result<(), Box<dyn std::error::Error>> {
        use super::{MigrationBook, MigrationState, migration_states};
        let db = connect("sqlite::memory:").await?;
        let book = MigrationBook { service: "x", table: "seaql_migrations_x".into(), names: vec!["m1_a".into(), "m2_b".into()] };
        let pending = |name: &str| MigrationState { name: name.into(), applied_at: None, known: true };
        assert_eq!(migration_states(&db, &book).await?, vec![pending("m1_a"), pending("m2_b")]);
        db.execute_unprepared("CREATE TABLE seaql_migrations_x (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)").await?;
        db.execute_unprepared("INSERT INTO seaql_migrations_x VALUES ('m1_a', 1700000000), ('m9_newer', 1800000000)").await?;
        assert_eq!(
            migration_states(&db, &book).await?,
            vec![
                MigrationState { name: "m1_a".into(), applied_at: Some(1_700_000_000), known: true },
                pending("m2_b"),
                MigrationState { name: "m9_newer".into(), applied_at: Some(1_800_000_000), known: false },
            ]
        );
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
