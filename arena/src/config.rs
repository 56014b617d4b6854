//! Engine specifications from the command line: `key=value` words, fastchess style
//! (`cmd=PATH args="..." name=NAME dir=DIR proto=ugi option.Depth=3 tc=10+0.1`).

use std::path::{Path, PathBuf};

use crate::dialect::Dialect;

use crate::clock::TimeControl;
use crate::process::SpawnSpec;
use crate::referee::EngineConfig;

/// An engine spec that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine '{spec}': {reason}")]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// The keys an engine spec takes, for help texts.
pub const ENGINE_KEYS: &str =
    "cmd=PATH args=\"ARGS\" name=NAME dir=DIR python=PATH proto=ugi|uci|tei \
option.NAME=VALUE env.NAME=VALUE tc=BASE+INC st=SECONDS depth=N nodes=N \
sandbox=on|strict|userns|limits|off mem=MiB cpu=SECONDS nproc=N fsize=MiB cpus=N ro=PATH \
suspend=on|off";

/// Splits `args="a b"` style text the way a shell would for plain words and quotes.
pub fn split_args(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(n) = chars.next() {
                    current.push(n);
                }
            }
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    current.push(n);
                    in_word = true;
                }
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            (None, c) => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err("unclosed quote".into());
    }
    if in_word {
        out.push(current);
    }
    Ok(out)
}

/// A partly given engine: what one `--engine` (or `--each`) says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// `cmd=`.
    pub cmd: Option<String>,
    /// `args=` (split like a shell).
    pub args: Option<Vec<String>>,
    /// `name=`.
    pub name: Option<String>,
    /// `dir=`.
    pub dir: Option<PathBuf>,
    /// `proto=`.
    pub dialect: Option<Dialect>,
    /// `python=`: the interpreter of a `.py` command without the execute bit.
    pub python: Option<String>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// `env.NAME=VALUE`.
    pub env: Vec<(String, String)>,
    /// `tc=`, `st=`, `depth=`, `nodes=`.
    pub tc: TimeControl,
    /// `sandbox=LEVEL`: `Some(None)` for `sandbox=off`, `None` when not given.
    pub sandbox_level: Option<Option<crate::sandbox::Level>>,
    /// `mem=MiB`, `cpu=SECONDS`, `nproc=N`, `fsize=MiB`, `cpus=N`, `ro=PATH`: the limits
    /// of the sandbox ([`crate::sandbox`]; its `level` field is not used here).
    pub sandbox_limits: crate::sandbox::Sandbox,
}

