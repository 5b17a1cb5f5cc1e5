# lit configuration for nc: every .mlir/.test file under test/ is a test run
# with the build's tools, LLVM 19's FileCheck/not/count, and mlir-opt when
# it is installed (feature 'mlir-opt').
import os
import shutil
import lit.formats

config.name = "nc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".onnx-test"]
config.excludes = ["Inputs", "unit", "fuzz", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nc_build_dir, "test")

path = [config.nc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
config.environment["PATH"] = os.pathsep.join(path)
config.substitutions.append(("%nc_src", config.nc_src_dir))
config.substitutions.append(("%nc_build", config.nc_build_dir))
config.substitutions.append(("%python", "/usr/bin/python3"))
# the install tests (test/Install, test/Plugins) install the build with
# cmake and compile against it with the build's C compiler
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%cc", config.cc))
shared = os.path.join(os.path.dirname(config.nc_src_dir), "shared")
config.substitutions.append(("%shared", shared))
# ONNX's backend test cases beside the checkout: tests that need them say
# `REQUIRES: onnx-tests` (lit then reports them UNSUPPORTED) or print
# "skipped: no ../shared/onnx-tests" themselves.
if os.path.isdir(os.path.join(shared, "onnx-tests")):
    config.available_features.add("onnx-tests")

# scripts/test.sh sets NC_SANITIZED=1 for the sanitizer build's lit run:
# tests too slow there (whole torchvision models) say `UNSUPPORTED: sanitized`.
if os.environ.get("NC_SANITIZED") == "1":
    config.available_features.add("sanitized")
if config.mlir_opt and os.path.exists(config.mlir_opt):
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir-opt", config.mlir_opt))
if shutil.which("dot"):
    config.available_features.add("dot")
# Headless chromium for the report's browser test (scripts/setup.sh installs Debian's).
if shutil.which("chromium"):
    config.available_features.add("chromium")
else:
    lit_config.note("no chromium: Tools/report-browser.test is skipped (scripts/setup.sh installs it)")
# The Python bindings (python/) are built when python3-dev is installed.
if os.path.exists(os.path.join(config.nc_build_dir, "python", "nc", "_nc.so")):
    config.available_features.add("python-bindings")
    config.environment["PYTHONPATH"] = os.path.join(config.nc_build_dir, "python")
# %pync runs python on the nc package. In the sanitized build _nc.so
# links the ASan runtime, which must be the first library loaded, so it is
# preloaded into /usr/bin/python3 (found with ldd, as the build linked it).
# LeakSanitizer is off there: CPython and NumPy keep allocations at exit and
# every stack passes through the interpreter, so no suppression can separate
# their leaks from ours; test_bindings.py's test_no_reference_leaks checks
# the bindings' own objects with tracemalloc instead.
python_nc = "/usr/bin/python3"
if os.environ.get("NC_SANITIZED") == "1" and "python-bindings" in config.available_features:
    import subprocess
    ldd = subprocess.run(["ldd", os.path.join(config.nc_build_dir, "python", "nc", "_nc.so")],
                         capture_output=True, text=True).stdout
    asan = [l.split("=>")[1].split()[0] for l in ldd.splitlines() if "libasan" in l and "=>" in l]
    if asan:
        python_nc = ("env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "
                     "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 /usr/bin/python3" % asan[0])
config.substitutions.append(("%pync", python_nc))
