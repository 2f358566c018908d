//! The frequent one-line records of tactic tuning as their grammar rules read them
//! (`grammars/autotuning.lark`), each claimed only where it is the rule in full, its fields the
//! rule's tokens (the rarer tuning records are `tuning`'s):
//! - `fastest_tactic`: "Fastest Tactic: 0x... Time: 0.0123" (8.x-10.x);
//! - `runner_profiled`: "<layer> (<Runner>) profiling completed in 0.1 seconds. Fastest ...";
//! - `timing_runner`: "--------------- Timing Runner: <layer> (<Runner>[0x...])";
//! - `format_combination`, `reformat_combination`: "*************** Autotuning format ...";
//! - `computing_costs`, `computing_reformatting_costs`: "=============== Computing costs for ...";
//! - `chose_runner`: ">>>>>>>>>>>>>>> Chose Runner Type: <Runner> Tactic: 0x...";
//! - `runner_skipped`, `runner_skipped_for_layer`: "<Runner> has no valid tactics for this
//!   config, skipping" and "Skipping <Runner>: No valid tactics for <layer>".

use regex::Regex;
use std::sync::OnceLock;

use crate::forms::tactic_value;
use crate::grammar::narrowed_terminal;

/// A one-line record: its rule's tokens, read as the transformer reads them.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    Fastest {
        tactic: u64,
        time: f64,
    },
    Profiled {
        layer: String,
        runner: String,
        runner_id: Option<u64>,
        seconds: f64,
        tactic: u64,
        time: f64,
    },
    TimingRunner {
        layer: Option<String>,
        runner: String,
        runner_id: Option<u64>,
    },
    Combination {
        inputs: Option<String>,
        outputs: Option<String>,
        reformat: bool,
    },
    Costs {
        subject: Option<String>,
        reformatting: bool,
    },
    Chose {
        runner: String,
        tactic: u64,
    },
    Skipped {
        runner: String,
        layer: Option<String>,
    },
    /// A message of a literal step and the rest of the line, as printed (`messages`).
    Step {
        rule: &'static str,
        step: &'static str,
        rest: Option<String>,
    },
    NodeIo {
        node: String,
        op: String,
        direction: &'static str,
        rest: Option<String>,
    },
    FusionPass {
        name: String,
        target: Option<String>,
    },
    Plugin {
        already: bool,
        namespace: Option<String>,
        name: String,
        version: String,
    },
    /// A message of two tokens, as printed (`messages`).
    Symbolic {
        rule: &'static str,
        first: String,
        second: String,
    },
    Layers(crate::layers::LayerRecord),
    Tuning(crate::tuning::TuningRecord),
    /// The forms printed around a build: trace averages, progress bars (`runs`).
    Run(crate::runs::RunRecord),
}

impl Record {
    /// The grammar rule the record is (its event's class is named after it).
    pub fn rule(&self) -> &'static str {
        match self {
            Record::Fastest { .. } => "fastest_tactic",
            Record::Profiled { .. } => "runner_profiled",
            Record::TimingRunner { .. } => "timing_runner",
            Record::Combination {
                reformat: false, ..
            } => "format_combination",
            Record::Combination { reformat: true, .. } => "reformat_combination",
            Record::Costs {
                reformatting: false,
                ..
            } => "computing_costs",
            Record::Costs {
                reformatting: true, ..
            } => "computing_reformatting_costs",
            Record::Chose { .. } => "chose_runner",
            Record::Skipped { layer: None, .. } => "runner_skipped",
            Record::Skipped { layer: Some(_), .. } => "runner_skipped_for_layer",
            Record::Step { rule, .. } => rule,
            Record::NodeIo { .. } => "onnx_node_io",
            Record::FusionPass { .. } => "fusion_pass_running",
            Record::Plugin { .. } => "plugin_registration",
            Record::Symbolic { rule, .. } => rule,
            Record::Layers(found) => found.rule(),
            Record::Tuning(found) => found.rule(),
            Record::Run(found) => found.rule(),
        }
    }
}

/// Every rule a record may be (for the guards each needs).
pub const RULES: [&str; 20] = [
    "fastest_tactic",
    "runner_profiled",
    "timing_runner",
    "format_combination",
    "reformat_combination",
    "computing_costs",
    "computing_reformatting_costs",
    "chose_runner",
    "runner_skipped",
    "runner_skipped_for_layer",
    "onnx_importer_trace",
    "onnx_node_io",
    "quantization_params",
    "layer_removed",
    "fusion_pass_running",
    "plugin_registration",
    "layer_count",
    "symbolic_shape",
    "symbolic_shape_tensor",
    "symbolic_shape_dimension",
];

const PROFILED_PHRASE: &str = " profiling completed in ";
const NO_TACTICS_PHRASE: &str = " has no valid tactics for this config, skipping";

