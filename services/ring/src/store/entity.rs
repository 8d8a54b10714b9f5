//! The ring service's tables: orders, the delivery outbox, copyright proofs, and the receipts of the
//! ring platform inside the binary.

/// The `ring_order` table.
pub mod ring_order {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "ring_order")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub user_id: String,
        pub task_id: i64,
        pub task_name: String,
        pub video_key: String,
        pub cover_key: String,
        pub phone: String,
        pub state: i32,
        pub reason: String,
        pub retryable: bool,
        pub copyright_id: String,
        pub platform_ref: String,
        pub attempts: i32,
        pub video_bytes: i64,
        pub video_sha256: String,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// The `ring_outbox` table: one row per order and action still to deliver.
pub mod ring_outbox {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "ring_outbox")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub order_id: i64,
        pub action: String,
        pub attempts: i32,
        pub next_ms: i64,
        pub last_error: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// The `ring_copyright` table: copyright proofs the gateway stored.
pub mod ring_copyright {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "ring_copyright")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: String,
        pub tenant: String,
        pub user_id: String,
        pub name: String,
        pub key: String,
        pub format: String,
        pub bytes: i64,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// The `ring_receipt` table: what the ring platform inside the binary accepted.
pub mod ring_receipt {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "ring_receipt")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub idempotency_key: String,
        pub order_id: i64,
        pub action: String,
        pub phone: String,
        pub task_id: i64,
        pub reference: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
