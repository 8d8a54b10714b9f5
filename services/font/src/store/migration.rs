//! Migrations of the font service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateUserFont)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_font".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateUserFont;

#[async_trait::async_trait]
impl MigrationTrait for CreateUserFont {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("user_font")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("name"))
                    .col(string("name_cn"))
                    .col(string("style"))
                    .col(string("format"))
                    .col(string("blob_key"))
                    .col(big_integer("size"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("user_font_by_owner").table("user_font").if_not_exists().col("tenant").col("user_id").to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("user_font").to_owned()).await
    }
}
