//! Whether any of some terminals may match at the start of a text, read a byte at a time.
//!
//! The splitters of this crate try a few patterns and say "only the grammar can tell" where
//! none matches; which texts no envelope at all can start is asked here, of the grammar's own
//! terminals, so that no list of their first characters is written by hand. The terminals are
//! narrowed for Rust (`grammar::narrowed`): on ASCII they match as Python's do; a letter, digit
//! or space beyond ASCII, which Python's classes may read otherwise, makes the answer unknown.

use regex_automata::dfa::{dense, Automaton};
use regex_automata::util::primitives::StateID;
use regex_automata::{Anchored, Input};

/// What the terminals make of a text's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// None of them matches at the start.
    Nothing,
    /// One of them matches a prefix of the text.
    Match,
    /// A character was met where Python's patterns and Rust's may differ.
    Unknown,
}

/// Terminals compiled into one anchored DFA.
#[derive(Clone, Debug)]
pub struct Terminals {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

impl Terminals {
    /// `patterns`: Rust patterns (narrowed terminals). Panics when one does not compile: the
    /// crate is built with its grammar, and the tests build every set used.
    pub fn new(patterns: &[String]) -> Terminals {
        let dfa = dense::Builder::new()
            .configure(dense::Config::new().start_kind(regex_automata::dfa::StartKind::Anchored))
            .build_many(patterns)
            .expect("the terminals compile into a DFA");
        let start = dfa
            .start_state_forward(&Input::new("").anchored(Anchored::Yes))
            .expect("an anchored start state");
        Terminals { dfa, start }
    }

    /// What the terminals make of `text`'s start.
    pub fn reach(&self, text: &str) -> Reach {
        let dfa = &self.dfa;
        let mut state = self.start;
        for character in text.chars() {
            if !character.is_ascii() && (character.is_alphanumeric() || character.is_whitespace()) {
                return Reach::Unknown;
            }
            let mut buffer = [0; 4];
            for &byte in character.encode_utf8(&mut buffer).as_bytes() {
                state = dfa.next_state(state, byte);
                if dfa.is_match_state(state) {
                    return Reach::Match;
                }
                if dfa.is_dead_state(state) {
                    return Reach::Nothing;
                }
            }
        }
        if dfa.is_match_state(dfa.next_eoi_state(state)) {
            Reach::Match
        } else {
            Reach::Nothing
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terminals(patterns: &[&str]) -> Terminals {
        Terminals::new(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_prefix_matches_a_dead_end_does_not() {
        let tags = terminals(&[r"\[[VI]\] ?", r"\[(TRT|TRT-LLM)\] ?"]);
        assert_eq!(tags.reach("[V] text"), Reach::Match);
        assert_eq!(tags.reach("[V]"), Reach::Match);
        assert_eq!(tags.reach("[TRT-LLM] x"), Reach::Match);
        assert_eq!(tags.reach("[TR"), Reach::Nothing);
        assert_eq!(tags.reach("[Q] text"), Reach::Nothing);
        assert_eq!(tags.reach("[=====-----]"), Reach::Nothing);
        assert_eq!(tags.reach(""), Reach::Nothing);
    }

    #[test]
    fn characters_python_may_read_otherwise_are_unknown() {
        let stamp = terminals(&[r"\[[0-9]{2}\]"]);
        // An Arabic-Indic digit: Python's \d takes it.
        assert_eq!(stamp.reach("[\u{0661}1]"), Reach::Unknown);
        assert_eq!(stamp.reach("[\u{e9}1]"), Reach::Unknown);
        // A character beyond ASCII that is neither: read as Rust reads it.
        assert_eq!(stamp.reach("[\u{2014}1]"), Reach::Nothing);
        // Past the point where the terminals die, nothing more is read.
        assert_eq!(stamp.reach("[x\u{0661}]"), Reach::Nothing);
    }
}
