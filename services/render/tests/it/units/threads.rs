//! `threads`: the priorities of a pipeline's streaming threads.

use gstreamer as gst;
use gstreamer::prelude::*;
use reelforge_render::gst_util::wait_eos;
use reelforge_render::threads::{lower_priority, own_streaming_threads};

type R<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Returns the nice value of the thread that ran a pipeline's source task, the pipeline
/// started from a new thread at nice `caller_nice` (or the default), its source `lowered`
/// or not.
fn source_thread_nice(lowered: bool, caller_nice: Option<i32>) -> R<Option<i32>> {
    reelforge_render::gst_init()?;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
    let seen_in = seen.clone();
    let run = move || -> R<()> {
        if let Some(n) = caller_nice {
            lower_priority(n);
        }
        let pipeline = gst::Pipeline::new();
        let src = gst::ElementFactory::make("fakesrc")
            .property("num-buffers", 3i32)
            .property("signal-handoffs", true)
            .build()?;
        let sink = gst::ElementFactory::make("fakesink").build()?;
        src.connect("handoff", false, move |_| {
            // SAFETY: reads the calling thread's priority; takes no pointers.
            let n = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            if let Ok(mut seen) = seen_in.lock() {
                *seen = Some(n);
            }
            None
        });
        pipeline.add_many([&src, &sink])?;
        src.link(&sink)?;
        let lowered = if lowered {
            vec![src.clone()]
        } else {
            Vec::new()
        };
        own_streaming_threads(&pipeline, &lowered, 7);
        pipeline.set_state(gst::State::Playing)?;
        let ended = wait_eos(&pipeline, 10);
        pipeline.set_state(gst::State::Null)?;
        Ok(ended?)
    };
    std::thread::spawn(run)
        .join()
        .map_err(|_| "the pipeline's thread panicked")??;
    let n = *seen.lock().map_err(|_| "poisoned")?;
    Ok(n)
}

#[test]
fn lowered_tasks_run_nicer_and_others_inherit_the_starting_threads_priority() -> R<()> {
    // SAFETY: reads this thread's priority; takes no pointers.
    let own = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
    assert_eq!(source_thread_nice(true, None)?, Some(own.max(7)));
    assert_eq!(source_thread_nice(false, None)?, Some(own));
    // GLib's shared pool would run this task at its spawner's priority, not the caller's.
    assert_eq!(
        source_thread_nice(false, Some(own.max(3)))?,
        Some(own.max(3))
    );
    Ok(())
}
