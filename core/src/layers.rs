//! One-line messages about layers, the builder's notes and phase durations, as their grammar
//! rules read them (a few lines per layer of a build, and most of the rest of a 10.x log):
//!
//! - `layer_memory` (`memory.lark`): "Layer: conv1 Host Persistent: 1664 Device Persistent: 0
//!   Scratch Memory: 0" (8.2 without the spaces in the keys, 10.x with " bytes" after each);
//! - `reformat_layer_added` (`autotuning.lark`): "Adding reformat layer: <tensor> (<source>)
//!   from <format> to <format>";
//! - `foreign_node_metadata` (`graph.lark`): "ForeignNode {ForeignNode[a...b]} [profile 1]
//!   metadata: [ONNX Layer: a][ONNX Layer: b]" (10.x);
//! - `builder_note` (`notes.lark`): a fixed sentence, BUILDER_NOTE_TEXT, the whole line;
//! - `phase_duration` (`phases.lark`): "<phase> completed in 0.38 seconds.".
//!
//! A lazy terminal that ends where its lookahead matches (MEMORY_LAYER, REFORMAT_TENSOR,
//! PHASE_NAME, ...) is read with its own pattern, the lookahead as written (Rust's `\d` is
//! Unicode's decimal digits, as Python's): the shortest text the lexer takes. What follows it
//! must then be the rest of the rule in full, read with narrowed terminals, with no going back
//! into the terminal (the lexer does not). Each form is claimed only where it is the rule in full.

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::{definition, literals, narrowed, narrowed_terminal, terminal, Piece};
use crate::records::Record;

/// The grammar's own literals of the rules read here (`tests` checks the rules still say so).
const LAYER: &str = "Layer: ";
const SCRATCH: &str = " Scratch Memory: ";
const REFORMAT: &str = "Adding reformat layer: ";
const SOURCE_OPEN: &str = " (";
const SOURCE_CLOSE: &str = ") from ";
const TO: &str = " to ";
const FOREIGN_NODE: &str = "ForeignNode ";
const PROFILE_OPEN: &str = " [profile ";
const PROFILE_CLOSE: &str = "]";
const METADATA: &str = " metadata:";
const METADATA_GAP: &str = " ";
const COMPLETED: &str = " completed in ";
const SECONDS: &str = " seconds.";
/// The terminal that ends a note: the line ends there (`(?![^\n])`).
const END_OF_LINE: &str = "_END_OF_LINE";

/// A record of this module: its rule's tokens as printed (the transformer's field functions
/// read them, numbers included).
#[derive(Clone, Debug, PartialEq)]
pub enum LayerRecord {
    Memory {
        layer: String,
        host: String,
        device: String,
        scratch: Option<String>,
    },
    Reformat {
        tensor: String,
        source: String,
        from_format: String,
        to_format: String,
    },
    ForeignNode {
        node: String,
        profile: Option<String>,
        metadata: Option<String>,
    },
    Note {
        text: String,
    },
    Phase {
        phase: String,
        seconds: String,
    },
}

/// Every rule a record of this module may be (for the guards each needs).
pub const RULES: [&str; 5] = [
    "layer_memory",
    "reformat_layer_added",
    "foreign_node_metadata",
    "builder_note",
    "phase_duration",
];

impl LayerRecord {
    /// The grammar rule the record is (its event's class is named after it).
    pub fn rule(&self) -> &'static str {
        match self {
            LayerRecord::Memory { .. } => RULES[0],
            LayerRecord::Reformat { .. } => RULES[1],
            LayerRecord::ForeignNode { .. } => RULES[2],
            LayerRecord::Note { .. } => RULES[3],
            LayerRecord::Phase { .. } => RULES[4],
        }
    }
}

