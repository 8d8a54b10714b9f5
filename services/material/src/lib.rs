//! The material service.
