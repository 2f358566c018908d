//! Whether the grammar's lexer can start a text at all.
//!
//! Lines that no message form takes (another program's output between TensorRT's lines) are
//! each tried with the grammar before they are kept as foreign, and most fail on their first
//! character: a failed parse is dear. Lark's contextual lexer starts a parse with the terminals
//! its start state accepts; when none of them matches at the text's start, the parse fails
//! there, whatever follows. The Python side sends those terminals, widened (`grammar::widened`:
//! each matches the same text or more), so a text none of them matches cannot be started.

use regex::{RegexSet, RegexSetBuilder};

/// The terminals a start state of the grammar's lexer tries, compiled as one set.
#[derive(Clone, Debug)]
pub struct StartTerminals {
    /// None where a pattern does not compile: then any text may start.
    set: Option<RegexSet>,
}

impl StartTerminals {
    /// `patterns`: the start state's terminals, each matched at the text's start.
    pub fn new(patterns: &[String]) -> StartTerminals {
        let anchored = patterns.iter().map(|pattern| format!(r"\A(?:{pattern})"));
        // A record's text may hold several lines, and a widened "$" stands for Python's
        // "(?![^\n])" (before a newline or at the end): multi-line "$" matches both, and other
        // anchors then match more, never less.
        let set = RegexSetBuilder::new(anchored).multi_line(true).build().ok();
        StartTerminals { set }
    }

    /// False only when no terminal matches at the start of `text` (the lexer would fail on its
    /// first character).
    pub fn may_start(&self, text: &str) -> bool {
        self.set.as_ref().is_none_or(|set| set.is_match(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(patterns: &[&str]) -> StartTerminals {
        StartTerminals::new(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_text_no_terminal_matches_at_its_start_cannot_start() {
        let terminals = starts(&["Tactic", r"\[[0-9]+"]);
        assert!(terminals.may_start("Tactic: 0x1 Time: 1"));
        assert!(terminals.may_start("[12%] built"));
        // A plugin's debug print: the terminals match later in the text, never at its start.
        assert!(!terminals.may_start("    0x55ddd05d3460[enqueue] Tactic"));
        assert!(!terminals.may_start(""));
    }

    #[test]
    fn an_end_of_line_matches_before_a_newline_too() {
        // Python's "(?![^\n])", widened to "$": the text goes on after the newline.
        let terminals = starts(&["Done$"]);
        assert!(terminals.may_start("Done\nnext line"));
        assert!(terminals.may_start("Done"));
        assert!(!terminals.may_start("Done later"));
    }

    #[test]
    fn no_terminals_start_nothing_and_a_pattern_that_does_not_compile_everything() {
        assert!(!starts(&[]).may_start("Tactic"));
        assert!(starts(&["(", "Tactic"]).may_start("anything"));
    }
}
