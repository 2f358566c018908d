//! Every envelope style the parser meets often, split off a line without the grammar.
//!
//! A line's envelope (`grammars/envelope.lark`) is the prefix its logger wrote: trtexec's
//! `[ts] [V] [TRT] ` and `[ts] [I] `, the Python API's `[ts] [TRT] [V] ` (with TensorRT-LLM's
//! `[TRT-LLM]` tag), TensorRT-Edge-LLM's `[13:47:39.127] [INFO] [TensorRT] `, the unstamped
//! `[TensorRT] VERBOSE: ` of 6.x-8.0 and bare level tags, onnx2trt's iso stamps, ONNX Runtime's
//! prefix, Triton's, and the logging prefixes of DeepStream, Torch-TensorRT and Python's logging
//! module. `split` says which, and how long the prefix is; `fields` reads the pieces an envelope
//! is built from. The patterns are the grammar's terminals (`grammar::narrowed_terminal`).
//!
//! A line that none of the terminals an envelope may start with (read from the grammar's rules,
//! `starts`) matches at its start has no envelope. Where only the grammar can tell, `split` says
//! so (`Split::Grammar`): the rarer envelopes (a stamp alone, `[TRT] [V]`, jetson-inference's
//! `[TRT]    `, TensorRT-LLM's runtime's `[TensorRT-LLM][INFO] `, TensorFlow's, tags pasted
//! after blanks) and every line with a character beyond ASCII where a pattern is tried
//! (Python's `\d`, `\w` and `\s` take more of those than the narrowed terminals do).

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::{narrowed_keeping_groups, narrowed_terminal, terminal};
use crate::reach::Reach;

pub use fields::fields;

/// The envelope styles split here. Each is one of the envelope grammar's rules, and the style
/// its envelope is given, but for ONNX Runtime's prefix with the stamp and level of its TensorRT
/// logger after it (`OnnxruntimeRelayed`), whose level is read as that logger's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Trtexec,
    PythonApi,
    Level,
    PythonLegacy,
    EdgeLlm,
    Deepstream,
    IsoStamped,
    Onnxruntime,
    OnnxruntimeRelayed,
    /// glog's prefix (`TRITON_PREFIX`), as `split` finds it; `fields` tells by its source file
    /// which logger wrote it: Triton's TensorRT backend's, Paddle Inference's, or neither.
    Triton,
    Paddle,
    Glog,
    TorchTensorrt,
    PythonLogging,
}

impl Style {
    /// The name the Python package reads the style by.
    pub fn name(self) -> &'static str {
        match self {
            Style::Trtexec => "trtexec",
            Style::PythonApi => "python-api",
            Style::Level => "level",
            Style::PythonLegacy => "python-legacy",
            Style::EdgeLlm => "edge-llm",
            Style::Deepstream => "deepstream",
            Style::IsoStamped => "onnx-tensorrt",
            Style::Onnxruntime => "onnxruntime",
            Style::OnnxruntimeRelayed => "onnxruntime-relayed",
            Style::Triton => "triton",
            Style::Paddle => "paddle",
            Style::Glog => "glog",
            Style::TorchTensorrt => "torch-tensorrt",
            Style::PythonLogging => "python-logging",
        }
    }
}

/// What `split` makes of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Only the grammar can tell.
    Grammar,
    /// The line has no envelope: all of it is the body.
    NoEnvelope,
    /// An envelope of `style`, the line's first `len` bytes (all ASCII, so as many characters).
    Envelope { style: Style, len: usize },
}

/// The pieces an envelope is built from, as printed: the stamp (without the blank after it),
/// the level (a letter or a word, read by the style's table of levels) and the producer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields<'a> {
    pub style: Style,
    pub stamp: Option<&'a str>,
    pub level: Option<&'a str>,
    pub producer: &'static str,
}

/// The source file of the logger that Triton's TensorRT backend hands TensorRT.
const TRITON_TENSORRT_LOGGER: &str = "logging.cc";
/// The source file of Paddle Inference's logger of TensorRT (paddle/fluid/inference/tensorrt).
const PADDLE_TENSORRT_LOGGER: &str = "helper.h";

