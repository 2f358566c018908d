//! trtexec's own one-line messages, printed in its own envelope (`[MM/DD/YYYY-HH:MM:SS] [I] `,
//! without the library's `[TRT]` tag) and read by the grammar's `trtexec_message` start rule:
//!
//! - `trace_average` (`performance.lark`): "Average on 10 runs - GPU latency: 2.21 ms - Host
//!   latency: 3.39 ms (enqueue 0.93 ms)", 7.1 and 8.0-8.2 with "end to end 2.12 ms, " before
//!   enqueue; printed again and again while trtexec measures inference, up to nearly every
//!   line of a verbose inference log.
//! - `profile_row` and `profile_row_numbers_first` (`performance.lark`): the rows of the
//!   per-layer profile (`--dumpProfile`), "<layer>   1.50   0.0127   0.0051   0.1" (8.2 and
//!   earlier without the median), 8.6 and later with the numbers first; most lines of a log
//!   that profiles a network of many layers.
//! - `option_line` (`options.lark`): an option echoed as "Key: value", up to a fifth of the
//!   lines of a log. OPTION_KEY has the lowest priority: its guards are every other terminal
//!   the start rule's lexer tries.
//!
//! Each is claimed only where it is the rule in full; the fields are the rule's tokens, read as
//! the transformer reads them (the profile rows' and options' as printed). The forms are tried
//! in the order the lexer tries their first terminals; the guards decline the rest.

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::narrowed_terminal;
use crate::layers::lazy_terminal;
use crate::runs::RunRecord;

/// The grammar's own literals of `trace_average` (`tests` checks the rule still says so).
const AVERAGE_ON: &str = "Average on ";
const RUNS_GPU: &str = " runs - GPU latency: ";
const MS_HOST: &str = " ms - Host latency: ";
const MS_OPEN: &str = " ms (";
const END_TO_END: &str = "end to end ";
const MS_COMMA: &str = " ms, ";
const ENQUEUE: &str = "enqueue ";
const MS_CLOSE: &str = " ms)";
/// The literal between an option's key and its value (`option_line`).
const COLON: &str = ":";

struct Patterns {
    trace_average: Regex,
    profile_name: Regex,
    profile_numbers: Regex,
    profile_numbers_first: Regex,
    option_key: Regex,
    option_rest: Regex,
}

/// Terminal `name` narrowed for Rust, its "not followed by any character but a newline" the
/// end of the body (a body is one line).
fn to_end_of_line(name: &str) -> String {
    narrowed_terminal(name).replace(r"(?![^\n])", r"\z")
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let uint = narrowed_terminal("UINT");
        let number = narrowed_terminal("NUMBER");
        let literal = |text: &str| regex::escape(text);
        // "Average on " UINT " runs - GPU latency: " NUMBER " ms - Host latency: " NUMBER
        // " ms (" ["end to end " NUMBER " ms, "] "enqueue " NUMBER " ms)". Each token is
        // followed by a literal that starts with a space, which no token holds: where the whole
        // pattern matches, each token ends where the lexer's match of it ends.
        let pattern = format!(
            r"\A{}({uint}){}({number}){}({number}){}(?:{}({number}){})?{}({number}){}\z",
            literal(AVERAGE_ON),
            literal(RUNS_GPU),
            literal(MS_HOST),
            literal(MS_OPEN),
            literal(END_TO_END),
            literal(MS_COMMA),
            literal(ENQUEUE),
            literal(MS_CLOSE),
        );
        let compile = |pattern: String| Regex::new(&pattern).expect("trtexec message pattern");
        // A row's name is PROFILE_NAME_FIRST as the lexer takes it (the shortest text its
        // lookahead follows, Unicode digits read as Python's `\d` reads them); the rest must
        // then be PROFILE_NUMBERS in full, narrowed: a row whose numbers hold other digits is
        // declined. PROFILE_NUMBERS_FIRST ends in three spaces after a number's digits, and
        // OPTION_KEY before the key's first colon: each ends where the lexer's match ends.
        let (numbers, layer) = (
            to_end_of_line("PROFILE_NUMBERS"),
            narrowed_terminal("PROFILE_LAYER"),
        );
        let value = narrowed_terminal("OPTION_VALUE");
        Patterns {
            trace_average: compile(pattern),
            profile_name: lazy_terminal("PROFILE_NAME_FIRST"),
            profile_numbers: compile(format!(r"\A{numbers}\z")),
            profile_numbers_first: compile(format!(
                r"\A({})({layer})\z",
                narrowed_terminal("PROFILE_NUMBERS_FIRST")
            )),
            option_key: lazy_terminal("OPTION_KEY"),
            option_rest: compile(format!(r"\A{}({value})?\z", regex::escape(COLON))),
        }
    })
}

/// Whether a body in trtexec's envelope may be one of these messages (by its first and last
/// bytes, and whether it holds a colon).
pub fn may_be_message(body: &str) -> bool {
    let numbers_first = body
        .trim_start_matches(' ')
        .starts_with(|c: char| c == '-' || c.is_ascii_digit());
    let option =
        body.starts_with(|c: char| c.is_ascii_alphabetic() || c == '(') && body.contains(':');
    numbers_first || option || body.ends_with(|c: char| c.is_ascii_digit())
}

/// The body as one of these messages, if it is one in full.
pub fn message(body: &str) -> Option<RunRecord> {
    profile_row(body)
        .or_else(|| trace_average(body))
        .or_else(|| option_line(body))
}

fn trace_average(body: &str) -> Option<RunRecord> {
    if !body.starts_with(AVERAGE_ON) {
        return None;
    }
    let found = patterns().trace_average.captures(body)?;
    let number = |group: usize| found.get(group)?.as_str().parse::<f64>().ok();
    Some(RunRecord::TraceAverage {
        // A count beyond 64 signed bits (a corrupted log) is left to the grammar, which keeps
        // it as no value and counts it.
        runs: found.get(1)?.as_str().parse().ok()?,
        gpu_latency: number(2)?,
        host_latency: number(3)?,
        end_to_end: match found.get(4) {
            Some(_) => Some(number(4)?),
            None => None,
        },
        enqueue: number(5)?,
    })
}

/// A profile row, numbers first (tried first by the lexer) or its name first.
fn profile_row(body: &str) -> Option<RunRecord> {
    let patterns = patterns();
    let (numbers_first, first, second) = match patterns.profile_numbers_first.captures(body) {
        Some(found) => (true, found.get(1)?.as_str(), found.get(2)?.as_str()),
        None => {
            let name = patterns.profile_name.captures(body)?.get(1)?.as_str();
            let numbers = &body[name.len()..];
            patterns.profile_numbers.is_match(numbers).then_some(())?;
            (false, name, numbers)
        }
    };
    Some(RunRecord::ProfileRow {
        numbers_first,
        first: first.to_string(),
        second: second.to_string(),
    })
}

fn option_line(body: &str) -> Option<RunRecord> {
    let patterns = patterns();
    let key = patterns.option_key.captures(body)?.get(1)?.as_str();
    let found = patterns.option_rest.captures(&body[key.len()..])?;
    Some(RunRecord::OptionLine {
        key: key.to_string(),
        value: found.get(1).map(|value| value.as_str().to_string()),
    })
}

#[cfg(test)]
mod tests;
