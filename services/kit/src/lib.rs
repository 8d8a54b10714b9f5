//! Shared plumbing.
