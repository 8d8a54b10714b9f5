//! The queue table, tracked in its own migration table apart from the services' migrations.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// The queue table's migrations, tracked apart from the services' own.
pub(super) struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateQueueJobs)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_queue".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateQueueJobs;

#[async_trait::async_trait]
impl MigrationTrait for CreateQueueJobs {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("queue_jobs")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("queue"))
                    .col(blob("body"))
                    .col(string("state"))
                    .col(big_integer("attempts"))
                    .col(big_integer("lease_until"))
                    .col(string("lease"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("queue_jobs_by_queue_state")
                    .table("queue_jobs")
                    .if_not_exists()
                    .col("queue")
                    .col("state")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("queue_jobs").to_owned()).await
    }
}
