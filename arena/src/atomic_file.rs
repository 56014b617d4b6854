//! Whole-file writes that never leave a half-written file and never follow a planted link:
//! the text goes to a new temporary file in the target's own folder (created with
//! `O_EXCL` and an unpredictable name by the `tempfile` crate), which is then renamed
//! over the target. A reader sees the old file or the new one; a symbolic link at the
//! target is replaced, not written through. The file gets the mode `File::create` gives
//! (0666 less the process's umask, applied by open(2)), like the journals beside it: with
//! the usual umask 022 a teaching assistant's account or a web server can read it.

use std::io::Write;
use std::path::Path;

/// Writes `contents` to `path` atomically, creating the parent folder if needed.
///
/// # Errors
/// The I/O error, with the path in its message.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let with_path =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(with_path)?;
    tmp.write_all(contents.as_ref()).map_err(with_path)?;
    tmp.as_file().sync_data().map_err(with_path)?;
    tmp.persist(path).map_err(|e| with_path(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::write;

    #[test]
    fn replaces_a_planted_link_instead_of_writing_through_it() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let target = dir.path().join("grades.csv");
        std::os::unix::fs::symlink(&victim, &target).unwrap();
        write(&target, "a,b\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "a,b\n");
        assert!(!std::fs::symlink_metadata(&target)
            .unwrap()
            .file_type()
            .is_symlink());
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    /// The umask applies as for `File::create` (the test binary's umask: compare with a
    /// file that `std::fs::write` creates beside it).
    #[test]
    fn the_mode_is_what_file_create_gives() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let target = dir.path().join("report.json");
        write(&target, "{}").unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&target), mode(&plain));
        assert_ne!(mode(&target) & 0o044, 0, "not 0600 under the usual umask");
    }

    #[test]
    fn a_folder_in_the_way_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        std::fs::create_dir(&target).unwrap();
        let e = write(&target, "{}").unwrap_err();
        assert!(e.to_string().contains("out.json"), "{e}");
    }
}
