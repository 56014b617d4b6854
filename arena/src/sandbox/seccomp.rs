//! The box's system-call filter: the kernel surface that container escapes of recent
//! years used, refused with an error (never a kill, so a bot that merely probes keeps
//! playing).
//!
//! Built with `seccompiler` (rust-vmm, the filter compiler of Firecracker: pure Rust, no
//! libseccomp to link), as a deny list on top of what the box already forbids, in the
//! spirit of Docker's default profile (`moby/profiles/seccomp/default.json`): Docker allows
//! a list and refuses the rest; agon refuses the calls Docker refuses to a container
//! without capabilities, plus io_uring, key management and every way to a new namespace.
//!
//! Refused with `EPERM`:
//! - namespaces and mounts: `unshare`, `setns`, `clone` with any `CLONE_NEW*` flag,
//!   `mount`, `umount2`, `pivot_root`, `chroot`, the new mount API (`fsopen`, `fsconfig`,
//!   `fsmount`, `fspick`, `open_tree`, `move_mount`, `mount_setattr`);
//! - key management: `keyctl`, `add_key`, `request_key` (a box sees no key ring at all);
//! - io_uring: `io_uring_setup`, `io_uring_enter`, `io_uring_register`;
//! - other processes: `ptrace`, `process_vm_readv`, `process_vm_writev`, `kcmp`,
//!   `pidfd_getfd`;
//! - the kernel and the machine: `bpf`, `perf_event_open`, `userfaultfd`, module loading
//!   (`init_module`, `finit_module`, `delete_module`), `kexec_load`, `kexec_file_load`,
//!   `reboot`, `swapon`, `swapoff`, `acct`, `quotactl`, `syslog`, `vhangup`,
//!   `settimeofday`, `clock_settime`, `clock_adjtime`, `lookup_dcookie`,
//!   `name_to_handle_at`, `open_by_handle_at`, `fanotify_init`, NUMA placement (`mbind`,
//!   `set_mempolicy`, `move_pages`), and on x86-64 `iopl`, `ioperm`, `uselib`, `ustat`,
//!   `sysfs`, `_sysctl`;
//! - `personality` with anything but the ordinary Linux personalities;
//! - `ioctl` `TIOCSTI` and `TIOCLINUX` (typing into a terminal), compared on the low 32
//!   bits as the kernel reads the request;
//! - x32-ABI system calls (numbers with bit 30 set), which would reach every call above
//!   under another number.
//!
//! Refused with `ENOSYS`: `clone3`, whose flags sit in memory a filter cannot read; the C
//! library then falls back to `clone`, whose flags it can (Docker does the same).
//!
//! At the `limits` level, which has no IPC namespace of its own, the System V and POSIX
//! IPC calls that create shared objects (`shmget`, `msgget`, `semget`, `mq_open`) are
//! refused too, so that nothing a bot creates outlives it or reaches another bot.
//!
//! A system call of another architecture (the 32-bit `int 0x80` entry on x86-64) kills
//! the calling process: `seccompiler` checks the architecture first.

use std::collections::BTreeMap;
use std::io;

use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};

/// Which filter set: the namespaced levels, or `limits` (no IPC namespace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `strict` and `userns`: the box has its own IPC namespace.
    Namespaced,
    /// `limits`: IPC objects would be the host's, so they are refused too.
    NoNamespaces,
}