/// Whether a body may be one of the records (by its first bytes or the phrase it holds).
pub fn may_be_record(body: &str) -> bool {
    const STARTS: [&str; 6] = [
        "Fastest Tactic: ",
        "--------------- Timing Runner: ",
        "*************** Autotuning ",
        "=============== Computing ",
        ">>>>>>>>>>>>>>> Chose Runner Type: ",
        "Skipping ",
    ];
    STARTS.iter().any(|start| body.starts_with(start))
        || body.contains(PROFILED_PHRASE)
        || body.ends_with(NO_TACTICS_PHRASE)
        || crate::messages::may_be_message(body)
}

struct Patterns {
    fastest: Regex,
    number: Regex,
    tactic: Regex,
    suffix_anywhere: Regex,
    chose: Regex,
    skipping: Regex,
    runner_name: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let tactic = narrowed_terminal("TACTIC_ID");
        let number = narrowed_terminal("NUMBER");
        // RUNNER_SUFFIX " (<Runner>[0x...])" and RUNNER_NAME, with `\w` read as ASCII word
        // characters (a subset of Python's and of Rust's).
        let name = narrowed_terminal("RUNNER_NAME").replace(r"\w", "[A-Za-z0-9_]");
        let compile = |pattern: String| Regex::new(&pattern).expect("record pattern");
        Patterns {
            fastest: compile(format!(r"\AFastest Tactic: ({tactic}) Time: ({number})\z")),
            number: compile(format!(r"\A{number}\z")),
            tactic: compile(format!(r"\A{tactic}\z")),
            // Any runner suffix, Unicode word characters included: a subject holding one is
            // left to the grammar.
            suffix_anywhere: compile(r" \([\w\p{L}\p{N}]+(?:\[0x[0-9a-fA-F]+\])?\)".to_string()),
            chose: compile(format!(
                r"\A>>>>>>>>>>>>>>> Chose Runner Type: ({name}) Tactic: ({tactic})\z"
            )),
            skipping: compile(format!(r"\ASkipping ({name}): No valid tactics for (.+)\z")),
            runner_name: compile(format!(r"\A{name}\z")),
        }
    })
}

/// The runner suffix `text` ends with, RUNNER_SUFFIX " (<Runner>[0x...])" with the runner's
/// name in ASCII word characters: where it starts, the runner, and its id's text. A suffix holds
/// no " (", so only the last one in the text can end it.
fn runner_suffix(text: &str) -> Option<(usize, &str, Option<&str>)> {
    let start = text.rfind(" (")?;
    let inner = text[start + 2..].strip_suffix(')')?;
    let (name, id) = match inner.split_once('[') {
        Some((name, id)) => {
            let hex = id.strip_suffix(']')?.strip_prefix("0x")?;
            if hex.is_empty() || !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                return None;
            }
            (name, Some(&id[..id.len() - 1]))
        }
        None => (inner, None),
    };
    let mut bytes = name.bytes();
    let first = bytes.next()?;
    let word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
    (first.is_ascii_alphabetic() && bytes.all(word)).then_some((start, name, id))
}

/// A hexadecimal runner id as the transformer reads it, where it fits in 63 bits (the tables'
/// columns are signed); None where there is none. Err where it does not fit.
fn runner_id(hex: Option<&str>) -> Result<Option<u64>, ()> {
    let Some(hex) = hex else {
        return Ok(None);
    };
    let value = u64::from_str_radix(&hex[2..], 16).map_err(|_| ())?;
    if value > i64::MAX as u64 {
        return Err(());
    }
    Ok(Some(value))
}

/// The body as the record its start (or phrase) names, if it is that record in full.
pub fn record(body: &str) -> Option<Record> {
    let patterns = patterns();
    if body.starts_with("Fastest Tactic: ") {
        let found = patterns.fastest.captures(body)?;
        return Some(Record::Fastest {
            tactic: tactic_value(found.get(1)?.as_str())?,
            time: found.get(2)?.as_str().parse().ok()?,
        });
    }
    if let Some(rest) = body.strip_prefix("--------------- Timing Runner: ") {
        return timing_runner(rest, patterns);
    }
    if body.starts_with("*************** Autotuning ") {
        return combination(body);
    }
    if let Some(rest) = body.strip_prefix("=============== Computing ") {
        return costs(rest);
    }
    if body.starts_with(">>>>>>>>>>>>>>> Chose Runner Type: ") {
        let found = patterns.chose.captures(body)?;
        return Some(Record::Chose {
            runner: found.get(1)?.as_str().to_string(),
            tactic: tactic_value(found.get(2)?.as_str())?,
        });
    }
    if body.starts_with("Skipping ") {
        let found = patterns.skipping.captures(body)?;
        return Some(Record::Skipped {
            runner: found.get(1)?.as_str().to_string(),
            // REST as printed: the transformer strips it (Python's idea of white space).
            layer: Some(found.get(2)?.as_str().to_string()),
        });
    }
    if let Some(runner) = body.strip_suffix(NO_TACTICS_PHRASE) {
        return patterns
            .runner_name
            .is_match(runner)
            .then(|| Record::Skipped {
                runner: runner.to_string(),
                layer: None,
            });
    }
    if body.contains(PROFILED_PHRASE) {
        return profiled(body, patterns);
    }
    crate::messages::message(body)
}

