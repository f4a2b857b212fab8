//! docs/ci.md's GitHub Actions jobs, run here: their YAML must parse, and their `run:`
//! steps, with the `c64kit` this build made standing in for the installed one, must build a
//! reader's project and judge or test it, leaving the reports their upload steps name.

mod common;

use common::*;
use std::path::Path;
use yaml_rust2::{Yaml, YamlLoader};

/// The workflow of docs/ci.md whose job is `job` (each ```yaml block is one workflow).
fn workflow(job: &str) -> Yaml {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ci.md"))
            .unwrap();
    let mut rest = doc.as_str();
    while let Some(at) = rest.find("```yaml\n") {
        let start = at + 8;
        let len = rest[start..].find("```").expect("the yaml block ends");
        let mut docs = YamlLoader::load_from_str(&rest[start..start + len])
            .unwrap_or_else(|e| panic!("docs/ci.md: a workflow is not valid YAML: {e}"));
        let wf = docs.remove(0);
        if !wf["jobs"][job].is_badvalue() {
            return wf;
        }
        rest = &rest[start + len..];
    }
    panic!("docs/ci.md has no workflow with a job {job:?}");
}

fn text(y: &Yaml) -> &str {
    y.as_str()
        .unwrap_or_else(|| panic!("expected a string, found {y:?}"))
}

/// Runs a job's `run:` steps in `dir` with `vars` set and the `c64kit` this build made on
/// PATH, as the runner would; an install step (cargo install of c64kit, apt-get of a tool
/// that is here already) is checked, not run. Returns the commands run and the files the
/// upload steps keep.
fn run_steps(steps: &[Yaml], dir: &Path, vars: &[(String, String)]) -> (Vec<String>, Vec<String>) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("c64kit"), bin.join("c64kit")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut ran, mut uploads) = (Vec::new(), Vec::new());
    for step in steps {
        if let Some(uses) = step["uses"].as_str() {
            if uses.starts_with("actions/upload-artifact") {
                uploads.push(text(&step["with"]["path"]).to_string());
            }
            if uses.starts_with("mikepenz/action-junit-report") {
                uploads.push(text(&step["with"]["report_paths"]).to_string());
            }
            continue;
        }
        let run = text(&step["run"]);
        if run.starts_with("cargo install") {
            // Installing needs the network; the package it names must be our binary's.
            assert!(run.trim_end().ends_with(" c64kit"), "{run}");
            assert!(run.contains("--git \"$C64KIT_GIT\""), "{run}");
            continue;
        }
        if run.contains("apt-get install") {
            // Needs root and the network: the tool (cc65) is here already.
            assert!(run.trim_end().ends_with(" cc65"), "{run}");
            continue;
        }
        let out = std::process::Command::new("bash")
            .args(["-e", "-c", run])
            .current_dir(dir)
            .env("PATH", &path)
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "step {:?} failed:\n{}\n{}",
            step["name"],
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(run.to_string());
    }
    (ran, uploads)
}

#[test]
fn the_documented_ci_job_runs_and_writes_its_reports() {
    let wf = workflow("conform");
    let env = wf["env"].as_hash().expect("the workflow sets env:");
    let steps = wf["jobs"]["conform"]["steps"]
        .as_vec()
        .expect("jobs.conform.steps");

    // The reader's repository: our ryg3 sources where PROJECT says they are.
    let dir = temp_dir("ci-doc");
    let project = dir.join(text(&wf["env"]["PROJECT"]));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs/ryg3");
    std::fs::create_dir_all(project.parent().unwrap()).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), project.parent().unwrap().join(e.file_name())).unwrap();
        }
    }
    let vars: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (text(k).to_string(), text(v).to_string()))
        .collect();
    let (ran, uploads) = run_steps(steps, &dir, &vars);
    assert_eq!(ran.len(), 2, "the job builds and judges: {ran:?}");
    assert!(!uploads.is_empty(), "the job keeps its reports");
    for pattern in uploads {
        match pattern.strip_suffix('*') {
            // "build/conform.*": the three reports.
            Some(prefix) => {
                for ext in ["html", "xml", "json"] {
                    let f = dir.join(format!("{prefix}{ext}"));
                    assert!(f.is_file(), "{pattern}: {} was not written", f.display());
                }
            }
            None => assert!(dir.join(&pattern).is_file(), "{pattern} was not written"),
        }
    }
    let xml = std::fs::read_to_string(dir.join("build/conform.xml")).unwrap();
    assert!(xml.contains(" failures=\"0\""), "{xml}");
}

/// The job that runs `c64kit test`, on a copy of examples/cc65 (laid out as the job
/// expects): cc65 builds the program, `c64kit test` runs tests/ and writes the reports the
/// job keeps. Without cl65 it says it skipped (CI's .ci/run installs cc65).
#[test]
fn the_documented_test_job_runs_on_the_cc65_example() {
    let wf = workflow("test");
    let steps = wf["jobs"]["test"]["steps"]
        .as_vec()
        .expect("jobs.test.steps");
    if no_cl65("the test job's build cannot run") {
        return;
    }
    let dir = temp_dir("ci-doc-test");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cc65"),
        &dir,
    );
    // The job runs under GitHub's CI=true, as c64kit test does here.
    let (ran, uploads) = run_steps(steps, &dir, &[("CI".into(), "true".into())]);
    assert_eq!(ran.len(), 2, "the job builds and tests: {ran:?}");
    assert!(ran[1].starts_with("c64kit test"), "{ran:?}");
    assert_eq!(
        uploads,
        ["build/tests.*", "build/tests.xml"],
        "the job keeps its reports"
    );
    for ext in ["xml", "html"] {
        let f = dir.join(format!("build/tests.{ext}"));
        assert!(f.is_file(), "{} was not written", f.display());
    }
    let xml = std::fs::read_to_string(dir.join("build/tests.xml")).unwrap();
    assert!(xml.contains(" failures=\"0\""), "{xml}");
    assert!(xml.contains("classname=\"units\""), "{xml}");
}
