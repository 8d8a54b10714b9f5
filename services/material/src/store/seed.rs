//! The starter library's rows: a tenant's seed is claimed by a row whose primary key is the
//! tenant, in the same transaction as the materials, so a second or concurrent seeding inserts
//! nothing (the pattern of the task service's starter templates).

use sea_orm::{ActiveModelTrait, EntityTrait, Set};

use super::{MaterialStore, defaults, entity as material};
use crate::domain::{MaterialError, MaterialKind, Probed, State};

/// Tenants whose starter library is seeded.
pub(super) mod entity {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "material_seed")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub tenant: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A starter material whose files are stored: everything its row needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Seeded {
    /// Its id, made by the caller (the same for every seeding of the tenant).
    pub id: String,
    /// The key of the original.
    pub key: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Display name.
    pub name: String,
    /// System category.
    pub category_id: i64,
    /// Style class, -1 none.
    pub style_id: i64,
    /// Bytes of the original.
    pub file_size: u64,
    /// What probing found, with the keys of the stored cover and waveform.
    pub probed: Probed,
}

impl MaterialStore {
    /// Whether the starter library of `tenant` is seeded.
    pub async fn is_seeded(&self, tenant: &str) -> Result<bool, MaterialError> {
        Ok(entity::Entity::find_by_id(tenant.to_owned())
            .one(&self.db)
            .await?
            .is_some())
    }

    /// Records `rows` as the tenant's system materials, once: answers false (and inserts nothing)
    /// when the tenant was seeded before or by a concurrent call.
    pub async fn seed(&self, tenant: &str, rows: Vec<Seeded>) -> Result<bool, MaterialError> {
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let now = reelforge_kit::db::now_millis();
        let claimed = entity::ActiveModel {
            tenant: Set(tenant.to_owned()),
            created_ms: Set(now),
        }
        .insert(&txn)
        .await;
        if let Err(e) = claimed {
            txn.rollback().await?;
            return match e.sql_err() {
                Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => Ok(false),
                _ => Err(e.into()),
            };
        }
        for (i, s) in rows.into_iter().enumerate() {
            let p = s.probed;
            material::ActiveModel {
                id: Set(s.id),
                tenant: Set(tenant.to_owned()),
                user_id: Set(String::new()),
                name: Set(s.name),
                kind: Set(s.kind.as_str().to_owned()),
                category_id: Set(s.category_id),
                open_state: Set(1),
                relative_path: Set(s.key),
                picture_path: Set(p.cover_key),
                time_length: Set(p.duration),
                size: Set(if p.width > 0 && p.height > 0 {
                    format!("{}x{}", p.width, p.height)
                } else {
                    String::new()
                }),
                material_state: Set(1),
                system: Set(true),
                // The catalogue's order is the newest-first order of the lists.
                created_ms: Set(now - i as i64),
                state: Set(State::Ready.as_str().to_owned()),
                file_size: Set(i64::try_from(s.file_size).unwrap_or(i64::MAX)),
                width: Set(p.width),
                height: Set(p.height),
                frame_rate: Set(p.frame_rate),
                rotation: Set(p.rotation),
                has_audio: Set(p.has_audio),
                codec: Set(p.codec),
                waveform_path: Set(p.waveform_key),
                style_id: Set(s.style_id),
                mean_db: Set(p.mean_db),
                peak_db: Set(p.peak_db),
                ..defaults()
            }
            .insert(&txn)
            .await?;
        }
        txn.commit().await?;
        Ok(true)
    }
}
