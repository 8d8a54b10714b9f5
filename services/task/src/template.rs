//! Templates as documents: their kinds and audit states, the slots a template user fills, filling
//! them, the company-card fields of business-card templates and the sheets that carry them, and
//! the starter templates every tenant begins with. Pure functions over the document model; the
//! store keeps the rows.

use std::collections::BTreeMap;
use std::io::Cursor;

use reelforge_timeline::layer::{Layer, TextFields};
use reelforge_timeline::layout::{SlotKind, slot_kind};
use reelforge_timeline::Rule;
use serde_json::{Value, json};

use crate::domain::{Owner, TaskError};

/// What a template is for (the contract's `kind`; its `usedFor` follows from it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateKind {
    /// An ordinary task template.
    Classic,
    /// An AI template.
    Ai,
    /// A dynamic-word template.
    DynamicWord,
    /// A business card filled from company-card fields.
    BusinessCard,
    /// An interactive voice and video response template.
    Ivvr,
}

impl TemplateKind {
    /// Every kind.
    pub const ALL: [TemplateKind; 5] = [Self::Classic, Self::Ai, Self::DynamicWord, Self::BusinessCard, Self::Ivvr];

    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Classic => "classic",
            Self::Ai => "ai",
            Self::DynamicWord => "dynamicWord",
            Self::BusinessCard => "businessCard",
            Self::Ivvr => "ivvr",
        }
    }

    /// Reads a wire name.
    pub fn parse(name: &str) -> Result<Self, TaskError> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name.trim())
            .ok_or_else(|| TaskError::Invalid(format!("kind: `{name}` is not one of classic, ai, dynamicWord, businessCard, ivvr")))
    }

    /// The `usedFor` of the tasks made from a template of this kind (spec platform §3).
    pub fn used_for(self) -> &'static str {
        match self {
            Self::Classic => "TASK_TEMPLATE",
            Self::Ai => "AI_TEMPLATE",
            Self::DynamicWord => "",
            Self::BusinessCard => "BUSINESS_CARD_TEMPLATE",
            Self::Ivvr => "IVVR",
        }
    }
}

/// Where a template is in the audit flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditState {
    /// Not offered yet.
    Draft,
    /// Offered, waiting for a template manager.
    Pending,
    /// Visible to the whole tenant.
    Approved,
    /// Refused, with a reason.
    Rejected,
}

impl AuditState {
    /// Every state.
    pub const ALL: [AuditState; 4] = [Self::Draft, Self::Pending, Self::Approved, Self::Rejected];

    /// The wire name, also the stored value.
    pub fn name(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }

    /// Reads a wire name.
    pub fn parse(name: &str) -> Result<Self, TaskError> {
        Self::ALL
            .into_iter()
            .find(|s| s.name() == name.trim())
            .ok_or_else(|| TaskError::Invalid(format!("state: `{name}` is not one of draft, pending, approved, rejected")))
    }
}

/// A stored template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: TemplateKind,
    /// The usedFor of tasks made from it.
    pub used_for: String,
    /// Its size category.
    pub size_category_id: i32,
    /// Its industry and use categories.
    pub category_ids: Vec<i64>,
    /// Storage key of its cover, empty until a preview exists.
    pub cover_key: String,
    /// Storage key of its preview video, empty until one exists.
    pub video_key: String,
    /// The document's length, milliseconds.
    pub duration_ms: i64,
    /// Text, picture and video slots, counted from the document.
    pub counts: (i32, i32, i32),
    /// Where it is in the audit.
    pub audit: AuditState,
    /// Why it was rejected.
    pub reason: String,
    /// Featured by a manager.
    pub push: bool,
    /// Who offered it (empty for a starter).
    pub creator_id: String,
    /// The creator's task it was offered from (0 for a starter): its ring orders are the
    /// template's ring state.
    pub task_id: i64,
    /// Creation time, milliseconds since the epoch.
    pub created_ms: i64,
    /// Last change, milliseconds since the epoch.
    pub updated_ms: i64,
    /// The document.
    pub task_info: String,
    /// The IVVR info as stored; read with `reelforge_timeline::task::parse_ivvr_info`.
    pub ivvr_info: String,
}

/// Who looks at templates: a user of a tenant, a TEMPLATE_MANAGER or not (from the verified token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    /// The tenant and user.
    pub owner: Owner,
    /// Acts as TEMPLATE_MANAGER.
    pub manager: bool,
}

impl Viewer {
    /// Refuses anyone not a TEMPLATE_MANAGER.
    pub fn require_manager(&self) -> Result<(), TaskError> {
        if self.manager { Ok(()) } else { Err(TaskError::Forbidden("TEMPLATE_MANAGER")) }
    }
}

/// Which templates a list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateFilter {
    /// One kind; none: any.
    pub kind: Option<TemplateKind>,
    /// Size categories; empty: any.
    pub size_category_ids: Vec<i32>,
    /// One category the template must have; none: any.
    pub category_id: Option<i64>,
    /// Part of the name; empty: any.
    pub name: String,
    /// The order.
    pub order: crate::domain::Order,
}

