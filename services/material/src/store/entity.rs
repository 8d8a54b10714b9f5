//! The `material` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "material")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub tenant: String,
    pub user_id: String,
    pub name: String,
    #[sea_orm(column_name = "type")]
    pub kind: String,
    pub category_id: i64,
    pub open_state: i32,
    pub relative_path: String,
    pub picture_path: String,
    pub time_length: f64,
    pub size: String,
    pub material_state: i32,
    pub system: bool,
    pub created_ms: i64,
    pub state: String,
    pub fail_reason: String,
    pub file_size: i64,
    pub width: i32,
    pub height: i32,
    pub frame_rate: f64,
    pub rotation: i32,
    pub has_audio: bool,
    pub codec: String,
    pub filmstrip_path: String,
    pub waveform_path: String,
    pub preview_path: String,
    pub style_id: i64,
    pub audit_reason: String,
    pub mean_db: Option<f64>,
    pub peak_db: Option<f64>,
    pub deleted: bool,
    pub use_count: i64,
    pub sha256: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
