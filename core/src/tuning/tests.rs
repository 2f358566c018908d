use super::*;

fn scratch(body: &str) -> Option<(u64, Option<(u64, u64)>)> {
    match record(body)? {
        TuningRecord::TacticSkipped { tactic, scratch } => Some((tactic, scratch)),
        _ => None,
    }
}

#[test]
fn skipped_tactics_of_8_x_and_10_x_builds() {
    // TensorRT 10.16 trtexec (hackathon corpus log).
    let body = "Tactic: 0x0000000000000001 skipped. Scratch requested: 200704, available: 1024";
    assert_eq!(scratch(body), Some((1, Some((200704, 1024)))));
    assert_eq!(record(body).unwrap().rule(), "tactic_skipped");
    // TensorRT 5.x (NVIDIA/TensorRT issue 52): no colon, lower-case "scratch".
    let body = "Tactic 4 scratch requested: 138792665088, available: 16777216";
    assert_eq!(scratch(body), Some((4, Some((138792665088, 16777216)))));
    // TensorRT 8.0.3 trtexec.
    let body = "Tactic: 0 is the only option, timing skipped";
    assert_eq!(scratch(body), Some((0, None)));
    assert_eq!(record(body).unwrap().rule(), "only_tactic");
    assert!(may_be_skipped_tactic(body));
    assert!(!may_be_skipped_tactic("Tactic: 0x1 Time: 0.5"));
}

#[test]
fn skipped_tactics_not_in_full_are_declined() {
    for body in [
        "Tactic: 0x1 skipped. Scratch requested: 5, available: 1 ",
        "Tactic: 0x1 skipped. Scratch requested: -5, available: 1",
        // A count beyond 64 bits, and Arabic-Indic digits (Python's \d takes them).
        "Tactic: 0x1 skipped. Scratch requested: 99999999999999999999, available: 1",
        "Tactic: 0x1 skipped. Scratch requested: \u{0661}, available: 1",
        "Tactic: x is the only option, timing skipped",
        "Tactic: 0x1 Time: 0.5",
    ] {
        assert_eq!(record(body), None, "{body}");
    }
}

#[test]
fn tactic_pruning_of_an_8_6_build() {
    // TensorRT 8.6.0 trtexec (hackathon corpus log).
    let body = "MatMul-9 + ReLU-11: 289 available tactics, 1 unparsable, 144 pruned, 145 remaining after tactic pruning.";
    assert_eq!(
        record(body),
        Some(TuningRecord::Pruning {
            layer: "MatMul-9 + ReLU-11".into(),
            available: 289,
            unparsable: 1,
            pruned: 144,
            remaining: 145,
        })
    );
    // The layer ends at the first count followed by the phrase, whatever follows.
    let body = "a: 1 available tactics, b: 2 available tactics, 0 unparsable, 0 pruned, 2 remaining after tactic pruning.";
    assert_eq!(record(body), None);
    let body =
        "a: x: 2 available tactics, 0 unparsable, 0 pruned, 2 remaining after tactic pruning.";
    match record(body) {
        Some(TuningRecord::Pruning { layer, .. }) => assert_eq!(layer, "a: x"),
        other => panic!("{other:?}"),
    }
    // The layer is the shortest text followed by a count and the phrase: a phrase with no
    // count after it is part of the layer.
    let body = "a: x available tactics, b: 2 available tactics, 0 unparsable, 0 pruned, 2 remaining after tactic pruning.";
    match record(body) {
        Some(TuningRecord::Pruning { layer, .. }) => {
            assert_eq!(layer, "a: x available tactics, b")
        }
        other => panic!("{other:?}"),
    }
    // The layer is one character or more.
    let body = ": 2 available tactics, 0 unparsable, 0 pruned, 2 remaining after tactic pruning.";
    assert_eq!(record(body), None);
    // A count Python reads as digits and the core does not: left to the grammar.
    let body =
        "a: \u{0661} available tactics, 0 unparsable, 0 pruned, 2 remaining after tactic pruning.";
    assert_eq!(record(body), None);
}

