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
fn layer_counts_and_symbolic_shapes_of_a_10_16_build() {
    // TensorRT 10.16 trtexec --verbose (hackathon corpus log, lines 324-333).
    assert_eq!(
        message("After dead-layer removal: 12 layers"),
        Some(Record::Symbolic {
            rule: "layer_count",
            first: "After dead-layer removal".into(),
            second: "12".into(),
        })
    );
    assert_eq!(
        message("Original: 24 layers"),
        Some(Record::Symbolic {
            rule: "layer_count",
            first: "Original".into(),
            second: "24".into(),
        })
    );
    assert_eq!(message("Originals: 24 layers"), None);
    assert_eq!(message("Original: 99999999999999999999 layers"), None);
    assert_eq!(message("After : 24 layers"), None);
    assert_eq!(message("After x: 24 layers left"), None);
    assert_eq!(
        message("CONSTANT gemm1.weight"),
        Some(Record::Symbolic {
            rule: "symbolic_shape",
            first: "CONSTANT".into(),
            second: "gemm1.weight".into(),
        })
    );
    assert_eq!(
        message("PLUGIN_V2 p"),
        Some(Record::Symbolic {
            rule: "symbolic_shape",
            first: "PLUGIN_V2".into(),
            second: "p".into(),
        })
    );
    assert_eq!(message("CONSTANT  x"), None);
    assert_eq!(
        message("    Output 0"),
        Some(Record::Symbolic {
            rule: "symbolic_shape_tensor",
            first: "    Output ".into(),
            second: "0".into(),
        })
    );
    assert_eq!(message("    Output 0 x"), None);
    assert_eq!(
        message("        1024\t1024"),
        Some(Record::Symbolic {
            rule: "symbolic_shape_dimension",
            first: "        1024".into(),
            second: "1024".into(),
        })
    );
    assert_eq!(message("        \t1024"), None);
    assert_eq!(message("         \t "), None);
    assert_eq!(message("        \u{a0}\t\u{3000}"), None);
    assert_eq!(message("        1024\t"), None);
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
    // The lazy name stops at the " version " that overlaps the one it starts with.
    assert_eq!(
        message("Registered plugin creator - :: version version X version 1"),
        None
    );
}
