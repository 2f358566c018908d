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
//! Where only the grammar can tell, `split` says so (`Split::Grammar`): the rarer envelopes
//! (a stamp alone, `[TRT] [V]`, jetson-inference's `[TRT]    `) and every line with a
//! character beyond ASCII where a pattern is tried (Python's `\d`, `\w` and `\s` take more of
//! those than the narrowed terminals do).

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::narrowed_terminal;

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
    Triton,
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

/// The level words Python's logging module starts a line with: DeepStream's, Torch-TensorRT's
/// and other Python loggers' envelopes start with one.
const LOGGING_LEVELS: [&str; 5] = ["DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"];
/// What may follow the "[" of an envelope: a digit (a date or a time of day), a level letter,
/// or the T of "[TRT]" and "[TensorRT]". A line whose second character is none of these (a
/// progress bar's "[=====-----]") has no envelope.
const ENVELOPE_SECOND: &[u8] = b"VIWEFXSU!T";
/// The letters Triton's (glog's) prefix starts with.
const TRITON_LEVELS: &[u8] = b"IWEF";
/// The stamp of Triton's prefix after its level letter: "0511 01:22:37.728144".
const TRITON_STAMP: std::ops::Range<usize> = 1..21;
/// The source file of the logger that Triton's TensorRT backend hands TensorRT.
const TRITON_TENSORRT_LOGGER: &str = "logging.cc";