impl EngineSpec {
    /// Parses words like `cmd=./bot name=bot tc=1+0.01`. A word may also be one string
    /// holding several (`"cmd=./bot name=bot"`).
    ///
    /// # Errors
    /// [`SpecError`] for unknown keys or bad values.
    pub fn parse(words: &[String]) -> Result<EngineSpec, SpecError> {
        let whole = words.join(" ");
        let err = |reason: String| SpecError {
            spec: whole.clone(),
            reason,
        };
        // A word holding several items (`"cmd=./bot name=bot"`) is split like a shell
        // would, but only when every piece is a known key; otherwise it is one item whose
        // value has spaces (`args=-c 'exit 0'` after the shell removed the quotes).
        let mut items = Vec::new();
        for w in words {
            match split_args(w) {
                Ok(pieces) if pieces.len() > 1 && pieces.iter().all(|p| is_known_item(p)) => {
                    items.extend(pieces)
                }
                _ => items.push(w.clone()),
            }
        }
        let mut spec = EngineSpec::default();
        for item in items {
            let Some((key, value)) = item.split_once('=') else {
                return Err(err(format!(
                    "'{item}' is not key=value (keys: {ENGINE_KEYS})"
                )));
            };
            match key {
                "cmd" => spec.cmd = Some(value.to_string()),
                "args" | "arg" => spec.args = Some(split_args(value).map_err(err)?),
                "name" => spec.name = Some(value.to_string()),
                "python" => spec.python = Some(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.dialect = Some(crate::dialect::parse(value).map_err(err)?);
                }
                "sandbox" => {
                    spec.sandbox_level = Some(crate::sandbox::Level::parse(value).map_err(err)?);
                }
                "ro" => spec.sandbox_limits.read_only.push(PathBuf::from(value)),
                "suspend" => {
                    spec.sandbox_limits.keep_running = Some(match value {
                        "on" => false,
                        "off" => true,
                        _ => return Err(err(format!("suspend={value}: use on or off"))),
                    })
                }
                "mem" | "cpu" | "nproc" | "fsize" | "cpus" => {
                    let sb = &mut spec.sandbox_limits;
                    let n: u64 = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        err(format!("{key}={value}: expected a positive whole number"))
                    })?;
                    match key {
                        "mem" => sb.memory_bytes = Some(n << 20),
                        "cpu" => sb.cpu_seconds = Some(n),
                        "nproc" => sb.processes = Some(n),
                        "cpus" => sb.cpus = Some(n.min(1024) as u32),
                        _ => sb.file_bytes = Some(n << 20),
                    }
                }
                _ => {
                    if let Some(name) = key.strip_prefix("option.") {
                        spec.options.push((name.to_string(), value.to_string()));
                    } else if let Some(name) = key.strip_prefix("env.") {
                        spec.env.push((name.to_string(), value.to_string()));
                    } else if !spec.tc.set(key, value).map_err(|e| err(e.to_string()))? {
                        return Err(err(format!("unknown key '{key}' (keys: {ENGINE_KEYS})")));
                    }
                }
            }
        }
        Ok(spec)
    }

    /// This spec with the gaps filled from `base` (`--each`). Options and environment are
    /// `base`'s followed by this spec's.
    pub fn over(&self, base: &EngineSpec) -> EngineSpec {
        let mut tc = base.tc;
        if self.tc.is_set() {
            tc = self.tc;
        }
        EngineSpec {
            cmd: self.cmd.clone().or_else(|| base.cmd.clone()),
            args: self.args.clone().or_else(|| base.args.clone()),
            name: self.name.clone().or_else(|| base.name.clone()),
            dir: self.dir.clone().or_else(|| base.dir.clone()),
            dialect: self.dialect.or(base.dialect),
            python: self.python.clone().or_else(|| base.python.clone()),
            options: base.options.iter().chain(&self.options).cloned().collect(),
            env: base.env.iter().chain(&self.env).cloned().collect(),
            tc,
            sandbox_level: self.sandbox_level.or(base.sandbox_level),
            sandbox_limits: {
                let (mine, theirs) = (&self.sandbox_limits, &base.sandbox_limits);
                crate::sandbox::Sandbox {
                    level: mine.level,
                    memory_bytes: mine.memory_bytes.or(theirs.memory_bytes),
                    cpu_seconds: mine.cpu_seconds.or(theirs.cpu_seconds),
                    processes: mine.processes.or(theirs.processes),
                    file_bytes: mine.file_bytes.or(theirs.file_bytes),
                    cpus: mine.cpus.or(theirs.cpus),
                    keep_running: mine.keep_running.or(theirs.keep_running),
                    read_only: theirs
                        .read_only
                        .iter()
                        .chain(&mine.read_only)
                        .cloned()
                        .collect(),
                }
            },
        }
    }

    /// The sandbox this spec asks for.
    ///
    /// # Errors
    /// A limit given without `sandbox=` (limits belong to a sandbox: which one must be
    /// said), or a level this machine cannot give.
    pub fn sandbox(&self) -> Result<Option<crate::sandbox::Sandbox>, String> {
        let limits = &self.sandbox_limits;
        match self.sandbox_level {
            Some(Some(level)) => {
                crate::sandbox::require(level)?;
                Ok(Some(crate::sandbox::Sandbox {
                    level,
                    ..limits.clone()
                }))
            }
            _ if *limits != crate::sandbox::Sandbox::default() => Err(
                "mem=, cpu=, nproc=, fsize=, cpus=, ro= and suspend= are limits of the sandbox: add \
                 sandbox=on (namespaces, its own UID, cgroups; root), sandbox=userns (without \
                 root) or sandbox=limits (per-process limits only)"
                    .into(),
            ),
            _ => Ok(None),
        }
    }

    /// The final configuration: `cmd` is resolved (a bare name is looked up next to the
    /// arena binary, then on `PATH`) and checked to be an executable file.
    ///
    /// # Errors
    /// [`SpecError`] when `cmd` is missing or not executable.
    pub fn build(
        &self,
        default_name: &str,
        default_tc: TimeControl,
    ) -> Result<EngineConfig, SpecError> {
        let err = |reason: String| SpecError {
            spec: self.cmd.clone().unwrap_or_default(),
            reason,
        };
        let cmd = self
            .cmd
            .clone()
            .ok_or_else(|| err("no cmd= given".into()))?;
        let (program, args, home) = engine_command(
            &cmd,
            self.args.as_deref().unwrap_or_default(),
            self.dir.as_deref(),
            self.python.as_deref().unwrap_or("python3"),
        )
        .map_err(err)?;
        let sandbox = self.sandbox().map_err(err)?;
        let tc = if self.tc.is_set() {
            self.tc
        } else {
            default_tc
        };
        tc.consistent()
            .map_err(|e| err(format!("time control {tc}: {e}")))?;
        let name = self
            .name
            .clone()
            .unwrap_or_else(|| default_name.to_string());
        Ok(EngineConfig {
            name,
            spawn: SpawnSpec {
                program,
                args,
                dir: self.dir.clone(),
                env: self.env.clone(),
                stderr_log: None,
                stderr_cap: 0,
                keep_python_buffered: false,
                home: Some(home),
                sandbox,
                cpus: Vec::new(),
            },
            dialect: self.dialect.unwrap_or(Dialect::Ugi),
            options: self.options.clone(),
            tc,
        })
    }
}

