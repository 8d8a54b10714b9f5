//! Templates on real SQLite and PostgreSQL: slot detection, filling into a new task (the template
//! unchanged), the audit flow with its role rules, the list filters, the starter seed (idempotent,
//! concurrent), and business cards from sheets (a 50-row sheet with 2 bad rows makes 48 tasks and
//! jobs and reports 2 rows; bad sheets are refused whole).

use std::collections::BTreeMap;

use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_task::template::{AuditState, Replacement, TemplateFilter, TemplateKind, Viewer};
use prost::Message;
use reelforge_proto::render::RenderJob;
use reelforge_task::{FinishOutcome, JobRef, Owner, SaveInput, TaskError, TaskFilter, TaskStore, domain, migrate};

use crate::common::TestResult;

/// The shared fixture: user 2's materials of tenant qs, its effect a system key.
fn valid() -> &'static str {
    static VALID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("../../../timeline/tests/fixtures/video_edit_every_layer.json").replace("t/qs/fx/", "t/qs/sys/materials/fx/")
    });
    &VALID
}

fn viewer(tenant: &str, user: &str, manager: bool) -> Viewer {
    Viewer { owner: Owner { tenant: tenant.into(), user_id: user.into() }, manager }
}

async fn open(url: &str) -> Result<TaskStore, Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    Ok(TaskStore::new(db))
}

async fn task_of(store: &TaskStore, v: &Viewer, name: &str, info: &str) -> Result<i64, Box<dyn std::error::Error>> {
    let draft = domain::parse_draft(&v.owner, SaveInput { task_id: -1, name, task_info: info, size_category_id: 41, used_for: "", version: 0 })?;
    Ok(store.save(&v.owner, draft).await?)
}