/// The system calls refused unconditionally with `EPERM`.
fn denied() -> Vec<(&'static str, i64)> {
    let mut list: Vec<(&'static str, i64)> = vec![
        ("unshare", libc::SYS_unshare),
        ("setns", libc::SYS_setns),
        ("mount", libc::SYS_mount),
        ("umount2", libc::SYS_umount2),
        ("pivot_root", libc::SYS_pivot_root),
        ("chroot", libc::SYS_chroot),
        ("fsopen", libc::SYS_fsopen),
        ("fsconfig", libc::SYS_fsconfig),
        ("fsmount", libc::SYS_fsmount),
        ("fspick", libc::SYS_fspick),
        ("open_tree", libc::SYS_open_tree),
        ("move_mount", libc::SYS_move_mount),
        ("mount_setattr", libc::SYS_mount_setattr),
        ("keyctl", libc::SYS_keyctl),
        ("add_key", libc::SYS_add_key),
        ("request_key", libc::SYS_request_key),
        ("io_uring_setup", libc::SYS_io_uring_setup),
        ("io_uring_enter", libc::SYS_io_uring_enter),
        ("io_uring_register", libc::SYS_io_uring_register),
        ("ptrace", libc::SYS_ptrace),
        ("process_vm_readv", libc::SYS_process_vm_readv),
        ("process_vm_writev", libc::SYS_process_vm_writev),
        ("kcmp", libc::SYS_kcmp),
        ("pidfd_getfd", libc::SYS_pidfd_getfd),
        ("bpf", libc::SYS_bpf),
        ("perf_event_open", libc::SYS_perf_event_open),
        ("userfaultfd", libc::SYS_userfaultfd),
        ("init_module", libc::SYS_init_module),
        ("finit_module", libc::SYS_finit_module),
        ("delete_module", libc::SYS_delete_module),
        ("kexec_load", libc::SYS_kexec_load),
        ("kexec_file_load", libc::SYS_kexec_file_load),
        ("reboot", libc::SYS_reboot),
        ("swapon", libc::SYS_swapon),
        ("swapoff", libc::SYS_swapoff),
        ("acct", libc::SYS_acct),
        ("quotactl", libc::SYS_quotactl),
        ("syslog", libc::SYS_syslog),
        ("vhangup", libc::SYS_vhangup),
        ("settimeofday", libc::SYS_settimeofday),
        ("clock_settime", libc::SYS_clock_settime),
        ("clock_adjtime", libc::SYS_clock_adjtime),
        ("lookup_dcookie", libc::SYS_lookup_dcookie),
        ("name_to_handle_at", libc::SYS_name_to_handle_at),
        ("open_by_handle_at", libc::SYS_open_by_handle_at),
        ("fanotify_init", libc::SYS_fanotify_init),
        ("mbind", libc::SYS_mbind),
        ("set_mempolicy", libc::SYS_set_mempolicy),
        ("move_pages", libc::SYS_move_pages),
    ];
    #[cfg(target_arch = "x86_64")]
    list.extend([
        ("iopl", libc::SYS_iopl),
        ("ioperm", libc::SYS_ioperm),
        ("uselib", libc::SYS_uselib),
        ("ustat", libc::SYS_ustat),
        ("sysfs", libc::SYS_sysfs),
        ("_sysctl", libc::SYS__sysctl),
    ]);
    list
}

/// The IPC calls refused where the box has no IPC namespace.
fn ipc() -> Vec<(&'static str, i64)> {
    vec![
        ("shmget", libc::SYS_shmget),
        ("msgget", libc::SYS_msgget),
        ("semget", libc::SYS_semget),
        ("mq_open", libc::SYS_mq_open),
    ]
}

/// Every name the filters refuse, for the documentation test and for people.
pub fn refused_names(profile: Profile) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = denied().into_iter().map(|(n, _)| n).collect();
    names.extend([
        "clone (CLONE_NEW*)",
        "clone3",
        "personality",
        "ioctl (TIOCSTI, TIOCLINUX)",
    ]);
    if profile == Profile::NoNamespaces {
        names.extend(ipc().into_iter().map(|(n, _)| n));
    }
    names
}

fn arch() -> io::Result<TargetArch> {
    TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| io::Error::other(format!("no system-call filter for this machine: {e}")))
}

fn rule(conditions: Vec<SeccompCondition>) -> io::Result<SeccompRule> {
    SeccompRule::new(conditions).map_err(|e| io::Error::other(e.to_string()))
}

fn cond(
    arg: u8,
    len: SeccompCmpArgLen,
    op: SeccompCmpOp,
    value: u64,
) -> io::Result<SeccompCondition> {
    SeccompCondition::new(arg, len, op, value).map_err(|e| io::Error::other(e.to_string()))
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> io::Result<BpfProgram> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch()?,
    )
    .map_err(|e| io::Error::other(e.to_string()))?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| io::Error::other(e.to_string()))
}

/// The `EPERM` filter: the deny list, `clone` with namespace flags, `personality`, and
/// the terminal `ioctl`s.
fn eperm_filter(profile: Profile) -> io::Result<BpfProgram> {
    use SeccompCmpArgLen::{Dword, Qword};
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for (_, nr) in denied() {
        rules.insert(nr, Vec::new());
    }
    if profile == Profile::NoNamespaces {
        for (_, nr) in ipc() {
            rules.insert(nr, Vec::new());
        }
    }
    // clone(flags, ...) on every architecture agon builds for has the flags first.
    let namespaces = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
        libc::CLONE_NEWCGROUP,
        0x80, // CLONE_NEWTIME
    ];
    let mut clone = Vec::new();
    for flag in namespaces {
        let flag = flag as u64;
        clone.push(rule(vec![cond(
            0,
            Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )?])?);
    }
    rules.insert(libc::SYS_clone, clone);
    // personality: only PER_LINUX (0), PER_LINUX32 (8), their ADDR_NO_RANDOMIZE forms
    // (0x40000, 0x40008: what `setarch -R` asks) and the query 0xffffffff.
    let allowed = [0u64, 8, 0x0004_0000, 0x0004_0008, 0xffff_ffff];
    let conditions = allowed
        .iter()
        .map(|&v| cond(0, Dword, SeccompCmpOp::Ne, v))
        .collect::<io::Result<Vec<_>>>()?;
    rules.insert(libc::SYS_personality, vec![rule(conditions)?]);
    let ioctls = [libc::TIOCSTI, 0x541C /* TIOCLINUX */];
    let mut ioctl = Vec::new();
    for request in ioctls {
        // libc::Ioctl is u64 here but not on every target.
        #[allow(clippy::unnecessary_cast)]
        let request = request as u64;
        ioctl.push(rule(vec![cond(1, Dword, SeccompCmpOp::Eq, request)?])?);
    }
    rules.insert(libc::SYS_ioctl, ioctl);
    compile(rules, libc::EPERM)
}

