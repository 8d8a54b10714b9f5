//! `reelforge admin migrate` and `REELFORGE_SKIP_MIGRATIONS`: the Helm chart's migration Job
//! migrates once, and the services it starts afterwards leave the tables alone.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Database, Statement};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const BIN: &str = env!("CARGO_BIN_EXE_reelforge");
const KEYS: &str = r#"[{id="k1",secret="0123456789abcdef0123456789abcdef"}]"#;

/// The tables named `seaql_migrations_*` in the SQLite file of `dir`.
async fn migration_tables(
    dir: &std::path::Path,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let url = format!("sqlite://{}?mode=ro", dir.join("reelforge.db").display());
    let db = Database::connect(url).await?;
    let rows = db
        .query_all_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'seaql_migrations_%' ORDER BY name",
        ))
        .await?;
    let mut names = Vec::new();
    for row in rows {
        names.push(row.try_get::<String>("", "name")?);
    }
    Ok(names)
}

fn free_port() -> Result<u16, std::io::Error> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `reelforge category` on `data`, waits until its admin endpoint is ready, and stops it.
async fn start_category(data: &std::path::Path, skip: &str) -> TestResult {
    let (grpc, admin) = (free_port()?, free_port()?);
    let mut child = Killed(
        Command::new(BIN)
            .arg("category")
            .env("REELFORGE_DATA_DIR", data)
            .env("REELFORGE_AUTH__KEYS", KEYS)
            .env(
                "REELFORGE_SERVICES__CATEGORY__LISTEN",
                format!("127.0.0.1:{grpc}"),
            )
            .env("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{admin}"))
            .env("REELFORGE_SKIP_MIGRATIONS", skip)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(r) = client
            .get(format!("http://127.0.0.1:{admin}/readyz"))
            .send()
            .await
            && r.status().is_success()
        {
            return Ok(());
        }
        if let Some(status) = child.0.try_wait()? {
            return Err(format!("category exited with {status}").into());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Err("category never became ready".into())
}

#[tokio::test]
async fn admin_migrate_makes_every_services_tables_once() -> TestResult {
    let dir = tempfile::tempdir()?;
    for round in 0..2 {
        let out = Command::new(BIN)
            .args(["admin", "migrate"])
            .env("REELFORGE_DATA_DIR", dir.path())
            .current_dir(dir.path())
            .output()?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "round {round}: {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for svc in [
            "auth",
            "material",
            "category",
            "favourite",
            "font",
            "task",
            "queue",
        ] {
            assert!(
                stdout.contains(&format!("{svc}: migrated")),
                "round {round}, {svc}: {stdout}"
            );
        }
    }
    let tables = migration_tables(dir.path()).await?;
    for svc in [
        "auth",
        "category",
        "favourite",
        "font",
        "material",
        "queue",
        "task",
    ] {
        assert!(
            tables.contains(&format!("seaql_migrations_{svc}")),
            "{svc}: {tables:?}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_service_told_to_skip_migrations_leaves_the_tables_alone() -> TestResult {
    let skipped = tempfile::tempdir()?;
    start_category(skipped.path(), "true").await?;
    let tables = migration_tables(skipped.path()).await?;
    assert!(
        !tables.iter().any(|t| t == "seaql_migrations_category"),
        "{tables:?}"
    );

    let migrated = tempfile::tempdir()?;
    start_category(migrated.path(), "false").await?;
    let tables = migration_tables(migrated.path()).await?;
    assert!(
        tables.iter().any(|t| t == "seaql_migrations_category"),
        "{tables:?}"
    );
    Ok(())
}

/// Every service's migrations, up.
async fn up(db: &sea_orm::DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    reelforge_auth::migrate(db).await?;
    reelforge_material::migrate(db).await?;
    reelforge_category::migrate(db).await?;
    reelforge_favourite::migrate(db).await?;
    reelforge_font::migrate(db).await?;
    reelforge_task::migrate(db).await?;
    reelforge_ring::migrate(db).await
}

/// Every service's migrations, down, in the reverse order.
async fn down(db: &sea_orm::DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    reelforge_ring::unmigrate(db).await?;
    reelforge_task::unmigrate(db).await?;
    reelforge_font::unmigrate(db).await?;
    reelforge_favourite::unmigrate(db).await?;
    reelforge_category::unmigrate(db).await?;
    reelforge_material::unmigrate(db).await?;
    reelforge_auth::unmigrate(db).await
}

/// The schema as the database describes it, one line per table, column and index, sorted; the
/// migrations' own bookkeeping tables left out.
async fn schema(db: &sea_orm::DatabaseConnection) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let backend = db.get_database_backend();
    let query = match backend {
        sea_orm::DatabaseBackend::Sqlite => {
            "SELECT type || ' ' || name || ': ' || coalesce(sql, '') AS line FROM sqlite_master \
             WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seaql_migrations%'"
        }
        _ => {
            "SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || \
             coalesce(column_default, '') AS line FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name NOT LIKE 'seaql_migrations%' \
             UNION ALL SELECT 'index ' || indexdef FROM pg_indexes \
             WHERE schemaname = 'public' AND tablename NOT LIKE 'seaql_migrations%' \
             UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) FROM pg_constraint \
             WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text NOT LIKE 'seaql_migrations%'"
        }
    };
    let mut lines = Vec::new();
    for row in db.query_all_raw(Statement::from_string(backend, query)).await? {
        lines.push(row.try_get::<String>("", "line")?);
    }
    lines.sort();
    Ok(lines)
}

/// Up, down and up again (catalogue B4): down leaves none of the services' tables, and the schema
/// migrated the second time is the fresh one.
async fn up_down_up(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    up(&db).await?;
    let fresh = schema(&db).await?;
    assert!(fresh.len() > 20, "the services' tables: {fresh:?}");
    down(&db).await?;
    assert_eq!(schema(&db).await?, Vec::<String>::new(), "down leaves nothing of the services' tables");
    up(&db).await?;
    assert_eq!(schema(&db).await?, fresh, "migrated again equals fresh");
    Ok(())
}

#[tokio::test]
async fn migrations_go_up_down_and_up_on_sqlite() -> TestResult {
    up_down_up(&reelforge_kit::testing::fresh_sqlite()).await
}

#[tokio::test]
async fn migrations_go_up_down_and_up_on_postgres() -> TestResult {
    up_down_up(&reelforge_kit::testing::fresh_postgres().await?).await
}
