//! A job's time by stage (start, fetch, render, upload, finish…), logged once when the job ends, so
//! where a farm job spends its time beyond the engine's own work can be read off the worker's log
//! (docs/render-farm.md "Stage timing").

use std::fmt;
use std::time::{Duration, Instant};

/// Laps of one job, each the time since the previous lap.
pub(crate) struct Stages {
    last: Instant,
    laps: Vec<(&'static str, Duration)>,
}

impl Stages {
    /// Starts the clock.
    pub(crate) fn start() -> Self {
        Self { last: Instant::now(), laps: Vec::new() }
    }

    /// Ends the stage `name` now; a stage ended twice (a job tried again in place) adds up.
    pub(crate) fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        let took = now - self.last;
        self.last = now;
        match self.laps.iter_mut().find(|(n, _)| *n == name) {
            Some((_, total)) => *total += took,
            None => self.laps.push((name, took)),
        }
    }

    /// The whole job so far.
    pub(crate) fn total(&self) -> Duration {
        self.laps.iter().map(|(_, d)| *d).sum()
    }
}

/// `start 3 ms, fetch 12 ms, render 4100 ms, upload 40 ms, finish 8 ms`, in the order they began.
impl fmt::Display for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, took)) in self.laps.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name} {} ms", took.as_millis())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_read_in_order_and_a_stage_ended_twice_adds_up() {
        let mut stages = Stages::start();
        stages.laps = vec![("start", Duration::from_millis(3)), ("render", Duration::from_millis(4100))];
        stages.last = Instant::now() - Duration::from_millis(50);
        stages.lap("render");
        assert_eq!(stages.laps.len(), 2);
        assert!(stages.laps[1].1 >= Duration::from_millis(4150));
        assert!(stages.total() >= Duration::from_millis(4153));
        stages.laps[1].1 = Duration::from_millis(4150);
        assert_eq!(stages.to_string(), "start 3 ms, render 4150 ms");
    }
}
