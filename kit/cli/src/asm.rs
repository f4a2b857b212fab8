//! `c64kit asm`: assemble a CBM prg Studio source or project into a PRG.
//!
//! Nothing it writes can be one of the files it read: the PRG, the listing and the label
//! file are each checked against every file of the assembly (the project, every source,
//! every `incasm` and `incbin` file) before anything is written, and a project's own output
//! name must stay inside the project's folder.

use anyhow::{bail, Context, Result};
use c64kit::{derived_output, parse_number};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct AsmArgs {
    /// A .asm source file or a .cbmprj project.
    file: PathBuf,
    /// Output PRG (default: the project's output name, inside the project's folder; or the
    /// source with .prg, NAME-assembled.prg for a source named NAME.prg).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write a listing with addresses and bytes beside each line.
    #[arg(long)]
    list: Option<PathBuf>,
    /// Write the labels as a VICE monitor symbol file.
    #[arg(long)]
    labels: Option<PathBuf>,
    /// Define a symbol before assembly, NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
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
    let assembly =
        c64kit_asm::assemble_path(&args.file, &opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    let output = match args.output {
        Some(o) => o,
        None => match assembly
            .project_output(&args.file)
            .map_err(anyhow::Error::msg)?
        {
            Some(o) => o,
            None => derived_output(&args.file, "prg", "assembled"),
        },
    };
    // Every output is checked before the first is written: a refused command leaves
    // everything as it was.
    let mut outputs: Vec<(&Path, &str, Vec<u8>)> =
        vec![(&output, "the output PRG", assembly.prg())];
    if let Some(list) = &args.list {
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
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!(
        "{}: ${:04X}-${:04X} ({} bytes)",
        output.display(),
        assembly.load_address,
        assembly.load_address as usize + assembly.bytes.len(),
        assembly.bytes.len()
    );
    Ok(())
}
