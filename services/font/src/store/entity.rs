//! The `user_font` table: one row per uploaded font.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_font")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub tenant: String,
    pub user_id: String,
    pub name: String,
    pub name_cn: String,
    pub style: String,
    pub format: String,
    pub blob_key: String,
    pub size: i64,
    pub created_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
