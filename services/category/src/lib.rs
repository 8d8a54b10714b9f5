//! The category service.
