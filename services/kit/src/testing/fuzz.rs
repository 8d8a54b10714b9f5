//! A fuzz driver on the stable toolchain: cargo-fuzz needs nightly's `-Z` flags, which this build
//! cannot use. Each case is a real seed file mutated libFuzzer's way (bit flips, interesting
//! integers, inserted, deleted, repeated and spliced ranges, the format's dictionary words),
//! without coverage feedback, so the seeds and the harness's structure carry the depth. A harness
//! runs `REELFORGE_FUZZ_CASES` cases (its own default when unset), or, when `REELFORGE_FUZZ_SECONDS`
//! is set, as many as fit in that time. A panic or a broken contract is a crash: the input is
//! shrunk, written under the temporary directory and named, and the run fails after its last case.
//! An input that runs past the hang limit aborts the process with its file named.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::{Duration, Instant, SystemTime};

/// Integers that sit on the edges parsers get wrong.
const INTERESTING: &[u32] = &[0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];
/// Attempts the shrinking of one crash may make.
const SHRINK_TRIES: usize = 2000;

thread_local! {
    /// Set while a crash is shrunk: its panics are not printed again.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

/// A global allocator that counts the bytes each thread holds, so a harness can check the memory
/// a parser promises to stay within (install it with `#[global_allocator]` in the test binary).
pub struct Counting;

// SAFETY: every call is passed to `System` unchanged; the counters are thread-local cells.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

fn grow(n: usize) {
    // try_with: the cells are gone while the thread exits.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(n);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(n)));
}

/// Runs `f`, returning the most bytes it held at once on this thread beyond what was held before
/// (0 unless [`Counting`] is the global allocator).
fn peak_of(f: impl FnOnce()) -> usize {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    f();
    PEAK.with(Cell::get).saturating_sub(start)
}

/// A small, seeded generator (xorshift64*): the same seed gives the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Cases run, the seeds included.
    pub cases: u64,
    /// Cases that panicked or broke the contract.
    pub crashes: u64,
    /// The longest one case took.
    pub slowest: Duration,
    /// The most memory one case held at once (0 without [`Counting`]).
    pub peak_bytes: usize,
}

/// One harness: a target name, its seeds and dictionary, and its bounds.
pub struct Fuzz {
    name: String,
    seeds: Vec<Vec<u8>>,
    dictionary: Vec<Vec<u8>>,
    cases: u64,
    max_len: usize,
    hang: Duration,
    memory: Option<usize>,
}

impl Fuzz {
    /// A harness named `name` (as the bench prints it) mutating `seeds`, which must not be empty.
    pub fn new(name: &str, seeds: Vec<Vec<u8>>) -> Self {
        let max_len = seeds.iter().map(Vec::len).max().unwrap_or(0).saturating_mul(2).max(256);
        Self { name: name.to_owned(), seeds, dictionary: Vec::new(), cases: 500, max_len, hang: Duration::from_secs(10), memory: None }
    }

    /// Adds words of the format (magic numbers, keywords, delimiters) that mutations insert.
    pub fn dictionary(mut self, words: &[&[u8]]) -> Self {
        self.dictionary.extend(words.iter().map(|w| w.to_vec()));
        self
    }

    /// The cases run when neither `REELFORGE_FUZZ_CASES` nor `REELFORGE_FUZZ_SECONDS` is set.
    pub fn cases(mut self, cases: u64) -> Self {
        self.cases = cases;
        self
    }

    /// The longest input made.
    pub fn max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// How long one case may run before it counts as a hang and the process is aborted.
    pub fn hang(mut self, hang: Duration) -> Self {
        self.hang = hang;
        self
    }

    /// The most memory one case may hold at once (needs [`Counting`] as the global allocator).
    pub fn memory(mut self, bytes: usize) -> Self {
        self.memory = Some(bytes);
        self
    }