/// A business-card sheet's outcome: the cards made and the rows that were not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardReport {
    /// Each good row's sheet row, new task and render job.
    pub made: Vec<(u32, i64, String)>,
    /// Each bad row's sheet row and why.
    pub failed: Vec<(u32, String)>,
}

/// One replaceable layer of a template (spec editor-core "Template layer").
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// The layer's id.
    pub id: String,
    /// Its scene, from 0.
    pub scene_index: u32,
    /// What replaces it.
    pub kind: SlotKind,
    /// The current text, or the current material address.
    pub content: String,
    /// Longest text, characters; 0: no limit (and for pictures and videos).
    pub max_length: i64,
    /// Its width, editing pixels.
    pub width: f64,
    /// Its height, editing pixels.
    pub height: f64,
}

/// The wire name of a slot kind.
pub fn slot_kind_name(kind: SlotKind) -> &'static str {
    match kind {
        SlotKind::Text => "text",
        SlotKind::Picture => "picture",
        SlotKind::Video => "video",
    }
}

/// Calls `f` with every layer of the rule (group members included) and its scene index.
pub(crate) fn each_layer_mut(rule: &mut Rule, f: &mut dyn FnMut(u32, &mut Layer)) {
    fn walk(scene: u32, layer: &mut Layer, f: &mut dyn FnMut(u32, &mut Layer)) {
        f(scene, layer);
        if let Layer::Group(g) = layer {
            for member in &mut g.attach_list {
                walk(scene, member, f);
            }
        }
    }
    for (i, scene) in rule.scenes.iter_mut().enumerate() {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        for layer in &mut scene.layers {
            walk(index, layer, f);
        }
    }
}

fn text_mut(layer: &mut Layer) -> Option<&mut TextFields> {
    match layer {
        Layer::Word(l) | Layer::DynamicWord(l) => Some(&mut l.text),
        Layer::ArtWord(l) => Some(&mut l.text),
        _ => None,
    }
}

fn slot_of(scene_index: u32, layer: &Layer) -> Option<Slot> {
    let common = layer.common()?;
    let kind = slot_kind(layer.type_name(), common.can_modify)?;
    let (content, max_length) = match layer {
        Layer::Picture(p) | Layer::Gif(p) => (p.src.clone(), 0),
        Layer::Video(v) => (v.video_src.as_str().unwrap_or_default().to_owned(), 0),
        _ => {
            let text = layer.text()?;
            (text.displayed().to_owned(), text.max_length.unwrap_or(0).max(0))
        }
    };
    Some(Slot { id: common.id.to_string(), scene_index, kind, content, max_length, width: common.w, height: common.h })
}

/// Returns the slots of a template document: its layers with canModify = 1 (group members
/// included), in scene and layer order. The counts agree with `layout::template_slots` for the
/// scenes' layers.
pub fn slots(rule: &Rule) -> Vec<Slot> {
    let mut rule = rule.clone();
    let mut out = Vec::new();
    each_layer_mut(&mut rule, &mut |scene, layer| out.extend(slot_of(scene, layer)));
    out
}

/// A slot's new content, as the template user sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The slot (layer id).
    pub id: String,
    /// The new text, or the new material address.
    pub content: String,
}

/// Whether `address` may be put in a slot by `owner`: a key under a user's materials must be the
/// owner's own; other addresses are confined to the tenant by the document check that follows.
fn own_address(owner: &Owner, address: &str) -> bool {
    let users = format!("t/{}/u/", owner.tenant);
    match address.strip_prefix(&users) {
        Some(rest) => rest.strip_prefix(owner.user_id.as_str()).is_some_and(|r| r.starts_with('/')),
        None => true,
    }
}

/// Puts each replacement into its slot of `rule` for `owner`. Refused, naming the slot: an id that
/// is no slot, a text longer than the slot's maxLength, an empty or foreign material address.
pub fn fill(rule: &mut Rule, replaces: &[Replacement], owner: &Owner) -> Result<(), TaskError> {
    let known = slots(rule);
    for r in replaces {
        let slot = known
            .iter()
            .find(|s| s.id == r.id)
            .ok_or_else(|| TaskError::Invalid(format!("replaces: `{}` is not a slot of this template", r.id)))?;
        match slot.kind {
            SlotKind::Text => {
                let chars = r.content.chars().count();
                if slot.max_length > 0 && chars as i64 > slot.max_length {
                    return Err(TaskError::Invalid(format!(
                        "replaces[{}]: {chars} characters, longer than the slot's {}",
                        r.id, slot.max_length
                    )));
                }
            }
            SlotKind::Picture | SlotKind::Video => {
                let address = r.content.trim();
                if address.is_empty() {
                    return Err(TaskError::Invalid(format!("replaces[{}]: a material address is required", r.id)));
                }
                if !own_address(owner, address) {
                    return Err(TaskError::Invalid(format!("replaces[{}]: `{address}` is not one of your materials", r.id)));
                }
            }
        }
    }
    each_layer_mut(rule, &mut |_, layer| {
        let Some(id) = layer.common().map(|c| c.id.to_string()) else { return };
        let Some(r) = replaces.iter().rev().find(|r| r.id == id) else { return };
        match layer {
            Layer::Picture(p) | Layer::Gif(p) => p.src = r.content.trim().to_owned(),
            Layer::Video(v) => v.video_src = Value::String(r.content.trim().to_owned()),
            other => {
                if let Some(text) = text_mut(other) {
                    text.content.clone_from(&r.content);
                    text.show_content.clone_from(&r.content);
                }
            }
        }
    });
    Ok(())
}