fn is_known_item(item: &str) -> bool {
    let Some((key, _)) = item.split_once('=') else {
        return false;
    };
    matches!(
        key,
        "cmd"
            | "python"
            | "args"
            | "arg"
            | "name"
            | "dir"
            | "proto"
            | "mem"
            | "cpu"
            | "nproc"
            | "fsize"
            | "sandbox"
            | "cpus"
            | "ro"
            | "suspend"
            | "tc"
            | "st"
            | "bank"
            | "timeout"
            | "depth"
            | "plies"
            | "nodes"
    ) || key.starts_with("option.")
        || key.starts_with("env.")
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// What is wrong with `path` as a program to run, if anything.
fn program_problem(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let shown = path.display();
    match path.metadata() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("no such file: {shown}"))
        }
        Err(e) => Some(format!("cannot read {shown}: {e}")),
        Ok(m) if m.is_dir() => Some(format!(
            "{shown} is a folder: give the program inside it (for example {shown}/bot.py)"
        )),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => Some(format!(
            "not executable: {shown} (chmod +x it, or name it .py to run it with Python)"
        )),
        Ok(_) => None,
    }
}

/// Resolves an engine command: a path (with a `/`) is taken relative to `dir` (or the
/// current directory) and made absolute; a bare name is looked for next to the arena
/// binary, then on `PATH`. Symbolic links are kept as they are: a virtualenv's
/// `bin/python3` must stay the virtualenv's, not become the base interpreter.
///
/// # Errors
/// The one thing that is wrong: no such file, a folder, not executable, not found.
pub fn resolve_program(cmd: &str, dir: Option<&Path>) -> Result<PathBuf, String> {
    if cmd.is_empty() {
        return Err("an empty command".into());
    }
    if cmd.contains('/') {
        let path = PathBuf::from(cmd);
        let checked = match (path.is_relative(), dir) {
            (true, Some(d)) => d.join(&path),
            _ => path,
        };
        let checked = crate::sandbox::bwrap::absolute(&checked);
        return match program_problem(&checked) {
            None => Ok(checked),
            Some(problem) => Err(problem),
        };
    }
    if let Ok(exe) = std::env::current_exe() {
        let sibling = exe.with_file_name(cmd);
        if is_executable(&sibling) {
            return Ok(sibling);
        }
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for p in std::env::split_paths(&paths) {
            let candidate = p.join(cmd);
            if is_executable(&candidate) {
                return Ok(crate::sandbox::bwrap::absolute(&candidate));
            }
        }
    }
    Err(format!(
        "'{cmd}' was found neither next to the arena binary nor on PATH (give a path, such as ./{cmd})"
    ))
}

