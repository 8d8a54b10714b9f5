//! `engine`: one module per file of `src/engine` with tests.

mod draw;
