//! The engine's long jobs besides `go`: `perft` and `solve`, each on the search thread so
//! that `isready`, `stop` and `quit` are answered meanwhile.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::protocol::{ErrorCode, Info, Reply, SolveMethod};
use crate::solve::Method;

use super::{error, no_position, Engine, RunningSearch, HEAD_START};

/// The solver's method for the protocol's name of it.
pub(super) fn solver_method(method: SolveMethod) -> Method {
    match method {
        SolveMethod::Auto => Method::Auto,
        SolveMethod::Search => Method::Search,
        SolveMethod::Regions => Method::Regions,
        SolveMethod::Threats => Method::Threats,
    }
}

impl Engine {
    /// `perft`: counts on its own thread, so that `isready`, `stop`, `quit` and the end of
    /// input are answered meanwhile (a `perft 50` runs for ever).
    pub(super) fn perft(&mut self, depth: u32, divide: bool) {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let sink = Arc::clone(&self.sink);
        match self
            .session
            .perft(depth, divide, Arc::clone(&stop), Arc::clone(&done), sink)
        {
            Ok(handle) => self.start_job(RunningSearch { stop, done, handle }),
            Err(reply) => self.emit(reply),
        }
    }

    /// Keeps `job` (a `perft` or `solve`) as the running task, giving it [`HEAD_START`]
    /// to finish first: a quick one then answers before any later command is read (a
    /// controller sending `perft 2` then `isready` gets the count first, as before these
    /// ran on their own thread), a long one is still interruptible at once after that.
    pub(super) fn start_job(&mut self, job: RunningSearch) {
        let deadline = Instant::now() + HEAD_START;
        while !job.handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        if job.handle.is_finished() {
            let _ = job.handle.join();
        } else {
            self.search = Some(job);
        }
    }

    /// `solve`: proves the value of the current position on the search thread, so that
    /// `stop` and `isready` are answered meanwhile; one `solution` line at the end.
    pub(super) fn solve(
        &mut self,
        method: crate::solve::Method,
        distance: bool,
        movetime: Option<u64>,
    ) {
        let Some(position) = self.session.position() else {
            self.emit(no_position());
            return;
        };
        let spec = self.session.spec().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let sink = Arc::clone(&self.sink);
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        // The proof's tables take at most `Hash` MiB.
        let memory_mib = self.options.hash_mb;
        let spawned = std::thread::Builder::new()
            .name("solve".into())
            .spawn(move || {
                let limit = movetime.map(Duration::from_millis);
                let solved = crate::solve::solve(
                    &spec,
                    Some(&position),
                    method,
                    distance,
                    limit,
                    memory_mib,
                    thread_stop,
                );
                let reply = match solved {
                    Ok(report) => {
                        if let Some(cut @ crate::solve::Cut::Memory { .. }) = report.cut {
                            let what = if report.verdict.is_some() {
                                "the distance"
                            } else {
                                "a proof"
                            };
                            sink(Reply::Info(Info {
                                string: Some(format!(
                                    "solve: {cut} (the Hash option) before {what}, after {} \
                                     nodes; a larger Hash may finish it",
                                    report.nodes
                                )),
                                ..Info::default()
                            }));
                        }
                        solution_reply(&report)
                    }
                    Err(message) => error(ErrorCode::BadPosition, message).into(),
                };
                thread_done.store(true, Ordering::SeqCst);
                sink(reply);
            });
        match spawned {
            Ok(handle) => self.start_job(RunningSearch { stop, done, handle }),
            Err(e) => self.emit(error(
                ErrorCode::Busy,
                format!("cannot start the solve thread: {e}"),
            )),
        }
    }
}

/// The `solution` line of a solve report.
fn solution_reply(report: &crate::solve::SolveReport) -> Reply {
    use crate::solve::Verdict;
    let (result, plies) = match report.verdict {
        Some(Verdict::Win(p)) => ("win", p),
        Some(Verdict::Loss(p)) => ("loss", p),
        Some(Verdict::Draw) => ("draw", None),
        None => ("unknown", None),
    };
    Reply::Solution {
        result: result.to_string(),
        plies,
        mv: report
            .best_move
            .clone()
            .filter(|_| report.verdict.is_some()),
        method: report.method.to_string(),
        nodes: report.nodes,
        time_ms: report.elapsed.as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The protocol's method names are the solver's (`agon solve --method` takes those).
    #[test]
    fn protocol_methods_are_the_solvers() {
        for m in SolveMethod::ALL {
            assert_eq!(solver_method(m).name(), m.name());
        }
        assert_eq!(SolveMethod::names(), Method::names());
    }
}
