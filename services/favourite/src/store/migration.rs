//! Migrations of the favourite service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateFavourite), Box::new(CreateSearchHistory)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_favourite".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateFavourite;

#[async_trait::async_trait]
impl MigrationTrait for CreateFavourite {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("favourite")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("item_id"))
                    .col(string("kind"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("favourite_by_owner")
                    .table("favourite")
                    .if_not_exists()
                    .col("tenant")
                    .col("user_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("favourite").to_owned()).await
    }
}

/// Named by hand: a derived name is the module's, which the first migration already holds.
struct CreateSearchHistory;

impl MigrationName for CreateSearchHistory {
    fn name(&self) -> &str {
        "favourite_search_history"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CreateSearchHistory {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("search_history")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("keyword"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("search_history_by_owner")
                    .table("search_history")
                    .if_not_exists()
                    .col("tenant")
                    .col("user_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("search_history").to_owned()).await
    }
}
