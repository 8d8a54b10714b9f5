//! The auth service.