#[test]
fn kernel_names_of_7_x_to_8_5_builds() {
    // TensorRT 8.5.10 trtexec (lix corpus log).
    let body = "Convolution28 + Parameter6 + (Unnamed Layer* 4) [Shuffle] + Plus30 + ReLU32 Set Tactic Name: ampere_scudnn_128x64_relu_xregs_large_nn_v1 Tactic: 0x5deb29b7a8e275f7";
    let found = record(body).unwrap();
    assert_eq!(found.guard(), "set_tactic_name");
    assert_eq!(
        found,
        TuningRecord::KernelName {
            subject: Some(
                "Convolution28 + Parameter6 + (Unnamed Layer* 4) [Shuffle] + Plus30 + ReLU32"
                    .into()
            ),
            kernel: "ampere_scudnn_128x64_relu_xregs_large_nn_v1".into(),
            tactic: Some(0x5deb29b7a8e275f7),
            parameters: None,
        }
    );
    // The same log: no subject, and a cuBLAS kernel's parameters.
    let body = "Set Tactic Name: ampere_sgemm_32x32_sliced1x4_relu_tn_v1 Tactic: 0x0000000000020457 numSplitK: 1 numBuffers: 0 numKernels: 1";
    let found = record(body).unwrap();
    assert_eq!(found.guard(), SET_TACTIC_NAME_WITHOUT_SUBJECT);
    assert_eq!(found.rule(), "set_tactic_name");
    assert_eq!(
        found,
        TuningRecord::KernelName {
            subject: None,
            kernel: "ampere_sgemm_32x32_sliced1x4_relu_tn_v1".into(),
            tactic: Some(0x20457),
            parameters: Some(" numSplitK: 1 numBuffers: 0 numKernels: 1".into()),
        }
    );
    // TensorRT 7 Python API (NVIDIA/TensorRT issue 1090): a variant, no tactic id.
    let body = "vgg0_conv4_fwd + vgg0_relu4_fwd (scudnn) Set Tactic Name: volta_scudnn_128x128_relu_medium_nn_v1";
    assert_eq!(
        record(body),
        Some(TuningRecord::KernelName {
            subject: Some("vgg0_conv4_fwd + vgg0_relu4_fwd (scudnn)".into()),
            kernel: "volta_scudnn_128x128_relu_medium_nn_v1".into(),
            tactic: None,
            parameters: None,
        })
    );
}

#[test]
fn kernel_names_split_where_the_lexer_splits_them() {
    // The subject is the shortest: it ends at the first phrase.
    match record("a Set Tactic Name: b Set Tactic Name: k") {
        Some(TuningRecord::KernelName { .. }) => panic!("the kernel is followed by text"),
        other => assert_eq!(other, None),
    }
    // " Set Tactic Name: " at the start is the phrase with its space, not a blank subject;
    // a second space is a subject of one space.
    match record(" Set Tactic Name: k") {
        Some(TuningRecord::KernelName { subject, .. }) => assert_eq!(subject, None),
        other => panic!("{other:?}"),
    }
    match record("  Set Tactic Name: k") {
        Some(TuningRecord::KernelName { subject, .. }) => assert_eq!(subject.as_deref(), Some(" ")),
        other => panic!("{other:?}"),
    }
    for body in [
        "a Set Tactic Name: k Tactic: 0x1 numSplitK: x",
        "a Set Tactic Name: k Tactic: ",
        "a Set Tactic Name: ",
        "a Set Tactic Name: k\u{1f}x",
        "a Set Tactic Name: k Tactic: 0x10000000000000000",
    ] {
        assert_eq!(record(body), None, "{body:?}");
    }
}