/// How to run an engine command: `(program, arguments, home)`. A `.py` file that is not
/// executable runs with `python` (also a path, relative to the current directory, or a
/// name on `PATH`); any other command must be executable. `home` is the folder a
/// sandboxed engine may read: `dir`, else the folder of the script or program.
///
/// # Errors
/// The one thing that is wrong with the command or the interpreter.
pub fn engine_command(
    cmd: &str,
    args: &[String],
    dir: Option<&Path>,
    python: &str,
) -> Result<(PathBuf, Vec<String>, PathBuf), String> {
    let script = if cmd.ends_with(".py") {
        let path = Path::new(cmd);
        let path = match (path.is_relative(), dir) {
            (true, Some(d)) => d.join(path),
            _ => path.to_path_buf(),
        };
        Some(crate::sandbox::bwrap::absolute(&path))
    } else {
        None
    };
    let home = |program: &Path| {
        dir.map(crate::sandbox::bwrap::absolute).unwrap_or_else(|| {
            program
                .parent()
                .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
        })
    };
    match script {
        Some(script) if !is_executable(&script) => {
            if let Some(problem) =
                program_problem(&script).filter(|p| !p.starts_with("not executable"))
            {
                return Err(problem);
            }
            let interpreter = resolve_program(python, None)
                .map_err(|e| format!("the Python interpreter for {}: {e}", script.display()))?;
            let mut all = vec![script.display().to_string()];
            all.extend(args.iter().cloned());
            Ok((interpreter, all, home(&script)))
        }
        Some(script) => {
            // An executable script runs by its own first line (#!...).
            let home = home(&script);
            Ok((script, args.to_vec(), home))
        }
        None => {
            let program = resolve_program(cmd, dir)?;
            let home = home(&program);
            Ok((program, args.to_vec(), home))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn split_like_a_shell() {
        assert_eq!(
            split_args(r#"a "b c" 'd e' f\ g"#).unwrap(),
            vec!["a", "b c", "d e", "f g"]
        );
        assert!(split_args("\"open").is_err());
        assert_eq!(split_args("").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn engine_words() {
        let s = EngineSpec::parse(&words(&[
            "cmd=/bin/sh",
            "args=-c 'exit 0'",
            "name=bot",
            "proto=uci",
            "option.Depth=3",
            "option.Searcher=minimax",
            "env.X=1",
            "tc=1+0.01",
            "depth=4",
        ]))
        .unwrap();
        assert_eq!(s.cmd.as_deref(), Some("/bin/sh"));
        assert_eq!(s.args, Some(words(&["-c", "exit 0"])));
        assert_eq!(s.dialect, Some(Dialect::Uci));
        assert_eq!(
            s.options,
            vec![
                ("Depth".into(), "3".into()),
                ("Searcher".into(), "minimax".into())
            ]
        );
        assert_eq!(
            s.tc.clock,
            Some(crate::clock::BaseInc {
                base_ms: 1000,
                inc_ms: 10
            })
        );
        assert_eq!(s.tc.depth, Some(4));
        let c = s.build("x", TimeControl::default()).unwrap();
        assert_eq!(c.name, "bot");
        // As given: a link (a virtualenv's python3) is never replaced by its target.
        assert_eq!(c.spawn.program, PathBuf::from("/bin/sh"));
    }

    #[test]
    fn one_quoted_word_with_several_items() {
        let s = EngineSpec::parse(&words(&["cmd=/bin/sh name=two tc=2+0"])).unwrap();
        assert_eq!(s.name.as_deref(), Some("two"));
        assert_eq!(
            s.tc.clock,
            Some(crate::clock::BaseInc {
                base_ms: 2000,
                inc_ms: 0
            })
        );
    }

    #[test]
    fn each_fills_gaps() {
        let each = EngineSpec::parse(&words(&["tc=5+0.1", "option.Hash=8"])).unwrap();
        let a = EngineSpec::parse(&words(&["cmd=/bin/sh", "option.Depth=2"])).unwrap();
        let merged = a.over(&each);
        assert_eq!(
            merged.tc.clock,
            Some(crate::clock::BaseInc {
                base_ms: 5000,
                inc_ms: 100
            })
        );
        assert_eq!(merged.options.len(), 2);
        let b = EngineSpec::parse(&words(&["cmd=/bin/sh", "st=1"]))
            .unwrap()
            .over(&each);
        assert_eq!(b.tc.clock, None);
        assert_eq!(b.tc.movetime, Some(1000));
    }

    #[test]
    fn errors_name_the_problem() {
        let e = EngineSpec::parse(&words(&["cmd=x", "colour=red"])).unwrap_err();
        assert!(e.reason.contains("unknown key 'colour'"), "{e}");
        let e = EngineSpec::parse(&words(&["tc=abc"])).unwrap_err();
        assert!(e.reason.contains("not a number"), "{e}");
        let e = EngineSpec::parse(&words(&["cmd=./does/not/exist"]))
            .unwrap()
            .build("x", TimeControl::default())
            .unwrap_err();
        assert!(e.reason.contains("no such file"), "{e}");
    }

    #[test]
    fn commands_resolve_as_typed() {
        let dir = tempfile::tempdir().unwrap();
        use std::os::unix::fs::PermissionsExt;
        let bot = dir.path().join("bot.py");
        std::fs::write(&bot, "print()\n").unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
        // A .py without the execute bit runs with the configured Python, the script
        // made absolute, the script's folder as the engine's own.
        let (program, args, home) =
            engine_command(bot.to_str().unwrap(), &["-x".into()], None, "/bin/sh").unwrap();
        assert_eq!(program, PathBuf::from("/bin/sh"));
        assert_eq!(args, vec![bot.display().to_string(), "-x".into()]);
        assert_eq!(home, dir.path());
        // The same relative to dir=, and through a virtualenv-like link, kept as a link.
        let venv = dir.path().join("venv/bin");
        std::fs::create_dir_all(&venv).unwrap();
        std::os::unix::fs::symlink("/bin/sh", venv.join("python3")).unwrap();
        let (program, args, _) = engine_command(
            "bot.py",
            &[],
            Some(dir.path()),
            venv.join("python3").to_str().unwrap(),
        )
        .unwrap();
        assert_eq!(program, venv.join("python3"));
        assert_eq!(args, vec![bot.display().to_string()]);
        // What is wrong is named.
        let shell = dir.path().join("engine");
        std::fs::write(&shell, "#!/bin/sh\n").unwrap();
        let e = engine_command(shell.to_str().unwrap(), &[], None, "python3").unwrap_err();
        assert!(
            e.starts_with("not executable: ") && e.contains("chmod +x"),
            "{e}"
        );
        let e = engine_command(dir.path().to_str().unwrap(), &[], None, "python3").unwrap_err();
        assert!(e.contains("is a folder"), "{e}");
        let e = engine_command("missing.py", &[], Some(dir.path()), "python3").unwrap_err();
        assert!(e.starts_with("no such file: "), "{e}");
        let e = engine_command("bot.py", &[], Some(dir.path()), "nopython9").unwrap_err();
        assert!(e.contains("the Python interpreter for"), "{e}");
    }
}