struct Patterns {
    memory_layer: Regex,
    memory_rest: Regex,
    reformat_tensor: Regex,
    reformat_source: Regex,
    reformat_from: Regex,
    foreign_node_name: Regex,
    foreign_node_rest: Regex,
    phase_name: Regex,
    phase_rest: Regex,
    note: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let uint = narrowed_terminal("UINT");
        let bytes = literals("_BYTES_UNIT")
            .iter()
            .map(|unit| regex::escape(unit))
            .collect::<Vec<_>>()
            .join("|");
        let host = narrowed_terminal("_MEMORY_HOST_KEY");
        let device = narrowed_terminal("_MEMORY_DEVICE_KEY");
        let scratch = regex::escape(SCRATCH);
        let number = narrowed_terminal("NUMBER");
        let rest = narrowed_terminal("REST");
        let compile = |pattern: String| Regex::new(&pattern).expect("layer record pattern");
        Patterns {
            memory_layer: lazy_terminal("MEMORY_LAYER"),
            memory_rest: compile(format!(
                r"\A{host}({uint})(?:{bytes})?{device}({uint})(?:{bytes})?(?:{scratch}({uint})(?:{bytes})?)?\z"
            )),
            reformat_tensor: lazy_terminal("REFORMAT_TENSOR"),
            reformat_source: lazy_terminal("REFORMAT_SOURCE"),
            reformat_from: lazy_terminal("REFORMAT_FROM"),
            foreign_node_name: lazy_terminal("FOREIGN_NODE_NAME"),
            foreign_node_rest: compile(format!(
                r"\A(?:{}({uint}){})?{}(?:{}({rest}))?\z",
                regex::escape(PROFILE_OPEN),
                regex::escape(PROFILE_CLOSE),
                regex::escape(METADATA),
                regex::escape(METADATA_GAP),
            )),
            phase_name: lazy_terminal("PHASE_NAME"),
            phase_rest: compile(format!(
                r"\A{}({number}){}\z",
                regex::escape(COMPLETED),
                regex::escape(SECONDS)
            )),
            note: compile(format!(r"\A(?:{})\z", note_alternatives().join("|"))),
        }
    })
}

/// A terminal written as a pattern and its lookahead, `X(?=L)`, as `\A(X)L`: the first group
/// is the token the lexer takes (the regex crate reports the match a backtracking engine finds
/// first, so a lazy X is the shortest followed by L, as in Python). A body is one line, so the
/// lookahead's "not followed by a character but a newline", `(?![^\n])`, is the end of a line.
pub(crate) fn lazy_terminal(name: &str) -> Regex {
    let pattern = terminal(name).unwrap_or_else(|| panic!("terminal {name} is not in the grammar"));
    let (token, lookahead) = pattern
        .split_once("(?=")
        .and_then(|(token, rest)| Some((token, rest.strip_suffix(')')?)))
        .unwrap_or_else(|| panic!("terminal {name} ends in a lookahead"));
    let lookahead = lookahead.replace(r"(?![^\n])", "(?m:$)");
    Regex::new(&format!(r"\A({})(?:{lookahead})", narrowed(token))).expect("lazy terminal")
}

/// BUILDER_NOTE_TEXT's alternatives as Rust patterns that match the same text or less: its
/// subject terminals' literals and patterns, `\w` read as ASCII word characters. The note is
/// "(" SUBJECT ("|" SUBJECT)* ")" _END_OF_LINE, the whole line (the end of the body here).
fn note_alternatives() -> Vec<String> {
    let pieces = definition("BUILDER_NOTE_TEXT");
    let [Piece::Symbol('('), subjects @ .., Piece::Symbol(')'), Piece::Name(END_OF_LINE)] =
        pieces.as_slice()
    else {
        panic!("BUILDER_NOTE_TEXT is its subjects' alternatives and the line's end");
    };
    subjects
        .iter()
        .filter_map(|piece| match piece {
            Piece::Name(subject) => Some(definition(subject)),
            Piece::Symbol('|') => None,
            other => panic!("BUILDER_NOTE_TEXT holds {other:?}"),
        })
        .flatten()
        .filter_map(|piece| match piece {
            Piece::Literal(text) => Some(regex::escape(text)),
            Piece::Pattern(pattern) => Some(narrowed(pattern).replace(r"\w", "[A-Za-z0-9_]")),
            Piece::Symbol('|') => None,
            other => panic!("a note's subject holds {other:?}"),
        })
        .collect()
}

/// Whether a body may be one of these records (by its first bytes or the phrase it holds).
pub fn may_be(body: &str) -> bool {
    body.starts_with(LAYER)
        || body.starts_with(REFORMAT)
        || body.starts_with(FOREIGN_NODE)
        || body.contains(COMPLETED)
        || patterns().note.is_match(body)
}

/// The body as one of these records, if it is one in full.
pub fn record(body: &str) -> Option<Record> {
    layer_record(body).map(Record::Layers)
}

fn layer_record(body: &str) -> Option<LayerRecord> {
    let patterns = patterns();
    if let Some(rest) = body.strip_prefix(LAYER) {
        return memory(rest, patterns);
    }
    if let Some(rest) = body.strip_prefix(REFORMAT) {
        return reformat(rest, patterns);
    }
    if let Some(rest) = body.strip_prefix(FOREIGN_NODE) {
        return foreign_node(rest, patterns);
    }
    // A blank message is an empty one, though a note may start with a tab.
    if body.chars().all(python_space) {
        return None;
    }
    if patterns.note.is_match(body) {
        return Some(LayerRecord::Note {
            text: body.to_string(),
        });
    }
    if body.contains(COMPLETED) {
        return phase(body, patterns);
    }
    None
}

