//! Migrations of the auth service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateUserAccount), Box::new(AddMobileAndDisabled), Box::new(ProviderApplications)]
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

/// Service-provider applications (issues 29 and 30): one row per application, decided by a
/// template manager; an approved one makes its user a provider.
struct ProviderApplications;

impl MigrationName for ProviderApplications {
    fn name(&self) -> &str {
        "m20261128_000003_provider_applications"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for ProviderApplications {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("provider_application")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(string("tenant"))
                    .col(string("user_id"))
                    .col(string("name"))
                    .col(string("contact"))
                    .col(text("intro"))
                    .col(string("state"))
                    .col(text("reason").default(""))
                    .col(string("reviewed_by").default(""))
                    .col(big_integer("created_ms"))
                    .col(big_integer("reviewed_ms").default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("provider_application_by_user").table("provider_application").col("tenant").col("user_id").if_not_exists().to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("provider_application_by_state").table("provider_application").col("tenant").col("state").if_not_exists().to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("provider_application").if_exists().to_owned()).await
    }
}
