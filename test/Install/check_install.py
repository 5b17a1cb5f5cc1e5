#!/usr/bin/python3
"""check_install.py: checks an installed nc (cmake --install build --prefix P).

Run by install.test. Checks, printing one line per finding for FileCheck:
  - the layout: headers under P/include/nc, libnc.so and libnc_runtime.a in
    P/lib, nc.pc, the CMake package, the tools in P/bin;
  - every public header compiles on its own from the install tree
    (`#include <nc/...>` with -std=c11 -Wall -Wextra -Werror and only
    `pkg-config --cflags nc`), so none includes a private or generated header
    and none depends on another being included first;
  - a program built with `pkg-config --cflags --libs nc` links libnc.so and
    runs; so does one built with CMake's find_package(nc) and nc::nc;
  - the installed nc-opt runs.
Exits 1 if anything is missing or failed (a failed build or run stops the
script at once, with the compiler's or tool's output).
"""
import argparse
import os
import subprocess
import sys

PROGRAM = r"""
/* uses libnc.so: parse, canonicalize, print */
#include <stdio.h>
#include <string.h>
#include <nc/dialects/dialects.h>
#include <nc/ir.h>
#include <nc/ir/pass.h>
#include <nc/passes/passes.h>

int main(void)
{
  static const char src[] = "func.func @f(%a: i32) -> i32 {\n"
                            "  %c0 = arith.constant 0 : i32\n"
                            "  %0 = arith.addi %a, %c0 : i32\n"
                            "  return %0 : i32\n}\n";
  nc_register_all_passes();
  nc_context *ctx = nc_context_create();
  nc_register_all_dialects(ctx);
  nc_op *m = nc_parse_string(ctx, src, strlen(src), "src.mlir");
  nc_pass_manager *pm = nc_pass_pipeline_parse(ctx, "builtin.module(canonicalize)");
  nc_pass_run_options opts = nc_pass_run_options_default();
  if (!m || !pm || !nc_pass_manager_run(pm, m, &opts))
    return 1;
  nc_op_print(m, stdout, NULL);
  nc_pass_manager_destroy(pm);
  nc_op_destroy(m);
  nc_context_destroy(ctx);
  return 0;
}
"""

CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.20)
project(use_nc C)
find_package(nc 0.1 REQUIRED CONFIG)
add_executable(use_nc main.c)
target_link_libraries(use_nc PRIVATE nc::nc)
"""


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        print(f"FAILED: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
        sys.exit(1)
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    p = os.path.abspath(a.prefix)
    os.makedirs(a.work, exist_ok=True)
    missing = 0

    for rel in ["include/nc/plugin.h", "include/nc/ir.h", "lib/libnc.so", "lib/libnc_runtime.a",
                "lib/pkgconfig/nc.pc", "lib/pkgconfig/nc-runtime.pc", "lib/cmake/nc/ncConfig.cmake",
                "lib/cmake/nc/ncConfigVersion.cmake", "lib/cmake/nc/ncTargets.cmake",
                "bin/nc-opt", "bin/nc-translate", "bin/nc-compile", "bin/nc-run"]:
        ok = os.path.exists(os.path.join(p, rel))
        missing += not ok
        print(f"{'ok' if ok else 'MISSING'}: {rel}")

    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(p, "lib/pkgconfig"))
    cflags = run(["pkg-config", "--cflags", "nc"], env=env).split()
    libs = run(["pkg-config", "--libs", "nc"], env=env).split()

    # every header alone
    inc = os.path.join(p, "include")
    headers = sorted(os.path.relpath(os.path.join(d, f), inc)
                     for d, _, fs in os.walk(os.path.join(inc, "nc")) for f in fs if f.endswith(".h"))
    failed = 0
    for h in headers:
        src = os.path.join(a.work, "header.c")
        with open(src, "w") as f:
            f.write(f"#include <{h}>\n")
        r = subprocess.run([a.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", *cflags, src],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print(f"HEADER FAILED: {h}\n{r.stderr}")
    print(f"headers compiled alone: {len(headers) - failed} of {len(headers)}")

    # a program built with pkg-config
    main_c = os.path.join(a.work, "main.c")
    with open(main_c, "w") as f:
        f.write(PROGRAM)
    exe = os.path.join(a.work, "use_nc_pc")
    run([a.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *cflags, "-o", exe, main_c, *libs,
         f"-Wl,-rpath,{os.path.join(p, 'lib')}"])
    print("pkg-config program:")
    print(run([exe]), end="")

    # a program built with find_package(nc)
    proj = os.path.join(a.work, "cmake-project")
    os.makedirs(proj, exist_ok=True)
    with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE_PROJECT)
    with open(os.path.join(proj, "main.c"), "w") as f:
        f.write(PROGRAM)
    bld = os.path.join(proj, "build")
    run([a.cmake, "-S", proj, "-B", bld, f"-DCMAKE_PREFIX_PATH={p}", f"-DCMAKE_C_COMPILER={a.cc}"])
    run([a.cmake, "--build", bld])
    print("cmake program:")
    print(run([os.path.join(bld, "use_nc")]), end="")

    # the installed tool
    print("installed nc-opt:")
    print(run([os.path.join(p, "bin/nc-opt"), "--show-dialects"]), end="")
    sys.exit(1 if missing or failed else 0)


if __name__ == "__main__":
    main()