/// Python's `str.isspace` for the characters Rust's `char::is_whitespace` reads otherwise.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The token of a lazy terminal at the start of `text`, and the text after it.
pub(crate) fn token<'a>(terminal: &Regex, text: &'a str) -> Option<(&'a str, &'a str)> {
    let token = terminal.captures(text)?.get(1)?;
    Some((token.as_str(), &text[token.end()..]))
}

/// The text of group `group`, if it took part in the match.
fn group(found: &regex::Captures<'_>, group: usize) -> Option<String> {
    found.get(group).map(|text| text.as_str().to_string())
}

/// Whether every whole number of a match fits in 64 signed bits: a larger one (a corrupted
/// log) is left to the grammar, which keeps it as no value and counts it.
fn fit(found: &regex::Captures<'_>, groups: &[usize]) -> bool {
    groups.iter().all(|&index| {
        found
            .get(index)
            .is_none_or(|digits| digits.as_str().parse::<i64>().is_ok())
    })
}

/// MEMORY_LAYER, then the host and device keys, each UINT with its unit, and the scratch.
fn memory(text: &str, patterns: &Patterns) -> Option<LayerRecord> {
    let (layer, rest) = token(&patterns.memory_layer, text)?;
    let found = patterns
        .memory_rest
        .captures(rest)
        .filter(|found| fit(found, &[1, 2, 3]))?;
    Some(LayerRecord::Memory {
        layer: layer.to_string(),
        host: group(&found, 1)?,
        device: group(&found, 2)?,
        scratch: group(&found, 3),
    })
}

/// REFORMAT_TENSOR " (" REFORMAT_SOURCE ") from " REFORMAT_FROM " to " REST.
fn reformat(text: &str, patterns: &Patterns) -> Option<LayerRecord> {
    let (tensor, rest) = token(&patterns.reformat_tensor, text)?;
    let (source, rest) = token(&patterns.reformat_source, rest.strip_prefix(SOURCE_OPEN)?)?;
    let (from_format, rest) = token(&patterns.reformat_from, rest.strip_prefix(SOURCE_CLOSE)?)?;
    let to_format = rest.strip_prefix(TO)?;
    (!to_format.is_empty()).then(|| LayerRecord::Reformat {
        tensor: tensor.to_string(),
        source: source.to_string(),
        from_format: from_format.to_string(),
        to_format: to_format.to_string(),
    })
}

/// FOREIGN_NODE_NAME [" [profile " UINT "]"] " metadata:" [" " REST].
fn foreign_node(text: &str, patterns: &Patterns) -> Option<LayerRecord> {
    let (node, rest) = token(&patterns.foreign_node_name, text)?;
    let found = patterns
        .foreign_node_rest
        .captures(rest)
        .filter(|found| fit(found, &[1]))?;
    Some(LayerRecord::ForeignNode {
        node: node.to_string(),
        profile: group(&found, 1),
        metadata: group(&found, 2),
    })
}

/// PHASE_NAME " completed in " NUMBER " seconds.".
fn phase(body: &str, patterns: &Patterns) -> Option<LayerRecord> {
    let (phase, rest) = token(&patterns.phase_name, body)?;
    let found = patterns.phase_rest.captures(rest)?;
    Some(LayerRecord::Phase {
        phase: phase.to_string(),
        seconds: group(&found, 1)?,
    })
}

#[cfg(feature = "python")]
impl LayerRecord {
    /// The record as `(rule, token, ...)` (see `python::record`).
    pub(crate) fn into_python(
        self,
        py: pyo3::Python<'_>,
        rule: pyo3::Bound<'_, pyo3::types::PyString>,
    ) -> pyo3::PyResult<pyo3::Py<pyo3::PyAny>> {
        use pyo3::IntoPyObject;
        let object = match self {
            LayerRecord::Memory {
                layer,
                host,
                device,
                scratch,
            } => (rule, layer, host, device, scratch).into_pyobject(py)?,
            LayerRecord::Reformat {
                tensor,
                source,
                from_format,
                to_format,
            } => (rule, tensor, source, from_format, to_format).into_pyobject(py)?,
            LayerRecord::ForeignNode {
                node,
                profile,
                metadata,
            } => (rule, node, profile, metadata).into_pyobject(py)?,
            LayerRecord::Note { text } => (rule, text).into_pyobject(py)?,
            LayerRecord::Phase { phase, seconds } => (rule, phase, seconds).into_pyobject(py)?,
        };
        Ok(object.into_any().unbind())
    }
}

#[cfg(test)]
mod tests;
