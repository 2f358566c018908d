//! A scanner on a thread of its own: a chunk is scanned while the caller works on the pieces of
//! the chunk before (the Python side, whose thread holds the interpreter lock nearly all the
//! time; this thread never needs it).

use std::sync::{mpsc, Mutex};
use std::thread::JoinHandle;

use super::{Piece, Scanner};

/// Why the scanning thread gave no pieces: it panicked (with its message), or its channel
/// closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    Panicked(String),
    Closed,
}

/// A scanner running on its own thread; chunks are scanned in the order they are sent.
pub struct ScanAhead {
    chunks: mpsc::Sender<Vec<u8>>,
    // In a mutex only so that a shared reference may wait on it from another thread (the
    // Python side waits with the interpreter lock released).
    pieces: Mutex<mpsc::Receiver<(Vec<Piece>, u64)>>,
    /// Chunks sent whose pieces have not been received.
    in_flight: usize,
    thread: JoinHandle<Scanner>,
    /// Held by the thread until it ends (tests watch it end).
    #[cfg(test)]
    alive: std::sync::Arc<()>,
}

impl ScanAhead {
    /// Moves `scanner` onto a thread of its own; where no thread can be started (a process
    /// limit), the scanner comes back. Dropping the result ends the thread once the chunk it is
    /// scanning is done.
    pub fn start(scanner: Scanner) -> Result<ScanAhead, Box<Scanner>> {
        let (handing, handed) = mpsc::channel::<Scanner>();
        let (chunks, chunks_in) = mpsc::channel::<Vec<u8>>();
        let (pieces_out, pieces) = mpsc::channel();
        #[cfg(test)]
        let alive = std::sync::Arc::new(());
        #[cfg(test)]
        let held = std::sync::Arc::clone(&alive);
        let spawned = std::thread::Builder::new()
            .name("trtlog-scan".to_string())
            .spawn(move || {
                #[cfg(test)]
                let _held = held;
                let mut scanner = handed.recv().expect("the scanner is handed over at start");
                for chunk in chunks_in {
                    let scanned = scanner.feed(&chunk);
                    if pieces_out.send((scanned, scanner.lines)).is_err() {
                        break;
                    }
                }
                scanner
            });
        let Ok(thread) = spawned else {
            return Err(Box::new(scanner));
        };
        handing
            .send(scanner)
            .expect("the thread waits for its scanner");
        Ok(ScanAhead {
            chunks,
            pieces: Mutex::new(pieces),
            in_flight: 0,
            thread,
            #[cfg(test)]
            alive,
        })
    }

    /// Chunks sent whose pieces have not been received.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Hands the next chunk to the thread.
    pub fn send(&mut self, chunk: Vec<u8>) -> Result<(), Stopped> {
        self.chunks.send(chunk).map_err(|_| Stopped::Closed)?;
        self.in_flight += 1;
        Ok(())
    }

    /// The pieces of the oldest chunk in flight and the lines read up to its end; waits for
    /// them. With no chunk in flight there is nothing to wait for: `Closed`.
    pub fn receive(&self) -> Result<(Vec<Piece>, u64), Stopped> {
        if self.in_flight == 0 {
            return Err(Stopped::Closed);
        }
        let pieces = self.pieces.lock().map_err(|_| Stopped::Closed)?;
        pieces.recv().map_err(|_| Stopped::Closed)
    }

    /// Notes that the oldest chunk's pieces were received.
    pub fn received(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// Ends the thread once every chunk is scanned; the scanner comes back, or the message
    /// of the panic that ended the thread. Call once every chunk's pieces are received.
    pub fn join(self) -> Result<Scanner, Stopped> {
        drop(self.chunks);
        self.thread.join().map_err(|payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|text| text.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the scanning thread panicked".to_string());
            Stopped::Panicked(message)
        })
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

    fn started() -> ScanAhead {
        ScanAhead::start(scanner()).unwrap_or_else(|_| panic!("a thread starts"))
    }

    #[test]
    fn pieces_are_those_of_a_scan_on_this_thread() {
        let mut here = scanner();
        let mut expected = here.feed(LOG.as_bytes());
        expected.extend(here.finish());
        for size in [1, 7, 64, LOG.len()] {
            let mut ahead = started();
            let mut pieces = Vec::new();
            for chunk in LOG.as_bytes().chunks(size) {
                ahead.send(chunk.to_vec()).unwrap();
                if ahead.in_flight() > 1 {
                    pieces.extend(ahead.receive().unwrap().0);
                    ahead.received();
                }
            }
            while ahead.in_flight() > 0 {
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
        let mut ahead = started();
        ahead.send(LOG.as_bytes().to_vec()).unwrap();
        let back = ahead.join().unwrap();
        assert_eq!(back.lines, 5);
    }

    #[test]
    fn nothing_in_flight_is_not_waited_for() {
        let ahead = started();
        assert_eq!(ahead.receive(), Err(Stopped::Closed));
    }

    #[test]
    fn a_scan_dropped_with_chunks_in_flight_ends_its_thread() {
        let mut ahead = started();
        for _ in 0..4 {
            ahead.send(LOG.as_bytes().to_vec()).unwrap();
        }
        let alive = std::sync::Arc::clone(&ahead.alive);
        drop(ahead);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::sync::Arc::strong_count(&alive) > 1 {
            assert!(
                std::time::Instant::now() < deadline,
                "the thread still runs"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
