//! Contests (issue 30): a template manager opens a contest of the tenant (theme, dates, rules, how it
//! is ranked, a template to start from); users enter one rendered work each while it is open, like
//! each other's entries (one like per user per entry); after the close the result ranks the entries
//! by likes or by the judges' scores. The rules live here; `store::contest` holds the rows.

use crate::domain::TaskError;

/// Longest title, in characters.
pub const TITLE_MAX: usize = 40;
/// Longest theme, in characters.
pub const THEME_MAX: usize = 500;
/// Longest rules, in characters.
pub const RULES_MAX: usize = 2000;
/// The highest score a judge gives.
pub const SCORE_MAX: i32 = 100;

/// How a contest's entries are ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// By signed-in users' likes.
    Likes,
    /// By the judges' scores, entered in the manage area.
    Scores,
}

impl Ranking {
    /// Its name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Likes => "likes",
            Self::Scores => "scores",
        }
    }

    /// Reads a ranking; the message names the field.
    pub fn parse(text: &str) -> Result<Self, TaskError> {
        match text.trim() {
            "likes" => Ok(Self::Likes),
            "scores" => Ok(Self::Scores),
            other => Err(TaskError::Invalid(format!("ranking: `{other}` is not likes or scores"))),
        }
    }
}

/// Where a contest stands by the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContestState {
    /// Before its start: no entries yet.
    Upcoming,
    /// Taking entries and likes.
    Open,
    /// Ended: the result is out.
    Closed,
}

impl ContestState {
    /// Its name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Self::Upcoming => "upcoming",
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }
}

/// One contest as stored, with how many entries it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contest {
    pub id: i64,
    pub title: String,
    pub theme: String,
    pub rules: String,
    /// Opens, ms since the epoch.
    pub start_ms: i64,
    /// Closes, ms since the epoch.
    pub end_ms: i64,
    pub ranking: Ranking,
    /// The template to start from (0: none).
    pub template_id: i64,
    pub entry_count: i64,
}

impl Contest {
    /// Where the contest stands at `now_ms`.
    pub fn state(&self, now_ms: i64) -> ContestState {
        if now_ms < self.start_ms {
            ContestState::Upcoming
        } else if now_ms < self.end_ms {
            ContestState::Open
        } else {
            ContestState::Closed
        }
    }

    /// Refuses an entry, a withdrawal or a like unless the contest is open at `now_ms`; `field` is
    /// the call's field the message names, `what` what ended at the close.
    pub fn require_open(&self, now_ms: i64, field: &str, what: &str) -> Result<(), TaskError> {
        match self.state(now_ms) {
            ContestState::Open => Ok(()),
            ContestState::Upcoming => Err(TaskError::Invalid(format!("{field}: contest {} is not open yet: it opens at {}", self.id, clock(self.start_ms)))),
            ContestState::Closed => Err(TaskError::Invalid(format!("{field}: contest {} is closed: {what} ended at {}", self.id, clock(self.end_ms)))),
        }
    }
}

/// A contest as a manager saves it (`id` 0: a new one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContestInput {
    pub id: i64,
    pub title: String,
    pub theme: String,
    pub rules: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub ranking: String,
    pub template_id: i64,
}

/// The checked fields of a save: trimmed texts within their lengths, an end after the start.
pub fn check_input(input: &ContestInput) -> Result<(String, String, String, Ranking), TaskError> {
    let invalid = |why: String| TaskError::Invalid(why);
    let title = input.title.trim();
    if title.is_empty() {
        return Err(invalid("title: required".into()));
    }
    for (field, text, max) in [("title", title, TITLE_MAX), ("theme", input.theme.trim(), THEME_MAX), ("rules", input.rules.trim(), RULES_MAX)] {
        if text.chars().count() > max {
            return Err(invalid(format!("{field}: at most {max} characters")));
        }
    }
    if input.start_ms <= 0 {
        return Err(invalid("startMs: required".into()));
    }
    if input.end_ms <= input.start_ms {
        return Err(invalid("endMs: the end must be after the start".into()));
    }
    if input.template_id < 0 {
        return Err(invalid(format!("templateId: template {} does not exist", input.template_id)));
    }
    let ranking = Ranking::parse(&input.ranking)?;
    Ok((title.to_owned(), input.theme.trim().to_owned(), input.rules.trim().to_owned(), ranking))
}

/// Checks a judge's score.
pub fn check_score(score: i32) -> Result<i32, TaskError> {
    if (0..=SCORE_MAX).contains(&score) {
        Ok(score)
    } else {
        Err(TaskError::Invalid(format!("score: {score} is out of range 0–{SCORE_MAX}")))
    }
}

/// One entry with what a viewer sees of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    pub contest_id: i64,
    pub task_id: i64,
    pub task_name: String,
    pub submitted_ms: i64,
    pub likes: i64,
    /// The viewer liked it.
    pub liked: bool,
    /// The judges' score (scores contests).
    pub score: Option<i32>,
    /// Its place once the contest is closed (ties share one).
    pub rank: Option<u32>,
    /// The viewer's own entry.
    pub mine: bool,
    /// Storage keys of the work's video and cover ("" when it has none).
    pub video_key: String,
    pub cover_key: String,
}

