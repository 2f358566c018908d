//! Frequent one-line messages outside tactic tuning, as their grammar rules read them. In 8.x
//! builds from ONNX (and INT8 ones above all) they are a fifth to a third of the lines:
//!
//! - `onnx_importer_trace` (`onnx.lark`): the ONNX parser's VERBOSE trace, an IMPORTER_STEP
//!   and the rest ("Parsing node: Conv_0 [Conv]", "Registering tensor: 123 for ONNX tensor:
//!   123"), 8.x to 10.x;
//! - `onnx_node_io`: "Conv_0 [Conv] inputs: [x -> (1, 3, 224, 224)[FLOAT]], ";
//! - `quantization_params` (`graph.lark`): a QUANTIZATION_STEP and the rest ("Setting dynamic
//!   range for X to [-4,4]"), 8.4-8.5 INT8 builds;
//! - `layer_removed`: "Removing ONNXTRT_ShapeShuffle_7";
//! - `fusion_pass_running`: "Running: ConstShuffleFusion on gemm1.bias" (8.4 and later);
//! - `plugin_registration` (`notes.lark`): "Registered plugin creator - ::ROIAlign_TRT version 2".
//!
//! The literal steps are read from the grammar's terminals; each form is claimed only where it
//! is the rule in full, and the tokens are handed on as printed (the transformer strips them).

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::{literals, narrowed_terminal};
use crate::records::Record;

/// The grammar's own literals of the rules read here (`tests` checks the rules still say so).
const REMOVING: &str = "Removing ";
const RUNNING: &str = "Running: ";
const ON: &str = " on ";
const PLUGIN_SEPARATOR: &str = " - ";
const PLUGIN_VERSION: &str = " version ";

struct Patterns {
    importer_steps: Vec<&'static str>,
    quantization_steps: Vec<&'static str>,
    plugin_verbs: Vec<&'static str>,
    /// What follows a node's name in `onnx_node_io`: ONNX_NODE_NAME's lookahead.
    node_io: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let op = narrowed_terminal("ONNX_OP");
        Patterns {
            importer_steps: literals("IMPORTER_STEP"),
            quantization_steps: literals("QUANTIZATION_STEP"),
            plugin_verbs: literals("PLUGIN_REGISTRY_VERB"),
            node_io: Regex::new(&format!(r" \[({op})\] (inputs|outputs):")).expect("node pattern"),
        }
    })
}

/// Whether a body may be one of these messages (by its first bytes or the phrase it holds).
pub fn may_be_message(body: &str) -> bool {
    let Some(first) = body.as_bytes().first() else {
        return false;
    };
    match first {
        b'R' if body.starts_with(REMOVING) || body.starts_with(RUNNING) => true,
        b'R' | b'P' | b'S' | b'C' | b'D' | b'I' | b'U' | b'O' | b'T' | b'N' | b'A' | b'u' => {
            let patterns = patterns();
            starting(&patterns.importer_steps, body).is_some()
                || starting(&patterns.quantization_steps, body).is_some()
                || starting(&patterns.plugin_verbs, body).is_some()
                || body.contains("] inputs:")
                || body.contains("] outputs:")
        }
        _ => body.contains("] inputs:") || body.contains("] outputs:"),
    }
}

