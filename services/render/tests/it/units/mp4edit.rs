//! `mp4edit`: the AAC priming hidden behind the edit list.

use super::tiny;
use reelforge_render::MediaError;
use reelforge_render::encode::Encoder;
use reelforge_render::mp4edit::{boxes, child, hide_priming};

#[test]
fn finds_the_moov_after_megabytes_of_other_boxes() -> Result<(), MediaError> {
    let dir = tempfile::tempdir()?;
    let src = dir.path().join("a.mp4");
    let mut enc = Encoder::create(&src, tiny(28))?;
    for _ in 0..15 {
        enc.push_frame(&vec![128u8; 64 * 36 * 4])?;
    }
    enc.push_audio(&vec![0.0; 24_000 * 2])?;
    enc.finish()?;
    // The same moov behind 3 MiB of free space (where a long render's sample tables push it).
    let d = std::fs::read(&src)?;
    let top = boxes(&d, 0, d.len());
    let (Some(ftyp), Some(moov)) = (child(&top, b"ftyp"), child(&top, b"moov")) else {
        panic!(
            "no ftyp or moov in {top:?}",
            top = top.iter().map(|b| b.kind).collect::<Vec<_>>()
        );
    };
    let mut moved = d[ftyp.body - 8..ftyp.end].to_vec();
    let free = 3u32 << 20;
    moved.extend_from_slice(&free.to_be_bytes());
    moved.extend_from_slice(b"free");
    moved.resize(moved.len() + free as usize - 8, 0);
    moved.extend_from_slice(&d[moov.body - 8..moov.end]);
    let p = dir.path().join("moved.mp4");
    std::fs::write(&p, &moved)?;
    assert_eq!(hide_priming(&p, 24_000, 48_000)?, 1024);
    Ok(())
}

#[test]
fn leaves_other_files_alone() -> Result<(), MediaError> {
    let dir = tempfile::tempdir()?;
    let p = dir.path().join("x.mp4");
    std::fs::write(&p, b"\0\0\0\x10ftypisom\0\0\0\0junk")?;
    assert_eq!(hide_priming(&p, 48_000, 48_000)?, 0);
    assert_eq!(std::fs::read(&p)?, b"\0\0\0\x10ftypisom\0\0\0\0junk");
    Ok(())
}
