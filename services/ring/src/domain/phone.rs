//! Mainland mobile numbers: the only numbers a video ringtone can be set for.

use super::RingError;

/// A checked mainland mobile number: 11 digits, `1`, then `3`–`9`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    /// Parses what a user typed: spaces, dashes and a `+86`/`86` country prefix are dropped.
    pub fn parse(input: &str) -> Result<Self, RingError> {
        let compact: String = input
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        let national = compact
            .strip_prefix("+86")
            .or_else(|| compact.strip_prefix("0086"))
            .or_else(|| compact.strip_prefix("86").filter(|rest| rest.len() == 11))
            .unwrap_or(&compact);
        let b = national.as_bytes();
        let valid = b.len() == 11
            && b[0] == b'1'
            && (b'3'..=b'9').contains(&b[1])
            && b.iter().all(u8::is_ascii_digit);
        if valid {
            Ok(Self(national.to_owned()))
        } else {
            Err(RingError::PhoneInvalid)
        }
    }

    /// The 11 digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as lists show it: `138****8000`.
    pub fn masked(&self) -> String {
        mask(&self.0)
    }
}

/// Masks the middle four digits of an 11-digit number; anything else is shown as stars.
pub fn mask(phone: &str) -> String {
    match (phone.get(..3), phone.get(7..)) {
        (Some(head), Some(tail)) if phone.len() == 11 && phone.is_ascii() => {
            format!("{head}****{tail}")
        }
        _ => "*".repeat(phone.chars().count().min(11)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mainland_mobiles_only() {
        for ok in [
            "13800138000",
            "138 0013 8000",
            "+86 138-0013-8000",
            "8619912345678",
            "0086 15000000000",
        ] {
            assert!(Phone::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "12800138000",
            "1380013800",
            "138001380000",
            "1380013800a",
            "+1 13800138000",
            "010-12345678",
            "１３８００１３８０００",
        ] {
            assert!(
                matches!(Phone::parse(bad), Err(RingError::PhoneInvalid)),
                "{bad}"
            );
        }
        assert_eq!(
            Phone::parse("+86 138 0013 8000")
                .map(|p| p.as_str().to_owned())
                .ok()
                .as_deref(),
            Some("13800138000")
        );
    }

    #[test]
    fn masking() {
        assert_eq!(mask("13800138000"), "138****8000");
        assert_eq!(mask("123"), "***");
    }
}