#[test]
fn timing_cache_hits_of_a_10_16_build() {
    // TensorRT 10.16 trtexec (hackathon corpus log).
    let body = "Optimizer Reformat(relu_2 -> <out>) [Float(1024,1) -> Half(1024,1)] got cached result: Reformat, tactic 0x00000000000003e8, 0.00294288 ms";
    assert_eq!(
        record(body),
        Some(TuningRecord::CacheHit {
            subject: "Optimizer Reformat(relu_2 -> <out>)".into(),
            inputs: Some("Float(1024,1)".into()),
            outputs: Some("Half(1024,1)".into()),
            runner: "Reformat".into(),
            tactic: 0x3e8,
            time: 0.00294288,
        })
    );
    // Empty lists.
    match record("x [ -> ] got cached result: Myelin, tactic 0x0, inf ms") {
        Some(TuningRecord::CacheHit {
            inputs,
            outputs,
            time,
            ..
        }) => {
            assert_eq!((inputs, outputs), (None, None));
            assert!(time.is_infinite());
        }
        other => panic!("{other:?}"),
    }
    // The subject is the shortest text followed by a list without brackets and the phrase (a
    // subject holds brackets: "conv [profile 1]"); the input list the shortest before " -> ".
    match record("a [b] c [A -> B -> C] got cached result: Reformat, tactic 0x1, 0.1 ms") {
        Some(TuningRecord::CacheHit {
            subject,
            inputs,
            outputs,
            ..
        }) => assert_eq!(
            (subject.as_str(), inputs.as_deref(), outputs.as_deref()),
            ("a [b] c", Some("A"), Some("B -> C"))
        ),
        other => panic!("{other:?}"),
    }
    for body in [
        "x [A -> B] got cached result: Reformat, tactic 0x1, 0.1 ms ",
        "x [A -> B] got cached result: 1Reformat, tactic 0x1, 0.1 ms",
        "x [A -> B] got cached result: R\u{e9}, tactic 0x1, 0.1 ms",
        "x [A] got cached result: Reformat, tactic 0x1, 0.1 ms",
        "[A -> B] got cached result: Reformat, tactic 0x1, 0.1 ms",
    ] {
        assert_eq!(record(body), None, "{body:?}");
    }
}

#[test]
fn claims_only_what_the_guards_let_through() {
    let body = "Tactic: 0 is the only option, timing skipped";
    assert!(matches!(
        claimed(body, &Guards::none()),
        Some(Record::Tuning(_))
    ));
    // An earlier terminal that matches: declined.
    let guards = Guards::new(&[("only_tactic".to_string(), vec!["Tactic".to_string()])]);
    assert_eq!(claimed(body, &guards), None);
    // The other records are still read, each by its own guards.
    let body = "Fastest Tactic: 0x1 Time: 1";
    assert!(matches!(
        claimed(body, &Guards::none()),
        Some(Record::Fastest { .. })
    ));
    // Every rule read here has its guards.
    for rule in RULES {
        assert!(Guards::none().clear(rule, "x"), "{rule}");
    }
}

#[test]
fn lines_of_these_forms_are_read_as_records() {
    use crate::forms::Kind;
    for body in [
        "Tactic: 0 is the only option, timing skipped",
        "Tactic: 0x0000000000000001 skipped. Scratch requested: 200704, available: 1024",
        "Conv__25 + Relu Set Tactic Name: maxwell_scudnn_128x32_relu_medium_nn_v1 Tactic: 1",
        "Set Tactic Name: ampere_sgemm_32x32_sliced1x4_relu_tn_v1 Tactic: 0x0000000000020457",
        "MatMul-12: 187 available tactics, 1 unparsable, 93 pruned, 94 remaining after tactic pruning.",
        "x [A -> B] got cached result: Reformat, tactic 0x1, 0.1 ms",
    ] {
        assert_eq!(Kind::of(body), Some(Kind::Record), "{body}");
    }
    // A tactic's timing stays a timing.
    assert_eq!(Kind::of("Tactic: 0x1 Time: 0.5"), Some(Kind::Plain));
}

#[test]
fn a_format_list_ends_where_its_terminal_says() {
    // FORMAT_LIST's lookahead: " -> ", or the stars closing a format combination at the end of
    // the line.
    let list = crate::layers::lazy_terminal("FORMAT_LIST");
    let token = |text| crate::layers::token(&list, text).map(|(token, _)| token);
    assert_eq!(token("Float(1) -> Half(1)"), Some("Float(1)"));
    assert_eq!(token("Float(1) ***************"), Some("Float(1)"));
    assert_eq!(
        token("Float(1) *************** -> Half(1)"),
        Some("Float(1) ***************")
    );
    assert_eq!(token("Float(1) ***************x"), None);
    assert_eq!(token("(1) -> Half(1)"), None);
}