/// Orders entries for a viewer: a closed contest's by its ranking, each with its place (ties share
/// one, the earlier entry first; an entry without a score has none and comes last); otherwise the
/// newest first, unranked.
pub fn arrange(entries: &mut [Entry], ranking: Ranking, state: ContestState) {
    if state != ContestState::Closed {
        entries.sort_by(|a, b| b.submitted_ms.cmp(&a.submitted_ms).then(b.id.cmp(&a.id)));
        entries.iter_mut().for_each(|e| e.rank = None);
        return;
    }
    let measure = |e: &Entry| match ranking {
        Ranking::Likes => Some(e.likes),
        Ranking::Scores => e.score.map(i64::from),
    };
    entries.sort_by(|a, b| measure(b).cmp(&measure(a)).then(a.submitted_ms.cmp(&b.submitted_ms)).then(a.id.cmp(&b.id)));
    let mut previous: Option<(i64, u32)> = None;
    for (i, e) in entries.iter_mut().enumerate() {
        e.rank = measure(e).map(|m| match previous {
            Some((p, rank)) if p == m => rank,
            _ => {
                let rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
                previous = Some((m, rank));
                rank
            }
        });
    }
}

/// A time as the messages write it (the server's local time).
pub fn clock(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i64, likes: i64, score: Option<i32>, submitted_ms: i64) -> Entry {
        Entry {
            id,
            contest_id: 1,
            task_id: id,
            task_name: String::new(),
            submitted_ms,
            likes,
            liked: false,
            score,
            rank: None,
            mine: false,
            video_key: String::new(),
            cover_key: String::new(),
        }
    }

    fn places(entries: &[Entry]) -> Vec<(i64, Option<u32>)> {
        entries.iter().map(|e| (e.id, e.rank)).collect()
    }

    #[test]
    fn a_closed_contest_ranks_by_likes_ties_sharing_a_place() {
        let mut entries = vec![entry(1, 2, None, 10), entry(2, 5, None, 20), entry(3, 2, None, 5), entry(4, 0, None, 1)];
        arrange(&mut entries, Ranking::Likes, ContestState::Closed);
        assert_eq!(places(&entries), vec![(2, Some(1)), (3, Some(2)), (1, Some(2)), (4, Some(4))]);
    }

    #[test]
    fn scores_rank_the_scored_and_leave_the_rest_unplaced() {
        let mut entries = vec![entry(1, 9, None, 10), entry(2, 0, Some(80), 20), entry(3, 0, Some(95), 30)];
        arrange(&mut entries, Ranking::Scores, ContestState::Closed);
        assert_eq!(places(&entries), vec![(3, Some(1)), (2, Some(2)), (1, None)]);
    }

    #[test]
    fn an_open_contest_shows_the_newest_first_unranked() {
        let mut entries = vec![entry(1, 9, None, 10), entry(2, 0, None, 30), entry(3, 4, None, 20)];
        arrange(&mut entries, Ranking::Likes, ContestState::Open);
        assert_eq!(places(&entries), vec![(2, None), (3, None), (1, None)]);
    }

    #[test]
    fn a_save_is_checked_field_by_field() {
        let ok = ContestInput { title: " 春节拜年 ".into(), start_ms: 1_000, end_ms: 2_000, ranking: "likes".into(), ..Default::default() };
        assert_eq!(check_input(&ok).ok().map(|c| c.0), Some("春节拜年".to_owned()));
        let message = |i: ContestInput| check_input(&i).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(message(ContestInput { title: " ".into(), ..ok.clone() }), "title: required");
        assert_eq!(message(ContestInput { title: "字".repeat(41), ..ok.clone() }), "title: at most 40 characters");
        assert_eq!(message(ContestInput { end_ms: 1_000, ..ok.clone() }), "endMs: the end must be after the start");
        assert_eq!(message(ContestInput { ranking: "votes".into(), ..ok.clone() }), "ranking: `votes` is not likes or scores");
        assert_eq!(message(ContestInput { rules: "x".repeat(2001), ..ok }), "rules: at most 2000 characters");
        assert!(check_score(101).is_err() && check_score(-1).is_err() && check_score(100).is_ok());
    }

    #[test]
    fn only_an_open_contest_takes_entries() {
        let c = Contest { id: 7, title: "t".into(), theme: String::new(), rules: String::new(), start_ms: 1_000, end_ms: 2_000, ranking: Ranking::Likes, template_id: 0, entry_count: 0 };
        assert_eq!(c.state(999), ContestState::Upcoming);
        assert!(c.require_open(1_500, "contestId", "entries").is_ok());
        let closed = c.require_open(2_000, "contestId", "entries").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(closed.starts_with("contestId: contest 7 is closed: entries ended at "), "{closed}");
        let early = c.require_open(0, "contestId", "entries").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(early.starts_with("contestId: contest 7 is not open yet: it opens at "), "{early}");
    }
}
