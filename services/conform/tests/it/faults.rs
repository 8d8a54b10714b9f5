//! Inputs that are not a good MP4 end in a typed error (or a measurement of what is there), never
//! a panic or a hang.

use crate::R;
use crate::media::{Clip, dir};
use reelforge_conform::{ConformError, measure};

#[test]
fn garbage_is_not_media() -> R {
    let d = dir()?;
    let path = d.path().join("garbage.mp4");
    // A fixed pseudo-random sequence (xorshift), so a failure reproduces.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: Vec<u8> = (0..65_536)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    std::fs::write(&path, bytes)?;
    assert!(matches!(measure(&path), Err(ConformError::NotMedia(_))));
    Ok(())
}

#[test]
fn empty_and_missing_files_are_errors() -> R {
    let d = dir()?;
    let empty = d.path().join("empty.mp4");
    std::fs::write(&empty, b"")?;
    assert!(matches!(measure(&empty), Err(ConformError::NotMedia(_))));
    let missing = d.path().join("missing.mp4");
    assert!(matches!(
        measure(&missing),
        Err(ConformError::Unreadable { .. })
    ));
    assert!(matches!(measure(d.path()), Err(ConformError::NotMedia(_))));
    Ok(())
}

#[test]
fn a_truncated_mp4_does_not_panic() -> R {
    let d = dir()?;
    for faststart in [false, true] {
        let t = std::time::Instant::now();
        let path = Clip {
            faststart,
            ..Clip::default()
        }
        .make(d.path(), &format!("whole-{faststart}.mp4"))?;
        let bytes = std::fs::read(&path)?;
        let cut = d.path().join(format!("cut-{faststart}.mp4"));
        std::fs::write(&cut, &bytes[..bytes.len() / 2])?;
        match measure(&cut) {
            // The moov box at the end is gone: nothing says what the bytes are.
            Err(ConformError::NotMedia(_)) if !faststart => {}
            // The moov box first: the missing samples end the decode early, or fail it.
            Err(ConformError::NotMedia(_) | ConformError::Decode(_)) if faststart => {}
            // The moov box first: the first half measures, shorter than it claims or not.
            Ok(m) => assert!(faststart && m.seconds <= 2.1, "{m:?}"),
            Err(e) => return Err(format!("unexpected error: {e}").into()),
        }
        assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
    }
    Ok(())
}