/// The `ENOSYS` filter: `clone3`.
fn enosys_filter() -> io::Result<BpfProgram> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_clone3, Vec::new());
    compile(rules, libc::ENOSYS)
}

/// On x86-64, a filter refusing the x32 ABI (system-call numbers with bit 30 set), which
/// `seccompiler`'s architecture check lets through: written by hand, six instructions.
fn x32_filter() -> Option<BpfProgram> {
    if std::env::consts::ARCH != "x86_64" {
        return None;
    }
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    const RET_ALLOW: u32 = 0x7fff_0000;
    const RET_ERRNO: u32 = 0x0005_0000;
    let i = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    Some(vec![
        i(LD_W_ABS, 0, 0, 4), // seccomp_data.arch
        i(JEQ_K, 0, 3, AUDIT_ARCH_X86_64),
        i(LD_W_ABS, 0, 0, 0), // seccomp_data.nr
        i(JGE_K, 0, 1, 0x4000_0000),
        i(RET_K, 0, 0, RET_ERRNO | libc::EPERM as u32),
        i(RET_K, 0, 0, RET_ALLOW),
    ])
}

/// The compiled filters of `profile`, built once per arena run.
pub fn programs(profile: Profile) -> io::Result<&'static [BpfProgram]> {
    use std::sync::OnceLock;
    static NAMESPACED: OnceLock<Result<Vec<BpfProgram>, String>> = OnceLock::new();
    static LIMITS: OnceLock<Result<Vec<BpfProgram>, String>> = OnceLock::new();
    let cell = match profile {
        Profile::Namespaced => &NAMESPACED,
        Profile::NoNamespaces => &LIMITS,
    };
    let built = cell.get_or_init(|| {
        let mut all = vec![
            eperm_filter(profile).map_err(|e| e.to_string())?,
            enosys_filter().map_err(|e| e.to_string())?,
        ];
        all.extend(x32_filter());
        Ok(all)
    });
    match built {
        Ok(p) => Ok(p.as_slice()),
        Err(e) => Err(io::Error::other(e.clone())),
    }
}

/// A program as the bytes bwrap reads from `--add-seccomp-fd` (an array of
/// `struct sock_filter`, in the machine's byte order).
pub fn to_bytes(program: &[sock_filter]) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for f in program {
        out.extend(f.code.to_ne_bytes());
        out.push(f.jt);
        out.push(f.jf);
        out.extend(f.k.to_ne_bytes());
    }
    out
}

/// Installs `programs` on the calling thread, which must be the only one (a forked child
/// before `exec`). Sets `no_new_privs` first, as the kernel requires without
/// `CAP_SYS_ADMIN`. Only system calls: safe between fork and exec.
///
/// # Errors
/// The kernel's refusal.
pub fn install(programs: &[BpfProgram]) -> io::Result<()> {
    // SAFETY: prctl and seccomp on memory prepared before the fork that outlives the call.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        for program in programs {
            let prog = libc::sock_fprog {
                len: program.len() as u16,
                filter: program.as_ptr() as *mut libc::sock_filter,
            };
            if libc::syscall(
                libc::SYS_seccomp,
                1, /* SECCOMP_SET_MODE_FILTER */
                0,
                &prog as *const libc::sock_fprog,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_compile_for_both_profiles() {
        for profile in [Profile::Namespaced, Profile::NoNamespaces] {
            let programs = programs(profile).unwrap();
            assert!(programs.len() >= 2);
            for p in programs {
                assert!(!p.is_empty() && p.len() < 4096, "{} instructions", p.len());
                assert_eq!(to_bytes(p).len(), p.len() * 8);
            }
        }
        assert!(refused_names(Profile::NoNamespaces).contains(&"shmget"));
        assert!(!refused_names(Profile::Namespaced).contains(&"shmget"));
    }
}
