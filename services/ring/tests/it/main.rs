//! The ring service's integration tests, one binary: each file a module, the shared fixtures in
//! `common`. Every case runs on SQLite and on PostgreSQL (`REELFORGE_TEST_POSTGRES`).

mod clip;
mod common;

mod delivery;
mod orders;
