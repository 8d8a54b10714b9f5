//! `materials`: the index, and sources outside the directory.

use reelforge_render::MediaError;
use reelforge_render::materials::{INDEX_FILE, Materials};

#[test]
fn index_and_paths() -> Result<(), MediaError> {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join("bg"))?;
    std::fs::write(dir.path().join("bg/sea.png"), b"x")?;
    std::fs::write(dir.path().join(INDEX_FILE), r#"{"77": "bg/sea.png"}"#)?;
    let m = Materials::open(dir.path())?;
    assert_eq!(m.path_of("77"), Some("bg/sea.png"));
    assert_eq!(m.path_of("78"), None);
    assert!(m.resolve("bg/sea.png").is_ok());
    assert!(matches!(
        m.resolve("bg/none.png"),
        Err(MediaError::Missing(_))
    ));
    std::fs::write(dir.path().join(INDEX_FILE), "[1]")?;
    assert!(matches!(
        Materials::open(dir.path()),
        Err(MediaError::Invalid(_))
    ));
    Ok(())
}

#[test]
fn sources_outside_the_directory_are_never_opened() -> Result<(), MediaError> {
    let root = tempfile::tempdir()?;
    let dir = root.path().join("job");
    std::fs::create_dir_all(dir.join("diyvrbt/material/file/m1"))?;
    std::fs::write(root.path().join("secret.png"), b"x")?;
    std::fs::write(dir.join("diyvrbt/material/file/m1/original"), b"x")?;
    let m = Materials::new(&dir);
    let secret = root.path().join("secret.png");
    for src in [
        secret.to_string_lossy().into_owned(),
        "../secret.png".to_owned(),
        "x/../../secret.png".to_owned(),
        "file:///etc/passwd".to_owned(),
        "http://evil.example/secret.png".to_owned(),
        "/etc/passwd".to_owned(),
    ] {
        assert!(
            matches!(m.resolve(&src), Err(MediaError::Invalid(_))),
            "{src}: {:?}",
            m.resolve(&src)
        );
    }
    assert_eq!(
        m.resolve("/diyvrbt/material/file/m1/original?ticket=t")?,
        dir.join("diyvrbt/material/file/m1/original")
    );
    Ok(())
}

#[test]
fn a_failure_names_the_material_without_its_ticket() {
    let e = reelforge_render::RenderError::At {
        scene: Some(1),
        layer: Some("v1".into()),
        material: Some("/diyvrbt/material/file/5a85/original?ticket=eyJ0eXAi.secret.sig".into()),
        stage: reelforge_render::Stage::Decode,
        source: MediaError::Pipeline("no video stream".into()),
    };
    let text = e.to_string();
    assert!(text.contains("material /diyvrbt/material/file/5a85/original / "), "{text}");
    assert!(!text.contains("ticket") && !text.contains("secret"), "{text}");
}
