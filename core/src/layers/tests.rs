use super::*;
use crate::grammar::rule_text;

fn memory_record(layer: &str, host: &str, device: &str, scratch: Option<&str>) -> Option<Record> {
    Some(Record::Layers(LayerRecord::Memory {
        layer: layer.into(),
        host: host.into(),
        device: device.into(),
        scratch: scratch.map(str::to_string),
    }))
}

#[test]
fn the_grammar_still_spells_the_literals_and_terminals_read_here() {
    assert_eq!(
        rule_text("layer_memory"),
        Some(
            r#""Layer: " MEMORY_LAYER _MEMORY_HOST_KEY UINT _BYTES_UNIT? _MEMORY_DEVICE_KEY UINT _BYTES_UNIT? [" Scratch Memory: " UINT _BYTES_UNIT?]"#
        )
    );
    assert_eq!(
        rule_text("reformat_layer_added"),
        Some(
            r#""Adding reformat layer: " REFORMAT_TENSOR " (" REFORMAT_SOURCE ") from " REFORMAT_FROM " to " REST"#
        )
    );
    assert_eq!(
        rule_text("foreign_node_metadata"),
        Some(r#""ForeignNode " FOREIGN_NODE_NAME [" [profile " UINT "]"] " metadata:" [" " REST]"#)
    );
    assert_eq!(
        rule_text("phase_duration"),
        Some(r#"PHASE_NAME " completed in " NUMBER " seconds.""#)
    );
    assert_eq!(rule_text("builder_note"), Some("BUILDER_NOTE_TEXT"));
    assert_eq!(terminal("_END_OF_LINE"), Some(r"(?![^\n])"));
    // Each lazy terminal is read as its token and its lookahead, the lookahead as written: it
    // holds nothing Rust reads otherwise than Python (Unicode's digits for `\d` in both).
    let lazy = [
        (
            "MEMORY_LAYER",
            r"[^\n]+?(?=(?: Weights: \d+)? Host ?Persistent: \d+)",
        ),
        ("REFORMAT_TENSOR", r"[^\n]+?(?= \([^\n]*\) from [A-Za-z])"),
        ("REFORMAT_SOURCE", r"[^\n]+?(?=\) from [A-Za-z])"),
        ("REFORMAT_FROM", r"[A-Za-z][^\n]*?(?= to [A-Za-z])"),
        (
            "FOREIGN_NODE_NAME",
            r"\{ForeignNode\[[^\n]*?\]\}(?=( \[profile \d+\])? metadata:)",
        ),
        (
            "PHASE_NAME",
            r"[^\n]+?(?= completed in [-+\d.e]+ seconds\.)",
        ),
    ];
    for (name, pattern) in lazy {
        assert_eq!(terminal(name), Some(pattern), "{name}");
    }
    for name in [
        "MEMORY_LAYER",
        "REFORMAT_TENSOR",
        "REFORMAT_SOURCE",
        "REFORMAT_FROM",
        "FOREIGN_NODE_NAME",
        "PHASE_NAME",
    ] {
        assert_eq!(
            lazy_terminal(name).captures_len(),
            2 + usize::from(name == "FOREIGN_NODE_NAME")
        );
    }
}

#[test]
fn the_notes_are_read_from_every_subject_terminal() {
    let alternatives = note_alternatives();
    // One of each subject, literals and patterns.
    for note in [
        "Applying generic optimizations to the graph for inference.",
        "Loading standard plugins",
        "Setting persistentCacheLimit to 0 bytes.",
        "TF32 is enabled by default.",
        "Set number of tactics to 300 at optimization level 5",
        "[MS] Number of streams used is 3",
        "DLA Memory Consumption Summary:",
        "Adding 1 engine(s) to plan file.",
        "CUDA lazy loading is enabled.",
        "Explanations of the performance metrics are printed in the verbose logs.",
        "STILL ALIVE: Started step 26 of 77",
    ] {
        assert!(patterns().note.is_match(note), "{note}");
    }
    assert!(alternatives.len() > 40);
    // `\w` is read as ASCII word characters, `\d` as ASCII digits: less than Python reads.
    assert!(patterns()
        .note
        .is_match("Enabling FP8 fusions at optimization level 5"));
    assert!(!patterns()
        .note
        .is_match("Enabling FPé fusions at optimization level 5"));
    assert!(!patterns()
        .note
        .is_match("Set number of tactics to ٣ at optimization level 5"));
}

#[test]
fn per_layer_memory_of_8_2_8_4_and_10_16_builds() {
    // TensorRT 8.4 trtexec --verbose (hackathon corpus log).
    assert_eq!(
        record("Layer: Conv-1 + ReLU-2 Host Persistent: 1664 Device Persistent: 5120 Scratch Memory: 0"),
        memory_record("Conv-1 + ReLU-2", "1664", "5120", Some("0"))
    );
    // TensorRT 10.16 trtexec --verbose: units after each value.
    assert_eq!(
        record("Layer: node_max_pool2d Host Persistent: 4160 bytes Device Persistent: 0 bytes Scratch Memory: 0 bytes"),
        memory_record("node_max_pool2d", "4160", "0", Some("0"))
    );
    // 8.2's keys without the spaces, and no scratch.
    assert_eq!(
        record("Layer: fc HostPersistent: 32 DevicePersistent: 0"),
        memory_record("fc", "32", "0", None)
    );
    // The layer is the shortest text before the host key and a number; the rest must then
    // follow, with no going back (the lexer's token).
    assert_eq!(
        record("Layer: a Host Persistent: 1x Host Persistent: 1 Device Persistent: 2"),
        None
    );
    // 7.x's layer weights before the host key: the grammar's other alternative, declined here.
    assert_eq!(
        record("Layer: Conv_37 Weights: 0 HostPersistent: 1664 DevicePersistent: 271360"),
        None
    );
    // Digits other than ASCII ones are the grammar's to read, and so are values beyond 64 bits.
    assert_eq!(
        record("Layer: a Host Persistent: 1 Device Persistent: 99999999999999999999"),
        None
    );
    assert_eq!(
        record("ForeignNode {ForeignNode[a]} [profile 99999999999999999999] metadata:"),
        None
    );
    assert_eq!(
        record("Layer: a Host Persistent: 1 Device Persistent: ٣"),
        None
    );
    assert_eq!(
        record("Layer: a Host Persistent: 1 Device Persistent: 2 "),
        None
    );
    // The layer name holds at least one character before the key.
    assert_eq!(
        record("Layer:  Host Persistent: 1 Device Persistent: 2"),
        None
    );
}

#[test]
fn reformat_layers_of_8_2_and_10_16_builds() {
    // TensorRT 10.16 trtexec --verbose (hackathon corpus log).
    assert_eq!(
        record("Adding reformat layer: Reformatted Input Tensor 0 to node_conv2d_1 + node_relu_1 (max_pool2d) from Float(6272,196,14,1) to Half(784,1:8,56,4)"),
        Some(Record::Layers(LayerRecord::Reformat {
            tensor: "Reformatted Input Tensor 0 to node_conv2d_1 + node_relu_1".into(),
            source: "max_pool2d".into(),
            from_format: "Float(6272,196,14,1)".into(),
            to_format: "Half(784,1:8,56,4)".into(),
        }))
    );
    // Each part is the shortest text before the next: the tensor ends at the first " (" that
    // a ") from <letter>" follows.
    assert_eq!(
        record("Adding reformat layer: a (b) from C (d) from E to F"),
        Some(Record::Layers(LayerRecord::Reformat {
            tensor: "a".into(),
            source: "b".into(),
            from_format: "C (d) from E".into(),
            to_format: "F".into(),
        }))
    );
    assert_eq!(record("Adding reformat layer: a (b) from 1 to F"), None);
    assert_eq!(record("Adding reformat layer: a (b) from C to 1"), None);
}

#[test]
fn foreign_node_metadata_of_10_16_builds() {
    // TensorRT 10.16 trtexec --verbose (hackathon corpus log).
    assert_eq!(
        record("ForeignNode {ForeignNode[node_linear]} metadata: [ONNX Layer: node_linear]"),
        Some(Record::Layers(LayerRecord::ForeignNode {
            node: "{ForeignNode[node_linear]}".into(),
            profile: None,
            metadata: Some("[ONNX Layer: node_linear]".into()),
        }))
    );
    assert_eq!(
        record("ForeignNode {ForeignNode[ONNXTRT_castHelper_8...ONNXTRT_castHelper_9]} metadata:"),
        Some(Record::Layers(LayerRecord::ForeignNode {
            node: "{ForeignNode[ONNXTRT_castHelper_8...ONNXTRT_castHelper_9]}".into(),
            profile: None,
            metadata: None,
        }))
    );
    assert_eq!(
        record("ForeignNode {ForeignNode[a...b]} [profile 1] metadata: [ONNX Layer: a]"),
        Some(Record::Layers(LayerRecord::ForeignNode {
            node: "{ForeignNode[a...b]}".into(),
            profile: Some("1".into()),
            metadata: Some("[ONNX Layer: a]".into()),
        }))
    );
    // A blank after the colon needs more text; a profile in other digits is the grammar's.
    assert_eq!(record("ForeignNode {ForeignNode[a]} metadata: "), None);
    assert_eq!(record("ForeignNode {ForeignNode[a]} metadata:x"), None);
    assert_eq!(
        record("ForeignNode {ForeignNode[a]} [profile ٣] metadata:"),
        None
    );
}

#[test]
fn notes_and_phase_durations_of_a_10_16_build() {
    // TensorRT 10.16 trtexec --verbose (hackathon corpus log).
    assert_eq!(
        record("Set number of tactics to 300 at optimization level 5"),
        Some(Record::Layers(LayerRecord::Note {
            text: "Set number of tactics to 300 at optimization level 5".into(),
        }))
    );
    assert_eq!(
        record("Subgraph compilation completed in 5.726 seconds."),
        Some(Record::Layers(LayerRecord::Phase {
            phase: "Subgraph compilation".into(),
            seconds: "5.726".into(),
        }))
    );
    // The phase is the shortest text before the phrase and a number: what follows must be the
    // rest of the line.
    assert_eq!(
        record("a completed in 0.0 seconds. a completed in 0.0 seconds."),
        None
    );
    assert_eq!(record("a completed in inf seconds."), None);
    assert_eq!(record("a completed in 1e3 seconds"), None);
    // A blank message is an empty one, not a note that starts with a tab.
    assert_eq!(record("\t "), None);
    assert!(may_be("\t x"));
    assert_eq!(
        record("\t x"),
        Some(Record::Layers(LayerRecord::Note {
            text: "\t x".into()
        }))
    );
}
