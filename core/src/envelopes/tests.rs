use super::*;

/// The style and prefix `split` finds, and the pieces `fields` reads from that prefix.
fn read(line: &str) -> (Style, &str, Option<&str>, Option<&str>, &'static str) {
    let Split::Envelope { style, len } = split(line) else {
        panic!("no envelope split off {line:?}: {:?}", split(line));
    };
    let found = fields(&line[..len]).expect("the prefix's fields");
    // `split` finds every glog prefix as Triton's; `fields` tells them apart by source file.
    assert!(found.style == style || style == Style::Triton);
    (
        found.style,
        &line[..len],
        found.stamp,
        found.level,
        found.producer,
    )
}

#[test]
fn trtexec_envelopes() {
    // TensorRT 10.16.1 trtexec --verbose: a library message and trtexec's own.
    let line =
        "[07/07/2026-02:10:59] [V] [TRT] Registered plugin creator - ::ROIAlign_TRT version 2";
    assert_eq!(
        read(line),
        (
            Style::Trtexec,
            "[07/07/2026-02:10:59] [V] [TRT] ",
            Some("[07/07/2026-02:10:59]"),
            Some("V"),
            "trt"
        )
    );
    let line = "[07/07/2026-02:10:59] [I] === Model Options ===";
    assert_eq!(
        read(line),
        (
            Style::Trtexec,
            "[07/07/2026-02:10:59] [I] ",
            Some("[07/07/2026-02:10:59]"),
            Some("I"),
            "trtexec"
        )
    );
    // 8.6 trtexec, a warning from the ONNX parser.
    let line = "[08/30/2026-03:51:52] [W] [TRT] onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights";
    assert_eq!(read(line).3, Some("W"));
}

#[test]
fn python_api_envelopes_with_tensorrt_llm_tags() {
    // The Python logger of 10.16.2, tag before level.
    let line = "[07/07/2026-06:11:48] [TRT] [W] ModelImporter.cpp:994: Make sure output z has Int64 binding.";
    assert_eq!(
        read(line),
        (
            Style::PythonApi,
            "[07/07/2026-06:11:48] [TRT] [W] ",
            Some("[07/07/2026-06:11:48]"),
            Some("W"),
            "trt"
        )
    );
    // TensorRT-LLM's own message (falcon README build).
    let line =
        "[12/27/2023-03:46:29] [TRT-LLM] [I] Total time of building Unnamed Network 0: 00:00:36";
    let (style, prefix, _, level, producer) = read(line);
    assert_eq!(
        (style, prefix, level, producer),
        (
            Style::PythonApi,
            "[12/27/2023-03:46:29] [TRT-LLM] [I] ",
            Some("I"),
            "trtllm"
        )
    );
}

#[test]
fn unstamped_envelopes() {
    // TensorRT 7's Python logger, and its spelling of an internal error.
    let line = "[TensorRT] VERBOSE: --------------- Timing Runner: <reformat> (Reformat)";
    assert_eq!(
        read(line),
        (
            Style::PythonLegacy,
            "[TensorRT] VERBOSE: ",
            None,
            Some("VERBOSE"),
            "trt"
        )
    );
    let line = "[TensorRT] INTERNAL ERROR: Assertion failed: x";
    assert_eq!(read(line).3, Some("INTERNAL ERROR"));
    // A custom logger's bare level (the 8.6 cookbook), Polygraphy's own line.
    let line = "[I] [MemUsageChange] Init CUDA: CPU +172, GPU +0, now: CPU 196, GPU 659 (MiB)";
    assert_eq!(
        read(line),
        (Style::Level, "[I] ", None, Some("I"), "logger")
    );
    let line = "[V] Loaded extension modules: []";
    assert_eq!(read(line).1, "[V] ");
}

#[test]
fn edge_llm_iso_stamped_and_onnxruntime_envelopes() {
    let line = "[13:47:39.127] [DEBUG] [TensorRT] Original: 18 layers";
    assert_eq!(
        read(line),
        (
            Style::EdgeLlm,
            "[13:47:39.127] [DEBUG] [TensorRT] ",
            Some("[13:47:39.127]"),
            Some("DEBUG"),
            "trt"
        )
    );
    let line = "[13:48:27.826] [INFO] [builderUtils.cpp:328:buildAndSerializeEngine] Engine saved";
    assert_eq!(read(line).4, "edgellm");
    let line = "[2023-08-14 10:00:00    BUG] x";
    assert_eq!(
        read(line),
        (
            Style::IsoStamped,
            "[2023-08-14 10:00:00    BUG] ",
            Some("2023-08-14 10:00:00"),
            Some("BUG"),
            "trt"
        )
    );
    let relayed = "2021-10-15 14:49:00.677340570 [W:onnxruntime:log, tensorrt_execution_provider.h:53 log] [2021-10-15 06:49:00 UNKNOWN] Original: 18 layers";
    let (style, prefix, stamp, level, producer) = read(relayed);
    assert_eq!(
        (style, stamp, level, producer),
        (
            Style::OnnxruntimeRelayed,
            Some("2021-10-15 14:49:00.677340570"),
            Some("UNKNOWN"),
            "trt"
        )
    );
    assert_eq!(&relayed[prefix.len()..], "Original: 18 layers");
    let own = "2021-10-15 14:48:59.515349260 [W:onnxruntime:log, tensorrt_execution_provider.cc:1195 Compile] [TensorRT EP] ORT_TENSORRT_FP16_ENABLE is set";
    let (style, prefix, _, level, producer) = read(own);
    assert_eq!(
        (style, level, producer),
        (Style::Onnxruntime, Some("W"), "onnxruntime")
    );
    assert!(prefix.ends_with("Compile] "));
}

