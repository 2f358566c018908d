//! The terminals an envelope starts with, read from the envelope grammar's rules: the first
//! terminal of each alternative of `envelope`, followed through the rules it names (and past an
//! optional one, `[X]`, to what comes after it).

use std::sync::OnceLock;

use crate::grammar::{narrowed_terminal, rule_alternatives};
use crate::reach::{Reach, Terminals};

/// The rule an envelope is (`envelope_line: [envelope] [BODY]`).
const ENVELOPE_RULE: &str = "envelope";

/// What the terminals an envelope starts with make of `line`'s start.
pub fn reach(line: &str) -> Reach {
    static STARTS: OnceLock<Terminals> = OnceLock::new();
    STARTS
        .get_or_init(|| {
            let patterns: Vec<String> = start_terminals()
                .into_iter()
                .map(narrowed_terminal)
                .collect();
            Terminals::new(&patterns)
        })
        .reach(line)
}

/// The names of the terminals an envelope may start with, in the grammar's order.
pub fn start_terminals() -> Vec<&'static str> {
    let mut found = Vec::new();
    first_terminals(ENVELOPE_RULE, &mut found);
    found
}

fn first_terminals(rule: &str, found: &mut Vec<&'static str>) {
    let alternatives = rule_alternatives(rule);
    assert!(
        !alternatives.is_empty(),
        "rule {rule} is not in the grammar"
    );
    for alternative in alternatives {
        for item in alternative.split_whitespace() {
            let optional = item
                .strip_prefix('[')
                .and_then(|item| item.strip_suffix(']'));
            let name = optional.unwrap_or(item);
            if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                if !found.contains(&name) {
                    found.push(name);
                }
            } else if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                first_terminals(name, found);
            } else {
                panic!("rule {rule}: an envelope starting with {item} is not read here");
            }
            if optional.is_none() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests;
