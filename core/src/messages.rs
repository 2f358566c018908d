//! Frequent one-line messages outside tactic tuning, as their grammar rules read them, many of
//! the lines of 8.x builds from ONNX (and INT8 ones above all):
//!
//! - `onnx_importer_trace` (`onnx.lark`): the ONNX parser's VERBOSE trace, an IMPORTER_STEP
//!   and the rest ("Parsing node: Conv_0 [Conv]", "Registering tensor: 123 for ONNX tensor:
//!   123"), 8.x to 10.x;
//! - `onnx_node_io`: "Conv_0 [Conv] inputs: [x -> (1, 3, 224, 224)[FLOAT]], ";
//! - `quantization_params` (`graph.lark`): a QUANTIZATION_STEP and the rest ("Setting dynamic
//!   range for X to [-4,4]"), 8.4-8.5 INT8 builds;
//! - `layer_removed`: "Removing ONNXTRT_ShapeShuffle_7";
//! - `fusion_pass_running`: "Running: ConstShuffleFusion on gemm1.bias" (8.4 and later);
//! - `plugin_registration` (`notes.lark`): "Registered plugin creator - ::ROIAlign_TRT version 2";
//! - `layer_count`: "Original: 24 layers", "After dead-layer removal: 12 layers";
//! - `symbolic_shape`, `symbolic_shape_tensor`, `symbolic_shape_dimension`: 10.x's dump of the
//!   graph's symbolic shapes, a few lines per layer ("CONSTANT gemm1.weight", "    Output 0",
//!   "        1024\t1024").
//!
//! The literal steps are read from the grammar's terminals; each form is claimed only where it
//! is the rule in full, and the tokens are handed on as printed (the transformer strips them).

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::{literals, narrowed, narrowed_terminal, terminal};
use crate::records::Record;

/// The grammar's own literals of the rules read here (`tests` checks the rules still say so).
const REMOVING: &str = "Removing ";
const RUNNING: &str = "Running: ";
const ON: &str = " on ";
const PLUGIN_SEPARATOR: &str = " - ";
const PLUGIN_VERSION: &str = " version ";
const SHAPE_KIND_LOOKAHEAD: &str = r"(?= \S)";
const TENSOR_ROLE_INDENT: &str = "    ";
const DIMENSION_INDENT: &str = "        ";

struct Patterns {
    /// SHAPE_LAYER_KIND without its lookahead, and the space it looks for.
    shape_layer_kind: Regex,
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
        let kinds = terminal("SHAPE_LAYER_KIND")
            .and_then(|pattern| pattern.strip_suffix(SHAPE_KIND_LOOKAHEAD))
            .expect("SHAPE_LAYER_KIND ends in its lookahead");
        Patterns {
            shape_layer_kind: Regex::new(&format!(r"\A(?:{}) ", narrowed(kinds)))
                .expect("shape kinds"),
            importer_steps: literals("IMPORTER_STEP"),
            quantization_steps: literals("QUANTIZATION_STEP"),
            plugin_verbs: literals("PLUGIN_REGISTRY_VERB"),
            node_io: Regex::new(&format!(r" \[({op})\] (inputs|outputs):")).expect("node pattern"),
        }
    })
}

/// Whether a body may be one of these messages (by its first bytes or the phrase it holds).
pub fn may_be_message(body: &str) -> bool {
    may_be_known(body) || crate::layers::may_be(body)
}

fn may_be_known(body: &str) -> bool {
    let Some(first) = body.as_bytes().first() else {
        return false;
    };
    let node_io = || body.contains("] inputs:") || body.contains("] outputs:");
    match first {
        b' ' => body.starts_with(TENSOR_ROLE_INDENT) || node_io(),
        b'A'..=b'Z' | b'u' => {
            let patterns = patterns();
            body.starts_with(REMOVING)
                || body.starts_with(RUNNING)
                || body.starts_with("Original")
                || body.starts_with("After ")
                || starting(&patterns.importer_steps, body).is_some()
                || starting(&patterns.quantization_steps, body).is_some()
                || starting(&patterns.plugin_verbs, body).is_some()
                || patterns.shape_layer_kind.is_match(body)
                || node_io()
        }
        _ => node_io(),
    }
}