#[test]
fn triton_and_logging_prefixes() {
    let line = "I0511 01:22:37.728144 1 logging.cc:52] Using cublasLt as a tactic source";
    assert_eq!(
        read(line),
        (
            Style::Triton,
            "I0511 01:22:37.728144 1 logging.cc:52] ",
            Some("0511 01:22:37.728144"),
            Some("I"),
            "trt"
        )
    );
    let line = "I0511 01:22:37.728954 1 tensorrt.cc:3193] Detected images as execution binding";
    assert_eq!((read(line).0, read(line).4), (Style::Glog, "glog"));
    // Paddle Inference's logger of TensorRT (PaddleOCR issue 6737).
    let paddle = read("W0628 12:15:05.175945  2834 helper.h:107] Detected invalid timing cache");
    assert_eq!((paddle.0, paddle.4), (Style::Paddle, "trt"));
    // DeepStream's nvinfer, Torch-TensorRT 1.x (issue 1108) and 2.x (issue 3137, dinov2).
    assert_eq!(
        read("DEBUG: [TRT]: Original: 18 layers"),
        (
            Style::Deepstream,
            "DEBUG: [TRT]: ",
            None,
            Some("DEBUG"),
            "trt"
        )
    );
    let line = "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - --------------- Timing Runner: (Unnamed Layer* 0) [Identity] (Cast)";
    assert_eq!(
        read(line),
        (
            Style::TorchTensorrt,
            "DEBUG: [Torch-TensorRT TorchScript Conversion Context] - ",
            None,
            Some("DEBUG"),
            "trt"
        )
    );
    let line = "INFO:torch_tensorrt [TensorRT Conversion Context]:[MemUsageChange] Init CUDA: CPU +3, GPU +0, now: CPU 11764, GPU 1019 (MiB)";
    assert_eq!(
        read(line),
        (
            Style::PythonLogging,
            "INFO:torch_tensorrt [TensorRT Conversion Context]:",
            None,
            Some("INFO"),
            "trt"
        )
    );
    let line = "DEBUG:torch_tensorrt.dynamo.conversion._TRTInterpreter:Converting node x (kind: x, args: ())";
    assert_eq!(read(line).4, "torch_tensorrt");
    assert_eq!(read("INFO:root:x").4, "python");
}

#[test]
fn lines_without_an_envelope() {
    for line in [
        "",
        "[=====-----] Building engine 1/9",
        "INFO: plain text",
        "Tactic 313790760974845026 time 8.02246",
        "&&&& RUNNING TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --onnx=a.onnx",
        "    Layer(CaskConvolution): conv1",
        "2023 was a year",
        "Input filename:   model.onnx",
    ] {
        assert_eq!(split(line), Split::NoEnvelope, "{line:?}");
    }
}

#[test]
fn lines_only_the_grammar_can_tell() {
    for line in [
        // A stamp alone, a library tag before a level, jetson-inference's tag.
        "[07/07/2026-02:11:00] Original: 24 layers",
        "[TRT] [W] Unknown embedded device detected.",
        "[TRT]    Original: 18 layers",
        // A clock stamp and level without a source.
        "[13:48:27.826] [INFO] Some program's message",
        // Characters beyond ASCII, where Python's \d, \w and \s read more than Rust's.
        "[07/07/2026-02:11:00] [I] Model: módel.onnx",
        "[\u{0663}7/07/2026-02:11:00] [I] x",
        "\u{0663}023-08-14 12:00:00.5 [W:onnxruntime:x] y",
        "INFO:tórch:x",
    ] {
        assert_eq!(split(line), Split::Grammar, "{line:?}");
    }
}

#[test]
fn the_rarer_envelopes_are_the_grammars_to_split() {
    // The rarer envelopes are the grammar's to split: ROS 2's launch prefix and the envelope
    // after it, TensorRT-LLM's C++ runtime's, TensorFlow's, tags pasted after blanks.
    for line in [
        "[component_container_mt-1] [I] [TRT] Loaded engine size: 15 MiB",
        "[TensorRT-LLM][INFO] Loaded engine size: 3404 MiB",
        "2021-01-07 22:13:55.902438: E tensorflow/x/trt_logger.cc:41] DefaultLogger x",
        " [W] [TRT] setDefaultDeviceType was called",
    ] {
        assert_eq!(split(line), Split::Grammar, "{line:?}");
    }
    assert_eq!(split("    Layer(Convolution): conv1"), Split::NoEnvelope);
    // A bracket no start terminal goes on with has no envelope, whatever follows it.
    assert_eq!(split("[Tomato] 3 kg"), Split::NoEnvelope);
    assert_eq!(split("[V"), Split::NoEnvelope);
}

