//! Landlock (landlock(7), Linux 5.13 and later): the `limits` level's confinement of
//! writes to the engine's private directory, applied in the child between fork and exec.

use std::io;

/// Landlock's ABI version, or 0 when the kernel has none
/// (`landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`, landlock(7)).
pub fn landlock_abi() -> i64 {
    // SAFETY: the version query reads no memory.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    v.max(0)
}

/// The Landlock filesystem rights that modify something, for an ABI version (landlock(7):
/// WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR ... MAKE_SYM in ABI 1, REFER in 2,
/// TRUNCATE in 3).
pub fn write_rights(abi: i64) -> u64 {
    // WRITE_FILE, then REMOVE_DIR (bit 4) to MAKE_SYM (bit 12).
    let mut rights: u64 = (1 << 1) | (0b1_1111_1111 << 4);
    if abi >= 2 {
        rights |= 1 << 13;
    }
    if abi >= 3 {
        rights |= 1 << 14;
    }
    rights
}

/// The rights of [`write_rights`] that apply to a file (WRITE_FILE, TRUNCATE).
const FILE_RIGHTS: u64 = (1 << 1) | (1 << 14);

/// Confines writes to `paths` with Landlock (landlock(7)). Runs in the child between
/// fork and exec: only system calls.
pub fn restrict_writes(rights: u64, paths: &[std::ffi::CString]) -> io::Result<()> {
    #[repr(C)]
    struct RulesetAttr {
        handled_access_fs: u64,
    }
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    let attr = RulesetAttr {
        handled_access_fs: rights,
    };
    // SAFETY: system calls on memory that outlives them; descriptors are closed.
    unsafe {
        let ruleset = libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const RulesetAttr,
            std::mem::size_of::<RulesetAttr>(),
            0u32,
        );
        if ruleset < 0 {
            return Err(io::Error::last_os_error());
        }
        let ruleset = ruleset as i32;
        for path in paths {
            let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if fd < 0 {
                continue;
            }
            // A rule on a file may only carry the rights that apply to files.
            let mut stat: libc::stat = std::mem::zeroed();
            let is_dir =
                libc::fstat(fd, &mut stat) == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFDIR;
            let rule = PathBeneath {
                allowed_access: if is_dir { rights } else { rights & FILE_RIGHTS },
                parent_fd: fd,
            };
            let rc = libc::syscall(
                libc::SYS_landlock_add_rule,
                ruleset,
                1u32, // LANDLOCK_RULE_PATH_BENEATH
                &rule as *const PathBeneath,
                0u32,
            );
            libc::close(fd);
            if rc != 0 {
                libc::close(ruleset);
                return Err(io::Error::last_os_error());
            }
        }
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32) != 0
        {
            let e = io::Error::last_os_error();
            libc::close(ruleset);
            return Err(e);
        }
        libc::close(ruleset);
    }
    Ok(())
}