/// Per style, its pattern: the grammar's terminals in a row, each a group.
struct Patterns {
    trtexec: Regex,
    python_api: Regex,
    python_legacy: Regex,
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
pub fn split(line: &str) -> Split {
    let bytes = line.as_bytes();
    match bytes.first() {
        None => Split::NoEnvelope,
        Some(b'[') => bracketed(line),
        Some(&first) => unbracketed(line, first),
    }
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

/// A line that starts with "[": a stamp, a level or library tag, or no envelope at all.
fn bracketed(line: &str) -> Split {
    match line[1..].chars().next() {
        Some(second) if second.is_ascii() && ENVELOPE_SECOND.contains(&(second as u8)) => {}
        Some(second) if second.is_ascii_digit() => {}
        Some(second) if python_may_read_as_digit(second) => return Split::Grammar,
        _ => return Split::NoEnvelope,
    }
    if !line.is_ascii() {
        return Split::Grammar;
    }
    let patterns = patterns();
    let tried = [
        (Style::Trtexec, &patterns.trtexec),
        (Style::PythonApi, &patterns.python_api),
        (Style::PythonLegacy, &patterns.python_legacy),
        (Style::Level, &patterns.level),
        (Style::EdgeLlm, &patterns.edge_llm),
        (Style::IsoStamped, &patterns.iso_stamped),
    ];
    first_match(line, &tried).unwrap_or(Split::Grammar)
}

/// A line that starts otherwise: Python logging's level word, ONNX Runtime's date, Triton's
/// level letter, or no envelope at all.
fn unbracketed(line: &str, first: u8) -> Split {
    let patterns = patterns();
    let tried: &[(Style, &Regex)] = if LOGGING_LEVELS.iter().any(|word| line.starts_with(word)) {
        &[
            (Style::Deepstream, &patterns.deepstream),
            (Style::TorchTensorrt, &patterns.torch_tensorrt),
            (Style::PythonLogging, &patterns.python_logging),
        ]
    } else if first.is_ascii_digit() {
        &[
            (Style::OnnxruntimeRelayed, &patterns.onnxruntime_relayed),
            (Style::Onnxruntime, &patterns.onnxruntime),
        ]
    } else if TRITON_LEVELS.contains(&first) {
        &[(Style::Triton, &patterns.triton)]
    } else {
        let starts_with_digit = line.chars().next().is_some_and(python_may_read_as_digit);
        return if starts_with_digit {
            Split::Grammar
        } else {
            Split::NoEnvelope
        };
    };
    if !line.is_ascii() {
        return Split::Grammar;
    }
    first_match(line, tried).unwrap_or(Split::NoEnvelope)
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

/// Whether Python's `str.isdigit` may say yes to a character beyond ASCII (Rust's numeric
/// characters include all of its digits).
fn python_may_read_as_digit(character: char) -> bool {
    !character.is_ascii() && character.is_numeric()
}

/// The pieces of the envelope `prefix` is (a prefix `split` found, and nothing after it).
pub fn fields(prefix: &str) -> Option<Fields<'_>> {
    let Split::Envelope { style, len } = split(prefix) else {
        return None;
    };
    if len != prefix.len() {
        return None;
    }
    let patterns = patterns();
    let found = |pattern: &Regex| pattern.captures(prefix);
    let group = |captures: &regex::Captures<'_>, index: usize| -> Option<&str> {
        captures.get(index).map(|found| &prefix[found.range()])
    };
    let library = |tag: Option<&str>, default| match tag {
        None => default,
        Some(tag) if tag.contains("LLM") => "trtllm",
        Some(_) => "trt",
    };
    let (stamp, level, producer) = match style {
        Style::Trtexec | Style::PythonApi => {
            let trtexec = style == Style::Trtexec;
            let captures = found(if trtexec {
                &patterns.trtexec
            } else {
                &patterns.python_api
            })?;
            let stamp = group(&captures, 1).map(str::trim_end);
            let (first, second) = (group(&captures, 2), group(&captures, 3));
            if trtexec {
                (
                    stamp,
                    first.and_then(level_letter),
                    library(second, "trtexec"),
                )
            } else {
                (stamp, second.and_then(level_letter), library(first, "trt"))
            }
        }
        Style::Level => {
            let captures = found(&patterns.level)?;
            let level = group(&captures, 1).and_then(level_letter);
            (None, level, library(group(&captures, 2), "logger"))
        }
        Style::PythonLegacy => {
            let word = prefix["[TensorRT] ".len()..]
                .trim_end()
                .trim_end_matches(':');
            (None, Some(word), "trt")
        }
        Style::EdgeLlm => {
            let captures = found(&patterns.edge_llm)?;
            let stamp = group(&captures, 1)?.trim_end();
            let level = group(&captures, 2)?.trim().trim_matches(['[', ']']);
            let source = group(&captures, 3)?.trim();
            let source = &source[1..source.len() - 1];
            let producer = if source == "TensorRT" {
                "trt"
            } else {
                "edgellm"
            };
            (Some(stamp), Some(level), producer)
        }
        Style::IsoStamped => {
            let (stamp, level) = iso_stamp_and_level(prefix);
            (Some(stamp), Some(level), "trt")
        }
        Style::Onnxruntime | Style::OnnxruntimeRelayed => {
            let captures =
                found(&patterns.onnxruntime_relayed).or_else(|| found(&patterns.onnxruntime))?;
            let own = group(&captures, 1)?;
            let (stamp, rest) = own.split_once(" [")?;
            match group(&captures, 2) {
                Some(relayed) => (Some(stamp), Some(iso_stamp_and_level(relayed).1), "trt"),
                None => (Some(stamp), Some(&rest[..1]), "onnxruntime"),
            }
        }
        Style::Triton => {
            let source = prefix[TRITON_STAMP.end..].split_whitespace().nth(1)?;
            let source = source.split(':').next()?;
            let producer = if source == TRITON_TENSORRT_LOGGER {
                "trt"
            } else {
                "triton"
            };
            (Some(&prefix[TRITON_STAMP]), Some(&prefix[..1]), producer)
        }
        Style::Deepstream => (None, prefix.split(':').next(), "trt"),
        Style::TorchTensorrt => {
            let relayed = prefix.contains("Conversion Context");
            let producer = if relayed { "trt" } else { "torch_tensorrt" };
            (None, prefix.split(':').next(), producer)
        }
        Style::PythonLogging => {
            let mut parts = prefix.splitn(3, ':');
            let level = parts.next();
            let logger = parts.next()?;
            // torch-tensorrt 2.x relays TensorRT's logger as "[TensorRT Conversion Context]";
            // its other loggers speak for torch-tensorrt itself.
            let producer = if logger.contains("[TensorRT Conversion Context]") {
                "trt"
            } else if logger == "torch_tensorrt" || logger.starts_with("torch_tensorrt.") {
                "torch_tensorrt"
            } else {
                "python"
            };
            (None, level, producer)
        }
    };
    Some(Fields {
        style,
        stamp,
        level,
        producer,
    })
}

/// The letter of a level tag ("[V] ").
fn level_letter(tag: &str) -> Option<&str> {
    tag.get(1..2)
}

/// onnx2trt's `[YYYY-MM-DD HH:MM:SS    INFO] `: the stamp and the level word.
fn iso_stamp_and_level(tag: &str) -> (&str, &str) {
    let inner = tag.trim().trim_matches(['[', ']']);
    let (stamp, level) = inner.rsplit_once(' ').unwrap_or((inner, ""));
    (stamp.trim_end(), level)
}

#[cfg(feature = "python")]
pub mod python;
#[cfg(test)]
mod tests;
