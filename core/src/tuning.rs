//! The remaining one-line records of tactic tuning, as their grammar rules read them
//! (`grammars/autotuning.lark`):
//!
//! - `tactic_skipped`, `only_tactic`: 5.x-8.x "Tactic: 0 skipped. Scratch requested: 672,
//!   available: 0" (5.x "Tactic 2 scratch requested: ..."), 8.0 "Tactic: 0 is the only option,
//!   timing skipped";
//! - `tactic_pruning`: 8.6+ "MatMul-9: 69 available tactics, 44 unparsable, 11 pruned, 14
//!   remaining after tactic pruning.";
//! - `set_tactic_name`: 7.x-8.5 "<layer> Set Tactic Name: <kernel> Tactic: <id> [numSplitK: ...]",
//!   the layer optional;
//! - `timing_cache_hit`: 10.x "<layer> [<formats> -> <formats>] got cached result: Reformat,
//!   tactic 0x..., 0.0029 ms".
//!
//! Each is claimed only where it is the rule in full, split where the grammar's lexer splits
//! it (a lazy subject ends at the first place its lookahead matches); the fields are the rule's
//! tokens, numbers already read.

use regex::Regex;
use std::sync::OnceLock;

use crate::forms::tactic_value;
use crate::grammar::{narrowed_terminal, terminal};
use crate::guards::Guards;
use crate::layers::{lazy_terminal, token};
use crate::records::Record;

/// A tuning record: its rule's tokens.
#[derive(Clone, Debug, PartialEq)]
pub enum TuningRecord {
    /// `tactic_skipped` (the scratch requested and available) or `only_tactic` (None).
    TacticSkipped {
        tactic: u64,
        scratch: Option<(u64, u64)>,
    },
    Pruning {
        layer: String,
        available: u64,
        unparsable: u64,
        pruned: u64,
        remaining: u64,
    },
    /// `set_tactic_name`: the subject as printed (the transformer splits off a variant).
    KernelName {
        subject: Option<String>,
        kernel: String,
        tactic: Option<u64>,
        parameters: Option<String>,
    },
    CacheHit {
        subject: String,
        inputs: Option<String>,
        outputs: Option<String>,
        runner: String,
        tactic: u64,
        time: f64,
    },
}

/// The guards of a kernel name without a subject: the lexer starts it with `_SET_TACTIC_NAME`,
/// not `SET_TACTIC_SUBJECT`, so the terminals it tries before differ.
pub const SET_TACTIC_NAME_WITHOUT_SUBJECT: &str = "set_tactic_name_without_subject";

/// The rules (and guard names) of the records read here.
pub const RULES: [&str; 6] = [
    "tactic_skipped",
    "only_tactic",
    "tactic_pruning",
    "set_tactic_name",
    SET_TACTIC_NAME_WITHOUT_SUBJECT,
    "timing_cache_hit",
];

impl TuningRecord {
    /// The grammar rule (or alias) the record is.
    pub fn rule(&self) -> &'static str {
        match self {
            TuningRecord::TacticSkipped {
                scratch: Some(_), ..
            } => "tactic_skipped",
            TuningRecord::TacticSkipped { scratch: None, .. } => "only_tactic",
            TuningRecord::Pruning { .. } => "tactic_pruning",
            TuningRecord::KernelName { .. } => "set_tactic_name",
            TuningRecord::CacheHit { .. } => "timing_cache_hit",
        }
    }

    /// The name of the guards that decide whether it may be claimed: its rule's, but a kernel
    /// name without a subject's own.
    pub fn guard(&self) -> &'static str {
        match self {
            TuningRecord::KernelName { subject: None, .. } => SET_TACTIC_NAME_WITHOUT_SUBJECT,
            other => other.rule(),
        }
    }
}

const SET_TACTIC_NAME: &str = "Set Tactic Name: ";
/// _SET_TACTIC_NAME with its space: what follows a subject.
const AFTER_SUBJECT: &str = " Set Tactic Name: ";
const CACHED_RESULT: &str = "] got cached result: ";
const AVAILABLE_TACTICS: &str = " available tactics, ";
const ONLY_OPTION: &str = " is the only option, timing skipped";
const SCRATCH: &str = "cratch requested: ";

