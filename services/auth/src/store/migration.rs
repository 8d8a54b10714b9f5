//! Migrations of the auth service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateUserAccount), Box::new(AddMobileAndDisabled)]
    }
    fn migration_table_name() -> DynIden {
        "seaql_migrations_auth".into_iden()
    }
}

#[derive(DeriveMigrationName)]
struct CreateUserAccount;

#[async_trait::async_trait]
impl MigrationTrait for CreateUserAccount {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("user_account")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("mail"))
                    .col(integer("operator_level").default(8))
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("user_account_by_mail")
                    .table("user_account")
                    .if_not_exists()
                    .unique()
                    .col("tenant")
                    .col("mail")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("user_account").to_owned()).await
    }
}

struct AddMobileAndDisabled;

impl MigrationName for AddMobileAndDisabled {
    fn name(&self) -> &str {
        "user_account_mobile_disabled"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for AddMobileAndDisabled {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite alters one column per statement.
        manager
            .alter_table(Table::alter().table("user_account").add_column(string("mobile").default("")).to_owned())
            .await?;
        manager
            .alter_table(Table::alter().table("user_account").add_column(boolean("disabled").default(false)).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("user_account").drop_column("disabled").to_owned()).await?;
        manager.alter_table(Table::alter().table("user_account").drop_column("mobile").to_owned()).await
    }
}