/// The company-card field kinds with their sheet labels (spec platform §3; 12 is not given).
pub const CARD_LABELS: [(i64, &str); 15] = [
    (0, "默认"),
    (1, "姓名"),
    (2, "职位"),
    (3, "部门"),
    (4, "手机"),
    (5, "邮箱"),
    (6, "公司名称"),
    (7, "公司地址"),
    (8, "公司网址"),
    (9, "公司电话"),
    (10, "生肖"),
    (11, "星座"),
    (13, "爱好"),
    (14, "城市"),
    (15, "标签"),
];

/// The sheet label of a card field kind.
pub fn card_label(code: i64) -> String {
    CARD_LABELS.iter().find(|(c, _)| *c == code).map_or_else(|| code.to_string(), |(_, l)| (*l).to_owned())
}

/// Reads a sheet header as a card field kind: its label, its catalogue key (`memberName`) or its
/// number.
pub fn card_code(header: &str) -> Option<i64> {
    let h = header.trim();
    if let Some((c, _)) = CARD_LABELS.iter().find(|(_, l)| *l == h) {
        return Some(*c);
    }
    if let Some(code) = reelforge_timeline::catalogue::codes::CARD_FIELDS.iter().find(|c| c.key.eq_ignore_ascii_case(h)) {
        return Some(i64::from(code.value));
    }
    h.parse::<i64>().ok().filter(|n| CARD_LABELS.iter().any(|(c, _)| c == n))
}

/// The card fields a business-card template's texts are filled from, each with its tightest
/// maxLength (0: none), in code order.
pub fn card_fields(rule: &Rule) -> BTreeMap<i64, i64> {
    let mut out: BTreeMap<i64, i64> = BTreeMap::new();
    let mut rule = rule.clone();
    each_layer_mut(&mut rule, &mut |_, layer| {
        let Some(text) = layer.text() else { return };
        let Some(code) = text.card_field else { return };
        let limit = text.max_length.unwrap_or(0).max(0);
        let entry = out.entry(code).or_insert(limit);
        if limit > 0 && (*entry == 0 || limit < *entry) {
            *entry = limit;
        }
    });
    out
}

/// Checks one card's field values against the template's fields: each is required and at most its
/// maxLength. The error names the field by its label.
pub fn check_card(fields: &BTreeMap<i64, i64>, values: &BTreeMap<i64, String>) -> Result<(), String> {
    for (code, limit) in fields {
        let value = values.get(code).map(|v| v.trim()).unwrap_or_default();
        if value.is_empty() {
            return Err(format!("{}: required", card_label(*code)));
        }
        let chars = value.chars().count() as i64;
        if *limit > 0 && chars > *limit {
            return Err(format!("{}: {chars} characters, longer than {limit}", card_label(*code)));
        }
    }
    Ok(())
}

/// Puts the card's values into the texts that carry their field kind.
pub fn fill_card(rule: &mut Rule, values: &BTreeMap<i64, String>) {
    each_layer_mut(rule, &mut |_, layer| {
        let Some(text) = text_mut(layer) else { return };
        if let Some(value) = text.card_field.and_then(|c| values.get(&c)) {
            let value = value.trim().to_owned();
            text.content.clone_from(&value);
            text.show_content = value;
        }
    });
}

/// Largest card sheet accepted, bytes.
pub const MAX_SHEET_BYTES: usize = 2 * 1024 * 1024;
/// Most cards one sheet may ask for.
pub const MAX_CARD_ROWS: usize = 500;
/// How far an xlsx sheet may expand when read (checked before calamine reads it): a card sheet is
/// a few parts of plain XML.
pub const XLSX_LIMITS: reelforge_kit::ooxml::Limits =
    reelforge_kit::ooxml::Limits { max_entries: 1000, max_total_bytes: 50 << 20, max_xml_depth: 128 };

/// A sheet's format, from its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetFormat {
    /// Comma-separated UTF-8 text.
    Csv,
    /// An Office Open XML workbook (its first sheet).
    Xlsx,
}

