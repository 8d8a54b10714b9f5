//! Migrations of the ring service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateRing)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_ring".into_iden()
    }
}

/// Orders, the delivery outbox, copyright proofs and the local platform's receipts.
struct CreateRing;

impl MigrationName for CreateRing {
    fn name(&self) -> &str {
        "m20261127_000001_create_ring"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CreateRing {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("ring_order")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(big_integer("task_id"))
                    .col(string("task_name"))
                    .col(string("video_key"))
                    .col(string("cover_key"))
                    .col(string("phone"))
                    .col(integer("state"))
                    .col(text("reason"))
                    .col(boolean("retryable"))
                    .col(string("copyright_id"))
                    .col(string("platform_ref"))
                    .col(integer("attempts"))
                    .col(big_integer("video_bytes"))
                    .col(string("video_sha256"))
                    .col(big_integer("created_ms"))
                    .col(big_integer("updated_ms"))
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        // At most one live order (not failed, not cancelled) per caller, task and number: a second
        // save that races the first fails its insert and answers the first order.
        db.execute_unprepared(
            "CREATE UNIQUE INDEX IF NOT EXISTS ring_order_live ON ring_order (tenant, user_id, task_id, phone) WHERE state NOT IN (-1, 3)",
        )
        .await?;
        db.execute_unprepared(
            "CREATE INDEX IF NOT EXISTS ring_order_by_owner ON ring_order (tenant, user_id, id)",
        )
        .await?;
        manager
            .create_table(
                Table::create()
                    .table("ring_outbox")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(big_integer("order_id"))
                    .col(string("action"))
                    .col(integer("attempts"))
                    .col(big_integer("next_ms"))
                    .col(text("last_error"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX IF NOT EXISTS ring_outbox_one ON ring_outbox (order_id, action)",
        )
        .await?;
        db.execute_unprepared(
            "CREATE INDEX IF NOT EXISTS ring_outbox_due ON ring_outbox (next_ms)",
        )
        .await?;
        manager
            .create_table(
                Table::create()
                    .table("ring_copyright")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("name"))
                    .col(string("key"))
                    .col(string("format"))
                    .col(big_integer("bytes"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("ring_receipt")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("idempotency_key"))
                    .col(big_integer("order_id"))
                    .col(string("action"))
                    .col(string("phone"))
                    .col(big_integer("task_id"))
                    .col(string("reference"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        db.execute_unprepared("CREATE UNIQUE INDEX IF NOT EXISTS ring_receipt_once ON ring_receipt (tenant, idempotency_key)").await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "ring_receipt",
            "ring_copyright",
            "ring_outbox",
            "ring_order",
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