#[test]
fn every_letter_a_terminal_takes_opens_its_envelope() {
    // Each printable ASCII character as the level letter of a tag and of Triton's prefix:
    // split as an envelope exactly where the grammar's terminal takes it.
    let whole = |name: &str| Regex::new(&format!("^{}", narrowed_terminal(name))).unwrap();
    let (level_tag, triton) = (whole("LEVEL_TAG"), whole("TRITON_PREFIX"));
    let mut letters = (String::new(), String::new());
    for letter in (0x20u8..0x7f).map(char::from) {
        let line = format!("[{letter}] x");
        let tagged = matches!(
            split(&line),
            Split::Envelope {
                style: Style::Level,
                ..
            }
        );
        assert_eq!(tagged, level_tag.is_match(&line), "{line:?}");
        if tagged {
            letters.0.push(letter);
        }
        let line = format!("{letter}0511 01:22:37.728144 1 logging.cc:52] x");
        let glog = matches!(
            split(&line),
            Split::Envelope {
                style: Style::Triton,
                ..
            }
        );
        assert_eq!(glog, triton.is_match(&line), "{line:?}");
        if glog {
            letters.1.push(letter);
        }
    }
    // The letters the grammar writes today (LEVEL_TAG, TRITON_PREFIX).
    assert_eq!(letters, ("!EFISUVWX".to_owned(), "EFIW".to_owned()));
}

#[test]
fn triton_stamp_ends_at_the_second_blank() {
    // The thread id right-aligned: more blanks before it.
    let line = "W0511 01:22:37.728144    12 logging.cc:52] Unknown embedded device";
    let (style, prefix, stamp, level, producer) = read(line);
    assert_eq!(style, Style::Triton);
    assert_eq!(prefix, "W0511 01:22:37.728144    12 logging.cc:52] ");
    assert_eq!(
        (stamp, level, producer),
        (Some("0511 01:22:37.728144"), Some("W"), "trt")
    );
}

#[test]
fn fields_only_of_a_whole_prefix() {
    assert_eq!(fields("[07/07/2026-02:10:59] [V] [TRT] x"), None);
    assert_eq!(fields("plain"), None);
    assert!(fields("[V] ").is_some());
}

#[test]
fn the_head_memo_splits_each_line_as_split_does() {
    let stamp = "[07/07/2026-02:11:00] ";
    let lines = [
        format!("{stamp}[V] [TRT] Tactic: 0x1 Time: 0.5 and more"),
        format!("{stamp}[V] [TRT] Tactic: 0x2 Time: 0.7 and more"),
        // The same first bytes, then a character beyond ASCII: left to the grammar.
        format!("{stamp}[V] [TRT] Tactic: 0x2 Time: 0.7 and m\u{f6}re"),
        format!("{stamp}[I] Starting inference, a long message"),
        format!("{stamp}[I] [TRT] Loaded engine size: 1 MiB, and more"),
        format!("{stamp}[TRT] [W] Using default stream in enqueueV3()"),
        format!("{stamp}[TRT] [W] Using default stream in enqueueV3()"),
        format!("{stamp}[TRT-LLM] [I] Total time of building Unnamed Network"),
        "[V] [TRT] a line shorter than a head".to_owned(),
        format!("{stamp}[TRT] [W] Using default stream in enqueueV3()"),
    ];
    let mut memo = HeadMemo::default();
    for line in &lines {
        assert_eq!(memo.split(line), split(line), "{line:?}");
    }
    assert_eq!(memo.split(&lines[2]), Split::Grammar);
}

mod properties {
    use super::super::*;
    use proptest::prelude::*;

    /// Lines made of envelope pieces, so that consecutive lines often start alike.
    fn line() -> impl Strategy<Value = String> {
        let pieces = prop_oneof![
            Just("[07/07/2026-02:11:00]"),
            Just("[07/07/2026-02:11:01]"),
            Just(" "),
            Just("[V]"),
            Just("[I]"),
            Just("[TRT]"),
            Just("[TRT-LLM]"),
            Just("Tactic: 0x1 Time: 2"),
            Just("x"),
            Just("\u{f6}"),
        ];
        proptest::collection::vec(pieces, 0..9).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        #[test]
        fn a_memo_splits_as_split(lines in proptest::collection::vec(line(), 0..8)) {
            let mut memo = HeadMemo::default();
            for line in &lines {
                prop_assert_eq!(memo.split(line), split(line), "{:?}", line);
            }
        }
    }
}
