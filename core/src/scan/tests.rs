use super::*;

fn scan_all(data: &[u8], sizes: usize) -> (Vec<Piece>, u64) {
    let mut scanner = Scanner::new(1, Guards::none());
    let mut pieces = Vec::new();
    for chunk in data.chunks(sizes.max(1)) {
        pieces.extend(scanner.feed(chunk));
    }
    pieces.extend(scanner.finish());
    (pieces, scanner.lines)
}

// Lines of a TensorRT 10.16 trtexec --verbose build (hackathon corpus log).
const LOG: &str = "[07/07/2026-02:11:09] [V] [TRT] --------------- Timing Runner: conv1 (CaskConvolution)\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic Name: sm80_xmma_fprop Tactic: 0x0000000000020318 Time: 0.0123\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic Name: sm80_xmma_fprop_b Tactic: 0x000000000002031a Time: 0.0456\n\
[07/07/2026-02:11:09] [V] [TRT] Fastest Tactic: 0x0000000000020318 Time: 0.0123\n\
[07/07/2026-02:11:10] [V] [TRT]  (foreignNode)   20, 0.0101120, 1.05934, 0.83962, sm80_xmma_gemm\n\
[07/07/2026-02:11:10] [V] [TRT]  (foreignNode)  261, 0.0142336, 1.49112, 0.74913, sm80_xmma_gemm\n\
[07/07/2026-02:11:10] [I] [TRT] Done\n";

#[test]
fn runs_become_blocks_and_the_rest_stays_text() {
    let (pieces, lines) = scan_all(LOG.as_bytes(), 1 << 20);
    assert_eq!(lines, 7);
    assert_eq!(pieces.len(), 5);
    match &pieces[1] {
        Piece::Timings {
            first_line,
            tactics,
            times,
            kernels,
            ..
        } => {
            assert_eq!(*first_line, 2);
            assert_eq!(tactics, &vec![0x20318, 0x2031a]);
            assert_eq!(times, &vec![0.0123, 0.0456]);
            assert_eq!(kernels.as_ref().unwrap()[1], "sm80_xmma_fprop_b");
        }
        other => panic!("{other:?}"),
    }
    match &pieces[3] {
        Piece::Myelin {
            first_line,
            lines,
            bodies,
            ..
        } => {
            assert_eq!((*first_line, *lines), (5, 2));
            assert!(bodies.starts_with(" (foreignNode)   20,"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&pieces[4], Piece::Lines { first_line: 7, .. }));
}

#[test]
fn any_feeding_gives_the_same_pieces() {
    let (whole, _) = scan_all(LOG.as_bytes(), 1 << 20);
    for size in [1, 2, 7, 64, 100] {
        assert_eq!(
            scan_all(LOG.as_bytes(), size).0,
            whole,
            "fed {size} bytes at a time"
        );
    }
}

#[test]
fn a_run_followed_by_a_bare_line_keeps_its_last_line_as_text() {
    let log = "[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x1 Time: 1\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x2 Time: 2\n\
  a continuation line\n";
    let (pieces, _) = scan_all(log.as_bytes(), 1 << 20);
    assert!(matches!(&pieces[0], Piece::Timings { tactics, .. } if tactics == &vec![1]));
    match &pieces[1] {
        Piece::Lines {
            first_line, text, ..
        } => {
            assert_eq!(*first_line, 2);
            assert_eq!(text.lines().count(), 2);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unclean_lines_and_crlf_stay_text() {
    let log = "[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x1 Time: 1\r\n\
[07/07/2026-02:11:09] [V] [TRT] \x1b[0mTactic: 0x2 Time: 2\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x3 Time: 3[07/07/2026-02:11:10] [I] x\n";
    let (pieces, lines) = scan_all(log.as_bytes(), 5);
    assert_eq!(lines, 3);
    assert!(pieces
        .iter()
        .all(|piece| matches!(piece, Piece::Lines { .. })));
}

#[test]
fn invalid_utf8_is_replaced_and_a_last_line_without_newline_counts() {
    let log = b"[07/07/2026-02:11:09] [I] caf\xe9\n[07/07/2026-02:11:09] [I] end";
    let (pieces, lines) = scan_all(log, 3);
    assert_eq!(lines, 2);
    let text: Vec<&str> = pieces
        .iter()
        .map(|piece| match piece {
            Piece::Lines { text, .. } => text.as_str(),
            _ => "",
        })
        .collect();
    assert_eq!(
        text.concat(),
        "[07/07/2026-02:11:09] [I] caf\u{FFFD}\n[07/07/2026-02:11:09] [I] end"
    );
}

#[test]
fn a_message_split_elsewhere_is_claimed_as_a_line_of_it_would_be() {
    let scanner = Scanner::new(1, Guards::none());
    // 7.x's Python logger ("[TensorRT] VERBOSE: "), which the scanner does not read itself.
    let timing = scanner.claim("Tactic: 0 time 0.044032", false, 12);
    match timing {
        Some(Piece::Timings {
            first_line,
            tactics,
            times,
            kernels,
            ..
        }) => {
            assert_eq!((first_line, tactics, times), (12, vec![0], vec![0.044032]));
            assert_eq!(kernels, None);
        }
        other => panic!("not a timing: {other:?}"),
    }
    let Some(Piece::Records { records, .. }) =
        scanner.claim("Fastest Tactic: 0x0000000000020318 Time: 0.0123", false, 3)
    else {
        panic!("not a record");
    };
    assert_eq!(records[0].rule(), "fastest_tactic");
    let average =
        "Average on 10 runs - GPU latency: 0.5 ms - Host latency: 0.7 ms (enqueue 0.1 ms)";
    assert!(scanner.claim(average, false, 4).is_none());
    let Some(Piece::Records { records, .. }) = scanner.claim(average, true, 4) else {
        panic!("not trtexec's trace average");
    };
    assert_eq!(records[0].rule(), "trace_average");
    assert!(scanner
        .claim("Tactic: 0x1 Time: 0.5 ms", false, 5)
        .is_none());
    assert!(scanner.claim("Building an engine", false, 6).is_none());
}
