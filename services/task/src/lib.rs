//! The task service.