/// Whether a body starting with "Tactic" may be a skipped tactic rather than its timing.
pub fn may_be_skipped_tactic(body: &str) -> bool {
    body.ends_with(ONLY_OPTION) || body.contains(SCRATCH)
}

/// Whether a body may be one of the other records, by the phrase it holds.
pub fn may_be_tuning(body: &str) -> bool {
    body.contains(SET_TACTIC_NAME)
        || body.contains(CACHED_RESULT)
        || body.contains(AVAILABLE_TACTICS)
}

struct Patterns {
    skipped: Regex,
    only: Regex,
    /// The lazy terminals: each takes the shortest text its lookahead follows, as the lexer.
    pruned_layer: Regex,
    cached_subject: Regex,
    format_list: Regex,
    cached_formats: Regex,
    pruning: Regex,
    kernel_name: Regex,
    cached: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let tactic = narrowed_terminal("TACTIC_ID");
        let uint = narrowed_terminal("UINT");
        let number = narrowed_terminal("NUMBER");
        let kernel = narrowed_terminal("KERNEL_NAME");
        let parameters = narrowed_terminal("KERNEL_PARAMETERS");
        let scratch = narrowed_terminal("_SCRATCH_KEYWORD");
        // RUNNER_NAME with `\w` read as ASCII word characters (a subset of Python's).
        let runner = narrowed_terminal("RUNNER_NAME").replace(r"\w", "[A-Za-z0-9_]");
        // _TACTIC_KEYWORD's lookahead is the TACTIC_ID that follows it here.
        let keyword = terminal("_TACTIC_KEYWORD")
            .and_then(|pattern| pattern.split_once("(?=").map(|(keyword, _)| keyword))
            .expect("_TACTIC_KEYWORD ends in its lookahead");
        let compile = |pattern: String| Regex::new(&pattern).expect("tuning pattern");
        Patterns {
            skipped: compile(format!(
                r"\A{keyword}({tactic}){scratch}({uint}), available: ({uint})\z"
            )),
            only: compile(format!(r"\A{keyword}({tactic}){ONLY_OPTION}\z")),
            pruned_layer: lazy_terminal("PRUNED_LAYER"),
            cached_subject: lazy_terminal("CACHED_SUBJECT"),
            format_list: lazy_terminal("FORMAT_LIST"),
            cached_formats: lazy_terminal("CACHED_FORMATS"),
            pruning: compile(format!(
                r"\A: ({uint}){AVAILABLE_TACTICS}({uint}) unparsable, ({uint}) pruned, ({uint}) remaining after tactic pruning\.\z"
            )),
            kernel_name: compile(format!(
                r"\A{kernel}(?: Tactic: {tactic})?{parameters}?\z"
            )),
            cached: compile(format!(r"\A({runner}), tactic ({tactic}), ({number}) ms\z")),
        }
    })
}

/// The record `body` is that the guards let the core claim: one of these, else one of
/// `records` (a body that is neither, or that a terminal the lexer tries first would take, is
/// left to the grammar).
pub fn claimed(body: &str, guards: &Guards) -> Option<Record> {
    if let Some(found) = record(body) {
        if guards.clear(found.guard(), body) {
            return Some(Record::Tuning(found));
        }
    }
    let found = crate::records::record(body)?;
    guards.clear(found.rule(), body).then_some(found)
}

/// The body as one of these records, if it is one in full.
pub fn record(body: &str) -> Option<TuningRecord> {
    let patterns = patterns();
    if body.starts_with("Tactic") {
        return skipped(body, patterns);
    }
    if body.contains(CACHED_RESULT) {
        if let Some(found) = cache_hit(body, patterns) {
            return Some(found);
        }
    }
    if body.contains(SET_TACTIC_NAME) {
        if let Some(found) = kernel_name(body, patterns) {
            return Some(found);
        }
    }
    pruning(body, patterns)
}

/// The length of the first character: a lazy subject is at least that long.
fn first_len(body: &str) -> Option<usize> {
    body.chars().next().map(char::len_utf8)
}

