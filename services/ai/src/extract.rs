//! The local title and summary: extractive, not generative. The text is cut into sentences, each
//! sentence into words (jieba, stop words dropped), and the sentences are ranked by TextRank (a
//! sentence is central when it shares words with other central sentences). The title is the most
//! central sentence, shortened at a clause; the summary the most central third (at most five) in the
//! text's order. Nothing is written that the text does not say.

use std::collections::{BTreeSet, HashSet};

/// The abilities served by this module when their provider is `local`.
pub const ABILITIES: &[&str] = &["title-generation", "dialogue-summary"];

/// The name answered as the "model" of an extractive result.
pub const METHOD: &str = "local-extractive (TextRank over sentences)";

/// The longest title, in characters.
pub const TITLE_CHARS: usize = 30;

/// The most sentences a summary keeps.
const SUMMARY_SENTENCES: usize = 5;

/// TextRank's damping factor and rounds (the scores settle well within them for a few dozen sentences).
const DAMPING: f64 = 0.85;
const ROUNDS: usize = 40;

/// What ends a sentence; a full stop only before white space, a closing quote or the end (not in 3.5 or a.b).
fn ends_sentence(c: char, next: Option<char>) -> bool {
    matches!(c, '。' | '！' | '？' | '!' | '?' | '；' | ';' | '…' | '\n')
        || (c == '.' && next.is_none_or(|n| n.is_whitespace() || matches!(n, '"' | '\'' | ')' | '”')))
}

/// The text's sentences, trimmed, in order; closing quotes stay with their sentence.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        if ends_sentence(c, chars.peek().copied()) {
            while let Some(&q) = chars.peek().filter(|q| matches!(q, '”' | '」' | '』' | '"' | '\'' | ')' | '）' | '。' | '！' | '？' | '!' | '?')) {
                current.push(q);
                chars.next();
            }
            push_sentence(&mut out, &mut current);
        }
    }
    push_sentence(&mut out, &mut current);
    out
}

fn push_sentence(out: &mut Vec<String>, current: &mut String) {
    let s = current.trim();
    if s.chars().any(char::is_alphanumeric) {
        out.push(s.to_owned());
    }
    current.clear();
}

/// The words of a sentence that carry meaning: at least two characters, or one CJK character,
/// lower-cased, stop words left out.
fn words(sentence: &str, stop: &BTreeSet<String>) -> HashSet<String> {
    let (jieba, _) = crate::abilities::engine();
    jieba
        .cut(sentence, true)
        .into_iter()
        .map(|t| t.word.trim().to_lowercase())
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .filter(|w| w.chars().count() >= 2 || w.chars().any(|c| c > '\u{2e80}'))
        .filter(|w| !stop.contains(w))
        .collect()
}

/// The TextRank score of each sentence (summing to about the count); sentences sharing no word with
/// any other keep the base score.
pub fn rank(sentences: &[String]) -> Vec<f64> {
    let (_, tfidf) = crate::abilities::engine();
    let stop = tfidf.config().stop_words();
    let bags: Vec<HashSet<String>> = sentences.iter().map(|s| words(s, stop)).collect();
    let n = bags.len();
    // The similarity of two sentences: shared words over the logs of their lengths (Mihalcea and Tarau).
    let mut weight = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in (i + 1)..n {
            let shared = bags[i].intersection(&bags[j]).count() as f64;
            let norm = ((bags[i].len() as f64).ln_1p() + (bags[j].len() as f64).ln_1p()).max(f64::EPSILON);
            weight[i][j] = shared / norm;
            weight[j][i] = weight[i][j];
        }
    }
    let out_sum: Vec<f64> = weight.iter().map(|row| row.iter().sum()).collect();
    let mut score = vec![1.0; n];
    for _ in 0..ROUNDS {
        score = (0..n)
            .map(|i| {
                let inflow: f64 = (0..n).filter(|&j| out_sum[j] > 0.0).map(|j| weight[j][i] / out_sum[j] * score[j]).sum();
                (1.0 - DAMPING) + DAMPING * inflow
            })
            .collect();
    }
    score
}

