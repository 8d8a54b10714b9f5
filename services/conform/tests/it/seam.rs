//! The loop seam: a picture that moves between the first and the last frame jumps more than one
//! that stands still; a steady tone does not jump.

use crate::R;
use crate::media::{Clip, dir};
use reelforge_conform::measure;

#[test]
fn a_moving_picture_jumps_more_than_a_still_one() -> R {
    let d = dir()?;
    let still = measure(&Clip::default().make(d.path(), "still.mp4")?)?;
    let moving = Clip {
        pattern: "smpte horizontal-speed=5",
        ..Clip::default()
    };
    let moving = measure(&moving.make(d.path(), "moving.mp4")?)?;
    let (still_jump, moving_jump) = (
        still.seam.picture_jump.ok_or("no still jump")?,
        moving.seam.picture_jump.ok_or("no moving jump")?,
    );
    assert!(still_jump < 0.02, "still {still_jump}");
    assert!(
        moving_jump > 0.05 && moving_jump <= 1.0,
        "moving {moving_jump}"
    );
    assert!(moving_jump > 5.0 * still_jump);
    let sound = still.seam.sound_jump_db.ok_or("no sound jump")?;
    assert!(sound < 1.0, "a steady tone jumps {sound} dB");
    Ok(())
}

#[test]
fn the_last_frame_is_the_same_whatever_the_keyframes() -> R {
    // Keyframes every 10 frames put the seek inside the last group of pictures; one keyframe
    // only decodes from the start. Both must find the same last frame.
    let d = dir()?;
    let one_gop = Clip {
        pattern: "smpte horizontal-speed=5",
        ..Clip::default()
    };
    let short_gops = Clip {
        x264: "key-int-max=10",
        ..one_gop.clone()
    };
    let a = measure(&one_gop.make(d.path(), "a.mp4")?)?
        .seam
        .picture_jump
        .ok_or("no jump")?;
    let b = measure(&short_gops.make(d.path(), "b.mp4")?)?
        .seam
        .picture_jump
        .ok_or("no jump")?;
    assert!(a > 0.05 && b > 0.05, "{a}, {b}");
    assert!((a - b).abs() < 0.02, "{a} against {b}");
    Ok(())
}
