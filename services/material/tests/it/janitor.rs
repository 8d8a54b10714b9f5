//! The janitor on the local file store and on S3 (SeaweedFS): unreferenced material objects and
//! incomplete uploads (an S3 multipart upload, a temporary file) older than the grace period go; a
//! live material's objects, fresh objects and uploads and everything outside the materials prefixes
//! stay.

use std::time::Duration;

use reelforge_kit::BlobStore;
use reelforge_kit::testing::{fresh_sqlite, s3_url, unique};
use reelforge_material::{Janitor, MaterialKind, MaterialStore, NewMaterial, Owner, Quota, Upload, migrate};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn upload(owner: &Owner) -> Upload {
    let id = uuid::Uuid::new_v4().to_string();
    Upload {
        key: format!("{}{id}/original.png", reelforge_kit::blob::user_material_prefix(&owner.tenant, &owner.user_id)),
        id,
        kind: MaterialKind::Picture,
        name: "p.png".into(),
        file_size: 3,
        category_id: -1,
        style_id: -1,
        open_state: 0,
        sha256: String::new(),
    }
}

async fn suite(blob: BlobStore) -> TestResult {
    let db = reelforge_kit::db::connect(&fresh_sqlite()).await?;
    migrate(&db).await?;
    let store = MaterialStore::new(db);
    let me = Owner { tenant: "qs".into(), user_id: "a@x.cn".into() };
    let prefix = reelforge_kit::blob::user_material_prefix(&me.tenant, &me.user_id);

    // A live upload with a cover beside it, a system material, a deleted material's leftovers, an
    // abandoned upload (no row), and objects that are no materials at all.
    let live = store.record(&me, upload(&me), &Quota::default()).await?;
    let live_cover = live.relative_path.replace("original.png", "cover.jpg");
    let system = store
        .insert(
            &me,
            NewMaterial {
                name: "bg.png".into(),
                kind: MaterialKind::Backgrounds,
                category_id: 0,
                open_state: 0,
                picture_path: String::new(),
                time_length: 0.0,
                size: String::new(),
                material_state: 1,
                system: true,
            },
        )
        .await?;
    let gone = store.record(&me, upload(&me), &Quota::default()).await?;
    store.delete(&me, std::slice::from_ref(&gone.id), true).await?;
    let abandoned = format!("{prefix}{}/original.mp4", uuid::Uuid::new_v4());
    let others = ["t/qs/renders/7/out.mp4".to_owned(), format!("t/qs/u/a@x.cn/fonts/{}/f.ttf", uuid::Uuid::new_v4())];
    let kept = [live.relative_path.clone(), live_cover.clone(), system.relative_path.clone()];
    let orphans = [gone.relative_path.clone(), abandoned.clone()];
    for key in kept.iter().chain(&orphans).chain(&others) {
        blob.put(key, b"abc".to_vec()).await?;
    }
    // An upload whose process was killed midway (its writer forgotten, so nothing aborts it): two
    // chunks written, so on S3 its multipart upload has begun and holds a part.
    let killed = format!("{prefix}{}/original.mp4", uuid::Uuid::new_v4());
    let mut w = blob.writer(&killed).await?;
    w.write(vec![5u8; 2 * reelforge_kit::blob::WRITE_CHUNK + 1].into()).await?;
    std::mem::forget(w);
    let unfinished: Vec<String> = blob.incomplete_uploads("t/").await?.into_iter().map(|u| u.key).collect();
    assert_eq!(unfinished.len(), 1, "the killed upload is listed: {unfinished:?}");

    // Everything is fresh under a day's grace: nothing goes.
    let swept = Janitor::new(store.clone(), blob.clone(), Duration::from_secs(24 * 3600)).sweep().await?;
    assert_eq!((swept.removed.len(), swept.aborted.len(), swept.fresh), (0, 0, 3), "{swept:?}");
    for key in kept.iter().chain(&orphans).chain(&others) {
        assert!(blob.exists(key).await?, "{key} is fresh");
    }
    assert_eq!(blob.incomplete_uploads("t/").await?.len(), 1, "the fresh upload is kept");

    // With no grace, the unreferenced material objects go and nothing else does.
    let swept = Janitor::new(store.clone(), blob.clone(), Duration::ZERO).sweep().await?;
    let mut removed = swept.removed.clone();
    removed.sort();
    let mut want = orphans.to_vec();
    want.sort();
    assert_eq!(removed, want, "{swept:?}");
    for key in kept.iter().chain(&others) {
        assert!(blob.exists(key).await?, "{key} is kept");
    }
    for key in &orphans {
        assert!(!blob.exists(key).await?, "{key} is removed");
    }
    assert_eq!(swept.aborted, unfinished, "{swept:?}");
    assert!(blob.incomplete_uploads("t/").await?.is_empty(), "the killed upload is aborted");
    assert!(!blob.exists(&killed).await?);
    let again = Janitor::new(store, blob, Duration::ZERO).sweep().await?;
    assert_eq!((again.removed.len(), again.aborted.len(), again.fresh, again.failed), (0, 0, 0, 0), "a second sweep finds nothing");
    Ok(())
}

#[tokio::test]
async fn on_the_file_store() -> TestResult {
    let dir = tempfile::tempdir()?;
    suite(BlobStore::open(&format!("fs://{}", dir.path().display()))?).await
}

#[tokio::test]
async fn on_s3() -> TestResult {
    suite(BlobStore::open(&format!("{}&root=/{}", s3_url(), unique("janitor")))?).await
}
