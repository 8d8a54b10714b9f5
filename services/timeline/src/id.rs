//! Identifiers that the browser writes either as numbers or as strings (material ids, uuids).

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use ts_rs::TS;

/// An id as the browser wrote it: an integer or a string, kept as such on a round trip.
#[derive(Debug, Clone, PartialEq, Eq, Hash, TS)]
#[ts(export_to = "Id.ts", type = "number | string")]
pub enum Id {
    /// A numeric id.
    Num(i64),
    /// A textual id (uuid, frontend id).
    Text(String),
}

impl Default for Id {
    fn default() -> Self {
        Id::Num(-1)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Num(n) => write!(f, "{n}"),
            Id::Text(s) => f.write_str(s),
        }
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Num(n) => s.serialize_i64(*n),
            Id::Text(t) => s.serialize_str(t),
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = Id;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number or a string id")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Id, E> {
        Ok(Id::Num(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Id, E> {
        Ok(i64::try_from(v).map_or_else(|_| Id::Text(v.to_string()), Id::Num))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Id, E> {
        // A fractional id is not an id we can compute with; keep its text so nothing is lost.
        Ok(serde_json::Number::from_f64(v)
            .map_or_else(|| Id::Text(String::new()), |n| Id::Text(n.to_string())))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Id, E> {
        Ok(Id::Text(v.to_owned()))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Id, E> {
        Ok(Id::Text(v.to_string()))
    }
}
