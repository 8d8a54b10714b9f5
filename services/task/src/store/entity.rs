//! The `video_task`, `render_job` and `render_outbox` tables.

/// A saved video task.
pub mod video_task {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "video_task")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub user_id: String,
        pub name: String,
        #[sea_orm(column_type = "Text")]
        pub task_info: String,
        pub status: i32,
        pub size_category_id: i32,
        pub used_for: String,
        pub video_key: String,
        pub cover_key: String,
        #[sea_orm(column_type = "Text")]
        pub reason: String,
        pub percent: i32,
        pub created_ms: i64,
        pub updated_ms: i64,
        pub version: i64,
        pub duration_ms: i64,
        pub loudness: Option<f64>,
        /// The template the task was made from (0: none).
        pub template_id: i64,
        /// A tool run's toolbox type; empty for an editor work.
        pub tool_type: String,
        /// A tool run's parameters (JSON).
        #[sea_orm(column_type = "Text")]
        pub tool_params: String,
        /// A tool run's input material ids (JSON list).
        #[sea_orm(column_type = "Text")]
        pub tool_inputs: String,
        /// A finished tool run's outputs (JSON list).
        #[sea_orm(column_type = "Text")]
        pub tool_outputs: String,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// One render run of a task.
pub mod render_job {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "render_job")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: String,
        pub task_id: i64,
        pub tenant: String,
        pub user_id: String,
        pub state: String,
        pub attempt: i32,
        pub heartbeat_ms: i64,
        #[sea_orm(column_type = "Text")]
        pub task_info: String,
        pub created_ms: i64,
        /// What the task's template lends the job, as JSON (empty: nothing).
        #[sea_orm(column_type = "Text")]
        pub granted: String,
        /// A tool job's toolbox type; empty for a render.
        pub tool_type: String,
        /// A tool job's parameters (JSON).
        #[sea_orm(column_type = "Text")]
        pub tool_params: String,
        /// A tool job's input material ids (JSON list).
        #[sea_orm(column_type = "Text")]
        pub tool_inputs: String,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// Render jobs committed with their run, waiting for the relay to publish them.
pub mod render_outbox {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "render_outbox")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: String,
        pub job_id: String,
        pub body: Vec<u8>,
        pub tries: i32,
        pub next_ms: i64,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A template: a copy of a task's document with its audit state (issue 14).
pub mod video_template {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "video_template")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub creator_id: String,
        pub task_id: i64,
        pub name: String,
        pub kind: String,
        pub used_for: String,
        pub audit_state: String,
        #[sea_orm(column_type = "Text")]
        pub reason: String,
        pub push: bool,
        /// Comma-joined with a comma at each end (",3,17,"), so one category is a LIKE match.
        pub category_ids: String,
        pub size_category_id: i32,
        #[sea_orm(column_type = "Text")]
        pub task_info: String,
        #[sea_orm(column_type = "Text")]
        pub ivvr_info: String,
        pub duration_ms: i64,
        pub replace_word: i32,
        pub replace_picture: i32,
        pub replace_video: i32,
        pub cover_key: String,
        pub video_key: String,
        /// The starter's key for a seeded template, else empty.
        pub starter: String,
        /// The hidden task of the template's creator whose render is its preview (0: none).
        pub preview_task_id: i64,
        pub created_ms: i64,
        pub updated_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// Tenants whose starter templates are seeded: the primary key makes a second seeding fail.
pub mod template_seed {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "template_seed")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub tenant: String,
        pub created_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
