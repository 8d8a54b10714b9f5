//! Migrations of the task service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateVideoTask), Box::new(CreateRenderJob), Box::new(RenderFarm), Box::new(TaskVersion), Box::new(Templates), Box::new(TemplatePreviews), Box::new(TaskLoudness), Box::new(TemplateGrants), Box::new(QueuedByTenant), Box::new(ToolRuns), Box::new(MaintainTables), Box::new(Collections), Box::new(Contests), Box::new(Market), Box::new(Enterprises)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_task".into_iden()
    }
}

/// Each migration names itself: `DeriveMigrationName` would give both the module's name.
struct CreateVideoTask;

impl MigrationName for CreateVideoTask {
    fn name(&self) -> &str {
        "m20250101_000001_create_video_task"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CreateVideoTask {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("video_task")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("name").default("未命名"))
                    .col(text("task_info"))
                    .col(integer("status").default(-1))
                    .col(integer("size_category_id"))
                    .col(string("used_for"))
                    .col(string("video_key"))
                    .col(string("cover_key"))
                    .col(text("reason"))
                    .col(integer("percent"))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("video_task_by_owner")
                    .table("video_task")
                    .if_not_exists()
                    .col("tenant")
                    .col("user_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("video_task").to_owned()).await
    }
}

struct CreateRenderJob;

impl MigrationName for CreateRenderJob {
    fn name(&self) -> &str {
        "m20250101_000002_create_render_job"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CreateRenderJob {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("render_job")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(big_integer("task_id"))
                    .col(string("tenant"))
                    .col(string("state"))
                    .col(integer("attempt"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("render_job_by_task").table("render_job").if_not_exists().col("task_id").to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("render_job").to_owned()).await
    }
}

/// The farm's columns, the one-active-job-per-task index and the outbox.
struct RenderFarm;

impl MigrationName for RenderFarm {
    fn name(&self) -> &str {
        "m20261123_000003_render_farm"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for RenderFarm {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE render_job ADD COLUMN user_id VARCHAR NOT NULL DEFAULT ''").await?;
        db.execute_unprepared("ALTER TABLE render_job ADD COLUMN heartbeat_ms BIGINT NOT NULL DEFAULT 0").await?;
        db.execute_unprepared("ALTER TABLE render_job ADD COLUMN task_info TEXT NOT NULL DEFAULT ''").await?;
        // Runs made before this index may have left several active jobs per task; the newest stays.
        db.execute_unprepared(
            "UPDATE render_job SET state = 'superseded' WHERE state IN ('queued', 'running') AND created_ms < \
             (SELECT MAX(r.created_ms) FROM render_job r WHERE r.task_id = render_job.task_id AND r.state IN ('queued', 'running'))",
        )
        .await?;
        // A partial unique index (SQLite and PostgreSQL both have them): at most one queued or
        // running job per task, so two concurrent runs cannot both insert one.
        db.execute_unprepared(
            "CREATE UNIQUE INDEX IF NOT EXISTS render_job_one_active ON render_job (task_id) WHERE state IN ('queued', 'running')",
        )
        .await?;
        manager
            .create_table(
                Table::create()
                    .table("render_outbox")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("job_id"))
                    .col(blob("body"))
                    .col(integer("tries"))
                    .col(big_integer("next_ms"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("render_outbox").to_owned()).await?;
        manager.get_connection().execute_unprepared("DROP INDEX IF EXISTS render_job_one_active").await?;
        Ok(())
    }
}

/// The version of each task (optimistic concurrency of saves) and its document's length.
struct TaskVersion;

impl MigrationName for TaskVersion {
    fn name(&self) -> &str {
        "m20261123_000004_task_version"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for TaskVersion {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE video_task ADD COLUMN version BIGINT NOT NULL DEFAULT 1").await?;
        db.execute_unprepared("ALTER TABLE video_task ADD COLUMN duration_ms BIGINT NOT NULL DEFAULT 0").await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE video_task DROP COLUMN duration_ms").await?;
        db.execute_unprepared("ALTER TABLE video_task DROP COLUMN version").await?;
        Ok(())
    }
}

/// Templates and the tenants whose starter templates are seeded.
struct Templates;

impl MigrationName for Templates {
    fn name(&self) -> &str {
        "m20261123_000005_templates"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Templates {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("video_template")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("creator_id"))
                    .col(big_integer("task_id"))
                    .col(string("name"))
                    .col(string("kind"))
                    .col(string("used_for"))
                    .col(string("audit_state"))
                    .col(text("reason"))
                    .col(boolean("push"))
                    .col(string("category_ids"))
                    .col(integer("size_category_id"))
                    .col(text("task_info"))
                    .col(text("ivvr_info"))
                    .col(big_integer("duration_ms"))
                    .col(integer("replace_word"))
                    .col(integer("replace_picture"))
                    .col(integer("replace_video"))
                    .col(string("cover_key"))
                    .col(string("video_key"))
                    .col(string("starter"))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("video_template_by_state")
                    .table("video_template")
                    .if_not_exists()
                    .col("tenant")
                    .col("audit_state")
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("template_seed")
                    .if_not_exists()
                    .col(string("tenant").primary_key())
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("template_seed").to_owned()).await?;
        manager.drop_table(Table::drop().table("video_template").to_owned()).await
    }
}

/// The hidden task whose render is a template's preview.
struct TemplatePreviews;

impl MigrationName for TemplatePreviews {
    fn name(&self) -> &str {
        "m20261124_000006_template_previews"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for TemplatePreviews {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE video_template ADD COLUMN preview_task_id BIGINT NOT NULL DEFAULT 0").await?;
        // Every finished render looks its task up here (is it a template's preview?).
        manager
            .create_index(
                Index::create()
                    .name("video_template_by_preview")
                    .table("video_template")
                    .if_not_exists()
                    .col("preview_task_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared("DROP INDEX IF EXISTS video_template_by_preview").await?;
        manager.get_connection().execute_unprepared("ALTER TABLE video_template DROP COLUMN preview_task_id").await?;
        Ok(())
    }
}

struct TaskLoudness;

impl MigrationName for TaskLoudness {
    fn name(&self) -> &str {
        "m20261124_000007_task_loudness"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for TaskLoudness {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Null until a render with sound finishes (a silent video has no loudness).
        manager.get_connection().execute_unprepared("ALTER TABLE video_task ADD COLUMN loudness DOUBLE PRECISION NULL").await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared("ALTER TABLE video_task DROP COLUMN loudness").await?;
        Ok(())
    }
}

struct TemplateGrants;

impl MigrationName for TemplateGrants {
    fn name(&self) -> &str {
        "m20261125_000008_template_grants"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for TemplateGrants {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        // The template a task was made from (0: none): its materials are the task's to name.
        db.execute_unprepared("ALTER TABLE video_task ADD COLUMN template_id BIGINT NOT NULL DEFAULT 0").await?;
        // What that template lends the job (JSON), written at run time and carried in its message.
        db.execute_unprepared("ALTER TABLE render_job ADD COLUMN granted TEXT NOT NULL DEFAULT ''").await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("ALTER TABLE render_job DROP COLUMN granted").await?;
        db.execute_unprepared("ALTER TABLE video_task DROP COLUMN template_id").await?;
        Ok(())
    }
}

/// The relay's fair pass reads the queued jobs by tenant, oldest first, every second and every wake;
/// a partial index keeps that off the ended jobs, which are most of the table.
struct QueuedByTenant;

impl MigrationName for QueuedByTenant {
    fn name(&self) -> &str {
        "m20261127_000009_queued_by_tenant"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for QueuedByTenant {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE INDEX IF NOT EXISTS render_job_queued_by_tenant ON render_job (tenant, created_ms) WHERE state = 'queued'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared("DROP INDEX IF EXISTS render_job_queued_by_tenant").await?;
        Ok(())
    }
}

/// Tool runs are tasks of a toolbox type (docs/toolbox.md): the type, parameters and inputs on the
/// task and its job, the outputs on the task; editor works keep an empty type.
struct ToolRuns;

impl MigrationName for ToolRuns {
    fn name(&self) -> &str {
        "m20261127_000010_tool_runs"
    }
}

const TOOL_COLUMNS: [(&str, &str); 7] = [
    ("video_task", "tool_type"),
    ("video_task", "tool_params"),
    ("video_task", "tool_inputs"),
    ("video_task", "tool_outputs"),
    ("render_job", "tool_type"),
    ("render_job", "tool_params"),
    ("render_job", "tool_inputs"),
];

#[async_trait::async_trait]
impl MigrationTrait for ToolRuns {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for (table, column) in TOOL_COLUMNS {
            db.execute_unprepared(&format!("ALTER TABLE {table} ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")).await?;
        }
        // "My tools" and the editor's lists both pick by type within one user's tasks.
        db.execute_unprepared("CREATE INDEX IF NOT EXISTS video_task_by_tool ON video_task (tenant, user_id, tool_type, updated_ms)").await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP INDEX IF EXISTS video_task_by_tool").await?;
        for (table, column) in TOOL_COLUMNS.iter().rev() {
            db.execute_unprepared(&format!("ALTER TABLE {table} DROP COLUMN {column}")).await?;
        }
        Ok(())
    }
}

/// The maintenance area (issue 29): each attempt of a render job with its start, end and error;
/// the administrators' audit trail; the tenant's maintenance switch and run-time settings.
struct MaintainTables;

impl MigrationName for MaintainTables {
    fn name(&self) -> &str {
        "m20261127_000011_maintain_tables"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for MaintainTables {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("render_attempt")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("job_id"))
                    .col(big_integer("task_id"))
                    .col(string("tenant"))
                    .col(integer("attempt"))
                    .col(big_integer("started_ms"))
                    .col(big_integer("ended_ms").default(0))
                    .col(text("error").default(""))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("render_attempt_by_job").table("render_attempt").col("job_id").if_not_exists().to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("maintain_audit")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("actor"))
                    .col(string("action"))
                    .col(string("item"))
                    .col(text("before"))
                    .col(text("after"))
                    .col(big_integer("at_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("maintain_audit_by_item").table("maintain_audit").col("tenant").col("item").if_not_exists().to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("maintain_mode")
                    .if_not_exists()
                    .col(string("tenant").primary_key())
                    .col(boolean("enabled"))
                    .col(string("changed_by"))
                    .col(big_integer("changed_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("maintain_config")
                    .if_not_exists()
                    .col(string("tenant"))
                    .col(string("key"))
                    .col(string("value"))
                    .col(string("changed_by"))
                    .col(big_integer("changed_ms"))
                    .primary_key(Index::create().col("tenant").col("key"))
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["maintain_config", "maintain_mode", "maintain_audit", "render_attempt"] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        Ok(())
    }
}

/// Curated collections (issue 29): a tenant's topics, cases and industries of templates, one name
/// per kind.
struct Collections;

impl MigrationName for Collections {
    fn name(&self) -> &str {
        "m20261128_000012_collections"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Collections {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("template_collection")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("kind"))
                    .col(string("name"))
                    .col(text("description").default(""))
                    .col(boolean("published").default(false))
                    .col(integer("position").default(0))
                    .col(big_integer("cover_template_id").default(0))
                    .col(text("template_ids").default(""))
                    .col(string("updated_by"))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("template_collection_name")
                    .table("template_collection")
                    .col("tenant")
                    .col("kind")
                    .col("name")
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("template_collection").if_exists().to_owned()).await
    }
}

/// Contests (issue 30): a tenant's contests, the works entered (one per user per contest) and their
/// likes (one per user per entry).
struct Contests;

impl MigrationName for Contests {
    fn name(&self) -> &str {
        "m20261128_000013_contests"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Contests {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("contest")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("title"))
                    .col(text("theme").default(""))
                    .col(text("rules").default(""))
                    .col(big_integer("start_ms"))
                    .col(big_integer("end_ms"))
                    .col(string("ranking"))
                    .col(big_integer("template_id").default(0))
                    .col(string("updated_by"))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("contest_entry")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(big_integer("contest_id"))
                    .col(big_integer("task_id"))
                    .col(string("user_id"))
                    .col(big_integer("submitted_ms"))
                    .col(integer_null("score"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("contest_entry_once").table("contest_entry").col("contest_id").col("user_id").unique().if_not_exists().to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("contest_like")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(big_integer("entry_id"))
                    .col(string("user_id"))
                    .col(big_integer("at_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("contest_like_once").table("contest_like").col("entry_id").col("user_id").unique().if_not_exists().to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["contest_like", "contest_entry", "contest"] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        Ok(())
    }
}

/// The service marketplace (issue 30): providers' services and the requests placed with them.
struct Market;

impl MigrationName for Market {
    fn name(&self) -> &str {
        "m20261128_000014_market"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Market {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("market_service")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("provider_id"))
                    .col(string("title"))
                    .col(string("kind"))
                    .col(text("description").default(""))
                    .col(string("price").default(""))
                    .col(integer("delivery_days"))
                    .col(text("sample_task_ids").default(""))
                    .col(boolean("published").default(false))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("market_request")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(big_integer("service_id"))
                    .col(string("requester_id"))
                    .col(string("provider_id"))
                    .col(text("note").default(""))
                    .col(string("state"))
                    .col(text("reason").default(""))
                    .col(big_integer("delivered_task_id").default(0))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("market_request_by_service").table("market_request").col("service_id").col("requester_id").if_not_exists().to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["market_request", "market_service"] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        Ok(())
    }
}

/// Enterprises (issue 30, the enterprise workspace): a tenant's enterprises, their members (a user
/// in one enterprise at most) and the works and materials members share with them (each once).
struct Enterprises;

impl MigrationName for Enterprises {
    fn name(&self) -> &str {
        "m20261128_000015_enterprises"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Enterprises {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("enterprise")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("name"))
                    .col(string("created_by"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("enterprise_name_once").table("enterprise").col("tenant").col("name").unique().if_not_exists().to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("enterprise_member")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(big_integer("enterprise_id"))
                    .col(string("user_id"))
                    .col(string("added_by"))
                    .col(big_integer("added_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("enterprise_member_once").table("enterprise_member").col("tenant").col("user_id").unique().if_not_exists().to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("enterprise_share")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(big_integer("enterprise_id"))
                    .col(string("kind"))
                    .col(string("item_id"))
                    .col(string("name"))
                    .col(string("media_kind"))
                    .col(string("user_id"))
                    .col(string("video_key").default(""))
                    .col(string("cover_key").default(""))
                    .col(big_integer("shared_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("enterprise_share_once").table("enterprise_share").col("enterprise_id").col("kind").col("item_id").unique().if_not_exists().to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["enterprise_share", "enterprise_member", "enterprise"] {
            manager.drop_table(Table::drop().table(table).if_exists().to_owned()).await?;
        }
        Ok(())
    }
}
