use super::*;

#[test]
fn an_envelope_starts_with_the_first_terminal_of_an_envelope_rule() {
    // envelope.lark: each alternative of `envelope` and the rules it names, in order.
    assert_eq!(
        start_terminals(),
        [
            "TIMESTAMP",
            "LEVEL_TAG",
            "LIBRARY_TAG",
            "PASTED_LEVEL_TAGS",
            "PYTHON_TRT_LEVEL",
            "TORCH_TRT_PREFIX",
            "PYTHON_LOGGING_PREFIX",
            "PYTHON_LOGGING_STAMPED",
            "PYTHON_LOGGING_BRACKETED",
            "PYTHON_LOGGING_LEVELED",
            "JETSON_TAG",
            "CLOCK_STAMP",
            "DEEPSTREAM_PREFIX",
            "ISO_STAMP_LEVEL",
            "ONNXRUNTIME_PREFIX",
            "TRITON_PREFIX",
            "TRTLLM_RUNTIME_PREFIX",
            "TENSORFLOW_PREFIX",
            "LEVEL_WORD_TAG",
            "LAUNCH_PREFIX",
            "WRAPPER_STAMP",
            "COMPOSE_PREFIX",
        ]
    );
}