/// "<layer> (<Runner>) profiling completed in ...": the layer is the shortest text followed by
/// a runner suffix and the phrase (the grammar's lazy PROFILED_SUBJECT).
fn profiled(body: &str, patterns: &Patterns) -> Option<Record> {
    let phrase = body.find(PROFILED_PHRASE)?;
    // The suffix " (<Runner>[0x...])" ends where the first phrase starts (a suffix holds no
    // space, so no later phrase can have one that starts earlier).
    let (start, runner, id) = runner_suffix(&body[..phrase])?;
    if start == 0 {
        return None;
    }
    // " profiling completed in " NUMBER " seconds. Fastest Tactic: " TACTIC_ID " Time: " NUMBER
    let rest = &body[phrase + PROFILED_PHRASE.len()..];
    let (seconds, rest) = rest.split_once(" seconds. Fastest Tactic: ")?;
    let (tactic, time) = rest.split_once(" Time: ")?;
    let valid = patterns.number.is_match(seconds)
        && patterns.tactic.is_match(tactic)
        && patterns.number.is_match(time);
    if !valid {
        return None;
    }
    Some(Record::Profiled {
        layer: body[..start].to_string(),
        runner: runner.to_string(),
        runner_id: runner_id(id).ok()?,
        seconds: seconds.parse().ok()?,
        tactic: tactic_value(tactic)?,
        time: time.parse().ok()?,
    })
}

/// "--------------- Timing Runner: [<layer>] (<Runner>[0x...])": the suffix ends the line.
fn timing_runner(rest: &str, patterns: &Patterns) -> Option<Record> {
    let (start, runner, id) = runner_suffix(rest)?;
    let layer = (start > 0).then(|| &rest[..start]);
    if let Some(layer) = layer {
        // A layer name holding another runner suffix: the grammar decides where it ends.
        if patterns.suffix_anywhere.is_match(&format!("{layer} ")) {
            return None;
        }
    }
    Some(Record::TimingRunner {
        layer: layer.map(str::to_string),
        runner: runner.to_string(),
        runner_id: runner_id(id).ok()?,
    })
}

/// "*************** Autotuning format combination: [<formats>] -> [<formats>] ***************",
/// or "Autotuning Reformat:" with an optional space: each list starts with a letter, the
/// inputs end at the first arrow.
fn combination(body: &str) -> Option<Record> {
    let rest = body.strip_prefix("*************** Autotuning ")?;
    let (reformat, rest) = match rest.strip_prefix("format combination: ") {
        Some(rest) => (false, rest),
        None => (true, rest.strip_prefix("Reformat:")?),
    };
    // "Reformat: ?": the space is taken where the rest then reads, else left to the lists.
    let spaced = if reformat {
        rest.strip_prefix(' ')
    } else {
        None
    };
    spaced
        .and_then(|rest| format_lists(rest, reformat))
        .or_else(|| format_lists(rest, reformat))?
}

/// The lists of `rest`: None where the rule does not match; Some(None) where it does but the
/// grammar may split the line elsewhere.
fn format_lists(rest: &str, reformat: bool) -> Option<Option<Record>> {
    let lists = rest.strip_suffix(" ***************")?;
    let (inputs, outputs) = lists.split_once(" -> ")?;
    let list = |text: &str| {
        let valid = text.is_empty() || text.starts_with(|c: char| c.is_ascii_alphabetic());
        valid.then(|| (!text.is_empty()).then(|| text.to_string()))
    };
    let (inputs, outputs) = (list(inputs)?, list(outputs)?);
    // Where a list holds the arrow or the stars, the grammar's lazy FORMAT_LIST may split the
    // line elsewhere: left to it.
    if inputs
        .as_deref()
        .is_some_and(|text| text.contains("***************"))
        || outputs
            .as_deref()
            .is_some_and(|text| text.contains(" -> ") || text.ends_with(" ->"))
    {
        // (Outputs ending in " ->" make an arrow with the space before the stars.)
        return Some(None);
    }
    Some(Some(Record::Combination {
        inputs,
        outputs,
        reformat,
    }))
}

/// "costs for[ <layer>]" or "reformatting costs[...]" after "=============== Computing ".
fn costs(rest: &str) -> Option<Record> {
    let (reformatting, subject) = if let Some(subject) = rest.strip_prefix("costs for") {
        (false, subject)
    } else {
        (true, rest.strip_prefix("reformatting costs")?)
    };
    // COSTS_SUBJECT: a colon or a space, then the rest of the line (or nothing).
    if !(subject.is_empty() || subject.starts_with(':') || subject.starts_with(' ')) {
        return None;
    }
    Some(Record::Costs {
        subject: (!subject.is_empty()).then(|| subject.to_string()),
        reformatting,
    })
}

#[cfg(test)]
mod tests;