impl SheetFormat {
    /// The format a file name's extension names.
    pub fn of_name(name: &str) -> Result<Self, TaskError> {
        let lower = name.trim().to_ascii_lowercase();
        if lower.ends_with(".csv") {
            Ok(Self::Csv)
        } else if lower.ends_with(".xlsx") {
            Ok(Self::Xlsx)
        } else {
            Err(TaskError::Invalid(format!("file: `{name}` is neither an .xlsx nor a .csv file")))
        }
    }
}

/// Reads every row of a sheet as text cells (the first worksheet of a workbook).
pub fn read_sheet(format: SheetFormat, bytes: &[u8]) -> Result<Vec<Vec<String>>, TaskError> {
    if bytes.len() > MAX_SHEET_BYTES {
        return Err(TaskError::Invalid(format!("file: larger than {} bytes", MAX_SHEET_BYTES)));
    }
    match format {
        SheetFormat::Csv => {
            let text = std::str::from_utf8(bytes).map_err(|_| TaskError::Invalid("file: not a UTF-8 CSV file".into()))?;
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
            reader
                .records()
                .map(|r| {
                    r.map(|rec| rec.iter().map(str::to_owned).collect())
                        .map_err(|e| TaskError::Invalid(format!("file: not a readable CSV file ({e})")))
                })
                .collect()
        }
        SheetFormat::Xlsx => {
            use calamine::Reader;
            // The whole package is read once, bounded, before calamine holds any of it.
            reelforge_kit::ooxml::check(Cursor::new(bytes), reelforge_kit::ooxml::Package::Workbook, &XLSX_LIMITS).map_err(|e| {
                TaskError::Invalid(match e {
                    reelforge_kit::ooxml::OoxmlError::NotZip(..) => "file: not an .xlsx spreadsheet".into(),
                    e if e.is_limit() => format!("file: {e}"),
                    e => format!("file: not an .xlsx spreadsheet ({e})"),
                })
            })?;
            let mut book = calamine::Xlsx::new(Cursor::new(bytes)).map_err(|_| TaskError::Invalid("file: not an .xlsx spreadsheet".into()))?;
            let range = book
                .worksheet_range_at(0)
                .ok_or_else(|| TaskError::Invalid("file: the workbook has no sheet".into()))?
                .map_err(|_| TaskError::Invalid("file: the first sheet cannot be read".into()))?;
            Ok(range.rows().map(|row| row.iter().map(ToString::to_string).collect()).collect())
        }
    }
}

/// One card a sheet asks for: its sheet row (the header is row 1) and its values by field kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRow {
    /// The row number in the sheet.
    pub row: u32,
    /// The values by card field kind.
    pub values: BTreeMap<i64, String>,
}

/// Reads a card sheet for a template with `fields`: the first row holds the headers (every one a
/// card field, every field of the template present), each following non-blank row one card.
/// A sheet that cannot be used at all is refused; rows are checked one by one later.
pub fn card_rows(rows: &[Vec<String>], fields: &BTreeMap<i64, i64>) -> Result<Vec<CardRow>, TaskError> {
    let Some((header, body)) = rows.split_first() else {
        return Err(TaskError::Invalid("file: the sheet is empty".into()));
    };
    let mut columns = Vec::with_capacity(header.len());
    for (i, h) in header.iter().enumerate() {
        if h.trim().is_empty() {
            columns.push(None);
            continue;
        }
        let code = card_code(h).ok_or_else(|| TaskError::Invalid(format!("file: column {} header `{}` is not a card field", i + 1, h.trim())))?;
        columns.push(Some(code));
    }
    if let Some(missing) = fields.keys().find(|c| !columns.contains(&Some(**c))) {
        return Err(TaskError::Invalid(format!("file: no column for {}", card_label(*missing))));
    }
    let mut out = Vec::new();
    for (i, row) in body.iter().enumerate() {
        if row.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if out.len() == MAX_CARD_ROWS {
            return Err(TaskError::Invalid(format!("file: more than {MAX_CARD_ROWS} cards")));
        }
        let values = columns
            .iter()
            .zip(row.iter())
            .filter_map(|(code, cell)| code.map(|c| (c, cell.trim().to_owned())))
            .collect();
        out.push(CardRow { row: u32::try_from(i + 2).unwrap_or(u32::MAX), values });
    }
    if out.is_empty() {
        return Err(TaskError::Invalid("file: no card rows under the header".into()));
    }
    Ok(out)
}

/// The header sheet of a card template as CSV (UTF-8 with a byte-order mark, so spreadsheet
/// programs read the Chinese labels right).
pub fn header_csv(fields: &BTreeMap<i64, i64>) -> Result<Vec<u8>, TaskError> {
    let mut writer = csv::Writer::from_writer(vec![0xEF, 0xBB, 0xBF]);
    writer
        .write_record(fields.keys().map(|c| card_label(*c)))
        .map_err(|e| TaskError::Invalid(format!("file: {e}")))?;
    writer.into_inner().map_err(|e| TaskError::Invalid(format!("file: {e}")))
}

