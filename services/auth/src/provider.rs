//! Service-provider applications (issues 29 and 30): a user asks to become a SERVICE_PROVIDER of
//! their tenant (the qs portal's `service/emplacement`); the tenant's template managers approve or
//! reject it with a reason the applicant sees (`check-service`). An approved application is what
//! makes a user a provider. The rules of the form and of a decision live here; `store::provider`
//! holds the rows.

use crate::domain::AuthError;

/// Longest company or studio name, in characters.
pub const NAME_MAX: usize = 40;
/// Longest contact, in characters.
pub const CONTACT_MAX: usize = 60;
/// Longest introduction, in characters.
pub const INTRO_MAX: usize = 500;
/// Longest rejection reason, in characters.
pub const REASON_MAX: usize = 200;

/// Where an application stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplicationState {
    /// Waiting for a template manager.
    Pending,
    /// The applicant is a service provider.
    Approved,
    /// Refused, with a reason.
    Rejected,
}

impl ApplicationState {
    /// Every state, in the order the review tabs show them.
    pub const ALL: [Self; 3] = [Self::Pending, Self::Approved, Self::Rejected];

    /// The state's name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }

    /// Reads a state; the message names the field and the states there are.
    pub fn parse(text: &str) -> Result<Self, AuthError> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| AuthError::Invalid(format!("state: `{text}` is not pending, approved or rejected")))
    }
}

/// What an applicant sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplicationInput {
    /// The company or studio offering services.
    pub name: String,
    /// How users and managers reach them (a phone number, a mail address).
    pub contact: String,
    /// What they make, for whom, and samples of earlier work.
    pub intro: String,
}

fn within(field: &str, value: &str, max: usize) -> Result<(), AuthError> {
    if value.is_empty() {
        return Err(AuthError::Invalid(format!("{field}: required")));
    }
    if value.chars().count() > max {
        return Err(AuthError::Invalid(format!("{field}: at most {max} characters")));
    }
    Ok(())
}

impl ApplicationInput {
    /// Trims each field and checks it; the message names the field that is wrong.
    pub fn checked(self) -> Result<Self, AuthError> {
        let out = Self { name: self.name.trim().to_owned(), contact: self.contact.trim().to_owned(), intro: self.intro.trim().to_owned() };
        within("name", &out.name, NAME_MAX)?;
        within("contact", &out.contact, CONTACT_MAX)?;
        within("intro", &out.intro, INTRO_MAX)?;
        Ok(out)
    }
}

/// One application as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application {
    pub id: i64,
    /// The applicant's user id.
    pub user_id: String,
    pub name: String,
    pub contact: String,
    pub intro: String,
    pub state: ApplicationState,
    /// Why it was rejected ('' otherwise).
    pub reason: String,
    /// The manager who decided ('' while pending).
    pub reviewed_by: String,
    pub created_ms: i64,
    /// When it was decided (0 while pending).
    pub reviewed_ms: i64,
}

/// A manager's decision, checked: a rejection needs a reason.
pub fn decision(approve: bool, reason: &str) -> Result<(ApplicationState, String), AuthError> {
    let reason = reason.trim();
    if approve {
        return Ok((ApplicationState::Approved, String::new()));
    }
    within("reason", reason, REASON_MAX).map_err(|_| AuthError::Invalid(format!("reason: a rejection needs a reason of 1–{REASON_MAX} characters")))?;
    Ok((ApplicationState::Rejected, reason.to_owned()))
}

/// Refuses a decision on an application that is no longer pending, naming its state.
pub fn check_pending(a: &Application) -> Result<(), AuthError> {
    if a.state == ApplicationState::Pending {
        Ok(())
    } else {
        Err(AuthError::Invalid(format!("id: application {} was already {}", a.id, a.state.name())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, contact: &str, intro: &str) -> ApplicationInput {
        ApplicationInput { name: name.into(), contact: contact.into(), intro: intro.into() }
    }

    fn refusal<T: std::fmt::Debug>(r: Result<T, AuthError>) -> String {
        match r {
            Err(AuthError::Invalid(m)) => m,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn an_application_is_trimmed_and_each_bad_field_named() -> Result<(), AuthError> {
        assert_eq!(input(" 光影工作室 ", " 13800138000 ", " 婚礼与企业宣传片 ").checked()?, input("光影工作室", "13800138000", "婚礼与企业宣传片"));
        assert_eq!(refusal(input(" ", "x", "y").checked()), "name: required");
        assert_eq!(refusal(input("n", "", "y").checked()), "contact: required");
        assert_eq!(refusal(input("n", "c", &"长".repeat(INTRO_MAX + 1)).checked()), "intro: at most 500 characters");
        assert_eq!(refusal(input(&"n".repeat(NAME_MAX + 1), "c", "i").checked()), "name: at most 40 characters");
        Ok(())
    }

    #[test]
    fn a_rejection_needs_a_reason_and_only_pending_ones_are_decided() -> Result<(), AuthError> {
        assert_eq!(decision(true, "ignored")?, (ApplicationState::Approved, String::new()));
        assert_eq!(decision(false, " 样片不足 ")?, (ApplicationState::Rejected, "样片不足".to_owned()));
        assert!(refusal(decision(false, "  ")).starts_with("reason:"));
        let mut a = Application {
            id: 7,
            user_id: "u".into(),
            name: "n".into(),
            contact: "c".into(),
            intro: "i".into(),
            state: ApplicationState::Pending,
            reason: String::new(),
            reviewed_by: String::new(),
            created_ms: 0,
            reviewed_ms: 0,
        };
        assert!(check_pending(&a).is_ok());
        a.state = ApplicationState::Approved;
        assert_eq!(refusal(check_pending(&a)), "id: application 7 was already approved");
        assert_eq!(refusal(ApplicationState::parse("done")), "state: `done` is not pending, approved or rejected");
        Ok(())
    }
}
