//! Lenient readers for numbers and flags the browser may send as strings (platform §5: non-numeric → 0).

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Reads any JSON value as a number: numbers as they are, numeric strings parsed, booleans as 1/0,
/// anything else (null, words, arrays, objects, non-finite results) as 0.
struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number or a numeric string")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(if v.is_finite() { v } else { 0.0 })
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<f64, E> {
        Ok(if v { 1.0 } else { 0.0 })
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        Ok(parse_number(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(0.0)
    }
    fn visit_none<E: de::Error>(self) -> Result<f64, E> {
        Ok(0.0)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(NumberVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<f64, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(0.0)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<f64, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(0.0)
    }
}

/// Returns the number a string holds, or 0 when it holds none (platform §5).
pub fn parse_number(text: &str) -> f64 {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => v,
        _ => 0.0,
    }
}

/// Deserialises a lenient `f64`.
pub fn f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(NumberVisitor)
}

/// Deserialises a lenient end time: like [`f64`], except that null is an open end,
/// `f64::INFINITY`, which the scene then closes at its own end (`Scene::close_open_ends`).
/// serde_json writes a non-finite number as null, so an unresolved open end stays open.
pub fn end_time<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(EndTimeVisitor)
}

struct EndTimeVisitor;

impl<'de> Visitor<'de> for EndTimeVisitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, a numeric string or null")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        NumberVisitor.visit_f64(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        NumberVisitor.visit_i64(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        NumberVisitor.visit_u64(v)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<f64, E> {
        NumberVisitor.visit_bool(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        NumberVisitor.visit_str(v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::INFINITY)
    }
    fn visit_none<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::INFINITY)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(EndTimeVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<f64, A::Error> {
        NumberVisitor.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<f64, A::Error> {
        NumberVisitor.visit_map(map)
    }
}

/// Deserialises a lenient integer; fractions are truncated and out-of-range values saturate.
pub fn i64<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    // `as` saturates and maps NaN to 0, which is the lenient reading we want.
    d.deserialize_any(NumberVisitor).map(|v| v.trunc() as i64)
}

/// Deserialises a lenient optional integer: null is none, anything else reads as [`i64`] does.
pub fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v => i64(v).map(Some).map_err(de::Error::custom),
    }
}

/// Deserialises a lenient flag: booleans, numbers (non-zero is true) and the strings
/// "on"/"true"/"1" (anything else false).
pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    d.deserialize_any(FlagVisitor)
}

struct FlagVisitor;

impl<'de> Visitor<'de> for FlagVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a flag")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
        Ok(v != 0.0 && v.is_finite())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        Ok(v != 0)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        Ok(v != 0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        Ok(matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "on" | "true" | "1" | "yes"
        ))
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(FlagVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }
}

/// Deserialises a lenient string: numbers and booleans become their text, null becomes "".
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_any(StringVisitor)
}

struct StringVisitor;

impl<'de> Visitor<'de> for StringVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(serde_json::Number::from_f64(v)
            .map(|n| n.to_string())
            .unwrap_or_default())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(StringVisitor)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct N {
        #[serde(deserialize_with = "super::f64")]
        v: f64,
        #[serde(deserialize_with = "super::i64")]
        i: i64,
    }

    #[derive(Deserialize)]
    struct E {
        #[serde(deserialize_with = "super::end_time")]
        end: f64,
    }

    #[test]
    fn null_end_time_is_open_and_other_values_read_as_numbers() -> Result<(), serde_json::Error> {
        let e: E = serde_json::from_str(r#"{"end":null}"#)?;
        assert_eq!(e.end, f64::INFINITY);
        let e: E = serde_json::from_str(r#"{"end":"2.5"}"#)?;
        assert_eq!(e.end, 2.5);
        let e: E = serde_json::from_str(r#"{"end":"abc"}"#)?;
        assert_eq!(e.end, 0.0);
        Ok(())
    }

    #[test]
    fn non_numeric_reads_as_zero() -> Result<(), serde_json::Error> {
        let n: N = serde_json::from_str(r#"{"v":"abc","i":"12.7"}"#)?;
        assert_eq!((n.v, n.i), (0.0, 12));
        let n: N = serde_json::from_str(r#"{"v":" 3.5 ","i":[1,2]}"#)?;
        assert_eq!((n.v, n.i), (3.5, 0));
        let n: N = serde_json::from_str(r#"{"v":null,"i":true}"#)?;
        assert_eq!((n.v, n.i), (0.0, 1));
        Ok(())
    }
}
