//! The favourite store on real SQLite and PostgreSQL.

use reelforge_favourite::{FavouriteStore, migrate};
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let store = FavouriteStore::new(db);
    store.add("qs", "a@x.cn", "m1".into(), "picture".into()).await?;
    store.add("qs", "a@x.cn", "m1".into(), "picture".into()).await?;
    store.add("qs", "a@x.cn", "f1".into(), "font".into()).await?;
    store.add("qs", "b@x.cn", "m2".into(), "picture".into()).await?;
    store.add("cc", "a@x.cn", "m3".into(), "picture".into()).await?;
    let mine = store.list("qs", "a@x.cn", Some("picture")).await?;
    assert_eq!(mine.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["m1"], "one row per favourite, only mine");
    assert_eq!(store.list("qs", "a@x.cn", None).await?.len(), 2);
    store.remove("qs", "b@x.cn", "m1", "picture").await?;
    assert_eq!(store.list("qs", "a@x.cn", Some("picture")).await?.len(), 1, "another user cannot remove mine");
    store.remove("qs", "a@x.cn", "m1", "picture").await?;
    assert!(store.list("qs", "a@x.cn", Some("picture")).await?.is_empty());
    assert!(reelforge_favourite::domain::parse("m1", "rocket").is_err());

    for i in 0..12 {
        store.add_search("qs", "a@x.cn", format!("k{i}")).await?;
    }
    let h = store.add_search("qs", "a@x.cn", "k4".into()).await?;
    assert_eq!(h, ["k4", "k11", "k10", "k9", "k8", "k7", "k6", "k5", "k3", "k2"], "ten, newest first, once each");
    assert_eq!(store.search_history("qs", "a@x.cn").await?, h);
    assert!(store.search_history("qs", "b@x.cn").await?.is_empty());
    store.add_search("cc", "a@x.cn", "theirs".into()).await?;
    store.clear_search("qs", "a@x.cn").await?;
    assert!(store.search_history("qs", "a@x.cn").await?.is_empty());
    assert_eq!(store.search_history("cc", "a@x.cn").await?, ["theirs"], "clearing is per tenant and user");
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
