//! Priorities of GStreamer's streaming threads. GStreamer runs every element's task on a thread
//! of GLib's shared pool, whose threads are spawned by a helper thread at the default priority
//! and reused across pipelines: a clip decoder opened by the drawing thread (which yields to the
//! encoder, `render::DRAW_NICE`) and the AAC encoder both decoded and encoded at the encoder's
//! priority, competing with x264's threads for the two cores instead of filling their idle time.
//! Here a pipeline's tasks run on threads of their own, spawned by the thread that starts the
//! task (so they inherit its priority) and ended with the task (so a lowered priority never
//! reaches a pooled thread that later runs something else).

use gstreamer as gst;
use gstreamer::glib;
use gstreamer::prelude::*;
use gstreamer::subclass::prelude::*;

mod imp {
    use super::*;
    use std::sync::OnceLock;

    /// A task pool that starts one thread per task.
    #[derive(Default)]
    pub struct OwnThreads {
        /// The nice value each thread sets first (never below what it inherited); none: inherited.
        pub nice: OnceLock<Option<i32>>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for OwnThreads {
        const NAME: &'static str = "ReelforgeOwnThreads";
        type Type = super::OwnThreads;
        type ParentType = gst::TaskPool;
    }

    impl ObjectImpl for OwnThreads {}

    impl GstObjectImpl for OwnThreads {}

    impl TaskPoolImpl for OwnThreads {
        type Handle = Joined;

        fn push(
            &self,
            func: gst::subclass::TaskPoolFunction,
        ) -> Result<Option<Joined>, glib::Error> {
            let nice = self.nice.get().copied().flatten();
            let thread = std::thread::Builder::new()
                .name("reelforge-gst".to_owned())
                .spawn(move || {
                    if let Some(n) = nice {
                        lower_priority(n);
                    }
                    func.call();
                })
                .map_err(|e| glib::Error::new(gst::CoreError::Thread, &e.to_string()))?;
            Ok(Some(Joined(thread)))
        }
    }

    /// A task's thread, joined when GStreamer joins the task.
    pub struct Joined(std::thread::JoinHandle<()>);

    impl gst::TaskHandle for Joined {
        fn join(self) {
            // A panic in a task's thread has already been reported by the task's element.
            let _ = self.0.join();
        }
    }
}

glib::wrapper! {
    /// A task pool that starts one thread per task (see the module's documentation).
    pub struct OwnThreads(ObjectSubclass<imp::OwnThreads>) @extends gst::TaskPool, gst::Object;
}

impl OwnThreads {
    fn new(nice: Option<i32>) -> Self {
        let pool: Self = glib::Object::new();
        let _ = pool.imp().nice.set(nice);
        pool
    }
}

/// Sets the calling thread's nice value to `nice` (Linux keeps it per thread). Raising it
/// needs no privilege; lowering it does, so a thread already nicer keeps its own.
pub fn lower_priority(nice: i32) {
    // SAFETY: `setpriority` on `PRIO_PROCESS` 0 only changes the calling thread's scheduling
    // priority and takes no pointers.
    unsafe {
        if libc::getpriority(libc::PRIO_PROCESS, 0) < nice {
            libc::setpriority(libc::PRIO_PROCESS, 0, nice);
        }
    }
}

/// Runs the tasks of `pipeline`'s elements on threads of their own: those of the elements in
/// `lowered` at nice `nice`, all others at the priority of the thread that starts them. Call it
/// before the pipeline leaves `Null`.
pub fn own_streaming_threads(pipeline: &gst::Pipeline, lowered: &[gst::Element], nice: i32) {
    let Some(bus) = pipeline.bus() else {
        return;
    };
    let inherit = OwnThreads::new(None);
    let lower = OwnThreads::new(Some(nice));
    let lowered: Vec<gst::Element> = lowered.to_vec();
    bus.set_sync_handler(move |_, msg| {
        // The pad posts `Create` from the thread starting the task, before the task starts:
        // GStreamer's documented moment to give a task its pool.
        if let gst::MessageView::StreamStatus(s) = msg.view()
            && s.type_() == gst::StreamStatusType::Create
            && let Some(task) = s
                .stream_status_object()
                .and_then(|v| v.get::<gst::Task>().ok())
        {
            let pool = if lowered.contains(&s.owner()) {
                &lower
            } else {
                &inherit
            };
            task.set_pool(pool);
        }
        gst::BusSyncReply::Pass
    });
}