/// Per style, its pattern: the grammar's terminals in a row, each a group.
struct Patterns {
    trtexec: Regex,
    python_api: Regex,
    python_legacy: Regex,
    /// PYTHON_TRT_LEVEL with its groups capturing: the first is the level word.
    python_legacy_level: Regex,
    level: Regex,
    edge_llm: Regex,
    iso_stamped: Regex,
    onnxruntime_relayed: Regex,
    onnxruntime: Regex,
    triton: Regex,
    deepstream: Regex,
    torch_tensorrt: Regex,
    python_logging: Regex,
    /// The longest text `trtexec` and `python_api` match (they have no lookahead): what they
    /// make of a line depends on its first `stamped_head` bytes alone.
    stamped_head: usize,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        // A name ending in "?" is an optional terminal.
        let terminals = |names: &[&str]| {
            let groups: String = names
                .iter()
                .map(|name| match name.strip_suffix('?') {
                    Some(name) => format!("({})?", narrowed_terminal(name)),
                    None => format!("({})", narrowed_terminal(name)),
                })
                .collect();
            Regex::new(&format!("^{groups}")).expect("the envelope terminals compile")
        };
        let longest = |pattern: &Regex| {
            let parsed = regex_syntax::parse(pattern.as_str()).expect("a compiled pattern parses");
            parsed
                .properties()
                .maximum_len()
                .expect("a stamped envelope has a longest text")
        };
        let trtexec = terminals(&["TIMESTAMP", "LEVEL_TAG", "LIBRARY_TAG?"]);
        let python_api = terminals(&["TIMESTAMP", "LIBRARY_TAG", "LEVEL_TAG?"]);
        Patterns {
            stamped_head: longest(&trtexec).max(longest(&python_api)),
            trtexec,
            python_api,
            python_legacy: terminals(&["PYTHON_TRT_LEVEL"]),
            python_legacy_level: Regex::new(&format!(
                "^{}",
                narrowed_keeping_groups(terminal("PYTHON_TRT_LEVEL").unwrap_or_default())
            ))
            .expect("PYTHON_TRT_LEVEL compiles"),
            level: terminals(&["LEVEL_TAG", "LIBRARY_TAG?"]),
            edge_llm: terminals(&["CLOCK_STAMP", "WORD_LEVEL_TAG", "SOURCE_TAG"]),
            iso_stamped: terminals(&["ISO_STAMP_LEVEL"]),
            onnxruntime_relayed: terminals(&["ONNXRUNTIME_PREFIX", "ISO_STAMP_LEVEL"]),
            onnxruntime: terminals(&["ONNXRUNTIME_PREFIX"]),
            triton: terminals(&["TRITON_PREFIX"]),
            deepstream: terminals(&["DEEPSTREAM_PREFIX"]),
            torch_tensorrt: terminals(&["TORCH_TRT_PREFIX"]),
            python_logging: terminals(&["PYTHON_LOGGING_PREFIX"]),
        }
    })
}

/// The envelope `line` starts with, if any; `Split::Grammar` where only the grammar can tell.
/// A line that none of the terminals an envelope starts with matches at its start has none
/// (`starts`); one that such a terminal matches is split by the patterns that begin as it does,
/// or left to the grammar.
pub fn split(line: &str) -> Split {
    let Some(&first) = line.as_bytes().first() else {
        return Split::NoEnvelope;
    };
    match starts::reach(line) {
        Reach::Nothing => return Split::NoEnvelope,
        Reach::Unknown => return Split::Grammar,
        Reach::Match => {}
    }
    if !line.is_ascii() {
        return Split::Grammar;
    }
    let patterns = patterns();
    let tried: &[(Style, &Regex)] = if first == b'[' {
        &[
            (Style::Trtexec, &patterns.trtexec),
            (Style::PythonApi, &patterns.python_api),
            (Style::PythonLegacy, &patterns.python_legacy),
            (Style::Level, &patterns.level),
            (Style::EdgeLlm, &patterns.edge_llm),
            (Style::IsoStamped, &patterns.iso_stamped),
        ]
    } else {
        &[
            (Style::Deepstream, &patterns.deepstream),
            (Style::TorchTensorrt, &patterns.torch_tensorrt),
            (Style::PythonLogging, &patterns.python_logging),
            (Style::OnnxruntimeRelayed, &patterns.onnxruntime_relayed),
            (Style::Onnxruntime, &patterns.onnxruntime),
            (Style::Triton, &patterns.triton),
        ]
    };
    first_match(line, tried).unwrap_or(Split::Grammar)
}

/// `split`, with the last stamped envelope remembered: the lines of one second at one level
/// start alike, and comparing their first bytes costs less than matching again.
#[derive(Debug, Default)]
pub struct HeadMemo {
    head: String,
    found: Option<Split>,
}

impl HeadMemo {
    pub fn split(&mut self, line: &str) -> Split {
        let length = patterns().stamped_head;
        let head = line.get(..length);
        if let (Some(found), Some(head)) = (self.found, head) {
            // The rest of the line must be ASCII too, as `split` asks.
            if head == self.head && line.is_ascii() {
                return found;
            }
        }
        let found = split(line);
        if let (Split::Envelope { style, .. }, Some(head)) = (found, head) {
            if matches!(style, Style::Trtexec | Style::PythonApi) {
                head.clone_into(&mut self.head);
                self.found = Some(found);
            }
        }
        found
    }
}

fn first_match(line: &str, tried: &[(Style, &Regex)]) -> Option<Split> {
    tried.iter().find_map(|&(style, pattern)| {
        let found = pattern.find(line)?;
        Some(Split::Envelope {
            style,
            len: found.end(),
        })
    })
}

mod fields;
#[cfg(feature = "python")]
pub mod python;
mod starts;
#[cfg(test)]
mod tests;
