use super::*;

#[test]
fn every_terminal_the_forms_use_is_in_the_grammar() {
    for name in [
        "TACTIC_ID",
        "NUMBER",
        "KERNEL_NAME",
        "KERNEL_PARAMETERS",
        "MYELIN_PREFIX",
        "_TIME_KEYWORD",
        "PROFILE_NUMBERS_FIRST",
        "PROFILE_LAYER",
        "OPTION_VALUE",
    ] {
        assert!(terminal(name).is_some(), "{name}");
        regex::Regex::new(&narrowed_terminal(name)).unwrap();
    }
    assert_eq!(terminal("TACTIC_ID"), Some(r"0x[0-9a-fA-F]+|-?\d+"));
    // A terminal with a priority (options.lark's lowest).
    assert_eq!(terminal("OPTION_KEY"), Some(r"[A-Za-z(][^:\n]*(?=:)"));
    assert_eq!(terminal("OPTION_KE"), None);
    // The terminal's own groups capture nothing.
    let number = regex::Regex::new(&narrowed_terminal("NUMBER")).unwrap();
    assert_eq!(number.captures_len(), 1);
}

#[test]
fn literal_terminals_are_read_longest_first() {
    let steps = literals("QUANTIZATION_STEP");
    assert_eq!(steps.len(), 5);
    assert_eq!(
        steps[0],
        "Setting a default quantization params because quantization data is missing for"
    );
    assert_eq!(steps[1], "User overriding scale with ");
    assert_eq!(steps[4], "using ");
    assert!(literals("IMPORTER_STEP").len() >= 19);
    assert_eq!(
        literals("PLUGIN_REGISTRY_VERB"),
        [
            "Plugin creator already registered",
            "Registered plugin creator"
        ]
    );
}

#[test]
fn narrowing_keeps_python_white_space_out_of_names() {
    let kernel = regex::Regex::new(&format!("^{}$", narrowed_terminal("KERNEL_NAME"))).unwrap();
    assert!(kernel.is_match("sm80_xmma_gemm_f16f16"));
    assert!(!kernel.is_match("sm80\u{1C}xmma"));
    let number = regex::Regex::new(&format!("^{}$", narrowed_terminal("NUMBER"))).unwrap();
    assert!(number.is_match("0.0123"));
    assert!(!number.is_match("\u{0663}"));
}

#[test]
fn widening_turns_lookaheads_into_groups() {
    let profiled = r"[^\n]+?(?= \([A-Za-z][\w]*(\[0x[0-9a-fA-F]+\])?\) profiling completed in )";
    let guard = regex::Regex::new(&format!("^(?:{})", widened(profiled))).unwrap();
    assert!(guard.is_match("conv1 (CaskConvolution) profiling completed in 0.1 seconds."));
    assert!(!guard.is_match("Tactic: 0x1 Time: 0.5"));
    let stage = r"(Original|After [^:\n]+?)(?=: \d+ layers(?![^\n]))";
    let guard = regex::Regex::new(&format!("^(?:{})", widened(stage))).unwrap();
    assert!(guard.is_match("After dead-layer removal: 12 layers"));
    assert!(!guard.is_match("After dead-layer removal: 12 layers left"));
    let runner = r"[A-Za-z]\w*(?= has no valid tactics for this config, skipping)";
    let guard = regex::Regex::new(&format!("^(?:{})", widened(runner))).unwrap();
    // BLANK_TEXT, as Lark hands it on (a real newline in the class).
    let blank = regex::Regex::new(&format!("^(?:{})", widened("[ \t]+(?![^\n])"))).unwrap();
    assert!(blank.is_match(" \t"));
    assert!(!blank.is_match(" (foreignNode) 1, 0.5"));
    assert!(guard.is_match("CaskGemm has no valid tactics for this config, skipping"));
    let tensor = r"(?! -> )[^\n]+?(?= \([A-Za-z][A-Za-z0-9]*\[[-\d,:]*\]\))";
    assert!(regex::Regex::new(&widened(tensor)).is_ok());
}
