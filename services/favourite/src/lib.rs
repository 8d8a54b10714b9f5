//! The favourite service.
