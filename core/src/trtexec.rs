//! trtexec's own one-line messages, printed in its own envelope (`[MM/DD/YYYY-HH:MM:SS] [I] `,
//! without the library's `[TRT]` tag) and read by the grammar's `trtexec_message` start rule:
//!
//! - `trace_average` (`performance.lark`): "Average on 10 runs - GPU latency: 2.21 ms - Host
//!   latency: 3.39 ms (enqueue 0.93 ms)", 7.1 and 8.0-8.2 with "end to end 2.12 ms, " before
//!   enqueue; printed again and again while trtexec measures inference, up to nearly every
//!   line of a verbose inference log.
//!
//! Each is claimed only where it is the rule in full; the fields are the rule's tokens, read as
//! the transformer reads them.

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::narrowed_terminal;
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

struct Patterns {
    trace_average: Regex,
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
        Patterns {
            trace_average: Regex::new(&pattern).expect("trace_average pattern"),
        }
    })
}

/// Whether a body in trtexec's envelope may be one of these messages (by its first bytes).
pub fn may_be_message(body: &str) -> bool {
    body.starts_with(AVERAGE_ON)
}

/// The body as one of these messages, if it is one in full.
pub fn message(body: &str) -> Option<RunRecord> {
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

#[cfg(test)]
mod tests;