async fn flow(url: &str) -> TestResult {
    let store = open(url).await?;
    // The fixture's materials are user 2's of tenant qs.
    let (maker, other, manager) = (viewer("qs", "2", false), viewer("qs", "9", false), viewer("qs", "boss", true));
    let foreign_manager = viewer("cc", "boss", true);
    let task = task_of(&store, &maker, "春节模板", valid()).await?;

    // Submit: pending, counts from the document; a task that is not the caller's is not found.
    let t = store.submit_template(&maker, task, TemplateKind::Classic, &[7, 12], None).await?;
    assert_eq!((t.audit, t.counts, t.used_for.as_str(), t.category_ids.clone()), (AuditState::Pending, (1, 1, 1), "TASK_TEMPLATE", vec![7, 12]));
    assert!(matches!(store.submit_template(&other, task, TemplateKind::Classic, &[], None).await, Err(TaskError::NotFound(_))));
    // Its preview renders as the maker (whose materials it names), queued at once, not among their works.
    let due = store.outbox_due(10).await?;
    assert_eq!(due.len(), 1);
    let preview = RenderJob::decode(due[0].body.as_slice())?;
    assert_eq!((preview.tenant.as_str(), preview.user_id.as_str()), ("qs", "2"));
    assert_ne!(preview.task_id, task);
    assert_eq!(store.mine(&maker.owner, &TaskFilter::default(), 1, 100).await?.1, 1, "only the maker's own task is listed");
    assert!(
        matches!(store.submit_template(&maker, task, TemplateKind::BusinessCard, &[], None).await, Err(TaskError::Invalid(m)) if m.contains("cardField")),
        "a card needs card fields"
    );

    // Pending: seen by its creator and the tenant's managers only.
    assert!(store.template(&maker, t.id).await.is_ok());
    assert!(store.template(&manager, t.id).await.is_ok());
    assert!(matches!(store.template(&other, t.id).await, Err(TaskError::TemplateNotFound(_))));
    assert!(matches!(store.template(&foreign_manager, t.id).await, Err(TaskError::TemplateNotFound(_))));

    // Slots: the canModify = 1 layers.
    let slots = store.template_slots(&maker, t.id).await?;
    let kinds: Vec<(&str, &str)> =
        slots.iter().map(|s| (s.id.as_str(), reelforge_task::template::slot_kind_name(s.kind))).collect();
    assert_eq!(kinds, vec![("2", "picture"), ("3", "video"), ("4", "text")]);

    // The audit: only managers; a rejection needs a reason.
    assert!(matches!(store.audit_template(&maker, t.id, true, "").await, Err(TaskError::Forbidden("TEMPLATE_MANAGER"))));
    assert!(matches!(store.templates_to_check(&other, AuditState::Pending, &TemplateFilter::default(), 1, 10).await, Err(TaskError::Forbidden(_))));
    let (pending, total) = store.templates_to_check(&manager, AuditState::Pending, &TemplateFilter::default(), 1, 10).await?;
    assert_eq!((total, pending[0].id), (1, t.id));
    assert!(matches!(store.audit_template(&manager, t.id, false, " ").await, Err(TaskError::Invalid(m)) if m.starts_with("reason")));
    let rejected = store.audit_template(&manager, t.id, false, "画面模糊").await?;
    assert_eq!((rejected.audit, rejected.reason.as_str()), (AuditState::Rejected, "画面模糊"));
    assert_eq!(store.my_templates(&maker, 1, 10).await?.1, 1, "the creator sees it under mine");
    assert!(matches!(store.audit_template(&foreign_manager, t.id, true, "").await, Err(TaskError::TemplateNotFound(_))));
    let approved = store.audit_template(&manager, t.id, true, "").await?;
    assert_eq!((approved.audit, approved.reason.as_str()), (AuditState::Approved, ""));
    assert!(store.template(&other, t.id).await.is_ok(), "approved: the whole tenant sees it");

    // Categories and push: managers only, all or none.
    assert!(matches!(store.set_template_categories(&maker, t.id, &[3], None).await, Err(TaskError::Forbidden(_))));
    let moved = store.set_template_categories(&manager, t.id, &[3, 12], Some(50)).await?;
    assert_eq!((moved.category_ids.clone(), moved.size_category_id), (vec![3, 12], 50));
    assert!(matches!(store.set_template_push(&manager, &[t.id, 999_999], true).await, Err(TaskError::TemplateNotFound(999_999))));
    assert!(!store.template(&manager, t.id).await?.push, "all or none");
    assert_eq!(store.set_template_push(&manager, &[t.id], true).await?, vec![t.id]);
    assert!(store.template(&other, t.id).await?.push);

    // Fill: a new task of the caller; the template is unchanged.
    let before = store.template(&other, t.id).await?;
    let mine = "t/qs/u/9/materials/p/original.png";
    let replaces = [
        Replacement { id: "4".into(), content: "新年快乐".into() },
        Replacement { id: "2".into(), content: mine.into() },
    ];
    let made = store.fill_template(&other, t.id, "我的视频", &replaces).await?;
    let new_task = store.get(&other.owner, made).await?;
    assert_eq!((new_task.name.as_str(), new_task.used_for.as_str(), new_task.size_category_id), ("我的视频", "TASK_TEMPLATE", 50));
    assert!(new_task.task_info.contains("新年快乐") && new_task.task_info.contains(mine));
    assert_eq!(store.template(&other, t.id).await?, before, "the template never changes");
    let foreign = [Replacement { id: "2".into(), content: "t/qs/u/2/materials/a/original.png".into() }];
    assert!(matches!(store.fill_template(&other, t.id, "", &foreign).await, Err(TaskError::Invalid(m)) if m.contains("not one of your materials")));
    let other_tenant = [Replacement { id: "2".into(), content: "t/cc/u/9/materials/a/original.png".into() }];
    assert!(store.fill_template(&other, t.id, "", &other_tenant).await.is_err(), "another tenant's key fails the document check");
    let unknown = [Replacement { id: "77".into(), content: "x".into() }];
    assert!(matches!(store.fill_template(&other, t.id, "", &unknown).await, Err(TaskError::Invalid(m)) if m.contains("`77`")));
    Ok(())
}

#[tokio::test]
async fn submit_audit_fill_on_sqlite() -> TestResult {
    flow(&fresh_sqlite()).await
}

#[tokio::test]
async fn submit_audit_fill_on_postgres() -> TestResult {
    flow(&fresh_postgres().await?).await
}

