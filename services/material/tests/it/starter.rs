//! The starter library on real SQLite (a file blob store) and PostgreSQL (the S3-compatible
//! server): every category is filled with usable, probed materials whose files exist; seeding
//! twice or concurrently makes one set; one tenant's starter materials are invisible to another.

use std::time::Instant;

use reelforge_kit::BlobStore;
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite, s3_url, unique};
use reelforge_material::domain::{Order, Orientation};
use reelforge_material::starter::catalogue::{self, STYLES};
use reelforge_material::{
    Material, MaterialError, MaterialKind, MaterialQuery, MaterialStore, Owner, PageRequest,
    Starter, migrate,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn owner(tenant: &str) -> Owner {
    Owner {
        tenant: tenant.into(),
        user_id: "a@x.cn".into(),
    }
}

fn system(category_id: i64, orientation: Orientation) -> MaterialQuery {
    MaterialQuery {
        kind: None,
        category_id: Some(category_id),
        system: true,
        page: PageRequest::new(0, 0),
        style_id: None,
        open_state: None,
        orientation,
        order: Order::Newest,
        shared: false,
    }
}

async fn listed(
    store: &MaterialStore,
    tenant: &str,
    category_id: i64,
) -> Result<Vec<Material>, MaterialError> {
    Ok(store
        .list(&owner(tenant), &system(category_id, Orientation::Any))
        .await?
        .0)
}

/// A migrated store on `url` and a blob store: `blob_url`, or a fresh directory when `None`.
async fn setup(
    url: &str,
    blob_url: Option<String>,
) -> Result<(MaterialStore, BlobStore, tempfile::TempDir), Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let dir = tempfile::tempdir()?;
    let blob_url = blob_url.unwrap_or_else(|| format!("fs://{}", dir.path().display()));
    Ok((MaterialStore::new(db), BlobStore::open(&blob_url)?, dir))
}

/// What each category holds: its kind and how many.
const EXPECTED: [(i64, MaterialKind, usize); 7] = [
    (catalogue::MASKS, MaterialKind::Picture, 6),
    (catalogue::BACKGROUNDS_STATIC, MaterialKind::Backgrounds, 16),
    (catalogue::BACKGROUNDS_DYNAMIC, MaterialKind::Backgrounds, 4),
    (catalogue::BUTTONS, MaterialKind::Picture, 6),
    (catalogue::ATMOSPHERE, MaterialKind::SpecialEffects, 4),
    (catalogue::BORDERS, MaterialKind::SpecialEffects, 4),
    (catalogue::MUSIC, MaterialKind::Audio, 4),
];