/// The header sheet of a card template as an .xlsx workbook.
pub fn header_xlsx(fields: &BTreeMap<i64, i64>) -> Result<Vec<u8>, TaskError> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (col, code) in fields.keys().enumerate() {
        let col = u16::try_from(col).unwrap_or(u16::MAX);
        sheet.write_string(0, col, card_label(*code)).map_err(|e| TaskError::Invalid(format!("file: {e}")))?;
        sheet.set_column_width(col, 18).map_err(|e| TaskError::Invalid(format!("file: {e}")))?;
    }
    book.save_to_buffer().map_err(|e| TaskError::Invalid(format!("file: {e}")))
}

/// A starter template: made with the document model, no external file needed.
#[derive(Debug, Clone, PartialEq)]
pub struct Starter {
    /// Its stable key (one row per tenant and key).
    pub key: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Its kind.
    pub kind: TemplateKind,
    /// Its size category.
    pub size_category_id: i32,
    /// The document.
    pub task_info: String,
}

fn frame(name: &str, width: f64, height: f64, size_id: i32) -> Value {
    json!({"name": name, "width": width, "height": height, "ratio": width / height, "sizeId": size_id, "targetWidth": width * 2.0})
}

fn text(id: i64, content: &str, (x, y, w, h): (f64, f64, f64, f64), size: f64, max_length: i64, card: Option<i64>) -> Value {
    let mut layer = json!({
        "type": "word", "id": id, "startTime": 0, "endTime": 5, "x": x, "y": y, "z": 110 + id, "w": w, "h": h,
        "motionIn": "MOTIONIN_OPACITY", "inTime": 1, "outTime": 1, "canModify": 1,
        "content": content, "showContent": content, "color": "#ffffff", "fontSize": size, "lineHeight": 1.2,
        "textAlign": "center", "maxLength": max_length
    });
    if let (Some(code), Some(map)) = (card, layer.as_object_mut()) {
        map.insert("cardField".into(), json!(code));
    }
    layer
}

fn shape(id: i64, (x, y, w, h): (f64, f64, f64, f64), fill: &str) -> Value {
    json!({"type": "shape", "id": id, "startTime": 0, "endTime": 5, "x": x, "y": y, "z": 100 + id, "w": w, "h": h,
           "inTime": 1, "outTime": 1, "canModify": 0, "shape": "rect", "fill": fill, "borderRadius": 12})
}

fn document(frame: Value, bg: &str, layers: Vec<Value>) -> String {
    json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 25,
        "resolutionRatio": frame, "actionArrange": [], "audio": [],
        "scenes": [{"frontendId": "s0", "type": "canvas", "name": "scene 1", "effect": "", "effectTime": 1,
                    "bgColor": bg, "timeLength": 5, "audio": [], "voice": [], "videoAudios": [], "layers": layers}]
    })
    .to_string()
}

/// The `usedFor` of the hidden task whose render is a template's preview: never listed as a work.
pub const PREVIEW_USED_FOR: &str = "TEMPLATE_PREVIEW";

/// The longer side of a template's preview render, pixels: a card's preview needs no more, and a
/// small render keeps a new tenant's first previews from holding up its users' own renders.
pub const PREVIEW_LONG_SIDE: f64 = 640.0;

