//! `--trace FILE`: written as every output is (`c64kit_files::OutputFile`), while the run goes.
//! The machine owns the writer it traces into; the run keeps the file's other handle, to put
//! the complete trace in place when the run is over.

use c64kit_files::{io_reason, OutputFile};
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The trace file, shared by the writer the machine traces into and the run that ends it.
pub struct TraceFile {
    path: PathBuf,
    file: Rc<RefCell<Option<OutputFile>>>,
}

/// The machine's handle: writes into the file until the run takes it.
struct Writer(Rc<RefCell<Option<OutputFile>>>);

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.borrow_mut().as_mut() {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("the trace was already ended")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.borrow_mut().as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl TraceFile {
    /// Starts the trace before the run (a folder that does not exist fails now); returns it
    /// with the buffered writer the machine traces into.
    pub fn create(path: &Path) -> anyhow::Result<(TraceFile, Box<dyn Write>)> {
        let file = OutputFile::create(path).map_err(|e| failed(path, &e))?;
        let file = Rc::new(RefCell::new(Some(file)));
        let writer = Box::new(std::io::BufWriter::new(Writer(Rc::clone(&file))));
        let trace = TraceFile {
            path: path.to_path_buf(),
            file,
        };
        Ok((trace, writer))
    }

    /// Puts the trace in place, once the machine has flushed its writer; `written` is how
    /// writing it went.
    pub fn finish(self, written: std::io::Result<()>) -> anyhow::Result<()> {
        let file = self.file.borrow_mut().take();
        written
            .and_then(|()| file.map_or(Ok(()), OutputFile::commit))
            .map_err(|e| failed(&self.path, &e))
    }
}

fn failed(path: &Path, e: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!(
        "cannot write the trace {}: {}",
        path.display(),
        io_reason(e)
    )
}
