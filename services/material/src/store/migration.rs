//! Migrations of the material service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateMaterial)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_material".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateMaterial;

#[async_trait::async_trait]
impl MigrationTrait for CreateMaterial {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("material")
                    .if_not_exists()
                    .col(string("id").primary_key())
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("name"))
                    .col(string("type"))
                    .col(big_integer("category_id"))
                    .col(integer("open_state"))
                    .col(string("relative_path"))
                    .col(string("picture_path"))
                    .col(double("time_length"))
                    .col(string("size"))
                    .col(integer("material_state"))
                    .col(boolean("system"))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("material_by_owner")
                    .table("material")
                    .if_not_exists()
                    .col("tenant")
                    .col("user_id")
                    .col("created_ms")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("material").to_owned()).await
    }
}
