#!/usr/bin/env bash
# setup.sh: installs the Debian packages nc needs (only those missing).
# Usage: scripts/setup.sh [--python]   (--python adds torch/onnx/sklearn for model tests)
set -euo pipefail
pkgs=(build-essential cmake pkg-config llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev mlir-19-tools
      libisl-dev libprotobuf-c-dev protobuf-c-compiler libonnx-dev libjansson-dev graphviz python3 python3-numpy python3-dev
      time chromium)
if [[ "${1:-}" == "--python" ]]; then
  pkgs+=(python3-torch python3-torchvision python3-onnx python3-sklearn python3-h5py)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