async fn listing(url: &str) -> TestResult {
    let store = open(url).await?;
    let (user, manager) = (viewer("qs", "2", false), viewer("qs", "boss", true));

    // The starters are seeded once per tenant, even by concurrent first lists.
    let all = TemplateFilter::default();
    let (a, b) = tokio::join!(store.approved_templates(&user, &all, 1, 100), store.approved_templates(&manager, &all, 1, 100));
    let (starters, total) = a?;
    assert_eq!(b?.1, total);
    assert_eq!(total, 5, "{starters:?}");
    assert!(!store.seed_starters("qs").await?, "already seeded");
    assert_eq!(store.approved_templates(&user, &all, 1, 100).await?.1, 5);

    // Each starter's preview is a hidden task of no user, queued once; its render becomes the
    // template's cover and video, and it is listed among nobody's works.
    let due = store.outbox_due(100).await?;
    assert_eq!(due.len(), 5, "one preview render per starter");
    assert!(starters.iter().all(|t| t.cover_key.is_empty() && t.video_key.is_empty()));
    let job = RenderJob::decode(due[0].body.as_slice())?;
    assert!(job.user_id.is_empty());
    let preview = JobRef { tenant: job.tenant.clone(), task_id: job.task_id, job_id: job.job_id.clone(), attempt: job.attempt };
    assert!(store.start(&preview, 60_000).await?);
    let (video, cover) = reelforge_task::render_keys(&job.tenant, job.task_id, &job.job_id);
    let done = FinishOutcome::Done { video_key: video.clone(), cover_key: cover.clone(), loudness: None };
    assert!(store.finish(&preview, false, done).await?);
    let shown: Vec<_> = store.approved_templates(&user, &all, 1, 100).await?.0.into_iter().filter(|t| !t.video_key.is_empty()).collect();
    assert_eq!(shown.len(), 1, "the finished preview is one template's");
    assert_eq!((shown[0].video_key.as_str(), shown[0].cover_key.as_str()), (video.as_str(), cover.as_str()));
    let nobody = Owner { tenant: "qs".into(), user_id: String::new() };
    assert_eq!(store.mine(&nobody, &TaskFilter::default(), 1, 100).await?.1, 0, "previews are no one's works");
    assert_eq!(store.approved_templates(&viewer("cc", "x", false), &all, 1, 100).await?.1, 5, "each tenant its own");

    // Filters: kind, sizes, category, name; paging.
    let cards = TemplateFilter { kind: Some(TemplateKind::BusinessCard), ..TemplateFilter::default() };
    assert_eq!(store.approved_templates(&user, &cards, 1, 10).await?.1, 2);
    let tall = TemplateFilter { size_category_ids: vec![50], ..TemplateFilter::default() };
    assert_eq!(store.approved_templates(&user, &tall, 1, 10).await?.1, 2);
    let wide_or_square = TemplateFilter { size_category_ids: vec![41, 51], ..TemplateFilter::default() };
    assert_eq!(store.approved_templates(&user, &wide_or_square, 1, 10).await?.1, 3);
    let named = TemplateFilter { name: "名片".into(), ..TemplateFilter::default() };
    assert_eq!(store.approved_templates(&user, &named, 1, 10).await?.1, 2);
    let (page, total) = store.approved_templates(&user, &all, 2, 2).await?;
    assert_eq!((page.len(), total), (2, 5));

    let festive = starters.iter().find(|t| t.name == "节日祝福").map(|t| t.id).ok_or("starter")?;
    store.set_template_categories(&manager, festive, &[3, 31], None).await?;
    let in_3 = TemplateFilter { category_id: Some(3), ..TemplateFilter::default() };
    let found = store.approved_templates(&user, &in_3, 1, 10).await?.0;
    assert_eq!(found.iter().map(|t| t.id).collect::<Vec<_>>(), vec![festive]);
    let in_1 = TemplateFilter { category_id: Some(1), ..TemplateFilter::default() };
    assert_eq!(store.approved_templates(&user, &in_1, 1, 10).await?.1, 0, "1 is not 31");
    // A pending template is not listed.
    let task = task_of(&store, &user, "待审", valid()).await?;
    store.submit_template(&user, task, TemplateKind::Classic, &[3], None).await?;
    assert_eq!(store.approved_templates(&user, &in_3, 1, 10).await?.1, 1);
    Ok(())
}

#[tokio::test]
async fn listing_and_seeding_on_sqlite() -> TestResult {
    listing(&fresh_sqlite()).await
}

#[tokio::test]
async fn listing_and_seeding_on_postgres() -> TestResult {
    listing(&fresh_postgres().await?).await
}

/// The 9:16 starter card: fields 1 name (≤ 10), 2 job, 4 phone, 5 mail, 6 company.
async fn card_template(store: &TaskStore, v: &Viewer) -> Result<i64, Box<dyn std::error::Error>> {
    let cards = TemplateFilter { kind: Some(TemplateKind::BusinessCard), size_category_ids: vec![50], ..TemplateFilter::default() };
    Ok(store.approved_templates(v, &cards, 1, 10).await?.0.first().map(|t| t.id).ok_or("card starter")?)
}