/// A template's document as its preview renders it: the same document drawn at most
/// [`PREVIEW_LONG_SIDE`] pixels on its longer side (never enlarged).
pub fn preview_document(task_info: &str) -> Result<String, TaskError> {
    let mut doc: Value = serde_json::from_str(task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
    let rule = Rule::parse(task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
    let (w, h) = rule.resolution_ratio.target_size();
    let long = f64::from(w.max(h));
    if long > PREVIEW_LONG_SIDE
        && let Some(ratio) = doc.get_mut("resolutionRatio").and_then(Value::as_object_mut)
    {
        let width = (f64::from(w) * PREVIEW_LONG_SIDE / long / 2.0).round() * 2.0;
        ratio.insert("targetWidth".into(), json!(width));
    }
    Ok(doc.to_string())
}

/// The starter templates seeded for every tenant: classic ones in 9:16, 16:9 and 1:1 and business
/// cards in 9:16 and 16:9, each text a slot with a maxLength (the cards' texts carry their field).
pub fn starters() -> Vec<Starter> {
    let tall = || frame("9:16", 360.0, 640.0, 50);
    let wide = || frame("16:9", 640.0, 360.0, 41);
    vec![
        Starter {
            key: "classic-9x16",
            name: "新品上市",
            kind: TemplateKind::Classic,
            size_category_id: 50,
            task_info: document(
                tall(),
                "#0f172a",
                vec![
                    shape(1, (30.0, 200.0, 300.0, 240.0), "#2563eb"),
                    text(2, "新品上市", (40.0, 230.0, 280.0, 70.0), 44.0, 8, None),
                    text(3, "限时优惠 立即抢购", (40.0, 330.0, 280.0, 50.0), 24.0, 16, None),
                ],
            ),
        },
        Starter {
            key: "classic-16x9",
            name: "企业宣传",
            kind: TemplateKind::Classic,
            size_category_id: 41,
            task_info: document(
                wide(),
                "#111827",
                vec![
                    shape(1, (60.0, 90.0, 520.0, 180.0), "#059669"),
                    text(2, "携手同行 共创未来", (80.0, 110.0, 480.0, 70.0), 40.0, 12, None),
                    text(3, "专业 · 可靠 · 创新", (80.0, 190.0, 480.0, 50.0), 24.0, 20, None),
                ],
            ),
        },
        Starter {
            key: "classic-1x1",
            name: "节日祝福",
            kind: TemplateKind::Classic,
            size_category_id: 51,
            task_info: document(
                frame("1:1", 480.0, 480.0, 51),
                "#7f1d1d",
                vec![
                    shape(1, (60.0, 140.0, 360.0, 200.0), "#dc2626"),
                    text(2, "节日快乐", (80.0, 170.0, 320.0, 80.0), 48.0, 8, None),
                    text(3, "愿你平安喜乐 万事顺意", (80.0, 260.0, 320.0, 50.0), 22.0, 16, None),
                ],
            ),
        },
        Starter {
            key: "card-9x16",
            name: "电子名片",
            kind: TemplateKind::BusinessCard,
            size_category_id: 50,
            task_info: document(
                tall(),
                "#1e293b",
                vec![
                    shape(1, (20.0, 120.0, 320.0, 400.0), "#334155"),
                    text(2, "张三", (40.0, 150.0, 280.0, 60.0), 40.0, 10, Some(1)),
                    text(3, "市场总监", (40.0, 220.0, 280.0, 40.0), 22.0, 16, Some(2)),
                    text(4, "13800000000", (40.0, 290.0, 280.0, 36.0), 20.0, 20, Some(4)),
                    text(5, "zhangsan@example.com", (40.0, 340.0, 280.0, 36.0), 18.0, 40, Some(5)),
                    text(6, "某某科技有限公司", (40.0, 420.0, 280.0, 40.0), 22.0, 24, Some(6)),
                ],
            ),
        },
        Starter {
            key: "card-16x9",
            name: "商务名片",
            kind: TemplateKind::BusinessCard,
            size_category_id: 41,
            task_info: document(
                wide(),
                "#0c4a6e",
                vec![
                    shape(1, (40.0, 40.0, 560.0, 280.0), "#075985"),
                    text(2, "李四", (60.0, 70.0, 520.0, 60.0), 40.0, 10, Some(1)),
                    text(3, "销售经理", (60.0, 140.0, 520.0, 40.0), 22.0, 16, Some(2)),
                    text(4, "13900000000", (60.0, 200.0, 520.0, 36.0), 20.0, 20, Some(4)),
                    text(5, "某某贸易有限公司", (60.0, 250.0, 520.0, 40.0), 22.0, 24, Some(6)),
                ],
            ),
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_preview_is_drawn_small_and_never_enlarged() -> Result<(), Box<dyn std::error::Error>> {
        for (starter, size) in super::starters().iter().map(|s| (s, super::preview_document(&s.task_info))).zip([(360, 640), (640, 360), (640, 640)]) {
            let rule = reelforge_timeline::Rule::parse(&starter.1?)?;
            let (w, h) = rule.resolution_ratio.target_size();
            assert_eq!((w, h), size, "{}", starter.0.name);
        }
        let small = r#"{"resolutionRatio":{"width":320,"height":180,"targetWidth":320},"scenes":[]}"#;
        let kept = reelforge_timeline::Rule::parse(&super::preview_document(small)?)?;
        assert_eq!(kept.resolution_ratio.target_size(), (320, 180));
        Ok(())
    }

    use super::*;

    fn owner() -> Owner {
        Owner { tenant: "qs".into(), user_id: "2".into() }
    }

    fn every_layer() -> Rule {
        Rule::parse(include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json")).unwrap_or_default()
    }

    #[test]
    fn slots_are_the_modifiable_layers_of_each_kind() {
        let rule = every_layer();
        let found = slots(&rule);
        let kinds: Vec<(&str, &str)> = found.iter().map(|s| (s.id.as_str(), slot_kind_name(s.kind))).collect();
        assert!(kinds.contains(&("2", "picture")), "a gif is a picture slot: {kinds:?}");
        assert!(kinds.contains(&("3", "video")), "{kinds:?}");
        assert!(kinds.contains(&("4", "text")), "{kinds:?}");
        assert!(!kinds.iter().any(|(id, _)| *id == "1" || *id == "5"), "canModify 0 is no slot: {kinds:?}");
        let counts = reelforge_timeline::layout::template_slots(&rule);
        let count = |k: SlotKind| found.iter().filter(|s| s.kind == k).count() as u32;
        assert_eq!((count(SlotKind::Text), count(SlotKind::Picture), count(SlotKind::Video)), (counts.text, counts.picture, counts.video));
        let word = found.iter().find(|s| s.id == "4");
        assert_eq!(word.map(|s| (s.content.as_str(), s.width, s.height, s.scene_index)), Some(("你好，视频彩铃", 200.0, 130.0, 0)));
    }

    #[test]
    fn fill_replaces_and_refuses_what_does_not_fit() {
        let mut rule = every_layer();
        let me = owner();
        let good = [
            Replacement { id: "4".into(), content: "新的文字".into() },
            Replacement { id: "2".into(), content: "t/qs/u/2/materials/x/original.gif".into() },
        ];
        fill(&mut rule, &good, &me).map_err(|e| e.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let after = slots(&rule);
        assert_eq!(after.iter().find(|s| s.id == "4").map(|s| s.content.as_str()), Some("新的文字"));
        assert_eq!(after.iter().find(|s| s.id == "2").map(|s| s.content.as_str()), Some("t/qs/u/2/materials/x/original.gif"));

        let unknown = fill(&mut rule, &[Replacement { id: "99".into(), content: "x".into() }], &me);
        assert!(matches!(unknown, Err(TaskError::Invalid(m)) if m.contains("`99`")));
        let foreign = fill(&mut rule, &[Replacement { id: "3".into(), content: "t/qs/u/7/materials/v/original.mp4".into() }], &me);
        assert!(matches!(foreign, Err(TaskError::Invalid(m)) if m.contains("not one of your materials")));
        let sneaky = fill(&mut rule, &[Replacement { id: "3".into(), content: "t/qs/u/22/materials/v/original.mp4".into() }], &me);
        assert!(sneaky.is_err(), "user 22 is not user 2");
    }

    #[test]
    fn a_text_over_its_max_length_is_refused() {
        let starter = starters().into_iter().find(|s| s.key == "classic-9x16").map(|s| s.task_info).unwrap_or_default();
        let mut rule = Rule::parse(&starter).unwrap_or_default();
        let slot = slots(&rule).into_iter().find(|s| s.max_length == 8).map(|s| s.id).unwrap_or_default();
        let long = fill(&mut rule, &[Replacement { id: slot.clone(), content: "一二三四五六七八九".into() }], &owner());
        assert!(matches!(long, Err(TaskError::Invalid(m)) if m.contains("longer than the slot's 8")));
        assert!(fill(&mut rule, &[Replacement { id: slot, content: "一二三四五六七八".into() }], &owner()).is_ok());
    }

    #[test]
    fn starters_are_valid_documents_covering_sizes_and_kinds() {
        let all = starters();
        for s in &all {
            crate::domain::check_rule(&s.task_info, "qs").unwrap_or_else(|e| panic!("{}: {e}", s.key));
            let rule = Rule::parse(&s.task_info).unwrap_or_default();
            assert!(!slots(&rule).is_empty(), "{} has slots", s.key);
            assert_eq!(i64::from(s.size_category_id), rule.resolution_ratio.size_id, "{}", s.key);
        }
        for size in [50, 41, 51] {
            assert!(all.iter().any(|s| s.size_category_id == size && s.kind == TemplateKind::Classic), "classic {size}");
        }
        let card = all.iter().find(|s| s.kind == TemplateKind::BusinessCard).map(|s| Rule::parse(&s.task_info).unwrap_or_default());
        let fields = card.as_ref().map(card_fields).unwrap_or_default();
        assert_eq!(fields.keys().copied().collect::<Vec<_>>(), vec![1, 2, 4, 5, 6]);
        assert_eq!(fields.get(&1), Some(&10));
    }

    #[test]
    fn card_sheets_read_headers_by_label_key_or_number() {
        let fields: BTreeMap<i64, i64> = [(1, 4), (4, 0)].into_iter().collect();
        let rows = vec![
            vec!["姓名".to_owned(), "memberPhone".to_owned()],
            vec!["王五".to_owned(), "123".to_owned()],
            vec![String::new(), String::new()],
            vec!["赵六六六六".to_owned(), String::new()],
        ];
        let cards = card_rows(&rows, &fields).unwrap_or_default();
        assert_eq!(cards.iter().map(|c| c.row).collect::<Vec<_>>(), vec![2, 4], "blank rows skipped, sheet row numbers kept");
        assert_eq!(check_card(&fields, &cards[0].values), Ok(()));
        assert_eq!(check_card(&fields, &cards[1].values), Err("姓名: 5 characters, longer than 4".to_owned()));
        let wrong = vec![vec!["姓名".to_owned(), "shoe size".to_owned()]];
        assert!(matches!(card_rows(&wrong, &fields), Err(TaskError::Invalid(m)) if m.contains("column 2")));
        let missing = vec![vec!["1".to_owned()], vec!["x".to_owned()]];
        assert!(matches!(card_rows(&missing, &fields), Err(TaskError::Invalid(m)) if m.contains("no column for 手机")));
        assert!(matches!(card_rows(&[], &fields), Err(TaskError::Invalid(m)) if m.contains("empty")));
    }

    #[test]
    fn junk_sheets_are_refused_never_a_panic() {
        // A fixed linear congruential sequence: the same junk every run, no test dependency.
        let mut seed: u64 = 0x5eed;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as u8
        };
        let fields: BTreeMap<i64, i64> = [(1, 10)].into_iter().collect();
        let mut zip_like = b"PK\x03\x04".to_vec();
        for len in [0usize, 1, 7, 64, 1000] {
            let junk: Vec<u8> = (0..len).map(|_| next()).collect();
            zip_like.extend_from_slice(&junk);
            for (format, bytes) in [(SheetFormat::Csv, &junk), (SheetFormat::Xlsx, &junk), (SheetFormat::Xlsx, &zip_like)] {
                if let Ok(rows) = read_sheet(format, bytes) {
                    // Whatever reads as rows is then judged by its headers.
                    let _ = card_rows(&rows, &fields);
                }
            }
            assert!(read_sheet(SheetFormat::Xlsx, &zip_like).is_err(), "junk after a zip signature is no workbook");
        }
        let text: String = (0..2000).map(|_| char::from(b"a,\"\n\r1 "[usize::from(next()) % 7])).collect();
        if let Ok(rows) = read_sheet(SheetFormat::Csv, text.as_bytes()) {
            let _ = card_rows(&rows, &fields);
        }
    }

    #[test]
    fn header_sheets_read_back() -> Result<(), TaskError> {
        let fields: BTreeMap<i64, i64> = [(1, 0), (6, 0)].into_iter().collect();
        let csv = read_sheet(SheetFormat::Csv, &header_csv(&fields)?)?;
        assert_eq!(csv, vec![vec!["姓名".to_owned(), "公司名称".to_owned()]]);
        let xlsx = read_sheet(SheetFormat::Xlsx, &header_xlsx(&fields)?)?;
        assert_eq!(xlsx, csv);
        assert!(matches!(read_sheet(SheetFormat::Xlsx, b"not a zip"), Err(TaskError::Invalid(m)) if m.contains("not an .xlsx")));
        assert!(matches!(read_sheet(SheetFormat::Csv, &[0xff, 0xfe, 0x00]), Err(TaskError::Invalid(m)) if m.contains("UTF-8")));
        assert!(SheetFormat::of_name("cards.xls").is_err());
        Ok(())
    }

    /// A workbook calamine reads is still refused when its package goes beyond the limits: too
    /// many entries, a part that expands past the budget (a zip bomb), XML nested too deep.
    #[test]
    fn workbooks_beyond_the_limits_are_refused() -> Result<(), Box<dyn std::error::Error>> {
        use std::io::{Read, Write};
        let fields: BTreeMap<i64, i64> = [(1, 0)].into_iter().collect();
        let good = header_xlsx(&fields)?;
        assert!(read_sheet(SheetFormat::Xlsx, &good).is_ok());
        type Extra<'a> = &'a dyn Fn(&mut zip::ZipWriter<Cursor<Vec<u8>>>) -> zip::result::ZipResult<()>;
        let repack = |extra: Extra| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
            let mut from = zip::ZipArchive::new(Cursor::new(good.clone()))?;
            let mut to = zip::ZipWriter::new(Cursor::new(Vec::new()));
            let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            for i in 0..from.len() {
                let mut entry = from.by_index(i)?;
                let mut data = Vec::new();
                entry.read_to_end(&mut data)?;
                to.start_file(entry.name()?.into_owned(), options)?;
                to.write_all(&data)?;
            }
            extra(&mut to)?;
            Ok(to.finish()?.into_inner())
        };
        let deflated = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        let many = repack(&|z| {
            for i in 0..1000 {
                z.start_file(format!("xl/extra/{i}.bin"), deflated)?;
                z.write_all(b"x")?;
            }
            Ok(())
        })?;
        let bomb = repack(&|z| {
            z.start_file("xl/media/image1.png", deflated)?;
            let zeros = vec![0u8; 1 << 20];
            (0..60).try_for_each(|_| z.write_all(&zeros))?;
            Ok(())
        })?;
        let deep = repack(&|z| {
            z.start_file("xl/drawings/drawing1.xml", deflated)?;
            z.write_all(format!("{}{}", "<a>".repeat(200), "</a>".repeat(200)).as_bytes())?;
            Ok(())
        })?;
        assert!(bomb.len() < MAX_SHEET_BYTES, "the bomb is small: {} bytes", bomb.len());
        for (bytes, says) in [(&many, "more than 1000 entries"), (&bomb, "expands to more than 50 MB"), (&deep, "deeper than 128")] {
            let calamine_reads = calamine::open_workbook_from_rs::<calamine::Xlsx<_>, _>(Cursor::new(bytes.clone())).is_ok();
            assert!(calamine_reads, "calamine alone takes it ({says})");
            assert!(matches!(read_sheet(SheetFormat::Xlsx, bytes), Err(TaskError::Invalid(m)) if m.contains(says)), "{says}");
        }
        Ok(())
    }
}
