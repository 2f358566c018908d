//! A scanner on a thread of its own: a chunk is scanned while the caller works on the pieces of
//! the chunk before (the Python side, whose thread holds the interpreter lock nearly all the
//! time; this thread never needs it).

use std::sync::{mpsc, Mutex};
use std::thread::JoinHandle;

use super::{Piece, Scanner};

/// The scanning thread stopped (it panicked, or could not be started).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// A scanner running on its own thread; chunks are scanned in the order they are sent.
pub struct ScanAhead {
    chunks: mpsc::Sender<Vec<u8>>,
    // In a mutex only so that a shared reference may wait on it from another thread (the
    // Python side waits with the interpreter lock released).
    pieces: Mutex<mpsc::Receiver<(Vec<Piece>, u64)>>,
    /// Chunks sent whose pieces have not been received.
    pub in_flight: usize,
    thread: JoinHandle<Scanner>,
}

impl ScanAhead {
    /// Moves `scanner` onto a thread of its own. Dropping the result ends the thread once the
    /// chunk it is scanning is done.
    pub fn start(mut scanner: Scanner) -> Result<ScanAhead, Stopped> {
        let (chunks, chunks_in) = mpsc::channel::<Vec<u8>>();
        let (pieces_out, pieces) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("trtlog-scan".to_string())
            .spawn(move || {
                for chunk in chunks_in {
                    let scanned = scanner.feed(&chunk);
                    if pieces_out.send((scanned, scanner.lines)).is_err() {
                        break;
                    }
                }
                scanner
            })
            .map_err(|_| Stopped)?;
        Ok(ScanAhead {
            chunks,
            pieces: Mutex::new(pieces),
            in_flight: 0,
            thread,
        })
    }

    /// Hands the next chunk to the thread.
    pub fn send(&mut self, chunk: Vec<u8>) -> Result<(), Stopped> {
        self.chunks.send(chunk).map_err(|_| Stopped)?;
        self.in_flight += 1;
        Ok(())
    }

    /// The pieces of the oldest chunk in flight and the lines read up to its end; waits for
    /// them.
    pub fn receive(&self) -> Result<(Vec<Piece>, u64), Stopped> {
        let pieces = self.pieces.lock().map_err(|_| Stopped)?;
        pieces.recv().map_err(|_| Stopped)
    }

    /// Notes that the oldest chunk's pieces were received.
    pub fn received(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// Ends the thread once every chunk is scanned; the scanner comes back. Call once every
    /// chunk's pieces are received.
    pub fn join(self) -> Result<Scanner, Stopped> {
        drop(self.chunks);
        self.thread.join().map_err(|_| Stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::Guards;

    const LOG: &str = "[07/07/2026-02:11:00] [V] [TRT] --------------- Timing Runner: conv (CaskConvolution[0x80000009])\n\
        [07/07/2026-02:11:00] [V] [TRT] Tactic: 0x0000000000000001 Time: 0.0512\n\
        [07/07/2026-02:11:00] [V] [TRT] Tactic: 0x0000000000000002 Time: 0.0448\n\
        [07/07/2026-02:11:00] [V] [TRT] Fastest Tactic: 0x0000000000000002 Time: 0.0448\n\
        [07/07/2026-02:11:01] [I] [TRT] Some other line\n";

    fn scanner() -> Scanner {
        Scanner::new(1, Guards::none())
    }

    #[test]
    fn pieces_are_those_of_a_scan_on_this_thread() {
        let mut here = scanner();
        let mut expected = here.feed(LOG.as_bytes());
        expected.extend(here.finish());
        for size in [1, 7, 64, LOG.len()] {
            let mut ahead = ScanAhead::start(scanner()).unwrap();
            let mut pieces = Vec::new();
            for chunk in LOG.as_bytes().chunks(size) {
                ahead.send(chunk.to_vec()).unwrap();
                if ahead.in_flight > 1 {
                    pieces.extend(ahead.receive().unwrap().0);
                    ahead.received();
                }
            }
            while ahead.in_flight > 0 {
                pieces.extend(ahead.receive().unwrap().0);
                ahead.received();
            }
            let mut back = ahead.join().unwrap();
            pieces.extend(back.finish());
            assert_eq!(pieces, expected, "chunks of {size} bytes");
            assert_eq!(back.lines, 5);
        }
    }

    #[test]
    fn a_scan_ends_with_pieces_left_unreceived() {
        let mut ahead = ScanAhead::start(scanner()).unwrap();
        ahead.send(LOG.as_bytes().to_vec()).unwrap();
        let back = ahead.join().unwrap();
        assert_eq!(back.lines, 5);
    }
}
