//! The material store on real SQLite and PostgreSQL: isolation across tenants and users, paging.

use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_material::domain::{Order, Orientation};
use reelforge_material::{MaterialError, MaterialKind, MaterialQuery, MaterialStore, NewMaterial, Owner, PageRequest, Quota, Upload, Usage, migrate};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn owner(tenant: &str, user: &str) -> Owner {
    Owner { tenant: tenant.into(), user_id: user.into() }
}

fn new(name: &str, kind: MaterialKind, category_id: i64, system: bool) -> NewMaterial {
    NewMaterial {
        name: name.into(),
        kind,
        category_id,
        open_state: 0,
        picture_path: String::new(),
        time_length: 0.0,
        size: "1920x1080".into(),
        material_state: 1,
        system,
    }
}

fn query(kind: Option<MaterialKind>, category_id: Option<i64>, system: bool, num: u32, size: u32) -> MaterialQuery {
    MaterialQuery {
        kind,
        category_id,
        system,
        page: PageRequest::new(num, size),
        style_id: None,
        open_state: None,
        orientation: Orientation::Any,
        order: Order::Newest,
        shared: false,
    }
}

async fn suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    migrate(&db).await?;
    let store = MaterialStore::new(db);
    let (a, b, other) = (owner("qs", "a@x.cn"), owner("qs", "b@x.cn"), owner("cc", "a@x.cn"));

    for i in 0..12 {
        store.insert(&a, new(&format!("p{i}.png"), MaterialKind::Picture, 7, false)).await?;
    }
    let clip = store.insert(&a, new("clip.mp4", MaterialKind::Video, 8, false)).await?;
    assert!(clip.relative_path.starts_with("t/qs/u/") && clip.relative_path.ends_with("/original.mp4"));
    let b_private = store.insert(&b, new("b.png", MaterialKind::Picture, 7, false)).await?;
    let system = store.insert(&a, new("bg.png", MaterialKind::Backgrounds, 9, true)).await?;
    let foreign = store.insert(&other, new("c.png", MaterialKind::Picture, 7, false)).await?;

    let (all, total) = store.list(&a, &query(None, None, false, 0, 0)).await?;
    assert_eq!((all.len(), total), (13, 13), "default page 1 of 1200, own materials only");
    let (first, _) = store.list(&a, &query(None, None, false, 1, 10)).await?;
    assert_eq!(first.len(), 10);
    let (second, _) = store.list(&a, &query(None, None, false, 2, 10)).await?;
    assert_eq!(second.len(), 3);
    assert!(second.iter().all(|m| !first.iter().any(|f| f.id == m.id)), "pages do not overlap");

    let (pictures, total) = store.list(&a, &query(Some(MaterialKind::Picture), Some(7), false, 1, 50)).await?;
    assert_eq!((pictures.len(), total), (12, 12));
    let (videos, _) = store.list(&a, &query(Some(MaterialKind::Video), None, false, 1, 10)).await?;
    assert_eq!(videos.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), [clip.id.as_str()]);

    let (sys, total) = store.list(&b, &query(None, None, true, 1, 10)).await?;
    assert_eq!((sys.len(), total), (1, 1), "system materials are shared in the tenant");
    assert_eq!(store.list(&other, &query(None, None, true, 1, 10)).await?.1, 0, "but not across tenants");
    assert_eq!(store.list(&b, &query(None, None, false, 1, 10)).await?.1, 1);

    assert_eq!(store.get(&a, &clip.id).await?.name, "clip.mp4");
    assert_eq!(store.get(&b, &system.id).await?.id, system.id);
    assert!(matches!(store.get(&a, &b_private.id).await, Err(MaterialError::NotFound(_))), "another user's private material");
    assert!(matches!(store.get(&a, &foreign.id).await, Err(MaterialError::NotFound(_))), "another tenant's material");
    assert!(matches!(store.get(&other, &system.id).await, Err(MaterialError::NotFound(_))), "another tenant's system material");
    assert!(matches!(store.insert(&a, new("  ", MaterialKind::Picture, 0, false)).await, Err(MaterialError::Invalid(m)) if m.contains("materialName")));
    Ok(())
}

#[tokio::test]
async fn on_sqlite() -> TestResult {
    suite(&fresh_sqlite()).await
}

#[tokio::test]
async fn on_postgres() -> TestResult {
    suite(&fresh_postgres().await?).await
}

fn upload(owner: &Owner, sha256: &str) -> Upload {
    let id = uuid::Uuid::new_v4().to_string();
    Upload {
        key: format!("{}{id}/original.png", reelforge_kit::blob::user_material_prefix(&owner.tenant, &owner.user_id)),
        id,
        kind: MaterialKind::Picture,
        name: "p.png".into(),
        file_size: 10,
        category_id: -1,
        style_id: -1,
        open_state: 0,
        sha256: sha256.into(),
    }
}

