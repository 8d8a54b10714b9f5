//! The ai service.
