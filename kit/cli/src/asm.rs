//! `c64kit asm`: assemble a CBM prg Studio project, or source files in build order, into a
//! PRG (and a listing and a VICE label file).
//!
//! Nothing it writes can be one of the files it read: the PRG, the listing and the label
//! file are each checked against every file of the assembly (the project, every source,
//! every `incasm` and `incbin` file) before anything is written, and a project's own output
//! name must stay inside the project's folder.

use anyhow::{bail, Context, Result};
use c64kit::{derived_output, parse_number};
use c64kit_files::errln;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct AsmArgs {
    /// A .cbmprj project, or .asm source files in build order (like a project's build list:
    /// one program, the program counter running on from file to file).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Output PRG (default: the project's output name, inside the project's folder; or the
    /// first source with .prg, NAME-assembled.prg for a source named NAME.prg).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write a listing: address, bytes and source line of each statement.
    #[arg(long, visible_alias = "list", value_name = "FILE")]
    listing: Option<PathBuf>,
    /// Write the labels as a VICE monitor label file (`al C:0820 .main`), for VICE's
    /// -moncommands and `c64kit run --labels`.
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Define a symbol before assembly, NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
    /// Look for `incasm` and `incbin` files here too, after the including file's folder.
    /// Repeatable.
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
}

pub fn asm(args: AsmArgs) -> Result<()> {
    let mut opts = c64kit_asm::Options::default();
    for d in &args.define {
        let (name, value) = d
            .split_once('=')
            .with_context(|| format!("-D {d}: expected NAME=VALUE"))?;
        let value = match value.trim().strip_prefix('-') {
            Some(magnitude) => -(parse_number(magnitude)? as i64),
            None => parse_number(value)? as i64,
        };
        opts.defines.push((name.to_string(), value));
    }
    opts.include_dirs = args.include_dirs.clone();
    let first = &args.files[0];
    let is_project = |f: &PathBuf| {
        f.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("cbmprj"))
    };
    if args.files.len() > 1 {
        if let Some(project) = args.files.iter().find(|f| is_project(f)) {
            bail!(
                "{}: a project is assembled on its own (its build list names its files); give \
                 either one .cbmprj or source files",
                project.display()
            );
        }
    }
    let assembly = if is_project(first) {
        c64kit_asm::assemble_project(first, &opts)
    } else {
        c64kit_asm::assemble_files(&args.files, &opts)
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in &assembly.warnings {
        errln!("{}", warning(w));
    }
    let output = match args.output {
        Some(o) => o,
        None => match assembly.project_output(first).map_err(anyhow::Error::msg)? {
            Some(o) => o,
            None => derived_output(first, "prg", "assembled"),
        },
    };
    // Every output is checked before the first is written: a refused command leaves
    // everything as it was.
    let mut outputs: Vec<(&Path, &str, Vec<u8>)> =
        vec![(&output, "the output PRG", assembly.prg())];
    if let Some(list) = &args.listing {
        outputs.push((list, "the listing", assembly.listing.clone().into_bytes()));
    }
    if let Some(labels) = &args.labels {
        outputs.push((
            labels,
            "the label file",
            assembly.vice_symbols().into_bytes(),
        ));
    }
    for (i, (path, what, _)) in outputs.iter().enumerate() {
        assembly
            .ensure_not_input(path, what)
            .map_err(anyhow::Error::msg)?;
        if let Some((other, other_is, _)) = outputs[..i]
            .iter()
            .find(|(o, _, _)| o == path || c64kit_files::same_file(o, path))
        {
            bail!(
                "{what} {} is also {other_is} {}: give each output its own name",
                path.display(),
                other.display()
            );
        }
    }
    for (path, _, bytes) in &outputs {
        c64kit_files::write_output(path, bytes).map_err(|e| {
            anyhow::anyhow!(
                "cannot write {}: {}",
                path.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
    }
    errln!(
        "{}: ${:04X}-${:04X} ({} bytes)",
        output.display(),
        assembly.load_address,
        assembly.load_address as usize + assembly.bytes.len(),
        assembly.bytes.len()
    );
    Ok(())
}

/// `main.asm:3: warning: ...`, as compilers write them.
fn warning(w: &c64kit_asm::AsmError) -> String {
    match w.line {
        0 => format!("{}: warning: {}", w.file, w.message),
        line => format!("{}:{line}: warning: {}", w.file, w.message),
    }
}
