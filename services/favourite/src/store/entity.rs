//! The `favourite` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "favourite")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub tenant: String,
    pub user_id: String,
    pub item_id: String,
    pub kind: String,
    pub created_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The `search_history` table: a user's last search keywords.
pub mod search {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "search_history")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub user_id: String,
        pub keyword: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
