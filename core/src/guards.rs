//! The guards of the forms the core claims: per grammar rule, the terminals Lark's lexer tries
//! before the rule's first one (sent by the Python side, which reads the order from the parser).

use regex::RegexSet;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::forms::Kind;

/// Per grammar rule, the terminals the grammar's lexer tries before the rule's first one at
/// the start of a message: a body one of them matches at its start is not claimed (the lexer
/// would take it otherwise). A rule without guards, or whose guards do not compile, is never
/// claimed.
///
/// Each rule's guards are compiled into one anchored set of their own, when a body is first
/// checked against them (a log may never reach trtexec's own messages): a set of only the
/// terminals before the rule's first says "no" as soon as none of them can still match,
/// where a set shared by all the rules of a start rule would have to be read to the end of
/// every line to tell which of its terminals matched first.
#[derive(Clone, Debug, Default)]
pub struct Guards {
    rules: HashMap<String, Guard>,
}

/// A rule's guards, compiled when first needed (None where they do not compile).
#[derive(Clone, Debug)]
struct Guard {
    patterns: Vec<String>,
    compiled: OnceLock<Option<RegexSet>>,
}

fn anchored_set(patterns: &[String]) -> Option<RegexSet> {
    RegexSet::new(patterns.iter().map(|pattern| format!(r"\A(?:{pattern})"))).ok()
}

impl Guards {
    /// `guards`: (rule, its patterns, each matched at the body's start).
    pub fn new(guards: &[(String, Vec<String>)]) -> Guards {
        let rules = guards
            .iter()
            .map(|(rule, patterns)| {
                let compiled = OnceLock::new();
                let patterns = patterns.clone();
                (rule.clone(), Guard { patterns, compiled })
            })
            .collect();
        Guards { rules }
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
                let (patterns, compiled) = (Vec::new(), OnceLock::new());
                (rule.to_string(), Guard { patterns, compiled })
            })
            .collect();
        Guards { rules }
    }

    /// Whether a body of grammar rule `rule` may be claimed.
    pub fn clear(&self, rule: &str, body: &str) -> bool {
        let Some(guard) = self.rules.get(rule) else {
            return false;
        };
        if guard.patterns.is_empty() {
            return true;
        }
        let set = guard.compiled.get_or_init(|| anchored_set(&guard.patterns));
        set.as_ref().is_some_and(|set| !set.is_match(body))
    }
}

#[cfg(test)]
mod tests;
