//! Enterprises (issue 30, the enterprise workspace `/yqx`): a company account inside a tenant. An
//! administrator (operator level 0) creates it and adds members; a member whose operator level is
//! enterprise administrator (2) adds and removes members of their own enterprise and takes any share
//! out. Members share their rendered works and their materials with it, and copy shared works into
//! their own. The rules live here; `store::enterprise` holds the rows.

use reelforge_kit::identity::OperatorLevel;

use crate::domain::{Owner, TaskError};

/// Longest enterprise name, in characters.
pub const NAME_MAX: usize = 40;

/// Who acts: the verified caller and their operator level.
#[derive(Debug, Clone)]
pub struct Actor {
    pub owner: Owner,
    pub level: Option<OperatorLevel>,
}

impl Actor {
    /// An administrator (operator level 0): manages every enterprise of the tenant.
    pub fn is_manager(&self) -> bool {
        self.level == Some(OperatorLevel::Admin)
    }

    /// An enterprise administrator (operator level 2): manages the enterprise they are a member of.
    pub fn is_enterprise_admin(&self) -> bool {
        self.level == Some(OperatorLevel::EnterpriseAdmin)
    }

    /// Refuses anybody but an administrator.
    pub fn require_manager(&self) -> Result<(), TaskError> {
        if self.is_manager() { Ok(()) } else { Err(TaskError::Forbidden("administrator (operator level 0)")) }
    }
}

/// What a share holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareKind {
    /// A rendered work (a task with a video).
    Work,
    /// One of the member's materials.
    Material,
}

impl ShareKind {
    /// The kind's name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Work => "work",
            Self::Material => "material",
        }
    }

    /// Reads a kind; the message names the field and the kinds there are.
    pub fn parse(text: &str) -> Result<Self, TaskError> {
        match text.trim() {
            "work" => Ok(Self::Work),
            "material" => Ok(Self::Material),
            other => Err(TaskError::Invalid(format!("kind: `{other}` is not work or material"))),
        }
    }
}

/// An enterprise as a list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enterprise {
    pub id: i64,
    pub name: String,
    pub created_ms: i64,
    pub member_count: i64,
    /// Its members, for an administrator's views only.
    pub members: Vec<Member>,
}

/// A member of an enterprise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub enterprise_id: i64,
    pub user_id: String,
    /// Who added them.
    pub added_by: String,
    pub added_ms: i64,
}

/// A work or material shared with an enterprise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub id: i64,
    pub kind: ShareKind,
    /// The task id, or the material id.
    pub item_id: String,
    pub name: String,
    /// A work: `video`; a material: its type (video, picture, audio, gif).
    pub media_kind: String,
    pub shared_by: String,
    pub shared_ms: i64,
    /// The viewer shared it.
    pub mine: bool,
    pub video_key: String,
    pub cover_key: String,
}

/// The enterprise workspace as one member sees it.
#[derive(Debug, Clone, Default)]
pub struct Space {
    /// None: the viewer is in no enterprise.
    pub enterprise: Option<Enterprise>,
    /// The viewer is an enterprise administrator of it.
    pub admin: bool,
    /// The newest first.
    pub shares: Vec<Share>,
}

/// A user of a tenant as the directory (the auth service) knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// Their account.
    pub user_id: String,
    pub disabled: bool,
}

/// Who the users of a tenant are, as the auth service knows them.
#[async_trait::async_trait]
pub trait Directory: Send + Sync {
    /// The user of `tenant` that `named` names by account or mobile number, if any.
    async fn user_of(&self, tenant: &str, named: &str) -> Result<Option<Person>, TaskError>;
}

/// A task service that cannot ask: nobody is known, so no member can be added.
pub struct NoDirectory;

#[async_trait::async_trait]
impl Directory for NoDirectory {
    async fn user_of(&self, _tenant: &str, _named: &str) -> Result<Option<Person>, TaskError> {
        Ok(None)
    }
}

/// One of a member's own materials, as sharing it records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnMaterial {
    pub id: String,
    pub name: String,
    /// Its type: video, picture, audio, gif.
    pub kind: String,
    /// The original's key and the cover's key.
    pub video_key: String,
    pub cover_key: String,
}

/// The name of a save, trimmed; refused empty or longer than [`NAME_MAX`].
pub fn check_name(name: &str) -> Result<String, TaskError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(TaskError::Invalid("name: required".into()));
    }
    if name.chars().count() > NAME_MAX {
        return Err(TaskError::Invalid(format!("name: at most {NAME_MAX} characters")));
    }
    Ok(name.to_owned())
}

/// A task id from a share's item id; the message names the field.
pub fn work_id(item_id: &str) -> Result<i64, TaskError> {
    item_id.trim().parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| TaskError::Invalid(format!("itemId: `{item_id}` is not a task id")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert!(matches!(check_name("  测试企业 "), Ok(n) if n == "测试企业"));
        assert!(matches!(check_name("   "), Err(TaskError::Invalid(m)) if m == "name: required"));
        assert!(check_name(&"企".repeat(NAME_MAX)).is_ok());
        assert!(matches!(check_name(&"企".repeat(NAME_MAX + 1)), Err(TaskError::Invalid(m)) if m.starts_with("name:")));
    }

    #[test]
    fn kinds_and_work_ids_name_their_field() {
        assert!(matches!(ShareKind::parse(" work"), Ok(ShareKind::Work)));
        assert!(matches!(ShareKind::parse("material"), Ok(k) if k.name() == "material"));
        assert!(matches!(ShareKind::parse("song"), Err(TaskError::Invalid(m)) if m.starts_with("kind:")));
        assert!(matches!(work_id(" 42 "), Ok(42)));
        assert!(matches!(work_id("abc"), Err(TaskError::Invalid(m)) if m.starts_with("itemId:")));
        assert!(work_id("0").is_err());
    }

    #[test]
    fn only_level_zero_manages_enterprises() {
        let owner = Owner { tenant: "qs".into(), user_id: "a@example.com".into() };
        let admin = Actor { owner: owner.clone(), level: Some(OperatorLevel::Admin) };
        let boss = Actor { owner, level: Some(OperatorLevel::EnterpriseAdmin) };
        assert!(admin.require_manager().is_ok() && !admin.is_enterprise_admin());
        assert!(matches!(boss.require_manager(), Err(TaskError::Forbidden(_))) && boss.is_enterprise_admin());
    }
}