async fn suite(url: &str, blob_url: Option<String>) -> TestResult {
    let (store, blob, _dir) = setup(url, blob_url).await?;
    let starter = Starter::new(store.clone(), blob.clone());

    let started = Instant::now();
    assert!(starter.seed("qs").await?, "the first seeding seeds");
    println!(
        "first seeding (makes the library if this process has not): {} ms",
        started.elapsed().as_millis()
    );
    assert!(!starter.seed("qs").await?, "a second seeding does nothing");

    let mut total = 0;
    for (category, kind, n) in EXPECTED {
        let rows = listed(&store, "qs", category).await?;
        assert_eq!(rows.len(), n, "category {category}");
        total += n;
        for m in &rows {
            assert_eq!(
                (m.kind, m.system, m.open_state, m.material_state),
                (kind, true, 1, 1),
                "{m:?}"
            );
            assert!(m.relative_path.starts_with("t/qs/sys/materials/"), "{m:?}");
            assert_eq!(
                blob.size(&m.relative_path).await?,
                m.file_size,
                "the original is stored: {m:?}"
            );
            if kind == MaterialKind::Audio {
                let p = &m.probed;
                assert!((15.0..=30.0).contains(&p.duration) && p.has_audio, "{m:?}");
                assert!(
                    p.mean_db.is_some_and(|db| db > -40.0 && db < 0.0),
                    "loud enough for getVolumeDB: {m:?}"
                );
                assert!(blob.exists(&p.waveform_key).await?, "{m:?}");
            } else {
                let (w, h) = (m.probed.width, m.probed.height);
                assert!(w > 0 && h > 0 && m.size == format!("{w}x{h}"), "{m:?}");
                let cover = image::load_from_memory(&blob.get(&m.picture_path).await?)?;
                assert!(
                    cover.width() <= 480 && cover.width() > 0,
                    "a cover as uploads get: {m:?}"
                );
            }
        }
    }
    assert_eq!(
        total,
        catalogue::entries().len(),
        "every entry is in one of the categories"
    );

    let moving = listed(&store, "qs", catalogue::BACKGROUNDS_DYNAMIC).await?;
    assert!(
        moving
            .iter()
            .all(|m| m.probed.duration > 0.0 && m.relative_path.ends_with(".gif")),
        "{moving:?}"
    );
    let still = listed(&store, "qs", catalogue::BACKGROUNDS_STATIC).await?;
    assert!(still.iter().all(|m| m.probed.duration == 0.0));
    for (style, name) in STYLES {
        assert!(
            still.iter().any(|m| m.style_id == style),
            "a still background of style {name}"
        );
    }
    let tall = store
        .list(
            &owner("qs"),
            &system(catalogue::BACKGROUNDS_STATIC, Orientation::Portrait),
        )
        .await?
        .1;
    let wide = store
        .list(
            &owner("qs"),
            &system(catalogue::BACKGROUNDS_STATIC, Orientation::Landscape),
        )
        .await?
        .1;
    assert_eq!(
        (tall, wide),
        (8, 8),
        "one design of each style per orientation"
    );

    // Concurrent first requests of another tenant seed once, whether they share a seeder (one
    // process) or not (several processes: only the seed row keeps them to one set).
    let started = Instant::now();
    let runs: Vec<_> = (0..4)
        .map(|i| {
            let s = if i % 2 == 0 {
                starter.clone()
            } else {
                Starter::new(store.clone(), blob.clone())
            };
            tokio::spawn(async move { s.seed("cc").await })
        })
        .collect();
    let mut seeded = 0;
    for run in runs {
        seeded += usize::from(run.await??);
    }
    assert_eq!(seeded, 1, "exactly one of the concurrent seedings seeds");
    println!(
        "seeding a further tenant, four at once: {} ms",
        started.elapsed().as_millis()
    );
    let cc = store
        .list(
            &owner("cc"),
            &MaterialQuery {
                category_id: None,
                ..system(0, Orientation::Any)
            },
        )
        .await?;
    assert_eq!(cc.1 as usize, catalogue::entries().len(), "one set");

    // Isolation: another tenant's starter materials are not visible, its ids are its own.
    let qs_first = &listed(&store, "qs", catalogue::MASKS).await?[0];
    assert!(matches!(
        store.get(&owner("cc"), &qs_first.id).await,
        Err(MaterialError::NotFound(_))
    ));
    assert!(
        cc.0.iter()
            .all(|m| m.id != qs_first.id && m.relative_path.starts_with("t/cc/sys/"))
    );
    assert_eq!(
        listed(&store, "zz", catalogue::MASKS).await?.len(),
        0,
        "an unseeded tenant sees none of them"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite() -> TestResult {
    suite(&fresh_sqlite(), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_and_s3() -> TestResult {
    suite(
        &fresh_postgres().await?,
        Some(format!("{}&root=/{}", s3_url(), unique("starter"))),
    )
    .await
}

/// Every stored original probes as a usable upload of its file type would.
#[tokio::test]
async fn every_original_probes_as_usable() -> TestResult {
    let (store, blob, _dir) = setup(&fresh_sqlite(), None).await?;
    Starter::new(store.clone(), blob.clone()).seed("qs").await?;
    let scratch = tempfile::tempdir()?;
    for (category, _, _) in EXPECTED {
        for m in listed(&store, "qs", category).await? {
            let ext = m
                .relative_path
                .rsplit_once('.')
                .map(|(_, e)| e)
                .unwrap_or_default();
            let path = scratch.path().join(format!("{}.{ext}", m.id));
            blob.download_to(&m.relative_path, &path).await?;
            let kind = reelforge_material::domain::upload_kind(ext)
                .ok_or("an extension uploads accept")?;
            let probed = reelforge_material::probe::probe_file(&path, kind, ext)
                .map_err(|e| format!("{}: {e}", m.name))?;
            assert_eq!(
                (probed.probed.width, probed.probed.height),
                (m.probed.width, m.probed.height),
                "{}",
                m.name
            );
        }
    }
    Ok(())
}