    /// Runs the cases through `check`, which returns an error when the contract is broken; prints
    /// `fuzz <name>: <n> cases, <n> crashes, slowest <ms> ms, peak <MB> MB` and fails when any
    /// case crashed, naming the files of the shrunk inputs.
    pub fn run(self, check: impl Fn(&[u8]) -> Result<(), String>) -> Result<Report, String> {
        let seconds = std::env::var("REELFORGE_FUZZ_SECONDS").ok().and_then(|s| s.parse::<f64>().ok());
        let cases = std::env::var("REELFORGE_FUZZ_CASES").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(self.cases);
        let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s));
        let seed = std::env::var("REELFORGE_FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or_else(|| SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64));
        let mut rng = Rng(seed | 1);
        let watch = Watchdog::start(&self.name, self.hang);
        let mut report = Report { cases: 0, crashes: 0, slowest: Duration::ZERO, peak_bytes: 0 };
        let mut found = Vec::new();
        loop {
            let i = report.cases as usize;
            let done = match deadline {
                Some(d) => i >= self.seeds.len() && Instant::now() >= d,
                None => i >= self.seeds.len() && report.cases >= cases,
            };
            if done || self.seeds.is_empty() {
                break;
            }
            let input = match self.seeds.get(i) {
                Some(s) => s.clone(),
                None => self.mutate(&mut rng),
            };
            watch.begin(&input);
            let started = Instant::now();
            let (outcome, peak) = self.case(&check, &input);
            let took = started.elapsed();
            watch.end();
            report.cases += 1;
            report.slowest = report.slowest.max(took);
            report.peak_bytes = report.peak_bytes.max(peak);
            if let Err(why) = outcome {
                report.crashes += 1;
                if found.len() < 5 {
                    let small = self.shrink(&check, input);
                    found.push(format!("{why} ({} bytes, {})", small.len(), save(&self.name, found.len(), &small)));
                }
            }
        }
        watch.stop();
        println!(
            "fuzz {}: {} cases, {} crashes, slowest {} ms, peak {:.1} MB (seed {seed})",
            self.name,
            report.cases,
            report.crashes,
            report.slowest.as_millis(),
            report.peak_bytes as f64 / (1024.0 * 1024.0)
        );
        if found.is_empty() { Ok(report) } else { Err(format!("fuzz {}: {} crashes: {}", self.name, report.crashes, found.join("; "))) }
    }

    /// A seed changed by one to eight stacked mutations.
    fn mutate(&self, rng: &mut Rng) -> Vec<u8> {
        let mut data = self.seeds[rng.below(self.seeds.len())].clone();
        for _ in 0..=rng.below(8) {
            let len = data.len();
            match rng.below(10) {
                0 if len > 0 => {
                    let at = rng.below(len);
                    data[at] ^= 1 << rng.below(8);
                }
                1 if len > 0 => {
                    let at = rng.below(len);
                    data[at] = rng.next() as u8;
                }
                2 => {
                    let at = rng.below(len + 1);
                    let bytes: Vec<u8> = (0..=rng.below(8)).map(|_| rng.next() as u8).collect();
                    data.splice(at..at, bytes);
                }
                3 if len > 0 => {
                    let at = rng.below(len);
                    let n = 1 + rng.below((len - at).min(64));
                    data.drain(at..at + n);
                }
                4 if len > 0 => {
                    let at = rng.below(len);
                    let n = 1 + rng.below((len - at).min(256));
                    let copy = data[at..at + n].to_vec();
                    let to = rng.below(len + 1);
                    data.splice(to..to, copy);
                }
                5 | 6 if !self.dictionary.is_empty() => {
                    let word = self.dictionary[rng.below(self.dictionary.len())].clone();
                    let at = rng.below(len + 1);
                    let end = if rng.below(2) == 0 { at } else { (at + word.len()).min(len) };
                    data.splice(at..end, word);
                }
                7 if len >= 4 => {
                    let value = INTERESTING[rng.below(INTERESTING.len())];
                    let bytes = if rng.below(2) == 0 { value.to_le_bytes() } else { value.to_be_bytes() };
                    let width = [1, 2, 4][rng.below(3)];
                    let at = rng.below(len - width + 1);
                    let from = if rng.below(2) == 0 { 0 } else { 4 - width };
                    data[at..at + width].copy_from_slice(&bytes[from..from + width]);
                }
                8 => {
                    let other = &self.seeds[rng.below(self.seeds.len())];
                    let cut = rng.below(len + 1);
                    let from = rng.below(other.len() + 1);
                    data.truncate(cut);
                    data.extend_from_slice(&other[from..]);
                }
                _ => data.truncate(rng.below(len + 1)),
            }
        }
        data.truncate(self.max_len);
        data
    }

    /// Runs one case: a panic, a broken contract or memory over the bound is an error; also
    /// returns the memory the case held at once.
    fn case(&self, check: &impl Fn(&[u8]) -> Result<(), String>, input: &[u8]) -> (Result<(), String>, usize) {
        let mut outcome = Ok(());
        let peak = peak_of(|| outcome = attempt(check, input));
        if let Some(limit) = self.memory.filter(|l| peak > *l)
            && outcome.is_ok()
        {
            outcome = Err(format!("held {peak} bytes at once, over {limit}"));
        }
        (outcome, peak)
    }

    /// The shortest input found, by removing ever smaller ranges, that still fails `check`.
    fn shrink(&self, check: &impl Fn(&[u8]) -> Result<(), String>, mut input: Vec<u8>) -> Vec<u8> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let print = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if !QUIET.with(Cell::get) {
                    print(info);
                }
            }));
        });
        QUIET.with(|q| q.set(true));
        let mut tries = 0;
        let mut chunk = input.len() / 2;
        while chunk > 0 && tries < SHRINK_TRIES {
            let mut at = 0;
            while at < input.len() && tries < SHRINK_TRIES {
                let mut smaller = input.clone();
                smaller.drain(at..(at + chunk).min(input.len()));
                tries += 1;
                if self.case(check, &smaller).0.is_err() { input = smaller } else { at += chunk }
            }
            chunk /= 2;
        }
        QUIET.with(|q| q.set(false));
        input
    }
}

