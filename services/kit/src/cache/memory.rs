//! The in-process cache: a map guarded by a mutex, expired entries dropped on access and swept
//! when the map grows.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Cache, CacheError};

/// An in-process cache with TTLs.
#[derive(Default)]
pub struct MemoryCache {
    entries: Mutex<HashMap<String, (String, Option<Instant>)>>,
}

const SWEEP_AT: usize = 10_000;

impl MemoryCache {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, (String, Option<Instant>)>) -> T) -> T {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if map.len() >= SWEEP_AT {
            map.retain(|_, (_, exp)| exp.is_none_or(|e| e > now));
        }
        f(&mut map)
    }
}

fn live(entry: Option<&(String, Option<Instant>)>) -> Option<String> {
    entry.filter(|(_, exp)| exp.is_none_or(|e| e > Instant::now())).map(|(v, _)| v.clone())
}

#[async_trait::async_trait]
impl Cache for MemoryCache {
    async fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        Ok(self.with(|m| live(m.get(key))))
    }

    async fn set(&self, key: &str, value: &str, ttl: Option<Duration>) -> Result<(), CacheError> {
        let exp = ttl.map(|t| Instant::now() + t);
        self.with(|m| m.insert(key.to_owned(), (value.to_owned(), exp)));
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<bool, CacheError> {
        Ok(self.with(|m| live(m.remove(key).as_ref()).is_some()))
    }

    async fn take(&self, key: &str) -> Result<Option<String>, CacheError> {
        Ok(self.with(|m| live(m.remove(key).as_ref())))
    }

    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64, CacheError> {
        Ok(self.with(|m| {
            let current = live(m.get(key)).and_then(|v| v.parse::<i64>().ok());
            let exp = match (current, m.get(key)) {
                (Some(_), Some((_, exp))) => *exp,
                _ => Some(Instant::now() + ttl),
            };
            let next = current.unwrap_or(0) + 1;
            m.insert(key.to_owned(), (next.to_string(), exp));
            next
        }))
    }

    async fn ttl(&self, key: &str) -> Result<Option<Duration>, CacheError> {
        let now = Instant::now();
        Ok(self.with(|m| m.get(key).and_then(|(_, exp)| *exp).filter(|e| *e > now).map(|e| e - now)))
    }

    async fn ping(&self) -> Result<(), CacheError> {
        Ok(())
    }
}
