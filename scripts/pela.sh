#!/usr/bin/env bash
# agon against Pela, Petr Lastovicka's gomoku brain (version 7.9, GPL; the brain that
# ships with the Piskvork manager, never part of this project): builds pbrain-pela for
# Linux from a checkout of its public source, runs `arena check --proto gomocup` on it,
# then a match of gomoku 15x15 freestyle and its report.
#
#   scripts/pela.sh SRC [OUT]
#
# SRC: a checkout of https://github.com/plastovicka/Piskvork (the brain is
# source/pbrain/ with the pipe skeleton source/skelet_CPP/). OUT: the output folder
# (default /tmp/agon-pela; the brain is OUT/pbrain-pela). Environment: GAMES=100,
# TC=st=0.1 (the arena's time control for both), SEED=5, CONCURRENCY=1, AGON=the agon to
# measure (default: this checkout's release build), OPENINGS=the repository's 100
# balanced openings (tests/data/gomoku-balanced-openings.txt, made by Rapfi's opengen;
# any --openings value), BUILD_ONLY=1 to stop after the build.
#
# The sources are Win32 console code. They are compiled unchanged but for the one
# include written with a backslash; the few Win32 calls they make (GetTickCount, Sleep,
# two events and a thread for the pipe loop, case-blind string compares, min, max and a
# 64-bit product)
# come from a small POSIX stand-in for <windows.h> that this script writes into OUT.
set -euo pipefail
SRC=${1:?usage: scripts/pela.sh SRC [OUT]}
OUT=${2:-/tmp/agon-pela}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-100}
TC=${TC:-st=0.1}
SEED=${SEED:-5}
CONCURRENCY=${CONCURRENCY:-1}
OPENINGS=${OPENINGS:-gomocup:$ROOT/tests/data/gomoku-balanced-openings.txt}
[ -f "$SRC/source/pbrain/pisktur.cpp" ] && [ -f "$SRC/source/skelet_CPP/pisqpipe.cpp" ] \
  || { echo "$SRC has no source/pbrain/pisktur.cpp: give a checkout of plastovicka/Piskvork" >&2; exit 2; }
command -v g++ >/dev/null || { echo "g++ is needed (Debian: apt-get install g++)" >&2; exit 2; }
mkdir -p "$OUT/src/pbrain" "$OUT/src/skelet_CPP" "$OUT/shim"
cp "$SRC"/source/pbrain/*.cpp "$SRC"/source/pbrain/board.h "$OUT/src/pbrain/"
cp "$SRC"/source/skelet_CPP/pisqpipe.cpp "$SRC"/source/skelet_CPP/pisqpipe.h "$OUT/src/skelet_CPP/"
sed -i 's|\.\.\\skelet_CPP\\pisqpipe\.h|../skelet_CPP/pisqpipe.h|' "$OUT/src/pbrain/board.h"
cat >"$OUT/shim/windows.h" <<'EOF'
/* A POSIX stand-in for the parts of <windows.h> that the Pela brain uses. */
#pragma once
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
typedef uint32_t DWORD;
typedef uint64_t DWORD64;
typedef int BOOL;
typedef void *LPVOID;
typedef struct agon_event *HANDLE;
#define WINAPI
#define TRUE 1
#define FALSE 0
#define UInt32x32To64(a, b) ((uint64_t)(uint32_t)(a) * (uint64_t)(uint32_t)(b))
#define _atoi64 atoll
#define INFINITE 0xFFFFFFFFu
#define STD_INPUT_HANDLE ((DWORD)-10)
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#define _strnicmp strncasecmp
#define _stricmp strcasecmp
struct agon_event {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int manual, set;
};
static inline DWORD GetTickCount(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (DWORD)((uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u);
}
static inline void Sleep(DWORD ms) { usleep((useconds_t)ms * 1000u); }
static inline HANDLE GetStdHandle(DWORD) { return 0; }
/* Not a console: the brain is always run by a manager here. */
static inline BOOL GetConsoleMode(HANDLE, DWORD *) { return 0; }
static inline HANDLE CreateEvent(void *, BOOL manual, BOOL initial, const char *) {
  HANDLE e = (HANDLE)calloc(1, sizeof(struct agon_event));
  pthread_mutex_init(&e->lock, 0);
  pthread_cond_init(&e->changed, 0);
  e->manual = manual;
  e->set = initial;
  return e;
}
static inline BOOL SetEvent(HANDLE e) {
  pthread_mutex_lock(&e->lock);
  e->set = 1;
  pthread_cond_broadcast(&e->changed);
  pthread_mutex_unlock(&e->lock);
  return 1;
}
static inline BOOL ResetEvent(HANDLE e) {
  pthread_mutex_lock(&e->lock);
  e->set = 0;
  pthread_mutex_unlock(&e->lock);
  return 1;
}
static inline DWORD WaitForSingleObject(HANDLE e, DWORD) {
  pthread_mutex_lock(&e->lock);
  while (!e->set) pthread_cond_wait(&e->changed, &e->lock);
  if (!e->manual) e->set = 0;
  pthread_mutex_unlock(&e->lock);
  return 0;
}
typedef DWORD (*agon_thread_fn)(LPVOID);
struct agon_thread_start { agon_thread_fn fn; LPVOID arg; };
static inline void *agon_thread_main(void *p) {
  struct agon_thread_start s = *(struct agon_thread_start *)p;
  free(p);
  s.fn(s.arg);
  return 0;
}
static inline HANDLE CreateThread(void *, size_t, agon_thread_fn fn, LPVOID arg, DWORD, DWORD *) {
  struct agon_thread_start *s = (struct agon_thread_start *)malloc(sizeof *s);
  s->fn = fn;
  s->arg = arg;
  pthread_t t;
  pthread_create(&t, 0, agon_thread_main, s);
  pthread_detach(t);
  return (HANDLE)1;
}
EOF
g++ -O2 -w -fpermissive -pthread -I"$OUT/shim" -o "$OUT/pbrain-pela" \
  "$OUT"/src/pbrain/*.cpp "$OUT/src/skelet_CPP/pisqpipe.cpp" 2>"$OUT/build.log" \
  || { echo "pbrain-pela did not build: see $OUT/build.log" >&2; exit 1; }
echo "built $OUT/pbrain-pela"
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
(cd "$ROOT" && cargo build --release --workspace)
ARENA="$ROOT/target/release/arena"
AGON=${AGON:-$ROOT/target/release/agon}
"$ARENA" check --proto gomocup --game gomoku -- "$OUT/pbrain-pela"
# TC is split into the arena's words on purpose (`tc=120 st=5`).
# shellcheck disable=SC2086
"$ARENA" match --game gomoku --games "$GAMES" --concurrency "$CONCURRENCY" --seed "$SEED" \
  --openings "$OPENINGS" --each $TC --out "$OUT/match" \
  --engine cmd="$AGON" name=agon \
  --engine cmd="$OUT/pbrain-pela" name=pela proto=gomocup
"$ARENA" report "$OUT/match" -o "$OUT/report.html"
