//! Migrations of the material service, tracked in their own table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateMaterial), Box::new(AddProbing), Box::new(CreateStarterSeed), Box::new(AddSha256)]
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

/// Upload, probing, audit and deletion columns. SQLite alters one column per statement.
struct AddProbing;

// Named by hand: `DeriveMigrationName` names every migration of a module after the module.
impl MigrationName for AddProbing {
    fn name(&self) -> &str {
        "m20261123_000002_material_probing"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for AddProbing {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Rows made before uploads existed are system or seeded materials: usable as they are.
        let columns = [
            string("state").default("ready").to_owned(),
            string("fail_reason").default("").to_owned(),
            big_integer("file_size").default(0).to_owned(),
            integer("width").default(0).to_owned(),
            integer("height").default(0).to_owned(),
            double("frame_rate").default(0.0).to_owned(),
            integer("rotation").default(0).to_owned(),
            boolean("has_audio").default(false).to_owned(),
            string("codec").default("").to_owned(),
            string("filmstrip_path").default("").to_owned(),
            string("waveform_path").default("").to_owned(),
            string("preview_path").default("").to_owned(),
            big_integer("style_id").default(-1).to_owned(),
            string("audit_reason").default("").to_owned(),
            double_null("mean_db"),
            double_null("peak_db"),
            boolean("deleted").default(false).to_owned(),
            big_integer("use_count").default(0).to_owned(),
        ];
        for mut col in columns {
            manager.alter_table(Table::alter().table("material").add_column(&mut col).to_owned()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for col in [
            "state", "fail_reason", "file_size", "width", "height", "frame_rate", "rotation", "has_audio", "codec",
            "filmstrip_path", "waveform_path", "preview_path", "style_id", "audit_reason", "mean_db", "peak_db",
            "deleted", "use_count",
        ] {
            manager.alter_table(Table::alter().table("material").drop_column(col).to_owned()).await?;
        }
        Ok(())
    }
}

/// The tenants whose starter library is seeded: the primary key makes a second seeding fail.
struct CreateStarterSeed;

impl MigrationName for CreateStarterSeed {
    fn name(&self) -> &str {
        "m20261124_000003_create_material_seed"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CreateStarterSeed {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("material_seed")
                    .if_not_exists()
                    .col(string("tenant").primary_key())
                    .col(big_integer("created_ms"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("material_seed").to_owned()).await
    }
}

/// The SHA-256 of each upload's file, so the same file uploaded again by the same user finds the
/// material it made; rows made before (and system materials) have none and match nothing.
struct AddSha256;

impl MigrationName for AddSha256 {
    fn name(&self) -> &str {
        "m20261127_000004_material_sha256"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for AddSha256 {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table("material").add_column(string("sha256").default("").to_owned()).to_owned())
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("material_by_file")
                    .table("material")
                    .if_not_exists()
                    .col("tenant")
                    .col("user_id")
                    .col("sha256")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("material_by_file").table("material").to_owned()).await?;
        manager.alter_table(Table::alter().table("material").drop_column("sha256").to_owned()).await
    }
}
