//! Migrations of the category service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateCategory)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_category".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateCategory;

#[async_trait::async_trait]
impl MigrationTrait for CreateCategory {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("category")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("name"))
                    .col(string("dimension"))
                    .col(big_integer("higher_up_id"))
                    .col(boolean("push"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("category_by_tenant").table("category").if_not_exists().col("tenant").to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("category").to_owned()).await
    }
}
