#!/usr/bin/env bash
# test.sh: the whole test suite, from a fresh machine: installs what is
# missing, builds, runs unit tests (ctest) and lit tests, repeats both in an
# AddressSanitizer+UndefinedBehaviorSanitizer build (leaks reported), runs
# every libFuzzer target for a bounded time (two at a time, one per core), and
# ends with a summary line.
# Environment: NC_FUZZ_SECONDS (default 45 per target), NC_SKIP_ASAN=1, NC_SKIP_FUZZ=1.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/setup.sh" --python || { echo "nc test summary: FAIL (setup)"; exit 1; }

lit=(/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -q --no-progress-bar)
results=()
failed=0
step() { # name, command...
  local name=$1; shift
  local t0=$SECONDS
  if "$@"; then results+=("$name: ok ($((SECONDS - t0)) s)"); else results+=("$name: FAILED"); failed=1; fi
}

step "build" scripts/build.sh "$root/build"
step "unit tests" ctest --test-dir "$root/build" --output-on-failure -j2
step "lit tests" "${lit[@]}" "$root/build/test"

if [[ "${NC_SKIP_ASAN:-0}" != 1 ]]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  step "asan+ubsan build" scripts/build.sh "$root/build-asan" -DNC_SANITIZE=ON
  step "asan+ubsan unit tests" ctest --test-dir "$root/build-asan" --output-on-failure -j2
  step "asan+ubsan lit tests" env NC_SANITIZED=1 "${lit[@]}" "$root/build-asan/test"
  unset ASAN_OPTIONS UBSAN_OPTIONS
fi

if [[ "${NC_SKIP_FUZZ:-0}" != 1 ]]; then
  step "fuzz build" scripts/build.sh "$root/build-fuzz" -DNC_FUZZ=ON -DCMAKE_C_COMPILER=/usr/lib/llvm-19/bin/clang \
       -DCMAKE_CXX_COMPILER=/usr/lib/llvm-19/bin/clang++
  secs=${NC_FUZZ_SECONDS:-45}
  fuzz_one() { # fuzzer binary: runs it on a copy of its seed corpus; log and saved input in build-fuzz/
    local f=$1 name corpus seeds rc
    name=$(basename "$f")
    corpus=$(mktemp -d)
    seeds="$root/test/fuzz/corpus/${name#fuzz_}"
    [[ -d "$seeds" ]] && cp -r "$seeds"/. "$corpus"/
    "$f" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$root/build-fuzz/$name-" \
         -print_final_stats=0 "$corpus" 2>"$root/build-fuzz/$name.log"
    rc=$?
    rm -rf "$corpus"
    return $rc
  }
  # two fuzzers at a time, one per core: the budget is wall time on 2 cores
  fuzzers=()
  for f in "$root"/build-fuzz/test/fuzz_*; do [[ -x "$f" ]] && fuzzers+=("$f"); done
  for ((i = 0; i < ${#fuzzers[@]}; i += 2)); do
    pids=()
    for f in "${fuzzers[@]:i:2}"; do fuzz_one "$f" & pids+=($!); done
    for j in "${!pids[@]}"; do
      f=${fuzzers[i + j]}; name=$(basename "$f")
      step "fuzz ${name#fuzz_} (${secs} s)" wait "${pids[j]}"
      # a failure shows the sanitizer report and names the saved input, so CI's log is enough to reproduce
      [[ ${results[-1]} == *FAILED ]] && grep -a -v '^#[0-9]' "$root/build-fuzz/$name.log" | tail -n 40
    done
  done
fi

printf '%s\n' "${results[@]}"
if ((failed)); then echo "nc test summary: FAIL"; exit 1; fi
echo "nc test summary: PASS (${#results[@]} steps)"
