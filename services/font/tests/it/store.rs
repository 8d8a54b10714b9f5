//! The font store and system catalogue on real PostgreSQL and a real blob directory: uploads are
//! parsed before anything is stored, rows and files come and go together, owners are kept apart,
//! and system fonts are known by stable ids that name no path.

use std::path::PathBuf;

use reelforge_font::{FontError, FontStore, SystemFonts, domain, migrate};
use reelforge_kit::BlobStore;
use reelforge_kit::testing::fresh_postgres;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A Latin-only font of the machine.
fn latin_font() -> Result<Vec<u8>, String> {
    const CANDIDATES: &[&str] = &[
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    ];
    CANDIDATES.iter().find_map(|p| std::fs::read(p).ok()).ok_or_else(|| format!("no Latin-only font among {CANDIDATES:?}"))
}

#[tokio::test]
async fn uploads_are_stored_with_their_file_and_removed_with_it() -> TestResult {
    let db = reelforge_kit::db::connect(&fresh_postgres().await?).await?;
    migrate(&db).await?;
    migrate(&db).await?; // idempotent
    let dir = tempfile::tempdir()?;
    let blob = BlobStore::open(&format!("fs://{}", dir.path().display()))?;
    let store = FontStore::new(db, blob.clone());
    let data = latin_font()?;
    let parsed = domain::parse_upload(&data)?;
    assert!(!parsed.family.is_empty());
    let font = store.add("qs", "u1", parsed, data.clone()).await?;
    let keys = blob.list("t/qs/u/u1/fonts/").await?;
    assert_eq!(keys, [format!("t/qs/u/u1/fonts/{}.{}", font.id, font.format.ext())]);
    assert_eq!(blob.get(&keys[0]).await?.to_vec(), data);

    // The glyph check on the stored face: Latin drawn, CJK reported once each.
    let face = ttf_parser::Face::parse(&data, 0)?;
    assert_eq!(domain::missing_glyphs(&face, "Hello 你好, 你们"), "你好们");
    assert_eq!(domain::missing_glyphs(&face, "Hello\n\tworld"), "");

    assert_eq!(store.list("qs", "u1").await?.len(), 1);
    assert!(store.list("qs", "u2").await?.is_empty(), "another user sees none");
    assert!(matches!(store.get("cc", "u1", &font.id).await, Err(FontError::NotFound(_))), "another tenant finds none");
    assert!(matches!(store.delete("qs", "u2", &font.id).await, Err(FontError::NotFound(_))));
    assert_eq!(blob.list("t/qs/u/u1/fonts/").await?.len(), 1, "a stranger's delete removed nothing");
    store.delete("qs", "u1", &font.id).await?;
    assert!(store.list("qs", "u1").await?.is_empty());
    assert!(blob.list("t/qs/u/u1/fonts/").await.unwrap_or_default().is_empty(), "the file went with the row");
    Ok(())
}

#[test]
fn system_fonts_have_stable_ids_and_skip_what_does_not_parse() -> TestResult {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("broken.ttf"), b"not a font at all")?;
    let data = latin_font()?;
    std::fs::write(dir.path().join("a.ttf"), &data)?;
    std::fs::create_dir(dir.path().join("copy"))?;
    std::fs::write(dir.path().join("copy").join("b.ttf"), &data)?;
    let dirs: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let fonts = SystemFonts::load(&dirs);
    let list = fonts.list();
    assert_eq!(list.len(), 1, "the broken file is skipped and the copy is one font: {list:?}");
    let parsed = domain::parse_upload(&data)?;
    assert_eq!(list[0].id, domain::system_id(&parsed.family, &parsed.style), "the id is made from family and style");
    assert!(list[0].system);
    assert_eq!(fonts.file(&list[0].id), Some(dir.path().join("a.ttf").as_path()), "the first path in sort order is served");
    assert_eq!(SystemFonts::load(&dirs).list(), list, "the same on every load");
    Ok(())
}