/// The indices of the `k` best-ranked sentences, earlier ones first among equals.
fn best(score: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..score.len()).collect();
    order.sort_by(|&a, &b| score[b].total_cmp(&score[a]).then(a.cmp(&b)));
    order.truncate(k);
    order
}

/// The title of a text: its most central sentence without its closing punctuation, cut at the last
/// clause break within [`TITLE_CHARS`] when longer (or at the limit when it has none).
pub fn title(text: &str) -> String {
    let all = sentences(text);
    let Some(&top) = best(&rank(&all), 1).first() else { return String::new() };
    let s = all[top].trim_end_matches(|c: char| !c.is_alphanumeric());
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= TITLE_CHARS {
        return s.to_owned();
    }
    let head = &chars[..TITLE_CHARS];
    let cut = head.iter().rposition(|c| matches!(c, '，' | ',' | '、' | '：' | ':' | ' ')).filter(|&i| i >= TITLE_CHARS / 3).unwrap_or(TITLE_CHARS);
    head[..cut].iter().collect::<String>().trim_end_matches(|c: char| !c.is_alphanumeric()).to_owned()
}

/// The summary of a text: its most central third of sentences (one at least, five at most) in the
/// order the text has them.
pub fn summary(text: &str) -> String {
    let all = sentences(text);
    let k = all.len().div_ceil(3).clamp(1, SUMMARY_SENTENCES);
    let mut keep = best(&rank(&all), k);
    keep.sort_unstable();
    let picked: Vec<&str> = keep.iter().map(|&i| all[i].as_str()).collect();
    // Chinese sentences end in their own marks and join without a space; others take one.
    let cjk = picked.iter().any(|s| s.chars().any(|c| c > '\u{2e80}'));
    picked.join(if cjk { "" } else { " " })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEWS: &str = "视频彩铃让来电变成一段短视频。用户可以在编辑器里制作自己的视频彩铃，并设置给自己的手机号码。\
        今天天气晴朗。运营商审核视频彩铃后，来电时对方就能看到这段视频彩铃。午饭吃了面条。";

    #[test]
    fn sentences_end_at_their_marks_but_not_inside_numbers() {
        assert_eq!(sentences("版本 3.5 已发布！真的吗？是的。"), ["版本 3.5 已发布！", "真的吗？", "是的。"]);
        assert_eq!(sentences("He said \"yes.\" Then he left.\nok"), ["He said \"yes.\"", "Then he left.", "ok"]);
        assert!(sentences("。。！ \n").is_empty());
    }

    #[test]
    fn the_title_is_the_sentence_the_others_share_most_words_with() {
        let t = title(NEWS);
        assert!(t.contains("视频彩铃"), "{t}");
        assert!(!t.contains("天气") && !t.contains("面条"), "{t}");
        assert!(t.chars().count() <= TITLE_CHARS, "{t}");
        assert!(!t.ends_with('。'), "{t}");
    }

    #[test]
    fn a_long_sentence_is_cut_at_a_clause_within_the_limit() {
        let t = title("这是一个非常非常长的句子用来测试标题的长度限制，它在逗号后面还有很多很多很多的内容需要被截掉才行。");
        assert_eq!(t, "这是一个非常非常长的句子用来测试标题的长度限制");
    }

    #[test]
    fn the_summary_keeps_the_central_third_in_the_texts_order() {
        let s = summary(NEWS);
        assert!(s.contains("视频彩铃"), "{s}");
        assert!(!s.contains("天气") && !s.contains("面条"), "{s}");
        let parts = sentences(&s);
        assert_eq!(parts.len(), 2, "{s}");
        let at = |p: &str| NEWS.find(p).unwrap_or(usize::MAX);
        assert!(at(&parts[0]) < at(&parts[1]), "{s}");
    }

    #[test]
    fn english_sentences_join_with_a_space() {
        let text = "Ringtones loop while the phone rings. The loop seam of a ringtone is measured. Lunch was noodles.";
        let s = summary(text);
        assert!(s.contains("ringtone") || s.contains("Ringtones"), "{s}");
        assert!(!s.contains("noodles"), "{s}");
    }
}