async fn cards(url: &str) -> TestResult {
    let store = open(url).await?;
    let v = viewer("qs", "2", false);
    let id = card_template(&store, &v).await?;

    let mut csv = String::from("姓名,职位,手机,邮箱,公司名称\n");
    for i in 1..=50 {
        let row = match i {
            17 => "一二三四五六七八九十十一,经理,138,a@b.c,公司".to_owned(),
            33 => format!("员工{i},经理,138,,公司"),
            _ => format!("员工{i},经理,1380000{i:04},u{i}@example.com,某某公司"),
        };
        csv.push_str(&row);
        csv.push('\n');
    }
    let report = store.card_batch(&v, id, "cards.csv", csv.as_bytes()).await?;
    assert_eq!(report.made.len(), 48);
    let failed: Vec<(u32, &str)> = report.failed.iter().map(|(r, why)| (*r, why.as_str())).collect();
    assert_eq!(failed, vec![(18, "姓名: 12 characters, longer than 10"), (34, "邮箱: required")], "sheet rows: the header is row 1");
    assert_eq!(store.queued_jobs().await?, 5 + 48, "the five starters' previews and one render job per card");
    let tasks = store.mine(&v.owner, &TaskFilter::default(), 1, 100).await?;
    assert_eq!(tasks.1, 48);
    let first = store.get(&v.owner, report.made[0].1).await?;
    assert_eq!(first.used_for, "BUSINESS_CARD_TEMPLATE");
    assert!(first.task_info.contains("员工1") && first.task_info.contains("u1@example.com"));

    // The same cards from an .xlsx workbook.
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in ["memberName", "memberJob", "4", "邮箱", "公司名称"].iter().enumerate() {
        sheet.write_string(0, c as u16, *h)?;
    }
    sheet.write_string(1, 0, "王五")?.write_string(1, 1, "设计")?.write_number(1, 2, 13_800_000_000.0)?;
    sheet.write_string(1, 3, "w@example.com")?.write_string(1, 4, "某某公司")?;
    sheet.write_string(2, 0, "赵六")?;
    let report = store.card_batch(&v, id, "cards.XLSX", &book.save_to_buffer()?).await?;
    assert_eq!(report.made.len(), 1);
    assert_eq!(report.failed, vec![(3, "职位: required".to_owned())]);
    let made = store.get(&v.owner, report.made[0].1).await?;
    assert!(made.task_info.contains("13800000000"), "a number cell reads as its digits");

    // One card from its fields.
    let values: BTreeMap<i64, String> =
        [(1, "孙七"), (2, "顾问"), (4, "139"), (5, "s@example.com"), (6, "某某公司")].into_iter().map(|(k, v)| (k, v.to_owned())).collect();
    let (task_id, run) = store.card(&v, id, &values).await?;
    assert!(!run.job_id.is_empty() && store.get(&v.owner, task_id).await?.task_info.contains("孙七"));

    // Bad sheets are refused whole, and make nothing.
    let jobs = store.queued_jobs().await?;
    let bad: [(&str, &[u8], &str); 6] = [
        ("cards.xlsx", b"PK\x03\x04 not really a zip", "not an .xlsx"),
        ("cards.csv", b"", "empty"),
        ("cards.csv", "姓名,鞋码\n张三,42\n".as_bytes(), "column 2 header `鞋码`"),
        ("cards.csv", "姓名,职位\n张三,经理\n".as_bytes(), "no column for 手机"),
        ("cards.csv", "姓名,职位,手机,邮箱,公司名称\n,,,,\n".as_bytes(), "no card rows"),
        ("cards.pdf", b"%PDF-1.4", "neither an .xlsx nor a .csv"),
    ];
    for (name, bytes, want) in bad {
        let got = store.card_batch(&v, id, name, bytes).await;
        assert!(matches!(&got, Err(TaskError::Invalid(m)) if m.contains(want)), "{name} {want}: {got:?}");
    }
    let many = format!("姓名,职位,手机,邮箱,公司名称\n{}", "a,b,c,d,e\n".repeat(501));
    assert!(matches!(store.card_batch(&v, id, "c.csv", many.as_bytes()).await, Err(TaskError::Invalid(m)) if m.contains("more than 500")));
    let huge = vec![b'a'; 2 * 1024 * 1024 + 1];
    assert!(matches!(store.card_batch(&v, id, "c.csv", &huge).await, Err(TaskError::Invalid(m)) if m.contains("larger than")));
    assert_eq!(store.queued_jobs().await?, jobs, "nothing made");

    // A classic template is no card template; another tenant's card is not found.
    let classic = store.approved_templates(&v, &TemplateFilter { kind: Some(TemplateKind::Classic), ..TemplateFilter::default() }, 1, 1).await?.0;
    let classic = classic.first().map(|t| t.id).ok_or("classic")?;
    assert!(matches!(store.card_batch(&v, classic, "c.csv", csv.as_bytes()).await, Err(TaskError::Invalid(m)) if m.contains("not a business card")));
    assert!(matches!(store.card_batch(&viewer("cc", "2", false), id, "c.csv", csv.as_bytes()).await, Err(TaskError::TemplateNotFound(_))));
    Ok(())
}

#[tokio::test]
async fn business_cards_on_sqlite() -> TestResult {
    cards(&fresh_sqlite()).await
}

#[tokio::test]
async fn business_cards_on_postgres() -> TestResult {
    cards(&fresh_postgres().await?).await
}