fn skipped(body: &str, patterns: &Patterns) -> Option<TuningRecord> {
    if let Some(found) = patterns.skipped.captures(body) {
        return Some(TuningRecord::TacticSkipped {
            tactic: tactic_value(found.get(1)?.as_str())?,
            scratch: Some((found[2].parse().ok()?, found[3].parse().ok()?)),
        });
    }
    let found = patterns.only.captures(body)?;
    Some(TuningRecord::TacticSkipped {
        tactic: tactic_value(found.get(1)?.as_str())?,
        scratch: None,
    })
}

/// PRUNED_LAYER ": " UINT " available tactics, " ...: the layer is PRUNED_LAYER's token.
fn pruning(body: &str, patterns: &Patterns) -> Option<TuningRecord> {
    if !body.contains(AVAILABLE_TACTICS) {
        return None;
    }
    let (layer, rest) = token(&patterns.pruned_layer, body)?;
    let found = patterns.pruning.captures(rest)?;
    let count = |index: usize| found[index].parse::<u64>().ok();
    Some(TuningRecord::Pruning {
        layer: layer.to_string(),
        available: count(1)?,
        unparsable: count(2)?,
        pruned: count(3)?,
        remaining: count(4)?,
    })
}

/// [SET_TACTIC_SUBJECT] _SET_TACTIC_NAME KERNEL_NAME [" Tactic: " TACTIC_ID] [KERNEL_PARAMETERS]:
/// the subject is the shortest text (one character or more) followed by " Set Tactic Name: ",
/// which _SET_TACTIC_NAME then takes with its space; without one the body starts with it.
fn kernel_name(body: &str, patterns: &Patterns) -> Option<TuningRecord> {
    let first = first_len(body)?;
    let (subject, rest) = match body[first..].find(AFTER_SUBJECT) {
        Some(at) => (
            Some(&body[..first + at]),
            &body[first + at + AFTER_SUBJECT.len()..],
        ),
        None => {
            let rest = body.strip_prefix(' ').unwrap_or(body);
            (None, rest.strip_prefix(SET_TACTIC_NAME)?)
        }
    };
    if !patterns.kernel_name.is_match(rest) {
        return None;
    }
    // The pattern decides; the fields are then cut at the spaces between them, which neither a
    // kernel name nor an id holds (a capturing match costs several times more).
    let (kernel, rest) = rest.split_at(rest.find(' ').unwrap_or(rest.len()));
    let (tactic, parameters) = match rest.strip_prefix(" Tactic: ") {
        Some(id) => {
            let (id, parameters) = id.split_at(id.find(' ').unwrap_or(id.len()));
            (Some(tactic_value(id)?), parameters)
        }
        None => (None, rest),
    };
    Some(TuningRecord::KernelName {
        subject: subject.map(str::to_string),
        kernel: kernel.to_string(),
        tactic,
        parameters: (!parameters.is_empty()).then(|| parameters.to_string()),
    })
}

/// CACHED_SUBJECT " [" [FORMAT_LIST] " -> " [CACHED_FORMATS] "] got cached result: " ...: each
/// lazy token as its terminal takes it; a list is there where its terminal matches (it starts
/// with a letter, the literal after it with a space).
fn cache_hit(body: &str, patterns: &Patterns) -> Option<TuningRecord> {
    let (subject, rest) = token(&patterns.cached_subject, body)?;
    let rest = rest.strip_prefix(" [")?;
    let optional = |terminal: &Regex, text| match token(terminal, text) {
        Some((list, rest)) => (Some(list), rest),
        None => (None, text),
    };
    let (inputs, rest) = optional(&patterns.format_list, rest);
    let rest = rest.strip_prefix(" -> ")?;
    let (outputs, rest) = optional(&patterns.cached_formats, rest);
    let found = patterns
        .cached
        .captures(rest.strip_prefix(CACHED_RESULT)?)?;
    Some(TuningRecord::CacheHit {
        subject: subject.to_string(),
        inputs: inputs.map(str::to_string),
        outputs: outputs.map(str::to_string),
        runner: found.get(1)?.as_str().to_string(),
        tactic: tactic_value(found.get(2)?.as_str())?,
        time: found.get(3)?.as_str().parse().ok()?,
    })
}

#[cfg(test)]
mod tests;
