//! `c64kit asm`: assemble a CBM prg Studio source or project into a PRG.

use anyhow::{Context, Result};
use c64kit::parse_number;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct AsmArgs {
    /// A .asm source file or a .cbmprj project.
    file: PathBuf,
    /// Output PRG (default: the project's output name, or the source with .prg).
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
    let output = args
        .output
        .or_else(|| {
            assembly
                .output_name
                .as_ref()
                .map(|n| args.file.with_file_name(n))
        })
        .unwrap_or_else(|| args.file.with_extension("prg"));
    std::fs::write(&output, assembly.prg()).with_context(|| format!("{}", output.display()))?;
    if let Some(list) = args.list {
        std::fs::write(&list, &assembly.listing).with_context(|| format!("{}", list.display()))?;
    }
    if let Some(labels) = args.labels {
        std::fs::write(&labels, assembly.vice_labels())
            .with_context(|| format!("{}", labels.display()))?;
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