/// The first of `steps` (a terminal's alternatives, longest first as Lark tries them) `body`
/// starts with.
fn starting(steps: &[&'static str], body: &str) -> Option<&'static str> {
    steps.iter().copied().find(|step| body.starts_with(step))
}

/// REST, optional: the rest of the line (at least one character), or nothing.
fn rest(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

/// The body as one of these messages or of `layers`' records, if it is one in full.
pub fn message(body: &str) -> Option<Record> {
    known_message(body).or_else(|| crate::layers::record(body))
}

fn known_message(body: &str) -> Option<Record> {
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
    if body.starts_with("Original") || body.starts_with("After ") {
        return layer_count(body);
    }
    if let Some(found) = patterns.shape_layer_kind.find(body) {
        // The lookahead: a character that is not white space (Python's idea of it) follows.
        let name = &body[found.end()..];
        let printed = name.chars().next().is_some_and(|c| !python_space(c));
        return printed.then(|| Record::Symbolic {
            rule: "symbolic_shape",
            first: body[..found.end() - 1].to_string(),
            second: name.to_string(),
        });
    }
    if body.starts_with(TENSOR_ROLE_INDENT) {
        if let Some(found) = symbolic_tensor_or_dimension(body) {
            return Some(found);
        }
    }
    node_io(body, patterns)
}

/// Python's `str.isspace` for the characters Rust's `char::is_whitespace` reads otherwise.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// STAGE_NAME ": " UINT " layers": the stage "Original" or "After " and text without a colon,
/// then the count (ASCII digits) and nothing after it.
fn layer_count(body: &str) -> Option<Record> {
    let colon = body.find(':')?;
    let stage = &body[..colon];
    if !(stage == "Original" || stage.len() > "After ".len() && stage.starts_with("After ")) {
        return None;
    }
    let count = body[colon..].strip_prefix(": ")?.strip_suffix(" layers")?;
    // A count beyond 64 signed bits (a corrupted log) is left to the grammar, which keeps it as
    // no value and counts it.
    let digits = count.bytes().all(|byte| byte.is_ascii_digit()) && count.parse::<i64>().is_ok();
    digits.then(|| Record::Symbolic {
        rule: "layer_count",
        first: stage.to_string(),
        second: count.to_string(),
    })
}

/// SHAPE_TENSOR_ROLE UINT ("    Output 0") or SHAPE_DIMENSION "\t" REST ("        1024\t1024").
fn symbolic_tensor_or_dimension(body: &str) -> Option<Record> {
    if let Some(value) = body.strip_prefix(DIMENSION_INDENT) {
        // SHAPE_DIMENSION: at least one character that is not a tab, up to the first tab;
        // REST: at least one character after it.
        let tab = value.find('\t')?;
        let symbol = &value[tab + 1..];
        // A body of white space alone is an empty message, whatever its shape.
        let blank = body.chars().all(python_space);
        return (tab > 0 && !symbol.is_empty() && !blank).then(|| Record::Symbolic {
            rule: "symbolic_shape_dimension",
            first: body[..DIMENSION_INDENT.len() + tab].to_string(),
            second: symbol.to_string(),
        });
    }
    let rest = body.strip_prefix(TENSOR_ROLE_INDENT)?;
    let (role, index) = rest.split_once(' ')?;
    let known = role == "Input" || role == "Output";
    let digits = !index.is_empty() && index.bytes().all(|byte| byte.is_ascii_digit());
    (known && digits).then(|| Record::Symbolic {
        rule: "symbolic_shape_tensor",
        first: body[..TENSOR_ROLE_INDENT.len() + role.len() + 1].to_string(),
        second: index.to_string(),
    })
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
    // PLUGIN_NAME is at least one character long: the first " version " from the second
    // character on (one that overlaps a " version " at the start counts).
    let skip = after.chars().next()?.len_utf8();
    let split = skip + after[skip..].find(PLUGIN_VERSION)?;
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
mod tests;