/// The first of `steps` (a terminal's alternatives, in the grammar's order) `body` starts with.
fn starting(steps: &[&'static str], body: &str) -> Option<&'static str> {
    steps.iter().copied().find(|step| body.starts_with(step))
}

/// REST, optional: the rest of the line (at least one character), or nothing.
fn rest(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

/// The body as one of these messages, if it is one in full.
pub fn message(body: &str) -> Option<Record> {
    let patterns = patterns();
    if let Some(step) = starting(&patterns.importer_steps, body) {
        return Some(Record::Step {
            rule: "onnx_importer_trace",
            step,
            rest: rest(&body[step.len()..]),
        });
    }
    if let Some(step) = starting(&patterns.quantization_steps, body) {
        return Some(Record::Step {
            rule: "quantization_params",
            step,
            rest: rest(&body[step.len()..]),
        });
    }
    if let Some(layer) = body.strip_prefix(REMOVING) {
        // REST is required.
        return (!layer.is_empty()).then(|| Record::Step {
            rule: "layer_removed",
            step: REMOVING,
            rest: rest(layer),
        });
    }
    if let Some(pass) = body.strip_prefix(RUNNING) {
        return fusion_pass(pass);
    }
    if let Some(verb) = starting(&patterns.plugin_verbs, body) {
        return plugin(&body[verb.len()..], verb);
    }
    node_io(body, patterns)
}

/// "Running: " PASS_NAME [" on " REST]: the name in ASCII word characters (Python's `\w` takes
/// more: a name followed by any other letter is left to the grammar).
fn fusion_pass(text: &str) -> Option<Record> {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, after) = text.split_at(end);
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let target = match after {
        "" => None,
        _ => Some(after.strip_prefix(ON).filter(|target| !target.is_empty())?),
    };
    Some(Record::FusionPass {
        name: name.to_string(),
        target: target.map(str::to_string),
    })
}

/// PLUGIN_REGISTRY_VERB " - " [PLUGIN_NAMESPACE] "::" PLUGIN_NAME " version " PLUGIN_VERSION:
/// the namespace in ASCII word characters and dots, the name the shortest text before
/// " version ", the version printable ASCII to the end of the line.
fn plugin(text: &str, verb: &'static str) -> Option<Record> {
    let text = text.strip_prefix(PLUGIN_SEPARATOR)?;
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len());
    let (namespace, after) = text.split_at(end);
    let after = after.strip_prefix("::")?;
    // PLUGIN_NAME is at least one character long.
    let (split, _) = after
        .match_indices(PLUGIN_VERSION)
        .find(|(index, _)| *index >= 1)?;
    let version = &after[split + PLUGIN_VERSION.len()..];
    if version.is_empty() || !version.bytes().all(|byte| byte.is_ascii_graphic()) {
        return None;
    }
    Some(Record::Plugin {
        already: verb.starts_with("Plugin creator already"),
        namespace: (!namespace.is_empty()).then(|| namespace.to_string()),
        name: after[..split].to_string(),
        version: version.to_string(),
    })
}

/// ONNX_NODE_NAME " [" ONNX_OP "] " NODE_IO_DIRECTION ":" [REST]: the name is the shortest
/// text (one character or more) followed by " [<op>] inputs:" or " [<op>] outputs:".
fn node_io(body: &str, patterns: &Patterns) -> Option<Record> {
    let first = body.chars().next()?.len_utf8();
    let found = patterns.node_io.captures_at(body, first)?;
    let whole = found.get(0)?;
    Some(Record::NodeIo {
        node: body[..whole.start()].to_string(),
        op: found.get(1)?.as_str().to_string(),
        direction: if &found[2] == "inputs" {
            "inputs"
        } else {
            "outputs"
        },
        rest: rest(&body[whole.end()..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::rule_text;

    #[test]
    fn the_grammar_still_spells_the_literals_read_here() {
        assert_eq!(rule_text("layer_removed"), Some(r#""Removing " REST"#));
        assert_eq!(
            rule_text("fusion_pass_running"),
            Some(r#""Running: " PASS_NAME [" on " REST]"#)
        );
        assert_eq!(
            rule_text("plugin_registration"),
            Some(
                r#"PLUGIN_REGISTRY_VERB " - " [PLUGIN_NAMESPACE] "::" PLUGIN_NAME " version " PLUGIN_VERSION"#
            )
        );
        assert!(patterns().importer_steps.contains(&"Registering tensor: "));
        assert!(patterns()
            .quantization_steps
            .contains(&"Setting dynamic range for "));
    }

    #[test]
    fn onnx_importer_lines_of_8_x_builds() {
        // TensorRT 8.6 trtexec --verbose (hackathon corpus log).
        assert_eq!(
            message("Registering tensor: tensor-0 for ONNX tensor: tensor-0"),
            Some(Record::Step {
                rule: "onnx_importer_trace",
                step: "Registering tensor: ",
                rest: Some("tensor-0 for ONNX tensor: tensor-0".into()),
            })
        );
        assert_eq!(
            message("Conv-1 [Conv] inputs: [tensor-0 -> (-1, 1, 28, 28)[FLOAT]], [constant0 -> (32, 1, 5, 5)[FLOAT]], "),
            Some(Record::NodeIo {
                node: "Conv-1".into(),
                op: "Conv".into(),
                direction: "inputs",
                rest: Some(" [tensor-0 -> (-1, 1, 28, 28)[FLOAT]], [constant0 -> (32, 1, 5, 5)[FLOAT]], ".into()),
            })
        );
        // The name is the shortest text before a node suffix.
        assert_eq!(
            message("a [X] inputs: b [Y] outputs: c"),
            Some(Record::NodeIo {
                node: "a".into(),
                op: "X".into(),
                direction: "inputs",
                rest: Some(" b [Y] outputs: c".into()),
            })
        );
        assert_eq!(message(" [Conv] inputs: x"), None);
    }

    #[test]
    fn graph_and_plugin_lines() {
        // TensorRT 8.5 INT8 trtexec (TREx's yolo log), 8.6 trtexec.
        assert_eq!(
            message("Setting dynamic range for (Unnamed Layer* 0) [Constant]_output to [-4,4]"),
            Some(Record::Step {
                rule: "quantization_params",
                step: "Setting dynamic range for ",
                rest: Some("(Unnamed Layer* 0) [Constant]_output to [-4,4]".into()),
            })
        );
        assert_eq!(
            message("Removing (Unnamed Layer* 24) [Shuffle]"),
            Some(Record::Step {
                rule: "layer_removed",
                step: "Removing ",
                rest: Some("(Unnamed Layer* 24) [Shuffle]".into()),
            })
        );
        assert_eq!(message("Removing "), None);
        assert_eq!(
            message("Running: ConstShuffleFusion on constant1024"),
            Some(Record::FusionPass {
                name: "ConstShuffleFusion".into(),
                target: Some("constant1024".into()),
            })
        );
        // 8.0/8.2: no target.
        assert_eq!(
            message("Running: ConstShuffleFusion"),
            Some(Record::FusionPass {
                name: "ConstShuffleFusion".into(),
                target: None,
            })
        );
        assert_eq!(message("Running: Fusion on "), None);
        assert_eq!(message("Running: Fusion now"), None);
        assert_eq!(message("Running: Fusionå on x"), None);
        assert_eq!(
            message("Registered plugin creator - ::BatchedNMSDynamic_TRT version 1"),
            Some(Record::Plugin {
                already: false,
                namespace: None,
                name: "BatchedNMSDynamic_TRT".into(),
                version: "1".into(),
            })
        );
        assert_eq!(
            message("Plugin creator already registered - nv.x::Identity version 1.2"),
            Some(Record::Plugin {
                already: true,
                namespace: Some("nv.x".into()),
                name: "Identity".into(),
                version: "1.2".into(),
            })
        );
        assert_eq!(
            message("Registered plugin creator - ::X version 1 extra"),
            None
        );
    }
}
