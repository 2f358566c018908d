//! The guards of the forms the core claims: per grammar rule, the terminals Lark's lexer tries
//! before the rule's first one (sent by the Python side, which reads the order from the parser).

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, MatchKind};
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::forms::Kind;

/// Per grammar rule, the terminals the grammar's lexer tries before the rule's first one at
/// the start of a message: a body one of them matches at its start is not claimed (the lexer
/// would take it otherwise). A rule without guards, or whose guards do not compile, is never
/// claimed.
///
/// The lexer tries the terminals of a start rule in one order, so the guards of the rules
/// claimed in one start rule's messages are the first few of one list: each such list is
/// compiled once, as one expression of many patterns, when a body is first checked against it
/// (a log may never reach trtexec's own messages). Searched leftmost-first from the body's
/// start, it gives the first pattern of the list that matches there, which tells every rule of
/// the list at once: a rule is guarded by the patterns before its own first terminal.
#[derive(Clone, Debug, Default)]
pub struct Guards {
    lists: Vec<GuardList>,
    rules: HashMap<String, Guard>,
}

/// A list of guards, compiled when first needed (None where it does not compile).
#[derive(Clone, Debug, Default)]
struct GuardList {
    patterns: Vec<String>,
    compiled: OnceLock<Option<Regex>>,
}

/// A rule's guards: the first `count` patterns of list `list`; compiled alone where the
/// whole list does not compile (a pattern after the rule's own must not stop its claims).
#[derive(Clone, Debug)]
struct Guard {
    list: usize,
    count: usize,
    alone: OnceLock<Option<Regex>>,
}

/// `patterns` as one expression, each matched at the start of a text; leftmost-first, so that
/// a search reports the first of the patterns that match there.
fn anchored_list(patterns: &[String]) -> Option<Regex> {
    let config = Regex::config().match_kind(MatchKind::LeftmostFirst);
    Regex::builder().configure(config).build_many(patterns).ok()
}

/// The first pattern of `list` that matches at the start of `body`, if any.
fn first_match(list: &Regex, body: &str) -> Option<usize> {
    let input = Input::new(body).anchored(Anchored::Yes);
    list.search(&input).map(|found| found.pattern().as_usize())
}

impl GuardList {
    fn compiled(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| anchored_list(&self.patterns))
            .as_ref()
    }
}

impl Guards {
    /// `guards`: (rule, its patterns, each matched at the body's start).
    pub fn new(guards: &[(String, Vec<String>)]) -> Guards {
        let mut longest_first: Vec<&(String, Vec<String>)> = guards.iter().collect();
        longest_first.sort_by_key(|(_, patterns)| std::cmp::Reverse(patterns.len()));
        let mut lists: Vec<GuardList> = Vec::new();
        let mut rules = HashMap::new();
        for (rule, patterns) in longest_first {
            let list = match lists
                .iter()
                .position(|list| list.patterns.starts_with(patterns))
            {
                Some(list) => list,
                None => {
                    lists.push(GuardList {
                        patterns: patterns.clone(),
                        compiled: OnceLock::new(),
                    });
                    lists.len() - 1
                }
            };
            let (count, alone) = (patterns.len(), OnceLock::new());
            rules.insert(rule.clone(), Guard { list, count, alone });
        }
        Guards { lists, rules }
    }

    /// No terminal comes before any rule's (for tests of the forms alone).
    pub fn none() -> Guards {
        let rules = [Kind::Plain, Kind::Named, Kind::Myelin].map(Kind::rule);
        let rules = rules
            .iter()
            .chain(crate::records::RULES.iter())
            .chain(crate::layers::RULES.iter())
            .chain(crate::tuning::RULES.iter())
            .chain(crate::runs::RULES.iter())
            .map(|rule| {
                let alone = OnceLock::new();
                (
                    rule.to_string(),
                    Guard {
                        list: 0,
                        count: 0,
                        alone,
                    },
                )
            })
            .collect();
        Guards {
            lists: Vec::new(),
            rules,
        }
    }

    /// Whether a body of grammar rule `rule` may be claimed.
    pub fn clear(&self, rule: &str, body: &str) -> bool {
        let Some(guard) = self.rules.get(rule) else {
            return false;
        };
        if guard.count == 0 {
            return true;
        }
        let Some(list) = self.lists.get(guard.list) else {
            return false;
        };
        let Some(compiled) = list.compiled() else {
            let alone = guard
                .alone
                .get_or_init(|| anchored_list(&list.patterns[..guard.count]));
            return alone
                .as_ref()
                .is_some_and(|alone| first_match(alone, body).is_none());
        };
        first_match(compiled, body).is_none_or(|first| first >= guard.count)
    }
}

#[cfg(test)]
mod tests;