/// The same file (by its SHA-256) is found among its owner's own live materials only: never
/// another user's or another tenant's, nor a deleted or failed one.
async fn same_file_suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let store = MaterialStore::new(db);
    let (a, b, other) = (owner("qs", "a@x.cn"), owner("qs", "b@x.cn"), owner("cc", "a@x.cn"));
    let (h1, h2, h3) = ("1".repeat(64), "2".repeat(64), "3".repeat(64));
    assert!(store.same_file(&a, &h1).await?.is_none());
    let first = store.record(&a, upload(&a, &h1), &Quota::default()).await?;
    // A later millisecond: rows made in the same one have no defined oldest.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    store.record(&a, upload(&a, &h1), &Quota::default()).await?;
    assert_eq!(store.same_file(&a, &h1).await?.map(|m| m.id), Some(first.id.clone()), "the oldest");
    assert!(store.same_file(&b, &h1).await?.is_none(), "another user's file");
    assert!(store.same_file(&other, &h1).await?.is_none(), "another tenant's file");
    assert!(store.same_file(&a, "").await?.is_none(), "rows without a hash match nothing");
    assert!(store.insert(&a, new("old.png", MaterialKind::Picture, 7, false)).await?.id != first.id);
    assert!(store.same_file(&a, "").await?.is_none(), "nor do rows made without one");
    let gone = store.record(&a, upload(&a, &h2), &Quota::default()).await?;
    store.delete(&a, std::slice::from_ref(&gone.id), true).await?;
    assert!(store.same_file(&a, &h2).await?.is_none(), "a deleted material");
    let failed = store.record(&a, upload(&a, &h3), &Quota::default()).await?;
    store.set_failed(&failed.id, "no decoder").await?;
    assert!(store.same_file(&a, &h3).await?.is_none(), "a failed material");
    Ok(())
}

#[tokio::test]
async fn same_file_on_sqlite() -> TestResult {
    same_file_suite(&fresh_sqlite()).await
}

#[tokio::test]
async fn same_file_on_postgres() -> TestResult {
    same_file_suite(&fresh_postgres().await?).await
}

fn sized(owner: &Owner, bytes: u64) -> Upload {
    Upload { file_size: bytes, ..upload(owner, "") }
}

/// Quotas per user and per tenant, bytes and materials: an upload that would go beyond one is
/// refused and changes nothing; deleting releases; system materials and other tenants do not count;
/// uploads at once never both take the last free space.
async fn quota_suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let store = MaterialStore::new(db);
    let (a, b, other) = (owner("qs", "a@x.cn"), owner("qs", "b@x.cn"), owner("cc", "a@x.cn"));
    let user = Quota { user_bytes: 100, user_materials: 3, tenant_bytes: 0, tenant_materials: 0 };

    let first = store.record(&a, sized(&a, 60), &user).await?;
    store.insert(&a, new("bg.png", MaterialKind::Backgrounds, 9, true)).await?;
    store.record(&other, sized(&other, 90), &user).await?;
    assert_eq!(store.usage(&a).await?, Usage { bytes: 60, materials: 1, tenant_bytes: 60, tenant_materials: 1 });
    let refused = store.record(&a, sized(&a, 41), &user).await;
    assert!(
        matches!(&refused, Err(MaterialError::QuotaExceeded { usage, .. }) if usage.bytes == 60),
        "41 more bytes than 100: {refused:?}"
    );
    assert_eq!(store.usage(&a).await?.materials, 1, "a refused upload records nothing");
    store.record(&a, sized(&a, 40), &user).await?;
    assert_eq!(store.usage(&a).await?.bytes, 100, "exactly full fits");
    store.record(&b, sized(&b, 100), &user).await?;
    assert_eq!(store.usage(&b).await?, Usage { bytes: 100, materials: 1, tenant_bytes: 200, tenant_materials: 3 });

    store.delete(&a, std::slice::from_ref(&first.id), true).await?;
    assert_eq!(store.usage(&a).await?.bytes, 40, "a deleted material releases its bytes");
    store.record(&a, sized(&a, 0), &user).await?;
    store.record(&a, sized(&a, 0), &user).await?;
    let refused = store.record(&a, sized(&a, 0), &user).await;
    assert!(matches!(&refused, Err(e) if e.reason() == Some("quota_exceeded")), "the fourth material: {refused:?}");

    let tenant = Quota { user_bytes: 0, user_materials: 0, tenant_bytes: 150, tenant_materials: 0 };
    assert_eq!(store.usage(&b).await?.tenant_bytes, 140);
    let refused = store.record(&b, sized(&b, 11), &tenant).await;
    assert!(matches!(&refused, Err(MaterialError::QuotaExceeded { message, .. }) if message.contains("tenant")), "{refused:?}");
    store.record(&b, sized(&b, 10), &tenant).await?;
    store.record(&other, sized(&other, 60), &tenant).await?;
    assert_eq!(store.usage(&other).await?.tenant_bytes, 150, "each tenant has its own");

    // Eight uploads of 30 bytes at once into 100 free bytes: three fit, whatever the interleaving.
    let c = owner("qs", "c@x.cn");
    let racing = Quota { user_bytes: 100, user_materials: 0, tenant_bytes: 0, tenant_materials: 0 };
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(8));
    let tries: Vec<_> = (0..8)
        .map(|_| {
            let (store, c, start) = (store.clone(), c.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                store.record(&c, sized(&c, 30), &racing).await
            })
        })
        .collect();
    let mut fitted = 0;
    for t in tries {
        match t.await? {
            Ok(_) => fitted += 1,
            Err(MaterialError::QuotaExceeded { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    assert_eq!(fitted, 3);
    assert_eq!(store.usage(&c).await?.bytes, 90);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn quotas_on_sqlite() -> TestResult {
    quota_suite(&fresh_sqlite()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn quotas_on_postgres() -> TestResult {
    quota_suite(&fresh_postgres().await?).await
}
