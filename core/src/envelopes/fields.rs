//! The pieces an envelope that `split` found is built from.

use regex::Regex;

use super::{
    patterns, split, Fields, Split, Style, PADDLE_TENSORRT_LOGGER, TRITON_TENSORRT_LOGGER,
};

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
    let mut style = style;
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
            // The level word is PYTHON_TRT_LEVEL's first group.
            let captures = found(&patterns.python_legacy_level)?;
            (None, group(&captures, 1), "trt")
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
            // glog's pieces, a blank after each: the level letter with the day, the time of
            // day (the two are the stamp), the thread, the source file and line.
            let (day, rest) = prefix.split_once(' ')?;
            let (time, rest) = rest.split_once(' ')?;
            let stamp = &prefix[1..day.len() + 1 + time.len()];
            let source = rest.split_whitespace().nth(1)?.split(':').next()?;
            let producer = match source {
                TRITON_TENSORRT_LOGGER => "trt",
                PADDLE_TENSORRT_LOGGER => {
                    style = Style::Paddle;
                    "trt"
                }
                _ => {
                    style = Style::Glog;
                    "glog"
                }
            };
            (Some(stamp), Some(&prefix[..1]), producer)
        }
        // `split` finds every glog prefix as Triton's.
        Style::Paddle | Style::Glog => return None,
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
