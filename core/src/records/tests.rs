use super::*;

#[test]
fn tuning_lines_of_a_10_16_build() {
    // TensorRT 10.16 trtexec --verbose (hackathon corpus log).
    assert_eq!(
        record("Optimizer Reformat(max_poolNd -> <out>) (Reformat[0x80000006]) profiling completed in 0.0123 seconds. Fastest Tactic: 0x00000000000003e8 Time: 0.00358"),
        Some(Record::Profiled {
            layer: "Optimizer Reformat(max_poolNd -> <out>)".into(),
            runner: "Reformat".into(),
            runner_id: Some(0x80000006),
            seconds: 0.0123,
            tactic: 0x3e8,
            time: 0.00358,
        })
    );
    assert_eq!(
        record("--------------- Timing Runner: /conv1/Conv + /relu1/Relu (CaskConvolution[0x80000009])"),
        Some(Record::TimingRunner {
            layer: Some("/conv1/Conv + /relu1/Relu".into()),
            runner: "CaskConvolution".into(),
            runner_id: Some(0x80000009),
        })
    );
    assert_eq!(
        record("*************** Autotuning format combination: Float(150528,50176,224,1) -> Half(802816,1:8,3584,16) ***************"),
        Some(Record::Combination {
            inputs: Some("Float(150528,50176,224,1)".into()),
            outputs: Some("Half(802816,1:8,3584,16)".into()),
            reformat: false,
        })
    );
    assert_eq!(
        record("Skipping CaskFlattenConvolution: No valid tactics for /conv1/Conv + /relu1/Relu"),
        Some(Record::Skipped {
            runner: "CaskFlattenConvolution".into(),
            layer: Some("/conv1/Conv + /relu1/Relu".into()),
        })
    );
    assert_eq!(
        record("=============== Computing reformatting costs: "),
        Some(Record::Costs {
            subject: Some(": ".into()),
            reformatting: true
        })
    );
}

#[test]
fn tuning_lines_of_8_x_builds() {
    // TensorRT 8.6 trtexec: the fastest tactic on a line of its own, runners without ids.
    assert_eq!(
        record("Fastest Tactic: 0x0000000000000000 Time: 0.00512"),
        Some(Record::Fastest {
            tactic: 0,
            time: 0.00512
        })
    );
    assert_eq!(
        record(">>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0x0f2e6b1d3c4a5968"),
        Some(Record::Chose {
            runner: "CaskConvolution".into(),
            tactic: 0x0f2e6b1d3c4a5968
        })
    );
    assert_eq!(
        record("CublasConvolution has no valid tactics for this config, skipping"),
        Some(Record::Skipped {
            runner: "CublasConvolution".into(),
            layer: None
        })
    );
    assert_eq!(
        record("=============== Computing costs for conv1"),
        Some(Record::Costs {
            subject: Some(" conv1".into()),
            reformatting: false
        })
    );
    // 8.0-8.5 print the line with no layer name.
    assert_eq!(
        record("=============== Computing costs for"),
        Some(Record::Costs {
            subject: None,
            reformatting: false
        })
    );
}

#[test]
fn lines_the_grammar_may_split_otherwise_are_declined() {
    assert_eq!(
        record("--------------- Timing Runner: a (Foo) b (Bar)"),
        None
    );
    assert_eq!(
        record(" (Foo) profiling completed in 1 seconds. Fastest Tactic: 0x1 Time: 1"),
        None
    );
    assert_eq!(
        record("*************** Autotuning format combination: A -> B -> C ***************"),
        None
    );
    assert_eq!(record("Fastest Tactic: 0x1 Time: 1 ms"), None);
    // The lazy output list stops at " ->" and the space before the stars.
    assert_eq!(
        record("*************** Autotuning format combination: A -> B -> ***************"),
        None
    );
    assert_eq!(record("=============== Computing costsfor x"), None);
    assert_eq!(
        record("--------------- Timing Runner: x (Foo[0xffffffffffffffff])"),
        None,
        "a runner id beyond the tables' signed 64 bits"
    );
}

#[test]
fn every_record_names_a_known_rule() {
    for body in [
        "Fastest Tactic: 0x1 Time: 1",
        "Skipping A: No valid tactics for b",
        "A has no valid tactics for this config, skipping",
    ] {
        assert!(may_be_record(body));
        assert!(RULES.contains(&record(body).unwrap().rule()));
    }
}