/// Runs one case: a panic is an error like a broken contract.
fn attempt(check: &impl Fn(&[u8]) -> Result<(), String>, input: &[u8]) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(|| check(input))) {
        Ok(result) => result,
        Err(panic) => Err(format!(
            "panic: {}",
            panic.downcast_ref::<String>().map(String::as_str).or_else(|| panic.downcast_ref::<&str>().copied()).unwrap_or("?")
        )),
    }
}

/// Writes a failing input where it can be picked up as a regression case; returns where.
fn save(name: &str, n: usize, input: &[u8]) -> String {
    let dir = std::env::temp_dir().join("reelforge-fuzz");
    let path: PathBuf = dir.join(format!("{name}-{}-{n}.bin", std::process::id()));
    match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input)) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("not saved: {e}"),
    }
}

/// The case running, since when, if any.
type Running = Arc<Mutex<Option<(Instant, Vec<u8>)>>>;

/// A thread that aborts the process when one case runs past the hang limit.
struct Watchdog {
    current: Running,
    stopped: Arc<AtomicBool>,
}

impl Watchdog {
    fn start(name: &str, hang: Duration) -> Self {
        let current: Running = Arc::default();
        let stopped = Arc::new(AtomicBool::new(false));
        let (watched, stop, name) = (current.clone(), stopped.clone(), name.to_owned());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let guard = watched.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some((since, input)) = guard.as_ref()
                    && since.elapsed() > hang
                {
                    eprintln!("fuzz {name}: a case ran over {} s (hang): {}", hang.as_secs(), save(&name, 99, input));
                    std::process::abort();
                }
            }
        });
        Self { current, stopped }
    }

    fn begin(&self, input: &[u8]) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Some((Instant::now(), input.to_vec()));
    }

    fn end(&self) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}
