//! The category store on real SQLite and PostgreSQL: the tree, the rules and tenant isolation.

use reelforge_category::{CategoryError, CategoryStore, Dimension, migrate};
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    migrate(&db).await?; // migrations are idempotent
    let store = CategoryStore::new(db);
    let food = store.create("qs", "餐饮".into(), Dimension::Industry, -1).await?;
    let tea = store.create("qs", "茶饮".into(), Dimension::Industry, food.id).await?;
    store.create("cc", "别的租户".into(), Dimension::Industry, -1).await?;

    let rows = store.list("qs", None).await?;
    let tree = reelforge_category::domain::into_tree(rows);
    assert_eq!(tree.len(), 1);
    assert_eq!(tree[0].children.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["茶饮"]);

    // Names are unique beside each other: per tenant, dimension and parent.
    let twin = store.create("qs", "餐饮".into(), Dimension::Industry, -1).await;
    assert!(matches!(twin, Err(CategoryError::Duplicate(ref n)) if n == "餐饮"), "{twin:?}");
    let dup = store.create("dup", "餐饮".into(), Dimension::Industry, -1).await?; // another tenant may have it
    store.create("dup", "餐饮".into(), Dimension::Use, -1).await?; // and another dimension
    let tea2 = store.create("dup", "茶饮".into(), Dimension::Industry, dup.id).await?;
    let coffee = store.create("dup", "咖啡".into(), Dimension::Industry, dup.id).await?;
    let renamed_twin = store.rename("dup", coffee.id, "茶饮".into()).await;
    assert!(matches!(renamed_twin, Err(CategoryError::Duplicate(_))), "{renamed_twin:?}");
    assert_eq!(store.rename("dup", tea2.id, "茶饮".into()).await?.name, "茶饮", "keeping its own name is no duplicate");
    let (parent, children) = store.with_children("dup", dup.id).await?;
    assert_eq!((parent.name.as_str(), children), ("餐饮", vec![tea2.id, coffee.id]));
    assert!(matches!(store.with_children("cc", dup.id).await, Err(CategoryError::NotFound(_))));

    let third = store.create("qs", "x".into(), Dimension::Industry, tea.id).await;
    assert!(matches!(third, Err(CategoryError::Invalid(m)) if m.contains("two levels")));
    assert!(matches!(store.rename("cc", food.id, "偷改".into()).await, Err(CategoryError::NotFound(_))), "other tenants cannot touch it");
    assert!(matches!(store.delete("cc", food.id).await, Err(CategoryError::NotFound(_))));

    store.set_push("qs", &[food.id, tea.id], true).await?;
    let unknown = store.set_push("qs", &[food.id, 999_999], false).await;
    assert!(matches!(unknown, Err(CategoryError::NotFound(999_999))), "{unknown:?}");
    let foreign = store.set_push("cc", &[food.id], false).await;
    assert!(matches!(foreign, Err(CategoryError::NotFound(_))), "another tenant's ids are unknown");
    assert!(store.list("qs", None).await?.iter().all(|c| c.push), "a refused call changed nothing");
    assert!(!store.list("cc", None).await?[0].push);

    store.delete("qs", food.id).await?;
    assert!(store.list("qs", None).await?.is_empty(), "children go with their parent");
    assert_eq!(store.list("cc", None).await?.len(), 1);
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
